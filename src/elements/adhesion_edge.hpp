// Adhesion edges ADH1..ADH4 (issue 14; seed 004's adhesive contact): one element per face of
// a planar element on an *ADHESION surface, carrying the interaction of that face with a rigid
// flat substrate (materials/adhesion_law.hpp) as a continuum trait (interface in
// solid_kinds.hpp), so that the static tangent, its CSR assembly, the solvers, the CPU and the
// GPU reach it through the registry like any element. Its P + 1 nodes are the face's nodes:
// the control points of a NURBS element's side (degree P), or a CPE4/CPS4 edge (P = 1). Its
// constant data (ElementState::data) is their weights and the side's 1D Bézier extraction
// operator, so the face is the exact boundary curve x(xi) = sum_a R_a(xi) x_a.
//
// The interaction energy is integrated over the face in the reference configuration:
//   Pi = t int phi(g(x(xi))) |dX/dxi| dxi,   g = (x - p) . n  (the gap to the substrate plane)
// so the nodal forces f_a = dPi/dx_a = -t int T(g) R_a n |dX/dxi| dxi derive from an energy
// and the tangent (dual numbers through this function) is symmetric. Seed 004's Eq. 7
// integrates T over the current surface instead; the two differ by the face's stretch
// |dx/dxi| / |dX/dxi| where T is large, i.e. at the contact zone, where the face barely
// stretches (docs/theory.md "Adhesion"). The law varies over a fraction of r0, much less than
// an element: each face is integrated by kSub composite 5-point Gauss rules.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "core/vec3.hpp"
#include "elements/nurbs_basis.hpp"
#include "elements/nurbs_quad.hpp"
#include "elements/solid_common.hpp"
#include "materials/adhesion_law.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {
namespace adhesion_detail {

/// VTK_LAGRANGE_CURVE's point order for an order-P curve: the two ends, then the interior.
template <int P>
constexpr std::array<int, P + 1> lagrange_curve_order() {
  std::array<int, P + 1> order{};
  order[0] = 0;
  order[1] = P;
  for (int i = 1; i < P; ++i) order[static_cast<std::size_t>(i + 1)] = i;
  return order;
}

/// Adhesion edge of degree P.
template <int P>
struct AdhesionEdge {
  static constexpr int kNodes = P + 1;
  /// The nodes' weights, then the side's 1D extraction operator ((P+1) x (P+1), row-major).
  static constexpr int kElementData = kNodes + kNodes * kNodes;
  static constexpr const char* kAliases = "";
  static constexpr int kDimension = 2;
  /// VTK_LINE for P = 1, else VTK_LAGRANGE_CURVE through the nodes (the control polygon).
  static constexpr int kVtkCell = P == 1 ? 3 : 68;
  static constexpr std::array<int, kNodes> kVtkOrderTable = lagrange_curve_order<P>();
  static constexpr const int* kVtkOrder = kVtkOrderTable.data();
  static constexpr double kCost = 0.01 * kNodes;  ///< relative cost (MITC4 = 1); estimated, not measured
  static constexpr int kSub = 4;                  ///< composite sub-intervals per face
  static constexpr int kPoints = 5 * kSub;
  static constexpr const char* kMadeBy = "*ADHESION";  ///< the keyword that makes these elements
  static constexpr bool kAdhesion = true;              ///< ties its nodes to a rigid substrate

  /// Parameter xi in [-1, 1] and weight of integration point g.
  HS_HD static void point(int g, double& xi, double& w) {
    double x;
    nurbs_detail::gauss_legendre(5, g % 5, x, w);
    const int k = g / 5;
    xi = -1.0 + (2.0 * k + 1.0 + x) / kSub;
    w /= kSub;
  }

  /// Basis R_a and dR_a/dxi at xi from the element's data (R = 0 without data).
  HS_HD static void basis(const double* data, double xi, double R[kNodes], double dR[kNodes]) {
    if (!data) {
      for (int a = 0; a < kNodes; ++a) R[a] = dR[a] = 0.0;
      return;
    }
    const int p[1] = {P};
    const double* C1[1] = {data + kNodes};
    nurbs::bezier_element_basis_kron<1>(p, &xi, C1, data, R, dR);
  }

  /// Gap g(xi) to the substrate of c at integration point q, with the basis there and the
  /// point's reference length weight w |X,xi| (the integration's measure without thickness).
  template <class T>
  HS_HD static T gap_at(const Vec3<T> X[kNodes], const Vec3<T> u[kNodes], const double* data, const AdhesionConstants& c,
                        int q, double R[kNodes], T& weight) {
    using std::sqrt;
    double xi, w, dR[kNodes];
    point(q, xi, w);
    basis(data, xi, R, dR);
    Vec3<T> t{T(0), T(0), T(0)}, x{T(0), T(0), T(0)};
    for (int a = 0; a < kNodes; ++a) {
      t = t + T(dR[a]) * X[a];
      x = x + T(R[a]) * (X[a] + u[a]);
    }
    weight = T(w) * sqrt(dot(t, t));
    return (x.x - T(c.point[0])) * T(c.normal[0]) + (x.y - T(c.point[1])) * T(c.normal[1]) +
           (x.z - T(c.point[2])) * T(c.normal[2]);
  }

  /// No mass of its own (its *ADHESION "material" has no density): equal fractions of the
  /// face's reference length, which the build multiplies by the thickness.
  template <class T>
  HS_HD static T mass_fractions(const Vec3<T> X[kNodes], T frac[kNodes], const double* data = nullptr) {
    for (int a = 0; a < kNodes; ++a) frac[a] = T(1) / T(kNodes);
    const Vec3<T> still[kNodes] = {};
    const AdhesionConstants none;
    T length = T(0);
    for (int g = 0; g < kPoints; ++g) {
      double R[kNodes];
      T weight;
      gap_at(X, still, data, none, g, R, weight);
      length += weight;
    }
    return length;
  }

