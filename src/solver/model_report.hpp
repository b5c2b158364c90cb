// The model summary printed by `halfstep check`.
#pragma once

#include <string>

#include "model/model.hpp"

namespace halfstep {

/// Seconds that describe_model spent: building the solver's arrays (build_structure_system),
/// the steps (mass scaling, loads and boundaries), and in all (the arrays freed included).
struct ModelReportTimes {
  double system = 0, steps = 0, total = 0;
};

/// Validates the model as a run would (geometry, loads) and describes it: counts, sets, mass,
/// stable increment and its controlling element, steps, memory estimate. Throws InputError.
/// Fills times when given.
std::string describe_model(const Model& model, double dt_scale, ModelReportTimes* times = nullptr);

}  // namespace halfstep
