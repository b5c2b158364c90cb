// The softened pressure-overclosure laws (dynamics/contact_law.hpp) against their closed
// forms: LINEAR's K A h, TABULAR's segments and their extension, EXPONENTIAL's p0 at zero
// clearance and 0 at c0, CalculiX's EXPONENTIAL (1 % of p0 at c0); each law's stored energy against the integral of its force, the cap
// at the hard spring's stiffness, and hard contact's k pen.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "dynamics/contact_law.hpp"

namespace halfstep {
namespace {

double force(int kind, const std::vector<double>& v, double h, double area, double cap, double& energy) {
  return softened_force(kind, v.data(), static_cast<int>(v.size()), h, area, cap, energy);
}

/// Checks that the energy is the integral of the force from where it starts (Simpson's rule
/// on 2000 panels from `from` to each of `points`) and that the stiffness never exceeds cap.
void expect_energy_is_integral(int kind, const std::vector<double>& v, double area, double cap, double from,
                               const std::vector<double>& points) {
  for (double h : points) {
    const int n = 2000;
    const double dh = (h - from) / n;
    double sum = 0, e = 0;
    for (int i = 0; i <= n; ++i) {
      const double w = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
      sum += w * force(kind, v, from + i * dh, area, cap, e);
    }
    double energy = 0;
    force(kind, v, h, area, cap, energy);
    EXPECT_NEAR(energy, sum * dh / 3, 1e-6 * std::fabs(energy) + 1e-14) << "kind " << kind << " at " << h;
  }
  double e = 0, last = force(kind, v, from, area, cap, e);
  const double step = (points.back() - from) / 4000;
  for (int i = 1; i <= 4000; ++i) {
    const double f = force(kind, v, from + i * step, area, cap, e);
    EXPECT_LE(f - last, cap * step * (1 + 1e-9)) << "kind " << kind << " stiffer than the cap at " << from + i * step;
    last = f;
  }
}

TEST(ContactLaw, LinearIsSlopeTimesAreaTimesOverclosure) {
  const std::vector<double> v{1e4};
  double e = 0;
  EXPECT_DOUBLE_EQ(force(kLawLinear, v, 1e-3, 0.25, 1e9, e), 2.5);
  EXPECT_DOUBLE_EQ(e, 0.5 * 2.5 * 1e-3);
  EXPECT_EQ(force(kLawLinear, v, -1e-3, 0.25, 1e9, e), 0.0);  // no tension
  EXPECT_EQ(e, 0.0);
  // Stiffer than the cap: the cap's spring.
  EXPECT_DOUBLE_EQ(force(kLawLinear, v, 1e-3, 0.25, 1000.0, e), 1.0);
  expect_energy_is_integral(kLawLinear, v, 0.25, 1e9, 0.0, {1e-4, 1e-3});
}

TEST(ContactLaw, TabularFollowsItsSegmentsAndTheirExtension) {
  // (overclosure, pressure): contact from a clearance of 1e-3, 5 at 1e-3, 20 at 2e-3.
  const std::vector<double> v{-1e-3, 0., 1e-3, 5., 2e-3, 20.};
  const double a = 0.5;
  double e = 0;
  EXPECT_EQ(force(kLawTabular, v, -2e-3, a, 1e12, e), 0.0);
  EXPECT_NEAR(force(kLawTabular, v, 0.0, a, 1e12, e), a * 2.5, 1e-12);
  EXPECT_NEAR(force(kLawTabular, v, 1e-3, a, 1e12, e), a * 5, 1e-12);
  EXPECT_NEAR(force(kLawTabular, v, 1.5e-3, a, 1e12, e), a * 12.5, 1e-12);
  EXPECT_NEAR(force(kLawTabular, v, 3e-3, a, 1e12, e), a * 35, 1e-11);  // the last slope goes on
  expect_energy_is_integral(kLawTabular, v, a, 1e12, -1e-3, {-5e-4, 1e-3, 1.7e-3, 3e-3});
  // Capped below the second segment's stiffness (0.5 x 1.5e4 = 7500) but above the first's (1250).
  const double cap = 4000;
  EXPECT_NEAR(force(kLawTabular, v, 1e-3, a, cap, e), a * 5, 1e-12);
  EXPECT_NEAR(force(kLawTabular, v, 2e-3, a, cap, e), a * 5 + cap * 1e-3, 1e-12);
  expect_energy_is_integral(kLawTabular, v, a, cap, -1e-3, {0.0, 1.5e-3, 3e-3});
}

TEST(ContactLaw, ExponentialMeetsItsEndsAndCapsItsStiffness) {
  const double c0 = 0.01, p0 = 20, a = 0.25;
  const std::vector<double> v{c0, p0, 0.0};
  double e = 0;
  EXPECT_EQ(force(kLawExponential, v, -c0, a, 1e12, e), 0.0);
  EXPECT_EQ(force(kLawExponential, v, -2 * c0, a, 1e12, e), 0.0);
  EXPECT_NEAR(force(kLawExponential, v, 0.0, a, 1e12, e), a * p0, 1e-12);
  // Abaqus's form: p = p0 / (e - 1) (h / c0 + 1) (exp(h / c0 + 1) - 1).
  const double h = -0.004, u = h / c0 + 1;
  EXPECT_NEAR(force(kLawExponential, v, h, a, 1e12, e), a * p0 / (std::exp(1.0) - 1) * u * (std::exp(u) - 1), 1e-12);
  expect_energy_is_integral(kLawExponential, v, a, 1e12, -c0, {-0.005, 0.0, 0.01});
  // The stiffness at zero clearance is a p0 (2e - 1) / ((e - 1) c0) = 1291.0: a cap of 600
  // bends the law into a line before it; its energy is still the force's integral.
  const double knee_slope = a * p0 * (2 * std::exp(1.0) - 1) / ((std::exp(1.0) - 1) * c0);
  EXPECT_NEAR(knee_slope, 1291.0, 0.1);
  const double f0 = force(kLawExponential, v, 0.0, a, 600, e);
  EXPECT_LT(f0, a * p0);
  EXPECT_NEAR(force(kLawExponential, v, 0.002, a, 600, e) - f0, 600 * 0.002, 1e-9);
  expect_energy_is_integral(kLawExponential, v, a, 600, -c0, {-0.005, 0.0, 0.01});
  // The deck's maximum stiffness (per unit area) caps it the same way: 2400 x 0.25 = 600.
  const std::vector<double> capped{c0, p0, 2400.0};
  EXPECT_DOUBLE_EQ(force(kLawExponential, capped, 0.003, a, 1e12, e), force(kLawExponential, v, 0.003, a, 600, e));
}

TEST(ContactLaw, PeerExponentialIsP0TimesItsExponentialFromC0On) {
  // CalculiX's EXPONENTIAL: p = p0 exp(beta h), beta = ln 100 / c0: p0 at zero clearance, 1 %
  // of it at the clearance c0, nothing beyond; its stiffness beta p.
  const double c0 = 0.01, p0 = 20, a = 0.25, beta = std::log(100.0) / c0;
  const std::vector<double> v{c0, p0};
  double e = 0;
  EXPECT_EQ(force(kLawExponentialPeer, v, -c0, a, 1e12, e), 0.0);
  EXPECT_EQ(force(kLawExponentialPeer, v, -2 * c0, a, 1e12, e), 0.0);
  EXPECT_NEAR(force(kLawExponentialPeer, v, -c0 * (1 - 1e-12), a, 1e12, e), 0.01 * a * p0, 1e-12);
  EXPECT_NEAR(force(kLawExponentialPeer, v, 0.0, a, 1e12, e), a * p0, 1e-12);
  EXPECT_NEAR(force(kLawExponentialPeer, v, 0.003, a, 1e12, e), a * p0 * std::exp(beta * 0.003), 1e-9);
  const double from = -c0 * (1 - 1e-12);
  expect_energy_is_integral(kLawExponentialPeer, v, a, 1e12, from, {-0.005, 0.0, 0.005});
  // At zero clearance its stiffness is a p0 beta = 2302.6: a cap of 600 bends it into a line
  // at the knee where a p0 beta exp(beta h) = 600, h* = ln(600 / 2302.6) / beta = -2.92e-3.
  const double knee = std::log(600 / (a * p0 * beta)) / beta;
  EXPECT_NEAR(knee, -2.9203e-3, 1e-7);
  const double f_knee = a * p0 * std::exp(beta * knee);
  EXPECT_NEAR(force(kLawExponentialPeer, v, 0.002, a, 600, e), f_knee + 600 * (0.002 - knee), 1e-9);
  expect_energy_is_integral(kLawExponentialPeer, v, a, 600, from, {-0.005, 0.0, 0.01});
}

TEST(ContactLaw, HardContactIsThePenaltySpring) {
  const NormalLawView<double> hard{};
  double e = 0;
  EXPECT_DOUBLE_EQ(normal_contact_force(hard, 0, 0, 2e-3, 5e5, e), 1000.0);
  EXPECT_DOUBLE_EQ(e, 1.0);
  EXPECT_FALSE(softened_contact(hard, 0));
  // A softened definition beside a hard one: the law's overclosure is the penetration less
  // the definition's clearance (EXPONENTIAL's c0 is in its records' offsets).
  const std::uint8_t kind[2] = {kLawHard, kLawExponential};
  const int ptr[3] = {0, 0, 3};
  const double values[3] = {0.01, 20.0, 0.0}, clearance[2] = {0.0, 0.01}, area[1] = {0.25};
  const NormalLawView<double> law{kind, ptr, values, clearance, area};
  EXPECT_TRUE(softened_contact(law, 1));
  EXPECT_FALSE(softened_contact(law, 0));
  EXPECT_NEAR(normal_contact_force(law, 1, 0, 0.01, 1e12, e), 0.25 * 20, 1e-12);  // zero clearance
  EXPECT_DOUBLE_EQ(normal_contact_force(law, 0, 0, 2e-3, 5e5, e), 1000.0);
}

}  // namespace
}  // namespace halfstep
