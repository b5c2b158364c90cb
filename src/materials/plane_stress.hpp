// Plane stress from the solid laws: an in-plane deformation (F13 = F23 = F31 = F32 = 0) with
// the thickness stretch F33 found by Newton's method so that S33 = 0. Shells and plane-stress
// elements (CPS4) thus use every SolidMaterial, including laws with no closed plane-stress form
// (Neo-Hookean), instead of a separate list of plane-stress laws.
//
// Directions 1, 2 are in the plane and 3 is its normal, in the frame in which the caller
// gives F (an element's local frame); m.axes are relative to that frame. With in-plane F,
// E13 = E23 = 0 for any F33, so S13 = S23 = 0 for the isotropic laws and for orthotropic axes
// with material direction 3 along the normal; for axes tilted out of the plane they are not
// zero and the caller must refuse such a section (only S33 is driven to zero here).
//
// The Newton iteration: r(f) = S33(F with F33 = f), r'(f) = C3333 f (dE33/dF33 = F33), both
// from one evaluation of the law with a dual number seeded on F33. Start from the caller's
// guess (the previous increment's F33), else the exact root for isotropic St. Venant-Kirchhoff
// or 1; a step that would make f <= 0 halves f instead
// (J must stay positive); converged when a step changes f by at most 1e-12 f (1e-5 f in float)
// — quadratic convergence then leaves f accurate to round-off, and S is the evaluation at that
// f. At most kPlaneStressIterations evaluations, else converged = false and S, energy, f33 NaN.
#pragma once

#include "core/dual.hpp"
#include "core/host_device.hpp"
#include "core/is_lanes.hpp"
#include "core/mat3.hpp"
#include "materials/j2_plasticity.hpp"
#include "materials/material_tangent.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {

/// Most law evaluations one plane-stress point may take.
constexpr int kPlaneStressIterations = 25;

/// Relative Newton step at which F33 counts as converged, per number type.
HS_HD constexpr double plane_stress_tolerance(const double*) { return 1e-12; }
/// In float, round-off of S33 alone moves F33 by a few 1e-7: 1e-5 is the attainable level.
HS_HD constexpr double plane_stress_tolerance(const float*) { return 1e-5; }
/// Differentiated (element matrices by dual numbers): the tolerance of the value type. The
/// derivative part is exact once the value has converged (one Newton step at S33 ~ 0).
template <class T>
HS_HD constexpr double plane_stress_tolerance(const Dual<T>*) {
  return plane_stress_tolerance(static_cast<const T*>(nullptr));
}
/// The same for lanes of derivatives (the CPU engine's element matrices): double's.
template <int N>
constexpr double plane_stress_tolerance(const autodiff::DualLanes<N>*) {
  return 1e-12;
}

/// The material point of a plane-stress element.
template <class T>
struct PlaneStressPoint {
  Mat3<T> S;       ///< second Piola-Kirchhoff stress, S33 set to 0 (its residual below)
  T energy;        ///< strain energy per unit reference volume
  T dissipation;   ///< plastic dissipation per unit reference volume so far, part of energy (J2)
  T f33;           ///< the thickness stretch F33 > 0 that makes S33 vanish
  T s33_residual;  ///< S33 of the law at f33 before it was set to 0 (round-off)
  int iterations;  ///< law evaluations taken
  bool converged;  ///< false: no F33 > 0 found (S, energy, f33 are NaN)
};

/// Where Newton starts when the caller has no previous F33: for isotropic St. Venant-Kirchhoff
/// the exact root, E33 = -lambda (E11 + E22) / (lambda + 2 mu) (one evaluation then confirms
/// it), otherwise (or when that root does not exist) F33 = 1.
template <class T>
HS_HD T plane_stress_start(const SolidMaterial<T>& m, const T F2[4]) {
  if (!law_is<SvkIsotropic>(m)) return T(1);
  const T e2 = T(0.5) * (F2[0] * F2[0] + F2[2] * F2[2] - T(1)) + T(0.5) * (F2[1] * F2[1] + F2[3] * F2[3] - T(1));
  const T one_2e33 = T(1) - T(2) * m.lambda * e2 / (m.lambda + T(2) * m.mu);
  using std::sqrt;  // unqualified: Dual<T> (element matrices) finds its own
  return one_2e33 > T(0) ? sqrt(one_2e33) : T(1);
}

