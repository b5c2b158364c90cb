// Abaqus input-syntax rules that decks written by pre-processors rely on (issue 16): an
// element's data continue on the next line by its node count, not by a trailing comma;
// empty fields read as zero; trailing empty fields are dropped on every data line;
// keyword lines continue after a trailing comma; quoted names may hold blanks. Also the
// print requests, and `halfstep check` reporting every problem of a deck.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

#include "core/error.hpp"
#include "io/inp_reader.hpp"

namespace halfstep {
namespace {

Model read(const std::string& text) { return read_inp_string(text, "mem/conf.inp"); }

/// Eight corners of the unit cube, with the trailing-comma and empty-field forms Abaqus allows.
const char* kCube = R"(*NODE
1, 0., 0., 0.
2, 1., 0.,
3, 1., 1., 0.,
4, , 1.
5, 0., 0., 1.
6, 1., , 1.
7, 1., 1., 1.
8, 0., 1., 1.
)";

const char* kRest = R"(*MATERIAL, NAME=STEEL
*ELASTIC
210e9, 0.3
*DENSITY
7800
*SOLID SECTION, ELSET=BLOCK, MATERIAL=STEEL
*STEP
*DYNAMIC, EXPLICIT
, 1e-4
*BOUNDARY
"Bottom Face", 1, 3,
*CLOAD
7, 3, 1e3,
*END STEP
)";

TEST(InpConformance, EmptyAndTrailingFieldsReadAsZero) {
  const Model m = read(std::string(kCube) +
                       "*ELEMENT, TYPE=C3D8R, ELSET=BLOCK\n1, 1, 2, 3, 4, 5, 6, 7, 8,\n"
                       "*NSET, NSET=\"Bottom Face\"\n1, 2, 3, 4,\n" +
                       kRest);
  ASSERT_EQ(m.nodes.size(), 8);
  EXPECT_EQ(m.nodes.z[1], 0.0);  // "2, 1., 0.,"
  EXPECT_EQ(m.nodes.x[3], 0.0);  // "4, , 1."
  EXPECT_EQ(m.nodes.y[3], 1.0);
  EXPECT_EQ(m.nodes.y[5], 0.0);  // "6, 1., , 1."
  EXPECT_EQ(m.nodes.z[5], 1.0);
  ASSERT_EQ(m.elements.size(), 1);
  ASSERT_EQ(m.steps.size(), 1u);
  EXPECT_EQ(m.steps[0].boundaries.size(), 1u);
  EXPECT_EQ(m.steps[0].cloads.size(), 1u);
  EXPECT_EQ(m.nsets.at("BOTTOM FACE").members.size(), 4u);
}

TEST(InpConformance, ElementsContinueByTheirNodeCount) {
  // A complete C3D8 line with a trailing comma ends there; the next line is the next element.
  const Model a = read(std::string(kCube) + "9, 2., 0., 0.\n10, 2., 1., 0.\n11, 2., 0., 1.\n12, 2., 1., 1.\n" +
                       "*ELEMENT, TYPE=C3D8R,\n  ELSET=BLOCK\n"  // a keyword line continued
                       "1, 1, 2, 3, 4, 5, 6, 7, 8,\n"
                       "2, 2, 9, 10, 3,\n  6, 11, 12, 7\n"  // and one whose nodes go on to the next line
                       "*NSET, NSET=\"Bottom Face\"\n1, 2, 3, 4\n" +
                       kRest);
  ASSERT_EQ(a.elements.size(), 2);
  EXPECT_EQ(a.elements.id[1], 2);
  const int* c = a.elements.nodes_of(1);
  const std::int64_t expect[8] = {2, 9, 10, 3, 6, 11, 12, 7};
  for (int k = 0; k < 8; ++k) EXPECT_EQ(a.nodes.id[static_cast<std::size_t>(c[k])], expect[k]) << k;
  EXPECT_EQ(a.elements.loc[1].str(), "mem/conf.inp:17");  // the element's first line
  EXPECT_EQ(a.elsets.at("BLOCK").members.size(), 2u);
}

// *NSET, ELSET= takes the nodes of the element set's elements (element sets resolve first).
TEST(InpConformance, NodeSetFromAnElementSet) {
  const Model m = read(std::string(kCube) + "9, 2., 0., 0.\n10, 2., 1., 0.\n11, 2., 0., 1.\n12, 2., 1., 1.\n" +
                       "*NSET, NSET=RIGHT, ELSET=SECOND\n"  // before the element set it names
                       "*ELEMENT, TYPE=C3D8R, ELSET=BLOCK\n1, 1, 2, 3, 4, 5, 6, 7, 8\n"
                       "2, 2, 9, 10, 3, 6, 11, 12, 7\n*ELSET, ELSET=SECOND\n2\n"
                       "*NSET, NSET=\"Bottom Face\"\n1, 2, 3, 4\n" +
                       kRest);
  const std::vector<int>& right = m.nsets.at("RIGHT").members;
  ASSERT_EQ(right.size(), 8u);
  std::vector<std::int64_t> ids;
  for (int n : right) ids.push_back(m.nodes.id[static_cast<std::size_t>(n)]);
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<std::int64_t>{2, 3, 6, 7, 9, 10, 11, 12}));
}

