// Positive tests of the keyword-deck reader: what each keyword puts into the Model.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "io/inp_reader.hpp"
#include "io_test_util.hpp"

namespace halfstep {
namespace {

using test::kPlateMesh;
using test::kPlateStep;
using test::TempDir;

namespace fs = std::filesystem;


Model read(const std::string& text) { return read_inp_string(text, "mem/test.inp"); }


std::vector<std::int64_t> ids(const Model& m, const std::vector<int>& nodes) {
  std::vector<std::int64_t> out;
  for (int i : nodes) out.push_back(m.nodes.id[static_cast<std::size_t>(i)]);
  return out;
}

std::vector<std::int64_t> element_ids(const Model& m, const std::vector<int>& elems) {
  std::vector<std::int64_t> out;
  for (int i : elems) out.push_back(m.elements.id[static_cast<std::size_t>(i)]);
  return out;
}

TEST(InpReader, MinimalDeck) {
  const Model m = read(std::string(kPlateMesh) + kPlateStep);
  EXPECT_EQ(m.deck_path, "mem/test.inp");
  ASSERT_EQ(m.nodes.size(), 6);
  ASSERT_EQ(m.elements.size(), 2);
  EXPECT_EQ(m.elements.abaqus_type[0], "S4R");
  EXPECT_EQ(m.elements.conn, (std::vector<int>{0, 1, 4, 3, 1, 2, 5, 4}));
  EXPECT_EQ(m.nodes.loc[1].str(), "mem/test.inp:3");
  EXPECT_EQ(m.elements.loc[1].str(), "mem/test.inp:10");
  ASSERT_EQ(m.sections.size(), 1u);
  EXPECT_EQ(m.sections[0].elset, "PLATE");
  EXPECT_EQ(m.sections[0].material, "STEEL");
  EXPECT_DOUBLE_EQ(m.sections[0].thickness, 0.01);
  EXPECT_EQ(m.sections[0].thickness_points, 5);
  const Material& steel = m.materials.at("STEEL");
  EXPECT_DOUBLE_EQ(steel.youngs, 210e9);
  EXPECT_DOUBLE_EQ(steel.poisson, 0.3);
  EXPECT_DOUBLE_EQ(steel.density, 7800);
  EXPECT_DOUBLE_EQ(steel.alpha, 0);
  ASSERT_EQ(m.steps.size(), 1u);
  EXPECT_EQ(m.steps[0].name, "Step-1");
  EXPECT_DOUBLE_EQ(m.steps[0].time_period, 1e-3);
  EXPECT_FALSE(m.steps[0].fixed_increment);
  EXPECT_TRUE(m.warnings.empty());
}

// Every supported keyword in one deck, written the way real decks are: mixed case,
// comments, blank lines, continuations.
TEST(InpReader, FullDeck) {
  const std::string deck = R"(*Heading
Plate under pressure
** a comment line
second heading line
*Node
1, 0., 0.
2, 1.0, 0.0, 0.0
3, 2.0, 0.0, 0.0,
4, 0, 1
5, 1, 1, 0
6, +2.0D0, 1.0E0, 0

*Element, type=S4, elset=Left
1, 1, 2, 5, 4
*element, TYPE=s4r, ELSET=right
2, 2, 3,
   6, 5
*Elset, elset=Both
Left, right
*Nset, nset=Edge, generate
1, 4, 3
*Nset, nset=Corner
3
*Nset, nset=Outer
Edge, corner, 6,
2
*Material, name="Soft Steel"
*Density
7.8e-9
*Elastic, type=ISOTROPIC
210000., 0.3
*Damping, alpha=12.5
*Shell Section, elset=Both, material="Soft Steel", section integration=GAUSS
1.5, 3
*Amplitude, name=Ramp
0., 0., 1e-3, 1.,
2e-3, 1.
*Amplitude, name=Smooth, definition=SMOOTH STEP
0, 0, 1e-3, 1
*Initial Conditions, type=VELOCITY
Edge, 3, -10.
5, 1, 2.5
*Initial Conditions, type=ROTATING VELOCITY
Corner, 100., 0, 0, 0, 0, 0, 1
1., 2., 3.
*Boundary
Edge, ENCASTRE
6, 1, 2
*Step, name=Load, nlgeom=YES
*Dynamic, Explicit
, 2e-3
*Boundary, amplitude=Ramp
Corner, 3, 3, 0.25
*Boundary, type=VELOCITY
5, 1,, 1.5
*Cload, amplitude=Smooth
Corner, 3, -100.
*Dload
Both, P, 1e5
*Output, field, number interval=10
*Node Output
U, V
*Element Output, elset=Right
S, SF
*Output, history, time interval=1e-4
*Node Output, nset=Corner
UT, UR, RM
*End Step
*STEP, NAME="Free ringing"
*DYNAMIC, EXPLICIT, DIRECT USER CONTROL
1e-7, 5e-3
*BOUNDARY, OP=NEW
EDGE, XSYMM
*CLOAD, OP=NEW
*OUTPUT, FIELD, VARIABLE=PRESELECT
*OUTPUT, HISTORY, VARIABLE=PRESELECT
*END STEP
)";
  const Model m = read(deck);
  EXPECT_EQ(m.heading, "Plate under pressure\nsecond heading line");
  ASSERT_EQ(m.nodes.size(), 6);
  EXPECT_DOUBLE_EQ(m.nodes.x[2], 2.0);  // continued line
  EXPECT_DOUBLE_EQ(m.nodes.z[3], 0.0);  // z omitted
  EXPECT_DOUBLE_EQ(m.nodes.x[5], 2.0);  // Fortran exponent, leading '+'
  EXPECT_EQ(m.elements.abaqus_type.to_vector(), (std::vector<std::string>{"S4", "S4R"}));

