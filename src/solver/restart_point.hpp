// Restart points of an explicit run: where the time loop stands (step, increment, output
// schedules), written into a restart file with everything that identifies the run, and read
// back and checked against this deck, build and backend (docs/reliability.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "core/restart_blob.hpp"
#include "discretization/mass_scaling.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "dynamics/output_times.hpp"
#include "model/model.hpp"
#include "solver/explicit_solver.hpp"

namespace halfstep {

/// Output schedule of one kind (field or history) within a step.
struct Schedule {
  double interval = 0;  ///< step time between outputs; 0: never
  double next = 0;
  bool due(double tau, double dt) const { return interval > 0 && tau >= next - 1e-6 * dt; }
  void advance(double tau) { next = next_output_time(next, interval, tau, 1e-12 * interval); }
};

/// Step time between outputs of a request (deck interval, else Abaqus-like defaults).
double request_interval(const OutputRequest& r, double period);

/// Where a resumed run continues: the restart's step, increment and loop state.
struct RestartPoint {
  bool active = false;
  std::uint64_t step = 0;           ///< index of the explicit step
  std::int64_t increments = 0;      ///< increments of that step done
  std::int64_t steps_before = 0;    ///< increments of the earlier steps
  double tau = 0, h_prev = 0, t_step0 = 0, dt = 0;
  Schedule field, history, energy;  ///< before this instant's output
  Schedule restart_sched;           ///< *RESTART, NUMBER INTERVAL
  std::vector<std::uint8_t> held_rot;
  Schedule mass_sched;              ///< *VARIABLE MASS SCALING, NUMBER INTERVAL
};

/// A restart of the run at point p: what identifies the run (checked by restart_point), the
/// loop, the host's reference triads and times of the step's start, and the backend's state.
/// It views p, host and the backend's arrays: write it before any of them changes. The
/// output checkpoint is added by the caller.
RestartBlob make_restart(const RestartPoint& p, const StructureState& host, Backend& hw, const Model& model,
                         const StructureSystem& sys, const VariableMassScaler& scaler, const RunOptions& opt);

/// Why a restart written by `ranks` processes cannot resume in another count (restart_point
/// checks it per rank; a distributed run's rank 0 first, for the whole file).
std::string rank_count_refusal(int ranks);

/// Reads and checks a restart against this deck, build and backend (RestartError otherwise).
RestartPoint restart_point(const RestartBlob& b, const Model& model, const StructureSystem& sys, const Backend& hw,
                           const RunOptions& opt);

/// The increment of the mesh deformed by st: the smallest element bound (the minimum over
/// the ranks when comm is distributed; bulk_linear: the step's linear bulk viscosity, see
/// deformed_stable_dt) times dt_scale. Throws, naming the time, when an element turned
/// inside out (no positive bound): every rank alike in a distributed run.
double deformed_increment(const StructureSystem& sys, const StructureState& st, double bulk_linear, double dt_scale,
                          const Communicator& comm, double time);

}  // namespace halfstep
