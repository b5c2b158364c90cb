// Hyperelastic solid materials in total Lagrangian form, as host/device functions: given the
// deformation gradient F, the second Piola-Kirchhoff stress S and the strain energy per unit
// reference volume. Every model is a function of C = F^T F only, so rigid rotations give the
// same S and energy (objectivity) and the element forces are the gradient of the energy.
//   svk-isotropic    St. Venant-Kirchhoff: S = lambda tr(E) I + 2 mu E, E = (C - I)/2
//                    (*ELASTIC; exact under finite rotations, small strains)
//   svk-orthotropic  the same with an orthotropic stiffness in material axes
//                    (*ELASTIC, TYPE=ENGINEERING CONSTANTS or ORTHOTROPIC, with *ORIENTATION)
//   neo-hookean      compressible Neo-Hookean of Abaqus: W = C10 (I1bar - 3) + (J - 1)^2 / D1
//                    (*HYPERELASTIC, NEO HOOKE)
//   neo-hookean-log  compressible Neo-Hookean of Bonet & Wood (seed 004):
//                    W = mu/2 (I1 - 3) - mu ln J + lambda/2 (ln J)^2
//                    (*HYPERELASTIC, NEO HOOKE, FORM=LOG)
// Each law is a functor in materials/laws/ (the list: materials/solid_laws.hpp); the functions
// here dispatch to m's law. They are templates on the number type: float and double for the
// element passes, Dual<T> (core/dual.hpp) for tangents by forward differentiation
// (materials/material_tangent.hpp).
#pragma once

#include <cmath>

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "materials/solid_laws.hpp"
#include "materials/solid_material_data.hpp"

namespace halfstep {

/// S and the energy density of material m at deformation gradient F (a law with state: its
/// stateless response, see the law).
template <class T>
HS_HD SolidStress<T> solid_stress(const SolidMaterial<T>& m, const Mat3<T>& F) {
  return visit_material(m, [&](auto law) { return decltype(law)::stress(m, F); });
}

/// Modulus of the C3D8R hourglass springs: twice the small-strain shear modulus (the largest
/// of D1212, D1313, D2323 for orthotropic materials). Shear, not the P-wave modulus: the
/// hourglass modes of a nearly incompressible material would otherwise be as stiff as its
/// bulk modulus, and bending-dominated meshes would lock (Cook's membrane, nu = 0.4999).
template <class T>
HS_HD T hourglass_modulus(const SolidMaterial<T>& m) {
  return visit_material(m, [&](auto law) { return decltype(law)::hourglass_modulus(m); });
}

/// Largest small-strain P-wave modulus (for the stable increment: c = sqrt(M / density)).
/// Orthotropic: a Gershgorin bound on the normal-stiffness block, never below the true value.
template <class T>
HS_HD T p_wave_modulus(const SolidMaterial<T>& m) {
  return visit_material(m, [&](auto law) { return decltype(law)::p_wave_modulus(m); });
}

/// Isotropic St. Venant-Kirchhoff from Young's modulus and Poisson's ratio. Throws
/// std::invalid_argument (message for the user) unless E > 0 and -1 < nu < 0.5.
SolidMaterial<double> svk_isotropic(double youngs, double poisson, double density);

/// J2 plasticity with isotropic hardening on isotropic elasticity: yield stress stress[k] at
/// equivalent plastic strain strain[k] (n points, strain[0] = 0, increasing; constant after
/// the last). Throws std::invalid_argument (message for the user) for an inadmissible table.
SolidMaterial<double> j2_plastic(double youngs, double poisson, double density, const double* stress,
                                 const double* strain, int n);

/// Abaqus Neo-Hookean; throws std::invalid_argument unless C10 > 0 and D1 > 0.
SolidMaterial<double> neo_hookean(double c10, double d1, double density);

/// Bonet & Wood's Neo-Hookean from the same deck constants, with the same small-strain moduli
/// (mu = 2 C10, K = 2 / D1, lambda = K - 2 mu / 3); throws unless C10 > 0 and D1 > 0.
SolidMaterial<double> neo_hookean_log(double c10, double d1, double density);

/// Orthotropic from engineering constants E1, E2, E3, nu12, nu13, nu23, G12, G13, G23 (Abaqus
/// *ELASTIC, TYPE=ENGINEERING CONSTANTS order). Throws std::invalid_argument unless the
/// compliance is positive definite.
SolidMaterial<double> orthotropic_engineering(const double c[9], double density, const Mat3<double>& axes);

/// Orthotropic from stiffness components D1111, D1122, D2222, D1133, D2233, D3333, D1212,
/// D1313, D2323 (Abaqus TYPE=ORTHOTROPIC order). Throws unless the stiffness is positive definite.
SolidMaterial<double> orthotropic_stiffness(const double d[9], double density, const Mat3<double>& axes);
/// Fully anisotropic St. Venant-Kirchhoff from the 21 constants of *ELASTIC, TYPE=ANISOTROPIC
/// (Abaqus's order, laws/svk_anisotropic.hpp) in material axes `axes`; throws
/// std::invalid_argument unless the stiffness is positive definite.
SolidMaterial<double> anisotropic_stiffness(const double d[21], double density, const Mat3<double>& axes);

}  // namespace halfstep
