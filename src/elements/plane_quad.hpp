// Planar bilinear quadrilaterals CPS4 (plane stress) and CPE4 (plane strain), total
// Lagrangian, 2x2 Gauss integration, as host/device continuum traits (interface in
// solid_kinds.hpp). Nodes carry x and y; z is ignored and the out-of-plane thickness is the
// section's (SolidMaterial::thickness, default 1).
//
// At each Gauss point F = [[F2, 0], [0, F33]] with F2 = I + sum_a u_a (x) b_a (2x2 block).
// Plane strain: F33 = 1. Plane stress: F33 is the stretch that makes S33 = 0 for the solid
// law (materials/plane_stress.hpp; for J2 plasticity S33 of the return map from the point's
// state, so that the plastic point stays objective and exact on proportional paths); since
// dW/dF33 = P33 = F33 S33 = 0 there, the in-plane forces f_a = t w detJ P2 b_a are the exact
// gradient of the energy t w detJ W on both.
// Full integration locks in bending like Abaqus's CPS4/CPE4: fine meshes (or C3D8-like
// enhancements, not done here) are needed for slender bending.
//
// CPS4R and CPE4R (Quad4R) are the one-point forms, C3D8R's planar analogue: the centroid
// point with the element's mean F, and Flanagan-Belytschko springs on the one hourglass mode
// (stiffness kappa M t A sum_a |b_a|^2 / 4, M = hourglass_modulus; docs/theory.md). They do
// not lock in bending, and need the springs (or a few elements through a bending depth).
#pragma once

