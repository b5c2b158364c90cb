// The planar quadrilaterals CPS4, CPS4R (plane stress) and CPE4, CPE4R (plane strain): patch
// test against closed-form St. Venant-Kirchhoff stresses, rigid motions, forces as the energy
// gradient, thickness scaling, lumped mass, the stable increment against the element's true
// highest frequency, an inverted element, and the one-point kinds' hourglass springs.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "elements/plane_quad.hpp"
#include "elements/registry.hpp"

namespace halfstep {
namespace {

using V3 = Vec3<double>;

/// A distorted convex quadrilateral, counter-clockwise, off the origin (area 5.43 by the
/// shoelace formula, see DistortedQuadArea).
void distorted(V3 X[4]) {
  const double p[4][2] = {{0.3, -0.2}, {2.4, 0.1}, {2.1, 2.3}, {-0.1, 1.9}};
  for (int a = 0; a < 4; ++a) X[a] = {p[a][0], p[a][1], 0.0};
}

/// Shoelace area of X.
double shoelace(const V3 X[4]) {
  double s = 0;
  for (int a = 0; a < 4; ++a) s += X[a].x * X[(a + 1) % 4].y - X[(a + 1) % 4].x * X[a].y;
  return 0.5 * s;
}

std::vector<SolidMaterial<double>> materials() {
  const double eng[9] = {150e3, 10e3, 12e3, 0.3, 0.25, 0.4, 5e3, 6e3, 3.5e3};
  const double c = std::cos(0.4), s = std::sin(0.4);
  const Mat3<double> in_plane{{c, s, 0, -s, c, 0, 0, 0, 1}};  // material axes turned in the plane
  return {svk_isotropic(210e3, 0.3, 7.8e-9), orthotropic_engineering(eng, 1.6e-9, in_plane),
          neo_hookean(80.0, 5e-4, 1e-9)};
}

double& component(V3& v, int c) { return c == 0 ? v.x : v.y; }

/// Closed-form 2nd Piola-Kirchhoff S11, S22, S12 of isotropic SVK for the in-plane Green strain
/// E (E11, E22, E12): plane strain has E33 = 0, plane stress E33 = -lambda tr2 / (lambda + 2 mu).
void svk_plane(double lambda, double mu, const double E[3], bool plane_stress, double S[3]) {
  const double tr2 = E[0] + E[1];
  const double e33 = plane_stress ? -lambda * tr2 / (lambda + 2 * mu) : 0.0;
  const double tr = tr2 + e33;
  S[0] = lambda * tr + 2 * mu * E[0];
  S[1] = lambda * tr + 2 * mu * E[1];
  S[2] = 2 * mu * E[2];
}

/// Whether K is a plane-stress kind.
template <class K>
constexpr bool kIsPlaneStress = std::is_same_v<K, CPS4> || std::is_same_v<K, CPS4R>;

template <class K>
class PlaneQuad : public ::testing::Test {};
using Kinds = ::testing::Types<CPS4, CPE4, CPS4R, CPE4R>;
TYPED_TEST_SUITE(PlaneQuad, Kinds);

TYPED_TEST(PlaneQuad, IsRegisteredAsAPlanarContinuumKind) {
  using K = TypeParam;
  const int id = find_element_kind(K::name());
  ASSERT_GE(id, 0);
  EXPECT_EQ(element_kind(id).dimension, 2);
  EXPECT_EQ(element_kind(id).dofs_per_node, 2);
  EXPECT_EQ(element_kind(id).nodes, 4);
  EXPECT_EQ(element_kind(id).vtk_cell, 9);
  EXPECT_EQ(element_kind(id).family, ElementFamily::Continuum);
  bool visited = false;
  EXPECT_TRUE(visit_continuum_kind(id, [&](auto k) { visited = std::is_same_v<decltype(k), K>; }));
  EXPECT_TRUE(visited);
}

TYPED_TEST(PlaneQuad, DistortedQuadArea) {
  V3 X[4];
  distorted(X);
  double frac[4];
  const double area = TypeParam::mass_fractions(X, frac);
  EXPECT_NEAR(area, shoelace(X), 1e-13 * area);
  double sum = 0;
  for (double f : frac) {
    EXPECT_GT(f, 0.0);
    sum += f;
  }
  EXPECT_NEAR(sum, 1.0, 1e-14);
}

TYPED_TEST(PlaneQuad, PatchOfDistortedElementsReproducesUniformStress) {
  // 2 x 2 elements on a 3 x 3 lattice whose interior node is moved off centre; a linear
  // displacement field of finite size. Every element must carry the closed-form stress, and
  // the interior node's forces must cancel.
  using K = TypeParam;
  const bool plane_stress = kIsPlaneStress<K>;
  std::vector<V3> X;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) X.push_back({1.0 * i, 1.0 * j, 0.0});
  X[4] = {1.17, 0.88, 0.0};
  const int elems[4][4] = {{0, 1, 4, 3}, {1, 2, 5, 4}, {3, 4, 7, 6}, {4, 5, 8, 7}};
  const double G[2][2] = {{0.012, -0.007}, {0.004, -0.009}};  // grad u
  std::vector<V3> u;
  for (const V3& p : X) u.push_back({G[0][0] * p.x + G[0][1] * p.y, G[1][0] * p.x + G[1][1] * p.y, 0.0});
  SolidMaterial<double> m = svk_isotropic(210e3, 0.3, 7.8e-9);
  m.thickness = 0.7;
  const double F[2][2] = {{1 + G[0][0], G[0][1]}, {G[1][0], 1 + G[1][1]}};
  const double E[3] = {0.5 * (F[0][0] * F[0][0] + F[1][0] * F[1][0] - 1), 0.5 * (F[0][1] * F[0][1] + F[1][1] * F[1][1] - 1),
                       0.5 * (F[0][0] * F[0][1] + F[1][0] * F[1][1])};
  double S[3];
  svk_plane(m.lambda, m.mu, E, plane_stress, S);
  std::vector<V3> f(9, V3{0, 0, 0});
  for (const auto& e : elems) {
    V3 Xe[4], ue[4], fe[4];
    for (int a = 0; a < 4; ++a) {
      Xe[a] = X[e[a]];
      ue[a] = u[e[a]];
    }
    const SolidEnergy<double> w = K::internal_force(Xe, ue, m, 0.1, fe);
    EXPECT_LE(w.hourglass, 1e-24 * w.strain);  // a linear field does not load the hourglass springs
    double frac[4];
    const double area = K::mass_fractions(Xe, frac);
    // Uniform E: energy = t A W(E).
    const double e33 = plane_stress ? -m.lambda * (E[0] + E[1]) / (m.lambda + 2 * m.mu) : 0.0;
    const double tr = E[0] + E[1] + e33;
    const double W = 0.5 * m.lambda * tr * tr + m.mu * (E[0] * E[0] + E[1] * E[1] + 2 * E[2] * E[2] + e33 * e33);
    EXPECT_NEAR(w.strain, m.thickness * area * W, 1e-12 * m.thickness * area * W);
    const SolidOutput<double> out = K::centroid_output(Xe, ue, m);
    EXPECT_NEAR(out.green(0, 0), E[0], 1e-15);
    EXPECT_NEAR(out.green(1, 1), E[1], 1e-15);
    EXPECT_NEAR(out.green(0, 1), E[2], 1e-15);
    EXPECT_NEAR(out.green(2, 2), e33, 1e-15);
    // Cauchy = F S F^T / J, J = det F2 * F33; S33 = 0 in plane stress.
    const double f33 = std::sqrt(1 + 2 * e33);
    const double J = (F[0][0] * F[1][1] - F[0][1] * F[1][0]) * f33;
    const double s2[2][2] = {{S[0], S[2]}, {S[2], S[1]}};
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 2; ++k) {
        double c = 0;
        for (int p = 0; p < 2; ++p)
          for (int q = 0; q < 2; ++q) c += F[i][p] * s2[p][q] * F[k][q];
        EXPECT_NEAR(out.cauchy(i, k), c / J, 1e-9 * std::fabs(S[0])) << i << k;
      }
    if (plane_stress) {
      EXPECT_NEAR(out.cauchy(2, 2), 0.0, 1e-9 * std::fabs(S[0]));
    }
    for (int a = 0; a < 4; ++a) {
      f[e[a]].x += fe[a].x;
      f[e[a]].y += fe[a].y;
      EXPECT_EQ(fe[a].z, 0.0);
    }
  }
  const double scale = std::fabs(S[0]) * m.thickness;
  EXPECT_NEAR(f[4].x, 0.0, 1e-12 * scale);
  EXPECT_NEAR(f[4].y, 0.0, 1e-12 * scale);
  // The boundary forces are the tractions P n integrated along the edges: on the edge x = 2
  // (nodes 2, 5, 8, length 2) they sum to t * 2 * (P11, P21); the shares of the edges y = 0
  // and y = 2 at nodes 2 and 8 (n = -+e2, equal halves) cancel.
  const double P11 = F[0][0] * S[0] + F[0][1] * S[2], P21 = F[1][0] * S[0] + F[1][1] * S[2];
  double fx = 0, fy = 0;
  for (int n : {2, 5, 8}) {
    fx += f[n].x;
    fy += f[n].y;
  }
  EXPECT_NEAR(fx, m.thickness * 2 * P11, 1e-10 * scale);
  EXPECT_NEAR(fy, m.thickness * 2 * P21, 1e-10 * scale);
}

