// CAX4R, the axisymmetric one-point quadrilateral: ring volume (Pappus), lumped mass, the
// patch test with the uniform-strain fields u_r = c r, u_z = d z + e on a distorted patch,
// the rigid translation along the axis, forces as the energy gradient, the hourglass springs'
// documented stiffness, the stable increment against the true highest frequency, elements
// touching the axis, and refused shapes.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "elements/axisymmetric_quad.hpp"
#include "elements/registry.hpp"

namespace halfstep {
namespace {

using V3 = Vec3<double>;
const double kPi = 3.14159265358979323846;

/// A distorted convex quadrilateral in (r, z), counter-clockwise, off the axis.
void distorted(V3 X[4]) {
  const double p[4][2] = {{1.3, -0.2}, {3.4, 0.1}, {3.1, 2.3}, {0.9, 1.9}};
  for (int a = 0; a < 4; ++a) X[a] = {p[a][0], p[a][1], 0.0};
}

/// 2 pi A r_centroid (Pappus) of a polygon in (r, z).
double pappus_volume(const V3 X[4]) {
  double A = 0, cr = 0;
  for (int a = 0; a < 4; ++a) {
    const V3 p = X[a], q = X[(a + 1) % 4];
    const double c = p.x * q.y - q.x * p.y;
    A += 0.5 * c;
    cr += (p.x + q.x) * c / 6;
  }
  return 2 * kPi * cr;
}

double& component(V3& v, int c) { return c == 0 ? v.x : v.y; }

std::vector<SolidMaterial<double>> materials() {
  return {svk_isotropic(210e3, 0.3, 7.8e-9), neo_hookean(80.0, 5e-4, 1e-9)};
}

TEST(CAX4R, IsRegisteredAsAnAxisymmetricPlanarKind) {
  const int id = find_element_kind("CAX4R");
  ASSERT_GE(id, 0);
  EXPECT_EQ(element_kind(id).dimension, 2);
  EXPECT_TRUE(element_kind(id).axisymmetric);
  EXPECT_TRUE(element_kind(id).explicit_dynamics);
  EXPECT_FALSE(element_kind(find_element_kind("CPE4R")).axisymmetric);
}

TEST(CAX4R, RingVolumeAndMassFractions) {
  V3 X[4];
  distorted(X);
  double frac[4];
  const double V = CAX4R::mass_fractions(X, frac);
  EXPECT_NEAR(V, pappus_volume(X), 1e-13 * V);
  double sum = 0;
  for (double f : frac) {
    EXPECT_GT(f, 0.0);
    sum += f;
  }
  EXPECT_NEAR(sum, 1.0, 1e-14);
  // A rectangle a <= r <= b: V = pi (b^2 - a^2) h, and the outer nodes carry more mass:
  // 2 pi int N_a r dA = 2 pi h (b - a) (2 r_a + r_other) / 12 per node.
  const double a = 1.0, b = 3.0, h = 0.5;
  const V3 R[4] = {{a, 0, 0}, {b, 0, 0}, {b, h, 0}, {a, h, 0}};
  const double VR = CAX4R::mass_fractions(R, frac);
  EXPECT_NEAR(VR, kPi * (b * b - a * a) * h, 1e-13 * VR);
  EXPECT_NEAR(frac[0] * VR, 2 * kPi * h * (b - a) * (2 * a + b) / 12, 1e-13 * VR);
  EXPECT_NEAR(frac[1] * VR, 2 * kPi * h * (b - a) * (2 * b + a) / 12, 1e-13 * VR);
}

TEST(CAX4R, PatchOfDistortedElementsReproducesUniformStrain) {
  // 2 x 2 elements on (r, z) in [1, 3] x [0, 2] with the interior node moved; u_r = c r,
  // u_z = d z + e: F = diag(1 + c, 1 + d, 1 + c) in every element, the closed-form SVK stress,
  // and no force at the interior node (the ring integrals are exact).
  std::vector<V3> X;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) X.push_back({1.0 + i, 1.0 * j, 0.0});
  X[4] = {2.17, 0.88, 0.0};
  const int elems[4][4] = {{0, 1, 4, 3}, {1, 2, 5, 4}, {3, 4, 7, 6}, {4, 5, 8, 7}};
  const double c = 0.012, d = -0.007, e = 0.3;
  std::vector<V3> u, f(9, V3{0, 0, 0});
  for (const V3& p : X) u.push_back({c * p.x, d * p.y + e, 0.0});
  const SolidMaterial<double> m = svk_isotropic(210e3, 0.3, 7.8e-9);
  const double E[3] = {c + 0.5 * c * c, d + 0.5 * d * d, c + 0.5 * c * c};  // Green strain: rr, zz, tt
  const double tr = E[0] + E[1] + E[2];
  double fmax = 0;
  for (const auto& el : elems) {
    V3 Xe[4], ue[4], fe[4];
    for (int a = 0; a < 4; ++a) {
      Xe[a] = X[el[a]];
      ue[a] = u[el[a]];
    }
    const SolidEnergy<double> w = CAX4R::internal_force(Xe, ue, m, 0.1, fe);
    double frac[4];
    const double V = CAX4R::mass_fractions(Xe, frac);
    const double W = 0.5 * m.lambda * tr * tr + m.mu * (E[0] * E[0] + E[1] * E[1] + E[2] * E[2]);
    EXPECT_NEAR(w.strain, V * W, 1e-12 * V * W);
    EXPECT_LE(w.hourglass, 1e-24 * w.strain);
    const SolidOutput<double> out = CAX4R::centroid_output(Xe, ue, m);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(out.green(k, k), E[k], 1e-15);
      const double stretch = k == 1 ? 1 + d : 1 + c, J = (1 + c) * (1 + c) * (1 + d);
      EXPECT_NEAR(out.cauchy(k, k), stretch * stretch * (m.lambda * tr + 2 * m.mu * E[k]) / J, 1e-9 * m.mu * c) << k;
    }
    EXPECT_NEAR(out.green(0, 1), 0.0, 1e-15);
    for (int a = 0; a < 4; ++a) {
      f[el[a]] += fe[a];
      fmax = std::max(fmax, norm(fe[a]));
    }
  }
  EXPECT_LT(norm(f[4]), 1e-12 * fmax);
  // The forces on the outer face r = 3 are sigma_rr times the face's ring area 2 pi 3 * 2 in
  // the current configuration (the P11 of the reference face: lambda_z lambda_t S_rr (1 + c)).
  const double Srr = m.lambda * tr + 2 * m.mu * E[0];
  double fr = 0;
  for (int n : {2, 5, 8}) fr += f[n].x;
  EXPECT_NEAR(fr, (1 + c) * Srr * 2 * kPi * 3 * 2, 1e-10 * fmax);
}

