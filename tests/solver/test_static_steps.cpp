// Static steps (*STATIC) through the whole analysis: the reader, the step loads, the Newton
// driver with its cut-backs, the CPU tangent engine and the frames, against outside references.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "static_util.hpp"
#include "core/error.hpp"
#include "io/inp_reader.hpp"
#include "results/result_sink.hpp"
#include "solver/explicit_solver.hpp"

namespace halfstep {
namespace {

using test::Capture;
using test::last_field;
using test::run_deck;
using test::static_cantilever;
using test::u_of;

constexpr double kP = 1e5;
/// Beam theory with shear for the seed's beam: PL^3/(3EI) + PL/(kGA), k = 5/6.
const double kTimoshenko = kP * 1000 / (3 * 210e9 / 12) + kP * 10 / (5.0 / 6 * 210e9 / 2.6);

const char* kLinearStep = "*STEP, NAME=LOAD\n*STATIC\n1, 1\n%LOADS%*OUTPUT, FIELD\n*NODE OUTPUT\nU, RF\n*END STEP\n";

}  // namespace

TEST(StaticReader, DataLineAndDefaults) {
  const Model m = read_inp_string(static_cantilever(4, 2, kP,
                                                    "*STEP, NLGEOM=YES, INC=50\n*STATIC\n0.1, 2, 1e-4, 0.5\n%LOADS%*END STEP\n"
                                                    "*STEP\n*STATIC\n*END STEP\n"),
                                  "mem/a.inp");
  ASSERT_EQ(m.steps.size(), 2u);
  const Step& a = m.steps[0];
  EXPECT_EQ(a.procedure, Procedure::Static);
  EXPECT_TRUE(a.nlgeom);
  EXPECT_EQ(a.controls.max_increments, 50);
  EXPECT_DOUBLE_EQ(a.time_period, 2.0);
  EXPECT_DOUBLE_EQ(a.controls.initial, 0.1);
  EXPECT_DOUBLE_EQ(a.controls.minimum, 1e-4);
  EXPECT_DOUBLE_EQ(a.controls.maximum, 0.5);
  const Step& b = m.steps[1];  // no data line: one increment of a unit period; NLGEOM stays on
  EXPECT_TRUE(b.nlgeom);
  EXPECT_DOUBLE_EQ(b.time_period, 1.0);
  EXPECT_DOUBLE_EQ(b.controls.initial, 1.0);
  EXPECT_DOUBLE_EQ(b.controls.maximum, 1.0);
  const Model lin = read_inp_string(static_cantilever(4, 2, kP, kLinearStep), "mem/b.inp");
  EXPECT_FALSE(lin.steps[0].nlgeom);  // Abaqus/Standard's default
}

TEST(StaticReader, BadInputNamesTheLine) {
  const auto error_of = [](const std::string& steps) {
    try {
      read_inp_string(static_cantilever(4, 2, kP, steps), "mem/bad.inp");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of("*STEP\n*STATIC\n0.1, -1\n*END STEP\n").find("time period must be positive"), std::string::npos);
  EXPECT_NE(error_of("*STEP\n*STATIC\n2, 1\n*END STEP\n").find("initial time increment must be positive and at most"),
            std::string::npos);
  EXPECT_NE(error_of("*STEP\n*STATIC\n0.1, 1, 0.5\n*END STEP\n").find("minimum time increment"), std::string::npos);
  EXPECT_NE(error_of("*STEP\n*STATIC\n0.5, 1, 0.1, 0.2\n*END STEP\n").find("maximum time increment"), std::string::npos);
  EXPECT_NE(error_of("*STEP\n*STATIC\n0.5, abc\n*END STEP\n").find("mem/bad.inp:"), std::string::npos);
  EXPECT_NE(error_of("*STEP\n*STATIC\n*DYNAMIC, EXPLICIT\n, 1\n*END STEP\n").find("a second procedure"),
            std::string::npos);
  EXPECT_NE(error_of("*STEP\n*END STEP\n").find("has no procedure"), std::string::npos);
  EXPECT_NE(error_of("*STEP, NLGEOM=MAYBE\n*STATIC\n*END STEP\n").find("NLGEOM=MAYBE"), std::string::npos);
  EXPECT_NE(error_of("*STEP, NLGEOM=NO\n*DYNAMIC, EXPLICIT\n, 1\n*END STEP\n").find("explicit steps always"),
            std::string::npos);
  EXPECT_NE(error_of("*STEP, INC=0\n*STATIC\n*END STEP\n").find("INC=0"), std::string::npos);
  EXPECT_NE(error_of("*STEP\n*STATIC, RIKS\n*END STEP\n").find("RIKS"), std::string::npos);
}

// The deck path gives exactly the discrete solution of an independent Q4 code
// (validation/cantilever_q4.py, same mesh and loads), with each CPU solver.
TEST(StaticCantilever, LinearMatchesIndependentQ4Solve) {
  for (LinearSolverKind k : {LinearSolverKind::Auto, LinearSolverKind::Ldlt, LinearSolverKind::Cg}) {
    Capture c;
    const RunSummary s = run_deck(static_cantilever(40, 4, kP, kLinearStep), c, k);
    EXPECT_EQ(s.statics.increments, 1);
    EXPECT_EQ(s.statics.iterations, 1) << "a linear step converges in one iteration";
    const double tip = u_of(last_field(c), 1 + 40 + 41 * 2, 1);
    EXPECT_NEAR(tip, test::kCantileverQ4Tip, (k == LinearSolverKind::Cg ? 1e-6 : 1e-9) * test::kCantileverQ4Tip)
        << linear_solver_name(k);
  }
}

// Seed 004's acceptance: the tip deflection on a converged mesh within 1 % of beam theory with
// shear. Full-integration Q4 with 20 square elements through the depth is 0.3 % stiff.
TEST(StaticCantilever, ConvergedMeshWithinOnePercentOfTimoshenko) {
  Capture c;
  const RunSummary s = run_deck(static_cantilever(200, 20, kP, kLinearStep), c);
  const ResultFrame& f = last_field(c);
  const double tip = u_of(f, 1 + 200 + 201 * 10, 1);
  EXPECT_NEAR(tip / kTimoshenko, 1.0, 0.01) << tip << " vs " << kTimoshenko;
  std::printf("seed 004 cantilever, CPS4 200 x 20: tip %.6e, Timoshenko %.6e (%+.3f %%)\n", tip, kTimoshenko,
              100 * (tip / kTimoshenko - 1));
  // The root reactions balance the load.
  const FieldArray* rf = f.fields.find_point("RF");
  ASSERT_NE(rf, nullptr);
  double sum = 0;
  for (int j = 0; j <= 20; ++j) sum += rf->values[3 * static_cast<std::size_t>(201 * j) + 1];
  EXPECT_NEAR(sum, -kP, 1e-9 * kP);
  EXPECT_GT(s.statics.matrices, 0);
  EXPECT_GT(s.statics.nonzeros, 0);
}

// A large tip load (PL^2/EI = 1) in NLGEOM increments: Newton's residuals fall quadratically,
// and the tip reaches the elastica (Bisshopp & Drucker 1945: vertical 0.3017 L, horizontal
// 0.0566 L), less what shear and the finite depth (L/h = 10) take off.
TEST(StaticCantilever, LargeDeflectionQuadraticNewtonAndElastica) {
  const double P = 210e9 / 12 / 100;  // PL^2/EI = 1
  Capture c;
  const RunSummary s = run_deck(
      static_cantilever(100, 10, P, "*STEP, NLGEOM=YES, EXTRAPOLATION=NO\n*STATIC\n0.25, 1\n%LOADS%*OUTPUT, FIELD\n*NODE OUTPUT\nU\n*END STEP\n"), c);
  const ResultFrame& f = last_field(c);
  const int tip = 1 + 100 + 101 * 5;
  const double v = u_of(f, tip, 1) / 10, h = -u_of(f, tip, 0) / 10;
  std::printf("elastica PL^2/EI = 1, CPS4 100 x 10: v/L %.5f (0.3017), h/L %.5f (0.0566)\n", v, h);
  EXPECT_NEAR(v, 0.3017, 0.01 * 0.3017);  // measured +0.3 %
  EXPECT_NEAR(h, 0.0566, 0.02 * 0.0566);  // measured +0.1 %
  EXPECT_EQ(s.statics.cutbacks, 0);
  // The residuals are relative to the force scale, the mean magnitude of the elements' own
  // nodal forces (Abaqus's and CalculiX's), so e_k <= C e_(k-1)^2 reads with C in units of
  // 1 / scale: measured per increment (without the extrapolated starts, which leave one or
  // two iterations each) 1.6, 5.0, 0.22, 3.4e-5 / 0.55, 4.2, 0.098, 1.7e-3, 1.0e-5 / 0.40,
  // 4.3, 0.21, 9.3e-3, 8.4e-4 / 0.075, 0.72, 1.4e-3, 1.1e-4, 6.1e-10.
  int quadratic = 0;
  for (const std::vector<double>& r : s.statics.residuals)
    for (std::size_t k = 2; k < r.size(); ++k)
      if (r[k - 1] < 1e-3 && r[k - 1] > 1e-12) {
        // e_{k} <= C e_{k-1}^2 with a modest C: the tangent is the exact derivative.
        EXPECT_LT(r[k], 100 * r[k - 1] * r[k - 1]) << "iteration " << k;
        ++quadratic;
      }
  EXPECT_GT(quadratic, 0);
}

// Each increment after the first starts from the last one's change scaled to its length
// (*STEP, EXTRAPOLATION=LINEAR, the default): on the elastica's smooth path that saves Newton
// iterations and reaches the same tip within the Newton test's own accuracy.
TEST(StaticCantilever, ExtrapolatedIncrementsReachTheSameTipInFewerIterations) {
  const double P = 210e9 / 12 / 100;  // PL^2/EI = 1
  double tip[2];
  std::int64_t iterations[2];
  const char* steps[2] = {"*STEP, NLGEOM=YES\n", "*STEP, NLGEOM=YES, EXTRAPOLATION=NO\n"};
  for (int k = 0; k < 2; ++k) {
    Capture c;
    const RunSummary s = run_deck(static_cantilever(100, 10, P, std::string(steps[k]) +
                                                    "*STATIC\n0.25, 1\n%LOADS%*OUTPUT, FIELD\n*NODE OUTPUT\nU\n*END STEP\n"),
                                  c);
    tip[k] = u_of(last_field(c), 1 + 100 + 101 * 5, 1);
    iterations[k] = s.statics.iterations;
    EXPECT_EQ(s.statics.cutbacks, 0);
  }
  std::printf("elastica in 4 increments: %lld iterations extrapolated, %lld from the last state; tips %.9g, %.9g\n",
              static_cast<long long>(iterations[0]), static_cast<long long>(iterations[1]), tip[0], tip[1]);
  EXPECT_LT(iterations[0], iterations[1]);
  EXPECT_NEAR(tip[0], tip[1], 1e-5 * std::fabs(tip[1]));  // measured 1.4e-6: 13 and 15 iterations
}

// One increment for the whole large load is too much for Newton from the straight beam: the
// driver cuts back and still reaches the same converged state (elasticity has no path).
TEST(StaticCantilever, CutBackReachesTheSameAnswer) {
  const double P = 3 * 210e9 / 12 / 100;  // PL^2/EI = 3
  Capture a, b;
  const RunSummary sa = run_deck(
      static_cantilever(40, 4, P, "*STEP, NLGEOM=YES\n*STATIC\n1, 1\n%LOADS%*OUTPUT, FIELD\n*NODE OUTPUT\nU\n*END STEP\n"), a);
  const RunSummary sb = run_deck(
      static_cantilever(40, 4, P, "*STEP, NLGEOM=YES\n*STATIC\n0.05, 1, 1e-5, 0.05\n%LOADS%*OUTPUT, FIELD\n*NODE OUTPUT\nU\n*END STEP\n"),
      b);
  EXPECT_GT(sa.statics.cutbacks, 0);
  EXPECT_EQ(sb.statics.increments, 20);
  const int tip = 1 + 40 + 41 * 2;
  // Both stop within Abaqus' residual tolerance (5e-3 of the force scale), which leaves a few
  // 1e-7 of the displacement.
  const double ua = u_of(last_field(a), tip, 1), ub = u_of(last_field(b), tip, 1);
  EXPECT_NEAR(ua, ub, 1e-5 * std::fabs(ub));
  // A frame per converged increment, plus the initial one.
  EXPECT_EQ(b.frames_written(), 21);
}

TEST(StaticCantilever, MinimumIncrementStopsWithTheReason) {
  const double P = 3 * 210e9 / 12 / 100;
  Capture c;
  try {
    run_deck(static_cantilever(40, 4, P, "*STEP, NLGEOM=YES\n*STATIC\n1, 1, 1\n%LOADS%*END STEP\n"), c);
    FAIL() << "expected a RunError";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("below the minimum"), std::string::npos) << e.what();
  }
}

TEST(StaticCantilever, UnconstrainedModelIsASingularStiffness) {
  // No boundary condition at all: found before any factorization.
  std::string deck = static_cantilever(4, 2, kP, kLinearStep);
  deck.replace(deck.find("*BOUNDARY\nROOT, 1, 2\n"), 20, "");
  Capture c;
  try {
    run_deck(deck, c);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("singular stiffness: unconstrained dofs at nodes 1, 2, 3"), std::string::npos)
        << e.what();
  }
  // Held at one node only: the part can still turn about it, which the factorization finds.
  deck = static_cantilever(4, 2, kP, kLinearStep);
  deck.replace(deck.find("*BOUNDARY\nROOT, 1, 2\n"), 20, "*BOUNDARY\n1, 1, 2\n");
  for (LinearSolverKind k : {LinearSolverKind::Auto, LinearSolverKind::Ldlt}) {
    try {
      run_deck(deck, c, k);
      FAIL() << "expected an InputError";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("singular stiffness: unconstrained dofs at node"), std::string::npos)
          << e.what();
    }
  }
}

