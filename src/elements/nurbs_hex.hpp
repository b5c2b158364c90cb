// NURBS (isogeometric) solid elements of degree P = 1..3, NC3D<P>: total Lagrangian,
// (P+1)^3 Gauss points, as host/device continuum traits (interface in solid_kinds.hpp). An
// element is one Bézier element of a 3-D patch (discretization/nurbs_patch.hpp,
// extract_bezier): its nodes are the (P+1)^3 control points whose functions are nonzero on
// it (direction 0 fastest, then 1, then 2), and its constant data (ElementState::data,
// kElementData values: the control points' weights, then the 1D extraction operators of xi,
// eta and zeta) turns Bernstein polynomials into its rational basis R_a
// (nurbs::bezier_element_basis_kron<3>). From there it is an isoparametric solid with R_a for
// N_a, integrated by the point sums the fully integrated Lagrange solids share
// (solid_detail::point_sum_internal_force, _stable_dt, _output: F = I + sum u_a (x) b_a, the
// material's S at F, f_a = sum_g w_g detJ_g F S b_a), so the material, its state and the
// dual-number tangent are those of C3D20 and C3D10M. No F-bar: like C3D20 the element locks
// for nearly incompressible materials (degree 1 most). Degree 4 (125 nodes, 375 x 375 element
// matrices) is not offered: docs/theory.md, "NURBS patches and Bézier elements in the code".
// docs/theory.md, "NURBS solid elements".
#pragma once

#include <array>
#include <initializer_list>

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "core/vec3.hpp"
#include "elements/nurbs_basis.hpp"
#include "elements/nurbs_quad.hpp"
#include "elements/solid_common.hpp"
#include "elements/solid_hex20.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {
namespace nurbs_detail {

/// VTK_LAGRANGE_HEXAHEDRON's point order for an order-P cell, as VTK reads it from files of
/// XML version < 2.1 (vtu_writer writes 1.0; VTK >= 9 converts such files with
/// vtkUpdateCellsV8toV9): element node (tensor index i + (P+1)(j + (P+1) k)) of VTK point n.
/// Corners (the VTK hexahedron's), the edges of the face k = 0 then k = P (i at j = 0, j at
/// i = P, i at j = P, j at i = 0, each by increasing parameter), the edges along k at
/// (i, j) = (0, 0), (P, 0), (0, P), (P, P) (the pre-9.0 order of the last two), then the faces
/// i = 0, i = P (j fastest), j = 0, j = P (i fastest), k = 0, k = P (i fastest), then the
/// interior with i fastest.
template <int P>
constexpr std::array<int, (P + 1) * (P + 1) * (P + 1)> lagrange_hex_order() {
  std::array<int, (P + 1) * (P + 1) * (P + 1)> order{};
  const auto node = [](int i, int j, int k) { return i + (P + 1) * (j + (P + 1) * k); };
  int n = 0;
  for (int k : {0, P}) {
    order[n++] = node(0, 0, k);
    order[n++] = node(P, 0, k);
    order[n++] = node(P, P, k);
    order[n++] = node(0, P, k);
  }
  for (int k : {0, P}) {
    for (int i = 1; i < P; ++i) order[n++] = node(i, 0, k);
    for (int j = 1; j < P; ++j) order[n++] = node(P, j, k);
    for (int i = 1; i < P; ++i) order[n++] = node(i, P, k);
    for (int j = 1; j < P; ++j) order[n++] = node(0, j, k);
  }
  const int corner_i[4] = {0, P, 0, P}, corner_j[4] = {0, 0, P, P};
  for (int c = 0; c < 4; ++c)
    for (int k = 1; k < P; ++k) order[n++] = node(corner_i[c], corner_j[c], k);
  for (int i : {0, P})
    for (int k = 1; k < P; ++k)
      for (int j = 1; j < P; ++j) order[n++] = node(i, j, k);
  for (int j : {0, P})
    for (int k = 1; k < P; ++k)
      for (int i = 1; i < P; ++i) order[n++] = node(i, j, k);
  for (int k : {0, P})
    for (int j = 1; j < P; ++j)
      for (int i = 1; i < P; ++i) order[n++] = node(i, j, k);
  for (int k = 1; k < P; ++k)
    for (int j = 1; j < P; ++j)
      for (int i = 1; i < P; ++i) order[n++] = node(i, j, k);
  return order;
}

/// Solid element of degree P (NC3D<P>).
template <int P>
struct NurbsHex {
  static constexpr int kDegree = P;
  static constexpr int kPer = P + 1;  ///< functions (and Gauss points) per direction
  static constexpr int kNodes = kPer * kPer * kPer;
  /// Constant data per element: the nodes' weights, then the xi, eta and zeta operators
  /// ((P+1) x (P+1) each, row-major; nurbs_patch.hpp Extraction1D).
  static constexpr int kElementData = kNodes + 3 * kPer * kPer;
  static constexpr const char* kAliases = "";  ///< other deck names run as this kind
  static constexpr int kDimension = 3;         ///< space dimension of the element's nodes
  /// VTK_LAGRANGE_HEXAHEDRON through the control points: exact for P = 1, otherwise a view
  /// of the control net (as the planar NURBS elements' Lagrange quadrilaterals).
  static constexpr int kVtkCell = 72;
  static constexpr std::array<int, kNodes> kVtkOrderTable = lagrange_hex_order<P>();
  static constexpr const int* kVtkOrder = kVtkOrderTable.data();
  /// Relative cost per increment (MITC4 = 1), for partitioning: C3D8's measured 2.15 for 8
  /// points of 8 nodes scaled by points times nodes; not measured (static steps only).
  static constexpr double kCost = 2.15 * kNodes * kNodes / 64.0;
  static constexpr int kPoints = kNodes;     ///< (P+1)^3 Gauss points
  /// Static steps only: the increment bound has not been checked against explicit runs yet.
  static constexpr bool kExplicit = false;
  /// Named by the reader's message: the Lagrange hexahedra for explicit steps.
  static constexpr const char* kExplicitAlternative = "C3D8R, C3D8 or C3D20R";

