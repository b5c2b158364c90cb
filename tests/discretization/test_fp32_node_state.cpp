// FP32 node state (issue 21): the node update on floats with and without the rounding
// remainders of NodeStateView::rem, against the exact sum of the same float increments.
// A free node moving at constant velocity and spinning about its triad vector t1 is what
// every node of a freely tumbling body does; the GPU's FP32 runs take this path.
#include <gtest/gtest.h>

#include <cmath>

#include "dynamics/node_integrator.hpp"

namespace halfstep {
namespace {

/// One 5-dof node on floats; with_remainders gives it the six remainder slots.
struct FloatNode {
  float ux = 0, uy = 0, uz = 0, v[6] = {0, 0, 0, 0, 0, 0};
  float dx = 0, dy = 0, dz = 1, t1x = 1, t1y = 0, t1z = 0;
  float rem[6] = {0, 0, 0, 0, 0, 0};
  float mass = 2, inertia = 0.5;
  NodeStateView<float> view(bool with_remainders) {
    NodeStateView<float> s{&ux, &uy, &uz, {&v[0], &v[1], &v[2], &v[3], &v[4], &v[5]}, &dx, &dy, &dz, &t1x, &t1y, &t1z};
    if (with_remainders)
      for (int i = 0; i < 6; ++i) s.rem[i] = &rem[i];
    return s;
  }
  NodeConstView<float> consts() const { return {&mass, &inertia, nullptr, nullptr}; }
};

struct Drift {
  double u, angle, length;  ///< largest displacement error, director angle error, |director| - 1
};

/// Runs `steps` free increments of dt at velocity (3.7, -1.3, 2.1) and spin 25 rad/s about
/// t1 = x; errors against the exact sums (in double) of the float increments.
Drift free_flight(bool with_remainders, int steps) {
  FloatNode n;
  const float vel[3] = {3.7f, -1.3f, 2.1f}, spin = 25.0f, dt = 6e-6f;
  for (int d = 0; d < 3; ++d) n.v[d] = vel[d];
  n.v[3] = spin;
  const NodeDrive<float> drive;
  const float fi[5] = {0, 0, 0, 0, 0}, fp[3] = {0, 0, 0};
  for (int i = 0; i < steps; ++i) {
    const HalfSteps<float> h{0.5f * dt, 0.5f * dt};
    integrate_node<float, 5>(0, fi, fp, 0, drive, h, true, n.view(with_remainders), n.consts());
  }
  const float step = 2.0f * (0.5f * dt);  // the integrator's dt, as it forms it
  const float* u[3] = {&n.ux, &n.uy, &n.uz};
  Drift out{0, 0, 0};
  for (int d = 0; d < 3; ++d) {
    const double exact = double(steps) * double(step * vel[d]);  // every increment is that float
    const double got = double(*u[d]) + (with_remainders ? double(n.rem[d]) : 0.0);
    out.u = std::fmax(out.u, std::fabs(got - exact));
  }
  // The director turns about x by steps * (step * spin): (0, -sin a, cos a).
  const double a = double(steps) * double(step * spin);
  const double d[3] = {double(n.dx) + (with_remainders ? double(n.rem[3]) : 0.0),
                       double(n.dy) + (with_remainders ? double(n.rem[4]) : 0.0),
                       double(n.dz) + (with_remainders ? double(n.rem[5]) : 0.0)};
  const double len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  out.angle = std::atan2(std::fabs(d[1] * std::cos(a) + d[2] * std::sin(a)) + std::fabs(d[0]), d[2] * std::cos(a) - d[1] * std::sin(a));
  out.length = std::fabs(len - 1.0);
  return out;
}

TEST(Fp32NodeState, RemaindersKeepTheSumOfSmallIncrementsExact) {
  const int steps = 200000;  // 1.2 s: 4.4 m of travel, 30 rad of spin
  const Drift plain = free_flight(false, steps);
  const Drift comp = free_flight(true, steps);
  // Measured: compensated u exact, angle 1.1e-7, length 9.5e-10; plain u 3.6e-3, angle 2.4e-6.
  EXPECT_LT(comp.u, 1e-12);
  EXPECT_LT(comp.angle, 5e-7);
  EXPECT_LT(comp.length, 5e-9);
  // Without the remainders each increment loses up to half an ulp of |u| (2.4e-7).
  EXPECT_GT(plain.u, 1e-4);
  EXPECT_GT(plain.angle, 5.0 * comp.angle);
}

TEST(Fp32NodeState, SmallTurnsKeepTheDirectorLength) {
  // 1 - cos(phi) in FP32 cancels to 0 or one ulp for phi ~ 1e-4..1e-3 (the second-order term
  // of Rodrigues' formula came out 0 or 3x too large); the half-angle form keeps it.
  for (const float phi : {1.2e-4f, 3e-4f, 1e-3f, 4e-3f}) {
    const Vec3<float> theta{0.6f * phi, 0.8f * phi, 0.0f};
    const Vec3<float> w{0.0f, 0.0f, 1.0f};
    const Vec3<float> inc = rotation_increment(theta, w);
    const double len2 = double(inc.x) * inc.x + double(inc.y) * inc.y + (1.0 + double(inc.z)) * (1.0 + double(inc.z));
    // |R w| = 1: the increment's z part is -(1 - cos phi) = -phi^2/2 to float precision.
    EXPECT_NEAR(double(inc.z), -(1.0 - std::cos(double(phi))), 1e-6 * double(phi) * double(phi)) << phi;
    EXPECT_NEAR(len2, 1.0, 1e-12) << phi;
  }
}

}  // namespace
}  // namespace halfstep
