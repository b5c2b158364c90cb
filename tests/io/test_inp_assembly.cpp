// Parts, assemblies and instances (issue 16): a part read once per instance, with the
// instance's translation and rotation, offsets on the ids of later instances, instance-scoped
// set, surface and orientation names, instance-qualified references at assembly and step level.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/error.hpp"
#include "io/inp_reader.hpp"

namespace halfstep {
namespace {

Model read(const std::string& text) { return read_inp_string(text, "mem/asm.inp"); }

/// A part of two C3D8R cubes along x (nodes 1-12), with its end sets and a section.
const char* kPart = R"(*Part, name=Bar
*Node
1, 0., 0., 0.
2, 1., 0., 0.
3, 2., 0., 0.
4, 0., 1., 0.
5, 1., 1., 0.
6, 2., 1., 0.
7, 0., 0., 1.
8, 1., 0., 1.
9, 2., 0., 1.
10, 0., 1., 1.
11, 1., 1., 1.
12, 2., 1., 1.
*Element, type=C3D8R, elset=All
1, 1, 2, 5, 4, 7, 8, 11, 10
2, 2, 3, 6, 5, 8, 9, 12, 11
*Nset, nset=X0
1, 4, 7, 10
*Nset, nset=XL, generate
3, 12, 3
*Elset, elset=Last
2
*Surface, type=ELEMENT, name=End
Last, S4
*Solid Section, elset=All, material=Steel
*End Part
)";

const char* kMaterialAndStep = R"(*Material, name=Steel
*Elastic
1000., 0.3
*Density
1.
*Step
*Dynamic, Explicit
, 0.01
*Boundary
A.X0, 1, 3
B.X0, 1, 3
*Cload
B.12, 2, 1.
Tips, 1, 1.
*Dsload
A.End, P, -2.
*End Step
)";

TEST(InpAssembly, InstancesArePlacedRenumberedAndScoped) {
  const std::string deck = std::string(kPart) + R"(*Assembly, name=Assembly
*Instance, name=A, part=Bar
*End Instance
*Instance, name=B, part=Bar
0., 5., 0.
0., 5., 0., 0., 5., 1., 90.
*End Instance
*Nset, nset=Tips, instance=B
12, XL
*End Assembly
)" + kMaterialAndStep;
  const Model m = read(deck);
  ASSERT_EQ(m.nodes.size(), 24);
  ASSERT_EQ(m.elements.size(), 4);
  // A keeps the part's ids; B's start above them at a round number.
  EXPECT_EQ(m.nodes.id[11], 12);
  EXPECT_EQ(m.nodes.id[12], 101);
  EXPECT_EQ(m.elements.id[2], 11);
  // B: translated by (0, 5, 0), then turned 90 degrees about the axis through (0, 5, 0) along z:
  // part node 3 at (2, 0, 0) goes to (0, 7, 0).
  const std::size_t b3 = static_cast<std::size_t>(m.nodes.index.at(103));
  EXPECT_NEAR(m.nodes.x[b3], 0.0, 1e-14);
  EXPECT_NEAR(m.nodes.y[b3], 7.0, 1e-14);
  EXPECT_NEAR(m.nodes.z[b3], 0.0, 1e-14);
  // Element connectivity follows the offset.
  const int* c = m.elements.nodes_of(3);
  EXPECT_EQ(m.nodes.id[static_cast<std::size_t>(c[0])], 102);
  // Scoped sets, no plain name with two instances; the assembly set takes B's members.
  EXPECT_EQ(m.nsets.at("A.X0").members.size(), 4u);
  EXPECT_EQ(m.nsets.at("B.XL").members.size(), 4u);
  EXPECT_FALSE(m.nsets.count("X0"));
  EXPECT_EQ(m.nsets.at("TIPS").members.size(), 4u);  // 12 is also in XL
  EXPECT_EQ(m.elsets.at("B.ALL").members.size(), 2u);
  ASSERT_EQ(m.solid_sections.size(), 2u);
  EXPECT_EQ(m.surfaces.at("A.END").elements.size(), 1u);
  // Step references: qualified sets and a qualified node label.
  ASSERT_EQ(m.steps[0].boundaries.size(), 2u);
  EXPECT_EQ(m.steps[0].boundaries[1].nodes.size(), 4u);
  ASSERT_EQ(m.steps[0].cloads.size(), 2u);
  EXPECT_EQ(m.nodes.id[static_cast<std::size_t>(m.steps[0].cloads[0].nodes[0])], 112);
}

TEST(InpAssembly, ASingleInstanceAnswersToPlainNamesToo) {
  const std::string deck = std::string(kPart) + R"(*Assembly, name=Assembly
*Instance, name=A, part=Bar
*End Instance
*End Assembly
*Material, name=Steel
*Elastic
1000., 0.3
*Density
1.
*Step
*Dynamic, Explicit
, 0.01
*Boundary
X0, 1, 3
*Dsload
End, P, -2.
*End Step
)";
  const Model m = read(deck);
  EXPECT_EQ(m.nodes.id[0], 1);
  EXPECT_EQ(m.steps[0].boundaries[0].nodes.size(), 4u);
  EXPECT_EQ(m.nsets.at("X0").members, m.nsets.at("A.X0").members);
}

TEST(InpAssembly, ErrorsNameTheLineAtFault) {
  const auto fails = [](const std::string& deck, const std::string& where, const std::string& what) {
    try {
      read(deck);
      ADD_FAILURE() << "accepted: " << what;
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(where), std::string::npos) << msg;
      EXPECT_NE(msg.find(what), std::string::npos) << msg;
    }
  };
  const std::string head = std::string(kPart) + "*Assembly, name=Assembly\n";
  fails(head + "*Instance, name=A, part=Beam\n*End Instance\n*End Assembly\n" + kMaterialAndStep, "mem/asm.inp:29",
        "refers to part 'BEAM', which is not defined");
  fails(head + "*Instance, name=A, part=Bar\n*End Instance\n*Instance, name=A, part=Bar\n*End Instance\n*End Assembly\n" +
            kMaterialAndStep,
        "mem/asm.inp:31", "instance 'A' is defined twice");
  fails(head + "*Instance, name=A, part=Bar\n0., 0., 0.\n1., 1., 1., 1., 1., 1., 30.\n*End Instance\n*End Assembly\n" +
            kMaterialAndStep,
        "mem/asm.inp:29", "points a and b of the axis coincide");
  fails(head + "*Instance, name=A, part=Bar\n*End Instance\n*Nset, nset=N, instance=C\n1\n*End Assembly\n" +
            kMaterialAndStep,
        "mem/asm.inp:31", "INSTANCE=C: no such instance");
}

}  // namespace
}  // namespace halfstep
