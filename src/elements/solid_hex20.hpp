// C3D20 and C3D20R: the 20-node serendipity hexahedron, total Lagrangian, as host/device
// element traits (interface in src/elements/solid_kinds.hpp), and C3D10, Abaqus/Standard's
// name for the quadratic tetrahedron that halfstep runs as C3D10M. All three run in static
// and in explicit steps: Abaqus/Explicit has none of them, the peer runs them in explicit
// dynamics (issue 46), with the HRZ lumped mass and its stable-increment bound below; they
// take no bulk viscosity and no hourglass control.
//
// Abaqus node order (VTK's quadratic hexahedron has the same): corners 1-8 as C3D8, then the
// mid-edge nodes 9:(1-2) 10:(2-3) 11:(3-4) 12:(4-1) 13:(5-6) 14:(6-7) 15:(7-8) 16:(8-5)
// 17:(1-5) 18:(2-6) 19:(3-7) 20:(4-8). Shape functions: corner a at (xi_a, eta_a, zeta_a)
// = (+-1, +-1, +-1): N_a = (1 + xi xi_a)(1 + eta eta_a)(1 + zeta zeta_a)(xi xi_a + eta eta_a +
// zeta zeta_a - 2) / 8; mid-edge node with xi_a = 0: N_a = (1 - xi^2)(1 + eta eta_a)(1 +
// zeta zeta_a) / 4 (and likewise along eta, zeta).
//
// C3D20 integrates with 3x3x3 Gauss points, C3D20R with 2x2x2 (Abaqus's reduced rule: no
// hourglass control; a single element has 6 spurious zero-energy modes, a row of two 3, a
// 2 x 2 x 1 block none: tests/elements/test_solid_kinds.cpp). Neither has B-bar or F-bar (Abaqus's C3D20H
// hybrid form is not provided): for nearly incompressible materials C3D20R locks less.
// Lumped mass by HRZ (the diagonal of the consistent mass, int N_a^2 dV by 3x3x3 Gauss,
// scaled to the element's mass), positive for every valid shape: the row sum gives the corners
// negative mass. Explicit steps use that mass and the stable-increment bound; static steps
// only report them in the model summary.
#pragma once

