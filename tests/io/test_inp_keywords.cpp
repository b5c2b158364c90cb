// The keyword table (src/io/inp_keywords.cpp): its entries are well formed, and the rules its
// flags stand for hold for every keyword that carries them.
#include <gtest/gtest.h>

#include <cctype>
#include <set>
#include <string>
#include <string_view>

#include "io/inp_parser.hpp"
#include "io/inp_reader.hpp"
#include "io_test_util.hpp"

namespace halfstep {
namespace {

using inp::DeckParser;
using test::kPlateMesh;

Model read(const std::string& text) { return read_inp_string(text, "mem/test.inp"); }

// The whole "file:line: error: message" text of the deck's error, or "" if it reads.
std::string error_of(const std::string& deck) {
  try {
    read(deck);
  } catch (const InputError& e) {
    return e.what();
  }
  return {};
}

// How the lexer hands a keyword line's name to the lookup: no '*', no blanks.
std::string squeezed(std::string_view name) {
  std::string s;
  for (char c : name.substr(1))
    if (c != ' ') s += c;
  return s;
}

TEST(KeywordTable, NamesAreUniqueUpperCaseAndStartWithAStar) {
  std::set<std::string> seen;
  for (const DeckParser::KeywordSpec& k : DeckParser::keywords()) {
    const std::string name(k.name);
    SCOPED_TRACE(name);
    ASSERT_GE(name.size(), 2u);
    EXPECT_EQ(name[0], '*');
    for (char c : name) EXPECT_FALSE(std::islower(static_cast<unsigned char>(c)));
    // Written as messages show it, since *HYPERELASTIC etc. print the table name.
    EXPECT_NE(name[1], ' ');
    EXPECT_NE(name.back(), ' ');
    EXPECT_EQ(name.find("  "), std::string::npos);
    // Blanks do not count when matching, so "*NODE FILE" and "*NODEFILE" would collide.
    EXPECT_TRUE(seen.insert(squeezed(name)).second) << "duplicate keyword " << name;
    EXPECT_NE(k.keyword, nullptr);
    EXPECT_EQ(DeckParser::find_keyword(squeezed(name)), &k);
  }
}

TEST(KeywordTable, LookupMatchesWholeNamesOnly) {
  ASSERT_NE(DeckParser::find_keyword("SHELLSECTION"), nullptr);
  EXPECT_EQ(DeckParser::find_keyword("SHELLSECTION")->name, "*SHELL SECTION");
  EXPECT_EQ(DeckParser::find_keyword("SHELL"), nullptr);
  EXPECT_EQ(DeckParser::find_keyword("NODEOUTPUTS"), nullptr);
  EXPECT_EQ(DeckParser::find_keyword(""), nullptr);
}

TEST(KeywordTable, IgnoredKeywordWarnsOnceAndSkipsItsDataLines) {
  const std::string deck = std::string(kPlateMesh) +
                           "*Node File, nset=ALLN\nU, RF\n"
                           "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-3\n"
                           "*NODE FILE\nU\n*END STEP\n";
  const Model m = read(deck);
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_EQ(m.warnings[0], "keyword *NODE FILE is not supported and was ignored (first at mem/test.inp:18)");
}

TEST(KeywordTable, LineSearchControlsAreIgnoredAndOtherControlsRefused) {
  const std::string head = std::string(kPlateMesh) + "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-3\n";
  const Model m = read(head + "*CONTROLS, PARAMETERS=LINE SEARCH\n, 1., 1.,\n*CONTROLS, RESET\n*END STEP\n");
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_EQ(m.warnings[0], "keyword *CONTROLS is not supported and was ignored (first at mem/test.inp:21)");
  EXPECT_EQ(error_of(head + "*CONTROLS, PARAMETERS=FIELD\n0.5, 1.\n"),
            "mem/test.inp:21: error: *CONTROLS, PARAMETERS=FIELD is not supported: it changes the solver's "
            "tolerances or increments, and with them the results (halfstep ignores only PARAMETERS=LINE SEARCH, "
            "which changes the Newton path, not the converged answer)");
}

TEST(KeywordTable, KeywordMissingFromTheTableIsAnErrorAtItsLine) {
  EXPECT_EQ(error_of(std::string(kPlateMesh) + "*Foo Bar, X=1\n1, 2\n"),
            "mem/test.inp:18: error: keyword *FOO BAR is not supported by halfstep; ignoring it "
            "would change the results");
  // The block before it is checked first: an *ELASTIC without data is reported there.
  EXPECT_EQ(error_of("*MATERIAL, NAME=M\n*ELASTIC\n*PLASTIC\n"),
            "mem/test.inp:2: error: *ELASTIC needs a data line with E, nu");
}

TEST(KeywordTable, ModelDataKeywordsAreRefusedInsideAStep) {
  int n = 0;
  for (const DeckParser::KeywordSpec& k : DeckParser::keywords()) {
    if (!(k.flags & DeckParser::kModelData)) continue;
    ++n;
    const std::string name(k.name);
    EXPECT_EQ(error_of(std::string(kPlateMesh) + "*STEP\n*DYNAMIC, EXPLICIT\n, 1e-3\n" + name + "\n"),
              "mem/test.inp:21: error: " + name + " is model data: it must come before the first *STEP");
  }
  EXPECT_GT(n, 0);
}

TEST(KeywordTable, StepKeywordsAreRefusedOutsideAStep) {
  int n = 0;
  for (const DeckParser::KeywordSpec& k : DeckParser::keywords()) {
    if (!(k.flags & DeckParser::kInStep)) continue;
    ++n;
    const std::string name(k.name);
    EXPECT_EQ(error_of(std::string(kPlateMesh) + name + "\n"),
              "mem/test.inp:18: error: " + name + " must be inside a *STEP ... *END STEP block");
  }
  EXPECT_GT(n, 0);
}

TEST(KeywordTable, MaterialOptionsNeedAMaterialRightBeforeThem) {
  int n = 0;
  for (const DeckParser::KeywordSpec& k : DeckParser::keywords()) {
    if (!(k.flags & DeckParser::kMaterialOption)) continue;
    ++n;
    const std::string name(k.name);
    EXPECT_EQ(error_of("*NODE\n1, 0, 0\n" + name + "\n"),
              "mem/test.inp:3: error: " + name + " must follow a *MATERIAL (it defines that material)");
  }
  EXPECT_GT(n, 0);
}

}  // namespace
}  // namespace halfstep
