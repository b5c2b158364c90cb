// Dual numbers and the material tangent dS/dE: derivatives of every dual operation, tangent
// against central differences of the stress for every law, major symmetry, small-strain
// limits (isotropic Hooke, orthotropic stiffness rotated to global axes), and the dual
// derivative of the energy against the stress work.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/dual.hpp"
#include "elements/rotation.hpp"
#include "materials/material_tangent.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {
namespace {

using D = Dual<double>;

/// Rotation by angle about axis.
Mat3<double> rotation(Vec3<double> axis, double angle) { return rotation_matrix(angle * normalized(axis)); }

/// A general deformation gradient with moderate stretch and shear (det > 0).
const Mat3<double> kF{{1.12, 0.07, -0.04, -0.05, 0.93, 0.09, 0.03, -0.06, 1.05}};

const double kEng[9] = {140e3, 10e3, 12e3, 0.3, 0.25, 0.45, 5e3, 4e3, 3.4e3};

/// The four laws, plus both Neo-Hookeans nearly incompressible (K / mu = 5000).
std::vector<SolidMaterial<double>> all_materials() {
  return {svk_isotropic(200e3, 0.3, 7.8e-9),        neo_hookean(80.194, 4.9867e-4, 1e-9),
          orthotropic_engineering(kEng, 1.6e-9, rotation({1, 2, 3}, 0.7)), neo_hookean(0.5, 4e-4, 1e-9),
          neo_hookean_log(80.194, 4.9867e-4, 1e-9), neo_hookean_log(0.5, 4e-4, 1e-9)};
}

/// Largest |C_ij|, the scale of tangent errors.
double max_abs(const double C[6][6]) {
  double m = 0;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) m = std::max(m, std::fabs(C[i][j]));
  return m;
}

/// Isotropic Hooke matrix in the tangent's Voigt convention (engineering shear columns).
void hooke(double lambda, double mu, double C[6][6]) {
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) C[i][j] = 0;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) C[i][j] = lambda;
    C[i][i] = lambda + 2 * mu;
    C[i + 3][i + 3] = mu;
  }
}

TEST(Dual, EveryOperationCarriesItsDerivative) {
  const D x(0.7, 1.0), y(-1.3, 1.0);  // both seeded: d/dt at x = 0.7 + t, y = -1.3 + t
  EXPECT_EQ((x + y).d, 2.0);
  EXPECT_EQ((x - y).d, 0.0);
  EXPECT_DOUBLE_EQ((x * y).d, -1.3 + 0.7);
  EXPECT_DOUBLE_EQ((x / y).d, (-1.3 - 0.7) / (1.3 * 1.3));
  EXPECT_DOUBLE_EQ((2.0 * x).d, 2.0);
  EXPECT_DOUBLE_EQ((x * 2.0).d, 2.0);
  EXPECT_DOUBLE_EQ((x / 4.0).d, 0.25);
  EXPECT_DOUBLE_EQ((1.0 / x).d, -1 / (0.7 * 0.7));
  EXPECT_DOUBLE_EQ((1.0 - x).d, -1.0);
  EXPECT_DOUBLE_EQ((x + 1.0).v, 1.7);
  EXPECT_DOUBLE_EQ((-x).d, -1.0);
  D z = x;
  z *= z;  // aliasing reads the old value
  EXPECT_DOUBLE_EQ(z.v, 0.49);
  EXPECT_DOUBLE_EQ(z.d, 1.4);
  z /= x;
  EXPECT_DOUBLE_EQ(z.v, 0.7);
  EXPECT_DOUBLE_EQ(z.d, 1.0);
  z += y;
  z -= x;
  EXPECT_DOUBLE_EQ(z.v, -1.3);
  EXPECT_DOUBLE_EQ(z.d, 1.0);
  EXPECT_DOUBLE_EQ(sqrt(x).d, 0.5 / std::sqrt(0.7));
  EXPECT_DOUBLE_EQ(exp(x).d, std::exp(0.7));
  EXPECT_DOUBLE_EQ(expm1(x).d, std::exp(0.7));
  EXPECT_DOUBLE_EQ(log(x).d, 1 / 0.7);
  EXPECT_DOUBLE_EQ(log1p(x).d, 1 / 1.7);
  EXPECT_DOUBLE_EQ(fabs(y).d, -1.0);
  EXPECT_DOUBLE_EQ(fabs(x).d, 1.0);
  // Values follow the plain functions bit for bit, and comparisons look at the value only.
  EXPECT_EQ(expm1(x).v, std::expm1(0.7));
  EXPECT_EQ(log1p(x).v, std::log1p(0.7));
  EXPECT_TRUE(D(1.0, 5.0) < D(2.0, -5.0));
  EXPECT_TRUE(D(1.0, 5.0) == 1.0);
  EXPECT_TRUE(0.5 < D(1.0, -1.0));
  EXPECT_FALSE(D(1.0, 0.0) > D(1.0, 9.0));
  // Second derivatives by nesting: d²/dt² of exp(t²) at t = 0.5 is (2 + 4 t²) exp(t²).
  const Dual<D> t(D(0.5, 1.0), D(1.0, 0.0));
  const Dual<D> e = exp(t * t);
  EXPECT_DOUBLE_EQ(e.d.d, (2 + 4 * 0.25) * std::exp(0.25));
}

