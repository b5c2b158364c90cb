// Contact in static steps (issue 44 item 1): two blocks pressed together through a contact
// pair carry the bar's uniform stress (closed forms: linear and St. Venant-Kirchhoff's finite
// uniaxial stress), from touching faces and across an initial gap, in linear and NLGEOM
// steps; the contact pressure, the pair's total force and the reactions agree with it.
// Friction: Coulomb's slip at mu times the normal force, and stick below it; EXPONENTIAL
// DECAY (rate-dependent) in a static step is refused by name. ADJUST= moves the slave face
// onto the master before the run.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "static_contact.hpp"

namespace halfstep::test {
namespace {

using namespace contact;

struct PressedCase {
  bool nlgeom;
  double gap;
};

class PressedBar : public ::testing::TestWithParam<PressedCase> {};

TEST_P(PressedBar, CarriesTheUniformStressThroughTheContact) {
  const PressedCase c = GetParam();
  const std::string name = std::string(c.nlgeom ? "pressed_nlgeom" : "pressed_linear") + (c.gap > 0 ? "_gap" : "");
  const std::string dir = scratch_dir(name);
  std::ofstream(dir + "/bar.inp") << pressed_bar(c.nlgeom, c.gap);
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const Csv end = read_csv(dir + "/out/history/B_N1.csv"), wall = read_csv(dir + "/out/history/A_N0.csv");
  const double push = ties::last_sum(end, "RF1"), held = ties::last_sum(wall, "RF1");
  const std::string frame = dir + "/out/" + pvd_frames(dir + "/out/bar.pvd").back().second;
  const std::vector<double> s = read_vtu_array(frame, "S"), p = read_vtu_array(frame, "CPRESS");
  const Csv pair = read_csv(dir + "/out/history/contact.csv");
  const double cfn1 = pair.rows.back()[static_cast<std::size_t>(pair.col("CFN1"))];
  ASSERT_EQ(s.size(), 6u * (8 + 64));
  // Closed forms. Linear: sigma = -E kPress. NLGEOM, St. Venant-Kirchhoff in uniaxial stress
  // at the stretch l = 1 - kPress: S11 = E E11 with E11 = (l^2 - 1) / 2 (the lateral strains
  // are -nu E11), the force per reference area l S11, the Cauchy stress l S11 / lt^2 with
  // lt^2 = 1 - 2 nu E11. CPRESS is the force over the facets' reference area (the nominal one).
  const double l = 1 - kPress, e11 = 0.5 * (l * l - 1), s11 = ties::kE * e11;
  const double nominal = c.nlgeom ? l * s11 : -ties::kE * kPress;
  const double sigma = c.nlgeom ? l * s11 / (1 - 2 * ties::kNu * e11) : nominal;
  double lo = 1e300, hi = -1e300;
  for (std::size_t e = 0; e < s.size() / 6; ++e) lo = std::min(lo, s[6 * e]), hi = std::max(hi, s[6 * e]);
  double p_lo = 1e300, p_hi = 0;
  int pressed = 0;
  for (double v : p)
    if (v > 0) p_lo = std::min(p_lo, v), p_hi = std::max(p_hi, v), ++pressed;
  std::printf("%s: end force %.12g, wall %.12g, pair CFN1 %.12g, S11 in [%.12g, %.12g], CPRESS in [%.12g, %.12g] at %d "
              "nodes; closed form: force %.12g, S11 %.12g\n", name.c_str(), push, held, cfn1, lo, hi, p_lo, p_hi, pressed,
              nominal, sigma);
  // A's face (9 nodes) and B's (25) press. The penetration the augmented Lagrangian leaves is
  // kContactAugmentTolerance of the bare penalty's: 6e-8 of the force (measured).
  EXPECT_EQ(pressed, 9 + 25);
  const double tol = 1e-6 * std::fabs(sigma);
  EXPECT_NEAR(push, nominal, tol);
  EXPECT_NEAR(held, -nominal, tol);
  EXPECT_NEAR(cfn1, -nominal, tol);  // the force on B's slaves, along +x
  EXPECT_NEAR(lo, sigma, tol);
  EXPECT_NEAR(hi, sigma, tol);
  EXPECT_NEAR(p_lo, -nominal, tol);
  EXPECT_NEAR(p_hi, -nominal, tol);
}

INSTANTIATE_TEST_SUITE_P(Steps, PressedBar,
                         ::testing::Values(PressedCase{false, 0.0}, PressedCase{true, 0.0}, PressedCase{false, 5e-4},
                                           PressedCase{true, 5e-4}),
                         [](const ::testing::TestParamInfo<PressedCase>& i) {
                           return std::string(i.param.nlgeom ? "Nlgeom" : "Linear") + (i.param.gap > 0 ? "Gap" : "Touching");
                         });

// A C3D20R cube (over [0, 1]) and a 2 x 2 x 2 block of C3D8 (over [1, 2]) pressed together
// through a contact pair with a softened law (LINEAR, slope kSlope), the quadratic face (four
// corner triangles and the mid-edge nodes' quadrilateral) the master or the slave; hard
// contact is refused on such faces (its corner nodes chatter: tests/bad_input). Node-to-facet
// contact loads the 8-node face with nodal forces, not the consistent -1/12, 1/3 shares of a
// uniform pressure, so the single quadratic cube does not carry a uniform stress and the bar
// is softer than E: measured 0.878 (master) and 0.728 (slave) of the uniform bar's force,
// against 0.995 that the law's own compliance allows. Equilibrium is exact: the end force, the
// held force and the pair's CFN1 agree.
class QuadraticFaceContact : public ::testing::TestWithParam<bool> {};

TEST_P(QuadraticFaceContact, CarriesThePushThroughTheQuadraticFace) {
  const bool quadratic_master = GetParam();
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\na C3D20R cube pressed against C3D8\n";
  ties::hex20_cube(d, "Q", 1, 1, 0.0);
  ties::block(d, "C3D8", "B", 1001, 1001, 2, 2, 1.0, 2.0, 1.0);
  d << "*NSET, NSET=Q_X0\n1, 4, 5, 8, 12, 16, 17, 20\n*NSET, NSET=Q_Y0\n1, 2, 5, 6, 9, 13, 17, 18\n"
    << "*NSET, NSET=Q_Z0\n1, 2, 3, 4, 9, 10, 11, 12\n"
    << "*SURFACE, NAME=QFACE\n1, S4\n*SURFACE, NAME=BFACE\nB_X0, S6\n*SURFACE INTERACTION, NAME=SI\n"
    << "*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=LINEAR\n1e5\n"
    << "*CONTACT PAIR, INTERACTION=SI\n" << (quadratic_master ? "BFACE, QFACE" : "QFACE, BFACE") << "\n"
    << "*MATERIAL, NAME=M\n*ELASTIC\n" << ties::kE << ", " << ties::kNu << "\n*SOLID SECTION, ELSET=Q, MATERIAL=M\n"
    << "*SOLID SECTION, ELSET=B, MATERIAL=M\n*BOUNDARY\nQ_X0, 1, 1\nQ_Y0, 2, 2\nQ_Z0, 3, 3\nB_Y0, 2, 2\nB_Z0, 3, 3\n"
    << "*STEP\n*STATIC\n0.25, 1.\n*BOUNDARY\nB_N1, 1, 1, " << -2 * kPress
    << "\n*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=B_N1\nU, RF\n*NODE OUTPUT, NSET=Q_X0\nRF\n*END STEP\n";
  const std::string dir = scratch_dir(quadratic_master ? "quadratic_master" : "quadratic_slave");
  std::ofstream(dir + "/bar.inp") << d.str();
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const double push = ties::last_sum(read_csv(dir + "/out/history/B_N1.csv"), "RF1");
  const double held = ties::last_sum(read_csv(dir + "/out/history/Q_X0.csv"), "RF1");
  const Csv pair = read_csv(dir + "/out/history/contact.csv");
  const double cfn1 = pair.rows.back()[static_cast<std::size_t>(pair.col("CFN1"))];
  const double nominal = -ties::kE * kPress;
  std::printf("C3D20R face as %s: end force %.12g, wall %.12g, pair CFN1 %.12g; uniform bar %.12g (%.3g %%)\n",
              quadratic_master ? "master" : "slave", push, held, cfn1, nominal, 100 * (push / nominal - 1));
  // Equilibrium to Newton's tolerance (the contact tangent leaves out the smoothed normal's
  // variation: 1e-5 of the force, measured 1.2e-5 and 3e-6).
  EXPECT_NEAR(push, -held, 1e-6 * std::fabs(nominal));
  EXPECT_NEAR(std::fabs(cfn1), std::fabs(push), 3e-5 * std::fabs(nominal));  // on whichever side is the slave
  EXPECT_NEAR(push, (quadratic_master ? 0.878 : 0.728) * nominal, 0.005 * std::fabs(nominal));
}

INSTANTIATE_TEST_SUITE_P(Sides, QuadraticFaceContact, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "Master" : "Slave"; });

class SoftenedSlope : public ::testing::TestWithParam<double> {};

TEST_P(SoftenedSlope, LawCarriesItsClosedFormPressure) {
  // PRESSURE-OVERCLOSURE=LINEAR with slope k: the bar's shortening d = 2 kPress is shared by
  // the blocks and the overclosure h = p / k, so sigma = -d / (L / E + 1 / k) with L = 2.
  // k = 1e8 is 1e5 E, far stiffer than the hard penalty: a static step takes the deck's law
  // uncapped (capped at the hard spring, as the explicit pass must, the force came out 1.6 %
  // low: an overclosure of 3.2e-5 against the law's 1e-8).
  const double k = GetParam();
  const std::string dir = scratch_dir(k > 1e4 ? "pressed_softened_stiff" : "pressed_softened");
  char law[96];
  std::snprintf(law, sizeof law, "*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=LINEAR\n%.17g\n", k);
  std::ofstream(dir + "/bar.inp") << pressed_bar(false, 0.0, law);
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const double push = ties::last_sum(read_csv(dir + "/out/history/B_N1.csv"), "RF1");
  const std::string frame = dir + "/out/" + pvd_frames(dir + "/out/bar.pvd").back().second;
  const std::vector<double> p = read_vtu_array(frame, "CPRESS");
  const double sigma = -2 * kPress / (2 / ties::kE + 1 / k);
  double p_lo = 1e300, p_hi = 0;
  for (double v : p)
    if (v > 0) p_lo = std::min(p_lo, v), p_hi = std::max(p_hi, v);
  std::printf("softened k %g: end force %.12g, CPRESS in [%.12g, %.12g], closed form %.12g\n", k, push, p_lo, p_hi,
              sigma);
  // The law is the physics here (no augmentation): exact but for Newton's last correction,
  // which the stiff law's nodal pressures magnify (1.4e-8 of sigma apart, measured).
  EXPECT_NEAR(push, sigma, 1e-9 * std::fabs(sigma));
  const double p_tol = (k > 1e4 ? 1e-7 : 1e-9) * std::fabs(sigma);
  EXPECT_NEAR(p_lo, -sigma, p_tol);
  EXPECT_NEAR(p_hi, -sigma, p_tol);
}

INSTANTIATE_TEST_SUITE_P(StaticContact, SoftenedSlope, ::testing::Values(1000.0, 1e8),
                         [](const ::testing::TestParamInfo<double>& i) { return i.param > 1e4 ? "Stiff" : "Soft"; });

// *CONTACT PAIR, ADJUST=: B's face starts gap = 5e-4 from A's and its far end is pushed by
// 2 kPress only. Adjusted (a distance above the gap, or B's face nodes as a node set), the
// face nodes start on A's facets, strain-free, so the bar of length 2 + gap carries the uniform
// stress -E 2 kPress / (2 + gap) at once; with a distance below the gap nothing moves and the
// gap closes first: -E (2 kPress - gap) / 2.
TEST(StaticContact, AdjustMovesTheSlaveFaceOntoTheMaster) {
  const double gap = 5e-4;
  const struct {
    const char* name;
    const char* adjust;
    double stress;
  } cases[3] = {{"distance", "1e-3", -ties::kE * 2 * kPress / (2 + gap)},
                {"set", "B_N0", -ties::kE * 2 * kPress / (2 + gap)},
                {"short", "1e-4", -ties::kE * (2 * kPress - gap) / 2}};
  for (const auto& c : cases) {
    std::string deck = pressed_bar(false, gap);
    const std::string pair = "*CONTACT PAIR, INTERACTION=SI\n", push = "B_N1, 1, 1, ";
    const std::size_t at = deck.find(pair), p = deck.find(push);
    ASSERT_NE(at, std::string::npos);
    ASSERT_NE(p, std::string::npos);
    deck.replace(p + push.size(), deck.find('\n', p) - p - push.size(), std::to_string(-2 * kPress));
    deck.insert(at + pair.size() - 1, std::string(", ADJUST=") + c.adjust);
    const std::string dir = scratch_dir(std::string("adjust_") + c.name);
    std::ofstream(dir + "/bar.inp") << deck;
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
    const double force = ties::last_sum(read_csv(dir + "/out/history/B_N1.csv"), "RF1");
    std::printf("ADJUST=%s: end force %.12g, closed form %.12g\n", c.adjust, force, c.stress);
    EXPECT_NEAR(force, c.stress, 1e-6 * std::fabs(c.stress)) << c.name;
  }
}

// A node set that does not exist names the pair's line.
TEST(StaticContact, AdjustToAMissingNodeSetIsRefused) {
  std::string deck = pressed_bar(false, 5e-4);
  const std::string pair = "*CONTACT PAIR, INTERACTION=SI\n";
  deck.insert(deck.find(pair) + pair.size() - 1, ", ADJUST=NOSUCHSET");
  const std::string dir = scratch_dir("adjust_missing_set");
  std::ofstream(dir + "/bar.inp") << deck;
  std::string log;
  EXPECT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 2) << log;
  EXPECT_NE(log.find("ADJUST=NOSUCHSET: no node set of that name"), std::string::npos) << log;
  EXPECT_NE(log.find("bar.inp:"), std::string::npos) << log;
}

