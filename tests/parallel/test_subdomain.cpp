// Tests of the subdomains of distributed runs (src/parallel/subdomain.hpp, halo_sum.hpp): for
// models with shells, solids of several kinds, shells sharing solid nodes, FPM beams, FPM
// triangles (with pressures), beams sharing triangle nodes and plastic shells, split over 2, 3
// and 4 ranks, every rank's share is checked against what an independent count over the model
// gives: element ownership, interface nodes (first, exactly the shared ones), node ownership,
// matching send lists, the halo summation positions (simulated exchange, bit-identical totals
// on every rank), and the restriction of the system, the state and the step loads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "io/inp_reader.hpp"
#include "parallel/halo_sum.hpp"
#include "parallel/partition.hpp"
#include "parallel/subdomain.hpp"
#include "parallel_test_util.hpp"
#include "discretization/step_loads.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"

namespace halfstep {
namespace {

using test::share;

/// A model, its whole system and steps, and one partition with every rank's subdomain.
struct Split {
  const Model* model = nullptr;
  const StructureSystem* sys = nullptr;
  int ranks = 0;
  std::vector<int> part;                   ///< per model element
  std::vector<Subdomain> dom;              ///< per rank
  std::vector<std::set<int>> node_ranks;   ///< per global node: ranks whose elements use it
  std::vector<std::set<int>> rank_nodes;   ///< per rank: global nodes its elements use
};

Split make_split(const Model& m, const StructureSystem& sys, int ranks) {
  Split s;
  s.model = &m;
  s.sys = &sys;
  s.ranks = ranks;
  s.part = partition_elements(m, ranks);
  s.node_ranks.assign(static_cast<std::size_t>(sys.num_nodes), {});
  s.rank_nodes.assign(static_cast<std::size_t>(ranks), {});
  // Independent of the system's arrays: the model's own connectivity.
  for (int e = 0; e < m.elements.size(); ++e)
    for (int a = 0; a < m.elements.count_of(e); ++a) {
      const int n = m.elements.nodes_of(e)[a];
      s.node_ranks[n].insert(s.part[e]);
      s.rank_nodes[s.part[e]].insert(n);
    }
  for (int r = 0; r < ranks; ++r) s.dom.push_back(build_subdomain(sys, s.part, r, ranks));
  return s;
}

bool shared(const Split& s, int n) { return s.node_ranks[n].size() > 1; }

/// The decks the tests split: shells on solids (all load kinds), a generated C3D8 block with a
/// plate, a closed shell (pinched cylinder) and 10-node tetrahedra.
struct Case {
  std::string name;
  Model model;
  StructureSystem sys;
  std::vector<StepLoads> steps;
};

std::vector<Case>& cases() {
  static std::vector<Case> all = [] {
    std::vector<Case> c;
    const auto add = [&](const std::string& name, Model m) {
      Case k;
      k.name = name;
      k.model = std::move(m);
      k.sys = build_structure_system(k.model);
      k.steps = build_step_loads(k.model, k.sys);
      c.push_back(std::move(k));
    };
    add("mixed.inp", read_inp(HALFSTEP_SOURCE_DIR "/tests/parallel/decks/mixed.inp"));
    test::BlockDeck o;
    o.nx = 6;
    o.ny = 4;
    o.nz = 2;
    o.solid = "C3D8";
    o.plate = true;
    o.loads = true;
    add("C3D8 block with plate", test::block_model(o));
    add("pinched_cylinder.inp", read_inp(HALFSTEP_SOURCE_DIR "/examples/pinched_cylinder.inp"));
    add("solid_c3d10m_svk.inp", read_inp(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/solid_c3d10m_svk.inp"));
    add("beam_plastic.inp", read_inp(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/beam_plastic.inp"));
    add("tri_dome_j2.inp", read_inp(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/tri_dome_j2.inp"));
    add("shell_dome_j2.inp", read_inp(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/shell_dome_j2.inp"));
    add("stiffened_plate.inp", read_inp(HALFSTEP_SOURCE_DIR "/tests/parallel/decks/stiffened_plate.inp"));
    return c;
  }();
  return all;
}

/// Runs check(split) for every case and 2, 3 and 4 ranks.
template <class F>
void for_each_split(F&& check) {
  for (Case& c : cases()) {
    ASSERT_EQ(c.sys.num_nodes, c.model.nodes.size()) << c.name;
    for (int ranks : {2, 3, 4}) {
      SCOPED_TRACE(testing::Message() << c.name << ", " << ranks << " ranks");
      const Split s = make_split(c.model, c.sys, ranks);
      check(c, s);
    }
  }
}

/// Global nodes of solid e of mesh sm.
std::vector<int> solid_nodes(const SolidMesh& sm, int e) {
  const SolidGroup& g = sm.groups[sm.group_of(e)];
  const int base = g.conn_offset + (e - g.first) * g.nodes_per_element;
  return std::vector<int>(sm.conn.begin() + base, sm.conn.begin() + base + g.nodes_per_element);
}

TEST(Subdomain, EveryElementIsOnExactlyOneRank) {
  for_each_split([](const Case& c, const Split& s) {
    const StructureSystem& g = c.sys;
    std::vector<int> shell_count(g.shell.num_elements, 0), solid_count(g.solid.num_elements, 0);
    std::vector<int> per_rank(s.ranks, 0);
    for (int p : s.part) ++per_rank[p];
    for (int r = 0; r < s.ranks; ++r) {
      const Subdomain& d = s.dom[r];
      EXPECT_EQ(d.rank, r);
      EXPECT_EQ(d.ranks, s.ranks);
      EXPECT_EQ(d.elements_per_rank, per_rank);
      EXPECT_GT(share(d, "shell").global.size() + share(d, "solid").global.size() + share(d, "beam").global.size() + share(d, "FPM triangle").global.size(), 0u)
          << "rank " << r << " has no element";
      ASSERT_EQ(share(d, "beam").local.size(), static_cast<std::size_t>(g.mesh<BeamMesh>().num_elements));
      ASSERT_EQ(share(d, "FPM triangle").local.size(), static_cast<std::size_t>(g.mesh<TriMesh>().num_elements));
      ASSERT_EQ(share(d, "shell").local.size(), static_cast<std::size_t>(g.shell.num_elements));
      ASSERT_EQ(share(d, "solid").local.size(), static_cast<std::size_t>(g.solid.num_elements));
      for (std::size_t i = 0; i < share(d, "shell").global.size(); ++i) {
        const int e = share(d, "shell").global[i];
        ++shell_count[e];
        EXPECT_EQ(s.part[g.shell.model_element[e]], r) << "shell " << e;
        EXPECT_EQ(share(d, "shell").local[e], static_cast<int>(i));
      }
      for (std::size_t i = 0; i < share(d, "solid").global.size(); ++i) {
        const int e = share(d, "solid").global[i];
        ++solid_count[e];
        EXPECT_EQ(s.part[g.solid.model_element[e]], r) << "solid " << e;
        EXPECT_EQ(share(d, "solid").local[e], static_cast<int>(i));
      }
      for (int e = 0; e < g.shell.num_elements; ++e)
        if (s.part[g.shell.model_element[e]] != r) {
          EXPECT_EQ(share(d, "shell").local[e], -1) << "shell " << e;
        }
      for (int e = 0; e < g.solid.num_elements; ++e)
        if (s.part[g.solid.model_element[e]] != r) {
          EXPECT_EQ(share(d, "solid").local[e], -1) << "solid " << e;
        }
    }
    for (int e = 0; e < g.shell.num_elements; ++e) EXPECT_EQ(shell_count[e], 1) << "shell " << e;
    for (int e = 0; e < g.solid.num_elements; ++e) EXPECT_EQ(solid_count[e], 1) << "solid " << e;
    // Beams and FPM triangles: the same, against the model's partition.
    const auto check_family = [&](const char* what, const std::vector<int>& model_element) {
      std::vector<int> count(model_element.size(), 0);
      for (int r = 0; r < s.ranks; ++r) {
        const ElementShare& d = share(s.dom[r], what);
        for (std::size_t i = 0; i < d.global.size(); ++i) {
          const int e = d.global[i];
          ++count[e];
          EXPECT_EQ(s.part[model_element[e]], r) << what << " " << e;
          EXPECT_EQ(d.local[e], static_cast<int>(i)) << what << " " << e;
        }
        for (std::size_t e = 0; e < model_element.size(); ++e)
          if (s.part[model_element[e]] != r) {
            EXPECT_EQ(d.local[e], -1) << what << " " << e;
          }
      }
      for (std::size_t e = 0; e < count.size(); ++e) EXPECT_EQ(count[e], 1) << what << " " << e;
    };
    check_family("beam", g.mesh<BeamMesh>().model_element);
    check_family("FPM triangle", g.mesh<TriMesh>().model_element);
  });
}

TEST(Subdomain, InterfaceNodesComeFirstAndAreExactlyTheSharedOnes) {
  for_each_split([](const Case& c, const Split& s) {
    int shared_count = 0, max_sharing = 0;
    for (int n = 0; n < c.sys.num_nodes; ++n) {
      shared_count += shared(s, n);
      max_sharing = std::max(max_sharing, static_cast<int>(s.node_ranks[n].size()));
    }
    EXPECT_GT(shared_count, 0) << "the split has no interface: the test would prove nothing";
    for (int r = 0; r < s.ranks; ++r) {
      const Subdomain& d = s.dom[r];
      std::vector<int> expect_shared, expect_inner;
      for (int n : s.rank_nodes[r]) (shared(s, n) ? expect_shared : expect_inner).push_back(n);
      std::vector<int> expect = expect_shared;
      expect.insert(expect.end(), expect_inner.begin(), expect_inner.end());
      EXPECT_EQ(d.num_interface, static_cast<int>(expect_shared.size())) << "rank " << r;
      EXPECT_EQ(d.node_global, expect) << "rank " << r << ": shared nodes ascending, then the others";
      ASSERT_EQ(d.node_local.size(), static_cast<std::size_t>(c.sys.num_nodes));
      for (int n = 0; n < c.sys.num_nodes; ++n) {
        const auto it = std::find(d.node_global.begin(), d.node_global.end(), n);
        EXPECT_EQ(d.node_local[n], it == d.node_global.end() ? -1 : static_cast<int>(it - d.node_global.begin()))
            << "rank " << r << ", node " << n;
      }
    }
    // A beam line is cut at single nodes and the stiffened plate into four strips; the others
    // are cut so that some node meets three parts.
    if (s.ranks == 4 && c.name != "solid_c3d10m_svk.inp" && c.name != "beam_plastic.inp" &&
        c.name != "stiffened_plate.inp") {
      EXPECT_GE(max_sharing, 3) << "no node shared by 3+ ranks";
    }
  });
}

TEST(Subdomain, EachNodeIsOwnedByTheLowestRankHoldingIt) {
  for_each_split([](const Case& c, const Split& s) {
    std::vector<int> owners(c.sys.num_nodes, 0);
    for (int r = 0; r < s.ranks; ++r) {
      const Subdomain& d = s.dom[r];
      ASSERT_EQ(d.owned.size(), d.node_global.size());
      for (std::size_t i = 0; i < d.node_global.size(); ++i) {
        const int n = d.node_global[i];
        EXPECT_EQ(d.owned[i], *s.node_ranks[n].begin() == r ? 1 : 0) << "rank " << r << ", node " << n;
        owners[n] += d.owned[i];
      }
    }
    for (int n = 0; n < c.sys.num_nodes; ++n)
      EXPECT_EQ(owners[n], s.node_ranks[n].empty() ? 0 : 1) << "node " << n << " has " << owners[n] << " owners";
  });
}

TEST(Subdomain, NeighboursSendTheSameNodesInTheSameOrder) {
  for_each_split([](const Case&, const Split& s) {
    for (int p = 0; p < s.ranks; ++p) {
      const Subdomain& d = s.dom[p];
      std::set<int> expect_nb;
      for (int n : s.rank_nodes[p])
        for (int q : s.node_ranks[n])
          if (q != p) expect_nb.insert(q);
      EXPECT_EQ(d.neighbors, std::vector<int>(expect_nb.begin(), expect_nb.end())) << "rank " << p;
      ASSERT_EQ(d.send_ptr.size(), d.neighbors.size() + 1) << "rank " << p;
      EXPECT_EQ(d.send_ptr.front(), 0);
      EXPECT_EQ(d.send_ptr.back(), static_cast<int>(d.send_nodes.size()));
      for (std::size_t j = 0; j < d.neighbors.size(); ++j) {
        const int q = d.neighbors[j];
        const Subdomain& e = s.dom[q];
        std::vector<int> mine;
        for (int i = d.send_ptr[j]; i < d.send_ptr[j + 1]; ++i) {
          ASSERT_GE(d.send_nodes[i], 0);
          ASSERT_LT(d.send_nodes[i], d.num_interface) << "rank " << p << " sends a node that is not shared";
          mine.push_back(d.node_global[d.send_nodes[i]]);
        }
        std::vector<int> common;
        std::set_intersection(s.rank_nodes[p].begin(), s.rank_nodes[p].end(), s.rank_nodes[q].begin(),
                              s.rank_nodes[q].end(), std::back_inserter(common));
        EXPECT_EQ(mine, common) << "rank " << p << " to " << q << ": the nodes both hold, ascending";
        const auto at = std::find(e.neighbors.begin(), e.neighbors.end(), p);
        ASSERT_NE(at, e.neighbors.end()) << "rank " << q << " does not list " << p << " as a neighbour";
        const std::size_t k = static_cast<std::size_t>(at - e.neighbors.begin());
        std::vector<int> theirs;
        for (int i = e.send_ptr[k]; i < e.send_ptr[k + 1]; ++i) theirs.push_back(e.node_global[e.send_nodes[i]]);
        EXPECT_EQ(mine, theirs) << "ranks " << p << " and " << q;
      }
    }
  });
}

/// A reproducible, non-integer value of rank r's partial sum at global node n, component c.
double partial(int r, int n, int c) {
  std::uint64_t x = 0x9E3779B97F4A7C15ull * (static_cast<std::uint64_t>(r) * 1000003u + static_cast<std::uint64_t>(n) * 17u + c + 1);
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  return (static_cast<double>(x >> 11) / 9007199254740992.0 - 0.5) * (1.0 + n % 7);  // [-4, 4)
}

/// Every rank's halo buffer after the exchange: own partials, then each neighbour's message
/// (the neighbour's partials at its send list for this rank).
std::vector<std::vector<double>> exchanged_buffers(const Split& s) {
  std::vector<std::vector<double>> buf(s.ranks);
  for (int r = 0; r < s.ranks; ++r) {
    const Subdomain& d = s.dom[r];
    std::vector<double>& b = buf[r];
    b.assign(static_cast<std::size_t>(kHaloValues) * (d.num_interface + d.send_ptr.back()), 0.0);
    for (int k = 0; k < d.num_interface; ++k)
      for (int c = 0; c < kHaloValues; ++c) b[kHaloValues * k + c] = partial(r, d.node_global[k], c);
    for (std::size_t j = 0; j < d.neighbors.size(); ++j) {
      const Subdomain& e = s.dom[d.neighbors[j]];
      const std::size_t k = static_cast<std::size_t>(std::find(e.neighbors.begin(), e.neighbors.end(), r) - e.neighbors.begin());
      EXPECT_EQ(e.send_ptr[k + 1] - e.send_ptr[k], d.send_ptr[j + 1] - d.send_ptr[j]) << "message sizes differ";
      for (int i = 0; i < d.send_ptr[j + 1] - d.send_ptr[j]; ++i) {
        const int node = e.node_global[e.send_nodes[e.send_ptr[k] + i]];
        for (int c = 0; c < kHaloValues; ++c)
          b[kHaloValues * (d.num_interface + d.send_ptr[j] + i) + c] = partial(d.neighbors[j], node, c);
      }
    }
  }
  return buf;
}

TEST(Subdomain, HaloSumsAddOnePartialPerSharingRankInRankOrder) {
  for_each_split([](const Case&, const Split& s) {
    const std::vector<std::vector<double>> buf = exchanged_buffers(s);
    std::map<int, std::vector<double>> total_of;  // global node -> total on the first rank seen
    for (int r = 0; r < s.ranks; ++r) {
      const Subdomain& d = s.dom[r];
      ASSERT_EQ(d.sum_ptr.size(), static_cast<std::size_t>(d.num_interface) + 1);
      EXPECT_EQ(d.sum_ptr.back(), static_cast<int>(d.sum_src.size()));
      for (int k = 0; k < d.num_interface; ++k) {
        const int n = d.node_global[k];
        const std::set<int>& holders = s.node_ranks[n];
        ASSERT_EQ(d.sum_ptr[k + 1] - d.sum_ptr[k], static_cast<int>(holders.size()))
            << "rank " << r << ", node " << n << ": one partial per rank holding it";
        // The positions hold, in order, the partials of the holders in ascending rank order.
        int i = d.sum_ptr[k];
        for (int q : holders) {
          const int pos = d.sum_src[i++];
          ASSERT_GE(pos, 0);
          ASSERT_LT(static_cast<std::size_t>(kHaloValues) * pos, buf[r].size());
          for (int c = 0; c < kHaloValues; ++c)
            EXPECT_EQ(buf[r][kHaloValues * pos + c], partial(q, n, c))
                << "rank " << r << ", node " << n << ": position " << pos << " is not rank " << q << "'s partial";
        }
        double total[kHaloValues];
        sum_halo_node(d.sum_ptr.data(), d.sum_src.data(), buf[r].data(), k, total);
        for (int c = 0; c < kHaloValues; ++c) {
          double expect = 0;
          for (int q : holders) expect += partial(q, n, c);  // the same order: the same bits
          EXPECT_EQ(total[c], expect) << "rank " << r << ", node " << n << ", value " << c;
        }
        auto [it, first] = total_of.emplace(n, std::vector<double>(total, total + kHaloValues));
        if (!first) {
          EXPECT_EQ(it->second, std::vector<double>(total, total + kHaloValues))
              << "node " << n << ": the copies on different ranks would drift apart";
        }
      }
    }
  });
}

TEST(Subdomain, HaloSumAddsTheListedPositionsInOrder) {
  // Two interface nodes: node 0 sums positions 0 and 3, node 1 sums 1, 2 and 4.
  const int ptr[] = {0, 2, 5};
  const int src[] = {0, 3, 1, 2, 4};
  std::vector<double> buf(5 * kHaloValues);
  for (int p = 0; p < 5; ++p)
    for (int c = 0; c < kHaloValues; ++c) buf[kHaloValues * p + c] = (p + 1) * 100.0 + c;
  double t[kHaloValues];
  sum_halo_node(ptr, src, buf.data(), 0, t);
  for (int c = 0; c < kHaloValues; ++c) EXPECT_EQ(t[c], 100.0 + c + 400.0 + c) << c;
  sum_halo_node(ptr, src, buf.data(), 1, t);
  for (int c = 0; c < kHaloValues; ++c) EXPECT_EQ(t[c], 200.0 + 300.0 + 500.0 + 3 * c) << c;
  // Order matters for rounding: 1e16 + 1 - 1e16 is 0 in that order, 1 in the order 1e16 - 1e16 + 1.
  const int ptr2[] = {0, 3};
  const int src_a[] = {0, 1, 2}, src_b[] = {0, 2, 1};
  std::vector<double> big(3 * kHaloValues);
  for (int c = 0; c < kHaloValues; ++c) {
    big[c] = 1e16;
    big[kHaloValues + c] = 1.0;
    big[2 * kHaloValues + c] = -1e16;
  }
  sum_halo_node(ptr2, src_a, big.data(), 0, t);
  EXPECT_EQ(t[0], 0.0);
  sum_halo_node(ptr2, src_b, big.data(), 0, t);
  EXPECT_EQ(t[0], 1.0);
}

TEST(Subdomain, BoundaryElementsComeFirst) {
  for_each_split([](const Case& c, const Split& s) {
    for (int r = 0; r < s.ranks; ++r) {
      const Subdomain& d = s.dom[r];
      const StructureSystem l = restrict_system(c.sys, d);
      const auto on_interface = [&](int local_node) { return local_node < d.num_interface; };
      EXPECT_EQ(l.shell.boundary, share(d, "shell").first_boundary());
      for (int e = 0; e < l.shell.num_elements; ++e) {
        bool touches = false;
        for (int k = 0; k < 4; ++k) touches = touches || on_interface(l.shell.conn[4 * e + k]);
        EXPECT_EQ(touches, e < l.shell.boundary) << "rank " << r << ", local shell " << e;
      }
      int count = 0;
      for (const SolidGroup& g : l.solid.groups) {
        EXPECT_EQ(g.first, count);
        count += g.count;
        for (int i = 0; i < g.count; ++i) {
          bool touches = false;
          for (int k = 0; k < g.nodes_per_element; ++k)
            touches = touches || on_interface(l.solid.conn[g.conn_offset + i * g.nodes_per_element + k]);
          EXPECT_EQ(touches, i < g.boundary) << "rank " << r << ", local solid " << g.first + i;
        }
      }
      EXPECT_EQ(count, l.solid.num_elements);
      EXPECT_EQ(l.mesh<BeamMesh>().boundary, share(d, "beam").first_boundary());
      for (int e = 0; e < l.mesh<BeamMesh>().num_elements; ++e) {
        const bool touches = on_interface(l.mesh<BeamMesh>().conn[2 * e]) || on_interface(l.mesh<BeamMesh>().conn[2 * e + 1]);
        EXPECT_EQ(touches, e < l.mesh<BeamMesh>().boundary) << "rank " << r << ", local beam " << e;
      }
      EXPECT_EQ(l.mesh<TriMesh>().boundary, share(d, "FPM triangle").first_boundary());
      for (int e = 0; e < l.mesh<TriMesh>().num_elements; ++e) {
        bool touches = false;
        for (int k = 0; k < 3; ++k) touches = touches || on_interface(l.mesh<TriMesh>().conn[3 * e + k]);
        EXPECT_EQ(touches, e < l.mesh<TriMesh>().boundary) << "rank " << r << ", local triangle " << e;
      }
    }
  });
}

TEST(Subdomain, RestrictedSystemKeepsTheWholeModelNodalValues) {
  for_each_split([](const Case& c, const Split& s) {
    const StructureSystem& g = c.sys;
    int shells = 0, solids = 0;
    for (int r = 0; r < s.ranks; ++r) {
      const Subdomain& d = s.dom[r];
      const StructureSystem l = restrict_system(g, d);
      ASSERT_EQ(l.num_nodes, static_cast<int>(d.node_global.size()));
      EXPECT_EQ(l.num_interface, d.num_interface);
      EXPECT_EQ(l.owned, d.owned);
      for (int i = 0; i < l.num_nodes; ++i) {
        const int n = d.node_global[i];
        // Whole-model masses: a shared node weighs what all its elements give it, not only
        // this rank's (no mass exchange is needed).
        EXPECT_EQ(l.mass[i], g.mass[n]) << "rank " << r << ", node " << n;
        EXPECT_EQ(l.inertia[i], g.inertia[n]) << "rank " << r << ", node " << n;
        EXPECT_EQ(l.x0[i], g.x0[n]);
        EXPECT_EQ(l.y0[i], g.y0[n]);
        EXPECT_EQ(l.z0[i], g.z0[n]);
        EXPECT_EQ(l.node_rotates[i], g.node_rotates[n]) << "rank " << r << ", node " << n;
        if (!g.damp.empty()) {
          EXPECT_EQ(l.damp[i], g.damp[n]);
        }
      }
      EXPECT_EQ(l.total_mass, g.total_mass);
      EXPECT_EQ(l.stable_dt, g.stable_dt);
      EXPECT_EQ(l.controlling_element, g.controlling_element);
      EXPECT_EQ(l.energy_per_unit_strain, g.energy_per_unit_strain);
      EXPECT_EQ(l.any_director_nodes, g.any_director_nodes);
      ASSERT_EQ(l.shell.num_elements, static_cast<int>(share(d, "shell").global.size()));
      for (int e = 0; e < l.shell.num_elements; ++e) {
        const int ge = share(d, "shell").global[e];
        for (int k = 0; k < 4; ++k) EXPECT_EQ(d.node_global[l.shell.conn[4 * e + k]], g.shell.conn[4 * ge + k]);
        EXPECT_EQ(l.shell.model_element[e], g.shell.model_element[ge]);
        EXPECT_EQ(l.shell.area[e], g.shell.area[ge]);
        EXPECT_EQ(l.shell.section[e], g.shell.section[ge]);
      }
      ASSERT_EQ(l.solid.num_elements, static_cast<int>(share(d, "solid").global.size()));
      for (int e = 0; e < l.solid.num_elements; ++e) {
        const int ge = share(d, "solid").global[e];
        std::vector<int> mine = solid_nodes(l.solid, e);
        for (int& n : mine) n = d.node_global[n];
        EXPECT_EQ(mine, solid_nodes(g.solid, ge)) << "rank " << r << ", local solid " << e;
        EXPECT_EQ(l.solid.model_element[e], g.solid.model_element[ge]);
        EXPECT_EQ(l.solid.volume[e], g.solid.volume[ge]);
        EXPECT_EQ(l.solid.material[e], g.solid.material[ge]);
        EXPECT_EQ(l.solid.groups[l.solid.group_of(e)].kind, g.solid.groups[g.solid.group_of(ge)].kind);
      }
      // The gather maps cover every local element corner once.
      ASSERT_EQ(l.shell.node_slot_ptr.size(), static_cast<std::size_t>(l.num_nodes) + 1);
      EXPECT_EQ(l.shell.node_slot_ptr.back(), 4 * l.shell.num_elements);
      if (l.solid.num_elements > 0) {
        ASSERT_EQ(l.solid.node_slot_ptr.size(), static_cast<std::size_t>(l.num_nodes) + 1);
        EXPECT_EQ(l.solid.node_slot_ptr.back(), static_cast<int>(l.solid.conn.size()));
      }
      shells += l.shell.num_elements;
      solids += l.solid.num_elements;
    }
    EXPECT_EQ(shells, g.shell.num_elements);
    EXPECT_EQ(solids, g.solid.num_elements);
  });
}

TEST(Subdomain, RestrictedSystemCarriesBeamsTrianglesAndSectionPoints) {
  for_each_split([](const Case& c, const Split& s) {
    const StructureSystem& g = c.sys;
    int beams = 0, tris = 0;
    std::size_t points = 0;
    for (int r = 0; r < s.ranks; ++r) {
      const Subdomain& d = s.dom[r];
      const StructureSystem l = restrict_system(g, d);
      EXPECT_EQ(l.node_dofs, g.node_dofs);
      // Every rank keeps the whole model's state layout (a rank may lack the kind needing most).
      EXPECT_EQ(l.mesh<BeamMesh>().state_size, g.mesh<BeamMesh>().state_size);
      EXPECT_EQ(l.mesh<TriMesh>().state_size, g.mesh<TriMesh>().state_size);
      ASSERT_EQ(l.mesh<BeamMesh>().num_elements, static_cast<int>(share(d, "beam").global.size()));
      for (int e = 0; e < l.mesh<BeamMesh>().num_elements; ++e) {
        const int ge = share(d, "beam").global[e];
        for (int k = 0; k < 2; ++k) EXPECT_EQ(d.node_global[l.mesh<BeamMesh>().conn[2 * e + k]], g.mesh<BeamMesh>().conn[2 * ge + k]);
        EXPECT_EQ(l.mesh<BeamMesh>().model_element[e], g.mesh<BeamMesh>().model_element[ge]);
        EXPECT_EQ(l.mesh<BeamMesh>().section[e], g.mesh<BeamMesh>().section[ge]);
        EXPECT_EQ(l.mesh<BeamMesh>().length0[e], g.mesh<BeamMesh>().length0[ge]);
        EXPECT_EQ(l.mesh<BeamMesh>().chord0y[e], g.mesh<BeamMesh>().chord0y[ge]);
        EXPECT_EQ(l.mesh<BeamMesh>().n1z[e], g.mesh<BeamMesh>().n1z[ge]);
      }
      ASSERT_EQ(l.mesh<TriMesh>().num_elements, static_cast<int>(share(d, "FPM triangle").global.size()));
      for (int e = 0; e < l.mesh<TriMesh>().num_elements; ++e) {
        const int ge = share(d, "FPM triangle").global[e];
        for (int k = 0; k < 3; ++k) EXPECT_EQ(d.node_global[l.mesh<TriMesh>().conn[3 * e + k]], g.mesh<TriMesh>().conn[3 * ge + k]);
        EXPECT_EQ(l.mesh<TriMesh>().model_element[e], g.mesh<TriMesh>().model_element[ge]);
        EXPECT_EQ(l.mesh<TriMesh>().area0[e], g.mesh<TriMesh>().area0[ge]);
        EXPECT_EQ(l.mesh<TriMesh>().edge3x[e], g.mesh<TriMesh>().edge3x[ge]);
        EXPECT_EQ(l.mesh<TriMesh>().e1y[e], g.mesh<TriMesh>().e1y[ge]);
      }
      // The gather maps cover every local beam end and triangle corner once.
      if (l.mesh<BeamMesh>().num_elements > 0) {
        ASSERT_EQ(l.mesh<BeamMesh>().node_slot_ptr.size(), static_cast<std::size_t>(l.num_nodes) + 1);
        EXPECT_EQ(l.mesh<BeamMesh>().node_slot_ptr.back(), 2 * l.mesh<BeamMesh>().num_elements);
      }
      if (l.mesh<TriMesh>().num_elements > 0) {
        ASSERT_EQ(l.mesh<TriMesh>().node_slot_ptr.size(), static_cast<std::size_t>(l.num_nodes) + 1);
        EXPECT_EQ(l.mesh<TriMesh>().node_slot_ptr.back(), 3 * l.mesh<TriMesh>().num_elements);
      }
      // Plastic shells keep their section points (as many as the global element has).
      if (!g.shell.first_point.empty()) {
        ASSERT_EQ(l.shell.first_point.size(), static_cast<std::size_t>(l.shell.num_elements) + 1);
        for (int e = 0; e < l.shell.num_elements; ++e) {
          const int ge = share(d, "shell").global[e];
          EXPECT_EQ(l.shell.first_point[e + 1] - l.shell.first_point[e], g.shell.first_point[ge + 1] - g.shell.first_point[ge]);
        }
      }
      beams += l.mesh<BeamMesh>().num_elements;
      tris += l.mesh<TriMesh>().num_elements;
      points += l.shell.num_points;
    }
    EXPECT_EQ(beams, g.mesh<BeamMesh>().num_elements);
    EXPECT_EQ(tris, g.mesh<TriMesh>().num_elements);
    EXPECT_EQ(points, g.shell.num_points);
    if (c.name == "beam_plastic.inp") {
      EXPECT_GT(g.mesh<BeamMesh>().num_elements, 0);
    }
    if (c.name == "tri_dome_j2.inp") {
      EXPECT_GT(g.mesh<TriMesh>().num_elements, 0);
    }
    if (c.name == "shell_dome_j2.inp") {
      EXPECT_GT(g.shell.num_points, 0u);
    }
  });
}

TEST(Subdomain, RestrictedStateHoldsTheLocalNodes) {
  for_each_split([](const Case& c, const Split& s) {
    StructureState st;
    st.initialize(c.sys);
    for (int n = 0; n < c.sys.num_nodes; ++n) {
      st.ux[n] = 0.5 * n;
      st.uz[n] = -1.0 * n;
      st.v[0][n] = 3.0 + n;
      st.v[4][n] = 0.25 * n;
    }
    st.time = 0.125;
    // Distinct element state values (each entry its own), to see that each lands where it belongs.
    const StructureSystem& g = c.sys;
    for (std::size_t i = 0; i < st.row<BeamMesh>().state.size(); ++i) st.row<BeamMesh>().state[i] = static_cast<double>(i) + 0.25;
    for (std::size_t i = 0; i < st.row<TriMesh>().state.size(); ++i) st.row<TriMesh>().state[i] = static_cast<double>(i) + 0.75;
    for (std::size_t i = 0; i < st.shell_state.size(); ++i) st.shell_state[i] = static_cast<double>(i) + 0.5;
    for (int r = 0; r < s.ranks; ++r) {
      const Subdomain& d = s.dom[r];
      const StructureSystem l = restrict_system(c.sys, d);
      const StructureState ls = restrict_state(st, c.sys, l, d);
      const std::size_t nb = l.mesh<BeamMesh>().num_elements, nt = l.mesh<TriMesh>().num_elements;
      ASSERT_EQ(ls.row<BeamMesh>().state.size(), static_cast<std::size_t>(l.mesh<BeamMesh>().state_size) * nb);
      for (int k = 0; k < l.mesh<BeamMesh>().state_size; ++k)
        for (std::size_t e = 0; e < nb; ++e)
          EXPECT_EQ(ls.row<BeamMesh>().state[k * nb + e], st.row<BeamMesh>().state[k * g.mesh<BeamMesh>().num_elements + share(d, "beam").global[e]]);
      ASSERT_EQ(ls.row<TriMesh>().state.size(), static_cast<std::size_t>(l.mesh<TriMesh>().state_size) * nt);
      for (int k = 0; k < l.mesh<TriMesh>().state_size; ++k)
        for (std::size_t e = 0; e < nt; ++e)
          EXPECT_EQ(ls.row<TriMesh>().state[k * nt + e], st.row<TriMesh>().state[k * g.mesh<TriMesh>().num_elements + share(d, "FPM triangle").global[e]]);
      ASSERT_EQ(ls.shell_state.size(), st.shell_state.empty() ? 0u : st.shell_state.size() / g.shell.num_points * l.shell.num_points);
      if (!ls.shell_state.empty()) {
        const std::size_t comps = st.shell_state.size() / g.shell.num_points;
        for (std::size_t k = 0; k < comps; ++k)
          for (int e = 0; e < l.shell.num_elements; ++e)
            for (std::size_t p = 0; p < l.shell.first_point[e + 1] - l.shell.first_point[e]; ++p)
              EXPECT_EQ(ls.shell_state[k * l.shell.num_points + l.shell.first_point[e] + p],
                        st.shell_state[k * g.shell.num_points + g.shell.first_point[share(d, "shell").global[e]] + p]);
      }
      ASSERT_EQ(ls.ux.size(), d.node_global.size());
      for (std::size_t i = 0; i < d.node_global.size(); ++i) {
        const int n = d.node_global[i];
        EXPECT_EQ(ls.ux[i], st.ux[n]);
        EXPECT_EQ(ls.uz[i], st.uz[n]);
        EXPECT_EQ(ls.v[0][i], st.v[0][n]);
        EXPECT_EQ(ls.v[4][i], st.v[4][n]);
      }
      EXPECT_EQ(ls.time, st.time);
    }
  });
}

TEST(Subdomain, RestrictedStepsKeepTheLoadsOnLocalNodes) {
  for_each_split([](const Case& c, const Split& s) {
    bool any_load = false;
    for (const StepLoads& gs : c.steps) {
      std::vector<int> pressure_count(gs.pressure_elem.size(), 0), face_count(gs.face_elem.size(), 0);
      std::vector<int> load_copies(gs.load_node.size(), 0);
      any_load = any_load || !gs.load_node.empty() || !gs.pressure_elem.empty() || !gs.face_elem.empty();
      for (int r = 0; r < s.ranks; ++r) {
        const Subdomain& d = s.dom[r];
        const StepLoads ls = restrict_step(gs, d);
        EXPECT_EQ(ls.name, gs.name);
        EXPECT_EQ(ls.period, gs.period);
        EXPECT_EQ(ls.fixed_increment, gs.fixed_increment);
        // Concentrated loads: every load on a node this rank holds, in the deck's order.
        std::vector<std::size_t> expect;
        for (std::size_t i = 0; i < gs.load_node.size(); ++i)
          if (d.node_local[gs.load_node[i]] >= 0) expect.push_back(i);
        ASSERT_EQ(ls.load_node.size(), expect.size()) << "rank " << r << ", step " << gs.name;
        for (std::size_t k = 0; k < expect.size(); ++k) {
          const std::size_t i = expect[k];
          ++load_copies[i];
          EXPECT_EQ(d.node_global[ls.load_node[k]], gs.load_node[i]);
          EXPECT_EQ(ls.load_dof[k], gs.load_dof[i]);
          EXPECT_EQ(ls.load_amp[k], gs.load_amp[i]);
          EXPECT_EQ(ls.load_value[k], gs.load_value[i]);
        }
        // Pressures follow their elements (shells, then FPM triangles after the shells).
        const int local_shells = static_cast<int>(share(d, "shell").global.size());
        for (std::size_t k = 0; k < ls.pressure_elem.size(); ++k) {
          const int le = ls.pressure_elem[k];
          const int ge = le < local_shells ? share(d, "shell").global[le] : c.sys.shell.num_elements + share(d, "FPM triangle").global[le - local_shells];
          const auto at = std::find(gs.pressure_elem.begin(), gs.pressure_elem.end(), ge);
          ASSERT_NE(at, gs.pressure_elem.end());
          const std::size_t i = static_cast<std::size_t>(at - gs.pressure_elem.begin());
          ++pressure_count[i];
          EXPECT_EQ(ls.pressure_value[k], gs.pressure_value[i]);
          EXPECT_EQ(ls.pressure_amp[k], gs.pressure_amp[i]);
        }
        for (std::size_t k = 0; k < ls.face_elem.size(); ++k) {
          const int ge = share(d, "solid").global[ls.face_elem[k]];
          bool found = false;
          for (std::size_t i = 0; i < gs.face_elem.size() && !found; ++i)
            if (gs.face_elem[i] == ge && gs.face_label[i] == ls.face_label[k] && face_count[i] == 0) {
              found = true;
              ++face_count[i];
              EXPECT_EQ(ls.face_value[k], gs.face_value[i]);
              EXPECT_EQ(ls.face_amp[k], gs.face_amp[i]);
            }
          EXPECT_TRUE(found) << "rank " << r << ": face load on solid " << ge << " is not the deck's";
        }
        for (std::size_t k = 0; k < ls.motion_node.size(); ++k) {
          const int gn = d.node_global[ls.motion_node[k]];
          EXPECT_NE(std::find(gs.motion_node.begin(), gs.motion_node.end(), gn), gs.motion_node.end());
        }
        ASSERT_EQ(ls.fixed_translation.size(), d.node_global.size());
        ASSERT_EQ(ls.fixed_rotation.size(), d.node_global.size());
        for (std::size_t i = 0; i < d.node_global.size(); ++i) {
          EXPECT_EQ(ls.fixed_translation[i], gs.fixed_translation[d.node_global[i]]);
          EXPECT_EQ(ls.fixed_rotation[i], gs.fixed_rotation[d.node_global[i]]);
        }
      }
      // A concentrated load is applied by every rank holding its node (each integrates its own
      // copy with the total force); an element load by the one rank holding its element.
      for (std::size_t i = 0; i < gs.load_node.size(); ++i)
        EXPECT_EQ(load_copies[i], static_cast<int>(s.node_ranks[gs.load_node[i]].size())) << "load " << i;
      for (std::size_t i = 0; i < pressure_count.size(); ++i) EXPECT_EQ(pressure_count[i], 1) << "pressure " << i;
      for (std::size_t i = 0; i < face_count.size(); ++i) EXPECT_EQ(face_count[i], 1) << "face load " << i;
    }
    if (c.name == "stiffened_plate.inp") {  // forces and moments on shared six-dof nodes
      int on_shared = 0;
      for (std::size_t i = 0; i < c.steps[0].load_node.size(); ++i)
        on_shared += shared(s, c.steps[0].load_node[i]) && c.steps[0].load_dof[i] >= 3;
      EXPECT_GT(on_shared, 0) << "no moment on a shared node";
    }
    if (c.name == "tri_dome_j2.inp") {  // pressures on triangles, which follow past the shells
      ASSERT_FALSE(c.steps.empty());
      EXPECT_FALSE(c.steps[0].pressure_elem.empty());
    }
    if (c.name == "mixed.inp") {
      EXPECT_TRUE(any_load);
      // The deck puts concentrated loads where every split cuts: on shared nodes.
      int on_shared = 0;
      for (int n : c.steps[0].load_node) on_shared += shared(s, n);
      EXPECT_GT(on_shared, 0) << "no concentrated load on a shared node";
      ASSERT_EQ(c.steps.size(), 2u);
      EXPECT_FALSE(c.steps[0].load_node.empty());
      EXPECT_FALSE(c.steps[0].pressure_elem.empty());
      EXPECT_FALSE(c.steps[0].face_elem.empty());
    }
  });
}

// Distributed contact (ContactShare): every slave record is computed by exactly one rank,
// the owner of its node; every contact node's motion comes from exactly one rank; the
// renumbered system reads the same nodes as the whole one; an analytical surface's
// reference node (no element uses it) lives on rank 0 alone.
TEST(Subdomain, ContactShareSplitsRecordsAndNodesOnce) {
  for (const char* deck :
       {"contact_bars.inp", "contact_slide.inp", "contact_wall.inp", "contact_hertz.inp", "contact_tube.inp",
        "contact_coarse.inp", "contact_crossed.inp"}) {
    const Model m = read_inp(std::string(HALFSTEP_SOURCE_DIR "/tests/parallel/decks/") + deck);
    const StructureSystem sys = build_structure_system(m);
    const ContactSystem& g = sys.contact;
    ASSERT_FALSE(g.empty()) << deck;
    const std::vector<int> nodes = contact_nodes(g);
    for (int ranks : {2, 3, 4}) {
      SCOPED_TRACE(testing::Message() << deck << ", " << ranks << " ranks");
      const Split s = make_split(m, sys, ranks);
      std::vector<int> record_rank(static_cast<std::size_t>(g.num_slaves), -1), fills(nodes.size(), 0);
      for (int r = 0; r < ranks; ++r) {
        const Subdomain& d = s.dom[r];
        const ContactShare& c = d.contact;
        ASSERT_EQ(c.node_global, nodes);
        const ContactSystem& cs = c.system;
        ASSERT_EQ(cs.num_facets, g.num_facets);
        ASSERT_EQ(cs.num_slaves, g.num_slaves);
        for (std::size_t k = 0; k < g.facet_nodes.size(); ++k)
          EXPECT_EQ(g.facet_nodes[k], cs.facet_nodes[k] < 0 ? -1 : nodes[cs.facet_nodes[k]]);
        for (std::size_t k = 0; k < g.slave_facet_nodes.size(); ++k)
          EXPECT_EQ(g.slave_facet_nodes[k], cs.slave_facet_nodes[k] < 0 ? -1 : nodes[cs.slave_facet_nodes[k]]);
        for (int i = 0; i < g.num_slaves; ++i) EXPECT_EQ(g.slave_node[i], nodes[cs.slave_node[i]]);
        for (int a = 0; a < g.num_analytic; ++a) {
          EXPECT_EQ(g.analytic_ref[a], nodes[cs.analytic_ref[a]]);
          // The reference node: on rank 0 only, owned there.
          const int l = d.node_local[g.analytic_ref[a]];
          EXPECT_EQ(l >= 0, r == 0);
          if (l >= 0) {
            EXPECT_TRUE(d.owned[l]);
          }
        }
        ASSERT_EQ(c.holder_ptr.size(), nodes.size() + 1);
        for (std::size_t k = 0; k < nodes.size(); ++k) {
          // Holders: exactly the ranks whose subdomain has the node, ascending.
          std::vector<int> expected;
          for (int q = 0; q < ranks; ++q)
            if (s.dom[q].node_local[nodes[k]] >= 0) expected.push_back(q);
          EXPECT_EQ(std::vector<int>(c.holders.begin() + c.holder_ptr[k], c.holders.begin() + c.holder_ptr[k + 1]),
                    expected);
          EXPECT_EQ(c.node_local[k], d.node_local[nodes[k]]);
          EXPECT_EQ(c.x0[k], sys.x0[nodes[k]]);
          EXPECT_EQ(c.mass[k], sys.mass[nodes[k]]);
          if (c.fills[k]) {
            ++fills[k];
            ASSERT_GE(c.node_local[k], 0);
            EXPECT_TRUE(d.owned[c.node_local[k]]);
          }
        }
        for (int i : c.records) {
          EXPECT_EQ(record_rank[i], -1) << "record " << i << " on two ranks";
          record_rank[i] = r;
          EXPECT_TRUE(c.fills[cs.slave_node[i]]);
        }
        EXPECT_TRUE(std::is_sorted(c.records.begin(), c.records.end()));
        // The local system's contact is the renumbered one; its state sizes follow.
        const StructureSystem l = restrict_system(sys, d);
        EXPECT_EQ(l.contact.facet_nodes, cs.facet_nodes);
      }
      for (int i = 0; i < g.num_slaves; ++i) EXPECT_GE(record_rank[i], 0) << "record " << i << " on no rank";
      for (std::size_t k = 0; k < nodes.size(); ++k) EXPECT_EQ(fills[k], 1) << "contact node " << nodes[k];
    }
  }
}

// Edge-to-edge contact across ranks: every edge record (role kEdgeRecord) is computed by
// exactly one rank, the owner of its first node; the renumbered edges read the same nodes
// (edges, their facets' corners, self-contact neighbours that are contact nodes) as the
// whole system's; every edge's nodes and facet corners are contact nodes (their motion is
// shared). On every deck of the distributed tests (all take edge contact now), and the
// crossed bars, whose partition cuts between the two middle elements that meet.
TEST(Subdomain, ContactShareComputesEveryEdgeRecordOnce) {
  // (contact_wall and contact_hertz: analytical masters, no edges.)
  for (const char* deck :
       {"contact_bars.inp", "contact_slide.inp", "contact_tube.inp", "contact_coarse.inp", "contact_crossed.inp"}) {
    const Model m = read_inp(std::string(HALFSTEP_SOURCE_DIR "/tests/parallel/decks/") + deck);
    const StructureSystem sys = build_structure_system(m);
    const ContactSystem& g = sys.contact;
    const std::vector<int> nodes = contact_nodes(g);
    std::vector<int> to(static_cast<std::size_t>(sys.num_nodes), -1);
    for (std::size_t k = 0; k < nodes.size(); ++k) to[nodes[k]] = static_cast<int>(k);
    for (int n : g.edge_nodes) {
      EXPECT_GE(to[n], 0) << deck;
    }
    for (int n : g.edge_facets) EXPECT_TRUE(n < 0 || to[n] >= 0) << deck;
    int edge_records = 0;
    for (int e = 0; e < g.num_edges; ++e) edge_records += (g.edge_role[e] & kEdgeRecord) != 0;
    if (std::string(deck) == "contact_crossed.inp") {
      // Both bars' feature edges (general contact: all records): per bar the 4 long edges
      // of its 7 elements and the 4 edges of each end face.
      EXPECT_EQ(edge_records, 2 * (4 * 7 + 2 * 4));
    }
    for (int ranks : {2, 3, 4}) {
      SCOPED_TRACE(testing::Message() << deck << ", " << ranks << " ranks");
      const Split s = make_split(m, sys, ranks);
      if (std::string(deck) == "contact_crossed.inp") {
        // Elements 4 (bar A) and 11 (bar B) hold the crossing: on two ranks, so the edge
        // records there search edges whose motion comes from another rank.
        EXPECT_NE(s.part[3], s.part[10]);
      }
      std::vector<int> record_rank(static_cast<std::size_t>(g.num_edges), -1);
      for (int r = 0; r < ranks; ++r) {
        const ContactShare& c = s.dom[r].contact;
        const ContactSystem& cs = c.system;
        ASSERT_EQ(cs.num_edges, g.num_edges);
        ASSERT_EQ(cs.edge_nodes.size(), g.edge_nodes.size());
        for (std::size_t k = 0; k < g.edge_nodes.size(); ++k) EXPECT_EQ(g.edge_nodes[k], nodes[cs.edge_nodes[k]]);
        ASSERT_EQ(cs.edge_facets.size(), g.edge_facets.size());
        for (std::size_t k = 0; k < g.edge_facets.size(); ++k)
          EXPECT_EQ(g.edge_facets[k], cs.edge_facets[k] < 0 ? -1 : nodes[cs.edge_facets[k]]);
        ASSERT_EQ(cs.edge_near_ptr.size(), g.edge_near_ptr.size());
        for (std::size_t e = 0; e + 1 < g.edge_near_ptr.size(); ++e) {
          std::vector<int> expected, got;
          for (int j = g.edge_near_ptr[e]; j < g.edge_near_ptr[e + 1]; ++j)
            if (to[g.edge_near_nodes[j]] >= 0) expected.push_back(to[g.edge_near_nodes[j]]);
          got.assign(cs.edge_near_nodes.begin() + cs.edge_near_ptr[e], cs.edge_near_nodes.begin() + cs.edge_near_ptr[e + 1]);
          EXPECT_EQ(got, expected) << "edge " << e;
        }
        for (int e : c.edge_records) {
          EXPECT_EQ(record_rank[e], -1) << "edge record " << e << " on two ranks";
          record_rank[e] = r;
          EXPECT_TRUE(cs.edge_role[e] & kEdgeRecord);
          EXPECT_TRUE(c.fills[cs.edge_nodes[2 * e]]);
        }
        EXPECT_TRUE(std::is_sorted(c.edge_records.begin(), c.edge_records.end()));
      }
      for (int e = 0; e < g.num_edges; ++e)
        EXPECT_EQ(record_rank[e] >= 0, (g.edge_role[e] & kEdgeRecord) != 0) << "edge " << e;
    }
    // Every deck has edge records: the bars' closed form as the crossed ones' (20 elements a
    // bar), the pairs' slave-surface edges, the tube's perimeters.
    EXPECT_GT(edge_records, 0) << deck;
    if (std::string(deck) == "contact_bars.inp") {
      EXPECT_EQ(edge_records, 2 * (4 * 20 + 2 * 4));
    }
  }
}

// Renumbering keeps the node areas (CPRESS) of the contact nodes and drops neighbours that
// are no contact nodes.
TEST(Subdomain, RenumberedContactKeepsNodeAreas) {
  const Model m = read_inp(HALFSTEP_SOURCE_DIR "/tests/parallel/decks/contact_bars.inp");
  const StructureSystem sys = build_structure_system(m);
  const ContactSystem& g = sys.contact;
  const std::vector<int> nodes = contact_nodes(g);
  std::vector<int> to(static_cast<std::size_t>(sys.num_nodes), -1);
  for (std::size_t k = 0; k < nodes.size(); ++k) to[nodes[k]] = static_cast<int>(k);
  const ContactSystem r = renumber_contact(g, to, static_cast<int>(nodes.size()));
  const double f[3] = {-1.5, 0.25, 0.5};
  int with_area = 0;
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    EXPECT_EQ(contact_pressure(r, static_cast<int>(k), f), contact_pressure(g, nodes[k], f));
    with_area += contact_pressure(g, nodes[k], f) > 0;
  }
  EXPECT_GT(with_area, 0);
  // A node off the contact surfaces (the bars' interior nodes, if any) has no area anyway.
  for (int n = 0; n < sys.num_nodes; ++n)
    if (to[n] < 0) {
      EXPECT_EQ(contact_pressure(g, n, f), 0.0);
    }
  ASSERT_EQ(r.near_ptr.size(), g.near_ptr.size());
  for (int n : r.near_nodes) EXPECT_GE(n, 0);
}

}  // namespace
}  // namespace halfstep
