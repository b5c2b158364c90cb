// Face pressure on solids (*DLOAD Pn and *SURFACE + *DSLOAD): a bar with symmetry planes at
// x = 0, y = 0, z = 0 pulled by a suction on its far face. The pressure follows the face,
// whose area shrinks by the lateral contraction, so the support reaction is
// p A0 (1 - nu eps)^2 with eps = p / E (small strain).
#include <cmath>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

std::string bar_deck(const std::string& load) {
  return R"(*HEADING
bar pulled by a face pressure
*NODE
1, 0, 0, 0
2, 1, 0, 0
3, 1, 1, 0
4, 0, 1, 0
5, 0, 0, 1
6, 1, 0, 1
7, 1, 1, 1
8, 0, 1, 1
9, 2, 0, 0
10, 2, 1, 0
11, 2, 0, 1
12, 2, 1, 1
*ELEMENT, TYPE=C3D8R, ELSET=BAR
1, 1, 2, 3, 4, 5, 6, 7, 8
2, 2, 9, 10, 3, 6, 11, 12, 7
*ELSET, ELSET=E2
2
*SURFACE, NAME=END, TYPE=ELEMENT
E2, S4
*NSET, NSET=X0
1, 4, 5, 8
*NSET, NSET=Y0
1, 2, 5, 6, 9, 11
*NSET, NSET=Z0
1, 2, 3, 4, 9, 10
*MATERIAL, NAME=M
*ELASTIC
1000, 0.3
*DENSITY
1
*DAMPING, ALPHA=10
*SOLID SECTION, ELSET=BAR, MATERIAL=M
*AMPLITUDE, NAME=S, DEFINITION=SMOOTH STEP
0, 0, 5, 1
*STEP
*DYNAMIC, EXPLICIT
, 6
*BOUNDARY
X0, 1, 1
Y0, 2, 2
Z0, 3, 3
)" + load + R"(*OUTPUT, HISTORY, NUMBER INTERVAL=20
*NODE OUTPUT, NSET=X0
RF
*END STEP
)";
}

double end_reaction(const std::string& name, const std::string& load) {
  const std::string dir = scratch_dir(name);
  const std::string deck = dir + "/bar.inp";
  std::ofstream(deck) << bar_deck(load);
  std::string out;
  EXPECT_EQ(run_halfstep(deck, dir + "/out", "--backend cpu", &out), 0) << out;
  const Csv total = read_csv(dir + "/out/history/X0_total.csv");
  EXPECT_FALSE(total.rows.empty());
  return total.rows.empty() ? 0.0 : total.rows.back()[total.col("RF1")];
}

TEST(SolidFacePressure, SurfaceSuctionPullsTheBar) {
  const double p = 10, eps = p / 1000, expected = p * std::pow(1 - 0.3 * eps, 2);
  const double rf = end_reaction("face_dsload", "*DSLOAD, AMPLITUDE=S\nEND, P, -10\n");
  EXPECT_NEAR(-rf, expected, 1e-3 * expected) << "RF1 = " << rf;
}

TEST(SolidFacePressure, DloadFaceLabelGivesTheSameLoad) {
  const double a = end_reaction("face_dsload_b", "*DSLOAD, AMPLITUDE=S\nEND, P, -10\n");
  const double b = end_reaction("face_dload", "*DLOAD, AMPLITUDE=S\nE2, P4, -10\n");
  EXPECT_EQ(a, b);
}

}  // namespace
}  // namespace halfstep::test

namespace halfstep::test {
namespace {

/// The same bar and suction in a static step (NLGEOM as given, 4 increments): the support
/// reaction and the end displacement at the end of the step.
std::pair<double, double> static_end(const std::string& name, const std::string& nlgeom) {
  std::string text = bar_deck("*DSLOAD\nEND, P, -10\n");
  const std::string dyn = "*STEP\n*DYNAMIC, EXPLICIT\n, 6\n";
  text.replace(text.find(dyn), dyn.size(), "*STEP, NLGEOM=" + nlgeom + "\n*STATIC\n0.25, 1\n");
  const std::string out_line = "*OUTPUT, HISTORY, NUMBER INTERVAL=20\n*NODE OUTPUT, NSET=X0\nRF\n";
  text.replace(text.find(out_line), out_line.size(),
               "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=X0\nRF\n*NODE OUTPUT, NSET=E\nU\n");
  text.replace(text.find("*MATERIAL"), 0, "*NSET, NSET=E\n11\n");  // a node of the loaded face
  const std::string dir = scratch_dir(name);
  std::ofstream(dir + "/bar.inp") << text;
  std::string out;
  EXPECT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &out), 0) << out;
  const Csv rf = read_csv(dir + "/out/history/X0_total.csv");
  const Csv u = read_csv(dir + "/out/history/E.csv");
  if (rf.rows.empty() || u.rows.empty()) return {0, 0};
  return {rf.rows.back()[rf.col("RF1")], u.rows.back()[u.col("U1")]};
}

// Geometrically linear: the pressure acts on the reference face, so the reaction is p A0 and
// the end moves by p L / E, exactly (uniform stress in one-point C3D8R).
TEST(SolidFacePressure, StaticLinearSuctionIsExact) {
  const auto [rf, u] = static_end("face_static_linear", "NO");
  EXPECT_NEAR(rf, -10.0, 1e-9 * 10);
  EXPECT_NEAR(u, 10.0 * 2 / 1000, 1e-9 * 0.02);
}

// NLGEOM: the pressure follows the face, whose area shrinks by the lateral contraction: the
// reaction is p A0 (1 - nu eps)^2 to first order in eps = p / E (as in the explicit test).
TEST(SolidFacePressure, StaticFollowerSuctionShrinksWithTheFace) {
  const auto [rf, u] = static_end("face_static_nlgeom", "YES");
  const double eps = 10.0 / 1000, expected = 10 * std::pow(1 - 0.3 * eps, 2);
  EXPECT_NEAR(-rf, expected, 2e-4 * expected) << rf;
  EXPECT_GT(u, 0.0);
}

}  // namespace
}  // namespace halfstep::test