#include <cmath>

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "core/vec3.hpp"
#include "elements/solid_common.hpp"
#include "materials/plane_stress.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {
namespace plane_detail {

/// Natural coordinate (+-1) of node a along axis (0: xi, 1: eta), counter-clockwise from (-1, -1).
HS_HD int quad4_sign(int a, int axis) { return axis == 0 ? ((a == 1 || a == 2) ? 1 : -1) : (a >= 2 ? 1 : -1); }

/// Shape functions N (may be null) and in-plane reference gradients b (z = 0) at (xi, eta);
/// returns detJ (b zero when detJ <= 0).
template <class T>
HS_HD T quad4_gradients(const Vec3<T> X[4], T xi, T eta, Vec3<T> b[4], T* N) {
  T dxi[4], deta[4];
  for (int a = 0; a < 4; ++a) {
    const T s = T(quad4_sign(a, 0)), t = T(quad4_sign(a, 1));
    dxi[a] = s * (T(1) + t * eta) / T(4);
    deta[a] = t * (T(1) + s * xi) / T(4);
    if (N) N[a] = (T(1) + s * xi) * (T(1) + t * eta) / T(4);
  }
  T j00 = T(0), j01 = T(0), j10 = T(0), j11 = T(0);  // J_ij = dX_i / dxi_j
  for (int a = 0; a < 4; ++a) {
    j00 += X[a].x * dxi[a];
    j01 += X[a].x * deta[a];
    j10 += X[a].y * dxi[a];
    j11 += X[a].y * deta[a];
  }
  const T det = j00 * j11 - j01 * j10;
  if (!(det > T(0))) {
    for (int a = 0; a < 4; ++a) b[a] = {T(0), T(0), T(0)};
    return det;
  }
  for (int a = 0; a < 4; ++a)  // b = J^-T dN/dxi
    b[a] = {(j11 * dxi[a] - j10 * deta[a]) / det, (-j01 * dxi[a] + j00 * deta[a]) / det, T(0)};
  return det;
}

/// Natural coordinate of Gauss point g along axis (next to node g).
template <class T>
HS_HD T quad4_gauss(int g, int axis) {
  return T(quad4_sign(g, axis)) * T(0.57735026918962576451);
}

/// F at Gauss point g: the in-plane block from the N nodes' u and b (N = 4 here; the
/// NURBS elements pass theirs), F33 = 1 (plane strain) or solved for
/// S33 = 0 (plane stress; for J2 with the return map inside the iteration,
/// j2_plane_stress_point). The point's state is read and written through state. Returns S,
/// energy density (stored plus dissipated for J2) and the full F.
template <class T, bool kPlaneStress, int N = 4>
HS_HD SolidStress<T> quad4_point(const SolidMaterial<T>& m, const Vec3<T> u[N], const Vec3<T> b[N], Mat3<T>& F,
                                 const ElementState<T>& state, int g) {
  T H2[4] = {T(0), T(0), T(0), T(0)};  // in-plane displacement gradient, row-major
  for (int a = 0; a < N; ++a) {
    H2[0] += u[a].x * b[a].x;
    H2[1] += u[a].x * b[a].y;
    H2[2] += u[a].y * b[a].x;
    H2[3] += u[a].y * b[a].y;
  }
  F = scaled_identity(T(1));
  F(0, 0) += H2[0];
  F(0, 1) = H2[1];
  F(1, 0) = H2[2];
  F(1, 1) += H2[3];
  if constexpr (kPlaneStress) {
    const T F2[4] = {F(0, 0), F(0, 1), F(1, 0), F(1, 1)};
    PlaneStressPoint<T> r;  // NaN when it does not converge
    if (law_is<J2Plastic>(m)) {
      T old[kJ2StateSize], next[kJ2StateSize];
      const StateSlice<const T> so = state.old_at(g);
      for (int c = 0; c < kJ2StateSize; ++c) old[c] = so.p ? so[c] : T(0);
      r = j2_plane_stress_point(m, H2, old, next);  // the gradient keeps float's digits
      const StateSlice<T> sn = state.next_at(g);
      if (sn.p)
        for (int c = 0; c < kJ2StateSize; ++c) sn[c] = next[c];
    } else {
      r = plane_stress_point(m, F2);
    }
    F(2, 2) = r.f33;
    return {r.S, r.energy, r.dissipation};
  } else {
    return point_stress(m, F, state, g);
  }
}

/// The CPS4 / CPE4 trait body; kPlaneStress chooses the out-of-plane condition.
template <bool kPlaneStress>
struct Quad4 {
  static constexpr bool kThermalStrain = !kPlaneStress;  ///< plane strain takes *EXPANSION's thermal strain; plane stress has its own S33 = 0 path
  static constexpr int kNodes = 4;
  static constexpr const char* kAliases = "";
  static constexpr int kDimension = 2;
  static constexpr int kVtkCell = 9;  ///< VTK_QUAD
  /// Relative cost (MITC4 = 1): estimated from C3D8's measured 2.15 for 8 points (4 planar
  /// points, plus the plane-stress iteration); not measured.
  static constexpr double kCost = kPlaneStress ? 1.2 : 0.9;
  static constexpr int kPoints = 4;

  /// Row-sum lumped mass frac_a = (1/A) int N_a dA (2x2, exact). Returns the area A (the
  /// caller multiplies by the thickness), or the first non-positive detJ at a Gauss point.
  template <class T>
  HS_HD static T mass_fractions(const Vec3<T> X[4], T frac[4]) {
    for (int a = 0; a < 4; ++a) frac[a] = T(0);
    T area = T(0);
    for (int g = 0; g < 4; ++g) {
      Vec3<T> b[4];
      T N[4];
      const T det = quad4_gradients(X, quad4_gauss<T>(g, 0), quad4_gauss<T>(g, 1), b, N);
      if (!(det > T(0))) return det;
      for (int a = 0; a < 4; ++a) frac[a] += det * N[a];
      area += det;
    }
    for (int a = 0; a < 4; ++a) frac[a] /= area;
    return area;
  }

