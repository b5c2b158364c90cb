// The problem of one static step (solver-internal): its unknowns and equations, and the
// forces at a trial state. static_solver.cpp increments the step on it with Newton's method
// (newton.hpp), for which it is a NewtonProblem.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "assembly/csr_assembly.hpp"
#include "core/vec3.hpp"
#include "discretization/configuration.hpp"
#include "discretization/step_loads.hpp"
#include "discretization/structure_operator.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "dynamics/output_frame.hpp"
#include "discretization/loads.hpp"
#include "linear/tangent_engine.hpp"
#include "model/model.hpp"
#include "solver/dof_mass.hpp"
#include "solver/newton.hpp"
#include "solver/static_contact.hpp"
#include "solver/static_solver.hpp"

namespace halfstep {

/// Displacement, in units of the model's size, whose forces in the mean nodal stiffness are the
/// lowest force scale of a step with contact (round-off forces are ~1e-16 of such).
inline constexpr double kForceFloorStrain = 1e-10;

/// The held rotations of a step's nodes less those of the row elements' nodes, whose frames
/// align_triads must not turn (StaticProblem::hold_frame_spins holds theirs).
std::vector<std::uint8_t> holds_without_row_nodes(const StructureSystem& sys, const std::vector<std::uint8_t>& fixed_rotation);

/// One static step: its unknowns x (ndn per node: translations are total displacements,
/// rotation entries spins about the triad), their equations (a held dof has none; a rigid
/// body's slaves share their reference node's translations; a dependent dof of *TIE or
/// *EQUATION is the weighted sum of its terms), and the forces at a trial state.
/// Built with the step's checks (rigid motion, reference-node rotations, nonlinear springs and
/// adhesion in linear steps) and its tangent engine. A geometrically linear step keeps total
/// rotations on the reference configuration's triads (ref: zero displacement, reference
/// directors, t1 pulled back), so x there is linear in the loads; under NLGEOM the
/// configuration is turned by each correction (exponential map) and the rotation entries of x
/// only sum the spins of the step, for the correction check and the work.
struct StaticProblem final : NewtonProblem {
  StaticProblem(const Model& model, const Step& step, const StructureSystem& sys, const StepLoads& loads,
                StructureState& st, const StaticStepOptions& opt);
  StaticProblem(const StaticProblem&) = delete;  // dv views drive: never copied or moved
  StaticProblem& operator=(const StaticProblem&) = delete;

  // The NewtonProblem: the step's equations. The out-of-balance force is f_ext - f_int (less
  // the viscous forces of STABILIZE) summed per equation; the force scales are Abaqus/
  // Standard's: the average nonzero nodal force and moment of the trial, reactions included,
  // never below the time average of the converged increments (q~, accepted()).
  int equations() const override { return neq; }
  /// Contact makes a linear step nonlinear too (its active set and multipliers).
  /// So does plasticity (small_strain).
  bool nonlinear() const override { return step.nlgeom || contact != nullptr || small_strain; }
  void begin_attempt(const NewtonIterate& from, NewtonIterate& trial, double tau1, double dtau) override;
  NewtonBalance balance(const NewtonIterate& from, NewtonIterate& trial, double tau1, double dtau,
                        std::vector<double>& r) override;
  void correction_sizes(const std::vector<double>& du, const NewtonIterate& from, const NewtonIterate& trial,
                        double du_max[2], double dx_max[2]) const override;
  void factor(const NewtonIterate& trial, bool step_start) override;
  /// Solves K du = r; an attempt's first solve refuses a load that moves a zero pivot held by
  /// hold_zero_pivot.
  void solve(const std::vector<double>& r, std::vector<double>& du) override;
  void correct(const std::vector<double>& du, double tau1, NewtonIterate& trial) override;
  bool augment(const NewtonIterate& trial) override;
  std::string iterate_note(const std::vector<double>& r) const override;
  /// Takes a converged increment: its material state becomes the start of later evaluations,
  /// its internal forces join the time-averaged force scales.
  void accepted(const NewtonIterate& s);
  /// An attempt's first trial with the increment of the prescribed motions spread by the
  /// tangent at its start (Abaqus/Standard's first iteration): the free dofs move by
  /// K_ff^-1 (f_ext - f_int - K_fp du_p) before any force is evaluated, so that the elements
  /// beside a moved support do not take the whole motion (steps whose laws have state, under
  /// NLGEOM, without contact, inertia or stabilization).
  /// Returns whether it moved the trial.
  bool predict_prescribed_motion(const NewtonIterate& from, NewtonIterate& trial, double tau1);
  /// An attempt's first trial moved on by the last converged increment's correction scaled to
  /// this increment's length (Abaqus/Standard's EXTRAPOLATION=LINEAR, its default): a load path
  /// that bends smoothly starts each increment near its answer. Not in a step's first
  /// increment, nor with contact or inertia.
  void extrapolate(NewtonIterate& trial, double tau1, double dtau);
  /// Adds the internal forces of the converged state s to the time-averaged force scales (the
  /// step's start counts too: a step that releases a loaded body ends with round-off forces
  /// only, against which no residual could ever converge).
  void add_force_scale(const NewtonIterate& s);

