// The physical rotary inertia of 5-dof nodes, for the implicit procedures: the explicit
// scheme's nodal inertia is scaled up for its stable increment (structure_system.hpp,
// kRotaryScale), which a natural frequency must not see.
#pragma once

#include <vector>

#include "discretization/structure_system.hpp"
#include "model/model.hpp"

namespace halfstep {

/// Per node, the inertia of its two spins about the nodal triad: sum over its MITC4 corners
/// of rho t^3 / 12 times the corner's area, plus its *ROTARY INERTIA points (0 elsewhere).
std::vector<double> node_spin_inertia(const Model& model, const StructureSystem& sys);

}  // namespace halfstep
