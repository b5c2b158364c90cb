// Static steps of the element kinds that run in static steps only (C3D20R, C3D20, C3D10) and
// of the new explicit ones (C3D6, CPS4R, CPE4R, CAX4R), and of the 8-node quadrilaterals, on the GPU engine (element matrices differentiated
// on the device, GPU assembly and solver) against the CPU engine: the uniaxial bar's reaction
// and the planar cantilever's tip. Skipped where no GPU is present.
#include <algorithm>
#include <cmath>
#include <string>

#include "../integration/run_util.hpp"
#include "backends/backend.hpp"

namespace halfstep::test {
namespace {

/// The last history row's value of column `column` in history/<file>.csv.
double last_value(const std::string& outdir, const std::string& file, const std::string& column) {
  const Csv csv = read_csv(outdir + "/history/" + file + ".csv");
  if (csv.rows.empty()) {
    ADD_FAILURE() << "empty " << file << ".csv";
    return NAN;
  }
  return csv.rows.back()[static_cast<std::size_t>(csv.col(column))];
}

struct StaticKindCase {
  const char* name;
  const char* script;  ///< examples/ generator, or "" for a deck file
  const char* args;    ///< the generator's arguments, or the deck's path under the source tree
  const char* file;    ///< history file and column compared
  const char* column;
};

class GpuStaticKinds : public ::testing::TestWithParam<StaticKindCase> {};

TEST_P(GpuStaticKinds, GpuEngineMatchesTheCpuEngine) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const StaticKindCase c = GetParam();
  const std::string dir = scratch_dir(std::string("gpu_static_kind_") + c.name);
  const std::string deck = *c.script ? generate_with(c.script, dir, c.name, c.args)
                                      : std::string(HALFSTEP_SOURCE_DIR "/") + c.args;
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/cpu", "--backend cpu", &out), 0) << out;
  ASSERT_EQ(run_halfstep(deck, dir + "/gpu", "--backend cuda", &out), 0) << out;
  const double a = last_value(dir + "/cpu", c.file, c.column), b = last_value(dir + "/gpu", c.file, c.column);
  // Same Newton iterations on the same tangent: round-off of the solvers (first guess; the
  // GPU CG fallback without cuDSS converges to its own tolerance).
  EXPECT_NEAR(b, a, 1e-7 * std::fabs(a)) << c.name;
}

const StaticKindCase kCases[] = {
    {"c3d20", "generate_solid_deck.py", "bar --element C3D20 --stretch 0.1 --static 4", "X0_total", "RF1"},
    {"c3d20r", "generate_solid_deck.py", "bar --element C3D20R --stretch 0.1 --static 4", "X0_total", "RF1"},
    {"c3d10", "generate_solid_deck.py", "bar --element C3D10 --stretch 0.1 --static 4", "X0_total", "RF1"},
    {"c3d6", "generate_solid_deck.py", "bar --element C3D6 --stretch 0.1 --static 4", "X0_total", "RF1"},
    {"c3d20_cook", "generate_solid_deck.py", "cook --linear --element C3D20 --n 4 --static 1 --static-linear", "TOP", "U2"},
    {"cps4r", "generate_plane_deck.py", "--element CPS4R --nx 40 --ny 4 --static", "TIP", "U2"},
    {"cpe4r", "generate_plane_deck.py", "--element CPE4R --nx 40 --ny 4 --static", "TIP", "U2"},
    {"cax4r", "", "tests/gpu/decks/axi_cylinder_static.inp", "INNER", "U1"},
    {"cps8_nlgeom", "", "tests/gpu/decks/static_cps8_neo.inp", "RIGHT_total", "RF1"},
    {"cpe8r", "", "tests/gpu/decks/static_cpe8r_ortho.inp", "RIGHT_total", "RF1"},
    {"cax8", "", "tests/gpu/decks/static_cax8_svk.inp", "RIGHT_total", "RF1"},
    {"cax8r_nlgeom", "", "tests/gpu/decks/static_cax8r_neo.inp", "RIGHT_total", "RF1"},
    // A cylindrical *TRANSFORM in a static step (the local equations), CENTRIF's consistent load.
    {"c3d20r_sector_transform", "", "tests/gpu/decks/static_c3d20r_sector_transform.inp", "MIDRAY", "U1"},
    // A rigid body whose rotation the NLGEOM step solves for: the engine's weights change with it.
    {"c3d8_turning_body", "", "tests/gpu/decks/static_c3d8_turning_body.inp", "REF", "UR2"},
};

INSTANTIATE_TEST_SUITE_P(Kinds, GpuStaticKinds, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<StaticKindCase>& i) { return std::string(i.param.name); });

// The quadratic solids in explicit steps (the peer runs them; Abaqus/Explicit has none): the
// elastic bar impact of tests/integration/test_solids.cpp on the GPU against the CPU, every
// history row of the held end's reaction (measured by hand on an H200: 2.5e-12 for C3D20R).
class GpuExplicitQuadratic : public ::testing::TestWithParam<const char*> {};

TEST_P(GpuExplicitQuadratic, ImpactMatchesTheCpu) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  const std::string dir = scratch_dir(std::string("gpu_explicit_") + GetParam());
  const std::string deck = generate_with("generate_solid_deck.py", dir, "impact",
                                         std::string("bar --loading impact --element ") + GetParam() +
                                             " --nu 0 --E 1000 --rho 1 --length 10 --nx 25 --ny 1 --nz 1 --v0 0.1");
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/cpu", "--backend cpu", &out), 0) << out;
  ASSERT_EQ(run_halfstep(deck, dir + "/gpu", "--backend cuda", &out), 0) << out;
  const Csv a = read_csv(dir + "/cpu/history/X0_total.csv"), b = read_csv(dir + "/gpu/history/X0_total.csv");
  ASSERT_EQ(a.rows.size(), b.rows.size());
  const auto k = static_cast<std::size_t>(a.col("RF1"));
  double big = 0, diff = 0;
  for (std::size_t i = 0; i < a.rows.size(); ++i) {
    big = std::max(big, std::fabs(a.rows[i][k]));
    diff = std::max(diff, std::fabs(a.rows[i][k] - b.rows[i][k]));
  }
  ASSERT_GT(big, 0.0);
  EXPECT_LT(diff, 1e-9 * big) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Kinds, GpuExplicitQuadratic, ::testing::Values("C3D20R", "C3D20", "C3D10"),
                         [](const ::testing::TestParamInfo<const char*>& i) { return std::string(i.param); });

}  // namespace
}  // namespace halfstep::test
