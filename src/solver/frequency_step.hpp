// *FREQUENCY steps: the lowest natural frequencies and mode shapes of the model about the
// state the run is in, K phi = omega^2 M phi on the static step's equations (its constraints
// by elimination, its tangent engine's factorization), with the lumped mass of the explicit
// scheme.
#pragma once

#include <memory>
#include <vector>

#include "discretization/step_loads.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "model/model.hpp"
#include "solver/dof_mass.hpp"
#include "results/run_summary.hpp"
#include "solver/static_solver.hpp"

namespace halfstep {

struct StaticProblem;

/// The modes a frequency step found, kept for a later *MODAL DYNAMIC step: omega^2 and the
/// shapes as dof vectors of the static step's layout (`dofs_per_node` per node; tied and
/// slaved dofs expanded, held dofs zero).
struct ModeSet {
  std::vector<double> lambda;               ///< omega^2, ascending
  std::vector<std::vector<double>> shapes;  ///< one dof vector per mode
  /// Per mode, 3 per rigid body: the rotation vector of a body whose rotation the step solved
  /// for (zero for the given components); empty without bodies.
  std::vector<std::vector<double>> body_turns;
  std::vector<double> modal_mass;           ///< phi . M phi (1 under NORMALIZATION=MASS)
  /// The mass matrix the modes are orthogonal in, on the dofs (held ones' rows included): a
  /// steady-state step's base-motion loads and support reactions.
  std::shared_ptr<const DofMass> mass;
  std::vector<char> held;                   ///< the dofs the frequency step held
  std::size_t dofs_per_node = 3;
  int step = 0;                             ///< the frequency step, 1-based
  /// The motion the last *MODAL DYNAMIC step on these modes ended with (q, v per mode), the
  /// base displacements it added them to, and that step (1-based; 0: none): a modal step right
  /// after it goes on from there.
  std::vector<double> q, v, base;
  int motion_step = 0;
};

/// Refuses, before any output, what a frequency step cannot take: beams or FPM triangles,
/// contact, *EL PRINT of shells.
void check_frequency_step(const Step& step, const StructureSystem& sys);

/// Refuses a frequency step's free equation without mass (its frequency would be infinite);
/// p is the step's problem, numbered (a pre-flight's StaticStepOptions::checks_only will do).
void check_frequency_masses(const StaticProblem& p);

/// Runs frequency step `step` (step.frequency set) about state st, which it leaves as it
/// found it; hands a frame per mode (U the mode shape, at analysis time st.time + mode
/// number, as the peer numbers them) and the eigenvalue table to opt.emit. Returns the
/// eigenvalues omega^2, ascending, and the modes into *keep (when given). Throws InputError
/// for a model it cannot take (rotational dofs, contact, a free dof without mass, rigid motion)
/// and RunError when the eigensolver does not converge.
std::vector<double> run_frequency_step(const Model& model, const Step& step, const StructureSystem& sys,
                                       const StepLoads& loads, StructureState& st, const StaticStepOptions& opt,
                                       StaticSummary& summary, ModeSet* keep = nullptr);

}  // namespace halfstep
