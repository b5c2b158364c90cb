// The static step as a NewtonProblem (newton.hpp): an attempt's start, the internal and
// out-of-balance forces and Abaqus/Standard's force scales, the tangent and the correction.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "core/error.hpp"
#include "elements/registry.hpp"
#include "solver/static_problem.hpp"

namespace halfstep {

namespace {

/// Largest |x_i| over the translation (rot = false) or rotation (rot = true) equations.
double max_abs(const std::vector<double>& x, const std::vector<char>& is_rotation, bool rot) {
  double m = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    if ((is_rotation[i] != 0) == rot) {
      // std::max would drop a NaN (every comparison with it is false) and call it converged.
      if (!std::isfinite(x[i])) return std::fabs(x[i]);
      m = std::max(m, std::fabs(x[i]));
    }
  return m;
}

/// The first entry of x that is not finite, or -1.
std::ptrdiff_t first_non_finite(const std::vector<double>& x) {
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i])) return static_cast<std::ptrdiff_t>(i);
  return -1;
}

}  // namespace

std::vector<double> StaticProblem::equation_diagonal(const std::vector<double>& per_dof) const {
  std::vector<double> d(static_cast<std::size_t>(neq), 0.0);
  for (std::size_t k = 0; k < ndof; ++k)
    if (equation[k] >= 0) d[static_cast<std::size_t>(equation[k])] += per_dof[k];
  for (std::size_t i = 0; i < combined.dof.size(); ++i)  // a dependent dof's: the diagonal of w w^T
    for (int t = combined.term_ptr[i]; t < combined.term_ptr[i + 1]; ++t) {
      const double w = combined.term_weight[static_cast<std::size_t>(t)];
      d[static_cast<std::size_t>(combined.term_eq[static_cast<std::size_t>(t)])] +=
          w * w * per_dof[static_cast<std::size_t>(combined.dof[i])];
    }
  return d;
}

void StaticProblem::expand_equations(const double* x, std::vector<double>& out) const {
  out.assign(ndof, 0.0);
  for (std::size_t k = 0; k < ndof; ++k)
    if (equation[k] >= 0) out[k] = x[equation[k]];
  for (std::size_t i = 0; i < combined.dof.size(); ++i) {
    double s = 0;
    for (int t = combined.term_ptr[i]; t < combined.term_ptr[i + 1]; ++t)
      s += combined.term_weight[static_cast<std::size_t>(t)] * x[combined.term_eq[static_cast<std::size_t>(t)]];
    out[static_cast<std::size_t>(combined.dof[i])] = s;
  }
}

void StaticProblem::gather_equations(const std::vector<double>& f, double* y) const {
  std::fill(y, y + neq, 0.0);
  for (std::size_t k = 0; k < ndof; ++k)
    if (equation[k] >= 0) y[equation[k]] += f[k];
  for (std::size_t i = 0; i < combined.dof.size(); ++i)
    for (int t = combined.term_ptr[i]; t < combined.term_ptr[i + 1]; ++t)
      y[combined.term_eq[static_cast<std::size_t>(t)]] +=
          combined.term_weight[static_cast<std::size_t>(t)] * f[static_cast<std::size_t>(combined.dof[i])];
}

