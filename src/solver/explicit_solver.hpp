// The explicit dynamics driver: steps, time increments, loads, output, energy and checks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "model/model.hpp"
#include "parallel/communicator.hpp"
#include "solver/structure_system.hpp"

namespace halfstep {

/// User options of a run.
struct RunOptions {
  std::string output_dir;
  int threads = 0;                 ///< 0: OpenMP default
  double dt_scale = 0.9;           ///< safety factor on the stable increment estimate
  double energy_tolerance = 0.05;  ///< stop when |total - total(0)| exceeds this share of the energy scale
  bool progress = false;           ///< print a live progress line on stderr
  BackendKind backend = BackendKind::Auto;  ///< hardware for the time loop
  BackendOptions backend_options;           ///< GPU scheme, precision, block-size tuning
  const Communicator* comm = nullptr;       ///< ranks of a distributed run (null: one process)
};

/// Measured facts about a finished run (also written to summary.json).
struct RunSummary {
  int nodes = 0, elements = 0;
  std::int64_t steps = 0;
  double time_increment = 0;       ///< increment used (the last step's)
  double stable_increment = 0;     ///< estimate before the safety factor
  std::int64_t controlling_element = 0;  ///< deck id of the element controlling the estimate
  double wall_seconds = 0, solve_seconds = 0;
  double element_steps_per_second = 0;
  int threads = 0;
  std::string backend = "cpu", precision = "double";
  std::string backend_description;  ///< device and scheme, for the log
  double device_bytes_per_element = 0;  ///< accelerator memory per element (0 on the CPU)
  int frames = 0;
  double energy_error = 0;         ///< max |total - total(0)| over the run / largest energy reached
  double final_time = 0;
  // Distributed runs (ranks > 1):
  int ranks = 1;
  std::vector<int> rank_elements;        ///< elements of each rank
  std::vector<double> rank_comm_seconds; ///< wall seconds each rank spent in exchanges and reductions
  std::vector<int> rank_devices;         ///< GPU index of each rank (-1: CPU)
  std::string transport;                 ///< how interface buffers travel (host, cuda-aware, host-staged)
  std::string mpi_library;               ///< MPI library in use
};

/// A run failure that every rank of a distributed run detected together (so each can stop
/// on its own, with the same message, without aborting the others).
class CollectiveRunError : public RunError {
 public:
  using RunError::RunError;
};

/// Time increment a step uses: the deck's fixed one, or the scaled stable estimate.
double step_increment(const StructureSystem& sys, const std::optional<double>& fixed, double dt_scale);

/// Runs every step of the model, writing results to options.output_dir.
/// Throws InputError for problems found before the first frame is written and RunError
/// for instabilities (naming the step and the element).
RunSummary run_analysis(const Model& model, const RunOptions& options);

}  // namespace halfstep
