// The 8-node serendipity quadrilaterals of the planar and axisymmetric families, total
// Lagrangian, as host/device continuum traits (interface in solid_kinds.hpp): CPS8 / CPS8R
// (plane stress), CPE8 / CPE8R (plane strain), CAX8 / CAX8R (axisymmetric, nodes (r, z)).
// The full kinds integrate with 3 x 3 Gauss points, the R kinds with 2 x 2 (Abaqus's reduced
// rule: no hourglass control; a single element has two spurious zero-energy modes, a mesh of
// a few elements none, as for C3D20R). Abaqus/Explicit has none of them: kExplicit = false.
//
// Abaqus node order (VTK's quadratic quadrilateral has the same): corners 1-4 counter-
// clockwise, then the mid-side nodes 5:(1-2) 6:(2-3) 7:(3-4) 8:(4-1). Shape functions: corner
// a at (xi_a, eta_a) = (+-1, +-1): N_a = (1 + xi xi_a)(1 + eta eta_a)(xi xi_a + eta eta_a - 1)
// / 4; mid-side node with xi_a = 0: N_a = (1 - xi^2)(1 + eta eta_a) / 2 (and likewise with
// eta_a = 0). Points are numbered as Abaqus numbers them: xi fastest, then eta.
//
// At each point F = [[F2, 0], [0, F33]] with the in-plane block F2 = I + sum_a u_a (x) b_a.
// Plane strain: F33 = 1; plane stress: F33 makes S33 = 0 (plane_detail::quad4_point, as for
// CPS4, J2 plasticity included); both weigh the point by the section thickness t w detJ.
// Axisymmetric: F33 is the hoop stretch 1 + u_r / R at the point (u_r = sum N_a u_a,r,
// R = sum N_a R_a), the point weighs 2 pi R w detJ (volumes, forces and masses are totals
// around the ring, Abaqus's convention; the section thickness is not used), and the force
// on node a gains the hoop term P33 N_a / R along r. Forces are the exact energy gradient.
// Lumped mass by HRZ (the diagonal of the consistent mass by 3 x 3 Gauss points, scaled to
// the element's mass): the row sum would give the corners negative mass.
#pragma once

