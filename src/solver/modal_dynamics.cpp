#include "solver/modal_dynamics.hpp"

#include <Eigen/Dense>
#include <unsupported/Eigen/MatrixFunctions>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "core/error.hpp"
#include "core/lap_timer.hpp"
#include "solver/step_frames.hpp"
#include "elements/registry.hpp"
#include "solver/interrupt.hpp"
#include "solver/static_problem.hpp"

namespace halfstep {

namespace {

/// One mode's exact propagator over an increment h: with y = (q, v, F0, s, Q) and the load
/// F0 + s t linear over the increment, y' = A y is exact (A's first two rows are the mode's
/// equation, F0' = s, s' = 0, and Q' = q integrates the displacement for the loads' work), so
/// y(h) = exp(A h) y(0) for any damping, overdamped included.
using Propagator = Eigen::Matrix<double, 5, 5>;
/// c: the mode's damping per unit modal mass, 2 zeta omega (finite for a rigid mode, omega = 0).
Propagator propagator(double omega2, double c, double h) {
  Propagator a = Propagator::Zero();
  a(0, 1) = 1;
  a(1, 0) = -omega2;
  a(1, 1) = -c;
  a(1, 2) = 1;
  a(2, 3) = 1;
  a(4, 0) = 1;
  return (a * h).exp();
}

/// A modal step's motion in its modes: displacement, velocity and acceleration per mode, and
/// the work of the loads and the damping so far.
struct ModalMotion {
  std::vector<double> q, v, a;
  double work = 0, damping_work = 0;
};

/// A modal step's frames: every increment unless the step's requests space them out; prints
/// on their own increments and at the end (as a static step's).
class ModalFrames {
 public:
  ModalFrames(StaticProblem& p, const ModeSet& modes, const std::vector<double>& x0, double t0, StaticSummary& summary)
      : p_(p), modes_(modes), x0_(x0), t0_(t0), summary_(summary),
        schedule_(p.model, p.step, p.loads.outputs, p.step.time_period, t0) {}

  /// The step times the increments must end on (TIME POINTS).
  const std::vector<double>& marks() const { return schedule_.marks(); }

  /// Whether increment inc (ending at step time tau) has a frame.
  bool due(long long inc, double tau, bool last) const { return schedule_.due(inc, tau, last); }

  /// The state of motion mo at step time tau into the problem's state (st): u = u0 + sum_j
  /// phi_j q_j; returns the iterate with the static forces there (the reactions: the lumped
  /// mass couples no held dof to a moving one).
  NewtonIterate store(const ModalMotion& mo, double tau) {
    NewtonIterate s;
    s.x = x0_;
    // The bodies' turns after the dofs (StaticProblem::body_eq), each mode's at its amplitude.
    s.x.resize(std::max(s.x.size(), p_.ndof + p_.body_eq.size()), 0.0);
    for (std::size_t j = 0; j < modes_.lambda.size(); ++j) {
      for (std::size_t k = 0; k < p_.ndof; ++k) s.x[k] += modes_.shapes[j][k] * mo.q[j];
      if (j < modes_.body_turns.size())
        for (std::size_t i = 0; i < modes_.body_turns[j].size() && p_.ndof + i < s.x.size(); ++i)
          s.x[p_.ndof + i] += p_.model_size * modes_.body_turns[j][i] * mo.q[j];
    }
    s.cfg = p_.start.cfg;  // sized, with the base state's temperatures
    p_.linear_configuration(s.x, s.cfg);
    p_.store(s, t0_ + tau);
    return s;
  }

