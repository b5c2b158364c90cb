// Solid materials: stress-free reference state, objectivity, stress = gradient of the energy,
// small-strain limits, orthotropic axes, the anisotropic stiffness's layout, and refusal of
// invalid constants.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "materials/solid_material.hpp"
#include "elements/rotation.hpp"

namespace halfstep {
namespace {

/// Rotation by angle about axis.
Mat3<double> rotation(Vec3<double> axis, double angle) { return rotation_matrix(angle * normalized(axis)); }

/// A general deformation gradient with moderate stretch and shear (det > 0).
const Mat3<double> kF{{1.12, 0.07, -0.04, -0.05, 0.93, 0.09, 0.03, -0.06, 1.05}};

/// A positive definite fully anisotropic stiffness, every coupling term nonzero and distinct
/// (Abaqus's order of the 21 constants).
const double kAniso[21] = {300e3, 110e3, 320e3, 130e3, 140e3, 350e3, 16e3,  17e3,  18e3,  390e3, 20e3,
                           21e3,  22e3,  23e3,  440e3, 25e3,  26e3,  27e3,  28e3,  29e3,  500e3};

std::vector<SolidMaterial<double>> all_materials() {
  const double eng[9] = {140e3, 10e3, 10e3, 0.3, 0.3, 0.45, 5e3, 5e3, 3.4e3};
  return {svk_isotropic(200e3, 0.3, 7.8e-9), neo_hookean(80.194, 4.9867e-4, 1e-9),
          orthotropic_engineering(eng, 1.6e-9, rotation({1, 2, 3}, 0.7)), neo_hookean_log(80.194, 4.9867e-4, 1e-9),
          anisotropic_stiffness(kAniso, 7.8e-9, rotation({2, -1, 1}, 0.4))};
}

TEST(SolidMaterials, ReferenceStateIsStressFree) {
  for (const auto& m : all_materials()) {
    const SolidStress<double> r = solid_stress(m, scaled_identity(1.0));
    for (double s : r.S.a) EXPECT_NEAR(s, 0.0, 1e-12) << m.model;
    EXPECT_NEAR(r.energy, 0.0, 1e-15) << m.model;
  }
}

TEST(SolidMaterials, RigidRotationChangesNothing) {
  const Mat3<double> Q = rotation({-0.3, 1, 0.4}, 2.1);
  for (const auto& m : all_materials()) {
    const SolidStress<double> a = solid_stress(m, kF), b = solid_stress(m, Q * kF);
    for (int i = 0; i < 9; ++i) EXPECT_NEAR(a.S.a[i], b.S.a[i], 1e-10 * (1 + std::fabs(a.S.a[i]))) << m.model;
    EXPECT_NEAR(a.energy, b.energy, 1e-12 * std::fabs(a.energy)) << m.model;
    // A pure rotation is stress free too.
    for (double s : solid_stress(m, Q).S.a) EXPECT_NEAR(s, 0.0, 1e-9) << m.model;
  }
}

TEST(SolidMaterials, FirstPiolaStressIsTheEnergyGradient) {
  for (const auto& m : all_materials()) {
    const SolidStress<double> r = solid_stress(m, kF);
    const Mat3<double> P = kF * r.S;
    for (int i = 0; i < 9; ++i) {
      Mat3<double> fp = kF, fm = kF;
      const double h = 1e-6;
      fp.a[i] += h;
      fm.a[i] -= h;
      const double dw = (solid_stress(m, fp).energy - solid_stress(m, fm).energy) / (2 * h);
      EXPECT_NEAR(P.a[i], dw, 1e-6 * (1 + std::fabs(dw))) << "model " << m.model << " component " << i;
    }
  }
}

TEST(SolidMaterials, SmallStrainLimitIsHookesLaw) {
  // Uniaxial strain e along x: sigma_xx = (lambda + 2 mu) e for both isotropic models, with
  // Neo-Hookean's small-strain moduli mu = 2 C10, K = 2 / D1.
  const double e = 1e-7;
  const Mat3<double> F{{1 + e, 0, 0, 0, 1, 0, 0, 0, 1}};
  const SolidMaterial<double> svk = svk_isotropic(200e3, 0.3, 1);
  EXPECT_NEAR(solid_stress(svk, F).S(0, 0), (svk.lambda + 2 * svk.mu) * e, 1e-6 * svk.mu * e);
  EXPECT_NEAR(solid_stress(svk, F).S(1, 1), svk.lambda * e, 1e-6 * svk.mu * e);
  const SolidMaterial<double> nh = neo_hookean(80.194, 4.9867e-4, 1);
  const double mu = 2 * nh.c10, k = 2 / nh.d1;
  EXPECT_NEAR(solid_stress(nh, F).S(0, 0), (k + 4 * mu / 3) * e, 1e-5 * k * e);
  EXPECT_NEAR(solid_stress(nh, F).S(1, 1), (k - 2 * mu / 3) * e, 1e-5 * k * e);
  EXPECT_NEAR(p_wave_modulus(nh), k + 4 * mu / 3, 1e-9 * k);
  EXPECT_NEAR(p_wave_modulus(svk), svk.lambda + 2 * svk.mu, 1e-9 * svk.mu);
}

TEST(SolidMaterials, NeoHookeanPureDilationIsPressureOnly) {
  const SolidMaterial<double> nh = neo_hookean(1.0, 0.01, 1);
  const double s = 1.1, J = s * s * s;
  const SolidStress<double> r = solid_stress(nh, scaled_identity(s));
  // sigma = 2/D1 (J - 1) I; S = J F^-1 sigma F^-T = J / s^2 sigma.
  const double expected = J / (s * s) * 2 / nh.d1 * (J - 1);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(r.S(i, i), expected, 1e-12 * expected);
    for (int j = 0; j < 3; ++j) {
      if (i != j) {
        EXPECT_NEAR(r.S(i, j), 0.0, 1e-12 * expected);
      }
    }
  }
  EXPECT_NEAR(r.energy, (J - 1) * (J - 1) / nh.d1, 1e-12);
  EXPECT_TRUE(std::isnan(solid_stress(nh, scaled_identity(-1.0)).energy));  // inverted
}

TEST(SolidMaterials, OrthotropicUniaxialStressRecoversTheEngineeringConstants) {
  const double eng[9] = {140e3, 10e3, 12e3, 0.3, 0.25, 0.45, 5e3, 4e3, 3.4e3};
  for (double angle : {0.0, 0.9}) {
    // Material axis 1 along the rotated x axis: stress along it must give E1 and nu12, nu13.
    const Mat3<double> R = rotation({0.2, -0.5, 1}, angle);
    const SolidMaterial<double> m = orthotropic_engineering(eng, 1, R);
    const double sigma = 1.0;
    // Small-strain compliance along material axes: e11 = s/E1, e22 = -nu12 s/E1, e33 = -nu13 s/E1.
    Mat3<double> e_loc{{sigma / eng[0], 0, 0, 0, -eng[3] * sigma / eng[0], 0, 0, 0, -eng[4] * sigma / eng[0]}};
    const Mat3<double> E = transpose(R) * e_loc * R;  // to global components
    // F = I + E (symmetric, small): S ~ stiffness : E to first order.
    const Mat3<double> S = solid_stress(m, scaled_identity(1.0) + E).S;
    const Mat3<double> s_loc = R * S * transpose(R);
    EXPECT_NEAR(s_loc(0, 0), sigma, 2e-4) << angle;
    EXPECT_NEAR(s_loc(1, 1), 0.0, 2e-4) << angle;
    EXPECT_NEAR(s_loc(2, 2), 0.0, 2e-4) << angle;
    EXPECT_NEAR(s_loc(0, 1), 0.0, 2e-4) << angle;
  }
  // Shear along 1-2 in material axes: S12 = G12 gamma12.
  const SolidMaterial<double> m = orthotropic_engineering(eng, 1, scaled_identity(1.0));
  const double g = 1e-6;
  const Mat3<double> F{{1, g, 0, 0, 1, 0, 0, 0, 1}};
  EXPECT_NEAR(solid_stress(m, F).S(0, 1), eng[6] * g, 1e-6 * eng[6] * g);
}

// *ELASTIC, TYPE=ANISOTROPIC: the engineering-strain Voigt product in Abaqus's order (a unit
// Voigt strain j, engineering shear for j >= 3, gives stress component i = D_ij), the
// orthotropic law when the coupling terms are zero, and a stable-increment bound that holds.
TEST(SolidMaterials, AnisotropicStiffnessIsAbaqussVoigtProduct) {
  const SolidMaterial<double> m = anisotropic_stiffness(kAniso, 1, scaled_identity(1.0));
  // Column j of Abaqus's upper triangle holds D_ij (i <= j) at j (j + 1) / 2 + i.
  const auto D = [](int i, int j) { return i <= j ? kAniso[j * (j + 1) / 2 + i] : kAniso[i * (i + 1) / 2 + j]; };
  double C[6][6];
  SvkAnisotropic::constant_tangent(m, C);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) EXPECT_DOUBLE_EQ(C[i][j], D(i, j)) << i << " " << j;
  // D1112 couples the 1-2 engineering shear into S11: a shear F12 = g (E12 = g / 2, gamma = g)
  // gives S11 = D1112 g to first order.
  const double g = 1e-7;
  const Mat3<double> F{{1, g, 0, 0, 1, 0, 0, 0, 1}};
  EXPECT_NEAR(solid_stress(m, F).S(0, 0), kAniso[6] * g, 1e-6 * kAniso[6] * g);
  EXPECT_NEAR(solid_stress(m, F).S(0, 1), kAniso[9] * g, 1e-6 * kAniso[9] * g);
  // Zero coupling: the orthotropic law, exactly, in rotated axes too.
  const double ortho[9] = {300e3, 110e3, 320e3, 130e3, 140e3, 350e3, 90e3, 80e3, 70e3};
  double as_aniso[21] = {};
  for (int k = 0; k < 6; ++k) as_aniso[k] = ortho[k];
  as_aniso[9] = ortho[6];
  as_aniso[14] = ortho[7];
  as_aniso[20] = ortho[8];
  const Mat3<double> R = rotation({1, 2, -3}, 1.1);
  const SolidStress<double> a = solid_stress(anisotropic_stiffness(as_aniso, 1, R), kF);
  const SolidStress<double> o = solid_stress(orthotropic_stiffness(ortho, 1, R), kF);
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(a.S.a[i], o.S.a[i], 1e-10 * std::fabs(o.S.a[0])) << i;
  EXPECT_NEAR(a.energy, o.energy, 1e-12 * o.energy);
  // eps:C:eps <= g2 eps:eps for strains in every direction (the explicit increment's bound).
  double lam = 0, g2 = 0;
  SvkAnisotropic::bound_moduli(m, lam, g2);
  for (int trial = 0; trial < 200; ++trial) {
    Mat3<double> e;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j <= i; ++j) e(i, j) = e(j, i) = std::sin(1.3 * trial + 2.1 * i + 0.7 * j + 0.37 * i * j);
    const double energy = 2 * solid_detail::svk_anisotropic(m, e).energy;  // eps:C:eps
    EXPECT_LE(energy, g2 * ddot(e, e) * (1 + 1e-12)) << trial;
  }
  EXPECT_GE(p_wave_modulus(m), kAniso[0]);
}

