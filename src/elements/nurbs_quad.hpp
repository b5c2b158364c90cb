// Planar NURBS (isogeometric) elements of degree P = 1..4, plane strain (NCPE<P>) and plane
// stress (NCPS<P>), total Lagrangian, (P+1) x (P+1) Gauss points, as host/device continuum
// traits (interface in solid_kinds.hpp). An element is one Bézier element of a patch
// (discretization/nurbs_patch.hpp, extract_bezier): its nodes are the (P+1)^2 control points
// whose functions are nonzero on it (direction 0 fastest), and its constant data
// (ElementState::data, kElementData values: the control points' weights, then the 1D
// extraction operators of xi and eta) turns Bernstein polynomials into its rational basis R_a.
// From there it is the isoparametric element of plane_quad.hpp with R_a for N_a: the same
// point physics (plane_detail::quad4_point), forces f_a = t sum_g w_g detJ_g P b_a.
// docs/theory.md, "NURBS elements".
#pragma once

#include <array>
#include <cmath>

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "core/vec3.hpp"
#include "elements/nurbs_basis.hpp"
#include "elements/plane_quad.hpp"
#include "elements/solid_common.hpp"
#include "materials/material_law.hpp"
#include "materials/material_tangent.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {
namespace nurbs_detail {

/// Gauss-Legendre point i of the n-point rule on [-1, 1] (n = 1..5) and its weight.
HS_HD void gauss_legendre(int n, int i, double& x, double& w) {
  // Abscissae and weights to 20 digits (closed forms: sqrt(1/3), sqrt(3/5), ...).
  const double x2 = 0.57735026918962576451, x3 = 0.77459666924148337704;
  const double x4a = 0.33998104358485626480, x4b = 0.86113631159405257522;
  const double w4a = 0.65214515486254614263, w4b = 0.34785484513745385737;
  const double x5a = 0.53846931010568309104, x5b = 0.90617984593866399280;
  const double w5a = 0.47862867049936646804, w5b = 0.23692688505618908751, w5c = 0.56888888888888888889;
  switch (n) {
    case 1: x = 0.0, w = 2.0; return;
    case 2: x = i == 0 ? -x2 : x2, w = 1.0; return;
    case 3: x = i == 0 ? -x3 : (i == 1 ? 0.0 : x3), w = i == 1 ? 8.0 / 9.0 : 5.0 / 9.0; return;
    case 4: {
      const double xs[4] = {-x4b, -x4a, x4a, x4b}, ws[4] = {w4b, w4a, w4a, w4b};
      x = xs[i], w = ws[i];
      return;
    }
    default: {
      const double xs[5] = {-x5b, -x5a, 0.0, x5a, x5b}, ws[5] = {w5b, w5a, w5c, w5a, w5b};
      x = xs[i], w = ws[i];
      return;
    }
  }
}

/// VTK_LAGRANGE_QUADRILATERAL's point order for an order-P cell: element node (tensor index
/// i + (P+1) j) of VTK point k (corners, then the edges (0,1), (1,2), (3,2), (0,3) each by
/// increasing parameter, then the interior row by row).
template <int P>
constexpr std::array<int, (P + 1) * (P + 1)> lagrange_quad_order() {
  std::array<int, (P + 1) * (P + 1)> order{};
  const auto node = [](int i, int j) { return i + (P + 1) * j; };
  int k = 0;
  order[k++] = node(0, 0);
  order[k++] = node(P, 0);
  order[k++] = node(P, P);
  order[k++] = node(0, P);
  for (int i = 1; i < P; ++i) order[k++] = node(i, 0);
  for (int j = 1; j < P; ++j) order[k++] = node(P, j);
  for (int i = 1; i < P; ++i) order[k++] = node(i, P);
  for (int j = 1; j < P; ++j) order[k++] = node(0, j);
  for (int j = 1; j < P; ++j)
    for (int i = 1; i < P; ++i) order[k++] = node(i, j);
  return order;
}

/// Row-sum lumped mass of a NURBS element kind K: frac_a = (1/V) int R_a dV (R_a >= 0:
/// positive fractions). Returns the measure V (area or volume), or the first non-positive
/// w detJ (an inverted element or missing data).
template <class K, class T>
HS_HD T row_sum_mass_fractions(const Vec3<T>* X, T* frac, const double* data) {
  for (int a = 0; a < K::kNodes; ++a) frac[a] = T(0);
  T measure = T(0);
  for (int g = 0; g < K::kPoints; ++g) {
    Vec3<T> b[K::kNodes];
    double R[K::kNodes];
    const T w = K::point_basis(X, data, g, b, R);
    if (!(w > T(0))) return w;
    for (int a = 0; a < K::kNodes; ++a) frac[a] += w * T(R[a]);
    measure += w;
  }
  for (int a = 0; a < K::kNodes; ++a) frac[a] /= measure;
  return measure;
}

/// Element of degree P (plane stress or strain).
template <int P, bool kPlaneStress>
struct NurbsQuad {
  static constexpr int kDegree = P;
  static constexpr int kPer = P + 1;  ///< functions (and Gauss points) per direction
  static constexpr int kNodes = kPer * kPer;
  /// Constant data per element: the nodes' weights, then the xi and the eta operators
  /// ((P+1) x (P+1) each, row-major; nurbs_patch.hpp Extraction1D).
  static constexpr int kElementData = kNodes + 2 * kPer * kPer;
  static constexpr const char* kAliases = "";
  static constexpr int kDimension = 2;
  /// VTK_LAGRANGE_QUADRILATERAL through the control points: exact for P = 1 and at the
  /// element corners of an interpolating patch, otherwise a view of the control net (the
  /// sampled output of the geometry is separate; docs/input.md).
  static constexpr int kVtkCell = 70;
  static constexpr std::array<int, kNodes> kVtkOrderTable = lagrange_quad_order<P>();
  static constexpr const int* kVtkOrder = kVtkOrderTable.data();
  /// Relative cost (MITC4 = 1): Quad4's per point, times the points; not measured.
  static constexpr double kCost = (kPlaneStress ? 0.3 : 0.225) * kNodes;
  static constexpr int kPoints = kNodes;
  static constexpr bool kExplicit = false;  // no lumped-mass stable increment derived for it
  static constexpr const char* kExplicitAlternative = kPlaneStress ? "CPS4R or CPS4" : "CPE4R or CPE4";
  static constexpr const char* kMadeBy = "*NURBS PATCH";  ///< the keyword that makes these elements

