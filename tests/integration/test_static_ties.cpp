// *TIE and *EQUATION in static steps by elimination (issue 44 item 2): two blocks meshed
// independently (B's face nodes four times A's) and tied carry a uniform stress exactly, a
// cantilever of two meshes that do not match (4 and 3 elements through the depth) bends as
// Timoshenko's beam to the accuracy of its mesh, as the conforming one does, *EQUATION
// joins two cubes, and a distributing *COUPLING passes its reference node's load on, in
// linear steps.
#include <cmath>
#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>

#include "static_ties.hpp"

namespace halfstep::test {
namespace {

using namespace ties;

class TiedBar : public ::testing::TestWithParam<bool> {};

TEST_P(TiedBar, CarriesAUniformStressAcrossNonMatchingMeshes) {
  const bool nlgeom = GetParam();
  const std::string dir = scratch_dir(nlgeom ? "tied_bar_nlgeom" : "tied_bar_linear");
  std::ofstream(dir + "/bar.inp") << tied_bar(nlgeom);
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const Csv end = read_csv(dir + "/out/history/B_N1.csv"), wall = read_csv(dir + "/out/history/A_N0.csv");
  const double pull = last_sum(end, "RF1"), u_mean = last_time_average(end).at("U1"), held = last_sum(wall, "RF1");
  const std::vector<double> s = read_vtu_array(dir + "/out/" + pvd_frames(dir + "/out/bar.pvd").back().second, "S");
  ASSERT_EQ(s.size(), 6u * (8 + 64));
  const double sigma = kE * kPull;  // the linear theory: strain kPull over both blocks
  double lo = 1e300, hi = -1e300;
  for (std::size_t e = 0; e < s.size() / 6; ++e) {
    lo = std::min(lo, s[6 * e]);
    hi = std::max(hi, s[6 * e]);
  }
  std::printf("tied bar (%s): end force %.12g, wall %.12g, S11 in [%.12g, %.12g], E eps %.12g\n",
              nlgeom ? "NLGEOM" : "linear", pull, held, lo, hi, sigma);
  EXPECT_NEAR(u_mean, 2 * kPull, 1e-15);
  // Linear: one exact solve (round-off). NLGEOM: to the accuracy Newton's checks stop at.
  const double tol = nlgeom ? 1e-5 * sigma : 1e-9 * sigma;
  EXPECT_NEAR(pull, -held, tol);  // equilibrium through the tie
  if (!nlgeom) {
    EXPECT_NEAR(pull, sigma, 1e-9 * sigma);
    EXPECT_NEAR(lo, sigma, 1e-9 * sigma);
    EXPECT_NEAR(hi, sigma, 1e-9 * sigma);
  } else {
    EXPECT_NEAR(pull, sigma, 3e-3 * sigma);  // finite strain differs by O(eps)
    EXPECT_NEAR(hi - lo, 0.0, tol);  // and stays uniform
  }
  for (std::size_t e = 0; e < s.size() / 6; ++e)
    for (int k = 1; k < 6; ++k) EXPECT_NEAR(s[6 * e + k], 0.0, tol) << "element " << e << " component " << k;
}

INSTANTIATE_TEST_SUITE_P(Steps, TiedBar, ::testing::Values(false, true));

TEST(StaticTies, TiedCantileverBendsLikeTimoshenkosBeam) {
  double tip[2];
  for (int tied = 0; tied < 2; ++tied) {
    const std::string dir = scratch_dir(tied ? "tied_cantilever" : "matched_cantilever");
    // Matched: both halves 20 x 4 (the tie then joins coincident nodes); tied: B 15 x 3.
    std::ofstream(dir + "/beam.inp") << tied_cantilever("C3D8R", 20, 4, tied ? 15 : 20, tied ? 3 : 4);
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/beam.inp", dir + "/out", "--backend cpu", &log), 0) << log;
    tip[tied] = -last_time_average(read_csv(dir + "/out/history/B_N1.csv")).at("U2");
    EXPECT_NEAR(last_sum(read_csv(dir + "/out/history/A_N0.csv"), "RF2"), kP, 1e-9 * kP) << "the clamp carries the load";
  }
  const double ref = timoshenko_tip();
  std::printf("cantilever tip: matched %.6g, tied %.6g, Timoshenko %.6g (%.3g %%, %.3g %%)\n", tip[0], tip[1], ref,
              100 * (tip[0] / ref - 1), 100 * (tip[1] / ref - 1));
  EXPECT_NEAR(tip[0], ref, 0.03 * ref);
  EXPECT_NEAR(tip[1], ref, 0.03 * ref);
}

// Two unit cubes apart, the near face of the second made to follow the far face of the
// first in x by *EQUATION (u_B - u_A = 0 per node pair): each carries the same uniform stress
// E delta / 2 in a linear step, exactly.
TEST(StaticTies, EquationJoinsTwoCubes) {
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\ntwo cubes joined by equations\n";
  block(d, "C3D8", "A", 1, 1, 1, 1, 0.0, 1.0, 1.0);
  block(d, "C3D8", "B", 101, 101, 1, 1, 1.5, 2.5, 1.0);
  d << "*MATERIAL, NAME=M\n*ELASTIC\n" << kE << ", " << kNu << "\n*SOLID SECTION, ELSET=A, MATERIAL=M\n"
    << "*SOLID SECTION, ELSET=B, MATERIAL=M\n";
  // A's nodes at x = 1 are 2, 4, 6, 8; B's at x = 1.5 are 101, 103, 105, 107 (same y, z).
  for (int k = 0; k < 4; ++k) d << "*EQUATION\n2\n" << 101 + 2 * k << ", 1, 1., " << 2 + 2 * k << ", 1, -1.\n";
  const double delta = 2e-3;
  d << "*BOUNDARY\nA_N0, 1, 1\nA_Y0, 2, 2\nA_Z0, 3, 3\nB_Y0, 2, 2\nB_Z0, 3, 3\n*STEP\n*STATIC\n1., 1.\n"
    << "*BOUNDARY\nB_N1, 1, 1, " << delta << "\n*OUTPUT, FIELD\n*ELEMENT OUTPUT\nS\n*OUTPUT, HISTORY\n"
    << "*NODE OUTPUT, NSET=B_N1\nRF\n*END STEP\n";
  const std::string dir = scratch_dir("equation_cubes");
  std::ofstream(dir + "/cubes.inp") << d.str();
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/cubes.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const double pull = last_sum(read_csv(dir + "/out/history/B_N1.csv"), "RF1");
  const double sigma = kE * delta / 2;
  const std::vector<double> s = read_vtu_array(dir + "/out/" + pvd_frames(dir + "/out/cubes.pvd").back().second, "S");
  ASSERT_EQ(s.size(), 12u);
  std::printf("equation cubes: end force %.12g, S11 %.12g and %.12g, E delta / 2 %.12g\n", pull, s[0], s[6], sigma);
  EXPECT_NEAR(pull, sigma, 1e-9 * sigma);
  EXPECT_NEAR(s[0], sigma, 1e-9 * sigma);
  EXPECT_NEAR(s[6], sigma, 1e-9 * sigma);
}

// A distributing *COUPLING in a static step: the force on its reference node (which no element
// stiffens) spreads evenly over the cube's end face, the consistent load of a uniform
// traction on one bilinear face, so the cube carries S11 = F / A and the reference node moves
// with the face's mean, F L / (E A), exactly in a linear step.
TEST(StaticTies, DistributingCouplingCarriesItsReferenceNodesLoad) {
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\ncube pulled through a distributing coupling\n";
  block(d, "C3D8", "A", 1, 1, 1, 1, 0.0, 1.0, 1.0);
  const double force = 2.0;
  d << "*NODE, NSET=REF\n900, 1.5, 0.5, 0.5\n*SURFACE, NAME=END, TYPE=NODE\nA_N1\n"
    << "*COUPLING, CONSTRAINT NAME=C, REF NODE=900, SURFACE=END\n*DISTRIBUTING\n"
    << "*MATERIAL, NAME=M\n*ELASTIC\n" << kE << ", " << kNu << "\n*SOLID SECTION, ELSET=A, MATERIAL=M\n"
    << "*BOUNDARY\nA_N0, 1, 1\nA_Y0, 2, 2\nA_Z0, 3, 3\n*STEP\n*STATIC\n1., 1.\n*CLOAD\nREF, 1, " << force
    << "\n*OUTPUT, FIELD\n*ELEMENT OUTPUT\nS\n*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=REF\nU\n*END STEP\n";
  const std::string dir = scratch_dir("distributing_cube");
  std::ofstream(dir + "/cube.inp") << d.str();
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/cube.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const double u = last_time_average(read_csv(dir + "/out/history/REF.csv")).at("U1");
  const std::vector<double> s = read_vtu_array(dir + "/out/" + pvd_frames(dir + "/out/cube.pvd").back().second, "S");
  ASSERT_EQ(s.size(), 6u);
  std::printf("distributing coupling: reference U1 %.12g (F L / E A %.12g), S11 %.12g\n", u, force / kE, s[0]);
  EXPECT_NEAR(u, force / kE, 1e-9 * force / kE);
  EXPECT_NEAR(s[0], force, 1e-9 * force);
}

}  // namespace
}  // namespace halfstep::test