TEST(InpConformance, AnElementCutShortOrTooLongIsRefusedAtItsLine) {
  const std::string head = std::string(kCube) + "*ELEMENT, TYPE=C3D8R, ELSET=BLOCK\n";
  try {
    read(head + "1, 1, 2, 3, 4, 5\n*NSET, NSET=\"Bottom Face\"\n1\n" + kRest);
    FAIL() << "accepted an element with 5 of 8 nodes";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("mem/conf.inp:11"), std::string::npos) << what;
    EXPECT_NE(what.find("element 1 has 5 of its 8 node ids"), std::string::npos) << what;
  }
  try {
    read(head + "1, 1, 2, 3, 4,\n5, 6, 7, 8, 9\n" + kRest);
    FAIL() << "accepted nine node ids";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("mem/conf.inp:12"), std::string::npos) << what;
    EXPECT_NE(what.find("too many fields on *ELEMENT data line"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace halfstep

namespace halfstep {
namespace {

// *NODE PRINT, *EL PRINT and *ENERGY PRINT become print requests of their step.
TEST(InpConformance, PrintRequestsAreRead) {
  const Model m = read(std::string(kCube) + "*ELEMENT, TYPE=C3D8R, ELSET=BLOCK\n1, 1, 2, 3, 4, 5, 6, 7, 8\n"
                       "*NSET, NSET=\"Bottom Face\"\n1, 2, 3, 4\n" +
                       R"(*MATERIAL, NAME=STEEL
*ELASTIC
210e9, 0.3
*DENSITY
7800
*SOLID SECTION, ELSET=BLOCK, MATERIAL=STEEL
*STEP
*DYNAMIC, EXPLICIT
, 1e-4
*BOUNDARY
"Bottom Face", 1, 3
*NODE PRINT, NSET="Bottom Face", FREQUENCY=10, TOTALS=YES, SUMMARY=NO
RF, UT
*EL PRINT, ELSET=BLOCK, POSITION=INTEGRATION POINTS
S, E, PEEQ
*ENERGY PRINT, FREQUENCY=0
*END STEP
)");
  const std::vector<PrintRequest>& p = m.steps[0].prints;
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].kind, PrintRequest::Kind::Node);
  EXPECT_EQ(p[0].set, "BOTTOM FACE");
  EXPECT_EQ(p[0].frequency, 10);
  EXPECT_TRUE(p[0].totals);
  EXPECT_EQ(p[0].vars, (std::vector<std::string>{"RF", "U"}));
  EXPECT_EQ(p[1].kind, PrintRequest::Kind::Element);
  EXPECT_EQ(p[1].frequency, 1);
  EXPECT_EQ(p[1].vars, (std::vector<std::string>{"S", "E", "PEEQ"}));
  EXPECT_FALSE(p[1].centroidal);  // POSITION=INTEGRATION POINTS: Abaqus's default, printed as asked
  EXPECT_EQ(p[2].kind, PrintRequest::Kind::Energy);
  EXPECT_EQ(p[2].frequency, 0);
  EXPECT_TRUE(m.warnings.empty());
}

// A print request without a data line names no variable: the peer's way to wipe a step's
// selection (FREQUENCY=0 too), so it prints nothing; said once unless FREQUENCY=0 asked for that.
TEST(InpConformance, PrintWithoutVariablesPrintsNothing) {
  const auto deck = [](const std::string& prints) {
    return "*NODE\n1, 0., 0., 0.\n2, 1., 0., 0.\n3, 1., 1., 0.\n4, 0., 1., 0.\n*ELEMENT, TYPE=CPS4, ELSET=E\n"
           "1, 1, 2, 3, 4\n*MATERIAL, NAME=M\n*ELASTIC\n1., 0.3\n*SOLID SECTION, ELSET=E, MATERIAL=M, OFFSET=0.\n*STEP\n"
           "*STATIC\n" + prints + "*NODE PRINT\nU\n*END STEP\n";
  };
  const Model quiet = read(deck("*EL PRINT, FREQUENCY=0\n*NODE PRINT, FREQUENCY=0\n"));
  ASSERT_EQ(quiet.steps[0].prints.size(), 1u);
  EXPECT_EQ(quiet.steps[0].prints[0].vars, std::vector<std::string>{"U"});
  EXPECT_TRUE(quiet.warnings.empty());
  const Model said = read(deck("*NODE PRINT\n"));
  ASSERT_EQ(said.steps[0].prints.size(), 1u);
  ASSERT_EQ(said.warnings.size(), 1u);
  EXPECT_NE(said.warnings[0].find("names no variables (no data line): it prints nothing"), std::string::npos)
      << said.warnings[0];
  // *STEP, AMPLITUDE=RAMP is a static step's default.
  std::string ramp = deck("");
  ramp.replace(ramp.find("*STEP\n"), 6, "*STEP, AMPLITUDE=RAMP\n");
  EXPECT_NO_THROW(read(ramp));
  // A nonzero OFFSET would move the plane's section: refused.
  std::string off = deck("");
  off.replace(off.find("OFFSET=0."), 9, "OFFSET=0.5");
  EXPECT_THROW(read(off), InputError);
}

// *NODE PRINT's NT in a model without temperatures: the peer prints no table, so NT is dropped
// with a warning (a request left with nothing prints nothing); with temperatures it is refused
// with the request's line (the table is not written yet).
TEST(InpConformance, NodePrintNtWithoutTemperaturesPrintsNothing) {
  const auto deck = [](const std::string& model, const std::string& prints) {
    return "*NODE, NSET=ALL\n1, 0., 0., 0.\n2, 1., 0., 0.\n3, 1., 1., 0.\n4, 0., 1., 0.\n*ELEMENT, TYPE=CPS4, ELSET=E\n"
           "1, 1, 2, 3, 4\n*MATERIAL, NAME=M\n*ELASTIC\n1., 0.3\n*SOLID SECTION, ELSET=E, MATERIAL=M\n" + model +
           "*STEP\n*STATIC\n" + prints + "*END STEP\n";
  };
  const Model m = read(deck("", "*NODE PRINT\nU, NT\n*NODE PRINT, NSET=ALL\nNT\n"));
  ASSERT_EQ(m.steps[0].prints.size(), 1u);
  EXPECT_EQ(m.steps[0].prints[0].vars, std::vector<std::string>{"U"});
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_NE(m.warnings[0].find("the model has no temperatures, so no table is printed"), std::string::npos)
      << m.warnings[0];
  try {
    read(deck("*INITIAL CONDITIONS, TYPE=TEMPERATURE\nALL, 20.\n", "*NODE PRINT\nNT\n"));
    FAIL() << "NT with temperatures";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(":16:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("*NODE PRINT of NT in a model with temperatures"), std::string::npos) << e.what();
  }
}

// The peer's spellings: *RIGID BODY, NSET= is TIE NSET= (its nodes follow the body in every
// dof); *ELASTIC, TYPE=ORTHO is ORTHOTROPIC (the same nine constants).
TEST(InpConformance, PeerSpellingsOfRigidBodyAndOrthotropy) {
  const std::string mesh =
      "*NODE\n1, 0., 0., 0.\n2, 1., 0., 0.\n3, 1., 1., 0.\n4, 0., 1., 0.\n5, 0., 0., 1.\n6, 1., 0., 1.\n7, 1., 1., 1.\n"
      "8, 0., 1., 1.\n9, 0.5, 0.5, 2.\n*ELEMENT, TYPE=C3D8R, ELSET=B\n1, 1, 2, 3, 4, 5, 6, 7, 8\n*NSET, NSET=TOP\n5, 6, 7, 8\n"
      "*MATERIAL, NAME=M\n*ELASTIC, TYPE=ORTHO\n200., 50., 150., 40., 45., 100., 30., 35., 25.\n*DENSITY\n1e-3\n"
      "*SOLID SECTION, ELSET=B, MATERIAL=M\n*RIGID BODY, REF NODE=9, NSET=TOP\n*STEP\n*DYNAMIC, EXPLICIT\n, 1e-3\n"
      "*END STEP\n";
  const Model m = read(mesh);
  ASSERT_EQ(m.rigid_bodies.size(), 1u);
  EXPECT_EQ(m.rigid_bodies[0].tied.size(), 4u);
  EXPECT_TRUE(m.rigid_bodies[0].pinned.empty());
  EXPECT_EQ(m.materials.at("M").elastic_type, ElasticType::Orthotropic);
  std::string both = mesh;
  both.replace(both.find("NSET=TOP\n*STEP"), 8, "NSET=TOP, TIE NSET=TOP");
  EXPECT_THROW(read(both), InputError);
}

// *EL PRINT, POSITION=: CENTROIDAL prints a row per element; AVERAGED AT NODES is not computed
// and says that the integration points' values are printed; anything else is refused.
TEST(InpConformance, ElPrintPositions) {
  const auto deck = [](const std::string& position) {
    return "*NODE\n1, 0., 0., 0.\n2, 1., 0., 0.\n3, 1., 1., 0.\n4, 0., 1., 0.\n*ELEMENT, TYPE=CPS4, ELSET=E\n"
           "1, 1, 2, 3, 4\n*MATERIAL, NAME=M\n*ELASTIC\n1., 0.3\n*SOLID SECTION, ELSET=E, MATERIAL=M\n*STEP\n*STATIC\n"
           "*EL PRINT, ELSET=E, POSITION=" + position + "\nS\n*END STEP\n";
  };
  const Model centroid = read(deck("CENTROIDAL"));
  EXPECT_TRUE(centroid.steps[0].prints[0].centroidal);
  EXPECT_TRUE(centroid.warnings.empty());
  const Model nodes = read(deck("AVERAGED AT NODES"));
  EXPECT_FALSE(nodes.steps[0].prints[0].centroidal);
  ASSERT_EQ(nodes.warnings.size(), 1u);
  EXPECT_NE(nodes.warnings[0].find("at the integration points"), std::string::npos) << nodes.warnings[0];
  try {
    read(deck("EVERYWHERE"));
    ADD_FAILURE() << "POSITION=EVERYWHERE was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("INTEGRATION POINTS, CENTROIDAL"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("conf.inp:14:"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace halfstep

namespace halfstep {
namespace {

// `halfstep check` reads on after a problem: every independent problem is reported with its
// line, then a count; the cap stops the reading.
TEST(InpConformance, CheckReportsEveryProblemWithItsLine) {
  const std::string path = ::testing::TempDir() + "/halfstep_many_errors.inp";
  std::ofstream(path) << R"(*HEADING
several problems
*NODE
1, 0., 0., 0.
2, 1., 0., 0.
3, 1., 1., 0.
4, 0., 1., 0.
*ELEMENT, TYPE=S4R, ELSET=PLATE
1, 1, 2, 3, 4
*MATERIAL, NAME=STEEL
*ELASTIC
-210e9, 0.3
*DENSITY
7800
*SHELL SECTION, ELSET=PLATE, MATERIAL=STEEL
0.01
*STEP
*DYNAMIC, EXPLICIT
, 1e-3
*BOUNDARY
1, 1, 9
*CLOAD
3, 3, abc
*END STEP
)";
  try {
    read_inp_all_errors(path, 50);
    FAIL() << "accepted a deck with three problems";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("halfstep_many_errors.inp:12: error: Young's modulus must be positive"), std::string::npos) << what;
    EXPECT_NE(what.find("halfstep_many_errors.inp:21: error: last dof 9 is out of range"), std::string::npos) << what;
    EXPECT_NE(what.find("halfstep_many_errors.inp:23: error: expected a real number for the load magnitude"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("3 problems found"), std::string::npos) << what;
  }
  try {
    read_inp_all_errors(path, 2);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("2 problems found (reading stopped there)"), std::string::npos) << what;
    EXPECT_EQ(what.find(":23:"), std::string::npos) << what;
  }
  // The reader of a run stops at the first.
  try {
    read_inp(path);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).find("problems found"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(":12: error"), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
}


TEST(InpConformance, CheckReadsTheKeywordAfterABlockEndProblem) {
  // *MPC without data lines is refused when its block ends, at the next keyword; that
  // keyword's own problem (a bad load magnitude) must be reported too.
  const std::string path = ::testing::TempDir() + "halfstep_block_end.inp";
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    const std::string deck =
        "*NODE\n1, 0., 0., 0.\n2, 1., 0., 0.\n3, 1., 1., 0.\n4, 0., 1., 0.\n"
        "*ELEMENT, TYPE=S4R, ELSET=PLATE\n1, 1, 2, 3, 4\n*MATERIAL, NAME=STEEL\n*ELASTIC\n210e9, 0.3\n"
        "*DENSITY\n7800\n*SHELL SECTION, ELSET=PLATE, MATERIAL=STEEL\n0.01\n*MPC\n"
        "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-3\n*CLOAD\n3, 3, abc\n*END STEP\n";
    std::fwrite(deck.data(), 1, deck.size(), f);
    std::fclose(f);
  }
  std::string what;
  try {
    read_inp_all_errors(path, 50);
  } catch (const InputError& e) {
    what = e.what();
  }
  std::remove(path.c_str());
  EXPECT_NE(what.find("*MPC needs a data line"), std::string::npos) << what;
  EXPECT_NE(what.find("halfstep_block_end.inp:20: error: expected a real number for the load magnitude"),
            std::string::npos)
      << what;
  EXPECT_NE(what.find("2 problems found"), std::string::npos) << what;
}

}  // namespace
}  // namespace halfstep