TEST(SolidMaterials, InvalidConstantsAreRefused) {
  EXPECT_THROW(svk_isotropic(-1, 0.3, 1), std::invalid_argument);
  EXPECT_THROW(svk_isotropic(1, 0.5, 1), std::invalid_argument);
  EXPECT_THROW(neo_hookean(1, 0, 1), std::invalid_argument);
  EXPECT_THROW(neo_hookean(-1, 0.1, 1), std::invalid_argument);
  const double bad_nu[9] = {10e3, 10e3, 10e3, 0.9, 0.9, 0.9, 1e3, 1e3, 1e3};  // |nu| too large
  EXPECT_THROW(orthotropic_engineering(bad_nu, 1, scaled_identity(1.0)), std::invalid_argument);
  const double bad_g[9] = {10e3, 10e3, 10e3, 0.3, 0.3, 0.3, 0, 1e3, 1e3};
  EXPECT_THROW(orthotropic_engineering(bad_g, 1, scaled_identity(1.0)), std::invalid_argument);
  const double bad_d[9] = {1, 2, 1, 0, 0, 1, 1, 1, 1};  // D1122 > sqrt(D1111 D2222)
  EXPECT_THROW(orthotropic_stiffness(bad_d, 1, scaled_identity(1.0)), std::invalid_argument);
  double bad_aniso[21];
  for (int k = 0; k < 21; ++k) bad_aniso[k] = kAniso[k];
  bad_aniso[6] = 400e3;  // D1112 beyond sqrt(D1111 D1212): a strain of negative energy
  EXPECT_THROW(anisotropic_stiffness(bad_aniso, 1, scaled_identity(1.0)), std::invalid_argument);
}

}  // namespace
}  // namespace halfstep

