// Yielding MITC4 shells (*PLASTIC, Simpson section points) in explicit runs against closed
// forms: a strip in uniaxial tension (every node's U1 driven, free lateral contraction) and a
// strip under end moments through first yield towards the plastic moment (the moment-
// curvature curve of an elastic-perfectly plastic rectangle); the energy balance with the
// plastic dissipation in the internal energy; the dome of seed 003 runs and yields.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "plastic_strip_static.hpp"
#include "run_util.hpp"

namespace halfstep::test {
namespace {

using plastic_strip::mean_abs_at;

constexpr double kE = 200e3, kSy = 250;  // examples/generate_plastic_strip.py defaults

/// Value of column col at row r.
double at(const Csv& c, std::size_t r, const char* col) { return c.rows[r][static_cast<std::size_t>(c.col(col))]; }

/// Sum of a history column over the nodes at the last time.
double last_sum(const Csv& h, const char* col) {
  const double t = h.rows.back()[0];
  double s = 0;
  for (const auto& r : h.rows)
    if (r[0] == t) s += r[static_cast<std::size_t>(h.col(col))];
  return s;
}

// Linear hardening H: E11 = S/E + alpha and S = sy + H alpha give S = (E11 + sy/H) / (1/E +
// 1/H); the end force is F11 S11 t b = (1 + d) S t b (first Piola-Kirchhoff on the reference
// section); the internal energy is the volume times S^2 / 2E + sy alpha + H alpha^2 / 2.
TEST(PlasticShells, StripInUniaxialTensionMatchesTheClosedForm) {
  const std::string dir = scratch_dir("plastic_shell_tension");
  const std::string deck = dir + "/strip.inp";
  std::string out;
  ASSERT_EQ(run_command("python3 " HALFSTEP_SOURCE_DIR "/examples/generate_plastic_strip.py tension --hardening 10e3 -o " +
                            deck, &out), 0) << out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "", &out), 0) << out;
  const double H = 10e3, d = 0.01, L = 10, b = 2, t = 0.5;
  const double e11 = d + 0.5 * d * d;
  const double S = (e11 + kSy / H) / (1 / kE + 1 / H), alpha = (S - kSy) / H;
  const double force = (1 + d) * S * t * b;
  // Lateral waves of the free contraction leave ~1e-5 of the force (measured 1.5e-5).
  EXPECT_NEAR(last_sum(read_csv(dir + "/out/history/END.csv"), "RF1"), force, 1e-4 * force);
  const std::vector<double> peeq = read_vtu_array(dir + "/out/strip_000001.vtu", "PEEQ");
  ASSERT_EQ(peeq.size(), 10u);
  for (double p : peeq) EXPECT_NEAR(p, alpha, 1e-4 * alpha);
  const std::vector<double> sf = read_vtu_array(dir + "/out/strip_000001.vtu", "SF");
  for (std::size_t e = 0; e < 10; ++e) EXPECT_NEAR(sf[5 * e], S * t, 1e-4 * S * t);
  const Csv energy = read_csv(dir + "/out/energy.csv");
  const std::size_t last = energy.rows.size() - 1;
  const double internal = L * b * t * (S * S / (2 * kE) + kSy * alpha + 0.5 * H * alpha * alpha);
  EXPECT_NEAR(at(energy, last, "internal"), internal, 1e-5 * internal);  // measured 1e-7
  // The dissipated part alone: the section points' sy alpha + H alpha^2 / 2 over the volume.
  const double dissipation = L * b * t * (kSy * alpha + 0.5 * H * alpha * alpha);
  std::printf("tension: plastic_dissipation %.3g relative\n", at(energy, last, "plastic_dissipation") / dissipation - 1);
  EXPECT_NEAR(at(energy, last, "plastic_dissipation"), dissipation, 2e-5 * dissipation);  // measured 6.5e-6
  // The balance closes with the dissipation booked as internal energy (measured 1.4e-7).
  EXPECT_LT(std::fabs(at(energy, last, "total")), 1e-5 * at(energy, last, "external_work"));
}

