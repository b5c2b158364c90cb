// Forward-mode dual numbers for host/device code: a value and one directional derivative.
// Material laws are templates on their number type, so evaluating one with Dual<T> along a
// direction dF returns S and dS/dF·dF in a single pass; the tangent is then the derivative of
// the stress exactly as it is coded (same branches, same cancellation-free forms), not of a
// second formula that could drift from it.
//
// Dual and its operators and math overloads live in namespace halfstep::autodiff and are found
// by argument-dependent lookup only: unqualified calls under `using std::sqrt;` pick them for
// Dual<T> while double and float still resolve to the std functions (results bit-identical).
// Declared directly in namespace halfstep, a template fabs or sqrt would hide ::fabs from
// every unqualified call in halfstep code that relies on the C library's (the CUDA kernels).
#pragma once

#include <cmath>

#include "core/host_device.hpp"

namespace halfstep {
namespace autodiff {

/// A number v + d·ε with ε² = 0: d carries the derivative along one seeded direction.
template <class T>
struct Dual {
  T v;  ///< value
  T d;  ///< derivative along the seeded direction

  /// Uninitialised like a plain T, so that Dual stays trivial (copyable to the GPU as is).
  Dual() = default;
  /// A constant (derivative 0) or a seeded variable; implicit so that T(0.5) and literals work.
  HS_HD constexpr Dual(T value, T deriv = T(0)) : v(value), d(deriv) {}

