// The 8-node quadrilaterals CPS8, CPS8R, CPE8, CPE8R, CAX8, CAX8R: registry facts, area and
// ring volume (Pappus) of a curved element, the patch test against closed-form St. Venant-
// Kirchhoff stresses at every point (planar: a linear field; axisymmetric: u_r = c r,
// u_z = d z + e), rigid motions, forces as the energy gradient, the reduced kinds' spurious
// modes, the stable increment against the element's true highest frequency, invalid
// references, and the pressure on a quadratic edge and ring edge.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "elements/plane_quad8.hpp"
#include "elements/registry.hpp"
#include "elements/solid_faces.hpp"

namespace halfstep {
namespace {

using V3 = Vec3<double>;
constexpr double kPi = 3.141592653589793;

/// A distorted convex quadrilateral (counter-clockwise, off the axis) with its mid-side nodes
/// moved off the chords by bow (times the chord length, outward on edges 1 and 2, inward on
/// 3 and 4): curved sides, a general isoparametric map.
void distorted(V3 X[8], double bow = 0.04) {
  const double p[4][2] = {{0.3, -0.2}, {2.4, 0.1}, {2.1, 2.3}, {-0.1, 1.9}};
  for (int a = 0; a < 4; ++a) X[a] = {p[a][0] + 0.5, p[a][1], 0.0};
  for (int e = 0; e < 4; ++e) {
    const V3 A = X[e], B = X[(e + 1) % 4];
    const V3 n{B.y - A.y, A.x - B.x, 0.0};  // outward for a counter-clockwise element
    X[4 + e] = 0.5 * (A + B) + (e < 2 ? bow : -bow) * n;
  }
}

/// Area and first moment int x dA of X's isoparametric map by a 6 x 6 Gauss rule (exact for
/// the map's polynomial Jacobian).
void area_moments(const V3 X[8], double& area, double& first_x) {
  const double g[6] = {-0.9324695142031521, -0.6612093864662645, -0.2386191860831969,
                       0.2386191860831969,  0.6612093864662645,  0.9324695142031521};
  const double w[6] = {0.1713244923791704, 0.3607615730481386, 0.4679139345726910,
                       0.4679139345726910, 0.3607615730481386, 0.1713244923791704};
  area = first_x = 0;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) {
      double dxi[8], deta[8], N[8];
      plane_detail::quad8_natural(g[i], g[j], dxi, deta, N);
      double j00 = 0, j01 = 0, j10 = 0, j11 = 0, x = 0;
      for (int a = 0; a < 8; ++a) {
        j00 += X[a].x * dxi[a];
        j01 += X[a].x * deta[a];
        j10 += X[a].y * dxi[a];
        j11 += X[a].y * deta[a];
        x += N[a] * X[a].x;
      }
      const double dA = w[i] * w[j] * (j00 * j11 - j01 * j10);
      area += dA;
      first_x += dA * x;
    }
}

std::vector<SolidMaterial<double>> materials() {
  const double eng[9] = {150e3, 10e3, 12e3, 0.3, 0.25, 0.4, 5e3, 6e3, 3.5e3};
  const double c = std::cos(0.4), s = std::sin(0.4);
  const Mat3<double> in_plane{{c, s, 0, -s, c, 0, 0, 0, 1}};
  return {svk_isotropic(210e3, 0.3, 7.8e-9), orthotropic_engineering(eng, 1.6e-9, in_plane),
          neo_hookean(80.0, 5e-4, 1e-9)};
}

double& component(V3& v, int c) { return c == 0 ? v.x : v.y; }

template <class K>
class Quad8Kinds : public ::testing::Test {};
using Kinds = ::testing::Types<CPS8, CPS8R, CPE8, CPE8R, CAX8, CAX8R>;
TYPED_TEST_SUITE(Quad8Kinds, Kinds);

TYPED_TEST(Quad8Kinds, IsRegisteredAsAStaticPlanarContinuumKind) {
  using K = TypeParam;
  const int id = find_element_kind(K::name());
  ASSERT_GE(id, 0);
  const ElementKindInfo& k = element_kind(id);
  EXPECT_EQ(k.dimension, 2);
  EXPECT_EQ(k.dofs_per_node, 2);
  EXPECT_EQ(k.nodes, 8);
  EXPECT_EQ(k.vtk_cell, 23);
  EXPECT_EQ(k.points, K::kPoints);
  EXPECT_EQ(k.family, ElementFamily::Continuum);
  EXPECT_FALSE(k.explicit_dynamics);
  EXPECT_EQ(k.axisymmetric, K::kAxisymmetric);
  bool visited = false;
  EXPECT_TRUE(visit_continuum_kind(id, [&](auto kind) { visited = std::is_same_v<decltype(kind), K>; }));
  EXPECT_TRUE(visited);
  EXPECT_EQ(element_face_count(8, 2), 4);
}

TYPED_TEST(Quad8Kinds, AreaOrRingVolumeOfACurvedElement) {
  using K = TypeParam;
  V3 X[8];
  distorted(X);
  double area, first_x, frac[8];
  area_moments(X, area, first_x);
  const double v = K::mass_fractions(X, frac);
  // The 3 x 3 rule is exact for the area (and, axisymmetric, for 2 pi int r dA) only when the
  // Jacobian is of low enough degree: these curved sides give a few 1e-5 at most.
  EXPECT_NEAR(v, K::kAxisymmetric ? 2 * kPi * first_x : area, 1e-4 * v);
  double sum = 0;
  for (double f : frac) {
    EXPECT_GT(f, 0.0);
    sum += f;
  }
  EXPECT_NEAR(sum, 1.0, 1e-14);
  // Straight sides with mid-side nodes at the midpoints: exact (the shoelace area, Pappus).
  distorted(X, 0.0);
  area_moments(X, area, first_x);
  EXPECT_NEAR(K::mass_fractions(X, frac), K::kAxisymmetric ? 2 * kPi * first_x : area, 1e-13 * v);
}

/// Closed-form S (S11, S22, S33, S12) of isotropic SVK for Green strain (E11, E22, E12) and
/// E33 (plane stress: E33 from S33 = 0, returned in e33).
void svk_point(double lambda, double mu, const double E[3], int mode, double& e33, double S[4]) {
  if (mode == plane_detail::kQuad8PlaneStress) e33 = -lambda * (E[0] + E[1]) / (lambda + 2 * mu);
  const double tr = E[0] + E[1] + e33;
  S[0] = lambda * tr + 2 * mu * E[0];
  S[1] = lambda * tr + 2 * mu * E[1];
  S[2] = lambda * tr + 2 * mu * e33;
  S[3] = 2 * mu * E[2];
}

/// The patch test body (see PatchOfCurvedElementsReproducesUniformStrain): distort moves the
/// interior nodes; tolerance bounds the interior forces relative to the element forces.
template <class K>
void patch(bool distort, double tolerance) {
  const int mode = K::kAxisymmetric ? 2 : (K::kPlaneStress ? 0 : 1);
  std::vector<V3> X;
  for (int j = 0; j < 5; ++j)
    for (int i = 0; i < 5; ++i) X.push_back({0.4 + 0.5 * i, 0.5 * j, 0.0});
  if (distort) {
    X[12] = {1.47, 0.93, 0.0};  // the interior corner
    X[7] = {1.41, 0.52, 0.0};   // mid-sides next to it (curved sides inside the patch)
    X[11] = {0.87, 1.04, 0.0};
  }
  const auto at = [](int i, int j) { return i + 5 * j; };
  std::vector<std::array<int, 8>> elems;
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 2; ++i) {
      const int I = 2 * i, J = 2 * j;
      elems.push_back({at(I, J), at(I + 2, J), at(I + 2, J + 2), at(I, J + 2), at(I + 1, J), at(I + 2, J + 1),
                       at(I + 1, J + 2), at(I, J + 1)});
    }
  const double G[2][2] = {{0.012, K::kAxisymmetric ? 0.0 : -0.007}, {K::kAxisymmetric ? 0.0 : 0.004, -0.009}};
  std::vector<V3> u;
  for (const V3& p : X) u.push_back({G[0][0] * p.x + G[0][1] * p.y, G[1][0] * p.x + G[1][1] * p.y + 0.003, 0.0});
  SolidMaterial<double> m = svk_isotropic(210e3, 0.3, 7.8e-9);
  m.thickness = 0.7;
  const double F[2][2] = {{1 + G[0][0], G[0][1]}, {G[1][0], 1 + G[1][1]}};
  const double E[3] = {0.5 * (F[0][0] * F[0][0] + F[1][0] * F[1][0] - 1), 0.5 * (F[0][1] * F[0][1] + F[1][1] * F[1][1] - 1),
                       0.5 * (F[0][0] * F[0][1] + F[1][0] * F[1][1])};
  double e33 = mode == 2 ? 0.5 * ((1 + G[0][0]) * (1 + G[0][0]) - 1) : 0.0, S[4];
  svk_point(m.lambda, m.mu, E, mode, e33, S);
  std::vector<V3> f(X.size(), V3{0, 0, 0});
  for (const auto& e : elems) {
    V3 Xe[8], ue[8], fe[8];
    for (int a = 0; a < 8; ++a) {
      Xe[a] = X[e[a]];
      ue[a] = u[e[a]];
    }
    const SolidEnergy<double> w = K::internal_force(Xe, ue, m, 0.1, fe);
    double frac[8];
    const double vol = K::mass_fractions(Xe, frac) * (K::kAxisymmetric ? 1.0 : m.thickness);
    const double tr = E[0] + E[1] + e33;
    const double W = 0.5 * m.lambda * tr * tr + m.mu * (E[0] * E[0] + E[1] * E[1] + 2 * E[2] * E[2] + e33 * e33);
    // The energy sums the kind's own points, the volume the 3 x 3 rule's: both exact here up to
    // the curved sides' Jacobian (see AreaOrRingVolumeOfACurvedElement).
    EXPECT_NEAR(w.strain, vol * W, std::max(1e-4, tolerance) * vol * W);
    SolidOutput<double> pts[K::kPoints];
    K::point_outputs(Xe, ue, m, {}, pts);
    for (const SolidOutput<double>& out : pts) {
      EXPECT_NEAR(out.green(0, 0), E[0], 1e-15);
      EXPECT_NEAR(out.green(1, 1), E[1], 1e-15);
      EXPECT_NEAR(out.green(0, 1), E[2], 1e-15);
      EXPECT_NEAR(out.green(2, 2), e33, 1e-15);
      const double f33 = std::sqrt(1 + 2 * e33);
      const double J = (F[0][0] * F[1][1] - F[0][1] * F[1][0]) * f33;
      const double s2[2][2] = {{S[0], S[3]}, {S[3], S[1]}};
      for (int i = 0; i < 2; ++i)
        for (int k = 0; k < 2; ++k) {
          double c = 0;
          for (int p = 0; p < 2; ++p)
            for (int q = 0; q < 2; ++q) c += F[i][p] * s2[p][q] * F[k][q];
          EXPECT_NEAR(out.cauchy(i, k), c / J, 1e-9 * std::fabs(S[0])) << i << k;
        }
      EXPECT_NEAR(out.cauchy(2, 2), f33 * f33 * S[2] / J, 1e-9 * std::fabs(S[0]));
    }
    for (int a = 0; a < 8; ++a) {
      f[e[a]].x += fe[a].x;
      f[e[a]].y += fe[a].y;
      EXPECT_EQ(fe[a].z, 0.0);
    }
  }
  const double scale = std::fabs(S[0]) * (K::kAxisymmetric ? 2 * kPi * 2.4 : m.thickness);
  for (int n : {at(1, 2), at(2, 2), at(3, 2), at(2, 1), at(2, 3)}) {  // interior nodes
    EXPECT_NEAR(f[n].x, 0.0, tolerance * scale) << K::name() << " node " << n << (distort ? " distorted" : "");
    EXPECT_NEAR(f[n].y, 0.0, tolerance * scale) << K::name() << " node " << n << (distort ? " distorted" : "");
  }
}

