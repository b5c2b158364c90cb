// The Neo-Hookean of Bonet & Wood (seed 004; NeoHookeanLog, *HYPERELASTIC, NEO HOOKE,
// FORM=LOG): W = mu/2 (I1 - 3) - mu ln J + lambda/2 (ln J)^2. Checked against closed forms
// (uniaxial strain, simple shear, pure dilation), against its own energy by finite differences
// (S = dW/dE, C = dS/dE), for objectivity, against the Abaqus form at small strain, and for
// the digits of its energy at tiny strains.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "elements/rotation.hpp"
#include "materials/material_tangent.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {
namespace {

constexpr double kC10 = 80.194, kD1 = 4.9867e-4;  // mu = 160.388, K = 4010.7 (nu = 0.48)
const double kMu = 2 * kC10, kLambda = 2 / kD1 - 2 * kMu / 3;

/// A general deformation gradient with finite stretch and shear (det > 0).
const Mat3<double> kF{{1.32, 0.17, -0.04, -0.15, 0.83, 0.19, 0.03, -0.26, 1.05}};

/// Cauchy stress F S F^T / J.
Mat3<double> cauchy(const Mat3<double>& F, const Mat3<double>& S) { return (1 / determinant(F)) * (F * S * transpose(F)); }

/// Largest |a_ij|.
double max_abs(const Mat3<double>& a) {
  double m = 0;
  for (double v : a.a) m = std::max(m, std::fabs(v));
  return m;
}

/// Symmetric tensor of the unit Voigt strain k (engineering shear), as the tangent pairs them.
Mat3<double> unit_strain(int k) { return unit_voigt_strain<double>(k); }

TEST(NeoHookeanLog, ConstantsAreTheAbaqusSmallStrainModuli) {
  const SolidMaterial<double> m = neo_hookean_log(kC10, kD1, 1e-9);
  EXPECT_TRUE(law_is<NeoHookeanLog>(m));
  EXPECT_DOUBLE_EQ(m.mu, 2 * kC10);
  EXPECT_DOUBLE_EQ(m.lambda + 2 * m.mu / 3, 2 / kD1);
  EXPECT_EQ(m.density, 1e-9);
  EXPECT_THROW(neo_hookean_log(0, kD1, 1), std::invalid_argument);
  EXPECT_THROW(neo_hookean_log(kC10, -1, 1), std::invalid_argument);
  // The stable increment and the hourglass springs read the same moduli as the Abaqus form.
  const SolidMaterial<double> a = neo_hookean(kC10, kD1, 1e-9);
  EXPECT_NEAR(p_wave_modulus(m), p_wave_modulus(a), 1e-12 * p_wave_modulus(a));
  EXPECT_NEAR(hourglass_modulus(m), hourglass_modulus(a), 1e-12 * hourglass_modulus(a));
}

TEST(NeoHookeanLog, ReferenceIsStressFreeAndInversionIsNaN) {
  const SolidMaterial<double> m = neo_hookean_log(kC10, kD1, 1);
  const SolidStress<double> r = solid_stress(m, scaled_identity(1.0));
  for (double s : r.S.a) EXPECT_EQ(s, 0.0);
  EXPECT_EQ(r.energy, 0.0);
  for (const Mat3<double>& F : {scaled_identity(-1.0), Mat3<double>{{1, 0, 0, 0, 1, 0, 0, 0, 0}}}) {
    const SolidStress<double> bad = solid_stress(m, F);
    EXPECT_TRUE(std::isnan(bad.energy));
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(std::isnan(bad.S(i, i)));
  }
}

TEST(NeoHookeanLog, RotationRotatesTheCauchyStressAndKeepsTheEnergy) {
  const SolidMaterial<double> m = neo_hookean_log(kC10, kD1, 1);
  const Mat3<double> Q = rotation_matrix(2.1 * normalized(Vec3<double>{-0.3, 1, 0.4}));
  const SolidStress<double> a = solid_stress(m, kF), b = solid_stress(m, Q * kF);
  const Mat3<double> sa = cauchy(kF, a.S), sb = cauchy(Q * kF, b.S);
  const Mat3<double> rotated = Q * sa * transpose(Q);
  for (int i = 0; i < 9; ++i) {
    EXPECT_NEAR(sb.a[i], rotated.a[i], 1e-12 * max_abs(sa)) << i;
    EXPECT_NEAR(b.S.a[i], a.S.a[i], 1e-12 * max_abs(a.S)) << i;
  }
  EXPECT_NEAR(b.energy, a.energy, 1e-13 * a.energy);
}

// Along F(t) = F + t F^-T dE the Green strain moves by t dE + O(t^2), so dW/dt at 0 is S : dE
// exactly and a central difference has an O(t^2) error only.
TEST(NeoHookeanLog, SecondPiolaStressIsTheEnergyGradient) {
  const SolidMaterial<double> m = neo_hookean_log(kC10, kD1, 1);
  for (const Mat3<double>& F : {kF, scaled_identity(1.0) + 1e-3 * (kF - scaled_identity(1.0)), Mat3<double>{{2.2, 0.4, 0, 0, 0.5, 0, 0.1, 0, 0.7}}}) {
    const SolidStress<double> r = solid_stress(m, F);
    const Mat3<double> FiT = transpose(inverse(F));
    for (int k = 0; k < 6; ++k) {
      const Mat3<double> dE = unit_strain(k);
      const double h = 1e-5 * std::cbrt(determinant(F));
      const double dw = (solid_stress(m, F + h * (FiT * dE)).energy - solid_stress(m, F - h * (FiT * dE)).energy) / (2 * h);
      EXPECT_NEAR(ddot(r.S, dE), dw, 1e-7 * max_abs(r.S) + 1e-9 * kLambda) << "component " << k;
    }
  }
}

TEST(NeoHookeanLog, TangentMatchesFiniteDifferencesOfTheStress) {
  for (const SolidMaterial<double>& m : {neo_hookean_log(kC10, kD1, 1), neo_hookean_log(0.5, 4e-4, 1)}) {
    double C[6][6];
    const SolidStress<double> r = solid_stress_and_tangent(m, kF, C);
    for (int i = 0; i < 9; ++i) EXPECT_EQ(r.S.a[i], solid_stress(m, kF).S.a[i]);
    double scale = 0;
    for (auto& row : C)
      for (double c : row) scale = std::max(scale, std::fabs(c));
    const Mat3<double> FiT = transpose(inverse(kF));
    for (int j = 0; j < 6; ++j) {
      const double h = 1e-6;
      const Mat3<double> dF = FiT * unit_strain(j);
      const Mat3<double> dS = (1 / (2 * h)) * (solid_stress(m, kF + h * dF).S - solid_stress(m, kF - h * dF).S);
      for (int i = 0; i < 6; ++i)
        EXPECT_NEAR(C[i][j], dS(voigt_i(i), voigt_j(i)), 1e-8 * scale) << i << ", " << j;
    }
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < i; ++j) EXPECT_NEAR(C[i][j], C[j][i], 1e-13 * scale);
  }
}

