// FPM triangles and beams in static steps on the CUDA tangent engine (issues 44 and 45): the
// strip and cantilever of tests/integration/test_static_fpm_tri.cpp and test_static_fpm_beam.cpp
// (tests/integration/static_fpm_decks.hpp) with --backend cuda against the same closed forms
// and the CPU engine's run of the same deck (their elements evaluated by the same host/device
// bodies, discretization/row_tangent.hpp); the mixed S4R/S3R plate against Navier's series; a
// yielding strip against the CPU's run; a geometrically linear step with triangles, refused by
// the CUDA engine with the way out, and run on the CPU by auto. Skipped without a GPU.
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

#include "../integration/static_fpm_decks.hpp"
#include "../integration/status_util.hpp"
#include "need_gpu.hpp"

namespace halfstep::test {
namespace {

using static_fpm::kClamp;
using static_fpm::kTipHistory;

TEST(GpuStaticFpm, TriangleStripFollowsTheElasticaAsTheCpuDoes) {
  NEED_GPU();
  using namespace static_fpm::strip;
  const double P = kEI / (kL * kL);
  const std::string deck = strip_model(kE, 0, "") + kClamp + "*STEP, NLGEOM=YES\n*STATIC\n1., 1.\n" + tip_load(3, P) +
                           kTipHistory + "*END STEP\n";
  const auto [u, w] = static_fpm::run_tip("gpu_static_fpm_tri_elastica", "strip.inp", deck, "--backend cuda");
  const auto [uc, wc] = static_fpm::run_tip("cpu_static_fpm_tri_elastica", "strip.inp", deck, "--backend cpu");
  std::printf("GPU FPM triangle strip, P L^2 / EI = 1: u / L %.6f (0.056433), w / L %.6f (0.301721); CPU w - GPU w %.2e\n",
              -u / kL, w / kL, wc - w);
  EXPECT_NEAR(w / kL, 0.301721, 1e-3 * 0.301721);
  EXPECT_NEAR(-u / kL, 0.056433, 2e-3 * 0.056433);
  EXPECT_NEAR(w, wc, 1e-6 * wc);  // both engines stop within Newton's tolerance of one answer
}

TEST(GpuStaticFpm, BeamRollsIntoAFullCircleAsTheCpuDoes) {
  NEED_GPU();
  using namespace static_fpm::beam;
  const double pi = std::acos(-1.0), M = 2 * pi * kEI / kL;
  const std::string deck = beam_model(kE, "") + kClamp + "*STEP, NLGEOM=YES, INC=100\n*STATIC\n0.125, 1.\n" +
                           tip_load(5, -M) + kTipHistory + "*END STEP\n";
  const auto [u, w] = static_fpm::run_tip("gpu_static_fpm_beam_rollup", "beam.inp", deck, "--backend cuda");
  const auto [uc, wc] = static_fpm::run_tip("cpu_static_fpm_beam_rollup", "beam.inp", deck, "--backend cpu");
  std::printf("GPU FPM beam rolled into a circle: tip at x %.3e, z %.3e (CPU %.3e, %.3e)\n", kL + u, w, kL + uc, wc);
  EXPECT_NEAR(kL + u, 0, 1e-5 * kL);
  EXPECT_NEAR(w, 0, 1e-5 * kL);
}

// The yielding strip on the CUDA engine: its Newton stalled at the first increment that started
// yielded until the return gave dual evaluations on the surface to round-off the elastoplastic
// tangent (2026-12-07, H100; docs/theory.md, "FPM triangle"). Both engines take the 10
// increments in a few iterations each and stop within Newton's tolerance of one reaction.
TEST(GpuStaticFpm, PlasticStripRunsOnTheCudaEngineAsOnTheCpu) {
  NEED_GPU();
  using namespace static_fpm::strip;
  const std::string bc = "*BOUNDARY\nROOT, 1, 1\nROOT, 3, 6\n" + std::to_string(node_id(0, 0)) + ", 2, 2\n";
  std::ostringstream tip;
  tip.precision(17);
  tip << "*BOUNDARY\nTIP, 1, 1, " << 0.01 * kL << "\nTIP, 3, 6\n";
  const std::string dir = scratch_dir("gpu_static_fpm_tri_plastic");
  std::ofstream(dir + "/strip.inp") << strip_model(200e3, 0.3, "*PLASTIC\n250., 0.\n1250., 1.\n") + bc +
                                           "*STEP, NLGEOM=YES, INC=100\n*STATIC, DIRECT\n0.1, 1.\n" + tip.str() +
                                           "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=ROOT\nRF\n*END STEP\n";
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/strip.inp", dir + "/gpu", "--backend cuda", &log), 0) << log;
  // DIRECT increments cannot cut back; the stall took 8 and more iterations an increment.
  const std::vector<std::vector<double>> rows = data_of(status_lines(dir + "/gpu/strip.sta"));
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows.back()[kIncrement], 10);
  EXPECT_LE(rows.back()[kIterations], 3);
  ASSERT_EQ(run_halfstep(dir + "/strip.inp", dir + "/cpu", "--backend cpu", &log), 0) << log;
  const double gpu = last_total(dir + "/gpu", "ROOT", "RF1"), cpu = last_total(dir + "/cpu", "ROOT", "RF1");
  std::printf("GPU yielding FPM triangle strip: RF1 %.9g (CPU %.9g, %+.2e)\n", gpu, cpu, gpu / cpu - 1);
  EXPECT_NEAR(gpu, cpu, 1e-6 * std::fabs(cpu));
}

// Issue 45's check on the GPU: the mixed S4R/S3R plate in a static step meets Navier's series.
TEST(GpuStaticFpm, MixedPlateMeetsNavierInAStaticStep) {
  NEED_GPU();
  const double navier = 4.43609e-5;
  const double w = static_fpm::plate_centre("gpu_static_fpm_plate", true, "--backend cuda");
  std::printf("GPU mixed S4R/S3R plate, static: centre w %.6e, Navier %.6e (%+.2f %%)\n", w, navier, 100 * (w / navier - 1));
  EXPECT_NEAR(w, navier, 5e-3 * navier);
}

// The linear theory of FPM elements writes their state on the CPU engine only so far: the
// CUDA engine refuses the step at its line with the way out; auto runs it on the CPU.
TEST(GpuStaticFpm, LinearStepIsRefusedByTheCudaEngineAndRunByAuto) {
  NEED_GPU();
  using namespace static_fpm::strip;
  const std::string dir = scratch_dir("gpu_static_fpm_linear");
  std::ofstream(dir + "/strip.inp") << strip_model(kE, 0, "") + kClamp + "*STEP\n*STATIC\n1., 1.\n" +
                                           tip_load(3, 1e-3 * kEI / (kL * kL)) + kTipHistory + "*END STEP\n";
  std::string log;
  EXPECT_EQ(run_halfstep(dir + "/strip.inp", dir + "/gpu", "--backend cuda", &log), 2) << log;
  EXPECT_NE(log.find("strip.inp:"), std::string::npos) << log;
  EXPECT_NE(log.find("--backend cpu"), std::string::npos) << log;
  EXPECT_EQ(run_halfstep(dir + "/strip.inp", dir + "/auto", "", &log), 0) << log;
}

}  // namespace
}  // namespace halfstep::test
