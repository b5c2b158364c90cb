// Fixed-size 3-vector arithmetic shared by host and device code.
#pragma once

#include <cmath>

#include "core/host_device.hpp"

namespace halfstep {

/// A 3-component vector of T (double or float) with value semantics.
template <class T>
struct Vec3 {
  T x, y, z;
};

template <class T> HS_HD Vec3<T> operator+(Vec3<T> a, Vec3<T> b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
template <class T> HS_HD Vec3<T> operator-(Vec3<T> a, Vec3<T> b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
template <class T> HS_HD Vec3<T> operator-(Vec3<T> a) { return {-a.x, -a.y, -a.z}; }
template <class T> HS_HD Vec3<T> operator*(T s, Vec3<T> a) { return {s * a.x, s * a.y, s * a.z}; }
template <class T> HS_HD Vec3<T>& operator+=(Vec3<T>& a, Vec3<T> b) { a.x += b.x; a.y += b.y; a.z += b.z; return a; }
template <class T> HS_HD Vec3<T>& operator-=(Vec3<T>& a, Vec3<T> b) { a.x -= b.x; a.y -= b.y; a.z -= b.z; return a; }
/// Scalar product.
template <class T> HS_HD T dot(Vec3<T> a, Vec3<T> b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
/// Vector product.
template <class T> HS_HD Vec3<T> cross(Vec3<T> a, Vec3<T> b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
/// Euclidean length.
template <class T> HS_HD T norm(Vec3<T> a) {
  using std::sqrt;  // unqualified: dual numbers take their own overload
  return sqrt(dot(a, a));
}
/// a / |a|; the caller guarantees a != 0.
template <class T> HS_HD Vec3<T> normalized(Vec3<T> a) { return (T(1) / norm(a)) * a; }

}  // namespace halfstep