#include <cmath>

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "core/vec3.hpp"
#include "elements/plane_quad.hpp"
#include "elements/solid_common.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {
namespace plane_detail {

/// Shape functions N (8, may be null) and natural derivatives along xi (dxi) and eta (deta)
/// of the 8-node serendipity quadrilateral at (xi, eta) (see the file comment).
template <class T>
HS_HD void quad8_natural(T xi, T eta, T dxi[8], T deta[8], T* N) {
  for (int a = 0; a < 4; ++a) {
    const T s = T(quad4_sign(a, 0)), t = T(quad4_sign(a, 1));
    const T p = T(1) + s * xi, q = T(1) + t * eta, r = s * xi + t * eta - T(1);
    dxi[a] = s * q * (r + p) / T(4);
    deta[a] = t * p * (r + q) / T(4);
    if (N) N[a] = p * q * r / T(4);
  }
  // Mid-side nodes 4 and 6 on eta = -1, +1 (xi free), 5 and 7 on xi = +1, -1 (eta free).
  for (int e = 0; e < 4; ++e) {
    const int a = 4 + e;
    if (e % 2 == 0) {
      const T t = e == 0 ? T(-1) : T(1);
      dxi[a] = -xi * (T(1) + t * eta);
      deta[a] = (T(1) - xi * xi) * t / T(2);
      if (N) N[a] = (T(1) - xi * xi) * (T(1) + t * eta) / T(2);
    } else {
      const T s = e == 1 ? T(1) : T(-1);
      dxi[a] = s * (T(1) - eta * eta) / T(2);
      deta[a] = -(T(1) + s * xi) * eta;
      if (N) N[a] = (T(1) + s * xi) * (T(1) - eta * eta) / T(2);
    }
  }
}

/// Natural coordinates of point g of the n x n Gauss rule (n = 2 or 3; g = i + n j, xi
/// fastest as Abaqus numbers them) and its weight.
template <class T>
HS_HD T quad8_gauss(int n, int g, T& xi, T& eta) {
  const int idx[2] = {g % n, g / n};
  T c[2], w = T(1);
  for (int i = 0; i < 2; ++i) {
    if (n == 2) {
      c[i] = (idx[i] == 0 ? T(-1) : T(1)) * T(0.57735026918962576451);
    } else {
      c[i] = T(idx[i] - 1) * T(0.77459666924148337704);
      w *= idx[i] == 1 ? T(8) / T(9) : T(5) / T(9);
    }
  }
  xi = c[0];
  eta = c[1];
  return w;
}

/// In-plane reference gradients b (8, z = 0), shape functions N (8) and the radius R = sum
/// N_a X_a at point g of the n x n rule; returns w detJ (b zero when detJ <= 0).
template <class T>
HS_HD T quad8_gradients(const Vec3<T> X[8], int n, int g, Vec3<T> b[8], T N[8], T& radius) {
  T xi, eta, dxi[8], deta[8];
  const T w = quad8_gauss(n, g, xi, eta);
  quad8_natural(xi, eta, dxi, deta, N);
  T j00 = T(0), j01 = T(0), j10 = T(0), j11 = T(0);  // J_ij = dX_i / dxi_j
  radius = T(0);
  for (int a = 0; a < 8; ++a) {
    j00 += X[a].x * dxi[a];
    j01 += X[a].x * deta[a];
    j10 += X[a].y * dxi[a];
    j11 += X[a].y * deta[a];
    radius += N[a] * X[a].x;
  }
  const T det = j00 * j11 - j01 * j10;
  if (!(det > T(0))) {
    for (int a = 0; a < 8; ++a) b[a] = {T(0), T(0), T(0)};
    return det;
  }
  for (int a = 0; a < 8; ++a)  // b = J^-T dN/dxi
    b[a] = {(j11 * dxi[a] - j10 * deta[a]) / det, (-j01 * dxi[a] + j00 * deta[a]) / det, T(0)};
  return w * det;
}

/// Out-of-plane condition of an 8-node quadrilateral kind.
enum Quad8Mode : int { kQuad8PlaneStress = 0, kQuad8PlaneStrain = 1, kQuad8Axisymmetric = 2 };

/// The CPS8 / CPE8 / CAX8 (kGauss = 3) and CPS8R / CPE8R / CAX8R (kGauss = 2) trait body.
template <int kMode, int kGauss>
struct Quad8 {
  static constexpr bool kPlaneStress = kMode == kQuad8PlaneStress;
  static constexpr bool kThermalStrain = !kPlaneStress;  ///< plane stress has its own S33 = 0 path (as CPS4)
  static constexpr int kNodes = 8;
  static constexpr const char* kAliases = "";
  static constexpr int kDimension = 2;                       ///< nodes carry x, y (or r, z)
  static constexpr bool kAxisymmetric = kMode == kQuad8Axisymmetric;  ///< ring volumes, (r, z) nodes
  static constexpr int kVtkCell = 23;                        ///< VTK_QUADRATIC_QUAD (Abaqus order is VTK's)
  /// Relative cost (MITC4 = 1): estimated from CPS4's for 9 or 4 points of 8 nodes; not
  /// measured (static steps only).
  static constexpr double kCost = kGauss == 3 ? 4.0 : 1.8;
  static constexpr int kPoints = kGauss * kGauss;  ///< integration points
  static constexpr bool kExplicit = false;         ///< static steps only (Abaqus/Explicit has none)
  /// The kinds to use in explicit steps instead, named by the reader's message.
  static constexpr const char* kExplicitAlternative = kMode == kQuad8Axisymmetric ? "CAX4R"
                                                      : kPlaneStress              ? "CPS4R or CPS4"
                                                                                  : "CPE4R or CPE4";

  /// Weight of point g (w detJ, times 2 pi R when axisymmetric; the caller scales a planar
  /// kind's by the thickness), gradients b, shape functions N and radius R; <= 0 when the
  /// element is inverted or flat there or (axisymmetric) the point is not at R > 0.
  template <class T>
  HS_HD static T point_weight(const Vec3<T> X[8], int n, int g, Vec3<T> b[8], T N[8], T& radius) {
    const T dv = quad8_gradients(X, n, g, b, N, radius);
    if (!kAxisymmetric || !(dv > T(0))) return dv;
    return radius > T(0) ? T(6.28318530717958647693) * radius * dv : T(0);
  }

  /// Whether the nodes are a valid reference: positive weight at every point of this kind's
  /// rule and of the 3 x 3 mass rule, and (axisymmetric) every node at r >= 0.
  template <class T>
  HS_HD static bool valid(const Vec3<T> X[8]) {
    if (kAxisymmetric)
      for (int a = 0; a < 8; ++a)
        if (!(X[a].x >= T(0))) return false;
    for (int rule = 0; rule < 2; ++rule) {
      const int n = rule == 0 ? kGauss : 3;
      for (int g = 0; g < n * n; ++g) {
        Vec3<T> b[8];
        T N[8], radius;
        if (!(point_weight(X, n, g, b, N, radius) > T(0))) return false;
      }
    }
    return true;
  }

