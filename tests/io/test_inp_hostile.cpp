// Hostile decks (issue 20): nesting without a depth limit, ids at the edge of int64, control
// bytes in what a message quotes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.hpp"
#include "io/inp_reader.hpp"

namespace halfstep {
namespace {

Model read(const std::string& text) { return read_inp_string(text, "mem/hostile.inp"); }

const char* kRest = R"(*ELEMENT, TYPE=S4R, ELSET=PLATE
1, 1, 2, 3, 4
*MATERIAL, NAME=STEEL
*ELASTIC
210e9, 0.3
*DENSITY
7800
*SHELL SECTION, ELSET=PLATE, MATERIAL=STEEL
0.01
*STEP
*DYNAMIC, EXPLICIT
, 1e-3
*END STEP
)";

// 20,000 node sets, each holding the next: resolved without recursion (this used to overflow
// the call stack).
TEST(InpHostile, DeepChainsOfSetsResolve) {
  std::string deck = "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n";
  const int n = 20000;
  for (int i = 0; i < n; ++i)
    deck += "*NSET, NSET=S" + std::to_string(i) + "\n" + (i + 1 < n ? "S" + std::to_string(i + 1) : "3") + "\n";
  const Model m = read(deck + kRest);
  EXPECT_EQ(m.nsets.at("S0").members.size(), 1u);
  EXPECT_EQ(m.nodes.id[static_cast<std::size_t>(m.nsets.at("S0").members[0])], 3);
}

// A GENERATE range over ids the mesh does not use skips them with a warning (the peer's
// decks rely on it); a range that finds no node, or whose span dwarfs the mesh, is refused
// (a mistyped bound must not walk 10^15 ids).
TEST(InpHostile, GenerateSkipsMissingIdsWithAWarning) {
  const std::string nodes = "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n10, 5, 0, 0\n";
  const Model m = read(nodes + "*NSET, NSET=G, GENERATE\n1, 10\n" + kRest);
  EXPECT_EQ(m.nsets.at("G").members.size(), 5u);
  bool warned = false;
  for (const std::string& w : m.warnings)
    warned = warned || w.find("5 ids of its GENERATE range 1 to 10 are not nodes of the model (the first: 5), skipped") !=
                           std::string::npos;
  EXPECT_TRUE(warned);
  EXPECT_THROW(read(nodes + "*NSET, NSET=G, GENERATE\n20, 30\n" + kRest), InputError);
  EXPECT_THROW(read(nodes + "*NSET, NSET=G, GENERATE\n1, 1000000000000000\n" + kRest), InputError);
}

// GENERATE ranges that end at the largest id (2^53, what the results hold exactly) stop at
// the last id instead of passing it.
TEST(InpHostile, GenerateNearTheLargestIdStopsAtTheEnd) {
  const std::string deck = "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n"
                           "9007199254740984, 5, 0, 0\n9007199254740989, 6, 0, 0\n"
                           "*NSET, NSET=BIG, GENERATE\n9007199254740984, 9007199254740992, 5\n";
  // Ids end at 2^53 (the results hold ids as Float64); the range's last step would pass it.
  const Model m = read(deck + kRest);
  ASSERT_EQ(m.nsets.at("BIG").members.size(), 2u);
  EXPECT_EQ(m.nodes.id[static_cast<std::size_t>(m.nsets.at("BIG").members[1])], 9007199254740989);
}

// Files that each include the next one twice: 2^20 includes without a cycle. The reader
// stops at its include budget with the line of the include that passed it.
TEST(InpHostile, IncludeFanOutIsStopped) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "halfstep_fanout";
  std::filesystem::create_directories(dir);
  const int depth = 20;
  for (int k = 0; k < depth; ++k)
    std::ofstream(dir / ("f" + std::to_string(k) + ".inp"))
        << (k + 1 < depth ? "*INCLUDE, INPUT=f" + std::to_string(k + 1) + ".inp\n*INCLUDE, INPUT=f" +
                                std::to_string(k + 1) + ".inp\n"
                          : std::string("** leaf\n"));
  std::ofstream(dir / "main.inp") << "*HEADING\nfan-out\n*INCLUDE, INPUT=f0.inp\n";
  try {
    read_inp((dir / "main.inp").string());
    FAIL() << "read 2^20 includes";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("more than 100000 *INCLUDEs"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

// A message quoting the deck writes its control bytes as \xNN (past the first KiB, which the
// reader checks for binary data).
TEST(InpHostile, ControlBytesInMessagesAreEscaped) {
  try {
    read("**" + std::string(1100, 'x') + "\n*NODE\n1, 0, 0, 0\n2, 1\x07\x1b[2J, 0, 0\n" + kRest);
    FAIL() << "accepted a bad coordinate";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("1\\x07\\x1B[2J"), std::string::npos) << what;
    for (char c : what) EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 && c != '\n') << what;
  }
}

}  // namespace
}  // namespace halfstep
