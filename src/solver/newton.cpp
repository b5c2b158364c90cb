#include "solver/newton.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <utility>

#include "core/error.hpp"
#include "linear/tangent_engine.hpp"

namespace halfstep {

namespace {

// Abaqus/Standard's default controls (the *CONTROLS, PARAMETERS=FIELD and TIME INCREMENTATION
// defaults): residual tolerance R_n, correction tolerance C_n, the residual below which an
// increment counts as linear, the most iterations of one attempt, the cut-back and growth
// factors, the iteration count below which two increments in a row let the increment grow, and
// the iterations after which a residual growing twice in a row fails the attempt (I_0).
constexpr double kResidualTol = 5e-3;
constexpr double kCorrectionTol = 1e-2;
constexpr double kLinearTol = 1e-8;
/// Abaqus's epsilon_l for zero flux: a field whose force scale has fallen below this share of
/// the largest scale of the attempt carries no force of its own (a mechanism driven by
/// prescribed motion, whose converged forces are round-off), and is judged on that share.
constexpr double kZeroFlux = 1e-5;
constexpr int kMaxIterations = 16;
constexpr double kCutBack = 0.25;
constexpr double kGrowth = 1.5;
constexpr int kEasyIterations = 4;
constexpr int kGrowthCheckFrom = 4;
/// Most multiplier updates (NewtonProblem::augment) in one attempt before it fails.
constexpr int kMaxAugmentations = 30;
/// Wall seconds into an attempt after which each iteration prints a progress line.
constexpr double kSlowAttempt = 5.0;

/// Whether some entry of x is not finite.
bool any_non_finite(const std::vector<double>& x) {
  for (double v : x)
    if (!std::isfinite(v)) return true;
  return false;
}

}  // namespace

NewtonSolver::NewtonSolver(NewtonProblem& p)
    : p_(p), r_(static_cast<std::size_t>(p.equations())), du_(static_cast<std::size_t>(p.equations())) {}

NewtonOutcome NewtonSolver::solve(const NewtonIterate& from, NewtonIterate& trial, double tau1, double dtau,
                                  bool first) {
  p_.begin_attempt(from, trial, tau1, dtau);
  NewtonOutcome out;
  double r_prev = 0, r_prev2 = 0;
  double q_peak[2] = {0, 0};  // the largest force scales of this attempt (kZeroFlux)
  int& it = out.iterations;
  int since = 0;  // the first iteration after the latest augmentation
  int augmentations = 0;
  const auto started = std::chrono::steady_clock::now();
  // Converged at trial: done, or the problem's multipliers moved and the iterations go on from
  // there (its forces changed: at least one correction before the next verdict).
  const auto settled = [&]() {
    if (!p_.augment(trial)) return true;
    if (++augmentations > kMaxAugmentations) {
      out.why = "the contact multipliers did not settle in " + std::to_string(kMaxAugmentations) + " augmentations";
      return true;
    }
    since = it + 1;
    r_prev = r_prev2 = 0;
    return false;
  };
  for (;; ++it) {
    const NewtonBalance b = p_.balance(from, trial, tau1, dtau, r_);
    if (!b.failure.empty()) {
      out.why = b.failure;
      break;
    }
    double qs[2];
    for (int f = 0; f < 2; ++f) {
      q_peak[f] = std::max(q_peak[f], b.scale[f]);
      qs[f] = std::max(b.scale[f], kZeroFlux * q_peak[f]);
    }
    const double r_t = b.residual[0], r_r = b.residual[1];
    const double rel_t = qs[0] > 0 ? r_t / qs[0] : r_t, rel_r = qs[1] > 0 ? r_r / qs[1] : r_r;
    out.history.push_back(std::max(rel_t, rel_r));
    if (!progress_.empty() &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() >= kSlowAttempt) {
      const std::string note = p_.iterate_note(r_);
      std::fprintf(stderr, "halfstep: %s, iteration %d: largest residual %.3g of the force scale%s%s\n",
                   progress_.c_str(), it, out.history.back(), note.empty() ? "" : ", ", note.c_str());
    }
    if ((qs[0] == 0 || r_t <= kLinearTol * qs[0]) && (qs[1] == 0 || r_r <= kLinearTol * qs[1])) {
      if (settled()) {
        out.converged = out.why.empty();
        break;
      }
      continue;
    }
    if (it > since) {
      double du_max[2] = {0, 0}, dx_max[2] = {0, 0};
      p_.correction_sizes(du_, from, trial, du_max, dx_max);
      if (r_t <= kResidualTol * qs[0] && r_r <= kResidualTol * qs[1] && du_max[0] <= kCorrectionTol * dx_max[0] &&
          du_max[1] <= kCorrectionTol * dx_max[1]) {
        if (settled()) {
          out.converged = out.why.empty();
          break;
        }
        continue;
      }
    }
    // Growth is judged on the force residual with moments scaled to forces (solids: r_t).
    const double r_max = std::max(r_t, qs[1] > 0 ? r_r * qs[0] / qs[1] : 0.0);
    if (it >= since + kGrowthCheckFrom && r_max > r_prev && r_prev > r_prev2) {
      out.why = "the residual grew in two consecutive iterations";
      break;
    }
    if (it - since >= kMaxIterations) {
      out.why = "no convergence in " + std::to_string(kMaxIterations) + " iterations";
      break;
    }
    r_prev2 = r_prev;
    r_prev = r_max;
    try {
      p_.factor(trial, first && it == 0);
    } catch (const SingularStiffness& e) {
      // A NaN largest diagonal marks a non-finite tangent, which its message names.
      out.why = std::isnan(e.largest_diagonal()) ? std::string(e.what())
                                                 : std::string("the tangent is singular (") + e.what() + ")";
      break;
    }
    try {
      p_.solve(r_, du_);
    } catch (const RunError& e) {
      // An iterative solver that breaks down on an indefinite trial tangent (CG) fails this
      // attempt, not the run: the increment is cut back. A linear problem has nothing to cut.
      if (!p_.nonlinear()) throw;
      out.why = std::string("the linear solver failed (") + e.what() + ")";
      break;
    }
    if (any_non_finite(du_)) {
      out.why = "the linear solve gave a non-finite correction";
      break;
    }
    p_.correct(du_, tau1, trial);
  }
  return out;
}

IncrementControl::IncrementControl(const Step& step, double period, std::string what)
    : controls_(step.controls), period_(period), what_(std::move(what)), dtau_(std::min(step.controls.initial, period)),
      attempt_(dtau_) {}

double IncrementControl::next(double tau) {
  double tau1 = tau + dtau_;
  attempt_ = dtau_;
  const double eps = 1e-9 * period_;
  const auto mark = std::upper_bound(marks_.begin(), marks_.end(), tau + eps);
  if (mark != marks_.end() && tau1 > *mark - eps && *mark < period_ * (1 - 1e-9)) {
    tau1 = *mark;
    attempt_ = *mark - tau;
  }
  if (tau1 > period_ * (1 - 1e-9)) {
    tau1 = period_;
    attempt_ = dtau_ = period_ - tau;
  }
  return tau1;
}

void IncrementControl::failed(const NewtonOutcome& n, int increment, double tau1, bool progress) {
  const StaticControls& ctl = controls_;
  if (ctl.direct)
    throw RunError(what_ + ", increment " + std::to_string(increment + 1) + " at step time " +
                   std::to_string(tau1) + ": " + n.why + ", and DIRECT incrementation does not cut back");
  const double smaller = attempt_ * kCutBack;
  if (smaller < ctl.minimum * (1 - 1e-12))
    throw RunError(what_ + ", increment " + std::to_string(increment + 1) + ": " + n.why +
                   " at step time " + std::to_string(tau1) + "; the increment " + std::to_string(smaller) +
                   " after a cut-back would be below the minimum " + std::to_string(ctl.minimum) +
                   " (*STATIC data line, field 3)");
  if (progress)
    std::fprintf(stderr, "halfstep: %s: %s at step time %.6g; increment cut back to %.6g\n", what_.c_str(),
                 n.why.c_str(), tau1, smaller);
  attempt_ = dtau_ = smaller;
  easy_in_a_row_ = 0;  // so the next two increments must both be easy before it grows again
}

void IncrementControl::converged(int iterations) {
  const StaticControls& ctl = controls_;
  attempt_ = dtau_;  // an increment shortened to a mark: the next goes on at the size before
  if (ctl.direct) return;
  // The last two increments easy: grow. The window slides (no reset after growing), so a
  // linear step grows at every increment from its second on, as Abaqus and the peer do.
  easy_in_a_row_ = iterations <= kEasyIterations ? easy_in_a_row_ + 1 : 0;
  if (easy_in_a_row_ >= 2) dtau_ = std::min(dtau_ * kGrowth, ctl.maximum);
  attempt_ = dtau_ = std::min(dtau_, ctl.maximum);
}

}  // namespace halfstep