  EXPECT_EQ(element_ids(m, m.elsets.at("BOTH").members), (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(ids(m, m.nsets.at("EDGE").members), (std::vector<std::int64_t>{1, 4}));
  EXPECT_EQ(ids(m, m.nsets.at("OUTER").members), (std::vector<std::int64_t>{1, 4, 3, 6, 2}));

  const Material& mat = m.materials.at("SOFT STEEL");
  EXPECT_EQ(mat.name, "SOFT STEEL");
  EXPECT_DOUBLE_EQ(mat.youngs, 210000.);
  EXPECT_DOUBLE_EQ(mat.density, 7.8e-9);
  EXPECT_DOUBLE_EQ(mat.alpha, 12.5);
  ASSERT_EQ(m.sections.size(), 1u);
  EXPECT_EQ(m.sections[0].material, "SOFT STEEL");
  EXPECT_DOUBLE_EQ(m.sections[0].thickness, 1.5);
  EXPECT_EQ(m.sections[0].thickness_points, 3);

  const Amplitude& ramp = m.amplitudes.at("RAMP");
  EXPECT_EQ(ramp.kind, Amplitude::Kind::Tabular);
  EXPECT_EQ(ramp.time, (std::vector<double>{0, 1e-3, 2e-3}));
  EXPECT_EQ(ramp.value, (std::vector<double>{0, 1, 1}));
  EXPECT_EQ(m.amplitudes.at("SMOOTH").kind, Amplitude::Kind::SmoothStep);

  ASSERT_EQ(m.initial_velocities.size(), 2u);
  EXPECT_EQ(ids(m, m.initial_velocities[0].nodes), (std::vector<std::int64_t>{1, 4}));
  EXPECT_EQ(m.initial_velocities[0].dof, 3);
  EXPECT_DOUBLE_EQ(m.initial_velocities[0].value, -10.);
  EXPECT_EQ(ids(m, m.initial_velocities[1].nodes), (std::vector<std::int64_t>{5}));
  ASSERT_EQ(m.initial_rotations.size(), 1u);
  const InitialRotatingVelocity& rot = m.initial_rotations[0];
  EXPECT_EQ(ids(m, rot.nodes), (std::vector<std::int64_t>{3}));
  EXPECT_DOUBLE_EQ(rot.omega, 100.);
  EXPECT_EQ(rot.a, (std::array<double, 3>{0, 0, 0}));
  EXPECT_EQ(rot.b, (std::array<double, 3>{0, 0, 1}));
  EXPECT_EQ(rot.v0, (std::array<double, 3>{1, 2, 3}));

  ASSERT_EQ(m.steps.size(), 2u);
  const Step& s1 = m.steps[0];
  EXPECT_EQ(s1.name, "Load");
  EXPECT_DOUBLE_EQ(s1.time_period, 2e-3);
  // Model-level holds first (ENCASTRE on EDGE, dofs 1-2 of node 6), then the step's own.
  ASSERT_EQ(s1.boundaries.size(), 4u);
  EXPECT_EQ(ids(m, s1.boundaries[0].nodes), (std::vector<std::int64_t>{1, 4}));
  EXPECT_EQ(s1.boundaries[0].first_dof, 1);
  EXPECT_EQ(s1.boundaries[0].last_dof, 6);
  EXPECT_EQ(s1.boundaries[1].first_dof, 1);
  EXPECT_EQ(s1.boundaries[1].last_dof, 2);
  EXPECT_DOUBLE_EQ(s1.boundaries[1].value, 0);
  EXPECT_EQ(s1.boundaries[2].amplitude, "RAMP");
  EXPECT_EQ(s1.boundaries[2].first_dof, 3);
  EXPECT_DOUBLE_EQ(s1.boundaries[2].value, 0.25);
  EXPECT_FALSE(s1.boundaries[2].velocity);
  EXPECT_TRUE(s1.boundaries[3].velocity);
  EXPECT_EQ(s1.boundaries[3].first_dof, 1);
  EXPECT_EQ(s1.boundaries[3].last_dof, 1);
  EXPECT_DOUBLE_EQ(s1.boundaries[3].value, 1.5);
  EXPECT_TRUE(s1.boundaries[3].amplitude.empty());
  ASSERT_EQ(s1.cloads.size(), 1u);
  EXPECT_EQ(s1.cloads[0].dof, 3);
  EXPECT_DOUBLE_EQ(s1.cloads[0].magnitude, -100.);
  EXPECT_EQ(s1.cloads[0].amplitude, "SMOOTH");
  ASSERT_EQ(s1.dloads.size(), 1u);
  EXPECT_EQ(element_ids(m, s1.dloads[0].elements), (std::vector<std::int64_t>{1, 2}));
  EXPECT_DOUBLE_EQ(s1.dloads[0].magnitude, -1e5);  // a shell's P acts along its normal: stored as pushing against it, negated
  EXPECT_FALSE(s1.boundary_op_new || s1.cload_op_new || s1.dload_op_new);

  ASSERT_EQ(s1.outputs.size(), 2u);
  const OutputRequest& field = s1.outputs[0];
  EXPECT_EQ(field.kind, OutputRequest::Kind::Field);
  EXPECT_EQ(field.number_interval, 10);
  EXPECT_FALSE(field.time_interval);
  EXPECT_EQ(field.nset, "");
  EXPECT_EQ(field.node_vars, (std::vector<std::string>{"U", "V"}));
  EXPECT_EQ(field.elset, "RIGHT");
  EXPECT_EQ(field.element_vars, (std::vector<std::string>{"S", "SF"}));
  const OutputRequest& hist = s1.outputs[1];
  EXPECT_EQ(hist.kind, OutputRequest::Kind::History);
  EXPECT_DOUBLE_EQ(*hist.time_interval, 1e-4);
  EXPECT_EQ(hist.nset, "CORNER");
  EXPECT_EQ(hist.node_vars, (std::vector<std::string>{"U", "RF"}));

  const Step& s2 = m.steps[1];
  EXPECT_EQ(s2.name, "Free ringing");
  ASSERT_TRUE(s2.fixed_increment);
  EXPECT_DOUBLE_EQ(*s2.fixed_increment, 1e-7);
  EXPECT_DOUBLE_EQ(s2.time_period, 5e-3);
  EXPECT_TRUE(s2.boundary_op_new);
  EXPECT_TRUE(s2.cload_op_new);
  EXPECT_FALSE(s2.dload_op_new);
  ASSERT_EQ(s2.boundaries.size(), 2u);  // XSYMM = dof 1 and dofs 5-6
  EXPECT_EQ(s2.boundaries[0].first_dof, 1);
  EXPECT_EQ(s2.boundaries[0].last_dof, 1);
  EXPECT_EQ(s2.boundaries[1].first_dof, 5);
  EXPECT_EQ(s2.boundaries[1].last_dof, 6);
  ASSERT_EQ(s2.outputs.size(), 2u);
  EXPECT_EQ(s2.outputs[0].node_vars, (std::vector<std::string>{"U", "V", "RF"}));
  EXPECT_EQ(s2.outputs[0].element_vars, (std::vector<std::string>{"S", "SF", "SM", "E"}));
  EXPECT_EQ(s2.outputs[0].number_interval, 20);
  EXPECT_TRUE(s2.outputs[1].node_vars.empty());  // history PRESELECT: energies only
  EXPECT_TRUE(s2.outputs[1].nset.empty());
  EXPECT_DOUBLE_EQ(*s2.outputs[1].time_interval, 5e-3 / 200);
  EXPECT_TRUE(m.warnings.empty());
}

TEST(InpReader, KeywordsAndParametersIgnoreCaseAndBlanks) {
  const std::string deck = R"(*node
1, 0, 0
2, 1, 0
3, 1, 1
4, 0, 1
*  Element ,  Type = s4 , ElSet = "Plate"
1, 1, 2, 3, 4
*material,name=steel
*elastic
1., 0.3
*density
1.
*shellsection, ELSET = plate ,material=STEEL,
  section integration = simpson
0.01
*step
*dynamic,explicit
,1.
*endstep
)";
  const Model m = read(deck);
  ASSERT_EQ(m.sections.size(), 1u);
  EXPECT_EQ(m.sections[0].elset, "PLATE");
  EXPECT_EQ(m.sections[0].material, "STEEL");
  EXPECT_EQ(m.elsets.count("PLATE"), 1u);
  EXPECT_DOUBLE_EQ(m.steps[0].time_period, 1.0);
}

TEST(InpReader, ElementsMayPrecedeTheirNodes) {
  const std::string deck = R"(*ELEMENT, TYPE=S4
7, 10, 20, 30, 40
*NODE
10, 0, 0
20, 1, 0
30, 1, 1
40, 0, 1
*ELSET, ELSET=E
7
*MATERIAL, NAME=M
*ELASTIC
1, 0
*DENSITY
1
*SHELL SECTION, ELSET=E, MATERIAL=M
1
)" + std::string(kPlateStep);
  const Model m = read(deck);
  EXPECT_EQ(m.elements.conn, (std::vector<int>{0, 1, 2, 3}));
}

// Coordinates left out are zero (Abaqus; the peer's planestress3 deck puts a node at the
// origin with its id alone).
TEST(InpReader, OmittedNodeCoordinatesAreZero) {
  const std::string deck = R"(*NODE
10
20, 1.
30, 1, 1
40, , 1, 2
*ELEMENT, TYPE=S4, ELSET=E
7, 10, 20, 30, 40
*MATERIAL, NAME=M
*ELASTIC
1, 0
*DENSITY
1
*SHELL SECTION, ELSET=E, MATERIAL=M
1
)" + std::string(kPlateStep);
  const Model m = read(deck);
  EXPECT_EQ(m.nodes.x, (std::vector<double>{0, 1, 1, 0}));
  EXPECT_EQ(m.nodes.y, (std::vector<double>{0, 0, 1, 1}));
  EXPECT_EQ(m.nodes.z, (std::vector<double>{0, 0, 0, 2}));
}

