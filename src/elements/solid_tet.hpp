// Tetrahedral solid kinds C3D4 and C3D10M, total Lagrangian, as host/device element traits
// (interface described in src/elements/solid_kinds.hpp). Nothing is stored per element:
// the reference gradients are recomputed from the reference coordinates X on every call.
//
// Natural coordinates (xi, eta, zeta) = (L2, L3, L4), L1 = 1 - xi - eta - zeta (barycentric),
// Abaqus node order: corners 1-4 with (X2-X1) x (X3-X1) . (X4-X1) > 0, and for C3D10M the
// mid-edge nodes 5:(1-2), 6:(2-3), 7:(3-1), 8:(1-4), 9:(2-4), 10:(3-4).
//
// C3D4 is the constant-strain tetrahedron (one point). C3D10M is the quadratic (10-node)
// tetrahedron with 4-point Gauss integration (degree 2: exact stiffness and patch test for
// straight-sided elements) and HRZ lumped mass: the diagonal of the consistent mass,
// int N_a^2 dV, scaled to the element mass. The row sum would give the corners negative
// mass (-1/20 each); HRZ gives 1/36 at the corners and 4/27 at the mid-edge nodes of a
// straight-sided element, positive for any valid shape. The diagonal is integrated with a
// 4x4x4 conical-product (Duffy) Gauss rule, exact for degree 5: exact for straight sides.
#pragma once

#include <cmath>

