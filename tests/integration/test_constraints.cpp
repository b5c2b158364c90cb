// Linear constraints in explicit steps (issue 16 item 2): *TIE and *EQUATION by elimination.
//  * A coarse block tied to a finer one, stretched homogeneously: the exact motion is linear
//    in x with no acceleration anywhere, which the tied interface must reproduce to round-off
//    (the transferred forces of the fine face balance the coarse face's own exactly).
//  * A two-element bar whose second element has its own interface nodes, joined by *EQUATION
//    or by a conforming *TIE, moves as the bar with merged nodes (same masses, same forces).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>
#include <map>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

std::string node_line(int id, double x, double y, double z) {
  std::ostringstream s;
  s.precision(17);
  s << id << ", " << x << ", " << y << ", " << z << "\n";
  return s.str();
}

std::string hex_line(int id, const int n[8]) {
  std::string s = std::to_string(id);
  for (int k = 0; k < 8; ++k) s += ", " + std::to_string(n[k]);
  return s + "\n";
}

constexpr double kRate = 0.01;  // a: v1 = a x

/// Coarse C3D8R x in [0, 1] (nodes 1-8) and 2 x 2 x 2 fine ones x in [1, 2] (nodes 101-127,
/// 101 + i + 3 j + 9 k at (1 + i/2, j/2, k/2)); E = 1000, nu = 0, rho = 1. Starting from
/// v1 = a x, x = 0 held and x = 2 moving at 2a: the exact motion is u1 = a t x.
std::string refinement_deck(bool tie) {
  std::string d = "*HEADING\ntied refinement interface\n*NODE\n";
  const double xc[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  for (int k = 0; k < 8; ++k) d += node_line(k + 1, xc[k][0], xc[k][1], xc[k][2]);
  const auto fine = [](int i, int j, int k) { return 101 + i + 3 * j + 9 * k; };
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) d += node_line(fine(i, j, k), 1 + 0.5 * i, 0.5 * j, 0.5 * k);
  const int coarse[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  d += "*ELEMENT, TYPE=C3D8R, ELSET=COARSE\n" + hex_line(1, coarse) + "*ELEMENT, TYPE=C3D8R, ELSET=FINE\n";
  std::string face_elements;
  int id = 11;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i) {
        const int n[8] = {fine(i, j, k),         fine(i + 1, j, k),         fine(i + 1, j + 1, k),
                          fine(i, j + 1, k),     fine(i, j, k + 1),         fine(i + 1, j, k + 1),
                          fine(i + 1, j + 1, k + 1), fine(i, j + 1, k + 1)};
        d += hex_line(id, n);
        if (i == 0) face_elements += std::to_string(id) + ", S6\n";  // S6: the x-min face
        ++id;
      }
  d += "*NSET, NSET=X0\n1, 4, 5, 8\n*NSET, NSET=X2\n";
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j) d += std::to_string(fine(2, j, k)) + "\n";
  d += "*NSET, NSET=ALLN\n1, 2, 3, 4, 5, 6, 7, 8\n";
  for (int n = 101; n <= 127; ++n) d += std::to_string(n) + "\n";
  d += "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.\n*DENSITY\n1.\n"
       "*SOLID SECTION, ELSET=COARSE, MATERIAL=M\n*SOLID SECTION, ELSET=FINE, MATERIAL=M\n"
       "*SURFACE, NAME=FINEFACE\n" + face_elements + "*SURFACE, NAME=COARSEFACE\nCOARSE, S4\n";
  if (tie) d += "*TIE, NAME=REFINE\nFINEFACE, COARSEFACE\n";
  d += "*AMPLITUDE, NAME=CONST\n0., 1., 10., 1.\n*INITIAL CONDITIONS, TYPE=VELOCITY\n";
  std::ostringstream v;
  v.precision(17);
  for (int k = 0; k < 8; ++k) v << k + 1 << ", 1, " << kRate * xc[k][0] << "\n";
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) v << fine(i, j, k) << ", 1, " << kRate * (1 + 0.5 * i) << "\n";
  d += v.str();
  // No bulk viscosity: the uniform stretch rate would give the fine and the coarse elements
  // different viscous pressures (L_e differs), a jump at the interface the tie has no part in.
  d += "*BOUNDARY\nX0, 1, 3\n*STEP\n*DYNAMIC, EXPLICIT\n, 1.\n*BULK VISCOSITY\n0., 0.\n"
       "*BOUNDARY, TYPE=VELOCITY, AMPLITUDE=CONST\nX2, 1, 1, " +
       std::to_string(2 * kRate) +
       "\n*OUTPUT, HISTORY, TIME INTERVAL=1.\n*NODE OUTPUT, NSET=ALLN\nU\n*EL PRINT, FREQUENCY=100000\nS\n*END STEP\n";
  return d;
}

/// Largest |u - a t x| (all three components) over the nodes at the last time.
double homogeneity_error(const Csv& h, const std::map<int, double>& x) {
  const double t = h.rows.back()[0];
  double worst = 0;
  for (const auto& r : h.rows) {
    if (r[0] != t) continue;
    const int n = static_cast<int>(r[h.col("node")]);
    worst = std::max(worst, std::abs(r[h.col("U1")] - kRate * t * x.at(n)));
    worst = std::max(worst, std::max(std::abs(r[h.col("U2")]), std::abs(r[h.col("U3")])));
  }
  return worst;
}

std::map<int, double> refinement_x() {
  std::map<int, double> x{{1, 0}, {2, 1}, {3, 1}, {4, 0}, {5, 0}, {6, 1}, {7, 1}, {8, 0}};
  for (int n = 101; n <= 127; ++n) x[n] = 1 + 0.5 * ((n - 101) % 3);
  return x;
}

double energy_error(const std::string& outdir) {
  const std::string s = read_file(outdir + "/summary.json");
  const std::size_t at = s.find("\"energy_balance_error\": ");
  return at == std::string::npos ? 1.0 : std::stod(s.substr(at + 24));
}

TEST(Constraints, TiedRefinementInterfaceCarriesUniformStressWithoutJump) {
  const std::string dir = scratch_dir("tie_refinement");
  std::ofstream(dir + "/t.inp") << refinement_deck(true);
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/t.inp", dir + "/out", "--threads 1", &out), 0) << out;
  const Csv h = read_csv(dir + "/out/history/ALLN.csv");
  // u1 = a t x at t = 1 is at most 0.02: the motion stays homogeneous to round-off.
  const double homogeneity = homogeneity_error(h, refinement_x());
  std::printf("tied refinement: largest |u - a t x| %.3g\n", homogeneity);
  EXPECT_LT(homogeneity, 1e-14);  // measured 8.8e-16
  // Every element's printed S11 is the Cauchy stress of the stretch l = 1 + a t with nu = 0:
  // l times the second Piola-Kirchhoff stress E (l^2 - 1) / 2.
  const std::string dat = read_file(dir + "/out/t.dat");
  const std::size_t at = dat.rfind("stresses (elem");
  ASSERT_NE(at, std::string::npos);
  std::istringstream table(dat.substr(dat.find('\n', at)));
  const double stretch = 1 + kRate, s11 = stretch * 1000.0 * 0.5 * (stretch * stretch - 1);
  int rows = 0;
  double id, point, s[6];  // C3D8R: one integration point per element
  while (table >> id >> point >> s[0] >> s[1] >> s[2] >> s[3] >> s[4] >> s[5]) {
    ++rows;
    EXPECT_EQ(point, 1.0) << "element " << id;
    EXPECT_NEAR(s[0], s11, 5e-7 * s11) << "element " << id;
    for (int k = 1; k < 6; ++k) EXPECT_LT(std::abs(s[k]), 1e-12) << "element " << id;
  }
  EXPECT_EQ(rows, 9);
  EXPECT_LT(energy_error(dir + "/out"), 1e-6);  // measured 3.1e-7 (4.5e-3 untied)
}

