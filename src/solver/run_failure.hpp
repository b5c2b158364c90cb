// An explicit run that failed (instability, energy drift, a non-finite balance): the message
// that names where, built on every rank of a distributed run alike.
#pragma once

#include <string>

#include "backends/backend.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "dynamics/energy_monitor.hpp"
#include "model/model.hpp"

namespace halfstep {

/// Stops the run with the reason the monitor gives (state downloaded for the report). In a
/// distributed run every rank calls this together (their monitors see the same sums); the
/// rank holding the culprit names it and every rank throws the same CollectiveRunError.
[[noreturn]] void report_failure(const Model& model, const StructureSystem& sys, Backend& backend, StructureState& st,
                                 const EnergyMonitor& m, const std::string& step_name, double tolerance,
                                 const DistributedContext* dist);

}  // namespace halfstep