#include "core/host_device.hpp"
#include "core/is_lanes.hpp"
#include "core/mat3.hpp"
#include "core/vec3.hpp"
#include "elements/solid_common.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {
namespace solid_detail {

/// Reference gradients b (4) of the linear tetrahedron and its volume det[X2-X1, X3-X1,
/// X4-X1] / 6 (<= 0 when inverted or flat; b then zero).
template <class T>
HS_HD T tet4_gradients(const Vec3<T> X[4], Vec3<T> b[4]) {
  if constexpr (IsLanes<T>::value) {  // in double, then converted (core/is_lanes.hpp)
    Vec3<double> Xd[4], bd[4];
    lane_values(X, 4, Xd);
    const double v = tet4_gradients(Xd, bd);
    from_values(bd, 4, b);
    return T(v);
  }
  const Vec3<T> e1 = X[1] - X[0], e2 = X[2] - X[0], e3 = X[3] - X[0];
  const T det = dot(e1, cross(e2, e3));
  if (!(det > T(0))) {
    for (int a = 0; a < 4; ++a) b[a] = {T(0), T(0), T(0)};
    return det / T(6);
  }
  // Rows of [e1 e2 e3]^-1 are the gradients of xi, eta, zeta: (e2 x e3) / det etc.
  const T inv = T(1) / det;
  b[1] = inv * cross(e2, e3);
  b[2] = inv * cross(e3, e1);
  b[3] = inv * cross(e1, e2);
  b[0] = -(b[1] + b[2] + b[3]);
  return det / T(6);
}

/// The two corner nodes (0-based) of mid-edge node 4 + e of the 10-node tetrahedron.
HS_HD int tet10_edge_node(int e, int end) {
  const int ends[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
  return ends[e][end];
}

/// Shape functions N (10, may be null) and natural derivatives dn (10) of the quadratic
/// tetrahedron at barycentric point L (4 entries summing to 1).
template <class T>
HS_HD void tet10_natural(const T L[4], Vec3<T> dn[10], T* N) {
  // dL1 = (-1,-1,-1), dL2 = (1,0,0), dL3 = (0,1,0), dL4 = (0,0,1).
  const Vec3<T> dL[4] = {{T(-1), T(-1), T(-1)}, {T(1), T(0), T(0)}, {T(0), T(1), T(0)}, {T(0), T(0), T(1)}};
  for (int i = 0; i < 4; ++i) {
    dn[i] = (T(4) * L[i] - T(1)) * dL[i];  // N_i = L_i (2 L_i - 1)
    if (N) N[i] = L[i] * (T(2) * L[i] - T(1));
  }
  for (int e = 0; e < 6; ++e) {
    const int i = tet10_edge_node(e, 0), j = tet10_edge_node(e, 1);
    dn[4 + e] = T(4) * (L[i] * dL[j] + L[j] * dL[i]);  // N = 4 L_i L_j
    if (N) N[4 + e] = T(4) * L[i] * L[j];
  }
}

/// Reference gradients b (10) at a natural point (overwriting the natural derivatives dn)
/// and detJ; when detJ <= 0 b is left as dn.
template <class T>
HS_HD T tet10_gradients(const Vec3<T> X[10], Vec3<T> b[10]) {
  if constexpr (IsLanes<T>::value) {  // in double, then converted (core/is_lanes.hpp)
    Vec3<double> Xd[10], bd[10];
    lane_values(X, 10, Xd);
    lane_values(b, 10, bd);
    const double det = tet10_gradients(Xd, bd);
    from_values(bd, 10, b);
    return T(det);
  }
  Mat3<T> J = scaled_identity(T(0));
  for (int a = 0; a < 10; ++a) add_jacobian(J, X[a], b[a]);
  const T det = determinant(J);
  if (!(det > T(0))) return det;
  const Mat3<T> Jit = transpose(inverse(J));
  for (int a = 0; a < 10; ++a) b[a] = Jit * b[a];
  return det;
}

/// Barycentric coordinates of the 4-point Gauss rule (degree 2) point g: L_g = a, the
/// others b, a = (5 + 3 sqrt 5) / 20, b = (5 - sqrt 5) / 20; each weight is 1/24 (1/4 of
/// the natural volume 1/6).
template <class T>
HS_HD void tet10_gauss(int g, T L[4]) {
  for (int i = 0; i < 4; ++i) L[i] = i == g ? T(0.58541019662496845446) : T(0.13819660112501051518);
}

/// Gradients b (10) at Gauss point g and w_g detJ_g (<= 0 when invalid there).
template <class T>
HS_HD T tet10_gauss_gradients(const Vec3<T> X[10], int g, Vec3<T> b[10]) {
  T L[4];
  tet10_gauss(g, L);
  tet10_natural(L, b, static_cast<T*>(nullptr));
  return tet10_gradients(X, b) / T(24);
}

/// HRZ fractions of the 10-node tetrahedron and its volume (conical-product rule: xi = p,
/// eta = (1-p) q, zeta = (1-p)(1-q) r, dV = (1-p)^2 (1-q) dp dq dr, 4 Gauss-Legendre points
/// per direction). Returns the first non-positive weighted detJ when the element is inverted
/// or flat at a quadrature point.
template <class T>
HS_HD T tet10_hrz(const Vec3<T> X[10], T frac[10]) {
  const T x[4] = {T(0.06943184420297371239), T(0.33000947820757186760), T(0.66999052179242813240),
                  T(0.93056815579702628761)};  // Gauss-Legendre on [0, 1]
  const T w[4] = {T(0.17392742256872692869), T(0.32607257743127307131), T(0.32607257743127307131),
                  T(0.17392742256872692869)};
  for (int a = 0; a < 10; ++a) frac[a] = T(0);  // what an invalid element leaves
  // Point g = 16 i + 4 j + k of the collapsed 4 x 4 x 4 rule.
  const auto point = [&](int g, T N[10]) {
    const int i = g / 16, j = (g / 4) % 4, k = g % 4;
    const T p = x[i], q = x[j], r = x[k];
    const T L[4] = {T(1) - p - (T(1) - p) * q - (T(1) - p) * (T(1) - q) * r, p, (T(1) - p) * q,
                    (T(1) - p) * (T(1) - q) * r};
    Vec3<T> dn[10];
    tet10_natural(L, dn, N);
    Mat3<T> J = scaled_identity(T(0));
    for (int a = 0; a < 10; ++a) add_jacobian(J, X[a], dn[a]);
    return w[i] * w[j] * w[k] * (T(1) - p) * (T(1) - p) * (T(1) - q) * determinant(J);
  };
  return hrz_fractions<10>(64, point, frac);
}

}  // namespace solid_detail

/// C3D4: linear (constant-strain) tetrahedron.
struct C3D4 {
  static constexpr bool kThermalStrain = true;  ///< its points take *EXPANSION's thermal strain (point_stress)
  static constexpr int kNodes = 4;

  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "C3D4"; }
  static constexpr const char* kAliases = "";  ///< other deck names run as this kind
  static constexpr int kDimension = 3;             ///< space dimension of the element's nodes
  static constexpr int kVtkCell = 10;               ///< VTK cell type (Abaqus node order is VTK's)
  static constexpr double kCost = 0.41;           ///< relative cost per increment (MITC4 = 1), for partitioning
  static constexpr int kPoints = 1;                ///< integration points (per-point state size multiplies this)
  /// The element node at hexahedron corner k, a hexahedron collapsed onto the tetrahedron:
  /// 0, 1, 2, 2, 3, 3, 3, 3 (bulk viscosity).
  HS_HD static constexpr int hex_corner(int k) { return k < 3 ? k : (k == 3 ? 2 : 3); }
  static constexpr bool kRelativeDisplacements = true;  ///< strains from gradients only (continuum_element)

