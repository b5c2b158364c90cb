// J2 (von Mises) plasticity with isotropic hardening for large rotations and small strains:
// the Green-Lagrange strain splits additively, E = Ee + Ep, S = lambda tr(Ee) I + 2 mu Ee,
// and the Mises function of S bounds the elastic domain, sqrt(3/2 s:s) <= sigma_y(alpha).
// The total Lagrangian elements (and the finite particle method's deformation strains in
// the element frame) are objective by construction, so the return map is the small-strain
// radial return (Simo & Hughes 1998, box 3.2) applied to E: exact for proportional loading
// with linear hardening, whatever the increment. The consistent tangent is not written out:
// evaluate_with_tangent differentiates this update with dual numbers, as for the other laws.
//
// State per point (8 values): Ep (tensor components 11, 22, 33, 12, 13, 23), alpha (the
// equivalent plastic strain, PEEQ) and the plastic dissipation density (the integral of
// sigma_y d_alpha; S:dEp of the radial return is sigma_y(alpha_new) d_alpha, its backward
// rule).
#pragma once

#include <cmath>

#include "core/dual.hpp"
#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {

/// State values per point of the J2 law.
constexpr int kJ2StateSize = 8;
/// State components of the J2 law.
enum J2State : int { kJ2Ep11 = 0, kJ2Alpha = 6, kJ2Dissipation = 7 };

/// Yield stress at equivalent plastic strain alpha, and its slope into *slope.
template <class T>
HS_HD T j2_yield_stress(const SolidMaterial<T>& m, T alpha, T* slope) {
  const int n = m.hardening_points;
  *slope = T(0);
  if (n <= 1 || !(alpha > m.yield_strain[0])) return m.yield_stress[0];
  for (int k = 1; k < n; ++k)
    if (alpha < m.yield_strain[k]) {
      const T h = (m.yield_stress[k] - m.yield_stress[k - 1]) / (m.yield_strain[k] - m.yield_strain[k - 1]);
      *slope = h;
      return m.yield_stress[k - 1] + h * (alpha - m.yield_strain[k - 1]);
    }
  return m.yield_stress[n - 1];  // perfectly plastic after the last point
}

/// Plastic work per unit volume from equivalent plastic strain a0 to a1 >= a0: the integral of
/// the yield stress, exact on the piecewise-linear table (trapezoids between its points). The
/// dissipation does not then depend on the increment size, so the energy balance of a run
/// closes to the accuracy of its external work.
template <class T>
HS_HD T j2_hardening_work(const SolidMaterial<T>& m, T a0, T a1) {
  T h;
  T w = T(0), a = a0;
  for (int k = 1; k < m.hardening_points; ++k) {
    if (!(a < a1)) break;
    if (!(m.yield_strain[k] > a)) continue;
    const T b = a1 < m.yield_strain[k] ? a1 : m.yield_strain[k];
    w = w + (b - a) * (j2_yield_stress(m, a, &h) + j2_yield_stress(m, b, &h)) / T(2);
    a = b;
  }
  if (a < a1) w = w + (a1 - a) * j2_yield_stress(m, a1, &h);  // constant beyond the table
  return w;
}

/// The radial return at Green-Lagrange strain E from state old (8 values); writes the new
/// state into next and returns S with the elastic energy density.
template <class T, class S>
HS_HD SolidStress<T> j2_update(const SolidMaterial<T>& m, const Mat3<T>& E, const S* old, T* next) {
  using std::sqrt;  // unqualified below: Dual<T> finds its own by argument-dependent lookup
  Mat3<T> ep;
  const int vi[6] = {0, 1, 2, 0, 0, 1}, vj[6] = {0, 1, 2, 1, 2, 2};
  for (int k = 0; k < 6; ++k) {
    ep(vi[k], vj[k]) = T(old[k]);
    ep(vj[k], vi[k]) = T(old[k]);
  }
  const T alpha_old = T(old[kJ2Alpha]);
  T dissipation = T(old[kJ2Dissipation]);
  const Mat3<T> ee = E - ep;
  const T tr = trace(ee);
  const T bulk = m.lambda + T(2) / T(3) * m.mu;
  const Mat3<T> dev = ee - scaled_identity(tr / T(3));
  Mat3<T> s = (T(2) * m.mu) * dev;  // trial deviator
  const T q = sqrt(T(1.5) * ddot(s, s));
  T h;
  const T sy = j2_yield_stress(m, alpha_old, &h);
  T dgamma = T(0);
  if (q > sy) {
    // q - 3 mu dgamma - sigma_y(alpha_old + dgamma) = 0 by Newton: on piecewise-linear
    // hardening each step lands on the segment it started on, so it ends after at most one
    // step per segment crossed (and exactly, value and derivative).
    for (int it = 0; it < 4 * kMaxHardening + 8; ++it) {
      const T y = j2_yield_stress(m, alpha_old + dgamma, &h);
      const T g = q - T(3) * m.mu * dgamma - y;
      const T step = g / (T(3) * m.mu + h);
      dgamma = dgamma + step;
      if (!(dgamma > T(0))) dgamma = T(0);
      if (!(std::fabs(autodiff::value_of(step)) > 1e-15 * (1.0 + std::fabs(autodiff::value_of(dgamma))))) break;
    }
    const T ratio = T(1.5) * dgamma / q;  // dEp = 3/2 dgamma s_trial / q_trial
    const Mat3<T> dep = ratio * s;
    ep = ep + dep;
    s = (T(1) - T(3) * m.mu * dgamma / q) * s;
    dissipation = dissipation + j2_hardening_work(m, alpha_old, alpha_old + dgamma);
  }
  const Mat3<T> ee_new = E - ep;
  const T tr_new = trace(ee_new);
  const Mat3<T> Sig = scaled_identity(bulk * tr_new) + s;
  for (int k = 0; k < 6; ++k) next[k] = ep(vi[k], vj[k]);
  next[kJ2Alpha] = alpha_old + dgamma;
  next[kJ2Dissipation] = dissipation;
  const Mat3<T> dev_new = ee_new - scaled_identity(tr_new / T(3));
  return {Sig, T(0.5) * bulk * tr_new * tr_new + m.mu * ddot(dev_new, dev_new)};
}

}  // namespace halfstep
