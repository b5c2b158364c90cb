#include "solver/static_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "core/lap_timer.hpp"
#include "dynamics/output_times.hpp"
#include "solver/buckle_step.hpp"
#include "solver/frequency_step.hpp"
#include "solver/interrupt.hpp"
#include "solver/newton.hpp"
#include "solver/static_problem.hpp"
#include "solver/step_frames.hpp"

namespace halfstep {

namespace {

using Clock = std::chrono::steady_clock;

/// A static step's frames: one per converged increment unless the step's requests space them
/// out; printed tables each on its own increments, all at the end.
class StaticFrames {
 public:
  StaticFrames(StaticProblem& p, StaticSummary& summary)
      : p_(p), summary_(summary), schedule_(p.model, p.step, p.loads.outputs, p.period, p.st.time) {}

  /// The step times the increments must end on (TIME POINTS).
  const std::vector<double>& marks() const { return schedule_.marks(); }

  /// The frame of state s (its external work `work`) after `increment` converged increments
  /// at step time tau: the step's last, or the analysis's initial frame.
  void emit(const NewtonIterate& s, double work, int increment, double tau, bool last, bool initial) {
    StaticProblem& p = p_;
    if (!p.opt.emit) return;
    const Clock::time_point t_emit = Clock::now();
    auto frame = schedule_.frame(increment, tau, last, initial);
    // Element energies only for frames that write cells: a history-only frame (the peeling
    // strip's end moment every increment) paid a host pass over every element, 69 % of seed
    // mesh 6's GPU run (docs/performance.md).
    const bool cells = frame->field || frame->print_cells;
    // A geometrically linear step's frame reports the small-strain quantities: its element
    // energies here (x . K(0) x / 2 per element), its stresses and strains in output_fields.
    frame->small_strain = !p.step.nlgeom;
    // A model with plastic state sums its dissipation for every frame's energy record.
    double dissipation = 0;
    if (cells || p.sys.solid.state_size > 0) dissipation = p.element_energies(s);
    copy_output_fields(p.st, frame->state, cells);
    frame->state.time = p.st.time;
    frame->full.resize(p.sys.num_nodes);
    p.reactions(s, frame->full);
    if (p.dynamic) {  // an implicit dynamic step's motion
      for (std::size_t n = 0; n < p.nn; ++n) {
        for (std::size_t d = 0; d < 3; ++d) {
          frame->full.v[d][n] = p.vel[p.q * n + d];
          frame->full.a[d][n] = p.acc[p.q * n + d];
        }
        if (p.q < 5 || s.cfg.t1.empty()) continue;
        // Spin rates about the nodal triad (t1, t2 = d x t1) as global angular velocities.
        const int i = static_cast<int>(n);
        const Vec3<double> t1 = Configuration::at(s.cfg.t1, i), t2 = cross(Configuration::at(s.cfg.d, i), t1);
        const Vec3<double> w = p.vel[p.q * n + 3] * t1 + p.vel[p.q * n + 4] * t2;
        const Vec3<double> al = p.acc[p.q * n + 3] * t1 + p.acc[p.q * n + 4] * t2;
        frame->full.v[3][n] = w.x;
        frame->full.v[4][n] = w.y;
        frame->full.v[5][n] = w.z;
        frame->full.a[3][n] = al.x;
        frame->full.a[4][n] = al.y;
        frame->full.a[5][n] = al.z;
      }
      frame->record.kinetic = p.kinetic_energy();
    }
    frame->record.time = p.st.time;
    frame->record.internal = s.strain;
    frame->record.contact = s.contact;
    frame->record.external_work = work;
    frame->record.plastic_dissipation = dissipation;
    if (p.contact) frame->record.friction_dissipation = p.contact->friction_dissipation();
    p.opt.emit(std::move(frame));
    summary_.output_seconds += seconds_since(t_emit);
  }

