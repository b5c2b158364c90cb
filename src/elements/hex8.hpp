// C3D8R: 8-node hexahedron with one-point integration and Flanagan-Belytschko hourglass
// control, total Lagrangian, as host/device functions.
//
// The deformation gradient is the element's mean one, F = I + sum_a u_a (x) b_a with b_a the
// volume average of dN_a/dX; for any element shape sum_a X_a (x) b_a = I, so every linear
// displacement field gives the exact F (the patch test at element level). The internal force
// is f_a = V P b_a with P = F S. The four hourglass modes the single point cannot see are
// resisted by the Flanagan-Belytschko vectors gamma^i = h^i - (sum_b h^i_b X_b) . b, which
// are orthogonal to every linear field: hourglass forces f_a = k sum_i gamma^i_a q^i,
// q^i = sum_a gamma^i_a u_a, vanish for rigid motions of any size, and derive from the energy
// k/2 sum_i |q^i|^2, reported as the hourglass energy.
#pragma once

#include "core/host_device.hpp"
#include "core/is_lanes.hpp"
#include "core/mat3.hpp"
#include "core/vec3.hpp"
#include "materials/material_law.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {

/// Natural-coordinate signs of the 8 nodes (Abaqus C3D8 order: bottom face 1-4, top 5-8).
HS_HD int hex8_sign(int a, int axis) {
  const int xi = (a == 1 || a == 2 || a == 5 || a == 6) ? 1 : -1;
  const int eta = (a == 2 || a == 3 || a == 6 || a == 7) ? 1 : -1;
  const int zeta = a >= 4 ? 1 : -1;
  return axis == 0 ? xi : (axis == 1 ? eta : zeta);
}

/// Reference constants of one C3D8R element.
template <class T>
struct Hex8Ref {
  Vec3<T> b[8];     ///< uniform gradient: volume average of dN_a/dX
  T volume;         ///< exact reference volume
  T gamma[4][8];    ///< Flanagan-Belytschko hourglass vectors
};

/// True when det J > 0 at all 2x2x2 Gauss points (a valid, not inverted element); checked
/// once when the model is built, not in the time loop.
template <class T>
HS_HD bool hex8_jacobians_positive(const Vec3<T> X[8]) {
  const T gp = T(0.57735026918962576451);
  for (int g = 0; g < 8; ++g) {
    const T xi = T(hex8_sign(g, 0)) * gp, eta = T(hex8_sign(g, 1)) * gp, zeta = T(hex8_sign(g, 2)) * gp;
    Mat3<T> J = scaled_identity(T(0));  // J_ij = sum_a X_a,i dN_a/dxi_j
    for (int a = 0; a < 8; ++a) {
      const T s0 = T(hex8_sign(a, 0)), s1 = T(hex8_sign(a, 1)), s2 = T(hex8_sign(a, 2));
      const T p0 = T(1) + s0 * xi, p1 = T(1) + s1 * eta, p2 = T(1) + s2 * zeta;
      const T d[3] = {s0 * p1 * p2 / T(8), p0 * s1 * p2 / T(8), p0 * p1 * s2 / T(8)};
      const T x[3] = {X[a].x, X[a].y, X[a].z};
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) J(i, j) += x[i] * d[j];
    }
    if (!(determinant(J) > T(0))) return false;
  }
  return true;
}

/// The exact trilinear volume of the hexahedron X (returned) and 8 dV/dX_a in g (the
/// closed form hex8_reference explains; no check of the sign). Also the current volume
/// gradient of a deformed element (bulk viscosity, elements/bulk_viscosity.hpp).
template <class T>
HS_HD T hex8_volume_gradient(const Vec3<T> X[8], Vec3<T> g[8]) {
  Vec3<T> c[7];  // c[1..6]; c[0] unused
  for (int m = 0; m < 7; ++m) c[m] = {T(0), T(0), T(0)};
  for (int a = 0; a < 8; ++a) {
    const int s0 = hex8_sign(a, 0), s1 = hex8_sign(a, 1), s2 = hex8_sign(a, 2);
    const T h[7] = {T(1), T(s0), T(s1), T(s2), T(s0 * s1), T(s1 * s2), T(s2 * s0)};
    for (int m = 1; m < 7; ++m) c[m] += (h[m] / T(8)) * X[a];
  }
  const T third = T(8) / T(3);
  const Vec3<T> c23 = cross(c[2], c[3]), c46 = cross(c[4], c[6]);
  const T volume =
      T(8) * dot(c[1], c23) + third * (dot(c[1], c46) + dot(c[4], cross(c[2], c[5])) + dot(c[6], cross(c[5], c[3])));
  Vec3<T> dv[7];
  dv[1] = T(8) * c23 + third * c46;
  dv[2] = T(8) * cross(c[3], c[1]) + third * cross(c[5], c[4]);
  dv[3] = T(8) * cross(c[1], c[2]) + third * cross(c[6], c[5]);
  dv[4] = third * (cross(c[6], c[1]) + cross(c[2], c[5]));
  dv[5] = third * (cross(c[4], c[2]) + cross(c[3], c[6]));
  dv[6] = third * (cross(c[1], c[4]) + cross(c[5], c[3]));
  for (int a = 0; a < 8; ++a) {
    const int s0 = hex8_sign(a, 0), s1 = hex8_sign(a, 1), s2 = hex8_sign(a, 2);
    const T h[7] = {T(1), T(s0), T(s1), T(s2), T(s0 * s1), T(s1 * s2), T(s2 * s0)};
    g[a] = {T(0), T(0), T(0)};
    for (int m = 1; m < 7; ++m) g[a] += h[m] * dv[m];
  }
  return volume;
}

