// *TIE and *EQUATION in static steps by elimination (issue 44 item 2): two blocks meshed
// independently (B's face nodes four times A's) and tied carry a uniform stress exactly, and
// so does a C3D20R cube's 8-node face tied to a C3D8 face (and as a master it is close), a
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

// A 20-node cube Q tied to C3D8 across x = 1. Q's 8-node face (C3D20) as the slave of a single C3D8
// element's face (its corners coincide with Q's, its mid-edge nodes follow the bilinear face):
// the tied meshes are conforming and both sides carry the uniform stress of the pulled bar
// exactly. As the master (C3D20R) of a 2 x 2 x 2 block's face (nine slave nodes interpolated on the
// serendipity face), node-to-surface is not conforming: the slaves hand Q's face nodal forces
// 0 (corners) and 1/4 (mid-edge) of the pull where a uniform stress needs the consistent
// -1/12 and 1/3, so the single quadratic cube is not uniformly stressed and the bar is 2.8 %
// softer (measured 0.9717 of E eps); equilibrium is exact either way.
class QuadraticFaceTie : public ::testing::TestWithParam<bool> {};

TEST_P(QuadraticFaceTie, CarriesTheUniformStressWhereConforming) {
  const bool quadratic_master = GetParam();
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\na C3D20R cube tied to C3D8\n";
  // Q over [0, 1]; C3D20 as the slave: one C3D20R alone keeps spurious modes the tie does not hold.
  hex20_cube(d, "Q", 1, 1, 0.0, quadratic_master ? "C3D20R" : "C3D20");
  const int n = quadratic_master ? 2 : 1;
  block(d, "C3D8", "B", 1001, 1001, n, n, 1.0, 2.0, 1.0);  // B over [1, 2]
  d << "*NSET, NSET=Q_X0\n1, 4, 5, 8, 12, 16, 17, 20\n*NSET, NSET=Q_Y0\n1, 2, 5, 6, 9, 13, 17, 18\n"
    << "*NSET, NSET=Q_Z0\n1, 2, 3, 4, 9, 10, 11, 12\n"
    << "*SURFACE, NAME=QFACE\n1, S4\n*SURFACE, NAME=BFACE\nB_X0, S6\n*TIE, NAME=GLUE\n"
    << (quadratic_master ? "BFACE, QFACE" : "QFACE, BFACE") << "\n*MATERIAL, NAME=M\n*ELASTIC\n" << kE << ", " << kNu
    << "\n*SOLID SECTION, ELSET=Q, MATERIAL=M\n*SOLID SECTION, ELSET=B, MATERIAL=M\n"
    // Symmetry planes on the master side only: the tie holds the slave side's interface.
    << "*BOUNDARY\nQ_X0, 1, 1\n" << (quadratic_master ? "Q_Y0, 2, 2\nQ_Z0, 3, 3\n" : "B_Y0, 2, 2\nB_Z0, 3, 3\n")
    << "*STEP\n*STATIC\n*BOUNDARY\nB_N1, 1, 1, "
    << 2 * kPull << "\n*EL PRINT, ELSET=Q\nS\n*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=B_N1\nU, RF\n*NODE OUTPUT, NSET=Q_X0\nRF\n*END STEP\n";
  const std::string dir = scratch_dir(quadratic_master ? "quadratic_master" : "quadratic_slave");
  std::ofstream(dir + "/tie.inp") << d.str();
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/tie.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const Csv end = read_csv(dir + "/out/history/B_N1.csv"), wall = read_csv(dir + "/out/history/Q_X0.csv");
  const double sigma = kE * kPull, pull = last_sum(end, "RF1");
  std::printf("C3D20R face as %s: end force %.12g, wall %.12g, E eps %.12g\n", quadratic_master ? "master" : "slave",
              pull, last_sum(wall, "RF1"), sigma);
  EXPECT_NEAR(last_sum(wall, "RF1"), -pull, 1e-9 * sigma);
  if (quadratic_master) {
    EXPECT_NEAR(pull, 0.9717 * sigma, 1e-3 * sigma);
    return;
  }
  EXPECT_NEAR(pull, sigma, 1e-9 * sigma);
  // The cube's 27 points (C3D20) carry the uniform stress (the .dat table: element, point, S11..).
  std::istringstream dat(read_file(dir + "/out/tie.dat"));
  std::string line;
  int rows = 0;
  while (std::getline(dat, line)) {
    std::istringstream row(line);
    double id, point, s[6];
    if (!(row >> id >> point >> s[0] >> s[1] >> s[2] >> s[3] >> s[4] >> s[5])) continue;
    ++rows;
    EXPECT_NEAR(s[0], sigma, 1e-9 * sigma) << line;
    for (int k = 1; k < 6; ++k) EXPECT_NEAR(s[k], 0.0, 1e-9 * sigma) << line;
  }
  EXPECT_EQ(rows, 27);
}

INSTANTIATE_TEST_SUITE_P(Sides, QuadraticFaceTie, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "Master" : "Slave"; });

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