void StaticProblem::begin_attempt(const NewtonIterate& from, NewtonIterate& trial, double tau1, double dtau) {
  trial.x = from.x;
  trial.cfg = from.cfg;
  // Per dof, what the tangent's diagonal gains besides the elements: the viscous forces'
  // stiffness c m* / dtau (STABILIZE), and on the current positions (NLGEOM) a centrifugal
  // load's own, -m omega^2 (1 - n_d^2) (its off-diagonal part -m omega^2 (-n n) is left out:
  // exact for an axis along a global one; ROTA's is skew, zero on the diagonal). Near a
  // critical speed Newton without it converges at the ratio m omega^2 / k per iteration.
  std::vector<double> diagonal;
  if (stabilize && c_stab > 0) {
    diagonal.assign(ndof, 0.0);
    for (std::size_t k = 0; k < ndof; ++k) diagonal[k] = c_stab * mstar[k] / dtau;
  }
  if (dynamic) {  // HHT's d(M a + C v)/dx, the mass divided by (1 + alpha) like the whole residual
    const double fm = 1.0 / ((1 + hht_alpha) * hht_beta * dtau * dtau), fc = hht_gamma / (hht_beta * dtau);
    if (diagonal.empty()) diagonal.assign(ndof, 0.0);
    for (std::size_t k = 0; k < ndof; ++k) diagonal[k] += dyn_mass.m_rest[k] * fm + dyn_mass.c_rest[k] * fc;
    if (dyn_mass.has_blocks() && dtau != blocks_dtau_) {  // read by the engine at each assembly
      dyn_mass.element_blocks(fm, fc, mass_blocks_);
      blocks_dtau_ = dtau;
      engine->set_coupling(&mass_blocks_);
    }
    shift_dtau_ = dtau;
  }
  if (step.nlgeom)
    for (std::size_t i = 0; i < loads.spin_node.size(); ++i) {
      const double* axis = &loads.spin_axes[7 * static_cast<std::size_t>(loads.spin_axis[i])];
      if (axis[6] != 0.0) continue;
      if (diagonal.empty()) diagonal.assign(ndof, 0.0);
      const double value = loads.spin_value[i] * amplitude_slot(dv, loads.spin_amp[i], tau1);
      for (std::size_t d = 0; d < 3; ++d)
        diagonal[q * static_cast<std::size_t>(loads.spin_node[i]) + d] -= value * (1.0 - axis[3 + d] * axis[3 + d]);
    }
  if (!diagonal.empty()) {
    engine->set_diagonal_shift(equation_diagonal(diagonal));
  }
  if (contact) contact->begin_attempt(translations(from.x), dtau);
  check_zero_pivots_ = true;
  attempt_from_ = &from.cfg;
  prescribe(tau1, trial.x);
  trial_configuration(trial.x, trial.cfg);
  attempt_du_.assign(static_cast<std::size_t>(neq), 0.0);
  attempt_dtau_ = dtau;
  if (!predict_prescribed_motion(from, trial, tau1)) extrapolate(trial, tau1, dtau);
  // The temperatures at the increment's end load every iteration of the attempt.
  trial.cfg.thermal = thermal_changes(drive, sys.solid.num_elements, tau1);
  if (!trial.cfg.thermal.empty()) {
    // The thermal forces join the force scale like applied loads: a body free to expand ends
    // with round-off forces only, which alone would make any residual look large.
    std::vector<double> zero(3 * nn, 0.0), fth;
    op.continuum().linearized_force(zero, fth, trial.cfg.thermal.data());
    thermal_scale_.assign(ndof, 0.0);
    for (std::size_t n = 0; n < nn; ++n)
      for (std::size_t k = 0; k < 3; ++k) thermal_scale_[q * n + k] = std::fabs(fth[3 * n + k]);
  } else {
    thermal_scale_.clear();
  }
}

