// Implicit dynamics, *DYNAMIC without EXPLICIT (issue 46 item 1): Hilber-Hughes-Taylor on the
// static step's Newton iterations. A mass on a spring under a suddenly applied force against
// the method's own discrete solution for the chosen alpha (its amplitude decay and period
// error follow from it) and against the exact (F/k)(1 - cos wt) as the increment shrinks;
// the motion goes on into an explicit step; *DAMPING, ALPHA and BETA against their closed forms.
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

constexpr double kPi = 3.14159265358979323846;
constexpr double kM = 2.0, kK = 8.0 * kPi * kPi, kF = 3.0;  // omega = 2 pi: a period of 1

/// The deck: a unit mass on a grounded spring, the force F from t = 0 (an amplitude, so the
/// static procedure's ramp does not apply), HHT with alpha, fixed increments h over `period`;
/// `after` is appended after the step (a later step).
std::string oscillator(double alpha, double h, double period, const std::string& after = "") {
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\nmass on a spring\n*NODE, NSET=TIP\n1, 0., 0., 0.\n*ELEMENT, TYPE=SPRING1, ELSET=K\n1, 1\n"
    << "*SPRING, ELSET=K\n1\n" << kK << "\n*ELEMENT, TYPE=MASS, ELSET=PM\n2, 1\n*MASS, ELSET=PM\n" << kM
    << "\n*AMPLITUDE, NAME=ON\n0., 1., 1000., 1.\n*BOUNDARY\n1, 2, 3\n*STEP\n*DYNAMIC, ALPHA=" << alpha
    << ", DIRECT\n" << h << ", " << period << "\n*CLOAD, AMPLITUDE=ON\n1, 1, " << kF
    << "\n*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=TIP\nU, V\n*END STEP\n" << after;
  return d.str();
}

/// HHT on m a + k u = F from rest, as its definition reads: (m / (beta h^2) + (1 + alpha) k)
/// u1 = F + alpha k u0 + m / (beta h^2) (u0 + h v0 + h^2 (1/2 - beta) a0), then Newmark's
/// rules; a0 = F / m. Returns u at each increment's end.
std::vector<double> hht_solution(double alpha, double h, int n) {
  const double beta = (1 - alpha) * (1 - alpha) / 4, gamma = 0.5 - alpha;
  double u = 0, v = 0, a = kF / kM;
  std::vector<double> out;
  for (int i = 0; i < n; ++i) {
    const double c = kM / (beta * h * h);
    const double u1 = (kF + alpha * kK * u + c * (u + h * v + h * h * (0.5 - beta) * a)) / (c + (1 + alpha) * kK);
    const double a1 = c * (u1 - u - h * v - h * h * (0.5 - beta) * a) / kM;
    v += h * ((1 - gamma) * a + gamma * a1);
    u = u1;
    a = a1;
    out.push_back(u);
  }
  return out;
}

/// The U1 (or V1) rows of the history, in time order.
std::vector<std::pair<double, double>> series(const Csv& h, const std::string& col) {
  std::vector<std::pair<double, double>> out;
  for (const auto& row : h.rows) out.emplace_back(row[0], row[static_cast<std::size_t>(h.col(col))]);
  return out;
}

