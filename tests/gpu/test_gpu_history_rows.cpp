// History rows on the GPU carry only their nodes (issue 21): the sample node pass and the
// state staging write the history nodes' rows only, through a node -> row map built once per
// step. Checked two ways on decks with history every increment of sets out of ascending order
// that overlap: every history file column against the CPU backend's (FP64 to round-off), and,
// in the schemes that repeat bit for bit, two GPU runs whose field output falls at other
// increments (so one writes a compact row where the other stages the whole model) must write
// the same history bytes. The decks: the two-step pinched cylinder (a second step adds a set
// while the first one's sets go on), a bar joined by *EQUATION whose sets name dependent nodes
// only (their terms' nodes come along for the full-step velocity), and a bar with a rigid end
// whose sets name the reference node and slaves. Skipped where no GPU is present.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "../integration/run_util.hpp"
#include "backends/backend.hpp"

namespace halfstep::test {
namespace {

/// deck (under the source tree) with two more history sets every increment and field output
/// (U, V, RF) NUMBER INTERVAL=field, written to dir/name.inp. H1's rows carry UR too: a rigid
/// body's reference node shows the body's rotation, which the GPU stages from its own array.
std::string with_history_sets(const std::string& dir, const std::string& name, const std::string& deck,
                              const std::string& sets, int field) {
  std::string text = read_file(std::string(HALFSTEP_SOURCE_DIR "/") + deck);
  const std::size_t material = text.find("*MATERIAL");
  const std::size_t end = text.rfind("*END STEP");
  EXPECT_TRUE(material != std::string::npos && end != std::string::npos) << deck;
  text.insert(end, "*OUTPUT, FIELD, NUMBER INTERVAL=" + std::to_string(field) +
                       "\n*NODE OUTPUT\nU, V, RF\n*OUTPUT, HISTORY, TIME INTERVAL=1e-6\n*NODE OUTPUT, NSET=H1\nU, UR, V, RF\n"
                       "*NODE OUTPUT, NSET=H2\nU, V, RF\n");
  text.insert(material, sets);
  const std::string path = dir + "/" + name + ".inp";
  std::ofstream(path) << text;
  return path;
}

struct HistoryDeck {
  const char* name;
  const char* deck;  ///< under the source tree; empty: two_step_history_deck
  const char* sets;  ///< *NSET lines for H1 and H2
  std::vector<std::string> files;  ///< history files compared
  bool shells;  ///< the element-local scheme runs it
};

struct HistoryVariant {
  const char* scheme;
  const char* precision;
  double tolerance;    ///< max |gpu - cpu| over the largest |cpu| of the file's column group
  bool repeatable;     ///< the scheme repeats its sums bit for bit (no atomics)
};

/// dir/name.inp for d with field output every field increments (both steps for the cylinder).
std::string write_deck(const HistoryDeck& d, const std::string& dir, const std::string& name, int field) {
  if (std::string(d.deck).empty()) return two_step_history_deck(dir, name, field, field);
  return with_history_sets(dir, name, d.deck, d.sets, field);
}

class GpuHistoryRows : public ::testing::TestWithParam<std::tuple<HistoryDeck, HistoryVariant>> {};

TEST_P(GpuHistoryRows, MatchTheCpuAndDoNotDependOnTheFieldFrames) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const HistoryDeck& d = std::get<0>(GetParam());
  const HistoryVariant& v = std::get<1>(GetParam());
  if (!d.shells && std::string(v.scheme) == "element-local") GTEST_SKIP() << "element-local runs shells only";
  const std::string dir = scratch_dir(std::string("gpu_history_") + d.name + "_" + v.scheme + "_" + v.precision);
  std::string out;
  ASSERT_EQ(run_halfstep(write_deck(d, dir, "cpu", 5), dir + "/cpu", "--backend cpu", &out), 0) << out;
  const std::string gpu = std::string("--backend cuda --gpu-scheme ") + v.scheme + " --precision " + v.precision;
  ASSERT_EQ(run_halfstep(write_deck(d, dir, "a", 5), dir + "/a", gpu, &out), 0) << out;
  ASSERT_EQ(run_halfstep(write_deck(d, dir, "b", 3), dir + "/b", gpu, &out), 0) << out;
  for (const std::string& file : d.files) {
    SCOPED_TRACE(file);
    const Csv cpu = read_csv(dir + "/cpu/history/" + file + ".csv");
    const Csv a = read_csv(dir + "/a/history/" + file + ".csv");
    ASSERT_EQ(a.header, cpu.header);
    ASSERT_EQ(a.rows.size(), cpu.rows.size());
    ASSERT_GT(cpu.rows.size(), 10u);
    // Time and node exactly; then the column groups (U, UR, V, ...) at the scale of the
    // group's largest value.
    const std::size_t first = cpu.header.size() > 1 && cpu.header[1] == "node" ? 2 : 1;
    for (std::size_t c = 0; c < first; ++c)
      for (std::size_t i = 0; i < cpu.rows.size(); ++i) ASSERT_EQ(a.rows[i][c], cpu.rows[i][c]) << cpu.header[c];
    for (std::size_t c = first; c < cpu.header.size(); c += 3) {
      double scale = 0, diff = 0;
      for (std::size_t i = 0; i < cpu.rows.size(); ++i)
        for (std::size_t k = c; k < c + 3 && k < cpu.header.size(); ++k) {
          scale = std::max(scale, std::fabs(cpu.rows[i][k]));
          diff = std::max(diff, std::fabs(a.rows[i][k] - cpu.rows[i][k]));
        }
      EXPECT_LE(diff, v.tolerance * scale) << cpu.header[c] << ": " << diff << " of " << scale;
    }
    if (v.repeatable) {
      EXPECT_TRUE(read_file(dir + "/a/history/" + file + ".csv") == read_file(dir + "/b/history/" + file + ".csv"))
          << "the history depends on which frames were field frames";
    }
  }
}

std::string case_name(const ::testing::TestParamInfo<GpuHistoryRows::ParamType>& info) {
  std::string s = std::string(std::get<0>(info.param).name) + "_" + std::get<1>(info.param).scheme + "_" +
                  std::get<1>(info.param).precision;
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

const HistoryDeck kHistoryDecks[] = {
    {"cylinder", "", "", {"DOWN", "OVER", "LATE", "LOADTOP", "DOWN_total", "OVER_total"}, true},
    // BL (101, 104, 107, 110) depends on AR (3, 6, 9, 12): H1 names dependent nodes only.
    {"equation_bar", "tests/gpu/decks/equation_bar.inp", "*NSET, NSET=H1\n110, 104, 2\n*NSET, NSET=H2\n2, 112, 101\n",
     {"H1", "H2", "TIP", "H1_total"}, false},
    // 900: the rigid end's reference node; 15 and 20 its slaves (TIP).
    {"rigid_end", "tests/gpu/decks/rigid_end.inp", "*NSET, NSET=H1\n900, 15, 3\n*NSET, NSET=H2\n15, 20, 8\n",
     {"H1", "H2", "TIP", "H2_total"}, false},
};

const HistoryVariant kHistoryVariants[] = {
    {"gather", "double", 1e-9, true},         {"atomic", "double", 1e-9, false},
    {"colored", "double", 1e-9, false},       {"element-local", "double", 1e-9, true},
    // FP32 against FP64: the LATE set's reaction moments differ by 1.07e-3 of their largest
    // value on an H200 (the rest by less), the precision of an FP32 reaction, not an indexing
    // error (which the FP64 rows would show at 1e-9).
    {"gather", "single", 3e-3, true},
};

INSTANTIATE_TEST_SUITE_P(Decks, GpuHistoryRows,
                         ::testing::Combine(::testing::ValuesIn(kHistoryDecks), ::testing::ValuesIn(kHistoryVariants)),
                         case_name);

// contact.csv: each definition's totals go to every history and energy row, which carry no
// nodal contact forces (a compact row once left the totals unstaged: zeros on the GPU).
TEST(GpuHistoryRows, ContactTotalsMatchTheCpu) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const std::string dir = scratch_dir("gpu_history_contact_totals");
  const std::string deck = std::string(HALFSTEP_SOURCE_DIR) + "/tests/parallel/decks/contact_wall.inp";
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/cpu", "--backend cpu", &out), 0) << out;
  ASSERT_EQ(run_halfstep(deck, dir + "/gpu", "--backend cuda --gpu-scheme gather", &out), 0) << out;
  const Csv cpu = read_csv(dir + "/cpu/history/contact.csv");
  const Csv gpu = read_csv(dir + "/gpu/history/contact.csv");
  ASSERT_EQ(gpu.header, cpu.header);
  ASSERT_EQ(gpu.rows.size(), cpu.rows.size());
  ASSERT_GT(cpu.rows.size(), 5u);
  double scale = 0, diff = 0;
  for (std::size_t i = 0; i < cpu.rows.size(); ++i)
    for (std::size_t c = 1; c < cpu.header.size(); ++c) {
      scale = std::max(scale, std::fabs(cpu.rows[i][c]));
      diff = std::max(diff, std::fabs(gpu.rows[i][c] - cpu.rows[i][c]));
    }
  EXPECT_GT(scale, 0.0) << "the wall takes no force";
  EXPECT_LE(diff, 1e-6 * scale) << diff << " of " << scale;
}

}  // namespace
}  // namespace halfstep::test
