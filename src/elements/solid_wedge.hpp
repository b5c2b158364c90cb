// C3D6: the 6-node linear wedge (triangular prism), total Lagrangian, as a host/device element
// trait (interface described in src/elements/solid_kinds.hpp). Nothing is stored per element.
//
// Abaqus node order: the triangle 1-2-3 (zeta = -1), then 4-5-6 above it (zeta = +1), node
// 3 + i over node i, with (X2 - X1) x (X3 - X1) pointing towards the top triangle. Natural
// coordinates: (xi, eta) = (L2, L3) on the triangle, L1 = 1 - xi - eta, and zeta along the
// prism; N_i = L_i (1 - zeta) / 2, N_3+i = L_i (1 + zeta) / 2.
//
// Integration: the 3-point triangle rule (degree 2) times 2-point Gauss along zeta, 6 points.
// Abaqus/Standard integrates C3D6 with 2 points (the triangle's centroid); the 6-point rule
// costs three times as much but is exact for the stiffness of a right prism and integrates
// w detJ dN_a/dX exactly on any wedge (degree <= 2 in (xi, eta), <= 3 in zeta), so patches of
// distorted wedges pass the patch test. Lumped mass by row sum, int N_a dV / V (positive at
// every point, 1/6 per node on a right prism). Like Abaqus's C3D6 the element is stiff in
// bending and locks for nearly incompressible materials (no B-bar or F-bar): mesh finely.
#pragma once

#include <cmath>

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "core/vec3.hpp"
#include "elements/solid_common.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {
namespace solid_detail {

/// Natural coordinates (xi, eta, zeta) and weight (natural volume 1 in all) of wedge point g
/// (0..5): the triangle points (1/6, 1/6), (2/3, 1/6), (1/6, 2/3) (weight 1/6 each) at
/// zeta = -+1/sqrt(3) (weight 1).
template <class T>
HS_HD void wedge6_point(int g, T& xi, T& eta, T& zeta) {
  const int t = g % 3;
  xi = t == 1 ? T(2) / T(3) : T(1) / T(6);
  eta = t == 2 ? T(2) / T(3) : T(1) / T(6);
  zeta = (g < 3 ? T(-1) : T(1)) * T(0.57735026918962576451);
}

/// Shape functions N (6, may be null) and natural derivatives dn (6) of the linear wedge.
template <class T>
HS_HD void wedge6_natural(T xi, T eta, T zeta, Vec3<T> dn[6], T* N) {
  const T L[3] = {T(1) - xi - eta, xi, eta};
  const Vec3<T> dL[3] = {{T(-1), T(-1), T(0)}, {T(1), T(0), T(0)}, {T(0), T(1), T(0)}};
  for (int i = 0; i < 3; ++i)
    for (int top = 0; top < 2; ++top) {
      const T s = top ? T(1) : T(-1), z = (T(1) + s * zeta) / T(2);
      const int a = i + 3 * top;
      dn[a] = {dL[i].x * z, dL[i].y * z, L[i] * s / T(2)};
      if (N) N[a] = L[i] * z;
    }
}

/// Reference gradients b (6) at point g, overwriting nothing else, and w_g detJ_g (the
/// weight 1/6 included; <= 0 when the element is inverted or flat there, b then the natural
/// derivatives). N (may be null) gets the shape functions.
template <class T>
HS_HD T wedge6_gradients(const Vec3<T> X[6], int g, Vec3<T> b[6], T* N = nullptr) {
  T xi, eta, zeta;
  wedge6_point(g, xi, eta, zeta);
  wedge6_natural(xi, eta, zeta, b, N);
  Mat3<T> J = scaled_identity(T(0));
  for (int a = 0; a < 6; ++a) add_jacobian(J, X[a], b[a]);
  const T det = determinant(J);
  if (!(det > T(0))) return det;
  const Mat3<T> Jit = transpose(inverse(J));
  for (int a = 0; a < 6; ++a) b[a] = Jit * b[a];
  return det / T(6);
}

}  // namespace solid_detail

