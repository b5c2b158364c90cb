// Static steps (*STATIC): load increments with full Newton-Raphson on the consistent tangent,
// Abaqus-style residual and correction checks, automatic cut-backs, and a frame per converged
// increment. The heavy work (internal forces, tangent assembly, linear solve) is done by a
// TangentEngine (linear/tangent_engine.hpp) on the CPU or the GPU; this file is only the
// incrementation logic, on host vectors of the equations.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "backends/backend.hpp"
#include "discretization/step_loads.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "dynamics/output_frame.hpp"
#include "linear/tangent_engine.hpp"
#include "model/model.hpp"
#include "results/run_status.hpp"
#include "results/run_summary.hpp"

namespace halfstep {

/// What a static step needs from the run.
struct StaticStepOptions {
  BackendKind backend = BackendKind::Auto;  ///< hardware of the tangent engine
  TangentOptions tangent;                   ///< linear solver, threads, device
  bool progress = false;                    ///< one line per increment on stderr
  bool first_step = false;                  ///< write the initial frame (the analysis starts here)
  /// Receives the frames (field/history/energy flags set); null: no output.
  std::function<void(std::unique_ptr<OutputFrame>)> emit;
  /// Receives every converged increment (step number and end time left for the caller to
  /// fill); null: none.
  std::function<void(const StatusPoint&)> status;
  /// The pre-flight (check_implicit_steps): StaticProblem stops after the input checks and
  /// the numbering, without a tangent engine or contact.
  bool checks_only = false;
};

/// Refuses what an implicit step (static, implicit dynamic, frequency, buckle) cannot start
/// with: a model without elements, a static or implicit dynamic step's velocity boundary
/// conditions.
void check_implicit_step_start(const Step& step, const StructureSystem& sys, const StepLoads& loads);

/// The pre-flight of every implicit step, before any output: each step's problem is set up
/// as far as its input checks and numbering (StaticStepOptions::checks_only), with the
/// frequency and buckle steps' own equation checks, on a copy of the initial state st, so
/// that a deck refused there (a part no *BOUNDARY holds, a massless free dof) leaves no
/// results behind. The steps check again when they start.
void check_implicit_steps(const Model& model, const StructureSystem& sys, const std::vector<StepLoads>& steps,
                          const StructureState& st, int threads);

/// Refuses an implicit dynamic or steady-state dynamics step in which a rigid body's reference
/// node has a free rotation: those steps move a body by its reference node's given rotation
/// (loads: the step's, for the held rotations); *STATIC and *FREQUENCY steps solve for it, a
/// *MODAL DYNAMIC step turns it with its modes. halfstep check runs it; the step again.
void check_static_body_rotations(const Model& model, const Step& step, const StructureSystem& sys,
                                 const StepLoads& loads);

/// Refuses, before any output, what an implicit dynamic step (step.dynamic) cannot take:
/// rotational dofs, contact, dashpots (static_dynamics.cpp).
void check_dynamic_step(const Step& step, const StructureSystem& sys);

/// Runs static step `step` (model.steps[index]) from state st (displacements in, converged
/// displacements and time out; velocities are zero after it). Adds its counts and timings to
/// summary. Throws InputError for a model the step cannot solve (no constraint
/// against rigid motion) and RunError when the increment falls below the minimum.
void run_static_step(const Model& model, const Step& step, const StructureSystem& sys, const StepLoads& loads,
                     StructureState& st, const StaticStepOptions& opt, StaticSummary& summary);

}  // namespace halfstep
