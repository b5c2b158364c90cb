// *NODE PRINT, *EL PRINT and *ENERGY PRINT write <job>.dat (issue 16): blocks at the
// increments each request's FREQUENCY names and at the end of the step, with the same
// values the history and field output carry. Field frames hold the requested variables.
#include <cmath>
#include <filesystem>
#include <map>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

const char* kCube = R"(*HEADING
printed output
*NODE
1, 0., 0., 0.
2, 1., 0., 0.
3, 1., 1., 0.
4, 0., 1., 0.
5, 0., 0., 1.
6, 1., 0., 1.
7, 1., 1., 1.
8, 0., 1., 1.
*ELEMENT, TYPE=C3D8R, ELSET=BLOCK
1, 1, 2, 3, 4, 5, 6, 7, 8
*NSET, NSET=BOTTOM
1, 2, 3, 4
*NSET, NSET=TOPN
5, 6, 7, 8
*MATERIAL, NAME=STEEL
*ELASTIC
1000., 0.3
*PLASTIC
2., 0
12., 1
*DENSITY
1.
*SOLID SECTION, ELSET=BLOCK, MATERIAL=STEEL
)";

/// Increment numbers of the .dat block headings, and the blocks' first lines, in order.
struct Dat {
  std::vector<long long> increments;
  std::vector<std::string> lines;
};

Dat read_dat(const std::string& path) {
  Dat d;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    d.lines.push_back(line);
    const auto at = line.find("I N C R E M E N T");
    if (at != std::string::npos) d.increments.push_back(std::stoll(line.substr(at + 17)));
  }
  return d;
}

TEST(PrintOutput, ExplicitStepPrintsAtEachRequestsFrequencyAndAtTheEnd) {
  const std::string dir = scratch_dir("print_explicit");
  std::ofstream(dir + "/p.inp") << kCube << R"(*STEP
*DYNAMIC, EXPLICIT
, 2.
*BOUNDARY
BOTTOM, 1, 3
*BOUNDARY, TYPE=VELOCITY
TOPN, 3, 3, 0.05
*OUTPUT, HISTORY, TIME INTERVAL=2.
*NODE OUTPUT, NSET=TOPN
U
*NODE PRINT, NSET=TOPN, FREQUENCY=20
U
*NODE PRINT, NSET=BOTTOM, FREQUENCY=50, TOTALS=YES
RF
*EL PRINT, ELSET=BLOCK, FREQUENCY=20
S, PEEQ
*ENERGY PRINT, FREQUENCY=20
*END STEP
)";
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/p.inp", dir + "/out", "", &out), 0) << out;
  const Dat d = read_dat(dir + "/out/p.dat");
  ASSERT_GE(d.increments.size(), 3u);
  const long long last = d.increments.back();
  for (long long i : d.increments) EXPECT_TRUE(i % 20 == 0 || i % 50 == 0 || i == last) << i;
  // The reaction table appears at multiples of 50 and at the end only.
  int forces = 0, expected = 0;
  for (const std::string& l : d.lines) forces += l.find("forces (fx,fy,fz) for set BOTTOM") != std::string::npos;
  for (long long i : d.increments) expected += i % 50 == 0 || i == last;
  EXPECT_EQ(forces, expected);
  // The last displacement table equals the history rows at the end of the step.
  std::size_t at = 0;
  for (std::size_t k = 0; k < d.lines.size(); ++k)
    if (d.lines[k].find("displacements (vx,vy,vz) for set TOPN") != std::string::npos) at = k;
  ASSERT_GT(at, 0u);
  const Csv h = read_csv(dir + "/out/history/TOPN.csv");
  for (int n = 0; n < 4; ++n) {
    std::istringstream row(d.lines[at + 2 + static_cast<std::size_t>(n)]);
    double id, u1, u2, u3;
    row >> id >> u1 >> u2 >> u3;
    const auto& r = h.rows[h.rows.size() - 4 + static_cast<std::size_t>(n)];
    EXPECT_EQ(id, r[h.col("node")]);
    EXPECT_NEAR(u1, r[h.col("U1")], 1e-6 * 0.1 + 1e-12);
    EXPECT_NEAR(u3, r[h.col("U3")], 1e-6 * 0.1);
  }
  // Element and energy tables are there, with a plastic strain above zero at the end.
  bool peeq = false, energy = false;
  for (std::size_t k = 0; k + 2 < d.lines.size(); ++k) {
    if (d.lines[k].find("equivalent plastic strain") != std::string::npos) {
      std::istringstream row(d.lines[k + 2]);
      double id, v;
      row >> id >> v;
      peeq = v > 0;
    }
    energy = energy || d.lines[k].find("energies (kinetic") != std::string::npos;
  }
  EXPECT_TRUE(peeq);
  EXPECT_TRUE(energy);
}