// alpha = 0 (the trapezoidal rule: no decay) and -0.3 (HHT's strongest damping), 20
// increments per period over 3 periods: the run follows the method's discrete solution to
// round-off (so its decay and period error are the method's); the trapezoidal rule's third
// peak is the exact 2 F / k to the sampling of the peak, alpha = -0.3's lower.
TEST(ImplicitDynamics, SpringMassFollowsHilberHughesTaylor) {
  double trapezoid_peak = 0;
  for (double alpha : {0.0, -0.3}) {
    SCOPED_TRACE(alpha);
    const double h = 0.05;
    const std::string dir = scratch_dir(alpha == 0 ? "hht_alpha0" : "hht_alpha03");
    std::ofstream(dir + "/osc.inp") << oscillator(alpha, h, 3.0);
    std::string log;
    ASSERT_EQ(run_command(std::string(HALFSTEP_BINARY) + " check " + dir + "/osc.inp", &log), 0) << log;
    EXPECT_NE(log.find(alpha == 0 ? "implicit dynamic (HHT alpha 0) (NLGEOM=NO)" : "implicit dynamic (HHT alpha -0.3)"),
              std::string::npos)
        << log;
    ASSERT_EQ(run_halfstep(dir + "/osc.inp", dir + "/out", "--backend cpu", &log), 0) << log;
    const auto u = series(read_csv(dir + "/out/history/TIP.csv"), "U1");
    const std::vector<double> ref = hht_solution(alpha, h, 60);
    ASSERT_GE(u.size(), 61u);
    double worst = 0, peak_last = 0;
    for (int i = 1; i <= 60; ++i) {
      worst = std::max(worst, std::fabs(u[static_cast<std::size_t>(i)].second - ref[static_cast<std::size_t>(i - 1)]));
      if (i > 40) peak_last = std::max(peak_last, u[static_cast<std::size_t>(i)].second);
    }
    const double ust = kF / kK;
    std::printf("HHT alpha %g: largest difference from the discrete solution %.3g (u_static %.6g); third peak %.6g "
                "of the exact 2F/k %.6g\n",
                alpha, worst, ust, peak_last, 2 * ust);
    EXPECT_LT(worst, 1e-9 * ust);
    if (alpha == 0) {
      EXPECT_NEAR(peak_last, 2 * ust, 0.02 * ust) << "the trapezoidal rule keeps the amplitude";
      trapezoid_peak = peak_last;
    } else {
      EXPECT_LT(peak_last, trapezoid_peak) << "HHT's alpha damps the oscillation";
    }
  }
}

// Convergence to (F / k)(1 - cos 2 pi t): halving h from T/20 to T/80 cuts the largest error
// over one period by about 16 (second order).
TEST(ImplicitDynamics, ConvergesToTheExactResponseAtSecondOrder) {
  double err[2] = {0, 0};
  const double hs[2] = {0.05, 0.0125};
  for (int r = 0; r < 2; ++r) {
    const std::string dir = scratch_dir("hht_converge_" + std::to_string(r));
    std::ofstream(dir + "/osc.inp") << oscillator(-0.05, hs[r], 1.0);
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/osc.inp", dir + "/out", "--backend cpu", &log), 0) << log;
    for (const auto& [t, u] : series(read_csv(dir + "/out/history/TIP.csv"), "U1"))
      err[r] = std::max(err[r], std::fabs(u - kF / kK * (1 - std::cos(2 * kPi * t))));
  }
  std::printf("HHT alpha -0.05: largest error %.4g (h = T/20), %.4g (h = T/80), ratio %.3g\n", err[0], err[1],
              err[0] / err[1]);
  EXPECT_GT(err[0] / err[1], 12.0);
  EXPECT_LT(err[1], 0.01 * kF / kK);
}

// An explicit step after the implicit one goes on with its velocity: the oscillation's
// energy (strain plus kinetic) is the same just before and after the change of scheme.
TEST(ImplicitDynamics, AnExplicitStepGoesOnWithTheMotion) {
  const std::string after =
      "*STEP\n*DYNAMIC, EXPLICIT, DIRECT USER CONTROL\n0.001, 0.25\n*CLOAD, AMPLITUDE=ON\n1, 1, 3.\n*OUTPUT, HISTORY\n"
      "*NODE OUTPUT, NSET=TIP\nU, V\n*END STEP\n";
  const std::string dir = scratch_dir("hht_then_explicit");
  std::ofstream(dir + "/osc.inp") << oscillator(0.0, 0.01, 0.3, after);
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/osc.inp", dir + "/out", "--backend cpu --energy-tolerance 0.05", &log), 0) << log;
  const Csv h = read_csv(dir + "/out/history/TIP.csv");
  const auto u = series(h, "U1"), v = series(h, "V1");
  // Energy about the loaded equilibrium F/k: k (u - F/k)^2 / 2 + m v^2 / 2 = k (F/k)^2 / 2.
  const double ust = kF / kK, e0 = 0.5 * kK * ust * ust;
  double worst = 0;
  for (std::size_t i = 0; i < u.size(); ++i)
    if (u[i].first > 0.3 + 0.02)  // in the explicit step
      worst = std::max(worst, std::fabs(0.5 * kK * (u[i].second - ust) * (u[i].second - ust) +
                                        0.5 * kM * v[i].second * v[i].second - e0));
  std::printf("implicit then explicit: largest energy difference %.3g of %.6g\n", worst, e0);
  EXPECT_LT(worst, 0.01 * e0);
  EXPECT_GT(u.back().first, 0.5);
}

