// Point masses (*ELEMENT, TYPE=MASS with *MASS; issue 16): a bar clamped at one end with a
// heavy mass at the other vibrates axially at omega = beta c / L, beta tan beta = m_bar / M
// (the exact first root, not a lumped estimate), and the mass is in the kinetic energy.
#include <cmath>
#include <fstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

/// A 4 x 1 x 1 bar of four C3D8R (E = 1000, nu = 0, rho = 1), clamped at x = 0; the four
/// nodes at x = 4 carry 10 each (M = 40, ten times the bar's mass) and start at v0 = 0.1.
std::string bar_with_tip_mass(double period) {
  std::string d = "*HEADING\nbar with a tip mass\n*NODE\n";
  int id = 1;
  for (int i = 0; i <= 4; ++i)
    for (int k = 0; k <= 1; ++k)
      for (int j = 0; j <= 1; ++j) d += std::to_string(id++) + ", " + std::to_string(i) + ", " + std::to_string(j) + ", " + std::to_string(k) + "\n";
  const auto n = [](int i, int j, int k) { return 1 + 4 * i + 2 * k + j; };
  d += "*ELEMENT, TYPE=C3D8R, ELSET=BAR\n";
  for (int i = 0; i < 4; ++i)
    d += std::to_string(i + 1) + ", " + std::to_string(n(i, 0, 0)) + ", " + std::to_string(n(i + 1, 0, 0)) + ", " +
         std::to_string(n(i + 1, 1, 0)) + ", " + std::to_string(n(i, 1, 0)) + ", " + std::to_string(n(i, 0, 1)) + ", " +
         std::to_string(n(i + 1, 0, 1)) + ", " + std::to_string(n(i + 1, 1, 1)) + ", " + std::to_string(n(i, 1, 1)) + "\n";
  d += "*ELEMENT, TYPE=MASS, ELSET=TIPMASS\n";
  for (int m = 0; m < 4; ++m) d += std::to_string(101 + m) + ", " + std::to_string(17 + m) + "\n";
  d += "*MASS, ELSET=TIPMASS\n10.\n*NSET, NSET=X0\n1, 2, 3, 4\n*NSET, NSET=TIP\n17, 18, 19, 20\n"
       "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.\n*DENSITY\n1.\n*SOLID SECTION, ELSET=BAR, MATERIAL=M\n"
       "*INITIAL CONDITIONS, TYPE=VELOCITY\nTIP, 1, 0.1\n*BOUNDARY\nX0, 1, 3\n*STEP\n*DYNAMIC, EXPLICIT\n, " +
       std::to_string(period) + "\n*OUTPUT, HISTORY, TIME INTERVAL=" + std::to_string(period / 2000) +
       "\n*NODE OUTPUT, NSET=TIP\nU\n*END STEP\n";
  return d;
}

TEST(PointMass, HeavyTipMassSetsTheAxialFrequency) {
  // beta tan beta = 0.1 (bar mass 4 over M = 40): beta = 0.31105; c = sqrt(1000), L = 4.
  double beta = 0.3;
  for (int it = 0; it < 50; ++it) beta -= (beta * std::tan(beta) - 0.1) / (std::tan(beta) + beta / std::pow(std::cos(beta), 2));
  const double omega = beta * std::sqrt(1000.0) / 4.0, period = 2 * M_PI / omega;
  const std::string dir = scratch_dir("point_mass");
  std::ofstream(dir + "/m.inp") << bar_with_tip_mass(period);
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/m.inp", dir + "/out", "", &out), 0) << out;
  const Csv h = read_csv(dir + "/out/history/TIP.csv");
  // Half a period: U1 of the tip returns through zero going negative.
  double prev_t = 0, prev_u = 0, half = 0;
  for (const auto& r : h.rows) {
    if (r[h.col("node")] != 17) continue;
    const double t = r[0], u = r[h.col("U1")];
    if (t > 0.1 * period && prev_u > 0 && u <= 0) {
      half = prev_t + (t - prev_t) * prev_u / (prev_u - u);
      break;
    }
    prev_t = t, prev_u = u;
  }
  ASSERT_GT(half, 0.0);
  EXPECT_NEAR(2 * half, period, 0.01 * period);
  // The kinetic energy at the start is the tip mass's and the tip nodes' own: 1/2 (40 + 4 x 1/8) v0^2.
  const Csv e = read_csv(dir + "/out/energy.csv");
  EXPECT_NEAR(e.rows.front()[e.col("kinetic")], 0.5 * (40 + 0.5) * 0.01, 1e-12);
  // `halfstep check` counts them, and the total mass holds them.
  ASSERT_EQ(run_command(std::string(HALFSTEP_BINARY) + " check " + dir + "/m.inp", &out), 0) << out;
  EXPECT_NE(out.find("point masses    4 (40 in all)"), std::string::npos) << out;
  EXPECT_NE(out.find("total mass      44"), std::string::npos) << out;
}

}  // namespace
}  // namespace halfstep::test
