// NURBS basis functions (elements/nurbs_basis.hpp): Bernstein polynomials against their
// closed form, B-splines against the recursive Cox-de Boor definition, partition of unity of
// the B-spline and rational bases (degrees 1-4, non-uniform knots with repeated interior
// knots), first derivatives against central differences, tensor products in 2D and 3D.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "elements/nurbs_basis.hpp"

namespace halfstep {
namespace {

using namespace nurbs;

/// An open knot vector on [0, 1] of degree p with uneven spans and repeated interior knots
/// (0.3 twice when p >= 2, 0.55 p times: a C^0 point).
std::vector<double> uneven_knots(int p) {
  std::vector<double> U(p + 1, 0.0);
  U.push_back(0.13);
  for (int k = 0; k < std::min(2, p); ++k) U.push_back(0.3);
  for (int k = 0; k < p; ++k) U.push_back(0.55);
  U.push_back(0.61);
  U.push_back(0.9);
  for (int k = 0; k <= p; ++k) U.push_back(1.0);
  return U;
}

int functions(const std::vector<double>& U, int p) { return static_cast<int>(U.size()) - p - 1; }

/// N_{i,p}(u) by the recursive definition (0/0 taken as 0, half-open spans, the last span
/// closed at u = 1): an independent reference for bspline_basis.
double cox_de_boor(const std::vector<double>& U, int i, int p, double u) {
  if (p == 0) {
    const bool last = u == U.back() && U[i] < U[i + 1] && U[i + 1] == U.back();
    return (U[i] <= u && u < U[i + 1]) || last ? 1.0 : 0.0;
  }
  double v = 0.0;
  if (U[i + p] > U[i]) v += (u - U[i]) / (U[i + p] - U[i]) * cox_de_boor(U, i, p - 1, u);
  if (U[i + p + 1] > U[i + 1]) v += (U[i + p + 1] - u) / (U[i + p + 1] - U[i + 1]) * cox_de_boor(U, i + 1, p - 1, u);
  return v;
}

double binom(int n, int k) {
  double r = 1.0;
  for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

TEST(NurbsBasis, BernsteinMatchesClosedFormAndSumsToOne) {
  for (int p = 0; p <= kNurbsMaxDegree; ++p)
    for (int s = 0; s <= 400; ++s) {
      const double xi = -1.0 + s / 200.0;
      double B[kMaxBasis1D], dB[kMaxBasis1D];
      bernstein(p, xi, B, dB);
      double sum = 0.0, dsum = 0.0;
      for (int k = 0; k <= p; ++k) {
        const double t = 0.5 * (1 + xi), c = 0.5 * (1 - xi);
        EXPECT_NEAR(B[k], binom(p, k) * std::pow(c, p - k) * std::pow(t, k), 1e-15);
        sum += B[k];
        dsum += dB[k];
      }
      EXPECT_NEAR(sum, 1.0, 1e-15);
      EXPECT_NEAR(dsum, 0.0, 1e-14);
    }
  double B[kMaxBasis1D];  // interpolation at the ends: B_0(-1) = 1, B_p(1) = 1
  bernstein(3, -1.0, B, nullptr);
  EXPECT_EQ(B[0], 1.0);
  bernstein(3, 1.0, B, nullptr);
  EXPECT_EQ(B[3], 1.0);
}

TEST(NurbsBasis, BernsteinDerivativesMatchCentralDifferences) {
  const double h = 1e-6;
  double worst = 0.0;
  for (int p = 1; p <= kNurbsMaxDegree; ++p)
    for (int s = 1; s < 100; ++s) {
      const double xi = -1.0 + s / 50.0;
      double B[kMaxBasis1D], dB[kMaxBasis1D], Bp[kMaxBasis1D], Bm[kMaxBasis1D];
      bernstein(p, xi, B, dB);
      bernstein(p, xi + h, Bp, nullptr);
      bernstein(p, xi - h, Bm, nullptr);
      for (int k = 0; k <= p; ++k) worst = std::max(worst, std::fabs(dB[k] - (Bp[k] - Bm[k]) / (2 * h)));
    }
  EXPECT_LT(worst, 1e-9);
}

TEST(NurbsBasis, FindSpanLocatesTheHalfOpenSpan) {
  const std::vector<double> U = uneven_knots(3);
  const int n = functions(U, 3);
  for (int s = 0; s <= 1000; ++s) {
    const double u = s / 1000.0;
    const int i = find_span(n, 3, u, U.data());
    ASSERT_GE(i, 3);
    ASSERT_LE(i, n - 1);
    EXPECT_LT(U[i], U[i + 1]);
    EXPECT_LE(U[i], u);
    if (u < 1.0) {
      EXPECT_LT(u, U[i + 1]);
    }
  }
  EXPECT_EQ(find_span(n, 3, 0.55, U.data()), 9);  // 0.55 occupies U[7..9]
  EXPECT_EQ(find_span(n, 3, 1.0, U.data()), n - 1);
}

TEST(NurbsBasis, BsplineValuesMatchRecursiveDefinition) {
  for (int p = 1; p <= kNurbsMaxDegree; ++p) {
    const std::vector<double> U = uneven_knots(p);
    const int n = functions(U, p);
    for (int s = 0; s <= 1000; ++s) {
      const double u = s / 1000.0;
      const int span = find_span(n, p, u, U.data());
      double N[kMaxBasis1D];
      bspline_basis(span, u, p, U.data(), N, nullptr);
      for (int i = 0; i < n; ++i) {
        const int j = i - (span - p);
        const double mine = j >= 0 && j <= p ? N[j] : 0.0;
        EXPECT_NEAR(mine, cox_de_boor(U, i, p, u), 1e-15) << "p " << p << " u " << u << " i " << i;
      }
    }
  }
}

TEST(NurbsBasis, BsplinePartitionOfUnityAndNonnegative) {
  double worst = 0.0;
  for (int p = 1; p <= kNurbsMaxDegree; ++p) {
    const std::vector<double> U = uneven_knots(p);
    const int n = functions(U, p);
    for (int s = 0; s <= 20000; ++s) {
      const double u = s / 20000.0;
      const int span = find_span(n, p, u, U.data());
      double N[kMaxBasis1D], dN[kMaxBasis1D];
      bspline_basis(span, u, p, U.data(), N, dN);
      double sum = 0.0, dsum = 0.0;
      for (int j = 0; j <= p; ++j) {
        EXPECT_GE(N[j], 0.0);
        sum += N[j];
        dsum += dN[j];
      }
      worst = std::max(worst, std::fabs(sum - 1.0));
      EXPECT_NEAR(dsum, 0.0, 1e-12);
    }
  }
  EXPECT_LT(worst, 1e-14);
}

TEST(NurbsBasis, BsplineDerivativesMatchCentralDifferences) {
  const double h = 1e-7;
  double worst = 0.0;  // relative to the largest derivative on the span
  for (int p = 1; p <= kNurbsMaxDegree; ++p) {
    const std::vector<double> U = uneven_knots(p);
    const int n = functions(U, p);
    for (int s = 1; s < 2000; ++s) {
      const double u = s / 2000.0;
      const int span = find_span(n, p, u, U.data());
      if (u - h <= U[span] || u + h >= U[span + 1]) continue;  // derivatives jump at C^0 knots
      double N[kMaxBasis1D], dN[kMaxBasis1D], Np[kMaxBasis1D], Nm[kMaxBasis1D];
      bspline_basis(span, u, p, U.data(), N, dN);
      bspline_basis(span, u + h, p, U.data(), Np, nullptr);
      bspline_basis(span, u - h, p, U.data(), Nm, nullptr);
      double scale = 1.0;
      for (int j = 0; j <= p; ++j) scale = std::max(scale, std::fabs(dN[j]));
      for (int j = 0; j <= p; ++j) worst = std::max(worst, std::fabs(dN[j] - (Np[j] - Nm[j]) / (2 * h)) / scale);
    }
  }
  EXPECT_LT(worst, 1e-8);
}

/// Rational basis of a degree p curve with the given weights at u, through bspline_basis.
void curve_rational(const std::vector<double>& U, int p, const std::vector<double>& w, double u, double* R, double* dR,
                    int* first) {
  const int n = functions(U, p);
  const int span = find_span(n, p, u, U.data());
  double N[kMaxBasis1D], dN[kMaxBasis1D];
  bspline_basis(span, u, p, U.data(), N, dN);
  *first = span - p;
  rational_basis<1>(p + 1, N, dN, w.data() + *first, R, dR);
}

TEST(NurbsBasis, RationalPartitionOfUnityAndDerivatives) {
  std::mt19937 rng(14);
  std::uniform_real_distribution<double> weight(0.2, 3.0);
  const double h = 1e-7;
  double worst_sum = 0.0, worst_fd = 0.0;
  for (int p = 1; p <= kNurbsMaxDegree; ++p) {
    const std::vector<double> U = uneven_knots(p);
    std::vector<double> w(functions(U, p));
    for (double& v : w) v = weight(rng);
    for (int s = 0; s <= 5000; ++s) {
      const double u = s / 5000.0;
      double R[kMaxBasis1D], dR[kMaxBasis1D];
      int first;
      curve_rational(U, p, w, u, R, dR, &first);
      double sum = 0.0, dsum = 0.0;
      for (int j = 0; j <= p; ++j) sum += R[j], dsum += dR[j];
      worst_sum = std::max(worst_sum, std::fabs(sum - 1.0));
      EXPECT_NEAR(dsum, 0.0, 1e-11);
      const int span = first + p;
      if (u - h <= U[span] || u + h >= U[span + 1]) continue;
      double Rp[kMaxBasis1D], Rm[kMaxBasis1D];
      int fp, fm;
      curve_rational(U, p, w, u + h, Rp, nullptr, &fp);
      curve_rational(U, p, w, u - h, Rm, nullptr, &fm);
      double scale = 1.0;
      for (int j = 0; j <= p; ++j) scale = std::max(scale, std::fabs(dR[j]));
      for (int j = 0; j <= p; ++j) worst_fd = std::max(worst_fd, std::fabs(dR[j] - (Rp[j] - Rm[j]) / (2 * h)) / scale);
    }
  }
  EXPECT_LT(worst_sum, 1e-14);
  EXPECT_LT(worst_fd, 1e-8);
}

/// Tensor-product rational basis of D directions with degrees p and uneven knots at u, and
/// the local weights drawn from rng; returns the number of functions.
template <int D>
int tensor_rational(const int* p, const double* u, const std::vector<double>& wts, double* R, double* dR) {
  double f[3][kMaxBasis1D], df[3][kMaxBasis1D];
  const double* fp[3];
  const double* dfp[3];
  for (int d = 0; d < D; ++d) {
    const std::vector<double> U = uneven_knots(p[d]);
    const int span = find_span(functions(U, p[d]), p[d], u[d], U.data());
    bspline_basis(span, u[d], p[d], U.data(), f[d], df[d]);
    fp[d] = f[d];
    dfp[d] = df[d];
  }
  double N[max_basis<D>()], dN[max_basis<D>() * D];
  tensor_basis<D>(p, fp, dfp, N, dN);
  int nb = 1;
  for (int d = 0; d < D; ++d) nb *= p[d] + 1;
  rational_basis<D>(nb, N, dN, wts.data(), R, dR);
  return nb;
}

template <int D>
void check_tensor(const int* p) {
  std::mt19937 rng(7 + D);
  std::uniform_real_distribution<double> unit(0.0, 1.0), weight(0.3, 2.5);
  std::vector<double> wts(max_basis<D>());
  for (double& v : wts) v = weight(rng);  // weights of the local functions (any positive set)
  const double h = 1e-7;
  double worst_sum = 0.0, worst_fd = 0.0;
  for (int s = 0; s < 400; ++s) {
    double u[3];
    for (int d = 0; d < D; ++d) u[d] = unit(rng);
    double R[max_basis<D>()], dR[max_basis<D>() * D];
    const int nb = tensor_rational<D>(p, u, wts, R, dR);
    double sum = 0.0;
    for (int a = 0; a < nb; ++a) sum += R[a];
    worst_sum = std::max(worst_sum, std::fabs(sum - 1.0));
    for (int g = 0; g < D; ++g) {
      double up[3], um[3];
      for (int d = 0; d < D; ++d) up[d] = um[d] = u[d];
      up[g] += h;
      um[g] -= h;
      // Same span on both sides, else the difference straddles a knot.
      bool same = true;
      for (int d = 0; d < D; ++d) {
        const std::vector<double> U = uneven_knots(p[d]);
        const int n = functions(U, p[d]);
        same = same && find_span(n, p[d], up[d], U.data()) == find_span(n, p[d], um[d], U.data());
      }
      if (!same) continue;
      double Rp[max_basis<D>()], Rm[max_basis<D>()];
      tensor_rational<D>(p, up, wts, Rp, nullptr);
      tensor_rational<D>(p, um, wts, Rm, nullptr);
      double scale = 1.0;
      for (int a = 0; a < nb; ++a) scale = std::max(scale, std::fabs(dR[a * D + g]));
      for (int a = 0; a < nb; ++a)
        worst_fd = std::max(worst_fd, std::fabs(dR[a * D + g] - (Rp[a] - Rm[a]) / (2 * h)) / scale);
    }
  }
  EXPECT_LT(worst_sum, 1e-14) << "D " << D;
  EXPECT_LT(worst_fd, 1e-8) << "D " << D;
}

TEST(NurbsBasis, TensorProduct2DPartitionOfUnityAndGradients) {
  for (int p0 = 1; p0 <= kNurbsMaxDegree; ++p0)
    for (int p1 = 1; p1 <= kNurbsMaxDegree; ++p1) {
      const int p[2] = {p0, p1};
      check_tensor<2>(p);
    }
}

TEST(NurbsBasis, TensorProduct3DPartitionOfUnityAndGradients) {
  const int degrees[][3] = {{1, 1, 1}, {2, 2, 2}, {3, 1, 2}, {4, 3, 2}, {4, 4, 4}};
  for (const auto& p : degrees) check_tensor<3>(p);
}

TEST(NurbsBasis, TensorOrderRunsDirectionZeroFastest) {
  const int p[2] = {1, 2};
  const double f0[2] = {2.0, 3.0}, f1[3] = {5.0, 7.0, 11.0}, d0[2] = {0, 0}, d1[3] = {0, 0, 0};
  const double* f[2] = {f0, f1};
  const double* df[2] = {d0, d1};
  double N[6];
  tensor_basis<2>(p, f, df, N, nullptr);
  EXPECT_EQ(N[1], 3.0 * 5.0);   // (i0, i1) = (1, 0)
  EXPECT_EQ(N[2], 2.0 * 7.0);   // (0, 1)
  EXPECT_EQ(N[5], 3.0 * 11.0);  // (1, 2)
}

}  // namespace
}  // namespace halfstep
