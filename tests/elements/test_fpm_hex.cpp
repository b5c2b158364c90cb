// The FPM hexahedron (src/elements/fpm_hex.hpp), driven increment by increment through its
// state like the explicit pass drives it: a rigid spin of 360 degrees in small increments
// (no force, no stress, to round-off), a stretch into the plastic range followed by a rigid
// 90 degree rotation (the stress turns with the body, PEEQ and work stay), the constant-strain
// patch test on a distorted patch, the small-strain agreement with the total-Lagrangian C3D8
// (to first order in the strain), the virgin-store conventions and a float instantiation.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "elements/registry.hpp"
#include "elements/rotation.hpp"

namespace halfstep {
namespace {

using V3 = Vec3<double>;
constexpr int kState = fpm_detail::kPointStateSize;

/// The distorted hexahedron of test_solid_kinds.cpp.
void distorted(V3 X[8]) {
  const double base[8][3] = {{0, 0, 0},       {2.1, 0.1, -0.1}, {2.3, 1.9, 0.2}, {-0.2, 2.0, 0.0},
                             {0.1, -0.1, 1.5}, {2.0, 0.2, 1.8},  {2.4, 2.2, 1.6}, {0.0, 1.8, 1.9}};
  for (int a = 0; a < 8; ++a) X[a] = {base[a][0], base[a][1], base[a][2]};
}

/// Steel-like J2 (E 210e3, nu 0.3, yield 250 + H alpha) or its elastic part.
SolidMaterial<double> steel(bool plastic, double H = 2000) {
  if (!plastic) return svk_isotropic(210e3, 0.3, 7.8e-9);
  const double stress[2] = {250, 250 + H}, strain[2] = {0, 1};
  return j2_plastic(210e3, 0.3, 7.8e-9, stress, strain, 2);
}

/// One element's state store (8 points, kState components, stride 8), in place like the pass.
struct Store {
  std::vector<double> v = std::vector<double>(static_cast<std::size_t>(kState) * 8, 0.0);
  ElementState<double> state() { return {v.data(), v.data(), 8, 0}; }
  ElementState<double> read() const { return {v.data(), nullptr, 8, 0}; }
  double peeq(int g) const { return v[static_cast<std::size_t>(kJ2Alpha) * 8 + static_cast<std::size_t>(g)]; }
};

double max_abs(const V3 f[8]) {
  double m = 0;
  for (int a = 0; a < 8; ++a) m = std::max({m, std::fabs(f[a].x), std::fabs(f[a].y), std::fabs(f[a].z)});
  return m;
}

double max_abs(const Mat3<double>& s) {
  double m = 0;
  for (double v : s.a) m = std::max(m, std::fabs(v));
  return m;
}

/// Displacements that map X to c + M X.
void motion(const V3 X[8], const Mat3<double>& M, V3 c, V3 u[8]) {
  for (int a = 0; a < 8; ++a) u[a] = c + M * X[a] - X[a];
}

// A virgin element spun once round an oblique axis in 720 increments, translating as well:
// every increment's forces and the stress stay at round-off, the frame returns to the
// reference and no work is done.
TEST(FpmHex, RigidSpinOf360DegreesGivesNoForceAndNoStress) {
  V3 X[8], u[8], f[8];
  distorted(X);
  for (bool plastic : {false, true}) {
    const SolidMaterial<double> m = steel(plastic);
    Store s;
    double fmax = 0;
    const int n = 720;
    for (int k = 1; k <= n; ++k) {
      const Mat3<double> R = rotation_matrix((2 * M_PI * k / n) * normalized(V3{1, 2, 3}));
      motion(X, R, V3{0.01 * k, -0.02 * k, 0.005 * k}, u);
      const SolidEnergy<double> w = FpmC3D8::internal_force(X, u, m, 0.0, f, s.state());
      fmax = std::max(fmax, max_abs(f));
      EXPECT_LT(std::fabs(w.strain), 1e-9) << k;
    }
    // Force scale of a unit strain: E times a face area of about 4. Measured: largest force
    // 3.4e-10 (4e-16 of it), stress 4e-11 (2e-16 E) and strain 2.5e-16 after the 720 increments.
    EXPECT_LT(fmax, 1e-14 * 210e3 * 4) << plastic;
    const SolidOutput<double> out = FpmC3D8::centroid_output(X, u, m, s.read());
    EXPECT_LT(max_abs(out.cauchy), 1e-14 * 210e3);
    EXPECT_LT(max_abs(out.green), 1e-14);
    const Mat3<double> Q = fpm_detail::frame_of(s.read());
    EXPECT_LT(max_abs(Q - scaled_identity(1.0)), 1e-12);
    for (int g = 0; g < 8; ++g) EXPECT_EQ(s.peeq(g), 0.0);
  }
}

// Stretched into the plastic range in 40 increments, then turned rigidly by 90 degrees about an
// oblique axis in 90 increments: the Cauchy stress becomes R sigma R^T, PEEQ, the convected
// strain and the work do not change.
TEST(FpmHex, StressTurnsWithTheBodyAndPlasticStateStays) {
  V3 X[8], u[8], f[8];
  distorted(X);
  const SolidMaterial<double> m = steel(true);
  Store s;
  Mat3<double> U = scaled_identity(1.0);
  U(0, 0) = 1.004, U(1, 1) = 0.9985, U(2, 2) = 0.999, U(0, 1) = U(1, 0) = 0.0008;
  double work = 0;
  for (int k = 1; k <= 40; ++k) {
    motion(X, scaled_identity(1.0) + (k / 40.0) * (U - scaled_identity(1.0)), V3{0, 0, 0}, u);
    work = FpmC3D8::internal_force(X, u, m, 0.0, f, s.state()).strain;
  }
  const SolidOutput<double> before = FpmC3D8::centroid_output(X, u, m, s.read());
  std::vector<double> peeq(8);
  for (int g = 0; g < 8; ++g) peeq[g] = s.peeq(g);
  ASSERT_GT(peeq[0], 1e-4);
  const V3 axis = normalized(V3{-1, 2, 0.5});
  for (int k = 1; k <= 90; ++k) {
    motion(X, rotation_matrix((0.5 * M_PI * k / 90) * axis) * U, V3{0, 0, 0}, u);
    EXPECT_NEAR(FpmC3D8::internal_force(X, u, m, 0.0, f, s.state()).strain, work, 1e-11 * work);
  }
  const Mat3<double> R = rotation_matrix(0.5 * M_PI * axis);
  const SolidOutput<double> after = FpmC3D8::centroid_output(X, u, m, s.read());
  const Mat3<double> turned = R * before.cauchy * transpose(R), eps = R * before.green * transpose(R);
  const double smax = max_abs(before.cauchy);
  ASSERT_GT(smax, 250.0);
  for (int k = 0; k < 9; ++k) {
    EXPECT_NEAR(after.cauchy.a[k], turned.a[k], 1e-10 * smax);
    EXPECT_NEAR(after.green.a[k], eps.a[k], 1e-12);
  }
  for (int g = 0; g < 8; ++g) EXPECT_NEAR(s.peeq(g), peeq[g], 1e-14);
}

// A 2x2x2 patch of distorted elements moved by a linear field u = t A X in 10 increments (A
// with a rotation part): every element carries the same stress at every increment and the
// interior node's force vanishes. For a symmetric A in one increment the stress is C : A
// exactly (the pure deformation of a symmetric stretch has no rotation).
TEST(FpmHex, ConstantStrainPatchOnADistortedMesh) {
  std::vector<V3> nodes;
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) nodes.push_back({double(i), double(j), double(k)});
  nodes[13] = {1.17, 0.86, 1.09};  // the interior node
  nodes[4] = {1.1, 0.9, 0.0}, nodes[10] = {0.9, 0.0, 1.15}, nodes[22] = {1.2, 0.95, 2.0};
  std::vector<std::vector<int>> elems;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i) {
        std::vector<int> e(8);
        for (int a = 0; a < 8; ++a)
          e[a] = (i + (hex8_sign(a, 0) > 0)) + 3 * (j + (hex8_sign(a, 1) > 0)) + 9 * (k + (hex8_sign(a, 2) > 0));
        elems.push_back(e);
      }
  const SolidMaterial<double> m = steel(false);
  Mat3<double> A = scaled_identity(0.0);
  A(0, 0) = 1e-3, A(1, 1) = -4e-4, A(2, 2) = 2e-4, A(0, 1) = 3e-4, A(1, 0) = -2e-3, A(1, 2) = 5e-4, A(2, 0) = 8e-4;
  for (bool symmetric : {true, false}) {
    const Mat3<double> G = symmetric ? fpm_detail::sym(A) : A;
    const int steps = symmetric ? 1 : 10;
    std::vector<Store> st(elems.size());
    for (int k = 1; k <= steps; ++k) {
      V3 interior{0, 0, 0};
      double fscale = 0;
      std::vector<Mat3<double>> stress;
      for (std::size_t e = 0; e < elems.size(); ++e) {
        V3 X[8], u[8], f[8];
        for (int a = 0; a < 8; ++a) {
          X[a] = nodes[elems[e][a]];
          u[a] = (double(k) / steps) * (G * X[a]);
        }
        FpmC3D8::internal_force(X, u, m, 0.0, f, st[e].state());
        fscale = std::max(fscale, max_abs(f));
        for (int a = 0; a < 8; ++a)
          if (elems[e][a] == 13) interior += f[a];
        stress.push_back(FpmC3D8::centroid_output(X, u, m, st[e].read()).cauchy);
      }
      ASSERT_GT(fscale, 1.0);
      EXPECT_LT(std::max({std::fabs(interior.x), std::fabs(interior.y), std::fabs(interior.z)}), 1e-12 * fscale);
      for (const Mat3<double>& s : stress)
        for (int i = 0; i < 9; ++i) EXPECT_NEAR(s.a[i], stress[0].a[i], 1e-11 * max_abs(stress[0]));
    }
    if (symmetric) {
      V3 X[8], u[8];
      for (int a = 0; a < 8; ++a) {
        X[a] = nodes[elems[0][a]];
        u[a] = G * X[a];
      }
      const Mat3<double> s = FpmC3D8::centroid_output(X, u, m, st[0].read()).cauchy;
      const Mat3<double> exact = fpm_detail::elastic_stress(m, G);
      for (int i = 0; i < 9; ++i) EXPECT_NEAR(s.a[i], exact.a[i], 1e-11 * max_abs(exact));
    }
  }
}

