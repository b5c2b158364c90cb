// Rigid analytical surfaces (inp_analytic.cpp): *SURFACE, TYPE=CYLINDER and TYPE=REVOLUTION
// read back into Model::analytical_surfaces, *RIGID BODY, ANALYTICAL SURFACE= attaching them
// to a reference node, and contact pairs naming them (master only). One refusal per deck is
// in tests/bad_input (analytic_*.inp, rigid_analytic_*.inp, contact_analytic_*.inp).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "core/error.hpp"
#include "io/inp_reader.hpp"

namespace halfstep {
namespace {

/// One C3D8R cube with its top face as TOP and a free node 100 above it (a reference node).
const std::string kCube = R"(*NODE
1, 0, 0, 0
2, 1, 0, 0
3, 1, 1, 0
4, 0, 1, 0
5, 0, 0, 1
6, 1, 0, 1
7, 1, 1, 1
8, 0, 1, 1
100, 0.5, 0.5, 2
*ELEMENT, TYPE=C3D8R, ELSET=CUBE
1, 1, 2, 3, 4, 5, 6, 7, 8
*MATERIAL, NAME=STEEL
*ELASTIC
210e9, 0.3
*DENSITY
7800
*SOLID SECTION, ELSET=CUBE, MATERIAL=STEEL
*SURFACE, NAME=TOP
CUBE, S2
)";
constexpr int kCubeLines = 20;

/// A cylinder whose profile has every segment kind: a line, a quarter arc, a line.
const std::string kRoller = R"(*SURFACE, NAME=Roller, TYPE=CYLINDER
0, 0, 2, 1, 0, 2
0.5, 1, 2
START, 1, 0
LINE, 0.5, 0
CIRCL, 0, 0.5, 0, 0
LINE, 0, 1
)";

const std::string kBody = "*RIGID BODY, ANALYTICAL SURFACE=ROLLER, REF NODE=100\n";
const std::string kStep = "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-3\n*END STEP\n";

Model read(const std::string& model) { return read_inp_string(kCube + model + kStep, "analytic.inp"); }