#include <cmath>

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "core/vec3.hpp"
#include "elements/hex8.hpp"
#include "elements/solid_common.hpp"
#include "elements/solid_tet.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {
namespace solid_detail {

/// The two corners (0-based) of mid-edge node 8 + e of the 20-node hexahedron.
HS_HD int hex20_edge_end(int e, int end) {
  const int ends[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6}, {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  return ends[e][end];
}

/// Natural coordinate of node a (0..19) along axis: +-1 at the corners, the mean of the two
/// corners (0 along the edge's own axis) at the mid-edge nodes.
HS_HD int hex20_coord(int a, int axis) {
  if (a < 8) return hex8_sign(a, axis);
  const int e = a - 8;
  return (hex8_sign(hex20_edge_end(e, 0), axis) + hex8_sign(hex20_edge_end(e, 1), axis)) / 2;
}

/// Shape functions N (20, may be null) and natural derivatives dn (20) at (xi, eta, zeta).
template <class T>
HS_HD void hex20_natural(T xi, T eta, T zeta, Vec3<T> dn[20], T* N) {
  const T x[3] = {xi, eta, zeta};
  for (int a = 0; a < 20; ++a) {
    const T c[3] = {T(hex20_coord(a, 0)), T(hex20_coord(a, 1)), T(hex20_coord(a, 2))};
    if (a < 8) {
      const T p[3] = {T(1) + c[0] * x[0], T(1) + c[1] * x[1], T(1) + c[2] * x[2]};
      const T s = c[0] * x[0] + c[1] * x[1] + c[2] * x[2] - T(2);
      dn[a] = {c[0] * p[1] * p[2] * (s + p[0]) / T(8), c[1] * p[0] * p[2] * (s + p[1]) / T(8),
               c[2] * p[0] * p[1] * (s + p[2]) / T(8)};
      if (N) N[a] = p[0] * p[1] * p[2] * s / T(8);
      continue;
    }
    // Mid-edge node: the axis where its coordinate is 0 takes the bubble (1 - x^2).
    T f[3], d[3];
    for (int i = 0; i < 3; ++i) {
      if (c[i] == T(0)) {
        f[i] = T(1) - x[i] * x[i];
        d[i] = T(-2) * x[i];
      } else {
        f[i] = T(1) + c[i] * x[i];
        d[i] = c[i];
      }
    }
    dn[a] = {d[0] * f[1] * f[2] / T(4), f[0] * d[1] * f[2] / T(4), f[0] * f[1] * d[2] / T(4)};
    if (N) N[a] = f[0] * f[1] * f[2] / T(4);
  }
}

/// Natural coordinates and weight of Gauss point g of the n x n x n rule (n = 2 or 3), point
/// index g = i + n j + n^2 k.
template <class T>
HS_HD T hex20_gauss(int n, int g, T& xi, T& eta, T& zeta) {
  const int idx[3] = {g % n, (g / n) % n, g / (n * n)};
  T c[3], w = T(1);
  for (int i = 0; i < 3; ++i) {
    if (n == 2) {
      c[i] = (idx[i] == 0 ? T(-1) : T(1)) * T(0.57735026918962576451);
    } else {
      c[i] = T(idx[i] - 1) * T(0.77459666924148337704);
      w *= idx[i] == 1 ? T(8) / T(9) : T(5) / T(9);
    }
  }
  xi = c[0];
  eta = c[1];
  zeta = c[2];
  return w;
}

/// Reference gradients b (20) at Gauss point g of the n-point rule and w_g detJ_g (<= 0 when
/// the element is inverted or flat there, b then the natural derivatives); N (may be null)
/// gets the shape functions.
template <class T>
HS_HD T hex20_gradients(const Vec3<T> X[20], int n, int g, Vec3<T> b[20], T* N = nullptr) {
  if constexpr (IsLanes<T>::value) {  // in double, then converted (core/is_lanes.hpp)
    Vec3<double> Xd[20], bd[20];
    lane_values(X, 20, Xd);
    double Nd[20];
    const double wdet = hex20_gradients(Xd, n, g, bd, N ? Nd : static_cast<double*>(nullptr));
    from_values(bd, 20, b);
    if (N)
      for (int a = 0; a < 20; ++a) N[a] = T(Nd[a]);
    return T(wdet);
  }
  T xi, eta, zeta;
  const T w = hex20_gauss(n, g, xi, eta, zeta);
  hex20_natural(xi, eta, zeta, b, N);
  Mat3<T> J = scaled_identity(T(0));
  for (int a = 0; a < 20; ++a) add_jacobian(J, X[a], b[a]);
  const T det = determinant(J);
  if (!(det > T(0))) return det;
  const Mat3<T> Jit = transpose(inverse(J));
  for (int a = 0; a < 20; ++a) b[a] = Jit * b[a];
  return w * det;
}

/// The C3D20 (kGauss = 3) / C3D20R (kGauss = 2) trait body.
template <int kGauss>
struct Hex20 {
  static constexpr bool kThermalStrain = true;  ///< its points take *EXPANSION's thermal strain (point_stress)
  static constexpr int kNodes = 20;
  static constexpr const char* kAliases = "";  ///< other deck names run as this kind
  static constexpr int kDimension = 3;         ///< space dimension of the element's nodes
  static constexpr int kVtkCell = 25;          ///< VTK_QUADRATIC_HEXAHEDRON (Abaqus node order is VTK's)
  /// Relative cost per increment (MITC4 = 1), for partitioning; estimated from C3D8's
  /// measured 2.15 for 8 points of 8 nodes, not measured (static steps only).
  static constexpr double kCost = kGauss == 3 ? 15.0 : 5.0;
  static constexpr int kPoints = kGauss * kGauss * kGauss;  ///< integration points

  /// HRZ lumped-mass fractions (int N_a^2 dV by 3x3x3 Gauss, normalised). Returns the
  /// volume, or the first non-positive w detJ at a point of this kind's rule or the mass rule.
  template <class T>
  HS_HD static T mass_fractions(const Vec3<T> X[20], T frac[20]) {
    for (int a = 0; a < 20; ++a) frac[a] = T(0.05);
    for (int g = 0; g < kPoints; ++g) {
      Vec3<T> b[20];
      const T dv = hex20_gradients(X, kGauss, g, b);
      if (!(dv > T(0))) return dv;
    }
    const auto point = [&](int g, T N[20]) {
      Vec3<T> b[20];
      return hex20_gradients(X, 3, g, b, N);
    };
    return solid_detail::hrz_fractions<20>(27, point, frac);
  }

  /// w_g detJ_g at integration point g and the reference gradients b_a there: the basis of
  /// the point sums (internal_force), which the CPU's point-wise tangent also reads
  /// (discretization/point_tangent.hpp); data: the element's constant data (unused here).
  template <class T>
  HS_HD static T point_gradients(const Vec3<T> X[20], const double* data, int g, Vec3<T> b[20]) {
    (void)data;
    return hex20_gradients(X, kGauss, g, b, static_cast<T*>(nullptr));
  }

  /// Internal forces f (20) and strain energy, sum over the points of w detJ (P b_a, W);
  /// hourglass_kappa unused. NaN for an invalid reference.
  template <class T>
  HS_HD static SolidEnergy<T> internal_force(const Vec3<T> X[20], const Vec3<T> u[20], const SolidMaterial<T>& m,
                                             T hourglass_kappa, Vec3<T> f[20], const ElementState<T>& state = {}) {
    (void)hourglass_kappa;
    const auto at_point = [&](int g, Vec3<T>* b) {
      return hex20_gradients(X, kGauss, g, b, static_cast<T*>(nullptr));
    };
    return point_sum_internal_force<20>(kPoints, at_point, u, m, f, state);
  }

  /// Critical increment bound 2/omega, omega^2 <= sum_g w_g detJ_g (lam + g2)
  /// sum_a |b_a(g)|^2 / m_a with the HRZ masses (see C3D8::stable_dt); for the summary only.
  template <class T>
  HS_HD static T stable_dt(const Vec3<T> X[20], const SolidMaterial<T>& m, T hourglass_kappa = T(0.1)) {
    (void)hourglass_kappa;
    T frac[20];
    const T vol = mass_fractions(X, frac);
    const auto at_point = [&](int g, Vec3<T>* b) {
      return hex20_gradients(X, kGauss, g, b, static_cast<T*>(nullptr));
    };
    return point_sum_stable_dt<20>(kPoints, at_point, m, vol, frac);
  }

  /// Cauchy stress and Green strain averaged over the points with weights w_g detJ_g / V.
  template <class T>
  HS_HD static SolidOutput<T> centroid_output(const Vec3<T> X[20], const Vec3<T> u[20], const SolidMaterial<T>& m,
                                              const ElementState<T>& state = {}) {
    const auto at_point = [&](int g, Vec3<T>* b) {
      return hex20_gradients(X, kGauss, g, b, static_cast<T*>(nullptr));
    };
    return point_sum_output<20>(kPoints, at_point, u, m, state);
  }

  /// Cauchy stress and Green strain at each Gauss point, numbered as Abaqus numbers them
  /// (xi fastest, then eta, then zeta; hex20_gauss).
  template <class T>
  HS_HD static void point_outputs(const Vec3<T> X[20], const Vec3<T> u[20], const SolidMaterial<T>& m,
                                  const ElementState<T>& state, SolidOutput<T> out[kPoints]) {
    const auto at_point = [&](int g, Vec3<T>* b) {
      return hex20_gradients(X, kGauss, g, b, static_cast<T*>(nullptr));
    };
    point_list_output<20>(kPoints, at_point, u, m, state, out);
  }
};

}  // namespace solid_detail

/// C3D20: 20-node hexahedron, 3x3x3 Gauss points; static steps only.
struct C3D20 : solid_detail::Hex20<3> {
  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "C3D20"; }
};

/// C3D20R: 20-node hexahedron, 2x2x2 Gauss points; static steps only.
struct C3D20R : solid_detail::Hex20<2> {
  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "C3D20R"; }
};

/// C3D20R with FORMULATION=REDUCED MASS: the same element, whose consistent mass (frequency and
/// modal steps) and body loads are integrated at its own 2x2x2 points, as the peer solver's
/// C3D20R's are (halfstep run --dialect calculix reads C3D20R so; elements/consistent_mass.hpp).
struct C3D20RReducedMass : C3D20R {
  static constexpr const char* kFormulation = "REDUCEDMASS";  ///< *SOLID SECTION, FORMULATION= value
};

/// C3D10: Abaqus/Standard's 10-node tetrahedron, the same element as C3D10M here (4 points,
/// HRZ mass), in static and explicit steps alike.
struct C3D10 : C3D10M {
  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "C3D10"; }
};

}  // namespace halfstep
