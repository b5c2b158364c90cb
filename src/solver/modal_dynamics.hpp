// *MODAL DYNAMIC steps (and *STEADY STATE DYNAMICS, their harmonic counterpart): the transient response of the linear model as the superposition of the
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

#include <vector>

namespace halfstep {

/// The excitation frequencies (cycles/time, ascending, each once) of a steady-state step over
/// [low, high] with the modes' eigenfrequencies `eigen` (cycles/time): the range's bounds and
/// the eigenfrequencies strictly inside it are fixed points; each interval between two
/// neighbours takes `points` values, its ends included, at s = (1 + sign(x) |x|^(1/bias)) / 2
/// of its length for x evenly spaced over [-1, 1] (the peer's documented rule: evenly spaced
/// for bias 1, gathered about both ends for a larger bias). A single point when low == high.
std::vector<double> steady_state_frequencies(double low, double high, int points, double bias,
                                             const std::vector<double>& eigen);

/// Runs steady-state step `step` (step.modal with steady_state set) on the modes of the last
/// frequency step: at each excitation frequency the complex response u = u_s + sum_j phi_j q_j
/// to the step's loads (LOAD CASE=2: their imaginary part) and base motion (u_s: the static
/// displacements of the prescribed values); hands per frequency a frame of the real part (U,
/// the field and history output, the modal amplitudes' table) and one of the imaginary part
/// (printed tables only), at time = the frequency, and leaves st as it found it. Returns the
/// frequencies taken.
long long run_steady_state_step(const Model& model, const Step& step, const StructureSystem& sys,
                                const StepLoads& loads, StructureState& st, const StaticStepOptions& opt,
                                StaticSummary& summary, const ModeSet* modes);

/// The critical damping ratio of mode j (0-based) with circular frequency omega: the last
/// *MODAL DAMPING range that holds it, or Rayleigh's alpha / (2 omega) + beta omega / 2.
double modal_damping_ratio(const ModalDynamics& d, int j, double omega);
/// Mode j's damping per unit modal mass, 2 zeta omega, at omega^2 (Rayleigh's alpha + beta
/// omega^2 also for a rigid mode, omega = 0).
double modal_damping_coefficient(const ModalDynamics& d, int j, double omega2);

struct StaticProblem;

/// Refuses a modal or steady-state step (step.modal) without modes in this run (null: a run
/// resumed after the frequency step it needs).
void require_modes(const ModalDynamics& md, const ModeSet* modes);

/// Refuses modes that such a step, on problem p, cannot superpose: those of a frequency step
/// that held other dofs, none at all, one without a positive omega^2 (and, for a steady-state
/// step, modes kept without their mass).
void check_modes_fit(const ModalDynamics& md, const ModeSet& modes, const StaticProblem& p);

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
