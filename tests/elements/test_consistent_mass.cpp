// The quadratic solids' consistent masses (elements/consistent_mass.hpp): the 10-node
// tetrahedron's against its closed form (rho V / 420 times 6 on a corner, 1 between corners,
// -4 from a corner to a mid-edge node on its edges, -6 to one off them, 32 on a mid-edge node,
// 16 between mid-edge nodes sharing a corner, 8 between opposite ones); both kinds' sums equal
// rho V on a distorted element (a rigid translation's kinetic energy), symmetric, and
// positive definite (every Cholesky pivot positive); CAX8's and CAX8R's ring masses sum to rho
// times the ring's volume; the trilinear hexahedron's (C3D8 FORMULATION=FULL) on a box is the
// tensor product of the bar's L/6 [2 1; 1 2]; the peer's C3D20R mass (2 x 2 x 2 points) has rank 8.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "elements/consistent_mass.hpp"

namespace halfstep {
namespace {

/// True when the n x n matrix M is symmetric positive definite (Cholesky without a pivot <= 0).
bool positive_definite(int n, const double* M) {
  std::vector<double> L(static_cast<std::size_t>(n * n), 0.0);
  for (int j = 0; j < n; ++j) {
    double d = M[j * n + j];
    for (int k = 0; k < j; ++k) d -= L[j * n + k] * L[j * n + k];
    if (!(d > 0)) return false;
    L[j * n + j] = std::sqrt(d);
    for (int i = j + 1; i < n; ++i) {
      double s = M[i * n + j];
      for (int k = 0; k < j; ++k) s -= L[i * n + k] * L[j * n + k];
      L[i * n + j] = s / L[j * n + j];
    }
  }
  return true;
}

/// Checks the n x n mass M of an element of volume vol: symmetric, summing to rho vol (a rigid
/// translation's kinetic energy), positive definite.
void expect_mass_of(int n, const double* M, double rho, double vol) {
  double sum = 0;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      sum += M[a * n + b];
      EXPECT_NEAR(M[a * n + b], M[b * n + a], 1e-14 * rho * vol);
    }
  EXPECT_NEAR(sum, rho * vol, 1e-12 * rho * vol);
  EXPECT_TRUE(positive_definite(n, M));
}

TEST(ConsistentMass, Hex8IsTheBarsTensorProductOnABox) {
  const double a = 2, b = 3, c = 0.5, rho = 7.5;
  Vec3<double> X[8];
  for (int n = 0; n < 8; ++n) X[n] = {a * (hex8_sign(n, 0) + 1) / 2, b * (hex8_sign(n, 1) + 1) / 2, c * (hex8_sign(n, 2) + 1) / 2};
  double M[64];
  ASSERT_NEAR(ConsistentMass<C3D8Full>::matrix(X, rho, M), a * b * c, 1e-13 * a * b * c);
  for (int p = 0; p < 8; ++p)
    for (int q = 0; q < 8; ++q) {
      double expect = rho * a * b * c;
      for (int d = 0; d < 3; ++d) expect *= hex8_sign(p, d) == hex8_sign(q, d) ? 1.0 / 3.0 : 1.0 / 6.0;
      EXPECT_NEAR(M[8 * p + q], expect, 1e-13 * rho * a * b * c) << p << " " << q;
    }
  // A distorted element: the sum, symmetry, positive definiteness.
  X[6] = {X[6].x + 0.3, X[6].y - 0.2, X[6].z + 0.1};
  const double vol = ConsistentMass<C3D8Full>::matrix(X, rho, M);
  expect_mass_of(8, M, rho, vol);
}

TEST(ConsistentMass, Tet10MatchesItsClosedForm) {
  const Vec3<double> X[10] = {{0, 0, 0},     {2, 0, 0},   {0, 3, 0},     {0, 0, 4},     {1, 0, 0},
                              {1, 1.5, 0},   {0, 1.5, 0}, {0, 0, 2},     {1, 0, 2},     {0, 1.5, 2}};
  const double rho = 7.5, V = 2.0 * 3.0 * 4.0 / 6.0;
  double M[100];
  ASSERT_NEAR(ConsistentMass<C3D10>::matrix(X, rho, M), V, 1e-13 * V);
  const double u = rho * V / 420;
  // Mid-edge node 4 + e joins corners tet10_edge_node(e, 0) and (e, 1).
  const auto on_edge = [](int corner, int e) {
    return solid_detail::tet10_edge_node(e, 0) == corner || solid_detail::tet10_edge_node(e, 1) == corner;
  };
  for (int a = 0; a < 10; ++a)
    for (int b = 0; b < 10; ++b) {
      double want;
      if (a < 4 && b < 4) {
        want = a == b ? 6 : 1;
      } else if (a >= 4 && b >= 4) {
        bool share = false;
        for (int c = 0; c < 4; ++c) share = share || (on_edge(c, a - 4) && on_edge(c, b - 4));
        want = a == b ? 32 : share ? 16 : 8;
      } else {
        const int corner = a < 4 ? a : b, mid = a < 4 ? b : a;
        want = on_edge(corner, mid - 4) ? -4 : -6;
      }
      EXPECT_NEAR(M[a * 10 + b], want * u, 1e-12 * rho * V) << a << ", " << b;
    }
}

TEST(ConsistentMass, SumsToTheMassAndIsPositiveDefiniteOnDistortedElements) {
  const double rho = 2.5;
  // A hexahedron with curved (displaced mid-edge) and skewed corners.
  const Vec3<double> c[8] = {{0, 0, 0}, {2, 0.1, 0}, {2.2, 1.5, 0.1}, {-0.1, 1.4, 0},
                             {0.1, 0, 1.2}, {2, 0.2, 1.1}, {2.1, 1.6, 1.3}, {0, 1.5, 1}};
  const int edges[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6}, {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  Vec3<double> X[20];
  for (int a = 0; a < 8; ++a) X[a] = c[a];
  for (int e = 0; e < 12; ++e) X[8 + e] = 0.5 * (c[edges[e][0]] + c[edges[e][1]]) + Vec3<double>{0.02 * e, -0.01 * e, 0.015};
  for (const bool reduced : {false, true}) {
    double M[400];
    const double vol = reduced ? ConsistentMass<C3D20R>::matrix(X, rho, M) : ConsistentMass<C3D20>::matrix(X, rho, M);
    ASSERT_GT(vol, 0.0);
    double frac[20];
    EXPECT_NEAR(C3D20::mass_fractions(X, frac), vol, 1e-12 * vol);  // the lumped mass's volume
    expect_mass_of(20, M, rho, vol);
  }
  // The peer's C3D20R (FORMULATION=REDUCED MASS): its own 2 x 2 x 2 points, the same total mass,
  // symmetric, positive semi-definite of rank 8 (an element's 20 nodes, 8 points); in implicit
  // dynamic steps the full rule's matrix.
  {
    double M[400], F[400];
    const double vol = ConsistentMass<C3D20RReducedMass>::matrix(X, rho, M);
    ASSERT_GT(vol, 0.0);
    double sum = 0;
    for (int k = 0; k < 400; ++k) sum += M[k];
    EXPECT_NEAR(sum, rho * vol, 1e-12 * rho * vol);
    EXPECT_FALSE(positive_definite(20, M));
    // Rank 8: Cholesky of M + eps I has exactly 12 pivots of order eps.
    const double eps = 1e-9 * rho * vol;
    for (int a = 0; a < 20; ++a) M[a * 21] += eps;
    std::vector<double> L(400, 0.0);
    int tiny = 0;
    for (int j = 0; j < 20; ++j) {
      double d = M[j * 20 + j];
      for (int k = 0; k < j; ++k) d -= L[j * 20 + k] * L[j * 20 + k];
      ASSERT_GT(d, 0.0);
      if (d < 100 * eps) ++tiny;
      L[j * 20 + j] = std::sqrt(d);
      for (int i = j + 1; i < 20; ++i) {
        double t = M[i * 20 + j];
        for (int k = 0; k < j; ++k) t -= L[i * 20 + k] * L[j * 20 + k];
        L[i * 20 + j] = t / L[j * 20 + j];
      }
    }
    EXPECT_EQ(tiny, 12);
    ConsistentMass<C3D20RReducedMass>::transient_matrix(X, rho, M);
    ConsistentMass<C3D20R>::matrix(X, rho, F);
    for (int k = 0; k < 400; ++k) EXPECT_EQ(M[k], F[k]);
  }
  Vec3<double> T[10] = {{0, 0, 0}, {1.5, 0.2, 0}, {0.3, 1.2, 0.1}, {0.2, 0.1, 1.1}};
  for (int e = 0; e < 6; ++e)
    T[4 + e] = 0.5 * (T[solid_detail::tet10_edge_node(e, 0)] + T[solid_detail::tet10_edge_node(e, 1)]) +
               Vec3<double>{0.01 * e, 0.02, -0.01 * e};
  double M[100];
  const double vol = ConsistentMass<C3D10>::matrix(T, rho, M);
  ASSERT_GT(vol, 0.0);
  expect_mass_of(10, M, rho, vol);
}

// CAX8 and CAX8R: the ring's consistent mass sums to rho times the ring's volume (its lumped
// mass's), is symmetric and positive definite; on a rectangle r in [a, b], z in [0, h] the ring
// volume is pi (b^2 - a^2) h, which the 3 x 3 rule integrates exactly (2 pi R is linear).
TEST(ConsistentMass, AxisymmetricRingSumsToItsMass) {
  const double rho = 3.0, a = 0.5, b = 1.25, h = 0.4;
  const double rs[8] = {a, b, b, a, 0.5 * (a + b), b, 0.5 * (a + b), a};
  const double zs[8] = {0, 0, h, h, 0, 0.5 * h, h, 0.5 * h};
  Vec3<double> X[8];
  for (int k = 0; k < 8; ++k) X[k] = {rs[k], zs[k], 0};
  const double ring = 3.14159265358979323846 * (b * b - a * a) * h;
  for (const bool reduced : {false, true}) {
    double M[64];
    const double vol = reduced ? ConsistentMass<CAX8R>::matrix(X, rho, M) : ConsistentMass<CAX8>::matrix(X, rho, M);
    EXPECT_NEAR(vol, ring, 1e-13 * ring);
    double frac[8];
    EXPECT_NEAR(CAX8::mass_fractions(X, frac), vol, 1e-12 * vol);  // the lumped mass's ring volume
    expect_mass_of(8, M, rho, ring);
  }
}

}  // namespace
}  // namespace halfstep
