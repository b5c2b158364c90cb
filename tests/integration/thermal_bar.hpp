// The heated bar of the thermal-load tests (tests/integration/test_thermal_run.cpp, and the
// GPU's tests/gpu/test_gpu_thermal.cpp): deck, steps and the values read back.
#pragma once

#include <cmath>
#include <sstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test::thermal {

constexpr double kE = 200e3, kAlpha = 1.2e-5, kT0 = 20.0, kT1 = 70.0;  // alpha dtheta = 6e-4
constexpr int kN = 4;                                                   // elements along x, L = 4

/// A bar of kN unit cubes of `type` along x from 0 to kN: node sets X0 and XL (its end
/// faces), ALL; node 1 (the origin) held in y and z and node 2 (0, 1, 0) in z, so that it is
/// free to expand sideways; `ends`: the *BOUNDARY lines of the ends; step: the step's lines.
inline std::string bar_deck(const std::string& type, const std::string& ends, const std::string& step) {
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\nthermal bar\n*NODE\n";
  for (int i = 0; i <= kN; ++i)
    for (int j = 0; j < 4; ++j) d << 4 * i + j + 1 << ", " << i << ", " << (j == 1 || j == 2) << ", " << (j >= 2) << "\n";
  d << "*ELEMENT, TYPE=" << type << ", ELSET=BAR\n";
  for (int i = 0; i < kN; ++i) {
    const int a = 4 * i + 1, b = 4 * (i + 1) + 1;
    d << i + 1 << ", " << a << ", " << b << ", " << b + 1 << ", " << a + 1 << ", " << a + 3 << ", " << b + 3 << ", "
      << b + 2 << ", " << a + 2 << "\n";
  }
  d << "*NSET, NSET=ALL, GENERATE\n1, " << 4 * (kN + 1) << ", 1\n*NSET, NSET=X0\n1, 2, 3, 4\n*NSET, NSET=XL\n"
    << 4 * kN + 1 << ", " << 4 * kN + 2 << ", " << 4 * kN + 3 << ", " << 4 * kN + 4 << "\n";
  d << "*MATERIAL, NAME=STEEL\n*ELASTIC\n" << kE << ", 0.3\n*DENSITY\n7.8e-9\n*EXPANSION, ZERO=0.\n" << kAlpha
    << "\n*SOLID SECTION, ELSET=BAR, MATERIAL=STEEL\n*INITIAL CONDITIONS, TYPE=TEMPERATURE\nALL, " << kT0
    << "\n*BOUNDARY\nX0, 1, 1\n1, 2, 3\n2, 3, 3\n" << ends << "*STEP" << step << "*END STEP\n";
  return d.str();
}

inline std::string static_step(bool nlgeom) {
  std::ostringstream s;
  s << (nlgeom ? ", NLGEOM=YES" : "") << "\n*STATIC\n0.25, 1.\n*TEMPERATURE\nALL, " << kT1
    << "\n*OUTPUT, FIELD\n*NODE OUTPUT\nU, RF\n*ELEMENT OUTPUT\nS\n*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=XL\nU, RF\n";
  return s.str();
}

/// The last history row's U1 and summed RF1 over XL's four nodes.
inline void end_values(const std::string& out, double& u1, double& rf1) {
  const Csv csv = read_csv(out + "/history/XL.csv");
  ASSERT_FALSE(csv.rows.empty());
  const double t = csv.rows.back()[0];
  u1 = 0, rf1 = 0;
  int n = 0;
  for (const auto& row : csv.rows)
    if (row[0] == t) {
      u1 += row[static_cast<std::size_t>(csv.col("U1"))];
      rf1 += row[static_cast<std::size_t>(csv.col("RF1"))];
      ++n;
    }
  ASSERT_EQ(n, 4);
  u1 /= n;
}

