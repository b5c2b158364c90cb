// A run whose increment is far above the stability limit must stop with a clear message and
// exit code 3, and write no frame after the failure.
#include "run_util.hpp"

#include <filesystem>

namespace halfstep::test {
namespace {

TEST(Instability, TooLargeIncrementStopsWithAReport) {
  const std::string dir = scratch_dir("unstable");
  // Stable estimate 4.8e-4; 0.01 is 20 times that.
  const std::string deck = generate_deck(dir, "cs", "cantilever-shear --time 1 --ramp 1 --dt 0.01");
  std::string out;
  EXPECT_EQ(run_halfstep(deck, dir + "/out", "--backend cpu", &out), 3) << out;
  EXPECT_NE(out.find("instability at step"), std::string::npos) << out;
  EXPECT_NE(out.find("element"), std::string::npos) << out;
  // Field output every 0.1: the blow-up near t = 0.07 leaves only the frame at t = 0.
  int frames = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir + "/out"))
    if (f.path().extension() == ".vtu") ++frames;
  EXPECT_EQ(frames, 1);
  // The summary says the run failed, and why.
  const std::string summary = read_file(dir + "/out/summary.json");
  EXPECT_NE(summary.find("\"status\": \"failed: "), std::string::npos) << summary;
  EXPECT_NE(summary.find("instability"), std::string::npos) << summary;
}

}  // namespace
}  // namespace halfstep::test
