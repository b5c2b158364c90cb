// Isotropic St. Venant-Kirchhoff: S = lambda tr(E) I + 2 mu E, E = (C - I)/2 (*ELASTIC; exact
// under finite rotations, for small strains). A law of materials/solid_laws.hpp.
#pragma once

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "materials/laws/lame_moduli.hpp"
#include "materials/solid_material_data.hpp"

namespace halfstep {

/// The svk-isotropic law (constants lambda, mu).
struct SvkIsotropic : LameModuli {
  static constexpr int kStateSize = 0;
  static constexpr int kPeeq = -1;
  static constexpr bool kConstantTangent = true;
  /// S and the energy density at F.
  template <class T>
  HS_HD static SolidStress<T> stress(const SolidMaterial<T>& m, const Mat3<T>& F) {
    const Mat3<T> E = green_strain(F);
    const T tr = trace(E);
    return {scaled_identity(m.lambda * tr) + (T(2) * m.mu) * E, T(0.5) * m.lambda * tr * tr + m.mu * ddot(E, E)};
  }
  /// dS/dE (Voigt, engineering shear columns): lambda + 2 mu on the normal diagonal, lambda off
  /// it, mu on the shear diagonal.
  template <class T>
  HS_HD static void constant_tangent(const SolidMaterial<T>& m, T C[6][6]) {
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) C[i][j] = T(0);
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) C[i][j] = m.lambda;
      C[i][i] = m.lambda + T(2) * m.mu;
      C[i + 3][i + 3] = m.mu;
    }
  }
};

}  // namespace halfstep