/// The 3x3 matrix with in-plane block A (row-major: the deformation gradient F2, or the
/// displacement gradient H2 of the J2 loop) as dual numbers with zero derivative; entry 33 is
/// left 0 for the Newton loops to set.
template <class T>
HS_HD Mat3<Dual<T>> dual_in_plane_gradient(const T F2[4]) {
  Mat3<Dual<T>> F = scaled_identity(Dual<T>(T(0)));
  F(0, 0) = Dual<T>(F2[0]);
  F(0, 1) = Dual<T>(F2[1]);
  F(1, 0) = Dual<T>(F2[2]);
  F(1, 1) = Dual<T>(F2[3]);
  return F;
}

/// The point a Newton loop reports when it found no F33 > 0 after `iterations` evaluations:
/// NaN stress, energy and stretch (the run stops at this element).
template <class T>
HS_HD PlaneStressPoint<T> failed_plane_stress_point(int iterations) {
  const T nan = T(0) / T(0);
  PlaneStressPoint<T> out;
  for (int k = 0; k < 9; ++k) out.S.a[k] = nan;
  out.energy = out.dissipation = out.f33 = out.s33_residual = nan;
  out.iterations = iterations;
  out.converged = false;
  return out;
}

/// Plane-stress point of material m for the in-plane deformation F2 = {F11, F12, F21, F22}
/// (row-major), starting Newton from f33_start (the previous F33; when not positive,
/// plane_stress_start's guess).
template <class T>
HS_HD PlaneStressPoint<T> plane_stress_point(const SolidMaterial<T>& m, const T F2[4], T f33_start = T(0)) {
  using std::fabs;
  if (law_is<SvkIsotropic>(m)) {
    // S33 is linear in E33 for St. Venant-Kirchhoff: plane_stress_start is the exact root, so
    // one evaluation of the law, in T itself, replaces the Newton loop on nested duals. With
    // T a dual number the root carries its exact derivative too (the tangent stays
    // consistent), at a third of the cost of the loop: the element-matrix kernel's hot path.
    const T e2 = T(0.5) * (F2[0] * F2[0] + F2[2] * F2[2] - T(1)) + T(0.5) * (F2[1] * F2[1] + F2[3] * F2[3] - T(1));
    const T one_2e33 = T(1) - T(2) * m.lambda * e2 / (m.lambda + T(2) * m.mu);
    if (one_2e33 > T(0)) {  // else no F33 > 0 exists: the loop below reports it
      using std::sqrt;
      const T f = sqrt(one_2e33);
      const Mat3<T> F{{F2[0], F2[1], T(0), F2[2], F2[3], T(0), T(0), T(0), f}};
      const SolidStress<T> r = solid_stress(m, F);
      PlaneStressPoint<T> out;
      out.S = r.S;
      out.s33_residual = r.S(2, 2);
      out.S(2, 2) = T(0);
      out.energy = r.energy;
      out.dissipation = T(0);
      out.f33 = f;
      out.iterations = 1;
      out.converged = true;
      return out;
    }
  }
  const SolidMaterial<Dual<T>> md = dual_material(m);
  Mat3<Dual<T>> F = dual_in_plane_gradient(F2);
  const T tol = T(plane_stress_tolerance(static_cast<const T*>(nullptr)));
  T f = f33_start > T(0) ? f33_start : plane_stress_start(m, F2);
  bool small_step = false;
  PlaneStressPoint<T> out;
  int it = 0;
  while (it < kPlaneStressIterations) {
    ++it;
    F(2, 2) = Dual<T>(f, T(1));
    const SolidStress<Dual<T>> r = solid_stress(md, F);
    const T s33 = r.S(2, 2).v, ds = r.S(2, 2).d;
    if (small_step || s33 == T(0)) {
      for (int k = 0; k < 9; ++k) out.S.a[k] = r.S.a[k].v;
      out.S(2, 2) = T(0);
      out.energy = r.energy.v;
      out.dissipation = T(0);
      out.f33 = f;
      out.s33_residual = s33;
      out.iterations = it;
      out.converged = true;
      return out;
    }
    // s33 - s33 is NaN for an infinite or NaN s33; a non-positive slope means an unstable law.
    if (!(s33 - s33 == T(0)) || !(ds > T(0))) break;
    T next = f - s33 / ds;
    if (!(next > T(0))) next = T(0.5) * f;
    small_step = fabs(next - f) <= tol * f;
    f = next;
  }
  return failed_plane_stress_point<T>(it);
}

