// *MODAL DYNAMIC steps: the transient response of the linear model as the superposition of the
// modes the last *FREQUENCY step found, each mode's equation q'' + 2 zeta omega q' + omega^2 q
// = phi . f(t) / m integrated exactly for loads linear over each increment.
#pragma once

#include "discretization/step_loads.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "model/model.hpp"
#include "results/run_summary.hpp"
#include "solver/frequency_step.hpp"
#include "solver/static_solver.hpp"

namespace halfstep {

/// Refuses, before any output, what a modal step cannot take: no *FREQUENCY step before it,
/// rotational dofs, contact, prescribed motion (base motion).
void check_modal_step(const Model& model, const Step& step, const StructureSystem& sys);

/// Runs modal step `step` (step.modal set) from state st with the modes of the last frequency
/// step (null: none in this run, refused): the modal response starts at rest on st's
/// displacements, or, right after another modal step, goes on with that step's motion (kept
/// in *modes); st holds the last increment's displacements and time after it. Hands its
/// frames to opt.emit and adds its counts to summary; returns the increments taken.
long long run_modal_dynamic_step(const Model& model, const Step& step, const StructureSystem& sys,
                                 const StepLoads& loads, StructureState& st, const StaticStepOptions& opt,
                                 StaticSummary& summary, ModeSet* modes);

}  // namespace halfstep
