// The spinning annulus of the rotational body-force tests (tests/integration/
// test_rotation_loads.cpp, and the GPU's tests/gpu/test_gpu_rotation.cpp): deck, Lame's
// closed form and the history reader.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

#include "run_util.hpp"

namespace halfstep::test::spin {

constexpr double kPi = 3.14159265358979323846;
constexpr double kE = 200e3, kNu = 0.3, kRho = 7.8e-9, kThick = 0.1;
constexpr double kA = 0.5, kB = 1.0;  // inner and outer radius

/// An annulus a <= r <= b of CPS4 (plane stress, thickness kThick) in the x-y plane, nr cells
/// through the wall and nt around the sweep (a quarter, x >= 0 and y >= 0, or the full ring).
/// Node sets INNER (r = a), OUTER (r = b), XAXIS (y = 0), YAXIS (x = 0, quarter only); the
/// node of ring i and ray j is 1 + i + (nr + 1) j. model_lines follow the section (boundary
/// conditions), step the *STEP block's lines after the procedure.
inline std::string annulus(int nr, int nt, bool quarter, const std::string& model_lines, const std::string& step) {
  std::string d = "*HEADING\nspinning annulus\n*NODE\n";
  const int rays = quarter ? nt + 1 : nt;
  char buf[160];
  for (int j = 0; j < rays; ++j)
    for (int i = 0; i <= nr; ++i) {
      const double r = kA + (kB - kA) * i / nr, t = (quarter ? 0.5 * kPi : 2 * kPi) * j / nt;
      std::snprintf(buf, sizeof buf, "%d, %.17g, %.17g, 0\n", 1 + i + (nr + 1) * j, r * std::cos(t), r * std::sin(t));
      d += buf;
    }
  const auto node = [&](int i, int j) { return 1 + i + (nr + 1) * (j % rays); };
  d += "*ELEMENT, TYPE=CPS4, ELSET=RING\n";
  int id = 1;
  for (int j = 0; j < nt; ++j)
    for (int i = 0; i < nr; ++i) {
      std::snprintf(buf, sizeof buf, "%d, %d, %d, %d, %d\n", id++, node(i, j), node(i + 1, j), node(i + 1, j + 1),
                    node(i, j + 1));
      d += buf;
    }
  const auto line_set = [&](const char* name, auto member) {
    d += std::string("*NSET, NSET=") + name + "\n";
    for (int j = 0; j < rays; ++j)
      for (int i = 0; i <= nr; ++i)
        if (member(i, j)) d += std::to_string(node(i, j)) + "\n";
  };
  line_set("INNER", [](int i, int) { return i == 0; });
  line_set("OUTER", [&](int i, int) { return i == nr; });
  line_set("XAXIS", [](int, int j) { return j == 0; });
  if (quarter) line_set("YAXIS", [&](int, int j) { return j == nt; });
  std::snprintf(buf, sizeof buf, "*MATERIAL, NAME=STEEL\n*ELASTIC\n%.17g, %.17g\n*DENSITY\n%.17g\n", kE, kNu, kRho);
  d += buf;
  d += "*SOLID SECTION, ELSET=RING, MATERIAL=STEEL\n" + std::to_string(kThick) + "\n" + model_lines + "*STEP" + step +
       "*END STEP\n";
  return d;
}

/// Lame's rotating annulus in plane stress, free at both radii: the radial displacement at r
/// under rho omega^2 per unit volume, u = r (s_t - nu s_r) / E.
inline double lame_radial(double r, double omega2) {
  const double c = (3 + kNu) / 8 * kRho * omega2, a2 = kA * kA, b2 = kB * kB;
  const double sr = c * (a2 + b2 - a2 * b2 / (r * r) - r * r);
  const double st = c * (a2 + b2 + a2 * b2 / (r * r) - (1 + 3 * kNu) / (3 + kNu) * r * r);
  return r * (st - kNu * sr) / kE;
}

/// The last history row's column of node n in a history file.
inline double last_value(const Csv& h, int n, const std::string& column) {
  double v = std::nan("");
  for (const auto& row : h.rows)
    if (static_cast<int>(row[static_cast<std::size_t>(h.col("node"))]) == n) v = row[static_cast<std::size_t>(h.col(column))];
  return v;
}

/// omega^2 that gives stresses near 100 at the rim.
constexpr double kOmega2 = 100.0 / (kRho * kB * kB);

/// The quarter annulus (nr x nt) with symmetry planes, spun by CENTRIF of omega2 about z
/// through the origin in a static step (NLGEOM or linear), XAXIS's U and RF in its history.
inline std::string spinning_quarter(bool nlgeom, double omega2, int nr, int nt) {
  const std::string step = std::string(nlgeom ? ", NLGEOM=YES" : "") + "\n*STATIC\n0.5, 1.\n*DLOAD\nRING, CENTRIF, " +
                           std::to_string(omega2) + ", 0., 0., 0., 0., 0., 1.\n"
                           "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=XAXIS\nU, RF\n";
  return annulus(nr, nt, true, "*BOUNDARY\nXAXIS, 2, 2\nYAXIS, 1, 1\n", step);
}

}  // namespace halfstep::test::spin
