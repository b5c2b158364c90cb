// Hexahedral solid kinds C3D8R and C3D8 (Abaqus node order: bottom face 1-4, top 5-8, see
// hex8_sign), total Lagrangian, as host/device element traits (interface described in
// src/elements/solid_kinds.hpp). Nothing is stored per element: the reference gradients are
// recomputed from the reference coordinates X on every call.
//
// C3D8R wraps hex8.hpp (mean F from the uniform gradients, Flanagan-Belytschko hourglass
// springs) and adds its lumped mass (1/8 per node) and stable increment. Its forces V P b_a
// use the volume-averaged gradients b_a, so a uniform stress on a distorted patch gives no
// residual force at interior nodes.
//
// C3D8 is the trilinear hexahedron with 2x2x2 Gauss integration and the F-bar method against
// volumetric locking: at Gauss point g the material sees Fbar_g = (J0 / J_g)^(1/3) F_g, so
// the volume change is the element's mean one while the isochoric part stays the local one.
// F0 = I + sum_a u_a (x) bbar_a uses the volume-averaged gradients
// bbar_a = (1/V) int dN_a/dX dV (the same 2x2x2 rule, exact for these integrands); on a
// parallelepiped they equal the centroid gradients. The averaged, not the centroid, gradient
// is used because then the extra F-bar force term integrates to zero for any uniform
// deformation: a linear displacement field gives f_a = P int dN_a/dX dV exactly, on
// distorted elements too, so assembled patches of elements pass the patch test.
// The energy is sum_g w_g detJ_g W(Fbar_g) and the force is its exact gradient; with
// alpha = (J0/J)^(1/3), Pbar = Fbar S(Fbar), dJ = J F^-T : dF:
//   f_a = sum_g w_g detJ_g [ alpha Pbar b_a + (alpha/3) (Pbar : F) (F0^-T bbar_a - F^-T b_a) ].
//
// C3D8Full (C3D8 with *SOLID SECTION, FORMULATION=FULL) is the same hexahedron with every Gauss
// point its own volume change: the peer solver's C3D8 (halfstep run --dialect calculix reads
// C3D8 so). It locks where F-bar does not (nearly incompressible material, bending of a coarse
// mesh), and its point stresses carry the point's own pressure.
#pragma once

