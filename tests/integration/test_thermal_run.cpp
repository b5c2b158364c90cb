// Thermal loads in runs (issue 45 item 2): a bar heated by dtheta from its initial temperature
// grows by alpha dtheta L when free and carries -E alpha dtheta when its ends are held, in
// linear and nonlinear static steps; the temperature goes back with OP=NEW; carried into an
// explicit step the thermal strain stays; changed in explicit steps (slowly or at once) their
// work is booked and the balance holds; a kind without thermal strain is refused.
#include <cmath>
#include <sstream>
#include <string>

#include "thermal_bar.hpp"

namespace halfstep::test {
namespace {

using namespace thermal;

struct Case {
  const char* type;
  bool nlgeom;
};

class ThermalStatic : public ::testing::TestWithParam<Case> {};

TEST_P(ThermalStatic, FreeBarGrowsByAlphaDthetaL) {
  const Case c = GetParam();
  const std::string dir = scratch_dir(std::string("free_") + c.type);
  std::ofstream(dir + "/bar.inp") << bar_deck(c.type, "", static_step(c.nlgeom));
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  double u1, rf1;
  ASSERT_NO_FATAL_FAILURE(end_values(dir + "/out", u1, rf1));
  const double expect = kAlpha * (kT1 - kT0) * kN;
  std::printf("%s %s free bar: end U1 %.9g, alpha dtheta L %.9g\n", c.type, c.nlgeom ? "NLGEOM" : "linear", u1, expect);
  EXPECT_NEAR(u1, expect, 1e-9 * expect);
  EXPECT_NEAR(rf1, 0.0, 1e-9 * kE * kAlpha * (kT1 - kT0));
  for (double s : last_stress(dir + "/out")) EXPECT_NEAR(s, 0.0, 1e-8 * kE * kAlpha * (kT1 - kT0));
}

TEST_P(ThermalStatic, HeldBarCarriesMinusEAlphaDtheta) {
  const Case c = GetParam();
  const std::string dir = scratch_dir(std::string("held_") + c.type);
  std::ofstream(dir + "/bar.inp") << bar_deck(c.type, "XL, 1, 1\n", static_step(c.nlgeom));
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const double expect = -kE * kAlpha * (kT1 - kT0);  // -120
  // The linear theory's answer exactly; finite strain differs by O(alpha dtheta).
  const double tol = c.nlgeom ? 2e-3 * std::fabs(expect) : 1e-9 * std::fabs(expect);
  const std::vector<double> s = last_stress(dir + "/out");
  ASSERT_EQ(s.size(), 6u * kN);
  for (int e = 0; e < kN; ++e) {
    EXPECT_NEAR(s[6 * e], expect, tol) << "S11 of element " << e + 1;
    for (int k = 1; k < 6; ++k) EXPECT_NEAR(s[6 * e + k], 0.0, tol) << "S component " << k << " of element " << e + 1;
  }
  double u1, rf1;
  ASSERT_NO_FATAL_FAILURE(end_values(dir + "/out", u1, rf1));
  std::printf("%s %s held bar: S11 %.9g, end reaction %.9g, -E alpha dtheta A %.9g\n", c.type,
              c.nlgeom ? "NLGEOM" : "linear", s[0], rf1, expect);
  EXPECT_NEAR(rf1, expect, tol);  // the wall holds the bar's growth back: RF1 = S11 A
  // The stored energy of the held thermal strain, S11^2 / (2 E) per unit volume (the linear
  // theory's quadratic form: its forces K u - f_th alone would report 0).
  const Csv energy = read_csv(dir + "/out/energy.csv");
  const double w = energy.rows.back()[static_cast<std::size_t>(energy.col("internal"))];
  const double w_expect = expect * expect / (2 * kE) * kN;
  std::printf("%s %s held bar: internal energy %.9g, S11^2 V / 2E %.9g\n", c.type, c.nlgeom ? "NLGEOM" : "linear", w,
              w_expect);
  EXPECT_NEAR(w, w_expect, (c.nlgeom ? 3e-3 : 1e-8) * w_expect);
}

INSTANTIATE_TEST_SUITE_P(Kinds, ThermalStatic,
                         ::testing::Values(Case{"C3D8", false}, Case{"C3D8", true}, Case{"C3D8R", false},
                                           Case{"C3D8R", true}),
                         [](const auto& info) {
                           return std::string(info.param.type) + (info.param.nlgeom ? "_nlgeom" : "_linear");
                         });

// Temperatures changed in explicit steps: the thermal strain's stored energy is booked as
// thermal work (energy.csv's thermal_work), so the balance holds. Heated slowly (a smooth
// step over 40 axial periods), the held bar reaches S11 = -E alpha dtheta with the uniaxial
// energy E (alpha dtheta)^2 V / 2, all of it thermal work; the free bar grows by
// alpha dtheta L.
TEST(ThermalExplicit, SlowlyHeatedBarsMatchTheClosedForms) {
  const double eps = kAlpha * (kT1 - kT0);
  for (const char* type : {"C3D8R", "C3D8"})
    for (bool held : {true, false}) {
      SCOPED_TRACE(std::string(type) + (held ? " held" : " free"));
      const std::string dir = scratch_dir(std::string("explicit_heat_") + type + (held ? "_held" : "_free"));
      std::string amp;
      const std::string step = slow_heating_step(amp);
      std::ofstream(dir + "/bar.inp") << amp + bar_deck(type, held ? "XL, 1, 1\n" : "", step);
      std::string log;
      ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
      const double balance = summary_number(read_file(dir + "/out/summary.json"), "energy_balance_error");
      double u1, rf1;
      ASSERT_NO_FATAL_FAILURE(end_values(dir + "/out", u1, rf1));
      const double work = last_energy(dir + "/out", "thermal_work"), internal = last_energy(dir + "/out", "internal");
      std::printf("%s %s bar heated in an explicit step: U1 %.9g, RF1 %.9g, thermal work %.9g, internal %.9g, "
                  "balance %.3g\n", type, held ? "held" : "free", u1, rf1, work, internal, balance);
      EXPECT_GE(balance, 0.0);
      if (held) {
        EXPECT_LT(balance, 1e-3);
        EXPECT_NEAR(rf1, -kE * eps, 3e-3 * kE * eps);
        for (double s11 : {last_stress(dir + "/out").at(0), last_stress(dir + "/out").at(6)})
          EXPECT_NEAR(s11, -kE * eps, 3e-3 * kE * eps);
        EXPECT_NEAR(work, kHeldEnergy, 5e-3 * kHeldEnergy);
        EXPECT_NEAR(internal, kHeldEnergy, 5e-3 * kHeldEnergy);
      } else {
        EXPECT_NEAR(u1, eps * kN, 3e-3 * eps * kN);
        EXPECT_NEAR(rf1, 0.0, 1e-9 * kE * eps);
        // The free bar stores nearly nothing: the bulk viscosity dissipates what the thermal
        // work gave its expansion (about 4e-4 of the held bar's energy; its rate, integrated
        // once per increment, lags the work's trapezoid by 2 % of the small kinetic energy
        // on the way). At the end the books close: total = 0.
        EXPECT_LT(balance, 0.05);
        EXPECT_NEAR(last_energy(dir + "/out", "viscous_dissipation"), work, 1e-3 * work);
        EXPECT_NEAR(last_energy(dir + "/out", "total"), 0.0, 1e-5 * work);
      }
    }
}

// Temperatures changed at once between explicit steps: the work is the jump of the energy at
// the deformation of that instant, booked whole (the trapezoid in theta is exact for the
// quadratic energy of small strains). Heating the held bar at rest: 9 K eps^2 V / 2 (every
// strain held at the instant). Releasing the held bar heated slowly in the step before
// (OP=NEW): the work sums to the energy at its sideways-grown shape (strains 0, (1 + nu) eps,
// (1 + nu) eps) without thermal strain, 2 (lambda + mu) (1 + nu)^2 eps^2 V. A whole bar one
// element thick strained at once rings in its highest modes, where the central difference's
// kinetic energy (from mean half-step velocities) is off by tens of percent of the motion's
// energy: the energy check is loosened for these two runs (a ramped change keeps it, above).
TEST(ThermalExplicit, TemperaturesChangedAtOnceBookTheirWork) {
  const double eps = kAlpha * (kT1 - kT0);
  const double bulk = kLambda + 2 * kMu / 3;
  struct Jump {
    const char* name;
    std::string steps;
    double work;
  };
  const std::string heat = "*TEMPERATURE\nALL, " + std::to_string(kT1) + "\n";
  std::string amp;
  const std::string slow = slow_heating_step(amp);
  const Jump jumps[] = {
      {"heat_at_rest", resting_explicit_step() + explicit_after(heat), 4.5 * bulk * eps * eps * kVolume},
      {"release", slow + explicit_after("*TEMPERATURE, OP=NEW\n"), kReleasedEnergy},
  };
  for (const char* type : {"C3D8R", "C3D8"})
    for (const Jump& j : jumps) {
      SCOPED_TRACE(std::string(type) + " " + j.name);
      const std::string dir = scratch_dir(std::string("explicit_jump_") + type + "_" + j.name);
      std::ofstream(dir + "/bar.inp") << amp + bar_deck(type, "XL, 1, 1\n", j.steps);
      std::string log;
      ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu --energy-tolerance 0.9", &log), 0) << log;
      const double work = last_energy(dir + "/out", "thermal_work");
      std::printf("%s %s: thermal work %.9g, closed form %.9g\n", type, j.name, work, j.work);
      EXPECT_NEAR(work, j.work, 3e-3 * j.work);  // finite strain against the small-strain forms
    }
}

// Temperatures carried into an explicit step without change keep their thermal strain: the
// bar heated and held in an NLGEOM static step stays in that equilibrium (S11 = -E alpha
// dtheta to the finite-strain difference, as in the static step). (A free bar would carry no
// energy at all but round-off, which the explicit energy check reads as a drift.)
TEST(ThermalExplicit, CarriedTemperaturesKeepTheirThermalStrain) {
  for (const char* type : {"C3D8R", "C3D8"}) {
    SCOPED_TRACE(type);
    const std::string dir = scratch_dir(std::string("carried_held_") + type);
    std::ofstream(dir + "/bar.inp") << bar_deck(type, "XL, 1, 1\n", static_step(true) + explicit_after(""));
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
    const double expect = -kE * kAlpha * (kT1 - kT0);  // -120
    const std::vector<double> s = last_stress(dir + "/out");
    ASSERT_EQ(s.size(), 6u * kN);
    for (int e = 0; e < kN; ++e) EXPECT_NEAR(s[6 * e], expect, 2e-3 * std::fabs(expect)) << "S11 of element " << e + 1;
    std::printf("%s held bar after the explicit step: S11 %.9g (-E alpha dtheta %.9g)\n", type, s[0], expect);
    double u1, rf1;
    ASSERT_NO_FATAL_FAILURE(end_values(dir + "/out", u1, rf1));
    EXPECT_NEAR(rf1, expect, 2e-3 * std::fabs(expect));
  }
}

// OP=NEW takes the temperatures back to the initial ones: the free bar returns to its length.
TEST(ThermalStatic, OpNewReturnsToTheInitialTemperature) {
  const std::string dir = scratch_dir("opnew");
  const std::string second = "*STEP\n*STATIC\n0.5, 1.\n*TEMPERATURE, OP=NEW\n*END STEP\n";
  std::ofstream(dir + "/bar.inp") << bar_deck("C3D8", "", static_step(false)) + second;
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  double u1, rf1;
  ASSERT_NO_FATAL_FAILURE(end_values(dir + "/out", u1, rf1));
  EXPECT_NEAR(u1, 0.0, 1e-12);
}

TEST(ThermalInput, KindWithoutThermalStrainIsRefused) {
  const std::string dir = scratch_dir("cps4");
  std::ofstream(dir + "/plate.inp")
      << "*NODE\n1, 0, 0\n2, 1, 0\n3, 1, 1\n4, 0, 1\n*ELEMENT, TYPE=CPS4, ELSET=P\n1, 1, 2, 3, 4\n"
         "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*EXPANSION\n1e-5\n*SOLID SECTION, ELSET=P, MATERIAL=M\n1.\n"
         "*BOUNDARY\n1, 1, 2\n4, 1, 1\n*STEP\n*STATIC\n1., 1.\n*TEMPERATURE\n1, 10.\n*END STEP\n";
  std::string log;
  EXPECT_NE(run_halfstep(dir + "/plate.inp", dir + "/out", "--backend cpu", &log), 0);
  EXPECT_NE(log.find("plate.inp:22"), std::string::npos) << log;
  EXPECT_NE(log.find("CPS4 elements do not take thermal strain"), std::string::npos) << log;
}

}  // namespace
}  // namespace halfstep::test
