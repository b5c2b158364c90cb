// Eigen's SimplicialLDLT and conjugate gradients behind SparseSolver, and the factory that
// picks among them and CHOLMOD (linear/cholmod_solver.cpp).
#include "linear/sparse_solver.hpp"

#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "linear/solver_detail.hpp"

namespace halfstep {

namespace detail {

double max_abs_diagonal(const CsrMatrix& a) {
  double m = 0;
  for (int r = 0; r < a.rows; ++r) {
    const auto first = a.col.begin() + a.row_ptr[r], last = a.col.begin() + a.row_ptr[r + 1];
    const auto it = std::lower_bound(first, last, r);
    if (it != last && *it == r) m = std::max(m, std::fabs(a.val[static_cast<std::size_t>(it - a.col.begin())]));
  }
  return m;
}

int first_bad_diagonal(const CsrMatrix& a) {
  const double tol = kSingularPivot * max_abs_diagonal(a);
  for (int r = 0; r < a.rows; ++r) {
    const auto first = a.col.begin() + a.row_ptr[r], last = a.col.begin() + a.row_ptr[r + 1];
    const auto it = std::lower_bound(first, last, r);
    const bool present = it != last && *it == r;
    if (!present || !(a.val[static_cast<std::size_t>(it - a.col.begin())] > tol)) return r;
  }
  return -1;
}

}  // namespace detail

namespace {

std::string eigen_version() {
  return std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) + "." +
         std::to_string(EIGEN_MINOR_VERSION);
}

/// An Eigen compressed matrix with a CSR pattern's structure, values filled per factor. The
/// indices are 64-bit so that neither the matrix nor a factor built from it can overflow them.
template <int Storage>
Eigen::SparseMatrix<double, Storage, std::int64_t> eigen_pattern(const CsrMatrix& a) {
  Eigen::SparseMatrix<double, Storage, std::int64_t> m(a.rows, a.rows);
  const std::int64_t nnz = a.row_ptr.empty() ? 0 : a.row_ptr[static_cast<std::size_t>(a.rows)];
  m.resizeNonZeros(nnz);
  std::copy(a.row_ptr.begin(), a.row_ptr.end(), m.outerIndexPtr());
  std::copy(a.col.begin(), a.col.begin() + nnz, m.innerIndexPtr());
  return m;
}

/// Bytes of a compressed Eigen matrix with 64-bit indices.
template <class M>
double copy_bytes(const M& m) {
  return 16.0 * static_cast<double>(m.nonZeros()) + 8.0 * static_cast<double>(m.outerSize() + 1);
}

/// Eigen's SimplicialLDLT (AMD ordering) on the upper triangle: always built, slower than
/// CHOLMOD's supernodal factor on large models.
class EigenLdlt final : public SparseSolver {
 public:
  std::string description() const override { return "Eigen " + eigen_version() + " SimplicialLDLT (AMD ordering)"; }
  bool wants_upper() const override { return true; }

  void analyze(const CsrMatrix& a) override {
    // The upper triangle in CSR is the lower triangle in CSC: the same arrays, read column-wise.
    m_ = eigen_pattern<Eigen::ColMajor>(a);
    ldlt_.analyzePattern(m_);
    if (ldlt_.info() != Eigen::Success) throw RunError("Eigen SimplicialLDLT: the symbolic analysis failed (out of memory?)");
    analyzed_ = true;
  }

  void factor(const CsrMatrix& a) override {
    if (!analyzed_) analyze(a);
    std::copy(a.val.begin(), a.val.end(), m_.valuePtr());
    ldlt_.factorize(m_);
    // Eigen stops only at an exactly zero pivot and leaves D(k) = 0 there (the entries past it
    // are stale). Round-off turns the zero pivots of a mechanism into tiny ones: singular
    // stiffness. Negative pivots are fine: a Newton iterate away from equilibrium (a rolled
    // shell's trial configuration, a buckling path) has an indefinite tangent.
    const auto& d = ldlt_.vectorD();
    const double tol = detail::kSingularPivot * detail::max_abs_diagonal(a);
    for (Eigen::Index k = 0; k < d.size(); ++k)
      if (!(std::fabs(d[k]) > tol)) {
        // P A P^T = L D L^T with P's indices mapping an original equation to its pivot, so the
        // inverse maps pivot k back.
        const int eq = static_cast<int>(ldlt_.permutationPinv().indices()[k]);
        char buf[160];
        std::snprintf(buf, sizeof buf, "the stiffness is singular at equation %d (LDLT pivot %.3g, largest diagonal %.3g)",
                      eq, d[k], tol / detail::kSingularPivot);
        throw SingularStiffness(eq, buf, tol / detail::kSingularPivot);
      }
    if (ldlt_.info() != Eigen::Success) throw SingularStiffness(-1, "the stiffness is singular (Eigen LDLT failed)");
  }

  void solve(const double* b, double* x) override {
    const Eigen::Index n = m_.rows();
    Eigen::Map<Eigen::VectorXd>(x, n) = ldlt_.solve(Eigen::Map<const Eigen::VectorXd>(b, n));
  }

  double bytes() const override {
    const auto& l = ldlt_.matrixL().nestedExpression();
    // L's values and row indices, its column starts, D, the two permutations, and the
    // solver's own copy of the matrix.
    return 16.0 * static_cast<double>(l.nonZeros()) + 8.0 * static_cast<double>(4 * l.cols() + 1) + copy_bytes(m_);
  }