TEST(InpReader, RepeatedSetsAppendAndStayUnique) {
  const std::string deck = std::string(kPlateMesh) + R"(*NSET, NSET=A
3, 1
*NSET, NSET=B, GENERATE
1, 6, 1
*NSET, NSET=A
1, 2, B
*ELSET, ELSET=ONE
2
*ELSET, ELSET=ALLE
ONE, PLATE
)" + kPlateStep;
  const Model m = read(deck);
  EXPECT_EQ(ids(m, m.nsets.at("A").members), (std::vector<std::int64_t>{3, 1, 2, 4, 5, 6}));
  EXPECT_EQ(element_ids(m, m.elsets.at("ALLE").members), (std::vector<std::int64_t>{2, 1}));
  EXPECT_EQ(ids(m, m.nsets.at("ALLN").members), (std::vector<std::int64_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(m.nsets.at("A").loc.line, 18);  // kPlateMesh has 17 lines
}

TEST(InpReader, IncludesResolveRelativeToTheIncludingFile) {
  TempDir dir;
  dir.write("mesh/nodes.inp", "1, 0, 0\n2, 1, 0\n3, 1, 1\n4, 0, 1\n");
  dir.write("mesh/mesh.inp",
            "*NODE\n*INCLUDE, INPUT=nodes.inp\n*ELEMENT, TYPE=S4, ELSET=E\n1, 1, 2, 3, 4\n");
  dir.write("main.inp", "** main deck\n*INCLUDE, INPUT=mesh/mesh.inp\n"
                        "*MATERIAL, NAME=M\n*ELASTIC\n1, 0.2\n*DENSITY\n1\n"
                        "*SHELL SECTION, ELSET=E, MATERIAL=M\n0.1\n" + std::string(kPlateStep));
  const Model m = read_inp((dir.path() / "main.inp").string());
  ASSERT_EQ(m.nodes.size(), 4);
  EXPECT_EQ(m.nodes.loc[2].line, 3);
  EXPECT_EQ(fs::path(m.nodes.loc[2].file).filename(), "nodes.inp");
  EXPECT_EQ(fs::path(m.elements.loc[0].file).filename(), "mesh.inp");
  EXPECT_EQ(m.elements.loc[0].line, 4);
  EXPECT_EQ(m.sections[0].loc.line, 8);
}

TEST(InpReader, ErrorInsideIncludeNamesTheIncludedFile) {
  TempDir dir;
  dir.write("bad.inp", "*NODE\n1, 0, 0\n1, 1, 0\n");
  dir.write("main.inp", "*HEADING\nx\n*INCLUDE, INPUT=bad.inp\n");
  try {
    read_inp((dir.path() / "main.inp").string());
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(fs::path(e.where().file).filename(), "bad.inp");
    EXPECT_EQ(e.where().line, 3);
    EXPECT_NE(std::string(e.what()).find("bad.inp:3: error: node 1 is defined twice"), std::string::npos)
        << e.what();
  }
}

TEST(InpReader, StringDecksIncludeRelativeToTheVirtualPath) {
  TempDir dir;
  dir.write("step.inp", kPlateStep);
  const Model m = read_inp_string(std::string(kPlateMesh) + "*INCLUDE, INPUT=step.inp\n",
                                  (dir.path() / "virtual.inp").string());
  EXPECT_EQ(m.steps.size(), 1u);
}

TEST(InpReader, HarmlessKeywordsWarnOncePerKeyword) {
  const std::string deck = "*PREPRINT, ECHO=NO\n" + std::string(kPlateMesh) +
                           "*SECTION CONTROLS, NAME=EC, HOURGLASS=ENHANCED\n1., 1., 1.\n"
                           "*STEP\n*DYNAMIC, EXPLICIT\n, 1\n*BULK VISCOSITY\n0.06, 1.2\n"
                           "*RESTART, WRITE, NUMBER INTERVAL=1\n*MONITOR, DOF=1, NODE=2\n"
                           "*PREPRINT\n*END STEP\n";
  const Model m = read(deck);
  // *RESTART and *BULK VISCOSITY are read, not warned about.
  ASSERT_EQ(m.warnings.size(), 3u);
  EXPECT_EQ(m.restart.number_interval, 1);
  EXPECT_EQ(m.restart.frequency, 0);
  EXPECT_EQ(m.warnings[0], "keyword *PREPRINT is not supported and was ignored (first at mem/test.inp:1)");
  EXPECT_NE(m.warnings[1].find("*SECTION CONTROLS"), std::string::npos);
  EXPECT_NE(m.warnings[2].find("*MONITOR"), std::string::npos);
}

// *BULK VISCOSITY: its step's b1, b2 (a blank field keeps Abaqus's default); bad values,
// extra fields and a second one in a step name the line.
TEST(InpReader, BulkViscosityIsReadPerStep) {
  const std::string step = "*STEP\n*DYNAMIC, EXPLICIT\n, 1\n";
  const Model m = read(std::string(kPlateMesh) + step + "*BULK VISCOSITY\n0.1, 2.5\n*END STEP\n" + step +
                       "*BULK VISCOSITY\n, 0\n*END STEP\n" + step + "*END STEP\n");
  ASSERT_EQ(m.steps.size(), 3u);
  ASSERT_TRUE(m.steps[0].bulk_viscosity);
  EXPECT_EQ(m.steps[0].bulk_viscosity->linear, 0.1);
  EXPECT_EQ(m.steps[0].bulk_viscosity->quadratic, 2.5);
  ASSERT_TRUE(m.steps[1].bulk_viscosity);
  EXPECT_EQ(m.steps[1].bulk_viscosity->linear, 0.06);
  EXPECT_EQ(m.steps[1].bulk_viscosity->quadratic, 0.0);
  EXPECT_FALSE(m.steps[2].bulk_viscosity);
  const auto error = [&](const std::string& lines) {
    try {
      read(std::string(kPlateMesh) + step + lines + "*END STEP\n");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("*BULK VISCOSITY\n-0.06, 1.2\n"),
            "mem/test.inp:22: error: the linear bulk viscosity coefficient must be a number from 0 to 100, got '-0.06'");
  EXPECT_NE(error("*BULK VISCOSITY\n0.06, nan\n").find("mem/test.inp:22: error:"), std::string::npos);
  EXPECT_EQ(error("*BULK VISCOSITY\n0.06, 1.2, 3\n"),
            "mem/test.inp:22: error: *BULK VISCOSITY takes two fields (linear, quadratic coefficient), got 3");
  EXPECT_EQ(error("*BULK VISCOSITY\n0.06, 1.2\n0.06, 1.2\n"),
            "mem/test.inp:23: error: *BULK VISCOSITY takes one data line: linear, quadratic coefficient");
  EXPECT_NE(error("*BULK VISCOSITY\n*BULK VISCOSITY\n").find("a second *BULK VISCOSITY in step"), std::string::npos);
  EXPECT_NE(error("*BULK VISCOSITY, TYPE=X\n").find("TYPE"), std::string::npos);
}

// Mass-proportional damping acts at the nodes; a rigid body's nodes move with the body, whose
// update takes none: a damped material on a rigid body's elements is named in a warning (one
// per body), and an undamped one gives none.
TEST(InpReader, DampingOnARigidBodyIsNamedInAWarning) {
  const std::string mesh =
      "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n5, 0, 0, 1\n6, 1, 0, 1\n7, 1, 1, 1\n"
      "8, 0, 1, 1\n100, 0.5, 0.5, 0.5\n*ELEMENT, TYPE=C3D8R, ELSET=B\n1, 1, 2, 3, 4, 5, 6, 7, 8\n"
      "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*DENSITY\n1.\n";
  const std::string rest =
      "*SOLID SECTION, ELSET=B, MATERIAL=M\n*RIGID BODY, ELSET=B, REF NODE=100\n"
      "*STEP\n*DYNAMIC, EXPLICIT\n, 0.1\n*END STEP\n";
  const Model damped = read(mesh + "*DAMPING, ALPHA=10.\n" + rest);
  ASSERT_EQ(damped.warnings.size(), 1u);
  EXPECT_EQ(damped.warnings[0], "*RIGID BODY at mem/test.inp:20: *DAMPING, ALPHA=10 of material M is not applied "
                                "to its nodes: rigid bodies move without mass-proportional damping");
  EXPECT_TRUE(read(mesh + rest).warnings.empty());
}

TEST(InpReader, OutputDefaultsAndCopiesPerNodeSet) {
  const std::string deck = std::string(kPlateMesh) + R"(*NSET, NSET=A
1
*NSET, NSET=B
2
*STEP
*DYNAMIC, EXPLICIT
, 0.02
*OUTPUT, FIELD
*NODE OUTPUT, NSET=A
U
*NODE OUTPUT, NSET=B
VT, VR
*OUTPUT, HISTORY
*NODE OUTPUT, NSET=A
V
*OUTPUT, FIELD, TIME INTERVAL=0.005
*ELEMENT OUTPUT, VARIABLE=PRESELECT
*END STEP
)";
  const Model m = read(deck);
  const auto& o = m.steps[0].outputs;
  ASSERT_EQ(o.size(), 4u);
  EXPECT_EQ(o[0].nset, "A");
  EXPECT_EQ(o[0].node_vars, (std::vector<std::string>{"U"}));
  EXPECT_EQ(o[0].number_interval, 20);
  EXPECT_EQ(o[1].nset, "B");
  EXPECT_EQ(o[1].node_vars, (std::vector<std::string>{"V"}));
  EXPECT_EQ(o[1].number_interval, 20);
  EXPECT_EQ(o[2].kind, OutputRequest::Kind::History);
  EXPECT_DOUBLE_EQ(*o[2].time_interval, 0.02 / 200);
  EXPECT_DOUBLE_EQ(*o[3].time_interval, 0.005);
  EXPECT_FALSE(o[3].number_interval);
  EXPECT_TRUE(o[3].node_vars.empty());
  EXPECT_EQ(o[3].element_vars, (std::vector<std::string>{"S", "SF", "SM", "E"}));
}

// Abaqus's component identifiers (U2, UR3, RF1, RM2, ...) ask for part of a vector: halfstep
// writes the whole vector for them; a component it does not know (U4) is refused at its line.
TEST(InpReader, NodeOutputComponentsWriteTheirVector) {
  const std::string head = std::string(kPlateMesh) + "*NSET, NSET=TIP\n3\n*STEP\n*DYNAMIC, EXPLICIT\n, 1.\n"
                                                     "*OUTPUT, HISTORY\n*NODE OUTPUT, NSET=TIP\n";
  const Model m = read(head + "U2, UR3, RF1, RM2, V3, A1\n*END STEP\n");
  EXPECT_EQ(m.steps[0].outputs[0].node_vars, (std::vector<std::string>{"U", "RF", "V", "A"}));
  try {
    read(head + "U2, U4\n*END STEP\n");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'U4' is not supported"), std::string::npos) << what;
  }
}

TEST(InpReader, PrintComponentsPrintTheirTable) {
  const std::string head = std::string(kPlateMesh) + "*NSET, NSET=TIP\n3\n*STEP\n*DYNAMIC, EXPLICIT\n, 1.\n";
  const Model m = read(head + "*NODE PRINT, NSET=TIP\nU2, RF1, V3, A1, U1\n*EL PRINT\nS12, E33, S11, PEEQ\n*END STEP\n");
  ASSERT_EQ(m.steps[0].prints.size(), 2u);
  EXPECT_EQ(m.steps[0].prints[0].vars, (std::vector<std::string>{"U", "RF", "V", "A"}));
  EXPECT_EQ(m.steps[0].prints[1].vars, (std::vector<std::string>{"S", "E", "PEEQ"}));
  // Rotations have no printed table, and S21 is not Abaqus's name for the shear component.
  for (const char* bad : {"*NODE PRINT, NSET=TIP\nUR2\n", "*NODE PRINT, NSET=TIP\nU4\n", "*EL PRINT\nS21\n"}) {
    try {
      read(head + bad + "*END STEP\n");
      ADD_FAILURE() << "expected InputError for " << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("is not supported"), std::string::npos) << e.what();
    }
  }
}

