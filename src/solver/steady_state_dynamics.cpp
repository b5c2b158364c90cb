// *STEADY STATE DYNAMICS (harmonic): the steady response u e^(i omega t) of the linear model to
// loads f e^(i omega t) and a base motion u_b e^(i omega t), as the superposition of the modes of
// the last *FREQUENCY step. With the modes phi_j (modal mass m_j, omega_j^2) and the viscous
// modal damping c_j (2 zeta_j omega_j, or alpha + beta omega_j^2 under RAYLEIGH):
//   u = u_s + sum_j phi_j q_j,  m_j (omega_j^2 - omega^2 + i omega c_j) q_j
//                                 = phi_j . f + (omega^2 - i omega alpha) phi_j . M u_s,
// where u_s is the static response to the base motion (K u_s = 0 at the free dofs, u_s = u_b at
// the held ones): the free dofs' equation (K - omega^2 M + i omega C) u = f with u = u_s + w
// leaves (omega^2 M - i omega C) u_s on the right, whose modal part is the term above (C u_s =
// alpha M u_s + beta K u_s, and phi_j . K u_s = 0; modal damping ratios damp the motion relative
// to the base, alpha = 0). Exact when the modes span the response; modes left out are lost.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <memory>
#include <string>

#include "core/error.hpp"
#include "core/lap_timer.hpp"
#include "elements/rotation.hpp"
#include "solver/interrupt.hpp"
#include "solver/modal_dynamics.hpp"
#include "solver/static_problem.hpp"