/// Largest force difference between the FPM hexahedron (one increment from the reference)
/// and the total-Lagrangian C3D8, relative to the largest C3D8 force, at displacements
/// scale * r (r fixed, random in [-1, 1]).
double difference_from_c3d8(const SolidMaterial<double>& m, double scale) {
  V3 X[8], u[8], f[8], g[8];
  distorted(X);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> r(-1.0, 1.0);
  for (int a = 0; a < 8; ++a) u[a] = {scale * r(rng), scale * r(rng), scale * r(rng)};
  Store s;
  FpmC3D8::internal_force(X, u, m, 0.0, f, s.state());
  C3D8::internal_force(X, u, m, 0.0, g);
  double d = 0;
  for (int a = 0; a < 8; ++a) d = std::max(d, norm(f[a] - g[a]));
  return d / max_abs(g);
}

// Small strain: the two formulations share the linearised (B-bar = linearised F-bar)
// stiffness, so their forces differ at second order in the displacement, i.e. relatively by
// O(strain): measured 1.708 times the displacement scale from 1e-6 to 1e-3 (1.694 at 1e-2).
TEST(FpmHex, SmallStrainAgreesWithC3D8ToFirstOrder) {
  const SolidMaterial<double> m = steel(false);
  for (double scale : {1e-6, 1e-5, 1e-4, 1e-3}) {
    const double d = difference_from_c3d8(m, scale);
    EXPECT_GT(d, 1.0 * scale);
    EXPECT_LT(d, 3.0 * scale);
  }
  EXPECT_NEAR(difference_from_c3d8(m, 1e-3) / difference_from_c3d8(m, 1e-4), 10.0, 0.05);
}