TEST(InpReader, PreselectIsExtendedBySubRequests) {
  const std::string deck = std::string(kPlateMesh) + R"(*NSET, NSET=TIP
3
*STEP
*DYNAMIC, EXPLICIT
, 1.
*OUTPUT, FIELD, VARIABLE=PRESELECT
*NODE OUTPUT, NSET=TIP
V
*OUTPUT, FIELD
*OUTPUT, HISTORY, VARIABLE=PRESELECT
*NODE OUTPUT, NSET=TIP
U
*END STEP
)";
  const Model m = read(deck);
  const auto& o = m.steps[0].outputs;
  ASSERT_EQ(o.size(), 3u);  // the empty *OUTPUT, FIELD is dropped with a warning
  EXPECT_EQ(o[0].nset, "");
  EXPECT_EQ(o[0].node_vars, (std::vector<std::string>{"U", "V", "RF"}));
  EXPECT_EQ(o[0].element_vars, (std::vector<std::string>{"S", "SF", "SM", "E"}));
  EXPECT_EQ(o[1].nset, "TIP");
  EXPECT_EQ(o[1].node_vars, (std::vector<std::string>{"V"}));
  EXPECT_TRUE(o[1].element_vars.empty());
  EXPECT_EQ(o[2].kind, OutputRequest::Kind::History);
  EXPECT_EQ(o[2].nset, "TIP");
  EXPECT_EQ(o[2].node_vars, (std::vector<std::string>{"U"}));
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_NE(m.warnings[0].find("requests no variables"), std::string::npos);
}

