// Tests of the step drive tables (src/solver/step_drive.hpp) and the amplitude functions they
// evaluate (src/model/amplitude.hpp): loads, prescribed motions and pressures at a step time.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

#include "model/amplitude.hpp"
#include "discretization/structure_system.hpp"
#include "dynamics/step_drive.hpp"
#include "discretization/step_loads.hpp"

namespace halfstep {
namespace {

// ---------------------------------------------------------------------------------------------
// amplitude_at

TEST(AmplitudeAt, TabularInterpolatesLinearly) {
  const double t[] = {0.0, 1.0, 3.0};
  const double v[] = {0.0, 2.0, -2.0};
  EXPECT_DOUBLE_EQ(amplitude_at(false, t, v, 3, 0.5), 1.0);
  EXPECT_DOUBLE_EQ(amplitude_at(false, t, v, 3, 0.25), 0.5);
  EXPECT_DOUBLE_EQ(amplitude_at(false, t, v, 3, 1.0), 2.0);
  EXPECT_DOUBLE_EQ(amplitude_at(false, t, v, 3, 2.0), 0.0);
  EXPECT_DOUBLE_EQ(amplitude_at(false, t, v, 3, 2.5), -1.0);
}

TEST(AmplitudeAt, TabularIsConstantOutsideItsPoints) {
  const double t[] = {1.0, 2.0, 4.0};
  const double v[] = {3.0, 5.0, 7.0};
  EXPECT_DOUBLE_EQ(amplitude_at(false, t, v, 3, -10.0), 3.0);
  EXPECT_DOUBLE_EQ(amplitude_at(false, t, v, 3, 0.0), 3.0);
  EXPECT_DOUBLE_EQ(amplitude_at(false, t, v, 3, 1.0), 3.0);
  EXPECT_DOUBLE_EQ(amplitude_at(false, t, v, 3, 4.0), 7.0);
  EXPECT_DOUBLE_EQ(amplitude_at(false, t, v, 3, 100.0), 7.0);
  EXPECT_DOUBLE_EQ(amplitude_at(true, t, v, 3, -1.0), 3.0);
  EXPECT_DOUBLE_EQ(amplitude_at(true, t, v, 3, 5.0), 7.0);
}

TEST(AmplitudeAt, TabularMatchesALinearSearchOnManyPoints) {
  // Uneven times, to exercise the bisection on every interval.
  std::vector<double> t, v;
  double time = -1.0;
  for (int i = 0; i < 37; ++i) {
    t.push_back(time);
    v.push_back(std::sin(1.7 * i) * 10.0 + i);
    time += 0.1 + 0.05 * (i % 5);
  }
  const int n = static_cast<int>(t.size());
  for (double q = t.front() - 0.3; q <= t.back() + 0.3; q += 0.0137) {
    double expected;
    if (q <= t.front()) expected = v.front();
    else if (q >= t.back()) expected = v.back();
    else {
      int k = 0;
      while (!(t[k] <= q && q < t[k + 1])) ++k;
      expected = v[k] + (v[k + 1] - v[k]) * (q - t[k]) / (t[k + 1] - t[k]);
    }
    EXPECT_NEAR(amplitude_at(false, t.data(), v.data(), n, q), expected, 1e-12) << "t = " << q;
  }
  // At every point exactly.
  for (int i = 0; i < n; ++i) EXPECT_NEAR(amplitude_at(false, t.data(), v.data(), n, t[i]), v[i], 1e-12) << i;
}

TEST(AmplitudeAt, SmoothStepHalfWayAtTheMidpointAndMatchesTheEnds) {
  const double t[] = {1.0, 3.0};
  const double v[] = {2.0, 6.0};
  EXPECT_DOUBLE_EQ(amplitude_at(true, t, v, 2, 2.0), 4.0);  // xi = 0.5
  EXPECT_DOUBLE_EQ(amplitude_at(true, t, v, 2, 1.0), 2.0);
  EXPECT_DOUBLE_EQ(amplitude_at(true, t, v, 2, 3.0), 6.0);
  EXPECT_NEAR(amplitude_at(true, t, v, 2, 1.0 + 1e-9), 2.0, 1e-12);
  EXPECT_NEAR(amplitude_at(true, t, v, 2, 3.0 - 1e-9), 6.0, 1e-12);
  // xi = 0.25: s = xi^3 (10 - 15 xi + 6 xi^2) = 0.103515625; symmetric about the midpoint.
  EXPECT_NEAR(amplitude_at(true, t, v, 2, 1.5), 2.0 + 4.0 * 0.103515625, 1e-14);
  EXPECT_NEAR(amplitude_at(true, t, v, 2, 2.5), 6.0 - 4.0 * 0.103515625, 1e-14);
}

TEST(AmplitudeAt, SmoothStepIsMonotoneAndFlatAtTheEnds) {
  const double t[] = {0.0, 1.0};
  const double v[] = {0.0, 1.0};
  double prev = -1;
  for (int i = 0; i <= 100; ++i) {
    const double a = amplitude_at(true, t, v, 2, i / 100.0);
    EXPECT_GE(a, prev);
    prev = a;
  }
  // Zero slope at both ends: the value moves much less than linearly.
  const double h = 1e-3;
  EXPECT_LT(amplitude_at(true, t, v, 2, h), 1e-7);
  EXPECT_GT(amplitude_at(true, t, v, 2, 1.0 - h), 1.0 - 1e-7);
}

TEST(AmplitudeAt, SmoothStepPerInterval) {
  // Each interval is its own smooth step between its end values.
  const double t[] = {0.0, 1.0, 2.0};
  const double v[] = {0.0, 10.0, 4.0};
  EXPECT_DOUBLE_EQ(amplitude_at(true, t, v, 3, 0.5), 5.0);
  EXPECT_DOUBLE_EQ(amplitude_at(true, t, v, 3, 1.0), 10.0);
  EXPECT_DOUBLE_EQ(amplitude_at(true, t, v, 3, 1.5), 7.0);
  EXPECT_DOUBLE_EQ(amplitude_at(true, t, v, 3, 2.0), 4.0);
}

TEST(AmplitudeAt, SinglePointIsConstant) {
  const double t[] = {2.0};
  const double v[] = {7.5};
  for (double q : {-5.0, 0.0, 2.0, 3.0, 1e9}) {
    EXPECT_DOUBLE_EQ(amplitude_at(false, t, v, 1, q), 7.5) << q;
    EXPECT_DOUBLE_EQ(amplitude_at(true, t, v, 1, q), 7.5) << q;
  }
}

TEST(AmplitudeAt, AmplitudeObjectUsesItsKind) {
  Amplitude a;
  EXPECT_DOUBLE_EQ(a(3.0), 1.0);  // no points: 1
  a.time = {0.0, 2.0};
  a.value = {0.0, 1.0};
  EXPECT_DOUBLE_EQ(a(0.5), 0.25);
  a.kind = Amplitude::Kind::SmoothStep;
  EXPECT_NEAR(a(0.5), 0.103515625, 1e-15);
  EXPECT_DOUBLE_EQ(a(1.0), 0.5);
}

// ---------------------------------------------------------------------------------------------
// build_step_drive and its evaluation

/// A system of num_nodes nodes and the elements of conn; only the fields the drive reads.
StructureSystem make_system(int num_nodes, const std::vector<int>& conn) {
  StructureSystem sys;
  sys.num_nodes = num_nodes;
  sys.shell.num_elements = static_cast<int>(conn.size() / 4);
  sys.shell.conn = conn;
  build_gather_map(sys);
  sys.any_director_nodes = sys.shell.num_elements > 0;
  sys.node_rotates.assign(num_nodes, 0);
  for (int n = 0; n < num_nodes; ++n) sys.node_rotates[n] = sys.shell.node_slot_ptr[n + 1] > sys.shell.node_slot_ptr[n];
  return sys;
}

/// Two quads over nodes 0..5; nodes 6 and 7 belong to no element.
StructureSystem two_quads() { return make_system(8, {0, 1, 4, 3, 1, 2, 5, 4}); }

StepLoads empty_step(int num_nodes, double period) {
  StepLoads s;
  s.name = "Step-1";
  s.period = period;
  s.fixed_translation.assign(num_nodes, 0);
  s.fixed_rotation.assign(num_nodes, 0);
  return s;
}

void add_load(StepLoads& s, int node, int dof, int amp, double value) {
  s.load_node.push_back(node);
  s.load_dof.push_back(dof);
  s.load_amp.push_back(amp);
  s.load_value.push_back(value);
}

void add_motion(StepLoads& s, int node, int dof, int amp, double value, bool velocity) {
  s.motion_node.push_back(node);
  s.motion_dof.push_back(dof);
  s.motion_amp.push_back(amp);
  s.motion_value.push_back(value);
  s.motion_velocity.push_back(velocity ? 1 : 0);
}

void add_pressure(StepLoads& s, int elem, int amp, double value) {
  s.pressure_elem.push_back(elem);
  s.pressure_amp.push_back(amp);
  s.pressure_value.push_back(value);
}

/// amp(t) = 10 t on [0, 1], constant after.
Amplitude linear10() {
  Amplitude a;
  a.name = "LIN10";
  a.time = {0.0, 1.0};
  a.value = {0.0, 10.0};
  return a;
}

TEST(StepDrive, HeldBitsCombineTranslationsAndTriadRotations) {
  const StructureSystem sys = two_quads();
  StepLoads s = empty_step(sys.num_nodes, 1.0);
  s.fixed_translation = {0x0, 0x1, 0x7, 0x2, 0x4, 0x0, 0x0, 0x3};
  const std::vector<std::uint8_t> held_rot = {0x0, 0x0, 0x3, 0x1, 0x2, 0x3, 0x0, 0x0};
  const StepDrive d = build_step_drive(sys, s, held_rot);
  ASSERT_EQ(d.held.size(), 8u);
  EXPECT_EQ(d.held[0], 0x00);
  EXPECT_EQ(d.held[1], 0x01);
  EXPECT_EQ(d.held[2], 0x1f);
  EXPECT_EQ(d.held[3], 0x0a);
  EXPECT_EQ(d.held[4], 0x14);
  EXPECT_EQ(d.held[5], 0x18);
  // Nodes without element slots: everything held.
  EXPECT_EQ(d.held[6], 0x1f);
  EXPECT_EQ(d.held[7], 0x1f);
}

TEST(StepDrive, EmptyStepHasNoSpecialNodesAndNoPressures) {
  const StructureSystem sys = two_quads();
  const StepLoads s = empty_step(sys.num_nodes, 2.0);
  const StepDrive d = build_step_drive(sys, s, std::vector<std::uint8_t>(sys.num_nodes, 0));
  EXPECT_EQ(d.num_special, 0);
  for (int sp : d.special) EXPECT_EQ(sp, -1);
  EXPECT_FALSE(d.has_pressure());
  EXPECT_DOUBLE_EQ(d.period, 2.0);
  const DriveView v = host_view(d);
  EXPECT_EQ(v.pressure_ptr, nullptr);
  EXPECT_EQ(v.num_named, 0);
  for (int e = 0; e < sys.shell.num_elements; ++e) EXPECT_EQ(evaluate_pressure(v, e, 0.5), 0.0);
  // Every table hands out a valid pointer, even when empty.
  EXPECT_NE(v.load_ptr, nullptr);
  EXPECT_NE(v.load_dof, nullptr);
  EXPECT_NE(v.load_value, nullptr);
  EXPECT_NE(v.motion_ptr, nullptr);
  EXPECT_NE(v.motion_dof, nullptr);
  EXPECT_NE(v.motion_value, nullptr);
  EXPECT_NE(v.motion_velocity, nullptr);
  EXPECT_NE(v.amp_ptr, nullptr);
  EXPECT_NE(v.amp_smooth, nullptr);
  EXPECT_NE(v.amp_time, nullptr);
  EXPECT_NE(v.amp_value, nullptr);
}

TEST(StepDrive, SpecialNumberingCoversExactlyTheLoadedAndMovedNodes) {
  const StructureSystem sys = two_quads();
  StepLoads s = empty_step(sys.num_nodes, 1.0);
  add_load(s, 4, 0, 0, 1.0);
  add_load(s, 2, 1, 0, 1.0);
  add_load(s, 4, 2, 0, 1.0);  // same node again
  add_motion(s, 1, 0, 0, 0.1, false);
  add_motion(s, 2, 2, 0, 0.1, false);  // loaded and moved
  add_motion(s, 5, 1, 0, 0.1, true);
  add_pressure(s, 0, 0, 1.0);  // pressures make no node special
  const StepDrive d = build_step_drive(sys, s, std::vector<std::uint8_t>(sys.num_nodes, 0));
  ASSERT_EQ(d.special.size(), 8u);
  EXPECT_EQ(d.num_special, 4);
  std::set<int> special_nodes, indices;
  for (int n = 0; n < sys.num_nodes; ++n)
    if (d.special[n] >= 0) {
      special_nodes.insert(n);
      indices.insert(d.special[n]);
    } else {
      EXPECT_EQ(d.special[n], -1);
    }
  EXPECT_EQ(special_nodes, (std::set<int>{1, 2, 4, 5}));
  EXPECT_EQ(indices, (std::set<int>{0, 1, 2, 3}));
  ASSERT_EQ(d.load_ptr.size(), 5u);
  ASSERT_EQ(d.motion_ptr.size(), 5u);
  EXPECT_EQ(d.load_ptr.back(), 3);
  EXPECT_EQ(d.motion_ptr.back(), 3);
  // Entries per special node.
  EXPECT_EQ(d.load_ptr[d.special[4] + 1] - d.load_ptr[d.special[4]], 2);
  EXPECT_EQ(d.load_ptr[d.special[2] + 1] - d.load_ptr[d.special[2]], 1);
  EXPECT_EQ(d.load_ptr[d.special[1] + 1] - d.load_ptr[d.special[1]], 0);
  EXPECT_EQ(d.motion_ptr[d.special[2] + 1] - d.motion_ptr[d.special[2]], 1);
  EXPECT_EQ(d.motion_ptr[d.special[4] + 1] - d.motion_ptr[d.special[4]], 0);
}

TEST(StepDrive, AmplitudeSlots) {
  const StructureSystem sys = two_quads();
  StepLoads s = empty_step(sys.num_nodes, 2.0);
  Amplitude a = linear10(), b, none;
  b.name = "SMOOTH";
  b.kind = Amplitude::Kind::SmoothStep;
  b.time = {1.0, 3.0};
  b.value = {2.0, 6.0};
  none.name = "EMPTY";
  s.amplitudes.named = {&a, &b, &none};
  const StepDrive d = build_step_drive(sys, s, std::vector<std::uint8_t>(sys.num_nodes, 0));
  const DriveView v = host_view(d);
  EXPECT_EQ(v.num_named, 3);
  // Slot 0: constant 1.
  for (double tau : {-1.0, 0.0, 0.7, 2.0, 5.0}) EXPECT_EQ(amplitude_slot(v, 0, tau), 1.0) << tau;
  // Slot 1: ramp over the period, clamped to [0, 1].
  EXPECT_EQ(amplitude_slot(v, 1, -0.5), 0.0);
  EXPECT_EQ(amplitude_slot(v, 1, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(amplitude_slot(v, 1, 0.5), 0.25);
  EXPECT_DOUBLE_EQ(amplitude_slot(v, 1, 1.5), 0.75);
  EXPECT_EQ(amplitude_slot(v, 1, 2.0), 1.0);
  EXPECT_EQ(amplitude_slot(v, 1, 7.0), 1.0);
  // Slots 2..: the named amplitudes in order.
  EXPECT_DOUBLE_EQ(amplitude_slot(v, 2, 0.3), 3.0);
  EXPECT_DOUBLE_EQ(amplitude_slot(v, 2, -1.0), 0.0);
  EXPECT_DOUBLE_EQ(amplitude_slot(v, 2, 4.0), 10.0);
  EXPECT_DOUBLE_EQ(amplitude_slot(v, 3, 2.0), 4.0);
  EXPECT_DOUBLE_EQ(amplitude_slot(v, 3, 0.0), 2.0);
  EXPECT_DOUBLE_EQ(amplitude_slot(v, 3, 9.0), 6.0);
  EXPECT_NEAR(amplitude_slot(v, 3, 1.5), 2.0 + 4.0 * 0.103515625, 1e-14);
  for (double tau : {-1.0, 0.0, 1.0, 3.0}) EXPECT_DOUBLE_EQ(amplitude_slot(v, 4, tau), 1.0) << tau;
  // Agrees with the host Amplitude objects.
  for (double tau = -0.5; tau < 4.0; tau += 0.093) {
    EXPECT_NEAR(amplitude_slot(v, 2, tau), a(tau), 1e-13);
    EXPECT_NEAR(amplitude_slot(v, 3, tau), b(tau), 1e-13);
  }
}

TEST(StepDrive, RampOfAZeroLengthStepIsOne) {
  const StructureSystem sys = two_quads();
  const StepLoads s = empty_step(sys.num_nodes, 0.0);
  const StepDrive d = build_step_drive(sys, s, std::vector<std::uint8_t>(sys.num_nodes, 0));
  const DriveView v = host_view(d);
  EXPECT_EQ(amplitude_slot(v, 1, 0.0), 1.0);
  EXPECT_EQ(amplitude_slot(v, 1, 1.0), 1.0);
}

TEST(StepDrive, LoadsOnOneNodeAndDofAddUp) {
  const StructureSystem sys = two_quads();
  StepLoads s = empty_step(sys.num_nodes, 2.0);
  Amplitude a = linear10();
  s.amplitudes.named = {&a};
  add_load(s, 4, 0, 0, 3.0);   // constant
  add_load(s, 4, 0, 1, 4.0);   // ramp
  add_load(s, 4, 0, 2, 0.5);   // 10 t
  add_load(s, 4, 2, 0, -1.5);  // another dof
  add_load(s, 1, 1, 0, 9.0);   // another node
  const StepDrive d = build_step_drive(sys, s, std::vector<std::uint8_t>(sys.num_nodes, 0));
  const DriveView v = host_view(d);
  const double tau = 0.5;  // ramp 0.25, 10 t = 5
  const NodeDriveValues<double> r = evaluate_node_drive<double>(v, d.special[4], tau, 1e-3);
  EXPECT_DOUBLE_EQ(r.load[0], 3.0 + 4.0 * 0.25 + 0.5 * 5.0);
  EXPECT_DOUBLE_EQ(r.load[1], 0.0);
  EXPECT_DOUBLE_EQ(r.load[2], -1.5);
  for (int k = 3; k < 6; ++k) EXPECT_EQ(r.load[k], 0.0) << k;
  EXPECT_EQ(r.moving, 0);
  EXPECT_EQ(r.by_velocity, 0);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(r.motion[k], 0.0) << k;

  const NodeDriveValues<double> r1 = evaluate_node_drive<double>(v, d.special[1], tau, 1e-3);
  EXPECT_DOUBLE_EQ(r1.load[1], 9.0);
  EXPECT_EQ(r1.load[0], 0.0);
  EXPECT_EQ(r1.load[2], 0.0);

  // Later in the step the ramp and table move on.
  const NodeDriveValues<double> r2 = evaluate_node_drive<double>(v, d.special[4], 2.0, 0.0);
  EXPECT_DOUBLE_EQ(r2.load[0], 3.0 + 4.0 + 0.5 * 10.0);
}

TEST(StepDrive, MomentsGoToDofsThreeToFive) {
  const StructureSystem sys = two_quads();
  StepLoads s = empty_step(sys.num_nodes, 1.0);
  add_load(s, 3, 3, 0, 1.25);
  add_load(s, 3, 4, 0, -2.5);
  add_load(s, 3, 5, 0, 4.0);
  add_load(s, 3, 5, 0, 1.0);
  const StepDrive d = build_step_drive(sys, s, std::vector<std::uint8_t>(sys.num_nodes, 0));
  const NodeDriveValues<double> r = evaluate_node_drive<double>(host_view(d), d.special[3], 0.3, 1e-4);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(r.load[k], 0.0) << k;
  EXPECT_DOUBLE_EQ(r.load[3], 1.25);
  EXPECT_DOUBLE_EQ(r.load[4], -2.5);
  EXPECT_DOUBLE_EQ(r.load[5], 5.0);
}

TEST(StepDrive, DisplacementTargetsTheEndAndVelocityTheMiddleOfTheInterval) {
  const StructureSystem sys = two_quads();
  StepLoads s = empty_step(sys.num_nodes, 4.0);
  Amplitude a = linear10();
  s.amplitudes.named = {&a};
  add_motion(s, 1, 2, 2, 0.1, false);  // u_z = 0.1 * 10 t
  add_motion(s, 1, 0, 2, 2.0, true);   // v_x = 2 * 10 t
  add_motion(s, 5, 1, 1, 3.0, false);  // u_y = 3 * ramp over 4
  const StepDrive d = build_step_drive(sys, s, std::vector<std::uint8_t>(sys.num_nodes, 0));
  const DriveView v = host_view(d);
  const double tau = 0.2, dt = 0.1;
  const NodeDriveValues<double> r = evaluate_node_drive<double>(v, d.special[1], tau, dt);
  EXPECT_NEAR(r.motion[2], 0.1 * 10.0 * (tau + dt), 1e-14);
  EXPECT_NEAR(r.motion[0], 2.0 * 10.0 * (tau + 0.5 * dt), 1e-14);
  EXPECT_EQ(r.motion[1], 0.0);
  EXPECT_EQ(r.moving, 0x5);
  EXPECT_EQ(r.by_velocity, 0x1);
  for (int k = 0; k < 6; ++k) EXPECT_EQ(r.load[k], 0.0) << k;

  const NodeDriveValues<double> r5 = evaluate_node_drive<double>(v, d.special[5], 1.0, 0.2);
  EXPECT_NEAR(r5.motion[1], 3.0 * (1.2 / 4.0), 1e-14);
  EXPECT_EQ(r5.moving, 0x2);
  EXPECT_EQ(r5.by_velocity, 0x0);
}

TEST(StepDrive, ZeroNextIncrementGivesZeroMotionButKeepsTheBits) {
  const StructureSystem sys = two_quads();
  StepLoads s = empty_step(sys.num_nodes, 1.0);
  add_motion(s, 0, 0, 0, 0.5, false);
  add_motion(s, 0, 1, 0, 1.5, true);
  add_motion(s, 0, 2, 0, -2.0, true);
  const StepDrive d = build_step_drive(sys, s, std::vector<std::uint8_t>(sys.num_nodes, 0));
  const DriveView v = host_view(d);
  const NodeDriveValues<double> r = evaluate_node_drive<double>(v, d.special[0], 1.0, 0.0);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(r.motion[k], 0.0) << k;
  EXPECT_EQ(r.moving, 0x7);
  EXPECT_EQ(r.by_velocity, 0x6);
  // With a step ahead the values are there.
  const NodeDriveValues<double> r2 = evaluate_node_drive<double>(v, d.special[0], 1.0, 0.01);
  EXPECT_DOUBLE_EQ(r2.motion[0], 0.5);
  EXPECT_DOUBLE_EQ(r2.motion[1], 1.5);
  EXPECT_DOUBLE_EQ(r2.motion[2], -2.0);
  EXPECT_EQ(r2.moving, 0x7);
  EXPECT_EQ(r2.by_velocity, 0x6);
}

TEST(StepDrive, LastMotionEntryForADofWins) {
  const StructureSystem sys = two_quads();
  StepLoads s = empty_step(sys.num_nodes, 1.0);
  add_motion(s, 2, 1, 0, 0.25, false);
  add_motion(s, 4, 0, 0, 7.0, true);  // another node in between
  add_motion(s, 2, 1, 0, 3.0, true);  // replaces the displacement by a velocity
  add_motion(s, 4, 0, 0, 0.5, false); // replaces the velocity by a displacement
  const StepDrive d = build_step_drive(sys, s, std::vector<std::uint8_t>(sys.num_nodes, 0));
  const DriveView v = host_view(d);
  const NodeDriveValues<double> r2 = evaluate_node_drive<double>(v, d.special[2], 0.0, 0.1);
  EXPECT_DOUBLE_EQ(r2.motion[1], 3.0);
  EXPECT_EQ(r2.moving, 0x2);
  EXPECT_EQ(r2.by_velocity, 0x2);
  const NodeDriveValues<double> r4 = evaluate_node_drive<double>(v, d.special[4], 0.0, 0.1);
  EXPECT_DOUBLE_EQ(r4.motion[0], 0.5);
  EXPECT_EQ(r4.moving, 0x1);
  EXPECT_EQ(r4.by_velocity, 0x0);
}

TEST(StepDrive, SinglePrecisionValues) {
  const StructureSystem sys = two_quads();
  StepLoads s = empty_step(sys.num_nodes, 1.0);
  add_load(s, 5, 2, 1, 8.0);
  add_motion(s, 5, 0, 1, 2.0, false);
  const StepDrive d = build_step_drive(sys, s, std::vector<std::uint8_t>(sys.num_nodes, 0));
  const NodeDriveValues<float> r = evaluate_node_drive<float>(host_view(d), d.special[5], 0.25, 0.25);
  EXPECT_FLOAT_EQ(r.load[2], 2.0f);
  EXPECT_FLOAT_EQ(r.motion[0], 1.0f);
  EXPECT_EQ(r.moving, 0x1);
}

TEST(StepDrive, PressuresOnOneElementAdd) {
  const StructureSystem sys = two_quads();
  StepLoads s = empty_step(sys.num_nodes, 2.0);
  Amplitude a = linear10();
  s.amplitudes.named = {&a};
  add_pressure(s, 1, 0, 2.0);
  add_pressure(s, 1, 1, 3.0);
  add_pressure(s, 1, 2, -0.5);
  const StepDrive d = build_step_drive(sys, s, std::vector<std::uint8_t>(sys.num_nodes, 0));
  ASSERT_TRUE(d.has_pressure());
  const DriveView v = host_view(d);
  ASSERT_NE(v.pressure_ptr, nullptr);
  const double tau = 0.5;  // ramp 0.25, 10 t = 5
  EXPECT_DOUBLE_EQ(evaluate_pressure(v, 1, tau), 2.0 + 3.0 * 0.25 - 0.5 * 5.0);
  EXPECT_EQ(evaluate_pressure(v, 0, tau), 0.0);
  EXPECT_DOUBLE_EQ(evaluate_pressure(v, 1, 0.0), 2.0);
  EXPECT_DOUBLE_EQ(evaluate_pressure(v, 1, 2.0), 2.0 + 3.0 - 5.0);
  // Pressures make no node special.
  EXPECT_EQ(d.num_special, 0);
}

TEST(StepDrive, PressuresOnSeveralElementsInAnyOrder) {
  const StructureSystem sys = make_system(9, {0, 1, 4, 3, 1, 2, 5, 4, 3, 4, 7, 6, 4, 5, 8, 7});
  StepLoads s = empty_step(sys.num_nodes, 1.0);
  add_pressure(s, 3, 0, 1.0);
  add_pressure(s, 0, 0, 2.0);
  add_pressure(s, 3, 0, 4.0);
  add_pressure(s, 2, 0, 8.0);
  const StepDrive d = build_step_drive(sys, s, std::vector<std::uint8_t>(sys.num_nodes, 0));
  const DriveView v = host_view(d);
  EXPECT_DOUBLE_EQ(evaluate_pressure(v, 0, 0.5), 2.0);
  EXPECT_DOUBLE_EQ(evaluate_pressure(v, 1, 0.5), 0.0);
  EXPECT_DOUBLE_EQ(evaluate_pressure(v, 2, 0.5), 8.0);
  EXPECT_DOUBLE_EQ(evaluate_pressure(v, 3, 0.5), 5.0);
  ASSERT_EQ(d.pressure_ptr.size(), 5u);
  EXPECT_EQ(d.pressure_ptr.back(), 4);
}

TEST(StepDrive, NoPressuresGiveZeroAndNoTable) {
  const StructureSystem sys = two_quads();
  StepLoads s = empty_step(sys.num_nodes, 1.0);
  add_load(s, 0, 2, 0, 1.0);
  const StepDrive d = build_step_drive(sys, s, std::vector<std::uint8_t>(sys.num_nodes, 0));
  EXPECT_FALSE(d.has_pressure());
  const DriveView v = host_view(d);
  EXPECT_EQ(v.pressure_ptr, nullptr);
  EXPECT_EQ(evaluate_pressure(v, 0, 0.5), 0.0);
  EXPECT_EQ(evaluate_pressure(v, 1, 0.5), 0.0);
}

}  // namespace
}  // namespace halfstep
