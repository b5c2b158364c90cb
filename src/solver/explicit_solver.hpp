// The explicit dynamics driver: steps, time increments, loads, output, energy and checks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <functional>
#include <memory>

#include "backends/backend.hpp"
#include "linear/tangent_engine.hpp"
#include "model/model.hpp"
#include "parallel/communicator.hpp"
#include "discretization/step_loads.hpp"
#include "discretization/structure_system.hpp"
#include "results/result_sink.hpp"
#include "results/run_status.hpp"
#include "results/run_summary.hpp"

namespace halfstep {

/// User options of a run.
struct RunOptions {
  /// Makes the sink that stores the results (called once, on rank 0, after every input check
  /// passed, with the mesh of the frames); null: results are not stored.
  std::function<std::unique_ptr<ResultSink>(const ResultMesh&)> make_sink;
  int threads = 0;                 ///< 0: OpenMP default
  double dt_scale = 0.9;           ///< safety factor on the stable increment estimate
  double energy_tolerance = 0.05;  ///< stop when |total - total(0)| exceeds this share of the energy scale
  bool progress = false;           ///< print a live progress line on stderr
  BackendKind backend = BackendKind::Auto;  ///< hardware for the time loop
  BackendOptions backend_options;           ///< GPU scheme, precision, block-size tuning
  const Communicator* comm = nullptr;       ///< ranks of a distributed run (null: one process)
  TangentOptions tangent;                   ///< static steps: linear solver and its tolerances
  // Restart (explicit steps; docs/reliability.md):
  /// Re-evaluate the stable increment on the deformed mesh every this many increments of a
  /// step with the automatic increment (0: the undeformed mesh's estimate throughout).
  std::int64_t dt_update = 0;
  std::int64_t restart_every = 0;  ///< write a restart every this many explicit increments (0: by count never)
  double restart_interval = 0;     ///< and every this many wall seconds (0: by wall time never)
  /// restart_interval is the application's default, not asked for: where no restart can be
  /// written (a deck of static steps) it is dropped quietly instead of refused.
  bool restart_interval_default = false;
  /// Writes a restart file (atomically) and returns its path; set by the application. Null:
  /// no restart is written, not even when the run is interrupted.
  std::function<std::string(const RestartBlob&)> write_restart;
  /// Resume from this restart (the file's content, parsed); null: start from the deck.
  const RestartBlob* resume = nullptr;
  /// This program's identity, kept in restarts and checked on resume; called only when a
  /// restart is written or read (it may hash the program). Null: "".
  std::function<std::string()> build_id;
  /// The job's name (the deck's file name without extension, which names its result files):
  /// a restart records it and resumes only the job that wrote it.
  std::string job;
  /// Receives where the run is, on rank 0: at most every kStatusInterval wall seconds, and at
  /// the end of every step. Null: nothing is reported.
  std::function<void(const StatusPoint&)> status;
};

/// A run failure that every rank of a distributed run detected together (so each can stop
/// on its own, with the same message, without aborting the others).
class CollectiveRunError : public RunError {
 public:
  using RunError::RunError;
};

/// A restart every rank of a distributed run refuses alike: each stops with the same
/// message (rank 0 prints it) instead of the run being aborted from one rank.
class CollectiveRestartError : public RestartError {
 public:
  using RestartError::RestartError;
};

/// Time increment a step uses: the deck's fixed one, or the scaled stable estimate (with its
/// bulk viscosity's factor on the kinds that take it).
double step_increment(const StructureSystem& sys, const StepLoads& step, double dt_scale);

/// The most increments an explicit step may take, 2^52: past it an increment can fall below
/// the resolution of the step time (tau + dt == tau) and the step would never end.
constexpr double kMaxStepIncrements = 4503599627370496.0;

/// The increments of an explicit step of `period` at increment dt, counted in a double (an
/// integer count overflowed: -9223372036854775808). Throws InputError at the step's line
/// when there are more than kMaxStepIncrements (or dt is not a positive number).
double checked_increment_count(const Step& step, double period, double dt);

/// An input error found once the run's output had begun: what only a step's factorization
/// finds (a mechanism's zero pivot). The results written before stay; the caller writes the
/// failure beside them (summary.json, the status file), as for a RunError, with exit code 2.
class InputErrorAfterOutput : public InputError {
 public:
  explicit InputErrorAfterOutput(const InputError& e) : InputError(e) {}
};

/// Runs every step of the model, handing results to the sink of options.make_sink.
/// Throws InputError for problems found before the output begins (the implicit steps'
/// pre-flight included), InputErrorAfterOutput for one found after, and RunError for
/// instabilities (naming the step and the element). In a distributed run only rank 0
/// passes the deck's model; the other ranks pass an empty one and receive their share from
/// rank 0 (parallel/run_share.hpp).
RunSummary run_analysis(const Model& deck, const RunOptions& options);

}  // namespace halfstep
