// The block on adhesion edges of the explicit adhesion tests (tests/integration/
// test_explicit_adhesion.cpp, and the GPU's tests/gpu/test_gpu_adhesion.cpp), against closed
// forms. A stiff CPE4 block 4 x 1 (nu = 0) moves as a rigid body on its bottom face's adhesion
// edges, a spring k = (slope) x 4 to the substrate: omega = sqrt(k / m).
//  - Penalty law (bounce()), the block (rho = 1: mass 4, k = 4, omega = 1) dropped onto the
//    substrate at v0: it stays in contact for half a period pi / omega, sinks v0 / omega and
//    leaves at v0 (the law stores and returns the energy).
//  - Lennard-Jones law (oscillation()), the block resting at the rest gap and nudged at v0: it
//    oscillates with the law's slope there, dT/dr = scale (s^10 / 5 - s^4) / r0 at
//    s = 15^(1/6), i.e. 12.164 scale / r0 (rho chosen so that omega = 1). The law is stiffer
//    towards the substrate, so the half periods differ at first order in the amplitude (1e-3
//    r0: measured 0.4 %); the period and the peak-to-peak amplitude only at second order.
// The block's own stiffness (E = 1e4 times the law's) shifts omega by about 1e-4.
#pragma once

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "run_util.hpp"

namespace halfstep::test::adhesion_block {

/// The block's deck: 4 x 1 CPE4 over x in [0, 4], y in [y0, y0 + 1], every node moving at
/// (0, v0), the bottom face's adhesion `adhesion` (keyword and data lines), density rho, the
/// explicit step `period` long.
inline std::string block_deck(double y0, double v0, double rho, double E, const std::string& adhesion, double period) {
  std::ostringstream d;
  d.precision(17);
  d << "*NODE, NSET=ALL\n";
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 5; ++i) d << 1 + i + 5 * j << ", " << i << ", " << y0 + j << "\n";
  d << "*ELEMENT, TYPE=CPE4, ELSET=BLOCK\n";
  for (int i = 0; i < 4; ++i) d << i + 1 << ", " << i + 1 << ", " << i + 2 << ", " << i + 7 << ", " << i + 6 << "\n";
  d << "*NSET, NSET=BOT\n1, 2, 3, 4, 5\n*SURFACE, NAME=BOTTOM, TYPE=ELEMENT\nBLOCK, S1\n" << adhesion
    << "*MATERIAL, NAME=M\n*ELASTIC\n" << E << ", 0\n*DENSITY\n" << rho << "\n*SOLID SECTION, ELSET=BLOCK, MATERIAL=M\n1.\n"
    << "*INITIAL CONDITIONS, TYPE=VELOCITY\nALL, 2, " << v0 << "\n"
    << "*STEP\n*DYNAMIC, EXPLICIT\n, " << period << "\n*OUTPUT, HISTORY, TIME INTERVAL=" << period / 2000
    << "\n*NODE OUTPUT, NSET=BOT\nU, V\n*END STEP\n";
  return d.str();
}

/// Mean over BOT's nodes of column `col`, per history time.
inline std::vector<std::pair<double, double>> mean_series(const Csv& h, const char* col) {
  std::vector<std::pair<double, double>> out;
  for (const auto& r : h.rows) {
    if (out.empty() || std::fabs(out.back().first - r[0]) > 1e-12) out.emplace_back(r[0], 0.0);
    out.back().second += r[static_cast<std::size_t>(h.col(col))] / 5;
  }
  return out;
}

/// First time after t0 at which the series crosses zero upwards (linear interpolation).
inline double up_crossing(const std::vector<std::pair<double, double>>& s, double t0) {
  for (std::size_t i = 1; i < s.size(); ++i)
    if (s[i].first > t0 && s[i - 1].second < 0 && s[i].second >= 0)
      return s[i - 1].first + (s[i].first - s[i - 1].first) * -s[i - 1].second / (s[i].second - s[i - 1].second);
  return -1;
}

/// What a run of the block gives: its bottom's mean U2 and V2 histories (empty when the run
/// failed, with its log in `log`).
struct BlockRun {
  std::vector<std::pair<double, double>> u, v;
  std::string log;
};

inline BlockRun run_block(const std::string& name, const std::string& deck, const std::string& options) {
  const std::string dir = scratch_dir(name);
  std::ofstream(dir + "/block.inp") << deck;
  BlockRun r;
  if (run_halfstep(dir + "/block.inp", dir + "/out", options, &r.log) != 0) return r;
  const Csv h = read_csv(dir + "/out/history/BOT.csv");
  r.u = mean_series(h, "U2");
  r.v = mean_series(h, "V2");
  return r;
}

/// The penalty bounce at v0 = 0.01 (omega = 1): closed forms pi, v0, v0.
inline BlockRun bounce(const std::string& name, const std::string& options) {
  return run_block(name, block_deck(0.0, -0.01, 1.0, 1e4, "*ADHESION, SURFACE=BOTTOM, LAW=PENALTY\n1.\n0, 0, 0, 1\n", 4.0),
                   options);
}
constexpr double kBounceSpeed = 0.01;

constexpr double kOscillationSpeed = 1e-3;

/// The Lennard-Jones block nudged at v0 = 1e-3 (r0 = 1, A_H = 2 pi: scale 1, slope 12.164
/// at rest, k = 48.66; rho = 12.164: omega = 1): closed forms period 2 pi, amplitude v0.
inline BlockRun oscillation(const std::string& name, const std::string& options) {
  const double slope = std::pow(15.0, 5.0 / 3.0) / 5 - std::pow(15.0, 2.0 / 3.0), rest = std::pow(15.0, -1.0 / 6.0);
  std::ostringstream adhesion;
  adhesion.precision(17);
  adhesion << "*ADHESION, SURFACE=BOTTOM, LAW=LENNARD-JONES\n" << 2 * M_PI << ", 1.\n0, 0, 0, 1\n";
  return run_block(name, block_deck(rest, -kOscillationSpeed, slope, 1e4 * slope, adhesion.str(), 3.5 * M_PI), options);
}
/// The bounce's measures: time in contact (left), depth sunk, speed at the end.
struct Bounce {
  double left, sunk, speed;
};
inline Bounce bounce_measures(const BlockRun& r) {
  double lowest = 0;
  for (const auto& p : r.u) lowest = std::min(lowest, p.second);
  return {up_crossing(r.u, 0.1), -lowest, r.v.empty() ? 0.0 : r.v.back().second};
}

/// The oscillation's measures: the period between the first two up-crossings, half the peak
/// to peak amplitude.
struct Oscillation {
  double first, period, amplitude;
};
inline Oscillation oscillation_measures(const BlockRun& r) {
  const double first = up_crossing(r.u, 0.1), second = up_crossing(r.u, first + 1.0);
  double lowest = 0, highest = 0;
  for (const auto& p : r.u) lowest = std::min(lowest, p.second), highest = std::max(highest, p.second);
  return {first, second - first, (highest - lowest) / 2};
}

}  // namespace halfstep::test::adhesion_block