// Closed forms of sigma = (lambda ln J I + mu (b - I)) / J.
TEST(NeoHookeanLog, UniaxialStrainSimpleShearAndDilationMatchClosedForms) {
  const SolidMaterial<double> m = neo_hookean_log(kC10, kD1, 1);
  for (double l : {0.4, 0.9, 1.0001, 1.7, 3.0}) {
    // Uniaxial strain: F = diag(l, 1, 1), J = l, b = diag(l^2, 1, 1).
    const Mat3<double> F{{l, 0, 0, 0, 1, 0, 0, 0, 1}};
    const SolidStress<double> r = solid_stress(m, F);
    const Mat3<double> s = cauchy(F, r.S);
    const double s11 = (kLambda * std::log(l) + kMu * (l * l - 1)) / l, s22 = kLambda * std::log(l) / l;
    EXPECT_NEAR(s(0, 0), s11, 1e-13 * std::fabs(s11)) << l;
    EXPECT_NEAR(s(1, 1), s22, 1e-13 * std::fabs(s22)) << l;
    EXPECT_NEAR(s(2, 2), s22, 1e-13 * std::fabs(s22)) << l;
    EXPECT_EQ(s(0, 1), 0.0);
    // In long double and in h = l - 1 (exact): near l = 1 the two O(h) terms cancel, 4 of the
    // 19 digits at 1.0001 (l^2 - 1 formed as l * l would lose 15).
    const long double h = static_cast<long double>(l) - 1, lnl = std::log1p(h);
    const double w = static_cast<double>(kMu / 2 * h * (2 + h) - kMu * lnl + kLambda / 2 * lnl * lnl);
    EXPECT_NEAR(r.energy, w, 1e-14 * w) << l;
  }
  for (double g : {1e-4, 0.3, 2.0}) {
    // Simple shear: J = 1, sigma = mu (b - I) = mu [[g^2, g, 0], [g, 0, 0], [0, 0, 0]], W = mu g^2 / 2.
    const Mat3<double> F{{1, g, 0, 0, 1, 0, 0, 0, 1}};
    const SolidStress<double> r = solid_stress(m, F);
    const Mat3<double> s = cauchy(F, r.S);
    EXPECT_NEAR(s(0, 1), kMu * g, 1e-13 * kMu * g) << g;
    EXPECT_NEAR(s(0, 0), kMu * g * g, 1e-12 * kMu * g) << g;
    EXPECT_NEAR(s(1, 1), 0.0, 1e-12 * kMu * g) << g;
    EXPECT_NEAR(s(2, 2), 0.0, 1e-12 * kMu * g) << g;
    EXPECT_NEAR(r.energy, kMu * g * g / 2, 1e-13 * kMu * g * g) << g;
  }
  for (double l : {0.8, 1.25}) {
    // Pure dilation F = l I: sigma = (3 lambda ln l + mu (l^2 - 1)) / l^3 I.
    const SolidStress<double> r = solid_stress(m, scaled_identity(l));
    const double p = (3 * kLambda * std::log(l) + kMu * (l * l - 1)) / (l * l * l);
    const Mat3<double> s = cauchy(scaled_identity(l), r.S);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(s(i, i), p, 1e-13 * std::fabs(p)) << l;
  }
}