// A free brick moving at v0 with *DAMPING, ALPHA = a (no support: its inertia holds it): the
// rigid motion's velocity decays as v0 exp(-a t), approached at second order in h.
TEST(ImplicitDynamics, MassProportionalDampingSlowsAFreeBody) {
  const double a = 50.0, v0 = 2.0, period = 0.02;
  double err[2] = {0, 0};
  for (int r = 0; r < 2; ++r) {
    const double h = r == 0 ? 1e-3 : 2.5e-4;
    std::ostringstream d;
    d.precision(17);
    d << "*NODE, NSET=ALL\n1, 0., 0., 0.\n2, 1., 0., 0.\n3, 1., 1., 0.\n4, 0., 1., 0.\n5, 0., 0., 1.\n6, 1., 0., 1.\n"
      << "7, 1., 1., 1.\n8, 0., 1., 1.\n*ELEMENT, TYPE=C3D8R, ELSET=B\n1, 1, 2, 3, 4, 5, 6, 7, 8\n*MATERIAL, NAME=M\n"
      << "*ELASTIC\n1000., 0.3\n*DENSITY\n1e-3\n*DAMPING, ALPHA=" << a << "\n*SOLID SECTION, ELSET=B, MATERIAL=M\n"
      << "*INITIAL CONDITIONS, TYPE=VELOCITY\nALL, 1, " << v0 << "\n*STEP, INC=1000\n*DYNAMIC, DIRECT\n" << h << ", "
      << period << "\n*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=ALL\nV\n*END STEP\n";
    const std::string dir = scratch_dir("hht_damped_" + std::to_string(r));
    std::ofstream(dir + "/b.inp") << d.str();
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/b.inp", dir + "/out", "--backend cpu", &log), 0) << log;
    const Csv c = read_csv(dir + "/out/history/ALL.csv");
    ASSERT_FALSE(c.rows.empty());
    for (const auto& row : c.rows)
      err[r] = std::max(err[r], std::fabs(row[static_cast<std::size_t>(c.col("V1"))] - v0 * std::exp(-a * row[0])));
    const double v_end = c.rows.back()[static_cast<std::size_t>(c.col("V1"))];
    std::printf("damped free brick, h %g: v(%g) %.9g, v0 exp(-a t) %.9g; largest error %.3g\n", h, period, v_end,
                v0 * std::exp(-a * period), err[r]);
  }
  EXPECT_LT(err[0], 2e-3 * v0);
  EXPECT_GT(err[0] / err[1], 12.0) << "second order";
}

