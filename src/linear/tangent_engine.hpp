// The seam between the static Newton driver (solver/static_solver) and the hardware that does
// its heavy work: internal forces, the tangent's element matrices, their assembly into a
// sparse matrix, and the linear solve. The driver only ever sees equation-space vectors on
// the host; an engine keeps its matrix where it assembled it (host memory for the OpenMP
// engine, device memory for the CUDA engine, so a GPU assembly feeds a GPU solver with no copy).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace halfstep {

struct Configuration;
struct CouplingBlocks;
struct DofCombinations;
struct ElementForceSums;
class StructureOperator;

/// Which linear solver factors or iterates on the tangent (--linear-solver).
enum class LinearSolverKind {
  Auto,      ///< the fastest that fits in memory on the run's hardware
  Cholmod,   ///< CPU sparse direct, SuiteSparse CHOLMOD (when built with it)
  Ldlt,      ///< CPU sparse direct, Eigen SimplicialLDLT (always built)
  Cg,        ///< CPU preconditioned conjugate gradients (Eigen)
  Cudss,     ///< GPU sparse direct, NVIDIA cuDSS (when built with it)
  GpuCg,     ///< GPU preconditioned conjugate gradients (cuSPARSE / cuBLAS)
};

/// Parses a --linear-solver value (auto, cholmod, ldlt, cg, cudss, gpu-cg); throws
/// std::invalid_argument naming the accepted values.
LinearSolverKind parse_linear_solver(const std::string& s);
/// The command-line name of a kind.
std::string linear_solver_name(LinearSolverKind k);

/// The BLAS this process runs CHOLMOD's dense fronts on: OpenBLAS's configuration ("OpenBLAS
/// 0.3.21 ... (core <kernel set>)") when OpenBLAS provides dgemm, else that library's path
/// "(not an optimized BLAS)" (Debian's reference BLAS factorizes 2-4 times slower;
/// docs/performance.md).
std::string blas_library();

/// The tangent could not be factored because it is singular: equation is the first equation
/// (as numbered by number_equations) where the factorization broke down, or -1 if unknown;
/// largest_diagonal the matrix's largest |diagonal| (the pivot test's scale), 0 if unknown.
class SingularStiffness : public std::runtime_error {
 public:
  SingularStiffness(int equation, const std::string& what, double largest_diagonal = 0)
      : std::runtime_error(what), equation_(equation), largest_diagonal_(largest_diagonal) {}
  int equation() const { return equation_; }
  double largest_diagonal() const { return largest_diagonal_; }

 private:
  int equation_;
  double largest_diagonal_;
};

/// Where the time of an engine went (seconds, summed over calls) and what it holds.
struct TangentStats {
  double internal_force_seconds = 0;
  double element_seconds = 0;     ///< element matrices
  double assembly_seconds = 0;    ///< element matrices into the CSR values
  double analyze_seconds = 0;     ///< ordering and symbolic factorization (once per pattern)
  double factor_seconds = 0;      ///< numeric factorization or preconditioner set-up
  double solve_seconds = 0;
  std::int64_t matrices = 0;      ///< element matrices computed
  std::int64_t factorizations = 0, solves = 0;
  std::int64_t iterations = 0;    ///< Krylov iterations, summed (0 for direct solvers)
  std::int64_t nonzeros = 0;      ///< stored CSR entries of the tangent
  double matrix_bytes = 0;        ///< bytes of the CSR tangent and the element matrices
  double solver_bytes = 0;        ///< bytes of the factor or the preconditioner (as reported)
};

/// Options of an engine.
struct TangentOptions {
  LinearSolverKind solver = LinearSolverKind::Auto;
  int threads = 0;                 ///< OpenMP threads (<= 0: default)
  int device = 0;                  ///< CUDA device
  double cg_tolerance = 1e-10;     ///< relative residual of the Krylov solvers
  int cg_max_iterations = 0;       ///< 0: 10 x equations, capped at 100000
  /// Extra integer cuDSS settings (cudssConfigParam_t value, value) set before its analysis:
  /// for experiments with its reordering (bench/tangent_bench); empty: cuDSS's defaults.
  std::vector<std::pair<int, int>> cudss_settings;
  /// The step assembles its tangent once (a linear static step): the CPU engine frees its
  /// assembly map's gather lists before the factorization, the run's peak, and builds them
  /// again should another assembly come.
  bool single_assembly = false;
};

