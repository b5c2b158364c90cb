// Voigt notation and dual-number copies of a material: what laws and tangents by forward
// differentiation share (materials/material_tangent.hpp explains the conventions).
#pragma once

#include "core/dual.hpp"
#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "materials/solid_material_data.hpp"

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
  return material_as<Dual<T>>(m);
}

/// F + ε dF as a dual-number matrix.
template <class T>
HS_HD Mat3<Dual<T>> dual_matrix(const Mat3<T>& F, const Mat3<T>& dF) {
  Mat3<Dual<T>> r;
  for (int i = 0; i < 9; ++i) r.a[i] = Dual<T>(F.a[i], dF.a[i]);
  return r;
}

}  // namespace halfstep
