// J2 (von Mises) plasticity with isotropic hardening at finite strain: the multiplicative
// split F = Fe Fp with the elastic left Cauchy-Green tensor be = Fe Fe^T, Hencky elasticity in
// the logarithmic elastic strain eps_e = ln(be)/2 (Kirchhoff stress tau = K tr(eps_e) I +
// 2 mu dev(eps_e)), and the return map of Simo (1992) (de Souza Neto, Peric & Owen 2008,
// box 14.3): in the principal axes of the trial be the update is the small-strain radial
// return applied to the logarithmic strains, exact for proportional loading with linear
// hardening whatever the increment, and the plastic flow is isochoric. The total Lagrangian
// elements ask for S = F^-1 tau F^-T; a rigid rotation of F rotates be and tau and leaves S and
// the state unchanged (objective). The consistent tangent is not written out:
// evaluate_with_tangent differentiates this update with dual numbers, as for the other laws.
//
// j2_small_strain_update is the small-strain radial return on a total strain with the plastic
// strain as state, for the corotational (FPM) elements.
//
// State per point (8 values): Cp^-1 - I with Cp = Fp^T Fp (components 11, 22, 33, 12, 13, 23;
// zero in the virgin state), alpha (the equivalent plastic strain, PEEQ) and the plastic
// dissipation density (the integral of sigma_y d_alpha).
#pragma once

#include <cmath>

#include "core/dual.hpp"
#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "materials/solid_material_data.hpp"