#include <cmath>

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "core/vec3.hpp"
#include "elements/hex8.hpp"
#include "elements/solid_common.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {
namespace solid_detail {

/// Natural-coordinate derivatives of the 8 trilinear shape functions at (xi, eta, zeta), and
/// optionally the shape functions themselves (N may be null).
template <class T>
HS_HD void hex8_natural(T xi, T eta, T zeta, Vec3<T> dn[8], T* N) {
  for (int a = 0; a < 8; ++a) {
    const T s0 = T(hex8_sign(a, 0)), s1 = T(hex8_sign(a, 1)), s2 = T(hex8_sign(a, 2));
    const T p0 = T(1) + s0 * xi, p1 = T(1) + s1 * eta, p2 = T(1) + s2 * zeta;
    dn[a] = {s0 * p1 * p2 / T(8), p0 * s1 * p2 / T(8), p0 * p1 * s2 / T(8)};
    if (N) N[a] = p0 * p1 * p2 / T(8);
  }
}

/// Reference gradients b[a] = dN_a/dX at a natural point (overwriting dn), and detJ; when
/// detJ <= 0 (inverted or flat there) b is left as the natural derivatives.
template <class T>
HS_HD T hex8_gradients(const Vec3<T> X[8], Vec3<T> b[8]) {
  if constexpr (IsLanes<T>::value) {  // in double, then converted (core/is_lanes.hpp)
    Vec3<double> Xd[8], bd[8];
    lane_values(X, 8, Xd);
    lane_values(b, 8, bd);
    const double det = hex8_gradients(Xd, bd);
    from_values(bd, 8, b);
    return T(det);
  }
  Mat3<T> J = scaled_identity(T(0));
  for (int a = 0; a < 8; ++a) add_jacobian(J, X[a], b[a]);
  const T det = determinant(J);
  if (!(det > T(0))) return det;
  const Mat3<T> Jit = transpose(inverse(J));
  for (int a = 0; a < 8; ++a) b[a] = Jit * b[a];
  return det;
}

/// Natural coordinate of the 2x2x2 Gauss point g (0..7) along axis, +-1/sqrt(3) taken with
/// the signs of node g, so point g sits next to node g.
template <class T>
HS_HD T hex8_gauss(int g, int axis) {
  return T(hex8_sign(g, axis)) * T(0.57735026918962576451);
}

/// Volume-averaged gradients bbar (8) and the volume V = sum_g detJ_g of a C3D8 (unit
/// Gauss weights). Returns the first non-positive detJ_g instead when the element is
/// inverted or flat at a Gauss point (bbar then undefined).
template <class T>
HS_HD T c3d8_mean_gradients(const Vec3<T> X[8], Vec3<T> bbar[8]) {
  for (int a = 0; a < 8; ++a) bbar[a] = {T(0), T(0), T(0)};
  T vol = T(0);
  for (int g = 0; g < 8; ++g) {
    Vec3<T> b[8];
    hex8_natural(hex8_gauss<T>(g, 0), hex8_gauss<T>(g, 1), hex8_gauss<T>(g, 2), b, static_cast<T*>(nullptr));
    const T det = hex8_gradients(X, b);
    if (!(det > T(0))) return det;
    for (int a = 0; a < 8; ++a) bbar[a] += det * b[a];
    vol += det;
  }
  for (int a = 0; a < 8; ++a) bbar[a] = (T(1) / vol) * bbar[a];
  return vol;
}

/// Full C3D8 evaluation: forces f (8) and strain energy, with (fbar true: C3D8) or without
/// (plain 2x2x2 integration, which locks: C3D8Full) the F-bar method. Writes NaN when the
/// reference element is invalid.
template <class T>
HS_HD SolidEnergy<T> c3d8_force(const Vec3<T> X[8], const Vec3<T> u[8], const SolidMaterial<T>& m, bool fbar,
                                Vec3<T> f[8], const ElementState<T>& state = {}) {
  Vec3<T> bbar[8];
  const T vol = c3d8_mean_gradients(X, bbar);
  if (!(vol > T(0))) {
    const T nan = quiet_nan<T>();
    for (int a = 0; a < 8; ++a) f[a] = {nan, nan, nan};
    return {nan, T(0)};
  }
  Mat3<T> F0 = scaled_identity(T(1));
  for (int a = 0; a < 8; ++a) add_outer(F0, u[a], bbar[a]);
  const T J0 = determinant(F0);
  for (int a = 0; a < 8; ++a) f[a] = {T(0), T(0), T(0)};
  T energy = T(0), dissipation = T(0), slope = T(0);
  T c0 = T(0);  // sum_g detJ_g (alpha/3)(Pbar:F): the factor of F0^-T bbar_a, applied once
  for (int g = 0; g < 8; ++g) {
    Vec3<T> b[8];
    hex8_natural(hex8_gauss<T>(g, 0), hex8_gauss<T>(g, 1), hex8_gauss<T>(g, 2), b, static_cast<T*>(nullptr));
    const T det = hex8_gradients(X, b);
    Mat3<T> F = scaled_identity(T(1));
    for (int a = 0; a < 8; ++a) add_outer(F, u[a], b[a]);
    if (!fbar) {
      const SolidStress<T> s = point_stress(m, F, state, g);
      const Mat3<T> P = det * (F * s.S);
      for (int a = 0; a < 8; ++a) f[a] += P * b[a];
      energy += det * s.energy;
      dissipation += det * s.dissipation;
      slope += det * s.thermal_slope;
      continue;
    }
    using std::cbrt;  // unqualified: Dual<T> (element matrices by differentiation) finds its own
    const T alpha = cbrt(J0 / determinant(F));
    const Mat3<T> Fb = alpha * F;
    const SolidStress<T> s = point_stress(m, Fb, state, g);
    const Mat3<T> Pb = Fb * s.S;
    const T c = det * alpha / T(3) * ddot(Pb, F);
    const Mat3<T> A = (det * alpha) * Pb;
    const Mat3<T> Fit = transpose(inverse(F));
    for (int a = 0; a < 8; ++a) f[a] += A * b[a] - c * (Fit * b[a]);
    c0 += c;
    energy += det * s.energy;
    dissipation += det * s.dissipation;
    slope += det * s.thermal_slope;
  }
  if (fbar) {
    const Mat3<T> F0it = transpose(inverse(F0));
    for (int a = 0; a < 8; ++a) f[a] += c0 * (F0it * bbar[a]);
  }
  return {energy, T(0), dissipation, T(0), slope};
}

/// C3D8's (F-bar) element matrix by its points' tangents, for laws without state (host code;
/// T a number with 18 derivative lanes, DualLanes<18>). The forces are c3d8_force's,
/// f_a = sum_g (Q_g b_a + R_g bbar_a) with Q_g = detJ_g alpha Pbar - c_g F_g^-T and
/// R_g = c_g F0^-T (c_g = detJ_g alpha (Pbar : F_g) / 3), functions of the point's F_g and the
/// element's F0 alone: one evaluation of each point with F_g and F0 seeded in 18 lanes gives
/// their derivatives H, and K_(ak)(bi) = sum_g B_a^T H B_b with B_a = (b_a, bbar_a). Writes
/// ke (24 x 24, row-major); false (ke unspecified) for an invalid element.
template <class T>
bool c3d8_fbar_point_matrix(const Vec3<double> X[8], const Vec3<double> u[8], const SolidMaterial<T>& m, double theta,
                            double* ke) {
  Vec3<double> bbar[8];
  if (!(c3d8_mean_gradients(X, bbar) > 0.0)) return false;
  Mat3<double> F0d = scaled_identity(1.0);
  for (int a = 0; a < 8; ++a) add_outer(F0d, u[a], bbar[a]);
  const Mat3<T> F0 = seeded_lanes<T>(F0d, 9);
  const T J0 = determinant(F0);
  const Mat3<T> F0it = transpose(inverse(F0));
  for (int i = 0; i < 24 * 24; ++i) ke[i] = 0.0;
  for (int g = 0; g < 8; ++g) {
    Vec3<double> b[8];
    hex8_natural(hex8_gauss<double>(g, 0), hex8_gauss<double>(g, 1), hex8_gauss<double>(g, 2), b,
                 static_cast<double*>(nullptr));
    const double det = hex8_gradients(X, b);
    if (!(det > 0.0)) return false;
    Mat3<double> Fd = scaled_identity(1.0);
    for (int a = 0; a < 8; ++a) add_outer(Fd, u[a], b[a]);
    const Mat3<T> F = seeded_lanes<T>(Fd, 0);
    using std::cbrt;  // unqualified: the lanes' own
    const T alpha = cbrt(J0 / determinant(F));
    const Mat3<T> Fb = alpha * F;
    const ElementState<T> st{nullptr, nullptr, 0, 0, nullptr, T(theta)};
    const SolidStress<T> s = point_stress(m, Fb, st, g);
    const Mat3<T> Pb = Fb * s.S;
    const T c = det * alpha / T(3) * ddot(Pb, F);
    const Mat3<T> Q = (det * alpha) * Pb - c * transpose(inverse(F)), R = c * F0it;
    double dQ[9][18], dR[9][18];  // [3k + l][lane]
    for (int k = 0; k < 3; ++k)
      for (int l = 0; l < 3; ++l)
        for (int q = 0; q < 18; ++q) dQ[3 * k + l][q] = Q(k, l).lane(q), dR[3 * k + l][q] = R(k, l).lane(q);
    for (int a = 0; a < 8; ++a) {
      const double ba[3] = {b[a].x, b[a].y, b[a].z}, ca[3] = {bbar[a].x, bbar[a].y, bbar[a].z};
      for (int k = 0; k < 3; ++k) {
        double G[18];  // sum_l b_a,l dQ_kl + bbar_a,l dR_kl, along F_g (0..8) and F0 (9..17)
        for (int q = 0; q < 18; ++q)
          G[q] = ba[0] * dQ[3 * k][q] + ba[1] * dQ[3 * k + 1][q] + ba[2] * dQ[3 * k + 2][q] + ca[0] * dR[3 * k][q] +
                 ca[1] * dR[3 * k + 1][q] + ca[2] * dR[3 * k + 2][q];
        double* row = ke + (3 * a + k) * 24;
        for (int e = 0; e < 8; ++e)
          for (int i = 0; i < 3; ++i)
            row[3 * e + i] += G[3 * i] * b[e].x + G[3 * i + 1] * b[e].y + G[3 * i + 2] * b[e].z +
                              G[9 + 3 * i] * bbar[e].x + G[9 + 3 * i + 1] * bbar[e].y + G[9 + 3 * i + 2] * bbar[e].z;
      }
    }
  }
  return true;
}

}  // namespace solid_detail

