// The OpenMP tangent engine: ContinuumOperator's element matrices, the gather assembly of
// assembly/csr_assembly, and one of the CPU sparse solvers of linear/sparse_solver.
#include "linear/cpu_tangent_engine.hpp"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/lap_timer.hpp"
#include "core/threads.hpp"
#include "assembly/csr_assembly.hpp"
#include "core/error.hpp"
#include "discretization/structure_operator.hpp"
#include "linear/sparse_solver.hpp"

namespace halfstep {
namespace {

using Clock = std::chrono::steady_clock;

/// Physical memory of the host in bytes (0 when unknown).
double physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0.0;
}

/// A crude upper estimate of a direct factor's bytes from the upper-triangle pattern. Nested
/// dissection of a 3D mesh of N nodes gives nnz(L) ~ N^(4/3) (the top separator's dense front
/// alone is ~N^(2/3) squared), and nnz(A_upper) ~ N, so nnz(L) ~ c N^(1/3) nnz(A_upper); c = 0.3
/// puts a cube of hexahedra at ~40 N^(4/3) entries (a count of the nested-dissection fronts
/// with their boundaries, not a measurement: calibrate it against CHOLMOD's L->xsize when a
/// large model is at hand). Plates, slender bodies and planar models fill far less (N log N in
/// 2D), so the estimate errs toward CG only for solid blocks, where the factor really is the
/// problem. 12 bytes per entry: 8 for CHOLMOD's supernodal values, 16 for the simplicial LDLT's
/// value and 64-bit row index.
double factor_bytes_estimate(const CsrMatrix& upper_pattern) {
  const double n = upper_pattern.rows, nnz = static_cast<double>(upper_pattern.col.size());
  const double nodes = n / 3;  // a shell model's 5 dofs per node only lowers the estimate
  const double fill = std::max(4.0, 0.3 * std::cbrt(nodes));
  return 12.0 * fill * nnz;
}

class CpuTangentEngine final : public TangentEngine {
 public:
  CpuTangentEngine(const StructureOperator& op, const std::vector<int>& equation, int equations,
                   const TangentOptions& opt, const DofCombinations* combined)
      : op_(op), equations_(equations), threads_(opt.threads > 0 ? opt.threads : default_threads()),
        single_assembly_(opt.single_assembly) {
    if (combined) combined_ = *combined;
    if (opt.solver == LinearSolverKind::Cudss || opt.solver == LinearSolverKind::GpuCg)
      throw RunError("--linear-solver " + linear_solver_name(opt.solver) + " runs on the GPU; the CPU engine cannot");
    if (static_cast<int>(equation.size()) != op.num_dofs())
      throw RunError("CPU tangent engine: the equation numbers do not cover the operator's dofs");
    kind_ = opt.solver;
    bool built = false;
    if (kind_ == LinearSolverKind::Auto) {
      kind_ = have_cholmod() ? LinearSolverKind::Cholmod : LinearSolverKind::Ldlt;
      map_ = build_csr_assembly(op, equation, equations, true, &combined_);
      built = true;
      const double need = factor_bytes_estimate(map_.pattern), have = physical_memory();
      if (have > 0 && need > 0.7 * have) {
        kind_ = LinearSolverKind::Cg;
        char buf[160];
        std::snprintf(buf, sizeof buf, " (auto: a direct factor would need ~%.0f GB of the host's %.0f GB)", need / 1e9,
                      have / 1e9);
        auto_note_ = buf;
      }
    }
    solver_ = make_sparse_solver(kind_, opt);
    if (!built || map_.upper != solver_->wants_upper())
      map_ = build_csr_assembly(op, equation, equations, solver_->wants_upper(), &combined_);
  }

  std::string description() const override {
    return "CPU (" + std::to_string(threads_) + " threads): OpenMP assembly, " + solver_->description() + auto_note_;
  }
  LinearSolverKind solver() const override { return kind_; }

  double internal_force(const Configuration& c, std::vector<double>& f, ElementForceSums* sums) override {
    const auto t0 = Clock::now();
    if (trial_.size() != committed_.size()) trial_.resize(committed_.size());
    const double energy =
        op_.internal_force(c, f, nullptr,
                           PointStates{committed_.empty() ? nullptr : committed_.data(),
                                       committed_.empty() ? nullptr : trial_.data()},
                           sums);
    stats_.internal_force_seconds += seconds_since(t0);
    return energy;
  }

