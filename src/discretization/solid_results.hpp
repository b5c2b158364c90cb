// Element results of solids for output: Cauchy stress, Green-Lagrange strain and von Mises
// stress per element, from the element kinds' centroid_output; equivalent plastic strain
// from the per-point material state. A geometrically linear step (*STEP, NLGEOM=NO) reports
// the small-strain results instead: the linearisation of the same centroid_output about the
// undeformed reference, sigma = C : eps with eps = sym grad u.
#pragma once

#include <cstdint>
#include <vector>

#include "discretization/structure_state.hpp"

namespace halfstep {

/// One solid element's output values; tensors in Abaqus order 11, 22, 33, 12, 13, 23.
struct SolidCellResult {
  double stress[6];  ///< Cauchy stress (small strain: the linear stress C : eps)
  double strain[6];  ///< Green-Lagrange strain (small strain: sym grad u), tensor components, not engineering shear
  double mises;      ///< von Mises equivalent of the Cauchy stress
  double peeq;       ///< equivalent plastic strain, mean over the integration points (0 when elastic)
  double axial_force;  ///< trusses, springs, dashpots: the element's force (tension positive); NaN for others
};

/// Results of every solid element of sys at the state's displacements (OpenMP parallel).
/// vel: nodal velocities (x, y, z arrays; null: none), for the dashpots' forces.
/// small_strain: the geometrically linear results (the derivative of the finite-strain ones
/// at u = 0 along u, so the same element and material code; initial moduli for hyperelastic
/// laws; axial forces linearised too); elastic laws only (no plastic state is read).
std::vector<SolidCellResult> solid_cell_results(const StructureSystem& sys, const StructureState& st,
                                                const double* const* vel = nullptr, bool small_strain = false);

/// Stress, strain and equivalent plastic strain at the integration points of the solid
/// elements, numbered as Abaqus numbers them (the values its *EL PRINT tables print).
struct SolidPointResults {
  /// Element e's points are first[e] .. first[e + 1] - 1 (none for a kind that gives centroid
  /// values only: springs, dashpots, and kinds of several points without point_outputs).
  std::vector<std::int64_t> first;
  std::vector<double> stress;  ///< 6 per point, Abaqus order (small strain: C : eps)
  std::vector<double> strain;  ///< 6 per point (Green-Lagrange; small strain: sym grad u)
  std::vector<double> peeq;    ///< 1 per point (0 when elastic)
};

/// The integration-point results of every solid element of sys (OpenMP parallel); a kind of
/// one point that has no point_outputs gives its centroid_output, which is that point's.
SolidPointResults solid_point_results(const StructureSystem& sys, const StructureState& st, bool small_strain = false);

}  // namespace halfstep
