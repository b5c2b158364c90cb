// Field output restricted to a node set: the kept cells are those whose every node is in the
// set, the set's other nodes are VTK vertex cells, and the cell fields on those vertices are
// NaN (a node set holding no whole element used to read its cell fields past their end).
#include <cmath>
#include <fstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

// One C3D8R; the field output's node set holds 7 of its 8 nodes, so no element is whole and
// the frame is 7 points written as 7 vertex cells (more cells than the model has).
TEST(FieldSubset, NodeSetWithNoWholeElementWritesVerticesWithNanCellFields) {
  const std::string dir = scratch_dir("no_whole_element");
  const std::string deck = dir + "/one.inp";
  std::ofstream(deck) << held_cube_model("C3D8R") <<
                         "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-3\n*BOUNDARY, TYPE=VELOCITY\n7, 3, 3, 1.0\n"
                         "*OUTPUT, FIELD, NUMBER INTERVAL=1\n*NODE OUTPUT, NSET=SEVEN\nU\n*END STEP\n";
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--backend cpu --threads 1", &out), 0) << out;
  for (const std::string frame : {"one_000000.vtu", "one_000001.vtu"}) {
    const std::string path = dir + "/out/" + frame;
    const std::string text = read_file(path);
    EXPECT_NE(text.find("<Piece NumberOfPoints=\"7\" NumberOfCells=\"7\">"), std::string::npos) << frame;
    EXPECT_EQ(read_vtu_array(path, "NodeId"), (std::vector<double>{1, 2, 3, 4, 5, 6, 7})) << frame;
    for (const char* array : {"ElementId", "StrainEnergyDensity"}) {
      const std::vector<double> v = read_vtu_array(path, array);
      ASSERT_EQ(v.size(), 7u) << frame << " " << array;
      for (double x : v) EXPECT_TRUE(std::isnan(x)) << frame << " " << array << " on a vertex cell: " << x;
    }
    // Node 7 moves up at 1 (prescribed velocity); the base is held.
    const std::vector<double> u = read_vtu_array(path, "U");
    ASSERT_EQ(u.size(), 21u) << frame;
    EXPECT_EQ(u[2], 0.0) << frame;
    EXPECT_NEAR(u[20], frame == "one_000000.vtu" ? 0.0 : 1e-3, 1e-12) << frame;
  }
}

}  // namespace
}  // namespace halfstep::test
