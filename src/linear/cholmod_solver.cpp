// SuiteSparse CHOLMOD behind SparseSolver: supernodal LL^T (BLAS-3 on dense fronts), the
// fastest CPU direct solver halfstep has, and a simplicial LDL^T for the indefinite tangents
// of Newton iterates away from equilibrium (CHOLMOD's supernodal factor is LL^T only). Compiled to nothing without CHOLMOD (CMake's
// HALFSTEP_CHOLMOD found no cholmod.h or libcholmod).
#if HALFSTEP_HAVE_CHOLMOD

#include <cholmod.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "linear/solver_detail.hpp"

namespace halfstep::detail {
namespace {

/// The 64-bit-index interface (cholmod_l_*): a 3D factor passes 2^31 entries long before
/// it stops fitting in a host's memory.
class CholmodSolver final : public SparseSolver {
 public:
  CholmodSolver() {
    cholmod_l_start(&c_);
    c_.supernodal = CHOLMOD_SUPERNODAL;
    // Relaxed amalgamation twice CHOLMOD's default (4, 16, 48 columns; 0.8, 0.1, 0.05 of
    // extra zeros): larger supernodes give the dense kernels longer panels for a few more
    // flops. One core, 2026-12-07: factorization 11.6 -> 10.2 s (24 factors of the NLGEOM
    // cantilever c3d8-31k), 4.40 -> 4.28 s (c3d8-133k), 3.78 -> 3.47 s (c3d20r-118k),
    // 4.06 -> 3.68 s (c3d4-500k); four times the default was slower on the three large ones
    // (docs/performance.md).
    c_.nrelax[0] = 8;
    c_.nrelax[1] = 32;
    c_.nrelax[2] = 96;
    c_.zrelax[0] = 0.8;
    c_.zrelax[1] = 0.2;
    c_.zrelax[2] = 0.1;
    // The failures are reported as exceptions; CHOLMOD's own messages would only repeat them.
    c_.print = 0;
    c_.error_handler = nullptr;
  }
  ~CholmodSolver() override {
    if (l_) cholmod_l_free_factor(&l_, &c_);
    if (ld_) cholmod_l_free_factor(&ld_, &c_);
    if (x_) cholmod_l_free_dense(&x_, &c_);
    if (y_) cholmod_l_free_dense(&y_, &c_);
    if (e_) cholmod_l_free_dense(&e_, &c_);
    cholmod_l_finish(&c_);
  }
  CholmodSolver(const CholmodSolver&) = delete;
  CholmodSolver& operator=(const CholmodSolver&) = delete;

  std::string description() const override {
    return "CHOLMOD " + std::to_string(CHOLMOD_MAIN_VERSION) + "." + std::to_string(CHOLMOD_SUB_VERSION) + "." +
           std::to_string(CHOLMOD_SUBSUB_VERSION) + " supernodal Cholesky";
  }
  bool wants_upper() const override { return true; }

  void analyze(const CsrMatrix& a) override {
    n_ = a.rows;
    // CHOLMOD's long interface wants 64-bit row indices; the column pointers are already.
    rows_.assign(a.col.begin(), a.col.end());
    ptr_ = a.row_ptr;
    if (l_) cholmod_l_free_factor(&l_, &c_);
    if (ld_) cholmod_l_free_factor(&ld_, &c_);
    cholmod_sparse A = header(a);
    perm_ = node_ordering(a);
    l_ = analyze_given(A);
    if (!l_) throw RunError("CHOLMOD: the symbolic analysis failed (" + status() + ")");
  }

  void factor(const CsrMatrix& a) override {
    if (!l_) analyze(a);
    cholmod_sparse A = header(a);
    const double max_diag = max_abs_diagonal(a);
    if (use_ldl_) {  // once a tangent was indefinite, its neighbours mostly are: skip the LL^T try
      factor_indefinite(A, max_diag);
      return;
    }
    cholmod_l_factorize(&A, l_, &c_);
    const auto* perm = static_cast<const std::int64_t*>(l_->Perm);
    if (c_.status == CHOLMOD_NOT_POSDEF) {
      factor_indefinite(A, max_diag);
      return;
    }
    if (l_->minor < l_->n) {
      const int eq = l_->minor < l_->n ? static_cast<int>(perm[l_->minor]) : -1;
      throw SingularStiffness(eq, "the stiffness is singular or not positive definite at equation " +
                                      std::to_string(eq) + " (CHOLMOD)");
    }
    if (c_.status < CHOLMOD_OK) throw RunError("CHOLMOD: the factorization failed (" + status() + ")");
    // LAPACK's dense Cholesky inside stops only at a pivot <= 0; the zero pivots of a
    // mechanism come out of round-off tiny and positive.
    const double tol = kSingularPivot * max_diag;
    const std::int64_t k = first_small_pivot(tol);
    if (k >= 0) {
      const int eq = static_cast<int>(perm[k]);
      char buf[160];
      std::snprintf(buf, sizeof buf, "the stiffness is singular at equation %d (CHOLMOD pivot %.3g, largest diagonal %.3g)",
                    eq, pivot_squared(k), max_diag);
      throw SingularStiffness(eq, buf, max_diag);
    }
  }

