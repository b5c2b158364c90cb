// NURBS basis functions for isogeometric elements (issue 14), host/device, no allocation.
//
// Conventions (docs/theory.md, "NURBS and Bézier extraction"):
// - Degrees are runtime values 1..kNurbsMaxDegree; every array is sized for the maximum so
//   that a kernel keeps them in registers or local memory. Callers (NurbsPatch validation)
//   guarantee the bound; these functions do not check it.
// - Bernstein polynomials live on the Bézier element's parent interval xi in [-1, 1], the
//   interval of the Gauss rules the Lagrange elements use, so an element kernel integrates a
//   NURBS element exactly as a Lagrange one: B_k(xi) = C(p,k) s^(p-k) t^k, s = (1-xi)/2,
//   t = (1+xi)/2, k = 0..p (k = 0 is the left end).
// - B-splines are evaluated in knot space u (knot vector U of n + p + 1 values, functions
//   N_0..N_{n-1}); on knot span i (U[i] <= u < U[i+1]) the p + 1 nonzero functions are
//   N_{i-p}..N_i, returned in that order.
// - Tensor products number local functions with direction 0 fastest:
//   a = i0 + (p0+1) * (i1 + (p1+1) * i2); gradients are stored a-major, dN[a*D + d].
// - An element kernel uses bezier_element_basis: Bernstein values at its Gauss point, mapped
//   through the element's extraction operator C_e (rows: the element's B-spline functions,
//   columns: Bernstein functions, both in the tensor order above) and its weights to the
//   rational basis R_a and dR_a/dxi (xi the parent coordinates in [-1, 1]^D).
#pragma once

#include "core/host_device.hpp"