namespace halfstep {

/// State values per point of the J2 law.
constexpr int kJ2StateSize = 8;
/// State components of the J2 law.
enum J2State : int { kJ2Cpi11 = 0, kJ2Alpha = 6, kJ2Dissipation = 7 };

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

/// The plastic multiplier of a radial return: the dgamma >= 0 with
/// q_trial - stiffness * dgamma = sigma_y(alpha_old + dgamma), where stiffness is 3 mu for the
/// von Mises return and E for a uniaxial (beam fibre) return. Newton on piecewise-linear
/// hardening lands on the segment it started on, so it ends after at most one step per
/// segment crossed (exact in value and derivative, so dual numbers carry the tangent).
template <class T>
HS_HD T j2_plastic_multiplier(const SolidMaterial<T>& m, T q_trial, T alpha_old, T stiffness) {
  T dgamma = T(0);
  for (int it = 0; it < 4 * kMaxHardening + 8; ++it) {
    T h;
    const T y = j2_yield_stress(m, alpha_old + dgamma, &h);
    const T g = q_trial - stiffness * dgamma - y;
    const T step = g / (stiffness + h);
    dgamma = dgamma + step;
    if (!(dgamma > T(0))) dgamma = T(0);
    if (!(std::fabs(autodiff::value_of(step)) > 1e-15 * (1.0 + std::fabs(autodiff::value_of(dgamma))))) break;
  }
  return dgamma;
}

/// The classic small-strain radial return (Simo & Hughes 1998, box 3.1) on a total strain eps
/// (symmetric): isotropic elasticity (lambda, mu) on eps - eps_p, von Mises yield with the
/// hardening table, associative flow. State (kJ2StateSize values, the layout of j2_update's
/// with the plastic strain in place of Cp^-1 - I): eps_p (11, 22, 33, 12, 13, 23 tensor
/// components), alpha (PEEQ) and the dissipation density. Writes the new state into next and
/// returns the stress sigma (in S) with the stored elastic energy density. The FPM elements
/// feed it the convected strain of their element frame (docs/theory.md), which makes the
/// update objective: the frame, not the law, carries the rotation.
template <class T, class S>
HS_HD SolidStress<T> j2_small_strain_update(const SolidMaterial<T>& m, const Mat3<T>& eps, const S* old, T* next) {
  using std::sqrt;  // unqualified below: Dual<T> finds its own by argument-dependent lookup
  const int vi[6] = {0, 1, 2, 0, 0, 1}, vj[6] = {0, 1, 2, 1, 2, 2};
  Mat3<T> ep = scaled_identity(T(0));
  for (int k = 0; k < 6; ++k) ep(vi[k], vj[k]) = ep(vj[k], vi[k]) = T(old[k]);
  const T alpha_old = T(old[kJ2Alpha]);
  T dissipation = T(old[kJ2Dissipation]);
  const Mat3<T> ee = eps - ep;
  const T tr = trace(ee);
  Mat3<T> s = T(2) * m.mu * (ee - (tr / T(3)) * scaled_identity(T(1)));  // trial deviator
  const T q = sqrt(T(1.5) * ddot(s, s));
  T h;
  const T sy = j2_yield_stress(m, alpha_old, &h);
  T dgamma = T(0);
  // As in j2_update_h: a point re-evaluated at its converged strain (a static increment's
  // first iteration) sits on its surface give or take round-off and must not count as yielding.
  if (q > sy * T(1 + 1e-10)) {
    dgamma = j2_plastic_multiplier(m, q, alpha_old, T(3) * m.mu);
    // Flow along n = 3/2 s / q: the plastic strain grows by dgamma n, the deviator shrinks by
    // 2 mu dgamma n, i.e. by the factor 1 - 3 mu dgamma / q.
    ep = ep + (T(1.5) * dgamma / q) * s;
    s = (T(1) - T(3) * m.mu * dgamma / q) * s;
    dissipation = dissipation + j2_hardening_work(m, alpha_old, alpha_old + dgamma);
  }
  const T bulk = m.lambda + T(2) / T(3) * m.mu;
  const Mat3<T> sigma = s + (bulk * tr) * scaled_identity(T(1));
  for (int k = 0; k < 6; ++k) next[k] = ep(vi[k], vj[k]);
  next[kJ2Alpha] = alpha_old + dgamma;
  next[kJ2Dissipation] = dissipation;
  return {sigma, T(0.5) * bulk * tr * tr + ddot(s, s) / (T(4) * m.mu)};
}

namespace j2_detail {

/// Relative round-off of the number type under T (float, double, or the value of a Dual).
HS_HD double round_off(float) { return 1e-7; }
HS_HD double round_off(double) { return 1e-16; }
template <class T>
HS_HD double round_off(const T& x) {
  return round_off(autodiff::value_of(x));
}

}  // namespace j2_detail

/// Eigenvalues w and unit eigenvectors (the columns of V) of the symmetric matrix A, by cyclic
/// Jacobi rotations (robust for equal or nearly equal eigenvalues, where closed forms lose
/// the eigenvectors; a few sweeps at this size).
template <class T>
HS_HD void symmetric_eigen3(const Mat3<T>& A, T w[3], Mat3<T>& V) {
  using std::fabs;  // unqualified below: Dual<T> finds its own by argument-dependent lookup
  using std::sqrt;
  Mat3<T> a = A;
  V = scaled_identity(T(1));
  const double eps = j2_detail::round_off(T(0));
  for (int sweep = 0; sweep < 12; ++sweep) {
    const double off = autodiff::value_of(a(0, 1) * a(0, 1) + a(0, 2) * a(0, 2) + a(1, 2) * a(1, 2));
    const double diag = autodiff::value_of(a(0, 0) * a(0, 0) + a(1, 1) * a(1, 1) + a(2, 2) * a(2, 2));
    if (!(off > eps * eps * diag)) break;
    for (int p = 0; p < 2; ++p)
      for (int q = p + 1; q < 3; ++q) {
        if (!(fabs(autodiff::value_of(a(p, q))) > 0.0)) continue;
        const T theta = (a(q, q) - a(p, p)) / (T(2) * a(p, q));
        const T t = (theta < T(0) ? T(-1) : T(1)) / (fabs(theta) + sqrt(theta * theta + T(1)));
        const T c = T(1) / sqrt(t * t + T(1)), s = t * c;
        const T apq = a(p, q);
        a(p, p) = a(p, p) - t * apq;
        a(q, q) = a(q, q) + t * apq;
        a(p, q) = a(q, p) = T(0);
        const int r = 3 - p - q;
        const T arp = a(r, p), arq = a(r, q);
        a(r, p) = a(p, r) = c * arp - s * arq;
        a(r, q) = a(q, r) = s * arp + c * arq;
        for (int k = 0; k < 3; ++k) {
          const T vkp = V(k, p), vkq = V(k, q);
          V(k, p) = c * vkp - s * vkq;
          V(k, q) = s * vkp + c * vkq;
        }
      }
  }
  for (int i = 0; i < 3; ++i) w[i] = a(i, i);
}

namespace j2_detail {

/// The log strain -ln(1 + w) / 2 (inverse: false) or expm1(-2 w) (inverse: true) applied to
/// the eigenvalues of the symmetric tensor a (tensor components 11, 22, 33, 12, 13, 23) into
/// out, same axes; a zero tensor maps to zero without a decomposition (the virgin state of
/// most points).
HS_HD void plastic_log_map(const double a[6], double out[6], bool inverse) {
  const int vi[6] = {0, 1, 2, 0, 0, 1}, vj[6] = {0, 1, 2, 1, 2, 2};
  bool zero = true;
  for (int k = 0; k < 6; ++k) zero = zero && a[k] == 0.0;
  if (zero) {
    for (int k = 0; k < 6; ++k) out[k] = 0.0;
    return;
  }
  Mat3<double> A = scaled_identity(0.0), V;
  for (int k = 0; k < 6; ++k) A(vi[k], vj[k]) = A(vj[k], vi[k]) = a[k];
  double w[3], g[3];
  symmetric_eigen3(A, w, V);
  for (int i = 0; i < 3; ++i) g[i] = inverse ? std::expm1(-2.0 * w[i]) : -0.5 * std::log1p(w[i]);
  for (int k = 0; k < 6; ++k) {
    out[k] = 0.0;
    for (int i = 0; i < 3; ++i) out[k] += g[i] * V(vi[k], i) * V(vj[k], i);
  }
}

}  // namespace j2_detail

/// The small plastic strain eps_p (11, 22, 33, 12, 13, 23 tensor components) of a finite-strain
/// state's P = Cp^-1 - I, read as Fp = exp(eps_p) (symmetric, no plastic rotation): eps_p =
/// -ln(I + P) / 2 in the principal axes of P, to first order -P / 2. A geometrically linear
/// step and a finite-strain one so hand the same plastic state on to each other.
HS_HD void j2_plastic_strain_of_state(const double P[6], double ep[6]) {
  j2_detail::plastic_log_map(P, ep, false);
}

/// P = Cp^-1 - I = expm1(-2 eps_p) in the principal axes of eps_p (the inverse of
/// j2_plastic_strain_of_state).
HS_HD void j2_state_of_plastic_strain(const double ep[6], double P[6]) {
  j2_detail::plastic_log_map(ep, P, true);
}

/// The J2 law in the small-strain theory, for a geometrically linear step's element passes:
/// F is a dual number whose value is the reference (I) and whose derivative part is the
/// displacement gradient H of the linearized kinematics (V: double for forces, a dual number
/// for the tangent's direction). The radial return runs on eps = sym(H) from the state old
/// (j2_update's layout: Cp^-1 - I, converted by j2_plastic_strain_of_state), the new state
/// goes into next (value parts), and S comes back with value 0 and derivative sigma, so that
/// the element's P = F S is sigma in its derivative part: the small-strain forces of each
/// kind's own kinematics (C3D8's F-bar becomes B-bar), exactly. Energy and dissipation ride
/// in the derivative part the same way (stored elastic energy plus dissipation).
template <class V, class S>
HS_HD SolidStress<Dual<V>> j2_small_strain_linearized(const SolidMaterial<Dual<V>>& m, const Mat3<Dual<V>>& F,
                                                      const S* old, Dual<V>* next) {
  using T = Dual<V>;
  double o[6], ep_old[kJ2StateSize];
  for (int k = 0; k < 6; ++k) o[k] = autodiff::value_of(old[k]);
  j2_plastic_strain_of_state(o, ep_old);
  ep_old[kJ2Alpha] = autodiff::value_of(old[kJ2Alpha]);
  ep_old[kJ2Dissipation] = autodiff::value_of(old[kJ2Dissipation]);
  Mat3<T> eps;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) eps(i, j) = T(V(0.5) * (F(i, j).d + F(j, i).d));
  T nx[kJ2StateSize];
  const SolidStress<T> r = j2_small_strain_update(m, eps, ep_old, nx);
  double ep_new[6], p_new[6];
  for (int k = 0; k < 6; ++k) ep_new[k] = autodiff::value_of(nx[k]);
  j2_state_of_plastic_strain(ep_new, p_new);
  for (int k = 0; k < 6; ++k) next[k] = T(p_new[k]);
  next[kJ2Alpha] = T(autodiff::value_of(nx[kJ2Alpha]));
  next[kJ2Dissipation] = T(autodiff::value_of(nx[kJ2Dissipation]));
  SolidStress<T> out;
  for (int k = 0; k < 9; ++k) out.S.a[k] = T(V(0), r.S.a[k].v);
  out.dissipation = T(V(0), nx[kJ2Dissipation].v);
  out.energy = T(V(0), r.energy.v + nx[kJ2Dissipation].v);
  return out;
}

