// Models that mix MITC4 shells with FPM beams and triangles on shared 6-dof nodes, and solids
// with beams and triangles, through the command line (decks from
// examples/generate_mixed_deck.py or written here): a free mixed plate spinning through large
// rotations keeps its energy and stays unstrained; a MITC4 strip continued by triangles and a
// MITC4 strip with a beam stiffener deflect as Euler-Bernoulli cantilevers; a pressure on
// shells and triangles reaches the support; a free vibration
// of a mixed strip keeps its energy; a beam far from a MITC4 strip leaves the strip's answer
// as the 5-dof run gives it, to rounding; a beam and a triangle sheet hung on a solid block carry their
// loads into its supports.
#include <cmath>
#include <fstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

/// Writes a deck with examples/generate_mixed_deck.py.
std::string mixed_deck(const std::string& dir, const std::string& name, const std::string& args) {
  return generate_with("generate_mixed_deck.py", dir, name, args);
}

double summary_value(const std::string& outdir, const std::string& key) {
  const std::string s = read_file(outdir + "/summary.json");
  const std::string tag = "\"" + key + "\": ";
  const std::size_t at = s.find(tag);
  return at == std::string::npos ? std::nan("") : std::stod(s.substr(at + tag.size()));
}

TEST(MixedModels, FreeMixedPlateSpinsThroughLargeRotationsKeepingItsEnergy) {
  // 16 x 2 plate, MITC4 for x < 5 and FPM triangles beyond, a beam along the centre line;
  // no supports, spun at 1 rad/s about a skew axis for 8 s (8 rad, tumbling: the axis is no
  // principal axis). The strain energy is the centrifugal stretch's, rho w^2 L^2 / E ~ 2e-5 of
  // strain (measured 3.1e-5 of the kinetic energy), and the total energy is kept to 2e-8.
  const std::string dir = scratch_dir("mixed_spin");
  const std::string deck = mixed_deck(dir, "spin", "--tri-from 5 --stiffener 0.1 --spin 1 --time 8");
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--threads 1", &out), 0) << out;
  const Csv e = read_csv(dir + "/out/energy.csv");
  const double k0 = e.rows.front()[e.col("kinetic")];
  ASSERT_GT(k0, 0.0);
  double worst_internal = 0, worst_total = 0;
  for (const auto& r : e.rows) {
    worst_internal = std::max(worst_internal, std::fabs(r[e.col("internal")]));
    worst_total = std::max(worst_total, std::fabs(r[e.col("total")] - k0));
  }
  EXPECT_LT(worst_internal, 1e-4 * k0);
  EXPECT_LT(worst_total, 1e-7 * k0);
}

TEST(MixedModels, MitcStripContinuedByTrianglesDeflectsAsTheCantilever) {
  // Sze 3.1's strip (L = 10, b = 1, h = 0.1, E = 1.2e6, nu = 0: EI = 100), 16 x 2 cells,
  // MITC4 for x < 5, FPM triangles beyond: the seam carries the shear and the bending moment.
  // A tip load of 4e-4 (linear), ramped and damped to rest.
  const std::string dir = scratch_dir("mixed_tri_tip");
  const std::string deck =
      mixed_deck(dir, "tip", "--tri-from 5 --clamp --tip-load 4e-4 --ramp 11 --time 25 --alpha 1.56");
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--threads 1", &out), 0) << out;
  const auto tip = last_time_average(read_csv(dir + "/out/history/TIP.csv"));
  const double p = 4e-4, w = p * 1000 / 300, theta = p * 100 / 200;
  EXPECT_NEAR(tip.at("U3"), w, 1e-3 * w);               // measured -4.7e-4
  EXPECT_NEAR(tip.at("UR2"), -theta, 1e-4 * theta);     // measured -2.0e-5
  EXPECT_LT(summary_value(dir + "/out", "energy_balance_error"), 1e-9);  // measured 3e-11
}

