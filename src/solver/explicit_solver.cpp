#include "solver/explicit_solver.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "backends/backend.hpp"
#include "io/result_writer.hpp"
#include "solver/nodal_triads.hpp"
#include "solver/shell_state.hpp"
#include "solver/step_loads.hpp"

namespace halfstep {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

/// Deck file name without directory and extension: the job name of the outputs.
std::string job_name(const std::string& deck) {
  std::string base = deck.substr(deck.find_last_of('/') + 1);
  const auto dot = base.find_last_of('.');
  return dot == std::string::npos ? base : base.substr(0, dot);
}

/// Sets v^0 from *INITIAL CONDITIONS (translations global, rotation rates on the triad).
void apply_initial_conditions(const Model& model, const ShellSystem& sys, ShellState& st) {
  std::vector<Vec3<double>> omega(sys.num_nodes, Vec3<double>{0, 0, 0});
  for (const InitialVelocity& iv : model.initial_velocities)
    for (int n : iv.nodes) {
      if (iv.dof <= 3) {
        st.v[iv.dof - 1][n] = iv.value;
      } else {
        double* w = iv.dof == 4 ? &omega[n].x : (iv.dof == 5 ? &omega[n].y : &omega[n].z);
        *w = iv.value;
      }
    }
  for (const InitialRotatingVelocity& r : model.initial_rotations) {
    const Vec3<double> a{r.a[0], r.a[1], r.a[2]}, b{r.b[0], r.b[1], r.b[2]};
    if (!(norm(b - a) > 0)) throw InputError(r.loc, "rotating velocity axis points a and b coincide");
    const Vec3<double> w = r.omega * normalized(b - a);
    for (int n : r.nodes) {
      const Vec3<double> x{sys.x0[n], sys.y0[n], sys.z0[n]};
      const Vec3<double> vel = cross(w, x - a) + Vec3<double>{r.v0[0], r.v0[1], r.v0[2]};
      st.v[0][n] = vel.x;
      st.v[1][n] = vel.y;
      st.v[2][n] = vel.z;
      omega[n] = w;
    }
  }
  for (int n = 0; n < sys.num_nodes; ++n) {
    const Vec3<double> d{st.dx[n], st.dy[n], st.dz[n]}, t1{st.t1x[n], st.t1y[n], st.t1z[n]};
    st.v[3][n] = dot(omega[n], t1);
    st.v[4][n] = dot(omega[n], cross(d, t1));
  }
}

/// First element (deck id) or node with a non-finite value, for instability reports.
std::string locate_nonfinite(const Model& model, const ShellSystem& sys, const ShellState& st) {
  for (int e = 0; e < sys.num_elements; ++e)
    for (int i = 0; i < 20; ++i)
      if (!std::isfinite(st.elem_force[20 * e + i]))
        return "element " + std::to_string(model.elements.id[e]) + " (" + model.elements.loc[e].str() +
               ") has a non-finite internal force";
  for (int n = 0; n < sys.num_nodes; ++n)
    for (int d = 0; d < kShellDofs; ++d)
      if (!std::isfinite(st.v[d][n]))
        return "node " + std::to_string(model.nodes.id[n]) + " has a non-finite velocity";
  return "a non-finite value appeared";
}

/// Largest |value| of element strain energy density, to name the element driving a blow-up.
std::string most_strained_element(const Model& model, const ShellSystem& sys, const ShellState& st) {
  int worst = 0;
  double best = -1;
  for (int e = 0; e < sys.num_elements; ++e) {
    const double d = st.elem_energy[e] / sys.area[e];
    if (d > best) {
      best = d;
      worst = e;
    }
  }
  return "element " + std::to_string(model.elements.id[worst]) + " has the highest strain energy density";
}

/// Output schedule of one kind (field or history) within a step.
struct Schedule {
  double interval = 0;  ///< step time between outputs; 0: never
  double next = 0;
  bool due(double tau, double dt) const { return interval > 0 && tau >= next - 1e-6 * dt; }
  void advance(double tau) {
    while (next <= tau + 1e-12 * interval) next += interval;
  }
};

/// Step time between outputs of a request (deck interval, else Abaqus-like defaults).
double request_interval(const OutputRequest& r, double period) {
  if (r.time_interval) return *r.time_interval;
  if (r.number_interval && *r.number_interval > 0) return period / *r.number_interval;
  return r.kind == OutputRequest::Kind::Field ? period / 20 : period / 200;
}

/// Per-node inputs for a step: constrained masks, and which nodes carry loads or motions.
NodalInputs prepare_inputs(const ShellSystem& sys, const StepLoads& step, const std::vector<std::uint8_t>& held_rot) {
  NodalInputs in;
  const int nn = sys.num_nodes;
  in.held.assign(nn, 0);
  for (int n = 0; n < nn; ++n) {
    in.held[n] = static_cast<std::uint8_t>(step.fixed_translation[n] | (held_rot[n] << 3));
    if (sys.node_slot_ptr[n + 1] == sys.node_slot_ptr[n]) in.held[n] = 0x1f;  // unused node: no mass
  }
  in.special.assign(nn, -1);
  int count = 0;
  auto mark = [&](int n) {
    if (in.special[n] < 0) in.special[n] = count++;
  };
  for (int n : step.load_node) mark(n);
  for (int n : step.motion_node) mark(n);
  in.load.assign(6 * count, 0.0);
  in.motion.assign(3 * count, 0.0);
  in.moving.assign(count, 0);
  in.by_velocity.assign(count, 0);
  for (std::size_t i = 0; i < step.motion_node.size(); ++i) {
    const int sp = in.special[step.motion_node[i]];
    const auto bit = static_cast<std::uint8_t>(1u << step.motion_dof[i]);
    in.moving[sp] |= bit;
    if (step.motion_velocity[i]) in.by_velocity[sp] |= bit;
  }
  return in;
}

}  // namespace