TEST(PrintOutput, StaticStepPrintsEveryConvergedIncrement) {
  const std::string dir = scratch_dir("print_static");
  std::string deck = kCube;
  const std::string plastic = "*PLASTIC\n2., 0\n12., 1\n";
  deck.replace(deck.find(plastic), plastic.size(), "");  // static steps refuse *PLASTIC
  std::ofstream(dir + "/s.inp") << deck << R"(*STEP
*STATIC, DIRECT
0.25, 1.
*BOUNDARY
BOTTOM, 1, 3
TOPN, 3, 3, 0.01
*NODE PRINT, NSET=BOTTOM, TOTALS=YES
RF
*END STEP
)";
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/s.inp", dir + "/out", "", &out), 0) << out;
  const Dat d = read_dat(dir + "/out/s.dat");
  EXPECT_EQ(d.increments, (std::vector<long long>{1, 2, 3, 4}));
}

// Field frames hold the variables the step's field requests name (ids and energy densities
// always): here U only, then U with S and PEEQ.
TEST(FieldOutput, FramesHoldTheRequestedVariablesOnly) {
  for (const bool stresses : {false, true}) {
    const std::string dir = scratch_dir(stresses ? "field_vars_s" : "field_vars_u");
    std::ofstream(dir + "/f.inp") << kCube << "*STEP\n*DYNAMIC, EXPLICIT\n, 0.2\n*BOUNDARY\nBOTTOM, 1, 3\n"
                                  << "*BOUNDARY, TYPE=VELOCITY\nTOPN, 3, 3, 0.05\n*OUTPUT, FIELD, NUMBER INTERVAL=2\n"
                                  << "*NODE OUTPUT\nU\n" << (stresses ? "*ELEMENT OUTPUT\nS, PEEQ\n" : "") << "*END STEP\n";
    std::string out;
    ASSERT_EQ(run_halfstep(dir + "/f.inp", dir + "/out", "", &out), 0) << out;
    const std::string vtu = dir + "/out/f_000002.vtu";
    EXPECT_EQ(read_vtu_array(vtu, "U").size(), 24u);
    EXPECT_EQ(read_vtu_array(vtu, "NodeId").size(), 8u);
    EXPECT_TRUE(read_vtu_array(vtu, "V").empty());
    EXPECT_TRUE(read_vtu_array(vtu, "RF").empty());
    EXPECT_TRUE(read_vtu_array(vtu, "E").empty());
    EXPECT_EQ(read_vtu_array(vtu, "S").size(), stresses ? 6u : 0u);
    EXPECT_EQ(read_vtu_array(vtu, "Mises").size(), stresses ? 1u : 0u);
    EXPECT_EQ(read_vtu_array(vtu, "PEEQ").size(), stresses ? 1u : 0u);
    EXPECT_EQ(read_vtu_array(vtu, "StrainEnergyDensity").size(), 1u);
  }
}