  /// Nodal forces (the derivative of the interaction energy; the body is pushed along n by
  /// f = -force) and the interaction energy, returned as the strain energy; NaN without data.
  template <class T>
  HS_HD static SolidEnergy<T> internal_force(const Vec3<T> X[kNodes], const Vec3<T> u[kNodes],
                                             const SolidMaterial<T>& m, T hourglass_kappa, Vec3<T> f[kNodes],
                                             const ElementState<T>& state = {}) {
    (void)hourglass_kappa;
    for (int a = 0; a < kNodes; ++a) f[a] = {T(0), T(0), T(0)};
    if (!state.data) {
      const T nan = solid_detail::quiet_nan<T>();
      for (int a = 0; a < kNodes; ++a) f[a] = {nan, nan, nan};
      return {nan, T(0)};
    }
    const AdhesionConstants& c = m.adhesion;
    const Vec3<T> n{T(c.normal[0]), T(c.normal[1]), T(c.normal[2])};
    T energy = T(0);
    for (int g = 0; g < kPoints; ++g) {
      double R[kNodes];
      T weight, phi;
      const T gap = gap_at(X, u, state.data, c, g, R, weight);
      const T wl = m.thickness * weight;
      const T traction = adhesion_traction(c, gap, phi);
      energy += wl * phi;
      for (int a = 0; a < kNodes; ++a) f[a] = f[a] - (wl * traction * T(R[a])) * n;
    }
    return {energy, T(0)};
  }

  /// Placeholder: the increment depends on the nodes' masses, which the system build has only
  /// after every element (nodal_mass_dt replaces it there).
  template <class T>
  HS_HD static T stable_dt(const Vec3<T>[kNodes], const SolidMaterial<T>&, T = T(0.1), const double* = nullptr) {
    return T(1e30);
  }

  /// Critical increment of the edge on nodes of the given masses (held or massless nodes
  /// count as ground). At the law's steepest slope k (adhesion_steepest_slope) the edge's
  /// stiffness is K_ab = t k int R_a R_b |dX/dxi| dxi; as R_a >= 0 and sum_b R_b = 1, each row
  /// of M^-1 K sums to t k L_a / m_a with L_a = int R_a |dX/dxi| dxi, which bounds its largest
  /// eigenvalue omega^2 (Gershgorin; equal to it for ADH1 on equal masses): dt = 2 / omega.
  static double nodal_mass_dt(const SolidMaterial<double>& m, const double mass[kNodes], const Vec3<double> X[kNodes],
                              const double* data) {
    const double k = adhesion_steepest_slope(m.adhesion);
    if (!data || !(k > 0)) return 1e30;
    double share[kNodes] = {};
    const Vec3<double> still[kNodes] = {};
    for (int g = 0; g < kPoints; ++g) {
      double R[kNodes], weight;
      gap_at(X, still, data, m.adhesion, g, R, weight);
      for (int a = 0; a < kNodes; ++a) share[a] += R[a] * weight;
    }
    double omega2 = 0;
    for (int a = 0; a < kNodes; ++a)
      if (mass[a] > 0) omega2 = std::max(omega2, m.thickness * k * share[a] / mass[a]);
    return omega2 > 0 ? 2.0 / std::sqrt(omega2) : 1e30;
  }

  /// The face's mean traction as an interface stress -T n (x) n (tension positive: an
  /// adhesive pull is a positive normal stress), averaged over the reference length; no strain.
  template <class T>
  HS_HD static SolidOutput<T> centroid_output(const Vec3<T> X[kNodes], const Vec3<T> u[kNodes],
                                              const SolidMaterial<T>& m, ElementState<T> state = {}) {
    const T nan = solid_detail::quiet_nan<T>();
    if (!state.data) return {scaled_identity(nan), scaled_identity(nan)};
    const AdhesionConstants& c = m.adhesion;
    const Vec3<T> n{T(c.normal[0]), T(c.normal[1]), T(c.normal[2])};
    T sum = T(0), length = T(0);
    for (int g = 0; g < kPoints; ++g) {
      double R[kNodes];
      T weight, phi;
      const T gap = gap_at(X, u, state.data, c, g, R, weight);
      sum += weight * adhesion_traction(c, gap, phi);
      length += weight;
    }
    const T tn = length > T(0) ? T(-1) * sum / length : nan;
    Mat3<T> s;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) s(i, j) = tn * (i == 0 ? n.x : i == 1 ? n.y : n.z) * (j == 0 ? n.x : j == 1 ? n.y : n.z);
    return {s, scaled_identity(T(0))};
  }
};

}  // namespace adhesion_detail

/// Adhesion edges of degree 1..4 (made by *ADHESION on the faces of a surface).
struct ADH1 : adhesion_detail::AdhesionEdge<1> {
  HS_HD static constexpr const char* name() { return "ADH1"; }
};
struct ADH2 : adhesion_detail::AdhesionEdge<2> {
  HS_HD static constexpr const char* name() { return "ADH2"; }
};
struct ADH3 : adhesion_detail::AdhesionEdge<3> {
  HS_HD static constexpr const char* name() { return "ADH3"; }
};
struct ADH4 : adhesion_detail::AdhesionEdge<4> {
  HS_HD static constexpr const char* name() { return "ADH4"; }
};

}  // namespace halfstep