TYPED_TEST(PlaneQuad, RigidMotionGivesNoForce) {
  using K = TypeParam;
  V3 X[4], u[4], f[4];
  distorted(X);
  const double c = std::cos(1.3), s = std::sin(1.3);
  for (int a = 0; a < 4; ++a)
    u[a] = {c * X[a].x - s * X[a].y + 4.0 - X[a].x, s * X[a].x + c * X[a].y - 2.5 - X[a].y, 0.0};
  for (const SolidMaterial<double>& m : materials()) {
    const SolidEnergy<double> w = K::internal_force(X, u, m, 0.1, f);
    EXPECT_NEAR(w.strain, 0.0, 1e-9 * m.mu + 1e-9);
    for (int a = 0; a < 4; ++a) {
      EXPECT_NEAR(f[a].x, 0.0, 1e-8 * (m.mu + 1e3)) << m.model;
      EXPECT_NEAR(f[a].y, 0.0, 1e-8 * (m.mu + 1e3)) << m.model;
    }
  }
}

TYPED_TEST(PlaneQuad, ForcesAreTheEnergyGradient) {
  using K = TypeParam;
  V3 X[4], u[4], f[4];
  distorted(X);
  const double d[4][2] = {{0.05, -0.02}, {0.11, 0.04}, {0.02, 0.13}, {-0.06, 0.03}};
  for (int a = 0; a < 4; ++a) u[a] = {d[a][0], d[a][1], 0.0};
  for (SolidMaterial<double> m : materials()) {
    m.thickness = 1.3;
    K::internal_force(X, u, m, 0.1, f);
    double fmax = 0;
    for (int a = 0; a < 4; ++a) fmax = std::max({fmax, std::fabs(f[a].x), std::fabs(f[a].y)});
    for (int a = 0; a < 4; ++a)
      for (int c = 0; c < 2; ++c) {
        V3 up[4], um[4], g[4];
        for (int b = 0; b < 4; ++b) up[b] = um[b] = u[b];
        const double h = 1e-6;
        component(up[a], c) += h;
        component(um[a], c) -= h;
        const SolidEnergy<double> ep = K::internal_force(X, up, m, 0.1, g), em = K::internal_force(X, um, m, 0.1, g);
        const double dw = (ep.strain + ep.hourglass - em.strain - em.hourglass) / (2 * h);  // springs' energy too
        EXPECT_NEAR(component(f[a], c), dw, 1e-6 * fmax) << "model " << m.model << " node " << a << " dof " << c;
      }
  }
}