TEST(StaticContact, ReleasedBarLeavesNoForce) {
  // A second static step pulls B's end back past where it started: the contact opens (the
  // augmented Lagrangian's multipliers start each attempt from zero, so releasing records do
  // not chatter), and no force is left anywhere.
  const std::string dir = scratch_dir("pressed_released");
  std::string deck = pressed_bar(true, 0.0);
  deck += "*STEP, NLGEOM=YES\n*STATIC\n0.25, 1.\n*BOUNDARY\nB_N1, 1, 1, 1e-3\n*END STEP\n";
  std::ofstream(dir + "/bar.inp") << deck;
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const Csv end = read_csv(dir + "/out/history/B_N1.csv");
  const Csv pair = read_csv(dir + "/out/history/contact.csv");
  const std::string frame = dir + "/out/" + pvd_frames(dir + "/out/bar.pvd").back().second;
  const std::vector<double> p = read_vtu_array(frame, "CPRESS");
  // B unloads to no stress but for what Newton's checks leave (4.4e-7 of the pressing force).
  EXPECT_NEAR(ties::last_sum(end, "RF1"), 0.0, 1e-5);
  EXPECT_EQ(pair.rows.back()[static_cast<std::size_t>(pair.col("CFN1"))], 0.0);
  EXPECT_EQ(*std::max_element(p.begin(), p.end()), 0.0);
}