// Both laws have the same quadratic energy about F = I (mu = 2 C10, K = 2 / D1), so their
// stresses differ by O(strain^2) and their energies by O(strain^3): a tenfold smaller strain
// must shrink the stress difference a hundredfold and the energy difference a thousandfold.
TEST(NeoHookeanLog, AgreesWithTheAbaqusFormToSecondOrderAtSmallStrain) {
  const SolidMaterial<double> log_form = neo_hookean_log(kC10, kD1, 1), abaqus = neo_hookean(kC10, kD1, 1);
  const Mat3<double> G = kF - scaled_identity(1.0);  // a direction with stretch, shear and volume change
  double ds_prev = 0, dw_prev = 0;
  for (double eps : {1e-2, 1e-3, 1e-4}) {
    const Mat3<double> F = scaled_identity(1.0) + (eps / max_abs(G)) * G;
    const SolidStress<double> a = solid_stress(log_form, F), b = solid_stress(abaqus, F);
    const double ds = max_abs(a.S - b.S) / max_abs(b.S), dw = std::fabs(a.energy - b.energy) / b.energy;
    std::printf("strain %.0e: |S_log - S_abaqus| / |S| = %.3e, energy %.3e\n", eps, ds, dw);
    // Relative differences O(strain): measured 8.60e-3 / 8.38e-4 / 8.36e-5 (stress) and
    // 4.18e-3 / 4.16e-4 / 4.16e-5 (energy).
    EXPECT_LT(ds, 0.9 * eps);
    EXPECT_LT(dw, 0.45 * eps);
    if (ds_prev > 0) {
      EXPECT_NEAR(ds_prev / ds, 10, 0.5);
      EXPECT_NEAR(dw_prev / dw, 10, 0.5);
    }
    ds_prev = ds;
    dw_prev = dw;
  }
}

