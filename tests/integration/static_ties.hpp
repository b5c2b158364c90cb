// Decks of the static tie tests (tests/integration/test_static_ties.cpp and the GPU's
// tests/gpu/test_gpu_static_ties.cpp): two hexahedral blocks meshed independently and joined
// by *TIE across a plane where their nodes do not match, in static steps; one C3D20R cube
// (hex20_cube) for the quadratic faces' ties and contact.
#pragma once

#include <cmath>
#include <sstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test::ties {

constexpr double kE = 1000.0, kNu = 0.3;

/// The sum of column `name` over the rows at the history's last time.
inline double last_sum(const Csv& csv, const std::string& name) {
  const double t = csv.rows.back()[0];
  double sum = 0;
  for (const auto& row : csv.rows)
    if (row[0] == t) sum += row[static_cast<std::size_t>(csv.col(name))];
  return sum;
}

/// The nodes and elements of a structured block of `type` (C3D8, C3D8R) over [x0, x1] x
/// [y0, y1] x [y0, y1] with nx x ny x ny elements, nodes numbered from node0 and elements from
/// elem0 (into d), in element set `elset`; node (i, j, k) is node0 + (k (ny + 1) + j) (nx + 1)
/// + i, element (i, j, k) elem0 + (k ny + j) nx + i.
inline void block_mesh(std::ostringstream& d, const std::string& type, const std::string& elset, int node0, int elem0,
                       int nx, int ny, double x0, double x1, double y0, double y1) {
  const auto id = [&](int i, int j, int k) { return node0 + (k * (ny + 1) + j) * (nx + 1) + i; };
  d << "*NODE\n";
  for (int k = 0; k <= ny; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        d << id(i, j, k) << ", " << x0 + (x1 - x0) * i / nx << ", " << y0 + (y1 - y0) * j / ny << ", "
          << y0 + (y1 - y0) * k / ny << "\n";
  d << "*ELEMENT, TYPE=" << type << ", ELSET=" << elset << "\n";
  int e = elem0;
  for (int k = 0; k < ny; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        d << e++ << ", " << id(i, j, k) << ", " << id(i + 1, j, k) << ", " << id(i + 1, j + 1, k) << ", "
          << id(i, j + 1, k) << ", " << id(i, j, k + 1) << ", " << id(i + 1, j, k + 1) << ", " << id(i + 1, j + 1, k + 1)
          << ", " << id(i, j + 1, k + 1) << "\n";
}

/// A structured block of `type` (C3D8, C3D8R) over [x0, x1] x [0, h] x [0, h] with nx x ny x
/// ny elements, nodes numbered from node0 and elements from elem0 (into d), in element set
/// `elset`; node (i, j, k) is node0 + (k (ny + 1) + j) (nx + 1) + i.
inline void block(std::ostringstream& d, const std::string& type, const std::string& elset, int node0, int elem0, int nx,
                  int ny, double x0, double x1, double h) {
  const auto id = [&](int i, int j, int k) { return node0 + (k * (ny + 1) + j) * (nx + 1) + i; };
  block_mesh(d, type, elset, node0, elem0, nx, ny, x0, x1, 0.0, h);
  // The block's end faces (element faces S6 at x0, S4 at x1) and end node sets.
  d << "*ELSET, ELSET=" << elset << "_X0\n";
  for (int k = 0; k < ny; ++k)
    for (int j = 0; j < ny; ++j) d << elem0 + (k * ny + j) * nx << (k == ny - 1 && j == ny - 1 ? "\n" : ", ");
  d << "*ELSET, ELSET=" << elset << "_X1\n";
  for (int k = 0; k < ny; ++k)
    for (int j = 0; j < ny; ++j) d << elem0 + (k * ny + j) * nx + nx - 1 << (k == ny - 1 && j == ny - 1 ? "\n" : ", ");
  for (int end = 0; end < 2; ++end) {
    d << "*NSET, NSET=" << elset << (end ? "_N1" : "_N0") << "\n";
    for (int k = 0; k <= ny; ++k)
      for (int j = 0; j <= ny; ++j) d << id(end ? nx : 0, j, k) << (k == ny && j == ny ? "\n" : ", ");
  }
  // Nodes on the planes y = 0 and z = 0.
  d << "*NSET, NSET=" << elset << "_Y0\n";
  for (int k = 0; k <= ny; ++k)
    for (int i = 0; i <= nx; ++i) d << id(i, 0, k) << (k == ny && i == nx ? "\n" : ", ");
  d << "*NSET, NSET=" << elset << "_Z0\n";
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) d << id(i, j, 0) << (j == ny && i == nx ? "\n" : ", ");
}

/// One 20-node hexahedron (C3D20R, or type) as a unit cube over [x0, x0 + 1] x [0, 1]^2, nodes from node0 (corners 1-8 as C3D8,
/// mid-edge nodes 9-20 in Abaqus's order), element elem0 in element set `elset`.
inline void hex20_cube(std::ostringstream& d, const std::string& elset, int node0, int elem0, double x0,
                       const std::string& type = "C3D20R") {
  const double c[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  const int edges[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6}, {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  d << "*NODE\n";
  for (int a = 0; a < 8; ++a) d << node0 + a << ", " << x0 + c[a][0] << ", " << c[a][1] << ", " << c[a][2] << "\n";
  for (int e = 0; e < 12; ++e) {
    const double* p = c[edges[e][0]];
    const double* q = c[edges[e][1]];
    d << node0 + 8 + e << ", " << x0 + 0.5 * (p[0] + q[0]) << ", " << 0.5 * (p[1] + q[1]) << ", " << 0.5 * (p[2] + q[2]) << "\n";
  }
  d << "*ELEMENT, TYPE=" << type << ", ELSET=" << elset << "\n" << elem0;
  for (int a = 0; a < 20; ++a) d << (a == 15 ? ",\n" : ", ") << node0 + a;  // 15 nodes, then a continuation line
  d << "\n*NSET, NSET=" << elset << "_ALL, GENERATE\n" << node0 << ", " << node0 + 19 << ", 1\n";
}

/// Block A (x in [0, la], na x ma x ma) and block B (x in [la, la + lb], nb x mb x mb), of
/// section h x h, tied across x = la (B's face the slave, A's the master), material E, nu;
/// `bcs` and `step` are the *BOUNDARY lines and the step's lines (between *STEP and *END STEP).
inline std::string tied_deck(const std::string& type, int na, int ma, double la, int nb, int mb, double lb, double h,
                             const std::string& bcs, const std::string& step) {
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\ntwo blocks tied across non-matching meshes\n";
  block(d, type, "A", 1, 1, na, ma, 0.0, la, h);
  block(d, type, "B", 100001, 100001, nb, mb, la, la + lb, h);
  d << "*SURFACE, NAME=AFACE\nA_X1, S4\n*SURFACE, NAME=BFACE\nB_X0, S6\n*TIE, NAME=GLUE\nBFACE, AFACE\n"
    << "*MATERIAL, NAME=M\n*ELASTIC\n" << kE << ", " << kNu << "\n*SOLID SECTION, ELSET=A, MATERIAL=M\n"
    << "*SOLID SECTION, ELSET=B, MATERIAL=M\n*BOUNDARY\n" << bcs << "*STEP" << step << "*END STEP\n";
  return d.str();
}

/// The tied bar: A (2 x 2 x 2) and B (4 x 4 x 4), unit section, each 1 long, on the
/// symmetry planes through A (x = 0, y = 0, z = 0), B's far end pulled to a strain of kPull.
/// B's finer face is the slave: its faces lie inside A's, where A's bilinear field restricted
/// to them is bilinear too, so the tied meshes are conforming and the uniform stress state is
/// their exact solution. (Node-to-surface ties of meshes that do not nest are not conforming
/// between the slave nodes and pass this patch test only approximately: 3 x 3 on 2 x 2 gives
/// S11 within -8 % and +13 % of the uniform value, as for any such tie.)
constexpr double kPull = 1e-3;
inline std::string tied_bar(bool nlgeom) {
  std::ostringstream step;
  step << (nlgeom ? ", NLGEOM=YES" : "") << "\n*STATIC\n" << (nlgeom ? "0.5, 1." : "1., 1.") << "\n*BOUNDARY\nB_N1, 1, 1, "
       << 2 * kPull << "\n*OUTPUT, FIELD\n*NODE OUTPUT\nU, RF\n*ELEMENT OUTPUT\nS\n*OUTPUT, HISTORY\n"
       << "*NODE OUTPUT, NSET=B_N1\nU, RF\n*NODE OUTPUT, NSET=A_N0\nRF\n";
  return tied_deck("C3D8", 2, 2, 1.0, 4, 4, 1.0, 1.0, "A_N0, 1, 1\nA_Y0, 2, 2\nA_Z0, 3, 3\n", step.str());
}

/// The tied cantilever: length kL, square section kH, clamped at x = 0, A over [0, kL/2] with
/// 4 elements through the depth and B over [kL/2, kL] with 3, a shear force kP on B's end
/// (spread over its nodes by *CLOAD shares of a uniform traction).
constexpr double kL = 10.0, kH = 1.0, kP = 0.1;
/// Timoshenko's tip deflection P L^3 / (3 E I) + P L / (kappa G A), kappa = 5/6.
inline double timoshenko_tip() {
  const double I = kH * kH * kH * kH / 12, G = kE / (2 * (1 + kNu));
  return kP * kL * kL * kL / (3 * kE * I) + kP * kL / (5.0 / 6.0 * G * kH * kH);
}
/// The cantilever deck of `type` with na, ma elements in A and nb, mb in B (tied when
/// tied is set; else one conforming mesh is spliced by writing B with A's density).
inline std::string tied_cantilever(const std::string& type, int na, int ma, int nb, int mb) {
  std::ostringstream step, load;
  // Nodal shares of a uniform traction on B's end face (mb x mb bilinear faces).
  const double t = kP / (kH * kH), a = kH / mb;
  load.precision(17);
  for (int k = 0; k <= mb; ++k)
    for (int j = 0; j <= mb; ++j) {
      const double wj = (j == 0 || j == mb) ? 0.5 : 1.0, wk = (k == 0 || k == mb) ? 0.5 : 1.0;
      load << 100001 + (k * (mb + 1) + j) * (nb + 1) + nb << ", 2, " << -t * a * a * wj * wk << "\n";
    }
  step << "\n*STATIC\n1., 1.\n*CLOAD\n" << load.str()
       << "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=B_N1\nU\n*NODE OUTPUT, NSET=A_N0\nRF\n";
  return tied_deck(type, na, ma, kL / 2, nb, mb, kL / 2, kH, "A_N0, 1, 3\n", step.str());
}

}  // namespace halfstep::test::ties