  /// Deformation gradient and stress at point g: F2 from the gradients, F33 from the
  /// out-of-plane condition (see the file comment). Returns S and the energy densities.
  template <class T>
  HS_HD static SolidStress<T> point(const SolidMaterial<T>& m, const Vec3<T> u[8], const Vec3<T> b[8], const T N[8],
                                    T radius, Mat3<T>& F, const ElementState<T>& state, int g) {
    if constexpr (kAxisymmetric) {
      F = scaled_identity(T(1));
      T ur = T(0);
      for (int a = 0; a < 8; ++a) {
        F(0, 0) += u[a].x * b[a].x;
        F(0, 1) += u[a].x * b[a].y;
        F(1, 0) += u[a].y * b[a].x;
        F(1, 1) += u[a].y * b[a].y;
        ur += N[a] * u[a].x;
      }
      F(2, 2) += ur / radius;
      return point_stress(m, F, state, g);
    } else {
      (void)N;
      (void)radius;
      return quad4_point<T, kPlaneStress, 8>(m, u, b, F, state, g);
    }
  }

  /// Weight multiplier of a planar kind's points (the section thickness), 1 when axisymmetric.
  template <class T>
  HS_HD static T depth(const SolidMaterial<T>& m) {
    return kAxisymmetric ? T(1) : m.thickness;
  }

  /// HRZ lumped-mass fractions (diagonal of int N_a^2 dA, or of the ring's int N_a^2 dV, by
  /// 3 x 3 Gauss points, normalised). Returns the area (the caller multiplies by the
  /// thickness) or the ring volume, or 0 for an invalid reference.
  template <class T>
  HS_HD static T mass_fractions(const Vec3<T> X[8], T frac[8]) {
    for (int a = 0; a < 8; ++a) frac[a] = T(0.125);
    if (!valid(X)) return T(0);
    const auto point = [&](int g, T N[8]) {
      Vec3<T> b[8];
      T radius;
      return point_weight(X, 3, g, b, N, radius);
    };
    return solid_detail::hrz_fractions<8>(9, point, frac);
  }

  /// In-plane nodal forces f (8, z = 0; totals around the ring when axisymmetric) and strain
  /// energy; no hourglass springs (kappa unused). NaN for an invalid reference.
  template <class T>
  HS_HD static SolidEnergy<T> internal_force(const Vec3<T> X[8], const Vec3<T> u[8], const SolidMaterial<T>& m,
                                             T hourglass_kappa, Vec3<T> f[8], const ElementState<T>& state = {}) {
    (void)hourglass_kappa;
    for (int a = 0; a < 8; ++a) f[a] = {T(0), T(0), T(0)};
    if (!valid(X)) {
      const T nan = solid_detail::quiet_nan<T>();
      for (int a = 0; a < 8; ++a) f[a] = {nan, nan, nan};
      return {nan, T(0)};
    }
    SolidEnergy<T> out{T(0), T(0)};
    for (int g = 0; g < kPoints; ++g) {
      Vec3<T> b[8];
      T N[8], radius;
      const T w = depth(m) * point_weight(X, kGauss, g, b, N, radius);
      Mat3<T> F;
      const SolidStress<T> s = point(m, u, b, N, radius, F, state, g);
      const Mat3<T> P = F * s.S;
      for (int a = 0; a < 8; ++a) {
        f[a].x += w * (P(0, 0) * b[a].x + P(0, 1) * b[a].y);
        f[a].y += w * (P(1, 0) * b[a].x + P(1, 1) * b[a].y);
        if (kAxisymmetric) f[a].x += w * P(2, 2) * N[a] / radius;
      }
      out.strain += w * s.energy;
      out.dissipation += w * s.dissipation;
      out.thermal_slope += w * s.thermal_slope;
    }
    return out;
  }

