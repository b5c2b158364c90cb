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

namespace halfstep::test {
namespace {

// The deterministic schemes give bit-identical results run after run (no atomics in the
// force hand-over; grid sums only feed the energy check, never the state).
TEST(GpuDeterminism, GatherAndElementLocalRepeatBitForBit) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const std::string dir = scratch_dir("gpu_repeat");
  const std::string deck = generate_deck(dir, "clamped", "clamped-plate --time 0.01");
  for (const char* scheme : {"gather", "element-local"}) {
    std::string out;
    const std::string flags = std::string("--backend cuda --gpu-scheme ") + scheme;
    ASSERT_EQ(run_halfstep(deck, dir + "/a_" + scheme, flags, &out), 0) << out;
    ASSERT_EQ(run_halfstep(deck, dir + "/b_" + scheme, flags, &out), 0) << out;
    const std::string a = read_file(dir + "/a_" + scheme + "/history/TIP.csv");
    EXPECT_GT(a.size(), 100u);
    EXPECT_EQ(a, read_file(dir + "/b_" + scheme + "/history/TIP.csv")) << scheme;
  }
}

}  // namespace
}  // namespace halfstep::test
