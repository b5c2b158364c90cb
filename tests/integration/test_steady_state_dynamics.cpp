// *STEADY STATE DYNAMICS (issue 46): the harmonic response on the modes of a *FREQUENCY step.
// Against closed forms: the two-mass chain (both modes kept, so the modal sum is exact) under a
// complex tip force and under a base motion, each with Rayleigh damping, against the direct
// complex solve (K - omega^2 M + i omega C) u = f; its support reaction; the excitation
// frequencies against the peer's documented rule and its printed points; refusals.
#include <cmath>
#include <complex>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "frequency_decks.hpp"
#include "run_util.hpp"
#include "solver/modal_dynamics.hpp"

namespace halfstep::test {
namespace {

using namespace modes;
using Complex = std::complex<double>;

/// A printed node table: its kind ("displacements", "forces"), time, and rows node -> 3 values.
struct PrintedTable {
  std::string kind;
  double time = 0;
  std::vector<std::pair<int, std::vector<double>>> rows;
};

/// The node tables of a .dat in file order.
std::vector<PrintedTable> node_tables(const std::string& dat) {
  std::vector<PrintedTable> out;
  std::istringstream in(dat);
  std::string line;
  PrintedTable* cur = nullptr;
  while (std::getline(in, line)) {
    const std::size_t t = line.find(" and time ");
    if (t != std::string::npos && (line.find("displacements") != std::string::npos ||
                                   line.find("forces") != std::string::npos)) {
      out.push_back({line.find("forces") != std::string::npos ? "forces" : "displacements",
                     std::stod(line.substr(t + 10)), {}});
      cur = &out.back();
      continue;
    }
    std::istringstream row(line);
    int node = 0;
    double a = 0, b = 0, c = 0;
    if (cur && (row >> node >> a >> b >> c)) cur->rows.push_back({node, {a, b, c}});
    else if (cur && !line.empty() && line.find_first_not_of(' ') != std::string::npos) cur = nullptr;
  }
  return out;
}

/// The chain (K = k [[2, -1], [-1, 1]] on nodes 2, 3, M = m I, node 1 the support) at circular
/// frequency w with C = alpha M + beta K: u2, u3 for tip force F (complex) and support motion
/// ub (u1 = ub), and the support's reaction R1 = (1 + i w beta) k (u1 - u2).
struct ChainResponse {
  Complex u2, u3, r1;
};
ChainResponse chain_exact(double w, double alpha, double beta, Complex force, double ub) {
  const double k = kChainK, m = kChainM;
  const Complex kd = k * Complex(1, w * beta), md = m * Complex(-w * w, w * alpha);
  // [[2 kd + md, -kd], [-kd, kd + md]] (u2, u3) = (kd ub, F)
  const Complex a11 = 2.0 * kd + md, a12 = -kd, a22 = kd + md;
  const Complex b1 = kd * ub, b2 = force;
  const Complex det = a11 * a22 - a12 * a12;
  ChainResponse r;
  r.u2 = (b1 * a22 - a12 * b2) / det;
  r.u3 = (a11 * b2 - a12 * b1) / det;
  r.r1 = kd * (Complex(ub, 0) - r.u2);
  return r;
}

/// The chain's deck with a steady-state step over [f0, f1] (n points, bias 1) whose lines are
/// `lines`; prints U and RF of every node.
std::string chain_steady(double f0, double f1, int n, const std::string& lines) {
  std::ostringstream d;
  d.precision(17);
  d << chain_deck() << "*STEP\n*STEADY STATE DYNAMICS\n" << f0 << ", " << f1 << ", " << n << ", 1.\n"
    << lines << "*NODE PRINT, NSET=ALL\nU, RF\n*END STEP\n";
  return d.str();
}

/// Runs the deck and compares each point's real and imaginary U of nodes 2, 3 and RF of node 1
/// with the direct solve; returns the frequencies the run printed.
std::vector<double> check_chain(const std::string& name, const std::string& deck, double alpha, double beta,
                                Complex force, double ub, const std::vector<double>& exact_freqs) {
  const std::string dir = scratch_dir("steady_" + name);
  std::ofstream(dir + "/chain.inp") << deck;
  std::string log;
  EXPECT_EQ(run_halfstep(dir + "/chain.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const std::string dat = read_file(dir + "/out/chain.dat");
  std::vector<PrintedTable> all = node_tables(dat), u, rf;
  for (const PrintedTable& t : all)
    if (t.rows.size() == 3) (t.kind == "displacements" ? u : rf).push_back(t);
  // The frequency step prints its two mode shapes first (times 1 and 2: a perturbation's
  // frames count modes); the steady-state step two tables (real, imaginary) per frequency.
  std::vector<double> freqs;
  double worst = 0, scale = 0;
  for (std::size_t i = 2; i + 1 < u.size(); i += 2) {
    // The closed form at the exact frequency: the printed one has 7 digits, and near a
    // resonance the response is steep in it.
    const std::size_t point = (i - 2) / 2;
    EXPECT_LT(point, exact_freqs.size());
    if (point >= exact_freqs.size()) break;
    const double f = exact_freqs[point];
    EXPECT_NEAR(u[i].time, f, 1e-6 * f);
    EXPECT_EQ(u[i + 1].time, u[i].time);
    freqs.push_back(u[i].time);
    const ChainResponse e = chain_exact(2 * kPi * f, alpha, beta, force, ub);
    const Complex got2(u[i].rows[1].second[0], u[i + 1].rows[1].second[0]);
    const Complex got3(u[i].rows[2].second[0], u[i + 1].rows[2].second[0]);
    const std::size_t ri = i - 2;  // RF tables come only from the steady-state step (the modes print U)
    EXPECT_LT(ri + 1, rf.size());
    if (ri + 1 >= rf.size()) break;
    const Complex got_r(rf[ri].rows[0].second[0], rf[ri + 1].rows[0].second[0]);
    worst = std::max({worst, std::abs(got2 - e.u2) / std::abs(e.u2), std::abs(got3 - e.u3) / std::abs(e.u3),
                      std::abs(got_r - e.r1) / std::abs(e.r1)});
    scale = std::max(scale, std::abs(e.u3));
  }
  std::printf("steady state chain (%s): %zu frequencies, largest relative difference from the direct solve %.3g\n",
              name.c_str(), freqs.size(), worst);
  // The .dat prints 7 digits.
  EXPECT_LT(worst, 2e-6) << name;
  EXPECT_GT(scale, 0.0);
  EXPECT_NE(dat.find("P A R T I C I P A T I O N   F A C T O R S   F O R   F R E Q U E N C Y"), std::string::npos);
  const std::string summary = read_file(dir + "/out/summary.json");
  EXPECT_NE(summary.find("\"procedure\": \"steady state dynamics\""), std::string::npos) << summary;
  return freqs;
}

const double kW1 = std::sqrt(kChainK / kChainM * (3 - std::sqrt(5.0)) / 2);
const double kW2 = std::sqrt(kChainK / kChainM * (3 + std::sqrt(5.0)) / 2);

TEST(SteadyStateDynamics, ChainUnderAComplexTipForceMatchesTheDirectSolve) {
  const double alpha = 0.3, beta = 0.002, f0 = 0.2, f1 = 3.0;
  std::ostringstream lines;
  lines.precision(17);
  lines << "*MODAL DAMPING, RAYLEIGH\n, , " << alpha << ", " << beta << "\n*CLOAD\n3, 1, 2.5\n*CLOAD, LOAD CASE=2\n"
        << "3, 1, -1.25\n";
  // Both eigenfrequencies lie in the range: 3 points in each of its 3 intervals, ends shared,
  // evenly spaced for bias 1.
  const double e1 = kW1 / (2 * kPi), e2 = kW2 / (2 * kPi);
  const std::vector<double> expect{f0, (f0 + e1) / 2, e1, (e1 + e2) / 2, e2, (e2 + f1) / 2, f1};
  const std::vector<double> freqs =
      check_chain("force", chain_steady(f0, f1, 3, lines.str()), alpha, beta, Complex(2.5, -1.25), 0.0, expect);
  EXPECT_EQ(freqs.size(), 7u);
}

TEST(SteadyStateDynamics, ChainUnderABaseMotionMatchesTheDirectSolve) {
  // The support moves 0.01 along x at every frequency; mass-proportional damping acts on the
  // absolute velocity, stiffness-proportional on the springs' stretching.
  const double alpha = 0.5, beta = 0.001;
  std::ostringstream lines;
  lines.precision(17);
  lines << "*MODAL DAMPING, RAYLEIGH\n, , " << alpha << ", " << beta << "\n*BOUNDARY\n1, 1, 1, 0.01\n";
  const std::vector<double> expect = steady_state_frequencies(0.1, 2.5, 4, 1.0, {kW1 / (2 * kPi), kW2 / (2 * kPi)});
  EXPECT_EQ(expect.size(), 10u);
  EXPECT_EQ(check_chain("base", chain_steady(0.1, 2.5, 4, lines.str()), alpha, beta, Complex(0, 0), 0.01, expect).size(),
            expect.size());
}

// A perturbation of the base state: a bar heated in an earlier static step (free to expand
// along its axis, *EXPANSION) answers a tip load with the unheated bar's amplitudes; the
// base's thermal forces load neither the steady-state step's displacements nor its reactions.
TEST(SteadyStateDynamics, TheBaseStatesTemperaturesLoadNothing) {
  const auto deck = [](bool heated) {
    std::ostringstream d;
    d << "*NODE, NSET=ALL\n";
    int n = 0;
    for (int i = 0; i < 5; ++i)
      for (const auto& yz : {std::pair<int, int>{0, 0}, {1, 0}, {1, 1}, {0, 1}})
        d << ++n << ", " << i << ", " << yz.first << ", " << yz.second << "\n";
    d << "*ELEMENT, TYPE=C3D8, ELSET=B\n";
    for (int e = 0; e < 4; ++e) {
      d << e + 1;
      for (int k = 1; k <= 8; ++k) d << ", " << 4 * e + k;
      d << "\n";
    }
    d << "*NSET, NSET=FIX\n1, 2, 3, 4\n*NSET, NSET=TIP\n17, 18, 19, 20\n*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n"
      << "*DENSITY\n1.\n*EXPANSION\n1e-3\n*SOLID SECTION, ELSET=B, MATERIAL=M\n*INITIAL CONDITIONS, TYPE=TEMPERATURE\n"
      << "ALL, 0.\n*BOUNDARY\nFIX, 1, 3\n*STEP\n*STATIC\n" << (heated ? "*TEMPERATURE\nALL, 50.\n" : "")
      << "*END STEP\n*STEP\n*FREQUENCY\n6\n*END STEP\n*STEP\n*STEADY STATE DYNAMICS\n0.5, 2., 4, 1.\n*MODAL DAMPING\n"
      << "1, 6, 0.02\n*CLOAD\nTIP, 2, 0.1\n*NODE PRINT, NSET=TIP\nU\n*NODE PRINT, NSET=FIX\nRF\n*END STEP\n";
    return d.str();
  };
  std::vector<PrintedTable> tables[2];
  for (int heated = 0; heated < 2; ++heated) {
    const std::string dir = scratch_dir(heated ? "steady_heated" : "steady_cold");
    std::ofstream(dir + "/bar.inp") << deck(heated != 0);
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
    tables[heated] = node_tables(read_file(dir + "/out/bar.dat"));
  }
  ASSERT_EQ(tables[0].size(), tables[1].size());
  ASSERT_GT(tables[0].size(), 8u);
  double largest = 0;
  for (std::size_t t = 0; t < tables[0].size(); ++t) {
    ASSERT_EQ(tables[0][t].rows.size(), tables[1][t].rows.size());
    for (std::size_t r = 0; r < tables[0][t].rows.size(); ++r)
      for (int c = 0; c < 3; ++c) {
        const double a = tables[0][t].rows[r].second[c], b = tables[1][t].rows[r].second[c];
        largest = std::max(largest, std::fabs(a));
        EXPECT_NEAR(b, a, 1e-6 * std::fabs(a) + 1e-12) << "table " << t << " row " << r;
      }
  }
  EXPECT_GT(largest, 0.0);
}

// The peer's rule, read from its manual: the bounds and the eigenfrequencies inside fix the
// intervals, each takes n points, gathered about both of its ends by the bias. Its own printed
// points for a cantilever (range 12000 to 14000, 5 points, default bias 3, one eigenfrequency
// 13096.03105766 inside) and the manual's example (2 to 4, 3 points, bias 1: 2, 3, 4).
TEST(SteadyStateDynamics, FrequencyPointsFollowThePeersRule) {
  const std::vector<double> got = steady_state_frequencies(12000, 14000, 5, 3, {13096.03105766, 19319.52});
  const double peer[] = {12000,          12113.05531535, 12548.01552883, 12982.97574231, 13096.03105766,
                         13189.27521633, 13548.01552883, 13906.75584133, 14000};
  ASSERT_EQ(got.size(), 9u);
  for (std::size_t i = 0; i < 9; ++i) EXPECT_NEAR(got[i], peer[i], 1e-9 * peer[i]) << i;
  const std::vector<double> even = steady_state_frequencies(2, 4, 3, 1, {});
  ASSERT_EQ(even.size(), 3u);
  EXPECT_DOUBLE_EQ(even[1], 3.0);
  EXPECT_EQ(steady_state_frequencies(5, 5, 20, 3, {}).size(), 1u);
}

TEST(SteadyStateDynamics, RefusesWhatItCannotRun) {
  struct Case {
    const char* name;
    std::string deck;
    const char* message;
  };
  const Case cases[] = {
      {"no_frequency_step",
       chain_deck().substr(0, chain_deck().find("*STEP")) + "*STEP\n*STEADY STATE DYNAMICS\n1., 2.\n*CLOAD\n3, 1, 1.\n*END STEP\n",
       "needs a *FREQUENCY step before it"},
      {"undamped_resonance", chain_steady(0.2, 3.0, 3, "*CLOAD\n3, 1, 1.\n"), "has no damping: the response is unbounded"},
      {"harmonic_no", chain_deck() + "*STEP\n*STEADY STATE DYNAMICS, HARMONIC=NO\n1., 2., 3, 1., 11, 0., 0.5\n*END STEP\n",
       "HARMONIC=NO"},
      {"load_case_outside", chain_deck() + "*STEP\n*STATIC\n*CLOAD, LOAD CASE=2\n3, 1, 1.\n*END STEP\n",
       "LOAD CASE=2 (the imaginary part of a harmonic load) belongs in a *STEADY STATE DYNAMICS step"},
  };
  for (const Case& c : cases) {
    const std::string dir = scratch_dir(std::string("steady_refuse_") + c.name);
    std::ofstream(dir + "/chain.inp") << c.deck;
    std::string log;
    const int rc = run_halfstep(dir + "/chain.inp", dir + "/out", "--backend cpu", &log);
    EXPECT_NE(rc, 0) << c.name;
    EXPECT_NE(log.find(c.message), std::string::npos) << c.name << ": " << log;
    EXPECT_EQ(log.find("completed"), std::string::npos) << c.name << ": " << log;
  }
}

}  // namespace
}  // namespace halfstep::test
