// CPS4 (plane stress) with *PLASTIC: the finite-strain J2 law with F33 solved inside the
// return map (materials/plane_stress.hpp, j2_plane_stress_point), on one element under
// homogeneous paths against the closed forms of plane-stress J2 in logarithmic strain
// (proportional paths with linear hardening, where the return is exact for any increment):
// uniaxial stress (the transverse edge force driven to zero), equibiaxial stretch, pure shear;
// PEEQ, dissipation and energy from the state; objectivity under a large rigid rotation of a
// yielded element.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "elements/plane_quad.hpp"

namespace halfstep {
namespace {

using V3 = Vec3<double>;
constexpr double kE = 200e3, kNu = 0.3, kSy = 250, kT = 0.5;  // thickness kT

/// Bilinear J2 law: sigma_y = 250 + H alpha.
SolidMaterial<double> law(double H) {
  const double stress[2] = {kSy, kSy + H}, strain[2] = {0, 1};
  SolidMaterial<double> m = j2_plastic(kE, kNu, 7.85e-9, stress, strain, H > 0 ? 2 : 1);
  m.thickness = kT;
  return m;
}

/// The unit square (counter-clockwise from the origin) and its state store (4 points).
struct Element {
  V3 X[4] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  std::vector<double> state = std::vector<double>(4 * kJ2StateSize, 0.0);
  /// Forces and energy at the homogeneous in-plane deformation x = F X from the current
  /// state; commit: the state advances (in place, as the explicit pass does).
  SolidEnergy<double> at(const SolidMaterial<double>& m, const double F[2][2], V3 f[4], bool commit = true) {
    std::vector<double> copy = state;
    double* s = commit ? state.data() : copy.data();
    V3 u[4];
    for (int a = 0; a < 4; ++a)
      u[a] = {(F[0][0] - 1) * X[a].x + F[0][1] * X[a].y, F[1][0] * X[a].x + (F[1][1] - 1) * X[a].y, 0.0};
    return CPS4::internal_force(X, u, m, 0.0, f, ElementState<double>{s, s, 4, 0});
  }
  /// Cauchy stress and Green strain at F from the committed state (output: nothing written).
  SolidOutput<double> output(const SolidMaterial<double>& m, const double F[2][2]) const {
    V3 u[4];
    for (int a = 0; a < 4; ++a)
      u[a] = {(F[0][0] - 1) * X[a].x + F[0][1] * X[a].y, F[1][0] * X[a].x + (F[1][1] - 1) * X[a].y, 0.0};
    return CPS4::centroid_output(X, u, m, ElementState<double>{state.data(), nullptr, 4, 0});
  }
  /// Component c of point g.
  double point(int c, int g) const { return state[static_cast<std::size_t>(c) * 4 + static_cast<std::size_t>(g)]; }
};

class Cps4Plastic : public ::testing::TestWithParam<double> {};

// Uniaxial stress along x: F = diag(l1, l2) with l2 such that the top edge carries no force.
// In logarithmic strain e = ln l1 the law is the 1-D one: tau = E (e - p) = sy + H p, so
// p = (E e - sy) / (E + H); the lateral log strains are -nu tau / E - p / 2 (in-plane and
// through the thickness) and the end force is tau A0 / l1 (A0 = t * 1).
TEST_P(Cps4Plastic, UniaxialStressMatchesTheClosedForm) {
  const double H = GetParam();
  const SolidMaterial<double> m = law(H);
  Element el;
  double l2 = 1.0;
  V3 f[4];
  const int steps = 60;
  for (int n = 1; n <= steps; ++n) {
    const double l1 = 1.0 + 0.3 * n / steps;  // to 30 %: tau33 saturates, S33 = tau33 / F33^2 falls with F33
    // Secant on l2 for a free top edge (f_y of nodes 2 and 3), from copies of the state.
    const auto fy = [&](double y) {
      const double F[2][2] = {{l1, 0}, {0, y}};
      el.at(m, F, f, false);
      return f[2].y + f[3].y;
    };
    double y0 = l2, y1 = l2 - 1e-5, r0 = fy(y0), r1 = fy(y1);
    for (int it = 0; it < 60 && std::fabs(r1) > 1e-12 && r1 != r0; ++it) {
      const double y2 = y1 - r1 * (y1 - y0) / (r1 - r0);
      y0 = y1;
      r0 = r1;
      y1 = y2;
      r1 = fy(y1);
    }
    l2 = y1;
    const double F[2][2] = {{l1, 0}, {0, l2}};
    const SolidEnergy<double> w = el.at(m, F, f);
    const double e = std::log(l1);
    const double p = std::max(0.0, (kE * e - kSy) / (kE + H));
    const double tau = p > 0 ? kSy + H * p : kE * e;
    const double force = f[1].x + f[2].x;
    ASSERT_NEAR(force, kT * tau / l1, 1e-10 * kT * tau) << "step " << n;
    ASSERT_NEAR(f[2].y + f[3].y, 0.0, 1e-9 * kT * tau);
    ASSERT_NEAR(std::log(l2), -kNu * tau / kE - p / 2, 1e-11) << "step " << n;
    for (int g = 0; g < 4; ++g) {
      ASSERT_NEAR(el.point(kJ2Alpha, g), p, 1e-12);
      ASSERT_NEAR(el.point(kJ2Dissipation, g), kSy * p + 0.5 * H * p * p, 1e-9 * kSy * (p + 1e-6));
    }
    // Energy: stored tau^2 / (2E) plus the dissipation, over the reference volume t * 1.
    const double internal = kT * (tau * tau / (2 * kE) + kSy * p + 0.5 * H * p * p);
    ASSERT_NEAR(w.strain, internal, 1e-10 * internal);
  }
  // The thickness follows the same lateral strain: E33 = (l3^2 - 1) / 2 with l3 = l2, and
  // the Cauchy stress is uniaxial.
  const double F[2][2] = {{1.3, 0}, {0, l2}};
  const SolidOutput<double> out = el.output(m, F);
  EXPECT_NEAR(out.green(2, 2), 0.5 * (l2 * l2 - 1), 1e-12);
  const double p = (kE * std::log(1.3) - kSy) / (kE + H);
  const double tau = kSy + H * p;
  const double J = 1.3 * l2 * l2;
  EXPECT_NEAR(out.cauchy(0, 0), tau / J, 1e-10 * tau);
  EXPECT_NEAR(out.cauchy(1, 1), 0.0, 1e-9 * tau);
  EXPECT_NEAR(out.cauchy(2, 2), 0.0, 1e-9 * tau);
  EXPECT_NEAR(out.cauchy(0, 1), 0.0, 1e-9 * tau);
}

// Equibiaxial stretch F = diag(l, l): s11 = s22 = tau (Kirchhoff), Mises tau; the in-plane
// log strain e = ln l = (1 - nu) tau / E + p / 2 and tau = sy + H p give
// p = (e - (1 - nu) sy / E) / ((1 - nu) H / E + 1/2); the thickness log strain is
// -2 nu tau / E - p and each edge force tau t / l.
TEST_P(Cps4Plastic, EquibiaxialStretchMatchesTheClosedForm) {
  const double H = GetParam();
  const SolidMaterial<double> m = law(H);
  Element el;
  V3 f[4];
  for (int n = 1; n <= 20; ++n) {
    const double l = 1.0 + 0.002 * n * n / 20.0;  // unequal increments, 4e-3 strain at the end
    const double F[2][2] = {{l, 0}, {0, l}};
    el.at(m, F, f);
    const double e = std::log(l);
    const double p = std::max(0.0, (e - (1 - kNu) * kSy / kE) / ((1 - kNu) * H / kE + 0.5));
    const double tau = p > 0 ? kSy + H * p : kE * e / (1 - kNu);
    ASSERT_NEAR(f[1].x + f[2].x, kT * tau / l, 1e-10 * kT * tau) << "step " << n;
    ASSERT_NEAR(f[2].y + f[3].y, kT * tau / l, 1e-10 * kT * tau);
    ASSERT_NEAR(el.point(kJ2Alpha, 0), p, 1e-12);
    const SolidOutput<double> out = el.output(m, F);
    const double l3 = std::exp(-2 * kNu * tau / kE - p);
    ASSERT_NEAR(out.green(2, 2), 0.5 * (l3 * l3 - 1), 1e-12);
  }
}

// Pure shear: F = R diag(l, 1/l) R^T with R a 45-degree turn, principal log strains +-e,
// e = ln l, fixed principal axes. Plane stress gives principal stresses +-tau (tau = sigma12
// in the xy axes), Mises sqrt3 tau, no thickness strain (J = 1); e = tau / (2 mu) +
// sqrt3 / 2 p with sqrt3 tau = sy + H p.
TEST_P(Cps4Plastic, PureShearMatchesTheClosedForm) {
  const double H = GetParam();
  const SolidMaterial<double> m = law(H);
  const double mu = kE / (2 * (1 + kNu)), r3 = std::sqrt(3.0);
  Element el;
  V3 f[4];
  for (int n = 1; n <= 25; ++n) {
    const double e = 0.004 * n / 25.0, l = std::exp(e);
    const double a = 0.5 * (l + 1 / l), b = 0.5 * (l - 1 / l);  // R diag(l, 1/l) R^T
    const double F[2][2] = {{a, b}, {b, a}};
    el.at(m, F, f);
    const double p = std::max(0.0, (e - kSy / (2 * r3 * mu)) / (H / (2 * r3 * mu) + r3 / 2));
    const double tau = p > 0 ? (kSy + H * p) / r3 : 2 * mu * e;
    const SolidOutput<double> out = el.output(m, F);
    ASSERT_NEAR(out.cauchy(0, 1), tau, 1e-10 * tau) << "step " << n;
    ASSERT_NEAR(out.cauchy(0, 0), 0.0, 1e-9 * tau);
    ASSERT_NEAR(out.cauchy(1, 1), 0.0, 1e-9 * tau);
    ASSERT_NEAR(out.green(2, 2), 0.0, 1e-12);
    for (int g = 0; g < 4; ++g) ASSERT_NEAR(el.point(kJ2Alpha, g), p, 1e-12);
  }
}

INSTANTIATE_TEST_SUITE_P(Hardening, Cps4Plastic, ::testing::Values(0.0, 10e3),
                         [](const ::testing::TestParamInfo<double>& i) {
                           return i.param > 0 ? std::string("Linear") : std::string("Perfect");
                         });

// A yielded element (uniaxial, then sheared) turned rigidly by 1.9 rad: the last increment
// taken with the turn on top gives the turned forces and the same energy and state; a pure
// rigid turn of the converged configuration leaves the state alone (no spurious flow).
TEST(Cps4PlasticObjectivity, LargeRigidRotationOfAYieldedElement) {
  const SolidMaterial<double> m = law(10e3);
  Element el;
  V3 f[4];
  for (int n = 1; n <= 10; ++n) {
    const double F[2][2] = {{1 + 0.004 * n, 0.002 * n}, {0.0005 * n, 1 - 0.0012 * n}};
    el.at(m, F, f);
  }
  ASSERT_GT(el.point(kJ2Alpha, 0), 1e-3);
  const double G[2][2] = {{1.043, 0.0215}, {0.0052, 0.987}};  // the next increment
  const double c = std::cos(1.9), s = std::sin(1.9);
  const double QG[2][2] = {{c * G[0][0] - s * G[1][0], c * G[0][1] - s * G[1][1]},
                           {s * G[0][0] + c * G[1][0], s * G[0][1] + c * G[1][1]}};
  Element turned = el;
  V3 f0[4], f1[4];
  const SolidEnergy<double> w0 = el.at(m, G, f0);
  const SolidEnergy<double> w1 = turned.at(m, QG, f1);
  const double scale = std::fabs(f0[1].x) + std::fabs(f0[2].x);
  for (int a = 0; a < 4; ++a) {
    EXPECT_NEAR(f1[a].x, c * f0[a].x - s * f0[a].y, 1e-11 * scale) << a;
    EXPECT_NEAR(f1[a].y, s * f0[a].x + c * f0[a].y, 1e-11 * scale) << a;
  }
  EXPECT_NEAR(w1.strain, w0.strain, 1e-12 * w0.strain);
  for (std::size_t k = 0; k < el.state.size(); ++k) EXPECT_NEAR(turned.state[k], el.state[k], 1e-12) << k;
  // The converged configuration turned: no further flow, turned forces.
  const std::vector<double> before = el.state;
  V3 f2[4];
  el.at(m, QG, f2);
  for (std::size_t k = 0; k < before.size(); ++k) EXPECT_NEAR(el.state[k], before[k], 1e-12) << k;
  for (int a = 0; a < 4; ++a) {
    EXPECT_NEAR(f2[a].x, f1[a].x, 1e-11 * scale) << a;
    EXPECT_NEAR(f2[a].y, f1[a].y, 1e-11 * scale) << a;
  }
}

// A rigid motion of the virgin element, however large, gives zero force and no flow.
TEST(Cps4PlasticObjectivity, RigidRotationOfTheVirginElementIsStressFree) {
  const SolidMaterial<double> m = law(10e3);
  Element el;
  V3 f[4];
  const double c = std::cos(2.6), s = std::sin(2.6);
  const double Q[2][2] = {{c, -s}, {s, c}};
  const SolidEnergy<double> w = el.at(m, Q, f);
  for (int a = 0; a < 4; ++a) {
    EXPECT_NEAR(f[a].x, 0.0, 1e-9);
    EXPECT_NEAR(f[a].y, 0.0, 1e-9);
  }
  EXPECT_NEAR(w.strain, 0.0, 1e-12);
  for (double v : el.state) EXPECT_NEAR(v, 0.0, 1e-14);
}

}  // namespace
}  // namespace halfstep
