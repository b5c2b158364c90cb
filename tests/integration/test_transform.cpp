// *TRANSFORM (issue 16 item 2): local systems for *BOUNDARY dofs and *CLOAD components in
// explicit steps. The decks are tests/gpu/decks/transform_*.inp (make_transform_decks.py):
//  * a cube on rollers on a 30-degree slope: its base nodes are held in the local normal
//    direction of a TYPE=R system and it slides under a gravity-like load (g = 1). No force
//    acts along the slope but gravity's, so the mass centre moves by -g sin(30) t^2 / 2 along
//    it (central differences integrate a constant acceleration exactly), and the base nodes
//    never leave the slope;
//  * a ring expanded radially through TYPE=C: every node ends on its circle r0 + delta with
//    no tangential or axial displacement;
//  * a clamped bar loaded at its tip in a skew TYPE=R system (and clamped through TYPE=S)
//    moves as the same bar loaded by the rotated force in global components.
// Output stays in global components (the difference from Abaqus is in docs/input.md).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

const std::string kDecks = HALFSTEP_SOURCE_DIR "/tests/gpu/decks/";

/// Runs a deck of tests/gpu/decks; returns the history of set.
Csv run_deck(const std::string& deck, const std::string& set, const std::string& extra = "--threads 1") {
  const std::string dir = scratch_dir("transform_" + deck);
  std::string out;
  EXPECT_EQ(run_halfstep(kDecks + deck + ".inp", dir + "/out", extra, &out), 0) << out;
  return read_csv(dir + "/out/history/" + set + ".csv");
}

TEST(Transform, CubeOnRollersSlidesDownTheSlope) {
  const double c = std::cos(M_PI / 6), s = std::sin(M_PI / 6);
  const Csv h = run_deck("transform_incline", "ALLN");
  ASSERT_GT(h.rows.size(), 8u);
  // Per output time: mean slope displacement (equal nodal masses) and the base's normal one.
  std::map<double, double> slope;
  std::map<double, int> count;
  double normal = 0, scale = 0;
  for (const auto& r : h.rows) {
    const double t = r[0], u1 = r[h.col("U1")], u2 = r[h.col("U2")];
    const int n = static_cast<int>(r[h.col("node")]);
    slope[t] += c * u1 + s * u2;
    ++count[t];
    scale = std::max(scale, std::hypot(u1, u2));
    if (n == 1 || n == 2 || n == 5 || n == 6) normal = std::max(normal, std::abs(-s * u1 + c * u2));
  }
  double worst = 0;
  for (const auto& [t, sum] : slope) {
    const double exact = -0.5 * s * t * t;
    worst = std::max(worst, std::abs(sum / count[t] - exact));
  }
  const double t_end = slope.rbegin()->first;
  EXPECT_NEAR(t_end, 1.0, 1e-12);
  std::printf("incline: mean slope displacement error %.3g of %.3g, base normal displacement %.3g\n", worst,
              0.5 * s, normal);
  EXPECT_LT(worst, 1e-13);       // measured 2.4e-15
  EXPECT_LT(normal, 1e-14 * scale);  // measured 8.3e-17 on 0.125
  EXPECT_GT(scale, 0.2);         // it did slide
}

TEST(Transform, RingExpandedRadiallyStaysOnItsCircles) {
  const double delta = 0.01;
  const Csv h = run_deck("transform_ring", "ALLN");
  ASSERT_GT(h.rows.size(), 8u);
  const double t_end = h.rows.back()[0];
  EXPECT_NEAR(t_end, 0.5, 1e-12);
  double radial = 0, tangential = 0, axial = 0;
  int nodes = 0;
  for (const auto& r : h.rows) {
    if (r[0] != t_end) continue;
    ++nodes;
    const int n = static_cast<int>(r[h.col("node")]);
    // Node 1 + 4 a + i + 2 k: angle 2 pi a / 24, radius 1 + 0.25 i (make_transform_decks.py).
    const int a = (n - 1) / 4, i = (n - 1) % 2;
    const double th = 2 * M_PI * a / 24, r0 = 1 + 0.25 * i;
    const double x = r0 * std::cos(th) + r[h.col("U1")], y = r0 * std::sin(th) + r[h.col("U2")];
    radial = std::max(radial, std::abs(std::hypot(x, y) - (r0 + delta)));
    tangential = std::max(tangential, std::abs(-std::sin(th) * r[h.col("U1")] + std::cos(th) * r[h.col("U2")]));
    axial = std::max(axial, std::abs(r[h.col("U3")]));
  }
  EXPECT_EQ(nodes, 96);
  std::printf("ring: radius error %.3g, tangential %.3g, axial %.3g (delta %g)\n", radial, tangential, axial, delta);
  EXPECT_LT(radial, 1e-14);      // measured 2.2e-16
  EXPECT_LT(tangential, 1e-14);  // measured 9.8e-16
  EXPECT_EQ(axial, 0.0);
}