/// Plane-stress point of the finite-strain J2 law (materials/j2_plasticity.hpp) for the
/// in-plane displacement gradient H2 = F2 - I (row-major) from the point's state old
/// (kJ2StateSize values, zeros: virgin): F33 is found so that S33 = 0 of the return map itself,
/// which keeps the law's objectivity (only invariants of F2^T F2 and the reference-frame state
/// enter) and its exactness for proportional paths. The new state is written into next (may
/// alias old; not written when null, NaN when no F33 is found). energy is the stored (Hencky)
/// energy plus the dissipation so far, as evaluate() reports it for the 3-D law.
///
/// Newton on r(y) = tau33 = F33^2 S33 in y = ln F33, with dr/dy from one dual evaluation per
/// step. S33 itself is no good residual at large plastic strain: it falls as F33 grows once
/// tau33 saturates (S33 = tau33 / F33^2). tau33 grows with y, the consistent tangent of the
/// return in principal log strains having C3333 >= K, and is linear in y while elastic
/// (Hencky): one step there. Where the point starts to yield r has a kink, at which plain
/// Newton may cycle, so the iterate is kept in a bracket [lo, hi] of y and a step leaving it
/// bisects. It starts from the plastic thickness strain ln Fp33 = -ln(Cp^-1_33) / 2 of the
/// old state (F and Cp^-1 stay block-diagonal, and the isochoric flow makes the plastic
/// thinning most of F33 at a yielded point). The law gets H33 = F33 - 1 = expm1(y), not F33:
/// in float, F33 near 1 resolves strains of only 6e-8, and a Newton root rounded there
/// differently every increment fed the plastic flow noise of that size (docs/theory.md, "J2
/// in float").
template <class T, class S>
HS_HD PlaneStressPoint<T> j2_plane_stress_point(const SolidMaterial<T>& m, const T H2[4], const S* old, T* next) {
  using std::exp;
  using std::expm1;
  using std::fabs;
  using std::log1p;
  using D = Dual<T>;
  T o[kJ2StateSize];
  for (int c = 0; c < kJ2StateSize; ++c) o[c] = old ? T(old[c]) : T(0);
  const SolidMaterial<D> md = dual_material(m);
  Mat3<D> H = dual_in_plane_gradient(H2);  // F33 - 1 set below
  const T tol = T(plane_stress_tolerance(static_cast<const T*>(nullptr)));
  const T ln2 = T(0.69314718055994531);
  T y = o[2] > T(-1) ? T(-0.5) * log1p(o[2]) : T(0);  // state component 2 is Cp^-1_33 - 1
  T lo = T(0), hi = T(0);
  bool has_lo = false, has_hi = false, small_step = false;
  PlaneStressPoint<T> out;
  int it = 0;
  while (it < 2 * kPlaneStressIterations) {
    ++it;
    const T f = exp(y);
    H(2, 2) = D(expm1(y), f);  // seeded along d(F33) = F33 dy
    D nx[kJ2StateSize];
    const SolidStress<D> r = j2_update_h(md, H, o, nx);
    const T s33 = r.S(2, 2).v;
    if (small_step || s33 == T(0)) {
      for (int k = 0; k < 9; ++k) out.S.a[k] = r.S.a[k].v;
      out.S(2, 2) = T(0);
      out.energy = r.energy.v + nx[kJ2Dissipation].v;
      out.dissipation = nx[kJ2Dissipation].v;
      out.f33 = f;
      out.s33_residual = s33;
      out.iterations = it;
      out.converged = true;
      if (next)
        for (int c = 0; c < kJ2StateSize; ++c) next[c] = nx[c].v;
      return out;
    }
    const T tau = f * f * s33, dtau = f * f * r.S(2, 2).d + T(2) * tau;  // d(F33^2 S33)/dy
    if (!(tau - tau == T(0)) || !(dtau > T(0))) break;
    if (tau > T(0)) hi = y, has_hi = true;
    else lo = y, has_lo = true;
    const T dy = -tau / dtau;
    T ny = y + dy;
    small_step = fabs(dy) <= tol;
    if (!small_step && ((has_lo && !(ny > lo)) || (has_hi && !(ny < hi))))
      ny = has_lo && has_hi ? T(0.5) * (lo + hi) : has_hi ? hi - ln2 : y + ln2;
    y = ny;
  }
  if (next)  // a NaN state stops the run at this element rather than carrying a wrong one on
    for (int c = 0; c < kJ2StateSize; ++c) next[c] = T(0) / T(0);
  return failed_plane_stress_point<T>(it);
}

