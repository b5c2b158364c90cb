// Newton's method on one increment of an implicit step, and the step's increment control,
// apart from any one problem (issue 43 item 3): the static step's equilibrium
// (static_problem.hpp) is one NewtonProblem; an implicit dynamic step's would be another.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "discretization/configuration.hpp"
#include "model/model.hpp"

namespace halfstep {

/// The converged (or trial) state of an increment: the unknowns, the configuration they
/// give, the internal and external forces there and the strain energy.
struct NewtonIterate {
  std::vector<double> x;
  Configuration cfg;
  std::vector<double> f_int, f_ext;
  double strain = 0;
  double contact = 0;  ///< energy stored in contact (part of the work, not of strain)
  /// The mean magnitude of the continuum elements' own nodal forces at x (ElementForceSums;
  /// 0: not measured), the residual check's force scale where it is larger than the assembled one.
  double element_scale = 0;
};

/// How one increment's Newton iterations ended.
struct NewtonOutcome {
  bool converged = false;
  int iterations = 0;
  std::string why;               ///< why not (for the cut-back message)
  std::vector<double> history;   ///< the largest relative residual of each iteration
};

/// The out-of-balance forces at an iterate as Newton's checks read them, per field (0: forces,
/// 1: moments; a problem without rotations leaves field 1 at zero).
struct NewtonBalance {
  std::string failure;          ///< why the forces cannot be judged (not finite, ...); empty if they can
  double residual[2] = {0, 0};  ///< the largest |r| over the field's equations
  double scale[2] = {0, 0};     ///< the field's force scale (0: the field carries nothing)
};

/// A nonlinear system as one increment's Newton iterations see it: an attempt's start, the
/// forces and out-of-balance r (per equation) at a trial iterate, a tangent to factor and solve
/// with, a correction to apply.
class NewtonProblem {
 public:
  virtual ~NewtonProblem() = default;
  /// Equations: the length of a residual and of a correction.
  virtual int equations() const = 0;
  /// Whether a failed attempt may be retried with a smaller increment (a geometrically linear
  /// static step has nothing to cut: its linear solver's failure ends the run).
  virtual bool nonlinear() const = 0;
  /// Sets trial to the converged `from` with the prescribed values of the increment's end tau1
  /// (dtau long).
  virtual void begin_attempt(const NewtonIterate& from, NewtonIterate& trial, double tau1, double dtau) = 0;
  /// The forces at trial (into trial.f_int, f_ext, strain) and the out-of-balance r at the
  /// increment's end tau1.
  virtual NewtonBalance balance(const NewtonIterate& from, NewtonIterate& trial, double tau1, double dtau,
                                std::vector<double>& r) = 0;
  /// Each field's largest entry of a correction du (per equation) into du_max and of the
  /// increment's motion trial - from (per unknown) into dx_max.
  virtual void correction_sizes(const std::vector<double>& du, const NewtonIterate& from, const NewtonIterate& trial,
                                double du_max[2], double dx_max[2]) const = 0;
  /// Assembles and factors the tangent at trial (a geometrically linear problem: once). Throws
  /// SingularStiffness on a singular tangent; step_start: the step's first iteration, where a
  /// singular tangent means bad input (InputError).
  virtual void factor(const NewtonIterate& trial, bool step_start) = 0;
  /// The correction du of the out-of-balance r with the factored tangent (RunError on failure).
  virtual void solve(const std::vector<double>& r, std::vector<double>& du) = 0;
  /// Applies correction du to trial at the increment's end tau1.
  virtual void correct(const std::vector<double>& du, double tau1, NewtonIterate& trial) = 0;
  /// Called when the iterations converged at trial: a problem with multipliers (contact's
  /// augmented Lagrangian) updates them and returns true to iterate on; false: done.
  virtual bool augment(const NewtonIterate& trial) {
    (void)trial;
    return false;
  }
  /// A few words on the last balance()'s iterate and its out-of-balance r for a progress line
  /// (where the largest residual is, how many contact nodes are closed); empty: nothing to add.
  virtual std::string iterate_note(const std::vector<double>& r) const {
    (void)r;
    return {};
  }
};

/// Full Newton-Raphson with Abaqus/Standard's checks: the largest residual against the field's
/// force scale, the correction against the increment's motion, a residual that grows twice or
/// too many iterations. A failed balance, a singular tangent or a failed solve fails the
/// attempt (the caller cuts the increment back).
class NewtonSolver {
 public:
  /// Iterations on problem p (which it keeps a reference to).
  explicit NewtonSolver(NewtonProblem& p);
  /// Iterates the increment from `from` (converged) to tau1, dtau long, into `trial`;
  /// first: the step's first increment.
  NewtonOutcome solve(const NewtonIterate& from, NewtonIterate& trial, double tau1, double dtau, bool first);
  /// Progress lines on stderr, each starting with `what` ("static step 'Load' increment 3"),
  /// for the iterations of an attempt once it has run kSlowAttempt seconds (a large model's
  /// user sees the residuals fall, or not; a small model's run stays quiet); empty: none.
  void set_progress(std::string what) { progress_ = std::move(what); }

 private:
  NewtonProblem& p_;
  std::string progress_;
  std::vector<double> r_, du_;  ///< residual and correction, per equation
};

/// The time increments of an implicit step (*STATIC's data line, DIRECT): the first one,
/// growth after easy increments, cut-backs after failed attempts down to the minimum.
class IncrementControl {
 public:
  /// The controls of step (named in messages as `what`, "static step 'Load'") over period.
  IncrementControl(const Step& step, double period, std::string what);
  /// Step times the increments must end on (TIME POINTS), ascending: an increment that would
  /// pass one is shortened to end there, and the next goes on at the size before.
  void set_marks(std::vector<double> marks) { marks_ = std::move(marks); }
  /// The end of the next attempt from step time tau (the step's end or the next mark where it
  /// is close).
  double next(double tau);
  /// The increment of the latest attempt (after converged() or failed(): of the next one,
  /// unless a mark or the step's end shortens it).
  double dtau() const { return attempt_; }
  /// A failed attempt ending at tau1 (increment number `increment`): cut back, or RunError
  /// when DIRECT or below the minimum; progress: say the cut-back on stderr.
  void failed(const NewtonOutcome& n, int increment, double tau1, bool progress);
  /// A converged attempt of `iterations`: the increment grows when it and the one before were
  /// both easy.
  void converged(int iterations);

 private:
  const StaticControls& controls_;
  const double period_;
  const std::string what_;
  double dtau_;         ///< the increment the control has grown or cut to
  double attempt_ = 0;  ///< the latest attempt's: dtau_, or shorter to end on a mark or the step's end
  std::vector<double> marks_;
  int easy_in_a_row_ = 0;
};

}  // namespace halfstep
