// C3D8R: 8-node hexahedron with one-point integration and Flanagan-Belytschko hourglass
// control, total Lagrangian, as host/device functions.
//
// The deformation gradient is evaluated at the centroid, F = I + sum_a u_a (x) b_a with
// b_a = dN_a/dX there; for any element shape sum_a X_a (x) b_a = I, so every linear
// displacement field gives the exact F (the patch test at element level). The internal force
// is f_a = V P b_a with P = F S. The four hourglass modes the single point cannot see are
// resisted by the Flanagan-Belytschko vectors gamma^i = h^i - (sum_b h^i_b X_b) . b, which
// are orthogonal to every linear field: hourglass forces f_a = k sum_i gamma^i_a q^i,
// q^i = sum_a gamma^i_a u_a, vanish for rigid motions of any size, and derive from the energy
// k/2 sum_i |q^i|^2, reported as the hourglass energy.
#pragma once

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "core/vec3.hpp"
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
  Vec3<T> b[8];     ///< dN_a/dX at the centroid
  T volume;         ///< 8 det J at the centroid
  T gamma[4][8];    ///< Flanagan-Belytschko hourglass vectors
};

/// Reference constants from the node positions; false if the element is inverted or flat at
/// its centroid.
template <class T>
HS_HD bool hex8_reference(const Vec3<T> X[8], Hex8Ref<T>& r) {
  Mat3<T> J = scaled_identity(T(0));  // J_ij = sum_a X_a,i dN_a/dxi_j
  for (int a = 0; a < 8; ++a) {
    const T g[3] = {T(hex8_sign(a, 0)) / T(8), T(hex8_sign(a, 1)) / T(8), T(hex8_sign(a, 2)) / T(8)};
    const T x[3] = {X[a].x, X[a].y, X[a].z};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) J(i, j) += x[i] * g[j];
  }
  const T det = determinant(J);
  if (!(det > T(0))) return false;
  const Mat3<T> Jit = transpose(inverse(J));
  for (int a = 0; a < 8; ++a)
    r.b[a] = Jit * Vec3<T>{T(hex8_sign(a, 0)) / T(8), T(hex8_sign(a, 1)) / T(8), T(hex8_sign(a, 2)) / T(8)};
  r.volume = T(8) * det;
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

/// Hourglass stiffness of an element: kappa M V sum_a |b_a|^2 / 8, M the P-wave modulus.
template <class T>
HS_HD T hex8_hourglass_stiffness(const Hex8Ref<T>& r, T p_wave_modulus, T kappa) {
  T bb = T(0);
  for (int a = 0; a < 8; ++a) bb += dot(r.b[a], r.b[a]);
  return kappa * p_wave_modulus * r.volume * bb / T(8);
}

/// Energies of one element evaluation.
template <class T>
struct Hex8Energy {
  T strain;     ///< V W(F)
  T hourglass;  ///< k/2 sum |q|^2
};

/// Internal nodal forces f (8) of a C3D8R element with displacements u, material m and
/// hourglass stiffness k.
template <class T>
HS_HD Hex8Energy<T> hex8_internal_force(const Hex8Ref<T>& r, const Vec3<T> u[8], const SolidMaterial<T>& m, T k,
                                        Vec3<T> f[8]) {
  Mat3<T> F = scaled_identity(T(1));
  for (int a = 0; a < 8; ++a) {
    const T ua[3] = {u[a].x, u[a].y, u[a].z};
    const T ba[3] = {r.b[a].x, r.b[a].y, r.b[a].z};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) F(i, j) += ua[i] * ba[j];
  }
  const SolidStress<T> s = solid_stress(m, F);
  const Mat3<T> VP = r.volume * (F * s.S);
  for (int a = 0; a < 8; ++a) f[a] = VP * r.b[a];
  T hg = T(0);
  for (int i = 0; i < 4; ++i) {
    Vec3<T> q{T(0), T(0), T(0)};
    for (int a = 0; a < 8; ++a) q += r.gamma[i][a] * u[a];
    hg += dot(q, q);
    for (int a = 0; a < 8; ++a) f[a] += (k * r.gamma[i][a]) * q;
  }
  return {r.volume * s.energy, T(0.5) * k * hg};
}

}  // namespace halfstep