  double linearized_force(const Configuration& ref, const std::vector<double>& x, std::vector<double>& f,
                          const std::vector<double>* thermal = nullptr) override {
    const auto t0 = Clock::now();
    double energy;
    if (small_ref_) {
      if (trial_.size() != committed_.size()) trial_.resize(committed_.size());
      energy = op_.small_strain_force(ref, x, f, thermal,
                                      PointStates{committed_.empty() ? nullptr : committed_.data(),
                                                  committed_.empty() ? nullptr : trial_.data()});
    } else {
      energy = op_.linearized_force(ref, x, f, thermal);
    }
    stats_.internal_force_seconds += seconds_since(t0);
    return energy;
  }

  void set_combination_weights(const std::vector<double>& term_weight) override {
    if (term_weight.size() != combined_.term_weight.size())
      throw std::logic_error("set_combination_weights: " + std::to_string(term_weight.size()) + " weights for " +
                             std::to_string(combined_.term_weight.size()) + " terms");
    combined_.term_weight = term_weight;
    if (!map_released_) reweight_csr_assembly(map_, combined_);  // else rebuilt with them
  }

  void assemble_and_factor(const Configuration& c) override {
    auto t0 = Clock::now();
    if (small_ref_)
      op_.small_strain_matrices(*small_ref_, c, k_, committed_.empty() ? nullptr : committed_.data());
    else
      op_.element_matrices(c, k_, committed_.empty() ? nullptr : committed_.data());
    stats_.element_seconds += seconds_since(t0);
    stats_.matrices += op_.num_elements();
    t0 = Clock::now();
    if (map_released_) {  // a second assembly after all: the gather lists again
      map_ = build_csr_assembly(op_, map_.equation, equations_, map_.upper, &combined_);
      map_released_ = false;
    }
    // In place where a_ holds the map's pattern from the last assembly. A contact pattern
    // grown past it has more entries, so assemble_csr_into's size test replaces it; one that
    // did not grow is the map's own.
    assemble_csr_into(map_, k_, a_, threads_);
    if (single_assembly_ && !coupling_) {
      // The gather lists (two int64 per element-matrix entry, ~144 MB for 133 k equations of
      // C3D8) and the pattern a_ copies would sit beside the factor for nothing.
      std::vector<std::int64_t>().swap(map_.source);
      std::vector<std::int64_t>().swap(map_.source_ptr);
      std::vector<double>().swap(map_.weight);
      std::vector<int>().swap(map_.weight_terms);
      map_.pattern = CsrMatrix{};  // a_ holds the same
      map_released_ = true;
    }
    const double element_bytes = 8.0 * static_cast<double>(k_.size());
    // Released before the factorization, whose factor is the run's peak: kept, the element
    // matrices (a C3D8 model's 4.6 kB each) would sit beside it for nothing.
    std::vector<double>().swap(k_);
    if (coupling_ && (coupling_->count() > 0 || grown_)) {
      // Contact springs come and go; the pattern only grows, so that one analysis serves
      // every later assembly whose springs it already holds.
      if (!grown_) grown_ = std::make_unique<CouplingPattern>(map_, combined_);
      if (grown_->grow(*coupling_)) analyzed_ = false;
      a_ = grown_->add(a_, *coupling_);
    }
    if (!shift_.empty())
      for (int r = 0; r < a_.rows; ++r)
        for (std::int64_t k = a_.row_ptr[static_cast<std::size_t>(r)]; k < a_.row_ptr[static_cast<std::size_t>(r) + 1]; ++k)
          if (a_.col[static_cast<std::size_t>(k)] == r) a_.val[static_cast<std::size_t>(k)] += shift_[static_cast<std::size_t>(r)];
    stats_.assembly_seconds += seconds_since(t0);
    // A non-finite entry (an element matrix that overflowed, an element turned inside out) is
    // no singular stiffness: named as what it is (NaN largest diagonal: StaticProblem::factor).
    for (int r = 0; r < a_.rows; ++r)
      for (std::int64_t k = a_.row_ptr[static_cast<std::size_t>(r)]; k < a_.row_ptr[static_cast<std::size_t>(r) + 1]; ++k)
        if (!std::isfinite(a_.val[static_cast<std::size_t>(k)]))
          throw SingularStiffness(r, "an entry of row " + std::to_string(r) + " is " +
                                         std::to_string(a_.val[static_cast<std::size_t>(k)]),
                                  std::numeric_limits<double>::quiet_NaN());
    stats_.nonzeros = static_cast<std::int64_t>(a_.val.size());
    stats_.matrix_bytes = 8.0 * static_cast<double>(a_.val.size() + a_.row_ptr.size()) + element_bytes +
                          4.0 * static_cast<double>(a_.col.size());
    if (!analyzed_) {
      t0 = Clock::now();
      solver_->analyze(a_);
      stats_.analyze_seconds += seconds_since(t0);
      analyzed_ = true;
    }
    t0 = Clock::now();
    factored_ = false;
    solver_->factor(a_);
    factored_ = true;
    stats_.factor_seconds += seconds_since(t0);
    ++stats_.factorizations;
    stats_.solver_bytes = solver_->bytes();
  }