// NSET= and ELSET= of field requests shrink the frames to the named part (issue 16): an
// element set keeps its cells, a node set the cells it covers and, as vertices, its other
// nodes; the values are those of the whole-model frame at the same points and cells.
TEST(FieldOutput, SetsOfFieldRequestsShrinkTheFrames) {
  const char* bar = R"(*NODE
1, 0., 0., 0.
2, 1., 0., 0.
3, 1., 1., 0.
4, 0., 1., 0.
5, 0., 0., 1.
6, 1., 0., 1.
7, 1., 1., 1.
8, 0., 1., 1.
9, 2., 0., 0.
10, 2., 1., 0.
11, 2., 0., 1.
12, 2., 1., 1.
*ELEMENT, TYPE=C3D8R, ELSET=BAR
1, 1, 2, 3, 4, 5, 6, 7, 8
2, 2, 9, 10, 3, 6, 11, 12, 7
*ELSET, ELSET=SECOND
2
*NSET, NSET=LEFT
1, 4, 5, 8
*NSET, NSET=FIRSTN
1, 2, 3, 4, 5, 6, 7, 8
*NSET, NSET=TIP
11, 12
*MATERIAL, NAME=M
*ELASTIC
1000., 0.3
*DENSITY
1.
*SOLID SECTION, ELSET=BAR, MATERIAL=M
*STEP
*DYNAMIC, EXPLICIT
, 0.1
*BOUNDARY
LEFT, 1, 3
*BOUNDARY, TYPE=VELOCITY
TIP, 1, 1, 0.2
*OUTPUT, FIELD, NUMBER INTERVAL=1
)";
  const auto cells = [](const std::string& vtu) {
    const std::string c = read_file(vtu);
    const std::size_t at = c.find("NumberOfCells=\"");
    return at == std::string::npos ? -1 : std::stoi(c.substr(at + 15));
  };
  const std::map<std::string, std::string> requests = {
      {"whole", "*NODE OUTPUT\nU\n*ELEMENT OUTPUT\nS\n"},
      {"elset", "*ELEMENT OUTPUT, ELSET=SECOND\nS\n"},
      {"nset", "*NODE OUTPUT, NSET=FIRSTN\nU\n*NODE OUTPUT, NSET=TIP\nU\n"}};
  std::map<std::string, std::string> vtu;
  for (const auto& [name, request] : requests) {
    const std::string dir = scratch_dir("field_sets_" + name);
    std::ofstream(dir + "/f.inp") << bar << request << "*END STEP\n";
    std::string out;
    ASSERT_EQ(run_halfstep(dir + "/f.inp", dir + "/out", "", &out), 0) << out;
    vtu[name] = dir + "/out/f_000001.vtu";
  }
  EXPECT_EQ(cells(vtu["whole"]), 2);
  // Element set: the second element and its eight nodes.
  EXPECT_EQ(cells(vtu["elset"]), 1);
  EXPECT_EQ(read_vtu_array(vtu["elset"], "ElementId"), std::vector<double>{2});
  EXPECT_EQ(read_vtu_array(vtu["elset"], "NodeId"), (std::vector<double>{2, 3, 6, 7, 9, 10, 11, 12}));
  const std::vector<double> s_all = read_vtu_array(vtu["whole"], "S");
  ASSERT_EQ(s_all.size(), 12u);
  EXPECT_EQ(read_vtu_array(vtu["elset"], "S"), std::vector<double>(s_all.begin() + 6, s_all.end()));
  EXPECT_NE(s_all[6], 0.0);  // the bar is loaded: the comparison compares something
  // Node sets: the first element (all its nodes are in FIRSTN) and the two tip nodes as vertices.
  EXPECT_EQ(cells(vtu["nset"]), 3);
  EXPECT_EQ(read_vtu_array(vtu["nset"], "NodeId"), (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 11, 12}));
  const std::vector<double> ids = read_vtu_array(vtu["nset"], "ElementId");
  ASSERT_EQ(ids.size(), 3u);
  EXPECT_EQ(ids[0], 1);
  EXPECT_TRUE(std::isnan(ids[1]) && std::isnan(ids[2]));
  const std::vector<double> u_all = read_vtu_array(vtu["whole"], "U"), u = read_vtu_array(vtu["nset"], "U");
  ASSERT_EQ(u_all.size(), 36u);
  ASSERT_EQ(u.size(), 30u);
  EXPECT_EQ(std::vector<double>(u.begin(), u.begin() + 24), std::vector<double>(u_all.begin(), u_all.begin() + 24));
  EXPECT_EQ(std::vector<double>(u.begin() + 24, u.end()), std::vector<double>(u_all.begin() + 30, u_all.end()));
  EXPECT_GT(u[24], 0.0);
}

// A set name becomes a file name inside OUTDIR/history, whatever it holds (issue 20: "../../X"
// used to write outside the output folder).
TEST(HistoryOutput, SetNamesCannotLeaveTheOutputFolder) {
  const std::string dir = scratch_dir("hostile_names");
  std::filesystem::create_directories(dir + "/a/b");
  std::string deck = kCube;
  deck += "*NSET, NSET=\"../../ESCAPE\"\n5\n*STEP\n*DYNAMIC, EXPLICIT\n, 0.1\n*BOUNDARY\nBOTTOM, 1, 3\n"
          "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=\"../../ESCAPE\"\nU\n*END STEP\n";
  std::ofstream(dir + "/h.inp") << deck;
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/h.inp", dir + "/a/b/out", "", &out), 0) << out;
  EXPECT_TRUE(std::filesystem::exists(dir + "/a/b/out/history/_.._.._ESCAPE.csv"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/a/ESCAPE.csv"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/a/b/ESCAPE.csv"));
}

}  // namespace
}  // namespace halfstep::test
