// Edge pressures on planar elements (*DLOAD P1..P4, *SURFACE S1..S4 with *DSLOAD): a plate
// [0, 2] x [0, 1] of 4 x 2 quadrilaterals, thickness 0.5, held at x = 0 (U1) and at the
// origin (U2), pulled by a suction -p on its right edge (edge 2 of the last column), p / E =
// 1e-4. Uniaxial stress sigma_xx = p, sigma_yy = sigma_xy = 0 in every element, and the
// reaction at x = 0 is -p t W: the edge force carries the section thickness. The linear static
// step is exact to round-off at the nodes (U1 = p L / E' on the loaded edge, E' = E plane
// stress, E / (1 - nu^2) plane strain; measured 9e-16 and 3e-16, the reaction 1.6e-15 and
// 2e-16), and so is its printed stress, the small-strain C : eps of a NLGEOM=NO step (S11 = p
// to 3.6e-15; it was the deformed element's Cauchy stress, p to O(p / E), before issue 42).
// The explicit step (follower load, finite strain) relaxes by mass damping: Cauchy
// S11 = p to 1e-11 in plane strain and to nu p / E = 3e-5 in plane stress (the force is p on
// the reference thickness, the section thins); the reaction is p t times the current width,
// (1 - nu p / E) W in plane stress, (1 - nu (1 + nu) p / E) W in plane strain (measured 3.0e-5
// and 3.9e-5 below p t W); U1 is the finite-strain stretch's, 1.8e-4 off p L / E'.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

constexpr int kNx = 4, kNy = 2;
constexpr double kL = 2, kW = 1, kT = 0.5, kP = 0.1;

struct EdgeCase {
  const char* element;
  bool is_static;
  bool surface;      ///< *SURFACE S2 + *DSLOAD instead of *DLOAD P2
  double tolerance;               ///< on RF1 / (-p t W) - 1; measured values in the instantiation
  double stress_tolerance;        ///< on S11 / p - 1, |S22| / p and |S12| / p
  double displacement_tolerance;  ///< on U1 / (p L / E') - 1 at x = L
  bool plane_stress = true;
};

std::string plate_deck(const EdgeCase& c) {
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\nplate pulled by an edge suction (" << c.element << ")\n*NODE\n";
  const auto id = [](int i, int j) { return 1 + i + (kNx + 1) * j; };
  for (int j = 0; j <= kNy; ++j)
    for (int i = 0; i <= kNx; ++i) d << id(i, j) << ", " << kL * i / kNx << ", " << kW * j / kNy << "\n";
  d << "*ELEMENT, TYPE=" << c.element << ", ELSET=PLATE\n";
  int e = 1;
  for (int j = 0; j < kNy; ++j)
    for (int i = 0; i < kNx; ++i)
      d << e++ << ", " << id(i, j) << ", " << id(i + 1, j) << ", " << id(i + 1, j + 1) << ", " << id(i, j + 1) << "\n";
  d << "*ELSET, ELSET=RIGHT\n";
  for (int j = 0; j < kNy; ++j) d << kNx * (j + 1) << ",\n";
  d << "*NSET, NSET=XL\n";
  for (int j = 0; j <= kNy; ++j) d << id(kNx, j) << ",\n";
  d << "*NSET, NSET=X0\n";
  for (int j = 0; j <= kNy; ++j) d << id(0, j) << ",\n";
  if (c.surface) d << "*SURFACE, NAME=END, TYPE=ELEMENT\nRIGHT, S2\n";
  d << "*MATERIAL, NAME=M\n*ELASTIC\n1000, 0.3\n*DENSITY\n1\n";
  if (!c.is_static) d << "*DAMPING, ALPHA=10\n";
  d << "*SOLID SECTION, ELSET=PLATE, MATERIAL=M\n" << kT << "\n";
  if (c.is_static) d << "*STEP\n*STATIC\n1, 1\n";
  else d << "*AMPLITUDE, NAME=S, DEFINITION=SMOOTH STEP\n0, 0, 5, 1\n*STEP\n*DYNAMIC, EXPLICIT\n, 8\n";
  d << "*BOUNDARY\nX0, 1, 1\n" << id(0, 0) << ", 2, 2\n";
  const std::string amp = c.is_static ? "" : ", AMPLITUDE=S";
  if (c.surface) d << "*DSLOAD" << amp << "\nEND, P, " << -kP << "\n";
  else d << "*DLOAD" << amp << "\nRIGHT, P2, " << -kP << "\n";
  d << "*OUTPUT, FIELD, NUMBER INTERVAL=1\n*ELEMENT OUTPUT\nS\n*OUTPUT, HISTORY"
    << (c.is_static ? "" : ", NUMBER INTERVAL=20") << "\n*NODE OUTPUT, NSET=X0\nRF\n*NODE OUTPUT, NSET=XL\nU\n*END STEP\n";
  return d.str();
}