  /// The configuration of a linear step's unknowns: displacements, and the reference triads
  /// turned by the total rotation.
  void linear_configuration(const std::vector<double>& xs, Configuration& c) const;
  /// The configuration of unknowns xs before a correction (displacements under NLGEOM, the
  /// linear configuration otherwise).
  void trial_configuration(const std::vector<double>& xs, Configuration& c) const;
  /// Generalized internal forces at xs / configuration c, less the contact forces there, and
  /// the strain energy (geometrically linear steps use K(ref) xs); the contact's stored energy
  /// into *contact_energy (when given). With element_scale, the mean magnitude of the
  /// continuum elements' own nodal forces (ElementForceSums: NLGEOM steps; 0 in others).
  double internal(const std::vector<double>& xs, const Configuration& c, std::vector<double>& f,
                  double* contact_energy = nullptr, double* element_scale = nullptr);
  /// External generalized forces at step time tau on configuration c (face and shell
  /// pressures follow the surface and moments are projected on the current triads under
  /// NLGEOM; a geometrically linear step applies them on the reference configuration).
  void external(double tau, const Configuration& c, std::vector<double>& f);
  /// The rotation vector of body b at step time tau: a prescribed value (ramped from the
  /// step's start, or scaled by its amplitude), or, held without a value, back to zero.
  Vec3<double> body_rotation_at(int b, double tau) const;
  /// Body b's rotation vector in the unknowns xs (x's entries after the dofs: the free
  /// components solved for, the others as prescribe() set them).
  Vec3<double> body_theta(int b, const std::vector<double>& xs) const;
  /// Slaves at their reference node's translation plus the offset turned by the body's
  /// rotation in xs (body_theta; the small-rotation offset theta x d in a linear step).
  void place_slaves(std::vector<double>& xs) const;
  /// The turning bodies' slave weights in `combined` at xs: d u_s / d psi_j, the arm's turn
  /// (-[R d]x J(theta) e_j / L under NLGEOM, -[d]x e_j / L in a linear step), so that the
  /// residual and the tangent of the iterate xs see its arms.
  void turn_weights(const std::vector<double>& xs);
  /// The turning bodies' geometric stiffness at the iterate s (NLGEOM): the turn of the arms
  /// a_s = R d_s of the slaves' out-of-balance forces r_s, K = -J^T (sum_s [r_s]x [a_s]x) J / L^2
  /// on the free components' equations (symmetrized), as coupling blocks after the contact's.
  void add_body_blocks(const NewtonIterate& s);
  /// The moments applied on turning bodies (on the reference node, or the ROT NODE) at step
  /// time tau as generalized forces of their free components, (equation, J(theta)^T M / L)
  /// into out (the work of a moment about fixed axes on the rotation vector's rates).
  void body_moments(double tau, const std::vector<double>& xs, std::vector<std::pair<int, double>>& out) const;
  /// The diagonal of T^T diag(per_dof) T per equation: a shared equation sums its dofs', a
  /// *TIE or *EQUATION dependent adds w^2 of its value to each term's (the stabilization's and
  /// the inertia's tangent shift, a frequency step's mass check).
  std::vector<double> equation_diagonal(const std::vector<double>& per_dof) const;
  /// out = T x: an equation vector spread onto the dofs (a shared equation to each of its
  /// dofs, a *TIE or *EQUATION dependent the weighted sum of its terms; held dofs zero).
  void expand_equations(const double* x, std::vector<double>& out) const;
  /// y = T^T f for a dof vector f (neq entries): what gathers at each equation.
  void gather_equations(const std::vector<double>& f, double* y) const;
  /// The translations of the unknowns xs, 3 per node (the continuum operator's layout).
  std::vector<double> translations(const std::vector<double>& xs) const;
  /// The dependent dofs of *TIE and *EQUATION (sys.constraints) at the weighted sums of
  /// their terms, prescribed terms included.
  void place_dependents(std::vector<double>& xs) const;
  /// Prescribed values at step time tau: a ramp goes from the step-start displacement to the
  /// value (Abaqus' RAMP in a static step); a named amplitude scales the value; a held dof
  /// with no value ramps back to zero from wherever the previous step left it (a held
  /// rotation of a NLGEOM step keeps its current orientation).
  void prescribe(double tau, std::vector<double>& xs) const;
  /// One Newton correction du (per equation) applied to the unknowns xs and configuration c
  /// at step time tau (the explicit scheme's finite rotation: no drilling, frames orthonormal).
  void apply_correction(const std::vector<double>& du, double tau, std::vector<double>& xs, Configuration& c) const;
  /// The frame's reactions at held dofs (global moments at shell nodes) and each rigid body's
  /// at its reference node: f_int - f_ext of the state s.
  void reactions(const NewtonIterate& s, FullStepFields& full) const;
  /// Element energies of the state s into st for a frame that writes cells (small-strain
  /// energies x . K(0) x / 2 in a geometrically linear step); returns the plastic work
  /// dissipated so far (ALLPD; 0 without laws with state).
  double element_energies(const NewtonIterate& s);
  /// The state s into st at analysis time `time`, with the bodies' rotations.
  void store(const NewtonIterate& s, double time);
  /// "node 12 dof 2" for the dof behind equation eq (or "an unknown node").
  std::string equation_name(int eq) const;
  /// "node 12 dof 2" for unknown `dof`.
  std::string dof_label(int dof) const;