TEST(InpReader, InputParameterReadsDataLinesFromAFile) {
  TempDir dir;
  dir.write("nodes.txt", "1, 0, 0\n2, 1, 0\n3, 1, 1\n4, 0, 1\n");
  dir.write("main.inp", "*NODE, NSET=ALL, INPUT=nodes.txt\n*ELEMENT, TYPE=S4, ELSET=E\n1, 1, 2, 3, 4\n"
                        "*MATERIAL, NAME=M\n*ELASTIC\n1, 0.2\n*DENSITY\n1\n"
                        "*SHELL SECTION, ELSET=E, MATERIAL=M\n0.1\n" + std::string(kPlateStep));
  const Model m = read_inp((dir.path() / "main.inp").string());
  EXPECT_EQ(m.nodes.size(), 4);
  EXPECT_EQ(m.nsets.at("ALL").members.size(), 4u);
}

TEST(InpReader, ModelBoundariesAreRemovedByOpNewInTheFirstStep) {
  const std::string deck = std::string(kPlateMesh) + "*BOUNDARY\n1, PINNED\n" +
                           "*STEP\n*DYNAMIC, EXPLICIT\n, 1\n*BOUNDARY, OP=NEW\n2, 1\n*END STEP\n";
  const Model m = read(deck);
  ASSERT_EQ(m.steps[0].boundaries.size(), 1u);
  EXPECT_EQ(ids(m, m.steps[0].boundaries[0].nodes), (std::vector<std::int64_t>{2}));
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_NE(m.warnings[0].find("OP=NEW"), std::string::npos);
}

