// The stable increment estimate re-evaluated on the deformed mesh (issue 21: elements that
// are crushed or stretched change their bound during a run; Abaqus/Explicit re-evaluates it).
#pragma once

#include <utility>

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

}  // namespace halfstep
