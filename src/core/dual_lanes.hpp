// Forward-mode numbers with N derivative lanes: a value and N directional derivatives at once.
// An element's internal forces evaluated once with its dofs seeded in N lanes give N columns
// of its tangent, where Dual<double> takes N evaluations that each recompute the value part
// (about a third of a dual operation's work). The lanes are loops of fixed length
// that the compiler vectorizes. Each lane follows Dual<double>'s formulas operation for
// operation, so a column is the same number either way. Host code (the CPU engine's element
// matrices); the CUDA engine keeps one Dual column per thread.
//
// Like Dual, the type and its overloads live in namespace halfstep::autodiff and are found by
// argument-dependent lookup (unqualified calls under `using std::sqrt;`). A translation unit
// that uses it includes this header before the laws: their qualified autodiff::value_of
// calls bind to the overloads declared before them.
#pragma once

#include <cmath>

// Every operation inlined: called out of line, each returned its 13-double struct through
// memory, and the element matrices ran no faster than with Dual (docs/performance.md,
// "Element matrices in lanes").
#if defined(__GNUC__)
#define HS_LANES inline __attribute__((always_inline))
#else
#define HS_LANES inline
#endif

namespace halfstep {
namespace autodiff {

/// A number v + sum_l d[l] ε_l with ε_k ε_l = 0: lane l carries the derivative along seed l.
/// A constant (every lane 0: the reference coordinates, a material constant) is flagged and
/// its lanes are not stored or touched, so the element geometry, which does not depend on the
/// seeded displacements, costs what it costs in double.
template <int N>
struct DualLanes {
  static_assert(N > 0, "DualLanes needs at least one lane");
  double v;      ///< value
  bool c;        ///< constant: every derivative is 0 (d is not read)
  double d[N];   ///< derivatives, one per seeded direction (when !c)

  /// Uninitialised like a plain double.
  DualLanes() = default;
  /// A constant (its lanes left unset: they are never read); implicit so that T(0.5) and
  /// literals work.
  HS_LANES DualLanes(double value) : v(value), c(true) {}

  /// Derivative l (0 for a constant).
  HS_LANES double lane(int l) const { return c ? 0.0 : d[l]; }
  /// Makes lane l the derivative 1 (the others kept, 0 for a constant).
  void seed(int l) {
    if (c) {
      for (int k = 0; k < N; ++k) d[k] = 0.0;
      c = false;
    }
    d[l] = 1.0;
  }

  /// In-place sum.
  HS_LANES DualLanes& operator+=(const DualLanes& b) {
    v += b.v;
    if (b.c) return *this;
    if (c) {
      for (int l = 0; l < N; ++l) d[l] = b.d[l];
      c = false;
    } else {
      for (int l = 0; l < N; ++l) d[l] += b.d[l];
    }
    return *this;
  }
  /// In-place difference.
  HS_LANES DualLanes& operator-=(const DualLanes& b) {
    v -= b.v;
    if (b.c) return *this;
    if (c) {
      for (int l = 0; l < N; ++l) d[l] = -b.d[l];
      c = false;
    } else {
      for (int l = 0; l < N; ++l) d[l] -= b.d[l];
    }
    return *this;
  }
  // By value, so that x *= x and x /= x read the old x.
  /// In-place product.
  HS_LANES DualLanes& operator*=(DualLanes b) { return *this = *this * b; }
  /// In-place quotient.
  HS_LANES DualLanes& operator/=(DualLanes b) { return *this = *this / b; }

