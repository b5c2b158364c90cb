// *MODAL DYNAMIC (issue 46): the modes of a *FREQUENCY step superposed, each mode's equation
// integrated exactly for loads linear over an increment. Against closed forms: the two-mass
// chain under a sudden force (both modes, undamped and with *MODAL DAMPING ratios, the second
// by RAYLEIGH's alpha and beta), the same chain under a force ramped over the step (exact at
// any increment), the kinetic and strain energies against the work; refusals with reasons.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "frequency_decks.hpp"
#include "run_util.hpp"

namespace halfstep::test {
namespace {

using namespace modes;

/// The chain's modal step (after its frequency step): force F on node 3 along x with the
/// lines `load_and_damping` in the step; U of node 3 every increment in history.
std::string chain_modal(double h, double period, const std::string& lines, int increments_allowed = 1000,
                        const std::string& parameters = "") {
  std::string deck = chain_deck();
  deck.insert(deck.find("*STEP"), "*NSET, NSET=TIP\n3\n");
  char step[512];
  std::snprintf(step, sizeof step,
                "*STEP, INC=%d\n*MODAL DYNAMIC%s\n%.17g, %.17g\n%s*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=TIP\nU, V\n"
                "*NODE PRINT, NSET=TIP\nU\n*END STEP\n",
                increments_allowed, parameters.c_str(), h, period, lines.c_str());
  return deck + step;
}

/// The chain's modal step under a force on node 3 ramped from 0 to `force` over 3 time units
/// by the amplitude UP (the step's period 3).
std::string ramped_chain(double h, double force, int increments_allowed = 1000, const std::string& parameters = "") {
  std::ostringstream load;
  load.precision(17);
  load << "*CLOAD, AMPLITUDE=UP\n3, 1, " << force << "\n";
  std::string deck = chain_modal(h, 3.0, load.str(), increments_allowed, parameters);
  deck.insert(deck.find("*STEP"), "*AMPLITUDE, NAME=UP\n0., 0., 3., 1.\n");
  return deck;
}

/// The chain's exact response at node 3 (x of the tip) to the force F(t) on it, in its two
/// modes (k and m of frequency_decks.hpp: K = k [[2, -1], [-1, 1]], M = m I): each mode's
/// Duhamel response to a step (ramp = false) or to F t / T (ramp = true), damping ratios zeta.
double chain_tip(double t, double force, bool ramp, double ramp_time, const double zeta[2]) {
  const double w2[2] = {kChainK / kChainM * (3 - std::sqrt(5.0)) / 2, kChainK / kChainM * (3 + std::sqrt(5.0)) / 2};
  double u = 0;
  for (int j = 0; j < 2; ++j) {
    // Mode shape (u2, u3) with k (2 u2 - u3) = w2 m u2: u3 = (2 - w2 m / k) u2.
    const double r = 2 - w2[j] * kChainM / kChainK;
    const double m = kChainM * (1 + r * r);  // modal mass of (1, r)
    const double p = force * r / m;           // modal force per unit modal mass (tip loaded)
    const double w = std::sqrt(w2[j]), z = zeta[j], wd = w * std::sqrt(1 - z * z);
    double q;
    if (!ramp) {
      q = p / w2[j] * (1 - std::exp(-z * w * t) * (std::cos(wd * t) + z / std::sqrt(1 - z * z) * std::sin(wd * t)));
    } else {  // undamped only: q'' + w2 q = p t / T
      q = p / (w2[j] * ramp_time) * (t - std::sin(w * t) / w);
    }
    u += r * q;
  }
  return u;
}

TEST(ModalDynamics, ChainUnderASuddenForceFollowsItsModes) {
  const double force = 2.0, period = 4 * 2 * kPi / std::sqrt(kChainK / kChainM), h = period / 400;
  struct Case {
    const char* name;
    std::string damping;
    double zeta[2];
  };
  const double w1 = std::sqrt(kChainK / kChainM * (3 - std::sqrt(5.0)) / 2);
  const double w2 = std::sqrt(kChainK / kChainM * (3 + std::sqrt(5.0)) / 2);
  const double alpha = 0.02 * w1, beta = 0.01 / w2;
  char rayleigh[160];
  std::snprintf(rayleigh, sizeof rayleigh, "*MODAL DAMPING, RAYLEIGH\n, , %.17g, %.17g\n", alpha, beta);
  const Case cases[] = {
      {"undamped", "", {0, 0}},
      {"ratios", "*MODAL DAMPING\n1, 1, 0.05\n2, 2, 0.1\n", {0.05, 0.1}},
      {"rayleigh", rayleigh, {alpha / (2 * w1) + beta * w1 / 2, alpha / (2 * w2) + beta * w2 / 2}},
  };
  for (const Case& c : cases) {
    char load[200];
    // Undamped: no amplitude (a modal step applies such a load at once, as the peer does).
    std::snprintf(load, sizeof load, c.zeta[0] == 0 ? "*CLOAD\n3, 1, %.17g\n" : "*CLOAD, AMPLITUDE=ON\n3, 1, %.17g\n",
                  force);
    std::string deck = chain_modal(h, period, std::string(load) + c.damping);
    deck.insert(deck.find("*STEP"), "*AMPLITUDE, NAME=ON\n0., 1., 1., 1.\n");
    const std::string dir = scratch_dir(std::string("modal_chain_") + c.name);
    std::ofstream(dir + "/chain.inp") << deck;
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/chain.inp", dir + "/out", "--backend cpu", &log), 0) << log;
    const Csv hist = read_csv(dir + "/out/history/TIP.csv");
    ASSERT_GE(hist.rows.size(), 400u) << c.name;
    // Step time: the frequency step leaves the analysis time at 0 (a perturbation).
    double worst = 0, peak = 0;
    for (const auto& row : hist.rows) {
      const double t = row[0], u = row[static_cast<std::size_t>(hist.col("U1"))];
      const double ref = chain_tip(t, force, false, 0, c.zeta);
      worst = std::max(worst, std::fabs(u - ref));
      peak = std::max(peak, std::fabs(ref));
    }
    std::printf("modal chain (%s): largest difference from the modal closed form %.3g of peak %.6g\n", c.name, worst,
                peak);
    EXPECT_GT(peak, force / kChainK);
    EXPECT_LT(worst, 1e-9 * peak) << c.name;
    const std::string summary = read_file(dir + "/out/summary.json");
    EXPECT_NE(summary.find("\"procedure\": \"modal dynamic\""), std::string::npos) << summary;
    EXPECT_NE(read_file(dir + "/out/chain.dat").find("displacements (vx,vy,vz) for set TIP"), std::string::npos);
  }
}

// A force ramped over the step by an amplitude: the exact piecewise-linear integration
// makes the answer independent of the increment (10 and 37 increments agree with the closed
// form to round-off); the energies balance the work.
TEST(ModalDynamics, RampedForceIsIntegratedExactlyAtAnyIncrement) {
  const double force = 1.5, period = 3.0;
  for (const int n : {10, 37}) {
    const std::string deck = ramped_chain(period / n, force);
    const std::string dir = scratch_dir("modal_ramp_" + std::to_string(n));
    std::ofstream(dir + "/chain.inp") << deck;
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/chain.inp", dir + "/out", "--backend cpu", &log), 0) << log;
    const Csv hist = read_csv(dir + "/out/history/TIP.csv");
    ASSERT_EQ(hist.rows.size(), static_cast<std::size_t>(n)) << n;  // a row per increment
    const double zeta[2] = {0, 0};
    double worst = 0;
    for (const auto& row : hist.rows)
      worst = std::max(worst, std::fabs(row[static_cast<std::size_t>(hist.col("U1"))] -
                                        chain_tip(row[0], force, true, period, zeta)));
    std::printf("modal chain, ramped force, %d increments: largest difference %.3g\n", n, worst);
    EXPECT_LT(worst, 1e-10 * force / kChainK);
    // Undamped: kinetic + strain energy = the work of the force (the energy history's total 0).
    const Csv e = read_csv(dir + "/out/energy.csv");
    const auto& last = e.rows.back();
    const double ke = last[static_cast<std::size_t>(e.col("kinetic"))], ie = last[static_cast<std::size_t>(e.col("internal"))],
                 wk = last[static_cast<std::size_t>(e.col("external_work"))];
    EXPECT_GT(wk, 0.0);
    EXPECT_NEAR(ke + ie, wk, 1e-10 * wk);  // the work integrated exactly too
  }
}

// DIRECT=NO (the peer's automatic increments): a force of 1 ramped over 3 time units, first
// increment 0.1, DELTMX 0.2. Each increment tries 1.5 times the last; the force changes by
// dt / 3, so 0.1, 0.15, 0.225, 0.3375, 0.50625 pass, 0.759375 (a change of 0.253) is shortened
// to 0.6, and so are the next tries (0.9), until the step's end cuts the last to 0.48125. The
// ramp is linear over every increment: the tip is the closed form's at each.
TEST(ModalDynamics, AutomaticIncrementsKeepTheForceChangeWithinDeltmx) {
  const double force = 1.0, period = 3.0;
  const std::string deck = ramped_chain(0.1, force, 1000, ", DIRECT=NO, DELTMX=0.2");
  const std::string dir = scratch_dir("modal_automatic");
  std::ofstream(dir + "/chain.inp") << deck;
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/chain.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const Csv hist = read_csv(dir + "/out/history/TIP.csv");
  const double expected[] = {0.1, 0.25, 0.475, 0.8125, 1.31875, 1.91875, 2.51875, 3.0};
  ASSERT_EQ(hist.rows.size(), std::size(expected));
  const double zeta[2] = {0, 0};
  for (std::size_t i = 0; i < hist.rows.size(); ++i) {
    const double t = hist.rows[i][0];
    EXPECT_NEAR(t, expected[i], 1e-12) << i;
    EXPECT_NEAR(hist.rows[i][static_cast<std::size_t>(hist.col("U1"))], chain_tip(t, force, true, period, zeta),
                1e-10 * force / kChainK)
        << t;
  }
  // The same increments need 8 increments: INC=5 stops the run before it starts.
  const std::pair<std::string, std::string> cases[] = {
      {ramped_chain(0.1, force, 5, ", DIRECT=NO, DELTMX=0.2"), "DIRECT=NO's increments need more than the *STEP's INC=5"},
      {ramped_chain(0.1, force, 100, ", DIRECT=NO"), "DIRECT=NO needs DELTMX="},
  };
  expect_refused(cases, "modal_automatic_refuse_");
}

// Two modal steps in a row: the second goes on with the first's motion (the peer's beamdy19),
// so the tip follows the one closed form across both (the load held on, applied at once).
TEST(ModalDynamics, ASecondModalStepGoesOnWithTheMotion) {
  const double force = 2.0, period = 2 * kPi / std::sqrt(kChainK / kChainM), h = period / 100;
  char second[400];
  std::snprintf(second, sizeof second,
                "*STEP, INC=1000\n*MODAL DYNAMIC\n%.17g, %.17g\n*CLOAD\n3, 1, %.17g\n*END STEP\n", h, period, force);
  const std::string deck = chain_modal(h, period, "*CLOAD\n3, 1, " + std::to_string(force) + "\n") + second;
  const std::string dir = scratch_dir("modal_two_steps");
  std::ofstream(dir + "/chain.inp") << deck;
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/chain.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const Csv hist = read_csv(dir + "/out/history/TIP.csv");
  ASSERT_EQ(hist.rows.size(), 200u);  // the history request of the first step goes on in the second
  const double zeta[2] = {0, 0};
  double worst = 0;
  for (const auto& row : hist.rows)
    worst = std::max(worst, std::fabs(row[static_cast<std::size_t>(hist.col("U1"))] - chain_tip(row[0], force, false, 0, zeta)));
  std::printf("modal chain over two steps: largest difference %.3g\n", worst);
  EXPECT_LT(worst, 1e-12);
}

TEST(ModalDynamics, RefusesWhatItCannotComputeWithTheReason) {
  const std::string no_frequency = [] {
    std::string d = chain_deck();
    d.erase(d.find("*STEP"));
    return d + "*STEP\n*MODAL DYNAMIC\n0.1, 1.\n*CLOAD\n3, 1, 1.\n*END STEP\n";
  }();
  const std::string base_motion = chain_modal(0.1, 1.0, "*BOUNDARY\n1, 1, 1, 0.01\n");
  const std::string damping_first = [] {
    std::string d = chain_deck();
    return d + "*STEP\n*MODAL DAMPING\n1, 2, 0.05\n*MODAL DYNAMIC\n0.1, 1.\n*END STEP\n";
  }();
  const std::pair<std::string, std::string> cases[] = {
      {no_frequency, "*MODAL DYNAMIC needs a *FREQUENCY step before it"},
      {base_motion, "prescribed motion in a *MODAL DYNAMIC step (base motion): not supported"},
      {damping_first, "*MODAL DAMPING belongs in a *MODAL DYNAMIC or *STEADY STATE DYNAMICS step"},
      {chain_modal(0.001, 1.0, "", 100), "more than its *STEP's INC=100"},
  };
  expect_refused(cases, "modal_refuse_");
}

}  // namespace
}  // namespace halfstep::test
