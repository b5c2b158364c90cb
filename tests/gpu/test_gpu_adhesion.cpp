// *ADHESION edges in explicit steps on the CUDA backend: the block of tests/integration/
// adhesion_block.hpp (a penalty bounce, a Lennard-Jones oscillation) against the closed forms
// in FP64, as on the CPU, and against the CPU backend's run to round-off (the same element
// code); FP32 against the closed forms to what single precision gives. Skipped without a GPU.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "../integration/adhesion_block.hpp"
#include "need_gpu.hpp"

namespace halfstep::test {
namespace {

using namespace adhesion_block;

/// The largest difference between two runs' U2 histories, over their common rows.
double largest_difference(const BlockRun& a, const BlockRun& b) {
  double d = 0;
  for (std::size_t i = 0; i < std::min(a.u.size(), b.u.size()); ++i) d = std::max(d, std::fabs(a.u[i].second - b.u[i].second));
  return d;
}

TEST(GpuAdhesion, PenaltyBounceMatchesTheClosedFormsAndTheCpu) {
  NEED_GPU();
  const double v0 = kBounceSpeed;
  const BlockRun cpu = bounce("gpu_adhesion_bounce_cpu", "--backend cpu");
  ASSERT_GT(cpu.u.size(), 500u) << cpu.log;
  for (const char* precision : {"double", "single"}) {
    const bool fp64 = std::string(precision) == "double";
    const BlockRun r = bounce(std::string("gpu_adhesion_bounce_") + precision, std::string("--backend cuda --precision ") + precision);
    ASSERT_EQ(r.u.size(), cpu.u.size()) << r.log;
    const Bounce b = bounce_measures(r);
    const double diff = largest_difference(r, cpu);
    std::printf("GPU %s penalty bounce: contact for %.7f (pi), sank %.7g (%.7g), left at %.7g (%.7g), |U2 - CPU's| <= %.3g\n",
                precision, b.left, b.sunk, v0, b.speed, v0, diff);
    const double tol = fp64 ? 1e-4 : 1e-2;
    EXPECT_NEAR(b.left, M_PI, tol * M_PI);
    EXPECT_NEAR(b.sunk, v0, tol * v0);
    EXPECT_NEAR(b.speed, v0, 2 * tol * v0);
    if (fp64) {
      EXPECT_LT(diff, 1e-10 * v0);
    }
  }
}

TEST(GpuAdhesion, LennardJonesOscillationMatchesTheClosedFormsAndTheCpu) {
  NEED_GPU();
  const double v0 = kOscillationSpeed;
  const BlockRun cpu = oscillation("gpu_adhesion_lj_cpu", "--backend cpu");
  ASSERT_GT(cpu.u.size(), 500u) << cpu.log;
  for (const char* precision : {"double", "single"}) {
    const bool fp64 = std::string(precision) == "double";
    const BlockRun r =
        oscillation(std::string("gpu_adhesion_lj_") + precision, std::string("--backend cuda --precision ") + precision);
    ASSERT_EQ(r.u.size(), cpu.u.size()) << r.log;
    const Oscillation o = oscillation_measures(r);
    const double diff = largest_difference(r, cpu);
    std::printf("GPU %s Lennard-Jones block: period %.7f (2 pi), peak to peak / 2 %.7g (%.7g), |U2 - CPU's| <= %.3g\n",
                precision, o.period, o.amplitude, v0, diff);
    const double tol = fp64 ? 2e-4 : 1e-2;
    EXPECT_NEAR(o.period, 2 * M_PI, tol * 2 * M_PI);
    EXPECT_NEAR(o.amplitude, v0, (fp64 ? 1e-4 : 1e-2) * v0);
    if (fp64) {
      EXPECT_LT(diff, 1e-10 * v0);
    }
  }
}

}  // namespace
}  // namespace halfstep::test
