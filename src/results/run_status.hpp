// The seam for a running job's progress: the solver says where the analysis is, the
// application decides where that goes (apps/halfstep/status_file.hpp: OUTDIR/<job>.sta and a
// periodic line on stderr), as results/result_sink.hpp does for the results.
#pragma once

namespace halfstep {

/// Wall seconds between two status points of the time loop: a status file of a day-long run
/// stays below ~100k lines, and a reader of it is never more than a second behind.
constexpr double kStatusInterval = 1.0;

/// Where a running analysis is: one line of the status file.
struct StatusPoint {
  int step = 0;             ///< 1-based step number
  bool is_static = false;   ///< a static step: increment counts its converged increments
  bool step_end = false;    ///< the step's last instant
  long long increment = 0;  ///< increments of the step so far
  int iterations = -1;      ///< static: Newton iterations of the latest increment (-1: explicit)
  double step_time = 0, total_time = 0;
  double dt = 0;            ///< the increment in use (explicit) or the latest one (static)
  double end_time = 0;      ///< total time at the end of the analysis (the last step's end)
  /// Energies at energy_time (explicit: the latest energy sample the writer has completed, so
  /// reading them costs the time loop no wait; static: at this increment, kinetic 0);
  /// meaningless while have_energy is false.
  bool have_energy = false;
  double energy_time = 0, kinetic = 0, internal = 0, external_work = 0;
  double energy_error = -1;  ///< largest relative energy balance error so far (-1: not checked, static)
  double eta_seconds = -1;   ///< wall seconds still to go at this run's average pace (-1: unknown yet)
};

}  // namespace halfstep
