// Undamped free vibration of a cantilever strip started in its first mode: energy is
// conserved and the first frequency matches beam theory.
#include <cmath>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

TEST(FreeVibration, EnergyConservedAndFirstFrequencyMatchesBeamTheory) {
  const std::string dir = scratch_dir("vibration");
  const std::string deck = generate_deck(dir, "vib", "cantilever-vibration --nu 0");
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "", &out), 0) << out;
  const Csv tip = read_csv(dir + "/out/history/TIP.csv");
  const int u3 = tip.col("U3");
  const double node = tip.rows.at(0).at(1);
  std::vector<double> crossings;
  for (std::size_t i = 1; i < tip.rows.size(); ++i) {
    // Consecutive samples of the same node.
    std::size_t j = i;
    while (j < tip.rows.size() && tip.rows[j][1] != node) ++j;
    if (j >= tip.rows.size()) break;
    static double t_prev = -1, u_prev = 0;
    const double t = tip.rows[j][0], u = tip.rows[j][u3];
    if (t_prev > 0 && ((u_prev > 0 && u <= 0) || (u_prev < 0 && u >= 0)))
      crossings.push_back(t_prev + (t - t_prev) * u_prev / (u_prev - u));
    t_prev = t;
    u_prev = u;
    i = j;
  }
  ASSERT_GE(crossings.size(), 4u);
  const double period = 2 * (crossings.back() - crossings.front()) / (crossings.size() - 1);
  const double L = 10, h = 0.1, E = 2.1e5, rho = 7.85e-9;
  const double f1 = 1.8751040687 * 1.8751040687 / (2 * M_PI * L * L) * std::sqrt(E * h * h / (12 * rho));
  EXPECT_LT(std::fabs(1 / period - f1) / f1, 0.02) << "f = " << 1 / period << ", beam theory " << f1;

  const Csv energy = read_csv(dir + "/out/energy.csv");
  double lo = 1e300, hi = -1e300, ke = 0;
  for (const auto& r : energy.rows) {
    lo = std::min(lo, r[energy.col("total")]);
    hi = std::max(hi, r[energy.col("total")]);
    ke = std::max(ke, r[energy.col("kinetic")]);
  }
  EXPECT_LT((hi - lo) / ke, 0.005) << "total energy varies by " << (hi - lo) / ke;
}

}  // namespace
}  // namespace halfstep::test
