// S3/S3R in an ordinary *SHELL SECTION (issue 45 item 5): a mesher's mixed S4R and S3 mesh in
// one section runs its triangles as the FPM triangle with that section's thickness, points
// and material. The mixed strip written with one section gives, bit for bit, what its two
// sections (S4R, and S3 with FORMULATION=FPM) give; a static step is refused for it as for
// any FPM triangle.
#include <fstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

/// The mixed strip deck with its two shell sections made one, over both element sets.
std::string one_section(std::string deck) {
  const std::string two =
      "*SHELL SECTION, ELSET=QUADS, MATERIAL=MAT\n0.1, 5\n*SHELL SECTION, ELSET=TRIS, MATERIAL=MAT, FORMULATION=FPM\n"
      "0.1, 5\n";
  const std::size_t at = deck.find(two);
  EXPECT_NE(at, std::string::npos) << "the mixed strip deck changed its sections";
  if (at == std::string::npos) return deck;
  return deck.replace(at, two.size(), "*ELSET, ELSET=SHELLS\nQUADS, TRIS\n*SHELL SECTION, ELSET=SHELLS, MATERIAL=MAT\n0.1, 5\n");
}

TEST(DefaultTriangles, OneSectionRunsAsTheTwoSections) {
  const std::string dir = scratch_dir("default_triangles");
  const std::string deck = read_file(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/mixed_strip_bend.inp");
  std::ofstream(dir + "/two.inp") << deck;
  std::ofstream(dir + "/one.inp") << one_section(deck);
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/two.inp", dir + "/two", "--backend cpu --threads 1", &out), 0) << out;
  ASSERT_EQ(run_halfstep(dir + "/one.inp", dir + "/one", "--backend cpu --threads 1", &out), 0) << out;
  const std::string tip = read_file(dir + "/two/history/TIP.csv");
  EXPECT_GT(tip.size(), 1000u);
  EXPECT_EQ(read_file(dir + "/one/history/TIP.csv"), tip);
  EXPECT_EQ(read_file(dir + "/one/history/ROOT.csv"), read_file(dir + "/two/history/ROOT.csv"));
}

TEST(DefaultTriangles, AStaticStepIsRefusedWithTheSection) {
  const std::string dir = scratch_dir("default_triangles_static");
  std::string deck = one_section(read_file(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/mixed_strip_bend.inp"));
  const std::size_t at = deck.find("*DYNAMIC, EXPLICIT\n, 1.0\n");
  ASSERT_NE(at, std::string::npos);
  deck.replace(at, std::string("*DYNAMIC, EXPLICIT\n, 1.0\n").size(), "*STATIC\n1., 1.\n");
  std::ofstream(dir + "/s.inp") << deck;
  std::string out;
  EXPECT_EQ(run_halfstep(dir + "/s.inp", dir + "/out", "--backend cpu", &out), 2) << out;
  EXPECT_NE(out.find("*SHELL SECTION, ELSET=SHELLS (its S3/S3R run as FPM triangles)"), std::string::npos) << out;
  EXPECT_NE(out.find("FPM triangles run in explicit dynamic steps only"), std::string::npos) << out;
}

}  // namespace
}  // namespace halfstep::test
