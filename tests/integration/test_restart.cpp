// Restart files (issue 20): a run resumed from a restart repeats the uninterrupted one bit for
// bit (every output file byte for byte), SIGTERM leaves a restart to continue from, and a
// truncated, corrupt or foreign restart is refused before any result file is touched.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <utility>
#include <vector>
#include <string>
#include <thread>

#include "core/restart_blob.hpp"
#include "run_util.hpp"

namespace halfstep::test {
namespace {

namespace fs = std::filesystem;

/// The resumed run's results equal the uninterrupted run's, also when the results after the
/// restart point were damaged (a row cut in half, a frame deleted): the resumed run cuts them
/// back and writes them again. It resumes in a copy of the uninterrupted run's folder and
/// writes only there: the original folder's files keep their bytes and times.
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
  const auto original = folder_snapshot(dir + "/full");
  {  // damage what follows the restart point: a torn row, the last frame deleted
    std::ofstream energy(dir + "/resumed/energy.csv", std::ios::app);
    energy << "0.123,4";
  }
  const auto frames = pvd_frames(dir + "/resumed/" + name + ".pvd");  // none: a deck without field output
  if (!frames.empty()) {
    ASSERT_GT(frames.back().first, restart_time);
    ASSERT_TRUE(fs::remove(dir + "/resumed/" + frames.back().second)) << frames.back().second;
  }
  const std::string restart = dir + "/resumed/" + name + ".restart";
  ASSERT_EQ(run_halfstep(deck, dir + "/resumed", "--backend cpu --threads 2 --restart " + restart, &out), 0) << out;
  expect_same_results(dir + "/full", dir + "/resumed");
  const std::string resumed = read_file(dir + "/resumed/summary.json");
  EXPECT_EQ(summary_number(resumed, "resumed_at"), restart_time) << resumed;
  EXPECT_EQ(summary_number(resumed, "steps"), summary_number(summary, "steps"));
  EXPECT_TRUE(folder_snapshot(dir + "/full") == original) << "the resume in the copy wrote into the original folder";
}

// Two explicit steps; J2 solid, shell and plane-stress states; Coulomb friction history (a
// contact pair, and against an analytical surface); rigid bodies; FPM beams; masses that
// *VARIABLE MASS SCALING changes during both steps (and, with contact, a tie or a rigid body,
// the penalty springs', handed and body masses with them, made again from the saved masses);
// an analytical rigid surface whose
// reference node's reaction is a history (general contact, ALL EXTERIOR, with it); general
// contact of two bars (self-contact of the one ALL EXTERIOR surface) and of crossed bars
// (edge to edge).
INSTANTIATE_TEST_SUITE_P(Decks, ResumedRun,
                         ::testing::Values(std::pair{"two_steps", 37}, std::pair{"solid_c3d8r_j2", 37},
                                           std::pair{"shell_strip_j2_bending", 997}, std::pair{"plane_cps4_j2", 37},
                                           std::pair{"contact_slide", 37}, std::pair{"rigid_end", 3},
                                           std::pair{"beam_plastic", 37}, std::pair{"variable_mass_scaling", 37},
                                           std::pair{"contact_wall", 97}, std::pair{"contact_hertz", 37},
                                           std::pair{"contact_bars", 97}, std::pair{"contact_crossed", 97},
                                           std::pair{"contact_slide_plane", 37},
                                           std::pair{"variable_mass_scaling_contact", 97},
                                           std::pair{"variable_mass_scaling_tie", 37},
                                           std::pair{"variable_mass_scaling_rigid", 17}),
                         [](const auto& info) { return std::string(info.param.first); });

/// A folder moved elsewhere after the run resumes in its new place: the restart names its
/// files relative to the output folder.
TEST(Restart, AMovedFolderResumesInPlace) {
  const std::string dir = scratch_dir("moved");
  const std::string deck = HALFSTEP_SOURCE_DIR "/tests/gpu/decks/two_steps.inp";
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/first", "--backend cpu --restart-every 37", &out), 0) << out;
  fs::copy(dir + "/first", dir + "/full", fs::copy_options::recursive);  // to compare with
  std::ofstream(dir + "/first/energy.csv", std::ios::app) << "0.5,";     // past the restart point
  fs::rename(dir + "/first", dir + "/moved");  // the run's own folder, gone from where it ran
  ASSERT_EQ(run_halfstep(deck, dir + "/moved", "--backend cpu --restart " + dir + "/moved/two_steps.restart", &out), 0)
      << out;
  expect_same_results(dir + "/full", dir + "/moved");
  EXPECT_FALSE(fs::exists(dir + "/first"));
}

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
  fs::create_directories(dir_ + "/changed");
  const std::string other = dir_ + "/changed/two_steps.inp";  // the same job, its deck changed
  std::ofstream(other) << text;
  expect_refused(bytes_, "it was written for job 'two_steps' with another version of its deck", other);
}

