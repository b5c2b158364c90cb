// The yielding FPM triangle (elements/fpm_tri.hpp with a *PLASTIC section): the incremental
// point update against the total-strain plane-stress return on the same strain path; one
// triangle stretched equibiaxially in many steps against the closed form (stress, PEEQ, the
// internal work with the dissipation in it); a yielded triangle turned rigidly keeps its
// stresses and PEEQ and turns its forces; a rigid spin of a virgin plastic triangle gives no
// force.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "elements/fpm_tri.hpp"

namespace halfstep {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kE = 200e3, kNu = 0.3, kSy = 250, kH = 10e3, kT = 0.1;

/// J2 with sigma_y = 250 + H alpha (E = 200e3, nu = 0.3).
SolidMaterial<double> law() {
  SolidMaterial<double> m;
  m.model = law_id<J2Plastic>;
  m.lambda = kE * kNu / ((1 + kNu) * (1 - 2 * kNu));
  m.mu = kE / (2 * (1 + kNu));
  m.hardening_points = 2;
  m.yield_stress[0] = kSy;
  m.yield_strain[0] = 0;
  m.yield_stress[1] = kSy + kH;
  m.yield_strain[1] = 1;
  return m;
}

TriConstants<double> plastic_section(int points = 5) {
  const SolidMaterial<double> m = law();
  return make_tri_section(kT, kE, kNu, points, &m);
}

/// One plastic triangle's state in a plain vector (stride 1).
struct OneTri {
  TriConstants<double> sec;
  Vec3<double> X[3];
  std::vector<double> state;
  TriStateRef<double> ref() { return {state.data(), 1}; }
  OneTri(const TriConstants<double>& s, Vec3<double> a, Vec3<double> b, Vec3<double> c)
      : sec(s), state(static_cast<std::size_t>(tri_state_size(s.section_points, true)), 0.0) {
    X[0] = a;
    X[1] = b;
    X[2] = c;
    const Vec3<double> n = normalized(cross(b - a, c - a));
    tri_initial_state(b - a, c - a, shell_default_e1(n), tri_state_size(s.section_points, true), ref());
  }
  /// Evaluates with node positions x and node rotations r (from the reference).
  TriForces<double> at(const Vec3<double> x[3], const Mat3<double> r[3]) {
    TriNodes<double> nd;
    nd.edge0[0] = X[1] - X[0];
    nd.edge0[1] = X[2] - X[0];
    for (int k = 0; k < 3; ++k) {
      nd.u[k] = x[k] - X[k];
      nd.t1[k] = column(r[k], 0);
      nd.d[k] = column(r[k], 2);
    }
    return fpm_tri_update(sec, nd, ref());
  }
  /// Positions x with unrotated nodes.
  TriForces<double> at(const Vec3<double> x[3]) {
    const Mat3<double> r[3] = {scaled_identity(1.0), scaled_identity(1.0), scaled_identity(1.0)};
    return at(x, r);
  }
  double stress(int p, int k, int i) const { return state[tri_stress_at(sec.section_points, p, k) + i]; }
  double alpha(int p, int k) const { return state[tri_alpha_at(sec.section_points, p, k)]; }
};

double largest(const TriForces<double>& f) {
  double m = 0;
  for (int k = 0; k < 3; ++k) m = std::fmax(m, std::fmax(norm(f.f[k]), norm(f.m[k])));
  return m;
}

// The triangle carries stress, not plastic strain: sigma_n + C d_eps is the trial stress of
// the additive split in the DCS. On a fixed frame that is the total-strain return of MITC4
// (stress C (eps - eps_p)) along the same increments: a non-proportional path through
// yield, shear at yield, and unloading.
TEST(FpmTriPlastic, PointUpdateIsTheTotalStrainReturn) {
  const TriConstants<double> sec = plastic_section();
  const SolidMaterial<double> m = law();
  double sig[3] = {0, 0, 0}, alpha = 0, eps[3] = {0, 0, 0};
  double state[kJ2PlaneStateSize] = {0, 0, 0, 0, 0};
  const double legs[3][3] = {{4e-3, -1e-3, 0}, {0, 1e-3, 6e-3}, {-5e-3, 0, -2e-3}};
  double worst = 0, worst_alpha = 0;
  for (const auto& leg : legs)
    for (int i = 0; i < 50; ++i) {
      const double de[3] = {leg[0] / 50, leg[1] / 50, leg[2] / 50};
      double out[3];
      tri_point_stress(sec, sig, de, out, alpha);
      for (int c = 0; c < 3; ++c) {
        sig[c] = out[c];
        eps[c] += de[c];
      }
      const J2PlaneResult<double> r = j2_plane_stress_update(m, eps, state, state);
      for (int c = 0; c < 3; ++c) worst = std::fmax(worst, std::fabs(sig[c] - r.stress[c]));
      worst_alpha = std::fmax(worst_alpha, std::fabs(alpha - state[kJ2PlaneAlpha]));
    }
  std::printf("incremental vs total-strain return: stress %.3g, alpha %.3g, final alpha %.4g\n", worst, worst_alpha,
              alpha);
  EXPECT_GT(alpha, 5e-3);                  // the path did yield
  EXPECT_LT(worst, 1e-10 * kSy);           // round-off of 150 increments (measured below 1e-11)
  EXPECT_LT(worst_alpha, 1e-13);
}

// Equibiaxial stretch x = (1 + d) X in 400 steps: the CST increments are (d - d_a) / (1 + d_a)
// on both axes (no rotation), so every point carries their sum eps (within 1e-5 of
// ln(1 + d): the increments are linear in each step) equibiaxially. Plane-stress equibiaxial
// J2: sigma_11 = sigma_22 = sigma = q, eps_p = alpha / 2 per axis, so
// eps = (1 - nu) sigma / E + (sigma - sy) / (2 H) past yield. The internal work is
// t integral sigma dA over the path: 2 sigma A0 (1 + d) t dd.
TEST(FpmTriPlastic, EquibiaxialStretchMatchesTheClosedForm) {
  OneTri t(plastic_section(), {0, 0, 0}, {1.3, 0.2, 0}, {0.4, 1.1, 0});
  const double dmax = 0.02;
  const int steps = 400;
  const double area0 = 0.5 * norm(cross(t.X[1] - t.X[0], t.X[2] - t.X[0]));
  const auto closed = [](double e) {
    const double s = kE / (1 - kNu) * e;
    return s <= kSy ? s : (e + kSy / (2 * kH)) / ((1 - kNu) / kE + 1 / (2 * kH));
  };
  double eps = 0;
  for (int i = 1; i <= steps; ++i) {
    const double d = dmax * i / steps, da = dmax * (i - 1) / steps;
    const Vec3<double> x[3] = {(1 + d) * t.X[0], (1 + d) * t.X[1], (1 + d) * t.X[2]};
    t.at(x);
    eps += (d - da) / (1 + da);
  }
  const double sigma = closed(eps), alpha = (sigma - kSy) / kH;
  ASSERT_GT(alpha, 0.01);
  double worst = 0, worst_alpha = 0;
  for (int p = 0; p < kTriPoints; ++p)
    for (int k = 0; k < 5; ++k) {
      worst = std::fmax(worst, std::fmax(std::fabs(t.stress(p, k, 0) - sigma), std::fabs(t.stress(p, k, 1) - sigma)));
      worst = std::fmax(worst, std::fabs(t.stress(p, k, 2)));
      worst_alpha = std::fmax(worst_alpha, std::fabs(t.alpha(p, k) - alpha));
    }
  std::printf("equibiaxial: sigma %.6g (closed %.6g), stress error %.3g, alpha error %.3g\n", t.stress(0, 0, 0), sigma,
              worst, worst_alpha);
  // The increments' logarithm is exact to round-off and the radial return is exact on a
  // proportional path: round-off (measured below 1e-12 sigma).
  EXPECT_LT(worst, 1e-10 * sigma);
  EXPECT_LT(worst_alpha, 1e-12 * alpha);
  EXPECT_NEAR(tri_peeq(t.sec, t.ref()), alpha, 1e-12 * alpha);
  // Work: integral of 2 sigma(ln(1 + d)) A0 (1 + d) t dd by Simpson on a fine grid (the
  // path's strain is the logarithm to the first order of the steps, like the work's area).
  const int n = 20000;
  double work = 0;
  for (int i = 0; i <= n; ++i) {
    const double d = dmax * i / n, w = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
    work += w * 2 * closed(std::log1p(d)) * area0 * (1 + d) * kT;
  }
  work *= dmax / n / 3;
  // The element books each step's trapezoid on the area at its start (first order in the
  // step's area change): measured 2.3e-5 relative.
  std::printf("work %.8g, closed form %.8g (relative %.3g)\n", t.state[kTriWork], work, t.state[kTriWork] / work - 1);
  EXPECT_NEAR(t.state[kTriWork], work, 1e-4 * work);
  // The dissipation is the hardening work sy alpha + H alpha^2 / 2 over the reference volume.
  const double diss = area0 * kT * (kSy * alpha + 0.5 * kH * alpha * alpha);
  EXPECT_NEAR(tri_dissipation(t.sec, t.ref(), area0), diss, 1e-10 * diss);
}

// A triangle yielded by stretch, shear and bending in one step (every section point flows),
// then turned rigidly by 90 degrees about a skew axis in 90 steps: stresses, PEEQ and the work
// stay, the forces turn with the body.
TEST(FpmTriPlastic, YieldedTriangleTurnedRigidlyKeepsStressAndPeeq) {
  OneTri t(plastic_section(), {0, 0, 0}, {1, 0.1, 0}, {0.3, 0.9, 0});
  const Vec3<double> x[3] = {{0, 0, 0}, {1.004, 0.1, 0.001}, {0.303, 0.905, -0.002}};
  const Mat3<double> r[3] = {rotation_matrix(Vec3<double>{0.01, 0.02, -0.003}),
                             rotation_matrix(Vec3<double>{-0.02, 0.01, 0.004}),
                             rotation_matrix(Vec3<double>{0.03, -0.01, 0.0})};
  const TriForces<double> f0 = t.at(x, r);
  const std::vector<double> s0 = t.state;
  int flowing = 0;
  for (int p = 0; p < kTriPoints; ++p)
    for (int k = 0; k < 5; ++k) flowing += t.alpha(p, k) > 0;
  ASSERT_EQ(flowing, 15);
  const double peeq0 = tri_peeq(t.sec, t.ref());
  const Vec3<double> axis = normalized(Vec3<double>{1, 2, 3});
  TriForces<double> f;
  Mat3<double> q;
  for (int i = 1; i <= 90; ++i) {
    q = rotation_matrix((kPi / 2 * i / 90) * axis);
    const Vec3<double> xr[3] = {q * x[0], q * x[1], q * x[2]};
    const Mat3<double> rr[3] = {q * r[0], q * r[1], q * r[2]};
    f = t.at(xr, rr);
  }
  double dev = 0, adev = 0;
  const int nz = t.sec.section_points;
  for (int p = 0; p < kTriPoints; ++p)
    for (int k = 0; k < nz; ++k) {
      for (int i = 0; i < 3; ++i)
        dev = std::fmax(dev, std::fabs(t.stress(p, k, i) - s0[static_cast<std::size_t>(tri_stress_at(nz, p, k) + i)]));
      adev = std::fmax(adev, std::fabs(t.alpha(p, k) - s0[static_cast<std::size_t>(tri_alpha_at(nz, p, k))]));
    }
  double fdev = 0;
  for (int k = 0; k < 3; ++k) fdev = std::fmax(fdev, std::fmax(norm(f.f[k] - q * f0.f[k]), norm(f.m[k] - q * f0.m[k])));
  std::printf("yielded, rotated: stress change %.3g, alpha change %.3g (PEEQ %.4g), force change %.3g of %.3g\n", dev,
              adev, peeq0, fdev, largest(f0));
  // Round-off of 90 increments on points at the yield surface (measured below 1e-12 sy).
  EXPECT_LT(dev, 1e-10 * kSy);
  EXPECT_LT(adev, 1e-14);
  EXPECT_NEAR(tri_peeq(t.sec, t.ref()), peeq0, 1e-14);
  // The work sums 90 increments' round-off: 1.2e-12 of it since rotate() adds its two small
  // terms before w (and forms 1 - cos with the half angle); below 1e-12 before, by luck.
  EXPECT_NEAR(t.state[kTriWork], s0[kTriWork], 3e-12 * s0[kTriWork]);
  EXPECT_LT(fdev, 1e-10 * largest(f0));
}

TEST(FpmTriPlastic, RigidSpinOfAVirginTriangleGivesNoForce) {
  OneTri t(plastic_section(), {0.2, -0.1, 0.4}, {1.1, 0.3, 0.1}, {0.5, 0.9, -0.2});
  const Vec3<double> axis = normalized(Vec3<double>{0.3, 0.8, 0.5});
  double worst = 0;
  for (int i = 1; i <= 720; ++i) {
    const double s = i / 720.0;
    const Mat3<double> r = rotation_matrix((2 * kPi * s) * axis);
    Vec3<double> x[3];
    for (int k = 0; k < 3; ++k) x[k] = t.X[0] + Vec3<double>{3.0 * s, -s, 0.5 * s * s} + r * (t.X[k] - t.X[0]);
    const Mat3<double> rr[3] = {r, r, r};
    worst = std::fmax(worst, largest(t.at(x, rr)));
  }
  // Force scale E t l = 2e4: round-off only (the elastic element's test measures 1e-12 of 10).
  EXPECT_LT(worst, 1e-8);
  EXPECT_EQ(tri_peeq(t.sec, t.ref()), 0.0);
}

}  // namespace
}  // namespace halfstep

