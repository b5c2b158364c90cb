#include "solver/static_newton.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace halfstep {

namespace {

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

StaticNewton::StaticNewton(StaticProblem& p)
    : p_(p), r_(static_cast<std::size_t>(p.neq)), du_(static_cast<std::size_t>(p.neq)) {}

NewtonOutcome StaticNewton::solve(const StaticIterate& from, StaticIterate& trial, double tau1, double dtau,
                                  bool first) {
  StaticProblem& p = p_;
  const std::size_t ndof = p.ndof, q = p.q;
  trial.x = from.x;
  trial.cfg = from.cfg;
  if (p.stabilize && p.c_stab > 0) {  // the viscous forces' stiffness, c m* / dtau, per equation
    std::vector<double> shift(static_cast<std::size_t>(p.neq), 0.0);
    for (std::size_t k = 0; k < ndof; ++k)
      if (p.equation[k] >= 0) shift[static_cast<std::size_t>(p.equation[k])] += p.c_stab * p.mstar[k] / dtau;
    p.engine->set_diagonal_shift(shift);
  }
  p.prescribe(tau1, trial.x);
  p.trial_configuration(trial.x, trial.cfg);
  NewtonOutcome out;
  double r_prev = 0, r_prev2 = 0;
  int& it = out.iterations;
  for (;; ++it) {
    trial.strain = p.internal(trial.x, trial.cfg, trial.f_int);
    p.external(tau1, trial.cfg, trial.f_ext);
    // Every dof, the held ones too: their reactions are written. The cause is named, since
    // the cut-backs that follow end in a message about the minimum increment.
    if (const std::ptrdiff_t k = first_non_finite(trial.f_ext); k >= 0) {
      out.why = "the applied load at " + p.dof_label(static_cast<int>(k)) + " is not finite (" +
                std::to_string(trial.f_ext[static_cast<std::size_t>(k)]) + ")";
      break;
    }
    if (const std::ptrdiff_t k = first_non_finite(trial.f_int); k >= 0) {
      out.why = "the internal force at " + p.dof_label(static_cast<int>(k)) + " is not finite (" +
                std::to_string(trial.f_int[static_cast<std::size_t>(k)]) + ")";
      break;
    }
    // Force scales: the average nonzero nodal force and moment (reactions included), never
    // below the time average of the converged increments (Abaqus' q~).
    double q_sum[2] = {0, 0};
    std::int64_t q_n[2] = {0, 0};
    for (std::size_t k = 0; k < ndof; ++k)
      if (p.active[k]) {
        const int field = k % q >= 3 ? 1 : 0;
        const double v = std::max(std::fabs(trial.f_int[k]), std::fabs(trial.f_ext[k]));
        if (v > 0) {
          q_sum[field] += v;
          ++q_n[field];
        }
      }
    double qs[2];
    for (int fld = 0; fld < 2; ++fld) {
      qs[fld] = q_n[fld] ? q_sum[fld] / static_cast<double>(q_n[fld]) : 0.0;
      if (q_count_[fld]) qs[fld] = std::max(qs[fld], q_time_[fld] / static_cast<double>(q_count_[fld]));
    }
    // Forces near the largest double overflow the scale's sum; an infinite scale would pass
    // any residual.
    if (!std::isfinite(qs[0]) || !std::isfinite(qs[1])) {
      out.why = "the force scale overflowed (nodal forces near the largest double, 1.8e308)";
      break;
    }
    if (p.ndn == 5) {
      // Forces and moments judged on one scale where one field carries (next to) nothing: a
      // strip rolled by end moments has round-off forces only, a membrane round-off moments.
      // The model's size converts (moments of the applied forces are about force x size).
      const double qt = qs[0], qr = qs[1];
      qs[0] = std::max(qt, qr / p.model_size);
      qs[1] = std::max(qr, qt * p.model_size);
    }
    // A shared equation (a rigid body's translation) sums the residuals of its dofs.
    std::fill(r_.begin(), r_.end(), 0.0);
    for (std::size_t k = 0; k < ndof; ++k)
      if (p.equation[k] >= 0) r_[static_cast<std::size_t>(p.equation[k])] += trial.f_ext[k] - trial.f_int[k];
    if (p.stabilize && p.c_stab > 0)
      for (std::size_t k = 0; k < ndof; ++k)
        if (p.equation[k] >= 0)
          r_[static_cast<std::size_t>(p.equation[k])] -= p.c_stab * p.mstar[k] * (trial.x[k] - from.x[k]) / dtau;
    const double r_t = max_abs(r_, p.eq_rotation, false), r_r = max_abs(r_, p.eq_rotation, true);
    if (!std::isfinite(r_t) || !std::isfinite(r_r) || !std::isfinite(trial.strain)) {
      out.why = !std::isfinite(trial.strain) ? "the strain energy is not finite" : "the residual force is not finite";
      break;
    }
    const double rel_t = qs[0] > 0 ? r_t / qs[0] : r_t, rel_r = qs[1] > 0 ? r_r / qs[1] : r_r;
    out.history.push_back(std::max(rel_t, rel_r));
    if ((qs[0] == 0 || r_t <= kLinearTol * qs[0]) && (qs[1] == 0 || r_r <= kLinearTol * qs[1])) {
      out.converged = true;
      break;
    }
    if (it > 0) {
      double dx_max[2] = {0, 0};
      for (std::size_t k = 0; k < ndof; ++k)
        dx_max[k % q >= 3 ? 1 : 0] = std::max(dx_max[k % q >= 3 ? 1 : 0], std::fabs(trial.x[k] - from.x[k]));
      if (r_t <= kResidualTol * qs[0] && r_r <= kResidualTol * qs[1] &&
          max_abs(du_, p.eq_rotation, false) <= kCorrectionTol * dx_max[0] &&
          max_abs(du_, p.eq_rotation, true) <= kCorrectionTol * dx_max[1]) {
        out.converged = true;
        break;
      }
    }
    // Growth is judged on the force residual with moments scaled to forces (solids: r_t).
    const double r_max = std::max(r_t, qs[1] > 0 ? r_r * qs[0] / qs[1] : 0.0);
    if (it >= 2 && r_max > r_prev && r_prev > r_prev2) {
      out.why = "the residual grew in two consecutive iterations";
      break;
    }
    if (it >= kMaxIterations) {
      out.why = "no convergence in " + std::to_string(kMaxIterations) + " iterations";
      break;
    }
    r_prev2 = r_prev;
    r_prev = r_max;
    try {
      if (p.step.nlgeom) {
        p.engine->assemble_and_factor(trial.cfg);
      } else if (!factored_linear_) {
        // K of a geometrically linear step is factored once per step, at the reference.
        p.engine->assemble_and_factor(p.ref);
        factored_linear_ = true;
      }
    } catch (const SingularStiffness& e) {
      if (first && it == 0)
        throw InputError(p.step.loc, "singular stiffness: unconstrained dofs at " + p.equation_name(e.equation()) +
                                         " in step '" + p.step.name + "' (" + e.what() +
                                         "): add *BOUNDARY conditions that stop every rigid motion");
      out.why = std::string("the tangent is singular (") + e.what() + ")";
      break;
    }
    try {
      p.engine->solve(r_, du_);
    } catch (const RunError& e) {
      // An iterative solver that breaks down on an indefinite trial tangent (CG) fails this
      // attempt, not the run: the increment is cut back. A linear step has nothing to cut.
      if (!p.step.nlgeom) throw;
      out.why = std::string("the linear solver failed (") + e.what() + ")";
      break;
    }
    if (first_non_finite(du_) >= 0) {
      out.why = "the linear solve gave a non-finite correction";
      break;
    }
    p.correct(du_, tau1, trial.x, trial.cfg);
  }
  return out;
}

void StaticNewton::accepted(const std::vector<double>& f_int) {
  for (int fld = 0; fld < 2; ++fld) {
    double q_sum = 0;
    std::int64_t q_n = 0;
    for (std::size_t k = 0; k < p_.ndof; ++k)
      if (p_.active[k] && (k % p_.q >= 3 ? 1 : 0) == fld && f_int[k] != 0) {
        q_sum += std::fabs(f_int[k]);
        ++q_n;
      }
    if (q_n) {
      q_time_[fld] += q_sum / static_cast<double>(q_n);
      ++q_count_[fld];
    }
  }
}

StaticIncrements::StaticIncrements(const Step& step, double period)
    : step_(step), period_(period), dtau_(std::min(step.controls.initial, period)) {}

double StaticIncrements::next(double tau) {
  double tau1 = tau + dtau_;
  if (tau1 > period_ * (1 - 1e-9)) {
    tau1 = period_;
    dtau_ = period_ - tau;
  }
  return tau1;
}

void StaticIncrements::failed(const NewtonOutcome& n, int increment, double tau1, bool progress) {
  const StaticControls& ctl = step_.controls;
  if (ctl.direct)
    throw RunError("static step '" + step_.name + "', increment " + std::to_string(increment + 1) + " at step time " +
                   std::to_string(tau1) + ": " + n.why + ", and DIRECT incrementation does not cut back");
  const double smaller = dtau_ * kCutBack;
  if (smaller < ctl.minimum * (1 - 1e-12))
    throw RunError("static step '" + step_.name + "', increment " + std::to_string(increment + 1) + ": " + n.why +
                   " at step time " + std::to_string(tau1) + "; the increment " + std::to_string(smaller) +
                   " after a cut-back would be below the minimum " + std::to_string(ctl.minimum) +
                   " (*STATIC data line, field 3)");
  if (progress)
    std::fprintf(stderr, "halfstep: static step '%s': %s at step time %.6g; increment cut back to %.6g\n",
                 step_.name.c_str(), n.why.c_str(), tau1, smaller);
  dtau_ = smaller;
  cut_last_ = true;
  easy_in_a_row_ = 0;
}

void StaticIncrements::converged(int iterations) {
  const StaticControls& ctl = step_.controls;
  if (ctl.direct) return;
  easy_in_a_row_ = iterations <= kEasyIterations ? easy_in_a_row_ + 1 : 0;
  if (easy_in_a_row_ >= 2 && !cut_last_) {
    dtau_ = std::min(dtau_ * kGrowth, ctl.maximum);
    easy_in_a_row_ = 0;
  }
  cut_last_ = false;
  dtau_ = std::min(dtau_, ctl.maximum);
}

}  // namespace halfstep
