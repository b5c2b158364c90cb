// J2 plasticity in static steps (issue 44 item 3): a bar stretched past yield follows the
// closed form of uniaxial stress at finite strain and keeps its plastic strain when released
// (the return map's state committed only on convergence), and a thick-walled cylinder under
// internal pressure matches Hill's elastic-plastic solution; Newton's iterations show the
// consistent tangent (few per increment).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

#include "static_plasticity.hpp"

namespace halfstep::test {
namespace {

using namespace plasticity;

class StaticPlasticBar : public ::testing::TestWithParam<const char*> {};

TEST_P(StaticPlasticBar, StretchAndReleaseFollowTheLogStrainClosedForm) {
  const std::string type = GetParam();
  const std::string dir = scratch_dir("plastic_bar_" + type);
  std::ofstream(dir + "/bar.inp") << bar_deck(type);
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const UniaxialClosedForm cf(kStretch);
  const Csv xl = read_csv(dir + "/out/history/XL.csv"), top = read_csv(dir + "/out/history/TOP.csv");
  int n = 0;
  const double rf1 = 4 * mean_at(xl, "RF1", 1.0, &n);
  ASSERT_EQ(n, 4);
  const double lateral = 1 + mean_at(top, "U2", 1.0);
  std::printf("%s stretched: RF1 %.9g (closed form %.9g), lateral stretch %.9g (%.9g)\n", type.c_str(), rf1, cf.force,
              lateral, cf.lateral);
  // To the accuracy Newton's checks stop at: the force within 2.8e-6 (C3D8R, whose increments
  // grow from the third on), the lateral strain within about 1e-8.
  EXPECT_NEAR(rf1, cf.force, 5e-6 * cf.force);
  EXPECT_NEAR(lateral, cf.lateral, 1e-7);
  const auto frames = pvd_frames(dir + "/out/bar.pvd");
  ASSERT_GE(frames.size(), 3u);
  // The frame at the end of the first step (the last one before t = 2).
  std::string loaded;
  for (const auto& f : frames)
    if (std::fabs(f.first - 1.0) < 1e-9) loaded = f.second;
  ASSERT_FALSE(loaded.empty());
  const std::vector<double> s = read_vtu_array(dir + "/out/" + loaded, "S"),
                            peeq = read_vtu_array(dir + "/out/" + loaded, "PEEQ");
  ASSERT_EQ(s.size(), 6u * kBarCubes);
  ASSERT_EQ(peeq.size(), static_cast<std::size_t>(kBarCubes));
  for (int e = 0; e < kBarCubes; ++e) {
    EXPECT_NEAR(s[6 * e], cf.s11, 2e-5 * cf.s11) << "S11 of element " << e + 1;  // E x 1e-8 of strain
    EXPECT_NEAR(peeq[e], cf.alpha, 1e-6) << "PEEQ of element " << e + 1;
  }
  // Released: no stress, and the plastic strain stays (stretch exp(alpha)).
  const double u_end = mean_at(xl, "U1", 2.0), lat_end = 1 + mean_at(top, "U2", 2.0);
  std::printf("%s released: end U1 %.9g (closed form %.9g), lateral %.9g (%.9g)\n", type.c_str(), u_end,
              (cf.released - 1) * kBarCubes, lat_end, cf.released_lateral);
  EXPECT_NEAR(u_end, (cf.released - 1) * kBarCubes, 1e-7);
  EXPECT_NEAR(lat_end, cf.released_lateral, 1e-7);
  const std::vector<double> s2 = read_vtu_array(dir + "/out/" + frames.back().second, "S"),
                            peeq2 = read_vtu_array(dir + "/out/" + frames.back().second, "PEEQ");
  ASSERT_EQ(s2.size(), 6u * kBarCubes);
  // The plastic work, int tau d alpha = sigma_y alpha + H alpha^2 / 2 per unit reference
  // volume, in energy.csv's plastic_dissipation (the step's last row, before the release).
  const Csv energy = read_csv(dir + "/out/energy.csv");
  double dissipated = NAN;
  for (const auto& row : energy.rows)
    if (std::fabs(row[0] - 1.0) < 1e-9) dissipated = row[static_cast<std::size_t>(energy.col("plastic_dissipation"))];
  const double work = kBarCubes * (kYield * cf.alpha + 0.5 * kH * cf.alpha * cf.alpha);
  std::printf("%s plastic dissipation %.9g (closed form %.9g)\n", type.c_str(), dissipated, work);
  EXPECT_NEAR(dissipated, work, 1e-5 * work);
  for (double v : s2) EXPECT_NEAR(v, 0.0, 1e-5 * kYield);
  for (double v : peeq2) EXPECT_NEAR(v, cf.alpha, 1e-6);
}

INSTANTIATE_TEST_SUITE_P(Kinds, StaticPlasticBar, ::testing::Values("C3D8", "C3D8R"));

// A static preload then an explicit step (issue 44 item 6): the explicit step starts from the
// converged plastic state. Held at the stretch, the bar stays at the closed form's stress; an
// explicit step that started from no plastic strain would put E ln(1.1) = 19,000 in it.
TEST(StaticPlasticity, ExplicitStepStartsFromTheStaticPlasticState) {
  const std::string dir = scratch_dir("plastic_bar_then_explicit");
  std::string deck = bar_deck("C3D8R");
  deck = deck.substr(0, deck.rfind("*STEP, NLGEOM=YES"));  // the stretch step only
  const std::string section = "*SOLID SECTION";
  deck.insert(deck.find(section), "*DENSITY\n7.8e-9\n");
  deck += "*STEP\n*DYNAMIC, EXPLICIT\n, 2e-5\n*OUTPUT, FIELD, NUMBER INTERVAL=1\n*ELEMENT OUTPUT\nS, PEEQ\n*END STEP\n";
  std::ofstream(dir + "/bar.inp") << deck;
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const UniaxialClosedForm cf(kStretch);
  const auto frames = pvd_frames(dir + "/out/bar.pvd");
  ASSERT_GE(frames.size(), 2u);
  ASSERT_GT(frames.back().first, 1.0);  // a frame of the explicit step
  const std::vector<double> s = read_vtu_array(dir + "/out/" + frames.back().second, "S"),
                            peeq = read_vtu_array(dir + "/out/" + frames.back().second, "PEEQ");
  ASSERT_EQ(s.size(), 6u * kBarCubes);
  for (int e = 0; e < kBarCubes; ++e) {
    std::printf("explicit after static, element %d: S11 %.9g (closed form %.9g), PEEQ %.9g (%.9g)\n", e + 1,
                s[6 * e], cf.s11, peeq[e], cf.alpha);
    EXPECT_NEAR(s[6 * e], cf.s11, 1e-4 * cf.s11) << "S11 of element " << e + 1;
    EXPECT_NEAR(peeq[e], cf.alpha, 1e-6) << "PEEQ of element " << e + 1;
  }
}

class HillCylinder : public ::testing::TestWithParam<bool> {};

// NLGEOM=YES (finite strain) and a geometrically linear step (the small-strain theory, Hill's own).
TEST_P(HillCylinder, ThickCylinderMatchesHill) {
  const bool nlgeom = GetParam();
  const std::string dir = scratch_dir(nlgeom ? "hill_cylinder" : "hill_cylinder_linear");
  std::ofstream(dir + "/cyl.inp") << cylinder_deck(nlgeom);
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/cyl.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const auto frames = pvd_frames(dir + "/out/cyl.pvd");
  ASSERT_FALSE(frames.empty());
  const std::vector<double> s = read_vtu_array(dir + "/out/" + frames.back().second, "S"),
                            peeq = read_vtu_array(dir + "/out/" + frames.back().second, "PEEQ");
  ASSERT_EQ(s.size(), 6u * kRadial * kRing);
  const double p = hill_pressure(kC);
  double worst = 0;
  for (int e = 0; e < kRadial * kRing; ++e) {
    double r, t;
    cylinder_cell(e, r, t);
    const double c = std::cos(t), sn = std::sin(t);
    const double* se = &s[6 * static_cast<std::size_t>(e)];
    const double sr = se[0] * c * c + se[1] * sn * sn + 2 * se[3] * sn * c;
    const double st = se[0] * sn * sn + se[1] * c * c - 2 * se[3] * sn * c;
    double hr, ht;
    hill_stress(r, kC, hr, ht);
    worst = std::max({worst, std::fabs(sr - hr), std::fabs(st - ht)});
    // Yielded inside the front, elastic outside (the cells next to it may go either way).
    if (r < kC - 0.5) {
      EXPECT_GT(peeq[e], 0.0) << "element " << e + 1 << " at r = " << r;
    }
    if (r > kC + 0.5) {
      EXPECT_EQ(peeq[e], 0.0) << "element " << e + 1 << " at r = " << r;
    }
  }
  const std::string summary = read_file(dir + "/out/summary.json");
  const double increments = summary_number(summary, "increments"), iterations = summary_number(summary, "newton_iterations");
  std::printf("Hill cylinder (%s), p = %.6g: largest stress difference %.4g (%.3g %% of p); %g increments, %g "
              "iterations\n",
              nlgeom ? "NLGEOM" : "linear", p, worst, 100 * worst / p, increments, iterations);
  EXPECT_LT(worst, 0.02 * p);
  // The consistent tangent: Newton converges in a few iterations per increment.
  EXPECT_LE(iterations, 5 * increments);
}

INSTANTIATE_TEST_SUITE_P(Kinematics, HillCylinder, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "Nlgeom" : "Linear"; });

// A geometrically linear step (issue 44: plasticity in every static context): the small-strain
// theory's uniaxial closed form, stretched and released, with the same state committed only on
// convergence; S is sigma, E the small strain, PEEQ the plastic strain.
TEST_P(StaticPlasticBar, LinearStepFollowsTheSmallStrainClosedForm) {
  const std::string type = GetParam();
  const std::string dir = scratch_dir("plastic_bar_linear_" + type);
  std::ofstream(dir + "/bar.inp") << bar_deck(type, false);
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const SmallStrainClosedForm cf(kSmallStrain);
  const Csv xl = read_csv(dir + "/out/history/XL.csv"), top = read_csv(dir + "/out/history/TOP.csv");
  int n = 0;
  const double rf1 = 4 * mean_at(xl, "RF1", 1.0, &n);
  ASSERT_EQ(n, 4);
  const double lateral = mean_at(top, "U2", 1.0);
  std::printf("%s linear, stretched: RF1 %.9g (closed form %.9g), lateral strain %.9g (%.9g)\n", type.c_str(), rf1,
              cf.sigma, lateral, cf.lateral);
  // To the accuracy Newton's checks stop at (C3D8R: 8e-7 of the force, 5e-7 of the lateral strain).
  EXPECT_NEAR(rf1, cf.sigma, 1e-6 * cf.sigma);
  EXPECT_NEAR(lateral, cf.lateral, 1e-6 * std::fabs(cf.lateral));
  const auto frames = pvd_frames(dir + "/out/bar.pvd");
  std::string loaded;
  for (const auto& f : frames)
    if (std::fabs(f.first - 1.0) < 1e-9) loaded = f.second;
  ASSERT_FALSE(loaded.empty());
  const std::vector<double> s = read_vtu_array(dir + "/out/" + loaded, "S"), e = read_vtu_array(dir + "/out/" + loaded, "E"),
                            peeq = read_vtu_array(dir + "/out/" + loaded, "PEEQ");
  ASSERT_EQ(s.size(), 6u * kBarCubes);
  ASSERT_EQ(e.size(), 6u * kBarCubes);
  // Each element's strain to what Newton's force check leaves on the plastic slope E H / (E + H)
  // (1.3e-9 for C3D8, 1.2e-8 for C3D8R; their mean is exact, the end is prescribed).
  for (int k = 0; k < kBarCubes; ++k) {
    EXPECT_NEAR(s[6 * k], cf.sigma, 1e-6 * cf.sigma) << "S11 of element " << k + 1;
    EXPECT_NEAR(s[6 * k + 1], 0.0, 1e-6 * cf.sigma) << "S22 of element " << k + 1;
    EXPECT_NEAR(e[6 * k], kSmallStrain, 3e-8) << "E11 of element " << k + 1;
    EXPECT_NEAR(peeq[k], cf.alpha, 3e-8) << "PEEQ of element " << k + 1;
  }
  EXPECT_NEAR(0.5 * (e[0] + e[6]), kSmallStrain, 1e-12);
  // Released: no stress, and the plastic strain stays.
  const double u_end = mean_at(xl, "U1", 2.0), lat_end = mean_at(top, "U2", 2.0);
  std::printf("%s linear, released: end U1 %.9g (closed form %.9g), lateral %.9g (%.9g)\n", type.c_str(), u_end,
              cf.alpha * kBarCubes, lat_end, -cf.alpha / 2);
  EXPECT_NEAR(u_end, cf.alpha * kBarCubes, 3e-8);
  EXPECT_NEAR(lat_end, -cf.alpha / 2, 3e-8);
  const Csv energy = read_csv(dir + "/out/energy.csv");
  double dissipated = NAN;
  for (const auto& row : energy.rows)
    if (std::fabs(row[0] - 1.0) < 1e-9) dissipated = row[static_cast<std::size_t>(energy.col("plastic_dissipation"))];
  std::printf("%s linear, plastic dissipation %.9g (closed form %.9g)\n", type.c_str(), dissipated, kBarCubes * cf.work);
  EXPECT_NEAR(dissipated, kBarCubes * cf.work, 1e-6 * kBarCubes * cf.work);
  const std::vector<double> s2 = read_vtu_array(dir + "/out/" + frames.back().second, "S");
  for (double v : s2) EXPECT_NEAR(v, 0.0, 1e-6 * kYield);
}

// A temperature change in a linear step: the bar held at both ends and heated yields in
// compression (thermal strain alpha dT = 0.005, four times the yield strain), then, released,
// expands by what the plastic flow left of it: the small-strain theory's closed form,
// sigma = -(sigma_y + H a) with a = (E alpha dT - sigma_y) / (E + H), end U1 = L (alpha dT - a).
TEST(StaticPlasticity, LinearStepHeatedBarYieldsInCompression) {
  const double alpha = 1e-5, dT = 500;
  std::string deck = bar_deck("C3D8", false);
  const auto replace = [&deck](const std::string& from, const std::string& to) {
    const std::size_t at = deck.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    deck.replace(at, from.size(), to);
  };
  std::ostringstream held;
  held.precision(17);
  held << "XL, 1, 1, " << kSmallStrain * kBarCubes << "\n";
  replace(held.str(), "XL, 1, 1, 0.\n*TEMPERATURE\nALL, 500.\n");
  replace("*SOLID SECTION", "*EXPANSION\n1e-5\n*SOLID SECTION");
  replace("*STEP", "*NSET, NSET=ALL, GENERATE\n1, " + std::to_string(4 * (kBarCubes + 1)) +
                       ", 1\n*INITIAL CONDITIONS, TYPE=TEMPERATURE\nALL, 0.\n*STEP");
  const std::string dir = scratch_dir("plastic_bar_linear_heated");
  std::ofstream(dir + "/bar.inp") << deck;
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const double a = (kE * alpha * dT - kYield) / (kE + kH), sigma = -(kYield + kH * a);
  const auto frames = pvd_frames(dir + "/out/bar.pvd");
  std::string loaded;
  for (const auto& f : frames)
    if (std::fabs(f.first - 1.0) < 1e-9) loaded = f.second;
  ASSERT_FALSE(loaded.empty());
  const std::vector<double> s = read_vtu_array(dir + "/out/" + loaded, "S"),
                            peeq = read_vtu_array(dir + "/out/" + loaded, "PEEQ");
  ASSERT_EQ(s.size(), 6u * kBarCubes);
  const Csv xl = read_csv(dir + "/out/history/XL.csv");
  const double u_end = mean_at(xl, "U1", 2.0);
  std::printf("heated bar, linear: S11 %.9g (closed form %.9g), PEEQ %.9g (%.9g), released end U1 %.9g (%.9g)\n", s[0],
              sigma, peeq[0], a, u_end, kBarCubes * (alpha * dT - a));
  for (int k = 0; k < kBarCubes; ++k) {
    EXPECT_NEAR(s[6 * k], sigma, 1e-6 * kYield) << "S11 of element " << k + 1;
    EXPECT_NEAR(peeq[k], a, 3e-8) << "PEEQ of element " << k + 1;
  }
  EXPECT_NEAR(u_end, kBarCubes * (alpha * dT - a), 3e-8);
}

}  // namespace
}  // namespace halfstep::test