  /// Basis values R, reference gradients b (z = 0) at Gauss point g from the element's
  /// data; returns detJ times the point's Gauss weight (b zero when detJ <= 0 or no data).
  template <class T>
  HS_HD static T point_basis(const Vec3<T> X[kNodes], const double* data, int g, Vec3<T> b[kNodes], double R[kNodes]) {
    double xi[2], wx, wy;
    gauss_legendre(kPer, g % kPer, xi[0], wx);
    gauss_legendre(kPer, g / kPer, xi[1], wy);
    const int p[2] = {P, P};
    double dR[2 * kNodes];
    if (!data) {
      for (int a = 0; a < kNodes; ++a) b[a] = {T(0), T(0), T(0)}, R[a] = 0.0;
      return T(0);
    }
    const double* C1[2] = {data + kNodes, data + kNodes + kPer * kPer};
    nurbs::bezier_element_basis_kron<2>(p, xi, C1, data, R, dR);
    T j00 = T(0), j01 = T(0), j10 = T(0), j11 = T(0);  // J_ij = dX_i / dxi_j
    for (int a = 0; a < kNodes; ++a) {
      j00 += X[a].x * T(dR[2 * a]);
      j01 += X[a].x * T(dR[2 * a + 1]);
      j10 += X[a].y * T(dR[2 * a]);
      j11 += X[a].y * T(dR[2 * a + 1]);
    }
    const T det = j00 * j11 - j01 * j10;
    if (!(det > T(0))) {
      for (int a = 0; a < kNodes; ++a) b[a] = {T(0), T(0), T(0)};
      return det;
    }
    for (int a = 0; a < kNodes; ++a)  // b = J^-T dR/dxi
      b[a] = {(j11 * T(dR[2 * a]) - j10 * T(dR[2 * a + 1])) / det, (-j01 * T(dR[2 * a]) + j00 * T(dR[2 * a + 1])) / det,
              T(0)};
    return det * T(wx * wy);
  }

  /// Row-sum lumped mass frac_a = (1/A) int R_a dA (R_a >= 0: positive fractions). Returns the
  /// area A (the caller multiplies by the thickness), or the first non-positive detJ.
  template <class T>
  HS_HD static T mass_fractions(const Vec3<T> X[kNodes], T frac[kNodes], const double* data = nullptr) {
    return row_sum_mass_fractions<NurbsQuad>(X, frac, data);
  }