NewtonBalance StaticProblem::balance(const NewtonIterate& from, NewtonIterate& trial, double tau1, double dtau,
                                     std::vector<double>& r) {
  NewtonBalance b;
  trial.strain = internal(trial.x, trial.cfg, trial.f_int, &trial.contact, &trial.element_scale);
  external(tau1, trial.cfg, trial.f_ext);
  // Every dof, the held ones too: their reactions are written. The cause is named, since
  // the cut-backs that follow end in a message about the minimum increment.
  if (const std::ptrdiff_t k = first_non_finite(trial.f_ext); k >= 0) {
    b.failure = "the applied load at " + dof_label(static_cast<int>(k)) + " is not finite (" +
                std::to_string(trial.f_ext[static_cast<std::size_t>(k)]) + ")";
    return b;
  }
  if (const std::ptrdiff_t k = first_non_finite(trial.f_int); k >= 0) {
    b.failure = "the internal force at " + dof_label(static_cast<int>(k)) + " is not finite (" +
                std::to_string(trial.f_int[static_cast<std::size_t>(k)]) + ")";
    return b;
  }
  // A dynamic step's inertia and damping forces, which also set the force scale (a body in
  // free flight has no other force, and a zero scale would pass its first residual).
  if (dynamic) {
    inertia_forces(from, trial, dtau, inertia_, inertia_scale_);
  }
  // Force scales: the average nonzero nodal force and moment (reactions included) or, where
  // larger, the mean magnitude of the elements' own nodal forces before assembly (Abaqus'
  // and CalculiX's spatial average: interior nodes' contributions cancel in the assembled
  // forces, which for a bent solid are ~14x smaller and ask for extra iterations), never
  // below the time average of the converged increments (Abaqus' q~).
  double q_sum[2] = {0, 0};
  std::int64_t q_n[2] = {0, 0};
  for (std::size_t k = 0; k < ndof; ++k)
    if (scaled[k]) {
      const int field = field_of(k);
      const double v = std::max({std::fabs(trial.f_int[k]), std::fabs(trial.f_ext[k]),
                                 thermal_scale_.empty() ? 0.0 : thermal_scale_[k],
                                 dynamic ? inertia_scale_[k] : 0.0});
      if (v > 0) {
        q_sum[field] += v;
        ++q_n[field];
      }
    }
  // The moments on turning bodies are forces of their equations (moment / model size).
  body_moments(tau1, trial.x, body_moments_);
  for (const auto& [eq, v] : body_moments_)
    if (v != 0) {
      q_sum[0] += std::fabs(v);
      ++q_n[0];
    }
  double* qs = b.scale;
  for (int fld = 0; fld < 2; ++fld) {
    qs[fld] = q_n[fld] ? q_sum[fld] / static_cast<double>(q_n[fld]) : 0.0;
    if (q_count_[fld]) qs[fld] = std::max(qs[fld], q_time_[fld] / static_cast<double>(q_count_[fld]));
  }
  qs[0] = std::max({qs[0], trial.element_scale, force_floor});
  // Forces near the largest double overflow the scale's sum; an infinite scale would pass
  // any residual.
  if (!std::isfinite(qs[0]) || !std::isfinite(qs[1])) {
    b.failure = "the force scale overflowed (nodal forces near the largest double, 1.8e308)";
    return b;
  }
  if (ndn >= 5) {
    // Forces and moments judged on one scale where one field carries (next to) nothing: a
    // strip rolled by end moments has round-off forces only, a membrane round-off moments.
    // The model's size converts (moments of the applied forces are about force x size).
    const double qt = qs[0], qr = qs[1];
    qs[0] = std::max(qt, qr / model_size);
    qs[1] = std::max(qr, qt * model_size);
  }
  // A shared equation (a rigid body's translation) sums the residuals of its dofs; a turning
  // body's arms are the trial's.
  turn_weights(trial.x);
  std::fill(r.begin(), r.end(), 0.0);
  for (std::size_t k = 0; k < ndof; ++k)
    if (equation[k] >= 0) r[static_cast<std::size_t>(equation[k])] += trial.f_ext[k] - trial.f_int[k];
  if (stabilize && c_stab > 0)
    for (std::size_t k = 0; k < ndof; ++k)
      if (equation[k] >= 0)
        r[static_cast<std::size_t>(equation[k])] -= c_stab * mstar[k] * (trial.x[k] - from.x[k]) / dtau;
  if (dynamic)
    for (std::size_t k = 0; k < ndof; ++k)
      if (equation[k] >= 0) r[static_cast<std::size_t>(equation[k])] -= inertia_[k];
  // A dependent dof (*TIE, *EQUATION) hands its out-of-balance force to its terms' equations.
  for (std::size_t i = 0; i < combined.dof.size(); ++i) {
    const std::size_t k = static_cast<std::size_t>(combined.dof[i]);
    double rk = trial.f_ext[k] - trial.f_int[k];
    if (stabilize && c_stab > 0) rk -= c_stab * mstar[k] * (trial.x[k] - from.x[k]) / dtau;
    if (dynamic) rk -= inertia_[k];
    for (int t = combined.term_ptr[i]; t < combined.term_ptr[i + 1]; ++t)
      r[static_cast<std::size_t>(combined.term_eq[static_cast<std::size_t>(t)])] +=
          combined.term_weight[static_cast<std::size_t>(t)] * rk;
  }
  for (const auto& [eq, v] : body_moments_) r[static_cast<std::size_t>(eq)] += v;
  b.residual[0] = max_abs(r, eq_rotation, false);
  b.residual[1] = max_abs(r, eq_rotation, true);
  if (!std::isfinite(b.residual[0]) || !std::isfinite(b.residual[1]) || !std::isfinite(trial.strain))
    b.failure = !std::isfinite(trial.strain) ? "the strain energy is not finite" : "the residual force is not finite";
  return b;
}