TEST(InpReader, SplitRotatingVelocityAndTotalTimeInOneStep) {
  const std::string deck = std::string(kPlateMesh) + R"(*INITIAL CONDITIONS, TYPE=ROTATING VELOCITY
ALLN, 5., 1, 0, 0
1, 0, 1
3, 10, 0, 0, 0, 0, 1, 0
*AMPLITUDE, NAME=A, TIME=TOTAL TIME
0, 0, 1, 1
)" + kPlateStep;
  const Model m = read(deck);
  ASSERT_EQ(m.initial_rotations.size(), 2u);
  EXPECT_EQ(m.initial_rotations[0].nodes.size(), 6u);
  EXPECT_EQ(m.initial_rotations[0].a, (std::array<double, 3>{1, 0, 0}));
  EXPECT_EQ(m.initial_rotations[0].b, (std::array<double, 3>{1, 0, 1}));
  EXPECT_EQ(m.initial_rotations[0].v0, (std::array<double, 3>{0, 0, 0}));
  EXPECT_DOUBLE_EQ(m.initial_rotations[1].omega, 10);
  EXPECT_EQ(m.amplitudes.count("A"), 1u);
}

TEST(InpReader, SinglePartAndInstanceAreFlattened) {
  const std::string deck = R"(*Heading
*Part, name=Plate
*Node
1, 0, 0, 0
2, 1, 0, 0
3, 1, 1, 0
4, 0, 1, 0
*Element, type=S4R
1, 1, 2, 3, 4
*Elset, elset=All, generate
1, 1, 1
*Shell Section, elset=All, material=Alu
0.002, 5
*End Part
*Assembly, name=Assembly
*Instance, name=Plate-1, part=Plate
*End Instance
*Nset, nset=Fixed, instance=Plate-1
1, 4
*End Assembly
*Material, name=Alu
*Density
2.7e-9
*Elastic
70000., 0.33
*Step, name=Step-1, nlgeom=YES
*Dynamic, Explicit
, 0.001
*Boundary
Fixed, ENCASTRE
Plate-1.2, 3, 3, 0.1
*Cload
Plate-1.3, 3, 1.
*Output, field, variable=PRESELECT
*End Step
)";
  const Model m = read(deck);
  ASSERT_EQ(m.steps[0].boundaries.size(), 2u);
  EXPECT_EQ(ids(m, m.steps[0].boundaries[0].nodes), (std::vector<std::int64_t>{1, 4}));
  EXPECT_EQ(ids(m, m.steps[0].boundaries[1].nodes), (std::vector<std::int64_t>{2}));
  EXPECT_EQ(ids(m, m.steps[0].cloads[0].nodes), (std::vector<std::int64_t>{3}));
}

