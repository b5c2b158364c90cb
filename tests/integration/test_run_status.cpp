// How a run ends is in its summary.json (issue 20): "completed"; "interrupted by SIGINT ..."
// after SIGINT, with exit code 5 and every file complete; "failed: reason" with exit code 3.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

TEST(RunStatus, SigintEndsTheRunWithCompleteFilesAndSaysSo) {
  const std::string dir = scratch_dir("run_status_sigint");
  const std::string deck = generate_solid_deck(dir, "bar", "bar --time 1e5 --field-interval 1000");
  const std::string out = dir + "/out";
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::execl(HALFSTEP_BINARY, HALFSTEP_BINARY, "run", deck.c_str(), "-o", out.c_str(), "--quiet", "--threads", "1",
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // Wait until the run is well under way (energy rows written), then ask it to stop.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline && read_file(out + "/energy.csv").size() < 300)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by a signal instead of stopping";
  EXPECT_EQ(WEXITSTATUS(status), 5);
  const std::string summary = read_file(out + "/summary.json");
  EXPECT_NE(summary.find("\"status\": \"interrupted by SIGINT at time"), std::string::npos) << summary;
  const std::string energy = read_file(out + "/energy.csv");
  ASSERT_FALSE(energy.empty());
  EXPECT_EQ(energy.back(), '\n');
  const Csv e = read_csv(out + "/energy.csv");
  EXPECT_LT(e.rows.back()[0], 1e5);  // stopped early
  EXPECT_NE(read_file(out + "/bar.pvd").find("</VTKFile>"), std::string::npos);
  // The status file's last record says so too.
  const std::string sta = read_file(out + "/bar.sta");
  ASSERT_GE(sta.size(), 128u);
  EXPECT_EQ(sta.compare(sta.size() - 128, 28, "interrupted by SIGINT at tim"), 0) << sta.substr(sta.size() - 128);
}

TEST(RunStatus, AFailedRunSaysWhyInItsSummary) {
  const std::string dir = scratch_dir("run_status_failed");
  std::string out;
  const int rc = run_halfstep(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/solid_unstable.inp", dir + "/out", "", &out);
  EXPECT_EQ(rc, 3) << out;
  const std::string summary = read_file(dir + "/out/summary.json");
  EXPECT_NE(summary.find("\"status\": \"failed: "), std::string::npos) << summary;
}

TEST(RunStatus, ACompletedRunSaysSo) {
  const std::string dir = scratch_dir("run_status_ok");
  std::string out;
  ASSERT_EQ(run_halfstep(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/two_steps.inp", dir + "/out", "", &out), 0) << out;
  EXPECT_NE(read_file(dir + "/out/summary.json").find("\"status\": \"completed\""), std::string::npos);
}

}  // namespace
}  // namespace halfstep::test