  // The binary operators, friends so that they see the flag's cases.
  /// Product: Dual's a.d b.v + a.v b.d, with the zero terms of constants left out.
  friend HS_LANES DualLanes operator*(const DualLanes& a, const DualLanes& b) {
    DualLanes r(a.v * b.v);
    if (a.c && b.c) return r;
    r.c = false;
    if (a.c)
      for (int l = 0; l < N; ++l) r.d[l] = a.v * b.d[l];
    else if (b.c)
      for (int l = 0; l < N; ++l) r.d[l] = a.d[l] * b.v;
    else
      for (int l = 0; l < N; ++l) r.d[l] = a.d[l] * b.v + a.v * b.d[l];
    return r;
  }
  /// Quotient: Dual's (a.d - q b.d) / b.v.
  friend HS_LANES DualLanes operator/(const DualLanes& a, const DualLanes& b) {
    const double q = a.v / b.v;
    DualLanes r(q);
    if (a.c && b.c) return r;
    r.c = false;
    if (b.c)
      for (int l = 0; l < N; ++l) r.d[l] = a.d[l] / b.v;
    else if (a.c)
      for (int l = 0; l < N; ++l) r.d[l] = -(q * b.d[l]) / b.v;
    else
      for (int l = 0; l < N; ++l) r.d[l] = (a.d[l] - q * b.d[l]) / b.v;
    return r;
  }
};

/// Unary plus.
template <int N> HS_LANES DualLanes<N> operator+(const DualLanes<N>& a) { return a; }
/// Negation.
template <int N> HS_LANES DualLanes<N> operator-(DualLanes<N> a) {
  a.v = -a.v;
  if (!a.c)
    for (int l = 0; l < N; ++l) a.d[l] = -a.d[l];
  return a;
}
/// Sum.
template <int N> HS_LANES DualLanes<N> operator+(DualLanes<N> a, const DualLanes<N>& b) { return a += b; }
/// Sum with a constant.
template <int N> HS_LANES DualLanes<N> operator+(DualLanes<N> a, double b) {
  a.v += b;
  return a;
}
/// Sum with a constant.
template <int N> HS_LANES DualLanes<N> operator+(double a, DualLanes<N> b) {
  b.v = a + b.v;
  return b;
}
/// Difference.
template <int N> HS_LANES DualLanes<N> operator-(DualLanes<N> a, const DualLanes<N>& b) { return a -= b; }
/// Difference with a constant.
template <int N> HS_LANES DualLanes<N> operator-(DualLanes<N> a, double b) {
  a.v -= b;
  return a;
}
/// Difference from a constant.
template <int N> HS_LANES DualLanes<N> operator-(double a, const DualLanes<N>& b) {
  DualLanes<N> r = -b;
  r.v = a - b.v;
  return r;
}
/// Product with a constant.
template <int N> HS_LANES DualLanes<N> operator*(DualLanes<N> a, double b) {
  a.v *= b;
  if (!a.c)
    for (int l = 0; l < N; ++l) a.d[l] *= b;
  return a;
}
/// Product with a constant.
template <int N> HS_LANES DualLanes<N> operator*(double a, DualLanes<N> b) {
  b.v = a * b.v;
  if (!b.c)
    for (int l = 0; l < N; ++l) b.d[l] = a * b.d[l];
  return b;
}
/// Quotient by a constant.
template <int N> HS_LANES DualLanes<N> operator/(DualLanes<N> a, double b) {
  a.v /= b;
  if (!a.c)
    for (int l = 0; l < N; ++l) a.d[l] /= b;
  return a;
}
/// Constant over a number.
template <int N> HS_LANES DualLanes<N> operator/(double a, const DualLanes<N>& b) {
  const double q = a / b.v;
  DualLanes<N> r(q);
  if (b.c) return r;
  r.c = false;
  for (int l = 0; l < N; ++l) r.d[l] = -q * b.d[l] / b.v;
  return r;
}

// Comparisons look at the value parts, as Dual's do.
template <int N> HS_LANES bool operator<(const DualLanes<N>& a, const DualLanes<N>& b) { return a.v < b.v; }
template <int N> HS_LANES bool operator>(const DualLanes<N>& a, const DualLanes<N>& b) { return a.v > b.v; }
template <int N> HS_LANES bool operator<=(const DualLanes<N>& a, const DualLanes<N>& b) { return a.v <= b.v; }
template <int N> HS_LANES bool operator>=(const DualLanes<N>& a, const DualLanes<N>& b) { return a.v >= b.v; }
template <int N> HS_LANES bool operator==(const DualLanes<N>& a, const DualLanes<N>& b) { return a.v == b.v; }
template <int N> HS_LANES bool operator!=(const DualLanes<N>& a, const DualLanes<N>& b) { return a.v != b.v; }
template <int N> HS_LANES bool operator<(const DualLanes<N>& a, double b) { return a.v < b; }
template <int N> HS_LANES bool operator<(double a, const DualLanes<N>& b) { return a < b.v; }
template <int N> HS_LANES bool operator>(const DualLanes<N>& a, double b) { return a.v > b; }
template <int N> HS_LANES bool operator>(double a, const DualLanes<N>& b) { return a > b.v; }
template <int N> HS_LANES bool operator<=(const DualLanes<N>& a, double b) { return a.v <= b; }
template <int N> HS_LANES bool operator<=(double a, const DualLanes<N>& b) { return a <= b.v; }
template <int N> HS_LANES bool operator>=(const DualLanes<N>& a, double b) { return a.v >= b; }
template <int N> HS_LANES bool operator>=(double a, const DualLanes<N>& b) { return a >= b.v; }
template <int N> HS_LANES bool operator==(const DualLanes<N>& a, double b) { return a.v == b; }
template <int N> HS_LANES bool operator==(double a, const DualLanes<N>& b) { return a == b.v; }
template <int N> HS_LANES bool operator!=(const DualLanes<N>& a, double b) { return a.v != b; }
template <int N> HS_LANES bool operator!=(double a, const DualLanes<N>& b) { return a != b.v; }

/// The value part (iteration stops that must not depend on the derivatives).
template <int N> HS_LANES double value_of(const DualLanes<N>& x) { return x.v; }

namespace lanes_detail {
/// f(x) with f(x.v) = value and f'(x.v) = slope: every lane times the slope.
template <int N> HS_LANES DualLanes<N> chain(const DualLanes<N>& x, double value, double slope) {
  DualLanes<N> r(value);
  if (x.c) return r;
  r.c = false;
  for (int l = 0; l < N; ++l) r.d[l] = x.d[l] * slope;
  return r;
}
/// The same with every lane divided by a denominator, as Dual forms x.d / (2 s).
template <int N> HS_LANES DualLanes<N> chain_over(const DualLanes<N>& x, double value, double denominator) {
  DualLanes<N> r(value);
  if (x.c) return r;
  r.c = false;
  for (int l = 0; l < N; ++l) r.d[l] = x.d[l] / denominator;
  return r;
}
}  // namespace lanes_detail

/// Square root.
template <int N> HS_LANES DualLanes<N> sqrt(const DualLanes<N>& x) {
  const double s = std::sqrt(x.v);
  return lanes_detail::chain_over(x, s, 2.0 * s);
}
/// Cube root.
template <int N> HS_LANES DualLanes<N> cbrt(const DualLanes<N>& x) {
  const double c = std::cbrt(x.v);
  return lanes_detail::chain_over(x, c, 3.0 * c * c);
}
/// exp(x).
template <int N> HS_LANES DualLanes<N> exp(const DualLanes<N>& x) {
  const double e = std::exp(x.v);
  return lanes_detail::chain(x, e, e);
}
/// exp(x) - 1; its derivative formed as expm1(x) + 1.
template <int N> HS_LANES DualLanes<N> expm1(const DualLanes<N>& x) {
  const double e = std::expm1(x.v);
  return lanes_detail::chain(x, e, e + 1.0);
}
/// Natural logarithm.
template <int N> HS_LANES DualLanes<N> log(const DualLanes<N>& x) { return lanes_detail::chain_over(x, std::log(x.v), x.v); }
/// log(1 + x).
template <int N> HS_LANES DualLanes<N> log1p(const DualLanes<N>& x) {
  return lanes_detail::chain_over(x, std::log1p(x.v), 1.0 + x.v);
}
/// Absolute value; at 0 the derivative is taken from the + side.
template <int N> HS_LANES DualLanes<N> fabs(const DualLanes<N>& x) { return x.v < 0.0 ? -x : x; }

}  // namespace autodiff

using autodiff::DualLanes;

}  // namespace halfstep
