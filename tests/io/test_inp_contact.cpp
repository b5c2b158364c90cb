// The contact keywords (inp_contact.cpp): *SURFACE INTERACTION with *FRICTION and *SURFACE
// BEHAVIOR, *CONTACT PAIR, and *CONTACT with its inclusions, property and controls
// assignments, read into Model::contact. The refusals are in tests/bad_input (contact_*.inp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "io/inp_reader.hpp"

namespace halfstep {
namespace {

/// Two C3D8R cubes, one above the other with a gap of 0.1, and the surfaces that face each
/// other (TOP of the lower, BOTTOM of the upper), plus a node-based surface of the upper's
/// lower corners.
const std::string kCubes = R"(*NODE
1, 0, 0, 0
2, 1, 0, 0
3, 1, 1, 0
4, 0, 1, 0
5, 0, 0, 1
6, 1, 0, 1
7, 1, 1, 1
8, 0, 1, 1
9, 0, 0, 1.1
10, 1, 0, 1.1
11, 1, 1, 1.1
12, 0, 1, 1.1
13, 0, 0, 2.1
14, 1, 0, 2.1
15, 1, 1, 2.1
16, 0, 1, 2.1
*ELEMENT, TYPE=C3D8R, ELSET=LOWER
1, 1, 2, 3, 4, 5, 6, 7, 8
*ELEMENT, TYPE=C3D8R, ELSET=UPPER
2, 9, 10, 11, 12, 13, 14, 15, 16
*MATERIAL, NAME=STEEL
*ELASTIC
210e9, 0.3
*DENSITY
7800
*SOLID SECTION, ELSET=LOWER, MATERIAL=STEEL
*SOLID SECTION, ELSET=UPPER, MATERIAL=STEEL
*SURFACE, NAME=TOP
LOWER, S2
*SURFACE, NAME=Bottom
UPPER, S1
*NSET, NSET=UPPER_CORNERS
9, 10, 11, 12
*SURFACE, NAME=CORNERS, TYPE=NODE
UPPER_CORNERS
)";
constexpr int kCubeLines = 36;

const std::string kStepOpen = "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-3\n";
const std::string kStepClose = "*END STEP\n";
const std::string kStep = kStepOpen + kStepClose;

Model read(const std::string& model, const std::string& steps = kStep) {
  return read_inp_string(kCubes + model + steps, "contact.inp");
}

/// The message of the InputError reading the deck throws ("" if it reads).
std::string error_of(const std::string& model, const std::string& steps = kStep) {
  try {
    (void)read(model, steps);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

int count_warnings(const Model& m, const std::string& text) {
  int n = 0;
  for (const std::string& w : m.warnings) n += w.find(text) != std::string::npos;
  return n;
}

TEST(InpContact, CubeDeckLineCountIsRight) {
  // The line numbers asserted below count from the end of kCubes.
  EXPECT_EQ(static_cast<int>(std::count(kCubes.begin(), kCubes.end(), '\n')), kCubeLines);
}

TEST(InpContact, NoContactKeywordsLeaveContactEmpty) {
  const Model m = read("");
  EXPECT_TRUE(m.contact.empty());
  EXPECT_TRUE(m.contact.interactions.empty());
  EXPECT_EQ(m.contact.penalty_scale, 1.0);
}

// SMALL SLIDING runs as finite sliding, said once; a TIED interaction's pairs become *TIEs.
TEST(InpContact, SmallSlidingAndTiedPairsAreRead) {
  const Model m = read("*SURFACE INTERACTION, NAME=G\n*CONTACT PAIR, INTERACTION=G, SMALL SLIDING\nBOTTOM, TOP\n");
  ASSERT_EQ(m.contact.pairs.size(), 1u);
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_NE(m.warnings[0].find("SMALL SLIDING at contact.inp:"), std::string::npos) << m.warnings[0];
  const Model t = read("*SURFACE INTERACTION, NAME=G\n*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=TIED\n1.e7\n"
                       "*FRICTION\n1.e30, 1.e7\n*CONTACT PAIR, INTERACTION=G\nBOTTOM, TOP\n");
  EXPECT_TRUE(t.contact.pairs.empty());
  ASSERT_EQ(t.ties.size(), 1u);
  EXPECT_EQ(t.ties[0].slave, "BOTTOM");
  EXPECT_EQ(t.ties[0].master, "TOP");
  EXPECT_FALSE(t.ties[0].adjust);
  const std::string e = error_of("*SURFACE INTERACTION, NAME=G\n*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=TIED\n-1.\n"
                                 "*CONTACT PAIR, INTERACTION=G\nBOTTOM, TOP\n");
  EXPECT_NE(e.find("the tie stiffness must be positive"), std::string::npos) << e;
  const std::string self = error_of("*SURFACE INTERACTION, NAME=G\n*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=TIED\n"
                                    "*CONTACT PAIR, INTERACTION=G\nTOP, TOP\n");
  EXPECT_NE(self.find("a tied pair needs two element surfaces"), std::string::npos) << self;
}

TEST(InpContact, SurfaceInteractionReadsFrictionAndDefaults) {
  const Model m = read(R"(*SURFACE INTERACTION, NAME=Grip
*FRICTION
0.35
*surface interaction, name="Slick"
*SurfaceBehavior, Pressure-Overclosure=Hard
*SURFACE INTERACTION, NAME=DECAY
*SURFACE BEHAVIOR, PENALTY
*FRICTION, EXPONENTIAL DECAY, SLIP TOLERANCE=0.005
0.5, 0.2, 3.5
)");
  ASSERT_EQ(m.contact.interactions.size(), 3u);
  const SurfaceInteraction& grip = m.contact.interactions.at("GRIP");
  EXPECT_EQ(grip.name, "GRIP");
  EXPECT_EQ(grip.friction, 0.35);
  EXPECT_EQ(grip.kinetic_friction, -1.0);  // no decay: the one coefficient
  EXPECT_EQ(grip.decay, 0.0);
  EXPECT_EQ(grip.loc.line, kCubeLines + 1);
  EXPECT_EQ(grip.loc.file, "contact.inp");
  const SurfaceInteraction& slick = m.contact.interactions.at("SLICK");  // no *FRICTION: frictionless
  EXPECT_EQ(slick.friction, 0.0);
  EXPECT_EQ(slick.kinetic_friction, -1.0);
  const SurfaceInteraction& decay = m.contact.interactions.at("DECAY");
  EXPECT_EQ(decay.friction, 0.5);
  EXPECT_EQ(decay.kinetic_friction, 0.2);
  EXPECT_EQ(decay.decay, 3.5);
  EXPECT_TRUE(m.contact.empty());  // interactions alone make no contact
}

TEST(InpContact, SoftenedLawsAreRead) {
  // LINEAR (with CalculiX's two extra fields: read, not used, said once), TABULAR (pairs of
  // pressure and overclosure, stored as overclosure then pressure), EXPONENTIAL (c0, p0 and
  // the optional maximum stiffness), HARD; a node surface's areas (1 by default).
  const Model m = read(R"(*NSET, NSET=TWO
10, 11
*SURFACE, NAME=WEIGHTED, TYPE=NODE
9, 0.25
TWO, 0.5
12
*SURFACE INTERACTION, NAME=LIN
*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=LINEAR
1e7, 3., 1e-3
*SURFACE INTERACTION, NAME=TAB
*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=TABULAR
0., -1e-3
5., 1e-3
20., 2e-3
*SURFACE INTERACTION, NAME=EXP
*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=EXPONENTIAL
0.01, 20.
*SURFACE INTERACTION, NAME=CAPPED
*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=exponential
0.01, 20., 5e4
*SURFACE INTERACTION, NAME=HARD
*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=HARD
)");
  const auto& in = m.contact.interactions;
  EXPECT_EQ(in.at("LIN").overclosure, Overclosure::kLinear);
  EXPECT_EQ(in.at("LIN").overclosure_law, std::vector<double>({1e7}));
  EXPECT_EQ(count_warnings(m, "CalculiX's sigma_inf and c0"), 1);
  EXPECT_EQ(in.at("TAB").overclosure, Overclosure::kTabular);
  EXPECT_EQ(in.at("TAB").overclosure_law, std::vector<double>({-1e-3, 0., 1e-3, 5., 2e-3, 20.}));
  EXPECT_EQ(in.at("EXP").overclosure, Overclosure::kExponential);
  EXPECT_EQ(in.at("EXP").overclosure_law, std::vector<double>({0.01, 20., 0.}));
  EXPECT_EQ(in.at("CAPPED").overclosure_law, std::vector<double>({0.01, 20., 5e4}));
  EXPECT_EQ(in.at("HARD").overclosure, Overclosure::kHard);
  EXPECT_TRUE(in.at("HARD").overclosure_law.empty());
  const Surface& w = m.surfaces.at("WEIGHTED");
  ASSERT_EQ(w.nodes.size(), 4u);
  EXPECT_EQ(w.node_areas, std::vector<double>({0.25, 0.5, 0.5, 1.0}));
  EXPECT_EQ(m.surfaces.at("CORNERS").node_areas, std::vector<double>(4, 1.0));
}

TEST(InpContact, FrictionFieldsAfterTheCoefficientAreSaidOnce) {
  // CalculiX's "mu, stick slope" and Abaqus's one-row table "mu, slip rate": a constant mu.
  const Model m = read(R"(*SURFACE INTERACTION, NAME=CCX
*FRICTION
0.5, 100.
*SURFACE INTERACTION, NAME=ABQ
*FRICTION
0.3, 0.1, , 20.
)");
  EXPECT_EQ(m.contact.interactions.at("CCX").friction, 0.5);
  EXPECT_EQ(m.contact.interactions.at("ABQ").friction, 0.3);
  EXPECT_EQ(count_warnings(m, "the fields after the coefficient"), 1);
  EXPECT_NE(error_of("*SURFACE INTERACTION, NAME=A\n*FRICTION\n0.5, slope\n").find(
                "expected a real number for a *FRICTION field after the coefficient"),
            std::string::npos);
}

TEST(InpContact, SoftenedLawRefusals) {
  EXPECT_NE(error_of("*SURFACE INTERACTION, NAME=A\n*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=LINEAR\n").find(
                "needs a data line with the slope"),
            std::string::npos);
  EXPECT_NE(error_of("*SURFACE INTERACTION, NAME=A\n*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=LINEAR\n1e6\n2e6\n")
                .find("takes one data line"),
            std::string::npos);
  EXPECT_NE(error_of("*SURFACE INTERACTION, NAME=A\n*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=TABULAR\n0., 0.\n")
                .find("at least two points and a rising last segment"),
            std::string::npos);
  EXPECT_NE(error_of("*SURFACE INTERACTION, NAME=A\n*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=TABULAR\n0., 0.\n5., "
                     "1e-3\n3., 2e-3\n")
                .find("the pressures must not decrease"),
            std::string::npos);
  EXPECT_NE(error_of("*SURFACE INTERACTION, NAME=A\n*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=TABULAR\n0., 0.\n5., "
                     "1e-3\n5., 2e-3\n")
                .find("rising last segment"),
            std::string::npos);
  EXPECT_NE(error_of("*SURFACE INTERACTION, NAME=A\n*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=EXPONENTIAL\n0., 1.\n")
                .find("c0 (the clearance at which the pressure is zero) must be positive"),
            std::string::npos);
  EXPECT_NE(error_of("*SURFACE INTERACTION, NAME=A\n*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=LINEAR\nnan\n").find(
                "contact.inp:39"),
            std::string::npos);
  EXPECT_NE(error_of("*SURFACE INTERACTION, NAME=A\n*SURFACE BEHAVIOR\n*SURFACE BEHAVIOR\n").find(
                "has a second *SURFACE BEHAVIOR"),
            std::string::npos);
  EXPECT_NE(error_of("*SURFACE, NAME=N2, TYPE=NODE\n9, -1.\n").find("the node area must be positive"),
            std::string::npos);
}

TEST(InpContact, FrictionBoundsAccepted) {
  // mu = 0 and mu_s = mu_k with dc = 0 are the edges of what is allowed.
  const Model m = read(R"(*SURFACE INTERACTION, NAME=A
*FRICTION
0
*SURFACE INTERACTION, NAME=B
*FRICTION, EXPONENTIAL DECAY
0.3, 0.3, 0
)");
  EXPECT_EQ(m.contact.interactions.at("A").friction, 0.0);
  EXPECT_EQ(m.contact.interactions.at("B").friction, 0.3);
  EXPECT_EQ(m.contact.interactions.at("B").kinetic_friction, 0.3);
  EXPECT_EQ(m.contact.interactions.at("B").decay, 0.0);
}

TEST(InpContact, ContactPairReadsEachLineAsOnePair) {
  const Model m = read(R"(*SURFACE INTERACTION, NAME=GRIP
*FRICTION
0.2
*CONTACT PAIR, INTERACTION=grip, TYPE=SURFACE TO SURFACE, CPSET=P1
bottom, TOP
CORNERS, Top
)");
  ASSERT_EQ(m.contact.pairs.size(), 2u);
  EXPECT_EQ(m.contact.pairs[0].slave, "BOTTOM");
  EXPECT_EQ(m.contact.pairs[0].master, "TOP");
  EXPECT_EQ(m.contact.pairs[0].interaction, "GRIP");
  EXPECT_EQ(m.contact.pairs[0].loc.line, kCubeLines + 5);
  EXPECT_EQ(m.contact.pairs[1].slave, "CORNERS");  // a node-based slave is fine
  EXPECT_EQ(m.contact.pairs[1].master, "TOP");
  EXPECT_EQ(m.contact.pairs[1].loc.line, kCubeLines + 6);
  EXPECT_TRUE(m.warnings.empty());
}

TEST(InpContact, KinematicConstraintIsWarnedOncePenaltyIsNot) {
  const std::string fric = "*SURFACE INTERACTION, NAME=GRIP\n";
  const Model penalty = read(fric + "*CONTACT PAIR, INTERACTION=GRIP, MECHANICAL CONSTRAINT=PENALTY, TYPE=NODE TO SURFACE\nBOTTOM, TOP\n");
  EXPECT_EQ(count_warnings(penalty, "KINEMATIC"), 0);
  const Model kinematic = read(fric +
                               "*CONTACT PAIR, INTERACTION=GRIP, MECHANICAL CONSTRAINT=KINEMATIC\nBOTTOM, TOP\n"
                               "*CONTACT PAIR, INTERACTION=GRIP, MECHANICALCONSTRAINT=kinematic\nTOP, BOTTOM\n");
  EXPECT_EQ(kinematic.contact.pairs.size(), 2u);
  EXPECT_EQ(count_warnings(kinematic, "MECHANICAL CONSTRAINT=KINEMATIC is enforced by a penalty"), 1);
  EXPECT_EQ(count_warnings(kinematic, "contact.inp:" + std::to_string(kCubeLines + 2)), 1);
}

TEST(InpContact, AllExteriorIsOnePairOfTheWholeExterior) {
  const Model m = read("*CONTACT\n*CONTACT INCLUSIONS, ALL EXTERIOR\n");
  ASSERT_EQ(m.contact.pairs.size(), 1u);
  EXPECT_EQ(m.contact.pairs[0].slave, kAllExterior);
  EXPECT_EQ(m.contact.pairs[0].master, kAllExterior);
  EXPECT_EQ(m.contact.pairs[0].interaction, "");  // no assignment: frictionless
  EXPECT_EQ(m.contact.pairs[0].loc.line, kCubeLines + 2);
  EXPECT_EQ(m.contact.penalty_scale, 1.0);
}

TEST(InpContact, InclusionsOfTwoSurfacesAreTwoPairsOfOneSurfaceSelfContact) {
  const Model m = read(R"(*CONTACT, OP=NEW
*CONTACT INCLUSIONS
TOP, BOTTOM
BOTTOM,
TOP, top
)");
  ASSERT_EQ(m.contact.pairs.size(), 4u);
  // Each surface's nodes against the other's faces.
  EXPECT_EQ(m.contact.pairs[0].slave, "TOP");
  EXPECT_EQ(m.contact.pairs[0].master, "BOTTOM");
  EXPECT_EQ(m.contact.pairs[1].slave, "BOTTOM");
  EXPECT_EQ(m.contact.pairs[1].master, "TOP");
  EXPECT_EQ(m.contact.pairs[0].loc.line, kCubeLines + 3);
  EXPECT_EQ(m.contact.pairs[1].loc.line, kCubeLines + 3);
  // Second field blank, or the same surface: one self-contact pair.
  EXPECT_EQ(m.contact.pairs[2].slave, "BOTTOM");
  EXPECT_EQ(m.contact.pairs[2].master, "BOTTOM");
  EXPECT_EQ(m.contact.pairs[2].loc.line, kCubeLines + 4);
  EXPECT_EQ(m.contact.pairs[3].slave, "TOP");
  EXPECT_EQ(m.contact.pairs[3].master, "TOP");
  for (const ContactPair& p : m.contact.pairs) EXPECT_EQ(p.interaction, "");
}

TEST(InpContact, PropertyAssignmentAppliesBeforeOrAfterTheInclusions) {
  const std::string fric = "*SURFACE INTERACTION, NAME=GRIP\n*FRICTION\n0.4\n";
  const Model after = read(fric + "*CONTACT\n*CONTACT INCLUSIONS\nTOP, BOTTOM\n*CONTACT PROPERTY ASSIGNMENT\n, , grip\n");
  const Model before = read(fric + "*CONTACT\n*CONTACT PROPERTY ASSIGNMENT\n, , GRIP\n*CONTACT INCLUSIONS\nTOP, BOTTOM\n");
  for (const Model* m : {&after, &before}) {
    ASSERT_EQ(m->contact.pairs.size(), 2u);
    EXPECT_EQ(m->contact.pairs[0].interaction, "GRIP");
    EXPECT_EQ(m->contact.pairs[1].interaction, "GRIP");
  }
}

TEST(InpContact, PropertyAssignmentLeavesContactPairsAlone) {
  const Model m = read(R"(*SURFACE INTERACTION, NAME=GRIP
*FRICTION
0.4
*SURFACE INTERACTION, NAME=OTHER
*CONTACT PAIR, INTERACTION=OTHER
CORNERS, TOP
*CONTACT
*CONTACT INCLUSIONS, ALL EXTERIOR
*CONTACT PROPERTY ASSIGNMENT
, , GRIP
)");
  ASSERT_EQ(m.contact.pairs.size(), 2u);
  EXPECT_EQ(m.contact.pairs[0].interaction, "OTHER");
  EXPECT_EQ(m.contact.pairs[1].slave, kAllExterior);
  EXPECT_EQ(m.contact.pairs[1].interaction, "GRIP");
}

TEST(InpContact, PenaltyScaleIsRead) {
  const Model m = read(R"(*CONTACT
*CONTACT CONTROLS ASSIGNMENT, TYPE=SCALE PENALTY
, , 2.5
*CONTACT INCLUSIONS, ALL EXTERIOR
)");
  EXPECT_EQ(m.contact.penalty_scale, 2.5);
  EXPECT_EQ(m.contact.pairs.size(), 1u);
}

TEST(InpContact, ContactInTheFirstStepIsRead) {
  // Abaqus/Explicit writes contact in the step; the interaction is model data and may come
  // after nothing else has named it.
  const Model m = read("*SURFACE INTERACTION, NAME=GRIP\n*FRICTION\n0.1\n",
                       kStepOpen +
                           "*CONTACT PAIR, INTERACTION=GRIP\nBOTTOM, TOP\n"
                           "*CONTACT\n*CONTACT INCLUSIONS\nTOP, BOTTOM\n*CONTACT PROPERTY ASSIGNMENT\n, , GRIP\n"
                           "*BOUNDARY\n1, 1, 3\n" +
                           kStepClose + kStepOpen + kStepClose);
  ASSERT_EQ(m.contact.pairs.size(), 3u);
  EXPECT_EQ(m.contact.pairs[0].interaction, "GRIP");
  EXPECT_EQ(m.contact.pairs[0].loc.line, kCubeLines + 3 + 3 + 2);
  EXPECT_EQ(m.contact.pairs[1].interaction, "GRIP");  // applied when *BOUNDARY ended the block
  EXPECT_EQ(m.contact.pairs[2].interaction, "GRIP");
  ASSERT_EQ(m.steps.size(), 2u);
  EXPECT_EQ(m.steps[0].boundaries.size(), 1u);  // the step goes on after the block
}

TEST(InpContact, InteractionMayBeDefinedAfterThePairThatNamesIt) {
  const Model m = read("*CONTACT PAIR, INTERACTION=LATE\nBOTTOM, TOP\n*SURFACE INTERACTION, NAME=LATE\n*FRICTION\n0.25\n");
  ASSERT_EQ(m.contact.pairs.size(), 1u);
  EXPECT_EQ(m.contact.interactions.at(m.contact.pairs[0].interaction).friction, 0.25);
}

TEST(InpContact, SurfacesOfAnInstanceAreNamedWithIt) {
  const std::string deck = R"(*PART, NAME=BLOCKS
)" + kCubes + R"(*END PART
*ASSEMBLY, NAME=A
*INSTANCE, NAME=I1, PART=BLOCKS
*END INSTANCE
*END ASSEMBLY
*SURFACE INTERACTION, NAME=GRIP
*FRICTION
0.3
)" + kStepOpen + R"(*CONTACT PAIR, INTERACTION=GRIP
I1.BOTTOM, I1.TOP
*CONTACT
*CONTACT INCLUSIONS
I1.TOP, I1.BOTTOM
)" + kStepClose;
  const Model m = read_inp_string(deck, "contact.inp");
  ASSERT_EQ(m.contact.pairs.size(), 3u);
  EXPECT_EQ(m.contact.pairs[0].slave, "I1.BOTTOM");
  EXPECT_EQ(m.contact.pairs[0].master, "I1.TOP");
  EXPECT_TRUE(m.surfaces.count("I1.TOP"));
}

TEST(InpContact, ErrorsNameThePairLine) {
  // The checks at the end of the deck point at the pair, also when it was read in the step.
  const std::string e = error_of("", kStepOpen + "*CONTACT PAIR, INTERACTION=X\nTOP, NONE\n" + kStepClose);
  EXPECT_NE(e.find("contact.inp:" + std::to_string(kCubeLines + 5) + ":"), std::string::npos) << e;
  EXPECT_NE(e.find("surface 'NONE' is not defined"), std::string::npos) << e;
  // An unknown interaction of general contact points at the assignment.
  const std::string a = error_of("*CONTACT\n*CONTACT INCLUSIONS, ALL EXTERIOR\n*CONTACT PROPERTY ASSIGNMENT\n, , GRIP\n");
  EXPECT_NE(a.find("contact.inp:" + std::to_string(kCubeLines + 4) + ":"), std::string::npos) << a;
  EXPECT_NE(a.find("surface interaction 'GRIP' is not defined"), std::string::npos) << a;
}

TEST(InpContact, CheckCollectsContactProblems) {
  // halfstep check reads on after a refused contact keyword.
  const std::string deck = kCubes + "*SURFACE INTERACTION, NAME=G\n*FRICTION, ROUGH\n*CONTACT PAIR, INTERACTION=G, ADJUST=-0.1\nTOP, BOTTOM\n" + kStep;
  const std::string path = ::testing::TempDir() + "contact_check.inp";
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fwrite(deck.data(), 1, deck.size(), f);
    std::fclose(f);
  }
  std::string what;
  try {
    (void)read_inp_all_errors(path, 10);
  } catch (const InputError& e) {
    what = e.what();
  }
  std::remove(path.c_str());
  EXPECT_NE(what.find("*FRICTION, ROUGH is not supported"), std::string::npos) << what;
  EXPECT_NE(what.find("ADJUST=-0.1: the adjustment distance must be a finite number >= 0"), std::string::npos) << what;
  EXPECT_NE(what.find("2 problems found"), std::string::npos) << what;
}

}  // namespace
}  // namespace halfstep
