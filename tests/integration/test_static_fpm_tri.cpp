// FPM triangles (S3 with *SHELL SECTION, FORMULATION=FPM) in *STATIC steps with NLGEOM=YES
// (issue 44): each static increment is one path unit of the triangle from the last converged
// state, on 6-dof nodes whose rotation unknowns are the spins about each node's frame. A strip
// L x b x t = 10 x 1 x 0.1 (E 1.2e6, nu 0: EI = 100), 20 x 2 cells split into triangles,
// clamped at x = 0, against closed forms:
//  - a tip force P with P L^2 / EI = 1 in one increment: the elastica (tip angle 0.461352,
//    u / L = 0.056433, w / L = 0.301721; the shooting solution of theta'' = -(P / EI) cos theta,
//    as Mattiasson 1981 tabulates);
//  - a small tip force: P L^3 / (3 EI) (the DKT plate is exact for the linear cantilever);
//  - an end moment M = pi EI / L in 4 increments, which rolls the strip into a half circle:
//    the tip at x = 0, z = 2 L / pi (times 1 + (pi / 20)^2 / 24 for the 20 straight, inextensible
//    chords of the mesh);
//  - an explicit step after the tip-force step, the load held, stays where the static step
//    left the strip (the FPM state and the node frames carry over);
//  - a J2 strip (sigma_y 250, H 1000, E 200e3) stretched 1 % in 10 increments: the update's
//    uniaxial closed form (the sums of the increments' strains, the lateral contraction's
//    elastic and plastic parts), the reaction within 1e-6;
//  - a geometrically linear step (NLGEOM=NO) under the elastica's load: P L^3 / (3 EI); an
//    explicit step after it stays at rest.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "static_fpm_decks.hpp"