  void solve(const double* b, double* x) override {
    cholmod_dense B{};
    B.nrow = B.d = B.nzmax = static_cast<std::size_t>(n_);
    B.ncol = 1;
    B.x = const_cast<double*>(b);  // read only
    B.xtype = CHOLMOD_REAL;
    B.dtype = CHOLMOD_DOUBLE;
    // solve2 keeps its result and workspace between calls: no allocation per Newton step.
    if (!cholmod_l_solve2(CHOLMOD_A, use_ldl_ ? ld_ : l_, &B, nullptr, &x_, nullptr, &y_, &e_, &c_))
      throw RunError("CHOLMOD: the solve failed (" + status() + ")");
    std::copy_n(static_cast<const double*>(x_->x), n_, x);
  }

  double bytes() const override {
    if (!l_) return 0;
    // Supernodal values plus the integer structure, as CHOLMOD sizes them, and the 64-bit
    // copy of the pattern CHOLMOD reads.
    const double ints = static_cast<double>(l_->n) * 4 + static_cast<double>(l_->nsuper) * 3 +
                        static_cast<double>(l_->ssize) + static_cast<double>(rows_.size() + ptr_.size());
    const double ldl = ld_ ? 8.0 * static_cast<double>(ld_->nzmax) + 12.0 * static_cast<double>(ld_->nzmax) : 0.0;
    return 8.0 * static_cast<double>(l_->xsize) + sizeof(std::int64_t) * ints + ldl;
  }

