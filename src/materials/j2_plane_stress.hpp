// J2 (von Mises) plasticity in plane stress (sigma_33 = sigma_13 = sigma_23 = 0) with
// isotropic hardening from the *PLASTIC table: the projected return of Simo & Taylor (1986)
// (Simo & Hughes 1998, sec. 3.4). For shells and other plane-stress points at small strain
// (additive split eps = eps_e + eps_p of a strain measured in a local orthonormal frame).
//
// In Voigt form (strain [e11, e22, g12] with engineering shear) the elastic law is
// sigma = C eps_e, C = E/(1-nu^2) [[1, nu, 0], [nu, 1, 0], [0, 0, (1-nu)/2]], the yield
// function f = sqrt(3/2 sigma^T P sigma) - sigma_y(alpha) with
// P = 1/3 [[2, -1, 0], [-1, 2, 0], [0, 0, 6]] (so that 3/2 sigma^T P sigma is the von Mises
// stress squared), associative flow eps_p' = dgamma P sigma and alpha' = dgamma sqrt(2/3
// sigma^T P sigma). Backward Euler gives sigma = (C^-1 + dgamma P)^-1 sigma_trial; C and P
// share their eigenvectors (the mean, the difference and the shear of the in-plane stresses),
// so the inverse is diagonal there: with a1 = (s11 + s22)/sqrt2, a2 = (s22 - s11)/sqrt2, a3 = s12
// of the trial stress,
//   a1(dgamma) = a1 / (1 + E dgamma / (3 (1 - nu))),  a2,3(dgamma) = a2,3 / (1 + 2 mu dgamma),
// and consistency is one scalar equation in dgamma,
//   g(dgamma) = q(dgamma) - sigma_y(alpha_n + 2/3 dgamma q(dgamma)) = 0,
//   q^2 = 3/2 (a1^2 / 3 / (1 + c1 dgamma)^2 + (a2^2 + 2 a3^2) / (1 + c2 dgamma)^2).
// q decreases and alpha increases with dgamma, so for a non-softening table g decreases from
// g(0) > 0 to -sigma_y: one root, found by Newton kept inside a bracket (bisection when a
// step would leave it, as at the kinks of a tabulated hardening curve). The return is exact
// to the convergence tolerance for any increment: no sub-stepping, no radial approximation.
//
// State per point (kJ2PlaneStateSize values): the plastic strain (11, 22, engineering 12; its
// 33 component is -(11 + 22): isochoric flow), alpha (the equivalent plastic strain, PEEQ) and
// the plastic dissipation density (the integral of sigma_y d_alpha, j2_hardening_work).
#pragma once

#include <type_traits>

#include <cmath>

#include "core/host_device.hpp"
#include "materials/j2_plasticity.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {

/// State values per point of the plane-stress J2 law.
constexpr int kJ2PlaneStateSize = 5;
/// Components of the plane-stress J2 state.
enum J2PlaneState : int { kJ2PlaneEp11 = 0, kJ2PlaneEp22 = 1, kJ2PlaneEp12 = 2, kJ2PlaneAlpha = 3, kJ2PlaneDissipation = 4 };

/// What one plane-stress return gives besides the new state.
template <class T>
struct J2PlaneResult {
  T stress[3];    ///< s11, s22, s12
  T energy;       ///< stored elastic energy density 1/2 sigma . C^-1 sigma
  T dissipation;  ///< plastic dissipation density of this increment
  T dgamma;       ///< consistency parameter (0: elastic increment)
  T alpha;        ///< equivalent plastic strain after the increment
};

/// Young's modulus and Poisson's ratio of an isotropic law's Lame constants.
template <class T>
HS_HD void j2_plane_constants(const SolidMaterial<T>& m, T& youngs, T& poisson) {
  youngs = m.mu * (T(3) * m.lambda + T(2) * m.mu) / (m.lambda + m.mu);
  poisson = m.lambda / (T(2) * (m.lambda + m.mu));
}

/// Plane-stress stress of the elastic strain e (e11, e22, g12).
template <class T>
HS_HD void j2_plane_elastic_stress(T youngs, T poisson, const T e[3], T s[3]) {
  const T ebar = youngs / (T(1) - poisson * poisson);
  s[0] = ebar * (e[0] + poisson * e[1]);
  s[1] = ebar * (poisson * e[0] + e[1]);
  s[2] = youngs / (T(2) * (T(1) + poisson)) * e[2];
}