TEST(Constraints, UntiedRefinementIsNotHomogeneous) {
  // The same blocks without the *TIE: both faces at x = 1 are free, so the motion is not the
  // homogeneous one (the check above can fail).
  const std::string dir = scratch_dir("tie_refinement_off");
  std::ofstream(dir + "/t.inp") << refinement_deck(false);
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/t.inp", dir + "/out", "--threads 1", &out), 0) << out;
  const double homogeneity = homogeneity_error(read_csv(dir + "/out/history/ALLN.csv"), refinement_x());
  std::printf("untied: largest |u - a t x| %.3g\n", homogeneity);
  EXPECT_GT(homogeneity, 1e-4);
}

/// Two C3D8R along x (1 x 1 x 1 each), x = 0 clamped, the far end pulled and pushed sideways
/// by point loads. join: "merged" (shared nodes), "equation" (element 2 has its own nodes
/// 21-24 at x = 1, joined by *EQUATION on dofs 1-3), "tie" (the same nodes joined by a
/// node-based slave surface tied to element 1's x = 1 face) or "mpc" (*MPC PIN, node sets
/// paired in order).
std::string bar_deck(const std::string& join) {
  std::string d = "*HEADING\njoined bar\n*NODE\n";
  int id = 1;
  for (int i = 0; i <= 2; ++i)
    for (int k = 0; k <= 1; ++k)
      for (int j = 0; j <= 1; ++j) d += node_line(id++, i, j, k);
  const auto n = [](int i, int j, int k) { return 1 + 4 * i + 2 * k + j; };
  const bool merged = join == "merged";
  // Element 2's x = 1 nodes: the shared ones, or 21-24 in the same order.
  const auto n2 = [&](int i, int j, int k) { return i == 1 && !merged ? 21 + 2 * k + j : n(i, j, k); };
  if (!merged)
    for (int k = 0; k <= 1; ++k)
      for (int j = 0; j <= 1; ++j) d += node_line(21 + 2 * k + j, 1, j, k);
  const int e1[8] = {n(0, 0, 0), n(1, 0, 0), n(1, 1, 0), n(0, 1, 0), n(0, 0, 1), n(1, 0, 1), n(1, 1, 1), n(0, 1, 1)};
  const int e2[8] = {n2(1, 0, 0), n2(2, 0, 0), n2(2, 1, 0), n2(1, 1, 0), n2(1, 0, 1), n2(2, 0, 1), n2(2, 1, 1), n2(1, 1, 1)};
  d += "*ELEMENT, TYPE=C3D8R, ELSET=BAR\n" + hex_line(1, e1) + hex_line(2, e2);
  d += "*NSET, NSET=X0\n1, 2, 3, 4\n*NSET, NSET=TIP\n9, 10, 11, 12\n*NSET, NSET=AR\n5, 6, 7, 8\n";
  if (!merged) d += "*NSET, NSET=BL\n21, 22, 23, 24\n";
  d += "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*DENSITY\n1.\n*SOLID SECTION, ELSET=BAR, MATERIAL=M\n";
  if (join == "equation")
    for (int dof = 1; dof <= 3; ++dof)
      d += "*EQUATION\n2\nBL, " + std::to_string(dof) + ", 1., AR, " + std::to_string(dof) + ", -1.\n";
  if (join == "tie")
    d += "*SURFACE, NAME=BL, TYPE=NODE\nBL\n*SURFACE, NAME=AR\n1, S4\n*TIE, NAME=JOIN\nBL, AR\n";
  if (join == "mpc") d += "*MPC\nPIN, BL, AR\n";
  d += "*BOUNDARY\nX0, 1, 3\n*STEP\n*DYNAMIC, EXPLICIT\n, 0.5\n*CLOAD\nTIP, 1, 2.\nTIP, 2, 0.5\n"
       "*OUTPUT, HISTORY, TIME INTERVAL=0.05\n*NODE OUTPUT, NSET=TIP\nU\n*END STEP\n";
  return d;
}

/// Runs the bar joined as join in a folder of test's own (ctest runs the tests side by side,
/// and each of them runs the merged bar); returns the tip history.
Csv run_bar(const std::string& join, std::string* outdir, const std::string& test) {
  const std::string dir = scratch_dir("bar_" + test + "_" + join);
  std::ofstream(dir + "/b.inp") << bar_deck(join);
  std::string out;
  EXPECT_EQ(run_halfstep(dir + "/b.inp", dir + "/out", "--threads 1", &out), 0) << out;
  *outdir = dir + "/out";
  return read_csv(dir + "/out/history/TIP.csv");
}

/// Largest difference of U1..U3 between two tip histories, and the largest |U| of the first.
std::pair<double, double> history_difference(const Csv& a, const Csv& b) {
  EXPECT_EQ(a.rows.size(), b.rows.size());
  double diff = 0, scale = 0;
  for (std::size_t r = 0; r < std::min(a.rows.size(), b.rows.size()); ++r)
    for (const char* c : {"U1", "U2", "U3"}) {
      diff = std::max(diff, std::abs(a.rows[r][a.col(c)] - b.rows[r][b.col(c)]));
      scale = std::max(scale, std::abs(a.rows[r][a.col(c)]));
    }
  return {diff, scale};
}

TEST(Constraints, EquationJoinedBarMovesAsTheMergedBar) {
  std::string merged_out, joined_out;
  const Csv merged = run_bar("merged", &merged_out, "equation");
  const Csv joined = run_bar("equation", &joined_out, "equation");
  const auto [diff, scale] = history_difference(merged, joined);
  EXPECT_GT(scale, 1e-4);
  std::printf("equation-joined bar: tip history differs by %.3g of %.3g\n", diff, scale);
  EXPECT_LT(diff, 1e-13 * scale);
  // The energy balance (its error is the sudden load's, 6.3e-3) is the merged bar's.
  EXPECT_NEAR(energy_error(joined_out), energy_error(merged_out), 1e-9);
}

TEST(Constraints, MpcPinJoinedBarMovesAsTheMergedBar) {
  std::string merged_out, joined_out;
  const Csv merged = run_bar("merged", &merged_out, "mpc");
  const Csv joined = run_bar("mpc", &joined_out, "mpc");
  const auto [diff, scale] = history_difference(merged, joined);
  EXPECT_GT(scale, 1e-4);
  std::printf("MPC PIN-joined bar: tip history differs by %.3g of %.3g\n", diff, scale);
  EXPECT_LT(diff, 1e-13 * scale);
}