  /// In-plane forces f (4, z = 0) and strain energy, thickness m.thickness; no hourglass
  /// modes (kappa unused). NaN for an invalid reference.
  template <class T>
  HS_HD static SolidEnergy<T> internal_force(const Vec3<T> X[4], const Vec3<T> u[4], const SolidMaterial<T>& m,
                                             T hourglass_kappa, Vec3<T> f[4], const ElementState<T>& state = {}) {
    (void)hourglass_kappa;
    for (int a = 0; a < 4; ++a) f[a] = {T(0), T(0), T(0)};
    T energy = T(0), dissipation = T(0), slope = T(0);
    for (int g = 0; g < 4; ++g) {
      Vec3<T> b[4];
      const T det = quad4_gradients(X, quad4_gauss<T>(g, 0), quad4_gauss<T>(g, 1), b, static_cast<T*>(nullptr));
      if (!(det > T(0))) {
        const T nan = solid_detail::quiet_nan<T>();
        for (int a = 0; a < 4; ++a) f[a] = {nan, nan, nan};
        return {nan, T(0)};
      }
      Mat3<T> F;
      const SolidStress<T> s = quad4_point<T, kPlaneStress>(m, u, b, F, state, g);
      const T w = m.thickness * det;
      const Mat3<T> P = F * s.S;
      for (int a = 0; a < 4; ++a) {
        f[a].x += w * (P(0, 0) * b[a].x + P(0, 1) * b[a].y);
        f[a].y += w * (P(1, 0) * b[a].x + P(1, 1) * b[a].y);
      }
      energy += w * s.energy;
      dissipation += w * s.dissipation;
      slope += w * s.thermal_slope;
    }
    return {energy, T(0), dissipation, T(0), slope};
  }

  /// Critical increment bound 2/omega: at each point eps:C:eps <= lam (tr eps)^2 + g2 eps:eps
  /// (the 3-D bound moduli; in plane stress lam condensed as for isotropic laws) and both are at most
  /// B_g |u|_M^2 with B_g = sum_a |b_a|^2 / m_a, so omega^2 <= sum_g detJ_g (lam + g2) B_g
  /// per unit thickness (mass and stiffness both scale with the thickness).
  template <class T>
  HS_HD static T stable_dt(const Vec3<T> X[4], const SolidMaterial<T>& m, T hourglass_kappa = T(0.1)) {
    (void)hourglass_kappa;
    T frac[4];
    const T area = mass_fractions(X, frac);
    if (!(area > T(0))) return T(0);
    T lam, g2;
    solid_detail::bound_moduli(m, lam, g2);
    // Plane stress condenses the out-of-plane strain: lambda* = 2 lambda mu / (lambda + 2 mu)
    // (g2 = 2 mu), so a nearly incompressible law's bulk modulus does not shrink the bound.
    if (kPlaneStress && lam > T(0)) lam = lam * g2 / (lam + g2);
    T omega2 = T(0);
    for (int g = 0; g < 4; ++g) {
      Vec3<T> b[4];
      const T det = quad4_gradients(X, quad4_gauss<T>(g, 0), quad4_gauss<T>(g, 1), b, static_cast<T*>(nullptr));
      T bg = T(0);
      for (int a = 0; a < 4; ++a) bg += dot(b[a], b[a]) / (m.density * area * frac[a]);
      omega2 += det * (lam + g2) * bg;
    }
    return solid_detail::dt_from_omega2(omega2);
  }

