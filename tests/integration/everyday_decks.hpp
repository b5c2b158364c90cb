// Decks of the everyday physics' closed-form checks (issue 45), shared by the CPU tests
// (tests/integration/test_gravity.cpp, test_softened_contact.cpp) and their GPU runs
// (tests/gpu/test_gpu_everyday_physics.cpp): a block falling under gravity, an S4R cantilever
// under its own weight, a block pressed onto a softened floor, and the runner that reads the
// floor's settlement.
#pragma once

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "run_util.hpp"

namespace halfstep::test::everyday {

/// A free 2 x 1 x 1 block of two C3D8R (rho 2) with a MASS element of 0.5 on node 12, under
/// whole-model gravity of 9.81 along (0, 0, -2) for period.
inline std::string falling_block(double period) {
  std::string d = "*HEADING\nfalling block\n*NODE\n";
  int id = 1;
  for (int k = 0; k <= 1; ++k)
    for (int j = 0; j <= 1; ++j)
      for (int i = 0; i <= 2; ++i)
        d += std::to_string(id++) + ", " + std::to_string(i) + ", " + std::to_string(j) + ", " + std::to_string(k) + "\n";
  const auto n = [](int i, int j, int k) { return std::to_string(1 + i + 3 * j + 6 * k); };
  d += "*ELEMENT, TYPE=C3D8R, ELSET=BLOCK\n";
  for (int i = 0; i < 2; ++i)
    d += std::to_string(i + 1) + ", " + n(i, 0, 0) + ", " + n(i + 1, 0, 0) + ", " + n(i + 1, 1, 0) + ", " + n(i, 1, 0) +
         ", " + n(i, 0, 1) + ", " + n(i + 1, 0, 1) + ", " + n(i + 1, 1, 1) + ", " + n(i, 1, 1) + "\n";
  d += "*ELEMENT, TYPE=MASS, ELSET=LUMP\n101, 12\n*MASS, ELSET=LUMP\n0.5\n"
       "*NSET, NSET=ALL, GENERATE\n1, 12, 1\n"
       "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*DENSITY\n2.\n*SOLID SECTION, ELSET=BLOCK, MATERIAL=M\n"
       "*STEP\n*DYNAMIC, EXPLICIT\n, " + std::to_string(period) + "\n*DLOAD\n, GRAV, 9.81, 0., 0., -2.\n"
       "*OUTPUT, HISTORY, TIME INTERVAL=" + std::to_string(period / 10) + "\n*NODE OUTPUT, NSET=ALL\nU, A\n*END STEP\n";
  return d;
}

/// A cantilever of S4R shells (length 10, width 1, thickness 0.1, E 1e6, nu 0, rho 1), nx x 2
/// elements, clamped at x = 0, under gravity 1 along -z in a linear static step.
inline std::string shell_cantilever(int nx) {
  std::string d = "*HEADING\nshell cantilever under its own weight\n*NODE\n";
  for (int j = 0; j <= 2; ++j)
    for (int i = 0; i <= nx; ++i)
      d += std::to_string(1 + i + (nx + 1) * j) + ", " + std::to_string(10.0 * i / nx) + ", " +
           std::to_string(0.5 * j) + ", 0\n";
  d += "*ELEMENT, TYPE=S4R, ELSET=PLATE\n";
  int id = 1;
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < nx; ++i) {
      const int a = 1 + i + (nx + 1) * j;
      d += std::to_string(id++) + ", " + std::to_string(a) + ", " + std::to_string(a + 1) + ", " +
           std::to_string(a + nx + 2) + ", " + std::to_string(a + nx + 1) + "\n";
    }
  d += "*NSET, NSET=ROOT\n1, " + std::to_string(nx + 2) + ", " + std::to_string(2 * nx + 3) + "\n";
  d += "*NSET, NSET=TIP\n" + std::to_string(nx + 1) + ", " + std::to_string(2 * nx + 2) + ", " +
       std::to_string(3 * nx + 3) + "\n";
  d += "*MATERIAL, NAME=M\n*ELASTIC\n1e6, 0.\n*DENSITY\n1.\n*SHELL SECTION, ELSET=PLATE, MATERIAL=M\n0.1\n"
       "*BOUNDARY\nROOT, 1, 6\n*STEP\n*STATIC\n1., 1.\n*DLOAD\nPLATE, GRAV, 1., 0., 0., -1.\n"
       "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=TIP\nU\n*END STEP\n";
  return d;
}

/// The cantilever's closed form: q L^4 / (8 E I) + q L^2 / (2 kappa G A), q = rho g t b = 0.1,
/// E I = 1e6 / 12000, G = E / 2, kappa = 5/6: 1.5 + 1.2e-4.
inline double shell_cantilever_tip() {
  const double q = 0.1, L = 10, EI = 1e6 * 1.0 * 1e-3 / 12, GA = 0.5e6 * 0.1;
  return q * L * L * L * L / (8 * EI) + q * L * L / (2 * (5.0 / 6.0) * GA);
}

constexpr double kPressure = 10.0;

