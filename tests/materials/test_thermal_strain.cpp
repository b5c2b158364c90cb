// Thermal strain (*EXPANSION, materials/material_law.hpp thermal_stress): a body free to
// expand by alpha dtheta carries no stress under every law, also when it turns; held, it
// carries C alpha dtheta; stresses stay objective; the thermal strain's derivative (what a
// linear step's forces take) is -C alpha; orthotropic expansion acts along the axes; the
// energy's temperature slope (the explicit balance's thermal work) is dW/dtheta.
#include <gtest/gtest.h>

#include <cmath>

#include "core/dual.hpp"
#include "materials/material_duals.hpp"
#include "materials/material_law.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {
namespace {

constexpr double kE = 200e3, kNu = 0.3, kAlpha = 1.2e-5, kDtheta = 50.0;

Mat3<double> rotation(double angle) {  // about (1, 2, 2) / 3
  const double n[3] = {1.0 / 3, 2.0 / 3, 2.0 / 3}, c = std::cos(angle), s = std::sin(angle);
  Mat3<double> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const double cross = (i == j) ? 0.0 : ((j == (i + 1) % 3) ? -n[3 - i - j] : n[3 - i - j]);
      r(i, j) = c * (i == j) + (1 - c) * n[i] * n[j] + s * cross;
    }
  return r;
}

/// The laws under test, each with isotropic expansion alpha.
std::vector<SolidMaterial<double>> laws() {
  std::vector<SolidMaterial<double>> m;
  m.push_back(svk_isotropic(kE, kNu, 7.8e-9));
  const double sy[2] = {250.0, 400.0}, ep[2] = {0.0, 0.2};
  m.push_back(j2_plastic(kE, kNu, 7.8e-9, sy, ep, 2));
  m.push_back(neo_hookean(kE / (4 * (1 + kNu)), 6 * (1 - 2 * kNu) / kE, 7.8e-9));
  m.push_back(neo_hookean_log(kE / (4 * (1 + kNu)), 6 * (1 - 2 * kNu) / kE, 7.8e-9));
  for (auto& x : m)
    for (double& a : x.expansion) a = kAlpha;
  return m;
}

double max_abs(const Mat3<double>& s) {
  double m = 0;
  for (double v : s.a) m = std::max(m, std::fabs(v));
  return m;
}

TEST(ThermalStrain, FreeExpansionTurnedAnyWayCarriesNoStress) {
  const double l = 1 + kAlpha * kDtheta;
  for (const auto& m : laws()) {
    double state[16] = {};
    const StateSlice<double> slice(state, 1);
    for (double angle : {0.0, 0.7, 2.5}) {
      const Mat3<double> F = l * rotation(angle);
      const SolidStress<double> r = thermal_stress(m, F, kDtheta, StateSlice<const double>(slice), slice);
      EXPECT_LT(max_abs(r.S), 1e-9 * kE * kAlpha * kDtheta) << "law " << m.model << " angle " << angle;
      EXPECT_LT(std::fabs(r.energy), 1e-13 * kE) << "law " << m.model;  // the laws' own round-off at a rotation
    }
  }
}

TEST(ThermalStrain, HeldBodyCarriesTheClosedFormStress) {
  // F = I: sigma = -3 K alpha dtheta I to first order (K the bulk modulus), for every law.
  const double bulk = kE / (3 * (1 - 2 * kNu)), eps = kAlpha * kDtheta;
  for (const auto& m : laws()) {
    const SolidStress<double> r = thermal_stress(m, scaled_identity(1.0), kDtheta, {}, {});
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(r.S(i, i), -3 * bulk * eps, 3 * 3 * bulk * eps * eps) << "law " << m.model;
    EXPECT_NEAR(r.S(0, 1), 0.0, 1e-9 * bulk * eps);
    // The energy held: 9 K eps^2 / 2 to first order.
    EXPECT_NEAR(r.energy, 4.5 * bulk * eps * eps, 5 * 4.5 * bulk * eps * eps * eps) << "law " << m.model;
  }
}

TEST(ThermalStrain, StressIsObjective) {
  const Mat3<double> F{{1.01, 0.02, -0.003, 0.004, 0.995, 0.01, 0.0, -0.02, 1.003}};
  for (const auto& m : laws()) {
    const SolidStress<double> a = thermal_stress(m, F, kDtheta, {}, {});
    const SolidStress<double> b = thermal_stress(m, rotation(1.1) * F, kDtheta, {}, {});
    for (int k = 0; k < 9; ++k) EXPECT_NEAR(a.S.a[k], b.S.a[k], 1e-10 * max_abs(a.S)) << "law " << m.model;
  }
}

TEST(ThermalStrain, TemperatureDerivativeIsMinusCAlpha) {
  // Dual in dtheta at F = I, dtheta = 0: dS/dtheta = -C : alpha I = -3 K alpha I, what a
  // geometrically linear step's thermal forces take; also matched by a central difference.
  const double bulk = kE / (3 * (1 - 2 * kNu));
  for (const auto& m : laws()) {
    using D = Dual<double>;
    const SolidMaterial<D> md = dual_material(m);
    const SolidStress<D> r = thermal_stress(md, scaled_identity(D(1.0)), D(0.0, 1.0), {}, {});
    const double h = 1e-3;
    const SolidStress<double> p = thermal_stress(m, scaled_identity(1.0), h, {}, {});
    const SolidStress<double> q = thermal_stress(m, scaled_identity(1.0), -h, {}, {});
    for (int k = 0; k < 9; ++k) {
      const double expect = (k % 4 == 0) ? -3 * bulk * kAlpha : 0.0;
      EXPECT_NEAR(r.S.a[k].d, expect, 1e-9 * bulk * kAlpha) << "law " << m.model << " k " << k;
      EXPECT_NEAR(r.S.a[k].d, (p.S.a[k] - q.S.a[k]) / (2 * h), 1e-6 * bulk * kAlpha) << "law " << m.model;
    }
  }
}

