#include "assembly/csr_assembly.hpp"

#include <omp.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/forall.hpp"

namespace halfstep {

void CsrMatrix::multiply(const std::vector<double>& x, std::vector<double>& y) const {
  y.assign(static_cast<std::size_t>(rows), 0.0);
  for (int r = 0; r < rows; ++r) {
    double s = 0;
    for (std::int64_t k = row_ptr[r]; k < row_ptr[r + 1]; ++k) s += val[static_cast<std::size_t>(k)] * x[col[k]];
    y[r] = s;
  }
}

std::vector<int> number_equations(const ContinuumOperator& op, const std::vector<char>& held, int* equations) {
  const std::vector<char> active = op.active_dofs();
  std::vector<int> eq(active.size(), -1);
  int next = 0;
  for (std::size_t d = 0; d < active.size(); ++d)
    if (active[d] && !(d < held.size() && held[d])) eq[d] = next++;
  *equations = next;
  return eq;
}

CsrAssemblyMap build_csr_assembly(const ContinuumOperator& op, const std::vector<int>& equation, int equations,
                                  bool upper) {
  CsrAssemblyMap m;
  m.equations = equations;
  m.equation = equation;
  m.upper = upper;
  // Every (row, col, source) triple of the element matrices, sorted: the pattern is the set
  // of distinct (row, col), and each entry's sources come out in element order.
  struct Triple {
    int row, col;
    std::int64_t source;
  };
  std::vector<Triple> t;
  std::vector<int> dofs;
  for (int e = 0; e < op.num_elements(); ++e) {
    const int n = op.element_size(e);
    dofs.resize(static_cast<std::size_t>(n));
    op.element_dofs(e, dofs.data());
    const auto base = static_cast<std::int64_t>(op.matrix_offset(e));
    for (int a = 0; a < n; ++a) {
      const int r = equation[dofs[a]];
      if (r < 0) continue;
      for (int b = 0; b < n; ++b) {
        const int c = equation[dofs[b]];
        if (c < 0 || (upper && c < r)) continue;
        t.push_back({r, c, base + static_cast<std::int64_t>(a) * n + b});
      }
    }
  }
  std::sort(t.begin(), t.end(), [](const Triple& x, const Triple& y) {
    return x.row != y.row ? x.row < y.row : x.col != y.col ? x.col < y.col : x.source < y.source;
  });
  CsrMatrix& p = m.pattern;
  p.rows = equations;
  p.row_ptr.assign(static_cast<std::size_t>(equations) + 1, 0);
  m.source_ptr.push_back(0);
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (i == 0 || t[i].row != t[i - 1].row || t[i].col != t[i - 1].col) {
      if (i > 0) m.source_ptr.push_back(static_cast<std::int64_t>(i));
      p.col.push_back(t[i].col);
      ++p.row_ptr[static_cast<std::size_t>(t[i].row) + 1];
    }
    m.source.push_back(t[i].source);
  }
  if (!t.empty()) m.source_ptr.push_back(static_cast<std::int64_t>(t.size()));
  for (int r = 0; r < equations; ++r) p.row_ptr[static_cast<std::size_t>(r) + 1] += p.row_ptr[static_cast<std::size_t>(r)];
  return m;
}

CsrMatrix assemble_csr(const CsrAssemblyMap& map, const std::vector<double>& element_matrices, int threads) {
  CsrMatrix a;
  a.rows = map.pattern.rows;
  a.row_ptr = map.pattern.row_ptr;
  a.col = map.pattern.col;
  a.val.assign(a.col.size(), 0.0);
  const int nnz = static_cast<int>(a.col.size());
  if (static_cast<std::size_t>(nnz) != a.col.size()) throw std::length_error("CSR matrix over 2^31 entries");
  forall(0, nnz, threads > 0 ? threads : omp_get_max_threads(), [&](int k) {
    double s = 0;
    for (std::int64_t i = map.source_ptr[static_cast<std::size_t>(k)]; i < map.source_ptr[static_cast<std::size_t>(k) + 1]; ++i)
      s += element_matrices[static_cast<std::size_t>(map.source[static_cast<std::size_t>(i)])];
    a.val[static_cast<std::size_t>(k)] = s;
  });
  return a;
}

}  // namespace halfstep
