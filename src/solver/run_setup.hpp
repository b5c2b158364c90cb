// A run's set-up: the deck checked and built into the whole system (rank 0), the restart
// settings, and in a distributed run every rank's share sent and received. Everything that can
// reject the input happens here, before an output file is touched.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "discretization/mass_scaling.hpp"
#include "discretization/step_loads.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "model/model.hpp"
#include "parallel/communicator.hpp"
#include "parallel/run_share.hpp"
#include "parallel/subdomain.hpp"
#include "solver/explicit_solver.hpp"

namespace halfstep {

/// What a run's set-up made: the model (rank 0's deck, or the outline rank 0 sent), the whole
/// system with its step loads and initial state, the restart settings, and in a distributed
/// run this rank's subdomain with its part of the system, loads and state. Filled in place by
/// prepare_run and never moved: the model and the local loads point into share.
struct RunSetup {
  RunShare share;                     ///< ranks other than 0: what rank 0 sent
  const Model* model = nullptr;       ///< rank 0: the deck; the others: share.outline
  bool builds = false;                ///< this rank reads the deck (rank 0)
  bool any_explicit = false, any_static = false;
  StructureSystem whole;              ///< rank 0: the whole system; the others: its outline
  MassScalingResult mass_scaling;     ///< *FIXED MASS SCALING, applied to whole
  std::vector<StepLoads> whole_steps;
  StructureState st;                  ///< the initial state (a distributed run: this rank's part)
  // Restarts: the command line's count overrides the deck's *RESTART, FREQUENCY.
  std::int64_t restart_every = 0;
  int restart_points = 0;             ///< *RESTART, NUMBER INTERVAL: per step
  double restart_interval = 0;        ///< wall seconds (0: never)
  bool restarts_asked = false;        ///< the command line asked for restarts (or a resume)
  bool restarts = false;              ///< restarts of some kind are to be written
  std::unique_ptr<Subdomain> domain;  ///< null: one process
  StructureSystem local;              ///< this rank's part (distributed)
  std::vector<StepLoads> local_steps;
  std::vector<double> share_bytes_per_rank;  ///< rank 0: the bytes of each rank's share
  double share_bytes_whole = 0;              ///< rank 0: the same archive of the whole model
  /// Rank 0 of a distributed run whose deck begins with static steps: it runs them on the
  /// whole model first and sends the shares (with the converged state) after them
  /// (send_deferred_shares); the other ranks wait for their shares meanwhile.
  bool shares_deferred = false;
  /// Every rank of such a run: the leading static steps, which rank 0 runs alone.
  std::size_t static_head = 0;
  std::vector<int> part;  ///< rank 0 with deferred shares: each model element's rank

  /// The system this rank runs.
  const StructureSystem& sys() const { return domain ? local : whole; }
  /// The step loads of that system.
  const std::vector<StepLoads>& steps() const { return domain ? local_steps : whole_steps; }
  /// Restarts this run cannot write: an error where the command line asked for them, else the
  /// deck's *RESTART is dropped with a warning (an Abaqus deck often has one).
  void cannot_restart(const std::string& why, const Communicator& comm);
};

/// Builds s from the deck (rank 0) or from rank 0's share (the other ranks); throws
/// InputError for bad input, on every rank of a distributed run alike.
void prepare_run(RunSetup& s, const Model& deck, const RunOptions& opt, const Communicator& comm);

/// Rank 0 with deferred shares, after the leading static steps: every rank's share of the
/// whole model in its state now, sent; this rank's part kept (s.domain set).
void send_deferred_shares(RunSetup& s, const Communicator& comm);

}  // namespace halfstep