namespace halfstep {

namespace {

using Complex = std::complex<double>;

/// a . b over the dofs.
double dot_dofs(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t k = 0; k < a.size(); ++k) s += a[k] * b[k];
  return s;
}

/// The static displacements u_s of the step's prescribed values (zero loads): K u_s = 0 at
/// the equations, the prescribed values at the held dofs, dependents and slaves placed.
std::vector<double> base_motion_displacements(StaticProblem& p) {
  NewtonIterate s;
  s.x.assign(p.ndof, 0.0);
  s.cfg = p.start.cfg;
  s.cfg.thermal.clear();  // a perturbation: the base state's temperatures load nothing here
  p.prescribe(p.step.time_period, s.x);
  p.trial_configuration(s.x, s.cfg);
  std::vector<double> f;
  p.internal(s.x, s.cfg, f);
  // r = -T^T K x: a shared equation sums its dofs', a dependent hands its force to its terms.
  std::vector<double> r(static_cast<std::size_t>(p.neq), 0.0), du;
  for (std::size_t k = 0; k < p.ndof; ++k)
    if (p.equation[k] >= 0) r[static_cast<std::size_t>(p.equation[k])] -= f[k];
  const DofCombinations& c = p.combined;
  for (std::size_t i = 0; i < c.dof.size(); ++i)
    for (int t = c.term_ptr[i]; t < c.term_ptr[i + 1]; ++t)
      r[static_cast<std::size_t>(c.term_eq[static_cast<std::size_t>(t)])] -=
          c.term_weight[static_cast<std::size_t>(t)] * f[static_cast<std::size_t>(c.dof[i])];
  p.factor(s, true);
  p.solve(r, du);
  p.correct(du, p.step.time_period, s);
  return s.x;
}

/// The imaginary part of the step's loads at frequency f (LOAD CASE=2 *CLOAD lines: the
/// loads of one step on one node and dof add up), per dof.
std::vector<double> imaginary_loads(const Model& model, const Step& step, const StaticProblem& p, double f) {
  std::vector<double> out(p.ndof, 0.0);
  for (const ConcentratedLoad& l : step.cloads) {
    if (!l.imaginary) continue;
    const double a = l.amplitude.empty() ? 1.0 : model.amplitudes.at(l.amplitude)(f);
    for (int n : l.nodes) out[p.q * static_cast<std::size_t>(n) + static_cast<std::size_t>(l.dof - 1)] += l.magnitude * a;
  }
  return out;
}

/// One excitation frequency's response: the frequency (cycles/time), the base motion's static
/// displacements, each mode's complex amplitude and the loads' real and imaginary parts.
struct PointResponse {
  double f;
  const std::vector<double>& us;
  const std::vector<Complex>& q;
  const std::vector<double>& f_re;
  std::vector<double> f_im;
  bool last;
};

/// The frames of one frequency point: its real part (U, field and history output, the modal
/// amplitudes' table) and its imaginary part (printed tables only), both at time = f, with the
/// reactions R = (K (1 + i omega beta) - omega^2 M + i omega alpha M) u - f at the supports
/// (modal damping ratios without Rayleigh give no damping forces there).
void emit_point(StaticProblem& p, const ModeSet& modes, const ModalDynamics& md, const std::vector<double>& eigen,
                int step_number, long long increment, const PointResponse& r) {
  const std::size_t nm = modes.lambda.size();
  const double w = 2 * M_PI * r.f;
  const double alpha = md.rayleigh ? md.rayleigh_alpha : 0.0, beta = md.rayleigh ? md.rayleigh_beta : 0.0;
  bool want_field = false, want_history = false;
  for (const OutputRequest& o : p.loads.outputs) {
    want_field = want_field || o.kind == OutputRequest::Kind::Field;
    want_history = want_history || o.kind == OutputRequest::Kind::History;
  }
  NewtonIterate part[2];
  std::vector<double> ku[2], mu[2];
  for (int c = 0; c < 2; ++c) {
    part[c].x.assign(p.ndof, 0.0);
    for (std::size_t k = 0; k < p.ndof; ++k) {
      double v = c == 0 ? r.us[k] : 0.0;
      for (std::size_t j = 0; j < nm; ++j) v += modes.shapes[j][k] * (c == 0 ? r.q[j].real() : r.q[j].imag());
      part[c].x[k] = v;
    }
    part[c].cfg = p.start.cfg;
    part[c].cfg.thermal.clear();  // an amplitude's forces: K u, without the base's thermal ones
    p.linear_configuration(part[c].x, part[c].cfg);
    p.internal(part[c].x, part[c].cfg, ku[c]);
    modes.mass->apply(part[c].x, mu[c]);
    part[c].f_int.resize(p.ndof);
  }
  for (std::size_t k = 0; k < p.ndof; ++k) {
    part[0].f_int[k] = ku[0][k] - w * beta * ku[1][k] - w * w * mu[0][k] - w * alpha * mu[1][k];
    part[1].f_int[k] = ku[1][k] + w * beta * ku[0][k] - w * w * mu[1][k] + w * alpha * mu[0][k];
  }
  part[0].f_ext = r.f_re;
  part[1].f_ext = r.f_im;
  const StructureState& st = p.st;
  for (int c = 0; c < 2; ++c) {
    auto frame = std::make_unique<OutputFrame>();
    frame->step = step_number;
    frame->increment = increment;
    frame->step_end = r.last && c == 1;
    frame->field = c == 0 && want_field;
    frame->history = c == 0 && want_history;
    frame->print = !p.step.prints.empty();
    frame->print_cells = frame->print && prints_need_cells(p.step.prints);
    frame->small_strain = true;
    if (c == 0) {
      frame->steady_state_frequency = r.f;
      for (std::size_t j = 0; j < nm; ++j) {
        const Complex unit = r.q[j] * std::sqrt(modes.modal_mass[j]);  // at unit modal mass
        frame->steady_state_factors.insert(frame->steady_state_factors.end(), {eigen[j], unit.real(), unit.imag()});
      }
    }
    copy_output_fields(st, frame->state, frame->field || frame->print_cells);
    // The bodies' rotations are prescribed (free ones are refused): the real part turns each
    // by its *BOUNDARY value, as the base motion's solve placed its nodes; the imaginary none.
    for (int b = 0; b < p.sys.bodies.num_bodies; ++b) {
      const Mat3<double> Rb = rotation_matrix(c == 0 ? p.body_rotation_at(b, p.step.time_period) : Vec3<double>{});
      std::copy(Rb.a, Rb.a + 9, &frame->state.body_rotation[9 * static_cast<std::size_t>(b)]);
    }
    for (std::size_t n = 0; n < p.nn; ++n) {
      frame->state.ux[n] = part[c].x[p.q * n];
      frame->state.uy[n] = part[c].x[p.q * n + 1];
      frame->state.uz[n] = part[c].x[p.q * n + 2];
    }
    // An amplitude has no energy of its own: the base state's would mislead.
    const double nan = std::nan("");
    std::fill(frame->state.elem_energy.begin(), frame->state.elem_energy.end(), nan);
    std::fill(frame->state.solid_energy.begin(), frame->state.solid_energy.end(), nan);
    frame->state.time = r.f;
    frame->full.resize(p.sys.num_nodes);
    p.reactions(part[c], frame->full);
    p.opt.emit(std::move(frame));
  }
}

}  // namespace

std::vector<double> steady_state_frequencies(double low, double high, int points, double bias,
                                             const std::vector<double>& eigen) {
  if (!(high > low)) return {low};
  std::vector<double> fixed{low};
  for (double e : eigen)
    if (e > low && e < high && e > fixed.back()) fixed.push_back(e);
  fixed.push_back(high);
  const int n = std::max(points, 2);
  std::vector<double> out{low};
  for (std::size_t i = 0; i + 1 < fixed.size(); ++i) {
    const double a = fixed[i], b = fixed[i + 1];
    for (int k = 1; k < n; ++k) {
      const double x = 2.0 * k / (n - 1) - 1.0;
      const double s = k == n - 1 ? 1.0 : 0.5 * (1.0 + std::copysign(std::pow(std::fabs(x), 1.0 / bias), x));
      const double fk = k == n - 1 ? b : a + s * (b - a);
      if (fk > out.back()) out.push_back(fk);
    }
  }
  return out;
}

