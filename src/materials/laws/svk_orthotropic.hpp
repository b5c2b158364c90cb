// Orthotropic St. Venant-Kirchhoff: the isotropic law's form with an orthotropic stiffness in
// material axes (*ELASTIC, TYPE=ENGINEERING CONSTANTS or ORTHOTROPIC, with *ORIENTATION). A law
// of materials/solid_laws.hpp.
#pragma once

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "materials/material_duals.hpp"
#include "materials/solid_material_data.hpp"

namespace halfstep {

namespace solid_detail {

/// Orthotropic St. Venant-Kirchhoff: strain rotated to material axes, Voigt product, back.
template <class T>
HS_HD SolidStress<T> svk_orthotropic(const SolidMaterial<T>& m, const Mat3<T>& E) {
  const Mat3<T>& A = m.axes;
  const Mat3<T> e = A * E * transpose(A);
  const T* d = m.d;
  Mat3<T> s;
  s(0, 0) = d[0] * e(0, 0) + d[1] * e(1, 1) + d[3] * e(2, 2);
  s(1, 1) = d[1] * e(0, 0) + d[2] * e(1, 1) + d[4] * e(2, 2);
  s(2, 2) = d[3] * e(0, 0) + d[4] * e(1, 1) + d[5] * e(2, 2);
  s(0, 1) = s(1, 0) = d[6] * T(2) * e(0, 1);
  s(0, 2) = s(2, 0) = d[7] * T(2) * e(0, 2);
  s(1, 2) = s(2, 1) = d[8] * T(2) * e(1, 2);
  return {transpose(A) * s * A, T(0.5) * ddot(s, e)};
}

}  // namespace solid_detail

/// The svk-orthotropic law (constants d[9] in material axes `axes`).
struct SvkOrthotropic {
  static constexpr int kStateSize = 0;
  static constexpr int kPeeq = -1;
  static constexpr bool kConstantTangent = true;
  /// S and the energy density at F.
  template <class T>
  HS_HD static SolidStress<T> stress(const SolidMaterial<T>& m, const Mat3<T>& F) {
    return solid_detail::svk_orthotropic(m, green_strain(F));
  }
  /// dS/dE: column j is the law's own stress of the unit strain j, so no second copy of the
  /// rotation to material axes exists to disagree with the stress.
  template <class T>
  HS_HD static void constant_tangent(const SolidMaterial<T>& m, T C[6][6]) {
    for (int j = 0; j < 6; ++j) {
      const Mat3<T> S = solid_detail::svk_orthotropic(m, unit_voigt_strain<T>(j)).S;
      for (int i = 0; i < 6; ++i) C[i][j] = S(voigt_i(i), voigt_j(i));
    }
  }
  /// Hourglass-spring modulus: twice the largest of D1212, D1313, D2323.
  template <class T>
  HS_HD static T hourglass_modulus(const SolidMaterial<T>& m) {
    T g = m.d[6] > m.d[7] ? m.d[6] : m.d[7];
    return T(2) * (g > m.d[8] ? g : m.d[8]);
  }
  /// A Gershgorin bound on the normal-stiffness block, never below the true P-wave modulus.
  template <class T>
  HS_HD static T p_wave_modulus(const SolidMaterial<T>& m) {
    using std::fabs;  // unqualified below: Dual<T> finds its own by argument-dependent lookup
    const T* d = m.d;
    const T r1 = fabs(d[0]) + fabs(d[1]) + fabs(d[3]);
    const T r2 = fabs(d[1]) + fabs(d[2]) + fabs(d[4]);
    const T r3 = fabs(d[3]) + fabs(d[4]) + fabs(d[5]);
    const T r = r1 > r2 ? r1 : r2;
    return r > r3 ? r : r3;
  }
  /// Stable-increment bound constants: lam = 0, g2 = max(P-wave bound, 2 max(D1212, D1313,
  /// D2323)) (the shear terms act on engineering strains: 2 D1212 e12^2 twice in eps:C:eps
  /// against 2 e12^2 in eps:eps).
  template <class T>
  HS_HD static void bound_moduli(const SolidMaterial<T>& m, T& lam, T& g2) {
    T s = m.d[6] > m.d[7] ? m.d[6] : m.d[7];
    s = s > m.d[8] ? s : m.d[8];
    const T pw = p_wave_modulus(m);
    lam = T(0);
    g2 = pw > T(2) * s ? pw : T(2) * s;
  }
};

}  // namespace halfstep