  /// In-plane forces f (z = 0) and strain energy, thickness m.thickness (kappa unused); NaN
  /// for an invalid reference or missing data.
  template <class T>
  HS_HD static SolidEnergy<T> internal_force(const Vec3<T> X[kNodes], const Vec3<T> u[kNodes],
                                             const SolidMaterial<T>& m, T hourglass_kappa, Vec3<T> f[kNodes],
                                             const ElementState<T>& state = {}) {
    (void)hourglass_kappa;
    for (int a = 0; a < kNodes; ++a) f[a] = {T(0), T(0), T(0)};
    T energy = T(0), dissipation = T(0);
    for (int g = 0; g < kPoints; ++g) {
      Vec3<T> b[kNodes];
      double R[kNodes];
      const T wdet = point_basis(X, state.data, g, b, R);
      if (!(wdet > T(0))) {
        const T nan = solid_detail::quiet_nan<T>();
        for (int a = 0; a < kNodes; ++a) f[a] = {nan, nan, nan};
        return {nan, T(0)};
      }
      Mat3<T> F;
      const SolidStress<T> s = plane_detail::quad4_point<T, kPlaneStress, kNodes>(m, u, b, F, state, g);
      const T w = m.thickness * wdet;
      const Mat3<T> Pk = F * s.S;
      for (int a = 0; a < kNodes; ++a) {
        f[a].x += w * (Pk(0, 0) * b[a].x + Pk(0, 1) * b[a].y);
        f[a].y += w * (Pk(1, 0) * b[a].x + Pk(1, 1) * b[a].y);
      }
      energy += w * s.energy;
      dissipation += w * s.dissipation;
    }
    return {energy, T(0), dissipation};
  }