namespace halfstep {
namespace {

// At a strain of 1e-9 the Neo-Hookean energy must still be the small-strain one to many
// digits: computed as C10 (Ibar1 - 3) from B ~ I it would be round-off of size C10 * eps,
// 1e10 times too large, and the energy balance of a slowly ramped run would fail.
TEST(NeoHookean, TinyStrainEnergyHasNoCancellation) {
  const double E = 240.565, nu = 0.4999, mu = E / (2 * (1 + nu)), K = E / (3 * (1 - 2 * nu));
  const SolidMaterial<double> m = neo_hookean(mu / 2, 2 / K, 1.0);
  for (double eps : {1e-9, 1e-6}) {
    Mat3<double> F = scaled_identity(1.0);
    F(0, 0) += eps;          // stretch
    F(0, 1) += 0.5 * eps;    // and shear
    const double tr = eps;   // small-strain energy: K/2 tr^2 + mu |dev eps|^2
    const double e11 = eps, e12 = 0.25 * eps;
    const double dev2 = (e11 - tr / 3) * (e11 - tr / 3) + 2 * (tr / 3) * (tr / 3) + 2 * e12 * e12;
    const double linear = 0.5 * K * tr * tr + mu * dev2;
    EXPECT_NEAR(solid_stress(m, F).energy / linear, 1.0, 1e-5) << eps;
  }
}

}  // namespace
}  // namespace halfstep
