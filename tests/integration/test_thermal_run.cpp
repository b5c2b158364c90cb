// Thermal loads in runs (issue 45 item 2): a bar heated by dtheta from its initial temperature
// grows by alpha dtheta L when free and carries -E alpha dtheta when its ends are held, in
// linear and nonlinear static steps; the temperature goes back with OP=NEW; carried into an
// explicit step the thermal strain stays; a kind without thermal strain and an explicit step
// that changes temperatures are refused.
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

// Explicit steps refuse temperature changes for now (their energy balance would call the
// stored thermal strain energy an instability), naming the *TEMPERATURE line.
TEST(ThermalInput, ExplicitStepIsRefused) {
  const std::string dir = scratch_dir("explicit");
  std::string amp;
  const std::string step = slow_heating_step(amp);
  std::ofstream(dir + "/bar.inp") << amp + bar_deck("C3D8R", "", step);
  std::string log;
  EXPECT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 2) << log;
  EXPECT_NE(log.find("bar.inp:55: error: step 'Step-1' is explicit and changes the temperatures"), std::string::npos)
      << log;
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

// An explicit step that changes carried temperatures (OP=NEW back to the initial ones) would
// release the thermal strain at once: refused at its *STEP.
TEST(ThermalInput, ExplicitStepChangingCarriedTemperaturesIsRefused) {
  const std::string dir = scratch_dir("explicit_op_new");
  std::ofstream(dir + "/bar.inp") << bar_deck("C3D8R", "", static_step(false) + explicit_after("*TEMPERATURE, OP=NEW\n"));
  std::string log;
  EXPECT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 2) << log;
  EXPECT_NE(log.find("is explicit and changes the temperatures"), std::string::npos) << log;
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