// The simply supported S4R plate of the frequency tests under a uniform pressure applied at
// once, HHT with alpha = 0 and 40 increments per period of mode (1,1), over one period: the
// centre's deflection against Navier's modal series sum W_mn (1 - cos w_mn t) (m, n odd),
// with the MITC4 nodes' physical rotary inertia.
TEST(ImplicitDynamics, PlateUnderASuddenPressureFollowsNaviersSeries) {
  using namespace modes;
  const double q0 = 1000.0, base = plate_navier_base(), period = 2 * kPi / (2 * base), h = period / 40;
  std::string deck = plate_deck();
  char step[400];
  std::snprintf(step, sizeof step,
                "*NSET, NSET=MID\n221\n*AMPLITUDE, NAME=ON\n0., 1., 10., 1.\n*STEP, INC=1000\n*DYNAMIC, ALPHA=0., "
                "DIRECT\n%.17g, %.17g\n*DLOAD, AMPLITUDE=ON\nP, P, %.17g\n*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=MID\n"
                "U\n*END STEP\n",
                h, period, -q0);  // Abaqus's shell P acts along the normal (+z): -q0 pushes down
  deck = deck.substr(0, deck.find("*STEP")) + step;
  const std::string dir = scratch_dir("hht_plate");
  std::ofstream(dir + "/plate.inp") << deck;
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/plate.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const auto w = series(read_csv(dir + "/out/history/MID.csv"), "U3");
  ASSERT_GE(w.size(), 40u);
  const double D = kPlateE * std::pow(kPlateT, 3) / (12 * (1 - kPlateNu * kPlateNu));
  const auto navier = [&](double time) {
    double sum = 0;
    for (int m = 1; m < 60; m += 2)
      for (int n = 1; n < 60; n += 2) {
        const double k2 = (m * m + n * n) / (kPlateA * kPlateA);
        const double W = 16 * q0 / (std::pow(kPi, 6) * D * m * n * k2 * k2);
        const double sign = (((m - 1) / 2 + (n - 1) / 2) % 2) ? -1.0 : 1.0;
        sum += sign * W * (1 - std::cos((m * m + n * n) * base * time));
      }
    return sum;
  };
  double worst = 0, peak = 0;
  for (const auto& [time, u] : w) {
    const double ref = navier(time);
    peak = std::max(peak, std::fabs(ref));
    worst = std::max(worst, std::fabs(std::fabs(u) - std::fabs(ref)));
  }
  std::printf("plate under a sudden pressure: largest difference from Navier's series %.4g of its peak %.6g (%.3g %%)\n",
              worst, peak, 100 * worst / peak);
  EXPECT_LT(worst, 0.04 * peak);  // measured 2.58 %
}

// Quadratic solids swing with their consistent mass, as the frequency step sees them: a
// C3D20 cantilever (8 x 1 x 1, one element through the section) bent by a tip load in a
// static step, released in an HHT step (alpha = 0, about 200 increments per period, 10
// periods), then a frequency step. The tip's zero crossings give the period, which must be
// the frequency step's first one (its mass consistent): measured 3.2e-4 apart, against 8.2e-3
// with the lumped mass the dynamic step had before (alpha = 0's own period error at this
// increment is (omega h)^2 / 12 = 8e-5).
TEST(ImplicitDynamics, QuadraticSolidsSwingWithTheirConsistentMass) {
  const std::string dir = scratch_dir("hht_consistent");
  const std::string mesh = read_file(generate_solid_deck(
      dir, "bar", "bar --element C3D20 --nx 8 --ny 1 --nz 1 --length 8 --loading bend --static 1 --static-linear"));
  std::string deck = mesh.substr(0, mesh.find("*STEP"));
  deck += "*NSET, NSET=TIPN\n36\n*STEP\n*STATIC\n*BOUNDARY\nX0, 1, 3\n*CLOAD\nXL, 2, -0.001\n*END STEP\n"
          "*STEP, INC=5000\n*DYNAMIC, ALPHA=0., DIRECT\n0.0625, 130.\n*CLOAD, OP=NEW\n*OUTPUT, HISTORY\n"
          "*NODE OUTPUT, NSET=TIPN\nU\n*END STEP\n*STEP\n*FREQUENCY\n1\n*END STEP\n";
  ASSERT_NE(mesh.find("\n36, 8, 1, 1\n"), std::string::npos) << "node 36 is the tip corner (8, 1, 1)";
  std::ofstream(dir + "/c.inp") << deck;
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/c.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  std::vector<double> zero;
  const auto u = series(read_csv(dir + "/out/history/TIPN.csv"), "U2");
  for (std::size_t i = 1; i < u.size(); ++i)
    if (u[i - 1].second * u[i].second < 0)
      zero.push_back(u[i - 1].first + (u[i].first - u[i - 1].first) * u[i - 1].second / (u[i - 1].second - u[i].second));
  ASSERT_GE(zero.size(), 21u);
  const std::vector<double> lambda = modes::summary_eigenvalues(read_file(dir + "/out/summary.json"));
  ASSERT_FALSE(lambda.empty());
  const double period = 2 * kPi / std::sqrt(lambda[0]), swung = (zero[20] - zero[0]) / 10;
  std::printf("C3D20 cantilever: HHT period %.7g, frequency step's %.7g, ratio - 1 = %.3g\n", swung, period,
              swung / period - 1);
  EXPECT_NEAR(swung / period, 1.0, 1e-3);
}