namespace halfstep {
namespace {

// Seed 003's split GPU scheme runs the triangle's three phases as separate kernels: the
// kinematics' increment goes through a store, the stress points run in any order, the forces
// sum the points' work in point order. On a yielding path (stretch, bending, a rigid turn)
// that must reproduce fpm_tri_update bit for bit, for a plastic and an elastic section (the
// elastic one also through the elastic-only instantiation).
void expect_split_equals_fused(const TriConstants<double>& sec, bool plastic) {
  OneTri a(sec, {0, 0, 0}, {1, 0.1, 0}, {0.3, 0.9, 0});
  OneTri b = a;
  std::vector<double> store(kTriIncrementValues), work(static_cast<std::size_t>(tri_stress_points(sec)));
  double largest_force = 0, worst = 0;
  for (int i = 1; i <= 30; ++i) {
    const double s = 0.004 * i, c = 0.02 * i;
    const Mat3<double> q = rotation_matrix(Vec3<double>{0.01 * i, -0.02 * i, 0.015 * i});
    const Vec3<double> xs[3] = {{0, 0, 0}, {1 + s, 0.1, 0.5 * c}, {0.3, 0.9 + s, -0.4 * c}};
    Vec3<double> x[3];
    Mat3<double> r[3];
    for (int k = 0; k < 3; ++k) {
      x[k] = q * xs[k];
      r[k] = q * rotation_matrix(Vec3<double>{(k - 1) * c, 0.5 * c, 0.0});
    }
    TriNodes<double> nd;
    nd.edge0[0] = a.X[1] - a.X[0];
    nd.edge0[1] = a.X[2] - a.X[0];
    for (int k = 0; k < 3; ++k) {
      nd.u[k] = x[k] - a.X[k];
      nd.t1[k] = column(r[k], 0);
      nd.d[k] = column(r[k], 2);
    }
    const TriForces<double> fa = plastic ? fpm_tri_update(a.sec, nd, a.ref()) : fpm_tri_update<double, false>(a.sec, nd, a.ref());
    store_tri_increment(StridedState<double>{store.data(), 1}, tri_kinematics(nd, b.ref()));
    const TriIncrement<double> inc = load_tri_increment(StridedState<double>{store.data(), 1});
    const int points = tri_stress_points(sec);
    for (int j = points - 1; j >= 0; --j) work[static_cast<std::size_t>(j)] = tri_stress_point_update(sec, b.ref(), j, inc);
    double w = 0;
    for (int j = 0; j < points; ++j) w = w + work[static_cast<std::size_t>(j)];
    const TriForces<double> fb = tri_forces(sec, b.ref(), inc, w);
    for (int k = 0; k < 3; ++k) {
      largest_force = std::fmax(largest_force, std::fmax(norm(fa.f[k]), norm(fa.m[k])));
      worst = std::fmax(worst, std::fmax(norm(fa.f[k] - fb.f[k]), norm(fa.m[k] - fb.m[k])));
    }
    for (std::size_t v = 0; v < a.state.size(); ++v) ASSERT_EQ(a.state[v], b.state[v]) << "increment " << i << ", state " << v;
  }
  ASSERT_GT(largest_force, 1.0);
  EXPECT_EQ(worst, 0.0);
  if (plastic) {
    EXPECT_GT(a.alpha(0, 0), 0.0);  // the path yields
  }
}

TEST(FpmTriSplit, PhasesRunApartReproduceTheFusedUpdateOfAYieldingSection) {
  expect_split_equals_fused(plastic_section(), true);
}

TEST(FpmTriSplit, PhasesRunApartReproduceTheFusedUpdateOfAnElasticSection) {
  expect_split_equals_fused(make_tri_section(kT, kE, kNu, 5), false);
}

}  // namespace
}  // namespace halfstep
