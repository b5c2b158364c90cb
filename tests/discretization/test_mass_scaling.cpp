// *FIXED MASS SCALING (discretization/mass_scaling): the element increments reach the target
// exactly, the added mass is the density increase times the element's volume, spread as the
// element's lumped mass is, and the rest of the model is left alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <numeric>
#include <string>

#include "core/error.hpp"
#include "discretization/mass_scaling.hpp"
#include "discretization/structure_system.hpp"
#include "io/inp_reader.hpp"

namespace halfstep {
namespace {

// Three unit-section C3D8R in a row, 1, 1 and 0.1 long (rho = 1, E = 1000, nu = 0); the
// deck's own *FIXED MASS SCALING is not applied by build_structure_system.
const char* kBar = HALFSTEP_SOURCE_DIR "/tests/gpu/decks/mass_scaling_bar.inp";

double total(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

MassScaling scaling(double factor, double dt, bool uniform, const std::string& elset) {
  MassScaling m;
  m.factor = factor;
  m.dt = dt;
  m.uniform = uniform;
  m.elset = elset;
  return m;
}

TEST(FixedMassScaling, BelowMinScalesOnlyTheShortElementToTheTarget) {
  const Model model = read_inp(kBar);
  StructureSystem sys = build_structure_system(model);
  const std::vector<double> dt0 = sys.solid.element_dt, mass0 = sys.mass;
  ASSERT_LT(dt0[2], dt0[0]);
  const double target = 0.5 * (dt0[2] + dt0[0]);  // between the short element's and the others'
  const MassScalingResult r = apply_fixed_mass_scaling(model, {scaling(1, target, false, "SHORT")}, sys);
  EXPECT_EQ(r.elements, 1);
  EXPECT_NEAR(sys.solid.element_dt[2], target, 1e-14 * target);
  EXPECT_EQ(sys.solid.element_dt[0], dt0[0]);
  EXPECT_EQ(sys.solid.element_dt[1], dt0[1]);
  const double f = (target / dt0[2]) * (target / dt0[2]);
  EXPECT_NEAR(r.added_mass, (f - 1) * 0.1, 1e-13);  // rho * V of the short element
  EXPECT_NEAR(total(sys.mass) - total(mass0), r.added_mass, 1e-13);
  // A box: each of its eight nodes gets an eighth; node 13 belongs to the short element only.
  EXPECT_NEAR(sys.mass[12] - mass0[12], (f - 1) * 0.1 / 8, 1e-14);
  EXPECT_EQ(sys.mass[0], mass0[0]);
  EXPECT_NEAR(sys.stable_dt, std::min(target, dt0[0]), 1e-15);
  EXPECT_NEAR(r.stable_dt_after, sys.stable_dt, 0.0);
  EXPECT_EQ(r.stable_dt_before, dt0[2]);
}

TEST(FixedMassScaling, FactorScalesEveryMassAndEveryIncrement) {
  const Model model = read_inp(kBar);
  StructureSystem sys = build_structure_system(model);
  const std::vector<double> dt0 = sys.solid.element_dt, mass0 = sys.mass;
  const double stable0 = sys.stable_dt;
  const MassScalingResult r = apply_fixed_mass_scaling(model, {scaling(4, 0, false, "")}, sys);
  EXPECT_EQ(r.elements, 3);
  for (std::size_t n = 0; n < mass0.size(); ++n) EXPECT_NEAR(sys.mass[n], 4 * mass0[n], 1e-14) << n;
  for (std::size_t e = 0; e < dt0.size(); ++e) EXPECT_NEAR(sys.solid.element_dt[e], 2 * dt0[e], 1e-15) << e;
  EXPECT_NEAR(sys.stable_dt, 2 * stable0, 1e-15);
  EXPECT_NEAR(r.added_mass, 3 * 2.1, 1e-12);  // the model's 2.1, three times over
  EXPECT_NEAR(sys.total_mass, 4 * 2.1, 1e-12);
}

TEST(FixedMassScaling, UniformScalesTheWholeSetByOneFactor) {
  const Model model = read_inp(kBar);
  StructureSystem sys = build_structure_system(model);
  const std::vector<double> dt0 = sys.solid.element_dt, mass0 = sys.mass;
  const double target = 2 * dt0[2];
  apply_fixed_mass_scaling(model, {scaling(1, target, true, "")}, sys);
  for (std::size_t e = 0; e < dt0.size(); ++e) EXPECT_NEAR(sys.solid.element_dt[e], 2 * dt0[e], 1e-15) << e;
  for (std::size_t n = 0; n < mass0.size(); ++n) EXPECT_NEAR(sys.mass[n], 4 * mass0[n], 1e-14) << n;
  EXPECT_NEAR(sys.stable_dt, target, 1e-15);
}

TEST(FixedMassScaling, ATargetAlreadyMetChangesNothing) {
  const Model model = read_inp(kBar);
  StructureSystem sys = build_structure_system(model);
  const std::vector<double> mass0 = sys.mass;
  const MassScalingResult r = apply_fixed_mass_scaling(model, {scaling(1, 0.5 * sys.stable_dt, false, "")}, sys);
  EXPECT_EQ(r.elements, 0);
  EXPECT_EQ(r.added_mass, 0);
  EXPECT_EQ(sys.mass, mass0);
}

TEST(FixedMassScaling, ShellCornersTakeTheirShareOfTheAddedMass) {
  const std::string deck = R"(*NODE
1, 0, 0, 0
2, 2, 0, 0
3, 2, 1, 0
4, 0, 1, 0
*ELEMENT, TYPE=S4R, ELSET=P
1, 1, 2, 3, 4
*SHELL SECTION, ELSET=P, MATERIAL=M
0.01
*MATERIAL, NAME=M
*ELASTIC
2e5, 0.3
*DENSITY
7.8e-9
*STEP
*DYNAMIC, EXPLICIT
, 1e-3
*END STEP
)";
  const Model model = read_inp_string(deck, "mem/plate.inp");
  StructureSystem sys = build_structure_system(model);
  const std::vector<double> mass0 = sys.mass, inertia0 = sys.inertia;
  const double target = 3 * sys.stable_dt;
  const MassScalingResult r = apply_fixed_mass_scaling(model, {scaling(1, target, false, "")}, sys);
  const double added = 8 * 7.8e-9 * 0.01 * 2;  // (f - 1) rho t A with f = 9
  EXPECT_NEAR(r.added_mass, added, 1e-12 * added);
  for (int n = 0; n < 4; ++n) {
    EXPECT_NEAR(sys.mass[n], 9 * mass0[n], 1e-12 * mass0[n]) << n;  // a rectangle: a quarter each
    EXPECT_NEAR(sys.inertia[n], 9 * inertia0[n], 1e-12 * inertia0[n]) << n;
  }
  EXPECT_NEAR(sys.stable_dt, target, 1e-15 * target);
}

/// A deck's text with every line equal to `from` replaced by `to`.
std::string replaced(const std::string& text, const std::string& from, const std::string& to) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string line = text.substr(start, end - start);
    out += (line == from ? to : line) + "\n";
    start = end + 1;
  }
  return out;
}