// Elastic-perfectly plastic rectangle of thickness t per unit width: first yield at
// M_y = sy t^2 / 6 (curvature k_y = 2 sy / (E t)), then k_y / k = sqrt(3 - 2 M / M_y) up to the
// plastic moment 3/2 M_y = sy t^2 / 4. The strip (narrow: uniaxial stress, E not E / (1 -
// nu^2)) takes a linear moment ramp to 1.44 M_y over T with 15 section points, then holds it
// for T / 4; the curvature is the tip rotation over the length.
TEST(PlasticShells, StripInPureBendingFollowsTheMomentCurvatureCurve) {
  const std::string dir = scratch_dir("plastic_shell_bending");
  const std::string deck = dir + "/strip.inp";
  const double t = 1, L = 20, My = kSy * t * t / 6, ky = 2 * kSy / (kE * t), Mmax = 60, T = 0.02;
  std::string out;
  ASSERT_EQ(run_command("python3 " HALFSTEP_SOURCE_DIR "/examples/generate_plastic_strip.py bending --points 15 "
                        "--moment 60 --hold 0.005 -o " + deck, &out), 0) << out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "", &out), 0) << out;
  const Csv h = read_csv(dir + "/out/history/END.csv");
  const auto closed = [&](double m) { return m <= 1 ? m * ky : ky / std::sqrt(3 - 2 * m); };
  const auto ratio_at = [&](double m) {  // k / closed form at the first history row with M >= m My
    for (std::size_t r = 0; r < h.rows.size(); ++r) {
      const double mr = Mmax * at(h, r, "time") / T / My;
      if (mr >= m) return std::fabs(at(h, r, "UR2")) / L / closed(mr);
    }
    return 0.0;
  };
  // Along the ramp the damped strip lags the static curve, more where the section softens:
  // measured k / closed form 0.997 at 0.8 M_y, 0.994 at 1.2 M_y, 0.981 at 1.3 M_y and 0.867
  // at 1.44 M_y (the ramp's end).
  EXPECT_NEAR(ratio_at(0.8), 1.0, 5e-3);
  EXPECT_NEAR(ratio_at(1.2), 1.0, 1.3e-2);
  EXPECT_NEAR(ratio_at(1.3), 1.0, 3e-2);
  // Held at 1.44 M_y the strip settles (1e-4 of it still to come at T / 4) on the static
  // curvature. Its reference is the plate section the shell computes: strains linear through
  // the thickness in both directions, the width's moment zero, plane-stress J2 on the same 15
  // Simpson points, validation/plastic_strip_section.py --points 15 (400 moment increments):
  // k = 2.890492 k_y, 0.13 % above the beam formula's 2.886751 k_y. Measured 2.15e-4 above it.
  // (With the thickness integral converged, 241 points, the plate section gives 2.846 k_y,
  // 1.4 % below the beam formula: 15 points overstate the curvature near M_p by 1.6 %.)
  const double k_hold = std::fabs(at(h, h.rows.size() - 1, "UR2")) / L;
  std::printf("bending: held at 1.44 My, k / k_y %.6f (plate section 2.890492)\n", k_hold / ky);
  EXPECT_NEAR(k_hold / (2.890492 * ky), 1.0, 5e-4);
  // Frames at M = 0.72 M_y (elastic: no PEEQ) and 1.08 M_y (yielded at the surfaces).
  EXPECT_EQ(read_vtu_array(dir + "/out/strip_000002.vtu", "PEEQ"), std::vector<double>(10, 0.0));
  const std::vector<double> yielded = read_vtu_array(dir + "/out/strip_000003.vtu", "PEEQ");
  ASSERT_EQ(yielded.size(), 10u);
  for (double p : yielded) EXPECT_GT(p, 0.0);
  // Held at 1.44 M_y (the last frame): the section moment balances the load, and the outer
  // fibres sit on the yield surface with the plate section's sigma_22 beside S11 (the script
  // above: S11 = 1.0217 sy, sigma_22 = 0.045 sy on the top fibre).
  const std::vector<double> sm = read_vtu_array(dir + "/out/strip_000005.vtu", "SM");
  const std::vector<double> top = read_vtu_array(dir + "/out/strip_000005.vtu", "S_top");
  ASSERT_EQ(sm.size(), 30u);
  ASSERT_EQ(top.size(), 30u);
  double worst_m = 0, worst_s = 0;
  for (std::size_t e = 0; e < 10; ++e) {
    worst_m = std::max(worst_m, std::fabs(std::fabs(sm[3 * e]) / (1.44 * My) - 1));
    worst_s = std::max(worst_s, std::fabs(std::fabs(top[3 * e]) / (1.0217 * kSy) - 1));
  }
  std::printf("bending: held, SM within %.2e of 1.44 My, S_top within %.2e of 1.0217 sy\n", worst_m, worst_s);
  EXPECT_LT(worst_m, 6e-5);  // measured 2.7e-5
  EXPECT_LT(worst_s, 1.5e-3);  // measured 6.6e-4
  const Csv energy = read_csv(dir + "/out/energy.csv");
  const std::size_t last = energy.rows.size() - 1;
  EXPECT_LT(std::fabs(at(energy, last, "total")), 1e-6 * at(energy, last, "external_work"));
}