TEST(ThermalStrain, OrthotropicExpansionActsAlongTheAxes) {
  // Expansion 1e-5, 2e-5, 3e-5 along turned axes: F_th = Q^T diag(l) Q is stress-free, and
  // held at F = I the stress in the axes is -C eps_th with the orthotropic stiffness.
  const double d[9] = {250e3, 100e3, 200e3, 90e3, 80e3, 180e3, 60e3, 50e3, 40e3};
  const Mat3<double> axes = rotation(0.8);
  SolidMaterial<double> m = orthotropic_stiffness(d, 1.0, axes);
  m.expansion[0] = 1e-5, m.expansion[1] = 2e-5, m.expansion[2] = 3e-5;
  const double dt = 10.0;
  Mat3<double> Fth = scaled_identity(0.0);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) Fth(j, k) += (1 + m.expansion[i] * dt) * axes(i, j) * axes(i, k);
  EXPECT_LT(max_abs(thermal_stress(m, Fth, dt, {}, {}).S), 1e-9 * 250e3 * 3e-4);
  const SolidStress<double> held = thermal_stress(m, scaled_identity(1.0), dt, {}, {});
  const Mat3<double> Sm = axes * held.S * transpose(axes);  // in material components
  const double e[3] = {-1e-4, -2e-4, -3e-4};
  const double expect[3] = {d[0] * e[0] + d[1] * e[1] + d[3] * e[2], d[1] * e[0] + d[2] * e[1] + d[4] * e[2],
                            d[3] * e[0] + d[4] * e[1] + d[5] * e[2]};
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(Sm(i, i), expect[i], 1e-3 * std::fabs(expect[i]));
  EXPECT_NEAR(Sm(0, 1), 0.0, 1e-9 * 250e3 * 3e-4);
}

// thermal_slope is the derivative of the energy in the temperature at fixed F and state
// (central differences), for every law, turned or not, and for orthotropic expansion; J2 at a
// strain inside its elastic range, where the state stays fixed.
TEST(ThermalStrain, ThermalSlopeIsTheEnergysTemperatureDerivative) {
  const Mat3<double> G{{0.8, 0.3, -0.1, 0.2, -0.5, 0.4, 0.0, -0.3, 0.6}};
  const auto check = [](const SolidMaterial<double>& m, const Mat3<double>& F, double dtheta, const char* what) {
    const double h = 1e-2;
    const SolidStress<double> r = thermal_stress(m, F, dtheta, {}, {});
    const double fd = (thermal_stress(m, F, dtheta + h, {}, {}).energy -
                       thermal_stress(m, F, dtheta - h, {}, {}).energy) / (2 * h);
    EXPECT_NEAR(r.thermal_slope, fd, 1e-7 * std::fabs(fd) + 1e-12) << what << " law " << m.model;
    EXPECT_GT(std::fabs(fd), 0.0) << what;
  };
  for (const auto& m : laws()) {
    const bool j2 = m.hardening_points > 0;  // J2: strains well below yield (1.25e-3)
    const double scale = j2 ? 2e-4 : 2e-2, dtheta = j2 ? 10.0 : kDtheta;
    Mat3<double> F = scaled_identity(1.0);
    for (int k = 0; k < 9; ++k) F.a[k] += scale * G.a[k];
    check(m, F, dtheta, "plain");
    check(m, rotation(0.9) * F, -dtheta, "turned");
  }
  const double d[9] = {250e3, 100e3, 200e3, 90e3, 80e3, 180e3, 60e3, 50e3, 40e3};
  SolidMaterial<double> m = orthotropic_stiffness(d, 1.0, rotation(0.8));
  m.expansion[0] = 1e-5, m.expansion[1] = 2e-5, m.expansion[2] = 3e-5;
  Mat3<double> F = scaled_identity(1.0);
  for (int k = 0; k < 9; ++k) F.a[k] += 1e-2 * G.a[k];
  check(m, F, 30.0, "orthotropic");
  // Small strain: -tr(sigma) alpha at a held body.
  const SolidStress<double> held = thermal_stress(laws()[0], scaled_identity(1.0), 1e-3, {}, {});
  EXPECT_NEAR(held.thermal_slope, -kAlpha * (held.S(0, 0) + held.S(1, 1) + held.S(2, 2)),
              1e-6 * std::fabs(held.thermal_slope));
}

TEST(ThermalStrain, WithoutExpansionTheLawIsUntouched) {
  const SolidMaterial<double> m = svk_isotropic(kE, kNu, 1.0);
  EXPECT_FALSE(has_expansion(m));
  const Mat3<double> F{{1.01, 0.02, -0.003, 0.004, 0.995, 0.01, 0.0, -0.02, 1.003}};
  ElementState<double> st;
  st.thermal = 100.0;  // ignored: the material does not expand
  const SolidStress<double> a = point_stress(m, F, st, 0), b = evaluate(m, F, {}, {});
  for (int k = 0; k < 9; ++k) EXPECT_EQ(a.S.a[k], b.S.a[k]);
}

}  // namespace
}  // namespace halfstep