  /// The element matrix by a point-wise tangent, where it applies (plane strain, laws without
  /// state): per Gauss point the basis once and A = dP/dF by four dual passes of the point
  /// physics, then K_(a k)(b i) = t w detJ sum_(l j) b_a,l A_kl,ij b_b,j: 36 point evaluations
  /// instead of the generic 18 dual passes of the element (162). Fills ke (3N x 3N, row-major,
  /// z rows and columns zero) and returns true; false leaves it to the generic dual columns
  /// (plane stress: F33 is solved inside the point; a law with state; an inverted point).
  static bool element_matrix(const Vec3<double> X[kNodes], const Vec3<double> u[kNodes], const SolidMaterial<double>& m,
                             const double* data, double* ke) {
    if (kPlaneStress || state_size(m) > 0 || !data) return false;
    using D = autodiff::Dual<double>;
    const SolidMaterial<D> md = dual_material(m);
    constexpr int nd = 3 * kNodes;
    for (int i = 0; i < nd * nd; ++i) ke[i] = 0.0;
    for (int g = 0; g < kPoints; ++g) {
      Vec3<double> b[kNodes];
      double R[kNodes];
      const double wdet = point_basis(X, data, g, b, R);
      if (!(wdet > 0)) return false;
      double H2[4] = {0, 0, 0, 0};
      for (int a = 0; a < kNodes; ++a) {
        H2[0] += u[a].x * b[a].x;
        H2[1] += u[a].x * b[a].y;
        H2[2] += u[a].y * b[a].x;
        H2[3] += u[a].y * b[a].y;
      }
      double A[2][2][2][2];  // dP_kl / dF_ij, in-plane
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
          Mat3<D> F = scaled_identity(D(1.0));
          F(0, 0) = D(1.0 + H2[0], i == 0 && j == 0 ? 1.0 : 0.0);
          F(0, 1) = D(H2[1], i == 0 && j == 1 ? 1.0 : 0.0);
          F(1, 0) = D(H2[2], i == 1 && j == 0 ? 1.0 : 0.0);
          F(1, 1) = D(1.0 + H2[3], i == 1 && j == 1 ? 1.0 : 0.0);
          const SolidStress<D> s = point_stress(md, F, ElementState<D>{}, g);
          const Mat3<D> Pk = F * s.S;
          for (int k = 0; k < 2; ++k)
            for (int l = 0; l < 2; ++l) A[k][l][i][j] = Pk(k, l).d;
        }
      const double w = m.thickness * wdet;
      for (int a = 0; a < kNodes; ++a) {
        const double ba[2] = {b[a].x, b[a].y};
        for (int k = 0; k < 2; ++k) {
          double row[2][2];  // sum_l b_a,l A_kl,ij
          for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j) row[i][j] = ba[0] * A[k][0][i][j] + ba[1] * A[k][1][i][j];
          double* kr = ke + static_cast<std::size_t>(3 * a + k) * nd;
          for (int c = 0; c < kNodes; ++c) {
            kr[3 * c] += w * (row[0][0] * b[c].x + row[0][1] * b[c].y);
            kr[3 * c + 1] += w * (row[1][0] * b[c].x + row[1][1] * b[c].y);
          }
        }
      }
    }
    return true;
  }

  /// Critical increment bound 2/omega as Quad4's (plane_quad.hpp), with the Gauss weights:
  /// omega^2 <= sum_g w_g detJ_g (lam + g2) sum_a |b_a|^2 / m_a per unit thickness.
  template <class T>
  HS_HD static T stable_dt(const Vec3<T> X[kNodes], const SolidMaterial<T>& m, T hourglass_kappa = T(0.1),
                           const double* data = nullptr) {
    (void)hourglass_kappa;
    T frac[kNodes];
    const T area = mass_fractions(X, frac, data);
    if (!(area > T(0))) return T(0);
    T lam, g2;
    solid_detail::bound_moduli(m, lam, g2);
    if (kPlaneStress && lam > T(0)) lam = lam * g2 / (lam + g2);
    T omega2 = T(0);
    for (int g = 0; g < kPoints; ++g) {
      Vec3<T> b[kNodes];
      double R[kNodes];
      const T wdet = point_basis(X, data, g, b, R);
      T bg = T(0);
      for (int a = 0; a < kNodes; ++a) bg += dot(b[a], b[a]) / (m.density * area * frac[a]);
      omega2 += wdet * (lam + g2) * bg;
    }
    return solid_detail::dt_from_omega2(omega2);
  }

  /// Cauchy stress and Green strain averaged over the element (weights w_g detJ_g / A).
  template <class T>
  HS_HD static SolidOutput<T> centroid_output(const Vec3<T> X[kNodes], const Vec3<T> u[kNodes],
                                              const SolidMaterial<T>& m, ElementState<T> state = {}) {
    state.next = nullptr;  // output reads the state, never writes it
    T frac[kNodes];
    const T area = mass_fractions(X, frac, state.data);
    if (!(area > T(0))) {
      const T nan = solid_detail::quiet_nan<T>();
      return {scaled_identity(nan), scaled_identity(nan)};
    }
    SolidOutput<T> out{scaled_identity(T(0)), scaled_identity(T(0))};
    for (int g = 0; g < kPoints; ++g) {
      Vec3<T> b[kNodes];
      double R[kNodes];
      const T w = point_basis(X, state.data, g, b, R) / area;
      Mat3<T> F;
      const SolidStress<T> s = plane_detail::quad4_point<T, kPlaneStress, kNodes>(m, u, b, F, state, g);
      out.cauchy = out.cauchy + w * ((T(1) / determinant(F)) * (F * s.S * transpose(F)));
      out.green = out.green + w * green_strain(F);
    }
    return out;
  }
};

}  // namespace nurbs_detail

/// Plane-strain NURBS elements of degree 1..4 (deck: *NURBS PATCH, TYPE=CPE).
struct NCPE1 : nurbs_detail::NurbsQuad<1, false> {
  HS_HD static constexpr const char* name() { return "NCPE1"; }
};
struct NCPE2 : nurbs_detail::NurbsQuad<2, false> {
  HS_HD static constexpr const char* name() { return "NCPE2"; }
};
struct NCPE3 : nurbs_detail::NurbsQuad<3, false> {
  HS_HD static constexpr const char* name() { return "NCPE3"; }
};
struct NCPE4 : nurbs_detail::NurbsQuad<4, false> {
  HS_HD static constexpr const char* name() { return "NCPE4"; }
};
/// Plane-stress NURBS elements of degree 1..4 (deck: *NURBS PATCH, TYPE=CPS).
struct NCPS1 : nurbs_detail::NurbsQuad<1, true> {
  HS_HD static constexpr const char* name() { return "NCPS1"; }
};
struct NCPS2 : nurbs_detail::NurbsQuad<2, true> {
  HS_HD static constexpr const char* name() { return "NCPS2"; }
};
struct NCPS3 : nurbs_detail::NurbsQuad<3, true> {
  HS_HD static constexpr const char* name() { return "NCPS3"; }
};
struct NCPS4 : nurbs_detail::NurbsQuad<4, true> {
  HS_HD static constexpr const char* name() { return "NCPS4"; }
};

}  // namespace halfstep
