// The CPU sparse solvers (src/linear/sparse_solver.hpp) and the OpenMP tangent engine
// (src/linear/cpu_tangent_engine.hpp): seed 004's cantilever against an independent Q4
// solution for every solver kind of this build, a small SPD system with a known solution,
// refactoring with the analysis kept, singular stiffness reported at the right equation,
// CG's non-convergence, and the --linear-solver names.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "../discretization/cantilever_deck.hpp"
#include "assembly/csr_assembly.hpp"
#include "core/error.hpp"
#include "io/inp_reader.hpp"
#include "linear/cpu_tangent_engine.hpp"
#include "linear/solver_detail.hpp"
#include "linear/sparse_solver.hpp"

namespace halfstep {
namespace {

constexpr double kTip = test::kCantileverQ4Tip;  // linear Q4 plane stress, validation/cantilever_q4.py

/// The cantilever's system, operator and equations.
struct Cantilever {
  static constexpr int nx = 40, ny = 4;
  StructureSystem sys;
  std::unique_ptr<StructureOperator> op;
  std::vector<int> eq;
  int n = 0;
  explicit Cantilever(bool clamp = true)
      : sys(build_structure_system(read_inp_string(test::cantilever_deck(nx, ny), "mem/cantilever.inp"))),
        op(std::make_unique<StructureOperator>(sys, 2)) {
    eq = number_equations(*op, test::held_at_x0(sys, clamp), &n);
  }
  /// The tip shear of 1e5 in equation space.
  std::vector<double> load() const {
    const std::vector<double> f = test::cantilever_tip_load(nx, ny, 1e5);
    std::vector<double> b(static_cast<std::size_t>(n), 0.0);
    for (std::size_t d = 0; d < f.size(); ++d)
      if (eq[d] >= 0) b[eq[d]] = f[d];
    return b;
  }
  /// Vertical displacement of the tip's mid-depth node.
  double tip(const std::vector<double>& x) const { return x[eq[3 * (nx + (nx + 1) * (ny / 2)) + 1]]; }
};

/// The CPU kinds this build can run.
std::vector<LinearSolverKind> cpu_kinds() {
  std::vector<LinearSolverKind> k{LinearSolverKind::Auto, LinearSolverKind::Ldlt, LinearSolverKind::Cg};
  if (have_cholmod()) k.push_back(LinearSolverKind::Cholmod);
  return k;
}

/// Direct kinds of this build.
std::vector<LinearSolverKind> direct_kinds() {
  std::vector<LinearSolverKind> k{LinearSolverKind::Ldlt};
  if (have_cholmod()) k.push_back(LinearSolverKind::Cholmod);
  return k;
}

/// CSR of a dense symmetric n x n matrix, upper triangle or full: zeros off the diagonal are
/// dropped, the diagonal is always stored (as an assembly stores it).
CsrMatrix csr_of(const std::vector<double>& dense, int n, bool upper) {
  CsrMatrix a;
  a.rows = n;
  a.row_ptr.push_back(0);
  for (int r = 0; r < n; ++r) {
    for (int c = upper ? r : 0; c < n; ++c)
      if (c == r || dense[static_cast<std::size_t>(r) * n + c] != 0.0) {
        a.col.push_back(c);
        a.val.push_back(dense[static_cast<std::size_t>(r) * n + c]);
      }
    a.row_ptr.push_back(static_cast<std::int64_t>(a.col.size()));
  }
  return a;
}

/// A 7 x 7 SPD matrix: a weighted graph Laplacian on a ring with chords plus a diagonal shift.
std::vector<double> small_spd(int n) {
  std::vector<double> a(static_cast<std::size_t>(n) * n, 0.0);
  auto link = [&](int i, int j, double w) {
    a[static_cast<std::size_t>(i) * n + i] += w;
    a[static_cast<std::size_t>(j) * n + j] += w;
    a[static_cast<std::size_t>(i) * n + j] -= w;
    a[static_cast<std::size_t>(j) * n + i] -= w;
  };
  for (int i = 0; i < n; ++i) link(i, (i + 1) % n, 1.0 + i);
  link(0, 3, 2.5);
  link(2, 5, 0.75);
  for (int i = 0; i < n; ++i) a[static_cast<std::size_t>(i) * n + i] += 0.5 + 0.1 * i;
  return a;
}

std::string name(LinearSolverKind k) { return linear_solver_name(k); }

TEST(LinearSolverKind, NamesRoundTrip) {
  for (LinearSolverKind k : {LinearSolverKind::Auto, LinearSolverKind::Cholmod, LinearSolverKind::Ldlt,
                             LinearSolverKind::Cg, LinearSolverKind::Cudss, LinearSolverKind::GpuCg})
    EXPECT_EQ(parse_linear_solver(linear_solver_name(k)), k) << linear_solver_name(k);
  EXPECT_EQ(linear_solver_name(LinearSolverKind::GpuCg), "gpu-cg");
  EXPECT_EQ(parse_linear_solver("cholmod"), LinearSolverKind::Cholmod);
}

TEST(LinearSolverKind, BadNameListsTheAcceptedOnes) {
  try {
    parse_linear_solver("pardiso");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    const std::string w = e.what();
    EXPECT_NE(w.find("pardiso"), std::string::npos) << w;
    for (const char* ok : {"auto", "cholmod", "ldlt", "cg", "cudss", "gpu-cg"})
      EXPECT_NE(w.find(ok), std::string::npos) << w;
  }
}

TEST(SparseSolver, GpuKindsAndMissingCholmodAreRunErrors) {
  EXPECT_THROW(make_sparse_solver(LinearSolverKind::Cudss, {}), RunError);
  EXPECT_THROW(make_sparse_solver(LinearSolverKind::GpuCg, {}), RunError);
  if (have_cholmod()) {
    EXPECT_NE(make_sparse_solver(LinearSolverKind::Cholmod, {})->description().find("CHOLMOD"), std::string::npos);
    EXPECT_NE(make_sparse_solver(LinearSolverKind::Auto, {})->description().find("CHOLMOD"), std::string::npos);
  } else {
    try {
      make_sparse_solver(LinearSolverKind::Cholmod, {});
      FAIL() << "no exception";
    } catch (const RunError& e) {
      EXPECT_NE(std::string(e.what()).find("libsuitesparse-dev"), std::string::npos) << e.what();
    }
    EXPECT_NE(make_sparse_solver(LinearSolverKind::Auto, {})->description().find("LDLT"), std::string::npos);
  }
}

TEST(SparseSolver, SmallSpdSystemToRoundOffAndRefactored) {
  const int n = 7;
  const std::vector<double> dense = small_spd(n);
  std::vector<double> x_true(n), b(n, 0.0), x(n);
  for (int i = 0; i < n; ++i) x_true[i] = std::sin(1.0 + 2.0 * i) + 0.25 * i;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) b[r] += dense[static_cast<std::size_t>(r) * n + c] * x_true[c];
  TangentOptions opt;
  opt.cg_tolerance = 1e-15;
  for (LinearSolverKind k : cpu_kinds()) {
    SCOPED_TRACE(name(k));
    auto s = make_sparse_solver(k, opt);
    CsrMatrix a = csr_of(dense, n, s->wants_upper());
    s->analyze(a);
    s->factor(a);
    s->solve(b.data(), x.data());
    for (int i = 0; i < n; ++i) EXPECT_NEAR(x[i], x_true[i], 1e-12 * std::fabs(x_true[i]) + 1e-14);
    if (k == LinearSolverKind::Cg) {
      EXPECT_GT(s->last_iterations(), 0);
    }
    // Same pattern, new values: the analysis is kept and the solution halves.
    for (double& v : a.val) v *= 2;
    s->factor(a);
    s->solve(b.data(), x.data());
    for (int i = 0; i < n; ++i) EXPECT_NEAR(x[i], 0.5 * x_true[i], 1e-12 * std::fabs(x_true[i]) + 1e-14);
    EXPECT_GT(s->bytes(), 0.0);
  }
}

// CHOLMOD's int interface (the default where the factor fits) and its 64-bit one give the same
// factor: a 3-dof-per-node grid operator (L (x) B, L a shifted 2-D Laplacian on 30 x 30 nodes,
// B a coupled 3 x 3 block), large enough for the node ordering through METIS, solves to
// round-off either way, refactored with new values too.
TEST(SparseSolver, CholmodIntAndLongInterfacesAgree) {
  if (!have_cholmod()) GTEST_SKIP() << "this build has no CHOLMOD";
  const int m = 30, nodes = m * m, n = 3 * nodes;
  const double block[3][3] = {{4.0, 1.0, 0.5}, {1.0, 3.0, 0.25}, {0.5, 0.25, 2.0}};
  CsrMatrix a;  // upper triangle, rows in order
  a.rows = n;
  a.row_ptr.push_back(0);
  for (int p = 0; p < nodes; ++p) {
    const int i = p % m, j = p / m;
    std::vector<std::pair<int, double>> links{{p, 4.5}};  // the Laplacian's row, shifted
    if (i + 1 < m) links.push_back({p + 1, -1.0});
    if (j + 1 < m) links.push_back({p + m, -1.0});
    for (int r = 0; r < 3; ++r) {
      for (const auto& [q, l] : links)
        for (int c = q == p ? r : 0; c < 3; ++c) {
          a.col.push_back(3 * q + c);
          a.val.push_back(l * block[r][c]);
        }
      a.row_ptr.push_back(static_cast<std::int64_t>(a.col.size()));
    }
  }
  std::vector<double> b(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) b[static_cast<std::size_t>(k)] = std::sin(0.37 * k) + 0.1;
  std::vector<double> x[2];
  for (int w = 0; w < 2; ++w) {
    auto s = detail::make_cholmod_solver(w == 0 ? detail::CholmodIndex::Auto : detail::CholmodIndex::Wide);
    s->analyze(a);
    s->factor(a);
    x[w].resize(b.size());
    s->solve(b.data(), x[w].data());
    // The residual of the upper-stored symmetric matrix.
    std::vector<double> r = b;
    for (int row = 0; row < n; ++row)
      for (std::int64_t k = a.row_ptr[static_cast<std::size_t>(row)]; k < a.row_ptr[static_cast<std::size_t>(row) + 1]; ++k) {
        const int c = a.col[static_cast<std::size_t>(k)];
        const double v = a.val[static_cast<std::size_t>(k)];
        r[static_cast<std::size_t>(row)] -= v * x[w][static_cast<std::size_t>(c)];
        if (c != row) r[static_cast<std::size_t>(c)] -= v * x[w][static_cast<std::size_t>(row)];
      }
    double rn = 0, bn = 0;
    for (int k = 0; k < n; ++k) rn = std::max(rn, std::fabs(r[static_cast<std::size_t>(k)])), bn = std::max(bn, std::fabs(b[static_cast<std::size_t>(k)]));
    EXPECT_LT(rn, 1e-13 * bn) << (w == 0 ? "int" : "64-bit");
    EXPECT_GT(s->bytes(), 0.0);
    CsrMatrix twice = a;  // same pattern, new values: the analysis is kept
    for (double& v : twice.val) v *= 2;
    s->factor(twice);
    std::vector<double> half(b.size());
    s->solve(b.data(), half.data());
    for (int k = 0; k < n; ++k) EXPECT_NEAR(half[static_cast<std::size_t>(k)], 0.5 * x[w][static_cast<std::size_t>(k)], 1e-13);
  }
  for (int k = 0; k < n; ++k) EXPECT_NEAR(x[0][static_cast<std::size_t>(k)], x[1][static_cast<std::size_t>(k)], 1e-13);
}

TEST(SparseSolver, ZeroStiffnessEquationIsNamed) {
  // Equation 4 is cut loose from the others and has no stiffness of its own: every ordering
  // meets a zero pivot there and nowhere else.
  const int n = 7, loose = 4;
  std::vector<double> dense = small_spd(n);
  for (int i = 0; i < n; ++i) dense[static_cast<std::size_t>(i) * n + loose] = dense[static_cast<std::size_t>(loose) * n + i] = 0;
  for (LinearSolverKind k : cpu_kinds()) {
    SCOPED_TRACE(name(k));
    auto s = make_sparse_solver(k, {});
    const CsrMatrix a = csr_of(dense, n, s->wants_upper());
    s->analyze(a);
    try {
      s->factor(a);
      FAIL() << "no exception";
    } catch (const SingularStiffness& e) {
      EXPECT_EQ(e.equation(), loose) << e.what();
      EXPECT_NE(std::string(e.what()).find(std::to_string(loose)), std::string::npos) << e.what();
    }
  }
}

TEST(CpuTangentEngine, CantileverMatchesTheQ4SolutionWithEverySolver) {
  const Cantilever c;
  ASSERT_EQ(c.n, 2 * Cantilever::nx * (Cantilever::ny + 1));
  const std::vector<double> u(static_cast<std::size_t>(c.op->num_dofs()), 0.0), b = c.load();
  for (LinearSolverKind k : cpu_kinds()) {
    SCOPED_TRACE(name(k));
    TangentOptions opt;
    opt.solver = k;
    opt.threads = 2;
    auto engine = make_cpu_tangent_engine(*c.op, c.eq, c.n, opt);
    const LinearSolverKind runs = engine->solver();
    ASSERT_NE(runs, LinearSolverKind::Auto);
    EXPECT_EQ(runs, k != LinearSolverKind::Auto ? k : have_cholmod() ? LinearSolverKind::Cholmod : LinearSolverKind::Ldlt);
    EXPECT_NE(engine->description().find("CPU (2 threads)"), std::string::npos) << engine->description();
    engine->assemble_and_factor(Configuration::displaced(u));
    std::vector<double> x;
    engine->solve(b, x);
    ASSERT_EQ(x.size(), b.size());
    // CG stops at a relative residual of 1e-10; the displacement error is the residual times
    // at most the condition number's square root in the energy norm: 1e-6 leaves a margin.
    const double tol = runs == LinearSolverKind::Cg ? 1e-6 : 1e-8;
    EXPECT_NEAR(c.tip(x), kTip, tol * kTip);
    const TangentStats& s = engine->stats();
    EXPECT_EQ(s.matrices, c.op->num_elements());
    EXPECT_EQ(s.factorizations, 1);
    EXPECT_EQ(s.solves, 1);
    EXPECT_GT(s.nonzeros, c.n);
    EXPECT_GT(s.matrix_bytes, 12.0 * static_cast<double>(s.nonzeros));
    EXPECT_GT(s.solver_bytes, 0.0);
    EXPECT_GT(s.element_seconds + s.assembly_seconds + s.factor_seconds + s.solve_seconds, 0.0);
    EXPECT_EQ(s.iterations > 0, runs == LinearSolverKind::Cg) << s.iterations;
    // Internal force is the operator's (K u at small u for this linear problem).
    std::vector<double> f;
    engine->internal_force(Configuration::displaced(u), f);
    EXPECT_EQ(f.size(), static_cast<std::size_t>(c.op->num_dofs()));
    // A second Newton-style pass reuses the analysis.
    engine->assemble_and_factor(Configuration::displaced(u));
    engine->solve(b, x);
    EXPECT_NEAR(c.tip(x), kTip, tol * kTip);
    EXPECT_EQ(engine->stats().factorizations, 2);
    EXPECT_EQ(engine->stats().solves, 2);
  }
}

// TangentOptions::single_assembly frees the assembly map's gather lists after the first
// assembly; a second assembly after all builds them again: both solves give the Q4 tip.
TEST(CpuTangentEngine, ASingleAssemblyEngineAssemblesAgainWhenAsked) {
  const Cantilever c;
  const std::vector<double> u(static_cast<std::size_t>(c.op->num_dofs()), 0.0), b = c.load();
  for (LinearSolverKind k : direct_kinds()) {
    SCOPED_TRACE(name(k));
    TangentOptions opt;
    opt.solver = k;
    opt.single_assembly = true;
    auto engine = make_cpu_tangent_engine(*c.op, c.eq, c.n, opt);
    std::vector<double> x;
    for (int pass = 0; pass < 2; ++pass) {
      engine->assemble_and_factor(Configuration::displaced(u));
      engine->solve(b, x);
      EXPECT_NEAR(c.tip(x), kTip, 1e-8 * kTip) << "pass " << pass;
    }
    EXPECT_EQ(engine->stats().factorizations, 2);
  }
}

TEST(CpuTangentEngine, UnconstrainedCantileverIsSingular) {
  const Cantilever c(false);
  ASSERT_EQ(c.n, 2 * (Cantilever::nx + 1) * (Cantilever::ny + 1));
  const std::vector<double> u(static_cast<std::size_t>(c.op->num_dofs()), 0.0);
  for (LinearSolverKind k : direct_kinds()) {
    SCOPED_TRACE(name(k));
    TangentOptions opt;
    opt.solver = k;
    auto engine = make_cpu_tangent_engine(*c.op, c.eq, c.n, opt);
    try {
      engine->assemble_and_factor(Configuration::displaced(u));
      FAIL() << "no exception";
    } catch (const SingularStiffness& e) {
      EXPECT_GE(e.equation(), 0) << e.what();
      EXPECT_LT(e.equation(), c.n) << e.what();
      EXPECT_NE(std::string(e.what()).find("singular"), std::string::npos) << e.what();
    }
    std::vector<double> x;
    EXPECT_THROW(engine->solve(c.load(), x), RunError) << "no solve after a failed factorization";
  }
}

TEST(CpuTangentEngine, CgThatCannotConvergeSaysSo) {
  const Cantilever c;
  TangentOptions opt;
  opt.solver = LinearSolverKind::Cg;
  opt.cg_max_iterations = 2;
  auto engine = make_cpu_tangent_engine(*c.op, c.eq, c.n, opt);
  engine->assemble_and_factor(Configuration::displaced(std::vector<double>(static_cast<std::size_t>(c.op->num_dofs()), 0.0)));
  std::vector<double> x;
  try {
    engine->solve(c.load(), x);
    FAIL() << "no exception";
  } catch (const RunError& e) {
    const std::string w = e.what();
    EXPECT_NE(w.find("did not converge in 2 iterations"), std::string::npos) << w;
    EXPECT_NE(w.find("--linear-solver ldlt"), std::string::npos) << w;
  }
  EXPECT_EQ(engine->stats().iterations, 2);
}

TEST(CpuTangentEngine, GpuSolverKindsAreRefused) {
  const Cantilever c;
  for (LinearSolverKind k : {LinearSolverKind::Cudss, LinearSolverKind::GpuCg}) {
    TangentOptions opt;
    opt.solver = k;
    EXPECT_THROW(make_cpu_tangent_engine(*c.op, c.eq, c.n, opt), RunError) << name(k);
  }
}

}  // namespace
}  // namespace halfstep