/// C3D6: linear wedge, 6-point integration, row-sum lumped mass (see the file comment).
struct C3D6 {
  static constexpr bool kThermalStrain = true;  ///< its points take *EXPANSION's thermal strain (point_stress)
  static constexpr int kNodes = 6;

  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "C3D6"; }
  static constexpr const char* kAliases = "";  ///< other deck names run as this kind
  static constexpr int kDimension = 3;         ///< space dimension of the element's nodes
  static constexpr int kVtkCell = 13;          ///< VTK_WEDGE (its node order in kVtkOrder)
  /// VTK's wedge has the triangle 0-1-2 turned the other way (its right-hand normal points
  /// away from 3-4-5): element node kVtkOrder[i] is VTK's point i.
  static constexpr int kVtkOrder[6] = {0, 2, 1, 3, 5, 4};
  /// Relative cost per increment (MITC4 = 1): 6 points of 6 nodes, estimated from C3D8's
  /// measured 2.15 for 8 points of 8 nodes; not measured.
  static constexpr double kCost = 1.3;
  static constexpr int kPoints = 6;  ///< integration points (per-point state size multiplies this)
  /// The element node at hexahedron corner k, a hexahedron collapsed onto the wedge:
  /// 0, 1, 2, 2, 3, 4, 5, 5 (bulk viscosity).
  HS_HD static constexpr int hex_corner(int k) { return k < 3 ? k : (k == 3 ? 2 : (k < 7 ? k - 1 : 5)); }

  /// Row-sum lumped mass frac_a = (1/V) int N_a dV. Returns V, or the first non-positive
  /// w detJ when the element is inverted or flat at an integration point.
  template <class T>
  HS_HD static T mass_fractions(const Vec3<T> X[6], T frac[6]) {
    for (int a = 0; a < 6; ++a) frac[a] = T(0);
    T vol = T(0);
    for (int g = 0; g < 6; ++g) {
      Vec3<T> b[6];
      T N[6];
      const T dv = solid_detail::wedge6_gradients(X, g, b, N);
      if (!(dv > T(0))) {
        for (int a = 0; a < 6; ++a) frac[a] = T(1) / T(6);
        return dv;
      }
      for (int a = 0; a < 6; ++a) frac[a] += dv * N[a];
      vol += dv;
    }
    for (int a = 0; a < 6; ++a) frac[a] /= vol;
    return vol;
  }

  /// w_g detJ_g at integration point g and the reference gradients b_a there: the basis of
  /// the point sums (internal_force), which the CPU's point-wise tangent also reads
  /// (discretization/point_tangent.hpp); data: the element's constant data (unused here).
  template <class T>
  HS_HD static T point_gradients(const Vec3<T> X[6], const double* data, int g, Vec3<T> b[6]) {
    (void)data;
    return solid_detail::wedge6_gradients(X, g, b, static_cast<T*>(nullptr));
  }

  /// Internal forces f (6) and strain energy, sum over the points of w detJ (P b_a, W);
  /// hourglass_kappa unused. NaN for an invalid reference.
  template <class T>
  HS_HD static SolidEnergy<T> internal_force(const Vec3<T> X[6], const Vec3<T> u[6], const SolidMaterial<T>& m,
                                             T hourglass_kappa, Vec3<T> f[6], const ElementState<T>& state = {}) {
    (void)hourglass_kappa;
    const auto at_point = [&](int g, Vec3<T>* b) {
      return solid_detail::wedge6_gradients(X, g, b, static_cast<T*>(nullptr));
    };
    return solid_detail::point_sum_internal_force<6>(6, at_point, u, m, f, state);
  }

  /// Critical increment bound 2/omega, omega^2 <= sum_g w_g detJ_g (lam + g2)
  /// sum_a |b_a(g)|^2 / m_a with the lumped masses m_a (see C3D8::stable_dt).
  template <class T>
  HS_HD static T stable_dt(const Vec3<T> X[6], const SolidMaterial<T>& m, T hourglass_kappa = T(0.1)) {
    (void)hourglass_kappa;
    T frac[6];
    const T vol = mass_fractions(X, frac);
    const auto at_point = [&](int g, Vec3<T>* b) {
      return solid_detail::wedge6_gradients(X, g, b, static_cast<T*>(nullptr));
    };
    return solid_detail::point_sum_stable_dt<6>(6, at_point, m, vol, frac);
  }

  /// Cauchy stress and Green strain averaged over the points with weights w_g detJ_g / V.
  template <class T>
  HS_HD static SolidOutput<T> centroid_output(const Vec3<T> X[6], const Vec3<T> u[6], const SolidMaterial<T>& m,
                                              const ElementState<T>& state = {}) {
    const auto at_point = [&](int g, Vec3<T>* b) {
      return solid_detail::wedge6_gradients(X, g, b, static_cast<T*>(nullptr));
    };
    return solid_detail::point_sum_output<6>(6, at_point, u, m, state);
  }
};

}  // namespace halfstep