TEST(MixedModels, MitcStripWithABeamStiffenerDeflectsAsTheCompositeCantilever) {
  // The same strip with a square 0.2 x 0.2 B31 stiffener on its centre line (EI = 160 more):
  // tip deflection P L^3 / (3 (EI_shell + EI_beam)), shells and beam sharing every node of
  // the line.
  const std::string dir = scratch_dir("mixed_stiffener");
  const std::string deck =
      mixed_deck(dir, "stiff", "--stiffener 0.2 --clamp --tip-load 4e-4 --ramp 11 --time 25 --alpha 1.56");
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--threads 1", &out), 0) << out;
  const auto tip = last_time_average(read_csv(dir + "/out/history/TIP.csv"));
  const double p = 4e-4, ei = 100 + 1.2e6 * std::pow(0.2, 4) / 12;
  const double w = p * 1000 / (3 * ei), theta = p * 100 / (2 * ei);
  EXPECT_NEAR(tip.at("U3"), w, 1e-3 * w);            // measured -7.0e-4
  EXPECT_NEAR(tip.at("UR2"), -theta, 1e-3 * theta);  // measured +5.8e-4
}

TEST(MixedModels, PressureOnShellsAndTrianglesReachesTheSupport) {
  // A 2 x 1 x 0.1 strip, MITC4 for x < 1 and triangles beyond (one pressure table, shells
  // first), with a 0.1 x 0.1 stiffener (EI = 100 + 10), under a small follower pressure
  // p = 1e-3, damped to rest: the support carries p A (measured to 1.5e-10), and the tip
  // deflects q L^4 / 8 EI, +0.25 % to +0.5 % across the tip (transverse shear of L/h = 20:
  // q L^2 / (2 kGA) = +0.2 %).
  const std::string dir = scratch_dir("mixed_pressure");
  const std::string deck = mixed_deck(dir, "p",
                                      "--length 2 --nx 8 --ny 2 --tri-from 1 --stiffener 0.1 --clamp --pressure 1e-3 "
                                      "--ramp 1 --time 2 --alpha 39");
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--threads 1", &out), 0) << out;
  const Csv rf = read_csv(dir + "/out/history/ROOT.csv");
  const double t_last = rf.rows.back()[0], load = 1e-3 * 2 * 1;
  double rf3 = 0;
  for (const auto& r : rf.rows)
    if (r[0] == t_last) rf3 += r[rf.col("RF3")];
  EXPECT_NEAR(rf3, load, 1e-8 * load);
  const double w = 1e-3 * 16 / (8 * 110.0);
  EXPECT_NEAR(last_time_average(read_csv(dir + "/out/history/TIP.csv")).at("U3"), -1.003 * w, 0.003 * w);
}

TEST(MixedModels, FreeVibrationOfAMixedStripKeepsItsEnergy) {
  // MITC4, triangles and a stiffener, clamped, kicked (w' = V (x/L)^2), undamped: 2 periods.
  // Central differences keep a nearby energy exactly, so the total oscillates without drift:
  // measured 1.3e-4 of the kick's energy (the same strip all MITC4 on 5-dof nodes: 9.5e-4).
  const std::string dir = scratch_dir("mixed_vibration");
  const std::string deck = mixed_deck(dir, "vib", "--tri-from 5 --stiffener 0.2 --clamp --kick 0.05 --time 4");
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--threads 1", &out), 0) << out;
  const Csv e = read_csv(dir + "/out/energy.csv");
  const double k0 = e.rows.front()[e.col("kinetic")];
  double peak_internal = 0, worst_total = 0;
  for (const auto& r : e.rows) {
    peak_internal = std::max(peak_internal, r[e.col("internal")]);
    worst_total = std::max(worst_total, std::fabs(r[e.col("total")] - k0));
  }
  EXPECT_GT(peak_internal, 0.5 * k0);  // it does vibrate: kinetic into strain energy and back
  EXPECT_LT(worst_total, 4e-4 * k0);
}

