// --dialect (io/inp_reader.hpp): the same text read as Abaqus reads it and as the peer solver
// (CalculiX) does. C3D8 becomes FORMULATION=FULL and C3D20R FORMULATION=REDUCED MASS only where
// no FORMULATION= is given;
// SECTION=CIRC's number is a radius or a diameter; EXPONENTIAL contact is each one's law and
// *FRICTION's second field the peer's stick slope; the dialect is part of the source hash.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "elements/kind_info.hpp"
#include "io/inp_reader.hpp"

namespace halfstep {
namespace {

const char* const kStatic = "*STEP\n*STATIC\n*CLOAD\n";
const char* const kExplicit = "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-3\n*CLOAD\n";

// One C3D8 and one C3D8R cube side by side, an optional FORMULATION= on the C3D8's section.
std::string solids(const std::string& formulation, const std::string& step = kStatic) {
  return "*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
         "9,2,0,0\n10,2,1,0\n11,2,0,1\n12,2,1,1\n"
         "*ELEMENT, TYPE=C3D8, ELSET=A\n1,1,2,3,4,5,6,7,8\n"
         "*ELEMENT, TYPE=C3D8R, ELSET=B\n2,2,9,10,3,6,11,12,7\n"
         "*MATERIAL, NAME=M\n*ELASTIC\n210000, 0.3\n*DENSITY\n7.8e-9\n"
         "*SOLID SECTION, ELSET=A, MATERIAL=M" + formulation + "\n*SOLID SECTION, ELSET=B, MATERIAL=M\n"
         "*BOUNDARY\n1,1,3\n" + step + "7,1,1.\n*END STEP\n";
}

// A B31 bar (the section's radius stays in the model; B32 sections become bricks).
std::string beam(const std::string& dimensions) {
  return "*NODE\n1,0,0,0\n2,1,0,0\n*ELEMENT, TYPE=B31, ELSET=B\n1,1,2\n"
         "*MATERIAL, NAME=M\n*ELASTIC\n210000, 0.3\n*DENSITY\n7.8e-9\n"
         "*BEAM SECTION, ELSET=B, MATERIAL=M, SECTION=CIRC\n" +
         dimensions + "\n0,1,0\n*BOUNDARY\n1,1,6\n" + std::string(kExplicit) + "2,1,1.\n*END STEP\n";
}

Model read(const std::string& text, Dialect d) { return read_inp_string(text, "mem/dialect.inp", d); }

TEST(InpDialect, CalculixRunsC3D8WithoutFbarWhereNoFormulationIsGiven) {
  const int fbar = find_element_kind("C3D8", ""), full = find_element_kind("C3D8", "FULL");
  const int fpm = find_element_kind("C3D8", "FPM"), reduced = find_element_kind("C3D8R", "");
  ASSERT_GE(full, 0);
  ASSERT_NE(full, fbar);
  const Model abaqus = read(solids(""), Dialect::Abaqus), calculix = read(solids(""), Dialect::CalculiX);
  EXPECT_EQ(abaqus.elements.kind[0], fbar);
  EXPECT_EQ(calculix.elements.kind[0], full);
  EXPECT_EQ(calculix.elements.kind[1], reduced);  // C3D8R is the same element in both
  // A section's own FORMULATION= wins in either dialect.
  EXPECT_EQ(read(solids(", FORMULATION=FPM", kExplicit), Dialect::CalculiX).elements.kind[0], fpm);
  EXPECT_EQ(read(solids(", FORMULATION=FULL"), Dialect::Abaqus).elements.kind[0], full);
  // Another model of the same text: a restart must tell them apart.
  EXPECT_NE(abaqus.source_hash, calculix.source_hash);
}

TEST(InpDialect, CalculixIntegratesC3D20RsMassAtItsOwnPoints) {
  std::string deck = "*NODE\n";
  const double x[3] = {0, 0.5, 1};
  int id = 0;
  for (double zz : x)
    for (double yy : x)
      for (double xx : x) deck += std::to_string(++id) + "," + std::to_string(xx) + "," + std::to_string(yy) + "," + std::to_string(zz) + "\n";
  // Node (i, j, k) of the 3 x 3 x 3 lattice is 1 + i + 3 j + 9 k; C3D20's corners then edges.
  const auto n = [](int i, int j, int k) { return std::to_string(1 + i + 3 * j + 9 * k); };
  deck += "*ELEMENT, TYPE=C3D20R, ELSET=E\n1," + n(0, 0, 0) + "," + n(2, 0, 0) + "," + n(2, 2, 0) + "," + n(0, 2, 0) + "," +
          n(0, 0, 2) + "," + n(2, 0, 2) + "," + n(2, 2, 2) + "," + n(0, 2, 2) + "," + n(1, 0, 0) + "," + n(2, 1, 0) + "," +
          n(1, 2, 0) + "," + n(0, 1, 0) + "," + n(1, 0, 2) + "," + n(2, 1, 2) + "," + n(1, 2, 2) + "," + n(0, 1, 2) + "," +
          n(0, 0, 1) + "," + n(2, 0, 1) + "," + n(2, 2, 1) + "," + n(0, 2, 1) + "\n"
          "*MATERIAL, NAME=M\n*ELASTIC\n210000, 0.3\n*SOLID SECTION, ELSET=E, MATERIAL=M\n"
          "*BOUNDARY\n1,1,3\n*STEP\n*STATIC\n*CLOAD\n27,1,1.\n*END STEP\n";
  EXPECT_EQ(read(deck, Dialect::Abaqus).elements.kind[0], find_element_kind("C3D20R", ""));
  EXPECT_EQ(read(deck, Dialect::CalculiX).elements.kind[0], find_element_kind("C3D20R", "REDUCEDMASS"));
}

TEST(InpDialect, CircIsARadiusForAbaqusAndADiameterForCalculix) {
  EXPECT_DOUBLE_EQ(read(beam("0.02"), Dialect::Abaqus).beam_sections.at(0).a, 0.02);
  EXPECT_DOUBLE_EQ(read(beam("0.02"), Dialect::CalculiX).beam_sections.at(0).a, 0.01);
  EXPECT_DOUBLE_EQ(read(beam("0.02, 0.02"), Dialect::CalculiX).beam_sections.at(0).a, 0.01);
  // An ellipse (two different diameters) is refused; Abaqus's CIRC takes one number.
  EXPECT_THROW(read(beam("0.02, 0.03"), Dialect::CalculiX), InputError);
  EXPECT_THROW(read(beam("0.02, 0.02"), Dialect::Abaqus), InputError);
  // A non-positive dimension is named as what the dialect reads it as.
  try {
    read(beam("-0.02"), Dialect::CalculiX);
    ADD_FAILURE() << "a negative diameter was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("mem/dialect.inp:12: error: *BEAM SECTION: the diameter must be positive"),
              std::string::npos)
        << e.what();
  }
}

TEST(InpDialect, CalculixTakesItsExponentialLawAndStickSlope) {
  // EXPONENTIAL is Abaqus's law (zero at the clearance c0) or the peer's (1 % of p0 at c0);
  // *FRICTION's second field is the peer's stick slope, and a table row's field for Abaqus.
  const auto deck = [](const std::string& interaction) {
    return "*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
           "*ELEMENT, TYPE=C3D8R, ELSET=A\n1,1,2,3,4,5,6,7,8\n*MATERIAL, NAME=M\n*ELASTIC\n210000, 0.3\n"
           "*DENSITY\n7.8e-9\n*SOLID SECTION, ELSET=A, MATERIAL=M\n*SURFACE, NAME=TOP\nA, S2\n"
           "*SURFACE, NAME=BOTTOM\nA, S1\n*SURFACE INTERACTION, NAME=SI\n" + interaction +
           "*CONTACT PAIR, INTERACTION=SI\nTOP, BOTTOM\n*BOUNDARY\n1,1,3\n" + std::string(kStatic) +
           "7,1,1.\n*END STEP\n";
  };
  const std::string law = "*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=EXPONENTIAL\n1e-4, 0.1\n";
  const SurfaceInteraction a = read(deck(law), Dialect::Abaqus).contact.interactions.at("SI");
  const SurfaceInteraction c = read(deck(law), Dialect::CalculiX).contact.interactions.at("SI");
  EXPECT_EQ(a.overclosure, Overclosure::kExponential);
  EXPECT_EQ(c.overclosure, Overclosure::kExponentialPeer);
  EXPECT_EQ(c.overclosure_law, (std::vector<double>{1e-4, 0.1}));
  const std::string friction = "*FRICTION\n0.2, 1e5\n";
  EXPECT_DOUBLE_EQ(read(deck(friction), Dialect::CalculiX).contact.interactions.at("SI").stick_slope, 1e5);
  EXPECT_DOUBLE_EQ(read(deck(friction), Dialect::Abaqus).contact.interactions.at("SI").stick_slope, 0.0);
  EXPECT_THROW(read(deck("*FRICTION\n0.2, -1\n"), Dialect::CalculiX), InputError);
}

}  // namespace
}  // namespace halfstep