TEST(Constraints, DistributingCouplingSharesTheLoadEquallyLikeDirectLoads) {
  // The merged bar's tip loads (2 and 0.5 on each of its four tip nodes) given instead as 8
  // and 2 on a reference node whose *DISTRIBUTING coupling spreads them with weights 1/4.
  std::string deck = bar_deck("merged");
  const std::string loads = "*CLOAD\nTIP, 1, 2.\nTIP, 2, 0.5\n";
  ASSERT_NE(deck.find(loads), std::string::npos);
  deck.replace(deck.find(loads), loads.size(), "*CLOAD\n900, 1, 8.\n900, 2, 2.\n");
  deck.replace(deck.find("*BOUNDARY\nX0"), 0,
               "*NODE\n900, 2., 0.5, 0.5\n*SURFACE, NAME=TIPS, TYPE=NODE\nTIP\n"
               "*COUPLING, CONSTRAINT NAME=SPREAD, REF NODE=900, SURFACE=TIPS\n*DISTRIBUTING\n");
  const std::string dir = scratch_dir("bar_distributing");
  std::ofstream(dir + "/b.inp") << deck;
  std::string out, merged_out;
  ASSERT_EQ(run_halfstep(dir + "/b.inp", dir + "/out", "--threads 1", &out), 0) << out;
  const Csv spread = read_csv(dir + "/out/history/TIP.csv");
  const Csv merged = run_bar("merged", &merged_out, "distributing");
  const auto [diff, scale] = history_difference(merged, spread);
  EXPECT_GT(scale, 1e-4);
  std::printf("distributing coupling: tip history differs by %.3g of %.3g\n", diff, scale);
  EXPECT_LT(diff, 1e-13 * scale);
}

TEST(Constraints, ConformingTieMovesAsTheMergedBar) {
  std::string merged_out, tied_out;
  const Csv merged = run_bar("merged", &merged_out, "tie");
  const Csv tied = run_bar("tie", &tied_out, "tie");
  const auto [diff, scale] = history_difference(merged, tied);
  EXPECT_GT(scale, 1e-4);
  std::printf("tie-joined bar: tip history differs by %.3g of %.3g\n", diff, scale);
  EXPECT_LT(diff, 1e-13 * scale);
}