TEST(StaticContact, FrictionSlipsAtMuTimesThePush) {
  // Sheared far past what the stick allows (the stuck bars would carry about 1.8, mu N is 0.43),
  // every slave node slips: the contact's shear is mu times its normal force, and B's held
  // end carries it (with the y share of the normal forces on A's deformed, tilted face: 1e-4
  // of the push, measured).
  constexpr double mu = 0.3, shift = 0.02, shift_stick = 2e-4;
  const std::string dir = scratch_dir("sheared_slip");
  std::ofstream(dir + "/bar.inp") << sheared_bar(mu, shift);
  std::ofstream(dir + "/stick.inp") << sheared_bar(mu, shift_stick);
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  ASSERT_EQ(run_halfstep(dir + "/stick.inp", dir + "/stick", "--backend cpu", &log), 0) << log;
  const Csv end = read_csv(dir + "/out/history/B_N1.csv");
  const Csv pair = read_csv(dir + "/out/history/contact.csv");
  const double rf1 = ties::last_sum(end, "RF1"), rf2 = ties::last_sum(end, "RF2");
  const double cfn1 = pair.rows.back()[static_cast<std::size_t>(pair.col("CFN1"))];
  const double cfs2 = pair.rows.back()[static_cast<std::size_t>(pair.col("CFS2"))];
  const Csv energy = read_csv(dir + "/out/energy.csv");
  const double dissipated = energy.rows.back()[static_cast<std::size_t>(energy.col("friction_dissipation"))];
  // The slip is the shift less the bars' elastic shear at the slip force, whose stiffness the
  // stuck shift gives: the dissipation is mu N times it.
  const double stiffness = ties::last_sum(read_csv(dir + "/stick/history/B_N1.csv"), "RF2") / shift_stick;
  const double expected = mu * cfn1 * (shift - mu * cfn1 / stiffness);
  std::printf("sheared, slipping: end RF1 %.12g RF2 %.12g (ratio %.12g), pair CFN1 %.12g CFS2 %.12g; friction "
              "dissipation %.12g against %.12g (stuck stiffness %.6g)\n", rf1, rf2, rf2 / rf1, cfn1, cfs2, dissipated,
              expected, stiffness);
  ASSERT_LT(rf1, -0.5);  // pressed: B's end pushes back along -x
  EXPECT_NEAR(-cfs2, mu * cfn1, 1e-4 * cfn1);  // the limit's normal force settles to 1e-4 (static_contact.hpp)
  EXPECT_NEAR(cfn1, -rf1, 1e-3 * cfn1);
  EXPECT_NEAR(rf2, -mu * rf1, 1e-3 * cfn1);
  EXPECT_NEAR(dissipated, expected, 0.01 * expected);  // measured 0.3 %
}