  /// Cauchy stress and Green strain averaged over the Gauss points (weights detJ_g / A);
  /// plane stress has S33 = 0 and a non-zero E33.
  template <class T>
  HS_HD static SolidOutput<T> centroid_output(const Vec3<T> X[4], const Vec3<T> u[4], const SolidMaterial<T>& m,
                                              ElementState<T> state = {}) {
    state.next = nullptr;  // output reads the state, never writes it
    T frac[4];
    const T area = mass_fractions(X, frac);
    if (!(area > T(0))) {
      const T nan = solid_detail::quiet_nan<T>();
      return {scaled_identity(nan), scaled_identity(nan)};
    }
    SolidOutput<T> out{scaled_identity(T(0)), scaled_identity(T(0))};
    for (int g = 0; g < 4; ++g) {
      Vec3<T> b[4];
      const T w = quad4_gradients(X, quad4_gauss<T>(g, 0), quad4_gauss<T>(g, 1), b, static_cast<T*>(nullptr)) / area;
      Mat3<T> F;
      const SolidStress<T> s = quad4_point<T, kPlaneStress>(m, u, b, F, state, g);
      out.cauchy = out.cauchy + w * ((T(1) / determinant(F)) * (F * s.S * transpose(F)));
      out.green = out.green + w * green_strain(F);
    }
    return out;
  }

  /// Cauchy stress and Green strain at each Gauss point (point g next to node g; NaN at every
  /// point for an invalid reference).
  template <class T>
  HS_HD static void point_outputs(const Vec3<T> X[4], const Vec3<T> u[4], const SolidMaterial<T>& m,
                                  ElementState<T> state, SolidOutput<T> out[4]) {
    state.next = nullptr;  // output reads the state, never writes it
    T frac[4];
    const bool valid = mass_fractions(X, frac) > T(0);
    for (int g = 0; g < 4; ++g) {
      if (!valid) {
        const T nan = solid_detail::quiet_nan<T>();
        out[g] = {scaled_identity(nan), scaled_identity(nan)};
        continue;
      }
      Vec3<T> b[4];
      quad4_gradients(X, quad4_gauss<T>(g, 0), quad4_gauss<T>(g, 1), b, static_cast<T*>(nullptr));
      Mat3<T> F;
      const SolidStress<T> s = quad4_point<T, kPlaneStress>(m, u, b, F, state, g);
      out[g] = {(T(1) / determinant(F)) * (F * s.S * transpose(F)), green_strain(F)};
    }
  }
  /// The point (next to node kOutputPoint[p]) that Abaqus numbers p + 1: xi fastest.
  static constexpr int kOutputPoint[4] = {0, 1, 3, 2};
};

/// Reference constants of a one-point quadrilateral (CPS4R, CPE4R).
template <class T>
struct Quad4Ref {
  Vec3<T> b[4];  ///< uniform gradients (1/A) int dN_a/dX dA = (1/A) dA/dX_a (z = 0)
  T area;        ///< exact (shoelace) area
  T gamma[4];    ///< Flanagan-Belytschko hourglass vector h - (sum_b h_b X_b) . b, h = (1, -1, 1, -1)
};

/// Reference constants from the node positions; false when the area is not positive. The
/// bilinear area is the shoelace sum A = 1/2 sum_a (x_a y_a+1 - x_a+1 y_a), so
/// b_a = (1/A) dA/dX_a = (y_a+1 - y_a-1, x_a-1 - x_a+1) / (2A), the mean of dN_a/dX over the
/// element: sum_a X_a (x) b_a = I, and a uniform stress leaves no force at interior nodes.
template <class T>
HS_HD bool quad4_reference(const Vec3<T> X[4], Quad4Ref<T>& r) {
  T twice = T(0);
  for (int a = 0; a < 4; ++a) twice += X[a].x * X[(a + 1) % 4].y - X[(a + 1) % 4].x * X[a].y;
  r.area = T(0.5) * twice;
  if (!(r.area > T(0))) return false;
  for (int a = 0; a < 4; ++a) {
    const Vec3<T>& n = X[(a + 1) % 4];
    const Vec3<T>& p = X[(a + 3) % 4];
    r.b[a] = {(n.y - p.y) / twice, (p.x - n.x) / twice, T(0)};
  }
  const T h[4] = {T(1), T(-1), T(1), T(-1)};
  T hx = T(0), hy = T(0);
  for (int a = 0; a < 4; ++a) {
    hx += h[a] * X[a].x;
    hy += h[a] * X[a].y;
  }
  for (int a = 0; a < 4; ++a) r.gamma[a] = h[a] - (hx * r.b[a].x + hy * r.b[a].y);
  return true;
}

/// True when detJ > 0 at the four 2x2 Gauss points (checked once at the model build: a
/// non-convex quadrilateral can have a positive area and an inverted corner).
template <class T>
HS_HD bool quad4_jacobians_positive(const Vec3<T> X[4]) {
  for (int g = 0; g < 4; ++g) {
    Vec3<T> b[4];
    if (!(quad4_gradients(X, quad4_gauss<T>(g, 0), quad4_gauss<T>(g, 1), b, static_cast<T*>(nullptr)) > T(0)))
      return false;
  }
  return true;
}

/// Hourglass stiffness of a one-point quadrilateral: kappa M t A sum_a |b_a|^2 / 4 (the
/// planar form of C3D8R's kappa M V sum_a |b_a|^2 / 8: the mean |b_a|^2 over the nodes).
template <class T>
HS_HD T quad4_hourglass_stiffness(const Quad4Ref<T>& r, T modulus, T thickness, T kappa) {
  T bb = T(0);
  for (int a = 0; a < 4; ++a) bb += dot(r.b[a], r.b[a]);
  return kappa * modulus * thickness * r.area * bb / T(4);
}

/// The CPS4R / CPE4R trait body: one point at the centroid with the element's mean F (the
/// uniform gradients), and Flanagan-Belytschko hourglass springs on the one in-plane
/// hourglass vector gamma (two components: u_x and u_y). Forces f_a = t A P b_a +
/// k gamma_a q, q = sum_a gamma_a u_a; the springs' energy k/2 |q|^2 is the hourglass
/// energy. gamma is orthogonal to every linear field, so the springs leave the patch test
/// and rigid motions (of any size: q is linear in u, and a rotation's u is linear in X)
/// untouched.
template <bool kPlaneStress>
struct Quad4R {
  static constexpr bool kThermalStrain = !kPlaneStress;  ///< plane strain takes *EXPANSION's thermal strain; plane stress has its own S33 = 0 path
  static constexpr int kNodes = 4;
  static constexpr const char* kAliases = "";
  static constexpr int kDimension = 2;
  static constexpr int kVtkCell = 9;  ///< VTK_QUAD
  /// Relative cost (MITC4 = 1): a quarter of the 2x2 quadrilateral's points plus the
  /// springs; estimated, not measured.
  static constexpr double kCost = kPlaneStress ? 0.45 : 0.35;
  static constexpr int kPoints = 1;