  /// Basis values R, reference gradients b = J^-T dR/dxi at Gauss point g from the element's
  /// data; returns detJ times the point's Gauss weight (b zero when detJ <= 0 or no data).
  template <class T>
  HS_HD static T point_basis(const Vec3<T> X[kNodes], const double* data, int g, Vec3<T> b[kNodes],
                             double R[kNodes]) {
    if (!data) {
      for (int a = 0; a < kNodes; ++a) b[a] = {T(0), T(0), T(0)}, R[a] = 0.0;
      return T(0);
    }
    double xi[3], w[3];
    gauss_legendre(kPer, g % kPer, xi[0], w[0]);
    gauss_legendre(kPer, (g / kPer) % kPer, xi[1], w[1]);
    gauss_legendre(kPer, g / (kPer * kPer), xi[2], w[2]);
    const int p[3] = {P, P, P};
    const double* C1[3] = {data + kNodes, data + kNodes + kPer * kPer, data + kNodes + 2 * kPer * kPer};
    double dR[3 * kNodes];
    nurbs::bezier_element_basis_kron<3>(p, xi, C1, data, R, dR);
    Mat3<T> J = scaled_identity(T(0));  // J_ij = dX_i / dxi_j
    for (int a = 0; a < kNodes; ++a)
      solid_detail::add_jacobian(J, X[a], Vec3<T>{T(dR[3 * a]), T(dR[3 * a + 1]), T(dR[3 * a + 2])});
    const T det = determinant(J);
    if (!(det > T(0))) {
      for (int a = 0; a < kNodes; ++a) b[a] = {T(0), T(0), T(0)};
      return det;
    }
    const Mat3<T> Jit = transpose(inverse(J));
    for (int a = 0; a < kNodes; ++a) b[a] = Jit * Vec3<T>{T(dR[3 * a]), T(dR[3 * a + 1]), T(dR[3 * a + 2])};
    return det * T(w[0] * w[1] * w[2]);
  }