TEST(CAX4R, TranslationAlongTheAxisGivesNoForce) {
  V3 X[4], u[4], f[4];
  distorted(X);
  for (int a = 0; a < 4; ++a) u[a] = {0.0, 0.37, 0.0};
  double frac[4];
  const double V = CAX4R::mass_fractions(X, frac);
  for (const SolidMaterial<double>& m : materials()) {
    // Round-off only: sum_a G_a = 0 and gamma, t are orthogonal to constants, in exact arithmetic.
    const double scale = p_wave_modulus(m) * V * 0.37;  // the force of a unit strain times the shift
    const SolidEnergy<double> w = CAX4R::internal_force(X, u, m, 0.1, f);
    EXPECT_LT(w.strain, 1e-24 * scale);
    EXPECT_LT(w.hourglass, 1e-24 * scale);
    for (int a = 0; a < 4; ++a) EXPECT_LT(norm(f[a]), 1e-13 * scale);
  }
}

TEST(CAX4R, ForcesAreTheEnergyGradient) {
  V3 X[4], u[4], f[4];
  distorted(X);
  const double d[4][2] = {{0.05, -0.02}, {0.11, 0.04}, {0.02, 0.13}, {-0.06, 0.03}};
  for (int a = 0; a < 4; ++a) u[a] = {d[a][0], d[a][1], 0.0};
  for (const SolidMaterial<double>& m : materials()) {
    CAX4R::internal_force(X, u, m, 0.1, f);
    double fmax = 0;
    for (int a = 0; a < 4; ++a) fmax = std::max({fmax, std::fabs(f[a].x), std::fabs(f[a].y)});
    for (int a = 0; a < 4; ++a)
      for (int c = 0; c < 2; ++c) {
        V3 up[4], um[4], g[4];
        for (int b = 0; b < 4; ++b) up[b] = um[b] = u[b];
        const double h = 1e-6;
        component(up[a], c) += h;
        component(um[a], c) -= h;
        const SolidEnergy<double> ep = CAX4R::internal_force(X, up, m, 0.1, g), em = CAX4R::internal_force(X, um, m, 0.1, g);
        EXPECT_NEAR(component(f[a], c), (ep.strain + ep.hourglass - em.strain - em.hourglass) / (2 * h), 1e-6 * fmax)
            << m.model << " node " << a << " dof " << c;
      }
  }
}