/// Largest |a - b| over the largest |b|.
double relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  EXPECT_EQ(a.size(), b.size());
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    diff = std::max(diff, std::fabs(a[i] - b[i]));
    scale = std::max(scale, std::fabs(b[i]));
  }
  return scale > 0 ? diff / scale : diff;
}

// *FIXED MASS SCALING, FACTOR=4 on a tied and on a rigid-body model gives the constraints and
// bodies the masses of the same model with four times the density: they were built from the
// unscaled masses before the scaling was applied, and are rebuilt after it.
TEST(FixedMassScaling, ConstraintsAndRigidBodiesTakeTheScaledMasses) {
  for (const char* name : {"tie_refinement", "rigid_end"}) {
    SCOPED_TRACE(name);
    const std::string path = std::string(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/") + name + ".inp";
    std::string text;
    {
      std::ifstream in(path);
      std::stringstream ss;
      ss << in.rdbuf();
      text = ss.str();
    }
    const Model scaled = read_inp_string(replaced(text, ", 0.5", ", 0.5\n*FIXED MASS SCALING, FACTOR=4"), "mem/scaled.inp");
    const Model dense = read_inp_string(replaced(text, "1.", "4."), "mem/dense.inp");
    StructureSystem a = build_structure_system(scaled);
    const StructureSystem b = build_structure_system(dense);
    const double mass_before = a.constraints.mass3.empty() ? a.bodies.mass.at(0) : a.constraints.mass3.at(0);
    apply_deck_mass_scaling(scaled, a);
    EXPECT_LT(relative_difference(a.mass, b.mass), 1e-14);
    EXPECT_LT(relative_difference(a.constraints.mass3, b.constraints.mass3), 1e-14);
    EXPECT_LT(relative_difference(a.constraints.inertia3, b.constraints.inertia3), 1e-14);
    EXPECT_LT(relative_difference(a.bodies.mass, b.bodies.mass), 1e-14);
    EXPECT_LT(relative_difference(a.bodies.inertia, b.bodies.inertia), 1e-14);
    const double mass_after = a.constraints.mass3.empty() ? a.bodies.mass.at(0) : a.constraints.mass3.at(0);
    EXPECT_NEAR(mass_after, 4 * mass_before, 1e-12 * mass_after);
  }
}

// A spring's increment comes from its nodes' masses (nodal_mass_dt): after *FIXED MASS
// SCALING, FACTOR=4 of the two cubes it joins, its increment and the model's are those of the
// same model with four times the density (twice the unscaled ones), not the unscaled ones.
TEST(FixedMassScaling, ASpringTakesTheIncrementOfItsNodesScaledMasses) {
  std::string text = "*NODE\n";
  for (int b = 0; b < 2; ++b)
    for (int k = 0; k < 8; ++k)
      text += std::to_string(8 * b + k + 1) + ", " + std::to_string(2 * b + ((k & 1) ^ ((k >> 1) & 1))) + ", " +
              std::to_string((k >> 1) & 1) + ", " + std::to_string(k >> 2) + "\n";
  text +=
      "*ELEMENT, TYPE=C3D8R, ELSET=CUBES\n1, 1, 2, 3, 4, 5, 6, 7, 8\n2, 9, 10, 11, 12, 13, 14, 15, 16\n"
      "*ELEMENT, TYPE=SPRINGA, ELSET=SPR\n3, 2, 9\n*SPRING, ELSET=SPR\n\n1e6\n"
      "*MATERIAL, NAME=M\n*ELASTIC\n1000, 0\n*DENSITY\n1.\n*SOLID SECTION, ELSET=CUBES, MATERIAL=M\n"
      "*STEP\n*DYNAMIC, EXPLICIT\n, 0.01\n*FIXED MASS SCALING, FACTOR=4\n*END STEP\n";
  const Model scaled = read_inp_string(text, "mem/scaled.inp");
  const Model dense = read_inp_string(replaced(replaced(text, "1.", "4."), "*FIXED MASS SCALING, FACTOR=4", "** unscaled"),
                                      "mem/dense.inp");
  StructureSystem a = build_structure_system(scaled);
  const StructureSystem b = build_structure_system(dense);
  const double spring_dt0 = a.solid.element_dt.at(2), stable0 = a.stable_dt;
  ASSERT_EQ(stable0, spring_dt0);  // the stiff spring controls the increment
  const MassScalingResult r = apply_deck_mass_scaling(scaled, a);
  EXPECT_NEAR(a.solid.element_dt[2], b.solid.element_dt[2], 1e-14 * b.solid.element_dt[2]);
  EXPECT_NEAR(a.solid.element_dt[2], 2 * spring_dt0, 1e-14 * spring_dt0);
  EXPECT_NEAR(a.stable_dt, b.stable_dt, 1e-14 * b.stable_dt);
  EXPECT_EQ(r.stable_dt_after, a.stable_dt);
}

// An FPM beam in a scaled set is refused at the keyword's line, naming the element and its
// family (mass scaling raises densities of shells and continuum elements only); without ELSET
// the beam is left alone and the solid is scaled.
TEST(FixedMassScaling, AnFpmBeamInTheSetIsRefusedAtTheKeyword) {
  const std::string deck =
      "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 2, 0, 0\n4, 2, 1, 0\n5, 2, 1, 1\n6, 2, 0, 1\n7, 3, 0, 0\n8, 3, 1, 0\n"
      "9, 3, 1, 1\n10, 3, 0, 1\n*ELEMENT, TYPE=B31, ELSET=FRAME\n1, 1, 3\n"
      "*ELEMENT, TYPE=C3D8R, ELSET=BLOCK\n2, 3, 7, 8, 4, 6, 10, 9, 5\n"
      "*MATERIAL, NAME=STEEL\n*ELASTIC\n210e9, 0.3\n*DENSITY\n7800\n"
      "*BEAM SECTION, ELSET=FRAME, MATERIAL=STEEL, SECTION=RECT\n0.01, 0.02\n"
      "*SOLID SECTION, ELSET=BLOCK, MATERIAL=STEEL\n"
      "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-3\n";
  const Model refused = read_inp_string(deck + "*FIXED MASS SCALING, FACTOR=4, ELSET=FRAME\n*END STEP\n", "mem/frame.inp");
  StructureSystem a = build_structure_system(refused);
  try {
    apply_deck_mass_scaling(refused, a);
    FAIL() << "a beam in the set was scaled";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("frame.inp:27:"), std::string::npos) << what;
    EXPECT_NE(what.find("*FIXED MASS SCALING of element 1 (beam) is not supported"), std::string::npos) << what;
  }
  const Model whole = read_inp_string(deck + "*FIXED MASS SCALING, FACTOR=4\n*END STEP\n", "mem/frame.inp");
  StructureSystem b = build_structure_system(whole);
  const std::vector<double> mass0 = b.mass;
  const MassScalingResult r = apply_deck_mass_scaling(whole, b);
  EXPECT_EQ(r.elements, 1);
  EXPECT_NEAR(r.added_mass, 3 * 7800.0, 1e-9);
  EXPECT_EQ(b.mass[0], mass0[0]);  // node 1: the beam's alone
  EXPECT_EQ(r.skipped, 1);  // counted, and reported with the family's name
  EXPECT_EQ(r.skipped_what, "beam");
}