  const Model& model;
  const Step& step;
  const StructureSystem& sys;
  const StepLoads& loads;
  StructureState& st;
  const StaticStepOptions& opt;
  const std::vector<std::uint8_t> held_rot;  ///< held global rotation axes as held triad spins
  const StepDrive drive;
  const DriveView dv;
  const StructureOperator op;
  const int ndn;                  ///< unknowns per node
  const std::size_t ndof, nn, q;  ///< unknowns, nodes, ndn
  /// Which scale dof k's residual and correction are measured against: 0 forces and
  /// translations, 1 moments and rotations (a node's dofs 4 to 6).
  int field_of(std::size_t k) const { return k % q >= 3 ? 1 : 0; }
  const std::vector<char> active;  ///< dofs that carry stiffness
  std::vector<char> held;          ///< dofs with a prescribed value
  const double st_time0;          ///< the step's start (rigid-body rotations are in step time)
  const RigidBodies& bodies;
  const int body_dirs;            ///< a body's translations: 2 in a planar model
  /// A rigid body whose rotation a *STATIC step leaves free (a component neither prescribed
  /// nor held) turns with the solution: its free component j is the unknown psi = L theta_j
  /// (theta the body's rotation vector; L = model_size, so that psi is a length and its
  /// equation's residual a force, judged with the others), x's entry ndof + 3 b + j. Its
  /// slaves then enter through `combined` (u_s = u_ref + R(theta) d - d), with weights that
  /// turn_weights sets for each iterate. x has these 3 entries per body after the dofs'.
  std::vector<int> body_eq;  ///< 3 per body: the equation of free component j, or -1
  std::vector<char> ref_dof;      ///< a reference node's translation (no element of its own)
  int neq = 0;
  std::vector<int> equation;      ///< each dof's equation (-1: none)
  std::vector<int> dof_of;        ///< each equation's dof (a shared one's: its reference node's)
  std::vector<char> eq_rotation;  ///< the equations of rotations
  /// *TRANSFORM: node n's local axes (the drive's 9 values: axis j's global components at
  /// 3 j), null for a node without. Such a node's translations are unknowns in its local
  /// system (its held dofs, motions and loads are local components): an equation per free
  /// local direction, and its global dofs enter through `combined` as u = sum_j a_j q_j.
  std::vector<const double*> node_axes;
  /// Per equation: the *TRANSFORM node whose local translation (dof_of's component) it is,
  /// else -1.
  std::vector<int> eq_local_node;
  /// *TIE and *EQUATION by elimination: each dependent dof's terms by equation (the tangent
  /// is T^T K T, a dependent dof's out-of-balance force goes to its terms' equations).
  DofCombinations combined;
  /// Dofs whose forces set the force scales: those with stiffness, an equation or terms (the
  /// reference node of a distributing *COUPLING has no stiffness, and its load is the model's).
  std::vector<char> scaled;
  std::unique_ptr<TangentEngine> engine;
  /// The step's contact (null without): forces in internal(), its tangent as the engine's
  /// coupling blocks, the augmented Lagrangian in augment().
  std::unique_ptr<StaticContact> contact;
  /// *STATIC, STABILIZE: lumped masses of unit density on the continuum elements'
  /// translations (an even split of each element's volume), for the viscous forces
  /// c m* du / dtau, and c (from the first increment when FACTOR= was not given).
  bool stabilize = false;
  std::vector<double> mstar;
  double c_stab = 0;
  /// *DYNAMIC (implicit, Hilber-Hughes-Taylor; static_dynamics.cpp): the inertia forces M a
  /// (lumped, with the quadratic solids' consistent element masses: solver/dof_mass.hpp) join
  /// the residual, weighted with alpha as HHT weighs the forces, and M / ((1 + alpha) beta
  /// dtau^2) the tangent (the lumped part on its diagonal, the element masses as coupling
  /// blocks); velocities and accelerations per dof are advanced by Newmark's rules when an
  /// increment is accepted.
  bool dynamic = false;
  double hht_alpha = 0, hht_beta = 0.25, hht_gamma = 0.5;
  DofMass dyn_mass;                          ///< M and C (*DAMPING, ALPHA) on the dofs
  std::vector<double> m_dyn, vel, acc;       ///< lumped mass (the residual's scale), velocity, acceleration per dof
  /// Newmark's velocity and acceleration at the end of an increment of dof k from x0 to x1.
  struct Motion {
    double v, a;
  };
  Motion newmark(std::size_t k, double x0, double x1, double dtau) const;
  /// The inertia and damping forces HHT subtracts from the out-of-balance forces at the
  /// trial, per dof: (M a1 + alpha (f_ext - f_int - C v)_n) / (1 + alpha) + C v1, a1 and v1
  /// from Newmark's rules; and into scale each dof's motion as a force for the residual's
  /// scale: the largest of |m a1|, |(C v1)_k| and m |v1| / dtau (a body in free flight
  /// balances with no force at all, yet its residual must be judged against its momentum).
  void inertia_forces(const NewtonIterate& from, const NewtonIterate& trial, double dtau, std::vector<double>& f,
                      std::vector<double>& scale) const;
  /// The accelerations at the step's start: M a = f_ext - f_int - C v of the state s, on the
  /// equations that carry mass (the others' stay zero).
  void initial_acceleration(const NewtonIterate& s);
  /// Newmark's velocity and acceleration at `to`, accepted after `from` over dtau.
  void accept_motion(const NewtonIterate& from, const NewtonIterate& to, double dtau);
  /// Kinetic energy v . M v / 2 of the dynamic step's velocities.
  double kinetic_energy() const;
  bool rotations = false;  ///< nodes with rotations to carry (a model without shells has none)
  /// A geometrically linear step whose continuum laws have state (J2): the small-strain
  /// theory, Newton on the material's nonlinearity with the tangent at each iterate
  /// (TangentEngine::set_small_strain).
  bool small_strain = false;
  /// A frequency step of a model that some part can leave as a rigid body (no support holds it):
  /// its tangent is singular, and the step factors K - sigma M with a negative shift instead.
  bool free_motion = false;
  double model_size = 1;  ///< the used nodes' bounding-box diagonal (moments to forces in the checks)
  /// Lowest force scale (0: none): with contact, the forces of a displacement of
  /// kForceFloorStrain x model_size in the nodes' mean stiffness. A body moved toward contact
  /// without load carries round-off forces only, against which no residual converges.
  double force_floor = 0;
  Configuration ref;      ///< the reference configuration
  NewtonIterate start;    ///< the step's start (its forces left to the driver)
  double period = 0;

