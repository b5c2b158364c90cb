// *VARIABLE MASS SCALING in a run: a C3D8R cube squeezed to 0.6 of its height at a speed
// where its kinetic energy counts (the top starts at that speed: no jolt to blur the balance). Without the keyword the increment falls with the squeezed
// element (--dt-update shows it); with it the cube gets mass as it is squeezed, the increment
// never falls below the target, the kinetic energy that mass brings is booked
// (energy.csv's mass_scaling_work) so the balance holds, and the summary says what was added.
// What a run cannot apply is refused with its line; ties and rigid bodies take the scaled
// masses (closed forms below).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
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

// Two unit C3D8R cubes (rho = 1), B on top of A (kUnitCubeMesh's CUBE), B's bottom face tied to A's top (coincident
// nodes: each slave follows one master with weight 1), free in space, pulled up by F on B's
// top. The masses are scaled once, at the step's start, uniformly by f (DT well above the
// increment, a FREQUENCY beyond the step): the tie hands each slave's scaled mass to its
// master, so the independent nodes carry f/8 (A's bottom, B's top) and f/4 (A's top), and
// the momentum the force gives them is exact in the central difference at a fixed increment:
// sum of m_i u_i = F t^2 / 2, whatever the cubes ring with.
TEST(VariableMassScalingRun, ATieHandsOnTheScaledMasses) {
  const std::string dir = scratch_dir("variable_mass_scaling_tie");
  const std::string deck = dir + "/tied.inp";
  std::ofstream(deck) << "*HEADING\ntwo tied unit cubes pulled in space, masses scaled at the start\n" << kUnitCubeMesh
                      << R"(*NODE
9, 0, 0, 1
10, 1, 0, 1
11, 1, 1, 1
12, 0, 1, 1
13, 0, 0, 2
14, 1, 0, 2
15, 1, 1, 2
16, 0, 1, 2
*ELEMENT, TYPE=C3D8R, ELSET=B
2, 9, 10, 11, 12, 13, 14, 15, 16
*ELSET, ELSET=BOTH
CUBE, B
*SOLID SECTION, ELSET=BOTH, MATERIAL=M
*MATERIAL, NAME=M
*ELASTIC
1000, 0.3
*DENSITY
1
*NSET, NSET=ABOT
1, 2, 3, 4
*NSET, NSET=ATOP
5, 6, 7, 8
*NSET, NSET=BTOP
13, 14, 15, 16
*SURFACE, NAME=ASURF
CUBE, S2
*SURFACE, NAME=BSURF
B, S1
*TIE, NAME=GLUE
BSURF, ASURF
*STEP
*DYNAMIC, EXPLICIT
, 1.
*VARIABLE MASS SCALING, DT=0.1, TYPE=UNIFORM, FREQUENCY=1000000000
*BULK VISCOSITY
0., 0.
*CLOAD
BTOP, 3, 0.25
*OUTPUT, HISTORY
*NODE OUTPUT, NSET=ABOT
U
*NODE OUTPUT, NSET=ATOP
U
*NODE OUTPUT, NSET=BTOP
U
*END STEP
)";
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--backend cpu", &out), 0) << out;
  const std::string summary = read_file(dir + "/out/summary.json");
  const double f = 1 + summary_number(summary, "added_mass_now") / 2.0;
  EXPECT_GT(f, 5) << summary;  // the unscaled increment is near 0.03
  EXPECT_EQ(summary_number(summary, "re_evaluations"), 1) << summary;
  // Each set's four nodes: four times their mean at the last time.
  const auto sum = [&](const std::string& set, const std::string& column) {
    return 4 * last_time_average(read_csv(dir + "/out/history/" + set + ".csv")).at(column);
  };
  const double t = last_time_average(read_csv(dir + "/out/history/BTOP.csv")).at("time");
  const double momentum = f / 8 * (sum("ABOT", "U3") + 2 * sum("ATOP", "U3") + sum("BTOP", "U3"));
  ASSERT_GT(t, 0.5);
  std::printf("tied cubes: f = %.6f, sum m u = %.15g against F t^2 / 2 = %.15g\n", f, momentum, 0.5 * t * t);
  EXPECT_NEAR(momentum, 0.5 * t * t, 1e-12 * t * t);
  // The same rule as *FIXED MASS SCALING gives the same run: the balance error (4.7e-3 of the
  // energy: 12 increments of a suddenly applied load) is the time integration's, not the scaling's.
  std::string fixed = read_file(deck);
  fixed.replace(fixed.find("*VARIABLE MASS SCALING"), 22, "*FIXED MASS SCALING");
  fixed.replace(fixed.find(", FREQUENCY=1000000000"), 22, "");
  std::ofstream(dir + "/fixed.inp") << fixed;
  ASSERT_EQ(run_halfstep(dir + "/fixed.inp", dir + "/fixed", "--backend cpu", &out), 0) << out;
  const std::string fixed_summary = read_file(dir + "/fixed/summary.json");
  EXPECT_NEAR(summary_number(summary, "energy_balance_error"), summary_number(fixed_summary, "energy_balance_error"), 1e-9)
      << summary << fixed_summary;
  EXPECT_LT(summary_number(summary, "energy_balance_error"), 1e-2) << summary;
}

// A unit C3D8R cube made a rigid body about its centre, pulled there by F, free in space, its
// masses scaled at the step's start by f: the body's mass is f m, so its centre moves
// F t^2 / (2 f m) (exact at a fixed increment).
TEST(VariableMassScalingRun, ARigidBodyTakesTheScaledMasses) {
  const std::string dir = scratch_dir("variable_mass_scaling_rigid");
  const std::string deck = dir + "/rigid.inp";
  std::ofstream(deck) << "*HEADING\na rigid unit cube pulled at its centre, masses scaled at the start\n" << kUnitCubeMesh
                      << R"(*NODE
9, 0.5, 0.5, 0.5
*SOLID SECTION, ELSET=CUBE, MATERIAL=M
*MATERIAL, NAME=M
*ELASTIC
1000, 0.3
*DENSITY
1
*NSET, NSET=REF
9
*RIGID BODY, REF NODE=9, ELSET=CUBE
*STEP
*DYNAMIC, EXPLICIT
, 1.
*VARIABLE MASS SCALING, DT=0.1, TYPE=UNIFORM, FREQUENCY=1000000000
*CLOAD
REF, 1, 1.
*OUTPUT, HISTORY
*NODE OUTPUT, NSET=REF
U, UR
*END STEP
)";
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--backend cpu", &out), 0) << out;
  const std::string summary = read_file(dir + "/out/summary.json");
  const double f = 1 + summary_number(summary, "added_mass_now") / 1.0;
  EXPECT_GT(f, 5) << summary;
  const std::map<std::string, double> last = last_time_average(read_csv(dir + "/out/history/REF.csv"));
  const double t = last.at("time"), u = last.at("U1");
  ASSERT_GT(t, 0.5);
  std::printf("rigid cube: f = %.6f, u = %.15g against F t^2 / (2 f m) = %.15g\n", f, u, t * t / (2 * f));
  EXPECT_NEAR(u, t * t / (2 * f), 1e-12 * t * t);
  EXPECT_NEAR(last.at("UR2"), 0.0, 1e-12);
  EXPECT_LT(summary_number(summary, "energy_balance_error"), 1e-6) << summary;
}

}  // namespace
}  // namespace halfstep::test
