// Backend and GPU options: bad values are usage errors (exit 1); impossible combinations are
// run errors (exit 3) with a message; without a GPU, auto falls back to the CPU and says so.
#include <gtest/gtest.h>

#include "../integration/run_util.hpp"
#include "backends/backend.hpp"

namespace halfstep::test {
namespace {

std::string small_deck(const std::string& dir) {
  return generate_deck(dir, "c", "cantilever-shear --time 0.05 --ramp 0.05");
}

TEST(BackendOptions, BadValuesAreUsageErrors) {
  const std::string dir = scratch_dir("backend_options_usage");
  const std::string deck = small_deck(dir);
  std::string out;
  EXPECT_EQ(run_halfstep(deck, dir + "/a", "--gpu-scheme fastest", &out), 1);
  EXPECT_NE(out.find("unknown GPU scheme 'fastest'"), std::string::npos) << out;
  EXPECT_EQ(run_halfstep(deck, dir + "/b", "--precision half", &out), 1);
  EXPECT_NE(out.find("--precision must be double or single"), std::string::npos) << out;
  EXPECT_EQ(run_halfstep(deck, dir + "/c", "--gpu-block 100", &out), 1);
  EXPECT_NE(out.find("--gpu-block needs a multiple of 32"), std::string::npos) << out;
  EXPECT_EQ(run_halfstep(deck, dir + "/d", "--backend gpu", &out), 1);
  EXPECT_NE(out.find("unknown backend 'gpu'"), std::string::npos) << out;
  EXPECT_EQ(run_halfstep(deck, dir + "/e", "--linear-solver mumps", &out), 1);
  EXPECT_NE(out.find("mumps"), std::string::npos) << out;
  EXPECT_NE(out.find("cholmod"), std::string::npos) << out;  // the accepted names are listed
}

// A static step with a GPU solver on the CPU backend is an impossible combination (exit 3).
TEST(BackendOptions, GpuLinearSolverOnTheCpuIsRefused) {
  const std::string dir = scratch_dir("backend_options_gpu_solver_cpu");
  const std::string deck = dir + "/s.inp";
  std::string out;
  ASSERT_EQ(run_command("python3 " HALFSTEP_SOURCE_DIR "/examples/generate_plane_deck.py --static --nx 8 --ny 2 -o " +
                            deck, &out), 0) << out;
  EXPECT_EQ(run_halfstep(deck, dir + "/out", "--backend cpu --linear-solver cudss", &out), 3);
  EXPECT_NE(out.find("needs the GPU"), std::string::npos) << out;
  EXPECT_EQ(run_halfstep(deck, dir + "/ok", "--backend cpu --linear-solver ldlt", &out), 0) << out;
}

TEST(BackendOptions, SinglePrecisionOnTheCpuIsRefused) {
  const std::string dir = scratch_dir("backend_options_single_cpu");
  std::string out;
  EXPECT_EQ(run_halfstep(small_deck(dir), dir + "/out", "--backend cpu --precision single", &out), 3);
  EXPECT_NE(out.find("--precision single needs the GPU"), std::string::npos) << out;
}

TEST(BackendOptions, WithoutAGpuCudaFailsAndAutoFallsBack) {
  std::string why;
  if (cuda_available(&why)) GTEST_SKIP() << "a GPU is present";
  const std::string dir = scratch_dir("backend_options_no_gpu");
  const std::string deck = small_deck(dir);
  std::string out;
  EXPECT_EQ(run_halfstep(deck, dir + "/cuda", "--backend cuda", &out), 3);
  EXPECT_NE(out.find("--backend cuda: "), std::string::npos) << out;
  // run_halfstep passes --quiet, which also silences the fall-back note; the run must succeed.
  EXPECT_EQ(run_halfstep(deck, dir + "/auto", "--precision single", &out), 0) << out;
  const std::string summary = read_file(dir + "/auto/summary.json");
  EXPECT_NE(summary.find("\"backend\": \"cpu\""), std::string::npos) << summary;
  EXPECT_NE(summary.find("\"precision\": \"double\""), std::string::npos) << summary;
}

}  // namespace
}  // namespace halfstep::test