TEST(CAX4R, HourglassModesAreResistedByTheDocumentedStiffness) {
  // The section r in [2, 4], z in [1, 3] (V = 2 pi 3 * 4, b_a = (+-1/4, +-1/4), gamma = h).
  // The springs add to the point's energy, which does not depend on kappa:
  // * the hourglass mode u_r = d h: q = 4 d, springs' energy k/2 (4 d)^2 with
  //   k = kappa (2 mu) V sum|b|^2 / 4 (its hoop moment q_t vanishes on this section);
  // * the rotation about the centroid (2, 3) -> (3, 2): u_r = -theta (z - 2), u_z = theta (r - 3),
  //   which the point does not see (zero energy without springs, to O(theta^4)): q = 0,
  //   q_t = -theta J, J = 2 pi int (z - 2)^2 dA = 8 pi / 3, k_t = kappa (2 mu) / I,
  //   I = 2 pi int r (z - 2)^2 dA = 8 pi: energy k_t/2 q_t^2 = (8 pi / 9) kappa mu theta^2.
  const V3 X[4] = {{2, 1, 0}, {4, 1, 0}, {4, 3, 0}, {2, 3, 0}};
  const double h[4] = {1, -1, 1, -1}, kappa = 0.1;
  const SolidMaterial<double> m = svk_isotropic(210e3, 0.3, 7.8e-9);
  V3 u[4], f[4], f0[4];
  const double dd = 1e-4, V = 2 * kPi * 3 * 4, k = kappa * 2 * m.mu * V * 0.5 / 4;
  for (int a = 0; a < 4; ++a) u[a] = {dd * h[a], 0.0, 0.0};
  const SolidEnergy<double> w = CAX4R::internal_force(X, u, m, kappa, f), w0 = CAX4R::internal_force(X, u, m, 0.0, f0);
  EXPECT_NEAR(w.hourglass, 0.5 * k * 16 * dd * dd, 1e-12 * w.hourglass);
  EXPECT_EQ(w.strain, w0.strain);
  EXPECT_EQ(w0.hourglass, 0.0);
  for (int a = 0; a < 4; ++a) EXPECT_NEAR(f[a].x - f0[a].x, k * h[a] * 4 * dd, 1e-9 * k * dd) << a;
  const double theta = 1e-5;  // the point's energy is O(theta^4): 3e-8 of the springs' here
  for (int a = 0; a < 4; ++a) u[a] = {-theta * (X[a].y - 2), theta * (X[a].x - 3), 0.0};
  const SolidEnergy<double> r = CAX4R::internal_force(X, u, m, kappa, f), r0 = CAX4R::internal_force(X, u, m, 0.0, f0);
  const double expect = 8 * kPi / 9 * kappa * m.mu * theta * theta;
  EXPECT_NEAR(r.hourglass, expect, 1e-9 * expect);
  EXPECT_LT(r0.strain + r0.hourglass, 1e-6 * expect);  // the zero-energy mode the third spring removes
}

