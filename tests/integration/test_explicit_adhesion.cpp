// *ADHESION in explicit dynamic steps (issue 44 item 5), against closed forms. A stiff CPE4
// block 4 x 1 (nu = 0, rho = 1: mass 4 per unit thickness) moves as a rigid body on its bottom
// face's adhesion edges, a spring k = (slope) x 4 to the substrate: omega = sqrt(k / 4).
//  - Penalty law, the block dropped onto the substrate at v0: it stays in contact for half a
//    period pi / omega, sinks v0 / omega and leaves at v0 (the law stores and returns the
//    energy).
//  - Lennard-Jones law, the block resting at the rest gap and nudged at v0: it oscillates with
//    the law's slope there, dT/dr = scale (s^10 / 5 - s^4) / r0 at s = 15^(1/6), i.e.
//    12.164 scale / r0. The law is stiffer towards the substrate, so the half periods differ
//    at first order in the amplitude (1e-3 r0: measured 0.4 %); the period and the
//    peak-to-peak amplitude only at second order.
// The block's own stiffness (E = 1e4 times the law's) shifts omega by about 1e-4.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

/// The block's deck: 4 x 1 CPE4 over x in [0, 4], y in [y0, y0 + 1], every node moving at
/// (0, v0), the bottom face's adhesion `adhesion` (keyword and data lines), density rho, the
/// explicit step `period` long.
std::string block_deck(double y0, double v0, double rho, double E, const std::string& adhesion, double period) {
  std::ostringstream d;
  d.precision(17);
  d << "*NODE, NSET=ALL\n";
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 5; ++i) d << 1 + i + 5 * j << ", " << i << ", " << y0 + j << "\n";
  d << "*ELEMENT, TYPE=CPE4, ELSET=BLOCK\n";
  for (int i = 0; i < 4; ++i) d << i + 1 << ", " << i + 1 << ", " << i + 2 << ", " << i + 7 << ", " << i + 6 << "\n";
  d << "*NSET, NSET=BOT\n1, 2, 3, 4, 5\n*SURFACE, NAME=BOTTOM, TYPE=ELEMENT\nBLOCK, S1\n" << adhesion
    << "*MATERIAL, NAME=M\n*ELASTIC\n" << E << ", 0\n*DENSITY\n" << rho << "\n*SOLID SECTION, ELSET=BLOCK, MATERIAL=M\n1.\n"
    << "*INITIAL CONDITIONS, TYPE=VELOCITY\nALL, 2, " << v0 << "\n"
    << "*STEP\n*DYNAMIC, EXPLICIT\n, " << period << "\n*OUTPUT, HISTORY, TIME INTERVAL=" << period / 2000
    << "\n*NODE OUTPUT, NSET=BOT\nU, V\n*END STEP\n";
  return d.str();
}

/// Mean over BOT's nodes of column `col`, per history time.
std::vector<std::pair<double, double>> mean_series(const Csv& h, const char* col) {
  std::vector<std::pair<double, double>> out;
  for (const auto& r : h.rows) {
    if (out.empty() || std::fabs(out.back().first - r[0]) > 1e-12) out.emplace_back(r[0], 0.0);
    out.back().second += r[static_cast<std::size_t>(h.col(col))] / 5;
  }
  return out;
}

/// First time after t0 at which the series crosses zero upwards (linear interpolation).
double up_crossing(const std::vector<std::pair<double, double>>& s, double t0) {
  for (std::size_t i = 1; i < s.size(); ++i)
    if (s[i].first > t0 && s[i - 1].second < 0 && s[i].second >= 0)
      return s[i - 1].first + (s[i].first - s[i - 1].first) * -s[i - 1].second / (s[i].second - s[i - 1].second);
  return -1;
}

TEST(ExplicitAdhesion, PenaltyBounceLastsHalfAPeriodAndKeepsTheSpeed) {
  // k = 1 x 4 per unit thickness, mass 4: omega = 1.
  const double v0 = 0.01;
  const std::string dir = scratch_dir("explicit_adhesion_bounce");
  std::ofstream(dir + "/bounce.inp") << block_deck(0.0, -v0, 1.0, 1e4,
                                                   "*ADHESION, SURFACE=BOTTOM, LAW=PENALTY\n1.\n0, 0, 0, 1\n", 4.0);
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/bounce.inp", dir + "/out", "", &out), 0) << out;
  const auto u = mean_series(read_csv(dir + "/out/history/BOT.csv"), "U2");
  const auto v = mean_series(read_csv(dir + "/out/history/BOT.csv"), "V2");
  ASSERT_GT(u.size(), 500u);
  const double left = up_crossing(u, 0.1);
  double lowest = 0;
  for (const auto& p : u) lowest = std::min(lowest, p.second);
  std::printf("penalty bounce: contact for %.7f (pi), sank %.7g (%.7g), left at %.7g (%.7g)\n", left, -lowest, v0,
              v.back().second, v0);
  EXPECT_NEAR(left, M_PI, 1e-4 * M_PI);               // measured 1.1e-5
  EXPECT_NEAR(-lowest, v0, 1e-4 * v0);                // measured 8.7e-6
  EXPECT_NEAR(v.back().second, v0, 2e-4 * v0);        // measured 4.0e-5
}

TEST(ExplicitAdhesion, LennardJonesBlockOscillatesWithTheLawsSlopeAtRest) {
  // r0 = 1, A_H = 2 pi (scale 1): slope 12.164 at rest, k = 48.66; rho = 12.164: omega = 1.
  const double slope = std::pow(15.0, 5.0 / 3.0) / 5 - std::pow(15.0, 2.0 / 3.0), rest = std::pow(15.0, -1.0 / 6.0);
  const double v0 = 1e-3;
  const std::string dir = scratch_dir("explicit_adhesion_lj");
  std::ostringstream adhesion;
  adhesion.precision(17);
  adhesion << "*ADHESION, SURFACE=BOTTOM, LAW=LENNARD-JONES\n" << 2 * M_PI << ", 1.\n0, 0, 0, 1\n";
  std::ofstream(dir + "/lj.inp") << block_deck(rest, -v0, slope, 1e4 * slope, adhesion.str(), 3.5 * M_PI);
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/lj.inp", dir + "/out", "", &out), 0) << out;
  const auto u = mean_series(read_csv(dir + "/out/history/BOT.csv"), "U2");
  const double first = up_crossing(u, 0.1), second = up_crossing(u, first + 1.0);
  double lowest = 0, highest = 0;
  for (const auto& p : u) lowest = std::min(lowest, p.second), highest = std::max(highest, p.second);
  std::printf("Lennard-Jones block: period %.7f (2 pi = %.7f), first half %.7f, peak to peak / 2 %.7g (%.7g)\n",
              second - first, 2 * M_PI, first, (highest - lowest) / 2, v0);
  EXPECT_NEAR(second - first, 2 * M_PI, 2e-4 * 2 * M_PI);  // measured 3.1e-5
  EXPECT_NEAR((highest - lowest) / 2, v0, 1e-4 * v0);       // measured 4e-6
}

}  // namespace
}  // namespace halfstep::test
