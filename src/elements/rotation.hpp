// Finite rotations of nodal directors: exponential map (Rodrigues) and its inverse.
#pragma once

#include <cmath>

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "core/vec3.hpp"

namespace halfstep {

/// The change R w - w that the rotation vector theta (axis theta/|theta|, angle |theta|)
/// makes to w, formed without w itself so that a small change keeps its own relative
/// precision (what a compensated sum of many small turns needs).
template <class T>
HS_HD Vec3<T> rotation_increment(Vec3<T> theta, Vec3<T> w) {
  using std::sin;  // unqualified here and below: dual numbers take their own overloads
  using std::sqrt;
  const T phi2 = dot(theta, theta);
  T s, c;  // sin(phi)/phi and (1 - cos(phi))/phi^2, by series when phi is small
  if (phi2 < T(1e-8)) {
    s = T(1) - phi2 / T(6);
    c = T(0.5) - phi2 / T(24);
  } else {
    // 1 - cos(phi) = 2 sin^2(phi/2): the difference form cancels to nothing in FP32 for
    // phi below ~1e-3 (c came out 0 or 1.5 instead of 0.5, a length error of phi^2 per turn).
    const T phi = sqrt(phi2);
    const T h = sin(T(0.5) * phi) / phi;
    s = sin(phi) / phi;
    c = T(2) * h * h;
  }
  const Vec3<T> tw = cross(theta, w);
  return s * tw + c * cross(theta, tw);
}

/// Rotates w by the rotation vector theta (axis theta/|theta|, angle |theta|), exactly.
template <class T>
HS_HD Vec3<T> rotate(Vec3<T> theta, Vec3<T> w) {
  return w + rotation_increment(theta, w);
}

/// Matrix of the rotation vector theta: column j is rotate(theta, e_j).
template <class T>
HS_HD Mat3<T> rotation_matrix(Vec3<T> theta) {
  const Vec3<T> c[3] = {rotate(theta, Vec3<T>{T(1), T(0), T(0)}), rotate(theta, Vec3<T>{T(0), T(1), T(0)}),
                        rotate(theta, Vec3<T>{T(0), T(0), T(1)})};
  Mat3<T> r;
  for (int j = 0; j < 3; ++j) {
    r(0, j) = c[j].x;
    r(1, j) = c[j].y;
    r(2, j) = c[j].z;
  }
  return r;
}

/// Rotation vector of the rotation taking frame (a1, a2, a3) to frame (b1, b2, b3),
/// both right-handed orthonormal: log map of R = sum_i b_i a_i^T.
template <class T>
HS_HD Vec3<T> rotation_vector(Vec3<T> a1, Vec3<T> a2, Vec3<T> a3, Vec3<T> b1, Vec3<T> b2, Vec3<T> b3) {
  using std::atan2;  // unqualified here and below: dual numbers take their own overloads
  using std::fmax;
  using std::sqrt;
  // R_ij = b1_i a1_j + b2_i a2_j + b3_i a3_j
  const T r[3][3] = {
      {b1.x * a1.x + b2.x * a2.x + b3.x * a3.x, b1.x * a1.y + b2.x * a2.y + b3.x * a3.y, b1.x * a1.z + b2.x * a2.z + b3.x * a3.z},
      {b1.y * a1.x + b2.y * a2.x + b3.y * a3.x, b1.y * a1.y + b2.y * a2.y + b3.y * a3.y, b1.y * a1.z + b2.y * a2.z + b3.y * a3.z},
      {b1.z * a1.x + b2.z * a2.x + b3.z * a3.x, b1.z * a1.y + b2.z * a2.y + b3.z * a3.y, b1.z * a1.z + b2.z * a2.z + b3.z * a3.z}};
  const T tr = r[0][0] + r[1][1] + r[2][2];
  T cosphi = T(0.5) * (tr - T(1));
  cosphi = cosphi > T(1) ? T(1) : (cosphi < T(-1) ? T(-1) : cosphi);
  const Vec3<T> axial{T(0.5) * (r[2][1] - r[1][2]), T(0.5) * (r[0][2] - r[2][0]), T(0.5) * (r[1][0] - r[0][1])};
  const T sinphi = norm(axial);
  const T phi = atan2(sinphi, cosphi);
  // R ~ I + [theta]x; also where a dual number's rotation is exactly I (its derivative is the
  // axial part's, and sinphi's would be 0/0).
  if (phi < T(1e-6)) return axial;
  if (T(3.14159265358979) - phi > T(1e-4)) return (phi / sinphi) * axial;
  // Near pi: axis from the symmetric part, sign from the axial vector.
  const int i = (r[0][0] >= r[1][1] && r[0][0] >= r[2][2]) ? 0 : (r[1][1] >= r[2][2] ? 1 : 2);
  const int j = (i + 1) % 3, k = (i + 2) % 3;
  const T ai = sqrt(fmax(T(0), T(0.5) * (r[i][i] + T(1))));
  T ax[3];
  ax[i] = ai;
  ax[j] = (r[j][i] + r[i][j]) / (T(4) * ai);
  ax[k] = (r[k][i] + r[i][k]) / (T(4) * ai);
  Vec3<T> axis{ax[0], ax[1], ax[2]};
  if (dot(axis, axial) < T(0)) axis = -axis;
  return phi * axis;
}

}  // namespace halfstep