 private:
  void check_bodies(std::vector<char>& held_check, std::vector<std::pair<int, int>>& body_links);
  /// A model with row elements (6 dofs per node): the held rotations of each node as held
  /// spins about its frame (MITC4-only nodes: about the triad align_triads turned; the
  /// row elements' nodes: the frame axes along the held global axes, or all three).
  void hold_frame_spins();
  /// Holds at zero, with a note, the dofs of a *STATIC step that no element stiffens at rest
  /// and nothing loads or moves (a truss node's direction across a plane truss): the tangent
  /// would be singular there, where Abaqus and the peer carry on past the zero pivot.
  void hold_dofs_without_stiffness();
  /// The *TRANSFORM nodes' axes (node_axes), the combinations a static step refuses on them, and
  /// their local holds as the global directions they restrain (for the rigid-motion check).
  void transformed_nodes(std::vector<char>& held_check);
  void number_equations_of_step();
  /// The tangent engine of the numbered equations, with the laws' theory and state (refusals
  /// of an engine without them name the step's line).
  void start_engine();
  void lump_stabilization_masses();
  /// Refuses, naming the element, a law with state on a kind whose points do not evaluate
  /// through the continuum laws (plane stress: its own S33 = 0 iteration; trusses), which the
  /// small-strain theory of a linear step does not reach.
  void check_small_strain_kinds() const;
  void start_state();
  void init_dynamics();