TEST(CAX4R, StableIncrementBoundsTheHighestFrequency) {
  for (int shape = 0; shape < 2; ++shape) {
    V3 X[4];
    distorted(X);
    if (shape == 1) {  // touching the axis
      X[0].x = 0.0;
      X[3].x = 0.0;
    }
    for (const SolidMaterial<double>& m : materials()) {
      double frac[4];
      const double V = CAX4R::mass_fractions(X, frac);
      ASSERT_GT(V, 0.0);
      double K[8][8];
      for (int j = 0; j < 8; ++j) {
        V3 up[4] = {}, um[4] = {}, fp[4], fm[4];
        const double h = 1e-7;
        component(up[j / 2], j % 2) += h;
        component(um[j / 2], j % 2) -= h;
        CAX4R::internal_force(X, up, m, 0.1, fp);
        CAX4R::internal_force(X, um, m, 0.1, fm);
        for (int i = 0; i < 8; ++i) K[i][j] = (component(fp[i / 2], i % 2) - component(fm[i / 2], i % 2)) / (2 * h);
      }
      std::vector<double> v(8);
      for (int i = 0; i < 8; ++i) v[i] = 1.0 + 0.1 * i * (i % 3 == 0 ? -1 : 1);
      double lambda = 0;
      for (int it = 0; it < 3000; ++it) {
        std::vector<double> w(8, 0.0);
        for (int i = 0; i < 8; ++i) {
          for (int j = 0; j < 8; ++j) w[i] += K[i][j] * v[j];
          w[i] /= m.density * V * frac[i / 2];
        }
        double n = 0;
        for (double x : w) n += x * x;
        lambda = std::sqrt(n);
        for (int i = 0; i < 8; ++i) v[i] = w[i] / lambda;
      }
      const double exact = 2.0 / std::sqrt(lambda), bound = CAX4R::stable_dt(X, m);
      std::printf("CAX4R shape %d material %d: stable_dt / (2/omega_max) = %.4f\n", shape, m.model, bound / exact);
      EXPECT_LE(bound, exact * (1 + 1e-6)) << m.model;
      EXPECT_GT(bound, 0.2 * exact) << m.model;
    }
  }
}

TEST(CAX4R, ElementsOnTheAxisWorkAndNegativeRadiiOrInversionAreRefused) {
  V3 X[4], u[4], f[4];
  distorted(X);
  X[0].x = 0.0;
  X[3].x = 0.0;
  double frac[4];
  EXPECT_NEAR(CAX4R::mass_fractions(X, frac), pappus_volume(X), 1e-12 * pappus_volume(X));
  for (int a = 0; a < 4; ++a) u[a] = {0.01 * X[a].x, -0.02 * X[a].y, 0.0};
  const SolidEnergy<double> w = CAX4R::internal_force(X, u, svk_isotropic(210e3, 0.3, 7.8e-9), 0.1, f);
  EXPECT_TRUE(std::isfinite(w.strain));
  for (int a = 0; a < 4; ++a) EXPECT_TRUE(std::isfinite(f[a].x));
  distorted(X);
  X[0].x = -0.1;  // across the axis
  EXPECT_EQ(CAX4R::mass_fractions(X, frac), 0.0);
  EXPECT_TRUE(std::isnan(CAX4R::internal_force(X, u, svk_isotropic(210e3, 0.3, 7.8e-9), 0.1, f).strain));
  distorted(X);
  std::swap(X[1], X[3]);  // clockwise
  EXPECT_EQ(CAX4R::mass_fractions(X, frac), 0.0);
  EXPECT_EQ(CAX4R::stable_dt(X, svk_isotropic(210e3, 0.3, 7.8e-9)), 0.0);
}

}  // namespace
}  // namespace halfstep