// Without ELSET on a model whose every element is of a family mass scaling does not scale,
// the keyword would scale nothing: it is refused at its line rather than left to do nothing.
TEST(FixedMassScaling, WithoutElsetOnAModelOfFpmBeamsOnlyIsRefused) {
  const std::string deck =
      "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 2, 0, 0\n*ELEMENT, TYPE=B31, ELSET=FRAME\n1, 1, 2\n2, 2, 3\n"
      "*MATERIAL, NAME=STEEL\n*ELASTIC\n210e9, 0.3\n*DENSITY\n7800\n"
      "*BEAM SECTION, ELSET=FRAME, MATERIAL=STEEL, SECTION=RECT\n0.01, 0.02\n"
      "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-3\n*FIXED MASS SCALING, FACTOR=4\n*END STEP\n";
  const Model model = read_inp_string(deck, "mem/beams.inp");
  StructureSystem sys = build_structure_system(model);
  const std::vector<double> mass0 = sys.mass;
  try {
    apply_deck_mass_scaling(model, sys);
    FAIL() << "a mass scaling that scales nothing was accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("beams.inp:18:"), std::string::npos) << what;
    EXPECT_NE(what.find("scales no element of this model"), std::string::npos) << what;
    EXPECT_NE(what.find("2 elements (beam) are of families"), std::string::npos) << what;
  }
  // *VARIABLE MASS SCALING without ELSET likewise, at its own line.
  const std::string variable = deck.substr(0, deck.find("*FIXED")) +
                               "*VARIABLE MASS SCALING, DT=1e-3, FREQUENCY=10\n*END STEP\n";
  const Model vm = read_inp_string(variable, "mem/vbeams.inp");
  const StructureSystem vs = build_structure_system(vm);
  try {
    check_variable_mass_scaling(vm, vs);
    FAIL() << "a variable mass scaling that scales nothing was accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("vbeams.inp:18:"), std::string::npos) << what;
    EXPECT_NE(what.find("*VARIABLE MASS SCALING without ELSET scales no element"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace halfstep
