// Restart files on the GPU backend (issues 20, 42): a run resumed from a restart, in a copy
// of the uninterrupted run's folder, repeats the uninterrupted run byte for byte in every
// result file and leaves the original folder alone, in FP64 and FP32 and for the
// deterministic schemes, also with contact: an analytical rigid surface whose reference
// node's reaction is a history, general contact (ALL EXTERIOR: two bars, crossed bars edge
// to edge) and Coulomb friction (a pair, and against an analytical surface). The contact
// forces are summed in a fixed order (contact_kernels.cuh), so two uninterrupted runs are
// compared too. A restart of another scheme or of the CPU is refused. Skipped without a GPU.
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
  const std::string summary = read_file(dir + "/full/summary.json");
  const double restart_time = summary_number(summary, "latest_time");
  ASSERT_GT(restart_time, 0) << summary;
  ASSERT_LT(restart_time, summary_number(summary, "final_time"));
  // Two uninterrupted runs agree byte for byte (no sum in an order that timing decides).
  ASSERT_EQ(run_halfstep(deck, dir + "/again", opts + " --restart-every " + std::to_string(every), &out), 0) << out;
  {
    SCOPED_TRACE("two uninterrupted runs");
    expect_same_results(dir + "/full", dir + "/again");
  }
  fs::copy(dir + "/full", dir + "/resumed", fs::copy_options::recursive);
  const auto original = folder_snapshot(dir + "/full");
  std::ofstream(dir + "/resumed/energy.csv", std::ios::app) << "0.123,4";  // damage past the restart point
  const auto frames = pvd_frames(dir + "/resumed/" + std::string(name) + ".pvd");  // none: no field output
  if (!frames.empty()) {  // a frame past the restart point deleted
    ASSERT_GT(frames.back().first, restart_time);
    ASSERT_TRUE(fs::remove(dir + "/resumed/" + frames.back().second));
  }
  const std::string restart = dir + "/resumed/" + name + ".restart";
  ASSERT_EQ(run_halfstep(deck, dir + "/resumed", opts + " --restart " + restart, &out), 0) << out;
  EXPECT_EQ(summary_number(read_file(dir + "/resumed/summary.json"), "resumed_at"), restart_time);
  {
    SCOPED_TRACE("the resumed run against the uninterrupted one");
    expect_same_results(dir + "/full", dir + "/resumed");
  }
  EXPECT_TRUE(folder_snapshot(dir + "/full") == original) << "the resume in the copy wrote into the original folder";
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
// element-local scheme. Contact (issue 42): an analytical rigid surface with a reference
// node (a wall under general contact, a sphere pressed into a block, FP64 and FP32), general
// contact (two bars, crossed bars edge to edge), friction (a block sliding on a block, and
// on an analytical plane).
INSTANTIATE_TEST_SUITE_P(
    Decks, GpuResumedRun,
    ::testing::Values(Case{"two_steps", 37, "gather", "double"}, Case{"two_steps", 37, "gather", "single"},
                      Case{"two_steps", 37, "element-local", "double"}, Case{"solid_c3d8r_j2", 37, "gather", "double"},
                      Case{"solid_c3d8r_j2", 37, "gather", "single"}, Case{"shell_strip_j2_bending", 997, "gather", "double"},
                      Case{"plane_cps4_j2", 37, "gather", "double"}, Case{"rigid_end", 3, "gather", "double"},
                      Case{"beam_plastic", 37, "gather", "double"},
                      Case{"variable_mass_scaling", 37, "gather", "double"}, Case{"contact_wall", 97, "gather", "double"},
                      Case{"contact_hertz", 37, "gather", "double"}, Case{"contact_hertz", 37, "gather", "single"},
                      Case{"contact_bars", 97, "gather", "double"}, Case{"contact_crossed", 97, "gather", "double"},
                      Case{"contact_slide", 37, "gather", "double"},
                      Case{"contact_slide_plane", 37, "gather", "double"},
                      Case{"variable_mass_scaling_contact", 97, "gather", "double"},
                      Case{"variable_mass_scaling_tie", 37, "gather", "double"}),
    [](const auto& info) {
      std::string s = std::string(std::get<0>(info.param)) + "_" + std::get<2>(info.param) + "_" + std::get<3>(info.param);
      for (char& c : s)
        if (c == '-') c = '_';
      return s;
    });

}  // namespace
}  // namespace halfstep::test