 private:
  StaticProblem& p_;
  StaticSummary& summary_;
  StepFrameSchedule schedule_;
};

/// *STATIC, STABILIZE after a converged increment from `from` to `to` over dtau: the energy
/// the viscous forces took, and the factor from the first increment (solved without them)
/// when FACTOR= was not given.
void account_stabilization(StaticProblem& p, const NewtonIterate& from, const NewtonIterate& to, double dtau,
                           StaticSummary& summary) {
  if (!p.stabilize) return;
  double m_v2_dt = 0;  // sum m* du^2 / dtau
  for (std::size_t k = 0; k < p.ndof; ++k) m_v2_dt += p.mstar[k] * (to.x[k] - from.x[k]) * (to.x[k] - from.x[k]) / dtau;
  summary.stabilization_energy += p.c_stab * m_v2_dt;
  if (!(p.c_stab > 0) && m_v2_dt > 0 && std::fabs(to.strain) > 0) {
    p.c_stab = p.step.controls.stabilize_fraction * std::fabs(to.strain) / m_v2_dt;
    if (p.opt.progress)
      std::fprintf(stderr, "halfstep: static step '%s': stabilization damping factor %.6g (STABILIZE=%g)\n",
                   p.step.name.c_str(), p.c_stab, p.step.controls.stabilize_fraction);
  }
}

/// Where the step is, for the run's status (a converged increment).
StatusPoint static_point(const NewtonIterate& s, double work, int increment, int iterations, double tau,
                         double t_step0, double dtau, bool end) {
  StatusPoint pt;
  pt.is_static = true;
  pt.step_end = end;
  pt.increment = increment;
  pt.iterations = iterations;
  pt.step_time = tau;
  pt.total_time = t_step0 + tau;
  pt.dt = dtau;
  pt.have_energy = true;
  pt.energy_time = pt.total_time;
  pt.internal = s.strain;
  pt.external_work = work;
  return pt;
}

/// The step's counts and the tangent engine's timings into the summary.
void summarize(const StaticProblem& p, const NewtonIterate& s, int increments, StaticSummary& summary) {
  summary.increments += increments;
  summary.steps += 1;
  add_engine_account(p, summary);
  summary.strain_energy = s.strain;
}

}  // namespace

void add_engine_account(const StaticProblem& p, StaticSummary& summary) {
  const TangentStats& ts = p.engine->stats();
  summary.equations = p.neq;
  summary.engine = p.engine->description();
  summary.linear_solver = linear_solver_name(p.engine->solver());
  if (p.engine->solver() == LinearSolverKind::Cholmod) summary.blas = blas_library();
  // Only the GPU engine runs the GPU solvers.
  summary.on_gpu = p.engine->solver() == LinearSolverKind::Cudss || p.engine->solver() == LinearSolverKind::GpuCg;
  summary.internal_force_seconds += ts.internal_force_seconds;
  summary.element_seconds += ts.element_seconds;
  summary.assembly_seconds += ts.assembly_seconds;
  summary.analyze_seconds += ts.analyze_seconds;
  summary.factor_seconds += ts.factor_seconds;
  summary.solve_seconds += ts.solve_seconds;
  summary.matrices += ts.matrices;
  summary.factorizations += ts.factorizations;
  summary.krylov_iterations += ts.iterations;
  summary.nonzeros = ts.nonzeros;
  summary.matrix_bytes = std::max(summary.matrix_bytes, ts.matrix_bytes);
  summary.solver_bytes = std::max(summary.solver_bytes, ts.solver_bytes);
}

void check_implicit_step_start(const Step& step, const StructureSystem& sys, const StepLoads& loads) {
  const char* kind = step.frequency ? "frequency" : step.buckle ? "buckle" : "static";
  if (sys.total_elements() == 0)
    throw InputError(step.loc, std::string(kind) + " step '" + step.name + "': the model has no elements");
  if (step.frequency || step.buckle || step.modal) return;  // these refuse or ignore motions themselves
  for (std::uint8_t v : loads.motion_velocity)
    if (v)
      throw InputError(step.loc, step.dynamic ? "implicit *DYNAMIC step '" + step.name +
                                                    "': *BOUNDARY, TYPE=VELOCITY is for *DYNAMIC, EXPLICIT steps"
                                              : "static step '" + step.name +
                                                    "': *BOUNDARY, TYPE=VELOCITY is for dynamic steps");
}

void check_implicit_steps(const Model& model, const StructureSystem& sys, const std::vector<StepLoads>& steps,
                          const StructureState& st, int threads) {
  StaticStepOptions checks;
  checks.backend = BackendKind::Cpu;
  checks.tangent.threads = threads;
  checks.checks_only = true;
  for (std::size_t i = 0; i < model.steps.size(); ++i) {
    const Step& step = model.steps[i];
    if (step.procedure != Procedure::Static) continue;
    check_implicit_step_start(step, sys, steps[i]);
    // The initial state stands for the one the step will start from: the held dofs, the
    // parts and the masses do not depend on it (the triads a step aligns are a copy's).
    StructureState scratch = st;
    const StaticProblem p(model, step, sys, steps[i], scratch, checks);
    if (step.frequency) check_frequency_masses(p);
    if (step.buckle) check_buckle_equations(p);
  }
}

void run_static_step(const Model& model, const Step& step, const StructureSystem& sys, const StepLoads& loads,
                     StructureState& st, const StaticStepOptions& opt, StaticSummary& summary) {
  const Clock::time_point t_step = Clock::now();
  check_implicit_step_start(step, sys, loads);
  StaticProblem p(model, step, sys, loads, st, opt);
  summary.setup_seconds += seconds_since(t_step);
  if (opt.progress)
    std::fprintf(stderr, "halfstep: static step '%s' (%s, %d equations): %s\n", step.name.c_str(),
                 step.nlgeom ? "NLGEOM=YES" : "NLGEOM=NO", p.neq, p.engine->description().c_str());
  StaticFrames frames(p, summary);
  NewtonIterate s = p.start;
  s.f_int.assign(p.ndof, 0.0);
  s.f_ext.assign(p.ndof, 0.0);
  s.strain = p.internal(s.x, s.cfg, s.f_int, &s.contact, &s.element_scale);
  p.add_force_scale(s);  // the previous step's converged forces (none at the analysis' start)
  double work = 0;
  const double t_step0 = st.time;
  const double period = p.period;
  p.external(0.0, s.cfg, s.f_ext);
  if (p.dynamic) p.initial_acceleration(s);
  if (opt.first_step) frames.emit(s, work, 0, 0.0, false, true);
  for (auto& v : st.v) std::fill(v.begin(), v.end(), 0.0);  // a dynamic step keeps its own (p.vel)
  st.half_dt_prev = 0;

  const StaticControls& ctl = step.controls;
  NewtonSolver newton(p);
  IncrementControl increments(step, period, "static step '" + step.name + "'");
  increments.set_marks(frames.marks());
  NewtonIterate trial = s;
  double tau = 0;
  int increment = 0;
  bool interrupted = false;
  while (tau < period * (1 - 1e-12)) {
    if (increment >= ctl.max_increments)
      throw RunError("static step '" + step.name + "' needs more than INC=" + std::to_string(ctl.max_increments) +
                     " increments (at step time " + std::to_string(tau) + " of " + std::to_string(period) +
                     "); raise INC= on *STEP");
    const double tau1 = increments.next(tau), dtau = increments.dtau();
    if (opt.progress) {
      char at[48];
      std::snprintf(at, sizeof at, " (to step time %.6g)", tau1);
      newton.set_progress("static step '" + step.name + "' increment " + std::to_string(increment + 1) + at);
    }
    const NewtonOutcome n = newton.solve(s, trial, tau1, dtau, increment == 0);
    summary.iterations += n.iterations;
    if (summary.residuals.size() < 1000) summary.residuals.push_back(n.history);
    if (!n.converged) {
      increments.failed(n, increment, tau1, opt.progress);
      ++summary.cutbacks;
      continue;
    }
    account_stabilization(p, s, trial, dtau, summary);
    // Accepted: work by the trapezoidal rule over the increment's nodal forces (with the
    // inertia forces in a dynamic step: the work of the loads and the reactions).
    std::vector<double> ma0, ma1;
    if (p.dynamic) {
      p.dyn_mass.apply(p.acc, ma0);
      p.accept_motion(s, trial, dtau);
      p.dyn_mass.apply(p.acc, ma1);
    }
    for (std::size_t k = 0; k < p.ndof; ++k) {
      const double f0 = s.f_int[k] + (p.dynamic ? ma0[k] : 0.0);
      const double f1 = trial.f_int[k] + (p.dynamic ? ma1[k] : 0.0);
      work += 0.5 * (f0 + f1) * (trial.x[k] - s.x[k]);
    }
    s.x.swap(trial.x);
    s.cfg = trial.cfg;
    s.f_int.swap(trial.f_int);
    s.f_ext.swap(trial.f_ext);
    s.strain = trial.strain;
    s.contact = trial.contact;
    p.accepted(s);
    tau = tau1;
    ++increment;
    p.store(s, t_step0 + tau);
    if (opt.progress)
      std::fprintf(stderr, "halfstep: static step '%s' increment %d: step time %.6g, %d iterations\n",
                   step.name.c_str(), increment, tau, n.iterations);
    // A stop asked for (SIGINT, SIGTERM): this converged increment is the step's last frame.
    const bool end = tau >= period * (1 - 1e-12);
    const bool stop = !end && interrupt_requested();
    frames.emit(s, work, increment, tau, end || stop, false);
    if (opt.status) opt.status(static_point(s, work, increment, n.iterations, tau, t_step0, dtau, end));
    if (stop) {
      interrupted = true;
      break;
    }
    increments.converged(n.iterations);
  }
  p.store(s, t_step0 + (interrupted ? tau : period));
  if (p.dynamic)  // the next step (an explicit one) goes on with the motion (5-dof: spin rates)
    for (std::size_t n = 0; n < p.nn; ++n)
      for (std::size_t d = 0; d < std::min<std::size_t>(p.q, 5); ++d)
        if (!st.v[d].empty()) st.v[d][n] = p.vel[p.q * n + d];
  summarize(p, s, increment, summary);
  summary.seconds += seconds_since(t_step);
  if (interrupted) throw RunInterrupted("static step '" + step.name + "' stopped at step time " + std::to_string(tau));
}

}  // namespace halfstep
