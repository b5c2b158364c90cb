// *BUCKLE steps: eigenvalue buckling about the state the run is in, (K + lambda K_sigma) phi =
// 0, on the static step's equations (its constraints by elimination, its tangent engine's
// factorization of K). K_sigma is the initial-stress stiffness of the stresses of the
// displacements u = K^-1 P of the step's loads P (solver/stress_stiffness.hpp).
#pragma once

#include <vector>

#include "discretization/step_loads.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "model/model.hpp"
#include "results/run_summary.hpp"
#include "solver/static_solver.hpp"

namespace halfstep {

struct StaticProblem;

/// Refuses, before any output, what a buckle step cannot take: nodes with rotations (shells,
/// beams), kinds without a stress stiffness, contact.
void check_buckle_step(const Step& step, const StructureSystem& sys);

/// Refuses a buckle step of fewer than two free equations; p is the step's problem, numbered.
void check_buckle_equations(const StaticProblem& p);

/// Runs buckle step `step` (step.buckle set) about state st, which it leaves as it found it;
/// hands a frame per mode (U the buckling mode, largest component 1, at analysis time st.time +
/// mode number) and the factor table to opt.emit. Returns the buckling factors, smallest
/// magnitude first. Throws InputError for a model it cannot take (no load, rigid motion) and
/// RunError when the eigensolver does not converge or no factor exists.
std::vector<double> run_buckle_step(const Model& model, const Step& step, const StructureSystem& sys,
                                    const StepLoads& loads, StructureState& st, const StaticStepOptions& opt,
                                    StaticSummary& summary);

}  // namespace halfstep
