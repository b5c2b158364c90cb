// The 6-dof node update of beam models (integrate_node<T, 6>): global angular velocity
// integrated per component with the scalar rotary inertia, moments in global axes, held
// rotations as global UR1..UR3 with their reaction moments, and the frame R <- exp[dt w] R.
#include <gtest/gtest.h>

#include <cmath>

#include "dynamics/node_integrator.hpp"

namespace halfstep {
namespace {

struct OneNode {
  double ux = 0, uy = 0, uz = 0, v[6] = {0, 0, 0, 0, 0, 0};
  double dx = 0, dy = 0, dz = 1, t1x = 1, t1y = 0, t1z = 0;
  double mass = 2, inertia = 0.5;
  NodeStateView<double> view() {
    return {&ux, &uy, &uz, {&v[0], &v[1], &v[2], &v[3], &v[4], &v[5]}, &dx, &dy, &dz, &t1x, &t1y, &t1z};
  }
  NodeConstView<double> consts() const { return {&mass, &inertia, nullptr, nullptr}; }
};

TEST(SixDofNode, GlobalMomentSpinsTheFrameAboutItsAxis) {
  OneNode n;
  const double load[6] = {0, 0, 0, 0.3, -0.2, 0.6};  // a moment of magnitude 0.7
  NodeDrive<double> drive;
  drive.load = load;
  const double fi[6] = {0, 0, 0, 0, 0, 0}, fp[3] = {0, 0, 0};
  const double dt = 1e-3;
  const int steps = 2000;
  for (int i = 0; i < steps; ++i) {
    const HalfSteps<double> h{i == 0 ? 0.0 : 0.5 * dt, 0.5 * dt};
    integrate_node<double, 6>(0, fi, fp, 0, drive, h, true, n.view(), n.consts());
  }
  // w = M t / I per global component; the angle turned is 1/2 |M| t^2 / I about M's axis.
  const double t = steps * dt;
  for (int d = 0; d < 3; ++d) EXPECT_NEAR(n.v[3 + d], load[3 + d] * (t - 0.5 * dt) / n.inertia, 1e-12);
  const double angle = 0.5 * 0.7 * t * t / n.inertia;  // the velocity at the half steps integrates it exactly
  const Vec3<double> axis{0.3 / 0.7, -0.2 / 0.7, 0.6 / 0.7};
  const Vec3<double> t1 = rotate(angle * axis, Vec3<double>{1, 0, 0});
  const Vec3<double> d = rotate(angle * axis, Vec3<double>{0, 0, 1});
  EXPECT_NEAR(n.t1x, t1.x, 1e-10);
  EXPECT_NEAR(n.t1y, t1.y, 1e-10);
  EXPECT_NEAR(n.t1z, t1.z, 1e-10);
  EXPECT_NEAR(n.dx, d.x, 1e-10);
  EXPECT_NEAR(n.dy, d.y, 1e-10);
  EXPECT_NEAR(n.dz, d.z, 1e-10);
}

TEST(SixDofNode, HeldGlobalRotationTakesTheMomentAsReaction) {
  OneNode n;
  const double load[6] = {0, 0, 0, 0.3, -0.2, 0.6};
  NodeDrive<double> drive;
  drive.load = load;
  const double fi[6] = {0, 0, 0, 0.1, 0, 0}, fp[3] = {0, 0, 0};
  const std::uint8_t held = 1u << 5;  // UR3 held
  const HalfSteps<double> h{0.5e-3, 0.5e-3};
  const NodeUpdateResult<double> r = integrate_node<double, 6>(0, fi, fp, held, drive, h, true, n.view(), n.consts());
  EXPECT_EQ(n.v[5], 0.0);
  EXPECT_NEAR(n.v[3], (0.3 - 0.1) / n.inertia * 1e-3, 1e-15);
  EXPECT_NEAR(n.v[4], -0.2 / n.inertia * 1e-3, 1e-15);
  double out[kFullStepValues];
  full_step_output(r, out);
  EXPECT_NEAR(out[11], -0.6, 1e-15);  // RM3: the support cancels the applied moment
  EXPECT_EQ(out[9], 0.0);
  EXPECT_EQ(out[10], 0.0);
}

}  // namespace
}  // namespace halfstep