/// C3D8R: one-point hexahedron with Flanagan-Belytschko hourglass stiffness (hex8.hpp).
struct C3D8R {
  static constexpr bool kThermalStrain = true;  ///< its points take *EXPANSION's thermal strain (point_stress)
  static constexpr int kNodes = 8;

  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "C3D8R"; }
  static constexpr const char* kAliases = "";  ///< other deck names run as this kind
  static constexpr int kDimension = 3;             ///< space dimension of the element's nodes
  static constexpr int kVtkCell = 12;               ///< VTK cell type (Abaqus node order is VTK's)
  static constexpr double kCost = 1.05;           ///< relative cost per increment (MITC4 = 1), for partitioning
  static constexpr int kPoints = 1;                ///< integration points (per-point state size multiplies this)
  static constexpr bool kRelativeDisplacements = true;  ///< strains from gradients only (continuum_element)
  /// The element node at hexahedron corner k (bulk viscosity).
  HS_HD static constexpr int hex_corner(int k) { return k; }

  /// Lumped mass: 1/8 of the element mass per node. Returns the exact volume (<= 0 when the
  /// element is inverted or flat at a 2x2x2 Gauss point).
  template <class T>
  HS_HD static T mass_fractions(const Vec3<T> X[8], T frac[8]) {
    for (int a = 0; a < 8; ++a) frac[a] = T(0.125);
    Hex8Ref<T> r;
    return hex8_jacobians_positive(X) && hex8_reference(X, r) ? r.volume : T(0);
  }

  /// Internal forces f (8) and energies; the hourglass stiffness is kappa M V sum|b|^2 / 8
  /// with M = hourglass_modulus(m) (twice the shear modulus). NaN for an invalid reference.
  template <class T>
  HS_HD static SolidEnergy<T> internal_force(const Vec3<T> X[8], const Vec3<T> u[8], const SolidMaterial<T>& m,
                                             T hourglass_kappa, Vec3<T> f[8], const ElementState<T>& state = {}) {
    Hex8Ref<T> r;
    if (!hex8_reference(X, r)) {
      const T nan = solid_detail::quiet_nan<T>();
      for (int a = 0; a < 8; ++a) f[a] = {nan, nan, nan};
      return {nan, nan};
    }
    const T k = hex8_hourglass_stiffness(r, hourglass_modulus(m), hourglass_kappa);
    const Hex8Energy<T> e = hex8_internal_force(r, u, m, k, f, state);
    return {e.strain, e.hourglass, e.dissipation, T(0), e.thermal_slope};
  }

  /// Critical increment bound 2/omega for the one-point stiffness plus the hourglass
  /// springs (hourglass_kappa as in internal_force), m_a = rho V / 8:
  /// omega^2 <= 8 M sum_a |b_a|^2 / rho + k lmax / m_a. The first term is the
  /// Flanagan-Belytschko bound (M = lam + g2 of bound_moduli, see C3D8::stable_dt); the
  /// second bounds the hourglass stiffness k sum_i gamma^i gamma^i^T, lmax being the
  /// Gershgorin bound of the 4x4 Gram matrix gamma^i . gamma^j; the sum of the two bounds
  /// the sum of the stiffnesses (Weyl). The second term is needed: the one-point bound is
  /// attained by the dilatation mode u_a ~ b_a, which on a distorted element also strains the
  /// hourglass springs, so for a nearly incompressible material the hourglass raises omega
  /// above the first term alone. For a cube the second term is kappa times the first.
  template <class T>
  HS_HD static T stable_dt(const Vec3<T> X[8], const SolidMaterial<T>& m, T hourglass_kappa = T(0.1)) {
    Hex8Ref<T> r;
    if (!hex8_reference(X, r)) return T(0);
    T lam, g2;
    solid_detail::bound_moduli(m, lam, g2);
    T bb = T(0);
    for (int a = 0; a < 8; ++a) bb += dot(r.b[a], r.b[a]);
    T lmax = T(0);
    for (int i = 0; i < 4; ++i) {
      T row = T(0);
      for (int j = 0; j < 4; ++j) {
        T gij = T(0);
        for (int a = 0; a < 8; ++a) gij += r.gamma[i][a] * r.gamma[j][a];
        row += std::fabs(gij);
      }
      lmax = row > lmax ? row : lmax;
    }
    const T k = hex8_hourglass_stiffness(r, hourglass_modulus(m), hourglass_kappa);
    return solid_detail::dt_from_omega2(T(8) * (lam + g2) * bb / m.density + T(8) * k * lmax / (m.density * r.volume));
  }

  /// Cauchy stress and Green strain at the centroid (the element's only point).
  template <class T>
  HS_HD static SolidOutput<T> centroid_output(const Vec3<T> X[8], const Vec3<T> u[8], const SolidMaterial<T>& m,
                                              const ElementState<T>& state = {}) {
    Hex8Ref<T> r;
    if (!hex8_reference(X, r)) {
      const T nan = solid_detail::quiet_nan<T>();
      return {scaled_identity(nan), scaled_identity(nan)};
    }
    Mat3<T> F = scaled_identity(T(1));
    for (int a = 0; a < 8; ++a) solid_detail::add_outer(F, u[a], r.b[a]);
    return solid_detail::point_output(m, F, state, 0);
  }
};