TEST(InpReader, ExplicitIncrementIsIgnoredWithoutUserControl) {
  const Model m = read(std::string(kPlateMesh) + "*STEP\n*DYNAMIC, EXPLICIT\n1e-6, 2.\n*END STEP\n");
  EXPECT_FALSE(m.steps[0].fixed_increment);
  EXPECT_DOUBLE_EQ(m.steps[0].time_period, 2.);
}

TEST(InpReader, StringDeckErrorsNameTheVirtualPath) {
  try {
    read(std::string(kPlateMesh) + "*STEP\n*DYNAMIC, EXPLICIT\n, abc\n*END STEP\n");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "mem/test.inp:20: error: expected a real number for the time period, got 'abc'");
  }
}

TEST(Amplitude, TabularInterpolatesAndHoldsOutsideItsPoints) {
  Amplitude a;
  a.time = {0.0, 1.0, 3.0};
  a.value = {0.0, 2.0, 0.0};
  EXPECT_DOUBLE_EQ(a(-1.0), 0.0);
  EXPECT_DOUBLE_EQ(a(0.5), 1.0);
  EXPECT_DOUBLE_EQ(a(1.0), 2.0);
  EXPECT_DOUBLE_EQ(a(2.0), 1.0);
  EXPECT_DOUBLE_EQ(a(5.0), 0.0);
}

