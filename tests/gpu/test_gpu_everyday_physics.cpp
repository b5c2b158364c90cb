// The everyday physics' closed-form checks (issue 45) on the GPU: the block falling under
// whole-model gravity (g t^2 / 2, explicit), the S4R cantilever under its own weight in a
// static step on the CUDA tangent engine (q L^4 / 8 E I with the shear term), and the block
// settling on a LINEAR softened floor (p / k, explicit), the CPU tests' decks
// (tests/integration/everyday_decks.hpp) and bounds. The heated bar (GpuThermal) and the
// mixed S4R/S3R plate against Navier (GpuStaticFpm, GpuMatchesCpu) have their own. Skipped
// without a GPU.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "../integration/everyday_decks.hpp"
#include "need_gpu.hpp"

namespace halfstep::test {
namespace {

TEST(GpuEverydayPhysics, FreeBlockFallsHalfGTSquared) {
  NEED_GPU();
  const double period = 0.2;
  const std::string dir = scratch_dir("gpu_gravity_fall");
  std::ofstream(dir + "/fall.inp") << everyday::falling_block(period);
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/fall.inp", dir + "/out", "--backend cuda", &out), 0) << out;
  const Csv h = read_csv(dir + "/out/history/ALL.csv");
  double worst = 0;
  int rows = 0;
  for (const auto& r : h.rows) {
    const double expect = -0.5 * 9.81 * r[0] * r[0];
    worst = std::max(worst, std::fabs(r[h.col("U3")] - expect));
    EXPECT_NEAR(r[h.col("U3")], expect, 1e-12 + 1e-10 * std::fabs(expect)) << "node " << r[h.col("node")] << " at " << r[0];
    EXPECT_NEAR(r[h.col("A3")], -9.81, 1e-10);
    ++rows;
  }
  std::printf("GPU falling block: largest |U3 + g t^2 / 2| %.2e over %d rows\n", worst, rows);
  EXPECT_GE(rows, 12 * 10);
}

TEST(GpuEverydayPhysics, ShellCantileverUnderItsOwnWeightInAStaticStep) {
  NEED_GPU();
  const std::string dir = scratch_dir("gpu_gravity_cantilever");
  std::ofstream(dir + "/c.inp") << everyday::shell_cantilever(40);
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/c.inp", dir + "/out", "--backend cuda", &out), 0) << out;
  const double expect = everyday::shell_cantilever_tip();
  const double w = -last_time_average(read_csv(dir + "/out/history/TIP.csv")).at("U3");
  std::printf("GPU S4R cantilever under its own weight: tip w %.7f, closed form %.7f\n", w, expect);
  EXPECT_NEAR(w, expect, 1e-5 * expect);
}

TEST(GpuEverydayPhysics, LinearSoftenedFloorSettlesAtPressureOverSlope) {
  NEED_GPU();
  const everyday::FloorResult r =
      everyday::run_floor("gpu_softened_linear", "*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=LINEAR\n1e4\n", "cuda");
  EXPECT_NEAR(r.u3_mean, -everyday::kPressure / 1e4, 1e-4 * everyday::kPressure / 1e4);
  EXPECT_LT(r.u3_spread, 1e-12);
  EXPECT_NEAR(r.cpress, everyday::kPressure, 1e-4 * everyday::kPressure);
}

}  // namespace
}  // namespace halfstep::test