// Without a store the element is evaluated from the reference in one increment (what the
// model build's operator and output see); the same call with a virgin store agrees and fills
// it. Lumped masses and the stable increment are the C3D8's.
TEST(FpmHex, VirginStoreAndTheC3D8Facts) {
  V3 X[8], u[8], f[8], g[8];
  distorted(X);
  for (int a = 0; a < 8; ++a) u[a] = {1e-3 * a, -2e-3 * (a % 3), 5e-4 * (a % 2)};
  const SolidMaterial<double> m = steel(true, 500);
  Store s;
  const double w0 = FpmC3D8::internal_force(X, u, m, 0.0, f).strain;
  const double w1 = FpmC3D8::internal_force(X, u, m, 0.0, g, s.state()).strain;
  EXPECT_EQ(w0, w1);
  for (int a = 0; a < 8; ++a) EXPECT_EQ(norm(f[a] - g[a]), 0.0);
  const SolidOutput<double> a0 = FpmC3D8::centroid_output(X, u, m), a1 = FpmC3D8::centroid_output(X, u, m, s.read());
  for (int k = 0; k < 9; ++k) EXPECT_EQ(a0.cauchy.a[k], a1.cauchy.a[k]);
  // A second call at the same displacements is a zero increment: nothing changes.
  const std::vector<double> before = s.v;
  EXPECT_EQ(FpmC3D8::internal_force(X, u, m, 0.0, g, s.state()).strain, w1);
  for (std::size_t i = 0; i < before.size(); ++i) EXPECT_NEAR(s.v[i], before[i], 1e-15) << i;
  double fa[8], fb[8];
  EXPECT_EQ(FpmC3D8::mass_fractions(X, fa), C3D8::mass_fractions(X, fb));
  for (int a = 0; a < 8; ++a) EXPECT_EQ(fa[a], fb[a]);
  EXPECT_EQ(FpmC3D8::stable_dt(X, m), C3D8::stable_dt(X, m));
}

