// *BUCKLE steps against closed forms: a bar on a lateral spring under an end load (the dense
// path: lambda = k L / P), a clamped column of C3D20 bricks (Euler's cantilever load with
// Engesser's shear correction, Lanczos), the .dat's factor table and summary.json; models and
// lines it cannot take are refused with file, line and reason. (The peer's beamb and beam8b
// decks, checked by validation/peer_decks.py, agree to all printed digits.)
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "buckle_decks.hpp"

namespace halfstep::test {
namespace {

using namespace buckle;

TEST(Buckle, BarOnASpringBucklesAtKLOverP) {
  const double k = 2, P = 1.5, L = 10;
  const std::string dir = scratch_dir("buckle_bar");
  std::ofstream(dir + "/bar.inp") << bar_on_spring(k, P);
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const std::string dat = read_file(dir + "/out/bar.dat");
  const std::vector<double> printed = dat_factors(dat);
  const std::vector<double> lambda = summary_factors(read_file(dir + "/out/summary.json"));
  ASSERT_EQ(lambda.size(), 1u) << dat;
  ASSERT_EQ(printed.size(), 1u) << dat;
  std::printf("bar on a spring: lambda %.15g (k L / P = %.15g)\n", lambda[0], k * L / P);
  EXPECT_NEAR(lambda[0], k * L / P, 1e-9 * k * L / P);
  EXPECT_NEAR(printed[0], lambda[0], 5e-7 * lambda[0]) << "seven digits in the .dat";
  // The mode: the head moves sideways, its largest component 1.
  const std::size_t t = dat.find("displacements", dat.find("B U C K L I N G"));
  ASSERT_NE(t, std::string::npos) << dat;
  std::istringstream in(dat.substr(dat.find('\n', t)));
  double u[2][4] = {};
  for (auto& r : u) in >> r[0] >> r[1] >> r[2] >> r[3];
  EXPECT_EQ(u[1][0], 2);
  EXPECT_NEAR(u[1][1], 1.0, 1e-6) << dat;
  EXPECT_NEAR(u[1][3], 0.0, 1e-6) << dat;
  // The load scales the factor and its sign: a pull never buckles the bar sideways, so the
  // lowest factor is the same push, reversed.
  std::ofstream(dir + "/pull.inp") << bar_on_spring(k, -P);
  ASSERT_EQ(run_halfstep(dir + "/pull.inp", dir + "/outp", "--backend cpu", &log), 0) << log;
  const std::vector<double> pulled = summary_factors(read_file(dir + "/outp/summary.json"));
  ASSERT_EQ(pulled.size(), 1u);
  EXPECT_NEAR(pulled[0], -k * L / P, 1e-9 * k * L / P);
  const std::string summary = read_file(dir + "/out/summary.json");
  EXPECT_NE(summary.find("\"procedure\": \"buckle\""), std::string::npos) << summary;
}

// Euler's clamped-free column, P = pi^2 E I / (4 L^2), softened by shear (Engesser:
// P / (1 + P / (kappa G A)), kappa = 5/6); its two bending planes buckle at the same load.
TEST(Buckle, ClampedColumnBucklesAtEulersLoad) {
  const double E = 210000, nu = 0.3, b = 1, L = 20, p = 2;  // p: the head's pressure (N / mm^2)
  const std::string dir = scratch_dir("buckle_column");
  std::ostringstream mat;
  mat << "*MATERIAL, NAME=M\n*ELASTIC\n" << E << ", " << nu << "\n";
  std::ofstream(dir + "/col.inp") << column_deck(20, b, L, p, "4", mat.str());
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/col.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const std::vector<double> lambda = summary_factors(read_file(dir + "/out/summary.json"));
  ASSERT_EQ(lambda.size(), 4u) << log;
  const double I = b * b * b * b / 12, A = b * b, G = E / (2 * (1 + nu));
  const double euler = kPi * kPi * E * I / (4 * L * L);
  const double engesser = euler / (1 + euler / (5.0 / 6.0 * G * A));
  const double expect = engesser / (p * A);
  std::printf("column: lambda %.9g %.9g %.9g %.9g; Euler %.9g, with shear %.9g (%.4f %%)\n", lambda[0], lambda[1],
              lambda[2], lambda[3], euler / (p * A), expect, 100 * (lambda[0] / expect - 1));
  EXPECT_NEAR(lambda[0], expect, 0.01 * expect);  // measured +0.62 % (20 C3D20 across the length)
  EXPECT_NEAR(lambda[1], lambda[0], 1e-6 * lambda[0]) << "the section is square";
  // The second pair: the cantilever's second mode, (3 pi / 2)^2 / (pi / 2)^2 = 9 times the first
  // (less with shear); the column's axial and torsional modes lie far above.
  EXPECT_NEAR(lambda[2], lambda[3], 1e-6 * lambda[2]);
  EXPECT_GT(lambda[2] / lambda[0], 8.0);
  EXPECT_LT(lambda[2] / lambda[0], 9.0);
  // Abaqus's largest eigenvalue of interest keeps the first pair only: the data line's second
  // field (SUBSPACE, the default) or third (EIGENSOLVER=LANCZOS).
  for (const auto& [buckle, line] : {std::pair<std::string, std::string>{"*BUCKLE", "4, 100."},
                                     std::pair<std::string, std::string>{"*BUCKLE, EIGENSOLVER=LANCZOS", "4, , 100."}}) {
    std::ofstream(dir + "/kept.inp") << column_deck(20, b, L, p, line, mat.str(), "C3D20", buckle);
    ASSERT_EQ(run_halfstep(dir + "/kept.inp", dir + "/outk", "--backend cpu", &log), 0) << log;
    const std::vector<double> kept = summary_factors(read_file(dir + "/outk/summary.json"));
    ASSERT_EQ(kept.size(), 2u) << buckle;
    EXPECT_NEAR(kept[1], lambda[1], 1e-9 * lambda[1]);
  }
}

// The same clamped column meshed with tetrahedra (2 x 2 x 20 cubes of six each): C3D10 within
// 1 % of Euler-Engesser (measured +0.53 %, its two bending planes 0.04 % apart on this
// unsymmetric mesh); the constant-strain C3D4 locks in bending (measured 2.5 times Euler's
// load on this mesh), so its factor lies above C3D10's.
TEST(Buckle, TetrahedralColumnsBuckleAsTheBricksDo) {
  const double E = 210000, nu = 0.3, b = 1, L = 20, p = 2;
  const std::string dir = scratch_dir("buckle_tet_column");
  std::ostringstream mat;
  mat << "*MATERIAL, NAME=M\n*ELASTIC\n" << E << ", " << nu << "\n";
  const double I = b * b * b * b / 12, A = b * b, G = E / (2 * (1 + nu));
  const double euler = kPi * kPi * E * I / (4 * L * L);
  const double expect = euler / (1 + euler / (5.0 / 6.0 * G * A)) / (p * A);
  std::vector<double> lambda[2];
  for (int quadratic = 1; quadratic >= 0; --quadratic) {
    const std::string name = quadratic ? "c3d10" : "c3d4";
    std::ofstream(dir + "/" + name + ".inp") << tet_column_deck(2, 20, b, L, p, "2", mat.str(), quadratic != 0);
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/" + name + ".inp", dir + "/out_" + name, "--backend cpu", &log), 0) << log;
    lambda[quadratic] = summary_factors(read_file(dir + "/out_" + name + "/summary.json"));
    ASSERT_EQ(lambda[quadratic].size(), 2u) << log;
    std::printf("%s column: lambda %.9g %.9g (Euler-Engesser %.9g, %.3f %%)\n", name.c_str(), lambda[quadratic][0],
                lambda[quadratic][1], expect, 100 * (lambda[quadratic][0] / expect - 1));
  }
  EXPECT_NEAR(lambda[1][0], expect, 0.01 * expect);
  EXPECT_NEAR(lambda[1][1], lambda[1][0], 0.01 * lambda[1][0]);
  EXPECT_GT(lambda[0][0], lambda[1][0]);
}

// What a buckle step refuses: a data line without the number, a number out of range, a model
// with shells, a step without a load; each names the deck's file and line.
TEST(Buckle, RefusesWhatItCannotTake) {
  const std::string dir = scratch_dir("buckle_refusals");
  std::string log;
  std::ofstream(dir + "/zero.inp") << bar_on_spring(2, 1, "0");
  EXPECT_EQ(run_halfstep(dir + "/zero.inp", dir + "/o1", "--backend cpu", &log), 2);
  EXPECT_NE(log.find("zero.inp:21"), std::string::npos) << log;
  EXPECT_NE(log.find("number of buckling factors must be 1 to 1000"), std::string::npos) << log;
  std::ofstream(dir + "/neg.inp") << bar_on_spring(2, 1, "3, -1.");
  EXPECT_EQ(run_halfstep(dir + "/neg.inp", dir + "/o2", "--backend cpu", &log), 2);
  EXPECT_NE(log.find("largest eigenvalue of interest must be a positive number"), std::string::npos) << log;
  std::string unloaded = bar_on_spring(2, 1);
  unloaded.replace(unloaded.find("*CLOAD"), unloaded.find("*NODE PRINT") - unloaded.find("*CLOAD"), "");
  std::ofstream(dir + "/unloaded.inp") << unloaded;
  EXPECT_EQ(run_halfstep(dir + "/unloaded.inp", dir + "/o3", "--backend cpu", &log), 2);
  EXPECT_NE(log.find("applies no load"), std::string::npos) << log;
  std::ofstream(dir + "/shell.inp")
      << "*NODE\n1, 0., 0., 0.\n2, 1., 0., 0.\n3, 1., 1., 0.\n4, 0., 1., 0.\n*ELEMENT, TYPE=S4R, ELSET=P\n1, 1, 2, 3, 4\n"
         "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*SHELL SECTION, ELSET=P, MATERIAL=M\n0.1\n*BOUNDARY\n1, 1, 6\n"
         "4, 1, 6\n*STEP\n*BUCKLE\n2\n*CLOAD\n2, 1, -1.\n*END STEP\n";
  EXPECT_EQ(run_halfstep(dir + "/shell.inp", dir + "/o4", "--backend cpu", &log), 2);
  EXPECT_NE(log.find("shell.inp:17"), std::string::npos) << log;
  EXPECT_NE(log.find("*BUCKLE in a model with shells or beams"), std::string::npos) << log;
  std::ofstream(dir + "/wedge.inp")
      << "*NODE\n1, 0., 0., 0.\n2, 1., 0., 0.\n3, 0., 1., 0.\n4, 0., 0., 1.\n5, 1., 0., 1.\n6, 0., 1., 1.\n"
         "*ELEMENT, TYPE=C3D6, ELSET=W\n1, 1, 2, 3, 4, 5, 6\n*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n"
         "*SOLID SECTION, ELSET=W, MATERIAL=M\n*BOUNDARY\n1, 1, 3\n2, 1, 3\n3, 1, 3\n*STEP\n*BUCKLE\n2\n*CLOAD\n"
         "4, 3, -1.\n*END STEP\n";
  EXPECT_EQ(run_halfstep(dir + "/wedge.inp", dir + "/o5", "--backend cpu", &log), 2);
  EXPECT_NE(log.find("wedge.inp:19"), std::string::npos) << log;
  EXPECT_NE(log.find("*BUCKLE in a model with C3D6 elements: not supported yet"), std::string::npos) << log;
}

}  // namespace
}  // namespace halfstep::test
