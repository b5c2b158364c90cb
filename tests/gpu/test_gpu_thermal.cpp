// Thermal loads on the GPU (issue 45 item 2): the heated bar of tests/integration/
// test_thermal_run.cpp on the GPU static engine (linear and NLGEOM: element matrices and
// forces differentiated on the device with the temperature change), against the closed forms
// alpha dtheta L and -E alpha dtheta. Skipped without a GPU.
#include <cmath>
#include <string>

#include "../integration/thermal_bar.hpp"
#include "need_gpu.hpp"

namespace halfstep::test {
namespace {

using namespace thermal;

TEST(GpuThermal, StaticBarMatchesTheClosedForms) {
  NEED_GPU();
  for (bool nlgeom : {false, true})
    for (bool held : {false, true}) {
      const std::string dir = scratch_dir(std::string(held ? "held" : "free") + (nlgeom ? "_nlgeom" : "_linear"));
      std::ofstream(dir + "/bar.inp") << bar_deck("C3D8", held ? "XL, 1, 1\n" : "", static_step(nlgeom));
      std::string log;
      ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cuda", &log), 0) << log;
      const double eps = kAlpha * (kT1 - kT0);
      if (held) {
        const std::vector<double> s = last_stress(dir + "/out");
        ASSERT_EQ(s.size(), 6u * kN);
        const double tol = nlgeom ? 2e-3 * kE * eps : 1e-9 * kE * eps;
        for (int e = 0; e < kN; ++e) EXPECT_NEAR(s[6 * e], -kE * eps, tol) << (nlgeom ? "NLGEOM" : "linear");
      } else {
        double u1, rf1;
        ASSERT_NO_FATAL_FAILURE(end_values(dir + "/out", u1, rf1));
        EXPECT_NEAR(u1, eps * kN, 1e-9 * eps * kN) << (nlgeom ? "NLGEOM" : "linear");
      }
    }
}

}  // namespace
}  // namespace halfstep::test
