// A two-instance assembly with a translated and rotated instance runs exactly like the same
// model written flat (issue 16): same nodes (B's ids offset to 101.., its coordinates
// turned 90 degrees about z), same loads, same histories.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <fstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

/// Nodes of the two-cube bar: id, x, y, z (part coordinates).
const double kBar[12][4] = {{1, 0, 0, 0}, {2, 1, 0, 0}, {3, 2, 0, 0}, {4, 0, 1, 0}, {5, 1, 1, 0}, {6, 2, 1, 0},
                            {7, 0, 0, 1}, {8, 1, 0, 1}, {9, 2, 0, 1}, {10, 0, 1, 1}, {11, 1, 1, 1}, {12, 2, 1, 1}};

std::string material_and_step(const std::string& a_x0, const std::string& b_x0, const std::string& b_tip,
                              const std::string& b_xl) {
  return "*Material, name=Steel\n*Elastic\n1000., 0.3\n*Density\n1.\n*Step\n*Dynamic, Explicit\n, 2.\n"
         "*Boundary\n" + a_x0 + ", 1, 3\n" + b_x0 + ", 1, 3\n*Cload\n" + b_tip + ", 2, 1.\n" + b_tip +
         ", 1, 0.5\n*Output, history, time interval=0.05\n*Node Output, nset=" + b_xl + "\nU\n*End Step\n";
}

TEST(AssemblyRun, RotatedInstanceMatchesTheFlatDeck) {
  const std::string dir = scratch_dir("assembly_run");
  std::string part = "*Part, name=Bar\n*Node\n";
  for (const auto& n : kBar) part += std::to_string(int(n[0])) + ", " + std::to_string(n[1]) + ", " + std::to_string(n[2]) + ", " + std::to_string(n[3]) + "\n";
  part += "*Element, type=C3D8R, elset=All\n1, 1, 2, 5, 4, 7, 8, 11, 10\n2, 2, 3, 6, 5, 8, 9, 12, 11\n"
          "*Nset, nset=X0\n1, 4, 7, 10\n*Nset, nset=XL, generate\n3, 12, 3\n"
          "*Solid Section, elset=All, material=Steel\n*End Part\n";
  const std::string assembly = part +
                               "*Assembly, name=Assembly\n*Instance, name=A, part=Bar\n*End Instance\n"
                               "*Instance, name=B, part=Bar\n0., 5., 0.\n0., 5., 0., 0., 5., 1., 90.\n*End Instance\n"
                               "*End Assembly\n" +
                               material_and_step("A.X0", "B.X0", "B.12", "B.XL");
  // Flat: A as written; B's ids + 100 and elements + 10, at (-y, x + 5, z).
  std::string flat = "*Node\n";
  for (const auto& n : kBar) flat += std::to_string(int(n[0])) + ", " + std::to_string(n[1]) + ", " + std::to_string(n[2]) + ", " + std::to_string(n[3]) + "\n";
  for (const auto& n : kBar)
    flat += std::to_string(int(n[0]) + 100) + ", " + std::to_string(-n[2]) + ", " + std::to_string(n[1] + 5) + ", " + std::to_string(n[3]) + "\n";
  flat += "*Element, type=C3D8R, elset=All\n1, 1, 2, 5, 4, 7, 8, 11, 10\n2, 2, 3, 6, 5, 8, 9, 12, 11\n"
          "11, 101, 102, 105, 104, 107, 108, 111, 110\n12, 102, 103, 106, 105, 108, 109, 112, 111\n"
          "*Nset, nset=AX0\n1, 4, 7, 10\n*Nset, nset=BX0\n101, 104, 107, 110\n*Nset, nset=BXL\n103, 106, 109, 112\n"
          "*Solid Section, elset=All, material=Steel\n" +
          material_and_step("AX0", "BX0", "112", "BXL");
  std::ofstream(dir + "/assembly.inp") << assembly;
  std::ofstream(dir + "/flat.inp") << flat;
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/assembly.inp", dir + "/a", "--threads 1", &out), 0) << out;
  ASSERT_EQ(run_halfstep(dir + "/flat.inp", dir + "/f", "--threads 1", &out), 0) << out;
  const Csv a = read_csv(dir + "/a/history/B.XL.csv"), f = read_csv(dir + "/f/history/BXL.csv");
  ASSERT_EQ(a.rows.size(), f.rows.size());
  ASSERT_GT(a.rows.size(), 100u);
  double umax = 0;
  for (const auto& r : f.rows) umax = std::max({umax, std::fabs(r[2]), std::fabs(r[3]), std::fabs(r[4])});
  ASSERT_GT(umax, 1e-5);
  for (std::size_t i = 0; i < a.rows.size(); ++i) {
    EXPECT_EQ(a.rows[i][1], f.rows[i][1]);  // node ids
    for (std::size_t c = 2; c < 5; ++c) EXPECT_NEAR(a.rows[i][c], f.rows[i][c], 1e-10 * umax) << "row " << i << " column " << c;
  }
}

// What Abaqus/CAE writes (tests/io/decks/rules/cae_reference_point.inp): two instances of a
// part, the second translated and turned, a reference point at assembly level (node 1, like
// the first instance's first node) with a point mass, coupled (*KINEMATIC) to the second
// instance's end face and loaded by a *CLOAD on its set; against the same model written flat.
TEST(AssemblyRun, ReferencePointCouplingMatchesTheFlatDeck) {
  const std::string dir = scratch_dir("assembly_reference_point");
  const std::string decks = HALFSTEP_SOURCE_DIR "/tests/io/decks/rules/";
  std::string out;
  ASSERT_EQ(run_halfstep(decks + "cae_reference_point.inp", dir + "/a", "--threads 1", &out), 0) << out;
  ASSERT_EQ(run_halfstep(decks + "cae_reference_point_flat.inp", dir + "/f", "--threads 1", &out), 0) << out;
  for (const auto& [a_name, f_name] : {std::pair<std::string, std::string>{"RP-1", "RP"}, {"BAR-2.XL", "BXL"}}) {
    const Csv a = read_csv(dir + "/a/history/" + a_name + ".csv"), f = read_csv(dir + "/f/history/" + f_name + ".csv");
    ASSERT_EQ(a.rows.size(), f.rows.size()) << a_name;
    ASSERT_GT(a.rows.size(), 30u) << a_name;
    double umax = 0;
    for (const auto& r : f.rows) umax = std::max({umax, std::fabs(r[2]), std::fabs(r[3]), std::fabs(r[4])});
    ASSERT_GT(umax, 1e-3) << a_name;
    double worst = 0;
    for (std::size_t i = 0; i < a.rows.size(); ++i) {
      EXPECT_EQ(a.rows[i][1], f.rows[i][1]);  // node ids: the assembly's reference point is 1001
      for (std::size_t c = 2; c < 5; ++c) worst = std::max(worst, std::fabs(a.rows[i][c] - f.rows[i][c]));
    }
    std::printf("%s: largest |u_assembly - u_flat| %.3g of |u| %.3g\n", a_name.c_str(), worst, umax);
    EXPECT_LE(worst, 1e-12 * umax) << a_name;
  }
}

}  // namespace
}  // namespace halfstep::test