TYPED_TEST(Quad8Kinds, PatchOfCurvedElementsReproducesUniformStrain) {
  // 2 x 2 elements on a 5 x 5 lattice (corners and mid-sides) whose interior corner node and
  // two mid-side nodes are moved; a field of uniform strain (planar: linear of finite size;
  // axisymmetric: u_r = c r, u_z = d z + e, hoop stretch 1 + c). Every point carries the
  // closed-form stress, and the forces at the interior nodes cancel. CAX8R's 2 x 2 rule does
  // not integrate the ring weight 2 pi R times the gradients exactly on distorted elements:
  // its interior forces cancel on rectangles only (measured 3.4e-4 of the element forces on
  // this patch); every other kind's rule is exact here.
  using K = TypeParam;
  for (const bool distort : {true, false}) {
    if (!distort && !(K::kAxisymmetric && K::kPoints == 4)) continue;
    patch<K>(distort, K::kAxisymmetric && K::kPoints == 4 && distort ? 1e-3 : 1e-12);
  }
}

TYPED_TEST(Quad8Kinds, RigidMotionGivesNoForce) {
  using K = TypeParam;
  V3 X[8], u[8], f[8];
  distorted(X);
  const double c = std::cos(1.3), s = std::sin(1.3);
  for (int a = 0; a < 8; ++a)
    u[a] = K::kAxisymmetric ? V3{0.0, -2.5, 0.0}  // the one rigid motion of a ring: along the axis
                            : V3{c * X[a].x - s * X[a].y + 4.0 - X[a].x, s * X[a].x + c * X[a].y - 2.5 - X[a].y, 0.0};
  for (const SolidMaterial<double>& m : materials()) {
    const SolidEnergy<double> w = K::internal_force(X, u, m, 0.1, f);
    EXPECT_NEAR(w.strain, 0.0, 1e-9 * m.mu + 1e-9);
    for (int a = 0; a < 8; ++a) {
      EXPECT_NEAR(f[a].x, 0.0, 1e-8 * (m.mu + 1e3)) << m.model;
      EXPECT_NEAR(f[a].y, 0.0, 1e-8 * (m.mu + 1e3)) << m.model;
    }
  }
}

