// Plane stress from the solid laws: the condensed small-strain stiffness (isotropic and
// orthotropic with axes in the plane), ShellElastic::from_material, the Newton iteration for
// F33 (exact St. Venant-Kirchhoff uniaxial solution, Neo-Hookean uniaxial symmetry, warm
// start, float, failure), and consistency of energy, stress and condensed tangent.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "elements/rotation.hpp"
#include "materials/plane_stress.hpp"
#include "elements/mitc4_elastic.hpp"

namespace halfstep {
namespace {

/// Material axes rotated by theta about the plane normal: direction 1 is (cos, sin, 0).
Mat3<double> in_plane_axes(double theta) {
  const double c = std::cos(theta), s = std::sin(theta);
  return {{c, s, 0, -s, c, 0, 0, 0, 1}};
}

const double kEng[9] = {140e3, 10e3, 12e3, 0.3, 0.25, 0.45, 5e3, 4e3, 3.4e3};

/// A general in-plane deformation with shear, {F11, F12, F21, F22}.
const double kF2[4] = {1.15, 0.08, -0.06, 0.91};

/// The laws a plane-stress element may use: SVK, orthotropic with axes in the plane,
/// both Neo-Hookeans moderately and nearly (K / mu = 5000) incompressible.
std::vector<SolidMaterial<double>> plane_materials() {
  return {svk_isotropic(200e3, 0.3, 1),        orthotropic_engineering(kEng, 1, in_plane_axes(0.6)),
          neo_hookean(80.194, 4.9867e-4, 1),  neo_hookean(0.5, 4e-4, 1),
          neo_hookean_log(80.194, 4.9867e-4, 1), neo_hookean_log(0.5, 4e-4, 1)};
}

/// Full F of an in-plane deformation with thickness stretch f33.
Mat3<double> full_f(const double F2[4], double f33) { return {{F2[0], F2[1], 0, F2[2], F2[3], 0, 0, 0, f33}}; }

/// Largest |S_ij| in the plane, the scale of the S33 residual.
double in_plane_scale(const Mat3<double>& S) {
  return std::max({std::fabs(S(0, 0)), std::fabs(S(1, 1)), std::fabs(S(0, 1))});
}

TEST(PlaneStress, IsotropicSvkStiffnessIsThePlaneStressHookeMatrix) {
  const double E = 200e3, nu = 0.3;
  const Mat3<double> q = plane_stress_stiffness(svk_isotropic(E, nu, 1));
  const double eb = E / (1 - nu * nu);
  const Mat3<double> expected{{eb, eb * nu, 0, eb * nu, eb, 0, 0, 0, eb * (1 - nu) / 2}};
  for (int k = 0; k < 9; ++k) EXPECT_NEAR(q.a[k], expected.a[k], 1e-12 * eb) << k;
  // The Newton point at a small strain: S = Q e and F33 - 1 = -nu / (1 - nu) (e11 + e22).
  const double e11 = 3e-7, e22 = -1e-7, g12 = 2e-7;
  const double F2[4] = {1 + e11, g12 / 2, g12 / 2, 1 + e22};
  const PlaneStressPoint<double> r = plane_stress_point(svk_isotropic(E, nu, 1), F2);
  ASSERT_TRUE(r.converged);
  const double s11 = eb * (e11 + nu * e22), s22 = eb * (nu * e11 + e22), s12 = eb * (1 - nu) / 2 * g12;
  EXPECT_NEAR(r.S(0, 0), s11, 1e-6 * std::fabs(s11));
  EXPECT_NEAR(r.S(1, 1), s22, 1e-6 * std::fabs(s11));
  EXPECT_NEAR(r.S(0, 1), s12, 1e-6 * std::fabs(s11));
  EXPECT_NEAR(r.f33 - 1, -nu / (1 - nu) * (e11 + e22), 1e-6 * (e11 + e22));
}

TEST(PlaneStress, SvkUniaxialStressIsExactAtFiniteStrain) {
  // S is linear in E: S22 = S33 = 0 gives E22 = E33 = -nu E11 and S11 = E E11 at any stretch.
  const double E = 200e3, nu = 0.3, l1 = 1.3, E11 = (l1 * l1 - 1) / 2;
  const double lt = std::sqrt(1 - 2 * nu * E11);
  const double F2[4] = {l1, 0, 0, lt};
  const PlaneStressPoint<double> r = plane_stress_point(svk_isotropic(E, nu, 1), F2);
  ASSERT_TRUE(r.converged);
  EXPECT_LE(r.iterations, 8);
  EXPECT_NEAR(r.f33, lt, 1e-14);
  EXPECT_NEAR(r.S(0, 0), E * E11, 1e-12 * E * E11);
  EXPECT_NEAR(r.S(1, 1), 0.0, 1e-11 * E * E11);
  EXPECT_NEAR(r.energy, 0.5 * E * E11 * E11, 1e-12 * E * E11 * E11);
}

TEST(PlaneStress, NeoHookeanUniaxialStressConvergesWithEqualTransverseStretches) {
  for (const SolidMaterial<double>& m : {neo_hookean(80.194, 4.9867e-4, 1), neo_hookean(0.5, 4e-4, 1)}) {
    for (double l1 : {1.4, 0.75}) {
      // Secant on F22 until S22 = 0 too: uniaxial stress, which isotropy makes transversely
      // symmetric, so the F33 from plane stress must equal F22.
      auto s22 = [&](double f22) {
        const double F2[4] = {l1, 0, 0, f22};
        const PlaneStressPoint<double> r = plane_stress_point(m, F2);
        EXPECT_TRUE(r.converged);
        return r.S(1, 1);
      };
      double a = 1.0, b = 1.0 / std::sqrt(l1), fa = s22(a), fb = s22(b);
      for (int k = 0; k < 60 && fb != 0 && std::fabs(b - a) > 1e-15 * b; ++k) {
        const double c = b - fb * (b - a) / (fb - fa);
        a = b;
        fa = fb;
        b = c;
        fb = s22(b);
      }
      const double F2[4] = {l1, 0, 0, b};
      const PlaneStressPoint<double> r = plane_stress_point(m, F2);
      ASSERT_TRUE(r.converged);
      EXPECT_LE(r.iterations, 10);
      EXPECT_NEAR(r.f33, b, 1e-12 * b) << l1;
      // The law itself at the returned F33, not the wrapper's report, has S33 ~ 0.
      const SolidStress<double> s = solid_stress(m, full_f(F2, r.f33));
      EXPECT_NEAR(s.S(2, 2), 0.0, 1e-10 * std::fabs(s.S(0, 0))) << l1;
      EXPECT_EQ(r.s33_residual, s.S(2, 2));
      EXPECT_EQ(r.S(2, 2), 0.0);
      EXPECT_EQ(r.S(0, 0), s.S(0, 0));
      EXPECT_EQ(r.energy, s.energy);
      EXPECT_GT(l1 > 1 ? r.S(0, 0) : -r.S(0, 0), 0.0);
    }
  }
}

TEST(PlaneStress, EveryLawConvergesAtAGeneralInPlaneDeformation) {
  for (const SolidMaterial<double>& m : plane_materials()) {
    const PlaneStressPoint<double> r = plane_stress_point(m, kF2);
    ASSERT_TRUE(r.converged) << m.model;
    EXPECT_LE(r.iterations, 10) << m.model;
    EXPECT_GT(r.f33, 0.0);
    const SolidStress<double> s = solid_stress(m, full_f(kF2, r.f33));
    EXPECT_NEAR(s.S(2, 2), 0.0, 1e-10 * in_plane_scale(s.S)) << m.model;
    // In-plane F keeps E13 = E23 = 0, so with axis 3 along the normal S13 = S23 = 0 exactly.
    EXPECT_EQ(s.S(0, 2), 0.0) << m.model;
    EXPECT_EQ(s.S(1, 2), 0.0) << m.model;
    // A warm start from the converged F33 takes one step and one check.
    const PlaneStressPoint<double> w = plane_stress_point(m, kF2, r.f33);
    EXPECT_LE(w.iterations, 2) << m.model;
    EXPECT_NEAR(w.f33, r.f33, 1e-15) << m.model;
  }
}

TEST(PlaneStress, EnergyGradientIsTheInPlaneFirstPiolaStress) {
  // dW/dF33 = P33 = F33 S33 = 0 at plane stress, so the plane-stress energy as a function
  // of the in-plane F alone has the gradient P = F S in the plane.
  for (const SolidMaterial<double>& m : plane_materials()) {
    const PlaneStressPoint<double> r = plane_stress_point(m, kF2);
    const Mat3<double> P = full_f(kF2, r.f33) * r.S;
    const double p[4] = {P(0, 0), P(0, 1), P(1, 0), P(1, 1)};
    const double scale = std::max({std::fabs(p[0]), std::fabs(p[1]), std::fabs(p[2]), std::fabs(p[3])});
    const double h = 1e-6;  // measured error <= 1e-10 of the largest P
    for (int k = 0; k < 4; ++k) {
      double fp[4], fm[4];
      std::copy(kF2, kF2 + 4, fp);
      std::copy(kF2, kF2 + 4, fm);
      fp[k] += h;
      fm[k] -= h;
      const double dw = (plane_stress_point(m, fp).energy - plane_stress_point(m, fm).energy) / (2 * h);
      EXPECT_NEAR(p[k], dw, 5e-10 * scale) << "model " << m.model << " component " << k;
    }
  }
}

TEST(PlaneStress, CondensedTangentMatchesDifferencesOfThePlaneStress) {
  const double a = kF2[0], b = kF2[1], c = kF2[2], d = kF2[3], det = a * d - b * c;
  const double FiT[4] = {d / det, -c / det, -b / det, a / det};  // F2^-T, row-major
  for (const SolidMaterial<double>& m : plane_materials()) {
    double Cps[3][3];
    const PlaneStressPoint<double> r = plane_stress_point_with_tangent(m, kF2, Cps);
    ASSERT_TRUE(r.converged);
    double scale = 0;
    for (auto& row : Cps)
      for (double v : row) scale = std::max(scale, std::fabs(v));
    // Unit in-plane strains e11, e22, g12 (tensor E12 = 1/2); F2 +- h F2^-T dE moves E by +-h dE.
    const double dE[3][4] = {{1, 0, 0, 0}, {0, 0, 0, 1}, {0, 0.5, 0.5, 0}};
    // Truncation ~7e-10 of the tangent; the K / mu = 5000 law adds ~3e-9 of round-off.
    const double h = 1e-5;
    for (int j = 0; j < 3; ++j) {
      double fp[4], fm[4];
      for (int i = 0; i < 2; ++i)
        for (int k = 0; k < 2; ++k) {
          const double g = FiT[2 * i] * dE[j][k] + FiT[2 * i + 1] * dE[j][2 + k];
          fp[2 * i + k] = kF2[2 * i + k] + h * g;
          fm[2 * i + k] = kF2[2 * i + k] - h * g;
        }
      const Mat3<double> Sp = plane_stress_point(m, fp).S, Sm = plane_stress_point(m, fm).S;
      const double col[3] = {(Sp(0, 0) - Sm(0, 0)) / (2 * h), (Sp(1, 1) - Sm(1, 1)) / (2 * h),
                             (Sp(0, 1) - Sm(0, 1)) / (2 * h)};
      for (int i = 0; i < 3; ++i) EXPECT_NEAR(Cps[i][j], col[i], 1e-8 * scale) << "model " << m.model << " " << i << j;
    }
  }
  // At the reference the condensed tangent is plane_stress_stiffness.
  for (const SolidMaterial<double>& m : plane_materials()) {
    double Cps[3][3];
    const double I2[4] = {1, 0, 0, 1};
    plane_stress_point_with_tangent(m, I2, Cps);
    const Mat3<double> q = plane_stress_stiffness(m);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) EXPECT_EQ(Cps[i][j], q(i, j));
  }
}

TEST(PlaneStress, OrthotropicWithAxesInThePlaneIsTheRotatedReducedStiffness) {
  // Classical lamination theory: reduced stiffness Q in material axes, rotated by theta.
  const double E1 = kEng[0], E2 = kEng[1], n12 = kEng[3], G12 = kEng[6], n21 = n12 * E2 / E1;
  const double Q11 = E1 / (1 - n12 * n21), Q22 = E2 / (1 - n12 * n21), Q12 = n12 * E2 / (1 - n12 * n21), Q66 = G12;
  for (double theta : {0.0, 0.6, -1.2}) {
    const double c = std::cos(theta), s = std::sin(theta);
    const double c2 = c * c, s2 = s * s;
    const double q11 = Q11 * c2 * c2 + 2 * (Q12 + 2 * Q66) * s2 * c2 + Q22 * s2 * s2;
    const double q22 = Q11 * s2 * s2 + 2 * (Q12 + 2 * Q66) * s2 * c2 + Q22 * c2 * c2;
    const double q12 = (Q11 + Q22 - 4 * Q66) * s2 * c2 + Q12 * (s2 * s2 + c2 * c2);
    const double q16 = (Q11 - Q12 - 2 * Q66) * c2 * c * s - (Q22 - Q12 - 2 * Q66) * c * s2 * s;
    const double q26 = (Q11 - Q12 - 2 * Q66) * c * s2 * s - (Q22 - Q12 - 2 * Q66) * c2 * c * s;
    const double q66 = (Q11 + Q22 - 2 * Q12 - 2 * Q66) * s2 * c2 + Q66 * (s2 * s2 + c2 * c2);
    const Mat3<double> expected{{q11, q12, q16, q12, q22, q26, q16, q26, q66}};
    const SolidMaterial<double> m = orthotropic_engineering(kEng, 1, in_plane_axes(theta));
    const Mat3<double> q = plane_stress_stiffness(m);
    for (int k = 0; k < 9; ++k) EXPECT_NEAR(q.a[k], expected.a[k], 1e-12 * Q11) << theta << " " << k;
    // The Newton point at a small strain follows it.
    const double e[3] = {2e-7, -3e-7, 4e-7};
    const double F2[4] = {1 + e[0], e[2] / 2, e[2] / 2, 1 + e[1]};
    const PlaneStressPoint<double> r = plane_stress_point(m, F2);
    ASSERT_TRUE(r.converged);
    const double sv[3] = {r.S(0, 0), r.S(1, 1), r.S(0, 1)};
    for (int i = 0; i < 3; ++i) {
      const double lin = q(i, 0) * e[0] + q(i, 1) * e[1] + q(i, 2) * e[2];
      EXPECT_NEAR(sv[i], lin, 1e-6 * Q11 * 4e-7) << theta << " " << i;
    }
  }
}

TEST(PlaneStress, ShellElasticFromMaterialEqualsFromYoungsAndPoisson) {
  auto expect_same = [](const ShellElastic<double>& a, const ShellElastic<double>& b) {
    EXPECT_NEAR(a.ebar, b.ebar, 1e-12 * b.ebar);
    EXPECT_NEAR(a.nu, b.nu, 1e-12 * std::fabs(b.nu));
    EXPECT_NEAR(a.shear, b.shear, 1e-12 * b.shear);
    EXPECT_NEAR(a.kshear, b.kshear, 1e-12 * b.kshear);
  };
  for (double nu : {0.3, 0.0, -0.2, 0.499}) {
    const double E = 70e3;
    expect_same(ShellElastic<double>::from_material(svk_isotropic(E, nu, 1)), ShellElastic<double>::from(E, nu));
  }
  // Neo-Hookean: the linearised law, E = 9 K mu / (3 K + mu), nu = (3 K - 2 mu) / (2 (3 K + mu)).
  const SolidMaterial<double> nh = neo_hookean(80.194, 4.9867e-4, 1);
  const double mu = 2 * nh.c10, K = 2 / nh.d1;
  expect_same(ShellElastic<double>::from_material(nh),
              ShellElastic<double>::from(9 * K * mu / (3 * K + mu), (3 * K - 2 * mu) / (2 * (3 * K + mu))));
  // Transversely isotropic about the normal: the isotropic shell of (E1, nu12) whatever the
  // in-plane angle of the axes, with its own transverse shear modulus G13 = G23.
  const double E1 = 50e3, n12 = 0.25, G = E1 / (2 * (1 + n12)), Gt = 3e3;
  const double ti[9] = {E1, E1, 8e3, n12, 0.1, 0.1, G, Gt, Gt};
  for (double theta : {0.0, 0.8}) {
    const ShellElastic<double> a =
        ShellElastic<double>::from_material(orthotropic_engineering(ti, 1, in_plane_axes(theta)));
    ShellElastic<double> b = ShellElastic<double>::from(E1, n12);
    b.kshear = kShearCorrection * Gt;
    expect_same(a, b);
  }
  // Anisotropic in the plane, or transversely isotropic about a tilted axis: refused.
  EXPECT_THROW(ShellElastic<double>::from_material(orthotropic_engineering(kEng, 1, in_plane_axes(0.3))),
               std::invalid_argument);
  EXPECT_THROW(ShellElastic<double>::from_material(
                   orthotropic_engineering(ti, 1, rotation_matrix(Vec3<double>{0.3, 0, 0}))),
               std::invalid_argument);
  // Float constants are the double ones rounded.
  const ShellElastic<float> f = ShellElastic<float>::from_material(svk_isotropic(70e3, 0.3, 1));
  EXPECT_EQ(f.ebar, static_cast<float>(ShellElastic<double>::from_material(svk_isotropic(70e3, 0.3, 1)).ebar));
}

TEST(PlaneStress, FloatConvergesToItsOwnTolerance) {
  const float F2f[4] = {static_cast<float>(kF2[0]), static_cast<float>(kF2[1]), static_cast<float>(kF2[2]),
                        static_cast<float>(kF2[3])};
  double F2[4];
  for (int k = 0; k < 4; ++k) F2[k] = F2f[k];  // the same deformation in both precisions
  for (const SolidMaterial<double>& m : plane_materials()) {
    const PlaneStressPoint<float> rf = plane_stress_point(material_as<float>(m), F2f);
    const PlaneStressPoint<double> r = plane_stress_point(m, F2);
    ASSERT_TRUE(rf.converged) << m.model;
    EXPECT_NEAR(rf.f33, r.f33, 1e-6 * r.f33) << m.model;
    // F33 rounded to float moves J by up to 6e-8 and the pressure by the bulk modulus times
    // that (the log Neo-Hookean with K / mu = 5000: 1.1e-4 off in S11 of 0.32, its S33 1.7e-4
    // before it is zeroed), so the bound carries that term beside the relative 1e-4.
    EXPECT_NEAR(rf.S(0, 0), r.S(0, 0), 1e-4 * in_plane_scale(r.S) + 6e-8 * p_wave_modulus(m)) << m.model;
  }
}

TEST(PlaneStress, NoSolutionIsReportedNotHidden) {
  // SVK: S33 = (lambda + 2 mu) (f^2 - 1) / 2 + lambda (E11 + E22) has no root f > 0 once the
  // in-plane stretch exceeds what the (bounded) thickness contraction can balance.
  const double big[4] = {2, 0, 0, 2};
  const PlaneStressPoint<double> a = plane_stress_point(svk_isotropic(200e3, 0.3, 1), big);
  EXPECT_FALSE(a.converged);
  EXPECT_EQ(a.iterations, kPlaneStressIterations);
  EXPECT_TRUE(std::isnan(a.S(0, 0)) && std::isnan(a.energy) && std::isnan(a.f33));
  // Neo-Hookean with an inverted in-plane deformation: J < 0 for every F33 > 0.
  const double inverted[4] = {-1, 0, 0, 1};
  const PlaneStressPoint<double> b = plane_stress_point(neo_hookean(1, 0.1, 1), inverted);
  EXPECT_FALSE(b.converged);
  EXPECT_EQ(b.iterations, 1);
  EXPECT_TRUE(std::isnan(b.S(0, 0)) && std::isnan(b.energy));
  double Cps[3][3];
  plane_stress_point_with_tangent(neo_hookean(1, 0.1, 1), inverted, Cps);
  EXPECT_TRUE(std::isnan(Cps[0][0]));
}

}  // namespace
}  // namespace halfstep
