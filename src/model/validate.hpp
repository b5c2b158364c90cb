// Whole-model consistency checks that need every node, element and section known.
#pragma once

#include "model/model.hpp"

namespace halfstep {

/// Checks what single lines of a deck cannot: finite node coordinates, non-degenerate
/// elements, exactly one shell section per element, complete materials, positive step
/// periods. Throws InputError at the definition at fault.
void validate(const Model& model);

}  // namespace halfstep