/// A 2 x 1 x 0.5 box of one C3D8R centred at the origin (mass 1, 1/8 per corner: principal
/// inertias about the centre 0.3125, 1.0625, 1.25), made rigid with reference node ref
/// ("100": a node at the centre outside the mesh; "1": the corner (-1, -0.5, -0.25)).
std::string box_deck(const std::string& ref, const std::string& loads, double period) {
  std::string d = "*HEADING\nrigid box\n*NODE\n";
  const double X[8][3] = {{-1, -0.5, -0.25}, {1, -0.5, -0.25}, {1, 0.5, -0.25}, {-1, 0.5, -0.25},
                          {-1, -0.5, 0.25},  {1, -0.5, 0.25},  {1, 0.5, 0.25},  {-1, 0.5, 0.25}};
  for (int k = 0; k < 8; ++k) d += node_line(k + 1, X[k][0], X[k][1], X[k][2]);
  d += "100, 0., 0., 0.\n";
  const int n[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  d += "*ELEMENT, TYPE=C3D8R, ELSET=BOX\n" + hex_line(1, n) + "*NSET, NSET=ALLN\n1, 2, 3, 4, 5, 6, 7, 8, 100\n";
  d += "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*DENSITY\n1.\n*SOLID SECTION, ELSET=BOX, MATERIAL=M\n";
  d += "*RIGID BODY, REF NODE=" + ref + ", ELSET=BOX\n*STEP\n*DYNAMIC, EXPLICIT\n, " + std::to_string(period) +
       "\n*CLOAD\n" + loads + "*OUTPUT, HISTORY, TIME INTERVAL=" + std::to_string(period) +
       "\n*NODE OUTPUT, NSET=ALLN\nU, UR, V, A\n*END STEP\n";
  return d;
}

/// Last row of node's history, by column name.
std::map<std::string, double> last_row_of(const Csv& h, int node) {
  std::map<std::string, double> row;
  for (const auto& r : h.rows)
    if (static_cast<int>(r[h.col("node")]) == node)
      for (std::size_t i = 0; i < h.header.size(); ++i) row[h.header[i]] = r[i];
  return row;
}

TEST(RigidBody, MomentSpinsTheBodyAboutItsPrincipalAxis) {
  // M3 = 0.5 on the centre: alpha = M / I33 = 0.4, and the central difference turns the body
  // by exactly 1/2 alpha t^2 (the half-step rates are exact for a constant alpha).
  const std::string dir = scratch_dir("rigid_spin");
  std::ofstream(dir + "/r.inp") << box_deck("100", "100, 6, 0.5\n", 1.0);
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/r.inp", dir + "/out", "--threads 1", &out), 0) << out;
  const Csv h = read_csv(dir + "/out/history/ALLN.csv");
  const double theta = 0.5 * 0.4 * 1.0, c = std::cos(theta), s = std::sin(theta);
  const auto corner = last_row_of(h, 7);  // (1, 0.5, 0.25)
  ASSERT_EQ(corner.at("time"), 1.0);
  EXPECT_NEAR(corner.at("U1"), c * 1 - s * 0.5 - 1, 1e-13);
  EXPECT_NEAR(corner.at("U2"), s * 1 + c * 0.5 - 0.5, 1e-13);
  EXPECT_NEAR(corner.at("U3"), 0.0, 1e-13);
  const auto centre = last_row_of(h, 100);
  for (const char* k : {"U1", "U2", "U3"}) EXPECT_NEAR(centre.at(k), 0.0, 1e-14) << k;
  // The reference node of a body of solids shows the body's rotation (its nodal frame is
  // not turned: the rotation lives in the body).
  EXPECT_NEAR(centre.at("UR3"), theta, 1e-13);
  for (const char* k : {"UR1", "UR2"}) EXPECT_NEAR(centre.at(k), 0.0, 1e-14) << k;
  // The corner's velocity is w x (R X), w = alpha t.
  EXPECT_NEAR(corner.at("V1"), -0.4 * (s * 1 + c * 0.5), 1e-12);
  EXPECT_NEAR(corner.at("V2"), 0.4 * (c * 1 - s * 0.5), 1e-12);
  // Its acceleration alpha x r + w x (w x r), r = R X, w = 0.4 at t = 1; the centre's
  // angular acceleration AR3 = alpha, its translation none (measured to 5e-14).
  const double rx = c * 1 - s * 0.5, ry = s * 1 + c * 0.5;
  EXPECT_NEAR(corner.at("A1"), -0.4 * ry - 0.16 * rx, 1e-12);
  EXPECT_NEAR(corner.at("A2"), 0.4 * rx - 0.16 * ry, 1e-12);
  EXPECT_NEAR(corner.at("A3"), 0.0, 1e-12);
  EXPECT_NEAR(centre.at("AR3"), 0.4, 1e-12);
  for (const char* k : {"A1", "A2", "A3", "AR1", "AR2"}) EXPECT_NEAR(centre.at(k), 0.0, 1e-12) << k;
  EXPECT_LT(energy_error(dir + "/out"), 1e-12);  // measured 2.1e-15
}

// The peer's ROT NODE: a node of no element whose dofs 1-3 are the body's rotations. A moment
// on its dof 3 is the reference node's M3 (the same spin as above), and its U shows the
// body's rotation vector (0, 0, alpha t^2 / 2) in the history rows; its dofs 4-6 do not exist.
TEST(RigidBody, RotationNodeCarriesTheMomentAndShowsTheRotation) {
  std::string deck = box_deck("100", "101, 3, 0.5\n", 1.0);
  deck.replace(deck.find("100, 0., 0., 0.\n"), 16, "100, 0., 0., 0.\n101, 5., 5., 5.\n");
  deck.replace(deck.find("8, 100\n"), 7, "8, 100, 101\n");
  deck.replace(deck.find(", ELSET=BOX\n*STEP"), 11, ", ELSET=BOX, ROT NODE=101");
  const std::string dir = scratch_dir("rigid_rot_node");
  std::ofstream(dir + "/r.inp") << deck;
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/r.inp", dir + "/out", "--threads 1", &out), 0) << out;
  const Csv h = read_csv(dir + "/out/history/ALLN.csv");
  const double theta = 0.5 * 0.4 * 1.0, c = std::cos(theta), s = std::sin(theta);
  const auto corner = last_row_of(h, 7);
  EXPECT_NEAR(corner.at("U1"), c * 1 - s * 0.5 - 1, 1e-13);
  EXPECT_NEAR(corner.at("U2"), s * 1 + c * 0.5 - 0.5, 1e-13);
  const auto rot = last_row_of(h, 101);
  EXPECT_NEAR(rot.at("U1"), 0.0, 1e-14);
  EXPECT_NEAR(rot.at("U2"), 0.0, 1e-14);
  EXPECT_NEAR(rot.at("U3"), theta, 1e-13);
  // A rotation node has no dofs 4-6.
  std::string bad = deck;
  bad.replace(bad.find("*CLOAD\n101, 3, 0.5"), 18, "*CLOAD\n101, 6, 0.5");
  std::ofstream(dir + "/bad.inp") << bad;
  EXPECT_EQ(run_halfstep(dir + "/bad.inp", dir + "/out_bad", "--threads 1", &out), 2) << out;
  EXPECT_NE(out.find("a *RIGID BODY's ROT NODE: its dofs 1 to 3 are the body's rotations"), std::string::npos) << out;
}

// A static step turns a body of solids by its reference node's prescribed rotation: the
// slaves take the finite rotation (NLGEOM) and the reference node's UR shows it.
TEST(RigidBody, StaticPrescribedRotationTurnsTheBodyAndShowsOnItsReferenceNode) {
  std::string d = "*HEADING\ncube with a rigid top\n*NODE\n";
  for (int k = 0; k < 8; ++k) d += node_line(k + 1, (k % 4 == 1 || k % 4 == 2) ? 1.0 : 0.0, (k % 4 >= 2) ? 1.0 : 0.0, k >= 4 ? 1.0 : 0.0);
  d += "100, 0.5, 0.5, 1.\n*ELEMENT, TYPE=C3D8, ELSET=E\n1, 1, 2, 3, 4, 5, 6, 7, 8\n*NSET, NSET=TOP\n5, 6, 7, 8\n"
       "*NSET, NSET=BOT\n1, 2, 3, 4\n*NSET, NSET=H\n7, 100\n*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n"
       "*SOLID SECTION, ELSET=E, MATERIAL=M\n*RIGID BODY, NSET=TOP, REF NODE=100\n*STEP, NLGEOM\n*STATIC\n0.25, 1.\n"
       "*BOUNDARY\nBOT, 1, 3\n100, 1, 5\n100, 6, 6, 0.3\n*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=H\nU, UR\n*END STEP\n";
  const std::string dir = scratch_dir("rigid_static_rotation");
  std::ofstream(dir + "/r.inp") << d;
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/r.inp", dir + "/out", "--threads 1", &out), 0) << out;
  const Csv h = read_csv(dir + "/out/history/H.csv");
  const auto ref = last_row_of(h, 100), corner = last_row_of(h, 7);
  ASSERT_EQ(ref.at("time"), 1.0);
  EXPECT_NEAR(ref.at("UR3"), 0.3, 1e-14);
  for (const char* k : {"UR1", "UR2", "U1", "U2", "U3"}) EXPECT_NEAR(ref.at(k), 0.0, 1e-14) << k;
  // Corner 7 at (0.5, 0.5, 0) from the reference node, turned by 0.3 about z.
  const double c = std::cos(0.3), s = std::sin(0.3);
  EXPECT_NEAR(corner.at("U1"), 0.5 * c - 0.5 * s - 0.5, 1e-14);
  EXPECT_NEAR(corner.at("U2"), 0.5 * s + 0.5 * c - 0.5, 1e-14);
  EXPECT_NEAR(corner.at("U3"), 0.0, 1e-14);
}

// A static step solves for a body's free rotation: a rigid bar (nodes 1 and 2 at x = -+1,
// its reference node 100 at the origin, translations held, turning about z only) held by two
// grounded springs SPRING1 of stiffness k on dof 2 and turned by a moment M about z. The
// springs push back with k sin(theta) on arms cos(theta) each: M = k sin(2 theta) under NLGEOM
// (theta = asin(M / k) / 2, 15 degrees here), M = 2 k theta in a linear step. The moment is
// given on the reference node (Abaqus's dof 6) or on a ROT NODE (the peer's dof 3), which
// shows the rotation as its U.
TEST(RigidBody, StaticFreeRotationTurnsTheBodyUntilItsMomentBalances) {
  const double k = 2.0, M = 1.0;
  for (const bool nlgeom : {true, false})
    for (const bool rot_node : {false, true}) {
      std::string d =
          "*NODE\n1, -1., 0., 0.\n2, 1., 0., 0.\n100, 0., 0., 0.\n101, 5., 5., 0.\n"
          "*ELEMENT, TYPE=SPRING1, ELSET=S\n11, 1\n12, 2\n*SPRING, ELSET=S\n2\n" + std::to_string(k) + "\n"
          "*NSET, NSET=BAR\n1, 2\n*NSET, NSET=ALL\n1, 2, 100, 101\n*RIGID BODY, NSET=BAR, REF NODE=100" +
          std::string(rot_node ? ", ROT NODE=101" : "") + "\n*STEP" + (nlgeom ? ", NLGEOM, INC=100" : "") +
          "\n*STATIC\n0.1, 1.\n*BOUNDARY\n100, 1, 3\n" + (rot_node ? "101, 1, 2\n" : "100, 4, 5\n") + "*CLOAD\n" +
          (rot_node ? "101, 3, " : "100, 6, ") + std::to_string(M) + "\n*NODE PRINT, NSET=ALL\nU\n*END STEP\n";
      const std::string dir = scratch_dir(std::string("rigid_free_turn_") + (nlgeom ? "nl" : "lin") + (rot_node ? "_rot" : ""));
      std::ofstream(dir + "/r.inp") << d;
      std::string out;
      ASSERT_EQ(run_halfstep(dir + "/r.inp", dir + "/out", "--threads 1", &out), 0) << out;
      std::map<long long, std::array<double, 3>> u =
          dat_vector_rows(read_file(dir + "/out/r.dat"), "displacements (vx,vy,vz) for set ALL");
      const double theta = nlgeom ? 0.5 * std::asin(M / k) : M / (2 * k);
      const double c = nlgeom ? std::cos(theta) : 1.0, s = nlgeom ? std::sin(theta) : theta;
      const std::string what = std::string(nlgeom ? "NLGEOM" : "linear") + (rot_node ? ", ROT NODE" : "");
      // Linear: round-off; NLGEOM: Newton's tolerance (measured 8.7e-6 of the 0.26 turn).
      const double tol = nlgeom ? 2e-5 : 1e-12;
      EXPECT_NEAR(u[2][0], c - 1, tol) << what;
      EXPECT_NEAR(u[2][1], s, tol) << what;
      EXPECT_NEAR(u[1][0], 1 - c, tol) << what;
      EXPECT_NEAR(u[1][1], -s, tol) << what;
      if (rot_node) {
        EXPECT_NEAR(u[101][2], theta, tol) << what;  // the body's rotation vector
      }
    }
}

TEST(RigidBody, ForceThroughTheCentreTranslatesABodyHeldAtACorner) {
  // The reference node is a corner, 1.15 from the centre of mass: a force resultant through
  // the centre must give a = F / m and no rotation, which the coupled 6 x 6 solve does (a
  // translation and a rotation integrated apart would spin the body about the corner).
  const std::string dir = scratch_dir("rigid_corner");
  std::string loads;
  for (int k = 1; k <= 8; ++k) loads += std::to_string(k) + ", 1, 0.25\n" + std::to_string(k) + ", 2, 0.1\n";
  std::ofstream(dir + "/r.inp") << box_deck("1", loads, 1.0);
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/r.inp", dir + "/out", "--threads 1", &out), 0) << out;
  const Csv h = read_csv(dir + "/out/history/ALLN.csv");
  for (int node : {1, 7}) {
    const auto r = last_row_of(h, node);
    EXPECT_NEAR(r.at("U1"), 0.5 * 2.0, 1e-12) << node;
    EXPECT_NEAR(r.at("U2"), 0.5 * 0.8, 1e-12) << node;
    EXPECT_NEAR(r.at("U3"), 0.0, 1e-12) << node;
  }
  EXPECT_LT(energy_error(dir + "/out"), 1e-12);  // measured 9.1e-16
}

TEST(RigidBody, HeldRotationLeavesTheTranslationAndReportsTheReactionMoment) {
  // F2 = 0.5 on corner 2 at (1, -0.5, -0.25) from the centre, whose rotations are held: the
  // body translates with a = F / m = 0.5 and does not turn, and the reference node carries
  // the reaction moment -(r x F) = -(0.125, 0, 0.5).
  const std::string dir = scratch_dir("rigid_held_rotation");
  std::string deck = box_deck("100", "2, 2, 0.5\n", 1.0);
  const std::string step = "*DYNAMIC, EXPLICIT\n, 1.000000\n";
  ASSERT_NE(deck.find(step), std::string::npos);
  deck.insert(deck.find(step) + step.size(), "*BOUNDARY\n100, 4, 6\n");
  deck.replace(deck.find("U, UR, V, A\n"), 12, "U, UR, V, A, RF\n");
  std::ofstream(dir + "/r.inp") << deck;
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/r.inp", dir + "/out", "--threads 1", &out), 0) << out;
  const Csv h = read_csv(dir + "/out/history/ALLN.csv");
  for (int node : {100, 2, 7}) {
    const auto r = last_row_of(h, node);
    ASSERT_EQ(r.at("time"), 1.0);
    EXPECT_NEAR(r.at("U1"), 0.0, 1e-13) << node;
    EXPECT_NEAR(r.at("U2"), 0.5 * 0.5, 1e-13) << node;
    EXPECT_NEAR(r.at("U3"), 0.0, 1e-13) << node;
    EXPECT_NEAR(r.at("V2"), 0.5, 1e-13) << node;
  }
  const auto centre = last_row_of(h, 100);
  EXPECT_NEAR(centre.at("RM1"), -0.125, 1e-13);
  EXPECT_NEAR(centre.at("RM2"), 0.0, 1e-13);
  EXPECT_NEAR(centre.at("RM3"), -0.5, 1e-13);
  for (const char* k : {"RF1", "RF2", "RF3", "UR1", "UR2", "UR3", "AR1", "AR2", "AR3"}) EXPECT_NEAR(centre.at(k), 0.0, 1e-13) << k;
  EXPECT_LT(energy_error(dir + "/out"), 1e-12);
}

/// A 2 x 2 S4R plate (2 x 2 elements, thickness 0.1, density 1: mass 0.4) centred at the
/// origin in the xy-plane, made rigid about node 100 at its centre; MITC4 nodes then run with
/// 6 global dofs.
std::string shell_body_deck(const std::string& boundary, const std::string& loads) {
  std::string d = "*HEADING\nrigid S4R plate\n*NODE\n";
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) d += node_line(1 + i + 3 * j, i - 1.0, j - 1.0, 0.0);
  d += "100, 0., 0., 0.\n*ELEMENT, TYPE=S4R, ELSET=PLATE\n1, 1, 2, 5, 4\n2, 2, 3, 6, 5\n3, 4, 5, 8, 7\n4, 5, 6, 9, 8\n";
  d += "*NSET, NSET=ALLN\n1, 2, 3, 4, 5, 6, 7, 8, 9, 100\n";
  d += "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*DENSITY\n1.\n*SHELL SECTION, ELSET=PLATE, MATERIAL=M\n0.1\n";
  d += "*RIGID BODY, REF NODE=100, ELSET=PLATE\n*STEP\n*DYNAMIC, EXPLICIT\n, 1.\n" + boundary + "*CLOAD\n" + loads +
       "*OUTPUT, HISTORY, TIME INTERVAL=1.\n*NODE OUTPUT, NSET=ALLN\nU, V, RF\n*END STEP\n";
  return d;
}