TEST(Amplitude, SmoothStepIsHalfWayAtTheMidpointAndFlatAtTheEnds) {
  const Model m = read(std::string(kPlateMesh) +
                       "*AMPLITUDE, NAME=S, DEFINITION=SMOOTH STEP\n0, 0, 2, 1\n" + kPlateStep);
  const Amplitude& a = m.amplitudes.at("S");
  EXPECT_DOUBLE_EQ(a(1.0), 0.5);
  EXPECT_DOUBLE_EQ(a(0.0), 0.0);
  EXPECT_DOUBLE_EQ(a(2.0), 1.0);
  EXPECT_DOUBLE_EQ(a(3.0), 1.0);
  const double h = 1e-4;
  EXPECT_NEAR((a(h) - a(0.0)) / h, 0.0, 1e-6);        // zero slope at the start
  EXPECT_NEAR((a(2.0) - a(2.0 - h)) / h, 0.0, 1e-6);  // and at the end
  EXPECT_NEAR(a(0.5), 0.103515625, 1e-15);            // 10 x^3 - 15 x^4 + 6 x^5 at x = 1/4
}

// The peer's TIME DELAY=d: a load follows its amplitude d later, A(t - d), through a shifted
// copy of the amplitude (defined after the load here); without AMPLITUDE= it is refused.
TEST(Amplitude, TimeDelayShiftsTheAmplitude) {
  const Model m = read(std::string(kPlateMesh) +
                       "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-3\n*CLOAD, AMPLITUDE=R, TIME DELAY=0.5\n1, 3, 2.\n*END STEP\n"
                       "*AMPLITUDE, NAME=R\n0, 0, 1, 1, 2, 3\n");
  const std::string name = m.steps[0].cloads[0].amplitude;
  ASSERT_NE(name, "R");
  const Amplitude& a = m.amplitudes.at(name);
  const Amplitude& r = m.amplitudes.at("R");
  for (double t : {0.0, 0.3, 0.5, 1.2, 1.5, 2.1, 2.6, 4.0}) EXPECT_DOUBLE_EQ(a(t), r(t - 0.5)) << t;
  try {
    read(std::string(kPlateMesh) + "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-3\n*CLOAD, TIME DELAY=0.5\n1, 3, 2.\n*END STEP\n");
    FAIL() << "TIME DELAY without AMPLITUDE was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("TIME DELAY shifts an amplitude in time: give AMPLITUDE= too"), std::string::npos)
        << e.what();
  }
}

TEST(Amplitude, EmptyAmplitudeIsOne) {
  Amplitude a;
  EXPECT_DOUBLE_EQ(a(0.3), 1.0);
}

}  // namespace
}  // namespace halfstep
