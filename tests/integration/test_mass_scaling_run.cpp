// *FIXED MASS SCALING in a run: the increment is the target's (times --dt-scale), the summary
// reports the added mass, and a scaling the run cannot apply is refused with its line.
#include <fstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

// Three unit-section C3D8R in a row (1, 1 and 0.1 long), pulled at the end; *FIXED MASS
// SCALING, DT=0.02 at line 37.
const char* kDeck = R"(*HEADING
three C3D8R in a row, the last one short
*NODE
1, 0, 0, 0
2, 0, 1, 0
3, 0, 1, 1
4, 0, 0, 1
5, 1, 0, 0
6, 1, 1, 0
7, 1, 1, 1
8, 1, 0, 1
9, 2, 0, 0
10, 2, 1, 0
11, 2, 1, 1
12, 2, 0, 1
13, 2.1, 0, 0
14, 2.1, 1, 0
15, 2.1, 1, 1
16, 2.1, 0, 1
*ELEMENT, TYPE=C3D8R, ELSET=BAR
1, 1, 5, 6, 2, 4, 8, 7, 3
2, 5, 9, 10, 6, 8, 12, 11, 7
3, 9, 13, 14, 10, 12, 16, 15, 11
*ELSET, ELSET=SHORT
3
*SOLID SECTION, ELSET=BAR, MATERIAL=M
*MATERIAL, NAME=M
*ELASTIC
1000, 0
*DENSITY
1
*NSET, NSET=END
13, 14, 15, 16
*STEP
*DYNAMIC, EXPLICIT
, 0.5
*FIXED MASS SCALING, DT=0.02
*CLOAD
END, 1, 0.1
*END STEP
)";
const char* kTwoSteps = R"(*HEADING
three C3D8R in a row, the last one short
*NODE
1, 0, 0, 0
2, 0, 1, 0
3, 0, 1, 1
4, 0, 0, 1
5, 1, 0, 0
6, 1, 1, 0
7, 1, 1, 1
8, 1, 0, 1
9, 2, 0, 0
10, 2, 1, 0
11, 2, 1, 1
12, 2, 0, 1
13, 2.1, 0, 0
14, 2.1, 1, 0
15, 2.1, 1, 1
16, 2.1, 0, 1
*ELEMENT, TYPE=C3D8R, ELSET=BAR
1, 1, 5, 6, 2, 4, 8, 7, 3
2, 5, 9, 10, 6, 8, 12, 11, 7
3, 9, 13, 14, 10, 12, 16, 15, 11
*ELSET, ELSET=SHORT
3
*SOLID SECTION, ELSET=BAR, MATERIAL=M
*MATERIAL, NAME=M
*ELASTIC
1000, 0
*DENSITY
1
*NSET, NSET=END
13, 14, 15, 16
*STEP
*DYNAMIC, EXPLICIT
, 0.5
*FIXED MASS SCALING, DT=0.02
*CLOAD
END, 1, 0.1
*END STEP
*STEP
*DYNAMIC, EXPLICIT
, 0.1
*FIXED MASS SCALING, FACTOR=2
*END STEP
)";

std::string write(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

double number_after(const std::string& text, const std::string& key) {
  const std::size_t at = text.find("\"" + key + "\":");
  return at == std::string::npos ? -1 : std::stod(text.substr(at + key.size() + 3));
}

TEST(FixedMassScalingRun, TheIncrementIsTheTargetsAndTheSummarySaysWhatWasAdded) {
  const std::string dir = scratch_dir("mass_scaling_run");
  std::string out;
  ASSERT_EQ(run_halfstep(write(dir, "bar.inp", kDeck), dir + "/out", "--backend cpu --dt-scale 0.9", &out), 0) << out;
  const std::string s = read_file(dir + "/out/summary.json");
  EXPECT_NEAR(number_after(s, "time_increment"), 0.9 * 0.02, 1e-15) << s;
  EXPECT_NEAR(number_after(s, "stable_increment_estimate"), 0.02, 1e-15) << s;
  EXPECT_GT(number_after(s, "added_mass"), 0) << s;
  EXPECT_NE(s.find("\"mass_scaling\""), std::string::npos) << s;
}

TEST(FixedMassScalingRun, ALaterExplicitStepIsRefusedWithItsLine) {
  const std::string dir = scratch_dir("mass_scaling_second_step");
  std::string out;
  EXPECT_EQ(run_halfstep(write(dir, "two.inp", kTwoSteps), dir + "/out", "--backend cpu", &out), 2) << out;
  EXPECT_NE(out.find("two.inp:44: error: *FIXED MASS SCALING is applied once, when the run starts"), std::string::npos)
      << out;
}

}  // namespace
}  // namespace halfstep::test
