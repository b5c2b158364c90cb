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
#include "materials/material_duals.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {

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

/// S, energy and the tangent dS/dE (Voigt, engineering shear columns) of material m at F: the
/// law's constant tangent where it has one, else by dual numbers.
template <class T>
HS_HD SolidStress<T> solid_stress_and_tangent(const SolidMaterial<T>& m, const Mat3<T>& F, T C[6][6]) {
  return visit_material(m, [&](auto law) {
    using L = decltype(law);
    if constexpr (L::kConstantTangent) {
      L::constant_tangent(m, C);
      return L::stress(m, F);
    } else {
      return solid_stress_and_tangent_dual(m, F, C);
    }
  });
}

/// The tangent dS/dE (Voigt order 11, 22, 33, 12, 13, 23; engineering shear columns) at F.
template <class T>
HS_HD void solid_tangent(const SolidMaterial<T>& m, const Mat3<T>& F, T C[6][6]) {
  visit_material(m, [&](auto law) {
    using L = decltype(law);
    if constexpr (L::kConstantTangent) L::constant_tangent(m, C);
    else solid_stress_and_tangent_dual(m, F, C);
  });
}

}  // namespace halfstep
