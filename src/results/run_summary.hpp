// The measured facts of a finished run (written to summary.json by the application).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace halfstep {

/// Counts and timings of the static steps of a run (all zero when it has none).
struct StaticSummary {
  int steps = 0;
  std::int64_t increments = 0, iterations = 0, cutbacks = 0;
  int equations = 0;                 ///< of the last static step
  std::string engine;                ///< hardware, assembly and linear solver (last static step)
  std::string linear_solver;         ///< --linear-solver name of the solver that ran
  std::string blas;                  ///< cholmod: the BLAS it ran on (blas_library)
  bool on_gpu = false;               ///< the last static step ran on the GPU engine
  double internal_force_seconds = 0, element_seconds = 0, assembly_seconds = 0;
  double analyze_seconds = 0, factor_seconds = 0, solve_seconds = 0;
  double seconds = 0;                ///< wall time of the static steps
  double setup_seconds = 0;          ///< loads, equation numbers, checks, the engine (pattern, uploads)
  double output_seconds = 0;         ///< frames handed to the writer (energies, copies)
  std::int64_t matrices = 0, factorizations = 0, krylov_iterations = 0, nonzeros = 0;
  double matrix_bytes = 0, solver_bytes = 0;
  /// *STATIC, STABILIZE: energy dissipated by the viscous forces, and the strain energy at
  /// the end of the static steps, to judge whether the stabilization changed the answer.
  double stabilization_energy = 0, strain_energy = 0;
  /// Residual norms (max |r| / force scale) of each Newton iteration, per converged or
  /// failed increment attempt, for the first 1000 attempts (convergence-rate checks).
  std::vector<std::vector<double>> residuals;
};

/// One step as it ran: its increment (explicit: fixed for the step) and how many it took.
struct StepRecord {
  std::string name, procedure;  ///< procedure: "explicit" or "static"
  double start_time = 0, period = 0;
  double increment = 0;         ///< explicit steps; 0 for static ones (their increments vary)
  std::int64_t increments = 0;
  std::vector<double> eigenvalues;  ///< a frequency step's omega^2 per mode, ascending; a buckle step's factors
};

/// Measured facts about a finished run (also written to summary.json).
struct RunSummary {
  /// "completed", or "interrupted by SIGINT" (SIGTERM) when a stop was asked for: the run
  /// then ended after a whole increment, with a last frame written.
  std::string status = "completed";
  int nodes = 0, elements = 0;
  std::int64_t steps = 0;
  double time_increment = 0;       ///< increment used (the last step's)
  double stable_increment = 0;     ///< estimate before the safety factor
  std::int64_t controlling_element = 0;  ///< deck id of the element controlling the estimate
  /// *FIXED MASS SCALING: elements scaled, the mass added (and its share of the unscaled
  /// model's) and the estimate before scaling.
  /// --dt-update: how often the increment was re-evaluated on the deformed mesh and the
  /// smallest it took (time_increment is then the last).
  std::int64_t increment_updates = 0;
  double smallest_increment = 0;
  int mass_scaled_elements = 0;
  int mass_scaling_skipped = 0;  ///< elements a line without ELSET left unscaled (FPM beams, triangles)
  double added_mass = 0, added_mass_fraction = 0, stable_increment_unscaled = 0;
  /// *VARIABLE MASS SCALING: how often the masses were re-evaluated, the elements scaled and
  /// the mass it added (beyond the fixed scaling's) at the end and at most, that largest as a
  /// share of the unscaled model's mass, the kinetic energy it added (energy.csv's
  /// mass_scaling_work) and the smallest increment of its steps.
  std::int64_t variable_scalings = 0;
  int variable_scaled_elements = 0;
  double variable_added_mass = 0, variable_added_mass_max = 0, variable_added_mass_fraction_max = 0;
  double mass_scaling_work = 0, variable_smallest_increment = 0;
  double wall_seconds = 0, solve_seconds = 0;
  /// Where the wall time went besides the solve: reading the deck (set by the application),
  /// set-up (system, backend, stable estimate, writer: from the start of the analysis to its
  /// first step) and output (the writer's own time, on its thread, overlapping the solve).
  double read_seconds = 0, setup_seconds = 0, output_seconds = 0;
  /// The deck as read (set by the application): its bytes with every *INCLUDE, and what the
  /// model built from it holds on the host per element (model_host_bytes).
  double deck_bytes = 0, model_bytes_per_element = 0;
  std::vector<StepRecord> step_records;  ///< every step that started, in order
  std::vector<std::string> warnings;     ///< the deck's warnings (set by the application)
  double element_steps_per_second = 0;
  /// Locality renumbering (--renumber, set by the application): whether it was applied, the
  /// mean span of node indices per element before and after, and the pass's wall time.
  bool renumbered = false;
  double renumber_span_before = 0, renumber_span_after = 0, renumber_seconds = 0;
  int threads = 0;
  std::string backend = "cpu", precision = "double";
  std::string backend_description;  ///< device and scheme, for the log
  double device_bytes_per_element = 0;  ///< accelerator memory per element (0 on the CPU)
  int frames = 0;
  double energy_error = 0;         ///< max |total - total(0)| over the run / largest energy reached
  double energy_tolerance = 0;     ///< the run's --energy-tolerance (set by the application)
  double final_time = 0;
  // Distributed runs (ranks > 1):
  int ranks = 1;
  std::vector<int> rank_elements;        ///< elements of each rank
  /// Host bytes of the share rank 0 sent each rank (rank 0's own as it would travel):
  /// parallel/run_share.hpp.
  std::vector<double> rank_share_bytes;
  double whole_share_bytes = 0;          ///< the same archive of the whole model (what every rank held before)
  std::vector<double> rank_comm_seconds; ///< wall seconds each rank spent in exchanges and reductions
  /// Wall seconds of each phase of the increments, per rank: (phase, one value per rank).
  std::vector<std::pair<std::string, std::vector<double>>> rank_phase_seconds;
  std::vector<int> rank_devices;         ///< GPU index of each rank (-1: CPU)
  std::string transport;                 ///< how interface buffers travel (host, cuda-aware, host-staged)
  std::string mpi_library;               ///< MPI library in use
  StaticSummary statics;                 ///< static steps
  // Restart files (docs/reliability.md):
  std::string restart_file;              ///< the latest written ("" when none was)
  int restarts_written = 0;
  double restart_seconds = 0;            ///< wall seconds spent writing them (waiting for output included)
  double restart_time = 0;               ///< model time of the latest
  std::string resumed_from;              ///< the restart file this run resumed from ("" for a fresh run)
  double resumed_at = 0;                 ///< its model time
  // Set by the application: what the results are called and where they are.
  std::string job;                       ///< the job name (the deck's file name without extension)
  std::string heading;                   ///< the deck's *HEADING text (lines joined by newlines; may be empty)
  /// The model's facts for the report: elements per TYPE= as written (by name), the number of
  /// materials, and the model's mass as the deck gives it (before mass scaling).
  std::map<std::string, int> element_types;
  int materials = 0;
  double model_mass = 0;
  /// The files of this run's results, relative to OUTDIR (frames: those its .pvd lists); a
  /// report reads these and no others, so a stale file in the folder is never shown.
  std::vector<std::string> files;
};

}  // namespace halfstep
