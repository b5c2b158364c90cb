// A batch run shows where it is (issue 42): OUTDIR/<job>.sta gets a line per status point
// (whole 128-byte records) and the outcome as its last line, and a stderr that is not a
// terminal gets a progress line every --progress-interval seconds.
#include <cmath>
#include <string>
#include <vector>

#include "status_util.hpp"

namespace halfstep::test {
namespace {

TEST(StatusFile, ABatchRunLogsProgressAndEndsCompleted) {
  const std::string dir = scratch_dir("status_batch");
  // 290,000 increments of 32 C3D8R: about 3 s on one core of an idle machine.
  const std::string deck = generate_solid_deck(dir, "bar", "bar --time 2e3 --field-interval 1");
  const std::string out = dir + "/out", log = dir + "/stderr.txt";
  // stderr to a file, as under a queue or nohup: no terminal, so periodic lines.
  const int rc = run_command("(" + std::string(HALFSTEP_BINARY) + " run " + deck + " -o " + out +
                             " --threads 1 --backend cpu --progress-interval 0.3 2>" + log + ")");
  ASSERT_EQ(rc, 0) << read_file(log);
  const std::string err = read_file(log);
  EXPECT_EQ(err.find('\r'), std::string::npos) << "a terminal's live line in a log";

  const std::vector<std::string> lines = status_lines(out + "/bar.sta");
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines[0].rfind("# halfstep status of job bar", 0), 0u) << lines[0];
  EXPECT_EQ(lines.back(), "completed");
  const auto rows = data_of(lines);
  ASSERT_FALSE(rows.empty());
  // A line a second (each at least 1 s after the one before) and one at the step's end.
  const double wall = rows.back()[kWall];
  EXPECT_GE(static_cast<double>(rows.size()), std::floor(wall)) << "wall " << wall << " s";
  EXPECT_GE(rows.size(), 3u) << "the run was too fast to test the rate";
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_GE(rows[i][kTotalTime], rows[i - 1][kTotalTime]);
    if (i + 1 < rows.size()) {
      EXPECT_GE(rows[i][kWall] - rows[i - 1][kWall], 0.9) << "more than one line a second";
    }
  }
  // The stderr lines come with the status points (--progress-interval 0.3: each of them).
  int progress = 0;
  for (std::size_t at = err.find("halfstep: step 1 increment "); at != std::string::npos;
       at = err.find("halfstep: step 1 increment ", at + 1)) {
    ++progress;
    EXPECT_NE(err.find("ETA ", at), std::string::npos);
  }
  EXPECT_GE(progress + 2, static_cast<int>(rows.size())) << err;
  EXPECT_GE(progress, 2) << err;
  const auto& last = rows.back();
  EXPECT_EQ(last[kStep], 1);
  EXPECT_NEAR(last[kTotalTime], 2e3, 1e-3 * 2e3);  // the step's end
  EXPECT_EQ(last[kEta], 0);
  EXPECT_TRUE(std::isnan(last[kIterations]));
  // The last line's energies are the last energy row's (4 digits), its increments the summary's.
  const Csv e = read_csv(out + "/energy.csv");
  for (auto [col, name] : {std::pair{kKinetic, "kinetic"}, {kInternal, "internal"}, {kWork, "external_work"}})
    EXPECT_NEAR(last[col], e.rows.back()[e.col(name)], 1e-3 * std::fabs(e.rows.back()[e.col(name)]) + 1e-300) << name;
  EXPECT_EQ(last[kIncrement], summary_number(read_file(out + "/summary.json"), "steps"));
  EXPECT_LT(last[kError], 0.05);
}

TEST(StatusFile, AStaticStepReportsItsIncrementsAndStrainEnergy) {
  const std::string dir = scratch_dir("status_static");
  // Linear uniaxial stretch of a 4 x 1 x 1 bar (E = 1000) by 1e-4: strain energy E eps^2 V / 2.
  const std::string deck =
      generate_solid_deck(dir, "st", "bar --element C3D8 --static 4 --static-linear --stretch 1e-4");
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--threads 1", &out), 0) << out;
  const std::vector<std::string> lines = status_lines(dir + "/out/st.sta");
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines.back(), "completed");
  const auto last = data_of(lines).back();
  EXPECT_EQ(last[kIncrement], 4);
  // The first increment iterates (the step's Newton iterations, summary.json); the later ones
  // start from the last increment extrapolated (*STEP, EXTRAPOLATION=LINEAR, the default),
  // which on a linear path is their answer.
  EXPECT_GE(summary_number(read_file(dir + "/out/summary.json"), "newton_iterations"), 1);
  EXPECT_EQ(last[kIterations], 0);
  EXPECT_NEAR(last[kStepTime], 1.0, 1e-9);
  const double energy = 1000 * 1e-4 * 1e-4 * 4 / 2;
  EXPECT_NEAR(last[kInternal], energy, 2e-3 * energy);
  EXPECT_NEAR(last[kWork], energy, 2e-3 * energy);
  EXPECT_EQ(last[kKinetic], 0);
}

TEST(StatusFile, AnUnstableRunEndsFailed) {
  const std::string dir = scratch_dir("status_unstable");
  // Stable estimate 4.8e-4; 0.01 is 20 times that (as tests/integration/test_instability.cpp).
  const std::string deck = generate_deck(dir, "cs", "cantilever-shear --time 1 --ramp 1 --dt 0.01");
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--backend cpu", &out), 3) << out;
  const std::vector<std::string> lines = status_lines(dir + "/out/cs.sta");
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back().rfind("failed: ", 0), 0u) << lines.back();
  EXPECT_NE(lines.back().find("instability"), std::string::npos) << lines.back();
  for (const std::string& l : lines) EXPECT_EQ(l.find("completed"), std::string::npos) << l;
}

}  // namespace
}  // namespace halfstep::test
