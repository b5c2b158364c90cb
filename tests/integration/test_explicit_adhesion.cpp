// *ADHESION in explicit dynamic steps (issue 44 item 5), against closed forms: the block of
// adhesion_block.hpp bouncing on a penalty substrate and oscillating at the Lennard-Jones
// rest gap, on the CPU backend (tests/gpu/test_gpu_adhesion.cpp runs them on the GPU).
#include <cmath>
#include <cstdio>

#include "adhesion_block.hpp"

namespace halfstep::test {
namespace {

using namespace adhesion_block;

TEST(ExplicitAdhesion, PenaltyBounceLastsHalfAPeriodAndKeepsTheSpeed) {
  const BlockRun r = bounce("explicit_adhesion_bounce", "--backend cpu");
  ASSERT_GT(r.u.size(), 500u) << r.log;
  const Bounce b = bounce_measures(r);
  const double v0 = kBounceSpeed;
  std::printf("penalty bounce: contact for %.7f (pi), sank %.7g (%.7g), left at %.7g (%.7g)\n", b.left, b.sunk, v0,
              b.speed, v0);
  EXPECT_NEAR(b.left, M_PI, 1e-4 * M_PI);  // measured 1.1e-5
  EXPECT_NEAR(b.sunk, v0, 1e-4 * v0);      // measured 8.7e-6
  EXPECT_NEAR(b.speed, v0, 2e-4 * v0);     // measured 4.0e-5
}

TEST(ExplicitAdhesion, LennardJonesBlockOscillatesWithTheLawsSlopeAtRest) {
  const BlockRun r = oscillation("explicit_adhesion_lj", "--backend cpu");
  ASSERT_GT(r.u.size(), 500u) << r.log;
  const Oscillation o = oscillation_measures(r);
  const double v0 = kOscillationSpeed;
  std::printf("Lennard-Jones block: period %.7f (2 pi = %.7f), first half %.7f, peak to peak / 2 %.7g (%.7g)\n",
              o.period, 2 * M_PI, o.first, o.amplitude, v0);
  EXPECT_NEAR(o.period, 2 * M_PI, 2e-4 * 2 * M_PI);  // measured 3.1e-5
  EXPECT_NEAR(o.amplitude, v0, 1e-4 * v0);           // measured 4e-6
}

}  // namespace
}  // namespace halfstep::test
