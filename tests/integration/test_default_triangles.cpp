// S3/S3R in an ordinary *SHELL SECTION (issue 45 item 5): a mesher's mixed S4R and S3 mesh in
// one section runs its triangles as the FPM triangle with that section's thickness, points
// and material. The mixed strip written with one section gives, bit for bit, what its two
// sections (S4R, and S3 with FORMULATION=FPM) give; a simply supported square plate of S4R
// with a diagonal band of S3R in one section, damped to rest under a uniform pressure or in a
// static step (NLGEOM=YES or NO), deflects as Navier's series says.
#include <cmath>
#include <fstream>
#include <string>

#include "static_fpm_decks.hpp"

namespace halfstep::test {
namespace {

/// The mixed strip deck with its two shell sections made one, over both element sets.
std::string one_section(std::string deck) {
  const std::string two =
      "*SHELL SECTION, ELSET=QUADS, MATERIAL=MAT\n0.1, 5\n*SHELL SECTION, ELSET=TRIS, MATERIAL=MAT, FORMULATION=FPM\n"
      "0.1, 5\n";
  const std::size_t at = deck.find(two);
  EXPECT_NE(at, std::string::npos) << "the mixed strip deck changed its sections";
  if (at == std::string::npos) return deck;
  return deck.replace(at, two.size(), "*ELSET, ELSET=SHELLS\nQUADS, TRIS\n*SHELL SECTION, ELSET=SHELLS, MATERIAL=MAT\n0.1, 5\n");
}

TEST(DefaultTriangles, OneSectionRunsAsTheTwoSections) {
  const std::string dir = scratch_dir("default_triangles");
  const std::string deck = read_file(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/mixed_strip_bend.inp");
  std::ofstream(dir + "/two.inp") << deck;
  std::ofstream(dir + "/one.inp") << one_section(deck);
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/two.inp", dir + "/two", "--backend cpu --threads 1", &out), 0) << out;
  ASSERT_EQ(run_halfstep(dir + "/one.inp", dir + "/one", "--backend cpu --threads 1", &out), 0) << out;
  const std::string tip = read_file(dir + "/two/history/TIP.csv");
  EXPECT_GT(tip.size(), 1000u);
  EXPECT_EQ(read_file(dir + "/one/history/TIP.csv"), tip);
  EXPECT_EQ(read_file(dir + "/one/history/ROOT.csv"), read_file(dir + "/two/history/ROOT.csv"));
}

// tests/gpu/decks/mixed_plate_navier.inp: a = 1, t = 0.01 (a / t = 100: thin), E = 1e7,
// nu = 0.3, 20 x 20 cells of which the 94 along the diagonal are split into S3R, the edges'
// w held (rotations free), q = 0.01 (w / t = 4e-3: linear), mass-proportional damping of
// about half the first mode's critical. Navier's series for the centre:
// w = 16 q / (pi^6 D) sum over odd m, n of (-1)^((m + n) / 2 - 1) / (m n (m^2 + n^2)^2) a^4.
// Measured (CPU): 4.44559e-5 against 4.43609e-5, +0.21 % (the all-S4R mesh: +0.16 %).
TEST(DefaultTriangles, MixedPlateMeetsNavier) {
  const std::string dir = scratch_dir("default_triangles_navier");
  std::string out;
  ASSERT_EQ(run_halfstep(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/mixed_plate_navier.inp", dir + "/out", "--backend cpu",
                         &out),
            0)
      << out;
  const double pi = std::acos(-1.0), q = 0.01, d = 1e7 * 1e-6 / (12 * (1 - 0.3 * 0.3));
  double series = 0;
  for (int m = 1; m < 400; m += 2)
    for (int n = 1; n < 400; n += 2)
      series += (((m + n) / 2 - 1) % 2 ? -1.0 : 1.0) / (m * n * std::pow(m * m + n * n, 2.0));
  const double navier = 16 * q / (std::pow(pi, 6) * d) * series;
  EXPECT_NEAR(navier, 4.43609e-5, 1e-10);  // 0.0040624 q a^4 / D
  const Csv h = read_csv(dir + "/out/history/CENTRE.csv");
  ASSERT_FALSE(h.rows.empty());
  const double w = h.rows.back()[h.col("U3")];
  std::printf("mixed S4R/S3R plate: centre w %.6e, Navier %.6e (%+.2f %%)\n", w, navier, 100 * (w / navier - 1));
  EXPECT_NEAR(w, navier, 5e-3 * navier);
}

// The plate in a static step (NLGEOM=YES, one increment; tests/integration/
// static_fpm_decks.hpp). Measured (CPU): 4.44530e-5, +0.21 %, in 2 Newton iterations.
TEST(DefaultTriangles, MixedPlateMeetsNavierInAStaticStep) {
  const double navier = 4.43609e-5;  // the series above
  const double w = static_fpm::plate_centre("default_triangles_navier_static", true, "--backend cpu");
  std::printf("mixed S4R/S3R plate, static: centre w %.6e, Navier %.6e (%+.2f %%)\n", w, navier, 100 * (w / navier - 1));
  EXPECT_NEAR(w, navier, 5e-3 * navier);
}

// The geometrically linear step (the triangles' K(ref), RowOperator::linear_forces). Measured
// (CPU): 4.44542e-5, +0.21 %, in 1 iteration.
TEST(DefaultTriangles, MixedPlateMeetsNavierInALinearStaticStep) {
  const double navier = 4.43609e-5;
  const double w = static_fpm::plate_centre("default_triangles_navier_linear", false, "--backend cpu");
  std::printf("mixed S4R/S3R plate, linear static: centre w %.6e, Navier %.6e (%+.2f %%)\n", w, navier,
              100 * (w / navier - 1));
  EXPECT_NEAR(w, navier, 5e-3 * navier);
}

}  // namespace
}  // namespace halfstep::test