// A static preload, then an explicit step with the load held: the dynamic step starts at rest
// in equilibrium, so nothing moves (the state, not just the time, is carried over).
TEST(StaticCantilever, StaticThenExplicitStaysInEquilibrium) {
  Capture c;
  run_deck(static_cantilever(20, 2, kP,
                             "*STEP\n*STATIC\n%LOADS%*OUTPUT, FIELD\n*NODE OUTPUT\nU\n*END STEP\n"
                             "*STEP\n*DYNAMIC, EXPLICIT\n, 2e-3\n*OUTPUT, FIELD\n*NODE OUTPUT\nU\n*END STEP\n"),
           c);
  const int tip = 1 + 20 + 21;
  double static_tip = 0;
  for (const ResultFrame& f : c.frames)
    if (f.field && f.time == 1.0) static_tip = u_of(f, tip, 1);
  ASSERT_NE(static_tip, 0.0);
  const double end_tip = u_of(last_field(c), tip, 1);
  EXPECT_GT(last_field(c).time, 1.0019);
  EXPECT_NEAR(end_tip, static_tip, 1e-6 * std::fabs(static_tip));
}

// Loads ramp over a static step from their previous value; carried loads stay constant.
TEST(StaticCantilever, LoadsRampFromThePreviousStep) {
  Capture c;
  run_deck(static_cantilever(20, 2, kP,
                             "*STEP\n*STATIC\n0.5, 1\n%LOADS%*OUTPUT, FIELD\n*NODE OUTPUT\nU\n*END STEP\n"
                             "*STEP\n*STATIC\n0.5, 1\n*CLOAD\nTIP, 1, 0\n*OUTPUT, FIELD\n*NODE OUTPUT\nU\n*END STEP\n"),
           c);
  const int tip = 1 + 20 + 21;
  std::vector<double> t, v;
  for (const ResultFrame& f : c.frames)
    if (f.field) {
      t.push_back(f.time);
      v.push_back(u_of(f, tip, 1));
    }
  ASSERT_EQ(t.size(), 5u);  // 0, 0.5, 1, 1.5, 2
  EXPECT_NEAR(v[1], 0.5 * v[2], 1e-9 * std::fabs(v[2]));  // linear: half the load at half the step
  EXPECT_NEAR(v[3], v[2], 1e-9 * std::fabs(v[2]));        // carried load, nothing changes
  EXPECT_NEAR(v[4], v[2], 1e-9 * std::fabs(v[2]));
}

