// The stable-increment rule is conservative: for a range of element shapes and thickness
// ratios, the highest frequency of a free element (lumped mass with the rotary-inertia rule)
// satisfies 2 / omega_max >= L_e / c, so rotations never control the increment.
#include <gtest/gtest.h>

#include "mitc4_test_util.hpp"
#include "discretization/structure_system.hpp"

namespace halfstep::test {
namespace {

struct Case {
  const char* name;
  std::array<V3, 4> nodes;
  double thickness;
};

double critical_ratio(const Case& c) {
  const double E = 2.0e5, nu = 0.3, rho = 7.8e-9;
  OneElement el(c.nodes, c.thickness);
  el.mat = ShellElastic<double>::from(E, nu);
  EXPECT_TRUE(el.ok) << c.name;
  const std::vector<double> k = numerical_stiffness(el, 1e-7 * c.thickness);
  double area = 0, corner[4] = {0, 0, 0, 0};
  for (int g = 0; g < 4; ++g) {
    area += el.ref.wj[g];
    for (int n = 0; n < 4; ++n)
      corner[n] += el.ref.wj[g] * 0.25 * (1 + mitc4_gauss_r(g) * mitc4_node_r(n)) * (1 + mitc4_gauss_s(g) * mitc4_node_s(n));
  }
  double m[20];
  const double arm = std::max(c.thickness * c.thickness / 12, kRotaryScale * area);
  for (int n = 0; n < 4; ++n) {
    const double mn = rho * c.thickness * corner[n];
    for (int d = 0; d < 3; ++d) m[5 * n + d] = mn;
    m[5 * n + 3] = m[5 * n + 4] = mn * arm;
  }
  std::vector<double> a(400);
  for (int i = 0; i < 20; ++i)
    for (int j = 0; j < 20; ++j) a[20 * i + j] = 0.5 * (k[20 * i + j] + k[20 * j + i]) / std::sqrt(m[i] * m[j]);
  const double omega_max = std::sqrt(max_eigenvalue(a, 20));
  SectionProps sec;
  sec.youngs = E;
  sec.poisson = nu;
  sec.density = rho;
  const double dt_rule = mitc4_characteristic_length(el.X) / plate_wave_speed(sec);
  return (2.0 / omega_max) / dt_rule;  // >= 1 means the rule is safe
}

TEST(Mitc4Frequency, StableIncrementRuleIsConservative) {
  const std::vector<Case> cases = {
      {"square thin", {V3{0, 0, 0}, V3{1, 0, 0}, V3{1, 1, 0}, V3{0, 1, 0}}, 0.01},
      {"square thick", {V3{0, 0, 0}, V3{1, 0, 0}, V3{1, 1, 0}, V3{0, 1, 0}}, 0.3},
      {"square very thin", {V3{0, 0, 0}, V3{1, 0, 0}, V3{1, 1, 0}, V3{0, 1, 0}}, 0.001},
      {"rectangle 4:1", {V3{0, 0, 0}, V3{4, 0, 0}, V3{4, 1, 0}, V3{0, 1, 0}}, 0.05},
      {"skewed", {V3{0, 0, 0}, V3{2.0, 0.2, 0}, V3{2.3, 1.7, 0}, V3{-0.1, 1.2, 0}}, 0.05},
      {"trapezoid", {V3{0, 0, 0}, V3{2, 0, 0}, V3{1.4, 1, 0}, V3{0.6, 1, 0}}, 0.02},
  };
  for (const Case& c : cases) {
    const double ratio = critical_ratio(c);
    std::printf("%-18s 2/omega_max over L/c = %.3f\n", c.name, ratio);
    EXPECT_GE(ratio, 1.0) << c.name;
  }
}

}  // namespace
}  // namespace halfstep::test
