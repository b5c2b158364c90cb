// Isotropic linear elasticity in plane stress for shells, with shear-corrected transverse shear.
#pragma once

#include "core/host_device.hpp"
#include "materials/plane_stress.hpp"
#include "materials/solid_material.hpp"

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

  /// Builds the constants from the small-strain plane-stress stiffness of a solid material
  /// (plane_isotropic_constants; equal to from(E, nu) for isotropic St. Venant-Kirchhoff,
  /// the linearised law for Neo-Hookean). Throws std::invalid_argument unless the material
  /// is isotropic in the plane.
  static ShellElastic from_material(const SolidMaterial<double>& solid) {
    const PlaneIsotropicConstants c = plane_isotropic_constants(solid);
    ShellElastic m;
    m.ebar = T(c.ebar);
    m.nu = T(c.nu);
    m.shear = T(c.shear);
    m.kshear = T(kShearCorrection * c.gt);
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