// A named amplitude scales a static load by its value at the step time (here 2 at the end).
TEST(StaticCantilever, NamedAmplitudeScalesTheLoad) {
  Capture c;
  std::string deck = static_cantilever(40, 4, kP, "*STEP\n*STATIC\n0.5, 1\n%LOADS%*OUTPUT, FIELD\n*NODE OUTPUT\nU\n*END STEP\n");
  deck.replace(deck.find("*CLOAD\n"), 7, "*CLOAD, AMPLITUDE=TWICE\n");
  deck.replace(deck.find("*BOUNDARY"), 0, "*AMPLITUDE, NAME=TWICE\n0, 0, 1, 2\n");
  run_deck(deck, c);
  EXPECT_NEAR(u_of(last_field(c), 1 + 40 + 41 * 2, 1), 2 * test::kCantileverQ4Tip, 1e-9 * test::kCantileverQ4Tip);
}

// Explicit, then static, then explicit: the static step's work is outside the explicit energy
// balance, so the balance starts afresh after it instead of reporting a drift.
TEST(StaticCantilever, ExplicitStaticExplicitKeepsTheEnergyBalance) {
  Capture c;
  const RunSummary s = run_deck(static_cantilever(20, 2, kP,
                                                  "*STEP\n*DYNAMIC, EXPLICIT\n, 2e-2\n%LOADS%*END STEP\n"
                                                  "*STEP\n*STATIC\n*CLOAD\nTIP, 2, 3e5\n*END STEP\n"
                                                  "*STEP\n*DYNAMIC, EXPLICIT\n, 2e-2\n*END STEP\n"),
                                c);
  EXPECT_EQ(s.statics.steps, 1);
  EXPECT_GT(s.steps, 0);
  EXPECT_EQ(s.status, "completed");
  // The run's balance (summary.json's energy_balance_error): the largest drift of the total
  // from the value it had when each explicit step started, over the largest energy reached.
  // Measured 1.66e-5 (the ringing of the loaded beam in the third step); a balance that did
  // not restart after the static step would carry the static step's work (~0.9 of the scale).
  EXPECT_LT(s.energy_error, 3.5e-5) << s.energy_error;
  // The energy rows (energy.csv) of each explicit step: the total stays at the step's first
  // value: measured 1.2e-5 (step 1) and 1.66e-5 (step 3) of the step's largest energy.
  for (int step : {1, 3}) expect_step_total_held(c, step, 3.5e-5);
}

}  // namespace halfstep
