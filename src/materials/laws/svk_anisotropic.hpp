// Fully anisotropic St. Venant-Kirchhoff: S = C : E with the 21 independent constants of
// *ELASTIC, TYPE=ANISOTROPIC in material axes (with *ORIENTATION). A law of
// materials/solid_laws.hpp.
//
// The constants are Abaqus's, the upper triangle of the 6 x 6 stiffness column by column in
// the Voigt order 11, 22, 33, 12, 13, 23: D1111, D1122, D2222, D1133, D2233, D3333, D1112,
// D2212, D3312, D1212, D1113, D2213, D3313, D1213, D1313, D1123, D2223, D3323, D1223, D1323,
// D2323; entry (i, j <= i... ) of column j is at j (j + 1) / 2 + i. The shear columns act on
// engineering shear strains (gamma_12 = 2 E_12), as the orthotropic law's D1212 does.
#pragma once

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "materials/material_duals.hpp"
#include "materials/solid_material_data.hpp"

namespace halfstep {

namespace solid_detail {

/// Entry (i, j) of the anisotropic stiffness (symmetric) from its 21 constants.
template <class T>
HS_HD T aniso_entry(const T* d, int i, int j) {
  return i <= j ? d[j * (j + 1) / 2 + i] : d[i * (i + 1) / 2 + j];
}

/// Anisotropic St. Venant-Kirchhoff: strain rotated to material axes, 6 x 6 Voigt product
/// (engineering shear strains), stress rotated back.
template <class T>
HS_HD SolidStress<T> svk_anisotropic(const SolidMaterial<T>& m, const Mat3<T>& E) {
  const Mat3<T>& A = m.axes;
  const Mat3<T> e = A * E * transpose(A);
  const T ev[6] = {e(0, 0), e(1, 1), e(2, 2), T(2) * e(0, 1), T(2) * e(0, 2), T(2) * e(1, 2)};
  T sv[6];
  T energy = T(0);
  for (int i = 0; i < 6; ++i) {
    sv[i] = T(0);
    for (int j = 0; j < 6; ++j) sv[i] += aniso_entry(m.d, i, j) * ev[j];
    energy += sv[i] * ev[i];
  }
  Mat3<T> s;
  s(0, 0) = sv[0];
  s(1, 1) = sv[1];
  s(2, 2) = sv[2];
  s(0, 1) = s(1, 0) = sv[3];
  s(0, 2) = s(2, 0) = sv[4];
  s(1, 2) = s(2, 1) = sv[5];
  return {transpose(A) * s * A, T(0.5) * energy};
}

/// A Gershgorin bound on the largest eigenvalue of the stiffness acting on strains measured
/// as eps:eps (shear rows and columns scaled by sqrt 2): eps:C:eps <= it eps:eps.
template <class T>
HS_HD T aniso_bound(const T* d) {
  using std::fabs;  // unqualified below: Dual<T> finds its own by argument-dependent lookup
  const T r2 = T(1.41421356237309504880);
  T bound = T(0);
  for (int i = 0; i < 6; ++i) {
    T row = T(0);
    for (int j = 0; j < 6; ++j) {
      T c = fabs(aniso_entry(d, i, j));
      if (i >= 3) c = c * r2;
      if (j >= 3) c = c * r2;
      row += c;
    }
    bound = bound > row ? bound : row;
  }
  return bound;
}

}  // namespace solid_detail

/// The svk-anisotropic law (21 constants d in material axes `axes`).
struct SvkAnisotropic {
  static constexpr int kStateSize = 0;
  static constexpr int kPeeq = -1;
  static constexpr bool kConstantTangent = true;
  /// S and the energy density at F.
  template <class T>
  HS_HD static SolidStress<T> stress(const SolidMaterial<T>& m, const Mat3<T>& F) {
    return solid_detail::svk_anisotropic(m, green_strain(F));
  }
  /// dS/dE: column j is the law's own stress of the unit strain j (as SvkOrthotropic's).
  template <class T>
  HS_HD static void constant_tangent(const SolidMaterial<T>& m, T C[6][6]) {
    for (int j = 0; j < 6; ++j) {
      const Mat3<T> S = solid_detail::svk_anisotropic(m, unit_voigt_strain<T>(j)).S;
      for (int i = 0; i < 6; ++i) C[i][j] = S(voigt_i(i), voigt_j(i));
    }
  }
  /// Hourglass-spring modulus: twice the largest shear diagonal, D1212, D1313 or D2323.
  template <class T>
  HS_HD static T hourglass_modulus(const SolidMaterial<T>& m) {
    T g = m.d[9] > m.d[14] ? m.d[9] : m.d[14];
    return T(2) * (g > m.d[20] ? g : m.d[20]);
  }
  /// The bound of aniso_bound, never below the true P-wave modulus.
  template <class T>
  HS_HD static T p_wave_modulus(const SolidMaterial<T>& m) {
    return solid_detail::aniso_bound(m.d);
  }
  /// Stable-increment bound constants: lam = 0, g2 the bound of eps:C:eps / eps:eps.
  template <class T>
  HS_HD static void bound_moduli(const SolidMaterial<T>& m, T& lam, T& g2) {
    lam = T(0);
    g2 = solid_detail::aniso_bound(m.d);
  }
};

}  // namespace halfstep