  /// Lumped mass: 1/4 of the element mass per node. Returns the volume (<= 0 when inverted
  /// or flat).
  template <class T>
  HS_HD static T mass_fractions(const Vec3<T> X[4], T frac[4]) {
    for (int a = 0; a < 4; ++a) frac[a] = T(0.25);
    Vec3<T> b[4];
    return solid_detail::tet4_gradients(X, b);
  }

  /// Internal forces f_a = V P b_a (4) and strain energy V W; hourglass_kappa unused. NaN for
  /// an invalid reference.
  template <class T>
  HS_HD static SolidEnergy<T> internal_force(const Vec3<T> X[4], const Vec3<T> u[4], const SolidMaterial<T>& m,
                                             T hourglass_kappa, Vec3<T> f[4], const ElementState<T>& state = {}) {
    (void)hourglass_kappa;
    Vec3<T> b[4];
    const T vol = solid_detail::tet4_gradients(X, b);
    if (!(vol > T(0))) {
      const T nan = solid_detail::quiet_nan<T>();
      for (int a = 0; a < 4; ++a) f[a] = {nan, nan, nan};
      return {nan, T(0)};
    }
    Mat3<T> F = scaled_identity(T(1));
    for (int a = 0; a < 4; ++a) solid_detail::add_outer(F, u[a], b[a]);
    const SolidStress<T> s = point_stress(m, F, state, 0);
    const Mat3<T> VP = vol * (F * s.S);
    for (int a = 0; a < 4; ++a) f[a] = VP * b[a];
    return {vol * s.energy, T(0), vol * s.dissipation, T(0), vol * s.thermal_slope};
  }

  /// Critical increment bound 2/omega, omega^2 <= V (lam + g2) sum_a |b_a|^2 / m_a
  /// = 4 (lam + g2) sum_a |b_a|^2 / rho (see C3D8::stable_dt; lam, g2 of bound_moduli).
  template <class T>
  HS_HD static T stable_dt(const Vec3<T> X[4], const SolidMaterial<T>& m, T hourglass_kappa = T(0.1)) {
    (void)hourglass_kappa;
    Vec3<T> b[4];
    if (!(solid_detail::tet4_gradients(X, b) > T(0))) return T(0);
    T lam, g2;
    solid_detail::bound_moduli(m, lam, g2);
    T bb = T(0);
    for (int a = 0; a < 4; ++a) bb += dot(b[a], b[a]);
    return solid_detail::dt_from_omega2(T(4) * (lam + g2) * bb / m.density);
  }

  /// Cauchy stress and Green strain (constant over the element).
  template <class T>
  HS_HD static SolidOutput<T> centroid_output(const Vec3<T> X[4], const Vec3<T> u[4], const SolidMaterial<T>& m,
                                              const ElementState<T>& state = {}) {
    Vec3<T> b[4];
    if (!(solid_detail::tet4_gradients(X, b) > T(0))) {
      const T nan = solid_detail::quiet_nan<T>();
      return {scaled_identity(nan), scaled_identity(nan)};
    }
    Mat3<T> F = scaled_identity(T(1));
    for (int a = 0; a < 4; ++a) solid_detail::add_outer(F, u[a], b[a]);
    return solid_detail::point_output(m, F, state, 0);
  }
};