/// The last field frame's file in outdir (frames are numbered, so the name sorts last).
std::string last_vtu(const std::string& outdir) {
  std::string last;
  for (const auto& entry : std::filesystem::directory_iterator(outdir))
    if (entry.path().extension() == ".vtu") last = std::max(last, entry.path().string());
  return last;
}

class EdgeSuction : public ::testing::TestWithParam<EdgeCase> {};

TEST_P(EdgeSuction, PlateCarriesUniformUniaxialStress) {
  const EdgeCase c = GetParam();
  const std::string name = std::string(c.element) + (c.is_static ? "_static" : "_explicit") + (c.surface ? "_surface" : "_dload");
  const std::string dir = scratch_dir("edge_suction_" + name);
  const std::string deck = dir + "/plate.inp";
  std::ofstream(deck) << plate_deck(c);
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--backend cpu --threads 1", &out), 0) << out;
  const std::vector<double> s = read_vtu_array(last_vtu(dir + "/out"), "S");
  ASSERT_EQ(s.size(), static_cast<std::size_t>(6 * kNx * kNy));
  double s11 = 0, shear = 0;
  for (int e = 0; e < kNx * kNy; ++e) {  // VTK order S11, S22, S33, S12, S23, S13
    s11 = std::max(s11, std::fabs(s[6 * e] / kP - 1));
    shear = std::max({shear, std::fabs(s[6 * e + 1]) / kP, std::fabs(s[6 * e + 3]) / kP});
  }
  const Csv rf = read_csv(dir + "/out/history/X0_total.csv");
  ASSERT_FALSE(rf.rows.empty());
  const double reaction = rf.rows.back()[static_cast<std::size_t>(rf.col("RF1"))];
  const double rf_error = std::fabs(reaction / (-kP * kT * kW) - 1);
  // U1 of the loaded edge, every node alike.
  const double E = 1000, nu = 0.3, Ep = c.plane_stress ? E : E / (1 - nu * nu);
  const double u1 = last_time_average(read_csv(dir + "/out/history/XL.csv")).at("U1");
  const double u_error = std::fabs(u1 / (kP * kL / Ep) - 1);
  std::printf("edge suction %s: S11 / p - 1 = %.3g, |S22|, |S12| / p < %.3g, RF1 / (-p t W) - 1 = %.3g, U1 / (p L / E') - 1 = %.3g\n",
              name.c_str(), s11, shear, rf_error, u_error);
  EXPECT_LT(s11, c.stress_tolerance);
  EXPECT_LT(shear, c.stress_tolerance);
  EXPECT_LT(rf_error, c.tolerance);
  EXPECT_LT(u_error, c.displacement_tolerance);
}

INSTANTIATE_TEST_SUITE_P(Plane, EdgeSuction,
                         ::testing::Values(EdgeCase{"CPS4", true, false, 1e-12, 1e-13, 1e-12},
                                           EdgeCase{"CPS4", true, true, 1e-12, 1e-13, 1e-12},
                                           EdgeCase{"CPE4R", true, true, 1e-12, 1e-13, 1e-12, false},
                                           EdgeCase{"CPS4", false, true, 1e-4, 1e-4, 5e-4},
                                           EdgeCase{"CPE4", false, false, 1e-4, 1e-4, 5e-4, false}),
                         [](const ::testing::TestParamInfo<EdgeCase>& i) {
                           return std::string(i.param.element) + (i.param.is_static ? "_static" : "_explicit") +
                                  (i.param.surface ? "_surface" : "_dload");
                         });

}  // namespace
}  // namespace halfstep::test
