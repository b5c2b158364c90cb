// *NODE PRINT, *EL PRINT and *ENERGY PRINT write <job>.dat (issue 16): blocks at the
// increments each request's FREQUENCY names and at the end of the step, with the same
// values the history and field output carry. Field frames hold the requested variables.
#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <map>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

const char* kCube = R"(*HEADING
printed output
*NODE
1, 0., 0., 0.
2, 1., 0., 0.
3, 1., 1., 0.
4, 0., 1., 0.
5, 0., 0., 1.
6, 1., 0., 1.
7, 1., 1., 1.
8, 0., 1., 1.
*ELEMENT, TYPE=C3D8R, ELSET=BLOCK
1, 1, 2, 3, 4, 5, 6, 7, 8
*NSET, NSET=BOTTOM
1, 2, 3, 4
*NSET, NSET=TOPN
5, 6, 7, 8
*MATERIAL, NAME=STEEL
*ELASTIC
1000., 0.3
*PLASTIC
2., 0
12., 1
*DENSITY
1.
*SOLID SECTION, ELSET=BLOCK, MATERIAL=STEEL
)";

/// Increment numbers of the .dat block headings, and the blocks' first lines, in order.
struct Dat {
  std::vector<long long> increments;
  std::vector<std::string> lines;
};

Dat read_dat(const std::string& path) {
  Dat d;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    d.lines.push_back(line);
    const auto at = line.find("I N C R E M E N T");
    if (at != std::string::npos) d.increments.push_back(std::stoll(line.substr(at + 17)));
  }
  return d;
}

TEST(PrintOutput, ExplicitStepPrintsAtEachRequestsFrequencyAndAtTheEnd) {
  const std::string dir = scratch_dir("print_explicit");
  std::ofstream(dir + "/p.inp") << kCube << R"(*STEP
*DYNAMIC, EXPLICIT
, 2.
*BOUNDARY
BOTTOM, 1, 3
*BOUNDARY, TYPE=VELOCITY
TOPN, 3, 3, 0.05
*OUTPUT, HISTORY, TIME INTERVAL=2.
*NODE OUTPUT, NSET=TOPN
U
*NODE PRINT, NSET=TOPN, FREQUENCY=20
U
*NODE PRINT, NSET=BOTTOM, FREQUENCY=50, TOTALS=YES
RF
*EL PRINT, ELSET=BLOCK, FREQUENCY=20
S, PEEQ
*ENERGY PRINT, FREQUENCY=20
*END STEP
)";
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/p.inp", dir + "/out", "", &out), 0) << out;
  const Dat d = read_dat(dir + "/out/p.dat");
  ASSERT_GE(d.increments.size(), 3u);
  const long long last = d.increments.back();
  for (long long i : d.increments) EXPECT_TRUE(i % 20 == 0 || i % 50 == 0 || i == last) << i;
  // The reaction table appears at multiples of 50 and at the end only.
  int forces = 0, expected = 0;
  for (const std::string& l : d.lines) forces += l.find("forces (fx,fy,fz) for set BOTTOM") != std::string::npos;
  for (long long i : d.increments) expected += i % 50 == 0 || i == last;
  EXPECT_EQ(forces, expected);
  // The last displacement table equals the history rows at the end of the step.
  std::size_t at = 0;
  for (std::size_t k = 0; k < d.lines.size(); ++k)
    if (d.lines[k].find("displacements (vx,vy,vz) for set TOPN") != std::string::npos) at = k;
  ASSERT_GT(at, 0u);
  const Csv h = read_csv(dir + "/out/history/TOPN.csv");
  for (int n = 0; n < 4; ++n) {
    std::istringstream row(d.lines[at + 2 + static_cast<std::size_t>(n)]);
    double id, u1, u2, u3;
    row >> id >> u1 >> u2 >> u3;
    const auto& r = h.rows[h.rows.size() - 4 + static_cast<std::size_t>(n)];
    EXPECT_EQ(id, r[h.col("node")]);
    EXPECT_NEAR(u1, r[h.col("U1")], 1e-6 * 0.1 + 1e-12);
    EXPECT_NEAR(u3, r[h.col("U3")], 1e-6 * 0.1);
  }
  // Element and energy tables are there, with a plastic strain above zero at the end.
  bool peeq = false, energy = false;
  for (std::size_t k = 0; k + 2 < d.lines.size(); ++k) {
    if (d.lines[k].find("equivalent plastic strain (elem, integ.pnt.,pe)") != std::string::npos) {
      std::istringstream row(d.lines[k + 2]);  // C3D8R: its one point
      double id, point, v;
      row >> id >> point >> v;
      EXPECT_EQ(point, 1.0);
      peeq = v > 0;
    }
    energy = energy || d.lines[k].find("energies (kinetic") != std::string::npos;
  }
  EXPECT_TRUE(peeq);
  EXPECT_TRUE(energy);
}