  /// Lumped mass 1/4 per node. Returns the area (the caller multiplies by the thickness), or
  /// 0 when the element is inverted or flat at a 2x2 Gauss point.
  template <class T>
  HS_HD static T mass_fractions(const Vec3<T> X[4], T frac[4]) {
    for (int a = 0; a < 4; ++a) frac[a] = T(0.25);
    Quad4Ref<T> r;
    return quad4_jacobians_positive(X) && quad4_reference(X, r) ? r.area : T(0);
  }

  /// In-plane forces f (4, z = 0) and energies (strain t A W, hourglass k/2 |q|^2) with
  /// k = quad4_hourglass_stiffness(kappa, M = hourglass_modulus(m)). NaN for an invalid
  /// reference.
  template <class T>
  HS_HD static SolidEnergy<T> internal_force(const Vec3<T> X[4], const Vec3<T> u[4], const SolidMaterial<T>& m,
                                             T hourglass_kappa, Vec3<T> f[4], const ElementState<T>& state = {}) {
    Quad4Ref<T> r;
    if (!quad4_reference(X, r)) {
      const T nan = solid_detail::quiet_nan<T>();
      for (int a = 0; a < 4; ++a) f[a] = {nan, nan, nan};
      return {nan, nan};
    }
    Mat3<T> F;
    const SolidStress<T> s = quad4_point<T, kPlaneStress>(m, u, r.b, F, state, 0);
    const T w = m.thickness * r.area;
    const Mat3<T> P = F * s.S;
    const T k = quad4_hourglass_stiffness(r, hourglass_modulus(m), m.thickness, hourglass_kappa);
    T qx = T(0), qy = T(0);
    for (int a = 0; a < 4; ++a) {
      qx += r.gamma[a] * u[a].x;
      qy += r.gamma[a] * u[a].y;
    }
    for (int a = 0; a < 4; ++a)
      f[a] = {w * (P(0, 0) * r.b[a].x + P(0, 1) * r.b[a].y) + k * r.gamma[a] * qx,
              w * (P(1, 0) * r.b[a].x + P(1, 1) * r.b[a].y) + k * r.gamma[a] * qy, T(0)};
    return {w * s.energy, T(0.5) * k * (qx * qx + qy * qy), w * s.dissipation, T(0), w * s.thermal_slope};
  }

