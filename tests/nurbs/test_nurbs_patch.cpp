// NURBS patches (discretization/nurbs_patch.hpp): exact conic geometry (quarter circle,
// annulus sector, a thick cylinder sector in 3D), knot insertion, degree elevation and uniform
// refinement leaving the geometry unchanged and keeping partition of unity, Bézier extraction
// reproducing the B-spline basis element by element (1D operators and the dense Kronecker
// C_e), the element path (bezier_element_basis) reproducing the patch's points and
// derivatives, and one bad-input test per validation error.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "discretization/nurbs_patch.hpp"

namespace halfstep {
namespace {

using namespace nurbs;

const double kS = std::sqrt(0.5);

/// The unit quarter circle from (1, 0) to (0, 1): degree 2, weights 1, sqrt(2)/2, 1.
NurbsPatch quarter_circle() {
  NurbsPatch c;
  c.dim = 1;
  c.degree = {{2, 0, 0}};
  c.count = {{3, 1, 1}};
  c.knots[0] = {0, 0, 0, 1, 1, 1};
  c.x = {1, 1, 0};
  c.y = {0, 1, 1};
  c.z = {0, 0, 0};
  c.w = {1, kS, 1};
  return c;
}

/// Quarter annulus 1 <= r <= 2 (direction 0 around, direction 1 radial, degree 1), lifted to a
/// 3D sector of thickness 3 (direction 2 along z, degree 1) when dim == 3.
NurbsPatch annulus(int dim = 2) {
  NurbsPatch a;
  a.dim = dim;
  a.degree = {{2, 1, 1}};
  a.count = {{3, 2, dim == 3 ? 2 : 1}};
  a.knots[0] = {0, 0, 0, 1, 1, 1};
  a.knots[1] = {0, 0, 1, 1};
  if (dim == 3) a.knots[2] = {0, 0, 1, 1};
  const double cx[3] = {1, 1, 0}, cy[3] = {0, 1, 1}, cw[3] = {1, kS, 1};
  for (int k = 0; k < a.count[2]; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 3; ++i) {
        const double r = 1.0 + j;
        a.x.push_back(r * cx[i]);
        a.y.push_back(r * cy[i]);
        a.z.push_back(3.0 * k);
        a.w.push_back(cw[i]);
      }
  return a;
}

/// A curved 2D patch of degrees (3, 2) with uneven knots (a C^0 line at u = 0.5, a double knot
/// at v = 0.4) and scattered weights: the general case for refinement and extraction.
NurbsPatch wavy(int dim = 2) {
  NurbsPatch s;
  s.dim = dim;
  s.degree = {{3, 2, 2}};
  s.knots[0] = {0, 0, 0, 0, 0.2, 0.5, 0.5, 0.5, 0.8, 1, 1, 1, 1};
  s.knots[1] = {0, 0, 0, 0.4, 0.4, 0.7, 1, 1, 1};
  s.knots[2] = {0, 0, 0, 0.5, 1, 1, 1};
  s.count = {{9, 6, dim == 3 ? 4 : 1}};
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> jitter(-0.2, 0.2), weight(0.4, 2.0);
  for (int k = 0; k < s.count[2]; ++k)
    for (int j = 0; j < s.count[1]; ++j)
      for (int i = 0; i < s.count[0]; ++i) {
        s.x.push_back(i + jitter(rng));
        s.y.push_back(j + 0.3 * std::sin(i) + jitter(rng));
        s.z.push_back(k + 0.2 * std::cos(j) + jitter(rng));
        s.w.push_back(weight(rng));
      }
  return s;
}

/// Random parameter points in [0, 1]^dim, including the corners.
std::vector<std::array<double, 3>> samples(int dim, int count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<std::array<double, 3>> u;
  for (int c = 0; c < (1 << dim); ++c) u.push_back({{double(c & 1), double((c >> 1) & 1), double((c >> 2) & 1)}});
  while (static_cast<int>(u.size()) < count) u.push_back({{unit(rng), unit(rng), unit(rng)}});
  return u;
}

double distance(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

/// Largest distance between the two patches' points at the same parameters.
double max_gap(const NurbsPatch& a, const NurbsPatch& b, int count = 600) {
  double worst = 0.0;
  for (const auto& u : samples(a.dim, count, 11)) worst = std::max(worst, distance(evaluate(a, u.data()), evaluate(b, u.data())));
  return worst;
}

/// Largest |sum_a R_a - 1| of the patch's rational basis at random points (tensor B-splines
/// through bspline_basis, the patch's weights).
double unity_error(const NurbsPatch& P) {
  double worst = 0.0;
  for (const auto& u : samples(P.dim, 400, 5)) {
    double N[3][kMaxBasis1D];
    int first[3] = {0, 0, 0}, len[3] = {1, 1, 1};
    for (int d = 0; d < 3; ++d) N[d][0] = 1.0;
    for (int d = 0; d < P.dim; ++d) {
      const int span = find_span(P.count[d], P.degree[d], u[d], P.knots[d].data());
      bspline_basis(span, u[d], P.degree[d], P.knots[d].data(), N[d], nullptr);
      first[d] = span - P.degree[d];
      len[d] = P.degree[d] + 1;
    }
    double W = 0.0;
    std::vector<double> wn;
    for (int k = 0; k < len[2]; ++k)
      for (int j = 0; j < len[1]; ++j)
        for (int i = 0; i < len[0]; ++i) {
          const double v = P.w[P.index(first[0] + i, first[1] + j, first[2] + k)] * N[0][i] * N[1][j] * N[2][k];
          W += v;
          wn.push_back(v);
        }
    double sum = 0.0;
    for (double v : wn) sum += v / W;
    worst = std::max(worst, std::fabs(sum - 1.0));
  }
  return worst;
}

TEST(NurbsPatch, QuarterCircleIsExact) {
  const NurbsPatch c = quarter_circle();
  validate(c);
  double worst = 0.0, worst_tangent = 0.0;
  for (int s = 0; s <= 10000; ++s) {
    const double u = s / 10000.0;
    std::array<double, 3> jac[1];
    const auto x = evaluate(c, &u, jac);
    worst = std::max(worst, std::fabs(std::hypot(x[0], x[1]) - 1.0));
    worst_tangent = std::max(worst_tangent, std::fabs(x[0] * jac[0][0] + x[1] * jac[0][1]));  // tangent _|_ radius
  }
  EXPECT_LT(worst, 1e-14);
  EXPECT_LT(worst_tangent, 1e-14);
  const double half = 0.5;  // the symmetric middle point is at 45 degrees
  const auto m = evaluate(c, &half);
  EXPECT_NEAR(m[0], kS, 1e-15);
  EXPECT_NEAR(m[1], kS, 1e-15);
}

TEST(NurbsPatch, AnnulusSectorIsExact) {
  const NurbsPatch a = annulus();
  validate(a);
  double worst = 0.0;
  for (const auto& u : samples(2, 5000, 1))  // radius 1 + v exactly: the weights do not vary along v
    worst = std::max(worst, std::fabs(std::hypot(evaluate(a, u.data())[0], evaluate(a, u.data())[1]) - (1.0 + u[1])));
  EXPECT_LT(worst, 1e-14);
  const NurbsPatch s = annulus(3);
  validate(s);
  worst = 0.0;
  for (const auto& u : samples(3, 3000, 2)) {
    const auto x = evaluate(s, u.data());
    worst = std::max(worst, std::fabs(std::hypot(x[0], x[1]) - (1.0 + u[1])) + std::fabs(x[2] - 3.0 * u[2]));
  }
  EXPECT_LT(worst, 1e-14);
}

TEST(NurbsPatch, KnotInsertionKeepsGeometry) {
  // A new knot, the same knot again (multiplicity 2 = p: a C^0 point), a knot at an existing one.
  NurbsPatch c = insert_knot(quarter_circle(), 0, 0.3);
  c = insert_knot(c, 0, 0.3);
  c = insert_knot(c, 0, 0.7, 2);
  validate(c);
  EXPECT_EQ(c.count[0], 7);
  EXPECT_EQ(c.knots[0], (std::vector<double>{0, 0, 0, 0.3, 0.3, 0.7, 0.7, 1, 1, 1}));
  EXPECT_LT(max_gap(c, quarter_circle()), 1e-15);
  EXPECT_LT(unity_error(c), 1e-14);
  for (int s = 0; s <= 1000; ++s) {
    const double u = s / 1000.0;
    const auto x = evaluate(c, &u);
    EXPECT_NEAR(std::hypot(x[0], x[1]), 1.0, 1e-14);
  }

  const NurbsPatch w = wavy(3);
  NurbsPatch r = insert_knot(w, 0, 0.2);     // existing simple knot -> multiplicity 2
  r = insert_knot(r, 1, 0.55, 2);           // new double knot
  r = insert_knot(r, 2, 0.123);
  r = insert_knot(r, 0, 0.65);
  validate(r);
  EXPECT_EQ(r.count[0], 11);
  EXPECT_EQ(r.count[1], 8);
  EXPECT_EQ(r.count[2], 5);
  EXPECT_LT(max_gap(r, w), 1e-13);
  EXPECT_LT(unity_error(r), 1e-14);
}

TEST(NurbsPatch, DegreeElevationKeepsGeometry) {
  NurbsPatch c = elevate_degree(quarter_circle(), 0, 2);  // 2 -> 4 in one go
  validate(c);
  EXPECT_EQ(c.degree[0], 4);
  EXPECT_EQ(c.count[0], 5);
  EXPECT_LT(max_gap(c, quarter_circle()), 1e-14);
  EXPECT_LT(unity_error(c), 1e-14);

  // Interior knots keep their continuity: 0.3 simple -> double, p 2 -> 3.
  NurbsPatch k = elevate_degree(insert_knot(quarter_circle(), 0, 0.3), 0, 1);
  EXPECT_EQ(k.knots[0], (std::vector<double>{0, 0, 0, 0, 0.3, 0.3, 1, 1, 1, 1}));
  EXPECT_LT(max_gap(k, quarter_circle()), 1e-14);

  const NurbsPatch w = wavy(3);
  NurbsPatch e = elevate_degree(w, 1, 1);  // v: degree 2 -> 3, knots 0.4 (double), 0.7
  e = elevate_degree(e, 0, 1);             // u: 3 -> 4 through a C^0 knot
  e = elevate_degree(e, 2, 2);             // w: 2 -> 4
  validate(e);
  EXPECT_EQ(e.degree[0], 4);
  EXPECT_EQ(e.degree[1], 3);
  EXPECT_EQ(e.degree[2], 4);
  EXPECT_EQ(e.knots[1], (std::vector<double>{0, 0, 0, 0, 0.4, 0.4, 0.4, 0.7, 0.7, 1, 1, 1, 1}));
  EXPECT_EQ(e.count[0], 9 + 4);  // one more function per nonempty span (4 in u)
  EXPECT_LT(max_gap(e, w), 1e-13);
  EXPECT_LT(unity_error(e), 1e-14);

  // Annulus: elevate the radial direction and refine; still exact.
  NurbsPatch a = refine_uniform(elevate_degree(annulus(), 1, 2), 3);
  double worst = 0.0;
  for (const auto& u : samples(2, 2000, 4)) {
    const auto x = evaluate(a, u.data());
    worst = std::max(worst, std::fabs(std::hypot(x[0], x[1]) - (1.0 + u[1])));
  }
  EXPECT_LT(worst, 1e-14);
}

TEST(NurbsPatch, UniformRefinementKeepsGeometryAndSplitsEverySpan) {
  const NurbsPatch w = wavy();
  const NurbsPatch r = refine_uniform(w, 2);
  validate(r);
  // Each nonempty span gets 2 knots: u has 4 spans, v 3.
  EXPECT_EQ(r.count[0], 9 + 8);
  EXPECT_EQ(r.count[1], 6 + 6);
  EXPECT_EQ(extract_bezier(r).elements, 12 * 9);
  EXPECT_LT(max_gap(r, w), 1e-13);
  EXPECT_LT(unity_error(r), 1e-14);
  EXPECT_THROW(refine_uniform(w, -1), InputError);
  // The count the reader checks before refining is the one refining makes (wavy's v has a
  // double knot, an empty span that gets no knots).
  EXPECT_EQ(refined_point_count(w, 2), static_cast<double>(r.points()));
  EXPECT_EQ(refined_point_count(w, 0), static_cast<double>(w.points()));
  EXPECT_EQ(refined_point_count(w, 64), (9.0 + 4 * 64) * (6.0 + 3 * 64));
}

/// Checks every element's 1D operator: C_e B(xi) equals the B-splines span-p..span at the
/// matching u inside the span; returns the largest difference.
double extraction_error_1d(const std::vector<double>& U, int p) {
  const Extraction1D ext = extract_bezier_1d(U, p);
  const int n = static_cast<int>(U.size()) - p - 1;
  double worst = 0.0;
  for (int e = 0; e < ext.elements(); ++e) {
    EXPECT_EQ(ext.lower[e], U[ext.span[e]]);
    EXPECT_EQ(ext.upper[e], U[ext.span[e] + 1]);
    for (int s = 0; s <= 50; ++s) {
      const double xi = -1.0 + s / 25.0;
      const double u = ext.lower[e] + 0.5 * (xi + 1.0) * (ext.upper[e] - ext.lower[e]);
      double B[kMaxBasis1D], N[kMaxBasis1D];
      bernstein(p, xi, B, nullptr);
      // u may round onto the next span at xi = 1: evaluate on this element's span regardless.
      bspline_basis(ext.span[e], u, p, U.data(), N, nullptr);
      for (int a = 0; a <= p; ++a) {
        double v = 0.0;
        for (int b = 0; b <= p; ++b) v += ext.op(e)[a * (p + 1) + b] * B[b];
        worst = std::max(worst, std::fabs(v - N[a]));
      }
    }
    (void)n;
  }
  return worst;
}

TEST(NurbsPatch, BezierExtraction1DReproducesBsplines) {
  const std::vector<std::vector<double>> interiors = {
      {}, {0.5}, {0.1, 0.25, 0.25, 0.6, 0.61, 0.9}, {0.3, 0.3, 0.3, 0.3, 0.7}, {0.2, 0.4, 0.4, 0.4, 0.8, 0.8}};
  double worst = 0.0;
  for (int p = 1; p <= kNurbsMaxDegree; ++p)
    for (const auto& in : interiors) {
      std::vector<double> U(p + 1, 0.0);
      int run = 0;  // keep interior multiplicities <= p
      for (size_t i = 0; i < in.size(); ++i) {
        run = i > 0 && in[i] == in[i - 1] ? run + 1 : 1;
        if (run <= p) U.push_back(in[i]);
      }
      for (int k = 0; k <= p; ++k) U.push_back(1.0);
      worst = std::max(worst, extraction_error_1d(U, p));
    }
  EXPECT_LT(worst, 1e-14);
  // A degree 2 vector with a single interior knot has the textbook operators.
  const Extraction1D e = extract_bezier_1d({0, 0, 0, 0.5, 1, 1, 1}, 2);
  ASSERT_EQ(e.elements(), 2);
  const double first[9] = {1, 0, 0, 0, 1, 0.5, 0, 0, 0.5}, second[9] = {0.5, 0, 0, 0.5, 1, 0, 0, 0, 1};
  for (int k = 0; k < 9; ++k) {
    EXPECT_NEAR(e.op(0)[k], first[k], 1e-15);
    EXPECT_NEAR(e.op(1)[k], second[k], 1e-15);
  }
}

/// Every element of the patch: the dense C_e times the tensor Bernstein values equals the
/// tensor B-splines of the element's control points (connectivity) at the matching u, and
/// bezier_element_basis's R and dR/dxi give the patch's point and derivative (chain rule
/// du/dxi = (upper - lower)/2). Returns {basis error, point error, derivative error}.
template <int D>
std::array<double, 3> element_errors(const NurbsPatch& P) {
  const BezierMesh m = extract_bezier(P);
  EXPECT_EQ(m.nb, [&] { int n = 1; for (int d = 0; d < D; ++d) n *= P.degree[d] + 1; return n; }());
  std::array<double, 3> worst{{0, 0, 0}};
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> parent(-1.0, 1.0);
  std::vector<int> seen(P.points(), 0);
  for (int e = 0; e < m.elements; ++e) {
    const int* conn = m.connectivity.data() + e * m.nb;
    for (int a = 0; a < m.nb; ++a) seen[conn[a]] = 1;
    std::vector<double> we(m.nb);
    for (int a = 0; a < m.nb; ++a) we[a] = P.w[conn[a]];
    for (int s = 0; s < 12; ++s) {
      double xi[3] = {0, 0, 0}, u[3] = {0, 0, 0};
      for (int d = 0; d < D; ++d) {
        xi[d] = s == 0 ? -1.0 : (s == 1 ? 1.0 : parent(rng));  // the element's corners too
        u[d] = m.lower[e * D + d] + 0.5 * (xi[d] + 1.0) * (m.upper[e * D + d] - m.lower[e * D + d]);
      }
      // Reference B-splines on this element's spans.
      double N1[3][kMaxBasis1D], dN1[3][kMaxBasis1D];
      const double* f[3];
      const double* df[3];
      for (int d = 0; d < D; ++d) {
        const int span = m.dir[d].span[m.dir_element[e * D + d]];
        bspline_basis(span, u[d], P.degree[d], P.knots[d].data(), N1[d], dN1[d]);
        f[d] = N1[d];
        df[d] = dN1[d];
      }
      double N[max_basis<D>()], B[max_basis<D>()];
      tensor_basis<D>(P.degree.data(), f, df, N, nullptr);
      bernstein_tensor<D>(P.degree.data(), xi, B, nullptr);
      for (int a = 0; a < m.nb; ++a) {
        double v = 0.0;
        for (int b = 0; b < m.nb; ++b) v += m.op(e)[a * m.nb + b] * B[b];
        worst[0] = std::max(worst[0], std::fabs(v - N[a]));
      }
      double R[max_basis<D>()], dR[max_basis<D>() * D];
      bezier_element_basis<D>(P.degree.data(), xi, m.op(e), we.data(), R, dR);
      // The Kronecker form agrees with the dense C_e to round-off.
      const double* C1[3];
      for (int d = 0; d < D; ++d) C1[d] = m.dir[d].op(m.dir_element[e * D + d]);
      double Rk[max_basis<D>()], dRk[max_basis<D>() * D];
      bezier_element_basis_kron<D>(P.degree.data(), xi, C1, we.data(), Rk, dRk);
      for (int a = 0; a < m.nb; ++a) {
        EXPECT_NEAR(Rk[a], R[a], 1e-15);
        for (int d = 0; d < D; ++d) EXPECT_NEAR(dRk[a * D + d], dR[a * D + d], 1e-13);
      }
      std::array<double, 3> x{{0, 0, 0}}, dx[3] = {};
      for (int a = 0; a < m.nb; ++a) {
        const double c[3] = {P.x[conn[a]], P.y[conn[a]], P.z[conn[a]]};
        for (int k = 0; k < 3; ++k) {
          x[k] += R[a] * c[k];
          for (int d = 0; d < D; ++d) dx[d][k] += dR[a * D + d] * c[k];
        }
      }
      std::array<double, 3> jac[3];
      const auto ref = evaluate(P, u, jac);
      worst[1] = std::max(worst[1], distance(x, ref));
      if (s < 2) continue;  // at a corner evaluate() may take the next span's one-sided derivative (C^0 knots)
      for (int d = 0; d < D; ++d) {
        const double half = 0.5 * (m.upper[e * D + d] - m.lower[e * D + d]);
        std::array<double, 3> chain{{jac[d][0] * half, jac[d][1] * half, jac[d][2] * half}};
        worst[2] = std::max(worst[2], distance(dx[d], chain));
      }
    }
  }
  for (int c : seen) EXPECT_EQ(c, 1);  // every control point belongs to some element
  const BezierMesh f = extract_bezier(P, false);  // factors only: the same mesh without C_e
  EXPECT_TRUE(f.extraction.empty());
  EXPECT_EQ(f.connectivity, m.connectivity);
  EXPECT_EQ(f.dir_element, m.dir_element);
  EXPECT_EQ(f.lower, m.lower);
  return worst;
}

TEST(NurbsPatch, BezierExtractionReproducesPatchElementByElement) {
  const auto c = element_errors<1>(refine_uniform(elevate_degree(quarter_circle(), 0, 1), 3));
  EXPECT_LT(c[0], 1e-14);
  EXPECT_LT(c[1], 1e-14);
  EXPECT_LT(c[2], 1e-13);
  const auto s = element_errors<2>(wavy());  // coordinates up to 9: relative errors ~1e-15
  EXPECT_LT(s[0], 1e-14);
  EXPECT_LT(s[1], 2e-14);
  EXPECT_LT(s[2], 5e-14);
  const auto v = element_errors<3>(wavy(3));
  EXPECT_LT(v[0], 1e-14);
  EXPECT_LT(v[1], 2e-14);
  EXPECT_LT(v[2], 5e-14);
  const auto a = element_errors<3>(refine_uniform(elevate_degree(annulus(3), 2, 1), 1));
  EXPECT_LT(a[0], 1e-14);
  EXPECT_LT(a[1], 1e-14);
  EXPECT_LT(a[2], 1e-13);
}

TEST(NurbsPatch, BezierMeshLayout) {
  const NurbsPatch w = wavy();
  const BezierMesh m = extract_bezier(w);
  EXPECT_EQ(m.elements_per_dir[0], 4);  // spans of u: [0,.2] [.2,.5] [.5,.8] [.8,1]
  EXPECT_EQ(m.elements_per_dir[1], 3);  // v: [0,.4] [.4,.7] [.7,1]
  EXPECT_EQ(m.elements, 12);
  EXPECT_EQ(m.nb, 12);
  // Element 5 = (1, 1): u span [0.2, 0.5] (index 4), v span [0.4, 0.7] (index 4).
  EXPECT_EQ(m.lower[5 * 2 + 0], 0.2);
  EXPECT_EQ(m.upper[5 * 2 + 0], 0.5);
  EXPECT_EQ(m.lower[5 * 2 + 1], 0.4);
  EXPECT_EQ(m.upper[5 * 2 + 1], 0.7);
  EXPECT_EQ(m.connectivity[5 * m.nb + 0], w.index(4 - 3, 4 - 2));  // first function (span - p) per direction
  EXPECT_EQ(m.connectivity[5 * m.nb + 1], w.index(2, 2));          // direction 0 fastest
  EXPECT_EQ(m.connectivity[5 * m.nb + 4], w.index(1, 3));
  // Rows of C_e sum to... columns: each Bernstein column of a C_e sums to 1 (partition of unity).
  for (int e = 0; e < m.elements; ++e)
    for (int b = 0; b < m.nb; ++b) {
      double sum = 0.0;
      for (int a = 0; a < m.nb; ++a) sum += m.op(e)[a * m.nb + b];
      EXPECT_NEAR(sum, 1.0, 1e-15);
    }
}

TEST(NurbsPatch, BoundaryPatchesAreThePatchEdges) {
  // The annulus's inner arc (direction 2 at its first knot) is the unit quarter circle.
  std::vector<int> idx;
  const NurbsPatch inner = boundary(annulus(), 1, 0, &idx);
  validate(inner);
  EXPECT_EQ(inner.dim, 1);
  EXPECT_EQ(idx, (std::vector<int>{0, 1, 2}));
  EXPECT_LT(max_gap(inner, quarter_circle()), 1e-16);
  // Every face of a 3D patch against the patch at that parameter.
  const NurbsPatch w = refine_uniform(wavy(3), 1);
  double worst = 0.0;
  for (int d = 0; d < 3; ++d)
    for (int side = 0; side < 2; ++side) {
      const NurbsPatch f = boundary(w, d, side, &idx);
      validate(f);
      EXPECT_EQ(static_cast<int>(idx.size()), f.points());
      for (const auto& v : samples(2, 300, 8)) {
        double u[3];
        for (int k = 0, j = 0; k < 3; ++k) u[k] = k == d ? double(side) : v[j++];
        worst = std::max(worst, distance(evaluate(f, v.data()), evaluate(w, u)));
      }
    }
  EXPECT_LT(worst, 1e-14);
  EXPECT_THROW(boundary(quarter_circle(), 0, 0), InputError);
  EXPECT_THROW(boundary(w, 0, 2), InputError);
}

/// The message of the InputError validate throws for p (empty when none).
std::string error_of(const NurbsPatch& p) {
  try {
    validate(p, SourceLoc{"deck.inp", 12});
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(NurbsPatchBadInput, EachValidationErrorSaysWhatIsWrong) {
  EXPECT_EQ(error_of(wavy()), "");
  EXPECT_EQ(error_of(annulus(3)), "");
  NurbsPatch p = wavy();
  p.knots[0][5] = 0.1;  // 0.2, 0.1: decreasing
  EXPECT_NE(error_of(p).find("deck.inp:12: error: NURBS patch: direction 1: knot vector is not non-decreasing: knot 6 (0.1) is below knot 5 (0.2)"), std::string::npos) << error_of(p);
  p = wavy();
  p.knots[1].pop_back();
  EXPECT_NE(error_of(p).find("direction 2: knot vector has wrong length 8, expected n + p + 1 = 6 + 2 + 1 = 9"), std::string::npos) << error_of(p);
  p = wavy();
  p.knots[0] = {0, 0, 0, 0, 0.5, 0.5, 0.5, 0.5, 0.8, 1, 1, 1, 1};
  EXPECT_NE(error_of(p).find("direction 1: interior knot 0.5 has multiplicity 4, more than the degree p = 3"), std::string::npos) << error_of(p);
  p = wavy();
  p.knots[1] = {0, 0, 0.1, 0.4, 0.4, 0.7, 1, 1, 1};
  EXPECT_NE(error_of(p).find("direction 2: knot vector is not open (clamped): its first and last p + 1 = 3 knots must be equal"), std::string::npos) << error_of(p);
  p = wavy();
  p.knots[1] = {0, 0, 0, 0, 0.4, 0.7, 1, 1, 1};
  EXPECT_NE(error_of(p).find("direction 2: an end knot of the knot vector appears more than p + 1 = 3 times"), std::string::npos) << error_of(p);
  p = wavy();
  p.knots[0].assign(13, 0.0);
  EXPECT_NE(error_of(p).find("direction 1: knot vector has zero length"), std::string::npos) << error_of(p);
  p = wavy();
  p.knots[0][4] = std::nan("");
  EXPECT_NE(error_of(p).find("direction 1: knot 5 is not finite"), std::string::npos) << error_of(p);
  p = wavy();
  p.w[7] = 0.0;
  EXPECT_NE(error_of(p).find("weight of control point 8 is 0; weights must be positive and finite"), std::string::npos) << error_of(p);
  p.w[7] = -1.5;
  EXPECT_NE(error_of(p).find("weight of control point 8 is -1.5"), std::string::npos) << error_of(p);
  p.w[7] = INFINITY;
  EXPECT_NE(error_of(p).find("weight of control point 8 is inf"), std::string::npos) << error_of(p);
  p.w[7] = std::nan("");
  EXPECT_NE(error_of(p).find("weight of control point 8 is nan"), std::string::npos) << error_of(p);
  p = wavy();
  p.x.pop_back();
  EXPECT_NE(error_of(p).find("control net size mismatch: x has 53 values, the 9 x 6 net needs 54"), std::string::npos) << error_of(p);
  p = wavy();
  p.w.push_back(1.0);
  EXPECT_NE(error_of(p).find("control net size mismatch: w (weights) has 55 values"), std::string::npos) << error_of(p);
  p = wavy();
  p.y[3] = INFINITY;
  EXPECT_NE(error_of(p).find("control point 4 has a coordinate that is not finite"), std::string::npos) << error_of(p);
  p = wavy();
  p.degree[1] = 5;
  EXPECT_NE(error_of(p).find("direction 2: degree 5 is not supported (degrees 1 to 4)"), std::string::npos) << error_of(p);
  p = wavy();
  p.count[0] = 3;
  p.knots[0] = {0, 0, 0, 1, 1, 1};
  EXPECT_NE(error_of(p).find("direction 1: 3 control points, a degree 3 direction needs at least 4"), std::string::npos) << error_of(p);
  p = wavy();
  p.dim = 4;
  EXPECT_NE(error_of(p).find("parametric dimension must be 1, 2 or 3, got 4"), std::string::npos) << error_of(p);
}

TEST(NurbsPatchBadInput, RefinementArgumentsAreChecked) {
  const NurbsPatch c = quarter_circle();
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(message([&] { insert_knot(c, 0, 1.0); }).find("1 is not inside the knot vector's interval (0, 1)"), std::string::npos);
  EXPECT_NE(message([&] { insert_knot(c, 0, 0.5, 3); }).find("gives multiplicity 3, the degree p = 2 allows at most p"), std::string::npos);
  EXPECT_NE(message([&] { insert_knot(c, 1, 0.5); }).find("direction 1 is not one of the patch's 1 parametric directions"), std::string::npos);
  EXPECT_NE(message([&] { elevate_degree(c, 0, 3); }).find("degree elevation by 3 from degree 2 is not supported"), std::string::npos);
}

}  // namespace
}  // namespace halfstep