// *EL PRINT prints S and E at each integration point, numbered as Abaqus numbers them (xi
// fastest, then eta, then zeta; a tetrahedron's point g next to corner g). One element of each
// kind with every node held on the exact field u_x = d y z, u_z = c x y (bilinear in each
// pair, so every kind here represents it exactly, without volume change, so C3D8's F-bar
// leaves it alone): a linear step's stresses are sigma_xy = G d z, sigma_xz = G (c + d) y,
// sigma_yz = G c x at the point's coordinates, the rest 0; the plane-stress square takes
// u_x = c x y instead (sigma_xx = E c y / (1 - nu^2), sigma_yy = nu sigma_xx, sigma_xy = G c x).
// POSITION=CENTROIDAL prints the element's row at the centroid instead.
TEST(PrintOutput, ElementTablesPrintEachIntegrationPointInAbaqusOrder) {
  const double E = 1000, nu = 0.25, G = E / (2 * (1 + nu)), c = 1e-3, d = 2e-3;
  struct Case {
    const char* type;
    std::vector<std::array<double, 3>> nodes;
    std::vector<std::array<double, 3>> points;  // in Abaqus's numbering
  };
  const double a = 1 / std::sqrt(3.0), b = std::sqrt(0.6);
  const auto hex_points = [](int n, double s) {
    std::vector<std::array<double, 3>> p;
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          const auto at = [&](int q) { return n == 2 ? 0.5 * (1 + (q ? s : -s)) : 0.5 * (1 + (q - 1) * s); };
          p.push_back({at(i), at(j), at(k)});
        }
    return p;
  };
  const std::vector<std::array<double, 3>> corners = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                                      {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  std::vector<std::array<double, 3>> hex20 = corners;
  const int edges[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6}, {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  for (const auto& e : edges)
    hex20.push_back({0.5 * (corners[e[0]][0] + corners[e[1]][0]), 0.5 * (corners[e[0]][1] + corners[e[1]][1]),
                     0.5 * (corners[e[0]][2] + corners[e[1]][2])});
  const std::vector<std::array<double, 3>> tet = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.5, 0, 0},
                                                  {0.5, 0.5, 0}, {0, 0.5, 0}, {0, 0, 0.5}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
  const double l0 = 0.58541019662496845446, l1 = 0.13819660112501051518;
  // Point g near corner g: x = sum of the other corners' coordinates times their L.
  const std::vector<std::array<double, 3>> tet_points = {{l1, l1, l1}, {l0, l1, l1}, {l1, l0, l1}, {l1, l1, l0}};
  const auto quad_points = [](int n, double s) {  // xi fastest, as Abaqus numbers them
    std::vector<std::array<double, 3>> p;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const auto at = [&](int q) { return n == 2 ? 0.5 * (1 + (q ? s : -s)) : 0.5 * (1 + (q - 1) * s); };
        p.push_back({at(i), at(j), 0});
      }
    return p;
  };
  const std::vector<std::array<double, 3>> quad8 = {{0, 0, 0},   {1, 0, 0}, {1, 1, 0},   {0, 1, 0},
                                                    {0.5, 0, 0}, {1, 0.5, 0}, {0.5, 1, 0}, {0, 0.5, 0}};
  const std::vector<Case> cases = {
      {"C3D8", corners, hex_points(2, a)},
      {"C3D8R", corners, {{0.5, 0.5, 0.5}}},
      {"C3D20R", hex20, hex_points(2, a)},
      {"C3D20", hex20, hex_points(3, b)},
      {"C3D10", tet, tet_points},
      {"CPS4", {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, {{0.5 * (1 - a), 0.5 * (1 - a), 0}, {0.5 * (1 + a), 0.5 * (1 - a), 0}, {0.5 * (1 - a), 0.5 * (1 + a), 0}, {0.5 * (1 + a), 0.5 * (1 + a), 0}}},
      {"CPS8", quad8, quad_points(3, b)},
      {"CPS8R", quad8, quad_points(2, a)},
  };
  for (const Case& k : cases) {
    const bool planar = std::string(k.type).rfind("CPS", 0) == 0;
    for (const bool centroidal : {false, true}) {
      std::ostringstream deck;
      deck.precision(17);
      deck << "*NODE\n";
      for (std::size_t n = 0; n < k.nodes.size(); ++n)
        deck << n + 1 << ", " << k.nodes[n][0] << ", " << k.nodes[n][1] << (planar ? "\n" : ", " + std::to_string(k.nodes[n][2]) + "\n");
      deck << "*ELEMENT, TYPE=" << k.type << ", ELSET=E\n7";
      for (std::size_t n = 0; n < k.nodes.size(); ++n) deck << ", " << n + 1;
      deck << "\n*MATERIAL, NAME=M\n*ELASTIC\n" << E << ", " << nu << "\n*SOLID SECTION, ELSET=E, MATERIAL=M\n"
           << (planar ? "1.\n" : "") << "*STEP\n*STATIC\n*BOUNDARY\n";
      for (std::size_t n = 0; n < k.nodes.size(); ++n) {
        const double x = k.nodes[n][0], y = k.nodes[n][1], z = k.nodes[n][2];
        const double u[3] = {planar ? c * x * y : d * y * z, 0.0, c * x * y};
        for (int dof = 0; dof < (planar ? 2 : 3); ++dof) deck << n + 1 << ", " << dof + 1 << ", " << dof + 1 << ", " << u[dof] << "\n";
      }
      deck << "*EL PRINT, ELSET=E" << (centroidal ? ", POSITION=CENTROIDAL" : "") << "\nS, E\n*END STEP\n";
      const std::string dir = scratch_dir(std::string("print_points_") + k.type + (centroidal ? "_c" : ""));
      std::ofstream(dir + "/p.inp") << deck.str();
      std::string out;
      ASSERT_EQ(run_halfstep(dir + "/p.inp", dir + "/out", "--backend cpu", &out), 0) << k.type << "\n" << out;
      const Dat dat = read_dat(dir + "/out/p.dat");
      const auto table = [&](const std::string& head) {
        for (std::size_t i = 0; i < dat.lines.size(); ++i)
          if (dat.lines[i].find(head) != std::string::npos) return i + 2;
        ADD_FAILURE() << k.type << ": no table '" << head << "' in\n" << out;
        return dat.lines.size();
      };
      if (centroidal) {
        const std::size_t at = table("stresses (elem, sxx,syy,szz,sxy,sxz,syz) at the centroid for set E");
        ASSERT_LT(at, dat.lines.size());
        std::istringstream row(dat.lines[at]);
        double id, s[6];
        row >> id >> s[0] >> s[1] >> s[2] >> s[3] >> s[4] >> s[5];
        EXPECT_EQ(id, 7.0) << k.type;
        continue;
      }
      const std::size_t at = table("stresses (elem, integ.pnt.,sxx,syy,szz,sxy,sxz,syz) for set E");
      const std::size_t at_e = table("strains (elem, integ.pnt.,exx,eyy,ezz,exy,exz,eyz) for set E");
      ASSERT_LE(at + k.points.size(), dat.lines.size());
      ASSERT_LE(at_e + k.points.size(), dat.lines.size());
      for (std::size_t p = 0; p < k.points.size(); ++p) {
        const double x = k.points[p][0], y = k.points[p][1], z = k.points[p][2];
        double want[6], want_e[6];
        if (planar) {
          const double sxx = E * c * y / (1 - nu * nu);
          const double w[6] = {sxx, nu * sxx, 0, G * c * x, 0, 0};
          const double we[6] = {c * y, 0, 0, 0.5 * c * x, 0, 0};
          std::copy(w, w + 6, want);
          std::copy(we, we + 6, want_e);
          want_e[1] = want_e[2] = 0;  // printed: E22 = 0 (u_y = 0); E33 of plane stress is not asserted
        } else {
          const double w[6] = {0, 0, 0, G * d * z, G * (c + d) * y, G * c * x};
          const double we[6] = {0, 0, 0, 0.5 * d * z, 0.5 * (c + d) * y, 0.5 * c * x};
          std::copy(w, w + 6, want);
          std::copy(we, we + 6, want_e);
        }
        std::istringstream row(dat.lines[at + p]), row_e(dat.lines[at_e + p]);
        double id, point, s[6], id_e, point_e, e[6];
        row >> id >> point >> s[0] >> s[1] >> s[2] >> s[3] >> s[4] >> s[5];
        row_e >> id_e >> point_e >> e[0] >> e[1] >> e[2] >> e[3] >> e[4] >> e[5];
        EXPECT_EQ(id, 7.0) << k.type;
        EXPECT_EQ(point, static_cast<double>(p + 1)) << k.type;
        EXPECT_EQ(point_e, static_cast<double>(p + 1)) << k.type;
        for (int j = 0; j < 6; ++j) {
          EXPECT_NEAR(s[j], want[j], 1e-5 * G * (c + d)) << k.type << " point " << p + 1 << " S component " << j;
          if (!(planar && j == 2)) {
            EXPECT_NEAR(e[j], want_e[j], 1e-5 * (c + d)) << k.type << " point " << p + 1 << " E component " << j;
          }
        }
      }
      // No more rows than points.
      const std::size_t after = at + k.points.size();
      EXPECT_TRUE(after >= dat.lines.size() || dat.lines[after].find_first_not_of(' ') == std::string::npos ||
                  dat.lines[after].find(" 7 ") == std::string::npos)
          << k.type << ": " << dat.lines[after];
    }
  }
}

