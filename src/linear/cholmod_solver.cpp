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
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "linear/solver_detail.hpp"

namespace halfstep::detail {
namespace {

/// Library and method, for the log.
std::string cholmod_description() {
  return "CHOLMOD " + std::to_string(CHOLMOD_MAIN_VERSION) + "." + std::to_string(CHOLMOD_SUB_VERSION) + "." +
         std::to_string(CHOLMOD_SUBSUB_VERSION) + " supernodal Cholesky";
}

/// CHOLMOD's interface of index type I: int (cholmod_*) or 64-bit (cholmod_l_*).
template <class I>
struct CholmodApi;

template <>
struct CholmodApi<int> {
  static constexpr int kItype = CHOLMOD_INT;
  static void start(cholmod_common* c) { cholmod_start(c); }
  static void finish(cholmod_common* c) { cholmod_finish(c); }
  static void free_factor(cholmod_factor** f, cholmod_common* c) { cholmod_free_factor(f, c); }
  static void free_dense(cholmod_dense** d, cholmod_common* c) { cholmod_free_dense(d, c); }
  static int factorize(cholmod_sparse* a, cholmod_factor* f, cholmod_common* c) { return cholmod_factorize(a, f, c); }
  static int solve2(cholmod_factor* f, cholmod_dense* b, cholmod_dense** x, cholmod_dense** y, cholmod_dense** e,
                    cholmod_common* c) {
    return cholmod_solve2(CHOLMOD_A, f, b, nullptr, x, nullptr, y, e, c);
  }
  static int metis(cholmod_sparse* a, int* perm, cholmod_common* c) { return cholmod_metis(a, nullptr, 0, 0, perm, c); }
  static cholmod_factor* analyze(cholmod_sparse* a, cholmod_common* c) { return cholmod_analyze(a, c); }
  static cholmod_factor* analyze_p(cholmod_sparse* a, int* perm, cholmod_common* c) {
    return cholmod_analyze_p(a, perm, nullptr, 0, c);
  }
};

template <>
struct CholmodApi<std::int64_t> {
  static constexpr int kItype = CHOLMOD_LONG;
  static void start(cholmod_common* c) { cholmod_l_start(c); }
  static void finish(cholmod_common* c) { cholmod_l_finish(c); }
  static void free_factor(cholmod_factor** f, cholmod_common* c) { cholmod_l_free_factor(f, c); }
  static void free_dense(cholmod_dense** d, cholmod_common* c) { cholmod_l_free_dense(d, c); }
  static int factorize(cholmod_sparse* a, cholmod_factor* f, cholmod_common* c) { return cholmod_l_factorize(a, f, c); }
  static int solve2(cholmod_factor* f, cholmod_dense* b, cholmod_dense** x, cholmod_dense** y, cholmod_dense** e,
                    cholmod_common* c) {
    return cholmod_l_solve2(CHOLMOD_A, f, b, nullptr, x, nullptr, y, e, c);
  }
  static int metis(cholmod_sparse* a, std::int64_t* perm, cholmod_common* c) {
    return cholmod_l_metis(a, nullptr, 0, 0, perm, c);
  }
  static cholmod_factor* analyze(cholmod_sparse* a, cholmod_common* c) { return cholmod_l_analyze(a, c); }
  static cholmod_factor* analyze_p(cholmod_sparse* a, std::int64_t* perm, cholmod_common* c) {
    return cholmod_l_analyze_p(a, perm, nullptr, 0, c);
  }
};

/// CHOLMOD with index type I. The int interface reads the CSR's column indices in place and
/// keeps the factor's integer structure at half the size; a factor of 2^31 entries or more
/// needs the 64-bit one (CholmodAuto picks).
template <class I>
class CholmodSolver final : public SparseSolver {
  using Api = CholmodApi<I>;

 public:
  CholmodSolver() {
    Api::start(&c_);
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
    if (l_) Api::free_factor(&l_, &c_);
    if (ld_) Api::free_factor(&ld_, &c_);
    if (x_) Api::free_dense(&x_, &c_);
    if (y_) Api::free_dense(&y_, &c_);
    if (e_) Api::free_dense(&e_, &c_);
    Api::finish(&c_);
  }
  CholmodSolver(const CholmodSolver&) = delete;
  CholmodSolver& operator=(const CholmodSolver&) = delete;

  std::string description() const override { return cholmod_description(); }
  bool wants_upper() const override { return true; }

  void analyze(const CsrMatrix& a) override {
    if (!try_analyze(a)) throw RunError("CHOLMOD: the symbolic analysis failed (" + status() + ")");
  }