  /// The frame of increment inc at step time tau.
  void emit(const ModalMotion& mo, long long inc, double tau, bool last) {
    if (!p_.opt.emit) return;
    const auto t_emit = std::chrono::steady_clock::now();
    auto frame = schedule_.frame(inc, tau, last);
    frame->small_strain = true;
    const bool cells = frame->field || frame->print_cells;
    NewtonIterate s = store(mo, tau);
    s.strain = p_.internal(s.x, s.cfg, s.f_int);
    p_.external(tau, s.cfg, s.f_ext);
    if (cells) p_.element_energies(s);
    copy_output_fields(p_.st, frame->state, cells);
    frame->state.time = p_.st.time;
    frame->full.resize(p_.sys.num_nodes);
    p_.reactions(s, frame->full);
    const std::size_t nm = modes_.lambda.size();
    for (std::size_t n = 0; n < p_.nn; ++n)
      for (std::size_t d = 0; d < 3; ++d) {
        double vel = 0, acc = 0;
        for (std::size_t j = 0; j < nm; ++j) {
          vel += modes_.shapes[j][p_.q * n + d] * mo.v[j];
          acc += modes_.shapes[j][p_.q * n + d] * mo.a[j];
        }
        frame->full.v[d][n] = vel;
        frame->full.a[d][n] = acc;
      }
    double kinetic = 0, strain = 0;
    for (std::size_t j = 0; j < nm; ++j) {
      kinetic += 0.5 * modes_.modal_mass[j] * mo.v[j] * mo.v[j];
      strain += 0.5 * modes_.modal_mass[j] * modes_.lambda[j] * mo.q[j] * mo.q[j];
    }
    frame->record.time = p_.st.time;
    frame->record.kinetic = kinetic;
    frame->record.internal = strain;
    frame->record.external_work = mo.work;
    frame->record.damping_work = mo.damping_work;
    p_.opt.emit(std::move(frame));
    summary_.output_seconds += seconds_since(t_emit);
  }