TYPED_TEST(PlaneQuad, ForcesAndEnergyScaleWithTheThickness) {
  using K = TypeParam;
  V3 X[4], u[4], f1[4], f2[4];
  distorted(X);
  for (int a = 0; a < 4; ++a) u[a] = {0.01 * X[a].y, -0.02 * X[a].x, 0.0};
  SolidMaterial<double> m = neo_hookean(80.0, 5e-4, 1e-9);
  const SolidEnergy<double> w1 = K::internal_force(X, u, m, 0.1, f1);
  m.thickness = 2.5;
  const SolidEnergy<double> w2 = K::internal_force(X, u, m, 0.1, f2);
  EXPECT_NEAR(w2.strain, 2.5 * w1.strain, 1e-13 * w2.strain);
  for (int a = 0; a < 4; ++a) EXPECT_NEAR(f2[a].x, 2.5 * f1[a].x, 1e-12 * std::fabs(f2[a].x) + 1e-15);
}

TYPED_TEST(PlaneQuad, StableIncrementBoundsTheHighestFrequency) {
  // omega_max^2 of the free element (lumped masses, stiffness by finite differences of the
  // force about the reference) by power iteration on M^-1 K; the bound must not exceed the
  // true critical increment 2 / omega_max and should not be far below it.
  using K = TypeParam;
  V3 X[4];
  distorted(X);
  for (const SolidMaterial<double>& m : materials()) {
    double frac[4];
    const double area = K::mass_fractions(X, frac);
    double Km[8][8];
    V3 zero[4] = {}, fp[4], fm[4];
    for (int j = 0; j < 8; ++j) {
      V3 up[4], um[4];
      for (int b = 0; b < 4; ++b) up[b] = um[b] = zero[b];
      const double h = 1e-7;
      component(up[j / 2], j % 2) += h;
      component(um[j / 2], j % 2) -= h;
      K::internal_force(X, up, m, 0.1, fp);
      K::internal_force(X, um, m, 0.1, fm);
      for (int i = 0; i < 8; ++i) Km[i][j] = (component(fp[i / 2], i % 2) - component(fm[i / 2], i % 2)) / (2 * h);
    }
    std::vector<double> v(8, 1.0);
    for (int i = 0; i < 8; ++i) v[i] = 1.0 + 0.1 * i * (i % 3 == 0 ? -1 : 1);
    double lambda = 0;
    for (int it = 0; it < 2000; ++it) {
      std::vector<double> w(8, 0.0);
      for (int i = 0; i < 8; ++i) {
        for (int j = 0; j < 8; ++j) w[i] += Km[i][j] * v[j];
        w[i] /= m.density * area * frac[i / 2];
      }
      double n = 0;
      for (double x : w) n += x * x;
      n = std::sqrt(n);
      lambda = n;
      for (int i = 0; i < 8; ++i) v[i] = w[i] / n;
    }
    const double exact = 2.0 / std::sqrt(lambda);
    const double bound = K::stable_dt(X, m);
    EXPECT_LE(bound, exact * (1 + 1e-6)) << m.model;
    EXPECT_GT(bound, 0.3 * exact) << m.model;
  }
}

