// Seed 004's planar cantilever as a deck string, its tip load and clamp, and a smooth
// displacement field: the fixtures of the operator, assembly, solver and GPU tangent tests
// (and of bench/tangent_bench.cpp).
#pragma once

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "discretization/structure_system.hpp"

namespace halfstep::test {

/// Tip deflection (the mid-depth node at x = L) of cantilever_deck(40, 4) clamped by held_at_x0
/// under cantilever_tip_load(40, 4, 1e5), linear plane-stress Q4: the independent reference
/// that validation/cantilever_q4.py computes from first principles (numpy, extended precision:
/// `python3 validation/cantilever_q4.py`); ctest cantilever_q4_reference checks this constant
/// against it. The stiffness's condition number (~1e7) bounds a double-precision solve's
/// round-off to about 1e-9 relative, the direct solvers' tolerance in the tests.
constexpr double kCantileverQ4Tip = 1.857546226557564e-3;

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

/// Held dofs (3 per node) of the nodes at x = 0: the cantilever's clamp (none when clamp is
/// false, for the singular-stiffness tests).
inline std::vector<char> held_at_x0(const StructureSystem& sys, bool clamp = true) {
  std::vector<char> held(3 * static_cast<std::size_t>(sys.num_nodes), 0);
  for (int n = 0; n < sys.num_nodes && clamp; ++n)
    if (std::fabs(sys.x0[n]) < 1e-12)
      for (int c = 0; c < 3; ++c) held[3 * static_cast<std::size_t>(n) + c] = 1;
  return held;
}

/// A smooth displacement field (3 per node, z = 0 in planar models) of strain ~ scale.
inline std::vector<double> smooth_field(const StructureSystem& sys, double scale) {
  std::vector<double> u(3 * static_cast<std::size_t>(sys.num_nodes), 0.0);
  for (int n = 0; n < sys.num_nodes; ++n) {
    const double x = sys.x0[n], y = sys.y0[n], z = sys.z0[n];
    u[3 * n] = scale * (0.3 * std::sin(1.1 * x + 0.4 * y) + 0.1 * z);
    u[3 * n + 1] = scale * (0.2 * std::cos(0.7 * x - 0.5 * z) + 0.15 * x * y);
    u[3 * n + 2] = sys.solid.planar ? 0.0 : scale * (0.25 * std::sin(0.9 * y + 0.3 * z) - 0.1 * x);
  }
  return u;
}

/// A shell strip (2 S4R) with a C3D8R block sharing two of its nodes (5 dofs per node,
/// solid-only nodes with inactive rotations), 12 nodes; nodes 1 and 4 are the strip's x = 0 edge.
inline std::string mixed_shell_solid_deck() {
  return
      "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 2, 0, 0\n4, 0, 1, 0\n5, 1, 1, 0\n6, 2, 1, 0.1\n"
      "7, 2, 0, -1\n8, 3, 0, -1\n9, 3, 1, -1\n10, 2, 1, -1\n11, 3, 0, 0\n12, 3, 1, 0\n"
      "*ELEMENT, TYPE=S4R, ELSET=SH\n1, 1, 2, 5, 4\n2, 2, 3, 6, 5\n"
      "*ELEMENT, TYPE=C3D8R, ELSET=SO\n3, 7, 8, 9, 10, 3, 11, 12, 6\n"
      "*MATERIAL, NAME=M\n*ELASTIC\n2e5, 0.3\n*DENSITY\n1\n*SHELL SECTION, ELSET=SH, MATERIAL=M\n0.05\n"
      "*SOLID SECTION, ELSET=SO, MATERIAL=M\n*STEP\n*DYNAMIC, EXPLICIT\n, 1\n*END STEP\n";
}

}  // namespace halfstep::test
