// Plane-stress J2 return (src/materials/j2_plane_stress.hpp) against closed forms: uniaxial
// stress with bilinear and tabulated hardening (one increment and many), pure shear,
// equibiaxial stress, the dissipation integral; consistency after random non-proportional
// returns; elastic increments; the 3-D small-strain return with sigma_33 = 0 enforced on the
// thickness strain (the same backward-Euler equations); FP32 against FP64.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "materials/j2_plane_stress.hpp"

namespace halfstep {
namespace {

constexpr double kE = 200e3, kNu = 0.3, kSy = 250;

/// E = 200e3, nu = 0.3 and the given table (stress, plastic strain pairs).
template <class T = double>
SolidMaterial<T> material(std::vector<double> stress, std::vector<double> strain) {
  SolidMaterial<T> m;
  m.model = law_id<J2Plastic>;
  m.lambda = T(kE * kNu / ((1 + kNu) * (1 - 2 * kNu)));
  m.mu = T(kE / (2 * (1 + kNu)));
  m.hardening_points = static_cast<int>(stress.size());
  for (std::size_t k = 0; k < stress.size(); ++k) {
    m.yield_stress[k] = T(stress[k]);
    m.yield_strain[k] = T(strain[k]);
  }
  return m;
}

/// Linear hardening sigma_y = 250 + H alpha (the table's second point at alpha = 1).
SolidMaterial<double> bilinear(double H) { return material({kSy, kSy + H}, {0, 1}); }

double mises(const double s[3]) { return std::sqrt(s[0] * s[0] - s[0] * s[1] + s[1] * s[1] + 3 * s[2] * s[2]); }

/// Applies eps from state and returns the result (state updated).
J2PlaneResult<double> apply(const SolidMaterial<double>& m, const double eps[3], std::vector<double>& state) {
  std::vector<double> next(kJ2PlaneStateSize);
  const J2PlaneResult<double> r = j2_plane_stress_update(m, eps, state.data(), next.data());
  state = next;
  return r;
}

/// Yield stress of a table at alpha, and alpha at a yield stress (increasing table).
double alpha_at(const SolidMaterial<double>& m, double sy) {
  for (int k = 1; k < m.hardening_points; ++k)
    if (sy <= m.yield_stress[k])
      return m.yield_strain[k - 1] + (sy - m.yield_stress[k - 1]) / (m.yield_stress[k] - m.yield_stress[k - 1]) *
                                         (m.yield_strain[k] - m.yield_strain[k - 1]);
  return -1;
}

TEST(J2PlaneStress, UniaxialBilinearOneIncrementAndMany) {
  const double H = 10e3;
  const SolidMaterial<double> m = bilinear(H);
  for (double s : {300.0, 400.0, 900.0}) {
    // Closed form of monotonic uniaxial stress s: alpha = (s - sy)/H, eps_p = alpha (1, -1/2);
    // the increments follow it (strains of stresses s i / steps).
    const double a = (s - kSy) / H;
    for (int steps : {1, 7, 100}) {
      std::vector<double> st(kJ2PlaneStateSize, 0.0);
      J2PlaneResult<double> r{};
      for (int i = 1; i <= steps; ++i) {
        const double si = s * i / steps, ai = std::max(0.0, (si - kSy) / H);
        const double e[3] = {si / kE + ai, -kNu * si / kE - 0.5 * ai, 0};
        r = apply(m, e, st);
      }
      // A proportional stress path: the backward-Euler return is exact at every increment.
      EXPECT_NEAR(r.stress[0], s, 1e-9 * s) << s << " " << steps;
      EXPECT_NEAR(r.stress[1], 0.0, 1e-9 * s);
      EXPECT_NEAR(r.stress[2], 0.0, 1e-12 * s);
      EXPECT_NEAR(st[kJ2PlaneAlpha], a, 1e-9 * a);
      EXPECT_NEAR(st[kJ2PlaneEp11], a, 1e-9 * a);
      EXPECT_NEAR(st[kJ2PlaneEp22], -0.5 * a, 1e-9 * a);
      // Dissipation: the integral of sigma_y d alpha = sy a + H a^2 / 2.
      EXPECT_NEAR(st[kJ2PlaneDissipation], kSy * a + 0.5 * H * a * a, 1e-9 * kSy * a);
      // Stored energy s^2 / (2 E).
      EXPECT_NEAR(r.energy, s * s / (2 * kE), 1e-9 * s * s / kE);
    }
  }
}

TEST(J2PlaneStress, UniaxialTabulatedCrossesKinksInOneIncrement) {
  const SolidMaterial<double> m = material({250, 300, 320, 325}, {0, 0.01, 0.05, 0.2});
  for (double s : {280.0, 310.0, 322.0}) {
    const double a = alpha_at(m, s);
    const double eps[3] = {s / kE + a, -kNu * s / kE - 0.5 * a, 0};
    std::vector<double> st(kJ2PlaneStateSize, 0.0);
    const J2PlaneResult<double> r = apply(m, eps, st);
    EXPECT_NEAR(r.stress[0], s, 1e-9 * s);
    EXPECT_NEAR(r.stress[1], 0.0, 1e-9 * s);
    EXPECT_NEAR(st[kJ2PlaneAlpha], a, 1e-9 * a);
    // Trapezoids of the table up to a.
    double w = 0, prev_a = 0, prev_s = 250;
    for (int k = 1; k < m.hardening_points && prev_a < a; ++k) {
      const double b = std::min(a, m.yield_strain[k]);
      const double sb = prev_s + (m.yield_stress[k] - m.yield_stress[k - 1]) /
                                     (m.yield_strain[k] - m.yield_strain[k - 1]) * (b - prev_a);
      w += 0.5 * (prev_s + sb) * (b - prev_a);
      prev_a = b;
      prev_s = sb;
    }
    EXPECT_NEAR(st[kJ2PlaneDissipation], w, 1e-9 * w);
  }
  // Beyond the table: perfectly plastic at the last stress.
  const double a = 0.5;
  const double eps[3] = {325 / kE + a, -kNu * 325 / kE - 0.5 * a, 0};
  std::vector<double> st(kJ2PlaneStateSize, 0.0);
  EXPECT_NEAR(apply(m, eps, st).stress[0], 325.0, 1e-9 * 325);
  EXPECT_NEAR(st[kJ2PlaneAlpha], a, 1e-9);
}

TEST(J2PlaneStress, PureShearClosedForm) {
  const double H = 5e3, mu = kE / (2 * (1 + kNu));
  const SolidMaterial<double> m = bilinear(H);
  // sqrt3 tau = sy + H alpha, alpha = gamma_p / sqrt3, gamma = tau / mu + gamma_p.
  for (double tau : {150.0, 200.0, 400.0}) {
    const double gp = std::sqrt(3.0) * (std::sqrt(3.0) * tau - kSy) / H;
    const double eps[3] = {0, 0, tau / mu + gp};
    std::vector<double> st(kJ2PlaneStateSize, 0.0);
    const J2PlaneResult<double> r = apply(m, eps, st);
    EXPECT_NEAR(r.stress[2], tau, 1e-9 * tau);
    EXPECT_NEAR(r.stress[0], 0.0, 1e-12 * tau);
    EXPECT_NEAR(r.stress[1], 0.0, 1e-12 * tau);
    EXPECT_NEAR(st[kJ2PlaneEp12], gp, 1e-9 * gp);
    EXPECT_NEAR(st[kJ2PlaneAlpha], gp / std::sqrt(3.0), 1e-9 * gp);
  }
}

TEST(J2PlaneStress, EquibiaxialClosedForm) {
  const double H = 2e3;
  const SolidMaterial<double> m = bilinear(H);
  // s = sy + H alpha; eps_p11 = eps_p22 = alpha / 2 (eps_p33 = -alpha); eps = s (1 - nu) / E + alpha / 2.
  for (double s : {260.0, 350.0}) {
    const double a = (s - kSy) / H;
    const double e = s * (1 - kNu) / kE + 0.5 * a;
    const double eps[3] = {e, e, 0};
    std::vector<double> st(kJ2PlaneStateSize, 0.0);
    const J2PlaneResult<double> r = apply(m, eps, st);
    EXPECT_NEAR(r.stress[0], s, 1e-9 * s);
    EXPECT_NEAR(r.stress[1], s, 1e-9 * s);
    EXPECT_NEAR(st[kJ2PlaneAlpha], a, 1e-9 * a);
    EXPECT_NEAR(st[kJ2PlaneEp11], 0.5 * a, 1e-9 * a);
  }
}

TEST(J2PlaneStress, ConsistencyAfterRandomReturns) {
  const SolidMaterial<double> m = material({250, 300, 320, 320.5}, {0, 0.002, 0.02, 0.5});
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> st(kJ2PlaneStateSize, 0.0);
  double eps[3] = {0, 0, 0};
  int plastic = 0;
  double worst = 0;
  for (int i = 0; i < 2000; ++i) {
    for (double& e : eps) e += 2e-3 * u(rng);  // non-proportional, often reversing
    const J2PlaneResult<double> r = apply(m, eps, st);
    double h;
    const double sy = j2_yield_stress(m, st[kJ2PlaneAlpha], &h);
    const double q = mises(r.stress);
    EXPECT_LE(q, sy * (1 + 1e-12));
    if (r.dgamma > 0) {
      ++plastic;
      worst = std::max(worst, std::fabs(q - sy) / sy);
    }
    // The stress is C (eps - eps_p) of the new state.
    double s[3];
    j2_plane_stress_of_state(m, eps, st.data(), s);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(s[k], r.stress[k], 1e-9 * sy);
  }
  EXPECT_GT(plastic, 500);
  EXPECT_LT(worst, 1e-12);
}

TEST(J2PlaneStress, ElasticIncrementsLeaveTheStateAlone) {
  const SolidMaterial<double> m = bilinear(1e3);
  std::vector<double> st = {1e-3, -4e-4, 2e-4, 1.2e-3, 0.31};
  const std::vector<double> before = st;
  // Inside the surface: stress well below sigma_y.
  const double eps[3] = {1e-3 + 3e-4, -4e-4 - 1e-4, 2e-4 + 1e-4};
  const J2PlaneResult<double> r = apply(m, eps, st);
  EXPECT_EQ(st, before);
  EXPECT_EQ(r.dgamma, 0.0);
  EXPECT_EQ(r.dissipation, 0.0);
  double s[3];
  const double ee[3] = {3e-4, -1e-4, 1e-4};
  j2_plane_elastic_stress(kE, kNu, ee, s);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(r.stress[k], s[k], 1e-12 * kE * 1e-3);
  // A converged plastic point re-evaluated at its own strain does not flow again.
  std::vector<double> p(kJ2PlaneStateSize, 0.0);
  const double e2[3] = {4e-3, -1e-3, 2e-3};
  apply(m, e2, p);
  const std::vector<double> conv = p;
  EXPECT_EQ(apply(m, e2, p).dgamma, 0.0);
  EXPECT_EQ(p, conv);
}

/// The 3-D small-strain return with sigma_33 = 0 enforced by Newton on the thickness strain.
struct PlaneBy3D {
  SolidMaterial<double> m;
  std::vector<double> state = std::vector<double>(kJ2StateSize, 0.0);
  double e33 = 0;
  Mat3<double> apply(const double eps[3]) {
    std::vector<double> next(kJ2StateSize);
    Mat3<double> s{};
    for (int it = 0; it < 60; ++it) {
      const auto at = [&](double e) {
        Mat3<double> E = scaled_identity(0.0);
        E(0, 0) = eps[0], E(1, 1) = eps[1], E(2, 2) = e, E(0, 1) = E(1, 0) = 0.5 * eps[2];
        return j2_small_strain_update(m, E, state.data(), next.data()).S;
      };
      s = at(e33);
      if (std::fabs(s(2, 2)) < 1e-13 * kSy) break;
      const double d = 1e-7 * (std::fabs(e33) + 1e-6);
      const double slope = (at(e33 + d)(2, 2) - at(e33 - d)(2, 2)) / (2 * d);
      e33 -= s(2, 2) / slope;
    }
    s = [&] {
      Mat3<double> E = scaled_identity(0.0);
      E(0, 0) = eps[0], E(1, 1) = eps[1], E(2, 2) = e33, E(0, 1) = E(1, 0) = 0.5 * eps[2];
      return j2_small_strain_update(m, E, state.data(), next.data()).S;
    }();
    state = next;
    return s;
  }
};

TEST(J2PlaneStress, MatchesThe3DReturnWithZeroThicknessStress) {
  const SolidMaterial<double> m = material({250, 300, 310}, {0, 0.003, 0.05});
  PlaneBy3D ref{m};
  std::vector<double> st(kJ2PlaneStateSize, 0.0);
  // A non-proportional path: tension, then shear, then biaxial compression.
  const double path[][3] = {{3e-3, 0, 0}, {3e-3, 0, 4e-3}, {-2e-3, -3e-3, 4e-3}, {-2e-3, -3e-3, -1e-3}};
  double eps[3] = {0, 0, 0};
  for (const auto& target : path)
    for (int i = 1; i <= 5; ++i) {
      for (int k = 0; k < 3; ++k) eps[k] += (target[k] - eps[k]) / (6 - i);
      const J2PlaneResult<double> r = apply(m, eps, st);
      const Mat3<double> s = ref.apply(eps);
      EXPECT_NEAR(r.stress[0], s(0, 0), 1e-8 * kSy);
      EXPECT_NEAR(r.stress[1], s(1, 1), 1e-8 * kSy);
      EXPECT_NEAR(r.stress[2], s(0, 1), 1e-8 * kSy);
      EXPECT_NEAR(st[kJ2PlaneAlpha], ref.state[kJ2Alpha], 1e-10);
      EXPECT_NEAR(st[kJ2PlaneDissipation], ref.state[kJ2Dissipation], 1e-8);
    }
  EXPECT_GT(st[kJ2PlaneAlpha], 5e-3);
}

TEST(J2PlaneStress, SinglePrecisionAgrees) {
  const std::vector<double> ys = {250, 300, 320}, ye = {0, 0.01, 0.05};
  const SolidMaterial<double> md = material<double>(ys, ye);
  const SolidMaterial<float> mf = material<float>(ys, ye);
  std::vector<double> sd(kJ2PlaneStateSize, 0.0);
  std::vector<float> sf(kJ2PlaneStateSize, 0.0f);
  const double path[][3] = {{4e-3, -1e-3, 0}, {4e-3, -1e-3, 6e-3}, {-3e-3, 2e-3, 6e-3}};
  double eps[3] = {0, 0, 0};
  for (const auto& target : path)
    for (int i = 1; i <= 10; ++i) {
      for (int k = 0; k < 3; ++k) eps[k] += (target[k] - eps[k]) / (11 - i);
      const float ef[3] = {float(eps[0]), float(eps[1]), float(eps[2])};
      std::vector<float> nf(kJ2PlaneStateSize);
      const J2PlaneResult<float> rf = j2_plane_stress_update(mf, ef, sf.data(), nf.data());
      sf = nf;
      const J2PlaneResult<double> rd = apply(md, eps, sd);
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(rf.stress[k], rd.stress[k], 2e-4 * kSy);
      EXPECT_NEAR(sf[kJ2PlaneAlpha], sd[kJ2PlaneAlpha], 1e-6);
    }
  EXPECT_GT(sd[kJ2PlaneAlpha], 0.01);
}

}  // namespace
}  // namespace halfstep
