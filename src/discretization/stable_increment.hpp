// The stable increment estimate re-evaluated on the deformed mesh (issue 21: elements that
// are crushed or stretched change their bound during a run; Abaqus/Explicit re-evaluates it).
#pragma once

#include <utility>
#include <vector>

#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"

namespace halfstep {

/// The smallest element increment with the nodes at x0 + u of st, and the model element that
/// sets it (-1 when none). Each element takes its increment of the undeformed mesh
/// (element_dt, mass scaling included) times its family's bound ratio
/// (deformed_bound_ratios), and, for the kinds that take it, the factor of a bulk viscosity
/// b1 = bulk_linear (bulk_viscosity_dt_factor). The same on every backend (positions from
/// the host copy of the state); distributed runs take the minimum over the ranks.
std::pair<double, int> deformed_stable_dt(const StructureSystem& sys, const StructureState& st,
                                          double bulk_linear = 0.0);

/// The factor the increments of elements of registry kind `kind` take under a linear bulk
/// viscosity b1 = bulk_linear: bulk_viscosity_dt_factor for the kinds that take it, else 1.
double kind_bulk_dt_factor(int kind, double bulk_linear);

/// The smallest undeformed element increment (sys.stable_dt) with the elements of the kinds
/// that take bulk viscosity (ElementKindInfo::bulk_viscosity) taken by the factor of a linear
/// coefficient b1 = bulk_linear.
double bulk_stable_dt(const StructureSystem& sys, double bulk_linear);

/// Per element family (block_families() order), per element: its geometric bound on the mesh
/// deformed by st over its bound on the undeformed mesh, the factor deformed_stable_dt takes
/// its undeformed increment by (BlockFamily::bound_ratios; 1 for FPM beams and triangles,
/// springs, dashpots and elements without a finite bound).
std::vector<std::vector<double>> deformed_bound_ratios(const StructureSystem& sys, const StructureState& st);

}  // namespace halfstep
