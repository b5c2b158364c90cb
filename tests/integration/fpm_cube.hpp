// The unit FPM cube of the static FPM hexahedron tests (tests/integration/
// test_static_fpm_hex.cpp, and the GPU's tests/gpu/test_gpu_static_plasticity.cpp): its deck
// and the stretch checks against the incremental update's closed forms, run with the backend
// options given.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test::fpm_cube {

constexpr double kE = 200e3, kNu = 0.3;

/// A unit FPM cube (X0, Y0, Z0 its faces x = 0, y = 0, z = 0, XL its x = 1 face), followed by
/// `steps` (kSupports: the symmetry supports, for a step's *BOUNDARY); `plastic`: *PLASTIC
/// lines of the material.
inline std::string cube_deck(const std::string& steps, const std::string& plastic = "") {
  return "*NODE, NSET=ALL\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n5, 0, 0, 1\n6, 1, 0, 1\n7, 1, 1, 1\n8, 0, 1, 1\n"
         "*ELEMENT, TYPE=C3D8, ELSET=CUBE\n1, 1, 2, 3, 4, 5, 6, 7, 8\n"
         "*NSET, NSET=X0\n1, 4, 5, 8\n*NSET, NSET=Y0\n1, 2, 5, 6\n*NSET, NSET=Z0\n1, 2, 3, 4\n*NSET, NSET=XL\n2, 3, 6, 7\n"
         "*MATERIAL, NAME=M\n*ELASTIC\n200000, 0.3\n*DENSITY\n7.85e-9\n" + plastic +
         "*SOLID SECTION, ELSET=CUBE, MATERIAL=M, FORMULATION=FPM\n" +
         steps;
}

inline const char* const kSupports = "X0, 1, 1\nY0, 2, 2\nZ0, 3, 3\n";

inline const char* const kStretchStep =
    "*STEP, NLGEOM=YES, INC=100\n*STATIC, DIRECT\n0.05, 1.\n*BOUNDARY\nX0, 1, 1\nY0, 2, 2\nZ0, 3, 3\nXL, 1, 1, 0.1\n"
    "*OUTPUT, HISTORY, TIME INTERVAL=0.05\n*NODE OUTPUT, NSET=XL\nU, RF\n*OUTPUT, FIELD\n*ELEMENT OUTPUT\nS, PEEQ\n*END STEP\n";

/// Stretched by 10 % in 20 increments (NLGEOM), then an explicit step holding it: the
/// update's exact reaction is E eps_N mu_N^2 (the increments' strains summed, the lateral
/// stretch -nu times each), which approaches the Hencky solution; the explicit step keeps it.
inline void check_stretch(const std::string& name, const std::string& options) {
  const std::string dir = scratch_dir(name);
  std::ofstream(dir + "/cube.inp") << cube_deck(std::string(kStretchStep) +
                                                "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-6\n*OUTPUT, HISTORY, TIME INTERVAL=1e-7\n"
                                                "*NODE OUTPUT, NSET=XL\nU, RF\n*END STEP\n");
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/cube.inp", dir + "/out", options, &out), 0) << out;
  // The update's exact answer after 20 increments of 0.005.
  double eps = 0, mu = 1;
  for (int k = 0; k < 20; ++k) {
    const double step = (1 + 0.005 * (k + 1)) / (1 + 0.005 * k) - 1;
    eps += step;
    mu *= 1 - kNu * step;
  }
  const double exact = kE * eps * mu * mu, hencky = kE * std::log(1.1) * std::pow(1.1, -2 * kNu);
  const Csv h = read_csv(dir + "/out/history/XL.csv");
  double rf_static = 0, rf_end = 0;
  int rows = 0;
  for (const auto& r : h.rows) {
    if (std::fabs(r[0] - 1.0) < 1e-12) rf_static += r[static_cast<std::size_t>(h.col("RF1"))], ++rows;
  }
  ASSERT_EQ(rows, 4);
  for (std::size_t i = h.rows.size() - 4; i < h.rows.size(); ++i) rf_end += h.rows[i][static_cast<std::size_t>(h.col("RF1"))];
  std::printf("FPM cube (%s): RF1 %.12g static, %.12g after the explicit step (update's exact %.12g, Hencky %.9g)\n",
              options.c_str(), rf_static, rf_end, exact, hencky);
  EXPECT_NEAR(rf_static, exact, 1e-9 * exact);     // measured 5e-11 (CPU)
  EXPECT_NEAR(rf_static, hencky, 3e-3 * hencky);    // measured 2.2e-3: 20 increments of 0.5 %
  EXPECT_NEAR(rf_end, exact, 1e-9 * exact);         // measured 2e-11 (CPU)
}

/// The same stretch yielding (J2, sigma_y 250, linear hardening H 1000): the same sums with
/// the return's split of each increment, the lateral one -nu times its elastic part and -1/2
/// its plastic part; PEEQ the return's.
inline void check_plastic_stretch(const std::string& name, const std::string& options) {
  const double sy = 250, H = 1000;
  const std::string dir = scratch_dir(name);
  std::ofstream(dir + "/cube.inp") << cube_deck(kStretchStep, "*PLASTIC\n250, 0.\n1250, 1.\n");
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/cube.inp", dir + "/out", options, &out), 0) << out;
  double eps = 0, ep = 0, mu = 1;
  for (int k = 0; k < 20; ++k) {
    const double step = (1 + 0.005 * (k + 1)) / (1 + 0.005 * k) - 1;
    eps += step;
    const double ep_next = std::max(ep, (kE * eps - sy) / (kE + H)), dp = ep_next - ep;
    mu *= 1 - kNu * (step - dp) - 0.5 * dp;
    ep = ep_next;
  }
  const double exact = kE * (eps - ep) * mu * mu;
  const Csv h = read_csv(dir + "/out/history/XL.csv");
  double rf = 0;
  for (const auto& r : h.rows)
    if (std::fabs(r[0] - 1.0) < 1e-12) rf += r[static_cast<std::size_t>(h.col("RF1"))];
  const auto frames = pvd_frames(dir + "/out/cube.pvd");
  ASSERT_FALSE(frames.empty());
  const std::vector<double> peeq = read_vtu_array(dir + "/out/" + frames.back().second, "PEEQ");
  ASSERT_EQ(peeq.size(), 1u);
  std::printf("plastic FPM cube (%s): RF1 %.12g (update's exact %.12g), PEEQ %.12g (%.12g)\n", options.c_str(), rf, exact,
              peeq[0], ep);
  EXPECT_NEAR(rf, exact, 1e-7 * exact);  // measured 2.6e-8 (the Newton tolerance's; CPU)
  EXPECT_NEAR(peeq[0], ep, 1e-9 * ep);   // measured 1.9e-10 (CPU)
}

}  // namespace halfstep::test::fpm_cube