/// S of every cell of the run's last field frame (6 per cell, Abaqus order).
inline std::vector<double> last_stress(const std::string& out) {
  const auto frames = pvd_frames(out + "/bar.pvd");
  if (frames.empty()) return {};
  return read_vtu_array(out + "/" + frames.back().second, "S");  // the .pvd names its frames relative to itself
}

/// An explicit step heating the bar from kT0 to kT1 over 40 of its axial periods with a
/// smooth step (A(0) = kT0 / kT1: an amplitude scales the temperature itself), and the
/// amplitude it uses (to put before the model).
inline std::string slow_heating_step(std::string& amplitude) {
  const double c = std::sqrt(kE / 7.8e-9), period = 4.0 * kN / c, t = 40 * period;
  std::ostringstream step, amp;
  step.precision(17);
  amp.precision(17);
  step << "\n*DYNAMIC, EXPLICIT\n, " << t << "\n*TEMPERATURE, AMPLITUDE=HEAT\nALL, " << kT1
       << "\n*OUTPUT, FIELD, NUMBER INTERVAL=2\n*ELEMENT OUTPUT\nS\n*OUTPUT, HISTORY, TIME INTERVAL=" << t / 50
       << "\n*NODE OUTPUT, NSET=XL\nU, RF\n";
  amp << "*AMPLITUDE, NAME=HEAT, DEFINITION=SMOOTH STEP\n0., " << kT0 / kT1 << ", " << t << ", 1.\n";
  amplitude = amp.str();
  return step.str();
}

/// Closes the step before it and adds an explicit step of five axial periods of the bar, with
/// `lines` (its loads), its last field frame's S and XL's history.
inline std::string explicit_after(const std::string& lines) {
  const double c = std::sqrt(kE / 7.8e-9), t = 5 * 4.0 * kN / c;
  std::ostringstream step;
  step.precision(17);
  step << "*END STEP\n*STEP\n*DYNAMIC, EXPLICIT\n, " << t << "\n" << lines
       << "*OUTPUT, FIELD, NUMBER INTERVAL=1000\n*ELEMENT OUTPUT\nS\n*OUTPUT, HISTORY, TIME INTERVAL=" << t / 10
       << "\n*NODE OUTPUT, NSET=XL\nU, RF\n";
  return step.str();
}

/// A first explicit step of five axial periods with no load (the bar stays at rest), its
/// history of XL; explicit_after adds the next.
inline std::string resting_explicit_step() {
  const double c = std::sqrt(kE / 7.8e-9), t = 5 * 4.0 * kN / c;
  std::ostringstream step;
  step.precision(17);
  step << "\n*DYNAMIC, EXPLICIT\n, " << t << "\n*OUTPUT, HISTORY, TIME INTERVAL=" << t / 10
       << "\n*NODE OUTPUT, NSET=XL\nU, RF\n";
  return step.str();
}

/// The bar's volume and Lame constants (nu = 0.3) for the energy closed forms.
constexpr double kVolume = kN, kLambda = kE * 0.3 / (1.3 * 0.4), kMu = kE / 2.6;
/// The held bar's closed-form energies (eps = alpha (kT1 - kT0)): heated with its sides free
/// (uniaxial stress), E eps^2 V / 2; released from that state, the energy of its sideways-grown
/// shape (strains 0, (1 + nu) eps, (1 + nu) eps) without thermal strain, 2 (lambda + mu)
/// (1 + nu)^2 eps^2 V.
constexpr double kEps = kAlpha * (kT1 - kT0);
constexpr double kHeldEnergy = kE * kEps * kEps / 2 * kVolume;
constexpr double kReleasedEnergy = 2 * (kLambda + kMu) * 1.3 * 1.3 * kEps * kEps * kVolume;

/// A column of the last row of the run's energy.csv.
inline double last_energy(const std::string& out, const std::string& column) {
  const Csv energy = read_csv(out + "/energy.csv");
  if (energy.rows.empty() || energy.col(column) < 0) return std::nan("");
  return energy.rows.back()[static_cast<std::size_t>(energy.col(column))];
}

}  // namespace halfstep::test::thermal
