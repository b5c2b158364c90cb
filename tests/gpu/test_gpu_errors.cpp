// Failures on the GPU: an unstable run stops with the CPU's message and exit code for every
// scheme and precision, and writes nothing after the failure. Skipped without a GPU.
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "../integration/run_util.hpp"
#include "backends/backend.hpp"
#include "core/error.hpp"
#include "io/inp_reader.hpp"
#include "solver/explicit_solver.hpp"

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

// A writer that lags behind (a slow disk, a loaded machine): frames the GPU sampled are still
// queued, to be completed from the backend's staging buffers, when the failed step throws.
// The backend was destroyed first, and the writer thread then read its freed events
// (SIGSEGV in cudaEventSynchronize, seen twice in the GPU suite's shards side by side).
class SlowSink : public ResultSink {
 public:
  explicit SlowSink(int* fields) : fields_(fields) {}
  void open_histories(const std::vector<OutputRequest>&) override {}
  void write(const ResultFrame& f) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (f.field) ++*fields_;
  }
  int frames_written() const override { return *fields_; }

 private:
  int* fields_;
};

TEST(GpuInstabilityWithALaggingWriter, StopsWithTheRunErrorAfterTheQueuedFrames) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const std::string dir = scratch_dir("gpu_unstable_slow_writer");
  const Model model = read_inp(generate_deck(dir, "cs", "cantilever-shear --time 1 --ramp 1 --dt 0.01"));
  for (const bool single : {false, true}) {
    int fields = 0;
    RunOptions opt;
    opt.backend = BackendKind::Cuda;
    opt.backend_options.single = single;
    opt.make_sink = [&fields](const ResultMesh&) -> std::unique_ptr<ResultSink> { return std::make_unique<SlowSink>(&fields); };
    try {
      run_analysis(model, opt);
      ADD_FAILURE() << "the unstable run completed";
    } catch (const RunError& e) {
      EXPECT_NE(std::string(e.what()).find("instability at step"), std::string::npos) << e.what();
    }
    EXPECT_EQ(fields, 1) << (single ? "single" : "double");  // the initial frame only
  }
}

// The same for a solid model: a fixed increment 2.5 x the stable bound is caught on the
// GPU by the energy balance or the non-finite check, and the run stops with exit code 3.
TEST_P(GpuInstability, SolidTooLargeIncrementStops) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  if (std::string(GetParam()) == "element-local") GTEST_SKIP() << "element-local runs shells only";
  const std::string dir = scratch_dir(std::string("gpu_unstable_solid_") + GetParam());
  std::string out;
  EXPECT_EQ(run_halfstep(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/solid_unstable.inp", dir + "/out",
                         std::string("--backend cuda --gpu-scheme ") + GetParam(), &out),
            3)
      << out;
  EXPECT_TRUE(out.find("instability at step") != std::string::npos || out.find("energy balance error") != std::string::npos)
      << out;
}

TEST(GpuSolids, ElementLocalSchemeRefusesSolids) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const std::string dir = scratch_dir("gpu_local_solid");
  std::string out;
  EXPECT_EQ(run_halfstep(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/solid_c3d8r_svk.inp", dir + "/out",
                         "--backend cuda --gpu-scheme element-local", &out),
            3)
      << out;
  EXPECT_NE(out.find("element-local runs shell-only models"), std::string::npos) << out;
}

// A fixed block larger than the model's kernels can launch (C3D8R in FP64: fewer than 512
// threads) is refused by name before the first pass, not left to CUDA's "too many resources
// requested for launch" (H200, 2026-12-03).
TEST(GpuSolids, ABlockTooLargeForTheKernelsIsRefusedByName) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const std::string dir = scratch_dir("gpu_block_too_large");
  std::string out;
  EXPECT_EQ(run_halfstep(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/solid_c3d8r_svk.inp", dir + "/out",
                         "--backend cuda --gpu-scheme gather --precision double --gpu-block 1024", &out),
            3)
      << out;
  EXPECT_NE(out.find("--gpu-block 1024: this model's FP64 kernels launch at most"), std::string::npos) << out;
  EXPECT_NE(out.find("leave --gpu-block out to tune"), std::string::npos) << out;
  EXPECT_EQ(out.find("too many resources"), std::string::npos) << out;
}

TEST(GpuBeams, ElementLocalSchemeRefusesBeams) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const std::string dir = scratch_dir("gpu_local_beam");
  std::string out;
  EXPECT_EQ(run_halfstep(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/beam_vibration.inp", dir + "/out",
                         "--backend cuda --gpu-scheme element-local", &out),
            3)
      << out;
  EXPECT_NE(out.find("use gather, atomic or colored for models with beams or FPM triangles"), std::string::npos) << out;
}

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

// The grid sums add in an order that does not depend on the block size (backends/cuda/
// reduction.cuh: a slot per warp), so the block size that start-up timing picks changes no
// result file: general contact (the node pass in one launch) and a pinched cylinder of 3,200
// shells (the node pass as Special + Plain, over several groups of slots), with 64- and
// 256-thread blocks. With a slot per block, two runs of the contact deck differed in the last
// bit of the kinetic energy (H200, 2026-12-02).
TEST(GpuDeterminism, TheBlockSizeChangesNoResult) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const std::string dir = scratch_dir("gpu_block_size");
  const std::string decks[] = {HALFSTEP_SOURCE_DIR "/tests/gpu/decks/contact_bars.inp",
                               generate_deck(dir, "cylinder", "pinched-cylinder --n 40 --time 0.02")};
  int k = 0;
  for (const std::string& deck : decks) {
    SCOPED_TRACE(deck);
    const std::string a = dir + "/b64_" + std::to_string(k), b = dir + "/b256_" + std::to_string(k++);
    std::string out;
    ASSERT_EQ(run_halfstep(deck, a, "--backend cuda --gpu-scheme gather --gpu-block 64", &out), 0) << out;
    ASSERT_EQ(run_halfstep(deck, b, "--backend cuda --gpu-scheme gather --gpu-block 256", &out), 0) << out;
    expect_same_results(a, b);
  }
}

}  // namespace
}  // namespace halfstep::test
