// FPM beams (B31, *BEAM SECTION) in *STATIC steps with NLGEOM=YES (issue 44): each static
// increment is one path unit of the beam from the last converged state, on 6-dof nodes whose
// rotation unknowns are the spins about each node's frame (discretization/row_operator.hpp, as
// for the FPM triangle). A cantilever L = 10 of 20 B31, RECT 1 x 0.1 (E 1.2e6: EI = 100 about
// n1), clamped at x = 0, against closed forms:
//  - a tip force with P L^2 / EI = 1 in one increment: the elastica (u / L = 0.056433,
//    w / L = 0.301721; the shooting solution of theta'' = -(P / EI) cos theta);
//  - an end moment M = 2 pi EI / L in 8 increments rolls it into a full circle: the tip back
//    at the root;
//  - an explicit step after the tip-force step, the load held, stays where the static step
//    left the beam;
//  - a J2 beam (sigma_y 250, H 1000, E 200e3) stretched 1 % in 10 increments: each fibre's
//    uniaxial return on the sum of the increments' strains, N = sigma A.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

constexpr double kL = 10, kE = 1.2e6, kEI = kE * 1.0 * 0.001 / 12;
constexpr int kN = 20;

/// The cantilever's model data with material lines `law` after *ELASTIC (E, nu 0).
std::string beam_model(double E, const std::string& law) {
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\nFPM beam cantilever\n*NODE\n";
  for (int i = 0; i <= kN; ++i) d << i + 1 << ", " << kL * i / kN << ", 0, 0\n";
  d << "*ELEMENT, TYPE=B31, ELSET=BEAM\n";
  for (int i = 0; i < kN; ++i) d << i + 1 << ", " << i + 1 << ", " << i + 2 << "\n";
  d << "*NSET, NSET=TIP\n" << kN + 1 << "\n*NSET, NSET=ROOT\n1\n*MATERIAL, NAME=M\n*ELASTIC\n" << E << ", 0.\n"
    << law << "*DENSITY\n1.\n*BEAM SECTION, ELSET=BEAM, MATERIAL=M, SECTION=RECT\n1., 0.1\n0., 1., 0.\n";
  return d.str();
}

const std::string kClamp = "*BOUNDARY\nROOT, 1, 6\n";
const std::string kTipHistory = "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=TIP\nU\n";

/// Runs deck in a fresh scratch folder `name`; the tip's U1, U3 at the last history row.
std::pair<double, double> run_tip(const std::string& name, const std::string& deck, std::string* dir_out = nullptr) {
  const std::string dir = scratch_dir(name);
  std::ofstream(dir + "/beam.inp") << deck;
  std::string out;
  EXPECT_EQ(run_halfstep(dir + "/beam.inp", dir + "/out", "--backend cpu", &out), 0) << out;
  if (dir_out) *dir_out = dir;
  const auto avg = last_time_average(read_csv(dir + "/out/history/TIP.csv"));
  return {avg.at("U1"), avg.at("U3")};
}

std::string tip_load(int dof, double value) {
  std::ostringstream d;
  d.precision(17);
  d << "*CLOAD\n" << kN + 1 << ", " << dof << ", " << value << "\n";
  return d.str();
}

TEST(StaticFpmBeam, TipForceFollowsTheElasticaInOneIncrement) {
  const double P = kEI / (kL * kL);
  const auto [u, w] = run_tip("static_fpm_beam_elastica", beam_model(kE, "") + kClamp + "*STEP, NLGEOM=YES\n*STATIC\n1., 1.\n" +
                                                              tip_load(3, P) + kTipHistory + "*END STEP\n");
  std::printf("FPM beam, P L^2 / EI = 1: u / L %.6f (0.056433), w / L %.6f (0.301721)\n", -u / kL, w / kL);
  EXPECT_NEAR(w / kL, 0.301721, 1e-3 * 0.301721);
  EXPECT_NEAR(-u / kL, 0.056433, 2e-3 * 0.056433);
}