// At a strain of 1e-9 the energy must be the small-strain one, K/2 (tr e)^2 + mu |dev e|^2, to
// the O(strain) of the nonlinearity: written as mu/2 (I1 - 3) - mu ln J it would carry the
// round-off of its cancelling O(strain) terms (about 1e-16 / 1e-9 relative to the energy).
TEST(NeoHookeanLog, TinyStrainEnergyHasNoCancellation) {
  const SolidMaterial<double> m = neo_hookean_log(kC10, kD1, 1);
  const double K = kLambda + 2 * kMu / 3;
  for (double eps : {1e-9, 1e-6}) {
    Mat3<double> F = scaled_identity(1.0);
    F(0, 0) += eps;
    F(0, 1) += 0.5 * eps;
    // The strain F holds: 1 + eps rounds eps by up to 1e-7 of itself at eps = 1e-9.
    const double e = F(0, 0) - 1, tr = e, e11 = e, e12 = 0.5 * F(0, 1);
    const double dev2 = (e11 - tr / 3) * (e11 - tr / 3) + 2 * (tr / 3) * (tr / 3) + 2 * e12 * e12;
    const double linear = 0.5 * K * tr * tr + kMu * dev2;
    const double off = solid_stress(m, F).energy / linear - 1;
    std::printf("strain %.0e: energy / small-strain energy - 1 = %.3e\n", eps, off);
    // Measured -0.94 eps at both strains: the law's own O(strain) departure, no round-off.
    EXPECT_NEAR(off, -0.94 * eps, 0.01 * eps) << eps;
  }
}

// x - ln(1 + x) against its Taylor series x^2/2 - x^3/3 + ... in long double (|x| <= 0.3) and
// the long double difference elsewhere; its dual derivative against x / (1 + x).
TEST(NeoHookeanLog, XMinusLog1pKeepsItsDigits) {
  for (double x : {1e-12, -3e-9, 1e-5, -0.0999, 0.1, 0.1001, -0.25, 0.29, 0.5, -0.7, 3.0}) {
    long double ref = 0;
    if (std::fabs(x) <= 0.3) {
      long double term = x;  // x^k / k summed with sign (-1)^k: x - ln(1 + x) = x^2/2 - x^3/3 + ...
      for (int k = 2; k < 80; ++k) {
        term *= -static_cast<long double>(x);
        ref += -term / k;
      }
    } else {
      ref = static_cast<long double>(x) - std::log1p(static_cast<long double>(x));
    }
    const double got = solid_detail::x_minus_log1p(x);
    const Dual<double> d = solid_detail::x_minus_log1p(Dual<double>(x, 1.0));
    const double dref = static_cast<double>(static_cast<long double>(x) / (1 + static_cast<long double>(x)));
    std::printf("x = %g: relative error %.2e, derivative %.2e\n", x, got / static_cast<double>(ref) - 1, d.d / dref - 1);
    // Measured: within 2.2e-16 on the series (|x| <= 0.1), 8.9e-16 by the difference beyond.
    const double tol = std::fabs(x) <= 0.1 ? 3e-16 : 1.5e-15;
    EXPECT_NEAR(got / static_cast<double>(ref), 1.0, tol) << x;
    EXPECT_NEAR(d.d / dref, 1.0, tol) << x;
  }
}

}  // namespace
}  // namespace halfstep