TYPED_TEST(Quad8Kinds, ForcesAreTheEnergyGradient) {
  using K = TypeParam;
  V3 X[8], u[8], f[8];
  distorted(X);
  for (int a = 0; a < 8; ++a) u[a] = {0.03 * std::sin(1.7 * a), 0.04 * std::cos(2.3 * a), 0.0};
  for (SolidMaterial<double> m : materials()) {
    m.thickness = 1.3;
    K::internal_force(X, u, m, 0.1, f);
    double fmax = 0;
    for (int a = 0; a < 8; ++a) fmax = std::max({fmax, std::fabs(f[a].x), std::fabs(f[a].y)});
    for (int a = 0; a < 8; ++a)
      for (int c = 0; c < 2; ++c) {
        V3 up[8], um[8], g[8];
        for (int b = 0; b < 8; ++b) up[b] = um[b] = u[b];
        const double h = 1e-6;
        component(up[a], c) += h;
        component(um[a], c) -= h;
        const SolidEnergy<double> ep = K::internal_force(X, up, m, 0.1, g), em = K::internal_force(X, um, m, 0.1, g);
        EXPECT_NEAR(component(f[a], c), (ep.strain - em.strain) / (2 * h), 1e-6 * fmax)
            << "model " << m.model << " node " << a << " dof " << c;
      }
  }
}