TEST(MixedModels, BeamFarAwayLeavesTheShellStripAsTheFiveDofRun) {
  // A MITC4 strip bent and twisted into large rotations (tip 4.5 along z, 0.68 rad), alone
  // (5-dof nodes) and with an unconnected clamped beam far away (every node 6 dofs: global
  // rotation rates, moments V x dW/dV). The 5-dof node's rates about its triad, turned with the
  // triad about the rate vector itself, are the 6-dof node's global rates, and the drilling
  // rate stays zero (docs/theory.md, "Mixed models"): the two agree to rounding, not bit for
  // bit (other operations). Measured: 3e-15 of the largest displacement, 4e-14 of the largest
  // rotation.
  const std::string dir = scratch_dir("mixed_far");
  const std::string args = "--clamp --tip-load 1 --tip-twist 0.3 --ramp 2 --time 3";
  const std::string alone = mixed_deck(dir, "alone", args);
  const std::string far = mixed_deck(dir, "far", args + " --far-beam");
  std::string out;
  ASSERT_EQ(run_halfstep(alone, dir + "/alone", "--threads 1", &out), 0) << out;
  ASSERT_EQ(run_halfstep(far, dir + "/far", "--threads 1", &out), 0) << out;
  const Csv a = read_csv(dir + "/alone/history/TIP.csv"), b = read_csv(dir + "/far/history/TIP.csv");
  ASSERT_EQ(a.rows.size(), b.rows.size());
  for (const char* kind : {"U", "UR"}) {
    double peak = 0, diff = 0;
    for (int d = 1; d <= 3; ++d) {
      const std::string name = kind + std::to_string(d);
      for (std::size_t i = 0; i < a.rows.size(); ++i) {
        peak = std::max(peak, std::fabs(a.rows[i][a.col(name)]));
        diff = std::max(diff, std::fabs(a.rows[i][a.col(name)] - b.rows[i][b.col(name)]));
      }
    }
    EXPECT_GT(peak, std::string(kind) == "U" ? 4.0 : 0.6) << kind;  // large: no linear regime
    EXPECT_LT(diff, 1e-12 * peak) << kind;
  }
}

