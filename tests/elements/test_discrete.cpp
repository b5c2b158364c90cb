// T3D2 trusses, springs and dashpots (elements/truss.hpp, elements/discrete.hpp): rigid
// motions carry no force, the truss's Green-Lagrange axial law in closed form and its
// small-strain stiffness E A / L, forces as the energy gradient, dual-number tangents against
// finite differences, the stable increments, and the dashpots' forces and dissipation.
#include <gtest/gtest.h>

#include <cmath>

#include "core/dual.hpp"
#include "elements/registry.hpp"
#include "materials/material_tangent.hpp"

namespace halfstep {
namespace {

using V3 = Vec3<double>;
using D = autodiff::Dual<double>;

constexpr double kE = 210e3, kA = 12.5, kRho = 7.8e-9;

/// A truss material: E = 210e3 (nu = 0.3 only sets the Lame pair), area kA.
SolidMaterial<double> truss_material() {
  SolidMaterial<double> m = svk_isotropic(kE, 0.3, kRho);
  m.thickness = kA;
  return m;
}

/// A discrete element's "material": value and 0-based dofs.
SolidMaterial<double> discrete_material(double value, int dof1 = 0, int dof2 = 0) {
  SolidMaterial<double> m;
  m.discrete = value;
  m.dof1 = dof1;
  m.dof2 = dof2;
  return m;
}

/// Rotation by angle about the unit axis n (Rodrigues).
V3 rotate(const V3& x, const V3& n, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  return c * x + s * cross(n, x) + ((1 - c) * dot(n, x)) * n;
}

const V3* const kNoVelocity = nullptr;  ///< output without velocities
const V3 kX[2] = {{0.3, -1.2, 0.7}, {2.1, 0.4, 1.9}};  // an oblique bar

TEST(Truss, RigidMotionCarriesNoForce) {
  const SolidMaterial<double> m = truss_material();
  const V3 axis = normalized(V3{1.0, 2.0, -0.5}), t{3.0, -1.0, 0.25};
  V3 u[2], f[2];
  for (int a = 0; a < 2; ++a) u[a] = rotate(kX[a], axis, 1.1) + t - kX[a];
  const SolidEnergy<double> w = T3D2::internal_force(kX, u, m, 0.0, f);
  EXPECT_NEAR(w.strain, 0.0, 1e-18 * kE * kA);
  for (int a = 0; a < 2; ++a) EXPECT_NEAR(norm(f[a]), 0.0, 1e-9 * kE * kA * 1e-6);
  EXPECT_NEAR(T3D2::axial_force(kX, u, m, kNoVelocity), 0.0, 1e-9);
}

TEST(Truss, GreenLagrangeAxialLawInClosedForm) {
  // Stretch lambda along the bar, then turn it: N = A E (lambda^2 - 1)/2 lambda along the
  // current chord; the energy A L E ((lambda^2 - 1)/2)^2 / 2.
  const SolidMaterial<double> m = truss_material();
  const V3 D0 = kX[1] - kX[0];
  const double L = norm(D0), lambda = 1.3;
  const V3 axis = normalized(V3{0.0, 1.0, 1.0});
  V3 u[2], f[2];
  u[0] = {0.5, 0.1, -0.2};
  u[1] = u[0] + rotate(lambda * D0, axis, 0.7) - D0;
  const SolidEnergy<double> w = T3D2::internal_force(kX, u, m, 0.0, f);
  const double E = (lambda * lambda - 1) / 2, N = kA * kE * E * lambda;
  EXPECT_NEAR(w.strain, 0.5 * kA * L * kE * E * E, 1e-12 * w.strain);
  EXPECT_NEAR(norm(f[1]), N, 1e-12 * N);
  EXPECT_NEAR(dot(f[1], rotate(D0, axis, 0.7)) / L, N, 1e-12 * N);  // along the current chord
  EXPECT_NEAR(norm(f[0] + f[1]), 0.0, 1e-12 * N);
  EXPECT_NEAR(T3D2::axial_force(kX, u, m, kNoVelocity), N, 1e-12 * N);
  const SolidOutput<double> o = T3D2::centroid_output(kX, u, m);
  EXPECT_NEAR(o.cauchy(0, 0) + o.cauchy(1, 1) + o.cauchy(2, 2), N / kA, 1e-12 * N / kA);  // trace = sigma
  EXPECT_NEAR(o.green(0, 0) + o.green(1, 1) + o.green(2, 2), E, 1e-14);
}

TEST(Truss, SmallStrainStiffnessIsEAoverL) {
  const SolidMaterial<double> m = truss_material();
  const V3 D0 = kX[1] - kX[0];
  const double L = norm(D0), delta = 1e-7 * L;
  V3 u[2] = {{0, 0, 0}, (delta / L) * D0}, f[2];
  T3D2::internal_force(kX, u, m, 0.0, f);
  // N = A E (e + e^2 / 2)(1 + e): the relative error of the linear estimate is 3 e / 2.
  EXPECT_NEAR(norm(f[1]) / delta, kE * kA / L, 2e-7 * kE * kA / L);
}

TEST(Truss, ForcesAreTheEnergyGradientAndTheDualTangentMatches) {
  const SolidMaterial<double> m = truss_material();
  const SolidMaterial<D> md = dual_material(m);
  const V3 u0[2] = {{0.02, -0.05, 0.01}, {0.3, 0.1, -0.2}};
  V3 f[2];
  T3D2::internal_force(kX, u0, m, 0.0, f);
  const double h = 1e-6;
  for (int a = 0; a < 2; ++a)
    for (int i = 0; i < 3; ++i) {
      V3 up[2] = {u0[0], u0[1]}, um[2] = {u0[0], u0[1]}, fp[2], fm[2];
      double* cp = i == 0 ? &up[a].x : i == 1 ? &up[a].y : &up[a].z;
      double* cm = i == 0 ? &um[a].x : i == 1 ? &um[a].y : &um[a].z;
      *cp += h;
      *cm -= h;
      const double wp = T3D2::internal_force(kX, up, m, 0.0, fp).strain;
      const double wm = T3D2::internal_force(kX, um, m, 0.0, fm).strain;
      const double fi = i == 0 ? f[a].x : i == 1 ? f[a].y : f[a].z;
      EXPECT_NEAR((wp - wm) / (2 * h), fi, 1e-6 * std::abs(fi) + 1e-3);
      // Column (a, i) of the tangent by dual numbers against the force difference.
      Vec3<D> Xd[2], ud[2], fd[2];
      for (int b = 0; b < 2; ++b) {
        Xd[b] = {D(kX[b].x), D(kX[b].y), D(kX[b].z)};
        ud[b] = {D(u0[b].x, b == a && i == 0), D(u0[b].y, b == a && i == 1), D(u0[b].z, b == a && i == 2)};
      }
      T3D2::internal_force(Xd, ud, md, D(0.0), fd);
      for (int b = 0; b < 2; ++b) {
        const V3 fdiff = (1 / (2 * h)) * (fp[b] - fm[b]);
        EXPECT_NEAR(fd[b].x.d, fdiff.x, 1e-6 * kE * kA / norm(kX[1] - kX[0]));
        EXPECT_NEAR(fd[b].y.d, fdiff.y, 1e-6 * kE * kA / norm(kX[1] - kX[0]));
        EXPECT_NEAR(fd[b].z.d, fdiff.z, 1e-6 * kE * kA / norm(kX[1] - kX[0]));
      }
    }
}

TEST(Truss, StableIncrementIsLengthOverWaveSpeedAndMassIsHalfEach) {
  const SolidMaterial<double> m = truss_material();
  const double L = norm(kX[1] - kX[0]), c = std::sqrt(kE / kRho);
  EXPECT_NEAR(T3D2::stable_dt(kX, m), L / c, 1e-14 * L / c);
  // The free bar's one non-zero frequency with masses rho A L / 2: omega^2 = 2 k / m_node.
  const double k = kE * kA / L, mn = kRho * kA * L / 2;
  EXPECT_NEAR(T3D2::stable_dt(kX, m), 2 / std::sqrt(2 * k / mn), 1e-14 * L / c);
  double frac[2];
  EXPECT_DOUBLE_EQ(T3D2::mass_fractions(kX, frac), L);
  EXPECT_EQ(frac[0], 0.5);
  EXPECT_EQ(frac[1], 0.5);
  const V3 same[2] = {kX[0], kX[0]};
  EXPECT_EQ(T3D2::mass_fractions(same, frac), 0.0);
  EXPECT_EQ(T3D2::stable_dt(same, m), 0.0);
}

TEST(Spring, SpringARigidMotionAndStretch) {
  const SolidMaterial<double> m = discrete_material(40.0);
  const V3 axis = normalized(V3{-1.0, 0.5, 2.0});
  V3 u[2], f[2];
  for (int a = 0; a < 2; ++a) u[a] = rotate(kX[a], axis, 2.0) + V3{1, 2, 3} - kX[a];
  EXPECT_NEAR(SPRINGA::internal_force(kX, u, m, 0.0, f).strain, 0.0, 1e-20);
  EXPECT_NEAR(norm(f[0]) + norm(f[1]), 0.0, 1e-12);
  // Stretched by 0.25 along a turned line: force 40 x 0.25 along it, energy k s^2 / 2.
  const V3 D0 = kX[1] - kX[0];
  const double L = norm(D0);
  u[0] = {0, 0, 0};
  u[1] = ((L + 0.25) / L) * rotate(D0, axis, 0.3) - D0;
  const SolidEnergy<double> w = SPRINGA::internal_force(kX, u, m, 0.0, f);
  EXPECT_NEAR(w.strain, 0.5 * 40 * 0.0625, 1e-12);
  EXPECT_NEAR(norm(f[1]), 10.0, 1e-12);
  EXPECT_NEAR(dot(f[1], rotate(D0, axis, 0.3)) / L, 10.0, 1e-12);
  EXPECT_NEAR(norm(f[0] + f[1]), 0.0, 1e-12);
  EXPECT_NEAR(SPRINGA::axial_force(kX, u, m, kNoVelocity), 10.0, 1e-12);
}

TEST(Spring, OneAndTwoDofSprings) {
  const SolidMaterial<double> m1 = discrete_material(5.0, 1);  // SPRING1 in y
  V3 u1[1] = {{0.3, -0.2, 0.7}}, f1[1];
  const SolidEnergy<double> w1 = SPRING1::internal_force(kX, u1, m1, 0.0, f1);
  EXPECT_DOUBLE_EQ(f1[0].y, -1.0);
  EXPECT_EQ(f1[0].x, 0.0);
  EXPECT_EQ(f1[0].z, 0.0);
  EXPECT_DOUBLE_EQ(w1.strain, 0.5 * 5 * 0.04);
  // SPRING2 between z of node 1 and x of node 2: s = u1_z - u2_x.
  const SolidMaterial<double> m2 = discrete_material(3.0, 2, 0);
  V3 u2[2] = {{0.0, 0.0, 0.5}, {0.2, 9.0, 9.0}}, f2[2];
  const SolidEnergy<double> w2 = SPRING2::internal_force(kX, u2, m2, 0.0, f2);
  EXPECT_DOUBLE_EQ(f2[0].z, 0.9);
  EXPECT_DOUBLE_EQ(f2[1].x, -0.9);
  EXPECT_EQ(f2[0].x + f2[0].y + f2[1].y + f2[1].z, 0.0);
  EXPECT_NEAR(w2.strain, 0.5 * 3 * 0.09, 1e-15);
  EXPECT_DOUBLE_EQ(SPRING2::axial_force(kX, u2, m2, kNoVelocity), 0.9);
  // Same dof on both nodes: a rigid translation carries no force.
  const SolidMaterial<double> m3 = discrete_material(3.0, 1, 1);
  V3 t[2] = {{0.4, 0.7, -0.1}, {0.4, 0.7, -0.1}};
  EXPECT_EQ(SPRING2::internal_force(kX, t, m3, 0.0, f2).strain, 0.0);
  EXPECT_EQ(f2[0].y, 0.0);
}

TEST(Spring, StableIncrementsFromTheNodalMasses) {
  const double m[2] = {2.0, 3.0};
  EXPECT_DOUBLE_EQ(SPRINGA::nodal_mass_dt(discrete_material(60.0), m), 2 / std::sqrt(60.0 * (0.5 + 1.0 / 3)));
  EXPECT_DOUBLE_EQ(SPRING1::nodal_mass_dt(discrete_material(8.0), m), 2 / std::sqrt(8.0 / 2.0));
  EXPECT_DOUBLE_EQ(DASHPOTA::nodal_mass_dt(discrete_material(6.0), m), 2 / (6.0 * (0.5 + 1.0 / 3)));
  EXPECT_DOUBLE_EQ(DASHPOT1::nodal_mass_dt(discrete_material(6.0), m), 2 * 2.0 / 6.0);
  const double massless[2] = {2.0, 0.0};
  // A massless node counts as ground (it must be held).
  EXPECT_DOUBLE_EQ(SPRING2::nodal_mass_dt(discrete_material(1.0), massless), 2 / std::sqrt(1.0 / 2.0));
}

TEST(Spring, NonlinearTableForceEnergyAndIncrement) {
  // Force against relative displacement (-1, -10), (0, 0), (1, 10), (2, 15), continued along
  // the end segments beyond the table.
  SolidMaterial<double> m = discrete_material(0.0, 0);
  const double F[4] = {-10, 0, 10, 15}, s[4] = {-1, 0, 1, 2};
  m.hardening_points = 4;
  for (int k = 0; k < 4; ++k) m.yield_stress[k] = F[k], m.yield_strain[k] = s[k];
  const struct {
    double s, force, energy;
  } cases[] = {{1.5, 12.5, 5 + 5.625}, {3.0, 20.0, 5 + 12.5 + 17.5}, {-0.5, -5.0, 1.25}, {-2.0, -20.0, 20.0}, {0.0, 0.0, 0.0}};
  for (const auto& c : cases) {
    V3 u[1] = {{c.s, 0, 0}}, f[1];
    const SolidEnergy<double> w = SPRING1::internal_force(kX, u, m, 0.0, f);
    EXPECT_NEAR(f[0].x, c.force, 1e-13) << c.s;
    EXPECT_NEAR(w.strain, c.energy, 1e-13) << c.s;
    // The force is the energy's derivative (central difference inside a segment).
    V3 up[1] = {{c.s + 1e-6, 0, 0}}, um[1] = {{c.s - 1e-6, 0, 0}};
    if (c.s != 0.0) {
      EXPECT_NEAR((SPRING1::internal_force(kX, up, m, 0.0, f).strain - SPRING1::internal_force(kX, um, m, 0.0, f).strain) / 2e-6,
                  c.force, 1e-6);
    }
  }
  // SPRINGA with the table: the force follows the length change.
  const V3 D0 = kX[1] - kX[0];
  V3 u2[2] = {{0, 0, 0}, (1.5 / norm(D0)) * D0}, f2[2];
  SPRINGA::internal_force(kX, u2, m, 0.0, f2);
  EXPECT_NEAR(norm(f2[1]), 12.5, 1e-12);
  // The stable increment takes the steepest segment (10).
  const double mass[1] = {2.0};
  EXPECT_DOUBLE_EQ(SPRING1::nodal_mass_dt(m, mass), 2 / std::sqrt(10.0 / 2.0));
}

TEST(Dashpot, ForcesFromVelocitiesAndDissipation) {
  // DASHPOTA: only the relative velocity along the line counts.
  const SolidMaterial<double> m = discrete_material(2.0);
  const V3 D0 = kX[1] - kX[0], n = normalized(D0), side = normalized(cross(D0, V3{0, 0, 1}));
  const V3 u[2] = {{0, 0, 0}, {0, 0, 0}};
  V3 v[2] = {{0, 0, 0}, 0.5 * n + 3.0 * side}, f[2];
  DASHPOTA::internal_force(kX, u, m, 0.0, f, {}, v);
  EXPECT_NEAR(dot(f[1], n), 1.0, 1e-14);
  EXPECT_NEAR(norm(f[1] - n), 0.0, 1e-14);
  EXPECT_NEAR(norm(f[0] + f[1]), 0.0, 1e-14);
  EXPECT_NEAR(DASHPOTA::axial_force(kX, u, m, v), 1.0, 1e-14);
  // No velocities (static steps): no force.
  DASHPOTA::internal_force(kX, u, m, 0.0, f);
  EXPECT_EQ(norm(f[1]), 0.0);
  // DASHPOT1 in z with its state: the dissipation grows by f . du between evaluations.
  const SolidMaterial<double> m1 = discrete_material(4.0, 2);
  double store[4] = {0, 0, 0, 0};  // dissipation, then u of the node (one point: stride 1)
  const ElementState<double> st{store, store, 1, 0};
  V3 u1[1] = {{0, 0, 0.1}}, v1[1] = {{7.0, 7.0, 0.5}}, f1[1];
  SolidEnergy<double> w = DASHPOT1::internal_force(kX, u1, m1, 0.0, f1, st, v1);
  EXPECT_DOUBLE_EQ(f1[0].z, 2.0);
  EXPECT_EQ(f1[0].x, 0.0);
  EXPECT_NEAR(w.strain, 2.0 * 0.1, 1e-15);
  EXPECT_NEAR(w.dissipation, w.strain, 0.0);
  u1[0].z = 0.15;
  w = DASHPOT1::internal_force(kX, u1, m1, 0.0, f1, st, v1);
  EXPECT_NEAR(w.strain, 0.2 + 2.0 * 0.05, 1e-15);
  EXPECT_DOUBLE_EQ(store[3], 0.15);
  // DASHPOT2 between x of node 1 and y of node 2.
  const SolidMaterial<double> m2 = discrete_material(3.0, 0, 1);
  V3 v2[2] = {{1.0, 0, 0}, {0, 0.25, 0}}, f2[2];
  DASHPOT2::internal_force(kX, u, m2, 0.0, f2, {}, v2);
  EXPECT_DOUBLE_EQ(f2[0].x, 2.25);
  EXPECT_DOUBLE_EQ(f2[1].y, -2.25);
}

TEST(DiscreteRegistry, KindsAreRegisteredWithTheirFacts) {
  for (const char* name : {"T3D2", "SPRINGA", "SPRING1", "SPRING2", "DASHPOTA", "DASHPOT1", "DASHPOT2"}) {
    const int k = find_element_kind(name);
    ASSERT_GE(k, 0) << name;
    EXPECT_EQ(element_kind(k).family, ElementFamily::Continuum);
    EXPECT_EQ(element_kind(k).dofs_per_node, 3);
  }
  EXPECT_TRUE(element_kind(find_element_kind("T3D2")).cross_section);
  EXPECT_EQ(element_kind(find_element_kind("SPRING1")).discrete, 1);
  EXPECT_EQ(element_kind(find_element_kind("SPRING1")).nodes, 1);
  EXPECT_EQ(element_kind(find_element_kind("DASHPOT2")).discrete, 2);
  EXPECT_EQ(element_kind(find_element_kind("DASHPOT2")).discrete_dofs, 2);
  EXPECT_EQ(element_kind(find_element_kind("SPRINGA")).discrete_dofs, 0);
}

}  // namespace
}  // namespace halfstep
