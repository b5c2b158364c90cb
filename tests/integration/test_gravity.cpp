// Gravity (*DLOAD type GRAV, issue 45) against closed forms: a free block falls g t^2 / 2 in an
// explicit step (MASS elements in the whole model's load, the deck's direction normalized); a
// shell cantilever under its own weight in a static step bends q L^4 / (8 E I) plus the shear
// term; the loads of every family sum to the model's weight, a later GRAV replaces an earlier
// one, OP=NEW drops it; a body force per unit volume loads a column as the closed form says;
// the drop-test example meets its floor at the free-fall time.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "discretization/step_loads.hpp"
#include "discretization/structure_system.hpp"
#include "io/inp_reader.hpp"
#include "everyday_decks.hpp"
#include "run_util.hpp"

namespace halfstep::test {
namespace {

using everyday::falling_block;
using everyday::shell_cantilever;

TEST(Gravity, FreeBlockFallsHalfGTSquared) {
  const double period = 0.2;
  const std::string dir = scratch_dir("gravity_fall");
  std::ofstream(dir + "/fall.inp") << falling_block(period);
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/fall.inp", dir + "/out", "--backend cpu", &out), 0) << out;
  const Csv h = read_csv(dir + "/out/history/ALL.csv");
  int rows = 0;
  for (const auto& r : h.rows) {
    const double t = r[0];
    // The central difference integrates a constant acceleration exactly from rest: every node,
    // the one with the MASS element too, at -g t^2 / 2 to round-off, and nothing sideways (the
    // round-off of the falling positions leaves the elements strains of 1e-16).
    const double expect = -0.5 * 9.81 * t * t;
    EXPECT_NEAR(r[h.col("U3")], expect, 1e-12 + 1e-10 * std::abs(expect)) << "node " << r[h.col("node")] << " at " << t;
    EXPECT_NEAR(r[h.col("U1")], 0.0, 1e-14);
    EXPECT_NEAR(r[h.col("U2")], 0.0, 1e-14);
    // A: the acceleration at t^n, g along -z at every node from the first row on (measured
    // to 3.8e-12: a difference of two half-step velocities over the increment).
    EXPECT_NEAR(r[h.col("A3")], -9.81, 1e-10) << "node " << r[h.col("node")] << " at " << t;
    EXPECT_NEAR(r[h.col("A1")], 0.0, 1e-10);
    EXPECT_NEAR(r[h.col("A2")], 0.0, 1e-10);
    ++rows;
  }
  EXPECT_GE(rows, 12 * 10);
}

// q L^4 / (8 E I) + q L^2 / (2 kappa G A): q = rho g t b = 0.1, E I = 1e6 / 12000, G = E / 2,
// kappa = 5/6: 1.5 + 1.2e-4 = 1.500120. Measured -1.5001200 at 40 x 2 (the tip's three nodes
// alike): the lumped corner loads of bilinear shells are the consistent ones.
TEST(Gravity, ShellCantileverUnderItsOwnWeight) {
  const std::string dir = scratch_dir("gravity_cantilever");
  std::ofstream(dir + "/c.inp") << shell_cantilever(40);
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/c.inp", dir + "/out", "--backend cpu", &out), 0) << out;
  const double expect = everyday::shell_cantilever_tip();
  const double w = -last_time_average(read_csv(dir + "/out/history/TIP.csv")).at("U3");
  EXPECT_NEAR(w, expect, 1e-5 * expect);
}

/// Every family's share of whole-model gravity: the loads of a step sum to the model's weight
/// (MASS elements included); a later GRAV on the same elements replaces the earlier one's
/// three components; body forces BX, BY, BZ add their force per unit volume times the volume;
/// OP=NEW drops them all.
TEST(Gravity, LoadsSumToTheWeightAndCarryLikeLoads) {
  const std::string deck =
      "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n5, 0, 0, 1\n6, 1, 0, 1\n7, 1, 1, 1\n8, 0, 1, 1\n"
      "9, 2, 0, 0\n10, 2, 1, 0\n11, 3, 0, 0\n12, 4, 0, 0\n13, 4, 1, 0\n"
      "*ELEMENT, TYPE=C3D8R, ELSET=SOLID\n1, 1, 2, 3, 4, 5, 6, 7, 8\n"
      "*ELEMENT, TYPE=S4R, ELSET=SHELL\n2, 2, 9, 10, 3\n"
      "*ELEMENT, TYPE=B31, ELSET=BEAM\n3, 9, 11\n"
      "*ELEMENT, TYPE=S3, ELSET=TRI\n4, 11, 12, 13\n"
      "*ELEMENT, TYPE=MASS, ELSET=LUMP\n5, 13\n*MASS, ELSET=LUMP\n0.25\n"
      "*ELSET, ELSET=SOME\nSHELL, BEAM\n"
      "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*DENSITY\n2.\n"
      "*SOLID SECTION, ELSET=SOLID, MATERIAL=M\n*SHELL SECTION, ELSET=SHELL, MATERIAL=M\n0.1\n"
      "*SHELL SECTION, ELSET=TRI, MATERIAL=M, FORMULATION=FPM\n0.2\n"
      "*BEAM SECTION, ELSET=BEAM, MATERIAL=M, SECTION=RECT\n0.1, 0.2\n0., 0., 1.\n"
      "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-3\n*DLOAD\n, GRAV, 3., 0., 0., -1.\n*END STEP\n"
      "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-3\n*DLOAD\nSOME, GRAV, 1., 1., 0., 0.\nSOLID, BY, 4.\nTRI, BX, 2.\n*END STEP\n"
      "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-3\n*DLOAD, OP=NEW\n*END STEP\n";
  const Model model = read_inp_string(deck, "gravity.inp");
  const StructureSystem sys = build_structure_system(model);
  const std::vector<StepLoads> steps = build_step_loads(model, sys);
  ASSERT_EQ(steps.size(), 3u);
  // Weights: solid 2 x 1, shell 2 x 0.1 x 1, beam 2 x 0.02 x 1, triangle 2 x 0.2 x 0.5, and 0.25.
  const double solid = 2.0, shell = 0.2, beam = 0.04, tri = 0.2, lump = 0.25;
  const auto sums = [](const StepLoads& s) {
    std::array<double, 3> f{0, 0, 0};
    for (std::size_t i = 0; i < s.load_node.size(); ++i) f[static_cast<std::size_t>(s.load_dof[i])] += s.load_value[i];
    return f;
  };
  const std::array<double, 3> first = sums(steps[0]);
  EXPECT_NEAR(first[2], -3.0 * (solid + shell + beam + tri + lump), 1e-12);
  EXPECT_EQ(first[0], 0.0);
  EXPECT_EQ(first[1], 0.0);
  // The shell and the beam now pull along x with g = 1; the rest keeps the first step's load.
  // Body forces per unit volume: 4 along y on the solid (volume 1), 2 along x on the triangle
  // (volume 0.1).
  const std::array<double, 3> second = sums(steps[1]);
  EXPECT_NEAR(second[0], shell + beam + 2 * 0.1, 1e-12);
  EXPECT_NEAR(second[1], 4 * 1.0, 1e-12);
  EXPECT_NEAR(second[2], -3.0 * (solid + tri + lump), 1e-12);
  EXPECT_TRUE(steps[2].load_node.empty());
  // The shell's corners take its mass by their areas (a quarter each on a square).
  const int n10 = model.nodes.index.find(10)->second;
  double node10 = 0;
  for (std::size_t i = 0; i < steps[1].load_node.size(); ++i)
    if (steps[1].load_node[i] == n10 && steps[1].load_dof[i] == 0) node10 += steps[1].load_value[i];
  EXPECT_NEAR(node10, shell / 4, 1e-14);
}

/// A column 1 x 1 x 10 of C3D8 (E 1000, nu 0), held at z = 0 in z (and at one corner enough
/// to stop rigid motion), under BZ = -b in a linear static step: u(z) = -b (L z - z^2 / 2) / E,
/// which linear elements with lumped (here consistent) loads give exactly at their nodes.
TEST(Gravity, ColumnUnderABodyForce) {
  std::string d = "*HEADING\ncolumn under BZ\n*NODE\n";
  for (int k = 0; k <= 10; ++k)
    for (int c = 0; c < 4; ++c)
      d += std::to_string(1 + 4 * k + c) + ", " + std::to_string(c == 1 || c == 2 ? 1 : 0) + ", " +
           std::to_string(c >= 2 ? 1 : 0) + ", " + std::to_string(k) + "\n";
  d += "*ELEMENT, TYPE=C3D8, ELSET=COL\n";
  for (int k = 0; k < 10; ++k) {
    const auto n = [&](int kk, int c) { return std::to_string(1 + 4 * kk + c); };
    d += std::to_string(k + 1) + ", " + n(k, 0) + ", " + n(k, 1) + ", " + n(k, 2) + ", " + n(k, 3) + ", " + n(k + 1, 0) +
         ", " + n(k + 1, 1) + ", " + n(k + 1, 2) + ", " + n(k + 1, 3) + "\n";
  }
  d += "*NSET, NSET=BASE\n1, 2, 3, 4\n*NSET, NSET=TOP\n41, 42, 43, 44\n"
       "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.\n*SOLID SECTION, ELSET=COL, MATERIAL=M\n"
       "*BOUNDARY\nBASE, 3, 3\n1, 1, 2\n2, 2, 2\n*STEP\n*STATIC\n1., 1.\n*DLOAD\nCOL, BZ, -0.5\n"
       "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=TOP\nU\n*END STEP\n";
  const std::string dir = scratch_dir("body_force_column");
  std::ofstream(dir + "/col.inp") << d;
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/col.inp", dir + "/out", "--backend cpu", &out), 0) << out;
  const double expect = -0.5 * (10.0 * 10.0 - 50.0) / 1000.0;  // -b (L^2 - L^2 / 2) / E = -0.025
  const double w = last_time_average(read_csv(dir + "/out/history/TOP.csv")).at("U3");
  EXPECT_NEAR(w, expect, 1e-9 * std::abs(expect));
}

/// A 1 x 1 x 4 column of four C3D20 (E 1000, nu 0, rho 0.5) under GRAV 2 along -z: `step`
/// is its *STEP and procedure lines; `held` holds the base in z (and enough of it against
/// rigid motion).
std::string quadratic_column(const std::string& step, bool held) {
  const auto id = [](int i, int j, int k) { return 1 + i + 3 * j + 9 * k; };
  std::string d = "*NODE, NSET=ALL\n";
  for (int k = 0; k <= 8; ++k)
    for (int j = 0; j <= 2; ++j)
      for (int i = 0; i <= 2; ++i) {
        // Corner and edge nodes of the 20-node bricks: no face centres, no mid-height but on edges.
        if ((k % 2 == 0 && i == 1 && j == 1) || (k % 2 == 1 && (i == 1 || j == 1))) continue;
        d += std::to_string(id(i, j, k)) + ", " + std::to_string(0.5 * i) + ", " + std::to_string(0.5 * j) + ", " +
             std::to_string(0.5 * k) + "\n";
      }
  d += "*ELEMENT, TYPE=C3D20, ELSET=COL\n";
  for (int e = 0; e < 4; ++e) {
    const int k = 2 * e;
    const int c[20][3] = {{0, 0, k},     {2, 0, k},     {2, 2, k},     {0, 2, k},     {0, 0, k + 2},
                          {2, 0, k + 2}, {2, 2, k + 2}, {0, 2, k + 2}, {1, 0, k},     {2, 1, k},
                          {1, 2, k},     {0, 1, k},     {1, 0, k + 2}, {2, 1, k + 2}, {1, 2, k + 2},
                          {0, 1, k + 2}, {0, 0, k + 1}, {2, 0, k + 1}, {2, 2, k + 1}, {0, 2, k + 1}};
    d += std::to_string(e + 1);
    for (int a = 0; a < 20; ++a) d += (a == 15 ? ",\n" : ", ") + std::to_string(id(c[a][0], c[a][1], c[a][2]));
    d += "\n";
  }
  d += "*NSET, NSET=BASE\n1, 2, 3, 4, 6, 7, 8, 9\n"
       "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.\n*DENSITY\n0.5\n*SOLID SECTION, ELSET=COL, MATERIAL=M\n";
  if (held) d += "*BOUNDARY\nBASE, 3, 3\n1, 1, 2\n3, 2, 2\n";
  return d + step + "*DLOAD\nCOL, GRAV, 2., 0., 0., -1.\n*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=ALL\nU\n*END STEP\n";
}

/// Node id -> z of a deck written by quadratic_column.
std::map<int, double> node_heights(const std::string& deck) {
  std::map<int, double> z;
  std::istringstream in(deck.substr(0, deck.find("*ELEMENT")));
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    int n;
    double x, y, h;
    if (std::sscanf(line.c_str(), "%d, %lf, %lf, %lf", &n, &x, &y, &h) == 4) z[n] = h;
  }
  return z;
}

/// Writes a quadratic_column deck into scratch folder `name`, runs it on the CPU and reads its
/// history of every node into h (a fatal failure when the run fails).
void run_column(const std::string& name, const std::string& deck, Csv& h) {
  const std::string dir = scratch_dir(name);
  std::ofstream(dir + "/col.inp") << deck;
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/col.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  h = read_csv(dir + "/out/history/ALL.csv");
}

// Body loads of quadratic solids in the static procedures are the consistent ones, int rho g
// N_a dV (the row sums of their consistent mass; HRZ's lumped shares were 4.3 % off here).
// A column under its weight: u(z) = -rho g (L z - z^2 / 2) / E is quadratic in z, so C3D20
// reproduce it at every node, corners and midsides. And a free C3D20 column under gravity in
// an implicit *DYNAMIC step falls without straining: every node at -g t^2 / 2 (HHT is exact
// for a constant acceleration), as the consistent mass and load go together.
TEST(Gravity, QuadraticSolidsTakeTheConsistentBodyLoadInStaticProcedures) {
  {
    const std::string deck = quadratic_column("*STEP\n*STATIC\n", true);
    Csv h;
    ASSERT_NO_FATAL_FAILURE(run_column("gravity_quadratic_column", deck, h));
    const std::map<int, double> z = node_heights(deck);
    const double t_end = h.rows.back()[0], rho_g = 0.5 * 2.0, L = 4.0, E = 1000.0;
    double worst = 0;
    int nodes = 0;
    for (const auto& r : h.rows) {
      if (r[0] != t_end) continue;
      const double zz = z.at(static_cast<int>(r[static_cast<std::size_t>(h.col("node"))]));
      worst = std::max(worst, std::fabs(r[static_cast<std::size_t>(h.col("U3"))] + rho_g * (L * zz - zz * zz / 2) / E));
      ++nodes;
    }
    EXPECT_EQ(nodes, 56);
    std::printf("C3D20 column under its weight: largest nodal difference %.3g of %.3g\n", worst, rho_g * L * L / (2 * E));
    EXPECT_LT(worst, 1e-12);
  }
  {
    Csv h;
    ASSERT_NO_FATAL_FAILURE(
        run_column("gravity_quadratic_fall", quadratic_column("*STEP, INC=1000\n*DYNAMIC\n0.01, 0.1\n", false), h));
    double worst = 0;
    for (const auto& r : h.rows) {
      const double t = r[0];
      worst = std::max(worst, std::fabs(r[static_cast<std::size_t>(h.col("U3"))] + 2.0 * t * t / 2));
    }
    std::printf("C3D20 column falling in HHT: largest difference from -g t^2 / 2: %.3g\n", worst);
    EXPECT_LT(worst, 1e-12);
  }
}

/// The drop-test example (examples/generate_drop_deck.py at its defaults): the block falls
/// g t^2 / 2 until it meets the floor at t_c = sqrt(2 h / g) = 0.10096 s, when the floor's
/// reaction starts (measured: first nonzero at the history point 0.10105 s, and the fall
/// exact to 3e-12), and it leaves the floor again moving up.
TEST(Gravity, DropExampleMeetsTheFloorAtTheFreeFallTime) {
  const std::string dir = scratch_dir("drop_example");
  std::string out;
  ASSERT_EQ(run_command("python3 " HALFSTEP_SOURCE_DIR "/examples/generate_drop_deck.py -o " + dir + "/drop.inp", &out), 0)
      << out;
  ASSERT_EQ(run_halfstep(dir + "/drop.inp", dir + "/out", "--backend cpu", &out), 0) << out;
  const double g = 9.81, h = 0.05, tc = std::sqrt(2 * h / g), interval = 0.2 / 400;
  const Csv top = read_csv(dir + "/out/history/TOPMID.csv");
  double up = 0;
  for (const auto& r : top.rows) {
    const double t = r[0], fall = 0.5 * g * t * t;
    if (t < tc) {
      EXPECT_NEAR(r[top.col("U3")], -fall, 1e-10 * fall + 1e-15) << "at " << t;
    }
    up = std::max(up, r[top.col("V3")]);
  }
  EXPECT_GT(up, 0.3 * std::sqrt(2 * g * h));  // it bounces
  const Csv floor = read_csv(dir + "/out/history/FLOORREF.csv");
  double first = -1;
  for (const auto& r : floor.rows)
    if (r[floor.col("RF3")] != 0.0) {
      first = r[0];
      break;
    }
  EXPECT_GE(first, tc);
  EXPECT_LE(first, tc + interval);
}

}  // namespace
}  // namespace halfstep::test
