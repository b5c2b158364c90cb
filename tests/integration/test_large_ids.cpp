// Ids up to 2^53 (the largest the reader takes: the results carry ids as Float64) come back
// exactly in the history rows, the frames' NodeId/ElementId arrays and the printed tables.
#include <fstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

TEST(LargeIds, IdsUpToTwoToThe53RoundTripThroughEveryOutput) {
  const std::string dir = scratch_dir("ids");
  const std::string deck = dir + "/big.inp";
  const std::string big = "9007199254740992", below = "9007199254740991";  // 2^53 and 2^53 - 1
  std::ofstream(deck) << "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n" << big << ", 0, 1, 0\n" << below
                      << ", 2, 0, 0\n7, 2, 1, 0\n*ELEMENT, TYPE=S4R, ELSET=E\n" << big << ", 1, 2, 3, " << big << "\n"
                      << below << ", 2, " << below << ", 7, 3\n"
                      << "*NSET, NSET=TOP\n3, " << big << "\n*NSET, NSET=BASE\n1, 2, " << below << "\n"
                      << "*MATERIAL, NAME=M\n*ELASTIC\n1e5, 0.3\n*DENSITY\n1e-6\n"
                         "*SHELL SECTION, ELSET=E, MATERIAL=M\n0.1\n*BOUNDARY\nBASE, 1, 6\n"
                         "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-5\n*CLOAD\nTOP, 3, 1.\n"
                         "*OUTPUT, FIELD, NUMBER INTERVAL=1\n*NODE OUTPUT\nU\n"
                         "*OUTPUT, HISTORY, NUMBER INTERVAL=1\n*NODE OUTPUT, NSET=TOP\nU\n"
                         "*NODE PRINT, NSET=TOP, FREQUENCY=1\nU\n*END STEP\n";
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--backend cpu --threads 1", &out), 0) << out;
  const std::string history = read_file(dir + "/out/history/TOP.csv");
  EXPECT_NE(history.find("," + big + ","), std::string::npos) << history.substr(0, 400);
  EXPECT_EQ(history.find("e+15"), std::string::npos) << history.substr(0, 400);
  const auto frames = pvd_frames(dir + "/out/big.pvd");
  ASSERT_FALSE(frames.empty());
  const std::vector<double> node_ids = read_vtu_array(dir + "/out/" + frames.back().second, "NodeId");
  EXPECT_EQ(node_ids, (std::vector<double>{1, 2, 3, 9007199254740992.0, 9007199254740991.0, 7}));
  const std::vector<double> element_ids = read_vtu_array(dir + "/out/" + frames.back().second, "ElementId");
  EXPECT_EQ(element_ids, (std::vector<double>{9007199254740992.0, 9007199254740991.0}));
  EXPECT_NE(read_file(dir + "/out/big.dat").find(" " + big + " "), std::string::npos);
}

}  // namespace
}  // namespace halfstep::test