  /// Critical increment bound 2/omega, m_a = rho t A / 4: the one-point stiffness gives
  /// omega^2 <= 4 (lam + g2) sum_a |b_a|^2 / rho (as C3D8R's, lam condensed in plane
  /// stress as for CPS4), and the springs k gamma gamma^T (per direction) add at most
  /// k |gamma|^2 / m_a (Weyl: the sum bounds the sum of the stiffnesses).
  template <class T>
  HS_HD static T stable_dt(const Vec3<T> X[4], const SolidMaterial<T>& m, T hourglass_kappa = T(0.1)) {
    Quad4Ref<T> r;
    if (!quad4_jacobians_positive(X) || !quad4_reference(X, r)) return T(0);
    T lam, g2;
    solid_detail::bound_moduli(m, lam, g2);
    if (kPlaneStress && lam > T(0)) lam = lam * g2 / (lam + g2);
    T bb = T(0), gg = T(0);
    for (int a = 0; a < 4; ++a) {
      bb += dot(r.b[a], r.b[a]);
      gg += r.gamma[a] * r.gamma[a];
    }
    const T k = quad4_hourglass_stiffness(r, hourglass_modulus(m), T(1), hourglass_kappa);  // per unit thickness
    return solid_detail::dt_from_omega2(T(4) * (lam + g2) * bb / m.density + T(4) * k * gg / (m.density * r.area));
  }

  /// Cauchy stress and Green strain at the centroid (the element's only point).
  template <class T>
  HS_HD static SolidOutput<T> centroid_output(const Vec3<T> X[4], const Vec3<T> u[4], const SolidMaterial<T>& m,
                                              ElementState<T> state = {}) {
    state.next = nullptr;  // output reads the state, never writes it
    Quad4Ref<T> r;
    if (!quad4_reference(X, r)) {
      const T nan = solid_detail::quiet_nan<T>();
      return {scaled_identity(nan), scaled_identity(nan)};
    }
    Mat3<T> F;
    const SolidStress<T> s = quad4_point<T, kPlaneStress>(m, u, r.b, F, state, 0);
    return {(T(1) / determinant(F)) * (F * s.S * transpose(F)), green_strain(F)};
  }
};

}  // namespace plane_detail

/// CPS4: plane-stress bilinear quadrilateral.
struct CPS4 : plane_detail::Quad4<true> {
  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "CPS4"; }
};

/// CPE4: plane-strain bilinear quadrilateral.
struct CPE4 : plane_detail::Quad4<false> {
  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "CPE4"; }
};

}  // namespace halfstep

namespace halfstep {

/// CPS4R: plane-stress quadrilateral, one point, hourglass springs.
struct CPS4R : plane_detail::Quad4R<true> {
  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "CPS4R"; }
};

/// CPE4R: plane-strain quadrilateral, one point, hourglass springs.
struct CPE4R : plane_detail::Quad4R<false> {
  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "CPE4R"; }
};

}  // namespace halfstep
