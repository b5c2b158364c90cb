// MITC4 with through-thickness section points and plane-stress J2 (elements/mitc4_plastic.hpp):
// below yield it is the elastic element (Simpson is exact on the linear strain profile);
// uniform uniaxial membrane stress against the closed form (resultants, PEEQ, energy with
// dissipation); a large rigid rotation of a yielded element rotates its forces and leaves its
// stresses, section forces and state unchanged; a rigid rotation of the virgin element gives
// no force.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "elements/mitc4_section.hpp"
#include "mitc4_test_util.hpp"

namespace halfstep::test {
namespace {

constexpr double kE = 200e3, kNu = 0.3, kSy = 250, kH = 10e3;

/// J2 with sigma_y = 250 + H alpha (E = 200e3, nu = 0.3).
SolidMaterial<double> law(double sy = kSy, double H = kH) {
  SolidMaterial<double> m;
  m.model = law_id<J2Plastic>;
  m.lambda = kE * kNu / ((1 + kNu) * (1 - 2 * kNu));
  m.mu = kE / (2 * (1 + kNu));
  m.hardening_points = 2;
  m.yield_stress[0] = sy;
  m.yield_strain[0] = 0;
  m.yield_stress[1] = sy + H;
  m.yield_strain[1] = 1;
  return m;
}

/// An element with a plastic section of `points` Simpson points and its state store.
struct PlasticElement : OneElement {
  SolidMaterial<double> j2;
  int points;
  std::vector<double> state;
  PlasticElement(const std::array<V3, 4>& nodes, double thickness, const SolidMaterial<double>& m, int np)
      : OneElement(nodes, thickness), j2(m), points(np), state(kJ2PlaneStateSize * 4 * np, 0.0) {
    mat = ShellElastic<double>::from(kE, kNu);
  }
  std::size_t npts() const { return 4 * static_cast<std::size_t>(points); }
  /// Forces with the state updated in place (commit) or on a copy (probe); returns the energy.
  double plastic_forces(double gen[20], bool commit = true) {
    std::vector<double> copy = state;
    std::vector<double>& s = commit ? state : copy;
    const ElementState<double> es{s.data(), s.data(), npts(), 0};
    V3 f[4], gv[4];
    const double w = mitc4_plastic_internal_force(ref, nodes(), a, j2, mat.kshear, points, es, f, gv);
    for (int k = 0; k < 4; ++k) mitc4_corner_generalized_force(f[k], gv[k], v[k], t1[k], gen + 5 * k);
    return w;
  }
  Mitc4SectionResults<double> results(double* peeq) const {
    const ElementState<double> es{state.data(), nullptr, npts(), 0};
    return mitc4_plastic_section_results(ref, nodes(), a, j2, mat.kshear, points, es, peeq);
  }
};

const std::array<V3, 4> kSkew = {V3{0, 0, 0}, V3{2.0, 0.1, 0}, V3{2.2, 1.7, 0.2}, V3{-0.1, 1.5, 0.1}};
const std::array<V3, 4> kSquare = {V3{0, 0, 0}, V3{1, 0, 0}, V3{1, 1, 0}, V3{0, 1, 0}};

/// A random generalized increment of size h (translations and director rotations).
void random_increment(OneElement& e, double h, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-h, h);
  double dq[20];
  for (double& q : dq) q = u(rng);
  e.increment(dq);
}

TEST(Mitc4Plastic, BelowYieldItIsTheElasticElement) {
  for (int points : {3, 5, 7}) {
    PlasticElement p(kSkew, 0.1, law(1e30), points);  // never yields
    std::mt19937 rng(3);
    random_increment(p, 0.02, rng);
    double fe[20], fp[20];
    const double we = p.forces(fe), wp = p.plastic_forces(fp);
    double scale = 0;
    for (double x : fe) scale = std::max(scale, std::fabs(x));
    for (int i = 0; i < 20; ++i) EXPECT_NEAR(fp[i], fe[i], 1e-11 * scale) << points << " " << i;
    EXPECT_NEAR(wp, we, 1e-11 * we);
    for (std::size_t i = 0; i < p.state.size(); ++i) EXPECT_EQ(p.state[i], 0.0);
  }
}

TEST(Mitc4Plastic, UniformUniaxialMembraneStressMatchesTheClosedForm) {
  // Green-Lagrange strains of monotonic uniaxial stress s: E11 = s/E + alpha, E22 =
  // -nu s/E - alpha/2 with alpha = (s - sy)/H, imposed as stretches sqrt(1 + 2 E).
  const double s = 400, alpha = (s - kSy) / kH, t = 0.05;
  const double e11 = s / kE + alpha, e22 = -kNu * s / kE - 0.5 * alpha;
  const double l1 = std::sqrt(1 + 2 * e11), l2 = std::sqrt(1 + 2 * e22);
  PlasticElement p(kSquare, t, law(), 5);
  // Reach it in increments along the path (a proportional stress path: exact per increment).
  double gen[20], w = 0;
  for (int i = 1; i <= 10; ++i) {
    const double si = s * i / 10, ai = std::max(0.0, (si - kSy) / kH);
    const double a1 = std::sqrt(1 + 2 * (si / kE + ai)), a2 = std::sqrt(1 + 2 * (-kNu * si / kE - 0.5 * ai));
    for (int k = 0; k < 4; ++k) p.x[k] = {a1 * p.X[k].x, a2 * p.X[k].y, 0};
    w = p.plastic_forces(gen);
  }
  ASSERT_NEAR(p.x[2].x, l1, 1e-15);
  ASSERT_NEAR(p.x[2].y, l2, 1e-15);
  double peeq = 0;
  const Mitc4SectionResults<double> r = p.results(&peeq);
  EXPECT_NEAR(r.sf[0], s * t, 1e-9 * s * t);
  EXPECT_NEAR(r.sf[1], 0.0, 1e-9 * s * t);
  EXPECT_NEAR(r.sf[2], 0.0, 1e-9 * s * t);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(r.sm[i], 0.0, 1e-9 * s * t * t);
  EXPECT_NEAR(r.s_top[0], s, 1e-9 * s);
  EXPECT_NEAR(r.s_bottom[0], s, 1e-9 * s);
  EXPECT_NEAR(peeq, alpha, 1e-9 * alpha);
  for (std::size_t q = 0; q < p.npts(); ++q) EXPECT_NEAR(p.state[kJ2PlaneAlpha * p.npts() + q], alpha, 1e-9 * alpha);
  // Internal energy: stored s^2 / 2E plus dissipated sy alpha + H alpha^2 / 2, over the volume t.
  const double density = s * s / (2 * kE) + kSy * alpha + 0.5 * kH * alpha * alpha;
  EXPECT_NEAR(w, density * t, 1e-9 * density * t);
  // Nodal forces: the edge x = l1 carries F S11 t (width 1) in x, half per node; y balances.
  EXPECT_NEAR(gen[5 * 1 + 0] + gen[5 * 2 + 0], l1 * s * t, 1e-9 * s * t);
  EXPECT_NEAR(gen[5 * 0 + 0] + gen[5 * 3 + 0], -l1 * s * t, 1e-9 * s * t);
  EXPECT_NEAR(gen[5 * 2 + 1] + gen[5 * 3 + 1], 0.0, 1e-9 * s * t);
}

TEST(Mitc4Plastic, RigidRotationOfAYieldedElementIsObjective) {
  PlasticElement p(kSkew, 0.1, law(kSy, 2e3), 5);
  std::mt19937 rng(11);
  double gen[20];
  // Yield it: stretch and bend in several increments.
  for (int i = 0; i < 6; ++i) {
    double dq[20] = {};
    dq[5 * 1 + 0] = dq[5 * 2 + 0] = 4e-3;   // stretch along x
    dq[5 * 1 + 4] = dq[5 * 2 + 4] = 0.01;  // turn the far directors: bending
    p.increment(dq);
    p.plastic_forces(gen);
  }
  random_increment(p, 2e-3, rng);
  p.plastic_forces(gen);
  double peeq0 = 0;
  const Mitc4SectionResults<double> r0 = p.results(&peeq0);
  ASSERT_GT(peeq0, 1e-3);
  const std::vector<double> state0 = p.state;
  double before[20];
  const double w0 = p.plastic_forces(before);
  EXPECT_EQ(p.state, state0);  // a converged configuration evaluated again does not flow
  // A large rigid rotation of the deformed element (about a skew axis through a point).
  const V3 theta = 1.7 * normalized(V3{0.3, -0.8, 0.5});
  const V3 c{0.4, 0.2, -0.3};
  for (int k = 0; k < 4; ++k) {
    p.x[k] = c + rotate(theta, p.x[k] - c);
    p.v[k] = rotate(theta, p.v[k]);
    p.t1[k] = rotate(theta, p.t1[k]);
  }
  double after[20];
  const double w1 = p.plastic_forces(after);
  double scale = 0;
  for (double x : before) scale = std::max(scale, std::fabs(x));
  for (int k = 0; k < 4; ++k) {
    const V3 f0 = rotate(theta, V3{before[5 * k], before[5 * k + 1], before[5 * k + 2]});
    EXPECT_NEAR(after[5 * k], f0.x, 1e-10 * scale);
    EXPECT_NEAR(after[5 * k + 1], f0.y, 1e-10 * scale);
    EXPECT_NEAR(after[5 * k + 2], f0.z, 1e-10 * scale);
    // Moments about the (rotated) nodal triad do not change.
    EXPECT_NEAR(after[5 * k + 3], before[5 * k + 3], 1e-10 * scale);
    EXPECT_NEAR(after[5 * k + 4], before[5 * k + 4], 1e-10 * scale);
  }
  EXPECT_NEAR(w1, w0, 1e-12 * w0);
  // Round-off of the rotated strains may flow by ~1e-16 of the state, no more.
  for (std::size_t i = 0; i < state0.size(); ++i) EXPECT_NEAR(p.state[i], state0[i], 1e-12 * (1 + std::fabs(state0[i])));
  double peeq1 = 0;
  const Mitc4SectionResults<double> r1 = p.results(&peeq1);
  EXPECT_NEAR(peeq1, peeq0, 1e-13);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(r1.sf[i], r0.sf[i], 1e-9 * kSy * p.a);
    EXPECT_NEAR(r1.sm[i], r0.sm[i], 1e-9 * kSy * p.a * p.a);
    EXPECT_NEAR(r1.s_top[i], r0.s_top[i], 1e-9 * kSy);
    EXPECT_NEAR(r1.s_bottom[i], r0.s_bottom[i], 1e-9 * kSy);
  }
}

TEST(Mitc4Plastic, RigidRotationOfTheVirginElementGivesNoForce) {
  PlasticElement p(kSkew, 0.1, law(), 5);
  const V3 theta{0.9, -1.2, 2.1};
  for (int k = 0; k < 4; ++k) {
    p.x[k] = V3{5, -3, 2} + rotate(theta, p.X[k]);
    p.v[k] = rotate(theta, p.V0[k]);
    p.t1[k] = rotate(theta, p.t1[k]);
  }
  double gen[20];
  const double w = p.plastic_forces(gen);
  for (double g : gen) EXPECT_NEAR(g, 0.0, 1e-9 * kE * p.a * 1e-6);
  EXPECT_NEAR(w, 0.0, 1e-16 * kE);
  for (double s : p.state) EXPECT_EQ(s, 0.0);
}

}  // namespace
}  // namespace halfstep::test
