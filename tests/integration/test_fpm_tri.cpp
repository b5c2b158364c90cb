// FPM triangles (S3 with *SHELL SECTION, FORMULATION=FPM) through the command line, decks from
// examples/generate_deck.py --triangles (each S4R quad split into two S3): a cantilever strip
// under a small tip load against PL^3/3EI (run under --backend auto), the end moment that
// rolls the strip into a full circle (Sze et al. 2004, 3.2), the free vibration of a strip
// (first frequency and energy balance), and a simply supported circular plate under follower
// pressure against Kirchhoff's closed form.
#include <cmath>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

/// Every row of the CSV at its last time, by node.
std::map<int, std::map<std::string, double>> last_rows(const Csv& csv) {
  std::map<int, std::map<std::string, double>> out;
  const double t_last = csv.rows.back()[0];
  for (const auto& r : csv.rows)
    if (r[0] == t_last)
      for (std::size_t i = 0; i < csv.header.size(); ++i) out[static_cast<int>(r[csv.col("node")])][csv.header[i]] = r[i];
  return out;
}

double energy_error(const std::string& outdir) {
  const std::string s = read_file(outdir + "/summary.json");
  const std::size_t at = s.find("\"energy_balance_error\": ");
  return at == std::string::npos ? 1.0 : std::stod(s.substr(at + 24));
}

TEST(FpmTriRun, TipLoadDeflectsAsTheKirchhoffCantilever) {
  // Sze 3.1's strip (L = 10, b = 1, h = 0.1, E = 1.2e6, nu = 0: EI = 100), 16 x 1 quads as 32
  // triangles, at 1e-4 of its load (P = 4e-4 in all): linear. Ramp and damping settle it.
  // Under --backend auto (the default): triangles run on the GPU where there is one
  // (tests/gpu compares it with the CPU), else on the CPU, and auto never refuses them.
  const std::string dir = scratch_dir("tri_tip");
  const std::string deck =
      generate_deck(dir, "tip", "cantilever-shear --triangles --fraction 0.0001 --ramp 11 --time 25");
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--backend auto --threads 1", &out), 0) << out;
  const auto tip = last_rows(read_csv(dir + "/out/history/TIP.csv"));
  ASSERT_EQ(tip.size(), 2u);
  const double p = 4e-4, w = p * 1000 / 300, theta = p * 100 / 200;
  double rot = 0;
  for (const auto& [node, row] : tip) {
    // DKT's discretization error of a 16-element strip: +3.5e-4 and +4.0e-4 at the two
    // corners (+1.9e-4 with 32 along: first order in the element size).
    EXPECT_NEAR(row.at("U3"), w, 5e-4 * w) << node;
    rot += 0.5 * row.at("UR2");
  }
  EXPECT_NEAR(rot, -theta, 1e-4 * theta);  // measured 5e-6
  EXPECT_LT(energy_error(dir + "/out"), 1e-8);  // measured 5e-11
  // Triangle cells with Abaqus S3 section forces in the element's DCS (e1 along x here):
  // the moment at the first triangle's centroid x = 5/12 of an element is -P (L - x) / b.
  const std::string vtu = dir + "/out/tip_000010.vtu";
  const std::vector<double> sm = read_vtu_array(vtu, "SM"), sf = read_vtu_array(vtu, "SF");
  ASSERT_EQ(sm.size(), 3u * 32);
  ASSERT_EQ(sf.size(), 3u * 32);
  const double m1 = -p * (10 - 0.625 / 1.5);
  EXPECT_NEAR(sm[0], m1, 0.02 * std::fabs(m1));
  EXPECT_NE(read_file(vtu).find("Name=\"S_top\""), std::string::npos);
}

TEST(FpmTriRun, EndMomentRollsTheStripIntoAFullCircle) {
  // Sze, Liu & Lo 2004, 3.2: L = 12, b = 1, h = 0.1, E = 1.2e6, nu = 0 (EI = 100); the end
  // moment 2 pi EI / L closes the circle, the tip comes back to the root. 16 x 1 quads as 32
  // triangles; ramped and damped (dynamic relaxation), then held.
  const std::string dir = scratch_dir("tri_rollup");
  const std::string deck = generate_deck(dir, "roll", "cantilever-moment --triangles --field-interval 0");
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--threads 1", &out), 0) << out;
  for (const auto& [node, row] : last_rows(read_csv(dir + "/out/history/TIP.csv"))) {
    // Measured U1 = -11.999995, U2 = -1.4e-6, U3 = -5.6e-6 at both tip nodes.
    EXPECT_NEAR(row.at("U1"), -12.0, 1e-4) << node;
    EXPECT_NEAR(row.at("U2"), 0.0, 1e-4) << node;
    EXPECT_NEAR(row.at("U3"), 0.0, 1e-4) << node;
  }
  EXPECT_LT(energy_error(dir + "/out"), 1e-8);
}

TEST(FpmTriRun, FreeVibrationHasTheFirstBendingFrequencyAndKeepsItsEnergy) {
  // A 10 x 1 x 0.1 strip (20 x 2 quads as 80 triangles, nu = 0) started with the first
  // mode's velocity, undamped, for three periods: f1 = 835.513 Hz (Euler-Bernoulli).
  const std::string dir = scratch_dir("tri_vibration");
  const std::string deck = generate_deck(dir, "v", "cantilever-vibration --triangles --nu 0 --field-interval 0");
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--threads 1", &out), 0) << out;
  const Csv h = read_csv(dir + "/out/history/TIP.csv");
  std::vector<double> up;  // upward zero crossings of the middle tip node
  double pt = 0, pu = 0;
  for (const auto& r : h.rows) {
    if (static_cast<int>(r[h.col("node")]) != 42) continue;
    const double t = r[0], u = r[h.col("U3")];
    if (t > 0 && pu < 0 && u >= 0) up.push_back(pt + (t - pt) * pu / (pu - u));
    pt = t, pu = u;
  }
  ASSERT_GE(up.size(), 2u);
  const double f = (up.size() - 1) / (up.back() - up.front());
  // Measured 833.97 Hz (-0.18 %: shear and rotary inertia lower it by about 0.1 %).
  EXPECT_NEAR(f, 835.513, 0.004 * 835.513);
  EXPECT_LT(energy_error(dir + "/out"), 1e-4);  // measured 3.9e-5
}

TEST(FpmTriRun, FollowerPressureBendsACircularPlateAsKirchhoff) {
  // Seed 000's simply supported circular plate (quarter, 48 quads as 96 triangles) under
  // *DLOAD P = 1e-4: w0 = (5 + nu) p a^4 / (64 (1 + nu) D) = 3.3768e-3 (Kirchhoff).
  const std::string dir = scratch_dir("tri_plate");
  const std::string deck = generate_deck(dir, "cp", "circular-plate --triangles --field-interval 0");
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--threads 1", &out), 0) << out;
  const auto centre = last_rows(read_csv(dir + "/out/history/CENTER.csv"));
  ASSERT_EQ(centre.size(), 1u);
  // Measured -3.36765e-3 (-0.27 % on this coarse mesh).
  EXPECT_NEAR(centre.begin()->second.at("U3"), -3.3768e-3, 0.005 * 3.3768e-3);
}

}  // namespace
}  // namespace halfstep::test
