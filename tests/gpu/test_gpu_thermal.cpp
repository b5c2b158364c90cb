// Thermal loads on the GPU (issue 45 item 2): the heated bar of tests/integration/
// test_thermal_run.cpp on the GPU static engine (linear and NLGEOM: element matrices and
// forces differentiated on the device with the temperature change), against the closed forms
// alpha dtheta L and -E alpha dtheta, and carried into an explicit step. Skipped without a GPU.
#include <cmath>
#include <string>
#include <vector>

#include "../integration/bolted_joint.hpp"
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

// The held bar heated in an NLGEOM static step, then an explicit step carrying the
// temperatures (the explicit passes' thermal strain: the element kernels on the device) keeps
// S11 = -E alpha dtheta (to the finite-strain difference) and the CPU's numbers.
TEST(GpuThermal, CarriedTemperaturesKeepTheHeldBarsStressInAnExplicitStep) {
  NEED_GPU();
  for (const char* type : {"C3D8R", "C3D8"}) {
    std::vector<double> s[2];
    for (int gpu = 0; gpu < 2; ++gpu) {
      const std::string dir = scratch_dir(std::string("carried_") + type + (gpu ? "_gpu" : "_cpu"));
      std::ofstream(dir + "/bar.inp") << bar_deck(type, "XL, 1, 1\n", static_step(true) + explicit_after(""));
      std::string log;
      ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", gpu ? "--backend cuda" : "--backend cpu", &log), 0) << log;
      s[gpu] = last_stress(dir + "/out");
      ASSERT_EQ(s[gpu].size(), 6u * kN);
    }
    const double eps = kAlpha * (kT1 - kT0);
    for (int e = 0; e < kN; ++e) {
      EXPECT_NEAR(s[1][6 * e], -kE * eps, 2e-3 * kE * eps) << type;
      for (int k = 0; k < 6; ++k) EXPECT_NEAR(s[1][6 * e + k], s[0][6 * e + k], 1e-9 * kE * eps) << type << " " << k;
    }
  }
}

// examples/generate_bolted_joint.py on the GPU: the thermal preload in the GPU static engine
// (rigid head and nut, softened contact), the pull in the explicit step on the device; the
// held nut's reaction against the joint diagram (the CPU's bounds: tests/integration/
// test_examples.cpp).
TEST(GpuThermal, BoltedJointFollowsTheJointDiagram) {
  NEED_GPU();
  const std::string dir = scratch_dir("bolted_joint");
  const std::string deck = generate_with("generate_bolted_joint.py", dir, "joint", "");
  std::string log;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--backend cuda", &log), 0) << log;
  bolted::expect_joint_diagram(dir + "/out", "GPU bolted joint");
}

// The joint preloaded by a *PRE-TENSION SECTION (its equations in the GPU static engine and the
// explicit step on the device), against the CPU test's bounds.
TEST(GpuThermal, BoltedJointWithAPreTensionSectionFollowsTheJointDiagram) {
  NEED_GPU();
  const std::string dir = scratch_dir("bolted_joint_pretension");
  const std::string deck = generate_with("generate_bolted_joint.py", dir, "joint", bolted::pretension_args());
  std::string log;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--backend cuda", &log), 0) << log;
  bolted::expect_joint_diagram(dir + "/out", "GPU bolted joint, pre-tension section", bolted::kPretensionPreloadTol,
                               bolted::kPretensionPulledTol);
}

// Temperatures changed in explicit steps on the device: the held bar heated slowly, then
// released at once (OP=NEW). The element kernels book the thermal work (the fifth element
// sum), as the CPU does to round-off; closed forms as in tests/integration/test_thermal_run.cpp.
TEST(GpuThermal, ExplicitTemperatureChangesBookTheirWork) {
  NEED_GPU();
  for (const char* type : {"C3D8R", "C3D8"}) {
    double heated[2], released[2];
    for (int gpu = 0; gpu < 2; ++gpu) {
      std::string amp;
      const std::string slow = slow_heating_step(amp);
      const std::string dir = scratch_dir(std::string("explicit_heat_") + type + (gpu ? "_gpu" : "_cpu"));
      std::ofstream(dir + "/bar.inp") << amp + bar_deck(type, "XL, 1, 1\n", slow + explicit_after("*TEMPERATURE, OP=NEW\n"));
      std::string log;
      // The release at once rings the bar's highest modes: the check is loosened as on the CPU
      // (tests/integration/test_thermal_run.cpp).
      ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out",
                             std::string(gpu ? "--backend cuda" : "--backend cpu") + " --energy-tolerance 0.9", &log),
                0)
          << log;
      const Csv energy = read_csv(dir + "/out/energy.csv");
      ASSERT_FALSE(energy.rows.empty());
      // The heating step's end (40 axial periods, slow_heating_step) and the run's.
      const double t1 = 40 * 4.0 * kN / std::sqrt(kE / 7.8e-9);
      const std::size_t col = static_cast<std::size_t>(energy.col("thermal_work"));
      for (const auto& row : energy.rows)
        if (row[0] <= t1 * (1 + 1e-9)) heated[gpu] = row[col];
      released[gpu] = energy.rows.back()[col];
      std::printf("%s %s: thermal work heated %.9g, released %.9g\n", type, gpu ? "GPU" : "CPU", heated[gpu],
                  released[gpu]);
    }
    const double w_heat = kHeldEnergy, w_all = kReleasedEnergy;
    EXPECT_NEAR(heated[1], w_heat, 5e-3 * w_heat) << type;
    EXPECT_NEAR(released[1], w_all, 3e-3 * w_all) << type;
    EXPECT_NEAR(heated[1], heated[0], 1e-9 * w_heat) << type;
    EXPECT_NEAR(released[1], released[0], 1e-9 * w_all) << type;
  }
}

}  // namespace
}  // namespace halfstep::test
