// *FREQUENCY on the GPU engine (issue 46 item 2): the cantilever of
// tests/integration/test_frequency.cpp with --backend cuda, whose factorization (cuDSS) the
// Lanczos iteration solves with, against Timoshenko's beam and the CPU run's eigenvalues.
// Skipped without a GPU.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "../integration/frequency_decks.hpp"
#include "need_gpu.hpp"

namespace halfstep::test {
namespace {

using namespace modes;

TEST(GpuFrequency, CantileverModesMatchTheCpuAndTimoshenko) {
  NEED_GPU();
  std::vector<double> lambda[2];
  for (int gpu = 0; gpu < 2; ++gpu) {
    const std::string dir = scratch_dir(gpu ? "gpu_frequency_cuda" : "gpu_frequency_cpu");
    std::ofstream(dir + "/beam.inp") << cantilever_deck(40, 4, "\n*FREQUENCY\n4\n");
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/beam.inp", dir + "/out", gpu ? "--backend cuda" : "--backend cpu", &log), 0) << log;
    lambda[gpu] = dat_eigenvalues(read_file(dir + "/out/beam.dat"));
    ASSERT_EQ(lambda[gpu].size(), 4u);
  }
  const std::vector<double> ref = timoshenko_omegas(2);
  ASSERT_EQ(ref.size(), 2u);
  for (int k = 0; k < 4; ++k) {
    const double omega = std::sqrt(lambda[1][static_cast<std::size_t>(k)]), expect = ref[static_cast<std::size_t>(k / 2)];
    std::printf("GPU cantilever mode %d: omega %.12g, CPU %.12g, Timoshenko %.9g\n", k + 1, omega,
                std::sqrt(lambda[0][static_cast<std::size_t>(k)]), expect);
    EXPECT_NEAR(lambda[1][static_cast<std::size_t>(k)], lambda[0][static_cast<std::size_t>(k)], 1e-8 * lambda[0][0]);
    EXPECT_NEAR(omega, expect, 0.02 * expect);
  }
}

// A model free to move on the GPU engine (K - sigma M: the shift on its diagonal and the
// element masses as coupling blocks there): the free rod's rigid mode at zero and its free-free
// modes, the CPU's eigenvalues.
TEST(GpuFrequency, FreeRodMatchesTheCpu) {
  NEED_GPU();
  std::vector<double> lambda[2];
  for (int gpu = 0; gpu < 2; ++gpu) {
    const std::string dir = scratch_dir(gpu ? "gpu_free_rod_cuda" : "gpu_free_rod_cpu");
    std::string deck = axial_bar(40, "\n*FREQUENCY\n3\n");
    deck.erase(deck.find("A_N0, 1, 3\n"), 11);
    std::ofstream(dir + "/rod.inp") << deck;
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/rod.inp", dir + "/out", gpu ? "--backend cuda" : "--backend cpu", &log), 0) << log;
    lambda[gpu] = summary_eigenvalues(read_file(dir + "/out/summary.json"));
    ASSERT_EQ(lambda[gpu].size(), 3u);
  }
  std::printf("GPU free rod: %.9g %.9g %.9g; CPU %.9g %.9g %.9g\n", lambda[1][0], lambda[1][1], lambda[1][2], lambda[0][0],
              lambda[0][1], lambda[0][2]);
  EXPECT_LT(std::fabs(lambda[1][0]), 1e-9 * lambda[1][1]);
  for (int k = 1; k < 3; ++k) EXPECT_NEAR(lambda[1][k], lambda[0][k], 1e-8 * lambda[0][k]);
}

// The simply supported MITC4 plate (5-dof nodes, their physical rotary inertia) on the GPU
// engine: the CPU's eigenvalues, and Navier's within 1 %.
TEST(GpuFrequency, ShellPlateModesMatchTheCpuAndNavier) {
  NEED_GPU();
  std::vector<double> lambda[2];
  for (int gpu = 0; gpu < 2; ++gpu) {
    const std::string dir = scratch_dir(gpu ? "gpu_plate_cuda" : "gpu_plate_cpu");
    std::ofstream(dir + "/plate.inp") << plate_deck();
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/plate.inp", dir + "/out", gpu ? "--backend cuda" : "--backend cpu", &log), 0) << log;
    lambda[gpu] = summary_eigenvalues(read_file(dir + "/out/summary.json"));
    ASSERT_EQ(lambda[gpu].size(), 4u);
  }
  const double base = plate_navier_base(), navier[4] = {2 * base, 5 * base, 5 * base, 8 * base};
  for (int k = 0; k < 4; ++k) {
    std::printf("GPU plate mode %d: omega %.12g, CPU %.12g, Navier %.9g\n", k + 1, std::sqrt(lambda[1][k]),
                std::sqrt(lambda[0][k]), navier[k]);
    EXPECT_NEAR(lambda[1][k], lambda[0][k], 1e-8 * lambda[0][0]);
    EXPECT_NEAR(std::sqrt(lambda[1][k]), navier[k], 0.01 * navier[k]);
  }
}

}  // namespace
}  // namespace halfstep::test