/// Stored elastic energy density 1/2 sigma . C^-1 sigma of a plane stress.
template <class T>
HS_HD T j2_plane_elastic_energy(T youngs, T poisson, const T s[3]) {
  return (s[0] * s[0] + s[1] * s[1] - T(2) * poisson * s[0] * s[1] + T(2) * (T(1) + poisson) * s[2] * s[2]) /
         (T(2) * youngs);
}

/// Stress of a converged point: C (eps - eps_p) from the total strain eps and the state
/// (what output reads; equal to the stress of the return that wrote the state).
template <class T, class S>
HS_HD void j2_plane_stress_of_state(const SolidMaterial<T>& m, const T eps[3], const S* state, T s[3]) {
  T youngs, poisson;
  j2_plane_constants(m, youngs, poisson);
  const T ee[3] = {eps[0] - T(state[kJ2PlaneEp11]), eps[1] - T(state[kJ2PlaneEp22]), eps[2] - T(state[kJ2PlaneEp12])};
  j2_plane_elastic_stress(youngs, poisson, ee, s);
}

/// The plane-stress return from a trial stress: the stress of an elastic step from the last
/// converged point (sigma_n + C d_eps, or C (eps - eps_p,n)) and the equivalent plastic
/// strain alpha_n there. Returns the stress, the new alpha, the consistency parameter
/// (the plastic strain increment is dgamma P sigma) and the dissipation of the increment;
/// r.energy is left to the caller. Shared by the total-strain form (MITC4) and the
/// incremental one of the convected FPM triangle.
template <class T>
HS_HD J2PlaneResult<T> j2_plane_return(const SolidMaterial<T>& m, const T trial[3], T alpha_n) {
  using std::fabs;
  using std::sqrt;
  T youngs, poisson;
  j2_plane_constants(m, youngs, poisson);
  J2PlaneResult<T> r;
  for (int i = 0; i < 3; ++i) r.stress[i] = trial[i];
  r.energy = T(0);
  r.dissipation = T(0);
  r.dgamma = T(0);
  r.alpha = alpha_n;
  // Trial stress in the common eigenbasis of C and P.
  const T rt = T(0.70710678118654752440);
  const T a1 = rt * (trial[0] + trial[1]), a2 = rt * (trial[1] - trial[0]), a3 = trial[2];
  const T A1 = a1 * a1 / T(3), A2 = a2 * a2 + T(2) * a3 * a3;
  const T c1 = youngs / (T(3) * (T(1) - poisson)), c2 = youngs / (T(1) + poisson);
  T h;
  const T sy_n = j2_yield_stress(m, alpha_n, &h);
  const T q_trial = sqrt(T(1.5) * (A1 + A2));
  // A trial point on the surface to round-off is elastic: the re-evaluation of a converged
  // point (output, a second pass at the same configuration) must not flow again.
  const T tol = T(8 * j2_detail::round_off(T(0)));
  // Dual numbers: a trial on the surface to round-off (a yielded point at its increment's
  // start) takes the elastoplastic tangent, whatever its last ulps say.
  constexpr bool plain = std::is_floating_point_v<T>;
  if (plain ? !(q_trial > sy_n * (T(1) + tol)) : !(q_trial > sy_n * (T(1) - T(1e-12)))) return r;
  // Safeguarded Newton on g(x) = q(x) - sigma_y(alpha_n + 2/3 x q(x)), g decreasing.
  T x = T(0), lo = T(0), hi = T(-1);  // hi < 0: no upper bound found yet
  for (int it = 0; it < 200; ++it) {
    const T d1 = T(1) / (T(1) + c1 * x), d2 = T(1) / (T(1) + c2 * x);
    const T q2 = T(1.5) * (A1 * d1 * d1 + A2 * d2 * d2);
    const T q = sqrt(q2);
    const T dq2 = T(-3) * (A1 * c1 * d1 * d1 * d1 + A2 * c2 * d2 * d2 * d2);  // d(q^2)/dx
    const T dq = dq2 / (T(2) * q);
    const T alpha = alpha_n + T(2) / T(3) * x * q;
    const T sy = j2_yield_stress(m, alpha, &h);
    const T g = q - sy;
    if (!(fabs(g) > tol * sy)) break;
    if (g > T(0)) lo = x;
    else hi = x;
    const T dg = dq - h * T(2) / T(3) * (q + x * dq);
    T xn = x - g / dg;
    if (!(xn > lo) || (hi >= T(0) && !(xn < hi))) {
      // Outside the bracket: bisect, or without an upper bound yet grow past the perfectly
      // plastic deviatoric root (q_trial / sigma_y - 1) / c2.
      const T grow = (q_trial / sy_n - T(1)) / c2;
      xn = hi >= T(0) ? T(0.5) * (lo + hi) : (T(2) * x > grow ? T(2) * x : grow);
    }
    if (!(fabs(xn - x) > tol * xn)) {
      x = xn;
      break;
    }
    x = xn;
  }
  if constexpr (!plain) {  // one more Newton update: the dual parts become the implicit derivative
    const T d1 = T(1) / (T(1) + c1 * x), d2 = T(1) / (T(1) + c2 * x);
    const T q = sqrt(T(1.5) * (A1 * d1 * d1 + A2 * d2 * d2));
    const T dq = T(-3) * (A1 * c1 * d1 * d1 * d1 + A2 * c2 * d2 * d2 * d2) / (T(2) * q);
    const T sy = j2_yield_stress(m, alpha_n + T(2) / T(3) * x * q, &h);
    x = x - (q - sy) / (dq - h * T(2) / T(3) * (q + x * dq));
  }
  const T d1 = T(1) / (T(1) + c1 * x), d2 = T(1) / (T(1) + c2 * x);
  const T b1 = a1 * d1, b2 = a2 * d2;
  r.stress[0] = rt * (b1 - b2);
  r.stress[1] = rt * (b1 + b2);
  r.stress[2] = a3 * d2;
  const T q = sqrt(T(1.5) * (b1 * b1 / T(3) + b2 * b2 + T(2) * r.stress[2] * r.stress[2]));
  r.alpha = alpha_n + T(2) / T(3) * x * q;
  r.dissipation = j2_hardening_work(m, alpha_n, r.alpha);
  r.dgamma = x;
  return r;
}

