// Compact output frames (dynamics/output_frame.hpp, OutputFrame::nodes): a history row holds
// the rows of its nodes only and an energy row none, and both sample what a whole-model frame
// at the same instant holds: the same values at those nodes (the constraint closure of
// discretization/constraints.hpp, frame_nodes, gives dependent dofs their terms) and the same
// energy record. The reference is the CPU backend's own whole-model frame.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "discretization/constraints.hpp"
#include "discretization/nodal_triads.hpp"
#include "discretization/output_fields.hpp"
#include "discretization/step_loads.hpp"
#include "discretization/structure_system.hpp"
#include "dynamics/step_drive.hpp"
#include "io/inp_reader.hpp"

namespace halfstep {
namespace {

/// A deck's first step run for `increments` increments on the CPU backend, ready to sample.
struct Running {
  Model model;
  StructureSystem sys;
  std::unique_ptr<Backend> hw;
  Increment now;

  Running(const std::string& deck, int increments) : model(read_inp(deck)), sys(build_structure_system(model)) {
    const std::vector<StepLoads> steps = build_step_loads(model, sys);
    StructureState st;
    st.initialize(sys);
    const std::vector<std::uint8_t> held_rot = sys.node_dofs == 6 ? std::vector<std::uint8_t>(sys.num_nodes, 0)
                                                                  : align_triads(sys, steps[0].fixed_rotation, st);
    BackendOptions opt;
    opt.threads = 1;
    hw = make_backend(BackendKind::Cpu, sys, opt, false);
    hw->upload(st);
    hw->begin_step(build_step_drive(sys, steps[0], held_rot));
    hw->element_pass(0.0, 0.0);
    const double dt = 0.5 * sys.stable_dt;
    double tau = 0, h_prev = 0;
    for (int i = 0; i < increments; ++i) {
      hw->advance({tau, tau, dt, h_prev});
      tau += dt;
      h_prev = 0.5 * dt;
    }
    now = {tau, tau, dt, h_prev};
  }

