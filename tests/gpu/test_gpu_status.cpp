// The status file of a GPU run (issue 42): its energies come from the samples the writer thread
// completes (no extra wait for the GPU), and the last line says how the run ended. Skipped
// without a GPU.
#include <cmath>
#include <string>

#include "../integration/status_util.hpp"
#include "backends/backend.hpp"

namespace halfstep::test {
namespace {

TEST(GpuStatus, ACompletedRunReportsTheLastEnergySample) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const std::string dir = scratch_dir("gpu_status");
  const std::string deck = generate_solid_deck(dir, "bar", "bar --time 2e3 --field-interval 1");
  const std::string out = dir + "/out", log = dir + "/stderr.txt";
  ASSERT_EQ(run_command("(" + std::string(HALFSTEP_BINARY) + " run " + deck + " -o " + out +
                        " --backend cuda --progress-interval 0.2 2>" + log + ")"),
            0)
      << read_file(log);
  const std::vector<std::string> lines = status_lines(out + "/bar.sta");
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines.back(), "completed");
  const auto rows = data_of(lines);
  ASSERT_FALSE(rows.empty());
  const auto& last = rows.back();
  EXPECT_NEAR(last[kTotalTime], 2e3, 1e-3 * 2e3);
  const Csv e = read_csv(out + "/energy.csv");
  for (auto [col, name] : {std::pair{kKinetic, "kinetic"}, {kInternal, "internal"}, {kWork, "external_work"}})
    EXPECT_NEAR(last[col], e.rows.back()[e.col(name)], 1e-3 * std::fabs(e.rows.back()[e.col(name)]) + 1e-300) << name;
  EXPECT_LT(last[kError], 0.05);
  EXPECT_EQ(last[kIncrement], summary_number(read_file(out + "/summary.json"), "steps"));
}

TEST(GpuStatus, AnUnstableRunEndsFailed) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const std::string dir = scratch_dir("gpu_status_unstable");
  const std::string deck = generate_deck(dir, "cs", "cantilever-shear --time 1 --ramp 1 --dt 0.01");
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--backend cuda", &out), 3) << out;
  const std::vector<std::string> lines = status_lines(dir + "/out/cs.sta");
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back().rfind("failed: ", 0), 0u) << lines.back();
}

}  // namespace
}  // namespace halfstep::test