 private:
  /// A fill-reducing ordering of the upper-stored a, found on its nodes: each run of
  /// consecutive equations with one pattern (a node's dofs) is one vertex of the graph METIS
  /// orders (through CHOLMOD), expanded in its own order. A mesh's equation graph is its node
  /// graph with every vertex repeated (3 or 6 times), so the smaller graph costs a fraction of
  /// the ordering and fills alike (docs/performance.md). Empty: CHOLMOD's own choice instead
  /// (a matrix without such runs, or METIS failing).
  std::vector<std::int64_t> node_ordering(const CsrMatrix& a) {
    const std::int64_t n = a.rows;
    if (n < 2) return {};
    // The full symmetric pattern, each row sorted: the transposed entries (columns below the
    // diagonal, in row order) first, then the row's own upper ones.
    std::vector<std::int64_t> fp(static_cast<std::size_t>(n) + 1, 0);
    for (std::int64_t r = 0; r < n; ++r)
      for (std::int64_t k = a.row_ptr[static_cast<std::size_t>(r)]; k < a.row_ptr[static_cast<std::size_t>(r) + 1]; ++k) {
        const int c = a.col[static_cast<std::size_t>(k)];
        ++fp[static_cast<std::size_t>(r) + 1];
        if (c != r) ++fp[static_cast<std::size_t>(c) + 1];
      }
    for (std::int64_t r = 0; r < n; ++r) fp[static_cast<std::size_t>(r) + 1] += fp[static_cast<std::size_t>(r)];
    std::vector<int> fc(static_cast<std::size_t>(fp.back()));
    std::vector<std::int64_t> at(fp.begin(), fp.end() - 1);
    for (std::int64_t r = 0; r < n; ++r)
      for (std::int64_t k = a.row_ptr[static_cast<std::size_t>(r)]; k < a.row_ptr[static_cast<std::size_t>(r) + 1]; ++k) {
        const int c = a.col[static_cast<std::size_t>(k)];
        if (c != r) fc[static_cast<std::size_t>(at[static_cast<std::size_t>(c)]++)] = static_cast<int>(r);
      }
    for (std::int64_t r = 0; r < n; ++r)
      for (std::int64_t k = a.row_ptr[static_cast<std::size_t>(r)]; k < a.row_ptr[static_cast<std::size_t>(r) + 1]; ++k)
        fc[static_cast<std::size_t>(at[static_cast<std::size_t>(r)]++)] = a.col[static_cast<std::size_t>(k)];
    // Supervariables: runs of consecutive rows with one pattern.
    const auto same = [&](std::int64_t r, std::int64_t q) {
      const std::int64_t lr = fp[static_cast<std::size_t>(r) + 1] - fp[static_cast<std::size_t>(r)];
      if (lr != fp[static_cast<std::size_t>(q) + 1] - fp[static_cast<std::size_t>(q)]) return false;
      return std::equal(fc.begin() + fp[static_cast<std::size_t>(r)], fc.begin() + fp[static_cast<std::size_t>(r) + 1],
                        fc.begin() + fp[static_cast<std::size_t>(q)]);
    };
    std::vector<std::int64_t> first{0};  // each supervariable's first row
    std::vector<int> super(static_cast<std::size_t>(n), 0);
    for (std::int64_t r = 1; r < n; ++r) {
      if (!same(r - 1, r)) first.push_back(r);
      super[static_cast<std::size_t>(r)] = static_cast<int>(first.size()) - 1;
    }
    const std::int64_t ns = static_cast<std::int64_t>(first.size());
    first.push_back(n);
    if (2 * ns > n) return {};  // not a node-structured matrix: nothing to gain
    // The compressed graph's upper triangle, column by column (CSC; the diagonal included).
    std::vector<std::int64_t> gp{0}, gi;
    gi.reserve(static_cast<std::size_t>(fp.back() / ((n + ns - 1) / ns)) + static_cast<std::size_t>(ns));
    for (std::int64_t s = 0; s < ns; ++s) {
      const std::int64_t r = first[static_cast<std::size_t>(s)];
      std::int64_t last = -1;
      for (std::int64_t k = fp[static_cast<std::size_t>(r)]; k < fp[static_cast<std::size_t>(r) + 1]; ++k) {
        const std::int64_t t = super[static_cast<std::size_t>(fc[static_cast<std::size_t>(k)])];
        if (t > s) break;
        if (t != last) gi.push_back(t);
        last = t;
      }
      gp.push_back(static_cast<std::int64_t>(gi.size()));
    }
    std::vector<int>().swap(fc);
    cholmod_sparse g{};
    g.nrow = g.ncol = static_cast<std::size_t>(ns);
    g.nzmax = gi.size();
    g.p = gp.data();
    g.i = gi.data();
    g.stype = 1;  // the upper triangle, as CSC
    g.itype = CHOLMOD_LONG;
    g.xtype = CHOLMOD_PATTERN;
    g.dtype = CHOLMOD_DOUBLE;
    g.sorted = 1;
    g.packed = 1;
    std::vector<std::int64_t> node_perm(static_cast<std::size_t>(ns));
    if (!cholmod_l_metis(&g, nullptr, 0, 0, node_perm.data(), &c_)) return {};
    std::vector<std::int64_t> perm;
    perm.reserve(static_cast<std::size_t>(n));
    for (const std::int64_t s : node_perm)
      for (std::int64_t r = first[static_cast<std::size_t>(s)]; r < first[static_cast<std::size_t>(s) + 1]; ++r) perm.push_back(r);
    return perm;
  }

  /// CHOLMOD's analysis of A with perm_ as the only ordering (its default strategy, AMD and
  /// METIS on the equations, without one).
  cholmod_factor* analyze_given(cholmod_sparse& A) {
    if (perm_.empty()) return cholmod_l_analyze(&A, &c_);
    const int saved_n = c_.nmethods, saved_o = c_.method[0].ordering;
    c_.nmethods = 1;
    c_.method[0].ordering = CHOLMOD_GIVEN;
    cholmod_factor* f = cholmod_l_analyze_p(&A, perm_.data(), nullptr, 0, &c_);
    c_.nmethods = saved_n;
    c_.method[0].ordering = saved_o;
    return f;
  }

  cholmod_sparse header(const CsrMatrix& a) {
    cholmod_sparse A{};
    A.nrow = A.ncol = static_cast<std::size_t>(a.rows);
    A.nzmax = rows_.size();
    A.p = ptr_.data();
    A.i = rows_.data();
    A.x = const_cast<double*>(a.val.data());  // CHOLMOD only reads A
    // The upper triangle in CSR is the lower triangle in CSC.
    A.stype = -1;
    A.itype = CHOLMOD_LONG;
    A.xtype = CHOLMOD_REAL;
    A.dtype = CHOLMOD_DOUBLE;
    A.sorted = 1;
    A.packed = 1;
    return A;
  }