namespace halfstep::test {
namespace {

using namespace static_fpm::strip;
using static_fpm::kClamp;
using static_fpm::kTipHistory;

/// The strip deck's run on the CPU engine: the tip's mean U1, U3 at the last history row.
std::pair<double, double> run_tip(const std::string& name, const std::string& deck, std::string* dir_out = nullptr) {
  return static_fpm::run_tip(name, "strip.inp", deck, "--backend cpu", dir_out);
}

TEST(StaticFpmTri, TipForceFollowsTheElasticaInOneIncrement) {
  const double P = kEI / (kL * kL);
  const auto [u, w] = run_tip("static_fpm_tri_elastica", strip_model(kE, 0, "") + kClamp + "*STEP, NLGEOM=YES\n*STATIC\n1., 1.\n" +
                                                              tip_load(3, P) + kTipHistory + "*END STEP\n");
  std::printf("FPM triangle strip, P L^2 / EI = 1: u / L %.6f (0.056433), w / L %.6f (0.301721)\n", -u / kL, w / kL);
  EXPECT_NEAR(w / kL, 0.301721, 1e-3 * 0.301721);
  EXPECT_NEAR(-u / kL, 0.056433, 2e-3 * 0.056433);
}

TEST(StaticFpmTri, SmallTipForceGivesBeamTheory) {
  const double P = 1e-3 * kEI / (kL * kL);
  const auto [u, w] = run_tip("static_fpm_tri_linear", strip_model(kE, 0, "") + kClamp + "*STEP, NLGEOM=YES\n*STATIC\n1., 1.\n" +
                                                           tip_load(3, P) + kTipHistory + "*END STEP\n");
  const double beam = P * kL * kL * kL / (3 * kEI);
  std::printf("FPM triangle strip, small P: w %.9e, P L^3 / 3 EI %.9e\n", w, beam);
  EXPECT_NEAR(w, beam, 2e-4 * beam);
  EXPECT_LT(std::fabs(u), 1e-3 * beam);
}

TEST(StaticFpmTri, EndMomentRollsTheStripIntoAHalfCircle) {
  const double pi = std::acos(-1.0), M = pi * kEI / kL;
  // A moment about -y turns the strip up (+z); *CLOAD dof 5 is the global moment about y.
  const auto [u, w] = run_tip("static_fpm_tri_rollup", strip_model(kE, 0, "") + kClamp + "*STEP, NLGEOM=YES, INC=100\n*STATIC\n0.25, 1.\n" +
                                                           tip_load(5, -M) + kTipHistory + "*END STEP\n");
  const double dtheta = pi / kNx, chords = 2 * kL / pi * (1 + dtheta * dtheta / 24);
  std::printf("FPM triangle strip rolled: tip x %.6f (0), z %.6f (2 L / pi %.6f, chords %.6f)\n", kL + u, w, 2 * kL / pi, chords);
  EXPECT_NEAR(kL + u, 0, 1e-4 * kL);
  EXPECT_NEAR(w, chords, 2e-4 * chords);
}

TEST(StaticFpmTri, AnExplicitStepAfterTheStaticOneStaysAtRest) {
  const double P = 0.1 * kEI / (kL * kL);
  std::string dir;
  const std::string deck = strip_model(kE, 0, "") + kClamp + "*STEP, NLGEOM=YES\n*STATIC\n1., 1.\n" + tip_load(3, P) +
                           kTipHistory + "*END STEP\n*STEP\n*DYNAMIC, EXPLICIT\n, 0.01\n" + kTipHistory + "*END STEP\n";
  run_tip("static_fpm_tri_then_explicit", deck, &dir);
  const Csv h = read_csv(dir + "/out/history/TIP.csv");
  ASSERT_GT(h.rows.size(), 6u);
  // The static step's last row (time 1) and the explicit step's last (time 1.01), tip node 42.
  double w_static = 0, w_end = 0;
  EXPECT_NEAR(h.rows.back()[0], 1.01, 1e-9);  // the explicit step ran to its end
  for (const auto& r : h.rows) {
    if (static_cast<int>(r[static_cast<std::size_t>(h.col("node"))]) != node_id(kNx, 1)) continue;
    if (r[0] <= 1.0 + 1e-12) w_static = r[static_cast<std::size_t>(h.col("U3"))];
    w_end = r[static_cast<std::size_t>(h.col("U3"))];
  }
  std::printf("FPM triangle strip: static tip w %.9e, after the explicit step %.9e\n", w_static, w_end);
  ASSERT_GT(w_static, 0.0);
  // Equilibrium to the static step's tolerance: the explicit step's motion is round-off's.
  EXPECT_NEAR(w_end, w_static, 1e-6 * w_static);
}

// The geometrically linear step (NLGEOM=NO: RowOperator::linear_forces, K(ref) x) under the
// elastica's load: beam theory whatever the load, no shortening; an explicit step after it,
// under a small load, stays where it left the strip.
TEST(StaticFpmTri, LinearStepGivesBeamTheory) {
  const double P = kEI / (kL * kL);
  const auto [u, w] = run_tip("static_fpm_tri_linear_step", strip_model(kE, 0, "") + kClamp + "*STEP\n*STATIC\n1., 1.\n" +
                                                                tip_load(3, P) + kTipHistory + "*END STEP\n");
  const double beam = P * kL * kL * kL / (3 * kEI);
  std::printf("FPM triangle strip, linear step: w %.9e, P L^3 / 3 EI %.9e, u %.3e\n", w, beam, u);
  EXPECT_NEAR(w, beam, 2e-4 * beam);
  EXPECT_NEAR(u, 0, 1e-9 * kL);
}

TEST(StaticFpmTri, AnExplicitStepAfterALinearStepStaysAtRest) {
  const double P = 1e-3 * kEI / (kL * kL);
  std::string dir;
  const std::string deck = strip_model(kE, 0, "") + kClamp + "*STEP\n*STATIC\n1., 1.\n" + tip_load(3, P) + kTipHistory +
                           "*END STEP\n*STEP\n*DYNAMIC, EXPLICIT\n, 0.01\n" + kTipHistory + "*END STEP\n";
  run_tip("static_fpm_tri_linear_then_explicit", deck, &dir);
  const Csv h = read_csv(dir + "/out/history/TIP.csv");
  ASSERT_GT(h.rows.size(), 6u);
  double w_static = 0, w_end = 0;
  EXPECT_NEAR(h.rows.back()[0], 1.01, 1e-9);
  for (const auto& r : h.rows) {
    if (static_cast<int>(r[static_cast<std::size_t>(h.col("node"))]) != node_id(kNx, 1)) continue;
    if (r[0] <= 1.0 + 1e-12) w_static = r[static_cast<std::size_t>(h.col("U3"))];
    w_end = r[static_cast<std::size_t>(h.col("U3"))];
  }
  std::printf("FPM triangle strip: linear static tip w %.9e, after the explicit step %.9e\n", w_static, w_end);
  ASSERT_GT(w_static, 0.0);
  EXPECT_NEAR(w_end, w_static, 1e-6 * w_static);
}

TEST(StaticFpmTri, PlasticStretchMatchesTheIncrementalReturn) {
  const double E = 200e3, nu = 0.3, sy = 250, H = 1000, stretch = 0.01;
  const int steps = 10;
  const std::string bc = "*BOUNDARY\nROOT, 1, 1\nROOT, 3, 6\n" + std::to_string(node_id(0, 0)) + ", 2, 2\n";
  std::ostringstream tip;
  tip.precision(17);
  tip << "*BOUNDARY\nTIP, 1, 1, " << stretch * kL << "\nTIP, 3, 6\n";
  const std::string dir = scratch_dir("static_fpm_tri_plastic");
  std::ofstream(dir + "/strip.inp") << strip_model(E, nu, "*PLASTIC\n250., 0.\n1250., 1.\n") + bc +
                                           "*STEP, NLGEOM=YES, INC=100\n*STATIC, DIRECT\n0.1, 1.\n" + tip.str() +
                                           "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=ROOT\nRF\n*END STEP\n";
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/strip.inp", dir + "/out", "--backend cpu", &out), 0) << out;
  // The update's uniaxial stress: each increment's strain (l_k+1 / l_k - 1, summed), the
  // return exact in one dimension; the width shrinks by -nu dsigma / E - dalpha / 2 per step.
  double eps = 0, sigma = 0, alpha = 0, width = kB;
  for (int k = 0; k < steps; ++k) {
    const double l0 = kL * (1 + stretch * k / steps), l1 = kL * (1 + stretch * (k + 1) / steps);
    eps += l1 / l0 - 1;
    const double trial = sigma + E * (l1 / l0 - 1), yield = sy + H * alpha;
    double s1 = trial, a1 = alpha;
    if (trial > yield) {
      a1 = alpha + (trial - yield) / (E + H);
      s1 = sy + H * a1;
    }
    width *= 1 - nu * (s1 - sigma) / E - (a1 - alpha) / 2;
    sigma = s1;
    alpha = a1;
  }
  const double force = sigma * kT * width;
  const Csv h = read_csv(dir + "/out/history/ROOT.csv");
  double rf = 0, last = 0;
  for (const auto& r : h.rows) last = std::max(last, r[0]);
  for (const auto& r : h.rows)
    if (r[0] == last) rf += r[static_cast<std::size_t>(h.col("RF1"))];
  std::printf("FPM triangle J2 strip: RF1 %.9g, closed form %.9g (sigma %.6g, alpha %.6g, width %.9g)\n", -rf, force,
              sigma, alpha, width);
  EXPECT_NEAR(-rf, force, 1e-6 * force);
}

TEST(StaticFpmTri, APrescribedRotationIsRefusedWithItsNode) {
  const std::string dir = scratch_dir("static_fpm_tri_refused");
  std::ofstream(dir + "/a.inp") << strip_model(kE, 0, "") + kClamp +
                                       "*STEP, NLGEOM=YES\n*STATIC\n1., 1.\n*BOUNDARY\nTIP, 4, 4, 0.1\n*END STEP\n";
  std::string out;
  EXPECT_EQ(run_halfstep(dir + "/a.inp", dir + "/a", "--backend cpu", &out), 2) << out;
  EXPECT_NE(out.find("a.inp:169: error: prescribed non-zero rotations (dof 4)"), std::string::npos) << out;
}

TEST(StaticFpmTri, AHeldRotationOffTheFrameAxesIsRefused) {
  // A strip along x, a cell of two triangles and a cell S4R (one section), pinned on the line
  // between them with UR2 held (the rotation about that line). Those nodes are MITC4 nodes
  // shared with triangles, whose frame is the shell's triad (t1 along x, d the normal). Flat
  // in the xy plane, y is the frame's t2: the hold is that spin, and the step runs. Tilted 30
  // degrees about x, y is along no frame axis, and the hold is refused (all three held would
  // be accepted).
  for (const double tilt : {0.0, std::acos(-1.0) / 6}) {
    const double c = std::cos(tilt), s = std::sin(tilt);
    std::ostringstream d;
    d.precision(17);
    // Nodes 1-3 at y = 0 and 4-6 at y = 1 for x = -1, 0, 1: triangles on x < 0, a quad on
    // x > 0, the root line x = 0 (nodes 2 and 5) shared by both.
    d << "*NODE\n";
    for (int j = 0; j <= 1; ++j)
      for (int i = 0; i <= 2; ++i) d << 3 * j + i + 1 << ", " << i - 1 << ", " << j * c << ", " << j * s << "\n";
    d << "*ELEMENT, TYPE=S4R, ELSET=QUADS\n1, 2, 3, 6, 5\n*ELEMENT, TYPE=S3, ELSET=TRIS\n2, 1, 2, 5\n3, 1, 5, 4\n"
      << "*ELSET, ELSET=ALL\nQUADS, TRIS\n*NSET, NSET=ROOT\n2, 5\n*MATERIAL, NAME=M\n*ELASTIC\n1e6, 0.3\n*DENSITY\n"
      << "1.\n*SHELL SECTION, ELSET=ALL, MATERIAL=M\n0.1, 5\n*BOUNDARY\nROOT, 1, 3\nROOT, 5, 5\n*STEP, NLGEOM=YES\n"
      << "*STATIC\n1., 1.\n*CLOAD\n3, 3, 1e-3\n6, 3, 1e-3\n1, 3, 1e-3\n4, 3, 1e-3\n*END STEP\n";
    const std::string dir = scratch_dir(tilt == 0 ? "static_fpm_tri_hold_flat" : "static_fpm_tri_hold_tilted");
    std::ofstream(dir + "/s.inp") << d.str();
    std::string out;
    const int rc = run_halfstep(dir + "/s.inp", dir + "/out", "--backend cpu", &out);
    if (tilt == 0) {
      EXPECT_EQ(rc, 0) << out;
    } else {
      EXPECT_EQ(rc, 2) << out;
      EXPECT_NE(out.find("holds its rotation about global axis 2, which is not an axis of the node's frame"),
                std::string::npos)
          << out;
    }
  }
}

}  // namespace
}  // namespace halfstep::test
