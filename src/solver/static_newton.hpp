// Newton's method on one increment of a static step, and the increments of the step
// (solver-internal; static_solver.cpp drives both).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "solver/static_problem.hpp"

namespace halfstep {

/// How one increment's Newton iterations ended.
struct NewtonOutcome {
  bool converged = false;
  int iterations = 0;
  std::string why;               ///< why not (for the cut-back message)
  std::vector<double> history;   ///< the largest relative residual of each iteration
};

/// Full Newton-Raphson on the consistent tangent with Abaqus/Standard's checks: the force
/// residual against the average nodal force (never below the time average of the converged
/// increments, Abaqus' q~; forces and moments on their own scales), the correction against
/// the increment's motion, a residual that grows twice or too many iterations. A non-finite
/// force, a singular tangent or a failed solve fails the attempt (the increment is cut back)
/// except a singular tangent at the step's first iteration: unconstrained dofs, bad input.
class StaticNewton {
 public:
  /// Iterations on problem p (which it keeps a reference to).
  explicit StaticNewton(StaticProblem& p);
  /// Iterates the increment from `from` (converged) to step time tau1, increment dtau, into
  /// `trial`; first: the step's first increment.
  NewtonOutcome solve(const StaticIterate& from, StaticIterate& trial, double tau1, double dtau, bool first);
  /// Takes a converged increment's internal forces into the time-averaged force scales.
  void accepted(const std::vector<double>& f_int);

 private:
  StaticProblem& p_;
  double q_time_[2] = {0, 0};  ///< summed force and moment scales of the converged increments
  std::int64_t q_count_[2] = {0, 0};
  bool factored_linear_ = false;  ///< K of a geometrically linear step is factored once per step
  std::vector<double> r_, du_;    ///< residual and correction, per equation
};

/// The step time increments of a static step (*STATIC's data line, DIRECT): the first one,
/// growth after easy increments, cut-backs after failed attempts down to the minimum.
class StaticIncrements {
 public:
  StaticIncrements(const Step& step, double period);
  /// The end of the next attempt from step time tau (the step's end where it is close).
  double next(double tau);
  /// The increment of the latest attempt.
  double dtau() const { return dtau_; }
  /// A failed attempt ending at tau1 (increment number `increment`): cut back, or RunError
  /// when DIRECT or below the minimum.
  void failed(const NewtonOutcome& n, int increment, double tau1, bool progress);
  /// A converged attempt of `iterations`: the increment grows after two easy ones in a row.
  void converged(int iterations);

 private:
  const Step& step_;
  const double period_;
  double dtau_;
  int easy_in_a_row_ = 0;
  bool cut_last_ = false;
};

}  // namespace halfstep
