// Faces of the solid elements (Abaqus face labels S1..S6), edges of the planar and
// axisymmetric quadrilaterals (S1..S4, loaded as P1..P4), and the nodal forces of a uniform
// follower pressure on a face or edge, as host/device functions.
#pragma once

#include "core/host_device.hpp"
#include "core/vec3.hpp"

namespace halfstep {

/// Shape of a face: 4-node bilinear or 8-node serendipity quadrilateral, 3-node or 6-node
/// triangle (the value is the face's node count); or a 2-node or 3-node (quadratic: ends,
/// then the middle node) edge of a planar element (per unit thickness: the caller scales the
/// pressure by the section thickness) or of an axisymmetric one (a ring around the z axis,
/// x = r: the force is the ring's total).
enum FaceShape : int {
  kFaceEdge2 = 2,
  kFaceTri3 = 3,
  kFaceQuad4 = 4,
  kFaceTri6 = 6,
  kFaceQuad8 = 8,
  kFaceRingEdge2 = 12,
  kFaceEdge3 = 23,
  kFaceRingEdge3 = 33
};

/// Whether a face shape is an edge of a planar element (not a ring).
HS_HD bool is_plane_edge(int shape) { return shape == kFaceEdge2 || shape == kFaceEdge3; }

/// Corner nodes of a face or edge shape (its first nodes in the face tables).
HS_HD int face_corners(int shape) {
  if (shape == kFaceEdge2 || shape == kFaceRingEdge2 || shape == kFaceEdge3 || shape == kFaceRingEdge3) return 2;
  return shape == kFaceQuad4 || shape == kFaceQuad8 ? 4 : 3;
}

/// Most nodes of one face (the 8-node quadrilateral of C3D20): the stride of the face tables.
constexpr int kFaceMaxNodes = 8;

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

/// Element-local nodes of face `face` (1-based) of a 6-node wedge (Abaqus C3D6: S1 1-2-3,
/// S2 4-6-5, S3 1-4-5-2, S4 2-5-6-3, S5 3-6-4-1); the triangles pad out[3] with -1.
HS_HD void wedge_face_nodes(int face, int out[4]) {
  const int table[5][4] = {{0, 1, 2, -1}, {3, 5, 4, -1}, {0, 3, 4, 1}, {1, 4, 5, 2}, {2, 5, 3, 0}};
  for (int k = 0; k < 4; ++k) out[k] = table[face - 1][k];
}

/// Mid-edge node (0-based, 8..19) of the 20-node hexahedron between corners a and b, or -1
/// (Abaqus C3D20: 9:(1-2) 10:(2-3) 11:(3-4) 12:(4-1) 13:(5-6) 14:(6-7) 15:(7-8) 16:(8-5)
/// 17:(1-5) 18:(2-6) 19:(3-7) 20:(4-8), which is VTK's quadratic hexahedron order too).
HS_HD int hex20_edge_node(int a, int b) {
  const int ends[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6}, {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  for (int e = 0; e < 12; ++e)
    if ((ends[e][0] == a && ends[e][1] == b) || (ends[e][0] == b && ends[e][1] == a)) return 8 + e;
  return -1;
}

/// Faces of a 3-D solid element with `nodes` nodes (4 C3D4, 6 C3D6, 8 C3D8/C3D8R, 10
/// C3D10/C3D10M, 20 C3D20/C3D20R): 0 for any other count (planar elements have edges, not
/// faces).
HS_HD int solid_face_count(int nodes) {
  return nodes == 4 || nodes == 10 ? 4 : nodes == 6 ? 5 : nodes == 8 || nodes == 20 ? 6 : 0;
}

/// Element-local nodes (out, kFaceMaxNodes entries padded with -1: corners in the Abaqus
/// face order, then the mid-edge nodes of the face's edges in corner order) and shape of
/// face `face` (1..solid_face_count) of a 3-D solid element with `nodes` nodes.
HS_HD int solid_face(int nodes, int face, int out[kFaceMaxNodes]) {
  for (int k = 0; k < kFaceMaxNodes; ++k) out[k] = -1;
  if (nodes == 8 || nodes == 20) {
    hex_face_nodes(face, out);
    if (nodes == 8) return kFaceQuad4;
    for (int k = 0; k < 4; ++k) out[4 + k] = hex20_edge_node(out[k], out[(k + 1) % 4]);
    return kFaceQuad8;
  }
  if (nodes == 6) {
    wedge_face_nodes(face, out);
    return out[3] < 0 ? kFaceTri3 : kFaceQuad4;
  }
  int t[6];
  tet_face_nodes(face, nodes == 10, t);
  for (int k = 0; k < 6; ++k) out[k] = t[k];
  return nodes == 10 ? kFaceTri6 : kFaceTri3;
}

/// Element-local nodes (out, kFaceMaxNodes entries, -1 padded) and shape of a face of a
/// surface: a solid's S1..S6 (hexahedra, tetrahedra, wedges: the faces ties and couplings
/// take; the 20-node hexahedron's 8-node faces, corners then mid-edge nodes) or a shell's
/// side (face 7 SPOS, 8 SNEG: the shell's own nodes, in element order; shell: the element is
/// a shell with `nodes` corners).
HS_HD int surface_face_nodes(int nodes, bool shell, int face, int out[kFaceMaxNodes]) {
  for (int k = 0; k < kFaceMaxNodes; ++k) out[k] = -1;
  if (shell) {
    for (int k = 0; k < nodes && k < 4; ++k) out[k] = k;
    return nodes == 3 ? kFaceTri3 : kFaceQuad4;
  }
  if (nodes == 8 || nodes == 20) return solid_face(nodes, face, out);
  if (nodes == 6) {  // C3D6: triangles S1, S2, quadrilaterals S3..S5
    wedge_face_nodes(face, out);
    return out[3] < 0 ? kFaceTri3 : kFaceQuad4;
  }
  tet_face_nodes(face, nodes == 10, out);
  return nodes == 10 ? kFaceTri6 : kFaceTri3;
}

/// Edges of a planar element with `nodes` nodes (the 4-node quadrilaterals CPS4, CPE4,
/// CPS4R, CPE4R, CAX4R, the 8-node ones CPS8, CPE8, CAX8 and their R forms, and the NURBS
/// elements NCPE/NCPS: 4), 0 for any other count.
HS_HD int planar_edge_count(int nodes) {
  // 4, 8: the quadrilaterals; 9, 16, 25: the NURBS elements of degree 2..4 (their sides'
  // loads are integrated by discretization/step_loads.cpp, not through element_face).
  return nodes == 4 || nodes == 8 || nodes == 9 || nodes == 16 || nodes == 25 ? 4 : 0;
}

/// Faces (dimension 3) or edges (dimension 2) of an element kind with `nodes` nodes: node
/// count alone cannot tell a quadrilateral from a tetrahedron. The NURBS solids NC3D2 and
/// NC3D3 (27 and 64 nodes) have the six faces S1..S6 of a hexahedron too; their pressures are
/// integrated by discretization/step_loads.cpp, not through element_face, and solid_face
/// (ties, couplings, contact) does not know them, so solid_face_count leaves them out.
HS_HD int element_face_count(int nodes, int dimension) {
  if (dimension == 2) return planar_edge_count(nodes);
  return nodes == 27 || nodes == 64 ? 6 : solid_face_count(nodes);
}

/// Element-local nodes (out, padded with -1) and shape of face `face` (1-based label) of an
/// element kind: a solid_face for dimension 3; for dimension 2, edge k of a quadrilateral is
/// nodes k and k + 1 (edge 4: nodes 4 and 1), as Abaqus's S1..S4 / P1..P4, and for the
/// 8-node quadrilateral its mid-side node 4 + k after them.
HS_HD int element_face(int nodes, int dimension, bool axisymmetric, int face, int out[kFaceMaxNodes]) {
  if (dimension != 2) return solid_face(nodes, face, out);
  for (int k = 0; k < kFaceMaxNodes; ++k) out[k] = -1;
  const int corners = nodes == 8 ? 4 : nodes;
  out[0] = face - 1;
  out[1] = face % corners;
  if (nodes == 8) {
    out[2] = 3 + face;
    return axisymmetric ? kFaceRingEdge3 : kFaceEdge3;
  }
  return axisymmetric ? kFaceRingEdge2 : kFaceEdge2;
}

/// Nodal forces of pressure p on a face with current nodes x (shape nodes), pushing against
/// the face normal given by the node order (right-hand rule): f_a = -p int N_a n dA.
template <class T>
HS_HD void face_pressure_force(int shape, const Vec3<T> x[kFaceMaxNodes], T p, Vec3<T> f[kFaceMaxNodes]) {
  for (int a = 0; a < kFaceMaxNodes; ++a) f[a] = {T(0), T(0), T(0)};
  if (shape == kFaceEdge2 || shape == kFaceRingEdge2) {
    // (dy, -dx) = L times the normal on the right of a -> b in the (x, y) plane: outward for
    // counter-clockwise element nodes. Plane: f_a = -p L / 2 n (unit thickness). Ring:
    // f_a = -p 2 pi int N_a r ds n, exact for a straight edge: 2 pi L / 6 (2 r_a + r_b).
    const Vec3<T> n{x[1].y - x[0].y, x[0].x - x[1].x, T(0)};
    if (shape == kFaceEdge2) {
      for (int a = 0; a < 2; ++a) f[a] = (T(-0.5) * p) * n;
      return;
    }
    const T c = T(-6.283185307179586) * p / T(6);
    f[0] = (c * (T(2) * x[0].x + x[1].x)) * n;
    f[1] = (c * (x[0].x + T(2) * x[1].x)) * n;
    return;
  }
  if (shape == kFaceEdge3 || shape == kFaceRingEdge3) {
    // Quadratic edge: ends 0, 1 at s = -1, +1, middle node 2 at s = 0; n ds = (y_s, -x_s) ds
    // on the right of 0 -> 1. Three Gauss points integrate N_a x_s (degree 3) exactly, and
    // the ring's N_a r x_s (degree 5) too.
    const T gq[3] = {T(-0.77459666924148337704), T(0), T(0.77459666924148337704)};
    const T wq[3] = {T(5) / T(9), T(8) / T(9), T(5) / T(9)};
    for (int q = 0; q < 3; ++q) {
      const T s = gq[q];
      const T N[3] = {T(0.5) * s * (s - T(1)), T(0.5) * s * (s + T(1)), T(1) - s * s};
      const T dN[3] = {s - T(0.5), s + T(0.5), T(-2) * s};
      T xs = T(0), ys = T(0), r = T(0);
      for (int a = 0; a < 3; ++a) {
        xs += dN[a] * x[a].x;
        ys += dN[a] * x[a].y;
        r += N[a] * x[a].x;
      }
      const T w = shape == kFaceEdge3 ? wq[q] : T(6.283185307179586) * r * wq[q];
      const Vec3<T> n{ys, -xs, T(0)};
      for (int a = 0; a < 3; ++a) f[a] += (-p * w * N[a]) * n;
    }
    return;
  }
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
  if (shape == kFaceQuad8) {
    // Serendipity quadrilateral (corners 0-3 at (r, s) = (-+1, -+1) counter-clockwise,
    // mid-edge nodes 4:(0,1) 5:(1,2) 6:(2,3) 7:(3,0)), 3 x 3 Gauss points: exact for a flat
    // parallelogram face (N_a times the constant normal is quadratic per direction).
    const T gq[3] = {T(-0.77459666924148337704), T(0), T(0.77459666924148337704)};
    const T wq[3] = {T(5) / T(9), T(8) / T(9), T(5) / T(9)};
    const T rc[4] = {T(-1), T(1), T(1), T(-1)}, sc[4] = {T(-1), T(-1), T(1), T(1)};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const T r = gq[i], s = gq[j];
        T N[8], dr[8], ds[8];
        for (int a = 0; a < 4; ++a) {
          const T ra = rc[a] * r, sa = sc[a] * s;
          N[a] = T(0.25) * (T(1) + ra) * (T(1) + sa) * (ra + sa - T(1));
          dr[a] = T(0.25) * rc[a] * (T(1) + sa) * (T(2) * ra + sa);
          ds[a] = T(0.25) * sc[a] * (T(1) + ra) * (ra + T(2) * sa);
        }
        // Mid-edge nodes 4 and 6 on s = -+1 (r free), 5 and 7 on r = +-1 (s free).
        for (int e = 0; e < 4; ++e) {
          const int a = 4 + e;
          if (e % 2 == 0) {
            const T se = e == 0 ? T(-1) : T(1);
            N[a] = T(0.5) * (T(1) - r * r) * (T(1) + se * s);
            dr[a] = -r * (T(1) + se * s);
            ds[a] = T(0.5) * (T(1) - r * r) * se;
          } else {
            const T re = e == 1 ? T(1) : T(-1);
            N[a] = T(0.5) * (T(1) + re * r) * (T(1) - s * s);
            dr[a] = T(0.5) * re * (T(1) - s * s);
            ds[a] = -(T(1) + re * r) * s;
          }
        }
        Vec3<T> xr{T(0), T(0), T(0)}, xs{T(0), T(0), T(0)};
        for (int a = 0; a < 8; ++a) {
          xr += dr[a] * x[a];
          xs += ds[a] * x[a];
        }
        const Vec3<T> n = (wq[i] * wq[j]) * cross(xr, xs);
        for (int a = 0; a < 8; ++a) f[a] += (-p * N[a]) * n;
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
