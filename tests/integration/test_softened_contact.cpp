// Softened contact (*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=LINEAR, TABULAR, EXPONENTIAL; issue
// 45 item 4) in explicit runs against closed forms: a block pressed onto a held base through a
// softened contact pair settles at the overclosure where the law's pressure equals the load
// (LINEAR: p / k; TABULAR on its second segment; EXPONENTIAL at a clearance, the block held off
// the base), with CPRESS equal to the pressure; a slope far stiffer than the stable increment
// allows is capped at the hard spring and the run stays stable.
#include <cmath>
#include <fstream>
#include <string>

#include "everyday_decks.hpp"
#include "run_util.hpp"

namespace halfstep::test {
namespace {

using everyday::FloorResult;
using everyday::kPressure;
using everyday::run_floor;

// Each node's force is its area's share of the load and its spring's stiffness the slope times
// the same area: every bottom node sinks p / k. Measured (CPU): -1.000006e-3 (the damped
// settling 6e-6 short of rest), spread 3e-16, CPRESS 10.00006; asserted at 1e-4.
TEST(SoftenedContact, LinearFloorSettlesAtPressureOverSlope) {
  const FloorResult r = run_floor("softened_linear", "*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=LINEAR\n1e4\n");
  EXPECT_NEAR(r.u3_mean, -kPressure / 1e4, 1e-4 * kPressure / 1e4);
  EXPECT_LT(r.u3_spread, 1e-12);
  EXPECT_NEAR(r.cpress, kPressure, 1e-4 * kPressure);
}

// (pressure, overclosure) (0, 0), (5, 1e-3), (20, 2e-3): 10 lies on the second segment, at
// 1e-3 + 5 / 1.5e4 = 1.3333e-3. Measured (CPU): 1.333337e-3, CPRESS 10.00006.
TEST(SoftenedContact, TabularFloorSettlesOnItsSecondSegment) {
  const FloorResult r =
      run_floor("softened_tabular", "*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=TABULAR\n0., 0.\n5., 1e-3\n20., 2e-3\n");
  const double expect = -(1e-3 + 5.0 / 1.5e4);
  EXPECT_NEAR(r.u3_mean, expect, 1e-4 * std::fabs(expect));
  EXPECT_NEAR(r.cpress, kPressure, 1e-4 * kPressure);
}

// c0 = 0.01, p0 = 20: the pressure of 10 holds the block at the clearance c where
// u (e^u - 1) = 10 (e - 1) / 20, u = 1 - c / c0: off the base, the block's bottom above it.
// Measured (CPU): 2.421559e-3 against 2.421578e-3 (-8e-6), CPRESS 10.00006.
TEST(SoftenedContact, ExponentialFloorHoldsTheBlockAtAClearance) {
  const FloorResult r = run_floor("softened_exponential", "*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=EXPONENTIAL\n0.01, 20.\n");
  double u = 1;
  for (int it = 0; it < 50; ++it) {  // Newton on u (e^u - 1) = 10 (e - 1) / 20
    const double g = u * (std::exp(u) - 1) - kPressure * (std::exp(1.0) - 1) / 20, dg = std::exp(u) - 1 + u * std::exp(u);
    u -= g / dg;
  }
  const double clearance = (1 - u) * 0.01;
  EXPECT_NEAR(clearance, 2.4216e-3, 1e-7);
  EXPECT_NEAR(r.u3_mean, clearance, 1e-4 * clearance);
  EXPECT_NEAR(r.cpress, kPressure, 1e-4 * kPressure);
}

// A slope of 1e15 is far beyond what the stable increment allows: each node's spring is capped
// at the hard spring's stiffness, so the block sinks a hair (as under hard contact) and the run
// stays stable. Measured (CPU): -1.21e-5 (the hard spring's compliance).
TEST(SoftenedContact, OverStiffSlopeIsCappedAtTheHardSpring) {
  const FloorResult r = run_floor("softened_stiff", "*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=LINEAR\n1e15\n");
  EXPECT_LT(r.u3_mean, 0.0);
  EXPECT_GT(r.u3_mean, -2e-5);
  EXPECT_NEAR(r.cpress, kPressure, 1e-4 * kPressure);
}

}  // namespace
}  // namespace halfstep::test