  void set_diagonal_shift(const std::vector<double>& s) override {
    if (!s.empty() && static_cast<int>(s.size()) != equations_) throw RunError("CPU tangent engine: shift of the wrong size");
    shift_ = s;
  }

  void solve(const std::vector<double>& b, std::vector<double>& x) override {
    if (!factored_) throw RunError("CPU tangent engine: solve before a successful assemble_and_factor");
    if (static_cast<int>(b.size()) != equations_) throw RunError("CPU tangent engine: right-hand side of the wrong size");
    x.assign(b.size(), 0.0);
    const auto t0 = Clock::now();
    try {
      solver_->solve(b.data(), x.data());
    } catch (...) {
      stats_.iterations += solver_->last_iterations();
      stats_.solve_seconds += seconds_since(t0);
      throw;
    }
    stats_.solve_seconds += seconds_since(t0);
    stats_.iterations += solver_->last_iterations();
    ++stats_.solves;
  }

  void set_coupling(const CouplingBlocks* blocks) override { coupling_ = blocks; }

  void set_small_strain(const Configuration* ref) override { small_ref_ = ref; }
  void set_material_state(const std::vector<double>& converged) override { committed_ = converged; }
  void trial_material_state(std::vector<double>& s) override { s = trial_; }

  const TangentStats& stats() const override { return stats_; }

 private:
  const StructureOperator& op_;
  std::vector<double> shift_;  ///< added to the diagonal after each assembly (empty: none)
  int equations_;
  int threads_;
  LinearSolverKind kind_;
  std::string auto_note_;
  DofCombinations combined_;  ///< dofs eliminated into weighted terms (static *TIE, *EQUATION)
  CsrAssemblyMap map_;
  const CouplingBlocks* coupling_ = nullptr;   ///< added at each assembly (null: none)
  std::unique_ptr<CouplingPattern> grown_;     ///< map_'s pattern grown by the coupling blocks (null: never needed)
  std::unique_ptr<SparseSolver> solver_;
  std::vector<double> k_;  ///< element matrices while an assembly runs (empty between them)
  std::vector<double> committed_, trial_;  ///< material state: converged, and at the last internal_force
  const Configuration* small_ref_ = nullptr;  ///< a linear step's reference with the small-strain theory (null: off)
  CsrMatrix a_;
  bool single_assembly_ = false;  ///< TangentOptions::single_assembly
  bool map_released_ = false;     ///< map_'s gather lists freed (single_assembly_)
  bool analyzed_ = false, factored_ = false;
  TangentStats stats_;
};

}  // namespace

std::unique_ptr<TangentEngine> make_cpu_tangent_engine(const StructureOperator& op, const std::vector<int>& equation,
                                                       int equations, const TangentOptions& opt,
                                                       const DofCombinations* combined) {
  return std::make_unique<CpuTangentEngine>(op, equation, equations, opt, combined);
}

}  // namespace halfstep