  /// Row-sum lumped mass frac_a = (1/V) int R_a dV (R_a >= 0: positive fractions). Returns
  /// the volume V, or the first non-positive w detJ (an inverted element or missing data).
  template <class T>
  HS_HD static T mass_fractions(const Vec3<T> X[kNodes], T frac[kNodes], const double* data = nullptr) {
    return row_sum_mass_fractions<NurbsHex>(X, frac, data);
  }

  /// w_g detJ_g at Gauss point g and the reference gradients b_a there (point_basis without
  /// the basis values): the point-wise tangent's (discretization/point_tangent.hpp).
  template <class T>
  HS_HD static T point_gradients(const Vec3<T> X[kNodes], const double* data, int g, Vec3<T> b[kNodes]) {
    double R[kNodes];
    return point_basis(X, data, g, b, R);
  }

  /// Internal forces f and strain energy, sum over the Gauss points of w detJ (F S b_a, W);
  /// hourglass_kappa unused. NaN for an invalid reference or missing data.
  template <class T>
  HS_HD static SolidEnergy<T> internal_force(const Vec3<T> X[kNodes], const Vec3<T> u[kNodes],
                                             const SolidMaterial<T>& m, T hourglass_kappa, Vec3<T> f[kNodes],
                                             const ElementState<T>& state = {}) {
    (void)hourglass_kappa;
    const auto at_point = [&](int g, Vec3<T>* b) {
      double R[kNodes];
      return point_basis(X, state.data, g, b, R);
    };
    return solid_detail::point_sum_internal_force<kNodes>(kPoints, at_point, u, m, f, state);
  }

  /// Critical increment bound 2/omega, omega^2 <= sum_g w_g detJ_g (lam + g2)
  /// sum_a |b_a(g)|^2 / m_a with the row-sum masses (see C3D8::stable_dt); for the model
  /// summary, as the elements run in static steps only.
  template <class T>
  HS_HD static T stable_dt(const Vec3<T> X[kNodes], const SolidMaterial<T>& m, T hourglass_kappa = T(0.1),
                           const double* data = nullptr) {
    (void)hourglass_kappa;
    T frac[kNodes];
    const T vol = mass_fractions(X, frac, data);
    const auto at_point = [&](int g, Vec3<T>* b) {
      double R[kNodes];
      return point_basis(X, data, g, b, R);
    };
    return solid_detail::point_sum_stable_dt<kNodes>(kPoints, at_point, m, vol, frac);
  }

  /// Cauchy stress and Green strain averaged over the Gauss points (weights w_g detJ_g / V).
  template <class T>
  HS_HD static SolidOutput<T> centroid_output(const Vec3<T> X[kNodes], const Vec3<T> u[kNodes],
                                              const SolidMaterial<T>& m, const ElementState<T>& state = {}) {
    const auto at_point = [&](int g, Vec3<T>* b) {
      double R[kNodes];
      return point_basis(X, state.data, g, b, R);
    };
    return solid_detail::point_sum_output<kNodes>(kPoints, at_point, u, m, state);
  }
};

}  // namespace nurbs_detail

/// NURBS solid elements of degree 1..3 (deck: *NURBS PATCH, TYPE=C3D); NC3D1: trilinear
/// (8 control points).
struct NC3D1 : nurbs_detail::NurbsHex<1> {
  HS_HD static constexpr const char* name() { return "NC3D1"; }
};
/// NC3D2: the quadratic NURBS solid (27 control points).
struct NC3D2 : nurbs_detail::NurbsHex<2> {
  HS_HD static constexpr const char* name() { return "NC3D2"; }
};
/// NC3D3: the cubic NURBS solid (64 control points).
struct NC3D3 : nurbs_detail::NurbsHex<3> {
  HS_HD static constexpr const char* name() { return "NC3D3"; }
};

}  // namespace halfstep
