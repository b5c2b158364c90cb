// *ELASTIC, TYPE=ANISOTROPIC in a whole run against the closed form: a homogeneous small
// strain with shear prescribed on every node of a unit cube gives sigma = C eps (the 21
// constants in Abaqus's order, engineering shears), which the reactions of each face sum to,
// in global axes and, through an *ORIENTATION, in material axes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

/// The 21 constants (positive definite, every coupling term nonzero and distinct).
const double kD[21] = {1000, 300, 900, 250, 280, 800, 40, 30, 20, 350, 25, 35, 30, 15, 300, 20, 25, 30, 10, 12, 280};

/// D_ij of the 6 x 6 stiffness (Voigt order 11, 22, 33, 12, 13, 23).
double stiffness(int i, int j) { return i <= j ? kD[j * (j + 1) / 2 + i] : kD[i * (i + 1) / 2 + j]; }

// A unit C3D8 cube, every node at u = eps x (eps symmetric, small, with shears), in a linear
// static step: the stress is C eps and the face x_k = 1's reactions sum to sigma e_k. With
// material axes R (rows), sigma = R^T C(R eps R^T) R.
TEST(Anisotropic, HomogeneousStrainGivesTheVoigtProduct) {
  const double eps[3][3] = {{1e-4, 3e-5, -2e-5}, {3e-5, -5e-5, 4e-5}, {-2e-5, 4e-5, 7e-5}};
  const double corner[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  // Material axes: 1 along (1, 1, 0), 2 in the x-y plane: a rotation of 45 degrees about z.
  const double c = std::sqrt(0.5);
  const double axes[2][3][3] = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {{c, c, 0}, {-c, c, 0}, {0, 0, 1}}};
  for (int oriented = 0; oriented < 2; ++oriented) {
    SCOPED_TRACE(oriented ? "material axes at 45 degrees" : "global axes");
    std::string d = "*HEADING\nanisotropic cube\n*NODE, NSET=ALL\n";
    char buf[200];
    for (int a = 0; a < 8; ++a) {
      std::snprintf(buf, sizeof buf, "%d, %g, %g, %g\n", a + 1, corner[a][0], corner[a][1], corner[a][2]);
      d += buf;
    }
    d += "*ELEMENT, TYPE=C3D8, ELSET=CUBE\n1, 1, 2, 3, 4, 5, 6, 7, 8\n";
    d += "*NSET, NSET=X1\n2, 3, 6, 7\n*NSET, NSET=Y1\n3, 4, 7, 8\n*NSET, NSET=Z1\n5, 6, 7, 8\n";
    d += "*MATERIAL, NAME=M\n*ELASTIC, TYPE=ANISOTROPIC\n";
    for (int k = 0; k < 21; ++k) d += std::to_string(kD[k]) + (k % 8 == 7 || k == 20 ? "\n" : ", ");
    if (oriented) {
      std::snprintf(buf, sizeof buf, "*ORIENTATION, NAME=ORI\n%.17g, %.17g, 0, %.17g, %.17g, 0\n", c, c, -c, c);
      d += buf;
      d += "*SOLID SECTION, ELSET=CUBE, MATERIAL=M, ORIENTATION=ORI\n";
    } else {
      d += "*SOLID SECTION, ELSET=CUBE, MATERIAL=M\n";
    }
    d += "*BOUNDARY\n";
    for (int a = 0; a < 8; ++a)
      for (int i = 0; i < 3; ++i) {
        double u = 0;
        for (int j = 0; j < 3; ++j) u += eps[i][j] * corner[a][j];
        std::snprintf(buf, sizeof buf, "%d, %d, %d, %.17g\n", a + 1, i + 1, i + 1, u);
        d += buf;
      }
    d += "*STEP\n*STATIC\n*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=X1\nRF\n*NODE OUTPUT, NSET=Y1\nRF\n"
         "*NODE OUTPUT, NSET=Z1\nRF\n*END STEP\n";
    const std::string dir = scratch_dir(std::string("aniso_cube_") + (oriented ? "oriented" : "global"));
    std::ofstream(dir + "/cube.inp") << d;
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/cube.inp", dir + "/out", "--backend cpu", &log), 0) << log;
    // sigma = R^T s R with s = C (R eps R^T) in material axes (Voigt, engineering shears).
    const auto& R = axes[oriented];
    double e[3][3] = {}, s[3][3] = {}, sigma[3][3] = {};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int p = 0; p < 3; ++p)
          for (int q = 0; q < 3; ++q) e[i][j] += R[i][p] * eps[p][q] * R[j][q];
    const int vi[6] = {0, 1, 2, 0, 0, 1}, vj[6] = {0, 1, 2, 1, 2, 2};
    for (int k = 0; k < 6; ++k) {
      double v = 0;
      for (int m = 0; m < 6; ++m) v += stiffness(k, m) * (m < 3 ? 1.0 : 2.0) * e[vi[m]][vj[m]];
      s[vi[k]][vj[k]] = s[vj[k]][vi[k]] = v;
    }
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int p = 0; p < 3; ++p)
          for (int q = 0; q < 3; ++q) sigma[i][j] += R[p][i] * s[p][q] * R[q][j];
    const char* faces[3] = {"X1", "Y1", "Z1"};
    for (int k = 0; k < 3; ++k) {
      const Csv h = read_csv(dir + "/out/history/" + std::string(faces[k]) + ".csv");
      ASSERT_FALSE(h.rows.empty());
      for (int i = 0; i < 3; ++i) {
        double sum = 0;
        const std::string col = "RF" + std::to_string(i + 1);
        const double last_time = h.rows.back()[static_cast<std::size_t>(h.col("time"))];
        for (const auto& row : h.rows)
          if (row[static_cast<std::size_t>(h.col("time"))] == last_time) sum += row[static_cast<std::size_t>(h.col(col))];
        std::printf("%s face %s %s: %.9g, sigma %.9g\n", oriented ? "oriented" : "global", faces[k], col.c_str(), sum,
                    sigma[i][k]);
        EXPECT_NEAR(sum, sigma[i][k], 1e-10) << faces[k] << " " << col;  // stresses near 0.1: round-off
      }
    }
  }
}

}  // namespace
}  // namespace halfstep::test
