// Internals shared by the CPU sparse solvers (src/linear only): the singular-pivot rule and
// the CHOLMOD solver's factory, which exists only in builds with CHOLMOD.
#pragma once

#include <memory>

#include "linear/sparse_solver.hpp"

namespace halfstep::detail {

/// A pivot at or below this fraction of the largest |A_jj| counts as zero. A stiffness with
/// a mechanism factors without breaking down: round-off leaves its zero pivots at ~1e-16 of
/// the largest diagonal; a sound model's smallest pivot is its smallest eigenvalue or more,
/// which is far above 1e-12 of the largest diagonal unless the model is ill-posed anyway
/// (stiffness contrasts of 1e6 with a condition number of 1e6 from the mesh still pass).
constexpr double kSingularPivot = 1e-12;

/// Largest |A_jj| (0 for an empty matrix); a.col must be sorted per row.
double max_abs_diagonal(const CsrMatrix& a);

/// The first equation whose diagonal entry is missing, not positive, or below
/// kSingularPivot * max_abs_diagonal(a); -1 when there is none.
int first_bad_diagonal(const CsrMatrix& a);

/// Which of CHOLMOD's interfaces: int where the factor fits it, else 64-bit (Auto), or the
/// 64-bit one always (Wide: for tests of that path).
enum class CholmodIndex { Auto, Wide };

/// SuiteSparse CHOLMOD, supernodal LL^T on the upper triangle (linear/cholmod_solver.cpp);
/// a RunError in a build without CHOLMOD (have_cholmod()).
std::unique_ptr<SparseSolver> make_cholmod_solver(CholmodIndex index = CholmodIndex::Auto);

}  // namespace halfstep::detail
