// Bulk viscosity in runs (issue 45 item 3). A bar of C3D8R in uniaxial strain ringing in its
// highest mode (neighbouring nodes moving against each other, omega = 2 c / h) is damped by
// Abaqus's default linear bulk viscosity at b1 = 0.06 of critical: its amplitude falls as
// exp(-b1 omega t) and it rings at omega sqrt(1 - b1^2); with *BULK VISCOSITY 0, 0 it rings
// undamped, as before bulk viscosity existed. A bar hitting a wall dissipates energy in the
// shock, booked as viscous_dissipation, and the balance holds.
#include <cmath>
#include <sstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

// E 1000, nu 0.3, rho 1: P-wave modulus M = 1346.15, c = 36.690, h = 1: omega = 2 c / h.
const double kModulus = 1000.0 * 0.7 / (1.3 * 0.4);
const double kOmega = 2.0 * std::sqrt(kModulus);

/// A bar of n unit C3D8R cubes along x, every node held in y and z (uniaxial strain), node
/// sets EVEN and ODD by the x layer, END (x = 0) and WALL (x = n). step: the step's lines.
std::string bar_deck(int n, const std::string& initial, const std::string& step) {
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\nbulk viscosity bar\n*NODE\n";
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j < 4; ++j) d << 4 * i + j + 1 << ", " << i << ", " << (j == 1 || j == 2) << ", " << (j >= 2) << "\n";
  d << "*ELEMENT, TYPE=C3D8R, ELSET=BAR\n";
  for (int i = 0; i < n; ++i) {
    const int a = 4 * i + 1, b = 4 * (i + 1) + 1;
    // Bottom face (z = 0): (x_i, 0), (x_i+1, 0), (x_i+1, 1), (x_i, 1); then the top face.
    d << i + 1 << ", " << a << ", " << b << ", " << b + 1 << ", " << a + 1 << ", " << a + 3 << ", " << b + 3 << ", "
      << b + 2 << ", " << a + 2 << "\n";
  }
  d << "*NSET, NSET=ALL, GENERATE\n1, " << 4 * (n + 1) << ", 1\n";
  for (const char* set : {"EVEN", "ODD"}) {
    d << "*NSET, NSET=" << set << "\n";
    for (int i = set[0] == 'E' ? 0 : 1; i <= n; i += 2)
      for (int j = 0; j < 4; ++j) d << 4 * i + j + 1 << (j == 3 ? "\n" : ", ");
  }
  d << "*NSET, NSET=END\n1, 2, 3, 4\n*NSET, NSET=WALL\n" << 4 * n + 1 << ", " << 4 * n + 2 << ", " << 4 * n + 3
    << ", " << 4 * n + 4 << "\n";
  d << "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*DENSITY\n1.\n*SOLID SECTION, ELSET=BAR, MATERIAL=M\n"
    << "*BOUNDARY\nALL, 2, 3\n" << initial << "*STEP\n" << step << "*END STEP\n";
  return d.str();
}

/// The ringing bar: 10 elements, EVEN nodes at +v0 and ODD at -v0 (v0 / c = 3e-7, so the
/// quadratic term is 1e-5 of the linear one), 6 periods at a fixed T / 400.
std::string ringing_deck(const std::string& bulk) {
  const double period = 2 * M_PI / kOmega, v0 = 1e-5;
  std::ostringstream s;
  s.precision(17);
  s << "*DYNAMIC, EXPLICIT, DIRECT USER CONTROL\n" << period / 400 << ", " << 6 * period << "\n"
    << bulk << "*OUTPUT, HISTORY, TIME INTERVAL=" << period / 80 << "\n*NODE OUTPUT, NSET=END\nU\n";
  std::ostringstream ic;
  ic.precision(17);
  ic << "*INITIAL CONDITIONS, TYPE=VELOCITY\nEVEN, 1, " << v0 << "\nODD, 1, " << -v0 << "\n";
  return bar_deck(10, ic.str(), s.str());
}

/// (time, U1) of node 1's history rows.
std::vector<std::pair<double, double>> end_history(const std::string& out) {
  const Csv csv = read_csv(out + "/history/END.csv");
  std::vector<std::pair<double, double>> h;
  const int node = csv.col("node");
  for (const auto& row : csv.rows)
    if (node < 0 || row[static_cast<std::size_t>(node)] == 1) h.emplace_back(row[0], row[csv.col("U1")]);
  return h;
}

/// The local extrema of |u| (parabola through each peak sample and its neighbours).
std::vector<std::pair<double, double>> peaks(const std::vector<std::pair<double, double>>& h) {
  std::vector<std::pair<double, double>> p;
  for (std::size_t k = 1; k + 1 < h.size(); ++k) {
    const double a = std::fabs(h[k - 1].second), b = std::fabs(h[k].second), c = std::fabs(h[k + 1].second);
    if (b >= a && b > c) {
      const double dt = h[k + 1].first - h[k].first, curv = a - 2 * b + c, shift = 0.5 * (a - c) / curv;
      p.emplace_back(h[k].first + shift * dt, b - 0.25 * (a - c) * shift);
    }
  }
  return p;
}