 private:
  Eigen::SparseMatrix<double, Eigen::ColMajor, std::int64_t> m_;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double, Eigen::ColMajor, std::int64_t>, Eigen::Lower> ldlt_;
  bool analyzed_ = false;
};

/// Eigen's Jacobi-preconditioned conjugate gradients on the full matrix, row-major, so that
/// its product runs on Eigen's OpenMP threads (Eigen parallelizes only row-major sparse
/// products, and CG reads the full matrix only with Lower|Upper). Jacobi rather than Eigen's
/// incomplete Cholesky: on the 200 x 20 cantilever (8,040 equations, one thread) IC cut the
/// iterations from 733 to 409 but doubled the solve time (0.21 s against 0.10 s), and its
/// triangular solves are serial, so on a many-core host it loses by more still.
class EigenCg final : public SparseSolver {
  using Matrix = Eigen::SparseMatrix<double, Eigen::RowMajor, std::int64_t>;

 public:
  explicit EigenCg(const TangentOptions& opt) : opt_(opt) {
    // Eigen's thread count is global; halfstep uses Eigen only here.
    if (opt.threads > 0) Eigen::setNbThreads(opt.threads);
  }
  std::string description() const override {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0e", opt_.cg_tolerance);
    return "Eigen " + eigen_version() + " conjugate gradients, Jacobi preconditioner, tolerance " + buf;
  }
  bool wants_upper() const override { return false; }

  void analyze(const CsrMatrix& a) override {
    m_ = eigen_pattern<Eigen::RowMajor>(a);
    cg_.analyzePattern(m_);
    analyzed_ = true;
  }

  void factor(const CsrMatrix& a) override {
    if (!analyzed_) analyze(a);
    // A stiffness with a free equation has a zero diagonal there; CG would only stall on it
    // (and Eigen's Jacobi quietly takes 1 for a zero diagonal).
    const int bad = detail::first_bad_diagonal(a);
    if (bad >= 0)
      throw SingularStiffness(bad, "the stiffness is singular at equation " + std::to_string(bad) +
                                       " (its diagonal entry is zero or negative)");
    std::copy(a.val.begin(), a.val.end(), m_.valuePtr());
    cg_.factorize(m_);
    const std::int64_t n = m_.rows();
    cg_.setTolerance(opt_.cg_tolerance);
    cg_.setMaxIterations(opt_.cg_max_iterations > 0 ? opt_.cg_max_iterations : std::min<std::int64_t>(10 * n, 100000));
  }

  void solve(const double* b, double* x) override {
    const Eigen::Index n = m_.rows();
    Eigen::Map<Eigen::VectorXd> xx(x, n);
    xx = cg_.solve(Eigen::Map<const Eigen::VectorXd>(b, n));
    iterations_ = cg_.iterations();
    if (cg_.info() != Eigen::Success) {
      char buf[320];
      std::snprintf(buf, sizeof buf,
                    "conjugate gradients did not converge in %lld iterations (relative residual %.3g); the stiffness may "
                    "be singular or ill-conditioned; try --linear-solver ldlt",
                    static_cast<long long>(iterations_), cg_.error());
      throw RunError(buf);
    }
  }

  double bytes() const override {
    // The solver's own copy of the matrix (64-bit indices), the inverse diagonal and CG's four
    // work vectors (residual, direction, product, preconditioned residual).
    return copy_bytes(m_) + 8.0 * 5 * static_cast<double>(m_.rows());
  }
  std::int64_t last_iterations() const override { return iterations_; }

 private:
  TangentOptions opt_;
  Matrix m_;
  Eigen::ConjugateGradient<Matrix, Eigen::Lower | Eigen::Upper, Eigen::DiagonalPreconditioner<double>> cg_;
  bool analyzed_ = false;
  std::int64_t iterations_ = 0;
};

}  // namespace

bool have_cholmod() {
#if HALFSTEP_HAVE_CHOLMOD
  return true;
#else
  return false;
#endif
}

#if !HALFSTEP_HAVE_CHOLMOD
std::unique_ptr<SparseSolver> detail::make_cholmod_solver(detail::CholmodIndex) {
  throw RunError("this build of halfstep has no CHOLMOD (install libsuitesparse-dev and reconfigure)");
}
#endif

std::unique_ptr<SparseSolver> make_sparse_solver(LinearSolverKind kind, const TangentOptions& opt) {
  switch (kind) {
    case LinearSolverKind::Auto:
#if HALFSTEP_HAVE_CHOLMOD
      return detail::make_cholmod_solver();
#else
      return std::make_unique<EigenLdlt>();
#endif
    case LinearSolverKind::Cholmod:
#if HALFSTEP_HAVE_CHOLMOD
      return detail::make_cholmod_solver();
#else
      throw RunError(
          "--linear-solver cholmod: this build of halfstep has no CHOLMOD (install libsuitesparse-dev and "
          "reconfigure), or use --linear-solver ldlt");
#endif
    case LinearSolverKind::Ldlt: return std::make_unique<EigenLdlt>();
    case LinearSolverKind::Cg: return std::make_unique<EigenCg>(opt);
    case LinearSolverKind::Cudss:
    case LinearSolverKind::GpuCg: break;
  }
  throw RunError("--linear-solver " + linear_solver_name(kind) + " runs on the GPU, not in a CPU sparse solver");
}

}  // namespace halfstep
