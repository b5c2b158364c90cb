// Nodal triads (director, t1, t2) and how rotation boundary conditions map onto them.
#pragma once

#include <cstdint>
#include <vector>

#include "discretization/structure_state.hpp"

namespace halfstep {

/// Sets t1 of every node to the projection of global X on its tangent plane (global Z when
/// X is nearly along the director), like Abaqus' default local directions.
void initialize_triads(StructureState& state);

/// Rotates each constrained node's triad about its director so that held global rotation axes
/// become held triad rotations, and returns the held mask per node (bit 0: about t1, bit 1:
/// about t2). Rotation rates are re-expressed in the new triad. A held axis along the director
/// (a drilling rotation, which MITC4 nodes do not have) imposes nothing.
std::vector<std::uint8_t> align_triads(const StructureSystem& sys, const std::vector<std::uint8_t>& fixed_rotation,
                                       StructureState& state);

}  // namespace halfstep
