// Contact in static steps on the GPU engine (issue 44 item 1): the pressed bar of
// tests/integration/test_static_contact.cpp with --backend cuda (the contact springs
// assembled into the device matrix through the grown pattern), against the same closed forms
// and the CPU's run; the frictional sheared blocks against mu and the CPU. Skipped without a
// GPU.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "../integration/static_contact.hpp"
#include "need_gpu.hpp"

namespace halfstep::test {
namespace {

using namespace contact;

/// End force, the last frame's S11 range and CPRESS range of a pressed-bar run.
struct Pressed {
  double push, s_lo, s_hi, p_lo, p_hi;
};

Pressed run_pressed(const std::string& name, const std::string& deck, const std::string& backend) {
  const std::string dir = scratch_dir(name);
  std::ofstream(dir + "/bar.inp") << deck;
  std::string log;
  EXPECT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend " + backend, &log), 0) << log;
  Pressed r{ties::last_sum(read_csv(dir + "/out/history/B_N1.csv"), "RF1"), 1e300, -1e300, 1e300, 0};
  const std::string frame = dir + "/out/" + pvd_frames(dir + "/out/bar.pvd").back().second;
  const std::vector<double> s = read_vtu_array(frame, "S"), p = read_vtu_array(frame, "CPRESS");
  for (std::size_t e = 0; e < s.size() / 6; ++e) r.s_lo = std::min(r.s_lo, s[6 * e]), r.s_hi = std::max(r.s_hi, s[6 * e]);
  for (double v : p)
    if (v > 0) r.p_lo = std::min(r.p_lo, v), r.p_hi = std::max(r.p_hi, v);
  return r;
}

TEST(GpuStaticContact, PressedBarMatchesTheClosedFormAndTheCpu) {
  NEED_GPU();
  struct Case {
    const char* name;
    bool nlgeom;
    double gap;
    const char* law;
    double nominal, sigma;  // closed forms (test_static_contact.cpp)
  };
  const double l = 1 - kPress, e11 = 0.5 * (l * l - 1), s11 = ties::kE * e11;
  const Case cases[] = {
      {"linear", false, 0.0, "", -ties::kE * kPress, -ties::kE * kPress},
      {"nlgeom_gap", true, 5e-4, "", l * s11, l * s11 / (1 - 2 * ties::kNu * e11)},
      {"softened", false, 0.0, "*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=LINEAR\n1000.\n",
       -2 * kPress / (2 / ties::kE + 1 / 1000.0), -2 * kPress / (2 / ties::kE + 1 / 1000.0)},
  };
  for (const Case& c : cases) {
    const std::string deck = pressed_bar(c.nlgeom, c.gap, c.law);
    const Pressed g = run_pressed(std::string("gpu_pressed_") + c.name, deck, "cuda");
    const Pressed h = run_pressed(std::string("cpu_pressed_") + c.name, deck, "cpu");
    std::printf("GPU pressed bar %s: end force %.12g (CPU %.12g, closed form %.12g), S11 in [%.12g, %.12g], CPRESS in "
                "[%.12g, %.12g]\n", c.name, g.push, h.push, c.nominal, g.s_lo, g.s_hi, g.p_lo, g.p_hi);
    const double tol = 1e-6 * std::fabs(c.sigma);
    EXPECT_NEAR(g.push, c.nominal, tol) << c.name;
    EXPECT_NEAR(g.s_lo, c.sigma, tol) << c.name;
    EXPECT_NEAR(g.s_hi, c.sigma, tol) << c.name;
    EXPECT_NEAR(g.p_lo, -c.nominal, tol) << c.name;
    EXPECT_NEAR(g.p_hi, -c.nominal, tol) << c.name;
    // The GPU's Krylov solve (or cuDSS) against CHOLMOD: Newton's checks, not round-off.
    EXPECT_NEAR(g.push, h.push, 1e-8 * std::fabs(c.sigma)) << c.name;
  }
}

TEST(GpuStaticContact, ShearedBarSlipsAtMuLikeTheCpu) {
  // The frictional slip of test_static_contact.cpp's sheared blocks (mu 0.3, a shift of 0.02
  // far past the stick): the pair's shear is mu times its normal force on the GPU too, and
  // the held end's forces agree with the CPU's to Newton's tolerance.
  NEED_GPU();
  constexpr double mu = 0.3;
  const std::string deck = sheared_bar(mu, 0.02);
  double rf[2][2], cfn[2], cfs[2];
  const char* backends[] = {"cuda", "cpu"};
  for (int b = 0; b < 2; ++b) {
    const std::string dir = scratch_dir(std::string("sheared_") + backends[b]);
    std::ofstream(dir + "/bar.inp") << deck;
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", std::string("--backend ") + backends[b], &log), 0) << log;
    const Csv end = read_csv(dir + "/out/history/B_N1.csv"), pair = read_csv(dir + "/out/history/contact.csv");
    rf[b][0] = ties::last_sum(end, "RF1"), rf[b][1] = ties::last_sum(end, "RF2");
    cfn[b] = pair.rows.back()[static_cast<std::size_t>(pair.col("CFN1"))];
    cfs[b] = pair.rows.back()[static_cast<std::size_t>(pair.col("CFS2"))];
  }
  std::printf("GPU sheared bar: RF1 %.12g RF2 %.12g CFN1 %.12g CFS2 %.12g (CPU %.12g %.12g %.12g %.12g)\n", rf[0][0],
              rf[0][1], cfn[0], cfs[0], rf[1][0], rf[1][1], cfn[1], cfs[1]);
  EXPECT_NEAR(-cfs[0], mu * cfn[0], 1e-4 * cfn[0]);
  EXPECT_NEAR(rf[0][0], rf[1][0], 1e-6 * cfn[1]);
  EXPECT_NEAR(rf[0][1], rf[1][1], 1e-6 * cfn[1]);
}

}  // namespace
}  // namespace halfstep::test
