// Failures on the GPU: an unstable run stops with the CPU's message and exit code for every
// scheme and precision, and writes nothing after the failure. Skipped without a GPU.
#include <filesystem>
#include <string>

#include "../integration/run_util.hpp"
#include "backends/backend.hpp"

namespace halfstep::test {
namespace {

class GpuInstability : public ::testing::TestWithParam<const char*> {};

TEST_P(GpuInstability, TooLargeIncrementStopsWithAReport) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  for (const char* precision : {"double", "single"}) {
    const std::string dir = scratch_dir(std::string("gpu_unstable_") + GetParam() + "_" + precision);
    const std::string deck = generate_deck(dir, "cs", "cantilever-shear --time 1 --ramp 1 --dt 0.01");
    std::string out;
    EXPECT_EQ(run_halfstep(deck, dir + "/out",
                           std::string("--backend cuda --gpu-scheme ") + GetParam() + " --precision " + precision, &out),
              3)
        << out;
    EXPECT_NE(out.find("instability at step"), std::string::npos) << out;
    int frames = 0;
    for (const auto& f : std::filesystem::directory_iterator(dir + "/out"))
      if (f.path().extension() == ".vtu") ++frames;
    EXPECT_EQ(frames, 1) << precision;
  }
}

INSTANTIATE_TEST_SUITE_P(Schemes, GpuInstability, ::testing::Values("atomic", "gather", "colored", "element-local"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           std::string s = info.param;
                           for (char& c : s)
                             if (c == '-') c = '_';
                           return s;
                         });

TEST(GpuAuto, AutoTakesTheGpuAndSaysSo) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const std::string dir = scratch_dir("gpu_auto");
  const std::string deck = generate_deck(dir, "c", "cantilever-shear --time 0.05 --ramp 0.05");
  std::string out;
  ASSERT_EQ(run_command(std::string(HALFSTEP_BINARY) + " run " + deck + " -o " + dir + "/out", &out), 0) << out;
  EXPECT_NE(out.find("halfstep: running on CUDA on "), std::string::npos) << out;
  EXPECT_NE(read_file(dir + "/out/summary.json").find("\"backend\": \"cuda\""), std::string::npos);
}

}  // namespace
}  // namespace halfstep::test
