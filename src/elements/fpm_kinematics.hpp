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

#include "core/dual.hpp"
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
  using std::atan2;
  const Vec3<T> k = cross(a, b);
  const T s = norm(k), c = dot(a, b);
  // a = b: k / c is the zero vector of plain numbers and, for dual numbers, carries the
  // derivative a x b' (the angle's factor atan2(s, c) / s tends to 1 / c).
  if (!(s > T(0))) return (T(1) / c) * k;
  return (atan2(s, c) / s) * k;
}

/// Deformation rotation of a node in DCS components: the part of the node's increment
/// dR_node that the element's rigid rotation R does not explain, Q_t^T log(dR_node R^T).
/// Exact for finite increments (a rigid motion, dR_node = R, gives exactly zero).
template <class T>
HS_HD Vec3<T> deformation_rotation(const Mat3<T>& d_node, const Mat3<T>& rigid, const Mat3<T>& q_t) {
  return transpose(q_t) * rotation_log(d_node * transpose(rigid));
}

/// Generalized dofs per corner of an FPM element in a static step: 3 translations, then the
/// spins about the node's t1, t2 = d x t1 and d.
constexpr int kFpmNodeDofs = 6;

/// The node frame (t1, d) turned by the spins w (components along t1, t2 = d x t1 and d).
template <class D>
HS_HD void turn_node_frame(Vec3<D>& t1, Vec3<D>& d, const D w[3]) {
  const Vec3<D> theta = w[0] * t1 + w[1] * cross(d, t1) + w[2] * d;
  const Vec3<D> nt = rotate(theta, t1), nd = rotate(theta, d);
  t1 = nt;
  d = nd;
}

/// Node k of an FPM element in a static step's evaluation: its displacement u0 and frame
/// (t10, d0) as numbers of type D, seeded when generalized dof `seed` is one of node k's
/// (seed / kFpmNodeDofs == k; dof seed % kFpmNodeDofs: a translation, or a spin about t1, t2 =
/// d x t1, d that turns the frame) for dual numbers; plain numbers ignore the seed.
template <class D>
HS_HD void fpm_seeded_node(const Vec3<double>& u0, const Vec3<double>& t10, const Vec3<double>& d0, int k, int seed,
                           Vec3<D>& u, Vec3<D>& t1, Vec3<D>& d) {
  D v[3] = {D(u0.x), D(u0.y), D(u0.z)};
  t1 = {D(t10.x), D(t10.y), D(t10.z)};
  d = {D(d0.x), D(d0.y), D(d0.z)};
  if constexpr (DualDepth<D>::value > 0) {
    if (seed / kFpmNodeDofs == k) {
      const int j = seed % kFpmNodeDofs;
      if (j < 3) {
        v[j].d = 1;
      } else {
        D w[3] = {D(0), D(0), D(0)};
        w[j - 3].d = 1;
        turn_node_frame(t1, d, w);
      }
    }
  }
  u = {v[0], v[1], v[2]};
}

/// A node's 6 generalized forces from the element's force f and moment m on it: f, then m's
/// components along the node's t1, t2 = d x t1 and d.
template <class D>
HS_HD void fpm_generalized_corner(const Vec3<D>& f, const Vec3<D>& m, const Vec3<D>& t1, const Vec3<D>& d, D* o) {
  o[0] = f.x;
  o[1] = f.y;
  o[2] = f.z;
  o[3] = dot(m, t1);
  o[4] = dot(m, cross(d, t1));
  o[5] = dot(m, d);
}

}  // namespace halfstep
