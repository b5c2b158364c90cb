// Every malformed deck of tests/bad_input/cases.txt, run through the halfstep binary: a
// message naming the file and line, exit code 2, and no result frames written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../integration/run_util.hpp"

namespace halfstep::test {
namespace {

struct Case {
  std::string deck, where, message;
};

std::vector<Case> load_cases() {
  std::vector<Case> cases;
  std::ifstream in(HALFSTEP_SOURCE_DIR "/tests/bad_input/cases.txt");
  EXPECT_TRUE(in.good()) << "tests/bad_input/cases.txt is missing";
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto a = line.find('|'), b = line.find('|', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    cases.push_back({line.substr(0, a), line.substr(a + 1, b - a - 1), line.substr(b + 1)});
  }
  return cases;
}

TEST(BadInputCli, EveryMalformedDeckIsRefusedWithFileAndLine) {
  const std::vector<Case> cases = load_cases();
  ASSERT_GE(cases.size(), 15u);
  const std::string dir = scratch_dir("bad_input_cli");
  for (const Case& c : cases) {
    const std::string deck = HALFSTEP_SOURCE_DIR "/tests/bad_input/decks/" + c.deck;
    const std::string outdir = dir + "/" + c.deck;
    std::string out;
    const int rc = run_halfstep(deck, outdir, "", &out);
    EXPECT_EQ(rc, 2) << c.deck << ": " << out;
    // "where" is a line number in the deck itself, or file:line inside an included file.
    const std::string where =
        c.where.find(':') == std::string::npos ? c.deck + ":" + c.where : c.where;
    EXPECT_NE(out.find(where), std::string::npos) << c.deck << " should name " << where << ", got: " << out;
    EXPECT_NE(out.find(c.message), std::string::npos) << c.deck << " should say '" << c.message << "', got: " << out;
    bool frames = false;
    if (std::filesystem::exists(outdir))
      for (const auto& f : std::filesystem::recursive_directory_iterator(outdir))
        frames |= f.path().extension() == ".vtu" || f.path().extension() == ".pvd";
    EXPECT_FALSE(frames) << c.deck << " wrote result frames";
  }
}

// Errors only the solver can see (after parsing) also point at the deck.
TEST(BadInputCli, NonZeroPrescribedRotationIsRefused) {
  const std::string dir = scratch_dir("bad_rotation");
  const std::string deck = dir + "/rot.inp";
  std::ofstream(deck) << "*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n"
                         "*ELEMENT, TYPE=S4R, ELSET=E\n1,1,2,3,4\n"
                         "*MATERIAL, NAME=M\n*ELASTIC\n1e5,0.3\n*DENSITY\n1e-6\n"
                         "*SHELL SECTION, ELSET=E, MATERIAL=M\n0.1\n"
                         "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-3\n*BOUNDARY\n1, 4, 4, 0.1\n*END STEP\n";
  std::string out;
  EXPECT_EQ(run_halfstep(deck, dir + "/out", "", &out), 2) << out;
  EXPECT_NE(out.find("rot.inp:19"), std::string::npos) << out;
  EXPECT_NE(out.find("rotations"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out/rot.pvd"));
}

TEST(BadInputCli, UsageErrorsExitWithOne) {
  std::string out;
  EXPECT_EQ(run_command(std::string(HALFSTEP_BINARY) + " run", &out), 1) << out;
  EXPECT_EQ(run_command(std::string(HALFSTEP_BINARY) + " frobnicate x.inp", &out), 1) << out;
  EXPECT_EQ(run_command(std::string(HALFSTEP_BINARY) + " run x.inp -o /tmp/x --threads abc", &out), 1) << out;
}

TEST(BadInputCli, MissingDeckIsReported) {
  std::string out;
  EXPECT_EQ(run_command(std::string(HALFSTEP_BINARY) + " check /nonexistent/deck.inp", &out), 2) << out;
  EXPECT_NE(out.find("/nonexistent/deck.inp"), std::string::npos) << out;
}

}  // namespace
}  // namespace halfstep::test