  /// analyze(), false when CHOLMOD finds the factor too large for I (status() says so).
  bool try_analyze(const CsrMatrix& a) {
    n_ = a.rows;
    // The int interface reads the column indices in place; the long one wants 64-bit
    // copies. The pointers are copied to I either way (rows + 1 values).
    if constexpr (!std::is_same_v<I, int>) rows_.assign(a.col.begin(), a.col.end());
    ptr_.assign(a.row_ptr.begin(), a.row_ptr.end());
    if (l_) Api::free_factor(&l_, &c_);
    if (ld_) Api::free_factor(&ld_, &c_);
    cholmod_sparse A = header(a);
    perm_ = node_ordering(a);
    l_ = analyze_given(A);
    return l_ != nullptr;
  }

  /// Whether the last analysis failed because the factor is too large for I.
  bool too_large() const { return c_.status == CHOLMOD_TOO_LARGE; }

  /// CHOLMOD's last status, in words.
  std::string status() const {
    switch (c_.status) {
      case CHOLMOD_OUT_OF_MEMORY: return "out of memory";
      case CHOLMOD_TOO_LARGE: return "problem too large";
      case CHOLMOD_INVALID: return "invalid input";
      case CHOLMOD_NOT_INSTALLED: return "method not installed";
      default: return "status " + std::to_string(c_.status);
    }
  }

  void factor(const CsrMatrix& a) override {
    if (!l_) analyze(a);
    cholmod_sparse A = header(a);
    const double max_diag = max_abs_diagonal(a);
    if (use_ldl_) {  // once a tangent was indefinite, its neighbours mostly are: skip the LL^T try
      factor_indefinite(A, max_diag);
      return;
    }
    Api::factorize(&A, l_, &c_);
    const auto* perm = static_cast<const I*>(l_->Perm);
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
    if (!Api::solve2(use_ldl_ ? ld_ : l_, &B, &x_, &y_, &e_, &c_))
      throw RunError("CHOLMOD: the solve failed (" + status() + ")");
    std::copy_n(static_cast<const double*>(x_->x), n_, x);
  }

  double bytes() const override {
    if (!l_) return 0;
    // Supernodal values plus the integer structure, as CHOLMOD sizes them, and the copies
    // of the pattern CHOLMOD reads.
    const double ints = static_cast<double>(l_->n) * 4 + static_cast<double>(l_->nsuper) * 3 +
                        static_cast<double>(l_->ssize) + static_cast<double>(rows_.size() + ptr_.size());
    const double ldl = ld_ ? (8.0 + 4.0 + sizeof(I)) * static_cast<double>(ld_->nzmax) : 0.0;
    return 8.0 * static_cast<double>(l_->xsize) + sizeof(I) * ints + ldl;
  }

 private:
  /// A fill-reducing ordering of the upper-stored a, found on its nodes: each run of
  /// consecutive equations with one pattern (a node's dofs) is one vertex of the graph METIS
  /// orders (through CHOLMOD), expanded in its own order. A mesh's equation graph is its node
  /// graph with every vertex repeated (3 or 6 times), so the smaller graph costs a fraction of
  /// the ordering and fills alike (docs/performance.md). Empty: CHOLMOD's own choice instead
  /// (a matrix without such runs, or METIS failing).
  std::vector<I> node_ordering(const CsrMatrix& a) {
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
    std::vector<I> gp{0}, gi;
    gi.reserve(static_cast<std::size_t>(fp.back() / ((n + ns - 1) / ns)) + static_cast<std::size_t>(ns));
    for (std::int64_t s = 0; s < ns; ++s) {
      const std::int64_t r = first[static_cast<std::size_t>(s)];
      std::int64_t last = -1;
      for (std::int64_t k = fp[static_cast<std::size_t>(r)]; k < fp[static_cast<std::size_t>(r) + 1]; ++k) {
        const std::int64_t t = super[static_cast<std::size_t>(fc[static_cast<std::size_t>(k)])];
        if (t > s) break;
        if (t != last) gi.push_back(static_cast<I>(t));
        last = t;
      }
      gp.push_back(static_cast<I>(gi.size()));
    }
    std::vector<int>().swap(fc);
    cholmod_sparse g{};
    g.nrow = g.ncol = static_cast<std::size_t>(ns);
    g.nzmax = gi.size();
    g.p = gp.data();
    g.i = gi.data();
    g.stype = 1;  // the upper triangle, as CSC
    g.itype = Api::kItype;
    g.xtype = CHOLMOD_PATTERN;
    g.dtype = CHOLMOD_DOUBLE;
    g.sorted = 1;
    g.packed = 1;
    std::vector<I> node_perm(static_cast<std::size_t>(ns));
    if (!Api::metis(&g, node_perm.data(), &c_)) return {};
    std::vector<I> perm;
    perm.reserve(static_cast<std::size_t>(n));
    for (const I s : node_perm)
      for (std::int64_t r = first[static_cast<std::size_t>(s)]; r < first[static_cast<std::size_t>(s) + 1]; ++r)
        perm.push_back(static_cast<I>(r));
    return perm;
  }