TEST(StaticFpmBeam, EndMomentRollsItIntoAFullCircle) {
  const double pi = std::acos(-1.0), M = 2 * pi * kEI / kL;
  // A moment about -y turns the beam up (+z); *CLOAD dof 5 is the global moment about y.
  const auto [u, w] = run_tip("static_fpm_beam_rollup", beam_model(kE, "") + kClamp + "*STEP, NLGEOM=YES, INC=100\n*STATIC\n0.125, 1.\n" +
                                                           tip_load(5, -M) + kTipHistory + "*END STEP\n");
  std::printf("FPM beam rolled into a circle: tip at x %.3e, z %.3e (the root: 0, 0)\n", kL + u, w);
  EXPECT_NEAR(kL + u, 0, 1e-5 * kL);
  EXPECT_NEAR(w, 0, 1e-5 * kL);
}

TEST(StaticFpmBeam, AnExplicitStepAfterTheStaticOneStaysAtRest) {
  const double P = 0.1 * kEI / (kL * kL);
  std::string dir;
  run_tip("static_fpm_beam_then_explicit", beam_model(kE, "") + kClamp + "*STEP, NLGEOM=YES\n*STATIC\n1., 1.\n" + tip_load(3, P) +
                                               kTipHistory + "*END STEP\n*STEP\n*DYNAMIC, EXPLICIT\n, 0.01\n" + kTipHistory +
                                               "*END STEP\n",
          &dir);
  const Csv h = read_csv(dir + "/out/history/TIP.csv");
  ASSERT_GT(h.rows.size(), 3u);
  EXPECT_NEAR(h.rows.back()[0], 1.01, 1e-9);  // the explicit step ran to its end
  double w_static = 0;
  for (const auto& r : h.rows)
    if (r[0] <= 1.0 + 1e-12) w_static = r[static_cast<std::size_t>(h.col("U3"))];
  const double w_end = h.rows.back()[static_cast<std::size_t>(h.col("U3"))];
  std::printf("FPM beam: static tip w %.9e, after the explicit step %.9e\n", w_static, w_end);
  ASSERT_GT(w_static, 0.0);
  EXPECT_NEAR(w_end, w_static, 1e-6 * w_static);
}

TEST(StaticFpmBeam, PlasticStretchMatchesTheIncrementalReturn) {
  const double E = 200e3, sy = 250, H = 1000, stretch = 0.01, area = 0.1;
  const int steps = 10;
  std::ostringstream tip;
  tip.precision(17);
  tip << "*BOUNDARY\nTIP, 1, 1, " << stretch * kL << "\nTIP, 2, 6\n";
  const std::string dir = scratch_dir("static_fpm_beam_plastic");
  std::ofstream(dir + "/beam.inp") << beam_model(E, "*PLASTIC\n250., 0.\n1250., 1.\n") + kClamp +
                                          "*STEP, NLGEOM=YES, INC=100\n*STATIC, DIRECT\n0.1, 1.\n" + tip.str() +
                                          "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=ROOT\nRF\n*END STEP\n";
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/beam.inp", dir + "/out", "--backend cpu", &out), 0) << out;
  double sigma = 0, alpha = 0;
  for (int k = 0; k < steps; ++k) {
    const double l0 = 1 + stretch * k / steps, l1 = 1 + stretch * (k + 1) / steps;
    const double trial = sigma + E * (l1 / l0 - 1), yield = sy + H * alpha;
    if (trial > yield) {
      alpha += (trial - yield) / (E + H);
      sigma = sy + H * alpha;
    } else {
      sigma = trial;
    }
  }
  const Csv h = read_csv(dir + "/out/history/ROOT.csv");
  ASSERT_FALSE(h.rows.empty());
  const double rf = h.rows.back()[static_cast<std::size_t>(h.col("RF1"))];
  std::printf("FPM J2 beam: RF1 %.9g, closed form %.9g (sigma %.6g, alpha %.6g)\n", -rf, sigma * area, sigma, alpha);
  EXPECT_NEAR(-rf, sigma * area, 1e-6 * sigma * area);
}

}  // namespace
}  // namespace halfstep::test