/// Stiffness of K about the reference by central differences of the forces (16 x 16).
template <class K>
std::vector<double> stiffness(const V3 X[8], const SolidMaterial<double>& m) {
  std::vector<double> Km(256);
  for (int j = 0; j < 16; ++j) {
    V3 up[8] = {}, um[8] = {}, fp[8], fm[8];
    const double h = 1e-7;
    component(up[j / 2], j % 2) += h;
    component(um[j / 2], j % 2) -= h;
    K::internal_force(X, up, m, 0.1, fp);
    K::internal_force(X, um, m, 0.1, fm);
    for (int i = 0; i < 16; ++i) Km[16 * i + j] = (component(fp[i / 2], i % 2) - component(fm[i / 2], i % 2)) / (2 * h);
  }
  return Km;
}

/// Number of eigenvalues of the symmetric n x n matrix A below tol times its largest (Jacobi).
int small_eigenvalues(std::vector<double> A, int n, double tol) {
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0;
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) off += A[n * p + q] * A[n * p + q];
    if (off < 1e-30) break;
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) {
        if (std::fabs(A[n * p + q]) < 1e-300) continue;
        const double theta = 0.5 * (A[n * q + q] - A[n * p + p]) / A[n * p + q];
        const double t = (theta >= 0 ? 1 : -1) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < n; ++k) {
          const double akp = A[n * k + p], akq = A[n * k + q];
          A[n * k + p] = c * akp - s * akq;
          A[n * k + q] = s * akp + c * akq;
        }
        for (int k = 0; k < n; ++k) {
          const double apk = A[n * p + k], aqk = A[n * q + k];
          A[n * p + k] = c * apk - s * aqk;
          A[n * q + k] = s * apk + c * aqk;
        }
      }
  }
  double top = 0;
  for (int i = 0; i < n; ++i) top = std::max(top, std::fabs(A[n * i + i]));
  int count = 0;
  for (int i = 0; i < n; ++i) count += std::fabs(A[n * i + i]) < tol * top;
  return count;
}