namespace j2_detail {

/// Whether T is a dual number (its derivative parts need the eigen-perturbation below).
template <class T>
struct DualOf {
  static constexpr bool kDual = false;
};
/// A dual number over Value.
template <class V>
struct DualOf<Dual<V>> {
  static constexpr bool kDual = true;
  using Value = V;
};

/// (log1p(a) - log1p(b)) / (2 (a - b)): the divided difference of the log strain 1/2 ln(1 + w)
/// between two eigenvalues of be - I, its derivative 1 / (2 (1 + b)) where they meet.
template <class V>
HS_HD V half_log_divided_difference(V a, V b) {
  using std::log1p;
  const V x = (a - b) / (V(1) + b);
  if (!(x > V(1e-4) || x < V(-1e-4))) return (V(1) - x / V(2) + x * x / V(3)) / (V(2) * (V(1) + b));
  return log1p(x) / (V(2) * (a - b));
}

}  // namespace j2_detail

/// The principal values w and axes V of the symmetric B for the return map. For dual numbers
/// the axes are those of B's value, the eigenvalues carry B's derivative projected on them,
/// and *dB_axes receives that derivative in the axes (first-order perturbation theory);
/// rotating the dual parts through the Jacobi sweeps instead loses them wherever an
/// off-diagonal value is exactly zero (every diagonal state: the virgin F = I, uniaxial
/// tests), which zeroed the shear tangent there. Plain numbers leave *dB_axes alone.
template <class T>
HS_HD void principal_axes(const Mat3<T>& B, T w[3], Mat3<T>& V, Mat3<T>* dB_axes) {
  if constexpr (j2_detail::DualOf<T>::kDual) {
    using Vt = typename j2_detail::DualOf<T>::Value;
    Mat3<Vt> B0, dB;
    for (int k = 0; k < 9; ++k) {
      B0.a[k] = B.a[k].v;
      dB.a[k] = B.a[k].d;
    }
    Vt w0[3];
    Mat3<Vt> V0;
    symmetric_eigen3(B0, w0, V0);
    const Mat3<Vt> Dp = transpose(V0) * dB * V0;
    for (int i = 0; i < 3; ++i) w[i] = T(w0[i], Dp(i, i));
    for (int k = 0; k < 9; ++k) {
      V.a[k] = T(V0.a[k]);
      dB_axes->a[k] = T(Dp.a[k]);
    }
  } else {
    (void)dB_axes;
    symmetric_eigen3(B, w, V);
  }
}

