// What every step of a run shares (solver-internal): the set-up, the backend, the result
// writer, the summary, the restart being resumed and the clocks. run_analysis builds it once;
// the static and explicit step runners take it.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "backends/backend.hpp"
#include "core/lap_timer.hpp"
#include "discretization/mass_scaling.hpp"
#include "dynamics/energy_monitor.hpp"
#include "parallel/frame_gather.hpp"
#include "results/result_sink.hpp"
#include "results/run_status.hpp"
#include "results/run_summary.hpp"
#include "solver/async_output.hpp"
#include "solver/explicit_solver.hpp"
#include "solver/frequency_step.hpp"
#include "solver/restart_point.hpp"
#include "solver/run_setup.hpp"

namespace halfstep {

/// The solver's wall clock (core/lap_timer.hpp: seconds_since).
using Clock = std::chrono::steady_clock;

/// The run context: references to what run_analysis owns, and the state the steps carry on.
struct RunContext {
  RunContext(const RunOptions& o, const Communicator& cm, RunSetup& s, const DistributedContext* d, bool w,
             VariableMassScaler& sc)
      : opt(o),
        comm(cm),
        setup(s),
        model(*s.model),
        sys(s.sys()),
        steps(s.steps()),
        dist(d),
        writes(w),
        scaler(sc),
        mass_after_fixed(s.whole.total_mass) {}

  const RunOptions& opt;
  const Communicator& comm;
  RunSetup& setup;
  const Model& model;                   ///< the deck (rank 0) or its outline
  const StructureSystem& sys;           ///< the system this rank runs
  const std::vector<StepLoads>& steps;  ///< its step loads
  const DistributedContext* dist;       ///< null: one process
  bool writes;                          ///< rank 0 writes every file
  VariableMassScaler& scaler;
  double mass_after_fixed;              ///< the whole model's mass after *FIXED MASS SCALING
  Backend* backend = nullptr;           ///< null: a deck of static steps only
  const RestartBlob* resume = nullptr;  ///< the restart resumed (a distributed run: this rank's part)
  RestartPoint resume_at;               ///< where it continues (inactive: not resuming)
  bool restart_writer = false;          ///< restarts are written (every rank takes part)
  ResultSink* writer = nullptr;         ///< rank 0 with a sink
  AsyncOutput* out = nullptr;           ///< the writer thread in front of writer
  FrameGather* gather = nullptr;        ///< a distributed run's frames to rank 0
  RunSummary sum;
  EnergyMonitor mon;                    ///< the latest poll of the backend
  /// What a frame without field output or printed tables carries (OutputFrame::nodes): a
  /// history row the nodes of every history set opened so far (the writer goes on writing a
  /// set in later steps), an energy row none.
  std::shared_ptr<const std::vector<int>> history_rows;
  std::shared_ptr<const std::vector<int>> no_rows = std::make_shared<const std::vector<int>>();
  Clock::time_point t_start;           ///< the run's start
  Clock::time_point last_restart;      ///< the latest restart written (or the loop's start)
  Clock::time_point last_progress;     ///< the latest progress line on a terminal
  Clock::time_point t_loop;            ///< the time loop's start
  Clock::time_point last_status;       ///< the latest status point
  double t_begin = 0;                  ///< analysis time at the loop's start (a resumed run: the restart's)
  double total_time = 0;               ///< the steps' periods summed
  double solve_seconds = 0;            ///< wall seconds in explicit time loops
  bool tty = false;                    ///< progress on a terminal
  bool reports = false;                ///< status points go to opt.status (rank 0)
  /// The last frequency step's modes, for a *MODAL DYNAMIC after it (null: none run yet).
  std::shared_ptr<ModeSet> modes;

  /// Hands p to opt.status with the run's end time and the ETA at the pace so far (wall
  /// seconds per unit of analysis time since the time loop began).
  void report_status(StatusPoint p) {
    last_status = Clock::now();
    p.end_time = total_time;
    const double done = p.total_time - t_begin;
    if (done > 0) p.eta_seconds = seconds_since(t_loop) * std::max(0.0, total_time - p.total_time) / done;
    opt.status(p);
  }
};

/// The host learns of an instability or energy drift only when it polls the backend; the
/// backend stops at the failing increment, so a late poll loses nothing but time.
constexpr std::int64_t kPollEvery = 2000;

/// Runs explicit step si to its end, or to the increment where a stop was asked for (SIGINT,
/// SIGTERM: true then, after a restart and a last frame).
bool run_explicit_step(RunContext& c, std::size_t si);

}  // namespace halfstep