 private:
  StaticProblem& p_;
  const ModeSet& modes_;
  const std::vector<double>& x0_;
  double t0_;
  StaticSummary& summary_;
  StepFrameSchedule schedule_;
};

/// Whether mode j is a rigid mode: |omega^2| below 1e-9 of the set's largest (a free model's
/// frequency step finds them at zero to round-off, of either sign).
bool rigid_mode(const ModeSet& modes, std::size_t j) {
  double top = 0;
  for (double l : modes.lambda) top = std::max(top, std::fabs(l));
  return std::fabs(modes.lambda[j]) <= 1e-9 * top;
}

/// The keyword a modal or steady-state step names itself by in messages.
std::string procedure_name(const ModalDynamics& md) {
  return md.steady_state ? "*STEADY STATE DYNAMICS" : "*MODAL DYNAMIC";
}

}  // namespace

double modal_damping_coefficient(const ModalDynamics& d, int j, double omega2) {
  const double omega = std::sqrt(std::max(omega2, 0.0));
  // Rayleigh's c = alpha + beta omega^2 also holds at omega = 0, where its ratio is infinite.
  if (d.rayleigh) return d.rayleigh_alpha + d.rayleigh_beta * omega * omega;
  return 2 * modal_damping_ratio(d, j, omega) * omega;
}

double modal_damping_ratio(const ModalDynamics& d, int j, double omega) {
  if (d.rayleigh) return d.rayleigh_alpha / (2 * omega) + d.rayleigh_beta * omega / 2;
  double zeta = 0;
  for (const ModalDampingRange& r : d.damping)
    if (j + 1 >= r.first && j + 1 <= r.last) zeta = r.ratio;
  return zeta;
}

void require_modes(const ModalDynamics& md, const ModeSet* modes) {
  if (!modes)
    throw InputError(md.loc, procedure_name(md) + ": no modes in this run (a run resumed from a restart has not run the "
                                                  "*FREQUENCY step before it)");
}

void check_modes_fit(const ModalDynamics& md, const ModeSet& modes, const StaticProblem& p) {
  const std::string what = procedure_name(md);
  if (p.q != modes.dofs_per_node || p.held != modes.held)
    throw InputError(md.loc, what + " holds other dofs than *FREQUENCY step " + std::to_string(modes.step) +
                                 " did: the modes are those of that step's boundary conditions");
  if (modes.lambda.empty() || (md.steady_state && !modes.mass))
    throw InputError(md.loc, what + ": the *FREQUENCY step found no modes to superpose");
  // A rigid mode (zero to round-off) moves as q'' = F in a transient step; a steady state has
  // none, and a negative omega^2 (an unstable base state) is superposed by neither.
  for (std::size_t j = 0; j < modes.lambda.size(); ++j)
    if (!(modes.lambda[j] > 0) && (md.steady_state || !rigid_mode(modes, j)))
      throw InputError(md.loc, what + ": mode " + std::to_string(j + 1) + " has omega^2 = " +
                                   std::to_string(modes.lambda[j]) + " (a rigid-body or unstable mode " +
                                   (md.steady_state ? "has no steady response)" : "cannot be superposed)"));
}

void check_modal_step(const Model& model, const Step& step, const StructureSystem& sys) {
  const SourceLoc& at = step.modal->loc;
  const bool harmonic = step.modal->steady_state;
  const std::string what = procedure_name(*step.modal);
  bool frequency_before = false;
  for (const Step& s : model.steps) {
    if (&s == &step) break;
    frequency_before = frequency_before || s.frequency.has_value();
  }
  if (!frequency_before)
    throw InputError(at, what + " needs a *FREQUENCY step before it (its modes are the ones superposed)");
  if (sys.node_dofs > 3)
    throw InputError(at, what + " in a model with rotational dofs (shells, beams, FPM triangles): not supported "
                                "yet; continuum, planar, axisymmetric, truss, spring and point-mass models run");
  if (!sys.contact.empty())
    throw InputError(at, what + " in a model with contact: not supported (the modal response is linear)");
  for (const SolidGroup& g : sys.solid.groups)
    if (g.count > 0 && element_kind(g.kind).discrete == 2)
      throw InputError(at, what + " with dashpots (" + std::string(element_kind(g.kind).name) +
                               "): not supported (their damping couples the modes; use *MODAL DAMPING)");
  for (const Boundary& b : step.boundaries) {
    // A harmonic step's prescribed values are its base motion (in phase, frequency-independent).
    if (harmonic && !b.velocity && b.amplitude.empty()) continue;
    if (harmonic)
      throw InputError(b.loc, "*BOUNDARY with " + std::string(b.velocity ? "TYPE=VELOCITY" : "an AMPLITUDE") +
                                  " in a *STEADY STATE DYNAMICS step: not supported (a base motion is a displacement "
                                  "amplitude, the same at every frequency)");
    if (b.value != 0 || b.velocity || !b.amplitude.empty())
      throw InputError(b.loc, "prescribed motion in a *MODAL DYNAMIC step (base motion): not supported; hold the "
                              "dofs the *FREQUENCY step held and load the model with *CLOAD or *DLOAD");
  }
  if (harmonic)
    for (const DistributedLoad& l : step.dloads)
      if (l.face == kCentrifugalLoad || l.face == kRotaryLoad)
        throw InputError(l.loc, "*DLOAD CENTRIF or ROTA in a *STEADY STATE DYNAMICS step: not supported (a harmonic "
                                "load is a force amplitude)");
}

namespace {

/// The step times where DIRECT=NO's increments end (ModalDynamics::deltmx): each tries 1.5 times
/// the last (the first, the data line's increment), is shortened in proportion where some
/// component of the step's force vector would change by more than DELTMX over it (the peer's
/// rule; one shortening, no second check), stays within the minimum and maximum increments,
/// and stops on the TIME POINTS (marks) and the step's end. More than INC= of them is an error.
std::vector<double> automatic_increment_ends(const ModalDynamics& md, const Step& step, StaticProblem& p,
                                             std::vector<double> marks) {
  const double period = step.time_period, tol = 1e-9 * period;
  std::sort(marks.begin(), marks.end());
  marks.push_back(period);
  std::vector<double> ends, f0, f1;
  p.external(0.0, p.ref, f0);
  double tau = 0, next = step.controls.initial;
  std::size_t mark = 0;
  const auto largest_change = [&](double t) {
    p.external(t, p.ref, f1);
    double d = 0;
    for (std::size_t k = 0; k < f1.size(); ++k) d = std::max(d, std::fabs(f1[k] - f0[k]));
    return d;
  };
  while (tau < period - tol) {
    while (marks[mark] <= tau + tol) ++mark;
    const double room = marks[mark] - tau;
    double dt = std::min({next, md.max_increment, room});
    const double tried = tau + dt;
    const double change = largest_change(tried);
    if (!std::isfinite(change))
      throw InputError(md.loc, "*MODAL DYNAMIC: the step's loads are not finite at step time " + std::to_string(tried) +
                                   " (check the loads' amplitudes)");
    if (change > md.deltmx) dt = std::min(std::max(dt * md.deltmx / change, md.min_increment), room);
    const double tau1 = room - dt <= tol ? marks[mark] : tau + dt;
    if (tau1 != tried) largest_change(tau1);  // f1 at the end taken
    ends.push_back(tau1);
    if (static_cast<long long>(ends.size()) > step.controls.max_increments && tau1 < period - tol)
      throw InputError(md.loc, "*MODAL DYNAMIC: DIRECT=NO's increments need more than the *STEP's INC=" +
                                   std::to_string(step.controls.max_increments) + " to reach step time " +
                                   std::to_string(period) + " (at " + std::to_string(tau1) +
                                   "): raise INC=, DELTMX= or the minimum increment");
    next = 1.5 * dt;
    f0.swap(f1);
    tau = tau1;
  }
  return ends;
}

}  // namespace

long long run_modal_dynamic_step(const Model& model, const Step& step, const StructureSystem& sys,
                                 const StepLoads& loads, StructureState& st, const StaticStepOptions& opt,
                                 StaticSummary& summary, ModeSet* modes) {
  if (step.modal->steady_state) return run_steady_state_step(model, step, sys, loads, st, opt, summary, modes);
  const auto t_step = std::chrono::steady_clock::now();
  const ModalDynamics& md = *step.modal;
  check_modal_step(model, step, sys);
  require_modes(md, modes);
  StaticProblem p(model, step, sys, loads, st, opt);
  check_modes_fit(md, *modes, p);
  const std::size_t nm = modes->lambda.size();
  // Per mode: omega^2 (a rigid mode's, zero to round-off, at 0) and the damping per unit modal
  // mass c = 2 zeta omega.
  std::vector<double> lambda(nm), damping(nm);
  for (std::size_t j = 0; j < nm; ++j) {
    lambda[j] = rigid_mode(*modes, j) ? 0.0 : modes->lambda[j];
    damping[j] = modal_damping_coefficient(md, static_cast<int>(j), lambda[j]);
  }
  const double h = step.controls.initial, period = step.time_period;
  const long long increments = static_cast<long long>(std::ceil(period / h - 1e-9));  // bounded by INC= (reader)
  if (opt.progress && md.deltmx <= 0)
    std::fprintf(stderr, "halfstep: modal dynamic step '%s': %zu modes of step %d, %lld increments of %.6g\n",
                 step.name.c_str(), nm, modes->step, increments, h);
  // The loads per mode, phi_j . f(tau) / m_j: the generalized forces of the step's loads on the
  // reference configuration (a modal response is linear).
  std::vector<double> f;
  std::vector<std::pair<int, double>> moments;
  const auto modal_forces = [&](double tau, std::vector<double>& out) {
    p.external(tau, p.ref, f);
    out.assign(nm, 0.0);
    for (std::size_t k = 0; k < p.ndof; ++k) {
      if (f[k] == 0) continue;
      for (std::size_t j = 0; j < nm; ++j) out[j] += modes->shapes[j][k] * f[k];
    }
    // Moments on turning rigid bodies do work on the modes' body rotations.
    p.body_moments(tau, p.start.x, moments);
    for (const auto& [eq, v] : moments)
      for (std::size_t i = 0; i < p.body_eq.size(); ++i)
        if (p.body_eq[i] == eq)
          for (std::size_t j = 0; j < nm && j < modes->body_turns.size(); ++j)
            out[j] += modes->body_turns[j][i] * v * p.model_size;
    for (std::size_t j = 0; j < nm; ++j) out[j] /= modes->modal_mass[j];
  };
  // A modal step right after another goes on with its motion on the same base; any other
  // starts at rest on the displacements the run is at.
  const int step_number = static_cast<int>(&step - model.steps.data()) + 1;
  const bool goes_on = modes->motion_step > 0 && modes->motion_step == step_number - 1;
  const std::vector<double> x0 = goes_on ? modes->base : p.start.x;
  const double t0 = st.time;
  ModalMotion mo;
  mo.q = goes_on ? modes->q : std::vector<double>(nm, 0.0);
  mo.v = goes_on ? modes->v : std::vector<double>(nm, 0.0);
  std::vector<double> F0, F1;
  modal_forces(0.0, F0);
  mo.a.resize(nm);
  for (std::size_t j = 0; j < nm; ++j) mo.a[j] = F0[j] - damping[j] * mo.v[j] - lambda[j] * mo.q[j];
  ModalFrames frames(p, *modes, x0, t0, summary);
  const auto emit = [&](long long inc, double tau, bool last) { frames.emit(mo, inc, tau, last); };
  if (opt.first_step) emit(0, 0.0, false);
  std::vector<Propagator> prop(nm), short_prop(nm);
  for (std::size_t j = 0; j < nm; ++j) prop[j] = propagator(lambda[j], damping[j], h);
  std::vector<double> ends;
  if (md.deltmx > 0) {
    ends = automatic_increment_ends(md, step, p, frames.marks());
    if (opt.progress)
      std::fprintf(stderr, "halfstep: modal dynamic step '%s': %zu modes of step %d, %zu automatic increments (DELTMX %.6g)\n",
                   step.name.c_str(), nm, modes->step, ends.size(), md.deltmx);
  } else {
    // The increments end on the grid k h and the step's end, and on the TIME POINTS between
    // (the grid's other instants stay where they are without them).
    for (long long k = 1; k < increments; ++k) ends.push_back(static_cast<double>(k) * h);
    for (double m : frames.marks())
      if (m < period * (1 - 1e-9)) ends.push_back(m);
    std::sort(ends.begin(), ends.end());
    ends.erase(std::unique(ends.begin(), ends.end(), [&](double a, double b) { return b - a <= 1e-9 * period; }),
               ends.end());
    ends.push_back(period);
  }
  double tau = 0, short_dt = 0;
  for (long long inc = 1; inc <= static_cast<long long>(ends.size()); ++inc) {
    if (interrupt_requested()) {  // stop with a frame of where the step is
      emit(inc - 1, tau, true);
      throw RunInterrupted("modal dynamic step '" + step.name + "' stopped at step time " + std::to_string(tau));
    }
    const bool last = inc == static_cast<long long>(ends.size());
    const double tau1 = ends[static_cast<std::size_t>(inc - 1)];
    const double dt = tau1 - tau;
    const bool short_inc = std::fabs(dt - h) > 1e-12 * h;
    if (short_inc && dt != short_dt) {
      for (std::size_t j = 0; j < nm; ++j) short_prop[j] = propagator(lambda[j], damping[j], dt);
      short_dt = dt;
    }
    modal_forces(tau1, F1);
    for (std::size_t j = 0; j < nm; ++j) {
      const Propagator& e = short_inc ? short_prop[j] : prop[j];
      const double slope = (F1[j] - F0[j]) / dt;
      Eigen::Matrix<double, 5, 1> y0;
      y0 << mo.q[j], mo.v[j], F0[j], slope, 0.0;
      const Eigen::Matrix<double, 5, 1> y1 = e * y0;
      const double m = modes->modal_mass[j], c = damping[j];
      // The loads' work over the increment, exact: int F q' dt = [F q] - s int q dt; the
      // damping's by the trapezoidal rule in time.
      mo.work += m * (F1[j] * y1(0) - F0[j] * mo.q[j] - slope * y1(4));
      mo.damping_work += m * c * 0.5 * (mo.v[j] * mo.v[j] + y1(1) * y1(1)) * dt;
      mo.q[j] = y1(0);
      mo.v[j] = y1(1);
      mo.a[j] = F1[j] - c * mo.v[j] - lambda[j] * mo.q[j];
      if (!std::isfinite(mo.q[j]) || !std::isfinite(mo.v[j]))
        throw RunError("modal dynamic step '" + step.name + "': mode " + std::to_string(j + 1) +
                       " went non-finite at step time " + std::to_string(tau1) + " (check the loads' amplitudes)");
    }
    F0.swap(F1);
    tau = tau1;
    if (frames.due(inc, tau, last)) emit(inc, tau, last);
    if (opt.status) {
      StatusPoint pt;
      pt.is_static = true;
      pt.step_end = last;
      pt.increment = inc;
      pt.step_time = tau;
      pt.total_time = t0 + tau;
      pt.dt = dt;
      opt.status(pt);
    }
  }
  if (!opt.emit) frames.store(mo, period);  // no output: still leave the state at the step's end
  modes->q = mo.q;
  modes->v = mo.v;
  modes->base = x0;
  modes->motion_step = step_number;
  summary.increments += static_cast<long long>(ends.size());
  summary.steps += 1;
  summary.seconds += seconds_since(t_step);
  return static_cast<long long>(ends.size());
}

}  // namespace halfstep