// What an implicit dynamic step cannot take yet, with the reason: beams (their rotary inertia
// is the explicit scheme's); and a material without density in a dynamic step.
/// The mass of `oscillator` on a T3D2 bar of stiffness E A / L = kK along x instead of a spring,
/// its material damped by *DAMPING, BETA = beta (c = beta k); the bar's own mass negligible.
std::string damped_bar(double alpha, double beta, double h, double period) {
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\nmass on a damped bar\n*NODE\n1, 0., 0., 0.\n*NODE, NSET=TIP\n2, 1., 0., 0.\n"
    << "*ELEMENT, TYPE=T3D2, ELSET=BAR\n1, 1, 2\n*MATERIAL, NAME=M\n*ELASTIC\n" << kK << ", 0.\n*DENSITY\n1e-15\n"
    << "*DAMPING, BETA=" << beta << "\n*SOLID SECTION, ELSET=BAR, MATERIAL=M\n1.\n*ELEMENT, TYPE=MASS, ELSET=PM\n2, 2\n"
    << "*MASS, ELSET=PM\n" << kM << "\n*AMPLITUDE, NAME=ON\n0., 1., 1000., 1.\n*BOUNDARY\n1, 1, 3\n2, 2, 3\n*STEP\n"
    << "*DYNAMIC, ALPHA=" << alpha << ", DIRECT\n" << h << ", " << period << "\n*CLOAD, AMPLITUDE=ON\n2, 1, " << kF
    << "\n*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=TIP\nU, V\n*END STEP\n";
  return d.str();
}

/// HHT on m a + c v + k u = F from rest, as its definition reads: m a1 + (1 + alpha)(c v1 +
/// k u1) - alpha (c v0 + k u0) = F with Newmark's rules for a1 and v1 in u1. Returns u at
/// each increment's end.
std::vector<double> damped_hht_solution(double alpha, double c, double h, int n) {
  const double beta = (1 - alpha) * (1 - alpha) / 4, gamma = 0.5 - alpha;
  double u = 0, v = 0, a = kF / kM;
  std::vector<double> out;
  for (int i = 0; i < n; ++i) {
    const double p = u + h * v + h * h * (0.5 - beta) * a, vp = v + h * (1 - gamma) * a;
    const double g = gamma / (beta * h);  // v1 = vp + g (u1 - p)
    const double u1 = (kF + alpha * (c * v + kK * u) + kM * p / (beta * h * h) - (1 + alpha) * c * (vp - g * p)) /
                      (kM / (beta * h * h) + (1 + alpha) * (c * g + kK));
    const double a1 = (u1 - p) / (beta * h * h);
    v = vp + g * (u1 - p);
    u = u1;
    a = a1;
    out.push_back(u);
  }
  return out;
}

