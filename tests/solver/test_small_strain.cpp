// Geometrically linear static steps (*STEP, NLGEOM=NO) report small-strain results (issue 42):
// the strain sym grad u and the stress C : eps, linear in the load, for continuum kinds
// (hexahedra, tetrahedra, planar quads) and MITC4 shells, against closed forms. Before, the
// frames re-evaluated the finite-strain measures (Green strain, Cauchy stress) on the linear
// displacements, so a block in pure shear showed normal stresses of 2 gamma S13.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "static_util.hpp"

namespace halfstep {
namespace {

using test::Capture;
using test::expect_pure_shear;
using test::last_field;
using test::run_deck;
using test::shear_block;
using test::static_cantilever;
using test::u_of;

constexpr double kE = 200e9, kNu = 0.3, kG = kE / (2 * (1 + kNu));

// Pure shear in a linear step: S13 = G gamma, and no normal stress at all (small-strain theory,
// Abaqus and CalculiX alike), for hexahedra (F-bar and reduced), tetrahedra and planar quads.
// gamma = 0.01 is large enough that the finite-strain measures showed S11 = 2.7e-2 S13.
TEST(SmallStrain, PureShearHasNoNormalStress) {
  const double gamma = 0.01;
  const std::string elastic = "*ELASTIC\n200e9, 0.3\n";
  for (const char* type : {"C3D8", "C3D8R", "C3D4"}) {
    Capture c;
    run_deck(shear_block(type, gamma, elastic), c);
    expect_pure_shear(last_field(c), 4, kG * gamma, gamma, type);
  }
  for (const char* type : {"CPS4", "CPE4"}) {
    Capture c;
    run_deck(shear_block(type, gamma, elastic), c);
    expect_pure_shear(last_field(c), 3, kG * gamma, gamma, type);
  }
}

// A Neo-Hookean block in a linear step answers with its initial moduli: S13 = 2 C10 gamma
// (mu0 = 2 C10), again without normal stress.
TEST(SmallStrain, NeoHookeanUsesTheInitialShearModulus) {
  const double gamma = 0.01, c10 = 4e5, d1 = 1e-8;
  for (const char* form : {"", ", FORM=LOG"}) {
    std::ostringstream m;
    m << "*HYPERELASTIC, NEO HOOKE" << form << "\n" << c10 << ", " << d1 << "\n";
    Capture c;
    run_deck(shear_block("C3D8", gamma, m.str()), c);
    expect_pure_shear(last_field(c), 4, 2 * c10 * gamma, gamma, std::string("NEO HOOKE") + form);
  }
}

// Trusses and springs in a linear step report the linear axial force: two T3D2 bars from
// (0, 0) and (2, 0) to the apex (1, 1) (E A = 2e6) and a SPRINGA (k = 1e6) from the apex up to
// a held node, P = 100 down at the apex. The apex sinks by d = P / (E A / sqrt 2 + k); each bar
// shortens by d / sqrt 2, N = -E A d / 2; the spring stretches by d, F = k d. The finite-
// strain measures put N off by 4.1e-5 relative (of the order of the bar's strain); measured
// now: 1.7e-16.
TEST(SmallStrain, TrussAndSpringForcesAreLinear) {
  const std::string deck =
      "*NODE\n1, 0., 0., 0.\n2, 2., 0., 0.\n3, 1., 1., 0.\n4, 1., 2., 0.\n*ELEMENT, TYPE=T3D2, ELSET=BARS\n1, 1, 3\n"
      "2, 2, 3\n*ELEMENT, TYPE=SPRINGA, ELSET=K\n3, 3, 4\n*MATERIAL, NAME=STEEL\n*ELASTIC\n200000., 0.3\n"
      "*SOLID SECTION, ELSET=BARS, MATERIAL=STEEL\n10.\n*SPRING, ELSET=K\n1e6\n*BOUNDARY\n1, 1, 3\n2, 1, 3\n4, 1, 3\n"
      "3, 3, 3\n*STEP, NLGEOM=NO\n*STATIC\n*CLOAD\n3, 2, -100.\n*OUTPUT, FIELD\n*NODE OUTPUT\nU\n*ELEMENT OUTPUT\nS\n"
      "*END STEP\n";
  Capture c;
  run_deck(deck, c);
  const double d = 100.0 / (2e6 / std::sqrt(2.0) + 1e6);
  const FieldArray* n = last_field(c).fields.find_cell("AxialForce");
  ASSERT_NE(n, nullptr);
  ASSERT_EQ(n->values.size(), 3u);
  EXPECT_NEAR(u_of(last_field(c), 3, 1), -d, 1e-14 * d);
  for (int e = 0; e < 2; ++e) EXPECT_NEAR(n->values[static_cast<std::size_t>(e)], -1e6 * d, 1e-13 * 1e6 * d) << "bar " << e + 1;
  EXPECT_NEAR(n->values[2], 1e6 * d, 1e-13 * 1e6 * d) << "spring";
}

/// Largest |value| of an array.
double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

/// Every value of cell or point array `name` of frame b is `factor` times that of frame a, to
/// tol relative to the array's largest value.
void expect_scaled(const ResultFrame& a, const ResultFrame& b, const std::string& name, double factor, bool cell,
                   const std::string& what, double tol = 1e-12) {
  const FieldArray* fa = cell ? a.fields.find_cell(name) : a.fields.find_point(name);
  const FieldArray* fb = cell ? b.fields.find_cell(name) : b.fields.find_point(name);
  ASSERT_TRUE(fa && fb) << name;
  ASSERT_EQ(fa->values.size(), fb->values.size());
  const double scale = max_abs(fb->values);
  ASSERT_GT(scale, 0) << what << " " << name;
  for (std::size_t k = 0; k < fa->values.size(); ++k)
    ASSERT_NEAR(fb->values[k], factor * fa->values[k], tol * scale) << what << " " << name << "[" << k << "]";
}

const char* kLinearStep =
    "*STEP, NLGEOM=NO\n*STATIC\n1, 1\n%LOADS%*OUTPUT, FIELD\n*NODE OUTPUT\nU, RF\n*ELEMENT OUTPUT\nS, E\n*END STEP\n";

// A linear step is linear in the load: twice the load, twice every displacement, stress and
// strain, four times every energy density (full and reduced integration with its hourglass).
// Measured: bit-identical (a factor 2 is exact in binary, and so is every step of the path).
TEST(SmallStrain, ResponseIsLinearInTheLoad) {
  for (const char* type : {"CPS4", "CPS4R"}) {
    Capture a, b;
    run_deck(static_cantilever(20, 4, 1e7, kLinearStep, type), a);
    run_deck(static_cantilever(20, 4, 2e7, kLinearStep, type), b);
    const ResultFrame &fa = last_field(a), &fb = last_field(b);
    expect_scaled(fa, fb, "U", 2, false, type);
    expect_scaled(fa, fb, "RF", 2, false, type);
    for (const char* cell : {"S", "E", "Mises"}) expect_scaled(fa, fb, cell, 2, true, type);
    expect_scaled(fa, fb, "StrainEnergyDensity", 4, true, type);
    if (std::string(type) == "CPS4R") expect_scaled(fa, fb, "HourglassEnergyDensity", 4, true, type);
  }
}

/// A strip of S4 shells (L = 12 along x, b = 1, h = 0.1, E = 1.2e6, nu = 0), nx x 1, clamped
/// at x = 0, loaded at x = L by a transverse force P (z) split over the two tip nodes, in one
/// NLGEOM=NO step.
std::string shell_strip(int nx, double P) {
  std::ostringstream d;
  d.precision(17);
  d << "*NODE\n";
  for (int j = 0; j <= 1; ++j)
    for (int i = 0; i <= nx; ++i) d << 1 + i + (nx + 1) * j << ", " << 12.0 * i / nx << ", " << j << ", 0\n";
  d << "*ELEMENT, TYPE=S4, ELSET=STRIP\n";
  for (int i = 0; i < nx; ++i) d << i + 1 << ", " << i + 1 << ", " << i + 2 << ", " << i + nx + 3 << ", " << i + nx + 2 << "\n";
  d << "*NSET, NSET=ROOT\n1, " << nx + 2 << "\n*NSET, NSET=TIP\n" << nx + 1 << ", " << 2 * nx + 2 << "\n";
  d << "*MATERIAL, NAME=M\n*ELASTIC\n1.2e6, 0\n*SHELL SECTION, ELSET=STRIP, MATERIAL=M\n0.1\n";
  d << "*STEP, NLGEOM=NO\n*STATIC\n1, 1\n*BOUNDARY\nROOT, ENCASTRE\n*CLOAD\nTIP, 3, " << 0.5 * P << "\n";
  d << "*OUTPUT, FIELD\n*NODE OUTPUT\nU, RF\n*ELEMENT OUTPUT\nS, SF, SM, E\n*END STEP\n";
  return d.str();
}

// A MITC4 cantilever strip under a tip force in a linear step: the tip deflection of beam
// theory with shear, P L^3 / 3 EI + P L / (k G A), the bending moment per width P (L - x) at
// every element's centre with its surface stresses 6 M / h^2 and strains, and every section
// result linear in the load. Measured on 16 elements: tip -9.8e-4 relative (the mesh), SM1
// within 1.7e-10 P L of the moment (MITC4 carries a linear moment exactly).
TEST(SmallStrain, ShellCantileverMatchesBeamTheoryAndIsLinear) {
  const int nx = 16;
  const double P = 0.01, L = 12, h = 0.1, E = 1.2e6, EI = E * h * h * h / 12, GA = 5.0 / 6 * E / 2 * h;
  Capture a, b;
  run_deck(shell_strip(nx, P), a);
  run_deck(shell_strip(nx, 2 * P), b);
  const ResultFrame &fa = last_field(a), &fb = last_field(b);
  const double tip = u_of(fa, nx + 1, 2), beam = P * L * L * L / (3 * EI) + P * L / GA;
  std::printf("MITC4 strip %d x 1, tip force, NLGEOM=NO: tip %.9e, beam theory %.9e (%+.2e)\n", nx, tip, beam,
              tip / beam - 1);
  EXPECT_NEAR(tip / beam, 1.0, 2e-3);
  const FieldArray *sm = fa.fields.find_cell("SM"), *stop = fa.fields.find_cell("S_top"),
                   *etop = fa.fields.find_cell("E_top"), *sbot = fa.fields.find_cell("S_bottom");
  ASSERT_TRUE(sm && stop && etop && sbot);
  double worst = 0;
  for (int e = 0; e < nx; ++e) {
    const double x = (e + 0.5) * L / nx, M = P * (L - x);
    worst = std::max(worst, std::fabs(std::fabs(sm->values[3 * e]) - M) / (P * L));
    EXPECT_NEAR(std::fabs(sm->values[3 * e]), M, 4e-10 * P * L) << "element " << e + 1;
    EXPECT_NEAR(std::fabs(stop->values[3 * e]), 6 * M / (h * h), 4e-10 * 6 * P * L / (h * h)) << "element " << e + 1;
    EXPECT_NEAR(stop->values[3 * e], -sbot->values[3 * e], 4e-10 * 6 * P * L / (h * h)) << "element " << e + 1;
    EXPECT_NEAR(etop->values[3 * e], stop->values[3 * e] / E, 4e-10 * 6 * P * L / (h * h * E)) << "element " << e + 1;
    for (int k = 1; k < 3; ++k) EXPECT_LT(std::fabs(stop->values[3 * e + k]), 4e-10 * 6 * P * L / (h * h));
  }
  std::printf("  largest error of SM1 against P (L - x): %.2e of P L\n", worst);
  // Round-off: the transverse shear forces are k G h (w' - theta), a difference of two
  // numbers 1e5 times larger (measured 3.6e-12 of the largest with OpenBLAS's SandyBridge
  // kernels, 1.1e-11 with its Haswell kernels on an AMD EPYC; every other array 2.4e-15).
  const double tol = 3e-11;
  expect_scaled(fa, fb, "U", 2, false, "S4", tol);
  expect_scaled(fa, fb, "UR", 2, false, "S4", tol);
  for (const char* cell : {"SF", "SM", "S_top", "S_bottom", "E_top", "E_bottom", "Mises_top"})
    expect_scaled(fa, fb, cell, 2, true, "S4", tol);
  expect_scaled(fa, fb, "StrainEnergyDensity", 4, true, "S4", tol);
}

}  // namespace
}  // namespace halfstep
