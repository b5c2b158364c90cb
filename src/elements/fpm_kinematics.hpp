// Kinematics shared by the finite particle method (FPM / VFIFE) elements, host/device: the
// fictitious reverse motion of one element over one increment (docs/theory.md, "FPM beam").
// An element's deformation coordinate system (DCS) Q = [e1 e2 e3] moves rigidly from Q_a (the
// last force evaluation) to Q_t = R Q_a; what the nodes did beyond that rigid motion is the
// pure deformation. The beam uses these now; the FPM triangle reuses them with its own frame.
//
// Nodes of FPM elements carry 6 dofs and a frame (t1, d) = R_node (t1_0, d_0) that the node
// update turns by each increment (dynamics/node_integrator.hpp); (t1_0, d_0) = (e1, e3) unless
// the node is shared with MITC4 shells (then their triad and director). A node's rotation over
// the increment is read from its frame now and its frame at the last evaluation, which the
// element keeps: re-evaluating an unchanged configuration then gives exactly no increment, and
// the initial frame drops out (F_now F_a^T = R_now R_a^T).
#pragma once

#include <cmath>

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "core/vec3.hpp"
#include "elements/rotation.hpp"

namespace halfstep {

/// One element's state in component-major storage over its family's elements (FPM beams and
/// triangles): component c at p[c * stride].
template <class T>
struct StridedState {
  T* p;
  long long stride;
  HS_HD T& operator[](int c) const { return p[c * stride]; }
};

/// Components c, c + 1, c + 2 of s as a vector.
template <class T>
HS_HD Vec3<T> load3(const StridedState<T>& s, int c) {
  return {s[c], s[c + 1], s[c + 2]};
}

/// Stores v into components c, c + 1, c + 2 of s.
template <class T>
HS_HD void store3(const StridedState<T>& s, int c, Vec3<T> v) {
  s[c] = v.x;
  s[c + 1] = v.y;
  s[c + 2] = v.z;
}

/// The matrix with columns a, b, c.
template <class T>
HS_HD Mat3<T> matrix_of_columns(Vec3<T> a, Vec3<T> b, Vec3<T> c) {
  return {{a.x, b.x, c.x, a.y, b.y, c.y, a.z, b.z, c.z}};
}

/// Column j of m.
template <class T>
HS_HD Vec3<T> column(const Mat3<T>& m, int j) {
  return {m(0, j), m(1, j), m(2, j)};
}

/// Rotation vector (log map) of the rotation matrix r.
template <class T>
HS_HD Vec3<T> rotation_log(const Mat3<T>& r) {
  const Vec3<T> e1{T(1), T(0), T(0)}, e2{T(0), T(1), T(0)}, e3{T(0), T(0), T(1)};
  return rotation_vector(e1, e2, e3, column(r, 0), column(r, 1), column(r, 2));
}

/// Rotation matrix R = [t1, d x t1, d] of a 6-dof node's frame (t1 = R e1, d = R e3).
template <class T>
HS_HD Mat3<T> node_rotation(Vec3<T> t1, Vec3<T> d) {
  return matrix_of_columns(t1, cross(d, t1), d);
}

/// The smallest rotation taking unit vector a to unit vector b, as a rotation vector (axis
/// a x b). Antiparallel vectors have no unique one: the caller's increments are small.
template <class T>
HS_HD Vec3<T> minimal_rotation(Vec3<T> a, Vec3<T> b) {
  const Vec3<T> k = cross(a, b);
  const T s = norm(k), c = dot(a, b);
  if (!(s > T(0))) return {T(0), T(0), T(0)};
  return (std::atan2(s, c) / s) * k;
}

/// Deformation rotation of a node in DCS components: the part of the node's increment
/// dR_node that the element's rigid rotation R does not explain, Q_t^T log(dR_node R^T).
/// Exact for finite increments (a rigid motion, dR_node = R, gives exactly zero).
template <class T>
HS_HD Vec3<T> deformation_rotation(const Mat3<T>& d_node, const Mat3<T>& rigid, const Mat3<T>& q_t) {
  return transpose(q_t) * rotation_log(d_node * transpose(rigid));
}

}  // namespace halfstep