TYPED_TEST(PlaneQuad, InvertedElementIsRefused) {
  using K = TypeParam;
  V3 X[4];
  distorted(X);
  std::swap(X[1], X[3]);  // clockwise
  double frac[4];
  EXPECT_LE(K::mass_fractions(X, frac), 0.0);
  EXPECT_EQ(K::stable_dt(X, svk_isotropic(210e3, 0.3, 7.8e-9)), 0.0);
  V3 u[4] = {}, f[4];
  EXPECT_TRUE(std::isnan(K::internal_force(X, u, svk_isotropic(210e3, 0.3, 7.8e-9), 0.1, f).strain));
}

template <class K>
class PlaneQuadR : public ::testing::Test {};
using OnePointKinds = ::testing::Types<CPS4R, CPE4R>;
TYPED_TEST_SUITE(PlaneQuadR, OnePointKinds);

TYPED_TEST(PlaneQuadR, HourglassModeIsResistedByTheDocumentedStiffness) {
  // A square of side 2 (off the origin): the hourglass mode u_x = d (1, -1, 1, -1) leaves the
  // centroid F at I (no strain energy), so without springs it has no stiffness at all. With
  // them gamma = h, q = 4 d, k = kappa M t A sum|b|^2 / 4 = kappa mu t (M = 2 mu, A = 4,
  // b_a = (+-1/4, +-1/4), sum|b|^2 = 1/2), so the energy is k/2 (4 d)^2 = 8 kappa mu t d^2
  // (for a square of any size) and the force k gamma_a q.
  using K = TypeParam;
  const double p[4][2] = {{1, 3}, {3, 3}, {3, 5}, {1, 5}};
  V3 X[4], u[4], f[4];
  for (int a = 0; a < 4; ++a) X[a] = {p[a][0], p[a][1], 0.0};
  const double d = 1e-3, h[4] = {1, -1, 1, -1};
  SolidMaterial<double> m = svk_isotropic(210e3, 0.3, 7.8e-9);
  m.thickness = 0.4;
  for (int dir = 0; dir < 2; ++dir) {
    for (int a = 0; a < 4; ++a) u[a] = {dir == 0 ? d * h[a] : 0.0, dir == 1 ? d * h[a] : 0.0, 0.0};
    const double kappa = 0.1, k = kappa * 2 * m.mu * m.thickness * 4 * 0.5 / 4;
    const SolidEnergy<double> w = K::internal_force(X, u, m, kappa, f);
    EXPECT_NEAR(w.strain, 0.0, 1e-25 * m.mu);
    EXPECT_NEAR(w.hourglass, 8 * kappa * m.mu * m.thickness * d * d, 1e-14 * w.hourglass);
    for (int a = 0; a < 4; ++a) {
      EXPECT_NEAR(component(f[a], dir), k * h[a] * 4 * d, 1e-12 * k * d) << a;
      EXPECT_NEAR(component(f[a], 1 - dir), 0.0, 1e-12 * k * d) << a;
    }
    // The fully integrated CPE4 stores (2/3)(lambda + 3 mu) t d^2 in the same mode (u_x = d xi
    // eta, exactly integrated by 2x2 points; small d: the Green strain's quadratic part is
    // 1e-6 of it): with nu = 0.3 the springs carry 0.8 / 3 = 0.267 of that (docs/theory.md).
    if (dir == 0) {
      const double full = CPE4::internal_force(X, u, m, kappa, f).strain;
      EXPECT_NEAR(full, 2.0 / 3.0 * (m.lambda + 3 * m.mu) * m.thickness * d * d, 1e-5 * full);
      EXPECT_NEAR(w.hourglass / full, 0.8 / 3.0, 1e-5);
    }
    // Without springs the mode is free (zero energy, zero force): what the springs resist.
    const SolidEnergy<double> free = K::internal_force(X, u, m, 0.0, f);
    EXPECT_NEAR(free.strain + free.hourglass, 0.0, 1e-25 * m.mu);
    for (int a = 0; a < 4; ++a) EXPECT_NEAR(component(f[a], dir), 0.0, 1e-12 * k * d);
  }
}

