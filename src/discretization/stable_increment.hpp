// The stable increment estimate re-evaluated on the deformed mesh (issue 21: elements that
// are crushed or stretched change their bound during a run; Abaqus/Explicit re-evaluates it).
#pragma once

#include <utility>
#include <vector>

#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"

namespace halfstep {

/// The smallest element increment with the nodes at x0 + u of st, and the model element that
/// sets it (-1 when none). Each shell and continuum element takes its increment of the
/// undeformed mesh (sys.element_dt, mass scaling included) times the ratio of its geometric
/// bound now to its bound on the undeformed mesh; FPM beams and triangles, springs and
/// dashpots keep their undeformed bound. The same on every backend (positions from the host
/// copy of the state); distributed runs take the minimum over the ranks.
std::pair<double, int> deformed_stable_dt(const StructureSystem& sys, const StructureState& st);

/// Per shell (shell_ratio) and continuum element (solid_ratio): its geometric bound on the mesh
/// deformed by st over its bound on the undeformed mesh, the factor deformed_stable_dt takes its
/// undeformed increment by (1 for springs, dashpots and elements without a finite bound).
void deformed_bound_ratios(const StructureSystem& sys, const StructureState& st, std::vector<double>& shell_ratio,
                           std::vector<double>& solid_ratio);

}  // namespace halfstep
