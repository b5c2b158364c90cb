// Constraints across ranks (docs/parallel.md, "Constraints across ranks"): every rank holds
// every constraint node as an interface node shared with all ranks, and its system carries the
// whole constraint set renumbered to its own nodes, term for term in the same order.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "discretization/constraints.hpp"
#include "discretization/structure_system.hpp"
#include "io/inp_reader.hpp"
#include "parallel/partition.hpp"
#include "parallel/subdomain.hpp"

namespace halfstep {
namespace {

/// Decks with each kind of constraint: *EQUATION, *TIE (solids and MITC4 shells), *RIGID BODY
/// and kinematic *COUPLING.
const char* const kDecks[] = {"equation_bar.inp", "tie_refinement.inp", "shell_tie.inp", "rigid_end.inp",
                              "coupling_end.inp", "rigid_rotaryi.inp"};

Model read_deck(const std::string& name) { return read_inp(std::string(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/") + name); }

TEST(ConstraintShare, EveryConstraintNodeIsOnEveryRankAndSummedOverAllOfThem) {
  for (const char* name : kDecks) {
    const Model m = read_deck(name);
    const StructureSystem g = build_structure_system(m);
    ASSERT_TRUE(g.constrained()) << name;
    const std::vector<int> knodes = constraint_nodes(g.constraints, g.bodies);
    ASSERT_FALSE(knodes.empty()) << name;
    for (int ranks : {2, 3, 4}) {
      SCOPED_TRACE(testing::Message() << name << ", " << ranks << " ranks");
      const std::vector<int> part = partition_elements(m, ranks);
      for (int r = 0; r < ranks; ++r) {
        const Subdomain d = build_subdomain(g, part, r, ranks);
        for (int n : knodes) {
          const int l = d.node_local[static_cast<std::size_t>(n)];
          ASSERT_GE(l, 0) << "rank " << r << " lacks constraint node " << n;
          EXPECT_LT(l, d.num_interface) << "node " << n;
          EXPECT_EQ(d.owned[static_cast<std::size_t>(l)], r == 0 ? 1 : 0) << "node " << n;
          // One partial per rank, in rank order: every rank gets the same total.
          EXPECT_EQ(d.sum_ptr[static_cast<std::size_t>(l) + 1] - d.sum_ptr[static_cast<std::size_t>(l)], ranks);
        }
        EXPECT_EQ(static_cast<int>(d.neighbors.size()), ranks - 1);
      }
    }
  }
}

TEST(ConstraintShare, RestrictedConstraintsAreTheWholeOnesRenumbered) {
  for (const char* name : kDecks) {
    const Model m = read_deck(name);
    const StructureSystem g = build_structure_system(m);
    const LinearConstraints& gc = g.constraints;
    const RigidBodies& gb = g.bodies;
    for (int ranks : {2, 3}) {
      const std::vector<int> part = partition_elements(m, ranks);
      for (int r = 0; r < ranks; ++r) {
        SCOPED_TRACE(testing::Message() << name << ", rank " << r << " of " << ranks);
        const Subdomain d = build_subdomain(g, part, r, ranks);
        const StructureSystem l = restrict_system(g, d);
        const auto global = [&](int n) { return d.node_global[static_cast<std::size_t>(n)]; };
        const LinearConstraints& lc = l.constraints;
        ASSERT_EQ(lc.num_dependent, gc.num_dependent);
        for (int k = 0; k < gc.num_dependent; ++k) {
          EXPECT_EQ(global(lc.dep_node[k]), gc.dep_node[k]);
          EXPECT_EQ(lc.dep_dof[k], gc.dep_dof[k]);
        }
        ASSERT_EQ(lc.term_node.size(), gc.term_node.size());
        for (std::size_t i = 0; i < gc.term_node.size(); ++i) {
          EXPECT_EQ(global(lc.term_node[i]), gc.term_node[i]);
          EXPECT_EQ(lc.term_weight[i], gc.term_weight[i]);
        }
        for (std::size_t i = 0; i < gc.rot_node.size(); ++i) EXPECT_EQ(global(lc.rot_node[i]), gc.rot_node[i]);
        if (!gc.empty()) {
          ASSERT_EQ(lc.recv_ptr.size(), static_cast<std::size_t>(l.num_nodes) + 1);
          ASSERT_EQ(lc.mass3.size(), 3 * static_cast<std::size_t>(l.num_nodes));
          for (int n = 0; n < l.num_nodes; ++n) {
            const int G = global(n);
            EXPECT_EQ(lc.dependent[n], gc.dependent[G]);
            for (int c = 0; c < 3; ++c) EXPECT_EQ(lc.mass3[3 * n + c], gc.mass3[3 * G + c]);
            ASSERT_EQ(lc.recv_ptr[n + 1] - lc.recv_ptr[n], gc.recv_ptr[G + 1] - gc.recv_ptr[G]);
            for (int i = 0; i < lc.recv_ptr[n + 1] - lc.recv_ptr[n]; ++i) {
              EXPECT_EQ(lc.recv_dependent[lc.recv_ptr[n] + i], gc.recv_dependent[gc.recv_ptr[G] + i]);
              EXPECT_EQ(lc.recv_weight[lc.recv_ptr[n] + i], gc.recv_weight[gc.recv_ptr[G] + i]);
            }
          }
        }
        const RigidBodies& lb = l.bodies;
        ASSERT_EQ(lb.num_bodies, gb.num_bodies);
        for (int b = 0; b < gb.num_bodies; ++b) EXPECT_EQ(global(lb.ref_node[b]), gb.ref_node[b]);
        ASSERT_EQ(lb.slave_node.size(), gb.slave_node.size());
        for (std::size_t i = 0; i < gb.slave_node.size(); ++i) EXPECT_EQ(global(lb.slave_node[i]), gb.slave_node[i]);
        EXPECT_EQ(lb.mass, gb.mass);
        EXPECT_EQ(lb.inertia, gb.inertia);
        if (!gb.empty()) {
          for (int n = 0; n < l.num_nodes; ++n) EXPECT_EQ(lb.skip[n], gb.skip[global(n)]);
        }
        // A node is used (not held as a loose node) where the whole model uses it, whichever
        // rank's elements do.
        for (int n = 0; n < l.num_nodes; ++n) EXPECT_EQ(l.node_used(n), g.node_used(global(n))) << "node " << global(n);
      }
    }
  }
}

TEST(ConstraintShare, RestrictingWithoutAConstraintNodeIsABug) {
  const Model m = read_deck("equation_bar.inp");
  const StructureSystem g = build_structure_system(m);
  std::vector<int> nodes{0}, to_local(static_cast<std::size_t>(g.num_nodes), -1);
  to_local[0] = 0;
  EXPECT_THROW(restrict_constraints(g.constraints, nodes, to_local), std::logic_error);
}

}  // namespace
}  // namespace halfstep
