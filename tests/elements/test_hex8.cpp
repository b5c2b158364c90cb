// C3D8R: patch test, rigid motions (no force, no hourglass force, even for large rotations),
// forces as the gradient of strain + hourglass energy, hourglass modes resisted.
#include <gtest/gtest.h>

#include <cmath>

#include "elements/hex8.hpp"
#include "elements/rotation.hpp"

namespace halfstep {
namespace {

/// A distorted hexahedron (non-parallel faces), Abaqus node order.
void distorted(Vec3<double> X[8]) {
  const double base[8][3] = {{0, 0, 0}, {2.1, 0.1, -0.1}, {2.3, 1.9, 0.2}, {-0.2, 2.0, 0.0},
                             {0.1, -0.1, 1.5}, {2.0, 0.2, 1.8}, {2.4, 2.2, 1.6}, {0.0, 1.8, 1.9}};
  for (int a = 0; a < 8; ++a) X[a] = {base[a][0], base[a][1], base[a][2]};
}

/// Rotation by angle about axis.
Mat3<double> rotation(Vec3<double> axis, double angle) { return rotation_matrix(angle * normalized(axis)); }

const SolidMaterial<double> kSteel = svk_isotropic(210e3, 0.3, 7.8e-9);

TEST(Hex8, ReferenceConstantsAreConsistent) {
  Vec3<double> X[8];
  distorted(X);
  Hex8Ref<double> r;
  ASSERT_TRUE(hex8_reference(X, r));
  // sum_a b_a = 0, sum_a X_a (x) b_a = I, gamma orthogonal to constants and to X.
  Vec3<double> sb{0, 0, 0};
  Mat3<double> xb = scaled_identity(0.0);
  for (int a = 0; a < 8; ++a) {
    sb += r.b[a];
    const double x[3] = {X[a].x, X[a].y, X[a].z}, b[3] = {r.b[a].x, r.b[a].y, r.b[a].z};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) xb(i, j) += x[i] * b[j];
  }
  EXPECT_NEAR(norm(sb), 0.0, 1e-14);
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(xb.a[i], scaled_identity(1.0).a[i], 1e-13);
  for (int i = 0; i < 4; ++i) {
    double s = 0;
    Vec3<double> gx{0, 0, 0};
    for (int a = 0; a < 8; ++a) {
      s += r.gamma[i][a];
      gx += r.gamma[i][a] * X[a];
    }
    EXPECT_NEAR(s, 0.0, 1e-13);
    EXPECT_NEAR(norm(gx), 0.0, 1e-13);
  }
  // A unit cube has volume 1; an inverted element is refused.
  Vec3<double> C[8];
  for (int a = 0; a < 8; ++a)
    C[a] = {0.5 * (hex8_sign(a, 0) + 1), 0.5 * (hex8_sign(a, 1) + 1), 0.5 * (hex8_sign(a, 2) + 1)};
  ASSERT_TRUE(hex8_reference(C, r));
  EXPECT_NEAR(r.volume, 1.0, 1e-14);
  std::swap(C[0], C[4]);
  std::swap(C[1], C[5]);
  std::swap(C[2], C[6]);
  std::swap(C[3], C[7]);
  EXPECT_FALSE(hex8_reference(C, r));
}

TEST(Hex8, RigidMotionsGiveNoForce) {
  Vec3<double> X[8];
  distorted(X);
  Hex8Ref<double> r;
  ASSERT_TRUE(hex8_reference(X, r));
  const double k = hex8_hourglass_stiffness(r, hourglass_modulus(kSteel), 0.1);
  for (double angle : {0.0, 0.3, 1.7, 3.0}) {
    const Mat3<double> R = rotation({1, -2, 0.5}, angle);
    Vec3<double> u[8], f[8];
    for (int a = 0; a < 8; ++a) u[a] = R * X[a] - X[a] + Vec3<double>{0.3, -1.2, 4.0};
    const Hex8Energy<double> e = hex8_internal_force(r, u, kSteel, k, f);
    for (int a = 0; a < 8; ++a) EXPECT_LT(norm(f[a]), 1e-8 * k) << angle;
    EXPECT_NEAR(e.strain, 0.0, 1e-10 * k);
    EXPECT_NEAR(e.hourglass, 0.0, 1e-10 * k);
  }
}

TEST(Hex8, PatchTestLinearFieldGivesExactStressAndNoHourglass) {
  Vec3<double> X[8];
  distorted(X);
  Hex8Ref<double> r;
  ASSERT_TRUE(hex8_reference(X, r));
  const Mat3<double> A{{1e-3, 2e-4, -1e-4, 3e-4, -5e-4, 2e-4, 0, 1e-4, 8e-4}};
  Vec3<double> u[8], f[8];
  for (int a = 0; a < 8; ++a) u[a] = A * X[a];
  const double k = hex8_hourglass_stiffness(r, hourglass_modulus(kSteel), 0.1);
  const Hex8Energy<double> e = hex8_internal_force(r, u, kSteel, k, f);
  EXPECT_NEAR(e.hourglass, 0.0, 1e-20 * k);
  // Forces balance, and equal V P b_a with P from the exact F = I + A.
  const Mat3<double> F = scaled_identity(1.0) + A;
  const Mat3<double> P = F * solid_stress(kSteel, F).S;
  Vec3<double> sum{0, 0, 0};
  for (int a = 0; a < 8; ++a) {
    sum += f[a];
    const Vec3<double> expect = r.volume * (P * r.b[a]);
    EXPECT_NEAR(norm(f[a] - expect), 0.0, 1e-9 * norm(expect));
  }
  EXPECT_NEAR(norm(sum), 0.0, 1e-9);
}

TEST(Hex8, ForcesAreTheGradientOfTheEnergyAndHourglassModesAreResisted) {
  Vec3<double> X[8];
  distorted(X);
  Hex8Ref<double> r;
  ASSERT_TRUE(hex8_reference(X, r));
  for (const SolidMaterial<double>& m : {kSteel, neo_hookean(80.0, 5e-4, 1e-9)}) {
    const double k = hex8_hourglass_stiffness(r, p_wave_modulus(m), 0.1);
    Vec3<double> u[8], f[8];
    for (int a = 0; a < 8; ++a)
      u[a] = {0.01 * std::sin(1.0 + a), 0.02 * std::cos(2.0 * a), -0.015 * std::sin(0.5 * a * a)};
    hex8_internal_force(r, u, m, k, f);
    for (int a = 0; a < 8; ++a)
      for (int c = 0; c < 3; ++c) {
        const double h = 1e-7;
        Vec3<double> up[8], um[8], tmp[8];
        for (int b = 0; b < 8; ++b) up[b] = um[b] = u[b];
        double* pp = c == 0 ? &up[a].x : c == 1 ? &up[a].y : &up[a].z;
        double* pm = c == 0 ? &um[a].x : c == 1 ? &um[a].y : &um[a].z;
        *pp += h;
        *pm -= h;
        const Hex8Energy<double> ep = hex8_internal_force(r, up, m, k, tmp);
        const Hex8Energy<double> em = hex8_internal_force(r, um, m, k, tmp);
        const double dw = (ep.strain + ep.hourglass - em.strain - em.hourglass) / (2 * h);
        const double fa = c == 0 ? f[a].x : c == 1 ? f[a].y : f[a].z;
        EXPECT_NEAR(fa, dw, 1e-5 * (1 + std::fabs(dw))) << "node " << a << " dof " << c;
      }
  }
  // On a cube the hourglass pattern xi*eta strains nothing at the centroid but meets the
  // hourglass stiffness.
  Vec3<double> C[8];
  for (int a = 0; a < 8; ++a)
    C[a] = {0.5 * (hex8_sign(a, 0) + 1), 0.5 * (hex8_sign(a, 1) + 1), 0.5 * (hex8_sign(a, 2) + 1)};
  ASSERT_TRUE(hex8_reference(C, r));
  const double k = hex8_hourglass_stiffness(r, hourglass_modulus(kSteel), 0.1);
  Vec3<double> u[8], f[8];
  for (int a = 0; a < 8; ++a) u[a] = {1e-4 * hex8_sign(a, 0) * hex8_sign(a, 1), 0, 0};
  const Hex8Energy<double> e = hex8_internal_force(r, u, kSteel, k, f);
  EXPECT_NEAR(e.hourglass, 0.5 * k * std::pow(8e-4, 2), 1e-12 * k);
  EXPECT_LT(e.strain, 1e-12 * e.hourglass);
}

}  // namespace
}  // namespace halfstep
