// Bulk viscosity (elements/bulk_viscosity.hpp): no force and no power for rigid motions, the
// closed-form pressure of a uniformly compressed or expanded cube (current density and
// length included), power = f . v >= 0, and the collapsed hexahedra of C3D4 and C3D6 with
// those elements' volumes and exact volume gradients.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "discretization/continuum_element.hpp"
#include "elements/bulk_viscosity.hpp"
#include "elements/rotation.hpp"
#include "elements/solid_hex.hpp"
#include "elements/solid_tet.hpp"
#include "elements/solid_wedge.hpp"

namespace halfstep {
namespace {

const SolidMaterial<double> kMat = svk_isotropic(1000.0, 0.3, 2.0);
// The P-wave modulus lambda + 2 mu of kMat.
const double kM = 1000.0 * 0.7 / (1.3 * 0.4);

/// A cube of side h centred at the origin (hex8_sign's corner order).
void cube(double h, Vec3<double> X[8]) {
  for (int a = 0; a < 8; ++a) X[a] = {0.5 * h * hex8_sign(a, 0), 0.5 * h * hex8_sign(a, 1), 0.5 * h * hex8_sign(a, 2)};
}

/// A distorted hexahedron.
void distorted(Vec3<double> X[8]) {
  const double base[8][3] = {{0, 0, 0}, {2.1, 0.1, -0.1}, {2.3, 1.9, 0.2}, {-0.2, 2.0, 0.0},
                             {0.1, -0.1, 1.5}, {2.0, 0.2, 1.8}, {2.4, 2.2, 1.6}, {0.0, 1.8, 1.9}};
  for (int a = 0; a < 8; ++a) X[a] = {base[a][0], base[a][1], base[a][2]};
}

TEST(BulkViscosity, RigidMotionsCarryNoForceAndDissipateNothing) {
  Vec3<double> X[8], x[8], v[8], f[8];
  distorted(X);
  const Mat3<double> R = rotation_matrix(Vec3<double>{0.3, -0.5, 0.8});
  const Vec3<double> w{2.0, -1.0, 3.0}, t{0.5, 0.2, -0.7};
  for (int a = 0; a < 8; ++a) {
    x[a] = R * X[a] + t;
    v[a] = cross(w, x[a]) + Vec3<double>{1.0, -4.0, 2.5};
    f[a] = {0, 0, 0};
  }
  const double power = add_bulk_viscosity(X, x, v, kMat, 0.06, 1.2, f);
  EXPECT_NEAR(power, 0.0, 1e-12);
  for (int a = 0; a < 8; ++a) EXPECT_NEAR(norm(f[a]), 0.0, 1e-12);
}

// A cube of side h squeezed to s h with v = r x: eps_dot = 3 r, L_e = s h, rho = rho0 / s^3;
// q = b1 sqrt(rho M) L eps_dot - rho (b2 L eps_dot)^2 in compression, on corner a
// f_a = q dV/dx_a = q (s h)^2 / 4 (+-1, +-1, +-1).
TEST(BulkViscosity, UniformRateGivesTheClosedFormPressure) {
  const double h = 0.5, b1 = 0.06, b2 = 1.2;
  for (const double s : {1.0, 0.9}) {
    for (const double r : {-3.0, 2.0}) {
      Vec3<double> X[8], x[8], v[8], f[8];
      cube(h, X);
      for (int a = 0; a < 8; ++a) {
        x[a] = s * X[a];
        v[a] = r * x[a];
        f[a] = {0, 0, 0};
      }
      const double rho = 2.0 / (s * s * s), length = s * h, rate = 3 * r;
      double q = b1 * std::sqrt(rho * kM) * length * rate;
      if (rate < 0) q -= rho * (b2 * length * rate) * (b2 * length * rate);
      const double power = add_bulk_viscosity(X, x, v, kMat, b1, b2, f);
      const double area = length * length / 4;
      for (int a = 0; a < 8; ++a) {
        EXPECT_NEAR(f[a].x, q * area * hex8_sign(a, 0), 1e-12 * std::fabs(q)) << "s " << s << " r " << r;
        EXPECT_NEAR(f[a].y, q * area * hex8_sign(a, 1), 1e-12 * std::fabs(q));
        EXPECT_NEAR(f[a].z, q * area * hex8_sign(a, 2), 1e-12 * std::fabs(q));
      }
      // The power is q V eps_dot, positive both ways.
      EXPECT_NEAR(power, q * std::pow(length, 3) * rate, 1e-12 * std::fabs(power));
      EXPECT_GT(power, 0);
    }
  }
}

TEST(BulkViscosity, PowerIsTheForcesWorkRateAndNeverNegative) {
  Vec3<double> X[8], x[8];
  distorted(X);
  for (int a = 0; a < 8; ++a) x[a] = X[a] + Vec3<double>{0.05 * a, -0.03 * a * a / 8.0, 0.02};
  unsigned seed = 7;
  const auto next = [&seed] {
    seed = seed * 1103515245u + 12345u;
    return static_cast<double>((seed >> 8) % 2001) / 1000.0 - 1.0;
  };
  for (int trial = 0; trial < 20; ++trial) {
    Vec3<double> v[8], f[8];
    for (int a = 0; a < 8; ++a) {
      v[a] = {next(), next(), next()};
      f[a] = {0, 0, 0};
    }
    const double power = add_bulk_viscosity(X, x, v, kMat, 0.06, 1.2, f);
    double work = 0;
    for (int a = 0; a < 8; ++a) work += dot(f[a], v[a]);
    EXPECT_NEAR(power, work, 1e-12 * (std::fabs(power) + 1e-12));
    EXPECT_GE(power, 0);
  }
  // No coefficients, no force.
  Vec3<double> v[8], f[8];
  for (int a = 0; a < 8; ++a) {
    v[a] = {1.0 * a, 0, 0};
    f[a] = {0, 0, 0};
  }
  EXPECT_EQ(add_bulk_viscosity(X, x, v, kMat, 0.0, 0.0, f), 0.0);
  for (int a = 0; a < 8; ++a) EXPECT_EQ(norm(f[a]), 0.0);
}

/// Volume of kind K's element X through its collapsed hexahedron, and the gradient per
/// element node (the corners that share a node summed).
template <class K>
double collapsed_volume(const Vec3<double> (&X)[K::kNodes], Vec3<double> (&grad)[K::kNodes]) {
  Vec3<double> H[8], g[8];
  for (int k = 0; k < 8; ++k) H[k] = X[K::hex_corner(k)];
  const double v = hex8_volume_gradient(H, g);
  for (int a = 0; a < K::kNodes; ++a) grad[a] = {0, 0, 0};
  for (int k = 0; k < 8; ++k) grad[K::hex_corner(k)] += (1.0 / 8.0) * g[k];
  return v;
}

/// Checks the collapsed volume against the kind's own and its gradient against differences.
template <class K>
void check_collapsed(const Vec3<double> (&X)[K::kNodes]) {
  Vec3<double> grad[K::kNodes];
  double frac[K::kNodes];
  const double v = collapsed_volume<K>(X, grad);
  EXPECT_NEAR(v, K::mass_fractions(X, frac), 1e-13) << K::name();
  const double d = 1e-6;
  for (int a = 0; a < K::kNodes; ++a)
    for (int i = 0; i < 3; ++i) {
      Vec3<double> Xp[K::kNodes], Xm[K::kNodes], unused[K::kNodes];
      for (int b = 0; b < K::kNodes; ++b) Xp[b] = Xm[b] = X[b];
      double* cp = i == 0 ? &Xp[a].x : i == 1 ? &Xp[a].y : &Xp[a].z;
      double* cm = i == 0 ? &Xm[a].x : i == 1 ? &Xm[a].y : &Xm[a].z;
      *cp += d;
      *cm -= d;
      const double fd = (collapsed_volume<K>(Xp, unused) - collapsed_volume<K>(Xm, unused)) / (2 * d);
      const double g = i == 0 ? grad[a].x : i == 1 ? grad[a].y : grad[a].z;
      EXPECT_NEAR(g, fd, 1e-8) << K::name() << " node " << a << " axis " << i;
    }
}

TEST(BulkViscosity, CollapsedHexahedraHaveTheElementsVolumes) {
  const Vec3<double> tet[4] = {{0.1, 0, 0}, {1.2, 0.1, 0}, {0.3, 0.9, 0.1}, {0.4, 0.3, 1.1}};
  check_collapsed<C3D4>(tet);
  const Vec3<double> wedge[6] = {{0, 0, 0}, {1.1, 0.1, 0}, {0.2, 0.9, 0.05}, {0.05, 0, 1.2}, {1.0, 0.1, 1.1}, {0.3, 1.0, 1.0}};
  check_collapsed<C3D6>(wedge);
  EXPECT_TRUE(TakesBulkViscosity<C3D8R>::value);
  EXPECT_TRUE(TakesBulkViscosity<C3D8>::value);
  EXPECT_FALSE(TakesBulkViscosity<C3D10M>::value);
}

// The stable increment's factor for a mode damped by b1 of critical: 1 without, and
// sqrt(1 + b1^2) - b1.
TEST(BulkViscosity, IncrementFactor) {
  EXPECT_EQ(bulk_viscosity_dt_factor(0.0), 1.0);
  EXPECT_NEAR(bulk_viscosity_dt_factor(0.06), 0.9417983829, 1e-9);
  EXPECT_NEAR(bulk_viscosity_dt_factor(1.0), std::sqrt(2.0) - 1.0, 1e-15);
}

// continuum_element adds the same forces to a C3D8R's and hands back the power; without
// velocities (static steps) or coefficients, nothing.
TEST(BulkViscosity, ContinuumElementAddsItForTheKindsThatTakeIt) {
  Vec3<double> X[8];
  distorted(X);
  double x0[8], y0[8], z0[8], ux[8], uy[8], uz[8], vx[8], vy[8], vz[8];
  for (int a = 0; a < 8; ++a) {
    x0[a] = X[a].x, y0[a] = X[a].y, z0[a] = X[a].z;
    ux[a] = 0.01 * a, uy[a] = -0.02, uz[a] = 0.005 * a * a;
    vx[a] = -0.3 * X[a].x, vy[a] = 0.1 * a, vz[a] = -0.2;
  }
  const int conn[8] = {0, 1, 2, 3, 4, 5, 6, 7}, material[1] = {0};
  double energy[1], hourglass[1];
  ContinuumView<double> v{conn, material, &kMat, 0.1, x0, y0, z0, energy, hourglass};
  const double* vel[3] = {vx, vy, vz};
  struct Collect {
    Vec3<double> f[8];
    void operator()(int slot, int, const Vec3<double>& g) { f[slot] = g; }
  };
  Collect plain, viscous;
  const SolidEnergy<double> w0 = continuum_element<C3D8R>(v, ux, uy, uz, 0, 0, plain, 0, vel);
  EXPECT_EQ(w0.viscous, 0.0);
  v.bulk_linear = 0.06;
  v.bulk_quadratic = 1.2;
  const SolidEnergy<double> w1 = continuum_element<C3D8R>(v, ux, uy, uz, 0, 0, viscous, 0, vel);
  Vec3<double> x[8], vn[8], f[8];
  for (int a = 0; a < 8; ++a) {
    x[a] = X[a] + Vec3<double>{ux[a], uy[a], uz[a]};
    vn[a] = {vx[a], vy[a], vz[a]};
    f[a] = plain.f[a];
  }
  const double power = add_bulk_viscosity(X, x, vn, kMat, 0.06, 1.2, f);
  EXPECT_GT(power, 0);
  EXPECT_NEAR(w1.viscous, power, 1e-12 * power);
  EXPECT_EQ(w1.strain, w0.strain);
  for (int a = 0; a < 8; ++a) EXPECT_NEAR(norm(viscous.f[a] - f[a]), 0.0, 1e-12 * norm(f[a]));
  Collect none;
  EXPECT_EQ(continuum_element<C3D8R>(v, ux, uy, uz, 0, 0, none, 0, static_cast<const double* const*>(nullptr)).viscous, 0.0);
}

// A spinning element: the chord velocities v^(n-1/2) = (x^n - x^(n-1)) / dt of a rigid
// rotation are a rigid velocity field about the midpoint configuration (half_dt = dt / 2),
// so no volume rate and no force; about x^n they would show a spurious rate of order w^2 dt.
TEST(BulkViscosity, SpinningElementsDissipateNothingAtTheMidpoint) {
  Vec3<double> X[8];
  distorted(X);
  const double dt = 0.01;
  const Vec3<double> w{3.0, -2.0, 5.0};
  const Mat3<double> R0 = rotation_matrix(Vec3<double>{0.2, 0.1, -0.3}), R1 = rotation_matrix(dt * w) * R0;
  double x0[8], y0[8], z0[8], ux[8], uy[8], uz[8], vx[8], vy[8], vz[8];
  for (int a = 0; a < 8; ++a) {
    const Vec3<double> prev = R0 * X[a], now = R1 * X[a], u = now - X[a], vel = (1.0 / dt) * (now - prev);
    x0[a] = X[a].x, y0[a] = X[a].y, z0[a] = X[a].z;
    ux[a] = u.x, uy[a] = u.y, uz[a] = u.z;
    vx[a] = vel.x, vy[a] = vel.y, vz[a] = vel.z;
  }
  const int conn[8] = {0, 1, 2, 3, 4, 5, 6, 7}, material[1] = {0};
  double energy[1], hourglass[1];
  ContinuumView<double> v{conn, material, &kMat, 0.1, x0, y0, z0, energy, hourglass};
  v.bulk_linear = 0.06;
  v.bulk_quadratic = 1.2;
  const double* vel[3] = {vx, vy, vz};
  struct Ignore {
    void operator()(int, int, const Vec3<double>&) const {}
  } sink;
  const double at_end = continuum_element<C3D8R>(v, ux, uy, uz, 0, 0, sink, 0, vel).viscous;
  v.half_dt = dt / 2;
  const double at_mid = continuum_element<C3D8R>(v, ux, uy, uz, 0, 0, sink, 0, vel).viscous;
  std::printf("spinning C3D8R: bulk viscosity power %.3g about x^n, %.3g about the midpoint\n", at_end, at_mid);
  EXPECT_GT(at_end, 1e-6);
  EXPECT_LT(at_mid, 1e-10 * at_end);
}

}  // namespace
}  // namespace halfstep
