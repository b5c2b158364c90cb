#include "solver/static_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "assembly/csr_assembly.hpp"
#include "discretization/continuum_operator.hpp"
#include "discretization/continuum_pass.hpp"
#include "dynamics/step_drive.hpp"

namespace halfstep {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Abaqus/Standard's default controls (the *CONTROLS, PARAMETERS=FIELD and TIME INCREMENTATION
// defaults): residual tolerance R_n, correction tolerance C_n, the residual below which an
// increment counts as linear, iterations before a diverging residual cuts back, the most
// iterations of one attempt, the cut-back and growth factors, and the iteration count below
// which two increments in a row let the increment grow.
constexpr double kResidualTol = 5e-3;
constexpr double kCorrectionTol = 1e-2;
constexpr double kLinearTol = 1e-8;
constexpr int kMaxIterations = 16;
constexpr double kCutBack = 0.25;
constexpr double kGrowth = 1.5;
constexpr int kEasyIterations = 4;

/// "node 12 dof 2" for messages.
std::string dof_name(const Model& model, int dof) {
  return "node " + std::to_string(model.nodes.id[static_cast<std::size_t>(dof / 3)]) + " dof " +
         std::to_string(dof % 3 + 1);
}

/// A rigid-body check before any factorization: every connected part of the mesh must be held
/// in every active direction somewhere, or its stiffness is singular (a free part would only be
/// caught by the factorization, with a less useful message, or not at all by a Krylov solver).
void check_rigid_motion(const Model& model, const Step& step, const StructureSystem& sys,
                        const std::vector<char>& active, const std::vector<char>& held) {
  const SolidMesh& sm = sys.solid;
  std::vector<int> parent(static_cast<std::size_t>(sys.num_nodes));
  std::iota(parent.begin(), parent.end(), 0);
  const auto find = [&](int a) {
    while (parent[a] != a) a = parent[a] = parent[parent[a]];
    return a;
  };
  for (int e = 0; e < sm.num_elements; ++e) {
    const int n = sm.groups[static_cast<std::size_t>(sm.group_of(e))].nodes_per_element;
    const int* c = &sm.conn[static_cast<std::size_t>(sm.conn_start(e))];
    for (int a = 1; a < n; ++a) parent[find(c[a])] = find(c[0]);
  }
  const int dirs = sm.planar ? 2 : 3;
  std::vector<unsigned char> held_dirs(parent.size(), 0), present(parent.size(), 0);
  for (int n = 0; n < sys.num_nodes; ++n) {
    if (!active[3 * static_cast<std::size_t>(n)]) continue;
    const int r = find(n);
    present[r] = 1;
    for (int d = 0; d < dirs; ++d)
      if (held[3 * static_cast<std::size_t>(n) + d]) held_dirs[r] |= static_cast<unsigned char>(1u << d);
  }
  for (int r = 0; r < sys.num_nodes; ++r) {
    if (!present[r] || find(r) != r) continue;
    for (int d = 0; d < dirs; ++d) {
      if (held_dirs[r] & (1u << d)) continue;
      std::string nodes;
      int count = 0;
      for (int n = 0; n < sys.num_nodes; ++n)
        if (active[3 * static_cast<std::size_t>(n)] && find(n) == r) {
          if (count < 8) nodes += (count ? ", " : "") + std::to_string(model.nodes.id[static_cast<std::size_t>(n)]);
          ++count;
        }
      if (count > 8) nodes += ", ... (" + std::to_string(count) + " nodes)";
      throw InputError(step.loc, "singular stiffness: unconstrained dofs at nodes " + nodes + ": no *BOUNDARY in step '" +
                                     step.name + "' holds this part of the mesh in direction " +
                                     std::to_string(d + 1) + ", so it can move as a rigid body");
    }
  }
}

/// Largest |x_i| over the equations.
double max_abs(const std::vector<double>& x) {
  double m = 0;
  for (double v : x) m = std::max(m, std::fabs(v));
  return m;
}

}  // namespace