  /// CHOLMOD's analysis of A with perm_ as the only ordering (its default strategy, AMD and
  /// METIS on the equations, without one).
  cholmod_factor* analyze_given(cholmod_sparse& A) {
    if (perm_.empty()) return Api::analyze(&A, &c_);
    const int saved_n = c_.nmethods, saved_o = c_.method[0].ordering;
    c_.nmethods = 1;
    c_.method[0].ordering = CHOLMOD_GIVEN;
    cholmod_factor* f = Api::analyze_p(&A, perm_.data(), &c_);
    c_.nmethods = saved_n;
    c_.method[0].ordering = saved_o;
    return f;
  }

  cholmod_sparse header(const CsrMatrix& a) {
    cholmod_sparse A{};
    A.nrow = A.ncol = static_cast<std::size_t>(a.rows);
    A.nzmax = a.col.size();
    A.p = ptr_.data();
    if constexpr (std::is_same_v<I, int>)
      A.i = const_cast<int*>(a.col.data());  // CHOLMOD only reads A
    else
      A.i = rows_.data();
    A.x = const_cast<double*>(a.val.data());  // CHOLMOD only reads A
    // The upper triangle in CSR is the lower triangle in CSC.
    A.stype = -1;
    A.itype = Api::kItype;
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
    Api::factorize(&A, ld_, &c_);
    c_.final_ll = saved_ll;
    if (c_.status < CHOLMOD_OK) throw RunError("CHOLMOD: the LDL^T factorization failed (" + status() + ")");
    const auto* perm = static_cast<const I*>(ld_->Perm);
    const auto* lp = static_cast<const I*>(ld_->p);
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
    const auto* super = static_cast<const I*>(l_->super);
    const auto* pi = static_cast<const I*>(l_->pi);
    const auto* px = static_cast<const I*>(l_->px);
    const auto* lx = static_cast<const double*>(l_->x);
    const std::int64_t s = std::upper_bound(super, super + l_->nsuper + 1, k) - super - 1;
    const std::int64_t nsrow = pi[s + 1] - pi[s], j = k - super[s];
    const double d = lx[px[s] + j * nsrow + j];
    return d * d;
  }

  /// The first pivot (in factor order) at or below tol, or -1.
  std::int64_t first_small_pivot(double tol) const {
    const auto* super = static_cast<const I*>(l_->super);
    const auto* pi = static_cast<const I*>(l_->pi);
    const auto* px = static_cast<const I*>(l_->px);
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

  cholmod_common c_{};
  cholmod_factor* l_ = nullptr;   ///< supernodal LL^T
  cholmod_factor* ld_ = nullptr;  ///< simplicial LDL^T, made when a tangent is indefinite
  std::vector<I> perm_;            ///< the node ordering (empty: CHOLMOD's own)
  bool use_ldl_ = false;          ///< a tangent was indefinite: factor with ld_ from then on
  cholmod_dense *x_ = nullptr, *y_ = nullptr, *e_ = nullptr;
  int n_ = 0;
  std::vector<I> ptr_, rows_;  ///< a's row pointers in I; its columns in I (long interface only)
};

}  // namespace

/// CHOLMOD's int interface where the factor fits it (less memory: the pattern read in place,
/// half the factor's integer structure), the 64-bit one where it does not: a matrix of 2^31
/// entries or more, or an analysis that CHOLMOD finds too large for int (its L would have
/// 2^31 entries or more).
class CholmodAuto final : public SparseSolver {
 public:
  explicit CholmodAuto(bool wide) : long_(wide) {}
  std::string description() const override { return cholmod_description(); }
  bool wants_upper() const override { return true; }
  void analyze(const CsrMatrix& a) override {
    impl_.reset();
    if (!long_ && a.row_ptr.back() < std::numeric_limits<int>::max()) {
      auto narrow = std::make_unique<CholmodSolver<int>>();
      if (narrow->try_analyze(a)) {
        impl_ = std::move(narrow);
        return;
      }
      if (!narrow->too_large()) throw RunError("CHOLMOD: the symbolic analysis failed (" + narrow->status() + ")");
    }
    long_ = true;  // once too large, the next pattern of this step is as large
    impl_ = std::make_unique<CholmodSolver<std::int64_t>>();
    impl_->analyze(a);
  }
  void factor(const CsrMatrix& a) override {
    if (!impl_) analyze(a);
    impl_->factor(a);
  }
  void solve(const double* b, double* x) override { impl_->solve(b, x); }
  double bytes() const override { return impl_ ? impl_->bytes() : 0.0; }

 private:
  std::unique_ptr<SparseSolver> impl_;
  bool long_ = false;
};

std::unique_ptr<SparseSolver> make_cholmod_solver(CholmodIndex index) {
  return std::make_unique<CholmodAuto>(index == CholmodIndex::Wide);
}

}  // namespace halfstep::detail

#endif  // HALFSTEP_HAVE_CHOLMOD
