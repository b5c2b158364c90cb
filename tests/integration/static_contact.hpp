// Decks of the static contact tests (tests/integration/test_static_contact.cpp and the GPU's):
// two hexahedral blocks meshed independently, B's face pressed against A's through a
// *CONTACT PAIR in a static step.
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

}  // namespace halfstep::test::contact
