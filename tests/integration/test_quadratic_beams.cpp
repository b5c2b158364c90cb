// B32 and B32R (run as C3D20 bricks around the axis) through the binary against beam theory:
// a cantilever under a tip force (Euler-Bernoulli plus Timoshenko's shear term), a tip moment
// (the section's mean rotation does the moment's work), a tip held against turning (the
// held mean rotation), the printed stresses' points under pure bending, the first bending
// frequency.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "frequency_decks.hpp"
#include "run_util.hpp"

namespace halfstep::test {
namespace {

double rel_error(double a, double b) { return std::fabs(a - b) / std::fabs(b); }

// L = 10 along x, 8 elements, RECT a = 0.2 along n1 = y, b = 0.4 along n2 = z, E = 1e7,
// nu = 0.3, clamped (1-6) at x = 0. Bending in z: I = a b^3 / 12; in y: b a^3 / 12.
constexpr double kL = 10, kA = 0.2, kB = 0.4, kE = 1e7, kNu = 0.3;
constexpr int kElements = 8, kTip = 2 * kElements + 1;

std::string beam_deck(const std::string& type, const std::string& model_extra, const std::string& step,
                      double nu = kNu) {
  std::ostringstream d;
  d.precision(17);
  d << "*NODE, NSET=NALL\n";
  for (int i = 0; i <= 2 * kElements; ++i) d << i + 1 << ", " << kL * i / (2 * kElements) << ", 0, 0\n";
  d << "*ELEMENT, TYPE=" << type << ", ELSET=BEAM\n";
  for (int e = 0; e < kElements; ++e) d << e + 1 << ", " << 2 * e + 1 << ", " << 2 * e + 2 << ", " << 2 * e + 3 << "\n";
  d << "*NSET, NSET=FIX\n1\n*NSET, NSET=TIP\n" << kTip << "\n*MATERIAL, NAME=M\n*ELASTIC\n" << kE << ", " << nu
    << "\n*DENSITY\n1\n*BEAM SECTION, ELSET=BEAM, MATERIAL=M, SECTION=RECT\n" << kA << ", " << kB << "\n0, 1, 0\n"
    << "*BOUNDARY\nFIX, 1, 6\n" << model_extra << step;
  return d.str();
}

/// Runs the deck; the tip's U3 at the end (from its history).
double tip_u3(const std::string& name, const std::string& deck) {
  const std::string dir = scratch_dir(name);
  std::ofstream(dir + "/d.inp") << deck;
  std::string log;
  EXPECT_EQ(run_halfstep(dir + "/d.inp", dir + "/out", "--backend cpu --threads 1", &log), 0) << log;
  return last_time_average(read_csv(dir + "/out/history/TIP.csv")).at("U3");
}

const char* const kHistory = "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=TIP\nU\n*END STEP\n";

// Tip force P = 1 along -z: P L^3 / (3 E I) + P L / (k G A), k = 5/6. Measured: 4.4e-4 of it
// for both kinds (B32R runs as the full brick; see docs/input.md).
TEST(QuadraticBeams, CantileverTipForceMatchesTimoshenko) {
  const double I = kA * kB * kB * kB / 12, G = kE / (2 * (1 + kNu));
  const double exact = kL * kL * kL / (3 * kE * I) + kL / (5.0 / 6.0 * G * kA * kB);
  for (const char* type : {"B32", "B32R"}) {
    const double w = -tip_u3(std::string("b32_tip_") + type,
                             beam_deck(type, "", "*STEP\n*STATIC\n*CLOAD\nTIP, 3, -1.\n" + std::string(kHistory)));
    std::printf("%s tip deflection %.6g against %.6g: %.3g\n", type, w, exact, rel_error(w, exact));
    EXPECT_LT(rel_error(w, exact), 2e-3);
  }
}

// Tip moment M = 1 about y (dof 5): the tip moves M L^2 / (2 E I) along -z. Measured: 1.2e-3.
TEST(QuadraticBeams, TipMomentBendsAsBeamTheorySays) {
  const double I = kA * kB * kB * kB / 12, exact = kL * kL / (2 * kE * I);
  const double w = -tip_u3("b32_moment", beam_deck("B32", "", "*STEP\n*STATIC\n*CLOAD\nTIP, 5, 1.\n" + std::string(kHistory)));
  std::printf("B32 tip moment deflection %.6g against %.6g: %.3g\n", w, exact, rel_error(w, exact));
  EXPECT_LT(rel_error(w, exact), 3e-3);
}

// The tip held against turning (dofs 4-6) and free to move: a guided cantilever, P L^3 /
// (12 E I) plus the shear term (0.5 % here). Measured: 5.2e-3 below the sum, 2.4e-4 below the
// bending term alone (the clamped ends' sections do not warp).
TEST(QuadraticBeams, HeldTipRotationMakesAGuidedCantilever) {
  const double I = kA * kB * kB * kB / 12, G = kE / (2 * (1 + kNu));
  const double exact = kL * kL * kL / (12 * kE * I) + kL / (5.0 / 6.0 * G * kA * kB);
  const double w = -tip_u3("b32_guided", beam_deck("B32", "*BOUNDARY\nTIP, 4, 6\n",
                                                   "*STEP\n*STATIC\n*CLOAD\nTIP, 3, -1.\n" + std::string(kHistory)));
  std::printf("B32 guided tip %.6g against %.6g: %.3g\n", w, exact, rel_error(w, exact));
  EXPECT_LT(rel_error(w, exact), 1.5e-2);
}

// First bending mode (the weak axis, y): 1.8751^2 sqrt(E I / (rho A L^4)). Measured: 2.2e-4.
// SECTION=CIRC, radius r: the brick's section nodes lie on the circle (corners at 45 degrees,
// edge nodes on the axes), so its sides are the parabolas through them: area 3.1046 r^2
// (1.2 % below pi r^2). The tip deflection under P = 1 against P L^3 / (3 E I) + P L /
// (k G A) with that shape's I (integrated here) and k = 6 (1 + nu) / (7 + 6 nu), with nu = 0:
// measured 1.3e-3 below it. (With nu = 0.3 the curved section cannot take the quadratic
// Poisson warping, and the beam is 2 % stiffer; docs/input.md.)
TEST(QuadraticBeams, CircularSectionBendsWithItsSectionsInertia) {
  const double r = 0.2, c = r * std::sqrt(0.5), nu = 0;
  // Half-height of the section at x: inside the corners the top parabola, outside the side one.
  const auto half_height = [&](double x) {
    x = std::fabs(x);
    return x <= c ? r - (2 - std::sqrt(2.0)) * x * x / r : std::sqrt((r - x) * r / (2 - std::sqrt(2.0)));
  };
  double I = 0, A = 0;
  const int n = 200000;  // midpoint rule in x; the root at |x| = r converges as n^-1.5, enough here
  for (int i = 0; i < n; ++i) {
    const double x = -r + (i + 0.5) * 2 * r / n, h = half_height(x), dx = 2 * r / n;
    A += 2 * h * dx;
    I += 2.0 / 3.0 * h * h * h * dx;
  }
  const double G = kE / (2 * (1 + nu)), k = 6 * (1 + nu) / (7 + 6 * nu);
  const double exact = kL * kL * kL / (3 * kE * I) + kL / (k * G * A);
  std::string deck = beam_deck("B32", "", "*STEP\n*STATIC\n*CLOAD\nTIP, 3, -1.\n" + std::string(kHistory), nu);
  ASSERT_NE(deck.find("SECTION=RECT\n"), std::string::npos);
  deck.replace(deck.find("SECTION=RECT\n"), deck.find("0, 1, 0\n") - deck.find("SECTION=RECT\n"),
               "SECTION=CIRC\n" + std::to_string(r) + "\n");
  const double w = -tip_u3("b32_circ", deck);
  std::printf("B32 circular section: area %.6g r^2, tip deflection %.6g against %.6g: %.3g\n", A / (r * r), w, exact,
              rel_error(w, exact));
  EXPECT_NEAR(A / (r * r), 2 + 8.0 / 3.0 * (std::sqrt(2.0) - 1), 1e-4);  // the square plus four parabolic caps
  EXPECT_LT(rel_error(w, exact), 2e-3);
}

// Printed stresses come at the peer's points in the peer's order: the brick's natural axes are
// (t, -n2, n1), point k - 1 = i + 3 j + 9 m at (xi_i, eta_j, zeta_m), Gauss abscissae -g, 0, g
// (g = sqrt(0.6)), so z = -eta b / 2. Under a tip moment M about y every section carries
// sxx = M z / I; element 4 lies mid-span, away from the clamp's restrained warping. Measured:
// 9.8e-5 of M (b / 2) / I at worst.
TEST(QuadraticBeams, PrintedStressesFollowThePeersPointOrder) {
  const std::string dir = scratch_dir("b32_points");
  std::ofstream(dir + "/d.inp") << beam_deck("B32", "", "*STEP\n*STATIC\n*CLOAD\nTIP, 5, 1.\n*EL PRINT, ELSET=BEAM\nS\n*END STEP\n");
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/d.inp", dir + "/out", "--backend cpu --threads 1", &log), 0) << log;
  const std::string dat = read_file(dir + "/out/d.dat");
  const std::size_t at = dat.rfind("stresses (elem, integ.pnt.");
  ASSERT_NE(at, std::string::npos) << dat;
  std::istringstream in(dat.substr(dat.find('\n', at) + 1));
  const double I = kA * kB * kB * kB / 12, top = 0.5 * kB / I, g = std::sqrt(0.6), abscissa[3] = {-g, 0, g};
  int seen = 0;
  double worst = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream row(line);
    int e, k;
    double s[6];
    if (!(row >> e >> k >> s[0] >> s[1] >> s[2] >> s[3] >> s[4] >> s[5])) {
      if (seen > 0) break;
      continue;
    }
    if (e != 4) continue;
    const int j = (k - 1) / 3 % 3;
    const double z = -abscissa[j] * kB / 2;
    worst = std::max(worst, std::fabs(s[0] - z / I) / top);
    ++seen;
  }
  EXPECT_EQ(seen, 27);
  std::printf("B32 pure bending: sxx at the 27 points of element 4 within %.3g of M (b / 2) / I\n", worst);
  EXPECT_LT(worst, 1e-3);
}

TEST(QuadraticBeams, FirstFrequencyMatchesEulerBernoulli) {
  const std::string dir = scratch_dir("b32_frequency");
  std::ofstream(dir + "/d.inp") << beam_deck("B32", "", "*STEP\n*FREQUENCY\n2\n*END STEP\n");
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/d.inp", dir + "/out", "--backend cpu --threads 1", &log), 0) << log;
  const std::vector<double> lambda = modes::dat_eigenvalues(read_file(dir + "/out/d.dat"));
  ASSERT_FALSE(lambda.empty());
  const double I = kB * kA * kA * kA / 12, omega = 1.8751040687 * 1.8751040687 * std::sqrt(kE * I / (kA * kB * kL * kL * kL * kL));
  std::printf("B32 first frequency %.6g rad/time against %.6g: %.3g\n", std::sqrt(lambda[0]), omega,
              rel_error(std::sqrt(lambda[0]), omega));
  EXPECT_LT(rel_error(std::sqrt(lambda[0]), omega), 3e-3);
}

}  // namespace
}  // namespace halfstep::test
