// Bulk viscosity of the explicit scheme (Abaqus/Explicit's linear and quadratic forms), as one
// host/device function for every 3-D continuum kind whose nodes map onto a hexahedron's
// corners (K::hex_corner: C3D8R and C3D8 as they are, C3D6 and C3D4 as collapsed hexahedra).
//
// A pressure-like stress q I, not part of the material's stress and not in the output, with
//   q = b1 rho c_d L_e eps_dot - rho (b2 L_e)^2 eps_dot^2 [eps_dot < 0],
// eps_dot = V_dot / V the volumetric strain rate, rho the current density, c_d the dilatational
// wave speed from the elastic P-wave modulus (solid_detail::bound_moduli) and L_e = V / A_max
// the element's characteristic length (its volume over its largest face). It acts as the
// nodal forces q dV/dx_a (V the exact trilinear volume at the current positions, whose
// gradient the uniform-strain element already uses), so a rigid motion sees none, and it
// dissipates q V_dot >= 0 (Abaqus's ALLVD). On a cube in uniaxial strain the linear term
// damps the element's highest mode by the fraction b1 of critical damping, and the stable
// increment shrinks by sqrt(1 + b1^2) - b1 (bulk_viscosity_dt_factor); docs/theory.md.
#pragma once

#include <cmath>
#include <type_traits>

#include "core/host_device.hpp"
#include "core/vec3.hpp"
#include "elements/hex8.hpp"
#include "elements/solid_common.hpp"

namespace halfstep {

/// The factor the linear term takes the stable increment by: sqrt(1 + b1^2) - b1, the
/// central difference scheme's bound for a mode damped by the fraction b1 of critical.
inline double bulk_viscosity_dt_factor(double b1) { return b1 > 0 ? std::sqrt(1.0 + b1 * b1) - b1 : 1.0; }

/// Whether kind K takes bulk viscosity: it names, per corner of a hexahedron, the element
/// node there (K::hex_corner(k)).
template <class K, class = void>
struct TakesBulkViscosity : std::false_type {};
template <class K>
struct TakesBulkViscosity<K, std::void_t<decltype(K::hex_corner(0))>> : std::true_type {};

/// Area of the hexahedron face with corners p, q, r, s in order: half the cross product of its
/// diagonals (exact for a planar quadrilateral or a collapsed one, a triangle).
template <class T>
HS_HD T quad_face_area(const Vec3<T>& p, const Vec3<T>& q, const Vec3<T>& r, const Vec3<T>& s) {
  const Vec3<T> n = cross(r - p, s - q);
  return T(0.5) * std::sqrt(dot(n, n));
}

/// Bulk viscosity forces f (added, per hexahedron corner) of an element whose corners are at
/// x with velocities v; X are the reference corners (the current density is rho V0 / V), m
/// the material. Returns the dissipated power q V_dot (0 when b1 = b2 = 0 or the element is
/// inverted, where the element's own forces already say so).
template <class T>
HS_HD T add_bulk_viscosity(const Vec3<T> X[8], const Vec3<T> x[8], const Vec3<T> v[8], const SolidMaterial<T>& m,
                           T b1, T b2, Vec3<T> f[8]) {
  Vec3<T> g[8];
  const T volume = hex8_volume_gradient(x, g);  // 8 dV/dx_a
  if (!(volume > T(0))) return T(0);
  Vec3<T> unused[8];
  const T volume0 = hex8_volume_gradient(X, unused);
  T vdot = T(0);
  for (int a = 0; a < 8; ++a) vdot += dot(g[a], v[a]);
  vdot /= T(8);
  const T rate = vdot / volume;
  // The six faces (hex8_sign's corner order); a collapsed face has no area.
  const T faces[6] = {quad_face_area(x[0], x[1], x[2], x[3]), quad_face_area(x[4], x[5], x[6], x[7]),
                      quad_face_area(x[0], x[1], x[5], x[4]), quad_face_area(x[1], x[2], x[6], x[5]),
                      quad_face_area(x[2], x[3], x[7], x[6]), quad_face_area(x[3], x[0], x[4], x[7])};
  T area = T(0);
  for (int k = 0; k < 6; ++k) area = faces[k] > area ? faces[k] : area;
  const T length = volume / area;
  T lam, g2;
  solid_detail::bound_moduli(m, lam, g2);
  const T rho = m.density * volume0 / volume;
  T q = b1 * std::sqrt(rho * (lam + g2)) * length * rate;
  if (rate < T(0)) q -= rho * (b2 * length) * (b2 * length) * rate * rate;
  const T s = q / T(8);
  for (int a = 0; a < 8; ++a) f[a] += s * g[a];
  return q * vdot;
}

}  // namespace halfstep