// The registry maps (C3D8, FPM) to this kind and never finds it by TYPE= alone.
TEST(FpmHex, RegistryFindsItOnlyThroughTheFormulation) {
  const int fpm = find_element_kind("C3D8", "FPM");
  ASSERT_GE(fpm, 0);
  EXPECT_STREQ(element_kind(fpm).formulation, "FPM");
  EXPECT_EQ(element_kind(fpm).points, 8);
  EXPECT_NE(find_element_kind("C3D8"), fpm);
  EXPECT_EQ(find_element_kind("C3D8", ""), find_element_kind("C3D8"));
  EXPECT_EQ(find_element_kind("C3D4", "FPM"), -1);
  EXPECT_TRUE(is_element_formulation("FPM"));
  EXPECT_FALSE(is_element_formulation("VFIFE"));
  EXPECT_EQ(supported_element_names().find("FPM"), std::string::npos);
  EXPECT_EQ(point_state_size<FpmC3D8>(steel(false)), kState);
  EXPECT_EQ(point_state_size<C3D8>(steel(true)), kJ2StateSize);
}

// FP32 follows FP64 through 1000 increments of plastic deformation and rotation (0.5 rad):
// measured 5.8e-6 of the largest force, the same after 10 or 10000 increments (with R - I
// formed from R, the strain increments lost digits to 1 - cos: 3.6e-3 after 1000).
TEST(FpmHex, FloatAgreesWithDoubleWithoutDrift) {
  V3 X[8], u[8], f[8];
  Vec3<float> Xf[8], uf[8], ff[8];
  distorted(X);
  const SolidMaterial<double> m = steel(true, 500);
  const SolidMaterial<float> mf = material_as<float>(m);
  Store s;
  std::vector<float> vf(static_cast<std::size_t>(kState) * 8, 0.0f);
  const ElementState<float> sf{vf.data(), vf.data(), 8, 0};
  Mat3<double> U = scaled_identity(1.0);
  U(0, 0) = 1.003, U(1, 2) = U(2, 1) = 0.001;
  const int n = 1000;
  for (int k = 1; k <= n; ++k) {
    motion(X, rotation_matrix((0.5 * k / n) * V3{0, 0, 1}) * (scaled_identity(1.0) + (double(k) / n) * (U - scaled_identity(1.0))),
           V3{0, 0, 0}, u);
    FpmC3D8::internal_force(X, u, m, 0.0, f, s.state());
    for (int a = 0; a < 8; ++a) {
      Xf[a] = {float(X[a].x), float(X[a].y), float(X[a].z)};
      uf[a] = {float(u[a].x), float(u[a].y), float(u[a].z)};
    }
    FpmC3D8::internal_force(Xf, uf, mf, 0.0f, ff, sf);
  }
  const double scale = max_abs(f);
  for (int a = 0; a < 8; ++a) {
    EXPECT_NEAR(ff[a].x, f[a].x, 3e-5 * scale);
    EXPECT_NEAR(ff[a].y, f[a].y, 3e-5 * scale);
    EXPECT_NEAR(ff[a].z, f[a].z, 3e-5 * scale);
  }
}

}  // namespace
}  // namespace halfstep

