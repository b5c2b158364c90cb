// The small-strain moduli of a law whose elasticity about the reference is isotropic with the
// material's Lame constants lambda and mu: shared by the laws that hold them so (St. Venant-
// Kirchhoff, Bonet & Wood's Neo-Hookean, J2's elasticity) as their base.
#pragma once

#include "core/host_device.hpp"
#include "materials/solid_material_data.hpp"

namespace halfstep {

/// hourglass_modulus, p_wave_modulus and bound_moduli (materials/solid_laws.hpp) from lambda, mu.
struct LameModuli {
  /// Hourglass-spring modulus: twice the shear modulus (see hourglass_modulus).
  template <class T>
  HS_HD static T hourglass_modulus(const SolidMaterial<T>& m) { return T(2) * m.mu; }
  /// Small-strain P-wave modulus lambda + 2 mu.
  template <class T>
  HS_HD static T p_wave_modulus(const SolidMaterial<T>& m) { return m.lambda + T(2) * m.mu; }
  /// Stable-increment bound constants (see bound_moduli): lam = max(lambda, 0), g2 = 2 mu.
  template <class T>
  HS_HD static void bound_moduli(const SolidMaterial<T>& m, T& lam, T& g2) {
    lam = m.lambda > T(0) ? m.lambda : T(0);
    g2 = T(2) * m.mu;
  }
};

}  // namespace halfstep
