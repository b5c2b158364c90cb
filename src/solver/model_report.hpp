// The model summary printed by `halfstep check`.
#pragma once

#include <string>

#include "model/model.hpp"

namespace halfstep {

/// Validates the model as a run would (geometry, loads) and describes it: counts, sets, mass,
/// stable increment and its controlling element, steps, memory estimate. Throws InputError.
std::string describe_model(const Model& model, double dt_scale);

}  // namespace halfstep
