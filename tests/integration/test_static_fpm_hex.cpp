// FPM hexahedra (C3D8, FORMULATION=FPM) in *STATIC steps with NLGEOM=YES (issue 44 item 3):
// each static increment is one FPM increment from the last converged state (the frame, the
// configuration "a" and the convected strain), its tangent the dual-number derivative of the
// same update. Checks on a unit cube with symmetry supports, against closed forms:
//  - uniaxial stretch to 1 + d in N fixed increments: the update's strain is the sum of the
//    increments' lambda_{k+1} / lambda_k - 1 (and the lateral one -nu times each), so the
//    reaction is E eps_N mu_N^2 exactly (mu the lateral stretch); it approaches the Hencky
//    solution E ln(1 + d) (1 + d)^(-2 nu) as the increments shrink;
//  - an explicit step after it, the stretch held, keeps the static reaction (the explicit
//    step starts from the converged FPM state);
//  - the same stretch yielding (J2, linear hardening H): the same sums with the return's split
//    of each increment, the lateral one -nu times its elastic part and -1/2 its plastic part;
//  - a geometrically linear step (the small-strain theory): the uniaxial closed forms on the
//    reference area, elastic and with J2, and an explicit step after it keeps the stress;
//  - the stretched cube turned 90 degrees about z in one increment: the increment is a pure
//    rotation, so the stress turns with the body and nothing else changes (objectivity).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "fpm_cube.hpp"

namespace halfstep::test {
namespace {

using namespace fpm_cube;

TEST(StaticFpmHex, StretchMatchesTheIncrementalUpdateAndTheExplicitStepKeepsIt) {
  check_stretch("static_fpm_hex_stretch", "--backend cpu");
}

TEST(StaticFpmHex, PlasticStretchMatchesTheIncrementalReturn) {
  check_plastic_stretch("static_fpm_hex_plastic", "--backend cpu");
}

TEST(StaticFpmHex, LinearStepMatchesTheSmallStrainClosedForms) {
  // Stretched by 1 % in a step without NLGEOM: eps = 0.01 exactly, sigma = E eps elastic, or
  // sigma_y + H alpha with alpha = (E eps - sigma_y) / (E + H) with J2, on the reference area.
  const double sy = 250, H = 1000, eps = 0.01;
  const std::string steps =
      "*STEP, INC=100\n*STATIC, DIRECT\n0.25, 1.\n*BOUNDARY\n" + std::string(kSupports) +
      "XL, 1, 1, 0.01\n*OUTPUT, HISTORY, TIME INTERVAL=0.25\n*NODE OUTPUT, NSET=XL\nU, RF\n*OUTPUT, FIELD\n"
      "*ELEMENT OUTPUT\nS, PEEQ\n*END STEP\n*STEP\n*DYNAMIC, EXPLICIT\n, 1e-6\n*OUTPUT, FIELD\n*ELEMENT OUTPUT\nS, PEEQ\n"
      "*END STEP\n";
  for (const bool plastic : {false, true}) {
    const std::string dir = scratch_dir(plastic ? "static_fpm_hex_linear_j2" : "static_fpm_hex_linear");
    std::ofstream(dir + "/cube.inp") << cube_deck(steps, plastic ? "*PLASTIC\n250, 0.\n1250, 1.\n" : "");
    std::string out;
    ASSERT_EQ(run_halfstep(dir + "/cube.inp", dir + "/out", "--backend cpu", &out), 0) << out;
    const double alpha = plastic ? (kE * eps - sy) / (kE + H) : 0.0, sigma = plastic ? sy + H * alpha : kE * eps;
    const Csv h = read_csv(dir + "/out/history/XL.csv");
    double rf = 0;
    for (const auto& r : h.rows)
      if (std::fabs(r[0] - 1.0) < 1e-12) rf += r[static_cast<std::size_t>(h.col("RF1"))];
    const auto frames = pvd_frames(dir + "/out/cube.pvd");
    ASSERT_GE(frames.size(), 2u);
    // The static step's last frame and the explicit step's.
    std::string static_frame;
    for (const auto& f : frames)
      if (f.first <= 1.0 + 1e-12) static_frame = f.second;
    const double s_static = read_vtu_array(dir + "/out/" + static_frame, "S").at(0);
    const double s_end = read_vtu_array(dir + "/out/" + frames.back().second, "S").at(0);
    const double peeq = plastic ? read_vtu_array(dir + "/out/" + frames.back().second, "PEEQ").at(0) : 0.0;
    std::printf("linear FPM cube%s: RF1 %.12g, S11 %.12g, after the explicit step %.12g (sigma %.12g), PEEQ %.12g (%.12g)\n",
                plastic ? " (J2)" : "", rf, s_static, s_end, sigma, peeq, alpha);
    EXPECT_NEAR(rf, sigma, 1e-9 * sigma);
    EXPECT_NEAR(s_static, sigma, 1e-9 * sigma);
    EXPECT_NEAR(s_end, sigma, 1e-9 * sigma);
    EXPECT_NEAR(peeq, alpha, 1e-12);
  }
}

TEST(StaticFpmHex, StressTurnsWithTheBodyInARotationIncrement) {
  // Step 1: stretch 1 % in one increment (lateral stretch 1 - 0.01 nu exactly); step 2: every
  // node moved to its place turned 90 degrees about z, in one increment.
  const double ax = 1.01, lat = 1 - 0.01 * kNu;
  const double X[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  std::ostringstream turn;
  turn.precision(17);
  turn << "*STEP, NLGEOM=YES\n*STATIC, DIRECT\n1., 1.\n*BOUNDARY, OP=NEW\n";
  for (int n = 0; n < 8; ++n) {
    const double x = ax * X[n][0], y = lat * X[n][1], z = lat * X[n][2];
    const double to[3] = {-y, x, z};  // (x, y, z) turned about z
    for (int c = 0; c < 3; ++c) turn << n + 1 << ", " << c + 1 << ", " << c + 1 << ", " << to[c] - X[n][c] << "\n";
  }
  turn << "*OUTPUT, FIELD\n*ELEMENT OUTPUT\nS\n*END STEP\n";
  const std::string dir = scratch_dir("static_fpm_hex_turn");
  std::ofstream(dir + "/cube.inp") << cube_deck(
      "*STEP, NLGEOM=YES\n*STATIC, DIRECT\n1., 1.\n*BOUNDARY\n" + std::string(kSupports) +
      "XL, 1, 1, 0.01\n*OUTPUT, FIELD\n*ELEMENT OUTPUT\nS\n*END STEP\n" + turn.str());
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/cube.inp", dir + "/out", "--backend cpu", &out), 0) << out;
  const auto frames = pvd_frames(dir + "/out/cube.pvd");
  ASSERT_GE(frames.size(), 2u);
  const std::vector<double> s = read_vtu_array(dir + "/out/" + frames.back().second, "S");
  ASSERT_EQ(s.size(), 6u);  // xx, yy, zz, xy, yz, xz
  const double sigma = kE * 0.01;
  std::printf("FPM cube turned: S = (%.9g, %.9g, %.9g, %.3g, %.3g, %.3g), the stretch's %.9g now along y\n", s[0], s[1],
              s[2], s[3], s[4], s[5], sigma);
  EXPECT_NEAR(s[1], sigma, 1e-9 * sigma);
  for (const int c : {0, 2, 3, 4, 5}) EXPECT_NEAR(s[static_cast<std::size_t>(c)], 0.0, 1e-9 * sigma) << c;  // measured 4.7e-11
}

}  // namespace
}  // namespace halfstep::test
