// Planar quadrilaterals in explicit dynamics: the seed-004 cantilever (L = 10, depth 1, steel,
// tip load 1e5 N as parabolic shear), damped until it settles, against Timoshenko beam theory
// delta = P L^3 / (3 E' I) + P L / (kappa G A), kappa = 5/6, E' = E (plane stress) or
// E / (1 - nu^2) (plane strain). An 80 x 8 mesh of full-integration Q4 is 1.0 % (CPS4) and
// 1.3 % (CPE4) stiffer than the theory (shear locking of the bilinear element; a static Q4
// solution of the same mesh, computed independently, agrees with the settled value to 2e-5).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "run_util.hpp"

namespace halfstep {
namespace {

using namespace test;

struct PlaneCase {
  const char* element;
  bool plane_stress;
};

class PlaneCantilever : public ::testing::TestWithParam<PlaneCase> {};

TEST_P(PlaneCantilever, SettlesToTheStaticTipDeflection) {
  const PlaneCase c = GetParam();
  const std::string dir = scratch_dir(std::string("plane_cantilever_") + c.element);
  const std::string deck = dir + "/cantilever.inp";
  std::string out;
  ASSERT_EQ(run_command("python3 " HALFSTEP_SOURCE_DIR "/examples/generate_plane_deck.py --element " +
                            std::string(c.element) + " --nx 80 --ny 8 --time 0.26 -o " + deck,
                        &out),
            0)
      << out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--threads 2", &out), 0) << out;
  const Csv tip = read_csv(dir + "/out/history/TIP.csv");
  ASSERT_GE(tip.rows.size(), 50u);
  const std::size_t u2 = static_cast<std::size_t>(tip.col("U2"));
  const double settled = tip.rows.back()[u2];
  const double earlier = tip.rows[tip.rows.size() - 6][u2];  // 5 % of the step before the end
  const double E = 210e9, nu = 0.3, P = 1e5, L = 10, h = 1, I = h * h * h / 12, G = E / (2 * (1 + nu));
  const double Eb = c.plane_stress ? E : E / (1 - nu * nu);
  const double ref = P * L * L * L / (3 * Eb * I) + P * L / (5.0 / 6.0 * G * h);
  EXPECT_LT(std::fabs(settled - earlier), 1e-3 * ref) << "not settled: " << earlier << " -> " << settled;
  EXPECT_LT(std::fabs(settled / ref - 1), 0.02) << c.element << ": tip " << settled << ", Timoshenko " << ref;
  // The clamp carries the load.
  const Csv rf = read_csv(dir + "/out/history/CLAMP_total.csv");
  EXPECT_NEAR(rf.rows.back()[static_cast<std::size_t>(rf.col("RF2"))], -P, 1e-3 * P);
}

INSTANTIATE_TEST_SUITE_P(Plane, PlaneCantilever,
                         ::testing::Values(PlaneCase{"CPS4", true}, PlaneCase{"CPE4", false}),
                         [](const ::testing::TestParamInfo<PlaneCase>& i) { return std::string(i.param.element); });

}  // namespace
}  // namespace halfstep
