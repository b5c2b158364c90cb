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

/// F at Gauss point g: the in-plane block from u and b, F33 = 1 (plane strain) or solved for
/// S33 = 0 (plane stress; for J2 with the return map inside the iteration,
/// j2_plane_stress_point). The point's state is read and written through state. Returns S,
/// energy density (stored plus dissipated for J2) and the full F.
template <class T, bool kPlaneStress>
HS_HD SolidStress<T> quad4_point(const SolidMaterial<T>& m, const Vec3<T> u[4], const Vec3<T> b[4], Mat3<T>& F,
                                 const ElementState<T>& state, int g) {
  T H2[4] = {T(0), T(0), T(0), T(0)};  // in-plane displacement gradient, row-major
  for (int a = 0; a < 4; ++a) {
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
    if (m.model == kJ2Plastic) {
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
    T energy = T(0), dissipation = T(0);
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
    }
    return {energy, T(0), dissipation};
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