TEST(StaticContact, FrictionSticksBelowMuTimesThePush) {
  // A shift whose shear is about 0.4 of mu N: no node slips. The stick is elastic (Abaqus's
  // default: the limit is reached at an elastic slip of 0.5 % of the facets' size,
  // here 0.5 x 0.005 = 2.5e-3): across the contact, B's face moves on A's by less than that.
  constexpr double mu = 0.3, shift = 2e-3, elastic_slip = 0.005 * 0.5;
  const std::string dir = scratch_dir("sheared_stick");
  std::ofstream(dir + "/bar.inp") << sheared_bar(mu, shift);
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const Csv end = read_csv(dir + "/out/history/B_N1.csv");
  const double rf1 = ties::last_sum(end, "RF1"), rf2 = ties::last_sum(end, "RF2");
  // The shear's own slip: step 2's change of B's slave nodes' y displacement (its x = 1 face)
  // less that of A's nodes they started on (A's node (2, j + 1, k + 1)), in the vtu's node
  // order (A's 75, then B's 27). (Pressing in step 1 slides B's face outward on A's by the
  // difference of their lateral expansions, about 1e-4.)
  const auto frames = pvd_frames(dir + "/out/bar.pvd");
  const std::vector<double> u = read_vtu_array(dir + "/out/" + frames.back().second, "U");
  std::vector<double> u1;
  for (const auto& f : frames)
    if (std::fabs(f.first - 1.0) < 1e-9) u1 = read_vtu_array(dir + "/out/" + f.second, "U");
  ASSERT_EQ(u1.size(), u.size());
  double jump = 0;
  for (int k = 0; k <= 2; ++k)
    for (int j = 0; j <= 2; ++j) {
      const std::size_t a = static_cast<std::size_t>(((k + 1) * 5 + j + 1) * 3 + 2);
      const std::size_t b = static_cast<std::size_t>(75 + (k * 3 + j) * 3);
      jump = std::max(jump, std::fabs((u[3 * a + 1] - u1[3 * a + 1]) - (u[3 * b + 1] - u1[3 * b + 1])));
    }
  std::printf("sheared, sticking: end RF1 %.12g RF2 %.12g (ratio %.3g), largest slip across the contact %.3g (%.3g of "
              "the elastic slip at the limit)\n", rf1, rf2, rf2 / rf1, jump, jump / elastic_slip);
  EXPECT_GT(std::fabs(rf2), 0.25 * mu * std::fabs(rf1));
  EXPECT_LT(std::fabs(rf2), 0.6 * mu * std::fabs(rf1));
  EXPECT_LT(jump, elastic_slip);
}

