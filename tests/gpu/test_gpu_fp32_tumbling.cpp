// FP32 on large rigid motions (issue 21): a free MITC4 plate tumbling through three
// revolutions must keep its energy within 0.1 % in every GPU scheme that keeps the state's
// rounding remainders (NodeStateView::rem) and hands the shells displacements relative to a
// corner (strain_displacement). Before, its 157,000 FP32 increments gained 1.7 % (an H200
// run; docs/performance.md, "FP32 on a tumbling plate"). A C3D8R block does the same with
// continuum_element's relative displacements. Skipped where no GPU is present.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "../integration/run_util.hpp"
#include "backends/backend.hpp"

namespace halfstep::test {
namespace {

struct TumbleCase {
  const char* name;
  const char* deck_args;  ///< examples/generate_mixed_deck.py arguments
  const char* run_args;   ///< halfstep run options besides --backend cuda --precision single
};

/// The run's energy.csv: the total within 1e-3 of the initial kinetic energy k0 throughout,
/// and the internal energy too (the rigid motion strains nothing but the centrifugal
/// stretch: FP64 4e-6 of k0).
void expect_energy_kept(const std::string& energy_csv, const std::string& what) {
  const Csv e = read_csv(energy_csv);
  ASSERT_GT(e.rows.size(), 10u) << what;
  const double k0 = e.rows.front()[e.col("kinetic")];
  ASSERT_GT(k0, 0.0) << what;
  double worst_total = 0, worst_internal = 0;
  for (const auto& r : e.rows) {
    worst_total = std::max(worst_total, std::fabs(r[e.col("total")] - k0));
    worst_internal = std::max(worst_internal, std::fabs(r[e.col("internal")]));
  }
  EXPECT_LT(worst_total, 1e-3 * k0) << what;
  EXPECT_LT(worst_internal, 1e-3 * k0) << what;
}

class GpuFp32Tumbling : public ::testing::TestWithParam<TumbleCase> {};

TEST_P(GpuFp32Tumbling, KeepsItsEnergyWithinATenthOfAPercent) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const TumbleCase c = GetParam();
  const std::string dir = scratch_dir(std::string("gpu_fp32_tumble_") + c.name);
  const std::string deck = generate_with("generate_mixed_deck.py", dir, "plate", c.deck_args);
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", std::string("--backend cuda --precision single ") + c.run_args, &out), 0)
      << out;
  expect_energy_kept(dir + "/out/energy.csv", c.name);
}

// A 1 m steel plate, 10 mm thick, 20 x 20 MITC4, spun at 20 rad/s about the skew axis
// (1, 2, 3) through its centre (no principal axis: it tumbles), three revolutions.
#define STEEL_PLATE "--nx 20 --ny 20 --length 1 --width 1 --thickness 0.01 --E 2e11 --nu 0.3 --rho 7800 --spin 20 --time 0.94 --history-interval 0.01"

const TumbleCase kCases[] = {
    {"gather_split", STEEL_PLATE, "--gpu-scheme gather --shell-kernel split"},
    {"gather_thread", STEEL_PLATE, "--gpu-scheme gather --shell-kernel thread"},
    {"atomic", STEEL_PLATE, "--gpu-scheme atomic"},
    {"colored", STEEL_PLATE, "--gpu-scheme colored"},
};

INSTANTIATE_TEST_SUITE_P(Cases, GpuFp32Tumbling, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

/// A free steel block of 10 x 10 x 2 C3D8R (1 m x 1 m x 0.1 m) spun at 20 rad/s about the
/// skew axis (1, 2, 3) through its centre, three revolutions, energy every 0.01 s.
std::string tumbling_block() {
  std::ostringstream d;
  d.precision(17);
  const int nx = 10, ny = 10, nz = 2;
  const auto node = [&](int i, int j, int k) { return 1 + i + (nx + 1) * (j + (ny + 1) * k); };
  d << "*NODE, NSET=ALL\n";
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) d << node(i, j, k) << ", " << 0.1 * i << ", " << 0.1 * j << ", " << 0.05 * k << "\n";
  d << "*ELEMENT, TYPE=C3D8R, ELSET=BLOCK\n";
  int e = 0;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        d << ++e << ", " << node(i, j, k) << ", " << node(i + 1, j, k) << ", " << node(i + 1, j + 1, k) << ", "
          << node(i, j + 1, k) << ", " << node(i, j, k + 1) << ", " << node(i + 1, j, k + 1) << ", "
          << node(i + 1, j + 1, k + 1) << ", " << node(i, j + 1, k + 1) << "\n";
  d << "*MATERIAL, NAME=STEEL\n*ELASTIC\n2e11, 0.3\n*DENSITY\n7800\n*SOLID SECTION, ELSET=BLOCK, MATERIAL=STEEL\n";
  d << "*INITIAL CONDITIONS, TYPE=ROTATING VELOCITY\nALL, 20.0, 0.5, 0.5, 0.05, 1.5, 2.5, 3.05\n";
  d << "*STEP\n*DYNAMIC, EXPLICIT\n, 0.94\n*OUTPUT, HISTORY, TIME INTERVAL=0.01\n*NODE OUTPUT, NSET=ALL\nU\n*END STEP\n";
  return d.str();
}

class GpuFp32TumblingBlock : public ::testing::TestWithParam<const char*> {};

TEST_P(GpuFp32TumblingBlock, KeepsItsEnergyWithinATenthOfAPercent) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const std::string scheme = GetParam();
  const std::string dir = scratch_dir("gpu_fp32_tumble_block_" + scheme);
  const std::string deck = dir + "/block.inp";
  std::ofstream(deck) << tumbling_block();
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--backend cuda --precision single --gpu-scheme " + scheme, &out), 0)
      << out;
  expect_energy_kept(dir + "/out/energy.csv", scheme);
}

INSTANTIATE_TEST_SUITE_P(Schemes, GpuFp32TumblingBlock, ::testing::Values("gather", "atomic", "colored"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace halfstep
