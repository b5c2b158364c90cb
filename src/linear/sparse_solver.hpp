// CPU sparse linear solvers from well-kept libraries behind one small interface: SuiteSparse
// CHOLMOD (optional at build time), Eigen's SimplicialLDLT and Eigen's conjugate gradients.
// The CUDA engine uses them too when a GPU-assembled matrix is solved on the host.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "assembly/csr_assembly.hpp"
#include "linear/tangent_engine.hpp"

namespace halfstep {

/// A linear solver for one sparsity pattern: analyze once, factor per matrix, solve per
/// right-hand side.
class SparseSolver {
 public:
  virtual ~SparseSolver() = default;
  /// Library and method, for the log (e.g. "CHOLMOD 5.2 supernodal").
  virtual std::string description() const = 0;
  /// True when the solver reads only the upper triangle (build_csr_assembly(upper = true)).
  virtual bool wants_upper() const = 0;
  /// Ordering and symbolic analysis of a's pattern.
  virtual void analyze(const CsrMatrix& a) = 0;
  /// Numeric factorization (or preconditioner) of a, with the analyzed pattern. Throws
  /// SingularStiffness with the failing equation when a is singular.
  virtual void factor(const CsrMatrix& a) = 0;
  /// x = A^-1 b (a.rows entries each). Throws RunError when an iterative solve fails.
  virtual void solve(const double* b, double* x) = 0;
  /// Bytes of the factor or the preconditioner.
  virtual double bytes() const { return 0; }
  /// Krylov iterations of the last solve (0 for direct solvers).
  virtual std::int64_t last_iterations() const { return 0; }
};

/// True when this build has CHOLMOD.
bool have_cholmod();

/// Makes a CPU solver: Cholmod, Ldlt or Cg (Auto: CHOLMOD when built, else LDLT). Throws
/// RunError for a kind this build lacks or a GPU kind.
std::unique_ptr<SparseSolver> make_sparse_solver(LinearSolverKind kind, const TangentOptions& opt);

}  // namespace halfstep
