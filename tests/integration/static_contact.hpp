// Decks of the static contact tests (tests/integration/test_static_contact.cpp and the GPU's):
// two hexahedral blocks meshed independently, B's face pressed against A's through a
// *CONTACT PAIR in a static step, and two blocks pressed, then sheared across a frictional
// contact.
#pragma once

#include <sstream>
#include <string>

#include "static_ties.hpp"

namespace halfstep::test::contact {

/// Strain of the pressed bar (its far end's displacement over both blocks' length, 2).
constexpr double kPress = 1e-3;

/// A (2 x 2 x 2 elements) over x in [0, 1] and B (4 x 4 x 4) over [1 + gap, 2 + gap], unit
/// section, on symmetry planes (A's x = 0, both blocks' y = 0 and z = 0), B's far end pushed
/// toward A by 2 kPress + gap; B's face the slave. B's finer face nodes lie on A's facets at
/// their corners, edge midpoints and centres, where the facets' interpolation is A's bilinear
/// one, so the uniform stress of the bar is the exact solution (as for the tied bar).
/// `surface_interaction`: lines after *SURFACE INTERACTION, NAME=SI (empty: frictionless).
inline std::string pressed_bar(bool nlgeom, double gap, const std::string& surface_interaction = "") {
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\ntwo blocks pressed together through a contact pair\n";
  ties::block(d, "C3D8", "A", 1, 1, 2, 2, 0.0, 1.0, 1.0);
  ties::block(d, "C3D8", "B", 100001, 100001, 4, 4, 1.0 + gap, 2.0 + gap, 1.0);
  d << "*SURFACE, NAME=AFACE\nA_X1, S4\n*SURFACE, NAME=BFACE\nB_X0, S6\n";
  d << "*SURFACE INTERACTION, NAME=SI\n" << surface_interaction << "*CONTACT PAIR, INTERACTION=SI\nBFACE, AFACE\n"
    << "*MATERIAL, NAME=M\n*ELASTIC\n" << ties::kE << ", " << ties::kNu << "\n*SOLID SECTION, ELSET=A, MATERIAL=M\n"
    << "*SOLID SECTION, ELSET=B, MATERIAL=M\n*BOUNDARY\nA_N0, 1, 1\nA_Y0, 2, 2\nA_Z0, 3, 3\nB_Y0, 2, 2\nB_Z0, 3, 3\n"
    << "*STEP" << (nlgeom ? ", NLGEOM=YES" : "") << "\n*STATIC\n0.25, 1.\n*BOUNDARY\nB_N1, 1, 1, " << -(2 * kPress + gap)
    << "\n*OUTPUT, FIELD\n*NODE OUTPUT\nU, RF\n*ELEMENT OUTPUT\nS\n*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=B_N1\n"
    << "U, RF\n*NODE OUTPUT, NSET=A_N0\nRF\n*END STEP\n";
  return d.str();
}

/// A block of C3D8 over [x0, x1] x [y0, y1] x [y0, y1], nx x n x n elements, nodes from node0
/// (node (i, j, k) is node0 + (k (n + 1) + j) (nx + 1) + i) and elements from elem0, in set
/// `name`, with the element set of its x1 end (<name>_X1, faces S4) and the node sets of its
/// ends (<name>_N0, <name>_N1).
inline void box(std::ostringstream& d, const std::string& name, int node0, int elem0, int nx, int n, double x0, double x1,
         double y0, double y1) {
  const auto id = [&](int i, int j, int k) { return node0 + (k * (n + 1) + j) * (nx + 1) + i; };
  ties::block_mesh(d, "C3D8", name, node0, elem0, nx, n, x0, x1, y0, y1);
  d << "*ELSET, ELSET=" << name << "_X1\n";
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j) d << elem0 + (k * n + j) * nx + nx - 1 << "\n";
  for (int end = 0; end < 2; ++end) {
    d << "*NSET, NSET=" << name << (end ? "_N1" : "_N0") << "\n";
    for (int k = 0; k <= n; ++k)
      for (int j = 0; j <= n; ++j) d << id(end ? nx : 0, j, k) << "\n";
  }
}

/// A (2 x 4 x 4 C3D8 over x in [0, 1], y and z in [-0.5, 1.5], its x = 0 end held) and B (2 x 2
/// x 2 over [1, 2] x [0, 1] x [0, 1], the slave face, which stays inside A's face as it slides),
/// a contact pair with Coulomb friction mu: step 1 presses B's far end by 2 kPress along x,
/// step 2 moves it by `shift` along y over step time 1. `friction`: the *FRICTION block in place
/// of Coulomb's mu (empty: mu).
inline std::string sheared_bar(double mu, double shift, const std::string& friction = "") {
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\ntwo blocks pressed together, then sheared across the contact\n";
  box(d, "A", 1, 1, 2, 4, 0.0, 1.0, -0.5, 1.5);
  box(d, "B", 1001, 1001, 2, 2, 1.0, 2.0, 0.0, 1.0);
  d << "*SURFACE, NAME=AFACE\nA_X1, S4\n*ELSET, ELSET=B_X0\n1001, 1003, 1005, 1007\n*SURFACE, NAME=BFACE\nB_X0, S6\n"
    << "*SURFACE INTERACTION, NAME=SI\n";
  if (friction.empty())
    d << "*FRICTION\n" << mu << "\n";
  else
    d << friction;
  d << "*CONTACT PAIR, INTERACTION=SI\nBFACE, AFACE\n"
    << "*MATERIAL, NAME=M\n*ELASTIC\n" << ties::kE << ", " << ties::kNu << "\n*SOLID SECTION, ELSET=A, MATERIAL=M\n"
    << "*SOLID SECTION, ELSET=B, MATERIAL=M\n*BOUNDARY\nA_N0, 1, 3\n*STEP\n*STATIC\n0.25, 1.\n*BOUNDARY\nB_N1, 1, 1, "
    << -2 * kPress << "\nB_N1, 2, 3\n*OUTPUT, FIELD\n*NODE OUTPUT\nU, RF\n*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=B_N1\n"
    << "U, RF\n*END STEP\n*STEP\n*STATIC\n0.1, 1.\n*BOUNDARY\nB_N1, 2, 2, " << shift << "\n*END STEP\n";
  return d.str();
}

}  // namespace halfstep::test::contact
