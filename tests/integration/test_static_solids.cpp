// Static steps on 3D solids through the binary: Cook's membrane, Neo-Hookean plane strain
// (nu = 0.4999), C3D8 16 x 16 x 1, solved by Newton in NLGEOM increments against the
// converged reference of Elguedj et al. (2008), U2 = 6.9083 at the top corner.
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <sstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

TEST(StaticSolids, CooksMembraneNeoHookeanC3D8) {
  const std::string dir = scratch_dir("static_cook16");
  const std::string deck = generate_solid_deck(dir, "cook16", "cook --n 16 --static 8");
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--backend cpu", &out), 0) << out;
  const auto top = last_time_average(read_csv(dir + "/out/history/TOP.csv"));
  // Measured 6.8145 (-1.36 %; 6 increments, no cut-backs): F-bar C3D8 still carries some
  // volumetric stiffness at 16 x 16 (8 x 8: 6.6186, -4.2 %); the explicit dynamic relaxation
  // of the same mesh gives 6.8145.
  EXPECT_NEAR(top.at("U2"), 6.9083, 0.02 * 6.9083);
  EXPECT_LT(top.at("U2"), 6.9083);
  // CHOLMOD's BLAS is named in the summary, and the README's set-up (scripts/install-deps.sh)
  // gives OpenBLAS: a machine set up without it factorizes 2-4 times slower.
  const std::string summary = read_file(dir + "/out/summary.json");
  if (summary.find("\"linear_solver\": \"cholmod\"") != std::string::npos) {
    EXPECT_NE(summary.find("\"blas\": \"OpenBLAS"), std::string::npos) << summary;
  }
}

/// A column of n C3D20R bricks of 1 x 1 x 1 (E = 1000, nu = 0), clamped at z = 0: one brick
/// across both ways, so reduced integration leaves zero-energy modes that run its height.
/// `loads` are *CLOAD data lines; node i + 3 j + 9 k + 1 sits at (i/2, j/2, k/2).
std::string c3d20r_column(int n, const std::string& loads) {
  std::ostringstream d;
  const auto id = [](int i, int j, int k) { return 1 + i + 3 * j + 9 * k; };
  d << "*NODE, NSET=ALL\n";
  for (int k = 0; k <= 2 * n; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i)
        if ((i == 1) + (j == 1) + (k % 2) < 2) d << id(i, j, k) << ", " << 0.5 * i << ", " << 0.5 * j << ", " << 0.5 * k << "\n";
  d << "*ELEMENT, TYPE=C3D20R, ELSET=COL\n";
  for (int e = 0; e < n; ++e) {
    const int k = 2 * e;
    const int c[20] = {id(0, 0, k),     id(2, 0, k),     id(2, 2, k),     id(0, 2, k),     id(0, 0, k + 2),
                       id(2, 0, k + 2), id(2, 2, k + 2), id(0, 2, k + 2), id(1, 0, k),     id(2, 1, k),
                       id(1, 2, k),     id(0, 1, k),     id(1, 0, k + 2), id(2, 1, k + 2), id(1, 2, k + 2),
                       id(0, 1, k + 2), id(0, 0, k + 1), id(2, 0, k + 1), id(2, 2, k + 1), id(0, 2, k + 1)};
    d << e + 1;
    for (int a = 0; a < 20; ++a) d << (a == 15 ? ",\n" : ", ") << c[a];
    d << "\n";
  }
  d << "*NSET, NSET=BASE\n1, 2, 3, 4, 6, 7, 8, 9\n*BOUNDARY\nBASE, 1, 3\n*MATERIAL, NAME=S\n*ELASTIC\n1000., 0.\n"
       "*SOLID SECTION, ELSET=COL, MATERIAL=S\n*STEP\n*STATIC\n*CLOAD\n"
    << loads << "*NODE PRINT, NSET=ALL\nU\n*EL PRINT, ELSET=COL\nS\n*END STEP\n";
  return d.str();
}

// Abaqus and the peer pass a zero pivot with a warning ("numerical singularity"); halfstep
// holds it with a spring of 1e-8 of the largest diagonal and refuses the step where the loads
// move that mode (the spring would carry them).
TEST(StaticSolids, HourglassModeOfAC3D20RColumnIsHeldWhereNoLoadMovesIt) {
  const std::string dir = scratch_dir("static_c3d20r_column");
  // The top face's consistent nodal loads of a uniform -12 on its unit area: corners -1/12
  // of it (+1), mid-sides 1/3 (-4).
  const int n = 4, k = 2 * n;
  std::string top;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i)
      if (i != 1 || j != 1) top += std::to_string(1 + i + 3 * j + 9 * k) + ", 3, " + ((i != 1 && j != 1) ? "1.\n" : "-4.\n");
  std::ofstream(dir + "/axial.inp") << c3d20r_column(n, top);
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/axial.inp", dir + "/out", "--backend cpu", &out), 0) << out;
  EXPECT_NE(out.find("numerical singularity at node"), std::string::npos) << out;
  // u3 = F L / (E A) = -12 x 4 / 1000 at every top node; S33 = -12 at every point.
  const auto u = dat_vector_rows(read_file(dir + "/out/axial.dat"), "displacements (vx,vy,vz) for set ALL");
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i)
      if (i != 1 || j != 1) {
        const auto& v = u.at(1 + i + 3 * j + 9 * k);
        EXPECT_NEAR(v[2], -0.048, 1e-6 * 0.048);  // the .dat's 7 digits
        EXPECT_NEAR(v[0], 0.0, 1e-6 * 0.048);      // the held mode: round-off over the spring
      }
  // A side load at mid-height moves the zero-energy mode: refused, naming it.
  std::ofstream(dir + "/side.inp") << c3d20r_column(n, "10, 1, 1.\n");
  EXPECT_EQ(run_halfstep(dir + "/side.inp", dir + "/out_side", "--backend cpu", &out), 2) << out;
  EXPECT_NE(out.find("singular stiffness: unconstrained dofs at node"), std::string::npos) << out;
  EXPECT_NE(out.find("the loads move a zero-energy mode there"), std::string::npos) << out;
}

}  // namespace
}  // namespace halfstep::test