/// The plane-stress return at total strain eps (e11, e22, engineering g12, in any local
/// orthonormal frame of the plane) from state old (kJ2PlaneStateSize values; zeros are the
/// virgin state): writes the new state into next (may alias old) and returns the stress,
/// the stored energy density and the dissipation of the increment.
template <class T, class S>
HS_HD J2PlaneResult<T> j2_plane_stress_update(const SolidMaterial<T>& m, const T eps[3], const S* old, T* next) {
  T youngs, poisson;
  j2_plane_constants(m, youngs, poisson);
  const T ep[3] = {T(old[kJ2PlaneEp11]), T(old[kJ2PlaneEp22]), T(old[kJ2PlaneEp12])};
  const T alpha_n = T(old[kJ2PlaneAlpha]);
  const T diss_n = T(old[kJ2PlaneDissipation]);
  const T ee[3] = {eps[0] - ep[0], eps[1] - ep[1], eps[2] - ep[2]};
  T trial[3];
  j2_plane_elastic_stress(youngs, poisson, ee, trial);
  J2PlaneResult<T> r = j2_plane_return(m, trial, alpha_n);
  // Flow eps_p += dgamma P sigma (engineering shear: P's 6 / 3 on s12).
  const T x = r.dgamma;
  next[kJ2PlaneEp11] = ep[0] + x * (T(2) * r.stress[0] - r.stress[1]) / T(3);
  next[kJ2PlaneEp22] = ep[1] + x * (T(2) * r.stress[1] - r.stress[0]) / T(3);
  next[kJ2PlaneEp12] = ep[2] + x * T(2) * r.stress[2];
  next[kJ2PlaneAlpha] = r.alpha;
  next[kJ2PlaneDissipation] = diss_n + r.dissipation;
  r.energy = j2_plane_elastic_energy(youngs, poisson, r.stress);
  return r;
}

}  // namespace halfstep
