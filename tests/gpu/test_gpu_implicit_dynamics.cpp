// Implicit dynamics (*DYNAMIC without EXPLICIT) on the GPU engine (issue 46 item 1): an axial
// rod of C3D8R bricks under a force applied at once at its free end, HHT with alpha = -0.05,
// whose end motion must be the CPU run's; the end's mean displacement over the run against
// the rod's (the wave's triangle averages F L / (E A)); and a simply supported MITC4 plate under
// a sudden pressure (5-dof shell nodes, the spins' rotary inertia) whose midpoint history must be
// the CPU run's. Skipped without a GPU.
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

TEST(GpuImplicitDynamics, AxialRodUnderASuddenEndForceMatchesTheCpu) {
  NEED_GPU();
  // The wave crosses the rod (100 mm at c = 5189 mm/ms) in 1.93e-5 s; 4 round trips, h = T/200.
  const double period = 4 * 4 * kBarL / std::sqrt(kE / kRho), h = period / 800, force = 10.0;
  char step[512];
  std::snprintf(step, sizeof step,
                "\n*DYNAMIC, DIRECT\n%.17g, %.17g\n*AMPLITUDE, NAME=ON\n0., 1., 1., 1.\n*CLOAD, AMPLITUDE=ON\n"
                "A_N1, 1, %.17g\n*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=A_N1\nU\n",
                h, period, force / 4);
  std::string deck = axial_bar(50, step);
  deck.replace(deck.find("*STEP"), 5, "*STEP, INC=1000");
  // *AMPLITUDE is model data: move it before the step.
  const std::size_t a = deck.find("*AMPLITUDE"), e = deck.find("*CLOAD");
  const std::string amp = deck.substr(a, e - a);
  deck.erase(a, e - a);
  deck.insert(deck.find("*STEP"), amp);
  std::vector<std::vector<double>> u(2);
  for (int gpu = 0; gpu < 2; ++gpu) {
    const std::string dir = scratch_dir(gpu ? "gpu_hht_rod_cuda" : "gpu_hht_rod_cpu");
    std::ofstream(dir + "/rod.inp") << deck;
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/rod.inp", dir + "/out", gpu ? "--backend cuda" : "--backend cpu", &log), 0) << log;
    const Csv c = read_csv(dir + "/out/history/A_N1.csv");
    for (const auto& row : c.rows) u[gpu].push_back(row[static_cast<std::size_t>(c.col("U1"))]);
  }
  ASSERT_EQ(u[0].size(), u[1].size());
  ASSERT_GT(u[0].size(), 800u);
  double worst = 0, scale = 0, mean = 0;
  for (std::size_t i = 0; i < u[0].size(); ++i) {
    worst = std::max(worst, std::fabs(u[1][i] - u[0][i]));
    scale = std::max(scale, std::fabs(u[0][i]));
    mean += u[1][i] / static_cast<double>(u[1].size());
  }
  const double static_end = force * kBarL / kE;  // unit section
  std::printf("GPU HHT rod: largest GPU-CPU difference %.3g of %.6g; mean end displacement %.6g, F L / (E A) %.6g\n",
              worst, scale, mean, static_end);
  EXPECT_LT(worst, 1e-8 * scale);
  EXPECT_NEAR(mean, static_end, 0.05 * static_end);
}

TEST(GpuImplicitDynamics, ShellPlateUnderASuddenPressureMatchesTheCpu) {
  NEED_GPU();
  const double base = plate_navier_base(), period = 2 * kPi / (2 * base), h = period / 40;
  char step[400];
  std::snprintf(step, sizeof step,
                "*NSET, NSET=MID\n221\n*AMPLITUDE, NAME=ON\n0., 1., 10., 1.\n*STEP, INC=1000\n*DYNAMIC, ALPHA=-0.1, "
                "DIRECT\n%.17g, %.17g\n*DLOAD, AMPLITUDE=ON\nP, P, -1000.\n*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=MID\n"
                "U, UR\n*END STEP\n",
                h, period);
  std::string deck = plate_deck();
  deck = deck.substr(0, deck.find("*STEP")) + step;
  std::vector<std::vector<double>> w(2);
  for (int gpu = 0; gpu < 2; ++gpu) {
    const std::string dir = scratch_dir(gpu ? "gpu_hht_plate_cuda" : "gpu_hht_plate_cpu");
    std::ofstream(dir + "/plate.inp") << deck;
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/plate.inp", dir + "/out", gpu ? "--backend cuda" : "--backend cpu", &log), 0) << log;
    const Csv c = read_csv(dir + "/out/history/MID.csv");
    for (const auto& row : c.rows) w[gpu].push_back(row[static_cast<std::size_t>(c.col("U3"))]);
  }
  ASSERT_EQ(w[0].size(), w[1].size());
  ASSERT_GE(w[0].size(), 40u);
  double worst = 0, scale = 0;
  for (std::size_t i = 0; i < w[0].size(); ++i) {
    worst = std::max(worst, std::fabs(w[1][i] - w[0][i]));
    scale = std::max(scale, std::fabs(w[0][i]));
  }
  std::printf("GPU HHT shell plate: largest GPU-CPU midpoint difference %.3g of %.6g\n", worst, scale);
  EXPECT_GT(scale, 0.0);
  EXPECT_LT(worst, 1e-8 * scale);
}

}  // namespace
}  // namespace halfstep::test