/// The return map at displacement gradient H = F - I from state old (8 values): writes the
/// new state into next and returns S with the stored (Hencky) elastic energy density.
///
/// Written in differences from the identity throughout, so that float keeps the digits of
/// the small strains: be_trial - I = H + H^T + H H^T + F (Cp^-1 - I) F^T, the log strains are
/// log1p of its eigenvalues, be - I after the return is expm1 of twice the elastic log
/// strains, and Cp^-1 - I = F^-1 (be - I) F^-T - C^-1 (H + H^T + H^T H). Formed as F and
/// be near I instead, every increment would round the state at 6e-8 absolute in float: a
/// drift of the plastic strain of that size per increment, as large as the plastic flow of
/// an explicit increment itself (docs/theory.md, "J2 in float"). An increment that stays
/// elastic leaves the plastic state exactly as it was.
template <class T, class S>
HS_HD SolidStress<T> j2_update_h(const SolidMaterial<T>& m, const Mat3<T>& H, const S* old, T* next) {
  using std::expm1;  // unqualified below: Dual<T> finds its own by argument-dependent lookup
  using std::log1p;
  using std::sqrt;
  const int vi[6] = {0, 1, 2, 0, 0, 1}, vj[6] = {0, 1, 2, 1, 2, 2};
  Mat3<T> P = scaled_identity(T(0));  // Cp^-1 - I
  for (int k = 0; k < 6; ++k) P(vi[k], vj[k]) = P(vj[k], vi[k]) = T(old[k]);
  const T alpha_old = T(old[kJ2Alpha]);
  T dissipation = T(old[kJ2Dissipation]);
  const Mat3<T> F = H + scaled_identity(T(1));
  const Mat3<T> Ht = transpose(H);
  const Mat3<T> b_trial = H + Ht + H * Ht + F * P * transpose(F);  // be_trial - I
  T w[3];
  Mat3<T> V, dB_axes;
  principal_axes(b_trial, w, V, &dB_axes);
  T eps[3];
  for (int i = 0; i < 3; ++i) eps[i] = T(0.5) * log1p(w[i]);  // NaN for an inverted F: the run stops
  const T tr = eps[0] + eps[1] + eps[2];
  const T bulk = m.lambda + T(2) / T(3) * m.mu;
  T s[3];
  for (int i = 0; i < 3; ++i) s[i] = T(2) * m.mu * (eps[i] - tr / T(3));  // trial deviator
  const T q = sqrt(T(1.5) * (s[0] * s[0] + s[1] * s[1] + s[2] * s[2]));
  T h;
  const T sy = j2_yield_stress(m, alpha_old, &h);
  T dgamma = T(0);
  // A point re-evaluated at its converged F (a static increment's first iteration, where an
  // unloading starts) lands on its yield surface give or take the round-off of the stored
  // state: counted as yielding, it got the plastic tangent and Newton overshot the elastic
  // unloading by E / E_t. Flow starts 1e-10 above the surface (below float's precision).
  const bool yielding = q > sy * T(1 + 1e-10);
  if (yielding) {
    dgamma = j2_plastic_multiplier(m, q, alpha_old, T(3) * m.mu);
    const T shrink = T(1) - T(3) * m.mu * dgamma / q;
    for (int i = 0; i < 3; ++i) s[i] = shrink * s[i];
    dissipation = dissipation + j2_hardening_work(m, alpha_old, alpha_old + dgamma);
  }
  // Principal Kirchhoff stresses and elastic log strains after the return.
  Mat3<T> tau = scaled_identity(T(0)), Be = scaled_identity(T(0));  // Be = be - I
  T dev2 = T(0);
  for (int i = 0; i < 3; ++i) {
    const T ti = bulk * tr + s[i];
    const T ee = tr / T(3) + s[i] / (T(2) * m.mu);
    const T bi = expm1(T(2) * ee);
    dev2 = dev2 + (s[i] / (T(2) * m.mu)) * (s[i] / (T(2) * m.mu));
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        tau(r, c) = tau(r, c) + ti * V(r, i) * V(c, i);
        Be(r, c) = Be(r, c) + bi * V(r, i) * V(c, i);
      }
  }
  if constexpr (j2_detail::DualOf<T>::kDual) {
    // tau is an isotropic function of be_trial: its derivative across two axes is the
    // divided difference (tau_i - tau_j) / (w_i - w_j) = 2 mu shrink (eps_i - eps_j) /
    // (w_i - w_j) times dB_ij in those axes (Daleckii-Krein); the hydrostatic parts cancel.
    using Vt = typename j2_detail::DualOf<T>::Value;
    const Vt shrink = yielding ? (T(1) - T(3) * m.mu * dgamma / q).v : Vt(1);
    for (int i = 0; i < 3; ++i)
      for (int j = i + 1; j < 3; ++j) {
        const Vt g = j2_detail::half_log_divided_difference(w[i].v, w[j].v);
        const Vt off = Vt(2) * m.mu.v * shrink * g * dB_axes(i, j).v;
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 3; ++c) tau(r, c).d += off * (V(r, i).v * V(c, j).v + V(r, j).v * V(c, i).v);
      }
  }
  const Mat3<T> Fi = inverse(F);
  const Mat3<T> FiT = transpose(Fi);
  const Mat3<T> Sig = Fi * tau * FiT;
  if (yielding) {
    // C^-1 (C - I) = I - C^-1 is symmetric; its two triangles are averaged.
    const Mat3<T> CiE = (Fi * FiT) * (H + Ht + Ht * H);
    const Mat3<T> Pn = Fi * Be * FiT;
    for (int k = 0; k < 6; ++k)
      next[k] = Pn(vi[k], vj[k]) - T(0.5) * (CiE(vi[k], vj[k]) + CiE(vj[k], vi[k]));
  } else {
    for (int k = 0; k < 6; ++k) next[k] = T(old[k]);
  }
  next[kJ2Alpha] = alpha_old + dgamma;
  next[kJ2Dissipation] = dissipation;
  return {Sig, T(0.5) * bulk * tr * tr + m.mu * dev2};
}

/// The return map at deformation gradient F (j2_update_h at H = F - I, for callers that hold
/// F; those that hold the displacement gradient pass it to j2_update_h and keep its digits).
template <class T, class S>
HS_HD SolidStress<T> j2_update(const SolidMaterial<T>& m, const Mat3<T>& F, const S* old, T* next) {
  return j2_update_h(m, F - scaled_identity(T(1)), old, next);
}

}  // namespace halfstep
