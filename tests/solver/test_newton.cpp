// Newton's method and the increment control apart from any structure (src/solver/newton.hpp):
// one-unknown problems with known roots and known Newton sequences, Abaqus/Standard's checks
// and the cut-back rules.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "linear/tangent_engine.hpp"
#include "solver/newton.hpp"

namespace halfstep {
namespace {

/// One unknown x (field 0, forces): f_int(x) against f_ext(tau), tangent f_int'(x).
class ScalarProblem final : public NewtonProblem {
 public:
  std::function<double(double)> f_int, stiffness;
  std::function<double(double)> f_ext = [](double) { return 0.0; };
  bool is_nonlinear = true;
  std::string failure;          ///< balance() reports it when set
  std::string solver_failure;   ///< solve() throws RunError with it when set
  std::vector<bool> step_starts;  ///< factor()'s step_start flags, in order
  double k_ = 0;

  int equations() const override { return 1; }
  bool nonlinear() const override { return is_nonlinear; }
  void begin_attempt(const NewtonIterate& from, NewtonIterate& trial, double, double) override { trial = from; }
  NewtonBalance balance(const NewtonIterate&, NewtonIterate& trial, double tau1, double,
                        std::vector<double>& r) override {
    NewtonBalance b;
    b.failure = failure;
    trial.f_int = {f_int(trial.x[0])};
    trial.f_ext = {f_ext(tau1)};
    r[0] = trial.f_ext[0] - trial.f_int[0];
    b.residual[0] = std::fabs(r[0]);
    b.scale[0] = std::max(std::fabs(trial.f_int[0]), std::fabs(trial.f_ext[0]));
    return b;
  }
  void correction_sizes(const std::vector<double>& du, const NewtonIterate& from, const NewtonIterate& trial,
                        double du_max[2], double dx_max[2]) const override {
    du_max[0] = std::fabs(du[0]);
    dx_max[0] = std::fabs(trial.x[0] - from.x[0]);
    du_max[1] = dx_max[1] = 0;
  }
  void factor(const NewtonIterate& trial, bool step_start) override {
    step_starts.push_back(step_start);
    k_ = stiffness(trial.x[0]);
    if (k_ == 0) throw SingularStiffness(0, "zero pivot at equation 1");
  }
  void solve(const std::vector<double>& r, std::vector<double>& du) override {
    if (!solver_failure.empty()) throw RunError(solver_failure);
    du[0] = r[0] / k_;
  }
  void correct(const std::vector<double>& du, double, NewtonIterate& trial) override { trial.x[0] += du[0]; }
};

NewtonIterate at(double x) {
  NewtonIterate s;
  s.x = {x};
  return s;
}

TEST(Newton, AHardeningSpringConvergesQuadraticallyToItsRoot) {
  // x + x^3 = 10 has the one real root x = 2.
  ScalarProblem p;
  p.f_int = [](double x) { return x + x * x * x; };
  p.stiffness = [](double x) { return 1 + 3 * x * x; };
  p.f_ext = [](double tau) { return 10 * tau; };
  NewtonSolver newton(p);
  NewtonIterate trial;
  const NewtonOutcome n = newton.solve(at(0), trial, 1.0, 1.0, true);
  ASSERT_TRUE(n.converged) << n.why;
  EXPECT_NEAR(trial.x[0], 2.0, 1e-3);
  EXPECT_EQ(n.history.size(), static_cast<std::size_t>(n.iterations) + 1);
  // The last relative residual against the one before: quadratic (e+ ~ 0.35 e^2 here).
  const std::size_t m = n.history.size();
  ASSERT_GE(m, 3u);
  EXPECT_LT(n.history[m - 2], 0.1);
  EXPECT_LE(n.history[m - 1], n.history[m - 2] * n.history[m - 2]);
  // Only the step's first iteration is the step's start.
  ASSERT_FALSE(p.step_starts.empty());
  EXPECT_TRUE(p.step_starts.front());
  for (std::size_t i = 1; i < p.step_starts.size(); ++i) EXPECT_FALSE(p.step_starts[i]);
}

TEST(Newton, AStateInBalanceConvergesWithoutAnIteration) {
  ScalarProblem p;
  p.f_int = [](double x) { return 3 * x; };
  p.stiffness = [](double) { return 3.0; };
  p.f_ext = [](double) { return 6.0; };
  NewtonSolver newton(p);
  NewtonIterate trial;
  const NewtonOutcome n = newton.solve(at(2), trial, 1.0, 1.0, false);
  EXPECT_TRUE(n.converged);
  EXPECT_EQ(n.iterations, 0);
  EXPECT_TRUE(p.step_starts.empty());
}

// A mechanism moved into place: no force is left at the root (f_ext and f_int both vanish),
// so the iterate's own force scale falls with the residual and never judges it small. The
// attempt's largest scale (the first trial's 1e5) sets the zero-flux floor, Abaqus's
// epsilon_l = 1e-5 of it: a tangent 1e-4 off converges in two corrections.
TEST(Newton, ForcesThatVanishAtTheRootAreJudgedOnTheAttemptsScale) {
  ScalarProblem p;
  p.f_int = [](double x) { return 1e5 * (x - 1); };
  p.stiffness = [](double) { return 1.0001e5; };
  NewtonSolver newton(p);
  NewtonIterate trial;
  const NewtonOutcome n = newton.solve(at(0), trial, 1.0, 1.0, true);
  ASSERT_TRUE(n.converged) << n.why;
  EXPECT_LE(n.iterations, 3);
  EXPECT_NEAR(trial.x[0], 1.0, 1e-7);
}

TEST(Newton, AResidualGrowingTwiceInARowFailsTheAttempt) {
  // atan(x) = 0 from x = 1.5: Newton's iterates leave the root (|atan| 0.98, 1.04, 1.16, ...);
  // the check starts after Abaqus's I_0 = 4 iterations, so the attempt ends at the fourth.
  ScalarProblem p;
  p.f_int = [](double x) { return std::atan(x); };
  p.stiffness = [](double x) { return 1 / (1 + x * x); };
  NewtonSolver newton(p);
  NewtonIterate trial;
  const NewtonOutcome n = newton.solve(at(1.5), trial, 1.0, 1.0, false);
  EXPECT_FALSE(n.converged);
  EXPECT_EQ(n.why, "the residual grew in two consecutive iterations");
  EXPECT_EQ(n.iterations, 4);
}

TEST(Newton, ACycleEndsAfterSixteenIterations) {
  // x^3 - 2x + 2 = 0 from x = 0: Newton cycles 0, 1, 0, 1, ... (residuals 2, 1, 2, 1).
  ScalarProblem p;
  p.f_int = [](double x) { return x * x * x - 2 * x; };
  p.stiffness = [](double x) { return 3 * x * x - 2; };
  p.f_ext = [](double) { return -2.0; };
  NewtonSolver newton(p);
  NewtonIterate trial;
  const NewtonOutcome n = newton.solve(at(0), trial, 1.0, 1.0, false);
  EXPECT_FALSE(n.converged);
  EXPECT_EQ(n.why, "no convergence in 16 iterations");
  EXPECT_EQ(n.iterations, 16);
}

TEST(Newton, TheProblemsFailuresFailTheAttemptWithTheirCause) {
  ScalarProblem p;
  p.f_int = [](double x) { return x; };
  p.stiffness = [](double) { return 0.0; };
  p.f_ext = [](double) { return 1.0; };
  NewtonIterate trial;
  {
    NewtonSolver newton(p);
    const NewtonOutcome n = newton.solve(at(0), trial, 1.0, 1.0, false);
    EXPECT_FALSE(n.converged);
    EXPECT_EQ(n.why, "the tangent is singular (zero pivot at equation 1)");
  }
  p.failure = "the applied load at node 3 dof 1 is not finite (nan)";
  {
    NewtonSolver newton(p);
    const NewtonOutcome n = newton.solve(at(0), trial, 1.0, 1.0, false);
    EXPECT_FALSE(n.converged);
    EXPECT_EQ(n.why, p.failure);
    EXPECT_EQ(n.iterations, 0);
  }
  p.failure.clear();
  p.stiffness = [](double) { return 1.0; };
  p.solver_failure = "CG broke down";
  {
    NewtonSolver newton(p);
    const NewtonOutcome n = newton.solve(at(0), trial, 1.0, 1.0, false);
    EXPECT_EQ(n.why, "the linear solver failed (CG broke down)");
  }
  p.is_nonlinear = false;  // a linear problem has nothing to cut back: the failure ends the run
  {
    NewtonSolver newton(p);
    EXPECT_THROW(newton.solve(at(0), trial, 1.0, 1.0, false), RunError);
  }
  p.solver_failure.clear();
  p.is_nonlinear = true;
  p.stiffness = [](double) { return std::numeric_limits<double>::denorm_min(); };  // 1 / k overflows
  {
    NewtonSolver newton(p);
    const NewtonOutcome n = newton.solve(at(0), trial, 1.0, 1.0, false);
    EXPECT_EQ(n.why, "the linear solve gave a non-finite correction");
  }
}

Step static_step(double initial, double minimum, double maximum, bool direct = false) {
  Step s;
  s.name = "Load";
  s.procedure = Procedure::Static;
  s.controls.initial = initial;
  s.controls.minimum = minimum;
  s.controls.maximum = maximum;
  s.controls.direct = direct;
  return s;
}

NewtonOutcome failed_with(const std::string& why) {
  NewtonOutcome n;
  n.why = why;
  return n;
}

TEST(IncrementControl, GrowsAfterTwoEasyIncrementsAndCutsBackByAQuarter) {
  const Step step = static_step(0.1, 1e-5, 0.3);
  IncrementControl c(step, 1.0, "static step 'Load'");
  EXPECT_DOUBLE_EQ(c.next(0.0), 0.1);
  c.converged(3);
  EXPECT_DOUBLE_EQ(c.dtau(), 0.1);
  c.converged(4);
  EXPECT_DOUBLE_EQ(c.dtau(), 0.15);  // two easy ones in a row: x 1.5
  c.converged(5);
  c.converged(2);
  EXPECT_DOUBLE_EQ(c.dtau(), 0.15);  // a hard one breaks the run of easy ones
  c.converged(2);
  EXPECT_DOUBLE_EQ(c.dtau(), 0.225);
  c.converged(1);
  c.converged(1);
  EXPECT_DOUBLE_EQ(c.dtau(), 0.3);  // capped at the maximum
  c.failed(failed_with("no convergence in 16 iterations"), 7, 0.9, false);
  EXPECT_DOUBLE_EQ(c.dtau(), 0.075);
  c.converged(1);  // the count of easy increments starts again after a cut-back
  EXPECT_DOUBLE_EQ(c.dtau(), 0.075);
  c.converged(1);
  EXPECT_DOUBLE_EQ(c.dtau(), 0.1125);
  // The step's end is hit exactly.
  EXPECT_DOUBLE_EQ(c.next(0.95), 1.0);
  EXPECT_NEAR(c.dtau(), 0.05, 1e-15);
}

// TIME POINTS: an increment that would pass a mark ends on it, the next goes on at the size
// before; a failed attempt at a mark is cut back from its own (shortened) size.
TEST(IncrementControl, EndsIncrementsOnTheMarksAndGoesOnAtTheSizeBefore) {
  const Step step = static_step(0.2, 1e-5, 1.0);
  IncrementControl c(step, 1.0, "static step 'Load'");
  c.set_marks({0.25, 0.5});
  EXPECT_DOUBLE_EQ(c.next(0.0), 0.2);
  c.converged(10);
  EXPECT_DOUBLE_EQ(c.next(0.2), 0.25);
  EXPECT_NEAR(c.dtau(), 0.05, 1e-15);
  c.converged(10);
  EXPECT_DOUBLE_EQ(c.dtau(), 0.2);
  EXPECT_DOUBLE_EQ(c.next(0.25), 0.45);
  c.converged(10);
  EXPECT_DOUBLE_EQ(c.next(0.45), 0.5);
  c.failed(failed_with("no convergence in 16 iterations"), 4, 0.5, false);
  EXPECT_NEAR(c.dtau(), 0.0125, 1e-15);
  EXPECT_NEAR(c.next(0.45), 0.4625, 1e-15);
  // A mark within round-off of an increment's end is that end, not a sliver after it.
  IncrementControl d(step, 1.0, "static step 'Load'");
  d.set_marks({0.2 + 1e-12});
  EXPECT_DOUBLE_EQ(d.next(0.0), 0.2 + 1e-12);
  d.converged(10);
  EXPECT_NEAR(d.next(0.2 + 1e-12), 0.4 + 1e-12, 1e-15);
}

TEST(IncrementControl, RefusesACutBackBelowTheMinimumOrUnderDirect) {
  const Step step = static_step(0.1, 0.05, 1.0);
  IncrementControl c(step, 1.0, "static step 'Load'");
  c.next(0.0);
  try {
    c.failed(failed_with("the residual grew in two consecutive iterations"), 0, 0.1, false);
    FAIL() << "a cut-back to 0.025 below the minimum 0.05 was taken";
  } catch (const RunError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("static step 'Load', increment 1: the residual grew"), std::string::npos) << m;
    EXPECT_NE(m.find("below the minimum 0.05"), std::string::npos) << m;
  }
  const Step direct = static_step(0.25, 1e-5, 1.0, true);
  IncrementControl d(direct, 1.0, "static step 'Load'");
  d.next(0.0);
  d.converged(1);
  d.converged(1);
  EXPECT_DOUBLE_EQ(d.dtau(), 0.25);  // DIRECT never grows
  try {
    d.failed(failed_with("no convergence in 16 iterations"), 2, 0.75, false);
    FAIL() << "DIRECT cut back";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("DIRECT incrementation does not cut back"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace halfstep
