// `halfstep run -o DIR` into a folder that holds results already (issue 42): another job's are
// refused (exit 1, nothing written) unless --overwrite, which deletes halfstep's files only; the
// same job's are replaced, stale frames and histories included; summary.json lists the run's files.
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

namespace fs = std::filesystem;

/// Every file under dir (relative path -> content).
std::map<std::string, std::string> snapshot(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) files[fs::relative(e.path(), dir).string()] = read_file(e.path().string());
  return files;
}

/// The strings of summary.json's "files" array.
std::set<std::string> listed_files(const std::string& summary) {
  std::set<std::string> files;
  const std::size_t at = summary.find("\"files\": [");
  if (at == std::string::npos) return files;
  const std::size_t end = summary.find(']', at);
  for (std::size_t q = summary.find('"', at + 10); q < end; q = summary.find('"', q + 1)) {
    const std::size_t close = summary.find('"', q + 1);
    files.insert(summary.substr(q + 1, close - q - 1));
    q = close;
  }
  return files;
}

/// A small bar deck under dir named name.inp, with frames field_interval (a *OUTPUT, FIELD NUMBER INTERVAL).
std::string bar(const std::string& dir, const std::string& name, const std::string& frames) {
  return generate_solid_deck(dir, name, "bar --time 0.2 --field-interval " + frames);
}

TEST(OutputFolder, AnotherJobsResultsAreRefusedAndLeftAsTheyWere) {
  const std::string dir = scratch_dir("other_job");
  const std::string a = bar(dir, "a", "4"), b = bar(dir, "b", "4");
  std::string out;
  ASSERT_EQ(run_halfstep(a, dir + "/out", "--threads 1", &out), 0) << out;
  const auto before = snapshot(dir + "/out");
  ASSERT_TRUE(before.count("a.pvd") && before.count("history/XL.csv")) << out;
  EXPECT_EQ(run_halfstep(b, dir + "/out", "--threads 1", &out), 1) << out;
  EXPECT_NE(out.find("holds the results of job 'a'"), std::string::npos) << out;
  EXPECT_NE(out.find("--overwrite"), std::string::npos) << out;
  EXPECT_TRUE(snapshot(dir + "/out") == before) << "the refused run wrote or deleted something";
}

TEST(OutputFolder, OverwriteDeletesTheOtherJobsFilesButNoOthers) {
  const std::string dir = scratch_dir("overwrite");
  const std::string a = bar(dir, "a", "4"), b = bar(dir, "b", "2");
  std::string out;
  ASSERT_EQ(run_halfstep(a, dir + "/out", "--threads 1", &out), 0) << out;
  // What `halfstep report` adds (drawing one takes tens of seconds on a busy machine).
  fs::create_directories(dir + "/out/report");
  std::ofstream(dir + "/out/report.html") << "<html></html>\n";
  std::ofstream(dir + "/out/report/u_last.png") << "png\n";
  std::ofstream(dir + "/out/notes.txt") << "mine\n";
  std::ofstream(dir + "/out/history/notes.txt") << "mine too\n";
  ASSERT_EQ(run_halfstep(b, dir + "/out", "--threads 1 --overwrite", &out), 0) << out;
  const auto after = snapshot(dir + "/out");
  for (const auto& [name, text] : after) {
    EXPECT_EQ(name.find("a_"), std::string::npos) << name << " of job a is left";
    EXPECT_NE(name, "a.pvd");
    EXPECT_NE(name, "a.sta");
    EXPECT_NE(name, "report.html") << "job a's report is left";
  }
  EXPECT_FALSE(fs::exists(dir + "/out/report"));
  EXPECT_EQ(after.at("notes.txt"), "mine\n");
  EXPECT_EQ(after.at("history/notes.txt"), "mine too\n");
  EXPECT_TRUE(after.count("b.pvd") && after.count("b_000002.vtu") && !after.count("b_000003.vtu"));
  // Exactly the run's files are listed, each present.
  const std::set<std::string> listed = listed_files(after.at("summary.json"));
  EXPECT_EQ(listed, (std::set<std::string>{"b.pvd", "energy.csv", "history/X0.csv", "history/X0_total.csv",
                                           "history/XL.csv", "history/XL_total.csv", "b.sta", "summary.json"}))
      << after.at("summary.json");
  EXPECT_NE(after.at("summary.json").find("\"job\": \"b\""), std::string::npos);
}

TEST(OutputFolder, ARerunOfTheSameJobLeavesNoStaleFrameOrHistory) {
  const std::string dir = scratch_dir("rerun");
  const std::string deck = bar(dir, "a", "10");  // 11 frames
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--threads 1", &out), 0) << out;
  ASSERT_TRUE(fs::exists(dir + "/out/a_000010.vtu"));
  // The same job, edited: 3 frames and no history of X0.
  std::string edited = read_file(bar(dir, "a", "2"));
  const std::string x0 = "*NODE OUTPUT, NSET=X0\nU, RF\n";
  ASSERT_NE(edited.find(x0), std::string::npos);
  edited.erase(edited.find(x0), x0.size());
  std::ofstream(deck) << edited;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--threads 1", &out), 0) << out;
  EXPECT_TRUE(fs::exists(dir + "/out/a_000002.vtu"));
  EXPECT_FALSE(fs::exists(dir + "/out/a_000003.vtu")) << "a frame of the earlier run is left";
  EXPECT_FALSE(fs::exists(dir + "/out/history/X0.csv")) << "a history of the earlier run is left";
  EXPECT_TRUE(fs::exists(dir + "/out/history/XL.csv"));
}

TEST(OutputFolder, EmptyMissingAndForeignOnlyFoldersAreUsed) {
  const std::string dir = scratch_dir("fresh_folders");
  const std::string deck = bar(dir, "a", "2");
  std::string out;
  fs::create_directories(dir + "/empty");
  EXPECT_EQ(run_halfstep(deck, dir + "/empty", "--threads 1", &out), 0) << out;
  EXPECT_EQ(run_halfstep(deck, dir + "/missing/deeper", "--threads 1", &out), 0) << out;
  // The deck's own folder: the deck (and its neighbours) are not results of any job.
  EXPECT_EQ(run_halfstep(deck, dir, "--threads 1", &out), 0) << out;
  EXPECT_TRUE(fs::exists(deck));
}

TEST(OutputFolder, OverwriteAndRestartExcludeEachOther) {
  std::string out;
  EXPECT_EQ(run_command(std::string(HALFSTEP_BINARY) + " run x.inp -o /tmp/x --overwrite --restart x.restart", &out), 1)
      << out;
  EXPECT_NE(out.find("--overwrite and --restart exclude each other"), std::string::npos) << out;
}

}  // namespace
}  // namespace halfstep::test