TYPED_TEST(Quad8Kinds, ZeroEnergyModesAreTheRigidOnesAndTheReducedRulesSpuriousOne) {
  // Planar: 3 rigid modes; axisymmetric: 1 (translation along the axis). The 2 x 2 rule
  // leaves one spurious mode on a single element (planar: 16 dofs, 3 rigid, 4 points x 3
  // strains), as Abaqus's CPS8R; the axisymmetric element's hoop strain does not close it.
  using K = TypeParam;
  V3 X[8];
  distorted(X, 0.0);
  const int rigid = K::kAxisymmetric ? 1 : 3;
  const int spurious = K::kPoints == 4 ? 1 : 0;
  EXPECT_EQ(small_eigenvalues(stiffness<K>(X, svk_isotropic(210e3, 0.3, 7.8e-9)), 16, 1e-8), rigid + spurious);
}

TYPED_TEST(Quad8Kinds, StableIncrementBoundsTheHighestFrequency) {
  // omega_max^2 of the free element with its lumped masses by power iteration on M^-1 K: the
  // bound must not exceed the true 2 / omega_max (the summary's figure; static steps only).
  using K = TypeParam;
  V3 X[8];
  distorted(X);
  for (const SolidMaterial<double>& m : materials()) {
    double frac[8];
    const double vol = K::mass_fractions(X, frac);
    const std::vector<double> Km = stiffness<K>(X, m);
    std::vector<double> v(16);
    for (int i = 0; i < 16; ++i) v[i] = 1.0 + 0.1 * i * (i % 3 == 0 ? -1 : 1);
    double lambda = 0;
    for (int it = 0; it < 5000; ++it) {
      std::vector<double> w(16, 0.0);
      for (int i = 0; i < 16; ++i) {
        for (int j = 0; j < 16; ++j) w[i] += Km[16 * i + j] * v[j];
        w[i] /= m.density * vol * frac[i / 2] * (K::kAxisymmetric ? 1.0 : m.thickness);
      }
      double n = 0;
      for (double x : w) n += x * x;
      lambda = std::sqrt(n);
      for (int i = 0; i < 16; ++i) v[i] = w[i] / lambda;
    }
    const double exact = 2.0 / std::sqrt(lambda), bound = K::stable_dt(X, m);
    std::printf("%s material %d: stable_dt / (2/omega_max) = %.4f\n", K::name(), m.model, bound / exact);
    EXPECT_GT(bound, 0.0);
    EXPECT_LE(bound, exact * (1 + 1e-6));
    EXPECT_GT(bound, 0.1 * exact);
  }
}

TYPED_TEST(Quad8Kinds, InvertedOrNegativeRadiusElementsAreRefused) {
  using K = TypeParam;
  V3 X[8], u[8] = {}, f[8];
  distorted(X);
  std::swap(X[1], X[3]);  // clockwise
  double frac[8];
  EXPECT_EQ(K::mass_fractions(X, frac), 0.0);
  EXPECT_TRUE(std::isnan(K::internal_force(X, u, svk_isotropic(210e3, 0.3, 7.8e-9), 0.1, f).strain));
  EXPECT_EQ(K::stable_dt(X, svk_isotropic(210e3, 0.3, 7.8e-9)), 0.0);
  if (K::kAxisymmetric) {
    distorted(X);
    for (V3& x : X) x.x -= 1.0;  // the first corner at r = -0.2
    EXPECT_EQ(K::mass_fractions(X, frac), 0.0);
  }
}