long long run_steady_state_step(const Model& model, const Step& step, const StructureSystem& sys,
                                const StepLoads& loads, StructureState& st, const StaticStepOptions& opt,
                                StaticSummary& summary, const ModeSet* modes) {
  const auto t_step = std::chrono::steady_clock::now();
  const ModalDynamics& md = *step.modal;
  check_modal_step(model, step, sys);
  require_modes(md, modes);
  StaticProblem p(model, step, sys, loads, st, opt);
  check_modes_fit(md, *modes, p);
  const std::size_t nm = modes->lambda.size();
  std::vector<double> omega(nm), damping(nm), eigen(nm);
  for (std::size_t j = 0; j < nm; ++j) {
    omega[j] = std::sqrt(modes->lambda[j]);
    eigen[j] = omega[j] / (2 * M_PI);
    damping[j] = 2 * modal_damping_ratio(md, static_cast<int>(j), omega[j]) * omega[j];
  }
  const std::vector<double> freqs =
      steady_state_frequencies(md.low_frequency, md.high_frequency, md.points, md.bias, eigen);
  if (opt.progress)
    std::fprintf(stderr, "halfstep: steady state dynamics step '%s': %zu modes of step %d, %zu frequencies from %.6g to "
                         "%.6g cycles/time\n",
                 step.name.c_str(), nm, modes->step, freqs.size(), freqs.front(), freqs.back());
  // The base motion's static displacements and the modal loads of its inertia.
  const bool base_motion = !loads.motion_node.empty();
  std::vector<double> us(p.ndof, 0.0), mus(p.ndof, 0.0);
  if (base_motion) {
    us = base_motion_displacements(p);
    modes->mass->apply(us, mus);
  }
  std::vector<double> base(nm, 0.0);
  for (std::size_t j = 0; j < nm; ++j) base[j] = dot_dofs(modes->shapes[j], mus);
  const int step_number = static_cast<int>(&step - model.steps.data()) + 1;
  const double alpha = md.rayleigh ? md.rayleigh_alpha : 0.0;
  std::vector<double> f_re, f_im;
  std::vector<Complex> q(nm);
  for (std::size_t i = 0; i < freqs.size(); ++i) {
    if (interrupt_requested())
      throw RunInterrupted("steady state dynamics step '" + step.name + "' stopped at frequency " +
                           std::to_string(freqs[i]));
    const double f = freqs[i], w = 2 * M_PI * f;
    p.external(f, p.ref, f_re);  // amplitudes are load factors over frequency
    f_im = imaginary_loads(model, step, p, f);
    for (std::size_t j = 0; j < nm; ++j) {
      const Complex load = Complex(dot_dofs(modes->shapes[j], f_re), dot_dofs(modes->shapes[j], f_im)) +
                           Complex(w * w, -w * alpha) * base[j];
      const Complex d(modes->lambda[j] - w * w, w * damping[j]);
      // The eigenfrequencies are excitation points: undamped, such a point is a resonance
      // (to the round-off of omega^2 = (2 pi f)^2).
      if (damping[j] == 0 && std::fabs(d.real()) <= 1e-9 * modes->lambda[j])
        throw RunError("steady state dynamics step '" + step.name + "': frequency " + std::to_string(f) +
                       " is mode " + std::to_string(j + 1) +
                       "'s natural frequency and the mode has no damping: the response is unbounded (add *MODAL "
                       "DAMPING)");
      q[j] = load / (modes->modal_mass[j] * d);
      if (!std::isfinite(q[j].real()) || !std::isfinite(q[j].imag()))
        throw RunError("steady state dynamics step '" + step.name + "': mode " + std::to_string(j + 1) +
                       "'s response went non-finite at frequency " + std::to_string(f) + " (check the loads)");
    }
    if (opt.emit) {
      const auto t_emit = std::chrono::steady_clock::now();
      PointResponse r{f, us, q, f_re, f_im, i + 1 == freqs.size()};
      emit_point(p, *modes, md, eigen, step_number, static_cast<long long>(i) + 1, r);
      summary.output_seconds += seconds_since(t_emit);
    }
    if (opt.status) {
      StatusPoint pt;
      pt.is_static = true;
      pt.step_end = i + 1 == freqs.size();
      pt.increment = static_cast<long long>(i) + 1;
      pt.step_time = f;
      pt.total_time = st.time;
      pt.dt = 0;
      opt.status(pt);
    }
  }
  summary.increments += static_cast<long long>(freqs.size());
  summary.steps += 1;
  summary.seconds += seconds_since(t_step);
  return static_cast<long long>(freqs.size());
}

}  // namespace halfstep
