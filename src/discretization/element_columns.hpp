// An element's tangent by forward dual numbers, column block by column block: the CPU
// engine's element matrices (ContinuumOperator::element_matrices), with Dual<double> (one
// column per evaluation of the kind's internal forces) or DualLanes<L> (L columns per
// evaluation, the value part computed once for all of them).
#pragma once

#include <algorithm>

#include "core/dual.hpp"
#include "core/dual_lanes.hpp"
#include "core/vec3.hpp"
#include "materials/material_law.hpp"

namespace halfstep {

/// Component c (0: x, 1: y, 2: z) of v.
template <class T>
T& vec_component(Vec3<T>& v, int c) {
  return c == 0 ? v.x : c == 1 ? v.y : v.z;
}

/// An element's matrix by dual-number columns of number type D: Dual<double> one column per
/// evaluation, DualLanes<L> L columns per evaluation (the same numbers: each lane follows
/// Dual's formulas). ke: 3N x 3N, row-major, zeroed; a planar kind's z columns are not
/// evaluated (its forces do not depend on z) and stay 0.
template <class K, class D, int L>
void element_matrix_by_columns(const Vec3<double> Xd[], const Vec3<double> ud[], const SolidMaterial<D>& m, double kappa,
                               const ElementState<D>& est, double* ke) {
  constexpr int nd = 3 * K::kNodes;
  int cols[nd], ncols = 0;
  for (int j = 0; j < nd; ++j)
    if (!(K::kDimension == 2 && j % 3 == 2)) cols[ncols++] = j;
  Vec3<D> X[K::kNodes], u[K::kNodes], f[K::kNodes];
  for (int a = 0; a < K::kNodes; ++a) X[a] = {D(Xd[a].x), D(Xd[a].y), D(Xd[a].z)};
  for (int first = 0; first < ncols; first += L) {
    const int n = std::min(L, ncols - first);
    for (int a = 0; a < K::kNodes; ++a) u[a] = {D(ud[a].x), D(ud[a].y), D(ud[a].z)};
    for (int l = 0; l < n; ++l) {  // lane l seeds column cols[first + l]
      const int j = cols[first + l];
      D& seed = vec_component(u[j / 3], j % 3);
      if constexpr (L == 1) seed.d = 1.0;
      else seed.seed(l);
    }
    K::internal_force(X, u, m, D(kappa), f, est);
    for (int l = 0; l < n; ++l) {
      const int j = cols[first + l];
      for (int a = 0; a < K::kNodes; ++a)
        for (int c = 0; c < 3; ++c) {
          const D& fa = vec_component(f[a], c);
          if constexpr (L == 1) ke[(3 * a + c) * nd + j] = fa.d;
          else ke[(3 * a + c) * nd + j] = fa.lane(l);
        }
    }
  }
}

}  // namespace halfstep
