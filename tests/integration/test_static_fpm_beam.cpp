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
//    uniaxial return on the sum of the increments' strains, N = sigma A;
//  - a geometrically linear step (NLGEOM=NO): P L^3 / 3 EI and its energy; an explicit step
//    after it stays at rest; the J2 beam stretched 1 % and bent by an end moment past first
//    yield there, against the small-strain closed forms (the fibres' uniaxial returns).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "static_fpm_decks.hpp"

namespace halfstep::test {
namespace {

using namespace static_fpm::beam;
using static_fpm::kClamp;
using static_fpm::kTipHistory;

/// The cantilever deck's run on the CPU engine: the tip's U1, U3 at the last history row.
std::pair<double, double> run_tip(const std::string& name, const std::string& deck, std::string* dir_out = nullptr) {
  return static_fpm::run_tip(name, "beam.inp", deck, "--backend cpu", dir_out);
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

// A geometrically linear step (RowOperator::linear_forces: K(ref) x) under the elastica's
// load: the tip at P L^3 / 3 EI with no shortening, the strain energy P w / 2, the root's
// moment P L (SM at the first element's middle: P (L - L / 2n)); an explicit step after it,
// under a small load, stays where the linear step left the beam.
TEST(StaticFpmBeam, LinearStepGivesBeamTheory) {
  const double P = kEI / (kL * kL);
  std::string dir;
  const auto [u, w] = run_tip("static_fpm_beam_linear", beam_model(kE, "") + kClamp + "*STEP\n*STATIC\n1., 1.\n" +
                                                            tip_load(3, P) + kTipHistory +
                                                            "*OUTPUT, FIELD\n*ELEMENT OUTPUT\nSM\n*END STEP\n",
                              &dir);
  const double beam = P * kL * kL * kL / (3 * kEI);
  std::printf("FPM beam, linear step: w %.12e, P L^3 / 3 EI %.12e, u %.3e\n", w, beam, u);
  EXPECT_NEAR(w, beam, 1e-9 * beam);
  EXPECT_NEAR(u, 0, 1e-12 * kL);
  const Csv energy = read_csv(dir + "/out/energy.csv");
  ASSERT_FALSE(energy.rows.empty());
  const double internal = energy.rows.back()[static_cast<std::size_t>(energy.col("internal"))];
  EXPECT_NEAR(internal, 0.5 * P * w, 1e-9 * P * w);
  // SM1, the moment about n1 = y, of the first element (Abaqus's sign: a tip force along +z
  // bends it negative).
  const auto frames = pvd_frames(dir + "/out/beam.pvd");
  ASSERT_FALSE(frames.empty());
  const std::vector<double> sm = read_vtu_array(dir + "/out/" + frames.back().second, "SM");
  ASSERT_EQ(sm.size(), 3u * kN);
  const double root = P * (kL - 0.5 * kL / kN);
  std::printf("FPM beam, linear step: SM1 of element 1 %.12e (-P (L - L / 2n) %.12e)\n", sm[0], -root);
  EXPECT_NEAR(sm[0], -root, 1e-9 * root);
}

TEST(StaticFpmBeam, AnExplicitStepAfterALinearStepStaysAtRest) {
  const double P = 1e-3 * kEI / (kL * kL);
  std::string dir;
  run_tip("static_fpm_beam_linear_then_explicit", beam_model(kE, "") + kClamp + "*STEP\n*STATIC\n1., 1.\n" + tip_load(3, P) +
                                                      kTipHistory + "*END STEP\n*STEP\n*DYNAMIC, EXPLICIT\n, 0.01\n" +
                                                      kTipHistory + "*END STEP\n",
          &dir);
  const Csv h = read_csv(dir + "/out/history/TIP.csv");
  ASSERT_GT(h.rows.size(), 3u);
  EXPECT_NEAR(h.rows.back()[0], 1.01, 1e-9);
  double w_static = 0;
  for (const auto& r : h.rows)
    if (r[0] <= 1.0 + 1e-12) w_static = r[static_cast<std::size_t>(h.col("U3"))];
  const double w_end = h.rows.back()[static_cast<std::size_t>(h.col("U3"))];
  std::printf("FPM beam: linear static tip w %.9e, after the explicit step %.9e\n", w_static, w_end);
  ASSERT_GT(w_static, 0.0);
  // The linear solution is the nonlinear one to (w / L)^2 ~ 1e-8: the explicit step's motion is that small.
  EXPECT_NEAR(w_end, w_static, 1e-6 * w_static);
}

// The J2 beam (sigma_y 250, H 1000, E 200e3) in a geometrically linear step, on its fibres'
// small-strain uniaxial returns (path-free for a monotonic load and linear hardening):
// stretched 1 %, N = S A with S = (d + sy / H) / (1 / E + 1 / H); under an end moment of
// 1.3 M_y in 10 increments, a uniform curvature k with sum_k w_k z_k S(z_k k) = M over the
// section's fibres (RECT 1 x 0.1: Simpson 5 x 5; depth 0.1 along n2 = z), the tip turned by
// k L.
TEST(StaticFpmBeam, PlasticLinearStepMatchesTheSmallStrainReturns) {
  const double E = 200e3, sy = 250, H = 1000, d = 0.01, area = 0.1;
  const std::string law = "*PLASTIC\n250., 0.\n1250., 1.\n";
  const auto stress = [&](double e) {  // the fibres' uniaxial law, monotonic loading
    const double s = E * std::fabs(e);
    return std::copysign(s <= sy ? s : sy + H * (s - sy) / (E + H), e);
  };
  std::ostringstream tip;
  tip.precision(17);
  tip << "*BOUNDARY\nTIP, 1, 1, " << d * kL << "\nTIP, 2, 6\n";
  const std::string dir = scratch_dir("static_fpm_beam_plastic_linear");
  std::ofstream(dir + "/stretch.inp") << beam_model(E, law) + kClamp + "*STEP, INC=100\n*STATIC\n0.1, 1.\n" + tip.str() +
                                             "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=ROOT\nRF\n*END STEP\n";
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/stretch.inp", dir + "/stretch", "--backend cpu", &out), 0) << out;
  const Csv h = read_csv(dir + "/stretch/history/ROOT.csv");
  ASSERT_FALSE(h.rows.empty());
  const double rf = -h.rows.back()[static_cast<std::size_t>(h.col("RF1"))], force = stress(d) * area;
  std::printf("FPM J2 beam, linear step: RF1 %.9g, closed form %.9g\n", rf, force);
  EXPECT_NEAR(rf, force, 1e-6 * force);  // Newton's tolerance

  const double My = sy * 1.0 * 0.1 * 0.1 / 6, M = 1.3 * My;
  const double z[5] = {-0.05, -0.025, 0, 0.025, 0.05}, w[5] = {1, 4, 2, 4, 1};  // Simpson, h / 3 = 0.025 / 3
  const auto moment = [&](double k) {
    double m = 0;
    for (int i = 0; i < 5; ++i) m += w[i] * 0.025 / 3 * z[i] * stress(z[i] * k);
    return m;
  };
  double lo = 0, hi = 1;  // moment(k) increases with k
  for (int i = 0; i < 200; ++i) (moment(0.5 * (lo + hi)) < M ? lo : hi) = 0.5 * (lo + hi);
  const double k = 0.5 * (lo + hi);
  std::ostringstream load;
  load.precision(17);
  load << "*CLOAD\n" << kN + 1 << ", 5, " << M << "\n";
  std::ofstream(dir + "/bend.inp") << beam_model(E, law) + kClamp + "*STEP, INC=100\n*STATIC\n0.1, 1.\n" + load.str() +
                                          "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=TIP\nUR\n*END STEP\n";
  ASSERT_EQ(run_halfstep(dir + "/bend.inp", dir + "/bend", "--backend cpu", &out), 0) << out;
  const Csv b = read_csv(dir + "/bend/history/TIP.csv");
  ASSERT_FALSE(b.rows.empty());
  const double turn = b.rows.back()[static_cast<std::size_t>(b.col("UR2"))];
  std::printf("FPM J2 beam, linear step: tip UR2 %.9g at 1.3 M_y, closed form k L %.9g (k / k_y %.6f)\n", turn, k * kL,
              k * 0.05 * E / sy);
  EXPECT_NEAR(turn, k * kL, 1e-6 * k * kL);
}

}  // namespace
}  // namespace halfstep::test