/// C3D8: fully integrated (2x2x2) hexahedron with the F-bar method (see the file comment).
struct C3D8 {
  static constexpr bool kThermalStrain = true;  ///< its points take *EXPANSION's thermal strain (point_stress)
  static constexpr int kNodes = 8;

  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "C3D8"; }
  static constexpr const char* kAliases = "";  ///< other deck names run as this kind
  static constexpr int kDimension = 3;             ///< space dimension of the element's nodes
  static constexpr int kVtkCell = 12;               ///< VTK cell type (Abaqus node order is VTK's)
  static constexpr double kCost = 2.15;           ///< relative cost per increment (MITC4 = 1), for partitioning
  static constexpr int kPoints = 8;                ///< integration points (per-point state size multiplies this)
  static constexpr bool kRelativeDisplacements = true;  ///< strains from gradients only (continuum_element)
  /// The element node at hexahedron corner k (bulk viscosity).
  HS_HD static constexpr int hex_corner(int k) { return k; }

  /// Row-sum lumped mass, frac_a = (1/V) int N_a dV (2x2x2, exact; positive because N_a > 0
  /// at every Gauss point). Returns V, or the first non-positive detJ_g when the element is
  /// inverted or flat at a Gauss point.
  template <class T>
  HS_HD static T mass_fractions(const Vec3<T> X[8], T frac[8]) {
    for (int a = 0; a < 8; ++a) frac[a] = T(0);
    T vol = T(0);
    for (int g = 0; g < 8; ++g) {
      Vec3<T> b[8];
      T N[8];
      solid_detail::hex8_natural(solid_detail::hex8_gauss<T>(g, 0), solid_detail::hex8_gauss<T>(g, 1),
                                 solid_detail::hex8_gauss<T>(g, 2), b, N);
      const T det = solid_detail::hex8_gradients(X, b);
      if (!(det > T(0))) return det;
      for (int a = 0; a < 8; ++a) frac[a] += det * N[a];
      vol += det;
    }
    for (int a = 0; a < 8; ++a) frac[a] /= vol;
    return vol;
  }

  /// Internal forces f (8) and strain energy (F-bar, exact energy gradient); hourglass_kappa
  /// is unused (no hourglass modes). NaN for an invalid reference.
  template <class T>
  HS_HD static SolidEnergy<T> internal_force(const Vec3<T> X[8], const Vec3<T> u[8], const SolidMaterial<T>& m,
                                             T hourglass_kappa, Vec3<T> f[8], const ElementState<T>& state = {}) {
    (void)hourglass_kappa;
    return solid_detail::c3d8_force(X, u, m, true, f, state);
  }

  /// The element matrix by its points' tangents (laws without state; host, T: 18 derivative
  /// lanes): c3d8_fbar_point_matrix, which discretization/point_tangent.hpp selects.
  template <class T>
  static bool fbar_point_matrix(const Vec3<double> X[8], const Vec3<double> u[8], const SolidMaterial<T>& m, double theta,
                                double* ke) {
    return solid_detail::c3d8_fbar_point_matrix(X, u, m, theta, ke);
  }

  /// Critical increment bound 2/omega. With B_g = sum_a |b_a(g)|^2 / m_a and
  /// B0 = sum_a |bbar_a|^2 / m_a, Cauchy-Schwarz gives (tr eps0)^2 <= B0 |u|_M^2 and
  /// eps_g:eps_g <= B_g |u|_M^2; the F-bar strain epsbar = dev eps_g + tr(eps0) I / 3 has
  /// tr = tr eps0 and epsbar:epsbar <= (B_g + B0/3) |u|_M^2, so
  /// omega^2 <= sum_g detJ_g [lam B0 + g2 (B_g + B0/3)] (lam, g2 of bound_moduli).
  template <class T>
  HS_HD static T stable_dt(const Vec3<T> X[8], const SolidMaterial<T>& m, T hourglass_kappa = T(0.1)) {
    (void)hourglass_kappa;
    T frac[8];
    const T vol = mass_fractions(X, frac);
    if (!(vol > T(0))) return T(0);
    T inv_m[8];
    for (int a = 0; a < 8; ++a) inv_m[a] = T(1) / (m.density * vol * frac[a]);
    Vec3<T> bbar[8];
    solid_detail::c3d8_mean_gradients(X, bbar);
    T b0 = T(0);
    for (int a = 0; a < 8; ++a) b0 += dot(bbar[a], bbar[a]) * inv_m[a];
    T lam, g2;
    solid_detail::bound_moduli(m, lam, g2);
    T omega2 = T(0);
    for (int g = 0; g < 8; ++g) {
      Vec3<T> b[8];
      solid_detail::hex8_natural(solid_detail::hex8_gauss<T>(g, 0), solid_detail::hex8_gauss<T>(g, 1),
                                 solid_detail::hex8_gauss<T>(g, 2), b, static_cast<T*>(nullptr));
      const T det = solid_detail::hex8_gradients(X, b);
      T bg = T(0);
      for (int a = 0; a < 8; ++a) bg += dot(b[a], b[a]) * inv_m[a];
      omega2 += det * (lam * b0 + g2 * (bg + b0 / T(3)));
    }
    return solid_detail::dt_from_omega2(omega2);
  }

  /// Cauchy stress and Green strain of Fbar, averaged over the Gauss points with weights
  /// detJ_g / V.
  template <class T>
  HS_HD static SolidOutput<T> centroid_output(const Vec3<T> X[8], const Vec3<T> u[8], const SolidMaterial<T>& m,
                                              const ElementState<T>& state = {}) {
    SolidOutput<T> p[8];
    T w[8], vol = T(0);
    fbar_points(X, u, m, state, p, w);
    for (int g = 0; g < 8; ++g) vol += w[g];
    SolidOutput<T> out{scaled_identity(T(0)), scaled_identity(T(0))};
    for (int g = 0; g < 8; ++g) {
      out.cauchy = out.cauchy + (w[g] / vol) * p[g].cauchy;
      out.green = out.green + (w[g] / vol) * p[g].green;
    }
    return out;
  }

  /// Cauchy stress and Green strain of Fbar at each Gauss point (point g next to node g).
  template <class T>
  HS_HD static void point_outputs(const Vec3<T> X[8], const Vec3<T> u[8], const SolidMaterial<T>& m,
                                  const ElementState<T>& state, SolidOutput<T> out[8]) {
    T w[8];
    fbar_points(X, u, m, state, out, w);
  }
  /// The point (next to node kOutputPoint[p]) that Abaqus numbers p + 1: xi fastest, then
  /// eta, then zeta, where the nodes go round each face.
  static constexpr int kOutputPoint[8] = {0, 1, 3, 2, 4, 5, 7, 6};

 private:
  /// out[g]: the outputs of Fbar at point g, w[g] its detJ_g; NaN outputs at every point for
  /// an invalid reference.
  template <class T>
  HS_HD static void fbar_points(const Vec3<T> X[8], const Vec3<T> u[8], const SolidMaterial<T>& m,
                                const ElementState<T>& state, SolidOutput<T> out[8], T w[8]) {
    Vec3<T> bbar[8];
    const T vol = solid_detail::c3d8_mean_gradients(X, bbar);
    if (!(vol > T(0))) {
      const T nan = solid_detail::quiet_nan<T>();
      for (int g = 0; g < 8; ++g) {
        out[g] = {scaled_identity(nan), scaled_identity(nan)};
        w[g] = T(1);
      }
      return;
    }
    Mat3<T> F0 = scaled_identity(T(1));
    for (int a = 0; a < 8; ++a) solid_detail::add_outer(F0, u[a], bbar[a]);
    const T J0 = determinant(F0);
    using std::cbrt;  // unqualified below: Dual<T> (small-strain output) finds its own
    for (int g = 0; g < 8; ++g) {
      Vec3<T> b[8];
      solid_detail::hex8_natural(solid_detail::hex8_gauss<T>(g, 0), solid_detail::hex8_gauss<T>(g, 1),
                                 solid_detail::hex8_gauss<T>(g, 2), b, static_cast<T*>(nullptr));
      w[g] = solid_detail::hex8_gradients(X, b);
      Mat3<T> F = scaled_identity(T(1));
      for (int a = 0; a < 8; ++a) solid_detail::add_outer(F, u[a], b[a]);
      out[g] = solid_detail::point_output(m, cbrt(J0 / determinant(F)) * F, state, g);
    }
  }
};

