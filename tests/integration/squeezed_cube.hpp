// The model of the squeezed-cube runs (test_dt_update.cpp, test_variable_mass_scaling_run.cpp):
// one C3D8R unit cube (E = 1000, nu = 0, rho = 1), its bottom held in z and its rigid motions
// held at three corners. A test puts its heading (two lines) before it and its motion and step
// after it, so the deck's line numbers are those the tests name.
#pragma once

#include <string>

namespace halfstep::test {

/// One unit C3D8R cube: nodes 1-4 at z = 0 and 5-8 at z = 1 (each square counter-clockwise
/// from the axis), element 1 in ELSET=CUBE (11 lines).
inline constexpr const char* kUnitCubeMesh = R"(*NODE
1, 0, 0, 0
2, 1, 0, 0
3, 1, 1, 0
4, 0, 1, 0
5, 0, 0, 1
6, 1, 0, 1
7, 1, 1, 1
8, 0, 1, 1
*ELEMENT, TYPE=C3D8R, ELSET=CUBE
1, 1, 2, 3, 4, 5, 6, 7, 8
)";

/// The cube's nodes, element, section, material, sets and boundary conditions (lines 3-30).
inline const std::string kSqueezedCubeModel = std::string(kUnitCubeMesh) + R"(*SOLID SECTION, ELSET=CUBE, MATERIAL=M
*MATERIAL, NAME=M
*ELASTIC
1000, 0
*DENSITY
1
*NSET, NSET=BOTTOM
1, 2, 3, 4
*NSET, NSET=TOP
5, 6, 7, 8
*NSET, NSET=ORIGIN
1
*BOUNDARY
BOTTOM, 3, 3
ORIGIN, 1, 2
2, 2, 2
4, 1, 1
)";

}  // namespace halfstep::test