// The two static strips (tests/integration/plastic_strip_static.hpp; the GPU engine runs
// the same checks in tests/gpu/test_gpu_static_plasticity.cpp).
TEST(PlasticShells, StaticStripInTensionMatchesTheClosedFormAndTheExplicitStepKeepsIt) {
  plastic_strip::check_static_tension("plastic_shell_static_tension", "--backend cpu");
}

TEST(PlasticShells, StaticStripInPureBendingReachesThePlateSectionCurvature) {
  plastic_strip::check_static_bending("plastic_shell_static_bending", "--backend cpu");
}

// A linear step that pulls the perfectly plastic strip to a strain of 1e9: the first trial's
// tangent is singular (every point yielded flat), not the supports. It was reported as
// unconstrained dofs, an input error, after the output had begun (found by the run harness's
// oracle: an input error leaves no output folder); now it is a failed attempt, cut back, and
// the strip carries the yield force sy t b with incompressible lateral flow, E22 = -E11 / 2.
TEST(PlasticShells, LinearStepPulledFarPastYieldCarriesTheYieldForce) {
  const std::string dir = scratch_dir("plastic_shell_far_past_yield");
  std::string out;
  ASSERT_EQ(run_command("python3 " HALFSTEP_SOURCE_DIR "/examples/generate_plastic_strip.py tension --linear "
                        "--strain 1e9 -o " + dir + "/far.inp", &out), 0) << out;
  ASSERT_EQ(run_halfstep(dir + "/far.inp", dir + "/out", "--backend cpu", &out), 0) << out;
  const Csv h = read_csv(dir + "/out/history/END.csv");
  const double rf = last_sum(h, "RF1"), b = 2, t = 0.5;
  const double lateral = h.rows.back()[static_cast<std::size_t>(h.col("U2"))] / b;  // the corner at y = b
  std::printf("far past yield: RF1 %.9g (sy t b = %.9g), E22 %.9g (%.9g)\n", rf, kSy * t * b, lateral, -0.5e9);
  EXPECT_NEAR(rf, kSy * t * b, 1e-6 * kSy * t * b);  // measured 2e-7
  EXPECT_NEAR(lateral, -0.5e9, 1e-5 * 0.5e9);         // measured 6e-7
}

// Both strips in geometrically linear static steps (the small-strain theory, as Abaqus/
// Standard's without NLGEOM): the tension strip meets the small-strain closed form, E11 = d,
// S = (d + sy / H) / (1 / E + 1 / H), end force S t b; the bent strip's curvature at 1.44 M_y
// is the plate section's of validation/plastic_strip_section.py along the same increments,
// itself a small-strain model.
TEST(PlasticShells, LinearStepStripsMatchTheSmallStrainClosedForms) {
  plastic_strip::check_linear_strips("plastic_shell_linear", "", 10);
}

// The seed's dome, coarse: it yields (PEEQ in the VTU), and the energy balance, with the
// plastic dissipation as internal energy, stays closed through the step pressure.
TEST(PlasticShells, DomeUnderStepPressureYieldsAndConservesEnergy) {
  const std::string dir = scratch_dir("plastic_shell_dome");
  const std::string deck = HALFSTEP_SOURCE_DIR "/tests/gpu/decks/shell_dome_j2.inp";
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "", &out), 0) << out;
  const std::vector<double> peeq = read_vtu_array(dir + "/out/shell_dome_j2_000002.vtu", "PEEQ");
  ASSERT_EQ(peeq.size(), 48u);
  double worst = 0;
  for (double p : peeq) worst = std::max(worst, p);
  EXPECT_GT(worst, 1e-3);
  const Csv energy = read_csv(dir + "/out/energy.csv");
  const std::size_t last = energy.rows.size() - 1;
  EXPECT_LT(std::fabs(at(energy, last, "total")), 1e-3 * at(energy, last, "external_work"));
}

}  // namespace
}  // namespace halfstep::test
