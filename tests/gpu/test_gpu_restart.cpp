// Restart files on the GPU backend (issue 20): a run resumed from a restart repeats the
// uninterrupted run byte for byte in every result file, in FP64 and FP32 and for the
// deterministic schemes; a restart of another scheme or of the CPU is refused. Skipped
// without a GPU. (One-GPU contact sums its forces with atomics, whose order varies from run
// to run, so contact decks repeat only to round-off and are left out; their distributed runs,
// whose contact pass is on the host, are in tests/parallel/distributed_runs.py.)
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>

#include "../integration/run_util.hpp"
#include "backends/backend.hpp"

namespace halfstep::test {
namespace {

namespace fs = std::filesystem;

/// (deck, restart every N increments, scheme, precision)
using Case = std::tuple<const char*, int, const char*, const char*>;
class GpuResumedRun : public ::testing::TestWithParam<Case> {};

TEST_P(GpuResumedRun, RepeatsTheUninterruptedRunBitForBit) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const auto [name, every, scheme, precision] = GetParam();
  const std::string opts = std::string("--backend cuda --gpu-scheme ") + scheme + " --precision " + precision;
  const std::string dir = scratch_dir(std::string("gpu_restart_") + name + "_" + scheme + "_" + precision);
  const std::string deck = HALFSTEP_SOURCE_DIR "/tests/gpu/decks/" + std::string(name) + ".inp";
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/full", opts + " --restart-every " + std::to_string(every), &out), 0) << out;
  fs::copy(dir + "/full", dir + "/resumed", fs::copy_options::recursive);
  std::ofstream(dir + "/resumed/energy.csv", std::ios::app) << "0.123,4";  // damage past the restart point
  const std::string restart = dir + "/resumed/" + name + ".restart";
  ASSERT_EQ(run_halfstep(deck, dir + "/resumed", opts + " --restart " + restart, &out), 0) << out;
  EXPECT_NE(read_file(dir + "/resumed/summary.json").find("\"resumed_at\""), std::string::npos);
  expect_same_results(dir + "/full", dir + "/resumed");
  // The restart holds this scheme's arrays: the CPU and another scheme refuse it.
  EXPECT_EQ(run_halfstep(deck, dir + "/cpu", "--backend cpu --restart " + restart, &out), 2) << out;
  EXPECT_NE(out.find("backend"), std::string::npos) << out;
  const std::string other = std::string(scheme) == "gather" ? "atomic" : "gather";
  EXPECT_EQ(run_halfstep(deck, dir + "/other",
                         "--backend cuda --gpu-scheme " + other + " --precision " + precision + " --restart " + restart,
                         &out),
            2)
      << out;
  EXPECT_NE(out.find("--gpu-scheme"), std::string::npos) << out;
}

// Two explicit steps (shells), J2 solids, plastic shells, plane stress J2, rigid bodies,
// plastic FPM beams, masses changed by *VARIABLE MASS SCALING; the shell decks also with the
// element-local scheme.
INSTANTIATE_TEST_SUITE_P(
    Decks, GpuResumedRun,
    ::testing::Values(Case{"two_steps", 37, "gather", "double"}, Case{"two_steps", 37, "gather", "single"},
                      Case{"two_steps", 37, "element-local", "double"}, Case{"solid_c3d8r_j2", 37, "gather", "double"},
                      Case{"solid_c3d8r_j2", 37, "gather", "single"}, Case{"shell_strip_j2_bending", 997, "gather", "double"},
                      Case{"plane_cps4_j2", 37, "gather", "double"}, Case{"rigid_end", 3, "gather", "double"},
                      Case{"beam_plastic", 37, "gather", "double"},
                      Case{"variable_mass_scaling", 37, "gather", "double"}),
    [](const auto& info) {
      std::string s = std::string(std::get<0>(info.param)) + "_" + std::get<2>(info.param) + "_" + std::get<3>(info.param);
      for (char& c : s)
        if (c == '-') c = '_';
      return s;
    });

}  // namespace
}  // namespace halfstep::test