TEST_F(RefusedRestart, OfAnotherJob) {
  const std::string other = dir_ + "/other_job.inp";  // the same content under another job's name
  fs::copy_file(deck_, other);
  expect_refused(bytes_, "it was written by job 'two_steps' (deck 'two_steps.inp'), this is job 'other_job'", other);
}

/// The restart's output section with f applied (its sections re-serialized, checksums and
/// all: an edit made by someone who knows the format).
std::string edited_output(const std::string& bytes, const std::function<void(RestartBlob&)>& f) {
  RestartBlob outer = RestartBlob::parse(bytes, "x");
  RestartBlob inner = RestartBlob::parse(outer.bytes("output"), "y");
  f(inner);
  outer.put_text("output", inner.serialize());
  return outer.serialize();
}

/// The restart with f applied to its own sections (re-serialized with a valid checksum).
std::string edited(const std::string& bytes, const std::function<void(RestartBlob&)>& f) {
  RestartBlob b = RestartBlob::parse(bytes, "x");
  f(b);
  return b.serialize();
}

// The backend's sections and the step's increment are read at the resumed step, after the
// set-up: they were refused only once the results had been cut back (fuzz finding,
// docs/fuzzing.md). The folder must stay as it was, the rows after the restart point too.
TEST_F(RefusedRestart, WithABackendSectionOfTheWrongSize) {
  const auto before = folder_snapshot(dir_ + "/out");
  expect_refused(edited(bytes_, [](RestartBlob& b) { b.put_value("backend.monitor", 1.0); }),
                 "section 'backend.monitor' has the wrong size");
  EXPECT_TRUE(folder_snapshot(dir_ + "/out") == before) << "the results were touched";
}

TEST_F(RefusedRestart, WithAnotherTimeIncrement) {
  const auto before = folder_snapshot(dir_ + "/out");
  expect_refused(edited(bytes_,
                        [](RestartBlob& b) { b.put_value("loop.dt", 1.5 * b.get_value<double>("loop.dt")); }),
                 "its time increment or step start differs");
  EXPECT_TRUE(folder_snapshot(dir_ + "/out") == before) << "the results were touched";
}

// A state value that is not a number (fuzz_restart: a damaged shell triad resumed, and the
// completed run wrote NaN rotations) is refused: a run stops before its state goes non-finite.
TEST_F(RefusedRestart, WithANonFiniteStateValue) {
  const auto before = folder_snapshot(dir_ + "/out");
  expect_refused(edited(bytes_,
                        [](RestartBlob& b) {
                          std::vector<double> t;
                          b.get_vector("backend.t1y", t);
                          ASSERT_GT(t.size(), 3u);
                          t[3] = std::numeric_limits<double>::quiet_NaN();
                          b.put_vector("backend.t1y", t);
                        }),
                 "section 'backend.t1y' holds a value that is not a finite number (value 3)");
  EXPECT_TRUE(folder_snapshot(dir_ + "/out") == before) << "the results were touched";
}

TEST_F(RefusedRestart, WhoseHistoryFileLeavesTheFolder) {
  // Before, the restart held the history files' paths: this one would have cut a file beside
  // the output folder down to the history's size.
  const std::string outside = dir_ + "/outside.csv";
  std::ofstream(outside) << std::string(100000, 'x');
  const std::string b = edited_output(bytes_, [](RestartBlob& o) { o.put_text("history0.file", "../../outside"); });
  expect_refused(b, "history file name '../../outside' is not a plain file name inside OUTDIR/history");
  EXPECT_EQ(fs::file_size(outside), 100000u);
  const std::string c = edited_output(bytes_, [&](RestartBlob& o) { o.put_text("history0.file", outside); });
  expect_refused(c, "is not a plain file name");
  EXPECT_EQ(fs::file_size(outside), 100000u);
}

