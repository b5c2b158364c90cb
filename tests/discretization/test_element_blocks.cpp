// Element blocks (discretization/element_blocks.hpp): a mixed model's blocks cover every
// element once, in pass order, and each family's table gives the element's own energy,
// measure and name.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "discretization/element_blocks.hpp"
#include "discretization/output_fields.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "elements/registry.hpp"
#include "io/inp_reader.hpp"

namespace halfstep {
namespace {

// Two S4R, a C3D8R and a C3D4 block (two continuum groups), a B31 and an FPM S3 on one mesh
// of 6-dof nodes; the solids sit beside the plate.
const char* kMixedDeck = R"(*NODE
1, 0, 0, 0
2, 1, 0, 0
3, 2, 0, 0
4, 0, 1, 0
5, 1, 1, 0
6, 2, 1, 0
7, 3, 0, 0
11, 10, 0, 0
12, 11, 0, 0
13, 11, 1, 0
14, 10, 1, 0
15, 10, 0, 1
16, 11, 0, 1
17, 11, 1, 1
18, 10, 1, 1
21, 20, 0, 0
22, 21, 0, 0
23, 20, 1, 0
24, 20, 0, 1
*ELEMENT, TYPE=S4R, ELSET=QUADS
1, 1, 2, 5, 4
2, 2, 3, 6, 5
*ELEMENT, TYPE=S3, ELSET=TRIS
3, 3, 7, 6
*ELEMENT, TYPE=B31, ELSET=BEAMS
4, 1, 2
*ELEMENT, TYPE=C3D8R, ELSET=HEX
5, 11, 12, 13, 14, 15, 16, 17, 18
*ELEMENT, TYPE=C3D4, ELSET=TET
6, 21, 22, 23, 24
*MATERIAL, NAME=M
*ELASTIC
1000.0, 0.25
*DENSITY
1.0
*SHELL SECTION, ELSET=QUADS, MATERIAL=M
0.1, 5
*SHELL SECTION, ELSET=TRIS, MATERIAL=M, FORMULATION=FPM
0.2, 5
*BEAM SECTION, ELSET=BEAMS, MATERIAL=M, SECTION=RECT
0.1, 0.3
*SOLID SECTION, ELSET=HEX, MATERIAL=M
*SOLID SECTION, ELSET=TET, MATERIAL=M
*STEP
*DYNAMIC, EXPLICIT
, 1e-3
*END STEP
)";

TEST(ElementBlocks, CoverEveryElementOnceInPassOrder) {
  const Model model = read_inp_string(kMixedDeck, "mem/mixed.inp");
  const StructureSystem sys = build_structure_system(model);
  const std::vector<ElementBlock> blocks = element_blocks(sys);
  ASSERT_EQ(blocks.size(), 5u);  // shells, two continuum groups, beams, triangles
  std::set<int> seen;
  std::vector<std::string> types;
  for (const ElementBlock& b : blocks) {
    ASSERT_GT(b.count, 0);
    for (int e = b.first; e < b.first + b.count; ++e) {
      const int me = (*b.model_element)[static_cast<std::size_t>(e)];
      EXPECT_TRUE(seen.insert(me).second) << "model element " << me << " in two blocks";
      types.push_back(model.elements.abaqus_type[static_cast<std::size_t>(me)] + " " + element_kind(b.kind).name);
    }
  }
  EXPECT_EQ(static_cast<int>(seen.size()), sys.total_elements());
  EXPECT_EQ(static_cast<int>(seen.size()), 6);
  const std::vector<std::string> want{"S4R S4R", "S4R S4R", "C3D8R C3D8R", "C3D4 C3D4", "B31 B31", "S3 S3"};
  EXPECT_EQ(types, want);
  EXPECT_EQ(std::string(blocks[0].family->what), "shell");
  EXPECT_EQ(blocks[1].family, blocks[2].family);  // the continuum groups share one table
  EXPECT_EQ(blocks[0].family->describe(model, sys, blocks[0]), "2 MITC4");
  EXPECT_EQ(blocks[3].family->describe(model, sys, blocks[3]), "1 B31 (FPM beam)");
  EXPECT_EQ(blocks[4].family->describe(model, sys, blocks[4]), "1 S3 (FPM triangle)");
}

TEST(ElementBlocks, MeasuresAndEnergiesAreTheElementsOwn) {
  const Model model = read_inp_string(kMixedDeck, "mem/mixed.inp");
  const StructureSystem sys = build_structure_system(model);
  StructureState st;
  st.initialize(sys);
  const std::vector<ElementBlock> blocks = element_blocks(sys);
  // Unit squares, a unit cube, a tetrahedron of volume 1/6, a 1 x (0.1 x 0.3) beam, a
  // triangle of area 1/2 and thickness 0.2.
  const double measure[5] = {1.0, 1.0, 1.0 / 6.0, 0.03, 0.1};
  for (std::size_t i = 0; i < blocks.size(); ++i)
    EXPECT_NEAR(blocks[i].family->measure(sys, blocks[i].first), measure[i], 1e-12 * measure[i]) << i;
  // Undeformed: no energy anywhere; a value planted in an element's own entry is read back.
  for (const ElementBlock& b : blocks) EXPECT_EQ(b.family->energy(sys, st, b.first), 0.0) << b.family->what;
  st.elem_energy[1] = 2.5;
  EXPECT_EQ(blocks[0].family->energy(sys, st, 1), 2.5);
  st.solid_energy[static_cast<std::size_t>(blocks[2].first)] = 1.0;
  st.solid_hourglass[static_cast<std::size_t>(blocks[2].first)] = 0.25;
  EXPECT_EQ(blocks[2].family->energy(sys, st, blocks[2].first), 1.25);  // hourglass energy included
  st.row<TriMesh>().state.assign(st.row<TriMesh>().state.size(), NAN);
  EXPECT_TRUE(std::isnan(blocks[4].family->energy(sys, st, 0)));
}

TEST(ElementBlocks, ResultMeshHasACellPerElementInBlockOrder) {
  const Model model = read_inp_string(kMixedDeck, "mem/mixed.inp");
  const StructureSystem sys = build_structure_system(model);
  const ResultMesh m = result_mesh(sys);
  // VTK cell types: quad 9, hexahedron 12, tetrahedron 10, line 3, triangle 5.
  const std::vector<std::uint8_t> types{9, 9, 12, 10, 3, 5};
  const std::vector<std::int64_t> offsets{4, 8, 16, 20, 22, 25};
  EXPECT_EQ(m.types, types);
  EXPECT_EQ(m.offsets, offsets);
  ASSERT_EQ(m.conn.size(), 25u);
  // Each cell's nodes are its element's, by deck id.
  const std::vector<int> ids{1, 2, 5, 4, 2, 3, 6, 5, 11, 12, 13, 14, 15, 16, 17, 18, 21, 22, 23, 24, 1, 2, 3, 7, 6};
  for (std::size_t i = 0; i < ids.size(); ++i)
    EXPECT_EQ(model.nodes.id[static_cast<std::size_t>(m.conn[i])], ids[i]) << i;
}

}  // namespace
}  // namespace halfstep
