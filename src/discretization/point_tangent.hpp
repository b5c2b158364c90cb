// The CPU's element matrices of the point-sum solids (C3D8 FORMULATION=FULL, C3D20, C3D20R,
// C3D10, C3D6, NURBS solids) by a point-wise tangent. Their forces are
// f_a = sum_g w_g detJ_g P(F_g) b_a with F_g = I + sum_a u_a (x) b_a, so
//   K_(a k)(b i) = sum_g w_g detJ_g sum_(l j) b_a,l A_kl,ij b_b,j,   A = dP/dF,
// and A is 9 derivatives of one point's stress: one evaluation of the law in 9 dual lanes per
// point, where differentiating the whole element takes 3N columns of every point (a C3D8's 24
// columns in two 12-lane passes of its 8 points). The law and its thermal strain are the
// element's own (point_stress), so the matrix is the same derivative to round-off. The F-bar
// C3D8 has its own (elements/solid_hex.hpp, c3d8_fbar_point_matrix: each point's force
// factors depend on F_g and the element's mean F0, 18 lanes). Laws with
// state (their return's tangent) and the small-strain theory stay with the element's dual
// columns (docs/theory.md, "Element matrices").
#pragma once

#include <cstddef>
#include <type_traits>

#include "core/dual_lanes.hpp"
#include "core/mat3.hpp"
#include "core/vec3.hpp"
#include "elements/solid_common.hpp"
#include "materials/material_law.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {

/// Whether kind K is a point-sum solid (K::point_gradients: its points' gradients and weights).
template <class K, class = void>
struct HasPointGradients : std::false_type {};
template <class K>
struct HasPointGradients<K, std::void_t<decltype(&K::template point_gradients<double>)>> : std::true_type {};

/// The number type of the point-wise tangent: a value and dP/dF's 9 directions.
using PointLanes = autodiff::DualLanes<9>;
/// The F-bar hexahedron's: its points' forces depend on F_g and the mean F0 (18 directions).
using FbarLanes = autodiff::DualLanes<18>;

/// Whether kind K has its own point-wise tangent of the F-bar form (K::fbar_point_matrix, the
/// C3D8) and is not a point-sum solid (C3D8 FULL derives from C3D8 and takes the point sums').
template <class K, class = void>
struct HasFbarPointMatrix : std::false_type {};
template <class K>
struct HasFbarPointMatrix<K, std::void_t<decltype(&K::template fbar_point_matrix<FbarLanes>)>>
    : std::bool_constant<!HasPointGradients<K>::value> {};

/// Whether a material's element matrices may take the point-wise tangent: no state (a return
/// map's consistent tangent needs the old state in dual numbers) and not the small-strain theory
/// (whose laws branch on the dual depth).
inline bool takes_point_tangent(const SolidMaterial<double>& m) { return state_size(m) == 0 && m.small_strain == 0; }

/// Kind K's element matrix (3N x 3N, row-major) at displacements u by the point-wise tangent,
/// material m in PointLanes (material_as), the element's temperature change theta and constant
/// data. False (ke unspecified) for a point with w detJ <= 0: the caller's dual columns then
/// give the element's NaN.
template <class K>
bool point_sum_element_matrix(const Vec3<double> X[K::kNodes], const Vec3<double> u[K::kNodes],
                              const SolidMaterial<PointLanes>& m, double theta, const double* data, double* ke) {
  constexpr int n = K::kNodes, nd = 3 * n;
  for (int i = 0; i < nd * nd; ++i) ke[i] = 0.0;
  for (int g = 0; g < K::kPoints; ++g) {
    Vec3<double> b[n];
    const double dv = K::template point_gradients<double>(X, data, g, b);
    if (!(dv > 0)) return false;
    Mat3<double> Fd = scaled_identity(1.0);
    for (int a = 0; a < n; ++a) solid_detail::add_outer(Fd, u[a], b[a]);
    const Mat3<PointLanes> F = solid_detail::seeded_lanes<PointLanes>(Fd, 0);
    const ElementState<PointLanes> st{nullptr, nullptr, 0, 0, data, PointLanes(theta)};
    const SolidStress<PointLanes> s = point_stress(m, F, st, g);
    const Mat3<PointLanes> P = F * s.S;
    double A[9][9];  // A[3k + l][3i + j] = dP_kl / dF_ij, times w detJ
    for (int k = 0; k < 3; ++k)
      for (int l = 0; l < 3; ++l)
        for (int q = 0; q < 9; ++q) A[3 * k + l][q] = dv * P(k, l).lane(q);
    for (int a = 0; a < n; ++a) {
      const double ba[3] = {b[a].x, b[a].y, b[a].z};
      for (int k = 0; k < 3; ++k) {
        double G[9];  // G[3i + j] = sum_l b_a,l A_kl,ij
        for (int q = 0; q < 9; ++q) G[q] = ba[0] * A[3 * k][q] + ba[1] * A[3 * k + 1][q] + ba[2] * A[3 * k + 2][q];
        double* row = ke + static_cast<std::size_t>(3 * a + k) * nd;
        for (int c = 0; c < n; ++c)
          for (int i = 0; i < 3; ++i)
            row[3 * c + i] += G[3 * i] * b[c].x + G[3 * i + 1] * b[c].y + G[3 * i + 2] * b[c].z;
      }
    }
  }
  return true;
}

}  // namespace halfstep
