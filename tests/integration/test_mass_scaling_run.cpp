// *FIXED MASS SCALING in a run: the increment is the target's (times --dt-scale), the summary
// reports the added mass, and a scaling the run cannot apply is refused with its line.
#include <fstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

// Three unit-section C3D8R in a row (1, 1 and 0.1 long), pulled at the end; *FIXED MASS
// SCALING, DT=0.02 at line 37.
const char* kDeck = HALFSTEP_SOURCE_DIR "/tests/gpu/decks/mass_scaling_bar.inp";

/// The same deck with a second explicit step that scales the masses again (line 44).
std::string two_steps() {
  return read_file(kDeck) + "*STEP\n*DYNAMIC, EXPLICIT\n, 0.1\n*FIXED MASS SCALING, FACTOR=2\n*END STEP\n";
}

std::string write(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}


TEST(FixedMassScalingRun, TheIncrementIsTheTargetsAndTheSummarySaysWhatWasAdded) {
  const std::string dir = scratch_dir("mass_scaling_run");
  std::string out;
  ASSERT_EQ(run_halfstep(kDeck, dir + "/out", "--backend cpu --dt-scale 0.9", &out), 0) << out;
  const std::string s = read_file(dir + "/out/summary.json");
  EXPECT_NEAR(summary_number(s, "time_increment"), 0.9 * 0.02, 1e-15) << s;
  EXPECT_NEAR(summary_number(s, "stable_increment_estimate"), 0.02, 1e-15) << s;
  EXPECT_GT(summary_number(s, "added_mass"), 0) << s;
  EXPECT_NE(s.find("\"mass_scaling\""), std::string::npos) << s;
}

TEST(FixedMassScalingRun, ALaterExplicitStepIsRefusedWithItsLine) {
  const std::string dir = scratch_dir("mass_scaling_second_step");
  std::string out;
  EXPECT_EQ(run_halfstep(write(dir, "two.inp", two_steps()), dir + "/out", "--backend cpu", &out), 2) << out;
  EXPECT_NE(out.find("two.inp:44: error: *FIXED MASS SCALING is applied once, when the run starts"), std::string::npos)
      << out;
}

}  // namespace
}  // namespace halfstep::test