void StaticProblem::correction_sizes(const std::vector<double>& du, const NewtonIterate& from,
                                     const NewtonIterate& trial, double du_max[2], double dx_max[2]) const {
  du_max[0] = max_abs(du, eq_rotation, false);
  du_max[1] = max_abs(du, eq_rotation, true);
  dx_max[0] = dx_max[1] = 0;
  for (std::size_t k = 0; k < ndof; ++k)
    dx_max[field_of(k)] = std::max(dx_max[field_of(k)], std::fabs(trial.x[k] - from.x[k]));
}

void StaticProblem::factor(const NewtonIterate& trial, bool step_start) {
  for (;;) {
    try {
      if (!turn_terms_.empty() && step.nlgeom) {  // the trial's arms (balance() set them)
        turn_weights(trial.x);
        engine->set_combination_weights(combined.term_weight);
        add_body_blocks(trial);
        engine->set_coupling(&body_blocks_);
      }
      if (step.nlgeom || small_strain) {
        engine->assemble_and_factor(trial.cfg);
      } else if (!factored_linear_ || contact || (dynamic && shift_dtau_ != factored_dtau_)) {
        // K of a geometrically linear step is factored once per step, at the reference (with
        // contact, whose springs change with the iterate, at every iteration; a dynamic step's
        // again when its increment, and so its mass term, changes).
        engine->assemble_and_factor(ref);
        factored_linear_ = true;
        factored_dtau_ = shift_dtau_;
      }
      return;
    } catch (const SingularStiffness& e) {
      // A tangent with a non-finite entry (the CPU engine flags it with a NaN largest
      // diagonal) fails the attempt by name: no boundary condition is missing.
      if (std::isnan(e.largest_diagonal()))
        throw SingularStiffness(e.equation(), "the tangent stiffness is not finite at " + equation_name(e.equation()) +
                                                  " (" + e.what() + "): an element matrix overflowed or an element "
                                                  "turned inside out",
                                e.largest_diagonal());
      if (step_start && hold_zero_pivot(e)) continue;
      if (step_start && !singular_by_the_trial())
        throw InputError(step.loc, "singular stiffness: unconstrained dofs at " + equation_name(e.equation()) +
                                       " in step '" + step.name + "' (" + e.what() +
                                       "): add *BOUNDARY conditions that stop every rigid motion");
      throw;
    }
  }
}

bool StaticProblem::predict_prescribed_motion(const NewtonIterate& from, NewtonIterate& trial, double tau1) {
  // Laws with state and the FPM elements' path units only: there the first trial's kink
  // (the elements beside a moved support yield, their neighbours stay elastic) can keep
  // Newton from converging at all; elastic models converge from the plain trial.
  if (op.material_state_size() == 0 || !(step.nlgeom || small_strain) || contact || dynamic || stabilize || neq == 0)
    return false;
  std::vector<double> delta(ndof, 0.0);
  bool moved = false;
  for (std::size_t k = 0; k < ndof; ++k)
    if (equation[k] < 0 && k % q < 3 && trial.x[k] != from.x[k]) {
      delta[k] = trial.x[k] - from.x[k];
      moved = true;
    }
  if (!moved) return false;
  // K(from) delta on every dof, element by element, from the converged state.
  const std::vector<double> state = op.material_state(st);
  std::vector<double> k, kd(ndof, 0.0);
  if (step.nlgeom)
    op.element_matrices(from.cfg, k, state.data());
  else  // the small-strain theory's tangent, as the engine assembles it
    op.small_strain_matrices(ref, from.cfg, k, state.data());
  op.for_each_matrix(k, [&](int, const int* dofs, const double* m, int nd) {
    for (int i = 0; i < nd; ++i) {
      double sum = 0;
      for (int j = 0; j < nd; ++j) sum += m[i * nd + j] * delta[static_cast<std::size_t>(dofs[j])];
      kd[static_cast<std::size_t>(dofs[i])] += sum;
    }
  });
  std::vector<double> fe, f(ndof), r(static_cast<std::size_t>(neq), 0.0), du;
  external(tau1, from.cfg, fe);
  for (std::size_t i = 0; i < ndof; ++i) f[i] = fe[i] - from.f_int[i] - kd[i];
  gather_equations(f, r.data());
  try {
    engine->assemble_and_factor(from.cfg);
    engine->solve(r, du);
  } catch (const SingularStiffness&) {
    return false;  // no predictor: Newton starts from the plain trial
  }
  // The free dofs' share of the motion, as the tangent at the start spreads it.
  apply_correction(du, tau1, trial.x, trial.cfg);
  for (std::size_t i = 0; i < du.size(); ++i) attempt_du_[i] += du[i];
  return true;
}

