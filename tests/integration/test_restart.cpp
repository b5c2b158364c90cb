// Restart files (issue 20): a run resumed from a restart repeats the uninterrupted one bit for
// bit (every output file byte for byte), SIGTERM leaves a restart to continue from, and a
// truncated, corrupt or foreign restart is refused before any result file is touched.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

namespace fs = std::filesystem;

/// The resumed run's results equal the uninterrupted run's, also when the results after the
/// restart point were damaged (a row cut in half, a frame deleted): the resumed run cuts them
/// back and writes them again.
class ResumedRun : public ::testing::TestWithParam<std::pair<const char*, int>> {};

TEST_P(ResumedRun, RepeatsTheUninterruptedRunBitForBit) {
  const std::string name = GetParam().first;
  const std::string every = std::to_string(GetParam().second);
  const std::string dir = scratch_dir(name);
  const std::string deck = HALFSTEP_SOURCE_DIR "/tests/gpu/decks/" + name + ".inp";
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/full", "--backend cpu --threads 2 --restart-every " + every, &out), 0) << out;
  const std::string summary = read_file(dir + "/full/summary.json");
  const double restart_time = summary_number(summary, "latest_time");
  ASSERT_GT(restart_time, 0) << summary;
  ASSERT_LT(restart_time, summary_number(summary, "final_time"));
  fs::copy(dir + "/full", dir + "/resumed", fs::copy_options::recursive);
  {  // damage what follows the restart point
    std::ofstream energy(dir + "/resumed/energy.csv", std::ios::app);
    energy << "0.123,4";
  }
  const std::string restart = dir + "/resumed/" + name + ".restart";
  ASSERT_EQ(run_halfstep(deck, dir + "/resumed", "--backend cpu --threads 2 --restart " + restart, &out), 0) << out;
  expect_same_results(dir + "/full", dir + "/resumed");
  const std::string resumed = read_file(dir + "/resumed/summary.json");
  EXPECT_EQ(summary_number(resumed, "resumed_at"), restart_time) << resumed;
  EXPECT_EQ(summary_number(resumed, "steps"), summary_number(summary, "steps"));
}

// Two explicit steps; J2 solid, shell and plane-stress states; Coulomb friction history;
// rigid bodies; FPM beams; masses that *VARIABLE MASS SCALING changes during both steps.
INSTANTIATE_TEST_SUITE_P(Decks, ResumedRun,
                         ::testing::Values(std::pair{"two_steps", 37}, std::pair{"solid_c3d8r_j2", 37},
                                           std::pair{"shell_strip_j2_bending", 997}, std::pair{"plane_cps4_j2", 37},
                                           std::pair{"contact_slide", 37}, std::pair{"rigid_end", 3},
                                           std::pair{"beam_plastic", 37}, std::pair{"variable_mass_scaling", 37}),
                         [](const auto& info) { return std::string(info.param.first); });

TEST(Restart, SigtermLeavesARestartThatFinishesTheRun) {
  const std::string dir = scratch_dir("sigterm");
  const std::string deck = generate_solid_deck(dir, "bar", "bar --time 2e3 --field-interval 100");
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/full", "--threads 1 --backend cpu", &out), 0) << out;
  const std::string run = dir + "/run";
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::execl(HALFSTEP_BINARY, HALFSTEP_BINARY, "run", deck.c_str(), "-o", run.c_str(), "--quiet", "--threads", "1",
            "--backend", "cpu", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline && read_file(run + "/energy.csv").size() < 300)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 5);
  const std::string summary = read_file(run + "/summary.json");
  ASSERT_NE(summary.find("interrupted by SIGTERM"), std::string::npos) << summary;
  ASSERT_NE(summary.find("bar.restart"), std::string::npos) << summary;
  ASSERT_EQ(run_halfstep(deck, run, "--threads 1 --backend cpu --restart " + run + "/bar.restart", &out), 0) << out;
  EXPECT_NE(read_file(run + "/summary.json").find("\"status\": \"completed\""), std::string::npos);
  expect_same_results(dir + "/full", run);
}

