// *BUCKLE on the GPU engine: the clamped C3D20 column of tests/integration/test_buckle.cpp with
// --backend cuda (K factored or iterated on the device, K_sigma on the host) against the CPU
// run's factors. Skipped without a GPU.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "../integration/buckle_decks.hpp"
#include "need_gpu.hpp"

namespace halfstep::test {
namespace {

using namespace buckle;

TEST(GpuBuckle, ColumnFactorsMatchTheCpu) {
  NEED_GPU();
  std::vector<double> lambda[2];
  for (int gpu = 0; gpu < 2; ++gpu) {
    const std::string dir = scratch_dir(gpu ? "gpu_buckle_cuda" : "gpu_buckle_cpu");
    std::ofstream(dir + "/col.inp") << column_deck(20, 1.0, 20.0, 2.0, "4", "*MATERIAL, NAME=M\n*ELASTIC\n210000., 0.3\n");
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/col.inp", dir + "/out", gpu ? "--backend cuda" : "--backend cpu", &log), 0) << log;
    lambda[gpu] = summary_factors(read_file(dir + "/out/summary.json"));
    ASSERT_EQ(lambda[gpu].size(), 4u) << log;
  }
  for (int k = 0; k < 4; ++k) {
    std::printf("GPU column factor %d: %.12g, CPU %.12g\n", k + 1, lambda[1][static_cast<std::size_t>(k)],
                lambda[0][static_cast<std::size_t>(k)]);
    // The GPU's K solves are those of its linear solver (cuDSS, or CG to 1e-10 without it).
    EXPECT_NEAR(lambda[1][static_cast<std::size_t>(k)], lambda[0][static_cast<std::size_t>(k)],
                1e-6 * lambda[0][static_cast<std::size_t>(k)]);
  }
}

}  // namespace
}  // namespace halfstep::test
