// The 8-node planar and axisymmetric quadrilaterals through the binary, in static steps
// against closed forms: a cantilever in pure bending (CPS8, CPS8R, CPE8, CPE8R; the exact
// displacements are quadratic, which these elements reproduce exactly) and a thick-walled
// cylinder under internal pressure as an edge load on the bore (CAX8, CAX8R against Lame).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

double rel_error(double a, double b) { return std::fabs(a - b) / std::fabs(b); }


/// Node numbering of a row of nx 8-node quadrilaterals on the lattice of corners and mid-side
/// nodes: column i = 0..2 nx, row j = 0 (bottom), 1 (middle), 2 (top); the middle row has
/// nodes at even columns only (the vertical edges' mid-side nodes).
struct Row {
  int nx;
  std::map<std::pair<int, int>, int> id;
  explicit Row(int n) : nx(n) {
    int next = 1;
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i <= 2 * nx; ++i)
        if (j != 1 || i % 2 == 0) id[{i, j}] = next++;
  }
  /// The element's eight nodes in Abaqus order (corners counter-clockwise, then mid-sides).
  std::string element(int e) const {
    const int I = 2 * e;
    const int n[8] = {id.at({I, 0}), id.at({I + 2, 0}), id.at({I + 2, 2}), id.at({I, 2}),
                      id.at({I + 1, 0}), id.at({I + 2, 1}), id.at({I + 1, 2}), id.at({I, 1})};
    std::ostringstream s;
    s << e + 1;
    for (int k : n) s << ", " << k;
    return s.str();
  }
};

// ------------------------------------------------------------------ pure bending
// Cantilever 0 <= x <= L = 4, -c <= y <= c (c = 0.5), thickness t = 0.1, four elements in a
// row, one through the depth. Held: u = 0 on x = 0, v = 0 at (0, 0). End x = L: the linear
// traction sigma_xx = -s0 y / c as its consistent nodal forces, -+s0 c t / 3 at the top and
// bottom nodes and none at the middle: a moment M = 2 s0 c^2 t / 3 = s0 I / c. The elasticity
// solution is u = -M x y / (E I), v = M (x^2 + nu y^2) / (2 E I) (plane stress; plane strain
// with E / (1 - nu^2) and nu / (1 - nu)): quadratic, inside the elements' space, so linear
// steps are exact to round-off. Measured: within 2e-13 for all four kinds.

struct BendingCase {
  const char* type;
  bool plane_strain;
};

class Quad8PureBending : public ::testing::TestWithParam<BendingCase> {};

