// Finite-strain J2 plasticity (src/materials/j2_plasticity.hpp): the return map against the
// closed form of uniaxial strain in logarithmic strain (exact for any increment, to 30 %),
// Hencky elasticity and elastic unloading, isochoric flow at large strain, the hardening
// table, plastic dissipation, the consistent tangent against central differences of the
// update from the same state, and objectivity.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "elements/rotation.hpp"
#include "materials/material_law.hpp"

namespace halfstep {
namespace {

/// E = 200e3, nu = 0.3, sigma_y = 250 + H alpha (two points: linear hardening up to alpha 1).
SolidMaterial<double> steel(double H) {
  SolidMaterial<double> m;
  m.model = law_id<J2Plastic>;
  const double E = 200e3, nu = 0.3;
  m.lambda = E * nu / ((1 + nu) * (1 - 2 * nu));
  m.mu = E / (2 * (1 + nu));
  m.hardening_points = 2;
  m.yield_stress[0] = 250;
  m.yield_strain[0] = 0;
  m.yield_stress[1] = 250 + H;
  m.yield_strain[1] = 1;
  return m;
}

/// The stretch F = diag(l1, l2, l3).
Mat3<double> stretch(double l1, double l2, double l3) {
  Mat3<double> F = scaled_identity(0.0);
  F(0, 0) = l1, F(1, 1) = l2, F(2, 2) = l3;
  return F;
}

/// I + the symmetric tensor with components 11, 22, 33, 12, 13, 23.
Mat3<double> near_identity(double e11, double e22, double e33, double e12, double e13, double e23) {
  Mat3<double> F = scaled_identity(1.0);
  F(0, 0) += e11, F(1, 1) += e22, F(2, 2) += e33;
  F(0, 1) += e12, F(1, 0) += e12;
  F(0, 2) += e13, F(2, 0) += e13;
  F(1, 2) += e23, F(2, 1) += e23;
  return F;
}

/// Applies F to the state (old -> new, then accepted) and returns S.
Mat3<double> apply(const SolidMaterial<double>& m, const Mat3<double>& F, std::vector<double>& state) {
  std::vector<double> next(kJ2StateSize);
  const SolidStress<double> r = j2_update(m, F, state.data(), next.data());
  state = next;
  return r.S;
}

/// det(Cp^-1) of a state: 1 for isochoric plastic flow.
double plastic_volume(const std::vector<double>& st) {
  Mat3<double> c = scaled_identity(1.0);
  const int vi[6] = {0, 1, 2, 0, 0, 1}, vj[6] = {0, 1, 2, 1, 2, 2};
  for (int k = 0; k < 6; ++k) c(vi[k], vj[k]) += st[static_cast<std::size_t>(k)], c(vj[k], vi[k]) = c(vi[k], vj[k]);
  return determinant(c);
}

// Uniaxial strain F = diag(lambda, 1, 1) to 30 %: in logarithmic strain e = ln lambda the
// trial Mises stress is 2 mu e - 3 mu alpha, so alpha = (2 mu e - sigma0) / (3 mu + H), the
// Kirchhoff stress is tau11 = K e + 2/3 (sigma0 + H alpha), tau22 = K e - 1/3 (sigma0 + H
// alpha), and S = F^-1 tau F^-T, whatever the increments (the axes do not turn).
TEST(J2Plasticity, UniaxialStrainMatchesTheLogStrainClosedFormForAnyIncrement) {
  const double H = 2000;
  const SolidMaterial<double> m = steel(H);
  const double mu = m.mu, K = m.lambda + 2.0 / 3.0 * m.mu, s0 = 250;
  for (int steps : {1, 7, 50}) {
    std::vector<double> state(kJ2StateSize, 0.0);
    const double l_end = 1.3;
    Mat3<double> S;
    for (int k = 1; k <= steps; ++k) S = apply(m, stretch(1 + (l_end - 1) * k / steps, 1, 1), state);
    const double e = std::log(l_end);
    const double alpha = (2 * mu * e - s0) / (3 * mu + H), sy = s0 + H * alpha;
    EXPECT_NEAR(state[kJ2Alpha], alpha, 1e-12 * alpha) << steps << " steps";
    EXPECT_NEAR(S(0, 0), (K * e + 2.0 / 3.0 * sy) / (l_end * l_end), 1e-9 * s0) << steps << " steps";
    EXPECT_NEAR(S(1, 1), K * e - sy / 3.0, 1e-9 * s0) << steps << " steps";
    EXPECT_NEAR(S(0, 1), 0.0, 1e-9 * s0);
    EXPECT_NEAR(plastic_volume(state), 1.0, 1e-12);  // isochoric flow
  }
}

// Below yield the law is Hencky elasticity in the log strain; unloading from a plastic state
// is elastic and keeps alpha; reloading within the surface stays elastic.
TEST(J2Plasticity, ElasticBelowYieldAndOnUnloading) {
  const SolidMaterial<double> m = steel(2000);
  const double M = m.lambda + 2 * m.mu;  // P-wave modulus: uniaxial-strain stiffness
  std::vector<double> state(kJ2StateSize, 0.0);
  const double e_y = 250 / (2 * m.mu);  // uniaxial strain yields at 2 mu e = sigma0
  Mat3<double> S = apply(m, stretch(std::exp(0.5 * e_y), 1, 1), state);
  EXPECT_NEAR(S(0, 0) * std::exp(e_y), M * 0.5 * e_y, 1e-12 * 250);  // tau11 = M e
  EXPECT_EQ(state[kJ2Alpha], 0.0);
  const auto tau11 = [](const Mat3<double>& S, double l) { return S(0, 0) * l * l; };
  S = apply(m, stretch(std::exp(0.01), 1, 1), state);
  const double alpha = state[kJ2Alpha], t_top = tau11(S, std::exp(0.01));
  ASSERT_GT(alpha, 0.0);
  S = apply(m, stretch(std::exp(0.009), 1, 1), state);
  EXPECT_NEAR(tau11(S, std::exp(0.009)), t_top - M * 0.001, 1e-9 * 250);
  EXPECT_EQ(state[kJ2Alpha], alpha);
  S = apply(m, stretch(std::exp(0.0095), 1, 1), state);  // back up, still inside the surface
  EXPECT_EQ(state[kJ2Alpha], alpha);
}

// Compression to half the length and back out, with a shear: plastic flow stays isochoric
// and the state is finite and objective far beyond small strains.
TEST(J2Plasticity, LargeStrainsKeepTheFlowIsochoric) {
  const SolidMaterial<double> m = steel(500);
  std::vector<double> state(kJ2StateSize, 0.0);
  for (int k = 1; k <= 40; ++k) {
    const double l = 1 - 0.5 * k / 40.0;
    Mat3<double> F = stretch(l, 1.0 / std::sqrt(l), 1.0 / std::sqrt(l));
    F(0, 1) = 0.4 * k / 40.0;
    apply(m, F, state);
  }
  EXPECT_GT(state[kJ2Alpha], 0.5);
  EXPECT_NEAR(plastic_volume(state), 1.0, 1e-11);
  for (double v : state) EXPECT_TRUE(std::isfinite(v));
}

// A three-point table: the slope changes at alpha = 0.01 and the stress stays flat after the
// last point (Abaqus: perfectly plastic beyond the table). Uniaxial strain, far into the flat
// part: the Mises stress of S equals the last yield stress.
TEST(J2Plasticity, HardeningTableAndPerfectPlasticityAfterIt) {
  SolidMaterial<double> m = steel(0);
  m.hardening_points = 3;
  m.yield_stress[0] = 250, m.yield_strain[0] = 0;
  m.yield_stress[1] = 300, m.yield_strain[1] = 0.01;
  m.yield_stress[2] = 320, m.yield_strain[2] = 0.05;
  double h;
  EXPECT_DOUBLE_EQ(j2_yield_stress(m, 0.005, &h), 275.0);
  EXPECT_DOUBLE_EQ(h, 5000.0);
  EXPECT_DOUBLE_EQ(j2_yield_stress(m, 0.03, &h), 310.0);
  EXPECT_DOUBLE_EQ(j2_yield_stress(m, 0.2, &h), 320.0);
  EXPECT_DOUBLE_EQ(h, 0.0);
  std::vector<double> state(kJ2StateSize, 0.0);
  Mat3<double> S;
  Mat3<double> F;
  for (int k = 1; k <= 20; ++k) S = apply(m, F = stretch(1 + 0.01 * k, 1, 1), state);  // to 20 % in 20 steps
  const Mat3<double> tau = F * S * transpose(F);  // Kirchhoff stress: its Mises value is the yield stress
  const Mat3<double> s = tau - scaled_identity(trace(tau) / 3);
  EXPECT_NEAR(std::sqrt(1.5 * ddot(s, s)), 320.0, 1e-9 * 320);
  EXPECT_GT(state[kJ2Alpha], 0.05);
}

// Dissipation: the integral of sigma_y d_alpha, sigma0 alpha + H alpha^2 / 2 with linear
// hardening, whatever the increments; across the points of a table it is the area under it.
TEST(J2Plasticity, DissipationIsThePlasticWork) {
  {
    const SolidMaterial<double> m = steel(0);
    std::vector<double> state(kJ2StateSize, 0.0);
    for (int k = 1; k <= 10; ++k) apply(m, near_identity(0, 0, 0, 0.001 * k, 0, 0), state);
    EXPECT_NEAR(state[kJ2Dissipation], 250 * state[kJ2Alpha], 1e-12 * 250 * state[kJ2Alpha]);
  }
  const double H = 20000;
  const SolidMaterial<double> m = steel(H);
  for (int steps : {1, 10, 100}) {
    std::vector<double> state(kJ2StateSize, 0.0);
    for (int k = 1; k <= steps; ++k) apply(m, near_identity(0, 0, 0, 0.01 * k / steps, 0, 0), state);
    const double a = state[kJ2Alpha], exact = 250 * a + 0.5 * H * a * a;
    EXPECT_NEAR(state[kJ2Dissipation], exact, 1e-12 * exact) << steps;
  }
  // A table 250 -> 300 at 0.002 -> 320 at 0.01, then flat: the area under it.
  SolidMaterial<double> t = steel(0);
  t.hardening_points = 3;
  t.yield_stress[1] = 300;
  t.yield_strain[1] = 0.002;
  t.yield_stress[2] = 320;
  t.yield_strain[2] = 0.01;
  const auto area = [](double a) {
    const double a1 = std::min(a, 0.002);
    double w = a1 * (250 + 0.5 * 50 / 0.002 * a1);
    if (a > 0.002) w += (std::min(a, 0.01) - 0.002) * (300 + 0.5 * 20 / 0.008 * (std::min(a, 0.01) - 0.002));
    if (a > 0.01) w += 320 * (a - 0.01);
    return w;
  };
  EXPECT_NEAR(j2_hardening_work(t, 0.0, 0.02), area(0.02), 1e-12 * area(0.02));
  EXPECT_NEAR(j2_hardening_work(t, 0.001, 0.005), area(0.005) - area(0.001), 1e-12 * area(0.005));
  for (int steps : {1, 7, 50}) {
    std::vector<double> state(kJ2StateSize, 0.0);
    for (int k = 1; k <= steps; ++k) apply(t, near_identity(0, 0, 0, 0.03 * k / steps, 0, 0), state);
    EXPECT_NEAR(state[kJ2Dissipation], area(state[kJ2Alpha]), 1e-12 * area(state[kJ2Alpha])) << steps;
  }
}

// The explicit energy balance asks that the internal energy (stored elastic plus dissipated)
// equal the work of S on the Green strain, accumulated over many small increments. A rotated
// uniaxial stretch F = R diag(1 + e, 1, 1) in 2,000 increments of 2e-6 to 4e-3 (yield at about
// 1.25e-3): the work's trapezoid sum meets the internal energy to 5e-8 (FP64; measured 1.5e-8
// in both orientations: the trapezoid's error where the increment crosses the yield kink).
// Float on a path like an explicit run's (E = 2.1e11, sigma_y = 1e6, increments of 2e-7,
// about the float resolution of F near I): the return map written in differences from I
// (j2_update_h) keeps the internal energy within 1e-3 of double's (measured 2.6e-4 unrotated,
// 2.5e-5 rotated); formed from F and be
// near I it was 6.0 % (unrotated) and 2.7 % (0.5 rad) off, the state rounded at 6e-8 absolute
// every increment.
TEST(J2Plasticity, InternalEnergyIsTheWorkOfManySmallRotatedIncrements) {
  const SolidMaterial<double> m = steel(10000);
  for (double angle : {0.0, 0.5}) {
    std::vector<double> state(kJ2StateSize, 0.0), next(kJ2StateSize);
    const double c = std::cos(angle), sn = std::sin(angle);
    double work = 0, s_old = 0, g_old = 0, internal = 0;
    const int steps = 2000;
    for (int i = 1; i <= steps; ++i) {
      const double e = 4e-3 * i / steps;
      Mat3<double> F = scaled_identity(1.0);
      F(0, 0) = c * (1 + e), F(0, 1) = -sn, F(1, 0) = sn * (1 + e), F(1, 1) = c;
      const SolidStress<double> r = j2_update(m, F, state.data(), next.data());
      state = next;
      const double g = 0.5 * ((1 + e) * (1 + e) - 1);
      work += 0.5 * (r.S(0, 0) + s_old) * (g - g_old);
      s_old = r.S(0, 0), g_old = g;
      internal = r.energy + state[kJ2Dissipation];
    }
    ASSERT_GT(state[kJ2Alpha], 1e-3) << angle;  // well into the plastic range
    EXPECT_NEAR(internal, work, 5e-8 * work) << angle;
  }
  // Float against double on the explicit-like path (printed only).
  const auto internal_energy = [](auto zero, double angle) {
    using T = decltype(zero);
    SolidMaterial<T> f;
    f.model = law_id<J2Plastic>;
    const double E = 2.1e11, nu = 0.3;
    f.lambda = T(E * nu / ((1 + nu) * (1 - 2 * nu)));
    f.mu = T(E / (2 * (1 + nu)));
    f.hardening_points = 2;
    f.yield_stress[0] = T(1e6), f.yield_strain[0] = T(0);
    f.yield_stress[1] = T(8e6), f.yield_strain[1] = T(0.1);
    T st[kJ2StateSize] = {}, nx[kJ2StateSize];
    SolidStress<T> r{};
    const double c = std::cos(angle), sn = std::sin(angle);
    for (int i = 1; i <= 2000; ++i) {
      const double e = 4e-4 * i / 2000;
      Mat3<T> F = scaled_identity(T(1));
      F(0, 0) = T(c * (1 + e)), F(0, 1) = T(-sn), F(1, 0) = T(sn * (1 + e)), F(1, 1) = T(c);
      r = j2_update(f, F, st, nx);
      for (int k = 0; k < kJ2StateSize; ++k) st[k] = nx[k];
    }
    return double(r.energy) + double(st[kJ2Dissipation]);
  };
  for (double angle : {0.0, 0.5}) {
    const double d = internal_energy(0.0, angle), f = internal_energy(0.0f, angle);
    std::printf("sigma_y/E 4.8e-6, rotation %.1f: float internal energy %.3g off double's\n", angle, std::fabs(f - d) / d);
    EXPECT_NEAR(f, d, 1e-3 * d) << angle;
  }
}

// The tangent of evaluate_with_tangent is the derivative of this update (from the same old
// state) along each strain component: central differences agree to 1e-6 in a plastic state
// with hardening, and it is the elastic tangent inside the surface.
TEST(J2Plasticity, ConsistentTangentMatchesCentralDifferences) {
  const SolidMaterial<double> m = steel(5000);
  std::vector<double> state(kJ2StateSize, 0.0);
  apply(m, near_identity(0.002, -0.001, 0.0005, 0.002, -0.001, 0.0015), state);  // plastic
  ASSERT_GT(state[kJ2Alpha], 0.0);
  // Evaluate at a further strain, plastic again, from that state.
  const Mat3<double> U = near_identity(0.003, -0.0012, 0.0007, 0.0025, -0.0011, 0.0018);
  const StateSlice<const double> old(state.data(), 1);
  std::vector<double> next(kJ2StateSize);
  double C[6][6];
  const SolidStress<double> r = evaluate_with_tangent(m, U, old, StateSlice<double>(next.data(), 1), C);
  ASSERT_GT(next[kJ2Alpha], state[kJ2Alpha]);
  double worst = 0, scale = 0;
  const Mat3<double> UiT = transpose(inverse(U));
  for (int j = 0; j < 6; ++j) {
    // Along dF = F^-T dE_j the Green strain moves by dE_j to first order; the second-order
    // term is even in h and cancels in the central difference.
    const double h = 1e-7;
    const Mat3<double> dF = UiT * unit_voigt_strain<double>(j);
    std::vector<double> a(kJ2StateSize), b(kJ2StateSize);
    const Mat3<double> Sp = j2_update(m, U + h * dF, state.data(), a.data()).S;
    const Mat3<double> Sm = j2_update(m, U - h * dF, state.data(), b.data()).S;
    for (int i = 0; i < 6; ++i) {
      const double fd = (Sp(voigt_i(i), voigt_j(i)) - Sm(voigt_i(i), voigt_j(i))) / (2 * h);
      worst = std::max(worst, std::fabs(fd - C[i][j]));
      scale = std::max(scale, std::fabs(C[i][j]));
    }
  }
  EXPECT_LT(worst, 1e-6 * scale);
  // The plastic tangent is softer than the elastic one in the flow direction.
  double Ce[6][6];
  SvkIsotropic::constant_tangent(m, Ce);
  EXPECT_LT(C[3][3], Ce[3][3]);
  // Same S from evaluate_with_tangent as from the plain update.
  std::vector<double> plain(kJ2StateSize);
  const Mat3<double> S = j2_update(m, U, state.data(), plain.data()).S;
  for (int k = 0; k < 9; ++k) EXPECT_NEAR(r.S.a[k], S.a[k], 1e-12 * 250);
  for (int c = 0; c < kJ2StateSize; ++c) EXPECT_NEAR(next[c], plain[c], 1e-15 + 1e-12 * std::fabs(plain[c]));
}

// On principal axes (the virgin F = I, a uniaxial stretch, plastic or not) the trial be is
// diagonal, so its eigenvectors' derivatives come from first-order perturbation theory, not
// from Jacobi rotations of exactly zero off-diagonal values (which lost the shear tangent:
// C(12,12) was 0 at F = I). There the tangent is the elastic one, and central differences
// agree with it on and off the yield surface.
TEST(J2Plasticity, ConsistentTangentOnPrincipalAxes) {
  const SolidMaterial<double> m = steel(5000);
  const std::vector<double> virgin(kJ2StateSize, 0.0);
  std::vector<double> next(kJ2StateSize);
  double C[6][6], Ce[6][6];
  SvkIsotropic::constant_tangent(m, Ce);
  evaluate_with_tangent(m, scaled_identity(1.0), StateSlice<const double>(virgin.data(), 1),
                        StateSlice<double>(next.data(), 1), C);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) EXPECT_NEAR(C[i][j], Ce[i][j], 1e-9 * Ce[0][0]) << i << ", " << j;
  for (const Mat3<double>& F : {stretch(1.0005, 1, 1), stretch(1.01, 0.997, 1), stretch(1.2, 1, 1)}) {
    evaluate_with_tangent(m, F, StateSlice<const double>(virgin.data(), 1), StateSlice<double>(next.data(), 1), C);
    double worst = 0, scale = 0;
    const Mat3<double> FiT = transpose(inverse(F));
    for (int j = 0; j < 6; ++j) {
      const double h = 1e-7;
      const Mat3<double> dF = FiT * unit_voigt_strain<double>(j);
      std::vector<double> a(kJ2StateSize), b(kJ2StateSize);
      const Mat3<double> Sp = j2_update(m, F + h * dF, virgin.data(), a.data()).S;
      const Mat3<double> Sm = j2_update(m, F - h * dF, virgin.data(), b.data()).S;
      for (int i = 0; i < 6; ++i) {
        worst = std::max(worst, std::fabs((Sp(voigt_i(i), voigt_j(i)) - Sm(voigt_i(i), voigt_j(i))) / (2 * h) - C[i][j]));
        scale = std::max(scale, std::fabs(C[i][j]));
      }
    }
    EXPECT_LT(worst, 1e-6 * scale) << "at F11 " << F(0, 0) << ", PEEQ " << next[kJ2Alpha];
    // Elastic and near I, the shear tangent is mu, not the 0 the lost derivative gave (plastic
    // it is the algorithmic mu sigma_y / q_trial, and at 20 % geometric terms join in).
    if (next[kJ2Alpha] == 0.0) {
      EXPECT_NEAR(C[3][3], m.mu, 1e-2 * m.mu) << "the shear tangent at F11 " << F(0, 0);
    }
  }
}

// Total Lagrangian: a rigid rotation on top of the stretch changes neither S nor the state.
TEST(J2Plasticity, RigidRotationChangesNothing) {
  const SolidMaterial<double> m = steel(1000);
  const Mat3<double> U = near_identity(0.004, -0.002, 0.0, 0.003, 0.0, 0.001);
  const Mat3<double> R = rotation_matrix(Vec3<double>{0.7, -0.4, 1.1});
  std::vector<double> zero(kJ2StateSize, 0.0), a(kJ2StateSize), b(kJ2StateSize);
  const StateSlice<const double> old(zero.data(), 1);
  const Mat3<double> Sa = evaluate(m, U, old, StateSlice<double>(a.data(), 1)).S;
  const Mat3<double> Sb = evaluate(m, R * U, old, StateSlice<double>(b.data(), 1)).S;
  ASSERT_GT(a[kJ2Alpha], 0.0);
  for (int k = 0; k < 9; ++k) EXPECT_NEAR(Sa.a[k], Sb.a[k], 1e-9 * 250);
  for (int c = 0; c < kJ2StateSize; ++c) EXPECT_NEAR(a[c], b[c], 1e-12);
}

// ---------------------------------------------------------------------------------------
// The small-strain radial return (j2_small_strain_update), fed a total strain.

/// Applies the total strain eps (small-strain law) to the state and returns sigma.
Mat3<double> apply_small(const SolidMaterial<double>& m, const Mat3<double>& eps, std::vector<double>& state,
                         double* energy = nullptr) {
  std::vector<double> next(kJ2StateSize);
  const SolidStress<double> r = j2_small_strain_update(m, eps, state.data(), next.data());
  state = next;
  if (energy) *energy = r.energy;
  return r.S;
}

/// diag(e1, e2, e3) as a strain.
Mat3<double> diag_strain(double e1, double e2, double e3) { return stretch(e1, e2, e3); }

// Uniaxial strain eps = e diag(1, 0, 0) with linear hardening: p = (2 mu e - sy0)/(3 mu + H),
// sigma11 = K e + 2/3 (sy0 + H p), sigma22 = K e - 1/3 (sy0 + H p); the radial return is exact
// for this proportional path whatever the increment (one step or twenty agree to round-off).
TEST(J2SmallStrain, UniaxialStrainMatchesTheClosedForm) {
  const double H = 1000;
  const SolidMaterial<double> m = steel(H);
  const double K = m.lambda + 2.0 / 3.0 * m.mu;
  const double e = 0.01;
  for (int steps : {1, 20}) {
    std::vector<double> st(kJ2StateSize, 0.0);
    Mat3<double> s;
    for (int k = 1; k <= steps; ++k) s = apply_small(m, diag_strain(e * k / steps, 0, 0), st);
    const double p = (2 * m.mu * e - 250) / (3 * m.mu + H);
    ASSERT_GT(p, 0.0);
    EXPECT_NEAR(st[kJ2Alpha], p, 1e-12 * p) << steps;
    EXPECT_NEAR(s(0, 0), K * e + 2.0 / 3.0 * (250 + H * p), 1e-9 * s(0, 0)) << steps;
    EXPECT_NEAR(s(1, 1), K * e - 1.0 / 3.0 * (250 + H * p), 1e-9 * s(0, 0)) << steps;
    EXPECT_NEAR(s(1, 1), s(2, 2), 1e-9 * s(0, 0));
    EXPECT_NEAR(s(0, 1), 0.0, 1e-12 * s(0, 0));
    // Plastic strain p diag(1, -1/2, -1/2): isochoric, along the deviator.
    EXPECT_NEAR(st[0], p, 1e-12 * p);
    EXPECT_NEAR(st[1], -p / 2, 1e-12 * p);
    EXPECT_NEAR(st[0] + st[1] + st[2], 0.0, 1e-15);
    // Dissipation sy0 p + H p^2 / 2.
    EXPECT_NEAR(st[kJ2Dissipation], 250 * p + 0.5 * H * p * p, 1e-12 * 250 * p);
  }
}

// Uniaxial stress sigma11 = sy0 + H alpha with alpha = (E e - sy0) / (E + H): the lateral
// strain found by Newton on sigma22 = sigma33 = 0 at each of 40 strain steps (from the same
// old state each iteration), then the 1-D closed form.
TEST(J2SmallStrain, UniaxialStressMatchesTheOneDimensionalClosedForm) {
  const double H = 2000, E = 200e3;
  const SolidMaterial<double> m = steel(H);
  std::vector<double> st(kJ2StateSize, 0.0);
  double lateral = 0, s11 = 0;
  const double e_end = 0.006;
  for (int k = 1; k <= 40; ++k) {
    const double e = e_end * k / 40;
    std::vector<double> trial;
    for (int it = 0; it < 50; ++it) {
      trial = st;
      const double s22 = apply_small(m, diag_strain(e, lateral, lateral), trial)(1, 1);
      std::vector<double> probe = st;
      const double h = 1e-9;
      const double d = (apply_small(m, diag_strain(e, lateral + h, lateral + h), probe)(1, 1) - s22) / h;
      lateral -= s22 / d;
      if (std::fabs(s22) < 1e-9) break;
    }
    trial = st;
    s11 = apply_small(m, diag_strain(e, lateral, lateral), trial)(0, 0);
    st = trial;
  }
  const double alpha = (E * e_end - 250) / (E + H);
  ASSERT_GT(alpha, 0.0);
  EXPECT_NEAR(st[kJ2Alpha], alpha, 1e-8 * alpha);
  EXPECT_NEAR(s11, 250 + H * alpha, 1e-6);
  EXPECT_NEAR(s11, E * (e_end - alpha), 1e-6);  // the elastic part carries the stress
}

// After a plastic step the stress is on the yield surface of the new alpha; unloading is
// elastic (alpha and eps_p unchanged, sigma = C : (eps - eps_p)); energy = elastic energy.
TEST(J2SmallStrain, ConsistencyAndElasticUnloading) {
  const double H = 500;
  const SolidMaterial<double> m = steel(H);
  std::vector<double> st(kJ2StateSize, 0.0);
  const Mat3<double> eps = near_identity(0.004, -0.001, 0.0005, 0.003, -0.002, 0.001) - scaled_identity(1.0);
  Mat3<double> s = apply_small(m, eps, st);
  ASSERT_GT(st[kJ2Alpha], 0.0);
  const double tr = trace(s) / 3;
  const Mat3<double> dev = s - tr * scaled_identity(1.0);
  EXPECT_NEAR(std::sqrt(1.5 * ddot(dev, dev)), 250 + H * st[kJ2Alpha], 1e-9 * 250);
  const std::vector<double> plastic = st;
  const Mat3<double> back = 0.8 * eps;
  double energy = 0;
  s = apply_small(m, back, st, &energy);
  for (int c = 0; c < kJ2StateSize; ++c) EXPECT_EQ(st[c], plastic[c]);
  Mat3<double> ep = scaled_identity(0.0);
  const int vi[6] = {0, 1, 2, 0, 0, 1}, vj[6] = {0, 1, 2, 1, 2, 2};
  for (int k = 0; k < 6; ++k) ep(vi[k], vj[k]) = ep(vj[k], vi[k]) = st[k];
  const Mat3<double> ee = back - ep;
  const Mat3<double> expect = (m.lambda * trace(ee)) * scaled_identity(1.0) + (2 * m.mu) * ee;
  for (int k = 0; k < 9; ++k) EXPECT_NEAR(s.a[k], expect.a[k], 1e-9 * 250);
  EXPECT_NEAR(energy, 0.5 * ddot(expect, ee), 1e-12 * energy);
}

}  // namespace
}  // namespace halfstep