  /// A history frame of nodes (null: every node) sampled now.
  OutputFrame sample(std::shared_ptr<const std::vector<int>> nodes, bool history = true) {
    OutputFrame f;
    f.history = history;
    f.energy = true;
    f.nodes = std::move(nodes);
    hw->sample(now, f);
    if (f.complete) f.complete(f);
    return f;
  }
};

/// The nine state rows and twelve full-step rows of a frame.
std::vector<const std::vector<double>*> node_rows(const OutputFrame& f) {
  const StructureState& s = f.state;
  std::vector<const std::vector<double>*> rows = {&s.ux, &s.uy, &s.uz, &s.dx, &s.dy, &s.dz, &s.t1x, &s.t1y, &s.t1z};
  for (int i = 0; i < 6; ++i) rows.push_back(&f.full.v[i]);
  for (int i = 0; i < 6; ++i) rows.push_back(&f.full.rf[i]);
  return rows;
}

/// Samples `picked` (deck order, repeats allowed) as a compact frame, an energy frame and a
/// whole frame at one instant and compares them.
void check(Running& run, const std::vector<int>& picked) {
  const auto nodes = std::make_shared<const std::vector<int>>(frame_nodes(run.sys.constraints, run.sys.num_nodes, picked));
  ASSERT_TRUE(std::is_sorted(nodes->begin(), nodes->end()));
  for (int n : picked) EXPECT_TRUE(std::binary_search(nodes->begin(), nodes->end(), n)) << "node " << n;
  ASSERT_LT(nodes->size(), static_cast<std::size_t>(run.sys.num_nodes));  // the point of the exercise

  const OutputFrame whole = run.sample(nullptr);
  const OutputFrame compact = run.sample(nodes);
  const OutputFrame energy = run.sample(std::make_shared<const std::vector<int>>(), false);

  // Memory bounded: rows of the frame's nodes, none for an energy row.
  const auto a = node_rows(whole), b = node_rows(compact), e = node_rows(energy);
  for (std::size_t r = 0; r < a.size(); ++r) {
    ASSERT_EQ(a[r]->size(), static_cast<std::size_t>(run.sys.num_nodes)) << "row " << r;
    ASSERT_EQ(b[r]->size(), nodes->size()) << "row " << r;
    EXPECT_TRUE(e[r]->empty()) << "row " << r;
    for (std::size_t k = 0; k < nodes->size(); ++k)
      EXPECT_EQ((*b[r])[k], (*a[r])[static_cast<std::size_t>((*nodes)[k])]) << "row " << r << ", node " << (*nodes)[k];
  }
  EXPECT_TRUE(compact.state.elem_energy.empty() && compact.state.contact_normal.empty());

  // The energy balance sums every node whatever the frame holds.
  for (const OutputFrame* f : {&compact, &energy}) {
    EXPECT_EQ(f->record.kinetic, whole.record.kinetic);
    EXPECT_EQ(f->record.external_work, whole.record.external_work);
    EXPECT_EQ(f->record.internal, whole.record.internal);
    EXPECT_EQ(f->discard, whole.discard);
  }
  EXPECT_GT(whole.record.kinetic, 0.0);  // the model moves: the comparison above means something

  // The named arrays of the compact frame are the whole frame's at its nodes.
  OutputFrame w = whole, c = compact;
  w.state.r1x.assign(run.sys.num_nodes, 1.0);
  w.state.r1y.assign(run.sys.num_nodes, 0.0);
  w.state.r1z.assign(run.sys.num_nodes, 0.0);
  c.state.r1x.assign(nodes->size(), 1.0);
  c.state.r1y.assign(nodes->size(), 0.0);
  c.state.r1z.assign(nodes->size(), 0.0);
  const FieldSet fw = output_fields(run.model, run.sys, w.state, w.full, false);
  const FieldSet fc = output_fields(run.model, run.sys, c.state, c.full, false, nodes.get());
  for (const char* name : {"NodeId", "U", "UR", "V", "VR", "RF", "RM"}) {
    const FieldArray* x = fw.find_point(name);
    const FieldArray* y = fc.find_point(name);
    ASSERT_TRUE(x && y) << name;
    ASSERT_EQ(y->values.size(), nodes->size() * static_cast<std::size_t>(y->components)) << name;
    for (std::size_t k = 0; k < nodes->size(); ++k)
      for (int i = 0; i < y->components; ++i)
        EXPECT_EQ(y->values[k * y->components + i],
                  x->values[static_cast<std::size_t>((*nodes)[k]) * x->components + i])
            << name << " at node " << (*nodes)[k];
  }
  EXPECT_THROW(output_fields(run.model, run.sys, c.state, c.full, true, nodes.get()), std::logic_error);
}

TEST(CompactFrames, ShellRowsMatchTheWholeFrame) {
  Running run(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/shell_dome_j2.inp", 30);
  const int nn = run.sys.num_nodes;
  check(run, {nn - 1, 3, nn / 2, 3, 0});
}

TEST(CompactFrames, DependentDofsBringTheirTerms) {
  Running run(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/equation_bar.inp", 40);
  const LinearConstraints& lc = run.sys.constraints;
  ASSERT_GT(lc.num_dependent, 0);
  // A dependent node alone: the frame must carry its terms' nodes for its velocity.
  const int dep = lc.dep_node[0];
  const std::vector<int> closed = frame_nodes(lc, run.sys.num_nodes, {dep});
  for (int i = lc.term_ptr[0]; i < lc.term_ptr[1]; ++i)
    EXPECT_TRUE(std::binary_search(closed.begin(), closed.end(), lc.term_node[i]));
  check(run, {dep, 0});
}

TEST(CompactFrames, RigidBodyNodesTakeTheBodysMotion) {
  Running run(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/rigid_end.inp", 40);
  const RigidBodies& rb = run.sys.bodies;
  ASSERT_GT(rb.num_bodies, 0);
  check(run, {rb.slave_node.back(), rb.ref_node[0], 1});
}

TEST(CompactFrames, NodesOutsideTheModelAreRefused) {
  const LinearConstraints none;
  EXPECT_THROW(frame_nodes(none, 4, {1, 4}), std::out_of_range);
  EXPECT_THROW(frame_nodes(none, 4, {-1}), std::out_of_range);
  EXPECT_EQ(frame_nodes(none, 4, {3, 1, 3}), (std::vector<int>{1, 3}));
}

}  // namespace
}  // namespace halfstep