TEST(RigidBody, ShellPlateBodyTranslatesUnderAnOffCentreForceWithItsRotationsHeld) {
  // F2 = 0.5 on corner 1 at (-1, -1, 0): a = F / (rho t A) = 1.25, no rotation, and the
  // reaction moment -(r x F) = (0, 0, 0.5) at the reference node.
  const std::string dir = scratch_dir("rigid_shell_plate");
  std::ofstream(dir + "/r.inp") << shell_body_deck("*BOUNDARY\n100, 4, 6\n", "1, 2, 0.5\n");
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/r.inp", dir + "/out", "--threads 1", &out), 0) << out;
  const Csv h = read_csv(dir + "/out/history/ALLN.csv");
  for (int node : {100, 1, 9}) {
    const auto r = last_row_of(h, node);
    ASSERT_EQ(r.at("time"), 1.0);
    EXPECT_NEAR(r.at("U2"), 0.5 * 1.25, 1e-12) << node;
    for (const char* k : {"U1", "U3", "UR1", "UR2", "UR3"}) EXPECT_NEAR(r.at(k), 0.0, 1e-12) << node << " " << k;
  }
  const auto centre = last_row_of(h, 100);
  EXPECT_NEAR(centre.at("RM3"), 0.5, 1e-12);
  EXPECT_NEAR(centre.at("RM1"), 0.0, 1e-12);
  EXPECT_NEAR(centre.at("RM2"), 0.0, 1e-12);
  EXPECT_LT(energy_error(dir + "/out"), 1e-12);
}

TEST(RigidBody, ShellPlateBodySpinsRigidly) {
  // Moments about z and x turn the plate: its nodes keep their distances from each other
  // (the body's 6 x 6 step moves the MITC4 nodes, directors included), energy balanced.
  const std::string dir = scratch_dir("rigid_shell_spin");
  std::ofstream(dir + "/r.inp") << shell_body_deck("", "100, 6, 0.05\n100, 4, 0.01\n");
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/r.inp", dir + "/out", "--threads 1", &out), 0) << out;
  const Csv h = read_csv(dir + "/out/history/ALLN.csv");
  const auto corner = last_row_of(h, 9);  // (1, 1, 0)
  const double x = 1 + corner.at("U1"), y = 1 + corner.at("U2"), z = corner.at("U3");
  EXPECT_GT(std::abs(corner.at("U1")), 1e-2);  // it did turn
  EXPECT_NEAR(x * x + y * y + z * z, 2.0, 1e-12);
  const auto edge = last_row_of(h, 6);  // (1, 0, 0)
  const double ex = 1 + edge.at("U1"), ey = edge.at("U2"), ez = edge.at("U3");
  EXPECT_NEAR(ex * ex + ey * ey + ez * ez, 1.0, 1e-12);
  EXPECT_NEAR((x - ex) * (x - ex) + (y - ey) * (y - ey) + (z - ez) * (z - ez), 1.0, 1e-12);
  // Measured 1.0e-6: off a principal axis the explicit gyroscopic term (w at t^(n-1/2),
  // docs/theory.md "Rigid bodies") leaves an O(dt^2) drift.
  EXPECT_LT(energy_error(dir + "/out"), 1e-5);
}