void StaticProblem::extrapolate(NewtonIterate& trial, double tau1, double dtau) {
  if (!step.controls.extrapolate || !(last_dtau_ > 0) || contact || dynamic || last_du_.size() != attempt_du_.size())
    return;
  std::vector<double> du(last_du_.size());
  const double ratio = dtau / last_dtau_;
  for (std::size_t i = 0; i < du.size(); ++i) du[i] = ratio * last_du_[i];
  apply_correction(du, tau1, trial.x, trial.cfg);
  attempt_du_ = du;
}

bool StaticProblem::singular_by_the_trial() {
  // The first trial carries the increment's prescribed motion: with laws with state its
  // tangent may have yielded flat (perfect plasticity) although the supports stop every rigid
  // motion. The tangent at the attempt's start, from the same committed state, tells the two
  // apart: regular there, the trial's state made it singular, and the attempt fails (cut back).
  if (!attempt_from_ || op.material_state_size() == 0 || !(step.nlgeom || small_strain)) return false;
  try {
    engine->assemble_and_factor(*attempt_from_);
  } catch (const SingularStiffness&) {
    return false;
  }
  return true;
}

bool StaticProblem::hold_zero_pivot(const SingularStiffness& e) {
  // Only where nothing else shifts the diagonal and K is factored once: a geometrically
  // linear step without contact, stabilization or inertia.
  constexpr std::size_t kMaxZeroPivots = 64;
  if (step.nlgeom || small_strain || contact || dynamic || (stabilize && c_stab > 0) || e.equation() < 0 ||
      !(e.largest_diagonal() > 0) || zero_pivot_eq_.size() >= kMaxZeroPivots)
    return false;
  if (zero_pivot_spring_.empty()) zero_pivot_spring_.assign(static_cast<std::size_t>(neq), 0.0);
  double& s = zero_pivot_spring_[static_cast<std::size_t>(e.equation())];
  if (s > 0) return false;  // held already and still singular: not a round-off pivot
  s = kZeroPivotSpring * e.largest_diagonal();
  zero_pivot_eq_.push_back(e.equation());
  engine->set_diagonal_shift(zero_pivot_spring_);
  factored_linear_ = false;
  std::fprintf(stderr,
               "halfstep: warning: static step '%s': numerical singularity at %s (%s): a zero-energy mode (a "
               "mechanism, or an hourglass mode of reduced integration) held by a spring of %.3g; the step stops if "
               "its loads move that mode\n",
               step.name.c_str(), equation_name(e.equation()).c_str(), e.what(), s);
  return true;
}

void StaticProblem::solve(const std::vector<double>& r, std::vector<double>& du) {
  engine->solve(r, du);
  if (!check_zero_pivots_ || zero_pivot_eq_.empty()) return;
  check_zero_pivots_ = false;
  // An increment's first correction answers its whole load: the springs on the zero pivots
  // must carry none of it (round-off and the springs' own 1e-8 share only), else the loads
  // drive the mechanism and the answer is the springs'.
  double r_max = 0;
  for (double v : r) r_max = std::max(r_max, std::fabs(v));
  for (int eq : zero_pivot_eq_) {
    const double f = zero_pivot_spring_[static_cast<std::size_t>(eq)] * std::fabs(du[static_cast<std::size_t>(eq)]);
    if (f > kZeroPivotLoad * r_max) {
      char share[48];
      std::snprintf(share, sizeof share, "%.3g %%", 100 * f / std::max(r_max, 1e-300));
      throw InputError(step.loc, "singular stiffness: unconstrained dofs at " + equation_name(eq) + " in step '" +
                                     step.name + "': the loads move a zero-energy mode there (its spring would carry " +
                                     share + " of the largest load): add *BOUNDARY conditions that stop every rigid motion");
    }
  }
}

void StaticProblem::correct(const std::vector<double>& du, double tau1, NewtonIterate& trial) {
  apply_correction(du, tau1, trial.x, trial.cfg);
  if (attempt_du_.size() == du.size())
    for (std::size_t i = 0; i < du.size(); ++i) attempt_du_[i] += du[i];
}

bool StaticProblem::augment(const NewtonIterate&) { return contact && contact->augment(); }