TEST(Restart, NumberIntervalWritesThatManyRestartPointsPerStep) {
  const std::string dir = scratch_dir("interval");
  std::string text = read_file(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/solid_c3d8r_j2.inp");
  const std::size_t at = text.find("*DYNAMIC");
  ASSERT_NE(at, std::string::npos);
  const std::size_t line_end = text.find('\n', text.find('\n', at) + 1);
  text.insert(line_end + 1, "*RESTART, WRITE, NUMBER INTERVAL=4, OVERLAY\n");
  const std::string deck = dir + "/interval.inp";
  std::ofstream(deck) << text;
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--backend cpu", &out), 0) << out;
  // At a quarter, a half and three quarters of the step (its end needs none).
  EXPECT_EQ(summary_number(read_file(dir + "/out/summary.json"), "written"), 3);
}

/// A restart that cannot be used is refused (exit 2, naming the file) before any result file
/// is cut back or written.
class RefusedRestart : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratch_dir("refused");
    deck_ = dir_ + "/two_steps.inp";
    fs::copy_file(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/two_steps.inp", deck_);
    std::string out;
    ASSERT_EQ(run_halfstep(deck_, dir_ + "/out", "--backend cpu --restart-every 50", &out), 0) << out;
    restart_ = dir_ + "/out/two_steps.restart";
    bytes_ = read_file(restart_);
    ASSERT_GT(bytes_.size(), 1000u);
    energy_ = read_file(dir_ + "/out/energy.csv");
  }
  /// Resumes from `content` written as a restart file; expects exit 2 and message in the output.
  void expect_refused(const std::string& content, const std::string& message, const std::string& deck = "") {
    const std::string file = dir_ + "/bad.restart";
    std::ofstream(file, std::ios::binary) << content;
    std::string out;
    EXPECT_EQ(run_halfstep(deck.empty() ? deck_ : deck, dir_ + "/out", "--backend cpu --restart " + file, &out), 2)
        << out;
    EXPECT_NE(out.find("bad.restart"), std::string::npos) << out;
    EXPECT_NE(out.find(message), std::string::npos) << out;
    EXPECT_EQ(read_file(dir_ + "/out/energy.csv"), energy_) << "the results were touched";
  }
  std::string dir_, deck_, restart_, bytes_, energy_;
};

TEST_F(RefusedRestart, Truncated) { expect_refused(bytes_.substr(0, bytes_.size() / 2), "truncated or corrupt"); }

TEST_F(RefusedRestart, Corrupt) {
  std::string b = bytes_;
  b[b.size() / 3] ^= 0x10;
  expect_refused(b, "its checksum does not match");
}

TEST_F(RefusedRestart, NotARestartFile) { expect_refused(read_file(deck_), "not a halfstep restart file"); }

TEST_F(RefusedRestart, Empty) { expect_refused("", "not a halfstep restart file"); }

TEST_F(RefusedRestart, OfAChangedDeck) {
  std::string text = read_file(deck_);
  text.replace(text.find("*HEADING\n") + 9, 0, "changed ");
  const std::string other = dir_ + "/changed.inp";
  std::ofstream(other) << text;
  expect_refused(bytes_, "written for another deck", other);
}

TEST_F(RefusedRestart, OfADeckWhoseIncludedFileChanged) {
  const std::string body = dir_ + "/body.inp", wrap = dir_ + "/wrap.inp";
  fs::copy_file(deck_, body);
  std::ofstream(wrap) << "*INCLUDE, INPUT=body.inp\n";
  std::string out;
  ASSERT_EQ(run_halfstep(wrap, dir_ + "/wrapped", "--backend cpu --restart-every 50", &out), 0) << out;
  std::ofstream(body, std::ios::app) << "** changed after the restart was written\n";
  EXPECT_EQ(run_halfstep(wrap, dir_ + "/wrapped", "--backend cpu --restart " + dir_ + "/wrapped/wrap.restart", &out), 2)
      << out;
  EXPECT_NE(out.find("written for another deck, or for this deck (or a file it includes)"), std::string::npos) << out;
}

TEST_F(RefusedRestart, MissingFile) {
  std::string out;
  EXPECT_EQ(run_halfstep(deck_, dir_ + "/out", "--restart " + dir_ + "/none.restart", &out), 2) << out;
  EXPECT_NE(out.find("none.restart: error: cannot read the restart file"), std::string::npos) << out;
}

}  // namespace
}  // namespace halfstep::test