/// Reference constants from the node positions; false if the volume is not positive.
/// b_a is the Flanagan-Belytschko uniform gradient (1/V) int dN_a/dX dV = (1/V) dV/dX_a, with
/// the exact trilinear volume in closed form: writing X = c0 + xi c1 + eta c2 + zeta c3 +
/// xi eta c4 + eta zeta c5 + zeta xi c6 + xi eta zeta c7 (c_m = sum_a h_m(a) X_a / 8),
///   V = 8 [c1, c2, c3] + 8/3 ([c1, c4, c6] + [c4, c2, c5] + [c6, c5, c3])
/// ([a, b, c] = a . (b x c); every other term of int det J vanishes), and dV/dX_a =
/// sum_m h_m(a)/8 dV/dc_m. About 400 operations against 1500 for a 2x2x2 quadrature of the
/// same integral. With the uniform gradient sum_a X_a (x) b_a = I still holds, and a uniform
/// stress gives forces that cancel at the interior nodes of any distorted mesh (the centroid
/// gradient would leave a residual there).
template <class T>
HS_HD bool hex8_reference_in(const Vec3<T> X[8], Hex8Ref<T>& r) {
  Vec3<T> g[8];
  r.volume = hex8_volume_gradient(X, g);
  if (!(r.volume > T(0))) return false;
  const T scale = T(1) / (T(8) * r.volume);
  for (int a = 0; a < 8; ++a) r.b[a] = scale * g[a];
  for (int i = 0; i < 4; ++i) {
    T h[8];
    Vec3<T> hx{T(0), T(0), T(0)};
    for (int a = 0; a < 8; ++a) {
      const int s0 = hex8_sign(a, 0), s1 = hex8_sign(a, 1), s2 = hex8_sign(a, 2);
      h[a] = T(i == 0 ? s0 * s1 : i == 1 ? s1 * s2 : i == 2 ? s2 * s0 : s0 * s1 * s2);
      hx += h[a] * X[a];
    }
    for (int a = 0; a < 8; ++a) r.gamma[i][a] = h[a] - dot(hx, r.b[a]);
  }
  return true;
}

/// Reference constants of element X (false: an invalid element, non-positive volume): in
/// T's own arithmetic, or in double for lanes of derivatives (IsLanes).
template <class T>
HS_HD bool hex8_reference(const Vec3<T> X[8], Hex8Ref<T>& r) {
  if constexpr (IsLanes<T>::value) {  // in double, the constants then converted (IsLanes)
    Vec3<double> Xd[8];
    lane_values(X, 8, Xd);
    Hex8Ref<double> rd;
    if (!hex8_reference(Xd, rd)) return false;
    from_values(rd.b, 8, r.b);
    r.volume = T(rd.volume);
    for (int i = 0; i < 4; ++i)
      for (int a = 0; a < 8; ++a) r.gamma[i][a] = T(rd.gamma[i][a]);
    return true;
  } else {
    return hex8_reference_in(X, r);
  }
}

/// Hourglass stiffness of an element: kappa M V sum_a |b_a|^2 / 8, M = hourglass_modulus.
template <class T>
HS_HD T hex8_hourglass_stiffness(const Hex8Ref<T>& r, T modulus, T kappa) {
  T bb = T(0);
  for (int a = 0; a < 8; ++a) bb += dot(r.b[a], r.b[a]);
  return kappa * modulus * r.volume * bb / T(8);
}

/// Energies of one element evaluation.
template <class T>
struct Hex8Energy {
  T strain;     ///< V W(F)
  T hourglass;  ///< k/2 sum |q|^2
  T dissipation;  ///< V times the point's plastic dissipation density
  T thermal_slope;  ///< V times the point's d W / d theta (SolidStress::thermal_slope)
};

/// Internal nodal forces f (8) of a C3D8R element with displacements u, material m,
/// hourglass stiffness k and the state of its one point.
template <class T>
HS_HD Hex8Energy<T> hex8_internal_force(const Hex8Ref<T>& r, const Vec3<T> u[8], const SolidMaterial<T>& m, T k,
                                        Vec3<T> f[8], const ElementState<T>& state = {}) {
  Mat3<T> F = scaled_identity(T(1));
  for (int a = 0; a < 8; ++a) {
    const T ua[3] = {u[a].x, u[a].y, u[a].z};
    const T ba[3] = {r.b[a].x, r.b[a].y, r.b[a].z};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) F(i, j) += ua[i] * ba[j];
  }
  const SolidStress<T> s = point_stress(m, F, state, 0);
  const Mat3<T> VP = r.volume * (F * s.S);
  for (int a = 0; a < 8; ++a) f[a] = VP * r.b[a];
  T hg = T(0);
  for (int i = 0; i < 4; ++i) {
    Vec3<T> q{T(0), T(0), T(0)};
    for (int a = 0; a < 8; ++a) q += r.gamma[i][a] * u[a];
    hg += dot(q, q);
    for (int a = 0; a < 8; ++a) f[a] += (k * r.gamma[i][a]) * q;
  }
  return {r.volume * s.energy, T(0.5) * k * hg, r.volume * s.dissipation, r.volume * s.thermal_slope};
}

}  // namespace halfstep
