// The row families' static evaluations as host/device bodies, written once: RowOperator
// (discretization/row_operator.cpp) runs them with forall on the CPU, the CUDA tangent engine
// with cuda::forall. Each family's mesh gives them its StaticView (the arrays an evaluation
// reads), its sections in plain and dual numbers and its generalized_forces hook.
#pragma once

#include <cstddef>

#include "core/dual.hpp"
#include "core/host_device.hpp"
#include "elements/fpm_kinematics.hpp"

namespace halfstep {

/// Most state values of one row element a matrix column's dual work array holds (a yielding
/// FPM triangle with 15 section points has 211, a yielding beam 176).
constexpr int kMaxRowState = 224;

/// What one family's evaluation reads: its arrays, the configuration's displacements and node
/// frames (3 values per node each) and the family's converged state (component-major, stride
/// count).
template <class Mesh>
struct RowArgs {
  typename Mesh::StaticView v;
  const double *u, *t1, *d;
  const double* old;
  int count;
  /// Element e's converged state.
  HS_HD StridedState<const double> old_of(int e) const { return {old + e, count}; }
};

/// Element e's generalized forces (6 per corner, at out + 6 kCorners e) from the converged
/// state into the trial state.
template <class Mesh>
struct RowForceBody {
  RowArgs<Mesh> a;
  const typename Mesh::template Section<double>* sections;
  double* trial;  ///< the family's trial state (layout of old)
  double* out;
  HS_HD void operator()(int e) const {
    Mesh::generalized_forces(a.v, sections, e, a.u, a.t1, a.d, a.old_of(e), -1, StridedState<double>{trial + e, a.count},
                             out + static_cast<std::size_t>(kFpmNodeDofs * Mesh::kCorners) * static_cast<std::size_t>(e));
  }
};

/// Column s of element e's matrix: the generalized forces' derivative along corner dof s, one
/// dual evaluation, one thread per (e, s); matrices kSize x kSize, row-major, element after
/// element from k. The symmetric part follows (RowSymmetrizeBody).
template <class Mesh>
struct RowColumnBody {
  static constexpr int kSize = kFpmNodeDofs * Mesh::kCorners;
  RowArgs<Mesh> a;
  const typename Mesh::template Section<Dual<double>>* sections;
  double* k;
  /// Column s of element e's matrix into ke (its first entry); the dual trial state into work
  /// (the state's derivative along dof s in its dual parts).
  HS_HD void column(int e, int s, Dual<double>* work, double* ke) const {
    Dual<double> col[kSize];
    Mesh::generalized_forces(a.v, sections, e, a.u, a.t1, a.d, a.old_of(e), s, StridedState<Dual<double>>{work, 1}, col);
    for (int r = 0; r < kSize; ++r) ke[r * kSize + s] = col[r].d;
  }
  HS_HD void operator()(int t) const {
    Dual<double> work[kMaxRowState];
    const int e = t / kSize;
    column(e, t - kSize * e, work, k + static_cast<std::size_t>(kSize) * kSize * static_cast<std::size_t>(e));
  }
};

/// Element e's matrix made symmetric, (K + K^T) / 2: the solvers take one triangle of a
/// symmetric matrix. FPM forces are not an energy's gradient; their derivative's skew part
/// (about 1e-3 of the largest entry, from the stresses the frame carries) left out costs
/// Newton little, where the other triangle's entries mirrored in its place made it crawl
/// (docs/theory.md).
template <int Size>
struct RowSymmetrizeBody {
  double* k;
  HS_HD void operator()(int e) const {
    double* ke = k + static_cast<std::size_t>(Size) * Size * static_cast<std::size_t>(e);
    for (int r = 0; r < Size; ++r)
      for (int s = r + 1; s < Size; ++s) {
        const double m = 0.5 * (ke[r * Size + s] + ke[s * Size + r]);
        ke[r * Size + s] = m;
        ke[s * Size + r] = m;
      }
  }
};

}  // namespace halfstep
