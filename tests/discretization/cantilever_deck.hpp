// Seed 004's planar cantilever as a deck string, for the operator and assembly tests.
#pragma once

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

namespace halfstep::test {

/// Seed 004's cantilever (L = 10, depth 1, E = 210e9, nu = 0.3), nx x ny CPS4; the step is
/// only there for the reader (the Newton client applies its own loads and supports).
inline std::string cantilever_deck(int nx, int ny) {
  std::ostringstream d;
  d.precision(17);
  d << "*NODE\n";
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) d << 1 + i + (nx + 1) * j << ", " << 10.0 * i / nx << ", " << -0.5 + 1.0 * j / ny << ", 0\n";
  d << "*ELEMENT, TYPE=CPS4, ELSET=BEAM\n";
  for (int j = 0, e = 1; j < ny; ++j)
    for (int i = 0; i < nx; ++i, ++e) {
      const int n0 = 1 + i + (nx + 1) * j;
      d << e << ", " << n0 << ", " << n0 + 1 << ", " << n0 + nx + 2 << ", " << n0 + nx + 1 << "\n";
    }
  d << "*MATERIAL, NAME=STEEL\n*ELASTIC\n210e9, 0.3\n*DENSITY\n7850\n*SOLID SECTION, ELSET=BEAM, MATERIAL=STEEL\n1\n"
       "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-3\n*END STEP\n";
  return d.str();
}

/// Consistent nodal forces (node-major, 3 per node) of a total tip shear P on the cantilever's
/// x = L edge as the parabolic shear of beam theory (2-point Gauss per cell: exact).
inline std::vector<double> cantilever_tip_load(int nx, int ny, double P) {
  std::vector<double> f(3 * static_cast<std::size_t>((nx + 1) * (ny + 1)), 0.0);
  const double h = 1.0, dy = h / ny, g = 1 / std::sqrt(3.0);
  for (int j = 0; j < ny; ++j)
    for (double xi : {-g, g}) {
      const double y = -0.5 + j * dy + (xi + 1) / 2 * dy, tau = 1.5 * P / h * (1 - 4 * y * y / (h * h));
      f[3 * static_cast<std::size_t>(nx + (nx + 1) * j) + 1] += tau * (1 - xi) / 2 * dy / 2;
      f[3 * static_cast<std::size_t>(nx + (nx + 1) * (j + 1)) + 1] += tau * (1 + xi) / 2 * dy / 2;
    }
  return f;
}

}  // namespace halfstep::test