std::string StaticProblem::iterate_note(const std::vector<double>& r) const {
  // Where the largest force residual is, as Abaqus's message file names its node and dof.
  std::size_t worst = r.size();
  for (std::size_t e = 0; e < r.size(); ++e)
    if (!eq_rotation[e] && (worst == r.size() || std::fabs(r[e]) > std::fabs(r[worst]))) worst = e;
  std::string note = worst < r.size() ? "at " + equation_name(static_cast<int>(worst)) : std::string();
  if (contact) note += (note.empty() ? "" : ", ") + std::to_string(contact->touching()) + " contact nodes closed";
  return note;
}

void StaticProblem::accepted(const NewtonIterate& s) {
  // The converged increment's material state (the last balance was at s) becomes the start
  // of every later evaluation; output reads it from st. A linear step without laws with state
  // (K(ref) x: a dashpot's own state at most) evaluates none, and its state stays.
  if (op.material_state_size() > 0 && (step.nlgeom || small_strain)) {
    std::vector<double> state;
    engine->trial_material_state(state);
    op.store_material_state(state, st);
    engine->set_material_state(state);
  }
  if (contact) contact->accepted();  // its friction forces, likewise
  last_du_ = attempt_du_;
  last_dtau_ = attempt_dtau_;
  add_force_scale(s);
}

void StaticProblem::add_force_scale(const NewtonIterate& s) {
  for (int fld = 0; fld < 2; ++fld) {
    double q_sum = 0;
    std::int64_t q_n = 0;
    for (std::size_t k = 0; k < ndof; ++k)
      if (scaled[k] && field_of(k) == fld && s.f_int[k] != 0) {
        q_sum += std::fabs(s.f_int[k]);
        ++q_n;
      }
    const double q = std::max(q_n ? q_sum / static_cast<double>(q_n) : 0.0, fld == 0 ? s.element_scale : 0.0);
    if (q > 0) {
      q_time_[fld] += q;
      ++q_count_[fld];
    }
  }
}

void StaticProblem::check_small_strain_kinds() const {
  const SolidMesh& sm = sys.solid;
  const int fpm_hex = find_element_kind("C3D8", "FPM");  // its own small-strain form (fpm_hex_small_strain)
  for (const SolidGroup& g : sm.groups) {
    const ElementKindInfo& kind = element_kind(g.kind);
    if (kind.thermal_strain || g.kind == fpm_hex) continue;
    for (int e = g.first; e < g.first + g.count; ++e)
      if (state_size(sm.materials[static_cast<std::size_t>(sm.material[static_cast<std::size_t>(e)])]) > 0)
        throw InputError(step.loc, "step '" + step.name + "' is geometrically linear (no NLGEOM=YES), and element " +
                                       std::to_string(model.elements.id[static_cast<std::size_t>(
                                           sm.model_element[static_cast<std::size_t>(e)])]) +
                                       " (" + kind.name + ") has a *PLASTIC material: " + kind.name +
                                       " elements yield in NLGEOM=YES steps only so far (the small-strain theory "
                                       "takes 3-D continuum, plane strain and axisymmetric elements); use *STEP, "
                                       "NLGEOM=YES");
  }
}

double StaticProblem::internal(const std::vector<double>& xs, const Configuration& c, std::vector<double>& f,
                               double* contact_energy, double* element_scale) {
  double w = 0;
  if (element_scale) *element_scale = 0;
  if (step.nlgeom) {
    ElementForceSums sums;
    w = engine->internal_force(c, f, element_scale ? &sums : nullptr);
    if (element_scale) *element_scale = sums.mean();
  } else if (!small_strain && c.thermal.empty() && std::all_of(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(ndof),
                                               [](double v) { return v == 0.0; })) {
    f.assign(ndof, 0.0);  // K 0: the usual start of a linear step, free
  } else {
    // The engine takes the dofs' entries (not the bodies' turns after them).
    const std::vector<double>* x = &xs;
    if (xs.size() != ndof) {
      node_x_.assign(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(ndof));
      x = &node_x_;
    }
    w = engine->linearized_force(ref, *x, f, &c.thermal);
    if (!c.thermal.empty() && sys.solid.num_elements > 0)
      w += op.continuum().thermal_energy_correction(translations(xs), c.thermal.data());
  }
  const double e = contact ? contact->add_forces(translations(xs), ndn, f) : 0.0;
  if (contact_energy) *contact_energy = e;
  return w;
}

}  // namespace halfstep