TEST(RigidBody, KinematicCouplingDrivesAnEndFaceAndReportsTheBarForce) {
  // A 2 x 1 x 1 bar of two C3D8R (E = 1000, nu = 0) held at x = 0; its x = 2 face is coupled
  // to reference node 200, which moves at 2a. From v1 = a x the motion stays u1 = a t x, and
  // the reference node carries the bar force: Cauchy stress l E (l^2 - 1) / 2 on area 1.
  std::string d = "*HEADING\ncoupled end face\n*NODE\n";
  int id = 1;
  for (int i = 0; i <= 2; ++i)
    for (int k = 0; k <= 1; ++k)
      for (int j = 0; j <= 1; ++j) d += node_line(id++, i, j, k);
  d += "200, 2., 0.5, 0.5\n";
  const auto n = [](int i, int j, int k) { return 1 + 4 * i + 2 * k + j; };
  d += "*ELEMENT, TYPE=C3D8R, ELSET=BAR\n";
  for (int i = 0; i < 2; ++i) {
    const int e[8] = {n(i, 0, 0), n(i + 1, 0, 0), n(i + 1, 1, 0), n(i, 1, 0),
                      n(i, 0, 1), n(i + 1, 0, 1), n(i + 1, 1, 1), n(i, 1, 1)};
    d += hex_line(i + 1, e);
  }
  d += "*NSET, NSET=X0\n1, 2, 3, 4\n*NSET, NSET=ALLN\n1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 200\n"
       "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.\n*DENSITY\n1.\n*SOLID SECTION, ELSET=BAR, MATERIAL=M\n"
       "*SURFACE, NAME=END\n2, S4\n*COUPLING, CONSTRAINT NAME=END, REF NODE=200, SURFACE=END\n*KINEMATIC\n"
       "*AMPLITUDE, NAME=CONST\n0., 1., 10., 1.\n*INITIAL CONDITIONS, TYPE=VELOCITY\n";
  for (int i = 0; i <= 2; ++i)
    for (int k = 0; k <= 1; ++k)
      for (int j = 0; j <= 1; ++j) d += std::to_string(n(i, j, k)) + ", 1, " + std::to_string(kRate * i) + "\n";
  // No bulk viscosity: the closed form below is the elastic force (the stretch rate would add
  // the viscous pressure's b1 rho c L_e eps_dot A).
  d += "200, 1, " + std::to_string(2 * kRate) + "\n*BOUNDARY\nX0, 1, 3\n200, 2, 3\n*STEP\n*DYNAMIC, EXPLICIT\n, 1.\n"
       "*BULK VISCOSITY\n0., 0.\n"
       "*BOUNDARY, TYPE=VELOCITY, AMPLITUDE=CONST\n200, 1, 1, " + std::to_string(2 * kRate) +
       "\n*OUTPUT, HISTORY, TIME INTERVAL=0.5\n*NODE OUTPUT, NSET=ALLN\nU, RF\n*END STEP\n";
  const std::string dir = scratch_dir("coupling_stretch");
  std::ofstream(dir + "/c.inp") << d;
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/c.inp", dir + "/out", "--threads 1", &out), 0) << out;
  const Csv h = read_csv(dir + "/out/history/ALLN.csv");
  double worst = 0;
  for (int i = 0; i <= 2; ++i)
    for (int k = 0; k <= 1; ++k)
      for (int j = 0; j <= 1; ++j) {
        const auto r = last_row_of(h, n(i, j, k));
        worst = std::max(worst, std::abs(r.at("U1") - kRate * i));
        worst = std::max({worst, std::abs(r.at("U2")), std::abs(r.at("U3"))});
      }
  std::printf("coupled bar: largest |u - a t x| %.3g\n", worst);
  EXPECT_LT(worst, 1e-14);
  // The force at the mid-step frame (stretch 1 + U1/2 there): at the step's end no next
  // increment exists, and the reaction of a prescribed velocity is then taken against a zero
  // imposed velocity (as integrate_node does for any node).
  double rf = 0, l = 0;
  for (const auto& r : h.rows)
    if (static_cast<int>(r[h.col("node")]) == 200 && r[0] > 0.4 && r[0] < 0.6)
      rf = r[h.col("RF1")], l = 1 + 0.5 * r[h.col("U1")];
  const double force = l * 1000.0 * 0.5 * (l * l - 1);
  ASSERT_GT(l, 1.0);
  std::printf("coupled bar: RF1 %.17g at the mid-step frame, closed form %.17g\n", rf, force);
  EXPECT_NEAR(rf, force, 1e-10 * force);
}