/// A steel block (1 x 1 x 1, 2 x 2 x 2 C3D8R) clamped at x = 0, and on its free face x = 1
/// either a beam along x (nodes 28-30) or a triangle sheet in the plane y = 0.5 (nodes 28-31),
/// pulled along x by a total force P at the far end.
std::string block_deck(bool beam) {
  std::string d = "*NODE, NSET=ALL\n";
  auto id = [](int i, int j, int k) { return 1 + i + 3 * j + 9 * k; };
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i)
        d += std::to_string(id(i, j, k)) + ", " + std::to_string(0.5 * i) + ", " + std::to_string(0.5 * j) + ", " +
             std::to_string(0.5 * k) + "\n";
  // Face x = 1: nodes id(2, j, k); the attachment is its centre line y = 0.5 (j = 1).
  if (beam) {
    d += "28, 1.5, 0.5, 0.5\n29, 2.0, 0.5, 0.5\n";
  } else {
    d += "28, 1.5, 0.5, 0.0\n29, 1.5, 0.5, 1.0\n30, 2.0, 0.5, 0.0\n31, 2.0, 0.5, 1.0\n";
  }
  d += "*ELEMENT, TYPE=C3D8R, ELSET=BLOCK\n";
  int e = 1;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i) {
        const int c[8] = {id(i, j, k),         id(i + 1, j, k),         id(i + 1, j + 1, k),
                          id(i, j + 1, k),     id(i, j, k + 1),         id(i + 1, j, k + 1),
                          id(i + 1, j + 1, k + 1), id(i, j + 1, k + 1)};
        d += std::to_string(e++);
        for (int n : c) d += ", " + std::to_string(n);
        d += "\n";
      }
  const int a0 = id(2, 1, 0), a1 = id(2, 1, 1), a2 = id(2, 1, 2);
  if (beam) {
    d += "*ELEMENT, TYPE=B31, ELSET=ROD\n9, " + std::to_string(a1) + ", 28\n10, 28, 29\n";
  } else {
    // Two strips of cells: (a0, a1) - (28, ...) along x; z from 0 to 1 in two rows.
    d += "*ELEMENT, TYPE=S3, ELSET=SHEET\n";
    d += "9, " + std::to_string(a0) + ", 28, " + std::to_string(a2) + "\n";
    d += "10, 28, 29, " + std::to_string(a2) + "\n";
    d += "11, 28, 30, 29\n12, 30, 31, 29\n";
  }
  d += "*NSET, NSET=ROOT\n" + std::to_string(id(0, 0, 0));
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j)
      if (j + k > 0) d += ", " + std::to_string(id(0, j, k));
  d += "\n*NSET, NSET=END\n" + std::string(beam ? "29" : "30, 31") + "\n";
  d += "*MATERIAL, NAME=STEEL\n*ELASTIC\n2.0e5, 0.3\n*DENSITY\n1.0\n*DAMPING, ALPHA=600\n";
  d += "*SOLID SECTION, ELSET=BLOCK, MATERIAL=STEEL\n";
  d += beam ? "*BEAM SECTION, ELSET=ROD, MATERIAL=STEEL, SECTION=RECT\n0.1, 0.1\n"
            : "*SHELL SECTION, ELSET=SHEET, MATERIAL=STEEL, FORMULATION=FPM\n0.05\n";
  d += "*AMPLITUDE, NAME=RAMP, DEFINITION=SMOOTH STEP\n0, 0, 0.02, 1\n";
  d += "*STEP\n*DYNAMIC, EXPLICIT\n, 0.1\n*BOUNDARY\nROOT, ENCASTRE\n";
  d += "*CLOAD, AMPLITUDE=RAMP\n" + std::string(beam ? "29, 1, 10.0\n" : "30, 1, 5.0\n31, 1, 5.0\n");
  d += "*OUTPUT, HISTORY, TIME INTERVAL=0.001\n*NODE OUTPUT, NSET=ROOT\nRF\n*END STEP\n";
  return d;
}

TEST(MixedModels, BeamAndTriangleSheetOnASolidCarryTheirLoadIntoItsSupports) {
  // Solid nodes have no rotations: the beam and the sheet are pinned to the block (forces
  // only). Pulled along their own axis/plane they are no mechanisms, and the block's clamped
  // face takes the whole pull P = 10 once damped to rest (0.1 s, some 10 damping times).
  for (const bool beam : {true, false}) {
    const std::string dir = scratch_dir(beam ? "mixed_solid_beam" : "mixed_solid_sheet");
    const std::string deck = dir + "/block.inp";
    std::ofstream(deck) << block_deck(beam);
    std::string out;
    ASSERT_EQ(run_halfstep(deck, dir + "/out", "--threads 1", &out), 0) << out;
    const Csv rf = read_csv(dir + "/out/history/ROOT.csv");
    const double t_last = rf.rows.back()[0];
    double sum[3] = {0, 0, 0};
    for (const auto& r : rf.rows)
      if (r[0] == t_last)
        for (int d = 0; d < 3; ++d) sum[d] += r[rf.col("RF" + std::to_string(d + 1))];
    // Measured: -10 + 5e-11 (beam), + 1.1e-7 (sheet); RF3 2.7e-5 of the sheet (still settling).
    EXPECT_NEAR(sum[0], -10.0, 1e-6) << (beam ? "beam" : "sheet");
    EXPECT_NEAR(sum[1], 0.0, 1e-6);
    EXPECT_NEAR(sum[2], 0.0, 1e-4);
  }
}

}  // namespace
}  // namespace halfstep::test
