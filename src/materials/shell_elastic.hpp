// Isotropic linear elasticity in plane stress for shells, with shear-corrected transverse shear.
#pragma once

#include "core/host_device.hpp"

namespace halfstep {

/// Transverse shear correction factor of Reissner-Mindlin plates (Abaqus uses the same).
constexpr double kShearCorrection = 5.0 / 6.0;

/// Plane-stress constants of an isotropic elastic shell material.
template <class T>
struct ShellElastic {
  T ebar;     ///< E / (1 - nu^2)
  T nu;       ///< Poisson's ratio
  T shear;    ///< G = E / (2 (1 + nu))
  T kshear;   ///< kappa * G, transverse shear modulus

  /// Builds the constants from Young's modulus and Poisson's ratio.
  static ShellElastic from(double youngs, double poisson) {
    ShellElastic m;
    m.ebar = T(youngs / (1.0 - poisson * poisson));
    m.nu = T(poisson);
    m.shear = T(youngs / (2.0 * (1.0 + poisson)));
    m.kshear = T(kShearCorrection * youngs / (2.0 * (1.0 + poisson)));
    return m;
  }

  /// In-plane stress (s11, s22, s12) from strain (e11, e22, engineering g12).
  HS_HD void plane_stress(const T e[3], T s[3]) const {
    s[0] = ebar * (e[0] + nu * e[1]);
    s[1] = ebar * (nu * e[0] + e[1]);
    s[2] = shear * e[2];
  }
};

}  // namespace halfstep