// *DAMPING, BETA on the bar that holds the mass: 5 % of critical damping at omega = 2 pi
// (beta = 2 zeta / omega). With alpha 0 and -0.3 and 20 increments per period the run follows
// the method's discrete solution to round-off; at 80 increments per period, alpha -0.05, the
// exact step response F/k (1 - e^(-zeta w t) (cos w_d t + zeta / sqrt(1 - zeta^2) sin w_d t)).
TEST(ImplicitDynamics, StiffnessProportionalDampingFollowsHilberHughesTaylor) {
  const double zeta = 0.05, w = 2 * kPi, beta_r = 2 * zeta / w, c = beta_r * kK, ust = kF / kK;
  for (double alpha : {0.0, -0.3}) {
    SCOPED_TRACE(alpha);
    const double h = 0.05;
    const std::string dir = scratch_dir(alpha == 0 ? "hht_beta_alpha0" : "hht_beta_alpha03");
    std::ofstream(dir + "/bar.inp") << damped_bar(alpha, beta_r, h, 3.0);
    std::string log;
    ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
    const auto u = series(read_csv(dir + "/out/history/TIP.csv"), "U1");
    const std::vector<double> ref = damped_hht_solution(alpha, c, h, 60), undamped = hht_solution(alpha, h, 60);
    ASSERT_GE(u.size(), 61u);
    double worst = 0, effect = 0;
    for (int i = 1; i <= 60; ++i) {
      worst = std::max(worst, std::fabs(u[static_cast<std::size_t>(i)].second - ref[static_cast<std::size_t>(i - 1)]));
      effect = std::max(effect, std::fabs(ref[static_cast<std::size_t>(i - 1)] - undamped[static_cast<std::size_t>(i - 1)]));
    }
    std::printf("HHT alpha %g, beta damping: largest difference from the discrete solution %.3g; the damping's own "
                "effect %.3g (u_static %.6g)\n",
                alpha, worst, effect, ust);
    EXPECT_LT(worst, 1e-9 * ust);
    EXPECT_GT(effect, 0.1 * ust) << "the damping changes the motion";
  }
  const double h = 1.0 / 80, wd = w * std::sqrt(1 - zeta * zeta);
  const std::string dir = scratch_dir("hht_beta_exact");
  std::ofstream(dir + "/bar.inp") << damped_bar(-0.05, beta_r, h, 1.0);
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  double err = 0;
  for (const auto& [t, u] : series(read_csv(dir + "/out/history/TIP.csv"), "U1"))
    err = std::max(err, std::fabs(u - ust * (1 - std::exp(-zeta * w * t) *
                                                  (std::cos(wd * t) + zeta / std::sqrt(1 - zeta * zeta) * std::sin(wd * t)))));
  std::printf("beta damping, h = T/80: largest error from the exact step response %.4g (u_static %.6g)\n", err, ust);
  EXPECT_LT(err, 0.004 * ust);
}

TEST(ImplicitDynamics, RefusesWhatItCannotComputeWithTheReason) {
  const std::string shell =
      "*NODE\n1, 0., 0., 0.\n2, 1., 0., 0.\n3, 1., 1., 0.\n4, 0., 1., 0.\n*ELEMENT, TYPE=S4R, ELSET=P\n1, 1, 2, 3, 4\n"
      "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*DENSITY\n1e-3\n*SHELL SECTION, ELSET=P, MATERIAL=M\n0.1\n"
      "*BOUNDARY\n1, 1, 6\n2, 1, 6\n*STEP\n*DYNAMIC\n0.1, 1.\n*END STEP\n";
  const std::string beam =
      "*NODE\n1, 0., 0., 0.\n2, 1., 0., 0.\n*ELEMENT, TYPE=B31, ELSET=B\n1, 1, 2\n*MATERIAL, NAME=M\n*ELASTIC\n1000., "
      "0.3\n*DENSITY\n1e-3\n*BEAM SECTION, ELSET=B, MATERIAL=M, SECTION=RECT\n0.1, 0.1\n0., 0., -1.\n*BOUNDARY\n1, 1, 6\n"
      "*STEP\n*DYNAMIC\n0.1, 1.\n*END STEP\n";
  std::string no_density = shell;
  no_density.erase(no_density.find("*DENSITY"), std::string("*DENSITY\n1e-3\n").size());
  std::string damped_shell = shell;
  damped_shell.insert(damped_shell.find("*SHELL SECTION"), "*DAMPING, BETA=1e-4\n");
  std::string damped_explicit = damped_bar(0.0, 1e-3, 0.05, 1.0);
  damped_explicit.replace(damped_explicit.find("*DYNAMIC, ALPHA=0, DIRECT"), std::string("*DYNAMIC, ALPHA=0, DIRECT").size(),
                          "*DYNAMIC, EXPLICIT");
  const std::pair<std::string, std::string> cases[] = {
      {beam, "is not *STATIC or *DYNAMIC, EXPLICIT: beams run in explicit dynamic steps and *STATIC steps only"},
      {no_density, "has no *DENSITY (dynamic steps need the mass)"},
      {damped_shell, "*DAMPING, BETA of material 'M' (stiffness-proportional damping) on elements of a *SHELL SECTION: "
                     "not supported yet"},
      {damped_explicit, "the explicit scheme does not take it yet (implicit *DYNAMIC steps do)"},
  };
  expect_refused(cases, "hht_refuse_");
}

}  // namespace
}  // namespace halfstep::test