/// C3D10M: quadratic tetrahedron, 4-point integration, HRZ lumped mass (see the file comment).
struct C3D10M {
  static constexpr bool kThermalStrain = true;  ///< its points take *EXPANSION's thermal strain (point_stress)
  static constexpr int kNodes = 10;

  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "C3D10M"; }
  static constexpr const char* kAliases = "";  ///< other deck names run as this kind
  static constexpr int kDimension = 3;             ///< space dimension of the element's nodes
  static constexpr int kVtkCell = 24;               ///< VTK cell type (Abaqus node order is VTK's)
  static constexpr double kCost = 1.8;           ///< relative cost per increment (MITC4 = 1), for partitioning
  static constexpr int kPoints = 4;                ///< integration points (per-point state size multiplies this)
  static constexpr bool kRelativeDisplacements = true;  ///< strains from gradients only (continuum_element)

  /// HRZ lumped-mass fractions (1/36 corners, 4/27 mid-edge nodes when straight-sided).
  /// Returns the volume, or a value <= 0 when the element is inverted or flat at a Gauss
  /// point of the stiffness or the mass rule.
  template <class T>
  HS_HD static T mass_fractions(const Vec3<T> X[10], T frac[10]) {
    for (int g = 0; g < 4; ++g) {
      Vec3<T> b[10];
      const T dv = solid_detail::tet10_gauss_gradients(X, g, b);
      if (!(dv > T(0))) {
        for (int a = 0; a < 10; ++a) frac[a] = T(0.1);
        return dv;
      }
    }
    return solid_detail::tet10_hrz(X, frac);
  }

  /// w_g detJ_g at integration point g and the reference gradients b_a there: the basis of
  /// the point sums (internal_force), which the CPU's point-wise tangent also reads
  /// (discretization/point_tangent.hpp); data: the element's constant data (unused here).
  template <class T>
  HS_HD static T point_gradients(const Vec3<T> X[10], const double* data, int g, Vec3<T> b[10]) {
    (void)data;
    return solid_detail::tet10_gauss_gradients(X, g, b);
  }

  /// Internal forces f (10) and strain energy, sum over the 4 Gauss points of
  /// w detJ (P b_a, W); hourglass_kappa unused. NaN for an invalid reference.
  template <class T>
  HS_HD static SolidEnergy<T> internal_force(const Vec3<T> X[10], const Vec3<T> u[10], const SolidMaterial<T>& m,
                                             T hourglass_kappa, Vec3<T> f[10], const ElementState<T>& state = {}) {
    (void)hourglass_kappa;
    const auto at_point = [&](int g, Vec3<T>* b) {
      return solid_detail::tet10_gauss_gradients(X, g, b);
    };
    return solid_detail::point_sum_internal_force<10>(4, at_point, u, m, f, state);
  }

  /// Critical increment bound 2/omega, omega^2 <= sum_g w_g detJ_g (lam + g2)
  /// sum_a |b_a(g)|^2 / m_a with the HRZ masses m_a (see C3D8::stable_dt).
  template <class T>
  HS_HD static T stable_dt(const Vec3<T> X[10], const SolidMaterial<T>& m, T hourglass_kappa = T(0.1)) {
    (void)hourglass_kappa;
    T frac[10];
    const T vol = mass_fractions(X, frac);
    const auto at_point = [&](int g, Vec3<T>* b) {
      return solid_detail::tet10_gauss_gradients(X, g, b);
    };
    return solid_detail::point_sum_stable_dt<10>(4, at_point, m, vol, frac);
  }

  /// Cauchy stress and Green strain averaged over the Gauss points with weights
  /// w_g detJ_g / V.
  template <class T>
  HS_HD static SolidOutput<T> centroid_output(const Vec3<T> X[10], const Vec3<T> u[10], const SolidMaterial<T>& m,
                                              const ElementState<T>& state = {}) {
    const auto at_point = [&](int g, Vec3<T>* b) {
      return solid_detail::tet10_gauss_gradients(X, g, b);
    };
    return solid_detail::point_sum_output<10>(4, at_point, u, m, state);
  }

  /// Cauchy stress and Green strain at each Gauss point; point g lies next to corner g, as
  /// Abaqus numbers them.
  template <class T>
  HS_HD static void point_outputs(const Vec3<T> X[10], const Vec3<T> u[10], const SolidMaterial<T>& m,
                                  const ElementState<T>& state, SolidOutput<T> out[kPoints]) {
    const auto at_point = [&](int g, Vec3<T>* b) {
      return solid_detail::tet10_gauss_gradients(X, g, b);
    };
    solid_detail::point_list_output<10>(4, at_point, u, m, state, out);
  }
};

}  // namespace halfstep