TEST(PrintOutput, StaticStepPrintsEveryConvergedIncrement) {
  const std::string dir = scratch_dir("print_static");
  std::string deck = kCube;
  const std::string plastic = "*PLASTIC\n2., 0\n12., 1\n";
  deck.replace(deck.find(plastic), plastic.size(), "");  // static steps refuse *PLASTIC
  std::ofstream(dir + "/s.inp") << deck << R"(*STEP
*STATIC, DIRECT
0.25, 1.
*BOUNDARY
BOTTOM, 1, 3
TOPN, 3, 3, 0.01
*NODE PRINT, NSET=BOTTOM, TOTALS=YES
RF
*END STEP
)";
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/s.inp", dir + "/out", "", &out), 0) << out;
  const Dat d = read_dat(dir + "/out/s.dat");
  EXPECT_EQ(d.increments, (std::vector<long long>{1, 2, 3, 4}));
}

// The .dat's "forces" table means what the peer's does: each node's internal force (its
// elements' forces on it), so a support shows its reaction, a loaded free node its load and
// the nodes of an *EQUATION the force the equation carries; field output's RF stays Abaqus's
// reaction (zero off the supports). Two unit C3D8 cubes (nu = 0) stacked along z, joined by
// *EQUATION at the interface, pulled by 1 on top: a uniform unit stress, a quarter per face node.
TEST(PrintOutput, StaticForcesTableIsEachNodesInternalForceAsThePeersIs) {
  const std::string dir = scratch_dir("print_internal_forces");
  std::ostringstream deck;
  deck << "*NODE\n";
  const double xy[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  for (int layer = 0; layer < 2; ++layer)  // cube A: 1-8 (z 0..1), cube B: 11-18 (z 1..2)
    for (int k = 0; k < 8; ++k)
      deck << 10 * layer + k + 1 << ", " << xy[k % 4][0] << ", " << xy[k % 4][1] << ", " << layer + k / 4 << "\n";
  deck << "*ELEMENT, TYPE=C3D8, ELSET=E\n1, 1, 2, 3, 4, 5, 6, 7, 8\n2, 11, 12, 13, 14, 15, 16, 17, 18\n"
       << "*NSET, NSET=BASE\n1, 2, 3, 4\n*NSET, NSET=TOP\n15, 16, 17, 18\n"
       << "*NSET, NSET=ALL\n1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14, 15, 16, 17, 18\n"
       << "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.\n*SOLID SECTION, ELSET=E, MATERIAL=M\n*BOUNDARY\nBASE, 1, 3\n"
       << "*EQUATION\n";
  for (int k = 0; k < 4; ++k)
    for (int d = 1; d <= 3; ++d) deck << "2\n" << 11 + k << ", " << d << ", 1., " << 5 + k << ", " << d << ", -1.\n";
  deck << "*STEP\n*STATIC\n*CLOAD\nTOP, 3, 0.25\n*NODE PRINT, NSET=ALL\nRF\n*OUTPUT, FIELD\n*NODE OUTPUT\nRF\n*END STEP\n";
  std::ofstream(dir + "/f.inp") << deck.str();
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/f.inp", dir + "/out", "", &out), 0) << out;
  std::map<long long, double> fz;
  for (const auto& [id, f] : dat_vector_rows(read_file(dir + "/out/f.dat"), "forces (fx,fy,fz) for set ALL")) {
    fz[id] = f[2];
    EXPECT_NEAR(f[0], 0.0, 1e-12) << id;
    EXPECT_NEAR(f[1], 0.0, 1e-12) << id;
  }
  ASSERT_EQ(fz.size(), 16u);
  for (long long id : {1, 2, 3, 4}) EXPECT_NEAR(fz[id], -0.25, 1e-9) << id;    // the supports' reactions
  for (long long id : {5, 6, 7, 8}) EXPECT_NEAR(fz[id], 0.25, 1e-9) << id;     // cube A's pull on the equations
  for (long long id : {11, 12, 13, 14}) EXPECT_NEAR(fz[id], -0.25, 1e-9) << id;  // cube B's
  for (long long id : {15, 16, 17, 18}) EXPECT_NEAR(fz[id], 0.25, 1e-9) << id;   // the loads
  // The .vtu's RF: reactions at the supports only.
  std::string vtu;  // the step's last frame
  for (const auto& e : std::filesystem::directory_iterator(dir + "/out"))
    if (e.path().extension() == ".vtu" && e.path().string() > vtu) vtu = e.path().string();
  const std::vector<double> rf = read_vtu_array(vtu, "RF");
  ASSERT_EQ(rf.size(), 48u);
  double base = 0, elsewhere = 0;
  for (std::size_t n = 0; n < 16; ++n) (n < 4 ? base : elsewhere) += std::abs(rf[3 * n + 2]);
  EXPECT_NEAR(base, 1.0, 1e-9);
  EXPECT_NEAR(elsewhere, 0.0, 1e-12);
  EXPECT_TRUE(read_vtu_array(vtu, "NodalForce").empty());
}

// Field frames hold the variables the step's field requests name (ids and energy densities
// always): here U only, then U with S and PEEQ.
TEST(FieldOutput, FramesHoldTheRequestedVariablesOnly) {
  for (const bool stresses : {false, true}) {
    const std::string dir = scratch_dir(stresses ? "field_vars_s" : "field_vars_u");
    std::ofstream(dir + "/f.inp") << kCube << "*STEP\n*DYNAMIC, EXPLICIT\n, 0.2\n*BOUNDARY\nBOTTOM, 1, 3\n"
                                  << "*BOUNDARY, TYPE=VELOCITY\nTOPN, 3, 3, 0.05\n*OUTPUT, FIELD, NUMBER INTERVAL=2\n"
                                  << "*NODE OUTPUT\nU\n" << (stresses ? "*ELEMENT OUTPUT\nS, PEEQ\n" : "") << "*END STEP\n";
    std::string out;
    ASSERT_EQ(run_halfstep(dir + "/f.inp", dir + "/out", "", &out), 0) << out;
    const std::string vtu = dir + "/out/f_000002.vtu";
    EXPECT_EQ(read_vtu_array(vtu, "U").size(), 24u);
    EXPECT_EQ(read_vtu_array(vtu, "NodeId").size(), 8u);
    EXPECT_TRUE(read_vtu_array(vtu, "V").empty());
    EXPECT_TRUE(read_vtu_array(vtu, "RF").empty());
    EXPECT_TRUE(read_vtu_array(vtu, "E").empty());
    EXPECT_EQ(read_vtu_array(vtu, "S").size(), stresses ? 6u : 0u);
    EXPECT_EQ(read_vtu_array(vtu, "Mises").size(), stresses ? 1u : 0u);
    EXPECT_EQ(read_vtu_array(vtu, "PEEQ").size(), stresses ? 1u : 0u);
    EXPECT_EQ(read_vtu_array(vtu, "StrainEnergyDensity").size(), 1u);
  }
}

// NSET= and ELSET= of field requests shrink the frames to the named part (issue 16): an
// element set keeps its cells, a node set the cells it covers and, as vertices, its other
// nodes; the values are those of the whole-model frame at the same points and cells.
TEST(FieldOutput, SetsOfFieldRequestsShrinkTheFrames) {
  const char* bar = R"(*NODE
1, 0., 0., 0.
2, 1., 0., 0.
3, 1., 1., 0.
4, 0., 1., 0.
5, 0., 0., 1.
6, 1., 0., 1.
7, 1., 1., 1.
8, 0., 1., 1.
9, 2., 0., 0.
10, 2., 1., 0.
11, 2., 0., 1.
12, 2., 1., 1.
*ELEMENT, TYPE=C3D8R, ELSET=BAR
1, 1, 2, 3, 4, 5, 6, 7, 8
2, 2, 9, 10, 3, 6, 11, 12, 7
*ELSET, ELSET=SECOND
2
*NSET, NSET=LEFT
1, 4, 5, 8
*NSET, NSET=FIRSTN
1, 2, 3, 4, 5, 6, 7, 8
*NSET, NSET=TIP
11, 12
*MATERIAL, NAME=M
*ELASTIC
1000., 0.3
*DENSITY
1.
*SOLID SECTION, ELSET=BAR, MATERIAL=M
*STEP
*DYNAMIC, EXPLICIT
, 0.1
*BOUNDARY
LEFT, 1, 3
*BOUNDARY, TYPE=VELOCITY
TIP, 1, 1, 0.2
*OUTPUT, FIELD, NUMBER INTERVAL=1
)";
  const auto cells = [](const std::string& vtu) {
    const std::string c = read_file(vtu);
    const std::size_t at = c.find("NumberOfCells=\"");
    return at == std::string::npos ? -1 : std::stoi(c.substr(at + 15));
  };
  const std::map<std::string, std::string> requests = {
      {"whole", "*NODE OUTPUT\nU\n*ELEMENT OUTPUT\nS\n"},
      {"elset", "*ELEMENT OUTPUT, ELSET=SECOND\nS\n"},
      {"nset", "*NODE OUTPUT, NSET=FIRSTN\nU\n*NODE OUTPUT, NSET=TIP\nU\n"}};
  std::map<std::string, std::string> vtu;
  for (const auto& [name, request] : requests) {
    const std::string dir = scratch_dir("field_sets_" + name);
    std::ofstream(dir + "/f.inp") << bar << request << "*END STEP\n";
    std::string out;
    ASSERT_EQ(run_halfstep(dir + "/f.inp", dir + "/out", "", &out), 0) << out;
    vtu[name] = dir + "/out/f_000001.vtu";
  }
  EXPECT_EQ(cells(vtu["whole"]), 2);
  // Element set: the second element and its eight nodes.
  EXPECT_EQ(cells(vtu["elset"]), 1);
  EXPECT_EQ(read_vtu_array(vtu["elset"], "ElementId"), std::vector<double>{2});
  EXPECT_EQ(read_vtu_array(vtu["elset"], "NodeId"), (std::vector<double>{2, 3, 6, 7, 9, 10, 11, 12}));
  const std::vector<double> s_all = read_vtu_array(vtu["whole"], "S");
  ASSERT_EQ(s_all.size(), 12u);
  EXPECT_EQ(read_vtu_array(vtu["elset"], "S"), std::vector<double>(s_all.begin() + 6, s_all.end()));
  EXPECT_NE(s_all[6], 0.0);  // the bar is loaded: the comparison compares something
  // Node sets: the first element (all its nodes are in FIRSTN) and the two tip nodes as vertices.
  EXPECT_EQ(cells(vtu["nset"]), 3);
  EXPECT_EQ(read_vtu_array(vtu["nset"], "NodeId"), (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 11, 12}));
  const std::vector<double> ids = read_vtu_array(vtu["nset"], "ElementId");
  ASSERT_EQ(ids.size(), 3u);
  EXPECT_EQ(ids[0], 1);
  EXPECT_TRUE(std::isnan(ids[1]) && std::isnan(ids[2]));
  const std::vector<double> u_all = read_vtu_array(vtu["whole"], "U"), u = read_vtu_array(vtu["nset"], "U");
  ASSERT_EQ(u_all.size(), 36u);
  ASSERT_EQ(u.size(), 30u);
  EXPECT_EQ(std::vector<double>(u.begin(), u.begin() + 24), std::vector<double>(u_all.begin(), u_all.begin() + 24));
  EXPECT_EQ(std::vector<double>(u.begin() + 24, u.end()), std::vector<double>(u_all.begin() + 30, u_all.end()));
  EXPECT_GT(u[24], 0.0);
}

// A set name becomes a file name inside OUTDIR/history, whatever it holds (issue 20: "../../X"
// used to write outside the output folder).
TEST(HistoryOutput, SetNamesCannotLeaveTheOutputFolder) {
  const std::string dir = scratch_dir("hostile_names");
  std::filesystem::create_directories(dir + "/a/b");
  std::string deck = kCube;
  deck += "*NSET, NSET=\"../../ESCAPE\"\n5\n*STEP\n*DYNAMIC, EXPLICIT\n, 0.1\n*BOUNDARY\nBOTTOM, 1, 3\n"
          "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=\"../../ESCAPE\"\nU\n*END STEP\n";
  std::ofstream(dir + "/h.inp") << deck;
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/h.inp", dir + "/a/b/out", "", &out), 0) << out;
  EXPECT_TRUE(std::filesystem::exists(dir + "/a/b/out/history/_.._.._ESCAPE.csv"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/a/ESCAPE.csv"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/a/b/ESCAPE.csv"));
}

}  // namespace
}  // namespace halfstep::test