TEST(RigidBody, MpcBeamStarIsTheKinematicCoupling) {
  // tests/gpu/decks/coupling_end.inp couples a bar's end face to node 900; four *MPC BEAM
  // links from the face nodes to 900 make the same rigid body, so the same history.
  const std::string coupled = read_file(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/coupling_end.inp");
  const std::string coupling = "*SURFACE, NAME=END\n4, S4\n*COUPLING, CONSTRAINT NAME=END, REF NODE=900, SURFACE=END\n*KINEMATIC\n";
  ASSERT_NE(coupled.find(coupling), std::string::npos);
  std::string beams = coupled;
  beams.replace(beams.find(coupling), coupling.size(), "*MPC\nBEAM, 5, 900\nBEAM, 10, 900\nBEAM, 15, 900\nBEAM, 20, 900\n");
  Csv h[2];
  for (int k = 0; k < 2; ++k) {
    const std::string dir = scratch_dir(k == 0 ? "mpc_coupled" : "mpc_beams");
    std::ofstream(dir + "/c.inp") << (k == 0 ? coupled : beams);
    std::string out;
    ASSERT_EQ(run_halfstep(dir + "/c.inp", dir + "/out", "--threads 1", &out), 0) << out;
    h[k] = read_csv(dir + "/out/history/TIP.csv");
  }
  const auto [diff, scale] = history_difference(h[0], h[1]);
  EXPECT_GT(scale, 1e-3);
  std::printf("MPC BEAM star: tip history differs by %.3g of %.3g\n", diff, scale);
  EXPECT_LT(diff, 1e-13 * scale);
}

/// A B31 cantilever (CIRC r = 0.05, E = 1000, nu = 0.25, rho = 1) along x from 0 to 1,
/// clamped at node 1, in two pieces of two elements: nodes 1-3 and 13-5 (node 13 at x = 0.5
/// beside node 3), or one piece ("merged": node 3 in both). join: "merged", "rigid" (*EQUATION
/// on dofs 1-6), "mpc" (*MPC TIE), "hinge" (*EQUATION on dofs 1-5: free about z). Tip load
/// P = 1e-4 along load_dof (2: bends about z, 3: about y).
std::string beam_joint_deck(const std::string& join, int load_dof) {
  const bool merged = join == "merged";
  std::string d = "*HEADING\nbeam joint\n*NODE\n1, 0., 0., 0.\n2, 0.25, 0., 0.\n3, 0.5, 0., 0.\n4, 0.75, 0., 0.\n"
                  "5, 1., 0., 0.\n";
  if (!merged) d += "13, 0.5, 0., 0.\n";
  d += "*ELEMENT, TYPE=B31, ELSET=BEAM\n1, 1, 2\n2, 2, 3\n3, " + std::string(merged ? "3" : "13") + ", 4\n4, 4, 5\n";
  d += "*NSET, NSET=OUT\n3, 5\n*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.25\n*DENSITY\n1.\n"
       "*BEAM SECTION, ELSET=BEAM, MATERIAL=M, SECTION=CIRC\n0.05\n";
  const int last = join == "hinge" ? 5 : 6;
  if (join == "rigid" || join == "hinge")
    for (int dof = 1; dof <= last; ++dof)
      d += "*EQUATION\n2\n13, " + std::to_string(dof) + ", 1., 3, " + std::to_string(dof) + ", -1.\n";
  if (join == "mpc") d += "*MPC\nTIE, 13, 3\n";
  d += "*BOUNDARY\n1, 1, 6\n*STEP\n*DYNAMIC, EXPLICIT\n, 1.\n*CLOAD\n5, " + std::to_string(load_dof) +
       ", 1e-4\n*OUTPUT, HISTORY, TIME INTERVAL=0.05\n*NODE OUTPUT, NSET=OUT\nU, UR\n*END STEP\n";
  return d;
}

/// Runs the jointed beam; returns the history of nodes 3 and 5.
Csv run_beam_joint(const std::string& join, int load_dof) {
  const std::string dir = scratch_dir("beam_joint_" + join + std::to_string(load_dof));
  std::ofstream(dir + "/b.inp") << beam_joint_deck(join, load_dof);
  std::string out;
  EXPECT_EQ(run_halfstep(dir + "/b.inp", dir + "/out", "--threads 1", &out), 0) << out;
  return read_csv(dir + "/out/history/OUT.csv");
}

/// Largest difference of U and UR over two histories, and the largest |U| and |UR| of the first.
std::array<double, 4> beam_difference(const Csv& a, const Csv& b) {
  EXPECT_EQ(a.rows.size(), b.rows.size());
  std::array<double, 4> r{0, 0, 0, 0};
  for (std::size_t i = 0; i < std::min(a.rows.size(), b.rows.size()); ++i)
    for (int rot = 0; rot < 2; ++rot)
      for (int k = 1; k <= 3; ++k) {
        const std::string c = (rot ? "UR" : "U") + std::to_string(k);
        r[2 * rot] = std::max(r[2 * rot], std::abs(a.rows[i][a.col(c)] - b.rows[i][b.col(c)]));
        r[2 * rot + 1] = std::max(r[2 * rot + 1], std::abs(a.rows[i][a.col(c)]));
      }
  return r;
}

TEST(Constraints, RotationEquationsMakeARigidBeamJoint) {
  // Tying all six dofs of the two joint nodes moves them as one node: the same masses and
  // inertias (w = 1 hands each its whole), the same forces, so the merged beam's history.
  for (const char* join : {"rigid", "mpc"}) {
    const auto [du, su, dr, sr] = beam_difference(run_beam_joint("merged", 2), run_beam_joint(join, 2));
    EXPECT_GT(su, 1e-3);
    EXPECT_GT(sr, 1e-3);
    std::printf("%s beam joint: U differs by %.3g of %.3g, UR by %.3g of %.3g\n", join, du, su, dr, sr);
    EXPECT_LT(du, 1e-12 * su) << join;
    EXPECT_LT(dr, 1e-12 * sr) << join;
  }
}

TEST(Constraints, RotationEquationsMakeAHinge) {
  // Free about z only: bending about y (load along z) passes the joint as in the merged beam,
  // bending about z (load along y) does not: the outer piece swings about the hinge.
  {
    const auto [du, su, dr, sr] = beam_difference(run_beam_joint("merged", 3), run_beam_joint("hinge", 3));
    EXPECT_GT(su, 1e-3);
    std::printf("hinge, load along z: U differs by %.3g of %.3g, UR by %.3g of %.3g\n", du, su, dr, sr);
    EXPECT_LT(du, 1e-12 * su);
    EXPECT_LT(dr, 1e-12 * sr);
  }
  const Csv rigid = run_beam_joint("merged", 2), hinge = run_beam_joint("hinge", 2);
  const auto tip_rigid = last_row_of(rigid, 5), tip_hinge = last_row_of(hinge, 5);
  std::printf("tip U2 at t = 1: rigid %.6g, hinge %.6g\n", tip_rigid.at("U2"), tip_hinge.at("U2"));
  EXPECT_GT(tip_hinge.at("U2"), 2 * tip_rigid.at("U2"));
  // The hinge's two sides: equal translations, different rotations about z.
  const auto inner = last_row_of(hinge, 3);
  EXPECT_GT(std::abs(tip_hinge.at("UR3") - inner.at("UR3")), 0.5 * std::abs(tip_hinge.at("UR3")));
}

TEST(RigidBody, RotaryInertiaOnTheReferenceNodeJoinsTheBody) {
  // box_deck's spin with a ROTARYI of 0.75 on reference node 100 (no rotations of its own):
  // alpha = M / (I33 + 0.75) = 0.5 / 2 = 0.25, turned by exactly 1/2 alpha t^2.
  const std::string dir = scratch_dir("rigid_rotaryi");
  std::string deck = box_deck("100", "100, 6, 0.5\n", 1.0);
  const std::size_t at = deck.find("*RIGID BODY");
  ASSERT_NE(at, std::string::npos);
  deck.insert(at, "*ELEMENT, TYPE=ROTARYI, ELSET=RI\n50, 100\n*ROTARY INERTIA, ELSET=RI\n0.75, 0.75, 0.75, 0., 0., 0.\n");
  std::ofstream(dir + "/r.inp") << deck;
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/r.inp", dir + "/out", "--threads 1", &out), 0) << out;
  const Csv h = read_csv(dir + "/out/history/ALLN.csv");
  const double theta = 0.5 * 0.25 * 1.0, c = std::cos(theta), s = std::sin(theta);
  const auto corner = last_row_of(h, 7);  // (1, 0.5, 0.25)
  ASSERT_EQ(corner.at("time"), 1.0);
  EXPECT_NEAR(corner.at("U1"), c * 1 - s * 0.5 - 1, 1e-13);
  EXPECT_NEAR(corner.at("U2"), s * 1 + c * 0.5 - 0.5, 1e-13);
  EXPECT_NEAR(corner.at("V2"), 0.25 * (c * 1 - s * 0.5), 1e-12);
  EXPECT_LT(energy_error(dir + "/out"), 1e-12);
}

/// An S4R strip along x (width 0.2, t = 0.05, E = 1000, nu = 0.3, rho = 1) clamped at x = 0
/// with a tip load 1e-4 along z (consistent nodal shares). mesh: "coarse" (4 x 1 elements),
/// "fine" (8 x 2), or "tied"/"tied_norot": coarse on x < 0.5 (nodes 1-6), fine on x > 0.5
/// (nodes 101-115, 101 + i + 5 j), its x = 0.5 nodes a node-based slave surface tied to the
/// coarse elements' SPOS (with rotations, or with NO ROTATION). Node sets TIP and IFACE (the
/// x = 0.5 nodes: coarse 3, 6 and fine 101, 106, 111 in the tied strips).
std::string shell_strip_deck(const std::string& mesh) {
  struct Piece {
    double x0, x1;
    int nx, ny, node0, elem0;
  };
  std::vector<Piece> pieces;
  if (mesh == "coarse") pieces = {{0, 1, 4, 1, 1, 1}};
  if (mesh == "fine") pieces = {{0, 1, 8, 2, 1, 1}};
  if (mesh == "tied" || mesh == "tied_norot") pieces = {{0, 0.5, 2, 1, 1, 1}, {0.5, 1, 4, 2, 101, 101}};
  std::string nodes = "*NODE\n", elems, tip = "*NSET, NSET=TIP\n", iface = "*NSET, NSET=IFACE\n",
              root = "*NSET, NSET=ROOT\n", cload, slave;
  for (const Piece& p : pieces) {
    const auto id = [&](int i, int j) { return p.node0 + i + (p.nx + 1) * j; };
    for (int j = 0; j <= p.ny; ++j)
      for (int i = 0; i <= p.nx; ++i) {
        const double x = p.x0 + (p.x1 - p.x0) * i / p.nx;
        nodes += node_line(id(i, j), x, 0.2 * j / p.ny, 0);
        if (std::abs(x) < 1e-12) root += std::to_string(id(i, j)) + "\n";
        if (std::abs(x - 0.5) < 1e-12) {
          iface += std::to_string(id(i, j)) + "\n";
          if (p.node0 == 101) slave += std::to_string(id(i, j)) + "\n";
        }
        if (std::abs(x - 1) < 1e-12) {
          tip += std::to_string(id(i, j)) + "\n";
          const double share = (j == 0 || j == p.ny ? 0.5 : 1.0) / p.ny;
          cload += std::to_string(id(i, j)) + ", 3, " + std::to_string(1e-4 * share) + "\n";
        }
      }
    elems += "*ELEMENT, TYPE=S4R, ELSET=" + std::string(p.node0 == 1 ? "A" : "B") + "\n";
    int e = p.elem0;
    for (int j = 0; j < p.ny; ++j)
      for (int i = 0; i < p.nx; ++i)
        elems += std::to_string(e++) + ", " + std::to_string(id(i, j)) + ", " + std::to_string(id(i + 1, j)) + ", " +
                 std::to_string(id(i + 1, j + 1)) + ", " + std::to_string(id(i, j + 1)) + "\n";
  }
  std::string d = "*HEADING\nshell strip " + mesh + "\n" + nodes + elems + tip + iface + root +
                  "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*DENSITY\n1.\n*SHELL SECTION, ELSET=A, MATERIAL=M\n0.05\n";
  if (pieces.size() > 1)
    d += "*SHELL SECTION, ELSET=B, MATERIAL=M\n0.05\n*SURFACE, NAME=FINEEDGE, TYPE=NODE\n" + slave +
         "*SURFACE, NAME=COARSETOP\nA, SPOS\n*TIE, NAME=JOIN" + (mesh == "tied_norot" ? ", NO ROTATION" : "") +
         "\nFINEEDGE, COARSETOP\n";
  d += "*BOUNDARY\nROOT, 1, 6\n*STEP\n*DYNAMIC, EXPLICIT\n, 2.\n*CLOAD\n" + cload +
       "*OUTPUT, HISTORY, TIME INTERVAL=0.1\n*NODE OUTPUT, NSET=TIP\nU\n*NODE OUTPUT, NSET=IFACE\nU, UR\n*END STEP\n";
  return d;
}

/// Runs the strip; returns the mean tip U3 per output time and the interface history.
std::pair<std::vector<double>, Csv> run_shell_strip(const std::string& mesh, std::string* outdir = nullptr) {
  const std::string dir = scratch_dir("shell_strip_" + mesh);
  std::ofstream(dir + "/s.inp") << shell_strip_deck(mesh);
  std::string out;
  EXPECT_EQ(run_halfstep(dir + "/s.inp", dir + "/out", "--threads 1", &out), 0) << out;
  if (outdir) *outdir = dir + "/out";
  const Csv tip = read_csv(dir + "/out/history/TIP.csv");
  std::map<double, std::pair<double, int>> by_time;
  for (const auto& r : tip.rows) {
    auto& [sum, count] = by_time[r[0]];
    sum += r[tip.col("U3")];
    ++count;
  }
  std::vector<double> mean;
  for (const auto& [t, sc] : by_time) mean.push_back(sc.first / sc.second);
  return {mean, read_csv(dir + "/out/history/IFACE.csv")};
}

TEST(ShellTie, CoarseToFineStripBendsAsTheOnePieceStrip) {
  std::string tied_out;
  const auto [coarse, coarse_if] = run_shell_strip("coarse");
  const auto [fine, fine_if] = run_shell_strip("fine");
  const auto [tied, iface] = run_shell_strip("tied", &tied_out);
  ASSERT_EQ(coarse.size(), fine.size());
  ASSERT_EQ(tied.size(), fine.size());
  double mesh_diff = 0, tie_diff = 0, scale = 0;
  for (std::size_t i = 0; i < fine.size(); ++i) {
    mesh_diff = std::max(mesh_diff, std::abs(coarse[i] - fine[i]));
    tie_diff = std::max(tie_diff, std::abs(tied[i] - fine[i]));
    scale = std::max(scale, std::abs(fine[i]));
  }
  std::printf("tip U3: largest %.6g; coarse - fine %.3g, tied - fine %.3g\n", scale, mesh_diff, tie_diff);
  EXPECT_GT(scale, 1e-2);
  // The tied strip is half coarse, half fine: its tip history lies within the meshes' spread.
  EXPECT_LT(tie_diff, mesh_diff + 1e-3 * scale);
  // No kink: the fine side's interface nodes turn with the coarse edge. Node 101 sits on
  // corner 3 (weight 1): the same rotation to round-off. Node 106 at the edge's midpoint takes
  // the mean angular velocity of 3 and 6, so its rotation is their mean up to the second
  // order of the finite rotations (the edge twists by UR1 = -+5.6e-4 against UR2 = -3.6e-2).
  const auto a = last_row_of(iface, 3), b = last_row_of(iface, 6), corner = last_row_of(iface, 101),
             mid = last_row_of(iface, 106);
  EXPECT_GT(std::abs(a.at("UR2")), 1e-2);
  for (const char* c : {"U3", "UR1", "UR2", "UR3"})
    EXPECT_NEAR(corner.at(c), a.at(c), 1e-14 * std::abs(a.at("UR2"))) << c;
  EXPECT_NEAR(mid.at("U3"), 0.5 * (a.at("U3") + b.at("U3")), 1e-15);
  const double mean_ur2 = 0.5 * (a.at("UR2") + b.at("UR2"));
  std::printf("midpoint UR2 %.10g, mean of the edge's %.10g\n", mid.at("UR2"), mean_ur2);
  EXPECT_NEAR(mid.at("UR2"), mean_ur2, 1e-5 * std::abs(mean_ur2));  // 5.1e-6 measured
  EXPECT_NEAR(mid.at("UR1"), 0.5 * (a.at("UR1") + b.at("UR1")), 1e-12);
  std::printf("tied strip energy balance error %.3g\n", energy_error(tied_out));
  EXPECT_LT(energy_error(tied_out), 1e-5);  // 2.8e-6 measured
}

TEST(ShellTie, NoRotationLeavesAHingeLine) {
  // Translations only: the fine half hangs on a hinge line and swings far beyond the strip.
  const auto [fine, fine_if] = run_shell_strip("fine");
  const auto [hinged, iface] = run_shell_strip("tied_norot");
  std::printf("tip U3 at t = 2: one piece %.6g, NO ROTATION %.6g\n", fine.back(), hinged.back());
  EXPECT_GT(hinged.back(), 2 * fine.back());
  const auto coarse_edge = last_row_of(iface, 3), slave = last_row_of(iface, 101);  // coincident nodes
  std::printf("UR2 across the hinge: %.6g and %.6g\n", coarse_edge.at("UR2"), slave.at("UR2"));
  EXPECT_GT(std::abs(slave.at("UR2") - coarse_edge.at("UR2")), 0.5 * std::abs(coarse_edge.at("UR2")));
}

}  // namespace
}  // namespace halfstep::test
