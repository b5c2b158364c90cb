// One deck per Abaqus input rule of issue 16 item 1 (tests/io/decks/rules/), each read as
// Abaqus reads it: continuation of element lines by node count (C3D8, C3D20, C3D10), empty
// and trailing empty fields, GENERATE, case-insensitive and quoted names, *INCLUDE relative to
// the including file, comments and blank lines anywhere, the set options CAE writes, and
// assembly-level nodes (CAE's reference points) with the references that name them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "io/inp_reader.hpp"

namespace halfstep {
namespace {

Model read_rule(const std::string& name) { return read_inp(HALFSTEP_SOURCE_DIR "/tests/io/decks/rules/" + name); }

std::int64_t node_id(const Model& m, int index) { return m.nodes.id[static_cast<std::size_t>(index)]; }

/// The ids of a node set's members, in set order.
std::vector<std::int64_t> nset_ids(const Model& m, const std::string& name) {
  std::vector<std::int64_t> ids;
  for (int n : m.nsets.at(name).members) ids.push_back(node_id(m, n));
  return ids;
}

std::vector<std::int64_t> element_node_ids(const Model& m, int e) {
  std::vector<std::int64_t> ids;
  const int* c = m.elements.nodes_of(e);
  for (int k = 0; k < m.elements.count_of(e); ++k) ids.push_back(node_id(m, c[k]));
  return ids;
}

std::vector<std::int64_t> range(std::int64_t first, std::int64_t last) {
  std::vector<std::int64_t> v;
  for (std::int64_t i = first; i <= last; ++i) v.push_back(i);
  return v;
}

TEST(InpRules, ElementLinesContinueByNodeCount) {
  const Model m = read_rule("continuation.inp");
  ASSERT_EQ(m.elements.size(), 3);
  EXPECT_EQ(m.elements.abaqus_type[0], "C3D8");
  EXPECT_EQ(element_node_ids(m, 0), range(1, 8));  // "1, 1, ..., 8," is complete
  EXPECT_EQ(m.elements.abaqus_type[1], "C3D20");
  EXPECT_EQ(element_node_ids(m, 1), range(101, 120));  // 15 nodes, then 5 on the next line
  EXPECT_EQ(m.elements.loc[1].line, m.elements.loc[0].line + 2);
  EXPECT_EQ(m.elements.abaqus_type[2], "C3D10");
  EXPECT_EQ(element_node_ids(m, 2), range(201, 210));  // complete, trailing comma
  EXPECT_EQ(m.elsets.at("ALL").members.size(), 3u);
}

TEST(InpRules, EmptyFieldsReadAsZeroAndTrailingOnesAreDropped) {
  const Model m = read_rule("empty_fields.inp");
  EXPECT_EQ(m.nodes.z[1], 0.0);  // "2, 1., 0.,"
  EXPECT_EQ(m.nodes.x[3], 0.0);  // "4, , 1."
  EXPECT_EQ(m.nodes.z[3], 0.0);
  EXPECT_EQ(m.nodes.y[5], 0.0);  // "6, 1., , 1."
  EXPECT_EQ(m.nodes.z[5], 1.0);
  const Step& s = m.steps.at(0);
  ASSERT_EQ(s.boundaries.size(), 3u);
  EXPECT_EQ(s.boundaries[0].nodes.size(), 4u);  // "Bottom, 1, 3, ,"
  EXPECT_EQ(s.boundaries[0].last_dof, 3);
  EXPECT_EQ(s.boundaries[1].first_dof, 1);  // "5, 1, , ": dof 1 only
  EXPECT_EQ(s.boundaries[1].last_dof, 1);
  EXPECT_EQ(s.boundaries[2].first_dof, 2);  // "8, 2, 2, , ,": value 0
  EXPECT_EQ(s.boundaries[2].value, 0.0);
  ASSERT_EQ(s.cloads.size(), 2u);
  EXPECT_EQ(s.cloads[0].magnitude, 1e3);  // "7, 3, 1e3, ,"
  EXPECT_EQ(s.cloads[1].magnitude, -2.5);
  EXPECT_EQ(node_id(m, s.cloads[1].nodes.at(0)), 6);
}

TEST(InpRules, GenerateInNodeAndElementSets) {
  const Model m = read_rule("generate.inp");
  EXPECT_EQ(nset_ids(m, "ODD"), (std::vector<std::int64_t>{1, 3, 5, 7, 9, 11}));
  EXPECT_EQ(nset_ids(m, "TOP"), range(12, 22));  // repeated definitions append, without duplicates
  std::vector<std::int64_t> every3;
  for (int e : m.elsets.at("EVERY3").members) every3.push_back(m.elements.id[static_cast<std::size_t>(e)]);
  EXPECT_EQ(every3, (std::vector<std::int64_t>{1, 4, 7, 10, 2}));
}

TEST(InpRules, NamesAreCaseInsensitive) {
  const Model m = read_rule("case.inp");
  EXPECT_EQ(m.elements.abaqus_type.at(0), "S4R");
  EXPECT_EQ(nset_ids(m, "LEFTEDGE"), (std::vector<std::int64_t>{1, 4}));
  ASSERT_EQ(m.sections.size(), 1u);
  EXPECT_EQ(m.steps.at(0).name, "Load");
  ASSERT_EQ(m.steps[0].boundaries.size(), 1u);  // "leftedge, encastre": dofs 1 to 6
  EXPECT_EQ(m.steps[0].boundaries[0].last_dof, 6);
  EXPECT_EQ(m.steps[0].boundaries[0].nodes.size(), 2u);
  EXPECT_EQ(m.steps[0].cloads.at(0).nodes.size(), 4u);
}

TEST(InpRules, QuotedNamesMayHoldBlanksAndCommas) {
  const Model m = read_rule("quoted.inp");
  EXPECT_EQ(nset_ids(m, "LEFT EDGE"), (std::vector<std::int64_t>{1, 4}));
  EXPECT_EQ(nset_ids(m, "RIGHT, EDGE"), (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(m.nsets.at("ALL NODES").members.size(), 4u);
  EXPECT_EQ(m.elsets.at("THIN PLATE").members.size(), 1u);
  EXPECT_EQ(m.steps.at(0).boundaries.at(0).nodes.size(), 2u);
  EXPECT_EQ(node_id(m, m.steps[0].cloads.at(0).nodes.at(1)), 3);
}

TEST(InpRules, IncludeIsRelativeToTheIncludingFile) {
  const Model m = read_rule("include/main.inp");
  ASSERT_EQ(m.nodes.size(), 4);  // the *NODE block goes on in mesh/nodes.inp
  EXPECT_NE(m.nodes.loc[2].str().find("include/mesh/nodes.inp:2"), std::string::npos) << m.nodes.loc[2].str();
  ASSERT_EQ(m.elements.size(), 1);
  EXPECT_NE(m.elements.loc[0].str().find("include/mesh/more/elements.inp:2"), std::string::npos)
      << m.elements.loc[0].str();
  EXPECT_EQ(nset_ids(m, "LEFT"), (std::vector<std::int64_t>{1, 4}));
}

TEST(InpRules, CommentsAndBlankLinesAnywhere) {
  const Model m = read_rule("comments.inp");
  EXPECT_EQ(m.heading, "comments and blank lines anywhere");
  ASSERT_EQ(m.nodes.size(), 4);
  ASSERT_EQ(m.elements.size(), 1);
  EXPECT_EQ(element_node_ids(m, 0), range(1, 4));
  EXPECT_EQ(nset_ids(m, "LEFT"), (std::vector<std::int64_t>{1, 4}));
  ASSERT_EQ(m.sections.size(), 1u);
  EXPECT_EQ(m.sections[0].thickness, 0.1);
  EXPECT_EQ(m.steps.at(0).boundaries.size(), 1u);
}

TEST(InpRules, SetOptionsAndInstanceQualifiedNames) {
  const Model m = read_rule("sets.inp");
  ASSERT_EQ(m.nodes.size(), 24);
  // UNSORTED: deck order kept (halfstep keeps every set in deck order).
  EXPECT_EQ(nset_ids(m, "PLATE-1.FIXED"), (std::vector<std::int64_t>{10, 7, 4, 1}));
  EXPECT_EQ(nset_ids(m, "PLATE-2.FIXED"), (std::vector<std::int64_t>{110, 107, 104, 101}));
  // INTERNAL, INSTANCE=: the instance's ids.
  EXPECT_EQ(nset_ids(m, "_PICKEDSET4"), (std::vector<std::int64_t>{103, 106, 109, 112}));
  // One assembly set written for two instances.
  EXPECT_EQ(nset_ids(m, "CORNERS"), (std::vector<std::int64_t>{1, 12, 101}));
  EXPECT_EQ(m.elsets.at("PLATE-1.ALL").members.size(), 2u);  // a set of sets
  EXPECT_EQ(m.elsets.at("BOTH").members.size(), 3u);
  EXPECT_EQ(m.nsets.at("BOTHNODES").members.size(), 20u);  // *NSET, ELSET=: 12 + 8 nodes
  EXPECT_EQ(nset_ids(m, "PLATE-2.ENDNODES").size(), 8u);
  EXPECT_EQ(m.surfaces.at("PLATE-1.TOP").elements.size(), 2u);
  const Step& s = m.steps.at(0);
  ASSERT_EQ(s.boundaries.size(), 2u);
  EXPECT_EQ(node_id(m, s.boundaries[1].nodes.at(0)), 110);
  ASSERT_EQ(s.cloads.size(), 2u);
  EXPECT_EQ(node_id(m, s.cloads[1].nodes.at(0)), 102);
  // Plate-2 is 3 above Plate-1.
  EXPECT_EQ(m.nodes.z[static_cast<std::size_t>(m.nodes.index.at(107))], 4.0);
}

// CAE's reference point: an assembly-level *NODE numbered 1, like Bar-1's first node. It gets
// an id above every instance's, and everything that names it (assembly sets, REF NODE=,
// the MASS element, the *CLOAD on its set) finds it.
TEST(InpRules, AssemblyLevelNodesAreRenumberedAndFound) {
  const Model m = read_rule("cae_reference_point.inp");
  ASSERT_EQ(m.nodes.size(), 25);
  const int rp = m.nodes.index.at(1001);
  EXPECT_EQ(m.nodes.x[static_cast<std::size_t>(rp)], -0.5);
  EXPECT_EQ(m.nodes.y[static_cast<std::size_t>(rp)], 7.0);
  EXPECT_EQ(m.nodes.x[static_cast<std::size_t>(m.nodes.index.at(1))], 0.0);  // Bar-1's node 1
  EXPECT_EQ(m.nsets.at("RP-1").members, std::vector<int>{rp});
  EXPECT_EQ(m.nsets.at("RP-GEN").members, std::vector<int>{rp});  // GENERATE at assembly level
  ASSERT_EQ(m.rigid_bodies.size(), 1u);
  EXPECT_EQ(m.rigid_bodies[0].ref_node, rp);
  std::vector<std::int64_t> tied;
  for (int n : m.rigid_bodies[0].tied) tied.push_back(node_id(m, n));
  std::sort(tied.begin(), tied.end());
  EXPECT_EQ(tied, (std::vector<std::int64_t>{103, 106, 109, 112}));  // Bar-2's end face
  ASSERT_EQ(m.point_masses.size(), 1u);
  EXPECT_EQ(m.point_masses[0].node, rp);
  EXPECT_EQ(m.point_masses[0].mass, 0.25);
  const Step& s = m.steps.at(0);
  ASSERT_EQ(s.cloads.size(), 2u);
  EXPECT_EQ(s.cloads[0].nodes, std::vector<int>{rp});
}

// The same deck naming the reference point by its plain id in the history data, and an
// assembly-level spring between it and an instance node (CAE writes springs in the assembly).
TEST(InpRules, PlainIdsOutsideThePartsNameAssemblyNodes) {
  std::ifstream in(HALFSTEP_SOURCE_DIR "/tests/io/decks/rules/cae_reference_point.inp");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string deck = ss.str();
  const auto replace = [&](const std::string& from, const std::string& to) {
    const std::size_t at = deck.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    deck.replace(at, from.size(), to);
  };
  replace("RP-1, 2, 0.2", "1, 2, 0.2");
  replace("*End Assembly", "*Element, type=Spring2, elset=Springs-1\n7, 1, Bar-1.3\n*Spring, elset=Springs-1\n1, 1\n10.\n*End Assembly");
  const Model m = read_inp_string(deck, HALFSTEP_SOURCE_DIR "/tests/io/decks/rules/cae_reference_point_plain.inp");
  const int rp = m.nodes.index.at(1001);
  EXPECT_EQ(m.steps.at(0).cloads.at(0).nodes, std::vector<int>{rp});
  ASSERT_EQ(m.elements.size(), 5);
  EXPECT_EQ(m.elements.id[4], 107);  // assembly elements start above the instances' 1..12
  EXPECT_EQ(element_node_ids(m, 4), (std::vector<std::int64_t>{1001, 3}));
}

}  // namespace
}  // namespace halfstep
