// *TIE in static steps on the GPU engine (issue 44 item 2): the tied bar and the tied
// cantilever of tests/integration/test_static_ties.cpp with --backend cuda (the weighted
// gather of T^T K T on the device), against the same closed forms. Skipped without a GPU.
#include <cmath>
#include <cstdio>
#include <string>

#include "../integration/static_ties.hpp"
#include "need_gpu.hpp"

namespace halfstep::test {
namespace {

using namespace ties;

TEST(GpuStaticTies, TiedBarCarriesTheUniformStress) {
  NEED_GPU();
  for (bool nlgeom : {false, true}) {
    const std::string dir = scratch_dir(nlgeom ? "gpu_tied_bar_nlgeom" : "gpu_tied_bar_linear");
    std::ofstream(dir + "/bar.inp") << tied_bar(nlgeom);
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cuda", &log), 0) << log;
    const double pull = last_sum(read_csv(dir + "/out/history/B_N1.csv"), "RF1"), sigma = kE * kPull;
    const std::vector<double> s = read_vtu_array(dir + "/out/" + pvd_frames(dir + "/out/bar.pvd").back().second, "S");
    ASSERT_EQ(s.size(), 6u * (8 + 64));
    std::printf("GPU tied bar (%s): end force %.12g, S11 of the first and last cells %.12g %.12g\n",
                nlgeom ? "NLGEOM" : "linear", pull, s[0], s[s.size() - 6]);
    const double tol = nlgeom ? 3e-3 * sigma : 1e-9 * sigma;
    EXPECT_NEAR(pull, sigma, tol);
    for (std::size_t e = 0; e < s.size() / 6; ++e) EXPECT_NEAR(s[6 * e], nlgeom ? s[0] : sigma, nlgeom ? 1e-5 * sigma : tol);
  }
}

TEST(GpuStaticTies, TiedCantileverBendsLikeTimoshenkosBeam) {
  NEED_GPU();
  const std::string dir = scratch_dir("gpu_tied_cantilever");
  std::ofstream(dir + "/beam.inp") << tied_cantilever("C3D8R", 20, 4, 15, 3);
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/beam.inp", dir + "/out", "--backend cuda", &log), 0) << log;
  const Csv end = read_csv(dir + "/out/history/B_N1.csv");
  const double tip = -last_sum(end, "U2") / ((3 + 1) * (3 + 1)), ref = timoshenko_tip();
  std::printf("GPU tied cantilever tip %.6g, Timoshenko %.6g (%.3g %%)\n", tip, ref, 100 * (tip / ref - 1));
  EXPECT_NEAR(tip, ref, 0.03 * ref);
}

}  // namespace
}  // namespace halfstep::test