  /// Critical increment bound 2/omega with the HRZ masses m_a (for the summary: static steps
  /// only). At a point, with h_a = N_a / R the hoop gradient (0 for planar kinds), Cauchy-
  /// Schwarz gives eps:eps <= B |u|_M^2, B = sum_a (|b_a|^2 + h_a^2) / m_a, and (tr eps)^2
  /// <= B_t |u|_M^2, B_t = sum_a ((b_a,r + h_a)^2 + b_a,z^2) / m_a, so omega^2 <= sum_g
  /// w_g (lam B_t + g2 B) (plane stress with lam condensed as for CPS4).
  template <class T>
  HS_HD static T stable_dt(const Vec3<T> X[8], const SolidMaterial<T>& m, T hourglass_kappa = T(0.1)) {
    (void)hourglass_kappa;
    T frac[8];
    const T vol = mass_fractions(X, frac);
    if (!(vol > T(0))) return T(0);
    T lam, g2;
    solid_detail::bound_moduli(m, lam, g2);
    if (kPlaneStress && lam > T(0)) lam = lam * g2 / (lam + g2);
    T omega2 = T(0);
    for (int g = 0; g < kPoints; ++g) {
      Vec3<T> b[8];
      T N[8], radius;
      const T w = point_weight(X, kGauss, g, b, N, radius);
      T B = T(0), Bt = T(0);
      for (int a = 0; a < 8; ++a) {
        const T ma = m.density * vol * frac[a];
        const T h = kAxisymmetric ? N[a] / radius : T(0);
        B += (dot(b[a], b[a]) + h * h) / ma;
        Bt += ((b[a].x + h) * (b[a].x + h) + b[a].y * b[a].y) / ma;
      }
      omega2 += w * (lam * Bt + g2 * B);
    }
    return solid_detail::dt_from_omega2(omega2);
  }

  /// Cauchy stress (S33: the hoop stress when axisymmetric) and Green strain at each point,
  /// numbered as Abaqus numbers them (NaN at every point for an invalid reference).
  template <class T>
  HS_HD static void point_outputs(const Vec3<T> X[8], const Vec3<T> u[8], const SolidMaterial<T>& m,
                                  ElementState<T> state, SolidOutput<T> out[kPoints]) {
    state.next = nullptr;  // output reads the state, never writes it
    const bool ok = valid(X);
    for (int g = 0; g < kPoints; ++g) {
      if (!ok) {
        const T nan = solid_detail::quiet_nan<T>();
        out[g] = {scaled_identity(nan), scaled_identity(nan)};
        continue;
      }
      Vec3<T> b[8];
      T N[8], radius;
      point_weight(X, kGauss, g, b, N, radius);
      Mat3<T> F;
      const SolidStress<T> s = point(m, u, b, N, radius, F, state, g);
      out[g] = {(T(1) / determinant(F)) * (F * s.S * transpose(F)), green_strain(F)};
    }
  }

  /// Cauchy stress and Green strain averaged over the points (weights w_g / sum w).
  template <class T>
  HS_HD static SolidOutput<T> centroid_output(const Vec3<T> X[8], const Vec3<T> u[8], const SolidMaterial<T>& m,
                                              const ElementState<T>& state = {}) {
    SolidOutput<T> at[kPoints];
    point_outputs(X, u, m, state, at);
    SolidOutput<T> out{scaled_identity(T(0)), scaled_identity(T(0))};
    T total = T(0), w[kPoints];
    for (int g = 0; g < kPoints; ++g) {
      Vec3<T> b[8];
      T N[8], radius;
      w[g] = point_weight(X, kGauss, g, b, N, radius);
      total += w[g];
    }
    for (int g = 0; g < kPoints; ++g) {
      out.cauchy = out.cauchy + (w[g] / total) * at[g].cauchy;
      out.green = out.green + (w[g] / total) * at[g].green;
    }
    return out;
  }
};

}  // namespace plane_detail

/// CPS8: plane-stress 8-node quadrilateral, 3 x 3 points; static steps only.
struct CPS8 : plane_detail::Quad8<plane_detail::kQuad8PlaneStress, 3> {
  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "CPS8"; }
};

/// CPS8R: plane-stress 8-node quadrilateral, 2 x 2 points; static steps only.
struct CPS8R : plane_detail::Quad8<plane_detail::kQuad8PlaneStress, 2> {
  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "CPS8R"; }
};

/// CPE8: plane-strain 8-node quadrilateral, 3 x 3 points; static steps only.
struct CPE8 : plane_detail::Quad8<plane_detail::kQuad8PlaneStrain, 3> {
  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "CPE8"; }
};

/// CPE8R: plane-strain 8-node quadrilateral, 2 x 2 points; static steps only.
struct CPE8R : plane_detail::Quad8<plane_detail::kQuad8PlaneStrain, 2> {
  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "CPE8R"; }
};

/// CAX8: axisymmetric 8-node quadrilateral, 3 x 3 points; static steps only.
struct CAX8 : plane_detail::Quad8<plane_detail::kQuad8Axisymmetric, 3> {
  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "CAX8"; }
};

/// CAX8R: axisymmetric 8-node quadrilateral, 2 x 2 points; static steps only.
struct CAX8R : plane_detail::Quad8<plane_detail::kQuad8Axisymmetric, 2> {
  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "CAX8R"; }
};

}  // namespace halfstep