TEST(MaterialTangent, MatchesCentralDifferencesOfTheStress) {
  const Mat3<double> FiT = transpose(inverse(kF));
  // Measured worst over the laws: 6.4e-10 of max|C| at h = 1e-5 (the log Neo-Hookean's
  // truncation, falling as h^2), 1.7e-10 at 5e-6, round-off ~5e-11 below that.
  const double h = 5e-6;
  for (const auto& m : all_materials()) {
    double C[6][6];
    solid_tangent(m, kF, C);
    const double scale = max_abs(C);
    for (int j = 0; j < 6; ++j) {
      // F +- h F^-T dE_j changes E by +-h dE_j plus an O(h^2) term that is even in h.
      const Mat3<double> dF = h * (FiT * unit_voigt_strain<double>(j));
      const Mat3<double> Sp = solid_stress(m, kF + dF).S, Sm = solid_stress(m, kF - dF).S;
      for (int i = 0; i < 6; ++i) {
        const int a = voigt_i(i), b = voigt_j(i);
        const double fd = (Sp(a, b) - Sm(a, b)) / (2 * h);
        EXPECT_NEAR(C[i][j], fd, 5e-10 * scale) << "model " << m.model << " C" << i << j;
      }
    }
  }
}

TEST(MaterialTangent, HasMajorSymmetry) {
  for (const auto& m : all_materials()) {
    double C[6][6];
    solid_tangent(m, kF, C);
    const double scale = max_abs(C);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < i; ++j) EXPECT_NEAR(C[i][j], C[j][i], 1e-14 * scale) << "model " << m.model;
  }
}

TEST(MaterialTangent, SmallStrainLimitIsHookesMatrix) {
  const SolidMaterial<double> svk = svk_isotropic(200e3, 0.3, 1);
  const SolidMaterial<double> nh = neo_hookean(80.194, 4.9867e-4, 1);
  double H[6][6], C[6][6];
  // St. Venant-Kirchhoff: the Hooke matrix at any F.
  hooke(svk.lambda, svk.mu, H);
  solid_tangent(svk, kF, C);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) EXPECT_EQ(C[i][j], H[i][j]);
  // Neo-Hookean at the reference: mu = 2 C10, lambda = K - 2 mu / 3, K = 2 / D1.
  const double mu = 2 * nh.c10, lambda = 2 / nh.d1 - 2 * mu / 3;
  hooke(lambda, mu, H);
  solid_tangent(nh, scaled_identity(1.0), C);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) EXPECT_NEAR(C[i][j], H[i][j], 1e-14 * max_abs(H)) << i << j;
}