#include "discretization/fpm_hex_pass.hpp"

namespace halfstep {
namespace {

// Seed 003's split GPU scheme runs the FPM hexahedron as three kernels: per element the frame
// and every Gauss point's strain increment (into the increment store), per Gauss point the
// stress (into the result store), per element the forces. Through the same pass functions and
// stores the kernels use, on a distorted element driven along a path that stretches, shears
// and turns it, that must reproduce the fused pass (continuum_element) bit for bit: forces,
// energies and every value of the state; the Gauss points run in reverse order to show that
// they are independent.
void expect_hex_split_equals_fused(const SolidMaterial<double>& m, bool yields) {
  V3 X[8];
  distorted(X);
  std::vector<double> x0(8), y0(8), z0(8), ux(8), uy(8), uz(8);
  for (int a = 0; a < 8; ++a) {
    x0[static_cast<std::size_t>(a)] = X[a].x;
    y0[static_cast<std::size_t>(a)] = X[a].y;
    z0[static_cast<std::size_t>(a)] = X[a].z;
  }
  const int conn[8] = {0, 1, 2, 3, 4, 5, 6, 7}, material = 0;
  Store fused, split;
  double energy[2] = {0, 0}, hourglass[2] = {0, 0};
  const auto view = [&](Store& s, int e) {
    return ContinuumView<double>{conn, &material, &m, 0.0, x0.data(), y0.data(), z0.data(),
                                 energy + e, hourglass + e, s.v.data(), 8};
  };
  std::vector<double> fa(24), fb(24), increment(kHexIncrementValues), result(kHexResultValues);
  const HexSplitStore<double> store{increment.data(), result.data(), 1};
  double largest_force = 0;
  for (int i = 1; i <= 40; ++i) {
    const double s = 0.0006 * i;
    const Mat3<double> stretch{{1 + s, 0.4 * s, 0, 0.1 * s, 1 - 0.3 * s, 0.2 * s, 0, 0, 1 + 0.5 * s}};
    const Mat3<double> M = rotation_matrix(Vec3<double>{0.02 * i, -0.01 * i, 0.03 * i}) * stretch;
    V3 u[8];
    motion(X, M, V3{0.01 * i, 0, -0.02 * i}, u);
    for (int a = 0; a < 8; ++a) {
      ux[static_cast<std::size_t>(a)] = u[a].x;
      uy[static_cast<std::size_t>(a)] = u[a].y;
      uz[static_cast<std::size_t>(a)] = u[a].z;
    }
    const ContinuumView<double> va = view(fused, 0), vb = view(split, 1);
    SlotSink<double> sa{fa.data()}, sb{fb.data()};
    const SolidEnergy<double> ea = continuum_element<FpmC3D8>(va, ux.data(), uy.data(), uz.data(), 0, 0, sa, 0);
    hex_split_kinematics(vb, ux.data(), uy.data(), uz.data(), 0, 0, store, 0);
    for (int g = 7; g >= 0; --g) hex_split_point(vb, 0, 0, store, 0, g);
    const SolidEnergy<double> eb = hex_split_forces(vb, ux.data(), uy.data(), uz.data(), 0, 0, sb, 0, store, 0);
    for (std::size_t k = 0; k < fa.size(); ++k) {
      ASSERT_EQ(fa[k], fb[k]) << "increment " << i << ", force " << k;
      largest_force = std::max(largest_force, std::fabs(fa[k]));
    }
    ASSERT_EQ(ea.strain, eb.strain) << "increment " << i;
    ASSERT_EQ(ea.dissipation, eb.dissipation) << "increment " << i;
    ASSERT_EQ(energy[0], energy[1]);
    for (std::size_t k = 0; k < fused.v.size(); ++k) ASSERT_EQ(fused.v[k], split.v[k]) << "increment " << i << ", state " << k;
  }
  ASSERT_GT(largest_force, 100.0);
  if (yields) {
    EXPECT_GT(fused.peeq(0), 1e-4);  // the path yields
  } else {
    EXPECT_EQ(fused.peeq(0), 0.0);
  }
}

TEST(FpmHexSplit, PhasesRunApartReproduceTheFusedUpdateOnAYieldingPath) {
  expect_hex_split_equals_fused(steel(true), true);
}

TEST(FpmHexSplit, PhasesRunApartReproduceTheFusedUpdateOfAnElasticElement) {
  expect_hex_split_equals_fused(steel(false), false);
}

// An element inverted in configuration "a" gives NaN forces and energy in both, and the split
// pass then leaves the point state as the fused one does (untouched).
TEST(FpmHexSplit, InvertedElementGivesNaNAndKeepsTheState) {
  V3 X[8];
  distorted(X);
  std::vector<double> x0(8), y0(8), z0(8), ux(8, 0.0), uy(8, 0.0), uz(8, 0.0);
  for (int a = 0; a < 8; ++a) {
    x0[static_cast<std::size_t>(a)] = X[a].x;
    y0[static_cast<std::size_t>(a)] = X[a].y;
    z0[static_cast<std::size_t>(a)] = X[a].z;
  }
  const SolidMaterial<double> m = steel(true);
  const int conn[8] = {0, 1, 2, 3, 4, 5, 6, 7}, material = 0;
  Store s;
  // Configuration "a": the top face pushed through the bottom one.
  for (int a = 4; a < 8; ++a) s.v[static_cast<std::size_t>(fpm_detail::kElement + (fpm_detail::kNodesA + 3 * a + 2) / 8) * 8 +
                                  static_cast<std::size_t>((fpm_detail::kNodesA + 3 * a + 2) % 8)] = -4.0;
  const std::vector<double> before = s.v;
  double energy = 0, hourglass = 0;
  const ContinuumView<double> v{conn, &material, &m, 0.0, x0.data(), y0.data(), z0.data(), &energy, &hourglass, s.v.data(), 8};
  std::vector<double> f(24), increment(kHexIncrementValues), result(kHexResultValues, 0.0);
  const HexSplitStore<double> store{increment.data(), result.data(), 1};
  SlotSink<double> sink{f.data()};
  hex_split_kinematics(v, ux.data(), uy.data(), uz.data(), 0, 0, store, 0);
  for (int g = 0; g < 8; ++g) hex_split_point(v, 0, 0, store, 0, g);
  const SolidEnergy<double> e = hex_split_forces(v, ux.data(), uy.data(), uz.data(), 0, 0, sink, 0, store, 0);
  EXPECT_TRUE(std::isnan(e.strain));
  EXPECT_TRUE(std::isnan(f[0]));
  for (std::size_t k = 0; k < s.v.size(); ++k) ASSERT_EQ(s.v[k], before[k]) << "state " << k;
}

}  // namespace
}  // namespace halfstep
