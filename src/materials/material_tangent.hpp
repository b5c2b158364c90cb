// Consistent material tangent C = dS/dE of the solid laws, in Voigt notation.
//
// Voigt order 11, 22, 33, 12, 13, 23 (Abaqus' DDSDDE order, and the order of SolidMaterial::d).
// Rows are stress components S_ij; columns are strain components with engineering shears
// g_ij = 2 E_ij. With that pairing C is the second derivative of the energy in (E11, E22,
// E33, g12, g13, g23), so it is symmetric, isotropic St. Venant-Kirchhoff has mu on the shear
// diagonal and the orthotropic D1212, D1313, D2323 enter as they are given.
//
// How each law gets it:
//   svk-isotropic, svk-orthotropic  analytic and constant (S is linear in E): column j is the
//       law's own stress of the unit strain j, so no second copy of the rotation to material
//       axes exists to disagree with the stress.
//   neo-hookean  forward dual numbers: six evaluations of the stress code with Dual<T> along
//       dF_j = F^-T dE_j (then F^T dF_j = dE_j is symmetric and dE = dE_j exactly). The
//       analytic tangent (C^-1 ⊗ C^-1 and C^-1 ⊙ C^-1 terms) would be a second formula next
//       to the cancellation-free H = F - I form of the stress; the dual pass differentiates
//       that form itself, so the tangent is consistent with the stress to round-off by
//       construction, and laws to come (a J2 return map) get theirs the same way. It costs
//       about a dozen stress evaluations, which only implicit assembly pays.
#pragma once

#include "core/dual.hpp"
#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {

/// Row index i of Voigt component k (order 11, 22, 33, 12, 13, 23).
HS_HD constexpr int voigt_i(int k) { return k < 3 ? k : (k == 5 ? 1 : 0); }
/// Column index j of Voigt component k (order 11, 22, 33, 12, 13, 23).
HS_HD constexpr int voigt_j(int k) { return k < 3 ? k : (k == 3 ? 1 : 2); }

/// Stress tensor to Voigt components s[k] = S(voigt_i(k), voigt_j(k)).
template <class T>
HS_HD void stress_to_voigt(const Mat3<T>& S, T s[6]) {
  for (int k = 0; k < 6; ++k) s[k] = S(voigt_i(k), voigt_j(k));
}

/// Tensor strain of the unit Voigt strain k: E_ii = 1 for k < 3, else E_ij = E_ji = 1/2
/// (an engineering shear of 1).
template <class T>
HS_HD Mat3<T> unit_voigt_strain(int k) {
  Mat3<T> e = scaled_identity(T(0));
  const int i = voigt_i(k), j = voigt_j(k);
  if (i == j) {
    e(i, i) = T(1);
  } else {
    e(i, j) = e(j, i) = T(0.5);
  }
  return e;
}

/// The same material with dual-number constants (derivative parts zero).
template <class T>
HS_HD SolidMaterial<Dual<T>> dual_material(const SolidMaterial<T>& m) {
  SolidMaterial<Dual<T>> r;
  r.model = m.model;
  r.density = Dual<T>(m.density);
  r.thickness = Dual<T>(m.thickness);
  r.discrete = Dual<T>(m.discrete);
  r.dof1 = m.dof1;
  r.dof2 = m.dof2;
  r.lambda = Dual<T>(m.lambda);
  r.mu = Dual<T>(m.mu);
  r.c10 = Dual<T>(m.c10);
  r.d1 = Dual<T>(m.d1);
  for (int i = 0; i < 9; ++i) {
    r.d[i] = Dual<T>(m.d[i]);
    r.axes.a[i] = Dual<T>(m.axes.a[i]);
  }
  r.hardening_points = m.hardening_points;
  for (int i = 0; i < kMaxHardening; ++i) {
    r.yield_stress[i] = Dual<T>(m.yield_stress[i]);
    r.yield_strain[i] = Dual<T>(m.yield_strain[i]);
  }
  r.adhesion = m.adhesion;
  return r;
}

/// F + ε dF as a dual-number matrix.
template <class T>
HS_HD Mat3<Dual<T>> dual_matrix(const Mat3<T>& F, const Mat3<T>& dF) {
  Mat3<Dual<T>> r;
  for (int i = 0; i < 9; ++i) r.a[i] = Dual<T>(F.a[i], dF.a[i]);
  return r;
}

/// S, energy and the tangent C[6][6] of any law by six dual-number evaluations (works for
/// every model; solid_tangent uses it where no analytic tangent is cheaper). S and the
/// energy are the value parts of the first evaluation: the same operations as solid_stress,
/// equal to it wherever the compiler contracts both alike (bit for bit on the host build).
template <class T>
HS_HD SolidStress<T> solid_stress_and_tangent_dual(const SolidMaterial<T>& m, const Mat3<T>& F, T C[6][6]) {
  const SolidMaterial<Dual<T>> md = dual_material(m);
  const Mat3<T> FiT = transpose(inverse(F));
  SolidStress<T> out;
  for (int j = 0; j < 6; ++j) {
    const SolidStress<Dual<T>> r = solid_stress(md, dual_matrix(F, FiT * unit_voigt_strain<T>(j)));
    for (int i = 0; i < 6; ++i) C[i][j] = r.S(voigt_i(i), voigt_j(i)).d;
    if (j == 0) {
      for (int k = 0; k < 9; ++k) out.S.a[k] = r.S.a[k].v;
      out.energy = r.energy.v;
    }
  }
  return out;
}

/// Constant tangent of the two St. Venant-Kirchhoff laws (svk-isotropic, svk-orthotropic).
template <class T>
HS_HD void svk_tangent(const SolidMaterial<T>& m, T C[6][6]) {
  if (m.model == kSvkOrthotropic) {
    for (int j = 0; j < 6; ++j) {
      const Mat3<T> S = solid_detail::svk_orthotropic(m, unit_voigt_strain<T>(j)).S;
      for (int i = 0; i < 6; ++i) C[i][j] = S(voigt_i(i), voigt_j(i));
    }
    return;
  }
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) C[i][j] = T(0);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) C[i][j] = m.lambda;
    C[i][i] = m.lambda + T(2) * m.mu;
    C[i + 3][i + 3] = m.mu;
  }
}

/// S, energy and the tangent dS/dE (Voigt, engineering shear columns) of material m at F.
template <class T>
HS_HD SolidStress<T> solid_stress_and_tangent(const SolidMaterial<T>& m, const Mat3<T>& F, T C[6][6]) {
  if (m.model == kNeoHookean || m.model == kNeoHookeanLog) return solid_stress_and_tangent_dual(m, F, C);
  svk_tangent(m, C);
  return solid_stress(m, F);
}

/// The tangent dS/dE (Voigt order 11, 22, 33, 12, 13, 23; engineering shear columns) at F.
template <class T>
HS_HD void solid_tangent(const SolidMaterial<T>& m, const Mat3<T>& F, T C[6][6]) {
  if (m.model == kNeoHookean || m.model == kNeoHookeanLog) {
    solid_stress_and_tangent_dual(m, F, C);
    return;
  }
  svk_tangent(m, C);
}

}  // namespace halfstep