namespace halfstep {
namespace nurbs {

/// Highest polynomial degree per direction the fixed-size evaluation arrays hold.
constexpr int kNurbsMaxDegree = 4;
/// Nonzero functions per direction on one span at the highest degree.
constexpr int kMaxBasis1D = kNurbsMaxDegree + 1;

/// Nonzero functions per element at the highest degree, in D parametric directions.
template <int D>
HS_HD constexpr int max_basis() {
  return D == 1 ? kMaxBasis1D : (D == 2 ? kMaxBasis1D * kMaxBasis1D : kMaxBasis1D * kMaxBasis1D * kMaxBasis1D);
}

/// Bernstein polynomials of degree p at xi in [-1, 1] (B: p + 1 values) and, when dB is not
/// null, their derivatives d/dxi. Built by the degree-raising triangle B^q_k = s B^(q-1)_k +
/// t B^(q-1)_(k-1), which needs no binomials and stays accurate near the ends.
HS_HD void bernstein(int p, double xi, double* B, double* dB) {
  const double s = 0.5 * (1.0 - xi), t = 0.5 * (1.0 + xi);
  double lower[kMaxBasis1D] = {};  // degree p - 1, for the derivative (zeroed: g++ cannot see every read is written)
  B[0] = 1.0;
  lower[0] = 1.0;
  for (int q = 1; q <= p; ++q) {
    if (q == p)
      for (int k = 0; k < q; ++k) lower[k] = B[k];
    double prev = 0.0;  // B^(q-1)_(k-1), read before it is overwritten
    for (int k = 0; k < q; ++k) {
      const double cur = B[k];
      B[k] = s * cur + t * prev;
      prev = cur;
    }
    B[q] = t * prev;
  }
  if (!dB) return;
  if (p == 0) {
    dB[0] = 0.0;
    return;
  }
  // dB^p_k/dxi = (p/2) (B^(p-1)_(k-1) - B^(p-1)_k), the factor 1/2 from dt/dxi.
  for (int k = 0; k <= p; ++k) {
    const double left = k > 0 ? lower[k - 1] : 0.0;
    const double right = k < p ? lower[k] : 0.0;
    dB[k] = 0.5 * p * (left - right);
  }
}

/// Knot span of u: the index i with U[i] <= u < U[i+1] among the n functions' spans p..n-1;
/// u at (or beyond) the last knot belongs to the last nonempty span, u before the first to the first.
HS_HD int find_span(int n, int p, double u, const double* U) {
  if (u >= U[n]) {
    int i = n - 1;
    while (i > p && !(U[i] < U[i + 1])) --i;  // skip empty spans at a repeated end
    return i;
  }
  if (u <= U[p]) {
    int i = p;
    while (i < n - 1 && !(U[i] < U[i + 1])) ++i;
    return i;
  }
  int lo = p, hi = n;  // invariant U[lo] <= u < U[hi]
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (u < U[mid])
      hi = mid;
    else
      lo = mid;
  }
  return lo;
}

/// The p + 1 nonzero B-spline functions N_{span-p}..N_span at u (N) and, when dN is not null,
/// their first derivatives d/du. Values of every degree 0..p come from the Cox-de Boor
/// recurrence written with the left/right knot distances (no 0/0 terms); the derivative is
/// the degree p - 1 row combined by dN_{i,p} = p (N_{i,p-1}/(U_{i+p}-U_i) - N_{i+1,p-1}/(U_{i+p+1}-U_{i+1})).
HS_HD void bspline_basis(int span, double u, int p, const double* U, double* N, double* dN) {
  double left[kMaxBasis1D], right[kMaxBasis1D];
  double lower[kMaxBasis1D] = {};  // the degree p - 1 functions N_{span-p+1}..N_span
  N[0] = 1.0;
  lower[0] = 1.0;
  for (int q = 1; q <= p; ++q) {
    if (q == p)
      for (int k = 0; k < q; ++k) lower[k] = N[k];
    left[q] = u - U[span + 1 - q];
    right[q] = U[span + q] - u;
    double carry = 0.0;
    for (int r = 0; r < q; ++r) {
      // N_{span-q+1+r, q-1} splits into N_{span-q+r, q} (its right part) and N_{span-q+1+r, q}.
      const double denom = right[r + 1] + left[q - r];
      const double share = N[r] / denom;
      N[r] = carry + right[r + 1] * share;
      carry = left[q - r] * share;
    }
    N[q] = carry;
  }
  if (!dN) return;
  if (p == 0) {
    dN[0] = 0.0;
    return;
  }
  for (int j = 0; j <= p; ++j) {
    const int i = span - p + j;  // global index of this function
    double d = 0.0;
    if (j > 0) d += lower[j - 1] / (U[i + p] - U[i]);
    if (j < p) d -= lower[j] / (U[i + p + 1] - U[i + 1]);
    dN[j] = p * d;
  }
}

/// Rational basis R_a = w_a N_a / W, W = sum_b w_b N_b, and its first derivatives in D
/// parametric directions (dR may be null; dN and dR a-major, dN[a*D + d]) for `count`
/// functions: the quotient rule dR_a = w_a (dN_a W - N_a dW) / W^2. R may be N and dR may be
/// dN (in place), which saves a kernel the scratch arrays.
template <int D>
HS_HD void rational_basis(int count, const double* N, const double* dN, const double* w, double* R, double* dR) {
  double W = 0.0, dW[D];
  for (int d = 0; d < D; ++d) dW[d] = 0.0;
  for (int a = 0; a < count; ++a) {
    W += w[a] * N[a];
    if (dR)
      for (int d = 0; d < D; ++d) dW[d] += w[a] * dN[a * D + d];
  }
  const double inv = 1.0 / W;
  for (int a = 0; a < count; ++a) {
    const double n = N[a];  // read before R[a] overwrites it in place
    R[a] = w[a] * n * inv;
    if (dR)
      for (int d = 0; d < D; ++d) dR[a * D + d] = w[a] * (dN[a * D + d] - n * inv * dW[d]) * inv;
  }
}

/// Tensor product of D one-dimensional sets (f[d]: p[d] + 1 values, df[d]: their derivatives)
/// into prod(p+1) values N and, when dN is not null, parametric gradients dN[a*D + d];
/// direction 0 runs fastest.
template <int D>
HS_HD void tensor_basis(const int* p, const double* const* f, const double* const* df, double* N, double* dN) {
  const int n0 = p[0] + 1;
  const int n1 = D > 1 ? p[1] + 1 : 1;
  const int n2 = D > 2 ? p[2] + 1 : 1;
  int a = 0;
  for (int i2 = 0; i2 < n2; ++i2)
    for (int i1 = 0; i1 < n1; ++i1)
      for (int i0 = 0; i0 < n0; ++i0, ++a) {
        const int idx[3] = {i0, i1, i2};
        double v = 1.0;
        for (int d = 0; d < D; ++d) v *= f[d][idx[d]];
        N[a] = v;
        if (!dN) continue;
        for (int g = 0; g < D; ++g) {
          double prod = 1.0;
          for (int d = 0; d < D; ++d) prod *= d == g ? df[d][idx[d]] : f[d][idx[d]];
          dN[a * D + g] = prod;
        }
      }
}

/// Tensor-product Bernstein values B and gradients dB (a-major, d/dxi) at parent point xi in
/// [-1, 1]^D for degrees p[0..D-1].
template <int D>
HS_HD void bernstein_tensor(const int* p, const double* xi, double* B, double* dB) {
  double f[D][kMaxBasis1D], df[D][kMaxBasis1D];
  const double* fp[D];
  const double* dfp[D];
  for (int d = 0; d < D; ++d) {
    bernstein(p[d], xi[d], f[d], df[d]);
    fp[d] = f[d];
    dfp[d] = df[d];
  }
  tensor_basis<D>(p, fp, dfp, B, dB);
}

/// The element kernel's entry point: rational basis R (nb = prod(p+1) values) and parent
/// gradients dR (a-major, d/dxi, not null) of one Bézier element at xi in [-1, 1]^D, from
/// its extraction operator C (nb x nb, row-major, rows = the element's B-spline functions in
/// the order of its control-point indices) and those control points' weights w. Costs
/// O(nb^2 D) and an nb(1+D) Bernstein scratch array (4.2 KB of stack at degree 4 in 3D,
/// ptxas for sm_90; R and dR are used as the B-spline scratch); bezier_element_basis_kron
/// gives the same values from the 1D operators in O(nb D) with no nb-sized scratch.
template <int D>
HS_HD void bezier_element_basis(const int* p, const double* xi, const double* C, const double* w, double* R,
                                double* dR) {
  int nb = 1;
  for (int d = 0; d < D; ++d) nb *= p[d] + 1;
  double B[max_basis<D>()], dB[max_basis<D>() * D];
  bernstein_tensor<D>(p, xi, B, dB);
  for (int a = 0; a < nb; ++a) {  // N = C B, dN = C dB, held in R and dR
    const double* row = C + a * nb;
    double v = 0.0, g[D];
    for (int d = 0; d < D; ++d) g[d] = 0.0;
    for (int b = 0; b < nb; ++b) {
      v += row[b] * B[b];
      for (int d = 0; d < D; ++d) g[d] += row[b] * dB[b * D + d];
    }
    R[a] = v;
    for (int d = 0; d < D; ++d) dR[a * D + d] = g[d];
  }
  rational_basis<D>(nb, R, dR, w, R, dR);
}

/// bezier_element_basis with C_e given as its Kronecker factors: C1[d] is the element's 1D
/// operator of direction d ((p_d+1) x (p_d+1), row-major; BezierMesh::dir). Each direction's
/// B-splines are C1[d] times its Bernstein values, then the tensor product and the rational
/// map: no nb x nb matrix is read, which suits 3D elements on the GPU.
template <int D>
HS_HD void bezier_element_basis_kron(const int* p, const double* xi, const double* const* C1, const double* w,
                                     double* R, double* dR) {
  double f[D][kMaxBasis1D], df[D][kMaxBasis1D];
  const double* fp[D];
  const double* dfp[D];
  for (int d = 0; d < D; ++d) {
    double B[kMaxBasis1D], dB[kMaxBasis1D];
    bernstein(p[d], xi[d], B, dB);
    const int n = p[d] + 1;
    for (int a = 0; a < n; ++a) {
      double v = 0.0, g = 0.0;
      for (int b = 0; b < n; ++b) {
        v += C1[d][a * n + b] * B[b];
        g += C1[d][a * n + b] * dB[b];
      }
      f[d][a] = v;
      df[d][a] = g;
    }
    fp[d] = f[d];
    dfp[d] = df[d];
  }
  int nb = 1;
  for (int d = 0; d < D; ++d) nb *= p[d] + 1;
  tensor_basis<D>(p, fp, dfp, R, dR);
  rational_basis<D>(nb, R, dR, w, R, dR);
}

}  // namespace nurbs
}  // namespace halfstep