  /// The LDL^T of a tangent with negative pivots: a simplicial factor (analysed once, with
  /// the supernodal factor's ordering rules); only a pivot near zero is singular.
  void factor_indefinite(cholmod_sparse& A, double max_diag) {
    if (!ld_) {
      cholmod_common& c = c_;
      const int saved_super = c.supernodal;
      const int saved_ll = c.final_ll;
      c.supernodal = CHOLMOD_SIMPLICIAL;
      c.final_ll = 0;
      ld_ = analyze_given(A);
      c.supernodal = saved_super;
      c.final_ll = saved_ll;
      if (!ld_) throw RunError("CHOLMOD: the symbolic analysis of the LDL^T failed (" + status() + ")");
    }
    const int saved_ll = c_.final_ll;
    c_.final_ll = 0;
    cholmod_l_factorize(&A, ld_, &c_);
    c_.final_ll = saved_ll;
    if (c_.status < CHOLMOD_OK) throw RunError("CHOLMOD: the LDL^T factorization failed (" + status() + ")");
    const auto* perm = static_cast<const std::int64_t*>(ld_->Perm);
    const auto* lp = static_cast<const std::int64_t*>(ld_->p);
    const auto* lx = static_cast<const double*>(ld_->x);
    const double tol = kSingularPivot * max_diag;  // |d|, as the LL^T pivots and Eigen's LDLT
    for (std::int64_t k = 0; k < static_cast<std::int64_t>(ld_->n); ++k) {
      const double d = lx[lp[k]];  // the simplicial LDL^T stores D on L's unit diagonal
      if (!(std::fabs(d) > tol) || ld_->minor < ld_->n) {
        const int eq = static_cast<int>(perm[ld_->minor < ld_->n ? static_cast<std::int64_t>(ld_->minor) : k]);
        char buf[160];
        std::snprintf(buf, sizeof buf, "the stiffness is singular at equation %d (CHOLMOD LDL^T pivot %.3g, largest diagonal %.3g)",
                      eq, d, max_diag);
        throw SingularStiffness(eq, buf, max_diag);
      }
    }
    use_ldl_ = true;
  }

  /// L_kk^2 of the supernodal factor (the pivot of an LDL^T).
  double pivot_squared(std::int64_t k) const {
    const auto* super = static_cast<const std::int64_t*>(l_->super);
    const auto* pi = static_cast<const std::int64_t*>(l_->pi);
    const auto* px = static_cast<const std::int64_t*>(l_->px);
    const auto* lx = static_cast<const double*>(l_->x);
    const std::int64_t s = std::upper_bound(super, super + l_->nsuper + 1, k) - super - 1;
    const std::int64_t nsrow = pi[s + 1] - pi[s], j = k - super[s];
    const double d = lx[px[s] + j * nsrow + j];
    return d * d;
  }

  /// The first pivot (in factor order) at or below tol, or -1.
  std::int64_t first_small_pivot(double tol) const {
    const auto* super = static_cast<const std::int64_t*>(l_->super);
    const auto* pi = static_cast<const std::int64_t*>(l_->pi);
    const auto* px = static_cast<const std::int64_t*>(l_->px);
    const auto* lx = static_cast<const double*>(l_->x);
    for (std::size_t s = 0; s < l_->nsuper; ++s) {
      const std::int64_t nsrow = pi[s + 1] - pi[s];
      for (std::int64_t k = super[s]; k < super[s + 1]; ++k) {
        const std::int64_t j = k - super[s];
        const double d = lx[px[s] + j * nsrow + j];
        if (!(d * d > tol)) return k;
      }
    }
    return -1;
  }

  std::string status() const {
    switch (c_.status) {
      case CHOLMOD_OUT_OF_MEMORY: return "out of memory";
      case CHOLMOD_TOO_LARGE: return "problem too large";
      case CHOLMOD_INVALID: return "invalid input";
      case CHOLMOD_NOT_INSTALLED: return "method not installed";
      default: return "status " + std::to_string(c_.status);
    }
  }

  cholmod_common c_{};
  cholmod_factor* l_ = nullptr;   ///< supernodal LL^T
  cholmod_factor* ld_ = nullptr;  ///< simplicial LDL^T, made when a tangent is indefinite
  std::vector<std::int64_t> perm_;  ///< the node ordering (empty: CHOLMOD's own)
  bool use_ldl_ = false;          ///< a tangent was indefinite: factor with ld_ from then on
  cholmod_dense *x_ = nullptr, *y_ = nullptr, *e_ = nullptr;
  int n_ = 0;
  std::vector<std::int64_t> ptr_, rows_;
};

}  // namespace

std::unique_ptr<SparseSolver> make_cholmod_solver() { return std::make_unique<CholmodSolver>(); }

}  // namespace halfstep::detail

#endif  // HALFSTEP_HAVE_CHOLMOD