double step_increment(const ShellSystem& sys, const std::optional<double>& fixed, double dt_scale) {
  return fixed ? *fixed : dt_scale * sys.stable_dt;
}

RunSummary run_analysis(const Model& model, const RunOptions& opt) {
  const Clock::time_point t_start = Clock::now();
  // Everything that can reject the input happens before the output directory is touched.
  const ShellSystem sys = build_shell_system(model);
  const std::vector<StepLoads> steps = build_step_loads(model, sys);
  ShellState st;
  st.initialize(sys);
  initialize_triads(st);
  apply_initial_conditions(model, sys, st);
  for (std::size_t s = 0; s < steps.size(); ++s)
    if (steps[s].fixed_increment && !(*steps[s].fixed_increment > 0))
      throw InputError(model.steps[s].loc, "the fixed time increment must be positive");

  const std::unique_ptr<Backend> backend = make_backend(opt.backend, sys, opt.threads);
  Backend& cpu = *backend;  // the two passes of every step, on whichever hardware
  cpu.upload(st);
  if (opt.progress) std::fprintf(stderr, "halfstep: running on %s\n", cpu.description().c_str());
  ResultWriter out(model, sys, opt.output_dir, job_name(model.deck_path));
  FullStepFields full;
  full.resize(sys.num_nodes);

  RunSummary sum;
  sum.nodes = sys.num_nodes;
  sum.elements = sys.num_elements;
  sum.threads = cpu.threads();
  sum.backend = cpu.name();
  sum.precision = cpu.precision();
  sum.backend_description = cpu.description();
  sum.device_bytes_per_element = cpu.device_bytes() / std::max(1, sys.num_elements);
  sum.stable_increment = sys.stable_dt;
  sum.controlling_element = sys.controlling_element >= 0 ? model.elements.id[sys.controlling_element] : 0;

  double work = 0, damping = 0, internal = 0;
  double total0 = 0, scale = 0, max_drift = 0;
  // Energies below this are round-off: the strain energy of a strain of 64 ulp everywhere.
  // A curved shell at rest already carries such noise (directors are unit vectors to the last
  // bit), and a slowly ramped load spends its first increments below it.
  const double noise_energy = sys.energy_per_unit_strain * std::pow(64 * std::numeric_limits<double>::epsilon(), 2);
  bool have_total0 = false;
  double solve_seconds = 0;
  Clock::time_point last_progress = Clock::now();
  const bool tty = opt.progress && isatty(2);
  double total_time = 0;
  for (const StepLoads& s : steps) total_time += s.period;
  std::vector<double> amp, pressure(sys.num_elements, 0.0);

  for (std::size_t si = 0; si < steps.size(); ++si) {
    const StepLoads& step = steps[si];
    cpu.download(st);
    const std::vector<std::uint8_t> held_rot = align_triads(sys, step.fixed_rotation, st);
    cpu.upload(st);
    NodalInputs in = prepare_inputs(sys, step, held_rot);
    cpu.set_step_inputs(in);
    out.open_histories(step.outputs);
    const double dt = step_increment(sys, step.fixed_increment, opt.dt_scale);
    sum.time_increment = dt;
    Schedule field, history;
    for (const OutputRequest& r : step.outputs) {
      const double iv = request_interval(r, step.period);
      Schedule& sch = r.kind == OutputRequest::Kind::Field ? field : history;
      sch.interval = sch.interval > 0 ? std::min(sch.interval, iv) : iv;
    }
    Schedule energy = history;
    if (!(energy.interval > 0)) energy.interval = step.period / 200;
    if (si > 0) {
      // The first instant of a later step was the last of the previous one: already written.
      field.advance(0);
      history.advance(0);
      energy.advance(0);
    }
    const double t_step0 = st.time;
    const bool have_pressure = !step.pressure_elem.empty();
    auto set_pressures = [&](double tau) {
      step.amplitudes.evaluate(tau, step.period, amp);
      std::fill(pressure.begin(), pressure.end(), 0.0);
      for (std::size_t i = 0; i < step.pressure_elem.size(); ++i)
        pressure[step.pressure_elem[i]] += step.pressure_value[i] * amp[step.pressure_amp[i]];
    };
    if (have_pressure) set_pressures(0.0);
    if (!have_pressure) st.elem_pressure.clear();
    internal = cpu.element_forces(st, have_pressure ? pressure.data() : nullptr);

    double tau = 0;
    for (;;) {
      const bool last = tau >= step.period * (1 - 1e-12);
      double dt_next = last ? 0.0 : std::min(dt, step.period - tau);
      if (!last && step.period - tau - dt_next < 1e-6 * dt) dt_next = step.period - tau;
      // Loads at t^n and imposed motions over the coming half-step.
      step.amplitudes.evaluate(tau, step.period, amp);
      std::fill(in.load.begin(), in.load.end(), 0.0);
      for (std::size_t i = 0; i < step.load_node.size(); ++i)
        in.load[6 * in.special[step.load_node[i]] + step.load_dof[i]] += step.load_value[i] * amp[step.load_amp[i]];
      if (!step.motion_node.empty() && dt_next > 0) {
        // Targets: u at t^(n+1) for displacements, v at t^(n+1/2) for TYPE=VELOCITY.
        std::vector<double> amp_next, amp_mid;
        step.amplitudes.evaluate(tau + dt_next, step.period, amp_next);
        step.amplitudes.evaluate(tau + 0.5 * dt_next, step.period, amp_mid);
        for (std::size_t i = 0; i < step.motion_node.size(); ++i) {
          const int n = step.motion_node[i], d = step.motion_dof[i];
          const std::vector<double>& a = step.motion_velocity[i] ? amp_mid : amp_next;
          in.motion[3 * in.special[n] + d] = step.motion_value[i] * a[step.motion_amp[i]];
        }
      }
      const HalfSteps<double> h{st.half_dt_prev, 0.5 * dt_next};

      const bool want_field = field.due(tau, dt) || (last && field.interval > 0);
      const bool want_history = history.due(tau, dt) || (last && history.interval > 0);
      const bool want_energy = energy.due(tau, dt) || last;
      if (want_field || want_history || want_energy) {
        const NodeSums ns = cpu.node_update(st, in, h, false, &full);
        if (want_field || want_history) cpu.download(st);
        EnergyRecord rec{st.time, ns.kinetic, internal, work + ns.work_prev, damping + ns.damp_prev};
        if (!have_total0) {
          total0 = rec.total();
          have_total0 = true;
        }
        if (want_field) {
          out.write_frame(st, full);
          field.advance(tau);
        }
        if (want_history) {
          out.write_history(st, full);
          history.advance(tau);
        }
        if (want_energy) {
          out.write_energy(rec);
          energy.advance(tau);
        }
      }
      if (last) break;

      const Clock::time_point t0 = Clock::now();
      const NodeSums ns = cpu.node_update(st, in, h, true, nullptr);
      if (!ns.finite) cpu.download(st);
      if (!ns.finite)
        throw RunError("instability at step " + std::to_string(sum.steps + 1) + " (time " + std::to_string(st.time) +
                       ", step '" + step.name + "'): " + locate_nonfinite(model, sys, st) +
                       "; reduce the time increment or check the loads");
      // Energy balance at t^n (before the work of the coming interval is added).
      const double total = ns.kinetic + internal + damping + ns.damp_prev - work - ns.work_prev;
      scale = std::max({scale, noise_energy, ns.kinetic, internal, std::fabs(work + ns.work_prev)});
      if (have_total0) {
        // Relative to the energy scale reached so far; the first increments of a ramp have
        // vanishing energies, so the check starts after 100 increments.
        const double drift = std::fabs(total - total0);
        max_drift = std::max(max_drift, drift);
        if (sum.steps > 100 && drift > opt.energy_tolerance * scale) {
          cpu.download(st);  // element energies, to name the culprit
          throw RunError("energy balance error of " + std::to_string(100 * drift / scale) + " % at step " +
                         std::to_string(sum.steps) + " (time " + std::to_string(st.time) + ", step '" + step.name +
                         "') exceeds " + std::to_string(100 * opt.energy_tolerance) + " %: the solution is unstable; " +
                         most_strained_element(model, sys, st));
        }
      }
      work += ns.work_prev + ns.work_next;
      damping += ns.damp_prev + ns.damp_next;
      tau += dt_next;
      st.time = t_step0 + tau;
      st.half_dt_prev = 0.5 * dt_next;
      if (have_pressure) set_pressures(tau);
      internal = cpu.element_forces(st, have_pressure ? pressure.data() : nullptr);
      if (!std::isfinite(internal)) cpu.download(st);
      if (!std::isfinite(internal))
        throw RunError("instability at step " + std::to_string(sum.steps + 1) + " (time " + std::to_string(st.time) +
                       "): " + locate_nonfinite(model, sys, st));
      solve_seconds += seconds_since(t0);
      ++sum.steps;
      if (tty && (sum.steps & 255) == 0 && seconds_since(last_progress) > 0.5) {
        last_progress = Clock::now();
        const double rate = sum.steps / std::max(1e-9, seconds_since(t_start));
        const double remaining = (total_time - st.time) / std::max(dt, 1e-300) / std::max(rate, 1e-9);
        std::fprintf(stderr, "\r  %5.1f%%  t = %.4e  %.0f steps/s  ETA %02d:%02d:%02d   ", 100 * st.time / total_time,
                     st.time, rate, static_cast<int>(remaining / 3600), static_cast<int>(remaining / 60) % 60,
                     static_cast<int>(remaining) % 60);
      }
    }
  }
  if (tty) std::fprintf(stderr, "\r%70s\r", "");
  sum.energy_error = scale > 0 ? max_drift / scale : 0.0;
  sum.frames = out.frames_written();
  sum.final_time = st.time;
  sum.solve_seconds = std::max(solve_seconds, 1e-12);
  sum.wall_seconds = seconds_since(t_start);
  sum.element_steps_per_second = static_cast<double>(sys.num_elements) * sum.steps / sum.solve_seconds;
  return sum;
}

}  // namespace halfstep