/// Statically condensed plane-stress tangent from a full tangent C (material_tangent.hpp
/// conventions): Cps[a][b] = C[pa][pb] - C[pa][33] C[33][pb] / C[33][33] over the in-plane
/// components (11, 22, 12), rows s11, s22, s12, columns e11, e22 and engineering g12. It is
/// dS/dE in the plane with S33 held at 0 (E13 = E23 = 0 stay fixed by the kinematics).
template <class T>
HS_HD void condense_plane_stress(const T C[6][6], T Cps[3][3]) {
  const int p[3] = {0, 1, 3};
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) Cps[a][b] = C[p[a]][p[b]] - C[p[a]][2] * C[2][p[b]] / C[2][2];
}

/// plane_stress_point() plus the condensed tangent Cps (condense_plane_stress) at the
/// converged point, for implicit plane-stress elements. Cps is NaN if not converged.
template <class T>
HS_HD PlaneStressPoint<T> plane_stress_point_with_tangent(const SolidMaterial<T>& m, const T F2[4], T Cps[3][3],
                                                          T f33_start = T(0)) {
  const PlaneStressPoint<T> r = plane_stress_point(m, F2, f33_start);
  const Mat3<T> F{{F2[0], F2[1], T(0), F2[2], F2[3], T(0), T(0), T(0), r.f33}};
  T C[6][6];
  solid_tangent(m, F, C);
  condense_plane_stress(C, Cps);
  return r;
}

/// Condensed small-strain plane-stress stiffness at the reference, a 3x3 matrix with rows
/// s11, s22, s12 and columns e11, e22, engineering g12 (plane in directions 1, 2).
Mat3<double> plane_stress_stiffness(const SolidMaterial<double>& m);

/// Small-strain constants of a material that is isotropic in the plane (what ShellElastic holds).
struct PlaneIsotropicConstants {
  double ebar;    ///< E / (1 - nu^2), the condensed s11/e11
  double nu;      ///< in-plane Poisson's ratio, s11/e22 over s11/e11
  double shear;   ///< in-plane shear modulus s12/g12
  double gt;      ///< transverse shear modulus S13/g13 = S23/g23 of the full law
};

/// The in-plane isotropic constants of m; throws std::invalid_argument (message for the user)
/// if its plane-stress stiffness or transverse shear is not isotropic in the plane.
PlaneIsotropicConstants plane_isotropic_constants(const SolidMaterial<double>& m);

}  // namespace halfstep
