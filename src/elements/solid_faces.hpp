// Faces of the solid elements (Abaqus face labels S1..S6) and the nodal forces of a uniform
// follower pressure on a face, as host/device functions.
#pragma once

#include "core/host_device.hpp"
#include "core/vec3.hpp"

namespace halfstep {

/// Shape of a face: 4-node bilinear quadrilateral, 3-node or 6-node triangle.
enum FaceShape : int { kFaceTri3 = 3, kFaceQuad4 = 4, kFaceTri6 = 6 };

/// Element-local node numbers (0-based) of face `face` (1-based Abaqus label) of a hexahedron
/// (Abaqus C3D8 faces: S1 1-2-3-4, S2 5-8-7-6, S3 1-5-6-2, S4 2-6-7-3, S5 3-7-8-4, S6 4-8-5-1).
HS_HD void hex_face_nodes(int face, int out[4]) {
  const int table[6][4] = {{0, 1, 2, 3}, {4, 7, 6, 5}, {0, 4, 5, 1}, {1, 5, 6, 2}, {2, 6, 7, 3}, {3, 7, 4, 0}};
  for (int k = 0; k < 4; ++k) out[k] = table[face - 1][k];
}

/// The same for a tetrahedron (S1 1-2-3, S2 1-4-2, S3 2-4-3, S4 3-4-1), corners then, for the
/// 10-node element, the mid-edge nodes of the face's edges in corner order.
HS_HD void tet_face_nodes(int face, bool quadratic, int out[6]) {
  const int corners[4][3] = {{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {2, 3, 0}};
  // Mid-edge node of edge (a, b): 4:(0,1) 5:(1,2) 6:(2,0) 7:(0,3) 8:(1,3) 9:(2,3).
  const int mids[4][3] = {{4, 5, 6}, {7, 8, 4}, {8, 9, 5}, {9, 7, 6}};
  for (int k = 0; k < 3; ++k) out[k] = corners[face - 1][k];
  for (int k = 0; k < 3; ++k) out[3 + k] = quadratic ? mids[face - 1][k] : -1;
}

/// Nodal forces of pressure p on a face with current nodes x (shape nodes), pushing against
/// the face normal given by the node order (right-hand rule): f_a = -p int N_a n dA.
template <class T>
HS_HD void face_pressure_force(int shape, const Vec3<T> x[6], T p, Vec3<T> f[6]) {
  for (int a = 0; a < 6; ++a) f[a] = {T(0), T(0), T(0)};
  if (shape == kFaceTri3) {
    const Vec3<T> n = (T(0.5) * p / T(3)) * cross(x[1] - x[0], x[2] - x[0]);
    for (int a = 0; a < 3; ++a) f[a] = T(-1) * n;
    return;
  }
  if (shape == kFaceQuad4) {
    // 2 x 2 Gauss points; exact for a bilinear surface (the integrand is cubic per direction).
    const T g = T(0.5773502691896257);
    for (int q = 0; q < 4; ++q) {
      const T r = (q == 1 || q == 2) ? g : -g, s = q >= 2 ? g : -g;
      const T rs[4] = {T(-1), T(1), T(1), T(-1)}, ss[4] = {T(-1), T(-1), T(1), T(1)};
      Vec3<T> xr{T(0), T(0), T(0)}, xs{T(0), T(0), T(0)};
      T N[4];
      for (int a = 0; a < 4; ++a) {
        N[a] = T(0.25) * (T(1) + rs[a] * r) * (T(1) + ss[a] * s);
        xr += (T(0.25) * rs[a] * (T(1) + ss[a] * s)) * x[a];
        xs += (T(0.25) * ss[a] * (T(1) + rs[a] * r)) * x[a];
      }
      const Vec3<T> n = cross(xr, xs);  // weight 1 per point
      for (int a = 0; a < 4; ++a) f[a] += (-p * N[a]) * n;
    }
    return;
  }
  // 6-node triangle: 3-point rule (degree 2), exact for a straight-sided face.
  const T pts[3][2] = {{T(1) / T(6), T(1) / T(6)}, {T(2) / T(3), T(1) / T(6)}, {T(1) / T(6), T(2) / T(3)}};
  for (int q = 0; q < 3; ++q) {
    const T l1 = pts[q][0], l2 = pts[q][1], l0 = T(1) - l1 - l2;
    // Corners 0, 1, 2 at (l0, l1, l2) = 1; mid-edge 3:(0,1) 4:(1,2) 5:(2,0).
    const T N[6] = {l0 * (T(2) * l0 - T(1)), l1 * (T(2) * l1 - T(1)), l2 * (T(2) * l2 - T(1)),
                    T(4) * l0 * l1,          T(4) * l1 * l2,          T(4) * l2 * l0};
    // Derivatives along xi = l1 and eta = l2 (l0 = 1 - xi - eta).
    const T d1[6] = {-(T(4) * l0 - T(1)), T(4) * l1 - T(1), T(0), T(4) * (l0 - l1), T(4) * l2, -T(4) * l2};
    const T d2[6] = {-(T(4) * l0 - T(1)), T(0), T(4) * l2 - T(1), -T(4) * l1, T(4) * l1, T(4) * (l0 - l2)};
    Vec3<T> xr{T(0), T(0), T(0)}, xs{T(0), T(0), T(0)};
    for (int a = 0; a < 6; ++a) {
      xr += d1[a] * x[a];
      xs += d2[a] * x[a];
    }
    const Vec3<T> n = (T(1) / T(6)) * cross(xr, xs);  // weight: area 1/2 over 3 points
    for (int a = 0; a < 6; ++a) f[a] += (-p * N[a]) * n;
  }
}

}  // namespace halfstep
