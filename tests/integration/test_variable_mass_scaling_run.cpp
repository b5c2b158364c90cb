// *VARIABLE MASS SCALING in a run: a C3D8R cube squeezed to 0.6 of its height at a speed
// where its kinetic energy counts (the top starts at that speed: no jolt to blur the balance). Without the keyword the increment falls with the squeezed
// element (--dt-update shows it); with it the cube gets mass as it is squeezed, the increment
// never falls below the target, the kinetic energy that mass brings is booked
// (energy.csv's mass_scaling_work) so the balance holds, and the summary says what was added.
// What a run cannot apply is refused with its line.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

#include "run_util.hpp"
#include "squeezed_cube.hpp"

namespace halfstep::test {
namespace {

// Without bulk viscosity: its pressure would push the side nodes out, whose kinetic energy
// would then join the added mass's 0.25 checked below.
const std::string kCube = std::string("*HEADING\none C3D8R cube squeezed to 0.6 of its height at speed 1\n") + kSqueezedCubeModel + R"(*INITIAL CONDITIONS, TYPE=VELOCITY
TOP, 3, -1
*STEP
*DYNAMIC, EXPLICIT
, 0.4
SCALING
*BOUNDARY, TYPE=VELOCITY
TOP, 3, 3, -1
*BULK VISCOSITY
0., 0.
*END STEP
)";

/// The cube with `scaling` (a keyword line, or nothing) in its step, at line 36.
std::string write_cube(const std::string& dir, const std::string& name, const std::string& scaling) {
  std::string deck = kCube;
  deck.replace(deck.find("SCALING\n"), 8, scaling.empty() ? "" : scaling + "\n");
  const std::string path = dir + "/" + name;
  std::ofstream(path) << deck;
  return path;
}

double largest(const Csv& csv, const std::string& column) {
  double m = 0;
  for (const auto& row : csv.rows) m = std::max(m, row[static_cast<std::size_t>(csv.col(column))]);
  return m;
}

TEST(VariableMassScalingRun, TheIncrementStaysAtTheTargetAndTheEnergyBalanceHolds) {
  const std::string dir = scratch_dir("variable_mass_scaling_run");
  std::string out;
  // Without the keyword: the increment re-evaluated at every increment falls with the cube.
  ASSERT_EQ(run_halfstep(write_cube(dir, "plain.inp", ""), dir + "/plain", "--backend cpu --dt-update 1", &out), 0)
      << out;
  const std::string plain = read_file(dir + "/plain/summary.json");
  const double target = summary_number(plain, "stable_increment_estimate");
  const double used = summary_number(plain, "increment");  // the step's first
  ASSERT_GT(target, 0) << plain;
  EXPECT_LT(summary_number(plain, "smallest_increment"), 0.85 * used) << plain;  // sqrt(3 / (2 + 1 / 0.36)) = 0.79

  // With it, the undeformed increment as the target: every increment is the first one's.
  char line[128];
  std::snprintf(line, sizeof line, "*VARIABLE MASS SCALING, DT=%.17g, TYPE=BELOW MIN, FREQUENCY=1", target);
  // Not --quiet: the log's one line for the run is checked too.
  ASSERT_EQ(run_command(std::string(HALFSTEP_BINARY) + " run " + write_cube(dir, "scaled.inp", line) + " -o " + dir +
                            "/scaled --backend cpu --dt-update 1",
                        &out),
            0)
      << out;
  const std::string scaled = read_file(dir + "/scaled/summary.json");
  EXPECT_GE(summary_number(scaled, "smallest_increment"), used * (1 - 1e-12)) << scaled;
  EXPECT_NEAR(summary_number(scaled, "time_increment"), used, 1e-12 * used) << scaled;
  EXPECT_NE(out.find("*VARIABLE MASS SCALING: 26 re-evaluations; at the end 1 elements scaled"), std::string::npos)
      << out;
  EXPECT_GT(summary_number(scaled, "re_evaluations"), 20) << scaled;
  EXPECT_EQ(summary_number(scaled, "elements_scaled"), 1) << scaled;
  // Squeezed to 0.6 the cube needs 1 / 0.79^2 = 1.6 times its mass (one increment before: a
  // little less); the squeeze only grows, so the mass now is the most it had.
  const double added = summary_number(scaled, "added_mass_now");
  EXPECT_GT(added, 0.5) << scaled;
  EXPECT_LT(added, 0.6) << scaled;
  EXPECT_EQ(summary_number(scaled, "added_mass_max"), added) << scaled;

  // The top nodes move at 1 and take half the added mass: 0.25 of it in kinetic energy that no
  // force supplied. Booked as mass_scaling_work, the balance holds to a small part of it.
  const double work = summary_number(scaled, "mass_scaling_work");
  EXPECT_NEAR(work, 0.25 * added, 1e-9 * added) << scaled;
  const Csv energy = read_csv(dir + "/scaled/energy.csv");
  ASSERT_GE(energy.col("mass_scaling_work"), 0);
  EXPECT_EQ(energy.rows.back()[static_cast<std::size_t>(energy.col("mass_scaling_work"))], work);
  const double scale = largest(energy, "internal");
  ASSERT_GT(scale, 40);
  // Unbooked, the work alone would be 2.8e-3 of the scale; the unscaled run's error is 3.3e-4.
  EXPECT_LT(summary_number(scaled, "energy_balance_error"), 0.3 * work / scale) << scaled;
}

TEST(VariableMassScalingRun, AStaticStepIsRefusedWithItsLine) {
  const std::string dir = scratch_dir("variable_mass_scaling_static");
  std::string deck = kCube;
  deck.replace(deck.find("SCALING\n"), 8, "");
  deck += "*STEP\n*STATIC\n0.1, 1\n*VARIABLE MASS SCALING, DT=0.02, FREQUENCY=10\n*END STEP\n";  // line 44
  const std::string path = dir + "/static.inp";
  std::ofstream(path) << deck;
  std::string out;
  EXPECT_EQ(run_halfstep(path, dir + "/out", "--backend cpu", &out), 2) << out;
  EXPECT_NE(out.find("static.inp:44: error: *VARIABLE MASS SCALING belongs in an explicit dynamic step"),
            std::string::npos)
      << out;
}

TEST(VariableMassScalingRun, ConstraintsAreRefusedWithTheLine) {
  const std::string dir = scratch_dir("variable_mass_scaling_constrained");
  std::string deck = kCube;
  deck.replace(deck.find("SCALING\n"), 8, "*VARIABLE MASS SCALING, DT=0.02, FREQUENCY=10\n");
  deck.replace(deck.find("*STEP"), 5, "*EQUATION\n2\n6, 1, 1.0, 7, 1, -1.0\n*STEP");  // the keyword moves to line 39
  const std::string path = dir + "/tied.inp";
  std::ofstream(path) << deck;
  std::string out;
  EXPECT_EQ(run_halfstep(path, dir + "/out", "--backend cpu", &out), 2) << out;
  EXPECT_NE(out.find("tied.inp:39: error: *VARIABLE MASS SCALING is not supported with *TIE, *EQUATION"),
            std::string::npos)
      << out;
}

}  // namespace
}  // namespace halfstep::test