/// Runs the ringing bar with `bulk` (keyword lines or nothing) in dir on the CPU; p: the
/// peaks of its end's U1, at least 10.
void run_ringing(const std::string& dir, const std::string& bulk, std::vector<std::pair<double, double>>& p) {
  std::ofstream(dir + "/bar.inp") << ringing_deck(bulk);
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &out), 0) << out;
  p = peaks(end_history(dir + "/out"));
  ASSERT_GE(p.size(), 10u);
}

TEST(BulkViscosityRun, DefaultLinearTermDampsTheHighestModeAsAbaqusPredicts) {
  const std::string dir = scratch_dir("ringing");
  std::vector<std::pair<double, double>> p;
  ASSERT_NO_FATAL_FAILURE(run_ringing(dir, "", p));
  // Least-squares slope of ln |u| over the peaks: -zeta omega; the half-periods between
  // peaks: pi / (omega sqrt(1 - zeta^2)).
  double st = 0, sl = 0, stt = 0, stl = 0;
  for (const auto& [t, a] : p) {
    st += t, sl += std::log(a), stt += t * t, stl += t * std::log(a);
  }
  const double n = static_cast<double>(p.size());
  const double zeta = -(n * stl - st * sl) / (n * stt - st * st) / kOmega;
  const double half = (p.back().first - p.front().first) / (n - 1);
  const double omega_d = M_PI / half;
  std::printf("highest mode: damping %.5f of critical (b1 0.06), frequency %.5f (Abaqus's omega sqrt(1 - b1^2) %.5f)\n",
              zeta, omega_d, kOmega * std::sqrt(1 - 0.06 * 0.06));
  EXPECT_NEAR(zeta, 0.06, 3e-4);
  EXPECT_NEAR(omega_d, kOmega * std::sqrt(1 - 0.06 * 0.06), 1e-3 * kOmega);
  const Csv energy = read_csv(dir + "/out/energy.csv");
  const double first = energy.rows.front()[energy.col("total")], last = energy.rows.back()[energy.col("total")];
  EXPECT_NEAR(last, first, 1e-3 * first);  // what the kinetic energy lost went into viscous_dissipation
  EXPECT_GT(energy.rows.back()[energy.col("viscous_dissipation")], 0.9 * first);
}

TEST(BulkViscosityRun, ZeroCoefficientsRingUndamped) {
  const std::string dir = scratch_dir("undamped");
  std::vector<std::pair<double, double>> p;
  ASSERT_NO_FATAL_FAILURE(run_ringing(dir, "*BULK VISCOSITY\n0., 0.\n", p));
  // The central difference scheme's undamped amplitude v0 / omega_h, sin(omega_h dt / 2) =
  // omega dt / 2, on every peak (the parabola through three samples 1/80 period apart).
  const double period = 2 * M_PI / kOmega, dt = period / 400;
  const double omega_h = 2 / dt * std::asin(kOmega * dt / 2);
  for (const auto& [t, a] : p) EXPECT_NEAR(a, 1e-5 / omega_h, 2e-3 * 1e-5 / omega_h) << "at " << t;
  const Csv energy = read_csv(dir + "/out/energy.csv");
  for (const auto& row : energy.rows) EXPECT_EQ(row[energy.col("viscous_dissipation")], 0.0);
}

// The bar at v = -0.05 c hits a wall (WALL held in x): behind the front the quadratic term
// acts, and the energy the shock dissipates is booked, so the balance holds.
TEST(BulkViscosityRun, ImpactDissipationIsBookedInTheBalance) {
  const std::string dir = scratch_dir("impact");
  const double c = std::sqrt(kModulus), v = 0.05 * c;
  std::ostringstream ic, step;
  ic << "*BOUNDARY\nWALL, 1, 1\n*NSET, NSET=MOVING, GENERATE\n1, 80, 1\n*INITIAL CONDITIONS, TYPE=VELOCITY\nMOVING, 1, "
     << v << "\n";
  step << "*DYNAMIC, EXPLICIT\n, " << 30.0 / c << "\n";
  std::ofstream(dir + "/bar.inp") << bar_deck(20, ic.str(), step.str());
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/bar.inp", dir + "/out", "--backend cpu", &out), 0) << out;
  const Csv energy = read_csv(dir + "/out/energy.csv");
  const double kinetic0 = energy.rows.front()[energy.col("kinetic")];
  const double viscous = energy.rows.back()[energy.col("viscous_dissipation")];
  std::printf("impact: viscous dissipation %.4g of the initial kinetic energy\n", viscous / kinetic0);
  EXPECT_GT(viscous, 1e-3 * kinetic0);
  const std::string summary = read_file(dir + "/out/summary.json");
  std::printf("impact: energy balance error %.3g\n", summary_number(summary, "energy_balance_error"));
  EXPECT_LT(summary_number(summary, "energy_balance_error"), 0.01);
}

}  // namespace
}  // namespace halfstep::test
