// Fixed-size 3x3 matrix arithmetic shared by host and device code (solid kinematics and
// stresses).
#pragma once

#include "core/host_device.hpp"
#include "core/vec3.hpp"

namespace halfstep {

/// A 3x3 matrix of T, row-major: a[3 * i + j] is row i, column j.
template <class T>
struct Mat3 {
  T a[9];
  HS_HD T& operator()(int i, int j) { return a[3 * i + j]; }
  HS_HD T operator()(int i, int j) const { return a[3 * i + j]; }
};

/// Identity scaled by s.
template <class T> HS_HD Mat3<T> scaled_identity(T s) {
  return {{s, T(0), T(0), T(0), s, T(0), T(0), T(0), s}};
}
template <class T> HS_HD Mat3<T> operator+(const Mat3<T>& x, const Mat3<T>& y) {
  Mat3<T> r;
  for (int i = 0; i < 9; ++i) r.a[i] = x.a[i] + y.a[i];
  return r;
}
template <class T> HS_HD Mat3<T> operator-(const Mat3<T>& x, const Mat3<T>& y) {
  Mat3<T> r;
  for (int i = 0; i < 9; ++i) r.a[i] = x.a[i] - y.a[i];
  return r;
}
template <class T> HS_HD Mat3<T> operator*(T s, const Mat3<T>& x) {
  Mat3<T> r;
  for (int i = 0; i < 9; ++i) r.a[i] = s * x.a[i];
  return r;
}
/// Matrix product.
template <class T> HS_HD Mat3<T> operator*(const Mat3<T>& x, const Mat3<T>& y) {
  Mat3<T> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r(i, j) = x(i, 0) * y(0, j) + x(i, 1) * y(1, j) + x(i, 2) * y(2, j);
  return r;
}
/// Matrix times vector.
template <class T> HS_HD Vec3<T> operator*(const Mat3<T>& x, Vec3<T> v) {
  return {x(0, 0) * v.x + x(0, 1) * v.y + x(0, 2) * v.z, x(1, 0) * v.x + x(1, 1) * v.y + x(1, 2) * v.z,
          x(2, 0) * v.x + x(2, 1) * v.y + x(2, 2) * v.z};
}
template <class T> HS_HD Mat3<T> transpose(const Mat3<T>& x) {
  return {{x.a[0], x.a[3], x.a[6], x.a[1], x.a[4], x.a[7], x.a[2], x.a[5], x.a[8]}};
}
template <class T> HS_HD T trace(const Mat3<T>& x) { return x.a[0] + x.a[4] + x.a[8]; }
template <class T> HS_HD T determinant(const Mat3<T>& x) {
  return x(0, 0) * (x(1, 1) * x(2, 2) - x(1, 2) * x(2, 1)) - x(0, 1) * (x(1, 0) * x(2, 2) - x(1, 2) * x(2, 0)) +
         x(0, 2) * (x(1, 0) * x(2, 1) - x(1, 1) * x(2, 0));
}
/// Inverse; the caller guarantees det != 0.
template <class T> HS_HD Mat3<T> inverse(const Mat3<T>& x) {
  const T inv = T(1) / determinant(x);
  Mat3<T> r;
  r(0, 0) = (x(1, 1) * x(2, 2) - x(1, 2) * x(2, 1)) * inv;
  r(0, 1) = (x(0, 2) * x(2, 1) - x(0, 1) * x(2, 2)) * inv;
  r(0, 2) = (x(0, 1) * x(1, 2) - x(0, 2) * x(1, 1)) * inv;
  r(1, 0) = (x(1, 2) * x(2, 0) - x(1, 0) * x(2, 2)) * inv;
  r(1, 1) = (x(0, 0) * x(2, 2) - x(0, 2) * x(2, 0)) * inv;
  r(1, 2) = (x(0, 2) * x(1, 0) - x(0, 0) * x(1, 2)) * inv;
  r(2, 0) = (x(1, 0) * x(2, 1) - x(1, 1) * x(2, 0)) * inv;
  r(2, 1) = (x(0, 1) * x(2, 0) - x(0, 0) * x(2, 1)) * inv;
  r(2, 2) = (x(0, 0) * x(1, 1) - x(0, 1) * x(1, 0)) * inv;
  return r;
}
/// Double contraction x : y.
template <class T> HS_HD T ddot(const Mat3<T>& x, const Mat3<T>& y) {
  T s = T(0);
  for (int i = 0; i < 9; ++i) s += x.a[i] * y.a[i];
  return s;
}

}  // namespace halfstep
