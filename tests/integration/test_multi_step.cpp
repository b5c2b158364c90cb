// A two-step deck without field output, with every kind of drive: a regression test for the
// output schedule (an empty field schedule used to spin forever at the start of step 2); a
// load applied at once in a second explicit step: a regression test for the energy check.
#include <cstdio>
#include <fstream>
#include <string>

#include "thermal_bar.hpp"

namespace halfstep::test {
namespace {

/// Writes the bar deck into scratch folder `name` and runs it on the CPU; its output folder
/// into out (a fatal failure when the run fails).
void run_bar(const std::string& name, const std::string& deck, std::string& out) {
  const std::string dir = scratch_dir(name);
  std::ofstream(dir + "/bar.inp") << deck;
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  out = dir + "/out";
}

TEST(MultiStep, TwoStepsWithAllDrivesRunToTheEnd) {
  const std::string dir = scratch_dir("two_steps");
  std::string out;
  ASSERT_EQ(run_halfstep(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/two_steps.inp", dir, "--backend cpu", &out), 0) << out;
  const Csv h = read_csv(dir + "/history/TIP.csv");
  ASSERT_GT(h.rows.size(), 40u);
  EXPECT_NEAR(h.rows.back()[h.col("time")], 0.005, 1e-12);
  // Step 1 pulls the right edge 0.01 along x; step 2 releases it under a downward tip load.
  double min_u3 = 0;
  for (const auto& r : h.rows) min_u3 = std::min(min_u3, r[h.col("U3")]);
  EXPECT_LT(min_u3, -1.0);
}

// A load applied at once at the start of a second explicit step, the model at rest before:
// the central difference's kinetic energy at that instant holds h^2 f^2 / 2m that no work
// matches (a constant offset from then on). The check read it as an instability (100 % at the
// step's first increment); each step now starts the balance afresh as the run's first does
// (monitor_rebase), and the run ends with the balance of a load applied in step 1.
TEST(MultiStep, LoadAppliedAtOnceInALaterStepKeepsTheBalance) {
  using namespace thermal;
  std::string out;
  ASSERT_NO_FATAL_FAILURE(run_bar(
      "load_at_once", bar_deck("C3D8R", "XL, 1, 1\n", resting_explicit_step() + explicit_after("*CLOAD\nXL, 2, 12.\n")),
      out));
  const double balance = summary_number(read_file(out + "/summary.json"), "energy_balance_error");
  EXPECT_GE(balance, 0.0);
  EXPECT_LT(balance, 1e-3);
  double u1, rf1;
  ASSERT_NO_FATAL_FAILURE(end_values(out, u1, rf1));
  EXPECT_GT(last_energy(out, "external_work"), 0.0);
}

// A nonzero *BOUNDARY before the first step (as CalculiX decks write it) is prescribed in the
// first step and carried into the next: the bar stretched by d = 0.004 over L = 4 carries
// E A d / L = 200 in a static step and still after a second one.
TEST(MultiStep, ModelLevelNonzeroBoundaryIsPrescribedInTheFirstStep) {
  using namespace thermal;
  const std::string steps = "\n*STATIC\n0.5, 1.\n*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=XL\nU, RF\n*END STEP\n"
                            "*STEP\n*STATIC\n1., 1.\n*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=XL\nU, RF\n";
  std::string out;
  ASSERT_NO_FATAL_FAILURE(run_bar("model_level_value", bar_deck("C3D8", "XL, 1, 1, 0.004\n", steps), out));
  double u1, rf1;
  ASSERT_NO_FATAL_FAILURE(end_values(out, u1, rf1));
  EXPECT_NEAR(u1, 0.004, 1e-12);
  EXPECT_NEAR(rf1, kE * 0.004 / kN, 1e-6 * kE * 0.004 / kN);
}

// *BOUNDARY, FIXED: the bar stretched by an end force of 1 (u = F L / (E A) = 2e-5) in a
// first static step; in the second the force is removed and the end held where it is: it stays
// at 2e-5 (a plain hold would take it back to zero over the step) and its reaction is the force.
TEST(MultiStep, FixedBoundaryHoldsTheEndWhereTheStepStarts) {
  using namespace thermal;
  const std::string steps = "\n*STATIC\n*CLOAD\nXL, 1, 0.25\n*END STEP\n"
                            "*STEP\n*STATIC\n0.5, 1.\n*CLOAD, OP=NEW\n*BOUNDARY, FIXED\nXL, 1, 1\n"
                            "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=XL\nU, RF\n";
  std::string out;
  ASSERT_NO_FATAL_FAILURE(run_bar("boundary_fixed", bar_deck("C3D8", "", steps), out));
  double u1, rf1;
  ASSERT_NO_FATAL_FAILURE(end_values(out, u1, rf1));
  const double u = 1.0 * kN / kE;
  std::printf("FIXED end: U1 %.12g (F L / E A %.12g), RF1 %.12g\n", u1, u, rf1);
  EXPECT_NEAR(u1, u, 1e-9 * u);
  EXPECT_NEAR(rf1, 1.0, 1e-6);
}

}  // namespace
}  // namespace halfstep::test
