// Rotational body forces on the GPU (issue 45 item 1): the spinning annulus of
// tests/integration/test_rotation_loads.cpp in static steps on the GPU static engine (linear
// and NLGEOM) against Lame's rotating disk and the CPU's numbers. Skipped without a GPU.
#include <fstream>
#include <string>

#include "../integration/rotating_annulus.hpp"
#include "need_gpu.hpp"

namespace halfstep::test {
namespace {

using namespace spin;

TEST(GpuRotation, SpinningAnnulusMatchesLameAndTheCpu) {
  NEED_GPU();
  const int nr = 16, nt = 64;
  for (bool nlgeom : {false, true}) {
    SCOPED_TRACE(nlgeom ? "NLGEOM" : "linear");
    Csv h[2];
    for (int gpu = 0; gpu < 2; ++gpu) {
      const std::string dir = scratch_dir(std::string("centrif_") + (nlgeom ? "nlgeom" : "linear") + (gpu ? "_gpu" : "_cpu"));
      std::ofstream(dir + "/ring.inp") << spinning_quarter(nlgeom, kOmega2, nr, nt);
      std::string log;
      ASSERT_EQ(run_halfstep(dir + "/ring.inp", dir + "/out", gpu ? "--backend cuda" : "--backend cpu", &log), 0) << log;
      h[gpu] = read_csv(dir + "/out/history/XAXIS.csv");
    }
    for (int i : {0, nr / 2, nr}) {
      const double r = kA + (kB - kA) * i / nr, expect = lame_radial(r, kOmega2);
      const double u = last_value(h[1], 1 + i, "U1");
      std::printf("GPU %s annulus: u_r(%.3f) %.9g, Lame %.9g\n", nlgeom ? "NLGEOM" : "linear", r, u, expect);
      EXPECT_NEAR(u, expect, 1e-3 * expect) << "r " << r;  // measured <= 6e-4 (16 x 64 cells)
      EXPECT_NEAR(u, last_value(h[0], 1 + i, "U1"), 1e-9 * expect) << "r " << r;
    }
  }
}

}  // namespace
}  // namespace halfstep::test