/// Equation-space operations of a static Newton iteration on some hardware. Equations are
/// fixed at construction (number_equations: held and inactive dofs have none); a step with
/// other constraints makes a new engine.
class TangentEngine {
 public:
  virtual ~TangentEngine() = default;
  /// One line for the log: hardware, assembly, and the linear solver that runs.
  virtual std::string description() const = 0;
  /// The linear solver that runs (never Auto).
  virtual LinearSolverKind solver() const = 0;
  /// Generalized internal forces f (StructureOperator::dofs_per_node per node, node-major) in
  /// configuration c; returns the strain energy. With sums, the magnitudes of the continuum
  /// elements' own nodal forces are added to it (StructureOperator::internal_force).
  virtual double internal_force(const Configuration& c, std::vector<double>& f, ElementForceSums* sums = nullptr) = 0;
  /// The forces K(ref) x of a geometrically linear step (x and f: dofs_per_node per node;
  /// ref: the reference configuration with the step's triads), less the thermal forces of the
  /// continuum elements' temperature changes (thermal: Configuration::thermal, null or empty:
  /// none); returns x . K x / 2.
  virtual double linearized_force(const Configuration& ref, const std::vector<double>& x, std::vector<double>& f,
                                  const std::vector<double>* thermal = nullptr) = 0;
  /// Computes the element tangents at c, assembles them and factors the result (or sets up
  /// the preconditioner). Throws SingularStiffness when the matrix cannot be factored.
  virtual void assemble_and_factor(const Configuration& c) = 0;
  /// Adds s[i] to the diagonal of equation i in every later assemble_and_factor (the static
  /// solver's viscous stabilization, c m / dtau); an empty s removes it.
  virtual void set_diagonal_shift(const std::vector<double>& s) = 0;
  /// Blocks on global dofs (static contact's springs, assembly/csr_assembly.hpp) that every
  /// later assemble_and_factor adds to the element matrices, read anew at each assembly (null:
  /// none; it must outlive the engine's use). Blocks reaching entries outside the pattern grow
  /// it, and the solver analyzes it again.
  virtual void set_coupling(const CouplingBlocks* blocks) = 0;
  /// New weights for the combinations given at construction (same terms, DofCombinations::
  /// term_weight's order): every later assembly, coupling blocks included, uses them (a
  /// turning rigid body's arms under NLGEOM). The pattern does not change.
  virtual void set_combination_weights(const std::vector<double>& term_weight) = 0;
  /// The per-point material state (StructureState::solid_state's layout) that internal_force
  /// and assemble_and_factor start from: the last converged increment's. Laws with state
  /// (J2) are then evaluated from it, never advanced in place, so a failed attempt leaves it
  /// as it was. Before any call: the virgin state.
  virtual void set_material_state(const std::vector<double>& converged) = 0;
  /// The state the last internal_force reached at its configuration (a trial's), into s; what
  /// a converged increment commits.
  virtual void trial_material_state(std::vector<double>& s) = 0;
  /// A geometrically linear step whose laws have state (plasticity; ref: its reference
  /// configuration, which must outlive the use; null: off): linearized_force then evaluates
  /// the small-strain theory from the state set_material_state gave, writing the trial's
  /// state (trial_material_state) and returning the strain energy, stored plus dissipated
  /// (StructureOperator::small_strain_force), and assemble_and_factor(c) assembles its
  /// consistent tangent at c's displacements (the shells' K(ref)).
  virtual void set_small_strain(const Configuration* ref) = 0;
  /// Solves K x = b for the last factored tangent; b and x have one entry per equation.
  /// Throws RunError when an iterative solver does not converge.
  virtual void solve(const std::vector<double>& b, std::vector<double>& x) = 0;
  /// Time and memory so far.
  virtual const TangentStats& stats() const = 0;
};

}  // namespace halfstep