TEST_P(Quad8PureBending, TipDisplacementsAreTheElasticitySolution) {
  const BendingCase k = GetParam();
  const double L = 4, c = 0.5, t = 0.1, E = 2e5, nu = 0.3, s0 = 50;
  const Row row(4);
  std::ostringstream d;
  d.precision(17);
  d << "*NODE, NSET=ALL\n";
  for (const auto& [ij, id] : row.id) d << id << ", " << L * ij.first / (2 * row.nx) << ", " << c * (ij.second - 1) << "\n";
  d << "*ELEMENT, TYPE=" << k.type << ", ELSET=BEAM\n";
  for (int e = 0; e < row.nx; ++e) d << row.element(e) << "\n";
  const int end = 2 * row.nx;
  d << "*NSET, NSET=ROOT\n" << row.id.at({0, 0}) << ", " << row.id.at({0, 1}) << ", " << row.id.at({0, 2}) << "\n"
    << "*NSET, NSET=TIPMID\n" << row.id.at({end, 1}) << "\n*NSET, NSET=TIPTOP\n" << row.id.at({end, 2}) << "\n"
    << "*MATERIAL, NAME=M\n*ELASTIC\n" << E << ", " << nu << "\n*SOLID SECTION, ELSET=BEAM, MATERIAL=M\n" << t << "\n"
    << "*STEP\n*STATIC\n*BOUNDARY\nROOT, 1, 1\n" << row.id.at({0, 1}) << ", 2, 2\n*CLOAD\n"
    << row.id.at({end, 2}) << ", 1, " << -s0 * c * t / 3 << "\n" << row.id.at({end, 0}) << ", 1, " << s0 * c * t / 3 << "\n"
    << "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=TIPMID\nU\n*NODE OUTPUT, NSET=TIPTOP\nU\n*END STEP\n";
  const std::string dir = scratch_dir(std::string("bending_") + k.type);
  std::ofstream(dir + "/bend.inp") << d.str();
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/bend.inp", dir + "/out", "--backend cpu --threads 1", &out), 0) << out;
  const double I = t * 8 * c * c * c / 12, M = s0 * I / c;
  const double Es = k.plane_strain ? E / (1 - nu * nu) : E, nus = k.plane_strain ? nu / (1 - nu) : nu;
  const auto mid = last_time_average(read_csv(dir + "/out/history/TIPMID.csv"));
  const auto top = last_time_average(read_csv(dir + "/out/history/TIPTOP.csv"));
  const double v_mid = M * L * L / (2 * Es * I), u_top = -M * L * c / (Es * I), v_top = M * (L * L + nus * c * c) / (2 * Es * I);
  std::printf("%s pure bending: v(L, 0) %.3g, u(L, c) %.3g, v(L, c) %.3g relative errors\n", k.type,
              rel_error(mid.at("U2"), v_mid), rel_error(top.at("U1"), u_top), rel_error(top.at("U2"), v_top));
  EXPECT_LT(rel_error(mid.at("U2"), v_mid), 1e-9);
  EXPECT_LT(std::fabs(mid.at("U1")), 1e-9 * v_mid);
  EXPECT_LT(rel_error(top.at("U1"), u_top), 1e-9);
  EXPECT_LT(rel_error(top.at("U2"), v_top), 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Quad8, Quad8PureBending,
                         ::testing::Values(BendingCase{"CPS8", false}, BendingCase{"CPS8R", false},
                                           BendingCase{"CPE8", true}, BendingCase{"CPE8R", true}),
                         [](const ::testing::TestParamInfo<BendingCase>& i) { return std::string(i.param.type); });

// ------------------------------------------------------------------ Lame, CAX8
// Cylinder a = 0.1 <= r <= b = 0.2, plane strain (every node U2 = 0), nr elements through the
// wall, one high; internal pressure p = 1e6 as *DLOAD P4 on the first element's bore edge
// (nodes 4-8-1, at r = a), steel E = 210e9, nu = 0.3. Lame: u_r(r) = (1 + nu) p a^2 /
// (E (b^2 - a^2)) ((1 - 2 nu) r + b^2 / r); the axial reaction of the held z dofs at the
// bottom is 2 nu p a^2 pi. The 1 / r term is not in the elements' space: CAX8's errors fall
// from 8.3e-4 (nr = 2) to 4.2e-6 (nr = 8), about as h^4 at the nodes; with CAX8R's 2 x 2
// rule the nodal values come out exact to round-off (measured 5e-15 and 8e-15 at nr = 2
// and 8). The axial reaction is exact for both.

struct CylinderCase {
  const char* type;
  int nr;
  double tolerance;  ///< relative, on u_r(a), u_r(b) and the axial reaction
};

class Quad8Cylinder : public ::testing::TestWithParam<CylinderCase> {};

TEST_P(Quad8Cylinder, RadialDisplacementMatchesLame) {
  const CylinderCase k = GetParam();
  const double a = 0.1, b = 0.2, p = 1e6, E = 210e9, nu = 0.3, h = (b - a) / k.nr;
  const Row row(k.nr);
  std::ostringstream d;
  d.precision(17);
  d << "*NODE, NSET=ALL\n";
  for (const auto& [ij, id] : row.id) d << id << ", " << a + (b - a) * ij.first / (2 * row.nx) << ", " << 0.5 * h * ij.second << "\n";
  d << "*ELEMENT, TYPE=" << k.type << ", ELSET=WALL\n";
  for (int e = 0; e < row.nx; ++e) d << row.element(e) << "\n";
  d << "*NSET, NSET=BOTTOM\n";
  for (int i = 0; i <= 2 * row.nx; ++i) d << row.id.at({i, 0}) << (i % 8 == 7 || i == 2 * row.nx ? "\n" : ", ");
  d << "*NSET, NSET=INNER\n" << row.id.at({0, 0}) << ", " << row.id.at({0, 1}) << ", " << row.id.at({0, 2}) << "\n"
    << "*NSET, NSET=OUTER\n" << row.id.at({2 * row.nx, 0}) << ", " << row.id.at({2 * row.nx, 1}) << ", "
    << row.id.at({2 * row.nx, 2}) << "\n"
    << "*MATERIAL, NAME=STEEL\n*ELASTIC\n" << E << ", " << nu << "\n*SOLID SECTION, ELSET=WALL, MATERIAL=STEEL\n"
    << "*STEP\n*STATIC\n*BOUNDARY\nALL, 2, 2\n*DLOAD\n1, P4, " << p << "\n"
    << "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=INNER\nU\n*NODE OUTPUT, NSET=OUTER\nU\n*NODE OUTPUT, NSET=BOTTOM\nRF\n*END STEP\n";
  const std::string dir = scratch_dir(std::string("cylinder_") + k.type + "_" + std::to_string(k.nr));
  std::ofstream(dir + "/cyl.inp") << d.str();
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/cyl.inp", dir + "/out", "--backend cpu --threads 1", &out), 0) << out;
  const auto lame = [&](double r) { return (1 + nu) * p * a * a / (E * (b * b - a * a)) * ((1 - 2 * nu) * r + b * b / r); };
  const double ua = last_time_average(read_csv(dir + "/out/history/INNER.csv")).at("U1");
  const double ub = last_time_average(read_csv(dir + "/out/history/OUTER.csv")).at("U1");
  const double axial = 2 * nu * p * a * a * 3.141592653589793;
  const double rf = -last_total(dir + "/out", "BOTTOM", "RF2");
  std::printf("%s cylinder nr %d: u_r(a) %.3g, u_r(b) %.3g, axial reaction %.3g relative errors\n", k.type, k.nr,
              rel_error(ua, lame(a)), rel_error(ub, lame(b)), rel_error(rf, axial));
  EXPECT_LT(rel_error(ua, lame(a)), k.tolerance);
  EXPECT_LT(rel_error(ub, lame(b)), k.tolerance);
  EXPECT_LT(rel_error(rf, axial), k.tolerance);
}

INSTANTIATE_TEST_SUITE_P(Quad8, Quad8Cylinder,
                         ::testing::Values(CylinderCase{"CAX8", 2, 1.5e-3}, CylinderCase{"CAX8", 8, 1e-5},
                                           CylinderCase{"CAX8R", 2, 1e-12}, CylinderCase{"CAX8R", 8, 1e-12}),
                         [](const ::testing::TestParamInfo<CylinderCase>& i) {
                           return std::string(i.param.type) + "_" + std::to_string(i.param.nr);
                         });

}  // namespace
}  // namespace halfstep::test