/// C3D8 with FORMULATION=FULL: plain 2x2x2 Gauss integration, no F-bar (see the file comment).
struct C3D8Full : C3D8 {
  static constexpr const char* kFormulation = "FULL";  ///< *SOLID SECTION, FORMULATION= value

  /// Internal forces f (8) and strain energy, the sum over the Gauss points of detJ_g (P b_a,
  /// W) with each point's own F; hourglass_kappa is unused. NaN for an invalid reference.
  template <class T>
  HS_HD static SolidEnergy<T> internal_force(const Vec3<T> X[8], const Vec3<T> u[8], const SolidMaterial<T>& m,
                                             T hourglass_kappa, Vec3<T> f[8], const ElementState<T>& state = {}) {
    (void)hourglass_kappa;
    return solid_detail::c3d8_force(X, u, m, false, f, state);
  }

  /// Critical increment bound 2/omega: omega^2 <= sum_g detJ_g (lam + g2) B_g with
  /// B_g = sum_a |b_a(g)|^2 / m_a (each point's (tr eps)^2 and eps:eps are at most B_g |u|_M^2).
  template <class T>
  HS_HD static T stable_dt(const Vec3<T> X[8], const SolidMaterial<T>& m, T hourglass_kappa = T(0.1)) {
    (void)hourglass_kappa;
    T frac[8];
    const T vol = mass_fractions(X, frac);
    return solid_detail::point_sum_stable_dt<8>(8, Gradients<T>{X}, m, vol, frac);
  }

