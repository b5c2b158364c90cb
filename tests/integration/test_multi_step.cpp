// A two-step deck without field output, with every kind of drive: a regression test for the
// output schedule (an empty field schedule used to spin forever at the start of step 2).
#include "run_util.hpp"

namespace halfstep::test {
namespace {

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

}  // namespace
}  // namespace halfstep::test