void run_static_step(const Model& model, const Step& step, const StructureSystem& sys, const StepLoads& loads,
                     StructureState& st, const StaticStepOptions& opt, StaticSummary& summary) {
  const Clock::time_point t_step = Clock::now();
  if (sys.num_elements > 0)
    throw InputError(step.loc, "static step '" + step.name + "': the model has shell elements, and static steps "
                               "support continuum elements only for now (the MITC4 shell has no tangent yet)");
  if (sys.solid.num_elements == 0) throw InputError(step.loc, "static step '" + step.name + "': the model has no elements");
  for (std::uint8_t v : loads.motion_velocity)
    if (v) throw InputError(step.loc, "static step '" + step.name + "': *BOUNDARY, TYPE=VELOCITY is for dynamic steps");
  if (!loads.pressure_elem.empty())
    throw InputError(step.loc, "static step '" + step.name + "': shell pressures need shell elements");

  const std::vector<std::uint8_t> no_rotation_holds(static_cast<std::size_t>(sys.num_nodes), 0);
  const StepDrive drive = build_step_drive(sys, loads, no_rotation_holds);
  const DriveView dv = host_view(drive);
  const ContinuumOperator op(sys, opt.tangent.threads);
  const std::size_t ndof = static_cast<std::size_t>(op.num_dofs());
  const std::vector<char> active = op.active_dofs();
  std::vector<char> held(ndof, 0);
  for (int n = 0; n < sys.num_nodes; ++n)
    for (int c = 0; c < 3; ++c)
      if (drive.held[static_cast<std::size_t>(n)] & (1u << c)) held[3 * static_cast<std::size_t>(n) + c] = 1;
  check_rigid_motion(model, step, sys, active, held);
  int neq = 0;
  const std::vector<int> equation = number_equations(op, held, &neq);
  std::vector<int> dof_of(static_cast<std::size_t>(neq));
  for (std::size_t k = 0; k < ndof; ++k)
    if (equation[k] >= 0) dof_of[static_cast<std::size_t>(equation[k])] = static_cast<int>(k);

  std::unique_ptr<TangentEngine> engine = make_tangent_engine(opt.backend, op, equation, neq, opt.tangent, opt.progress);
  summary.setup_seconds += seconds_since(t_step);
  if (opt.progress)
    std::fprintf(stderr, "halfstep: static step '%s' (%s, %d equations): %s\n", step.name.c_str(),
                 step.nlgeom ? "NLGEOM=YES" : "NLGEOM=NO", neq, engine->description().c_str());

  // Displacements as one node-major vector; the state's arrays at the end.
  std::vector<double> u(ndof), u_start(ndof);
  for (int n = 0; n < sys.num_nodes; ++n) {
    u[3 * n] = st.ux[n];
    u[3 * n + 1] = st.uy[n];
    u[3 * n + 2] = st.uz[n];
  }
  u_start = u;
  const double period = loads.period;

  // Forces at displacements x: geometrically linear steps use K(0) x.
  const auto internal = [&](const std::vector<double>& x, std::vector<double>& f) {
    if (!step.nlgeom && std::all_of(x.begin(), x.end(), [](double v) { return v == 0.0; })) {
      f.assign(ndof, 0.0);  // K(0) 0: the usual start of a linear step, free
      return 0.0;
    }
    return step.nlgeom ? engine->internal_force(x, f) : engine->linearized_force(x, f);
  };

  // External forces at step time tau on configuration x (face pressures follow the surface
  // under NLGEOM; a geometrically linear step applies them to the reference configuration).
  std::vector<double> face(18 * static_cast<std::size_t>(drive.num_faces));
  std::vector<double> face_ux(drive.num_faces > 0 ? static_cast<std::size_t>(sys.num_nodes) : 0, 0.0), face_uy(face_ux),
      face_uz(face_ux);  // reused by every evaluation (zero under NLGEOM=NO)
  const auto external = [&](double tau, const std::vector<double>& x, std::vector<double>& f) {
    f.assign(ndof, 0.0);
    for (int n = 0; n < sys.num_nodes; ++n) {
      const int sp = dv.special[n];
      if (sp < 0) continue;
      const NodeDriveValues<double> v = evaluate_node_drive<double>(dv, sp, tau, 0.0);
      for (int c = 0; c < 3; ++c) f[3 * static_cast<std::size_t>(n) + c] += v.load[c];
    }
    if (drive.num_faces > 0) {
      if (step.nlgeom)
        for (int n = 0; n < sys.num_nodes; ++n) {
          face_ux[n] = x[3 * n];
          face_uy[n] = x[3 * n + 1];
          face_uz[n] = x[3 * n + 2];
        }
      for (int k = 0; k < drive.num_faces; ++k)
        evaluate_face_force(dv, k, tau, sys.x0.data(), sys.y0.data(), sys.z0.data(), face_ux.data(), face_uy.data(),
                            face_uz.data(), face.data() + 18 * static_cast<std::size_t>(k));
      for (int n = 0; n < sys.num_nodes; ++n) gather_face_forces(dv, face.data(), n, &f[3 * static_cast<std::size_t>(n)]);
    }
  };

  // Prescribed displacements at step time tau: a ramp goes from the step-start displacement to
  // the value (Abaqus' RAMP in a static step); a named amplitude scales the value; a held dof
  // with no value ramps back to zero from wherever the previous step left it.
  const auto prescribe = [&](double tau, std::vector<double>& x) {
    const double r = period > 0 ? std::min(1.0, std::max(0.0, tau / period)) : 1.0;
    for (std::size_t k = 0; k < ndof; ++k)
      if (held[k] && active[k]) x[k] = u_start[k] * (1.0 - r);
    for (int n = 0; n < sys.num_nodes; ++n) {
      const int sp = dv.special[n];
      if (sp < 0) continue;
      for (int i = dv.motion_ptr[sp]; i < dv.motion_ptr[sp + 1]; ++i) {
        const std::size_t k = 3 * static_cast<std::size_t>(n) + static_cast<std::size_t>(dv.motion_dof[i]);
        const int slot = dv.motion_amp[i];
        x[k] = slot == 1 ? u_start[k] + (dv.motion_value[i] - u_start[k]) * r
                         : dv.motion_value[i] * amplitude_slot(dv, slot, tau);
      }
    }
  };

  // Output: a frame per converged increment unless the step's requests space them out.
  double field_every = 0, history_every = 0;  // step time between frames; 0: every increment
  bool want_field = false, want_history = false;
  for (const OutputRequest& r : loads.outputs) {
    double every = 0;
    if (r.time_interval) every = *r.time_interval;
    else if (r.number_interval && *r.number_interval > 0) every = period / *r.number_interval;
    double& target = r.kind == OutputRequest::Kind::Field ? field_every : history_every;
    bool& want = r.kind == OutputRequest::Kind::Field ? want_field : want_history;
    target = want ? std::min(target, every) : every;
    want = true;
  }
  double next_field = field_every, next_history = history_every;
  std::vector<double> f_int(ndof), f_ext(ndof);
  double strain = internal(u, f_int);
  double work = 0;
  const auto emit = [&](double tau, bool last, bool initial) {
    if (!opt.emit) return;
    const Clock::time_point t_emit = Clock::now();
    const double eps = 1e-9 * period;
    const bool field = want_field && (initial || last || tau >= next_field - eps);
    const bool history = want_history && (initial || last || tau >= next_history - eps);
    while (field_every > 0 && next_field <= tau + eps) next_field += field_every;
    while (history_every > 0 && next_history <= tau + eps) next_history += history_every;
    auto frame = std::make_unique<OutputFrame>();
    frame->field = field;
    frame->history = history;
    frame->energy = true;
    std::vector<double> slot(3 * sys.solid.conn.size());
    continuum_pass(sys.solid, sys.x0.data(), sys.y0.data(), sys.z0.data(), st.ux.data(), st.uy.data(), st.uz.data(),
                   slot.data(), st.solid_energy.data(), st.solid_hourglass.data(), opt.tangent.threads);
    copy_output_fields(st, frame->state);
    frame->state.time = st.time;
    frame->full.resize(sys.num_nodes);
    for (int n = 0; n < sys.num_nodes; ++n)
      for (int c = 0; c < 3; ++c) {
        const std::size_t k = 3 * static_cast<std::size_t>(n) + c;
        if (held[k] && active[k]) frame->full.rf[c][n] = f_int[k] - f_ext[k];
      }
    frame->record.time = st.time;
    frame->record.internal = strain;
    frame->record.external_work = work;
    opt.emit(std::move(frame));
    summary.output_seconds += seconds_since(t_emit);
  };
  const auto store = [&](double time) {
    for (int n = 0; n < sys.num_nodes; ++n) {
      st.ux[n] = u[3 * n];
      st.uy[n] = u[3 * n + 1];
      st.uz[n] = u[3 * n + 2];
    }
    st.time = time;
  };
  const double t_step0 = st.time;
  external(0.0, u, f_ext);
  if (opt.first_step) emit(0.0, false, true);
  for (auto& v : st.v) std::fill(v.begin(), v.end(), 0.0);
  st.half_dt_prev = 0;

  const StaticControls& ctl = step.controls;
  double tau = 0, dtau = std::min(ctl.initial, period);
  int increment = 0, easy_in_a_row = 0;
  bool cut_last = false, factored_linear = false;
  double q_time = 0;  // time-averaged force scale of the converged increments
  std::int64_t q_count = 0;
  std::vector<double> r(static_cast<std::size_t>(neq)), du(static_cast<std::size_t>(neq));
  std::vector<double> u_trial(ndof), f_trial(ndof), f_ext_trial(ndof);

  while (tau < period * (1 - 1e-12)) {
    if (increment >= ctl.max_increments)
      throw RunError("static step '" + step.name + "' needs more than INC=" + std::to_string(ctl.max_increments) +
                     " increments (at step time " + std::to_string(tau) + " of " + std::to_string(period) +
                     "); raise INC= on *STEP");
    double tau1 = tau + dtau;
    if (tau1 > period * (1 - 1e-9)) {
      tau1 = period;
      dtau = period - tau;
    }
    u_trial = u;
    prescribe(tau1, u_trial);
    std::vector<double> history;
    bool converged = false;
    std::string why;
    double r_prev = 0, r_prev2 = 0, w_trial = 0;
    int it = 0;
    for (;; ++it) {
      w_trial = internal(u_trial, f_trial);
      external(tau1, u_trial, f_ext_trial);
      // Force scale: the average nonzero nodal force (reactions included), never below the
      // time average of the converged increments (Abaqus' q~).
      double q_sum = 0;
      std::int64_t q_n = 0;
      for (std::size_t k = 0; k < ndof; ++k)
        if (active[k]) {
          const double q = std::max(std::fabs(f_trial[k]), std::fabs(f_ext_trial[k]));
          if (q > 0) {
            q_sum += q;
            ++q_n;
          }
        }
      double q = q_n ? q_sum / static_cast<double>(q_n) : 0.0;
      if (q_count) q = std::max(q, q_time / static_cast<double>(q_count));
      for (int i = 0; i < neq; ++i) {
        const std::size_t k = static_cast<std::size_t>(dof_of[static_cast<std::size_t>(i)]);
        r[static_cast<std::size_t>(i)] = f_ext_trial[k] - f_trial[k];
      }
      const double r_max = max_abs(r);
      if (!std::isfinite(r_max) || !std::isfinite(w_trial)) {
        why = "a non-finite force appeared";
        break;
      }
      history.push_back(q > 0 ? r_max / q : r_max);
      if (q == 0 || r_max <= kLinearTol * q) {
        converged = true;
        break;
      }
      if (it > 0) {
        double du_max = 0;
        for (std::size_t k = 0; k < ndof; ++k) du_max = std::max(du_max, std::fabs(u_trial[k] - u[k]));
        if (r_max <= kResidualTol * q && max_abs(du) <= kCorrectionTol * du_max) {
          converged = true;
          break;
        }
      }
      if (it >= 2 && r_max > r_prev && r_prev > r_prev2) {
        why = "the residual grew in two consecutive iterations";
        break;
      }
      if (it >= kMaxIterations) {
        why = "no convergence in " + std::to_string(kMaxIterations) + " iterations";
        break;
      }
      r_prev2 = r_prev;
      r_prev = r_max;
      try {
        if (step.nlgeom || !factored_linear) {
          // K(0) of a geometrically linear step is factored once per step.
          engine->assemble_and_factor(step.nlgeom ? u_trial : std::vector<double>(ndof, 0.0));
          factored_linear = !step.nlgeom;
        }
      } catch (const SingularStiffness& e) {
        if (increment == 0 && it == 0) {
          const int eq = e.equation();
          throw InputError(step.loc, "singular stiffness: unconstrained dofs at " +
                                         (eq >= 0 && eq < neq ? dof_name(model, dof_of[static_cast<std::size_t>(eq)])
                                                              : std::string("an unknown node")) +
                                         " in step '" + step.name + "' (" + e.what() +
                                         "): add *BOUNDARY conditions that stop every rigid motion");
        }
        why = std::string("the tangent is singular (") + e.what() + ")";
        break;
      }
      engine->solve(r, du);
      for (int i = 0; i < neq; ++i) u_trial[static_cast<std::size_t>(dof_of[static_cast<std::size_t>(i)])] += du[static_cast<std::size_t>(i)];
    }
    summary.iterations += it;
    if (summary.residuals.size() < 1000) summary.residuals.push_back(history);
    if (!converged) {
      if (ctl.direct)
        throw RunError("static step '" + step.name + "', increment " + std::to_string(increment + 1) + " at step time " +
                       std::to_string(tau1) + ": " + why + ", and DIRECT incrementation does not cut back");
      const double smaller = dtau * kCutBack;
      if (smaller < ctl.minimum * (1 - 1e-12))
        throw RunError("static step '" + step.name + "', increment " + std::to_string(increment + 1) +
                       ": " + why + " at step time " + std::to_string(tau1) + "; the increment " +
                       std::to_string(smaller) + " after a cut-back would be below the minimum " +
                       std::to_string(ctl.minimum) + " (*STATIC data line, field 3)");
      if (opt.progress)
        std::fprintf(stderr, "halfstep: static step '%s': %s at step time %.6g; increment cut back to %.6g\n",
                     step.name.c_str(), why.c_str(), tau1, smaller);
      dtau = smaller;
      ++summary.cutbacks;
      cut_last = true;
      easy_in_a_row = 0;
      continue;
    }
    // Accepted: work by the trapezoidal rule over the increment's nodal forces.
    for (std::size_t k = 0; k < ndof; ++k) work += 0.5 * (f_int[k] + f_trial[k]) * (u_trial[k] - u[k]);
    u.swap(u_trial);
    f_int.swap(f_trial);
    f_ext.swap(f_ext_trial);
    strain = w_trial;
    double q_sum = 0;
    std::int64_t q_n = 0;
    for (std::size_t k = 0; k < ndof; ++k)
      if (active[k] && f_int[k] != 0) {
        q_sum += std::fabs(f_int[k]);
        ++q_n;
      }
    if (q_n) {
      q_time += q_sum / static_cast<double>(q_n);
      ++q_count;
    }
    tau = tau1;
    ++increment;
    store(t_step0 + tau);
    if (opt.progress)
      std::fprintf(stderr, "halfstep: static step '%s' increment %d: step time %.6g, %d iterations\n",
                   step.name.c_str(), increment, tau, it);
    emit(tau, tau >= period * (1 - 1e-12), false);
    if (ctl.direct) continue;
    easy_in_a_row = it <= kEasyIterations ? easy_in_a_row + 1 : 0;
    if (easy_in_a_row >= 2 && !cut_last) {
      dtau = std::min(dtau * kGrowth, ctl.maximum);
      easy_in_a_row = 0;
    }
    cut_last = false;
    dtau = std::min(dtau, ctl.maximum);
  }
  store(t_step0 + period);

  const TangentStats& s = engine->stats();
  summary.steps += 1;
  summary.increments += increment;
  summary.equations = neq;
  summary.engine = engine->description();
  summary.linear_solver = linear_solver_name(engine->solver());
  // Only the GPU engine runs the GPU solvers.
  summary.on_gpu = engine->solver() == LinearSolverKind::Cudss || engine->solver() == LinearSolverKind::GpuCg;
  summary.internal_force_seconds += s.internal_force_seconds;
  summary.element_seconds += s.element_seconds;
  summary.assembly_seconds += s.assembly_seconds;
  summary.analyze_seconds += s.analyze_seconds;
  summary.factor_seconds += s.factor_seconds;
  summary.solve_seconds += s.solve_seconds;
  summary.matrices += s.matrices;
  summary.factorizations += s.factorizations;
  summary.krylov_iterations += s.iterations;
  summary.nonzeros = s.nonzeros;
  summary.matrix_bytes = std::max(summary.matrix_bytes, s.matrix_bytes);
  summary.solver_bytes = std::max(summary.solver_bytes, s.solver_bytes);
  summary.seconds += seconds_since(t_step);
}

}  // namespace halfstep
