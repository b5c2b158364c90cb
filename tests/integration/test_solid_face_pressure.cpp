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
