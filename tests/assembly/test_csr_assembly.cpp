// CSR assembly of the continuum operator's element matrices (src/assembly/csr_assembly.hpp):
// the pattern and gather lists against a dense assembly of the same element matrices, the
// upper-triangle storage, the matrix-vector product against finite differences of the
// internal force, and a linear solve (Jacobi-preconditioned CG written here) of seed 004's
// cantilever against an independent Q4 solution.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "../discretization/cantilever_deck.hpp"
#include "assembly/csr_assembly.hpp"
#include "io/inp_reader.hpp"

namespace halfstep {
namespace {

/// Dense matrix over the equations from the element matrices (the reference).
std::vector<double> dense(const StructureOperator& op, const std::vector<int>& eq, int n, const std::vector<double>& k) {
  std::vector<double> a(static_cast<std::size_t>(n) * n, 0.0);
  for (int e = 0; e < op.num_elements(); ++e) {
    const int m = op.element_size(e);
    std::vector<int> d(static_cast<std::size_t>(m));
    op.element_dofs(e, d.data());
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j)
        if (eq[d[i]] >= 0 && eq[d[j]] >= 0)
          a[static_cast<std::size_t>(eq[d[i]]) * n + eq[d[j]]] += k[op.matrix_offset(e) + static_cast<std::size_t>(i * m + j)];
  }
  return a;
}

class CsrDecks : public ::testing::TestWithParam<const char*> {};

TEST_P(CsrDecks, PatternAndValuesMatchADenseAssembly) {
  const Model model = read_inp(std::string(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/") + GetParam());
  const StructureSystem sys = build_structure_system(model);
  const StructureOperator op(sys, 2);
  int n = 0;
  const std::vector<int> eq = number_equations(op, test::held_at_x0(sys), &n);
  ASSERT_GT(n, 0);
  std::vector<double> u(static_cast<std::size_t>(op.num_dofs()), 0.0), k;
  for (std::size_t d = 0; d < u.size(); ++d) u[d] = 1e-3 * std::sin(0.37 * static_cast<double>(d));
  for (std::size_t d = 2; d < u.size() && sys.solid.planar; d += 3) u[d] = 0.0;
  op.element_matrices(Configuration::displaced(u), k);
  const std::vector<double> ref = dense(op, eq, n, k);
  for (bool upper : {false, true}) {
    const CsrAssemblyMap map = build_csr_assembly(op, eq, n, upper);
    const CsrMatrix a = assemble_csr(map, k, 2);
    ASSERT_EQ(a.rows, n);
    std::size_t stored = 0;
    double scale = 0;
    for (double v : ref) scale = std::max(scale, std::fabs(v));
    for (int r = 0; r < n; ++r) {
      for (std::int64_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p) {
        if (p > a.row_ptr[r]) {
          ASSERT_LT(a.col[p - 1], a.col[p]) << "columns sorted and distinct";
        }
        if (upper) {
          ASSERT_GE(a.col[p], r);
        }
        EXPECT_NEAR(a.val[p], ref[static_cast<std::size_t>(r) * n + a.col[p]], 1e-13 * scale);
      }
      stored += static_cast<std::size_t>(a.row_ptr[r + 1] - a.row_ptr[r]);
    }
    // Every structural non-zero of the dense assembly is in the pattern.
    std::size_t nonzero = 0;
    for (int r = 0; r < n; ++r)
      for (int c = upper ? r : 0; c < n; ++c) nonzero += ref[static_cast<std::size_t>(r) * n + c] != 0.0;
    EXPECT_GE(stored, nonzero);
    // Into a matrix that already holds the pattern: the values again, the pattern's storage
    // kept (no second copy); into one of another pattern: the map's pattern replaces it.
    CsrMatrix b = a;
    for (double& v : b.val) v = -1.0;
    const int* col = b.col.data();
    assemble_csr_into(map, k, b, 2);
    EXPECT_EQ(b.col.data(), col);
    EXPECT_EQ(b.val, a.val);
    CsrMatrix other;
    other.rows = 1;
    other.row_ptr = {0, 1};
    other.col = {0};
    other.val = {5.0};
    assemble_csr_into(map, k, other, 2);
    EXPECT_EQ(other.rows, a.rows);
    EXPECT_EQ(other.col, a.col);
    EXPECT_EQ(other.val, a.val);
  }
}

INSTANTIATE_TEST_SUITE_P(Continuum, CsrDecks,
                         ::testing::Values("solid_c3d8r_svk.inp", "solid_c3d8_neo.inp", "solid_c3d10m_svk.inp",
                                           "plane_cps4.inp"),
                         [](const ::testing::TestParamInfo<const char*>& i) {
                           std::string s = i.param;
                           return s.substr(0, s.find('.'));
                         });

TEST(CsrAssembly, ProductIsTheDirectionalDerivativeOfTheForce) {
  const Model model = read_inp(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/solid_c3d8_neo.inp");
  const StructureSystem sys = build_structure_system(model);
  const StructureOperator op(sys, 2);
  int n = 0;
  const std::vector<int> eq = number_equations(op, test::held_at_x0(sys), &n);
  std::vector<double> u(static_cast<std::size_t>(op.num_dofs()), 0.0), k;
  for (std::size_t d = 0; d < u.size(); ++d) u[d] = eq[d] >= 0 ? 2e-3 * std::cos(0.21 * static_cast<double>(d)) : 0.0;
  op.element_matrices(Configuration::displaced(u), k);
  const CsrMatrix a = assemble_csr(build_csr_assembly(op, eq, n, false), k);
  std::vector<double> v(static_cast<std::size_t>(n)), av, up = u, um = u, fp, fm;
  for (int i = 0; i < n; ++i) v[i] = std::sin(1.3 * i + 0.2);
  a.multiply(v, av);
  const double h = 1e-6;
  for (std::size_t d = 0; d < u.size(); ++d)
    if (eq[d] >= 0) {
      up[d] += h * v[eq[d]];
      um[d] -= h * v[eq[d]];
    }
  op.continuum().internal_force(up, fp);
  op.continuum().internal_force(um, fm);
  double scale = 0, err = 0;
  for (std::size_t d = 0; d < u.size(); ++d)
    if (eq[d] >= 0) {
      scale = std::max(scale, std::fabs(av[eq[d]]));
      err = std::max(err, std::fabs(av[eq[d]] - (fp[d] - fm[d]) / (2 * h)));
    }
  ASSERT_GT(scale, 0.0);
  EXPECT_LT(err, 1e-6 * scale);
}

TEST(CsrAssembly, CantileverLinearSolveMatchesAnIndependentQ4Solution) {
  const int nx = 40, ny = 4;
  const Model model = read_inp_string(test::cantilever_deck(nx, ny), "mem/cantilever.inp");
  const StructureSystem sys = build_structure_system(model);
  const StructureOperator op(sys, 2);
  int n = 0;
  const std::vector<int> eq = number_equations(op, test::held_at_x0(sys), &n);
  ASSERT_EQ(n, 2 * nx * (ny + 1));
  std::vector<double> u(static_cast<std::size_t>(op.num_dofs()), 0.0), k;
  op.element_matrices(Configuration::displaced(u), k);
  const CsrMatrix a = assemble_csr(build_csr_assembly(op, eq, n, false), k);
  const std::vector<double> f = test::cantilever_tip_load(nx, ny, 1e5);
  std::vector<double> b(static_cast<std::size_t>(n), 0.0), x(b.size(), 0.0), diag(b.size(), 0.0);
  for (std::size_t d = 0; d < f.size(); ++d)
    if (eq[d] >= 0) b[eq[d]] = f[d];
  for (int r = 0; r < n; ++r)
    for (std::int64_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p)
      if (a.col[p] == r) diag[r] = a.val[p];
  // Jacobi-preconditioned conjugate gradients to 1e-13 of the load.
  std::vector<double> r = b, z(b.size()), p(b.size()), ap;
  for (int i = 0; i < n; ++i) z[i] = r[i] / diag[i];
  p = z;
  double rz = 0, bb = 0;
  for (int i = 0; i < n; ++i) rz += r[i] * z[i], bb += b[i] * b[i];
  int it = 0;
  for (; it < 20 * n; ++it) {
    a.multiply(p, ap);
    double pap = 0;
    for (int i = 0; i < n; ++i) pap += p[i] * ap[i];
    const double alpha = rz / pap;
    double rr = 0;
    for (int i = 0; i < n; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * ap[i];
      rr += r[i] * r[i];
    }
    if (rr < 1e-26 * bb) break;
    double rz2 = 0;
    for (int i = 0; i < n; ++i) z[i] = r[i] / diag[i], rz2 += r[i] * z[i];
    for (int i = 0; i < n; ++i) p[i] = z[i] + rz2 / rz * p[i];
    rz = rz2;
  }
  ASSERT_LT(it, 20 * n) << "CG did not converge";
  // Linear Q4 plane stress of the same mesh and loads (validation/cantilever_q4.py).
  const int tip = nx + (nx + 1) * (ny / 2);
  EXPECT_NEAR(x[eq[3 * tip + 1]], test::kCantileverQ4Tip, 1e-8 * test::kCantileverQ4Tip);
}

}  // namespace
}  // namespace halfstep

namespace halfstep {
namespace {

// A shell strip with a solid block sharing two of its nodes: 5 dofs per node, solid-only
// nodes with inactive rotations, shell rows reaching solid columns only in translations.
TEST(CsrAssembly, ShellsAndSolidsShareOnePattern) {
  const std::string deck = test::mixed_shell_solid_deck();
  const Model model = read_inp_string(deck, "mem/mixed.inp");
  const StructureSystem sys = build_structure_system(model);
  const StructureOperator op(sys, 2);
  ASSERT_EQ(op.dofs_per_node(), 5);
  std::vector<char> held(static_cast<std::size_t>(op.num_dofs()), 0);
  for (int c = 0; c < 5; ++c) held[static_cast<std::size_t>(c)] = held[15 + static_cast<std::size_t>(c)] = 1;  // nodes 1, 4
  int n = 0;
  const std::vector<int> eq = number_equations(op, held, &n);
  // 12 nodes: 2 held, 6 solid-only with 3 active dofs, 4 shell nodes with 5.
  EXPECT_EQ(n, 4 * 5 + 6 * 3 - 0);
  Configuration c = Configuration::of([&] {
    StructureState st;
    st.initialize(sys);
    for (int i = 0; i < sys.num_nodes; ++i) st.uz[i] = 1e-3 * std::sin(1.0 + i);
    return st;
  }());
  std::vector<double> k;
  op.element_matrices(c, k);
  const std::vector<double> ref = dense(op, eq, n, k);
  for (bool upper : {false, true}) {
    const CsrMatrix a = assemble_csr(build_csr_assembly(op, eq, n, upper), k, 2);
    std::vector<double> got(ref.size(), 0.0);
    for (int r = 0; r < n; ++r)
      for (std::int64_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p) {
        if (p > a.row_ptr[r]) {
          ASSERT_LT(a.col[p - 1], a.col[p]);
        }
        got[static_cast<std::size_t>(r) * n + a.col[p]] = a.val[p];
      }
    for (int r = 0; r < n; ++r)
      for (int col = upper ? r : 0; col < n; ++col)
        EXPECT_EQ(got[static_cast<std::size_t>(r) * n + col], ref[static_cast<std::size_t>(r) * n + col]) << r << ", " << col;
  }
}

}  // namespace
}  // namespace halfstep