TYPED_TEST(PlaneQuadR, HourglassSpringsAreOrthogonalToLinearFieldsOnADistortedElement) {
  // On a distorted element the springs' energy is k/2 |q|^2 with q = sum gamma_a u_a, gamma
  // orthogonal to 1, x and y: adding a linear field to the hourglass mode changes neither q
  // nor the hourglass energy.
  using K = TypeParam;
  V3 X[4], u[4], v[4], f[4];
  distorted(X);
  const SolidMaterial<double> m = svk_isotropic(210e3, 0.3, 7.8e-9);
  const double h[4] = {1, -1, 1, -1};
  for (int a = 0; a < 4; ++a) {
    u[a] = {1e-4 * h[a], -2e-4 * h[a], 0.0};
    v[a] = {u[a].x + 0.3 + 0.01 * X[a].x - 0.02 * X[a].y, u[a].y - 0.1 + 0.015 * X[a].x + 0.005 * X[a].y, 0.0};
  }
  const double e1 = K::internal_force(X, u, m, 0.1, f).hourglass, e2 = K::internal_force(X, v, m, 0.1, f).hourglass;
  EXPECT_GT(e1, 0.0);
  EXPECT_NEAR(e2, e1, 1e-10 * e1);
}

TEST(PlaneQuadR, OnePointForceEqualsTheFullyIntegratedOneForAUniformStress) {
  // A linear field gives a uniform stress, which the 2x2 element integrates exactly: the
  // one-point kinds' forces t A P b_a must equal CPS4's / CPE4's on a distorted element.
  V3 X[4], u[4], f1[4], f4[4];
  distorted(X);
  for (int a = 0; a < 4; ++a) u[a] = {0.01 * X[a].x + 0.004 * X[a].y, -0.006 * X[a].x + 0.02 * X[a].y, 0.0};
  for (const SolidMaterial<double>& m : materials()) {
    CPS4R::internal_force(X, u, m, 0.1, f1);
    CPS4::internal_force(X, u, m, 0.1, f4);
    for (int a = 0; a < 4; ++a) {
      EXPECT_NEAR(f1[a].x, f4[a].x, 1e-10 * (std::fabs(f4[a].x) + 1)) << m.model;
      EXPECT_NEAR(f1[a].y, f4[a].y, 1e-10 * (std::fabs(f4[a].y) + 1)) << m.model;
    }
    CPE4R::internal_force(X, u, m, 0.1, f1);
    CPE4::internal_force(X, u, m, 0.1, f4);
    for (int a = 0; a < 4; ++a) {
      EXPECT_NEAR(f1[a].x, f4[a].x, 1e-10 * (std::fabs(f4[a].x) + 1)) << m.model;
      EXPECT_NEAR(f1[a].y, f4[a].y, 1e-10 * (std::fabs(f4[a].y) + 1)) << m.model;
    }
  }
}

TEST(PlaneQuadR, NonConvexElementWithPositiveAreaIsRefused) {
  // A dart: positive shoelace area, but node 3 pushed inside makes detJ negative at a corner.
  const double p[4][2] = {{0, 0}, {2, 0}, {0.4, 0.4}, {0, 2}};
  V3 X[4];
  for (int a = 0; a < 4; ++a) X[a] = {p[a][0], p[a][1], 0.0};
  EXPECT_GT(shoelace(X), 0.0);
  double frac[4];
  EXPECT_EQ(CPS4R::mass_fractions(X, frac), 0.0);
  EXPECT_EQ(CPE4R::stable_dt(X, svk_isotropic(210e3, 0.3, 7.8e-9)), 0.0);
}

}  // namespace
}  // namespace halfstep