  /// In-place sum.
  HS_HD Dual& operator+=(const Dual& b) { v += b.v; d += b.d; return *this; }
  /// In-place difference.
  HS_HD Dual& operator-=(const Dual& b) { v -= b.v; d -= b.d; return *this; }
  // The compound products take b by value so that x *= x and x /= x read the old x.
  /// In-place product.
  HS_HD Dual& operator*=(Dual b) {
    d = d * b.v + v * b.d;
    v *= b.v;
    return *this;
  }
  /// In-place quotient.
  HS_HD Dual& operator/=(Dual b) {
    v /= b.v;
    d = (d - v * b.d) / b.v;
    return *this;
  }
};

/// Unary plus.
template <class T> HS_HD Dual<T> operator+(const Dual<T>& a) { return a; }
/// Negation.
template <class T> HS_HD Dual<T> operator-(const Dual<T>& a) { return {-a.v, -a.d}; }
/// Sum.
template <class T> HS_HD Dual<T> operator+(const Dual<T>& a, const Dual<T>& b) { return {a.v + b.v, a.d + b.d}; }
/// Sum with a constant.
template <class T> HS_HD Dual<T> operator+(const Dual<T>& a, const T& b) { return {a.v + b, a.d}; }
/// Sum with a constant.
template <class T> HS_HD Dual<T> operator+(const T& a, const Dual<T>& b) { return {a + b.v, b.d}; }
/// Product.
template <class T> HS_HD Dual<T> operator*(const Dual<T>& a, const Dual<T>& b) {
  return {a.v * b.v, a.d * b.v + a.v * b.d};
}
/// Quotient; d = (a.d - q b.d) / b.v reuses the quotient instead of dividing by b.v².
template <class T> HS_HD Dual<T> operator/(const Dual<T>& a, const Dual<T>& b) {
  const T q = a.v / b.v;
  return {q, (a.d - q * b.d) / b.v};
}
/// Difference.
template <class T> HS_HD Dual<T> operator-(const Dual<T>& a, const Dual<T>& b) { return {a.v - b.v, a.d - b.d}; }
/// Difference with a constant.
template <class T> HS_HD Dual<T> operator-(const Dual<T>& a, const T& b) { return {a.v - b, a.d}; }
/// Difference with a constant.
template <class T> HS_HD Dual<T> operator-(const T& a, const Dual<T>& b) { return {a - b.v, -b.d}; }
/// Product with a constant.
template <class T> HS_HD Dual<T> operator*(const Dual<T>& a, const T& b) { return {a.v * b, a.d * b}; }
/// Product with a constant.
template <class T> HS_HD Dual<T> operator*(const T& a, const Dual<T>& b) { return {a * b.v, a * b.d}; }
/// Quotient by a constant.
template <class T> HS_HD Dual<T> operator/(const Dual<T>& a, const T& b) { return {a.v / b, a.d / b}; }
/// Constant divided by a dual number.
template <class T> HS_HD Dual<T> operator/(const T& a, const Dual<T>& b) {
  const T q = a / b.v;
  return {q, -q * b.d / b.v};
}

// Comparisons look at the value only: branches of a law (J > 0, the larger modulus) must
// take the same path as the plain evaluation they differentiate.
/// Value comparison.
template <class T> HS_HD bool operator<(const Dual<T>& a, const Dual<T>& b) { return a.v < b.v; }
/// Value comparison.
template <class T> HS_HD bool operator>(const Dual<T>& a, const Dual<T>& b) { return a.v > b.v; }
/// Value comparison.
template <class T> HS_HD bool operator<=(const Dual<T>& a, const Dual<T>& b) { return a.v <= b.v; }
/// Value comparison.
template <class T> HS_HD bool operator>=(const Dual<T>& a, const Dual<T>& b) { return a.v >= b.v; }
/// Value comparison.
template <class T> HS_HD bool operator==(const Dual<T>& a, const Dual<T>& b) { return a.v == b.v; }
/// Value comparison.
template <class T> HS_HD bool operator!=(const Dual<T>& a, const Dual<T>& b) { return a.v != b.v; }
/// Value comparison with a constant.
template <class T> HS_HD bool operator<(const Dual<T>& a, const T& b) { return a.v < b; }
/// Value comparison with a constant.
template <class T> HS_HD bool operator<(const T& a, const Dual<T>& b) { return a < b.v; }
/// Value comparison with a constant.
template <class T> HS_HD bool operator>(const Dual<T>& a, const T& b) { return a.v > b; }
/// Value comparison with a constant.
template <class T> HS_HD bool operator>(const T& a, const Dual<T>& b) { return a > b.v; }
/// Value comparison with a constant.
template <class T> HS_HD bool operator<=(const Dual<T>& a, const T& b) { return a.v <= b; }
/// Value comparison with a constant.
template <class T> HS_HD bool operator<=(const T& a, const Dual<T>& b) { return a <= b.v; }
/// Value comparison with a constant.
template <class T> HS_HD bool operator>=(const Dual<T>& a, const T& b) { return a.v >= b; }
/// Value comparison with a constant.
template <class T> HS_HD bool operator>=(const T& a, const Dual<T>& b) { return a >= b.v; }
/// Value comparison with a constant.
template <class T> HS_HD bool operator==(const Dual<T>& a, const T& b) { return a.v == b; }
/// Value comparison with a constant.
template <class T> HS_HD bool operator==(const T& a, const Dual<T>& b) { return a == b.v; }
/// Value comparison with a constant.
template <class T> HS_HD bool operator!=(const Dual<T>& a, const T& b) { return a.v != b; }
/// Value comparison with a constant.
template <class T> HS_HD bool operator!=(const T& a, const Dual<T>& b) { return a != b.v; }

/// The plain value of a number (itself) or of a dual number (its value part, recursively):
/// for iteration stops that must not depend on the derivative parts.
HS_HD double value_of(double x) { return x; }
/// The value part of a dual number.
template <class T> HS_HD double value_of(const Dual<T>& x) { return value_of(x.v); }

// The inner calls are unqualified under using-declarations so that Dual<Dual<T>> (second
// derivatives) recurses into these same overloads.
/// Square root; the derivative is infinite at 0, as for the real function.
template <class T> HS_HD Dual<T> sqrt(const Dual<T>& x) {
  using std::sqrt;
  const T s = sqrt(x.v);
  return {s, x.d / (T(2) * s)};
}
/// Cube root (the F-bar factor of C3D8); derivative x' / (3 cbrt(x)^2).
template <class T> HS_HD Dual<T> cbrt(const Dual<T>& x) {
  using std::cbrt;
  const T c = cbrt(x.v);
  return {c, x.d / (T(3) * c * c)};
}
/// exp(x).
template <class T> HS_HD Dual<T> exp(const Dual<T>& x) {
  using std::exp;
  const T e = exp(x.v);
  return {e, x.d * e};
}
/// exp(x) - 1, accurate for small x; its derivative exp(x) is formed as expm1(x) + 1.
template <class T> HS_HD Dual<T> expm1(const Dual<T>& x) {
  using std::expm1;
  const T e = expm1(x.v);
  return {e, x.d * (e + T(1))};
}
/// Natural logarithm.
template <class T> HS_HD Dual<T> log(const Dual<T>& x) {
  using std::log;
  return {log(x.v), x.d / x.v};
}
/// log(1 + x), accurate for small x.
template <class T> HS_HD Dual<T> log1p(const Dual<T>& x) {
  using std::log1p;
  return {log1p(x.v), x.d / (T(1) + x.v)};
}
/// Absolute value; at 0 the derivative is taken from the + side.
template <class T> HS_HD Dual<T> fabs(const Dual<T>& x) { return x.v < T(0) ? -x : x; }
/// Sine.
template <class T> HS_HD Dual<T> sin(const Dual<T>& x) {
  using std::cos;
  using std::sin;
  return {sin(x.v), x.d * cos(x.v)};
}
/// Cosine.
template <class T> HS_HD Dual<T> cos(const Dual<T>& x) {
  using std::cos;
  using std::sin;
  return {cos(x.v), -x.d * sin(x.v)};
}
/// Angle of (x, y): d = (x dy - y dx) / (x^2 + y^2).
template <class T> HS_HD Dual<T> atan2(const Dual<T>& y, const Dual<T>& x) {
  using std::atan2;
  return {atan2(y.v, x.v), (x.v * y.d - y.v * x.d) / (x.v * x.v + y.v * y.v)};
}
/// The larger of two numbers (the first on a tie), with its derivative.
template <class T> HS_HD Dual<T> fmax(const Dual<T>& a, const Dual<T>& b) { return b.v > a.v ? b : a; }

}  // namespace autodiff

using autodiff::Dual;

/// Nesting depth of dual numbers: 0 for plain numbers, 1 for Dual<double>, 2 for
/// Dual<Dual<double>> (a small-strain step's tangent: kinematics linearized in the outer
/// level, the tangent's direction in the inner).
template <class T>
struct DualDepth {
  static constexpr int value = 0;
};
/// A dual number one level above T.
template <class T>
struct DualDepth<Dual<T>> {
  static constexpr int value = 1 + DualDepth<T>::value;
};

}  // namespace halfstep