TEST(StaticContact, FrictionDecaySlipsAtTheCoefficientOfItsSlipRate) {
  // *FRICTION, EXPONENTIAL DECAY (mu_s 0.3, mu_k 0.2, dc 50) in a static step: B slides on A at
  // the shift's rate, 0.02 per unit step time, so the slip rate is 0.02 (Abaqus/Standard's:
  // the increment's slip over its step time) and mu = 0.2 + 0.1 exp(-1) = 0.23679, not 0.3
  // (measured 0.236853: the normal force the limit holds settles to 1e-4, static_contact.hpp).
  constexpr double shift = 0.02, mu_s = 0.3, mu_k = 0.2, dc = 50;
  const double mu = mu_k + (mu_s - mu_k) * std::exp(-dc * shift);
  const std::string dir = scratch_dir("sheared_decay");
  std::ostringstream friction;
  friction << "*FRICTION, EXPONENTIAL DECAY\n" << mu_s << ", " << mu_k << ", " << dc << "\n";
  std::ofstream(dir + "/bar.inp") << sheared_bar(mu_s, shift, friction.str());
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const Csv pair = read_csv(dir + "/out/history/contact.csv");
  const double cfn1 = pair.rows.back()[static_cast<std::size_t>(pair.col("CFN1"))];
  const double cfs2 = pair.rows.back()[static_cast<std::size_t>(pair.col("CFS2"))];
  std::printf("sheared with decay: CFN1 %.12g CFS2 %.12g, ratio %.9g against mu(0.02) = %.9g\n", cfn1, cfs2,
              -cfs2 / cfn1, mu);
  EXPECT_NEAR(-cfs2, mu * cfn1, 1e-3 * cfn1);
}

}  // namespace
}  // namespace halfstep::test
