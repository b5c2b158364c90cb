// Runs the reader and what `halfstep check` runs after it (the system build, the step tables,
// the steps' checks and the implicit steps' pre-flight: describe_model) over every malformed
// deck listed in tests/bad_input/cases.txt and checks
// that it fails with an InputError at the expected file and line, with the expected text.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "io/inp_reader.hpp"
#include "solver/model_report.hpp"

namespace halfstep {
namespace {

namespace fs = std::filesystem;

const fs::path kDir = fs::path(HALFSTEP_SOURCE_DIR) / "tests" / "bad_input";

/// One manifest line: deck_file|expected_line|expected message substring.
struct BadCase {
  std::string deck, where, substring;
  int manifest_line = 0;
};

// Readable test parameters in gtest's output instead of a byte dump.
void PrintTo(const BadCase& c, std::ostream* os) { *os << c.deck << "|" << c.where << "|" << c.substring; }

std::vector<BadCase> load_cases() {
  std::vector<BadCase> cases;
  std::ifstream in(kDir / "cases.txt");
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const std::size_t a = line.find('|');
    const std::size_t b = a == std::string::npos ? a : line.find('|', a + 1);
    BadCase c;
    c.manifest_line = n;
    if (b == std::string::npos) {
      c.deck = line;  // reported as a malformed manifest line by the test
    } else {
      c.deck = line.substr(0, a);
      c.where = line.substr(a + 1, b - a - 1);
      c.substring = line.substr(b + 1);
    }
    cases.push_back(c);
  }
  return cases;
}

// "12" means line 12 of the deck itself; "inc.inp:3" names an included file.
std::string expected_location(const BadCase& c) {
  if (c.where.find(':') != std::string::npos) return c.where;
  return fs::path(c.deck).filename().string() + ":" + c.where;
}

class BadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadInput, ReaderReportsFileLineAndReason) {
  const BadCase& c = GetParam();
  ASSERT_FALSE(c.where.empty() || c.substring.empty())
      << "cases.txt:" << c.manifest_line << ": expected deck_file|expected_line|substring";
  const std::string path = (kDir / "decks" / c.deck).string();
  ASSERT_TRUE(fs::is_regular_file(path)) << path;
  try {
    // Some faults (an inverted solid) are found when the discrete system is built, some (a
    // weightless element under gravity) when the steps' load tables are, some (a part no
    // support holds) when the implicit steps are set up as far as their checks.
    const Model model = read_inp(path);
    (void)describe_model(model, 1.0);
    FAIL() << c.deck << " was accepted; expected an error containing '" << c.substring << "'";
  } catch (const InputError& e) {
    const std::string what = e.what();
    // The ':' after the line number keeps "deck.inp:1" from matching "deck.inp:12".
    EXPECT_NE(what.find(expected_location(c) + ":"), std::string::npos)
        << "expected location " << expected_location(c) << "\n  got: " << what;
    EXPECT_NE(what.find(c.substring), std::string::npos)
        << "expected text '" << c.substring << "'\n  got: " << what;
  } catch (const std::exception& e) {
    FAIL() << c.deck << " threw a non-InputError: " << e.what();
  }
}

std::string case_name(const ::testing::TestParamInfo<BadCase>& info) {
  std::string name = fs::path(info.param.deck).stem().string();
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name + "_L" + std::to_string(info.param.manifest_line);
}

INSTANTIATE_TEST_SUITE_P(Manifest, BadInput, ::testing::ValuesIn(load_cases()), case_name);

// Every deck in decks/ must be exercised, and the manifest must not shrink unnoticed.
TEST(BadInputManifest, ListsEveryDeck) {
  const auto cases = load_cases();
  EXPECT_GE(cases.size(), 20u);
  std::set<std::string> listed;
  for (const auto& c : cases) listed.insert(c.deck);
  for (const auto& entry : fs::directory_iterator(kDir / "decks")) {
    if (!entry.is_regular_file()) continue;  // includes/ holds include targets, not decks
    EXPECT_TRUE(listed.count(entry.path().filename().string()))
        << entry.path().filename() << " is not listed in cases.txt";
  }
}

}  // namespace
}  // namespace halfstep