  /// detJ_g at Gauss point g and the reference gradients b_a there (the weights are 1): the
  /// point-wise tangent's (discretization/point_tangent.hpp); data unused.
  template <class T>
  HS_HD static T point_gradients(const Vec3<T> X[8], const double* data, int g, Vec3<T> b[8]) {
    (void)data;
    return Gradients<T>{X}(g, b);
  }

  /// Cauchy stress and Green strain averaged over the Gauss points with weights detJ_g / V.
  template <class T>
  HS_HD static SolidOutput<T> centroid_output(const Vec3<T> X[8], const Vec3<T> u[8], const SolidMaterial<T>& m,
                                              const ElementState<T>& state = {}) {
    return solid_detail::point_sum_output<8>(8, Gradients<T>{X}, u, m, state);
  }

  /// Cauchy stress and Green strain of each point's own F (point g next to node g).
  template <class T>
  HS_HD static void point_outputs(const Vec3<T> X[8], const Vec3<T> u[8], const SolidMaterial<T>& m,
                                  const ElementState<T>& state, SolidOutput<T> out[8]) {
    const bool valid = solid_detail::for_each_point_output<8>(
        8, Gradients<T>{X}, u, m, state, [&](int g, T, const SolidOutput<T>& p) { out[g] = p; });
    if (!valid) {
      const T nan = solid_detail::quiet_nan<T>();
      for (int g = 0; g < 8; ++g) out[g] = {scaled_identity(nan), scaled_identity(nan)};
    }
  }

 private:
  /// The gradients b_a at Gauss point g; returns detJ_g (the weights are 1).
  template <class T>
  struct Gradients {
    const Vec3<T>* X;
    HS_HD T operator()(int g, Vec3<T> b[8]) const {
      solid_detail::hex8_natural(solid_detail::hex8_gauss<T>(g, 0), solid_detail::hex8_gauss<T>(g, 1),
                                 solid_detail::hex8_gauss<T>(g, 2), b, static_cast<T*>(nullptr));
      return solid_detail::hex8_gradients(X, b);
    }
  };
};

}  // namespace halfstep