// The peer's tied contact (a *CONTACT PAIR whose interaction has PRESSURE-OVERCLOSURE=TIED, its
// *FRICTION a stick coefficient) is read as a *TIE of the pair's surfaces: the tied cantilever
// gives the *TIE deck's tip to round-off, and the reader says what it did.
TEST(StaticTies, TiedContactPairIsReadAsATie) {
  const std::string tie = tied_cantilever("C3D8R", 20, 4, 15, 3);
  std::string pair = tie;
  const std::string lines = "*TIE, NAME=GLUE\nBFACE, AFACE\n";
  ASSERT_NE(pair.find(lines), std::string::npos);
  pair.replace(pair.find(lines), lines.size(),
               "*CONTACT PAIR, INTERACTION=GLUE, TYPE=SURFACE TO SURFACE\nBFACE, AFACE\n*SURFACE INTERACTION, "
               "NAME=GLUE\n*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=TIED\n1.e7\n*FRICTION\n1.e30, 1.e7\n");
  double tip[2];
  std::string log[2];
  for (int k = 0; k < 2; ++k) {
    const std::string dir = scratch_dir(k ? "tied_contact_pair" : "tied_contact_tie");
    std::ofstream(dir + "/beam.inp") << (k ? pair : tie);
    ASSERT_EQ(run_halfstep(dir + "/beam.inp", dir + "/out", "--backend cpu", &log[k]), 0) << log[k];
    tip[k] = -last_time_average(read_csv(dir + "/out/history/B_N1.csv")).at("U2");
  }
  EXPECT_NEAR(tip[1], tip[0], 1e-12 * tip[0]);
  EXPECT_NE(log[1].find("PRESSURE-OVERCLOSURE=TIED) is read as a *TIE of 'BFACE' to 'AFACE'"), std::string::npos)
      << log[1];
}

// Two unit cubes apart, the near face of the second made to follow the far face of the
// first in x by *EQUATION (u_B - u_A = 0 per node pair): each carries the same uniform stress
// E delta / 2 in a linear step, exactly. Chained, the first pair's equation is written
// u_101 = u_103 + u_2 - u_4 on another equation's dependent u_103 = u_4: the substitution
// gives the same constraints, and the same answer.
TEST(StaticTies, EquationJoinsTwoCubes) {
  for (const bool chained : {false, true}) {
    std::ostringstream d;
    d.precision(17);
    d << "*HEADING\ntwo cubes joined by equations\n";
    block(d, "C3D8", "A", 1, 1, 1, 1, 0.0, 1.0, 1.0);
    block(d, "C3D8", "B", 101, 101, 1, 1, 1.5, 2.5, 1.0);
    d << "*MATERIAL, NAME=M\n*ELASTIC\n" << kE << ", " << kNu << "\n*SOLID SECTION, ELSET=A, MATERIAL=M\n"
      << "*SOLID SECTION, ELSET=B, MATERIAL=M\n";
    // A's nodes at x = 1 are 2, 4, 6, 8; B's at x = 1.5 are 101, 103, 105, 107 (same y, z).
    for (int k = 0; k < 4; ++k)
      if (chained && k == 0)
        d << "*EQUATION\n4\n101, 1, 1., 103, 1, -1., 2, 1, -1., 4, 1, 1.\n";
      else
        d << "*EQUATION\n2\n" << 101 + 2 * k << ", 1, 1., " << 2 + 2 * k << ", 1, -1.\n";
    const double delta = 2e-3;
    d << "*BOUNDARY\nA_N0, 1, 1\nA_Y0, 2, 2\nA_Z0, 3, 3\nB_Y0, 2, 2\nB_Z0, 3, 3\n*STEP\n*STATIC\n1., 1.\n"
      << "*BOUNDARY\nB_N1, 1, 1, " << delta << "\n*OUTPUT, FIELD\n*ELEMENT OUTPUT\nS\n*OUTPUT, HISTORY\n"
      << "*NODE OUTPUT, NSET=B_N1\nRF\n*END STEP\n";
    const std::string dir = scratch_dir(chained ? "equation_cubes_chained" : "equation_cubes");
    std::ofstream(dir + "/cubes.inp") << d.str();
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/cubes.inp", dir + "/out", "--backend cpu", &log), 0) << log;
    const double pull = last_sum(read_csv(dir + "/out/history/B_N1.csv"), "RF1");
    const double sigma = kE * delta / 2;
    const std::vector<double> s = read_vtu_array(dir + "/out/" + pvd_frames(dir + "/out/cubes.pvd").back().second, "S");
    ASSERT_EQ(s.size(), 12u);
    std::printf("equation cubes%s: end force %.12g, S11 %.12g and %.12g, E delta / 2 %.12g\n", chained ? " (chained)" : "",
                pull, s[0], s[6], sigma);
    EXPECT_NEAR(pull, sigma, 1e-9 * sigma);
    EXPECT_NEAR(s[0], sigma, 1e-9 * sigma);
    EXPECT_NEAR(s[6], sigma, 1e-9 * sigma);
  }
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
