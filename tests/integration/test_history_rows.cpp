// History rows carry only their nodes (issue 21; OutputFrame::nodes): a frame that writes no
// field and prints nothing stages the nodes of the history sets only, and the history writer
// finds each set's nodes in those rows. Checked against what does not go through that path:
// the field frames (.vtu) of a second run of the same deck with its field output at other
// increments. Where one run writes a history-only row and the other a field frame, the
// history values at the set's nodes must equal the field's bit for bit, and the two runs'
// history files must be the same bytes. The sets are given out of ascending order and
// overlap, and a second step opens a set of its own while the first step's sets go on.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

TEST(HistoryRows, HistoryOnlyRowsEqualTheFieldFramesOfAnotherRun) {
  const std::string dir = scratch_dir("history_rows");
  const std::string a = two_step_history_deck(dir, "a", 5, 2), b = two_step_history_deck(dir, "b", 4, 5);
  std::string out;
  ASSERT_EQ(run_halfstep(a, dir + "/a", "--backend cpu", &out), 0) << out;
  ASSERT_EQ(run_halfstep(b, dir + "/b", "--backend cpu", &out), 0) << out;

  // The same history, whichever frames carried it.
  for (const char* file : {"DOWN", "OVER", "LATE", "LOADTOP", "LOADBOT", "DOWN_total", "OVER_total", "LATE_total"}) {
    const std::string h = read_file(dir + "/a/history/" + std::string(file) + ".csv");
    EXPECT_FALSE(h.empty()) << file;
    EXPECT_TRUE(h == read_file(dir + "/b/history/" + std::string(file) + ".csv")) << file << ".csv differs";
  }
  EXPECT_TRUE(read_file(dir + "/a/energy.csv") == read_file(dir + "/b/energy.csv"));

  // Run a's history rows at run b's field frames that are not run a's.
  std::set<double> a_fields;
  for (const auto& f : pvd_frames(dir + "/a/a.pvd")) a_fields.insert(f.first);
  const std::map<std::string, std::vector<int>> sets = {
      {"DOWN", {60, 14, 37, 2}}, {"OVER", {37, 50, 14, 71}}, {"LATE", {80, 5}}};
  int compared = 0, moving = 0;
  for (const auto& [time, file] : pvd_frames(dir + "/b/b.pvd")) {
    if (a_fields.count(time)) continue;
    const std::string vtu = dir + "/b/" + file;
    const std::vector<double> ids = read_vtu_array(vtu, "NodeId");
    ASSERT_FALSE(ids.empty()) << vtu;
    std::map<int, std::size_t> point;
    for (std::size_t p = 0; p < ids.size(); ++p) point[static_cast<int>(ids[p])] = p;
    for (const auto& [set, members] : sets) {
      const Csv h = read_csv(dir + "/a/history/" + set + ".csv");
      std::vector<int> order;  // the set's rows at this time, in the file's order
      for (const auto& row : h.rows) {
        if (row[0] != time) continue;
        const int id = static_cast<int>(row[1]);
        order.push_back(id);
        ASSERT_TRUE(point.count(id)) << "node " << id;
        for (const char* var : {"U", "V", "RF"}) {
          const std::vector<double> values = read_vtu_array(vtu, var);
          ASSERT_EQ(values.size(), 3 * ids.size()) << var;
          for (int c = 0; c < 3; ++c) {
            const double field = values[3 * point[id] + static_cast<std::size_t>(c)];
            EXPECT_EQ(row[h.col(var + std::to_string(c + 1))], field)
                << set << " node " << id << " " << var << c + 1 << " at t = " << time;
            moving += field != 0 ? 1 : 0;
          }
        }
        ++compared;
      }
      if (set != "LATE" || time > 0.02) {  // LATE is written from the second step on
        EXPECT_EQ(order, members) << set << " at t = " << time;
      }
    }
  }
  EXPECT_GE(compared, 30);
  EXPECT_GT(moving, compared);  // the nodes move: equal zeros would prove nothing
}

}  // namespace
}  // namespace halfstep::test
