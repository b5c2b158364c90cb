// The CUDA backend against the CPU backend on the CPU integration-test decks: same deck,
// same increments, history compared column by column. Skipped where no GPU is present.
#include <algorithm>
#include <cmath>
#include <string>

#include "../integration/run_util.hpp"
#include "backends/backend.hpp"

namespace halfstep::test {
namespace {

struct GpuCase {
  const char* name;
  const char* generator_args;
  const char* history_set;
  double tolerance;  ///< max |gpu - cpu| over max |cpu| of the set's displacements
};

class GpuMatchesCpu : public ::testing::TestWithParam<GpuCase> {};

TEST_P(GpuMatchesCpu, DisplacementHistoriesAgree) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const GpuCase& c = GetParam();
  const std::string dir = scratch_dir(std::string("gpu_") + c.name);
  const std::string deck = generate_deck(dir, c.name, c.generator_args);
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/cpu", "--backend cpu", &out), 0) << out;
  ASSERT_EQ(run_halfstep(deck, dir + "/gpu", "--backend cuda", &out), 0) << out;
  const std::string file = std::string("/history/") + c.history_set + ".csv";
  const Csv a = read_csv(dir + "/cpu" + file), b = read_csv(dir + "/gpu" + file);
  ASSERT_EQ(a.rows.size(), b.rows.size());
  ASSERT_GT(a.rows.size(), 2u);
  // Relative to the largest displacement component of the set: a component that stays at
  // round-off (U2 of a plane problem) is compared at that scale, not its own.
  double scale = 0;
  for (const char* name : {"U1", "U2", "U3"})
    for (const auto& row : a.rows) scale = std::max(scale, std::fabs(row[a.col(name)]));
  ASSERT_GT(scale, 0.0);
  for (const char* name : {"U1", "U2", "U3"}) {
    const int k = a.col(name);
    double diff = 0;
    for (std::size_t i = 0; i < a.rows.size(); ++i) diff = std::max(diff, std::fabs(a.rows[i][k] - b.rows[i][k]));
    EXPECT_LE(diff / scale, c.tolerance) << name << ": max difference " << diff << " of " << scale;
    RecordProperty(std::string("rel_diff_") + name, std::to_string(diff / scale));
  }
}

// The seed's three test cases and the Sze cantilevers, shortened where a full relaxation is
// not needed to compare two backends step by step.
INSTANTIATE_TEST_SUITE_P(
    Decks, GpuMatchesCpu,
    ::testing::Values(GpuCase{"sze31", "cantilever-shear --time 10 --ramp 10", "TIP", 1e-9},
                      GpuCase{"sze32", "cantilever-moment --fraction 0.5 --time 10 --ramp 10", "TIP", 1e-9},
                      GpuCase{"circular", "circular-plate --time 2e-4", "CENTER", 1e-9},
                      GpuCase{"clamped", "clamped-plate --time 0.02", "TIP", 1e-9},
                      GpuCase{"pinched", "pinched-cylinder --n 16 --time 0.2", "LOADTOP", 1e-9},
                      GpuCase{"hemisphere", "pinched-hemisphere --n 8 --time 1 --load-factor 1e-3", "A", 1e-9}),
    [](const ::testing::TestParamInfo<GpuCase>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace halfstep::test