  /// A weight of `combined` that turn_weights sets: slave `slave`'s direction `dir` on body
  /// `body`'s component `comp`.
  struct TurnTerm {
    int term, slave, dir, body, comp;
  };
  std::vector<TurnTerm> turn_terms_;
  std::vector<double> node_x_;  ///< internal()'s copy of an iterate's dof entries (without the bodies')
  std::vector<std::pair<int, double>> body_moments_;  ///< balance()'s body_moments
  CouplingBlocks body_blocks_;  ///< the contact's blocks and add_body_blocks' (the engine's coupling)
  std::vector<double> face_, face_ux_, face_uy_, face_uz_, surface_pressure_;  ///< external()'s buffers
  std::vector<Vec3<double>> body_start_;                                    ///< bodies' rotation vectors at the start
  std::vector<double> inertia_;        ///< a dynamic step's inertia_forces() at the last balance
  std::vector<double> inertia_scale_;  ///< and their scale per dof
  CouplingBlocks mass_blocks_;         ///< a dynamic step's consistent element masses in the tangent
  double blocks_dtau_ = 0;             ///< the increment mass_blocks_ were scaled for
  std::vector<double> thermal_scale_;  ///< per dof: |thermal force| of the attempt's temperatures (empty: none)
  double q_time_[2] = {0, 0};       ///< summed force and moment scales of the converged increments
  std::int64_t q_count_[2] = {0, 0};
  /// Whether a singular first tangent of the step is the trial's doing: the tangent at the
  /// attempt's start is regular (laws with state in NLGEOM or small-strain steps only).
  bool singular_by_the_trial();
  /// A linear step's zero pivot (a hourglass mode, an unloaded mechanism) held by a spring of
  /// kZeroPivotSpring times the largest diagonal, as Abaqus and the peer pass such a pivot;
  /// false where the step cannot (nonlinear, contact, a diagonal shift of its own) or held it.
  bool hold_zero_pivot(const SingularStiffness& e);
  static constexpr double kZeroPivotSpring = 1e-8;
  /// The largest force such a spring may carry in an attempt's first solve, of the largest load.
  static constexpr double kZeroPivotLoad = 1e-6;
  bool factored_linear_ = false;    ///< K of a geometrically linear step is factored once per step
  /// Zero pivots of a geometrically linear step held by a spring (hold_zero_pivot): the
  /// spring per equation (empty: none) and the equations in the order found.
  std::vector<double> zero_pivot_spring_;
  std::vector<int> zero_pivot_eq_;
  bool check_zero_pivots_ = false;  ///< the attempt's first solve checks the springs' forces
  /// The configuration the attempt starts from (begin_attempt; valid during the attempt): a
  /// step whose first trial tangent is singular is checked there for unconstrained dofs.
  const Configuration* attempt_from_ = nullptr;
  /// The corrections applied in the current attempt, summed (equation space), and those of
  /// the last converged increment with its length: extrapolate()'s.
  std::vector<double> attempt_du_, last_du_;
  double attempt_dtau_ = 0, last_dtau_ = 0;
  double shift_dtau_ = 0, factored_dtau_ = 0;  ///< a dynamic step's increment in the shift, and in the factor
};

/// A mode's frame state (frequency and buckle steps): the base state's output fields (cells
/// too when asked), displacements the mode's dof vector `dof` (p.q per node), element energies
/// NaN (a mode's energy is its scale's choice: the base state's would mislead).
void mode_frame_state(const StaticProblem& p, const std::vector<double>& dof, bool cells, StructureState& out);

/// Whether step turns a rigid body by its free rotation (StaticProblem::body_eq): a *STATIC,
/// *FREQUENCY or *MODAL DYNAMIC step, not an implicit dynamic or steady-state one.
bool turns_bodies(const Step& step);

/// The step's engine account into the summary: equations, engine, linear solver (and BLAS),
/// whether it ran on the GPU, and its timings and sizes (static, dynamic and frequency steps).
void add_engine_account(const StaticProblem& p, StaticSummary& summary);

}  // namespace halfstep