TEST(Quad8Edges, EdgesAreCornersThenTheMidSideNode) {
  int out[kFaceMaxNodes];
  const int expect[4][3] = {{0, 1, 4}, {1, 2, 5}, {2, 3, 6}, {3, 0, 7}};
  for (int k = 1; k <= 4; ++k) {
    EXPECT_EQ(element_face(8, 2, false, k, out), kFaceEdge3);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(out[i], expect[k - 1][i]);
    EXPECT_EQ(out[3], -1);
    EXPECT_EQ(element_face(8, 2, true, k, out), kFaceRingEdge3);
  }
  EXPECT_EQ(face_corners(kFaceEdge3), 2);
  EXPECT_EQ(face_corners(kFaceRingEdge3), 2);
}

TEST(Quad8Edges, PressureOnAQuadraticEdgeSharesOneSixthTwoThirdsOneSixth) {
  // Straight edge (0,0) -> (3,4), length 5: a pressure p pushes against the right-hand normal
  // (0.8, -0.6) with total p L, in shares 1/6, 1/6, 2/3 (Simpson's weights of N_a).
  V3 x[kFaceMaxNodes] = {};
  x[0] = {0, 0, 0};
  x[1] = {3, 4, 0};
  x[2] = {1.5, 2, 0};
  V3 f[kFaceMaxNodes];
  face_pressure_force(kFaceEdge3, x, 2.0, f);
  const double share[3] = {1.0 / 6, 1.0 / 6, 2.0 / 3};
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(f[a].x, -2.0 * 5 * share[a] * 0.8, 1e-13);
    EXPECT_NEAR(f[a].y, 2.0 * 5 * share[a] * 0.6, 1e-13);
  }
  // A curved edge (a parabola through the three nodes): the total is p times the chord's
  // normal vector, whatever the shape (a closed pressure integral).
  x[2] = {2.5, 1.0, 0};
  face_pressure_force(kFaceEdge3, x, 2.0, f);
  EXPECT_NEAR(f[0].x + f[1].x + f[2].x, -2.0 * 4, 1e-12);
  EXPECT_NEAR(f[0].y + f[1].y + f[2].y, 2.0 * 3, 1e-12);
}

TEST(Quad8Edges, RingPressureTotalsTheRing) {
  // An axial edge at r = 0.3 from z = 1 down to 0 (its right-hand normal points to -r, so a
  // pressure pushes to +r): total p 2 pi r L along r, shared as on a plane edge times 2 pi r.
  // A radial edge from r = 0.4 in to 0.1 at z = 0 (normal +z): total -p pi (0.4^2 - 0.1^2).
  V3 x[kFaceMaxNodes] = {}, f[kFaceMaxNodes];
  x[0] = {0.3, 1.0, 0};
  x[1] = {0.3, 0.0, 0};
  x[2] = {0.3, 0.5, 0};
  face_pressure_force(kFaceRingEdge3, x, 1e6, f);
  EXPECT_NEAR(f[0].x + f[1].x + f[2].x, 1e6 * 2 * kPi * 0.3 * 1.0, 1e-6);
  EXPECT_NEAR(f[0].y + f[1].y + f[2].y, 0.0, 1e-6);
  EXPECT_NEAR(f[0].x, f[1].x, 1e-6);
  EXPECT_NEAR(f[2].x, 4 * f[0].x, 1e-6);
  x[0] = {0.4, 0.0, 0};
  x[1] = {0.1, 0.0, 0};
  x[2] = {0.25, 0.0, 0};
  face_pressure_force(kFaceRingEdge3, x, 1e6, f);
  EXPECT_NEAR(f[0].y + f[1].y + f[2].y, -1e6 * kPi * (0.4 * 0.4 - 0.1 * 0.1), 1e-6);
  EXPECT_NEAR(f[0].x + f[1].x + f[2].x, 0.0, 1e-6);
}

}  // namespace
}  // namespace halfstep