/// The message of the InputError reading the deck throws ("" if it reads).
std::string error_of(const std::string& model) {
  try {
    (void)read(model);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

/// "analytic.inp:<line of the model part>:": where an error must point.
std::string at(int model_line) { return "analytic.inp:" + std::to_string(kCubeLines + model_line) + ":"; }

int node_index(const Model& m, std::int64_t id) {
  for (std::size_t i = 0; i < static_cast<std::size_t>(m.nodes.size()); ++i)
    if (m.nodes.id[i] == id) return static_cast<int>(i);
  return -1;
}

TEST(InpAnalytic, CubeDeckLineCountIsRight) {
  EXPECT_EQ(static_cast<int>(std::count(kCube.begin(), kCube.end(), '\n')), kCubeLines);
}

TEST(InpAnalytic, CylinderReadsPointsAndSegments) {
  const Model m = read(kRoller);
  ASSERT_EQ(m.analytical_surfaces.size(), 1u);
  const AnalyticalSurface& s = m.analytical_surfaces.at("ROLLER");
  EXPECT_EQ(s.name, "ROLLER");
  EXPECT_EQ(s.kind, AnalyticalSurface::Kind::Cylinder);
  EXPECT_EQ(s.a, (std::array<double, 3>{0, 0, 2}));
  EXPECT_EQ(s.b, (std::array<double, 3>{1, 0, 2}));
  EXPECT_EQ(s.c, (std::array<double, 3>{0.5, 1, 2}));  // need not be perpendicular to a -> b
  EXPECT_EQ(s.start, (std::array<double, 2>{1, 0}));
  ASSERT_EQ(s.segments.size(), 3u);
  EXPECT_EQ(s.segments[0].kind, ProfileSegment::Kind::Line);
  EXPECT_EQ(s.segments[0].end, (std::array<double, 2>{0.5, 0}));
  EXPECT_EQ(s.segments[1].kind, ProfileSegment::Kind::Circle);
  EXPECT_EQ(s.segments[1].end, (std::array<double, 2>{0, 0.5}));
  EXPECT_EQ(s.segments[1].centre, (std::array<double, 2>{0, 0}));
  EXPECT_EQ(s.segments[2].kind, ProfileSegment::Kind::Line);
  EXPECT_EQ(s.segments[2].end, (std::array<double, 2>{0, 1}));
  EXPECT_EQ(s.loc.line, kCubeLines + 1);
  EXPECT_EQ(s.segments[0].loc.line, kCubeLines + 5);
  EXPECT_EQ(s.segments[2].loc.line, kCubeLines + 7);
  EXPECT_EQ(s.ref_node, -1);  // no *RIGID BODY names it
  EXPECT_FALSE(m.surfaces.count("ROLLER"));
}

TEST(InpAnalytic, RevolutionReadsProfileInRZ) {
  const Model m = read(R"(*SURFACE, NAME=DIE, TYPE=REVOLUTION
0, 0, 1.5, 0, 0, 2.5
START, 0, 0
LINE, 2, 0
CIRCL, 2.5, 0.5, 2, 0.5
)");
  const AnalyticalSurface& s = m.analytical_surfaces.at("DIE");
  EXPECT_EQ(s.kind, AnalyticalSurface::Kind::Revolution);
  EXPECT_EQ(s.a, (std::array<double, 3>{0, 0, 1.5}));
  EXPECT_EQ(s.b, (std::array<double, 3>{0, 0, 2.5}));
  EXPECT_EQ(s.start, (std::array<double, 2>{0, 0}));  // r = 0 is on the axis: allowed
  ASSERT_EQ(s.segments.size(), 2u);
  EXPECT_EQ(s.segments[1].kind, ProfileSegment::Kind::Circle);
  EXPECT_EQ(s.segments[1].end, (std::array<double, 2>{2.5, 0.5}));
  EXPECT_EQ(s.segments[1].centre, (std::array<double, 2>{2, 0.5}));
}

TEST(InpAnalytic, NamesWordsAndBlanksAreCaseAndBlankInsensitive) {
  const Model m = read(R"(*surface, name = "Wheel", type = Revolution
0., 0., 0., 0., 0., 1.
 start , 1.0D0, +0
 circl, 0, 1, 0, 0
Line, 0, 2
)");
  const AnalyticalSurface& s = m.analytical_surfaces.at("WHEEL");
  EXPECT_EQ(s.start, (std::array<double, 2>{1, 0}));
  ASSERT_EQ(s.segments.size(), 2u);
  EXPECT_EQ(s.segments[0].kind, ProfileSegment::Kind::Circle);
  EXPECT_EQ(s.segments[1].kind, ProfileSegment::Kind::Line);
}

TEST(InpAnalytic, ArcEndPointWithinTheToleranceIsKeptAsWritten) {
  // 0.9995 is 5e-4 of the radius off the circle: accepted, and not moved onto it.
  const Model m = read("*SURFACE, NAME=R, TYPE=CYLINDER\n0, 0, 0, 1, 0, 0\n0, 0, 1\nSTART, 1, 0\nCIRCL, 0, 0.9995, 0, 0\n");
  EXPECT_EQ(m.analytical_surfaces.at("R").segments[0].end, (std::array<double, 2>{0, 0.9995}));
  const std::string e =
      error_of("*SURFACE, NAME=R, TYPE=CYLINDER\n0, 0, 0, 1, 0, 0\n0, 0, 1\nSTART, 1, 0\nCIRCL, 0, 0.9985, 0, 0\n");
  EXPECT_NE(e.find(at(5)), std::string::npos) << e;
  EXPECT_NE(e.find("must be on one circle"), std::string::npos) << e;
}

TEST(InpAnalytic, ArcsUpToJustBelowAHalfCircleAreAccepted) {
  // 179.9 degrees: sin = 1.7e-3, above the 1e-3 ambiguity band.
  const double th = 179.9 * 3.14159265358979323846 / 180;
  const std::string end = std::to_string(std::cos(th)) + ", " + std::to_string(std::sin(th));
  const Model m = read("*SURFACE, NAME=R, TYPE=CYLINDER\n0, 0, 0, 1, 0, 0\n0, 0, 1\nSTART, 1, 0\nCIRCL, " + end +
                       ", 0, 0\n");
  EXPECT_EQ(m.analytical_surfaces.at("R").segments.size(), 1u);
  const double th2 = 179.95 * 3.14159265358979323846 / 180;  // sin = 8.7e-4: refused
  const std::string end2 = std::to_string(std::cos(th2)) + ", " + std::to_string(std::sin(th2));
  const std::string e = error_of("*SURFACE, NAME=R, TYPE=CYLINDER\n0, 0, 0, 1, 0, 0\n0, 0, 1\nSTART, 1, 0\nCIRCL, " +
                                 end2 + ", 0, 0\n");
  EXPECT_NE(e.find("spans 180 degrees or more"), std::string::npos) << e;
}

TEST(InpAnalytic, RevolutionArcMayTouchTheAxisButNotCrossIt) {
  // A quarter sphere from the pole: the circle's leftmost point is r = -1, but the arc (from
  // 90 down to 0 degrees) never goes there.
  const Model m = read("*SURFACE, NAME=S, TYPE=REVOLUTION\n0, 0, 0, 0, 0, 1\nSTART, 0, 1\nCIRCL, 1, 0, 0, 0\n");
  EXPECT_EQ(m.analytical_surfaces.at("S").segments.size(), 1u);
  const std::string e = error_of("*SURFACE, NAME=S, TYPE=REVOLUTION\n0, 0, 0, 0, 0, 1\nSTART, 0, 1\nCIRCL, 0, -1, 0.5, 0\n");
  EXPECT_NE(e.find(at(4)), std::string::npos) << e;
  EXPECT_NE(e.find("reaches r = "), std::string::npos) << e;
}

TEST(InpAnalytic, RigidBodyAttachesTheReferenceNode) {
  const Model m = read(kRoller + kBody);
  const AnalyticalSurface& s = m.analytical_surfaces.at("ROLLER");
  EXPECT_EQ(s.ref_node, node_index(m, 100));
  EXPECT_EQ(s.body_loc.line, kCubeLines + 8);
  EXPECT_TRUE(m.rigid_bodies.empty());  // the surface is the body: no RigidBody of nodes
}

TEST(InpAnalytic, ReferenceNodeMayBeANodeSetOfOneNode) {
  const Model m = read("*NSET, NSET=REF\n100\n" + kRoller + "*RIGID BODY, REF NODE=ref, ANALYTICAL SURFACE=roller\n");
  EXPECT_EQ(m.analytical_surfaces.at("ROLLER").ref_node, node_index(m, 100));
}

TEST(InpAnalytic, RigidBodyMayComeBeforeItsSurface) {
  const Model m = read(kBody + kRoller);
  EXPECT_EQ(m.analytical_surfaces.at("ROLLER").ref_node, node_index(m, 100));
  EXPECT_EQ(m.analytical_surfaces.at("ROLLER").body_loc.line, kCubeLines + 1);
}

TEST(InpAnalytic, OtherRigidBodyFormsAreUnchanged) {
  const Model m = read(kRoller + kBody + "*NODE\n200, 3, 3, 3\n*RIGID BODY, REF NODE=200, ELSET=CUBE\n");
  ASSERT_EQ(m.rigid_bodies.size(), 1u);
  EXPECT_EQ(m.rigid_bodies[0].ref_node, node_index(m, 200));
  EXPECT_EQ(m.rigid_bodies[0].tied.size(), 8u);
  const std::string e = error_of("*RIGID BODY, REF NODE=100\n");
  EXPECT_NE(e.find("*RIGID BODY needs ELSET=, PIN NSET= or TIE NSET="), std::string::npos) << e;
}

TEST(InpAnalytic, NameCollisionIsReportedAtTheLaterDefinition) {
  // Element surface first (TOP, cube deck line 19), analytical second.
  const std::string a = error_of("*SURFACE, NAME=top, TYPE=REVOLUTION\n0, 0, 0, 0, 0, 1\nSTART, 0, 0\nLINE, 1, 0\n");
  EXPECT_NE(a.find(at(1)), std::string::npos) << a;
  EXPECT_NE(a.find("surface 'TOP' is defined twice (first at analytic.inp:19, as an element surface)"), std::string::npos)
      << a;
  // Analytical first, element (or node) surface second.
  const std::string b = error_of(kRoller + "*SURFACE, NAME=ROLLER, TYPE=NODE\n100\n");
  EXPECT_NE(b.find(at(8)), std::string::npos) << b;
  EXPECT_NE(b.find("surface 'ROLLER' is defined twice (first at analytic.inp:21, as an analytical surface)"),
            std::string::npos)
      << b;
}

TEST(InpAnalytic, SingleInstanceSurfaceAliasGivesWayToAnAnalyticalSurface) {
  // A part's TOP answers to its plain name with one instance, unless the deck's own
  // surface (here analytical) has that name: then TOP is the analytical one.
  const std::string deck = "*PART, NAME=P\n" + kCube + "*END PART\n*ASSEMBLY, NAME=A\n*INSTANCE, NAME=I1, PART=P\n"
                           "*END INSTANCE\n*END ASSEMBLY\n"
                           "*SURFACE, NAME=TOP, TYPE=REVOLUTION\n0, 0, 1.5, 0, 0, 2.5\nSTART, 0, 0\nLINE, 1, 0\n"
                           "*RIGID BODY, ANALYTICAL SURFACE=TOP, REF NODE=I1.100\n"
                           "*SURFACE INTERACTION, NAME=F\n*CONTACT PAIR, INTERACTION=F\nI1.TOP, TOP\n" + kStep;
  const Model m = read_inp_string(deck, "analytic.inp");
  EXPECT_TRUE(m.surfaces.count("I1.TOP"));
  EXPECT_FALSE(m.surfaces.count("TOP"));
  ASSERT_EQ(m.contact.pairs.size(), 1u);
  EXPECT_EQ(m.contact.pairs[0].master, "TOP");
  EXPECT_EQ(m.analytical_surfaces.at("TOP").ref_node, node_index(m, 100));
}

TEST(InpAnalytic, ReferenceNodeConflictsAreReportedAtTheLaterLine) {
  const std::string tie_set = "*NSET, NSET=T\n100\n";  // lines 1-2
  // The analytical body first (line 10), the body that ties its reference node later (line 11).
  const std::string later_body = error_of(tie_set + kRoller + kBody + "*RIGID BODY, REF NODE=1, TIE NSET=T\n");
  EXPECT_NE(later_body.find(at(11)), std::string::npos) << later_body;
  EXPECT_NE(later_body.find("node 100 is the reference node of analytical surface 'ROLLER'"), std::string::npos)
      << later_body;
  // The other body first (line 3): the analytical one (line 11) is refused.
  const std::string later_analytic = error_of(tie_set + "*RIGID BODY, REF NODE=1, TIE NSET=T\n" + kRoller + kBody);
  EXPECT_NE(later_analytic.find(at(11)), std::string::npos) << later_analytic;
  EXPECT_NE(later_analytic.find("its reference node 100 is also a slave node of *RIGID BODY"), std::string::npos)
      << later_analytic;
  // A kinematic coupling's reference node.
  const std::string coupling = error_of(kRoller + kBody + "*SURFACE, NAME=S, TYPE=NODE\n1\n"
                                        "*COUPLING, CONSTRAINT NAME=C, REF NODE=100, SURFACE=S\n*KINEMATIC\n");
  EXPECT_NE(coupling.find(at(11)), std::string::npos) << coupling;
  EXPECT_NE(coupling.find("*COUPLING C: node 100 is the reference node of analytical surface"), std::string::npos)
      << coupling;
}

TEST(InpAnalytic, PairWithAnAnalyticalMasterIsKept) {
  const Model m = read(kRoller + kBody + "*SURFACE INTERACTION, NAME=F\n*CONTACT PAIR, INTERACTION=F\nTOP, roller\n");
  ASSERT_EQ(m.contact.pairs.size(), 1u);
  EXPECT_EQ(m.contact.pairs[0].slave, "TOP");
  EXPECT_EQ(m.contact.pairs[0].master, "ROLLER");
  EXPECT_EQ(m.contact.pairs[0].interaction, "F");
}

TEST(InpAnalytic, InclusionsWithAnAnalyticalSurfaceGiveOnePairEitherOrder) {
  for (const std::string line : {"TOP, ROLLER", "roller, top"}) {
    const Model m = read(kRoller + kBody + "*CONTACT\n*CONTACT INCLUSIONS\n" + line + "\n");
    ASSERT_EQ(m.contact.pairs.size(), 1u) << line;
    EXPECT_EQ(m.contact.pairs[0].slave, "TOP") << line;
    EXPECT_EQ(m.contact.pairs[0].master, "ROLLER") << line;
    EXPECT_EQ(m.contact.pairs[0].loc.line, kCubeLines + 11) << line;
  }
}

TEST(InpAnalytic, InclusionsKeepTheOtherPairsAndTheirProperty) {
  for (const std::string line : {"TOP, ROLLER", "ROLLER, TOP"}) {
    const Model m = read("*SURFACE, NAME=BOTTOM\nCUBE, S1\n" + kRoller + kBody +
                         "*SURFACE INTERACTION, NAME=F\n*CONTACT\n*CONTACT INCLUSIONS\nTOP, BOTTOM\n" + line +
                         "\n*CONTACT PROPERTY ASSIGNMENT\n, , F\n");
    ASSERT_EQ(m.contact.pairs.size(), 3u) << line;
    EXPECT_EQ(m.contact.pairs[0].slave, "TOP");
    EXPECT_EQ(m.contact.pairs[0].master, "BOTTOM");
    EXPECT_EQ(m.contact.pairs[1].slave, "BOTTOM");
    EXPECT_EQ(m.contact.pairs[1].master, "TOP");
    EXPECT_EQ(m.contact.pairs[2].slave, "TOP") << line;  // never the analytical surface as a slave
    EXPECT_EQ(m.contact.pairs[2].master, "ROLLER") << line;
    for (const ContactPair& p : m.contact.pairs) EXPECT_EQ(p.interaction, "F");
  }
}

TEST(InpAnalytic, AllExteriorStaysOnePair) {
  const Model m = read(kRoller + kBody + "*CONTACT\n*CONTACT INCLUSIONS, ALL EXTERIOR\n");
  ASSERT_EQ(m.contact.pairs.size(), 1u);
  EXPECT_EQ(m.contact.pairs[0].slave, kAllExterior);
  EXPECT_EQ(m.contact.pairs[0].master, kAllExterior);
}

TEST(InpAnalytic, SurfaceAndBodyMayFollowThePair) {
  const Model m = read("*SURFACE INTERACTION, NAME=F\n*CONTACT PAIR, INTERACTION=F\nTOP, ROLLER\n" + kBody + kRoller);
  ASSERT_EQ(m.contact.pairs.size(), 1u);
  EXPECT_EQ(m.analytical_surfaces.at("ROLLER").ref_node, node_index(m, 100));
}

TEST(InpAnalytic, ContactRefusalsPointAtThePairLine) {
  const std::string pair = "*SURFACE INTERACTION, NAME=F\n*CONTACT PAIR, INTERACTION=F\n";  // lines 9-10 after roller
  const std::string slave = error_of(kRoller + kBody + pair + "ROLLER, TOP\n");
  EXPECT_NE(slave.find(at(11)), std::string::npos) << slave;
  EXPECT_NE(slave.find("an analytical rigid surface can only be the master (second) surface"), std::string::npos)
      << slave;
  const std::string unattached = error_of(kRoller + "*SURFACE INTERACTION, NAME=F\n*CONTACT PAIR, INTERACTION=F\nTOP, ROLLER\n");
  EXPECT_NE(unattached.find(at(10)), std::string::npos) << unattached;
  EXPECT_NE(unattached.find("needs *RIGID BODY, ANALYTICAL SURFACE=ROLLER, REF NODE=..."), std::string::npos)
      << unattached;
  const std::string self = error_of(kRoller + kBody + "*CONTACT\n*CONTACT INCLUSIONS\nROLLER, roller\n");
  EXPECT_NE(self.find(at(11)), std::string::npos) << self;
  EXPECT_NE(self.find("self-contact of analytical surface 'ROLLER'"), std::string::npos) << self;
}

TEST(InpAnalytic, AnalyticalSurfaceWhereElementFacesAreExpectedIsAClearError) {
  const std::string tie = error_of(kRoller + kBody + "*TIE, NAME=T\nTOP, ROLLER\n");
  EXPECT_NE(tie.find(at(10)), std::string::npos) << tie;
  EXPECT_NE(tie.find("*TIE T: surface 'ROLLER' is an analytical rigid surface"), std::string::npos) << tie;
  const std::string distributing =
      error_of(kRoller + "*COUPLING, CONSTRAINT NAME=D, REF NODE=100, SURFACE=ROLLER\n*DISTRIBUTING\n");
  EXPECT_NE(distributing.find(at(8)), std::string::npos) << distributing;
  EXPECT_NE(distributing.find("is an analytical rigid surface"), std::string::npos) << distributing;
}

}  // namespace
}  // namespace halfstep
