// The bolted joint of examples/generate_bolted_joint.py at its defaults, for the CPU and GPU
// tests: the joint diagram's bolt forces and the run's, read as the held nut's reaction RF3.
#pragma once

#include <cstdio>
#include <string>

#include "run_util.hpp"

namespace halfstep::test::bolted {

/// E alpha dtheta A_b / 2 (E 210 GPa, alpha 1.2e-5, dtheta 100 C, A_b = (2 x 5 mm)^2).
constexpr double kPreload = 210000 * 1.2e-5 * 100 * 100 / 2.0;
/// F0 + phi P with phi = 1/2 and P = 10 kN.
constexpr double kPulled = kPreload + 0.5 * 10000;

/// The bolt's force (minus the nut's RF3, node 9002) at the end of the static step (time 1)
/// and at the run's end, from history/REFS.csv of the run in out.
inline void bolt_forces(const std::string& out, double& preload, double& pulled) {
  const Csv h = read_csv(out + "/history/REFS.csv");
  double last_time = -1;
  preload = pulled = 0;
  for (const auto& row : h.rows) {
    if (static_cast<int>(row[h.col("node")]) != 9002) continue;
    if (row[0] == 1.0) preload = -row[h.col("RF3")];
    if (row[0] > last_time) last_time = row[0], pulled = -row[h.col("RF3")];
  }
}

/// The bolt's forces of the run in out against the joint diagram (kPreload, kPulled, within
/// `preload_tol` and `pulled_tol` of them), printed with the run's label.
inline void expect_joint_diagram(const std::string& out, const char* label, double preload_tol = 2e-4,
                                 double pulled_tol = 2e-4) {
  double preload, last;
  bolt_forces(out, preload, last);
  std::printf("%s: preload %.6f N (closed form %.6f), after the pull %.6f N (%.6f)\n", label, preload, kPreload, last,
              kPulled);
  EXPECT_NEAR(preload, kPreload, preload_tol * kPreload);
  EXPECT_NEAR(last, kPulled, pulled_tol * kPulled);
}

/// The generator's arguments of the same joint preloaded by a *PRE-TENSION SECTION with the
/// closed form's F0 (no cooling).
inline std::string pretension_args() { return "--pretension " + std::to_string(kPreload); }

/// The pre-tension joint's bounds: the force on the section node is the preload to 1e-9; after
/// the pull the bolt, its length held by *BOUNDARY, FIXED, takes F0 + P / 2 up to the explicit
/// step's finite strain (strains ~8e-4: measured +3.3e-4 on the CPU, +3.4e-5 with E ten times
/// larger).
constexpr double kPretensionPreloadTol = 1e-9, kPretensionPulledTol = 5e-4;

}  // namespace halfstep::test::bolted