/// A 1 x 1 x 0.5 block of 2 x 2 x 1 C3D8 (E 1e6, nu 0.3, rho 1, mass-proportional damping 150)
/// touching the top of a 1.2 x 1.2 x 0.5 base element whose nodes are held, its bottom a
/// contact pair's slave surface under `behavior` (the *SURFACE BEHAVIOR lines), loaded on its
/// top by kPressure (smooth step over 0.3, then held to 1.2).
inline std::string softened_floor(const std::string& behavior) {
  std::string d = "*HEADING\nblock on a softened floor\n*NODE\n";
  for (int k = 0; k <= 1; ++k)
    for (int j = 0; j <= 2; ++j)
      for (int i = 0; i <= 2; ++i)
        d += std::to_string(1 + i + 3 * j + 9 * k) + ", " + std::to_string(0.5 * i) + ", " + std::to_string(0.5 * j) +
             ", " + std::to_string(0.5 * k) + "\n";
  d += "101, -0.1, -0.1, -0.5\n102, 1.1, -0.1, -0.5\n103, 1.1, 1.1, -0.5\n104, -0.1, 1.1, -0.5\n"
       "105, -0.1, -0.1, 0\n106, 1.1, -0.1, 0\n107, 1.1, 1.1, 0\n108, -0.1, 1.1, 0\n";
  const auto n = [](int i, int j, int k) { return std::to_string(1 + i + 3 * j + 9 * k); };
  d += "*ELEMENT, TYPE=C3D8, ELSET=BLOCK\n";
  int id = 1;
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 2; ++i)
      d += std::to_string(id++) + ", " + n(i, j, 0) + ", " + n(i + 1, j, 0) + ", " + n(i + 1, j + 1, 0) + ", " +
           n(i, j + 1, 0) + ", " + n(i, j, 1) + ", " + n(i + 1, j, 1) + ", " + n(i + 1, j + 1, 1) + ", " +
           n(i, j + 1, 1) + "\n";
  d += "*ELEMENT, TYPE=C3D8, ELSET=BASE\n11, 101, 102, 103, 104, 105, 106, 107, 108\n"
       "*NSET, NSET=BASEN, ELSET=BASE\n*NSET, NSET=BOTTOM\n1, 2, 3, 4, 5, 6, 7, 8, 9\n"
       "*MATERIAL, NAME=SOFT\n*ELASTIC\n1e6, 0.3\n*DENSITY\n1.\n*DAMPING, ALPHA=150.\n"
       "*MATERIAL, NAME=HEAVY\n*ELASTIC\n1e6, 0.3\n*DENSITY\n100.\n"
       "*SOLID SECTION, ELSET=BLOCK, MATERIAL=SOFT\n*SOLID SECTION, ELSET=BASE, MATERIAL=HEAVY\n"
       "*SURFACE, NAME=UNDER\nBLOCK, S1\n*SURFACE, NAME=TOP\nBLOCK, S2\n*SURFACE, NAME=FLOOR\nBASE, S2\n"
       "*SURFACE INTERACTION, NAME=SOFTENED\n" + behavior +
       "*CONTACT PAIR, INTERACTION=SOFTENED\nUNDER, FLOOR\n"
       "*AMPLITUDE, NAME=RAMP, DEFINITION=SMOOTH STEP\n0., 0., 0.3, 1.\n"
       "*BOUNDARY\nBASEN, 1, 3\n"
       "*STEP\n*DYNAMIC, EXPLICIT\n, 1.2\n*DSLOAD, AMPLITUDE=RAMP\nTOP, P, " + std::to_string(kPressure) + "\n"
       "*OUTPUT, FIELD, NUMBER INTERVAL=4\n*NODE OUTPUT\nU\n"
       "*OUTPUT, HISTORY, TIME INTERVAL=0.01\n*NODE OUTPUT, NSET=BOTTOM\nU\n*END STEP\n";
  return d;
}

struct FloorResult {
  double u3_mean = 0, u3_spread = 0, cpress = 0;
};

/// Runs the block on the floor and reads its bottom nodes' U3 at the end (mean and spread)
/// and the mean CPRESS of the bottom's inner nodes in the last frame.
inline FloorResult run_floor(const std::string& name, const std::string& behavior, const std::string& backend = "cpu") {
  FloorResult r;
  const std::string dir = scratch_dir(name);
  std::ofstream(dir + "/floor.inp") << softened_floor(behavior);
  std::string out;
  EXPECT_EQ(run_halfstep(dir + "/floor.inp", dir + "/out", "--backend " + backend, &out), 0) << out;
  const Csv h = read_csv(dir + "/out/history/BOTTOM.csv");
  double lo = 1e30, hi = -1e30, sum = 0;
  int count = 0;
  const double end = h.rows.empty() ? 0 : h.rows.back()[0];
  for (const auto& row : h.rows)
    if (row[0] == end) {
      const double u3 = row[h.col("U3")];
      lo = std::min(lo, u3), hi = std::max(hi, u3), sum += u3, ++count;
    }
  EXPECT_EQ(count, 9);
  r.u3_mean = sum / std::max(count, 1);
  r.u3_spread = hi - lo;
  const auto frames = pvd_frames(dir + "/out/floor.pvd");
  if (!frames.empty()) {
    const std::string last = dir + "/out/" + frames.back().second;
    const std::vector<double> ids = read_vtu_array(last, "NodeId"), cp = read_vtu_array(last, "CPRESS");
    int inner = 0;
    for (std::size_t i = 0; i < ids.size(); ++i)
      if (ids[i] >= 1 && ids[i] <= 9) r.cpress += cp[i], ++inner;
    r.cpress /= std::max(inner, 1);
  }
  std::printf("%s: bottom U3 %.6e (spread %.1e), CPRESS %.5f\n", name.c_str(), r.u3_mean, r.u3_spread, r.cpress);
  return r;
}

}  // namespace halfstep::test::everyday
