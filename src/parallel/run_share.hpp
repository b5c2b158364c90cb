// How a distributed run starts (docs/parallel.md, "What each rank does"): rank 0 alone reads the
// deck and builds the whole model; it sends every other rank its share — the rank's
// subdomain, its restriction of the system, steps and state, the outline of the model the
// time loop still reads (steps, output requests, history sets, amplitudes) and the whole
// system's scalars — as bytes of one archive (core/byte_archive.hpp). Before any share
// travels, rank 0 tells every rank whether its set-up succeeded, so an error in the deck
// stops every rank at once with the message printed once. The other ranks wait for rank 0
// without spinning (Communicator::wait_for_bytes): on one host they would take its cores.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "discretization/step_loads.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "model/model.hpp"
#include "parallel/communicator.hpp"
#include "parallel/subdomain.hpp"

namespace halfstep {

/// One rank's part of a distributed run as rank 0 sends it. steps' amplitude tables point
/// into outline.amplitudes: a share is moved, never copied.
struct RunShare {
  Model outline;                 ///< model_outline() of the deck
  StructureSystem whole;         ///< system_outline() of the whole system
  Subdomain domain;              ///< build_subdomain for this rank
  StructureSystem system;        ///< restrict_system
  std::vector<StepLoads> steps;  ///< restrict_step of every step
  StructureState state;          ///< restrict_state of the initial state
  RunShare() = default;
  RunShare(RunShare&&) = default;
  RunShare& operator=(RunShare&&) = default;
  RunShare(const RunShare&) = delete;
  RunShare& operator=(const RunShare&) = delete;
};

/// What the time loop reads of the model on a rank that holds no deck: the identity (path,
/// hash, renumbering flag), the restart request, every step without its boundaries and
/// loads (those travel restricted, as StepLoads), the amplitudes and the node sets that
/// history requests name.
Model model_outline(const Model& model);

/// The whole system without its per-node and per-element arrays: counts, totals, the stable
/// increment and the layouts a frame gather needs (solid groups, state sizes).
StructureSystem system_outline(const StructureSystem& whole);

/// Rank q's part of the whole (part: every model element's rank): its subdomain and the
/// system, steps and initial state restricted to it; the outlines are left empty. Rank 0
/// makes every rank's, its own included, the same way.
RunShare rank_part(const StructureSystem& whole, const std::vector<StepLoads>& steps, const StructureState& state,
                   const std::vector<int>& part, int q, int ranks);

/// The share as bytes (what send_bytes carries).
std::string serialize_share(const RunShare& share);

/// Bytes serialize_share would give for these parts, without making them (for the summary).
std::uint64_t share_bytes(const Model& outline, const StructureSystem& whole, const Subdomain& domain,
                          const StructureSystem& system, const std::vector<StepLoads>& steps,
                          const StructureState& state);

/// A share back from serialize_share's bytes; ArchiveError (naming `what`) when they are
/// truncated or corrupt.
RunShare parse_share(const std::string& bytes, const std::string& what);

/// Rank 0: tells every other rank that the set-up succeeded (the shares follow).
void announce_setup_ok(const Communicator& comm);

/// Rank 0: tells every other rank that the set-up failed with e (they stop with the same
/// exit code; only rank 0 prints the message).
void announce_setup_failure(const Communicator& comm, const std::exception& e);

/// Rank 0: the run ended before the shares were sent (a deck of static steps, which rank 0
/// runs alone, or a stop in them); the other ranks leave with exit code `code`.
void announce_run_ended(const Communicator& comm, int code);

/// Ranks other than 0: waits for rank 0's verdict on the set-up and then receives this
/// rank's share; after a failure throws what rank 0 threw (InputError: exit 2), or a
/// CollectiveSetupError with its exit code (also when the run ended on rank 0 before any
/// share was sent: 0 when it completed). A share that cannot be read stops the run from here
/// (comm.abort).
RunShare receive_share(const Communicator& comm);

/// A failure of rank 0's set-up as the other ranks see it: they stop with code, silently
/// (rank 0 prints the message).
class CollectiveSetupError : public std::runtime_error {
 public:
  CollectiveSetupError(const std::string& msg, int code) : std::runtime_error(msg), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

}  // namespace halfstep