TEST_F(RefusedRestart, InAFolderOfOtherResults) {
  // The restart of out, resumed in a folder whose energy.csv differs before the restart point.
  const std::string other = dir_ + "/other";
  fs::copy(dir_ + "/out", other, fs::copy_options::recursive);
  std::string energy = read_file(other + "/energy.csv");
  energy[energy.find('\n') + 1] = '7';  // the first row's time
  std::ofstream(other + "/energy.csv", std::ios::binary) << energy;
  const auto before = folder_snapshot(other);
  std::string out;
  EXPECT_EQ(run_halfstep(deck_, other, "--backend cpu --restart " + restart_, &out), 2) << out;
  EXPECT_NE(out.find(other + "/energy.csv: error: its first"), std::string::npos) << out;
  EXPECT_NE(out.find("this folder holds another run's results"), std::string::npos) << out;
  EXPECT_TRUE(folder_snapshot(other) == before) << "the folder was touched";
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
  EXPECT_NE(out.find("it was written for job 'wrap' with another version of its deck: '" + wrap +
                     "' (or a file it includes) has changed since"),
            std::string::npos)
      << out;
}

TEST_F(RefusedRestart, MissingFile) {
  std::string out;
  EXPECT_EQ(run_halfstep(deck_, dir_ + "/out", "--restart " + dir_ + "/none.restart", &out), 2) << out;
  EXPECT_NE(out.find("none.restart: error: cannot read the restart file"), std::string::npos) << out;
}

/// The frame tests: a deck with field output (a bar against a rigid wall), run with restarts.
class RefusedFrames : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratch_dir("frames");
    deck_ = HALFSTEP_SOURCE_DIR "/tests/gpu/decks/contact_wall.inp";
    std::string out;
    ASSERT_EQ(run_halfstep(deck_, dir_ + "/out", "--backend cpu --restart-every 97", &out), 0) << out;
    restart_ = dir_ + "/out/contact_wall.restart";
    frames_ = pvd_frames(dir_ + "/out/contact_wall.pvd");
    ASSERT_GE(frames_.size(), 2u);
    ASSERT_EQ(frames_.front().first, 0.0);
    before_ = folder_snapshot(dir_ + "/out");
  }
  std::string dir_, deck_, restart_;
  std::vector<std::pair<double, std::string>> frames_;
  std::map<std::string, std::pair<std::string, fs::file_time_type>> before_;
};

TEST_F(RefusedFrames, WhoseFrameListNamesAnotherFile) {
  RestartBlob outer = RestartBlob::parse(read_file(restart_), "x");
  RestartBlob inner = RestartBlob::parse(outer.bytes("output"), "y");
  std::string pvd = inner.bytes("pvd");
  const std::size_t at = pvd.find("contact_wall_000000.vtu");
  ASSERT_NE(at, std::string::npos) << pvd;
  pvd.replace(at, 23, "../../../etc/passwd");
  inner.put_text("pvd", pvd);
  outer.put_text("output", inner.serialize());
  const std::string file = dir_ + "/edited.restart";
  std::ofstream(file, std::ios::binary) << outer.serialize();
  std::string out;
  EXPECT_EQ(run_halfstep(deck_, dir_ + "/out", "--backend cpu --restart " + file, &out), 2) << out;
  EXPECT_NE(out.find("edited.restart: error: it lists a frame '../../../etc/passwd' that this run's writer never names"),
            std::string::npos)
      << out;
  EXPECT_TRUE(folder_snapshot(dir_ + "/out") == before_) << "the results were touched";
}

TEST_F(RefusedFrames, WithAFrameBeforeTheRestartPointMissing) {
  // A frame after the restart point is written again (ResumedRun); one before it cannot be.
  ASSERT_TRUE(fs::remove(dir_ + "/out/" + frames_.front().second));
  before_.erase(frames_.front().second);
  std::string out;
  EXPECT_EQ(run_halfstep(deck_, dir_ + "/out", "--backend cpu --restart " + restart_, &out), 2) << out;
  EXPECT_NE(out.find(frames_.front().second + ": error: this frame, written before the restart point, is missing"),
            std::string::npos)
      << out;
  EXPECT_TRUE(folder_snapshot(dir_ + "/out") == before_) << "the results were touched";
}

}  // namespace
}  // namespace halfstep::test