TEST(Transform, LocalTipLoadEqualsRotatedGlobalLoad) {
  const Csv a = run_deck("transform_load_local", "TIP"), b = run_deck("transform_load_global", "TIP");
  ASSERT_EQ(a.rows.size(), b.rows.size());
  ASSERT_GT(a.rows.size(), 10u);
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < a.rows.size(); ++i)
    for (const char* c : {"U1", "U2", "U3"}) {
      diff = std::max(diff, std::abs(a.rows[i][a.col(c)] - b.rows[i][b.col(c)]));
      scale = std::max(scale, std::abs(b.rows[i][b.col(c)]));
    }
  std::printf("local vs global tip load: max |du| %.3g of %.3g\n", diff, scale);
  EXPECT_GT(scale, 1e-4);
  EXPECT_LT(diff, 1e-13 * scale);  // measured 6.3e-16 on 0.107
}

TEST(Transform, BeamTipHeldAndLoadedInPermutedAxesMatchesGlobal) {
  // Local axes 1, 2, 3 = global y, z, x: the tip's held local U2 and UR2 are global U3 and
  // UR3, and its local force and moment components are global ones permuted. Q holds only 0
  // and 1, so the two runs do the same arithmetic.
  const Csv a = run_deck("transform_beam_local", "TIP"), b = run_deck("transform_beam_global", "TIP");
  ASSERT_EQ(a.rows.size(), b.rows.size());
  ASSERT_GT(a.rows.size(), 10u);
  double diff = 0, scale_u = 0, scale_r = 0;
  for (std::size_t i = 0; i < a.rows.size(); ++i)
    for (const char* c : {"U1", "U2", "U3", "UR1", "UR2", "UR3"}) {
      diff = std::max(diff, std::abs(a.rows[i][a.col(c)] - b.rows[i][b.col(c)]));
      (c[1] == 'R' ? scale_r : scale_u) = std::max(c[1] == 'R' ? scale_r : scale_u, std::abs(b.rows[i][b.col(c)]));
    }
  std::printf("beam, permuted local axes vs global: max difference %.3g (|U| %.3g, |UR| %.3g)\n", diff, scale_u, scale_r);
  EXPECT_GT(scale_u, 1e-5);
  EXPECT_GT(scale_r, 1e-5);
  EXPECT_EQ(diff, 0.0);
}

/// The incline deck with text replaced (first occurrence of from by to).
std::string edited_incline(const std::string& from, const std::string& to) {
  std::string d = read_file(kDecks + "transform_incline.inp");
  const std::size_t at = d.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) d.replace(at, from.size(), to);
  return d;
}

/// Runs deck text; expects exit status 2 and message at deck line.
void expect_refused(const std::string& name, const std::string& deck, int line, const std::string& message) {
  const std::string dir = scratch_dir("transform_bad_" + name);
  std::ofstream(dir + "/" + name + ".inp") << deck;
  std::string out;
  EXPECT_EQ(run_halfstep(dir + "/" + name + ".inp", dir + "/out", "--threads 1", &out), 2) << out;
  EXPECT_NE(out.find(name + ".inp:" + std::to_string(line) + ":"), std::string::npos) << out;
  EXPECT_NE(out.find(message), std::string::npos) << out;
}

TEST(Transform, StaticStepsAreRefused) {
  expect_refused("static", edited_incline("*DYNAMIC, EXPLICIT\n, 1.", "*STATIC\n0.1, 1."), 30,
                 "local systems are supported in explicit dynamic steps only");
}

TEST(Transform, DependentNodeIsRefused) {
  // Node 5 (in BASE) made dependent by an *EQUATION on node 6.
  expect_refused("dependent", edited_incline("*BOUNDARY\nBASE", "*EQUATION\n2\n5, 3, 1., 6, 3, -1.\n*BOUNDARY\nBASE"),
                 26, "*TRANSFORM on node 5, which a constraint moves");
}

TEST(Transform, NodeOnTheCylinderAxisIsRefused) {
  expect_refused("on_axis",
                 edited_incline("*TRANSFORM, NSET=BASE, TYPE=R\n0.8660254037844387, 0.49999999999999994, 0., "
                                "-0.49999999999999994, 0.8660254037844387, 0.",
                                "*TRANSFORM, NSET=BASE, TYPE=C\n0., 0., 0., 0., 0., 1."),
                 26, "node 1, which lies on the cylinder axis");
}

TEST(Transform, LaterTransformWinsWithAWarning) {
  // A second *TRANSFORM on BASE with the same axes (b given differently): the run is the same
  // and says which one applies.
  const std::string deck = edited_incline(
      "*BOUNDARY\nBASE", "*TRANSFORM, NSET=BASE, TYPE=R\n0.8660254037844387, 0.49999999999999994, 0., 0., 1., 0.\n*BOUNDARY\nBASE");
  const std::string dir = scratch_dir("transform_twice");
  std::ofstream(dir + "/twice.inp") << deck;
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/twice.inp", dir + "/out", "--threads 1", &out), 0) << out;
  EXPECT_NE(out.find("replaces an earlier *TRANSFORM on 4 node(s)"), std::string::npos) << out;
}

}  // namespace
}  // namespace halfstep::test
