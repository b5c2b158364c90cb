// The plain data of a solid material: its constants (SolidMaterial, copied to the GPU as is)
// and what a law returns (SolidStress). Which law the constants are for is SolidMaterial::
// model, an index into the list of laws (materials/solid_laws.hpp); each law is a functor in
// materials/laws/.
#pragma once

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "materials/adhesion_law.hpp"

namespace halfstep {

/// Most points of a *PLASTIC hardening table a material carries (plain data on the GPU).
constexpr int kMaxHardening = 16;

/// Constants of one solid material (plain data, copied to the GPU as is).
template <class T>
struct SolidMaterial {
  int model = 0;  ///< the law: its index in SolidLaws (materials/solid_laws.hpp); 0 is St. Venant-Kirchhoff
  T density = T(0);
  T thickness = T(1);  ///< out-of-plane thickness of planar elements, cross-section area of trusses (the section's; 1 for 3D solids)
  /// Discrete elements (springs, dashpots; elements/discrete.hpp): the stiffness or the
  /// dashpot coefficient, and the dofs it acts in (0, 1, 2: x, y, z) for SPRING1/2, DASHPOT1/2.
  /// A nonlinear spring (*SPRING, NONLINEAR) keeps its force-displacement table in the
  /// hardening arrays instead: hardening_points pairs, yield_stress the forces and
  /// yield_strain the relative displacements (ascending).
  T discrete = T(0);
  int dof1 = 0, dof2 = 0;
  T lambda = T(0), mu = T(0);  ///< Lame constants (svk-isotropic, neo-hookean-log, J2's elasticity)
  T c10 = T(0), d1 = T(0);     ///< Neo-Hookean constants (Abaqus)
  /// Elastic stiffness in material axes: orthotropic, the first nine in Abaqus's order D1111,
  /// D1122, D2222, D1133, D2233, D3333, D1212, D1313, D2323; anisotropic, all 21 in Abaqus's
  /// order (laws/svk_anisotropic.hpp). Shear terms act on engineering shear strains.
  T d[21] = {};
  /// Material axes: row i is material direction i in global reference components.
  Mat3<T> axes = {{T(1), T(0), T(0), T(0), T(1), T(0), T(0), T(0), T(1)}};
  /// J2 plasticity (J2Plastic, isotropic elasticity from lambda and mu): yield stress
  /// against equivalent plastic strain, piecewise linear, the first strain 0, constant after
  /// the last point (Abaqus' *PLASTIC table).
  int hardening_points = 0;
  T yield_stress[kMaxHardening] = {};
  T yield_strain[kMaxHardening] = {};
  /// Adhesion edges (elements/adhesion_edge.hpp, *ADHESION): the law and the substrate.
  AdhesionConstants adhesion;
  /// *EXPANSION: thermal expansion coefficients along material directions 1, 2, 3 (rows of
  /// axes); all three equal for isotropic expansion, all zero for none
  /// (materials/material_law.hpp, thermal_stress).
  T expansion[3] = {};
  /// 1: a geometrically linear static step evaluates this material's law with state (J2) in
  /// the small-strain theory (materials/material_law.hpp, evaluate): the element passes
  /// linearize the kinematics with dual numbers about the reference, and the law takes the
  /// derivative part as the small strain. 0 everywhere else; plain-number evaluations ignore it.
  int small_strain = 0;
};

/// Second Piola-Kirchhoff stress and strain energy density of a deformation.
template <class T>
struct SolidStress {
  Mat3<T> S;
  T energy;
  T dissipation = T(0);  ///< plastic work dissipated so far per unit volume, part of energy (0: elastic)
  /// d energy / d theta at this F and state: the energy a temperature change puts into a
  /// material with *EXPANSION per unit of it (thermal_stress; 0 without expansion). The
  /// explicit energy balance books it as thermal work.
  T thermal_slope = T(0);
};

/// Green-Lagrange strain (F^T F - I) / 2.
template <class T>
HS_HD Mat3<T> green_strain(const Mat3<T>& F) {
  return T(0.5) * (transpose(F) * F - scaled_identity(T(1)));
}

/// The same material with constants of number type D: another precision (the GPU's float),
/// or dual numbers (Dual<T>, DualLanes<N>: derivative parts zero).
template <class D, class T>
HS_HD SolidMaterial<D> material_as(const SolidMaterial<T>& m) {
  SolidMaterial<D> r;
  r.model = m.model;
  r.density = D(m.density);
  r.thickness = D(m.thickness);
  r.discrete = D(m.discrete);
  r.dof1 = m.dof1;
  r.dof2 = m.dof2;
  r.lambda = D(m.lambda);
  r.mu = D(m.mu);
  r.c10 = D(m.c10);
  r.d1 = D(m.d1);
  for (int i = 0; i < 21; ++i) r.d[i] = D(m.d[i]);
  for (int i = 0; i < 9; ++i) r.axes.a[i] = D(m.axes.a[i]);
  r.hardening_points = m.hardening_points;
  for (int i = 0; i < kMaxHardening; ++i) {
    r.yield_stress[i] = D(m.yield_stress[i]);
    r.yield_strain[i] = D(m.yield_strain[i]);
  }
  r.adhesion = m.adhesion;
  for (int i = 0; i < 3; ++i) r.expansion[i] = D(m.expansion[i]);
  r.small_strain = m.small_strain;
  return r;
}

}  // namespace halfstep