TEST(MaterialTangent, OrthotropicIsTheMaterialStiffnessRotatedToGlobalAxes) {
  const Mat3<double> A = rotation({0.4, -1, 0.3}, 1.1);
  const SolidMaterial<double> m = orthotropic_engineering(kEng, 1, A);
  // Fourth-order stiffness in material axes from the nine constants, then
  // C_ijkl = A_pi A_qj A_rk A_sl D_pqrs: an independent route to the global tangent.
  const double* d = m.d;
  const double normal[3][3] = {{d[0], d[1], d[3]}, {d[1], d[2], d[4]}, {d[3], d[4], d[5]}};
  const double shear[3][3] = {{0, d[6], d[7]}, {d[6], 0, d[8]}, {d[7], d[8], 0}};
  auto Dloc = [&](int p, int q, int r, int s) {
    if (p == q && r == s) return normal[p][r];
    if (p != q && ((p == r && q == s) || (p == s && q == r))) return shear[p][q];
    return 0.0;
  };
  double G[6][6];
  for (int a = 0; a < 6; ++a)
    for (int b = 0; b < 6; ++b) {
      const int i = voigt_i(a), j = voigt_j(a), k = voigt_i(b), l = voigt_j(b);
      double c = 0;
      for (int p = 0; p < 3; ++p)
        for (int q = 0; q < 3; ++q)
          for (int r = 0; r < 3; ++r)
            for (int s = 0; s < 3; ++s) c += A(p, i) * A(q, j) * A(r, k) * A(s, l) * Dloc(p, q, r, s);
      G[a][b] = c;  // engineering shear columns: E_kl = E_lk = g/2 and minor symmetry give C_ijkl
    }
  for (const Mat3<double>& F : {scaled_identity(1.0), kF}) {
    double C[6][6];
    solid_tangent(m, F, C);
    for (int a = 0; a < 6; ++a)
      for (int b = 0; b < 6; ++b) EXPECT_NEAR(C[a][b], G[a][b], 1e-12 * max_abs(G)) << a << b;
  }
  // Unrotated, the constants appear as given, D1212 on the 12 diagonal (engineering shear).
  double C[6][6];
  solid_tangent(orthotropic_engineering(kEng, 1, scaled_identity(1.0)), kF, C);
  EXPECT_DOUBLE_EQ(C[3][3], kEng[6]);
  EXPECT_DOUBLE_EQ(C[4][4], kEng[7]);
  EXPECT_DOUBLE_EQ(C[5][5], kEng[8]);
  EXPECT_DOUBLE_EQ(C[0][1], d[1]);
}

TEST(MaterialTangent, DualTangentEqualsTheAnalyticOneAndKeepsTheStress) {
  for (const auto& m : all_materials()) {
    double Cd[6][6], C[6][6];
    const SolidStress<double> rd = solid_stress_and_tangent_dual(m, kF, Cd);
    const SolidStress<double> r = solid_stress_and_tangent(m, kF, C);
    const SolidStress<double> s = solid_stress(m, kF);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) EXPECT_NEAR(Cd[i][j], C[i][j], 1e-14 * max_abs(C)) << "model " << m.model;
    // Value parts run the same operations as the plain evaluation.
    for (int k = 0; k < 9; ++k) {
      EXPECT_EQ(rd.S.a[k], s.S.a[k]) << "model " << m.model;
      EXPECT_EQ(r.S.a[k], s.S.a[k]) << "model " << m.model;
    }
    EXPECT_EQ(rd.energy, s.energy);
    EXPECT_EQ(r.energy, s.energy);
  }
}

TEST(MaterialTangent, DualEnergyDerivativeIsTheStressWork) {
  const Mat3<double> dE{{0.3, -0.2, 0.5, -0.2, -0.7, 0.1, 0.5, 0.1, 0.4}};  // symmetric
  const Mat3<double> dF{{0.2, -0.9, 0.3, 0.6, 0.1, -0.4, -0.5, 0.8, 0.7}};  // general
  for (const auto& m : all_materials()) {
    const SolidMaterial<D> md = dual_material(m);
    const SolidStress<double> s = solid_stress(m, kF);
    const SolidStress<D> a = solid_stress(md, dual_matrix(kF, transpose(inverse(kF)) * dE));
    const double work = ddot(s.S, dE);
    EXPECT_NEAR(a.energy.d, work, 1e-13 * std::fabs(work)) << "model " << m.model;
    // For any dF: dW = P : dF with P = F S.
    const SolidStress<D> b = solid_stress(md, dual_matrix(kF, dF));
    const double pw = ddot(kF * s.S, dF);
    EXPECT_NEAR(b.energy.d, pw, 1e-13 * std::fabs(pw)) << "model " << m.model;
  }
}

TEST(MaterialTangent, FloatTangentAgreesWithDouble) {
  Mat3<float> Ff;
  for (int k = 0; k < 9; ++k) Ff.a[k] = static_cast<float>(kF.a[k]);
  for (const auto& m : all_materials()) {
    double C[6][6];
    float Cf[6][6];
    solid_tangent(m, kF, C);
    solid_tangent(material_as<float>(m), Ff, Cf);
    const double tol = 2e-6 * max_abs(C);  // ~10 ulp of float; measured 4e-7
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) EXPECT_NEAR(Cf[i][j], C[i][j], tol) << "model " << m.model;
  }
}

}  // namespace
}  // namespace halfstep
