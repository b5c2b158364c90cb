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
  // Row by row, in parallel: a row's entries come from the elements around its node (the
  // mesh's node -> connectivity-slot lists), so each row sorts only its own few dozen
  // (column, source) pairs. A global sort of every triple took tens of seconds at seed 004's
  // 3.6 M elements; this is linear in the entries. Sources within an entry come out in
  // element order (offsets grow with the element), as the gather's fixed summation order needs.
  const SolidMesh& sm = op.system().solid;
  const std::size_t slots = sm.conn.size();
  std::vector<int> slot_element(slots), slot_local(slots);
  for (int e = 0; e < sm.num_elements; ++e) {
    const int n = op.element_size(e) / 3;
    const std::size_t first = static_cast<std::size_t>(sm.conn_start(e));
    for (int a = 0; a < n; ++a) {
      slot_element[first + static_cast<std::size_t>(a)] = e;
      slot_local[first + static_cast<std::size_t>(a)] = a;
    }
  }
  std::vector<int> dof_of(static_cast<std::size_t>(equations));
  for (std::size_t d = 0; d < equation.size(); ++d)
    if (equation[d] >= 0) dof_of[static_cast<std::size_t>(equation[d])] = static_cast<int>(d);
  struct Pair {
    int col;
    std::int64_t source;
  };
  // One row's pairs, sorted by column then source.
  const auto row_pairs = [&](int r, std::vector<Pair>& out) {
    out.clear();
    const int d = dof_of[static_cast<std::size_t>(r)], node = d / 3, comp = d % 3;
    for (int k = sm.node_slot_ptr[static_cast<std::size_t>(node)]; k < sm.node_slot_ptr[static_cast<std::size_t>(node) + 1]; ++k) {
      const std::size_t slot = static_cast<std::size_t>(sm.node_slots[static_cast<std::size_t>(k)]);
      const int e = slot_element[slot], a = slot_local[slot], n = op.element_size(e);
      const int* c = &sm.conn[static_cast<std::size_t>(sm.conn_start(e))];
      const std::int64_t row_base = static_cast<std::int64_t>(op.matrix_offset(e)) + static_cast<std::int64_t>(3 * a + comp) * n;
      for (int b = 0; b < n / 3; ++b)
        for (int j = 0; j < 3; ++j) {
          const int col = equation[3 * static_cast<std::size_t>(c[b]) + static_cast<std::size_t>(j)];
          if (col < 0 || (upper && col < r)) continue;
          out.push_back({col, row_base + 3 * b + j});
        }
    }
    std::sort(out.begin(), out.end(),
              [](const Pair& x, const Pair& y) { return x.col != y.col ? x.col < y.col : x.source < y.source; });
  };
  // Pass 1: distinct columns and sources per row; pass 2 fills at the prefix sums.
  std::vector<std::int64_t> row_cols(static_cast<std::size_t>(equations) + 1, 0), row_sources(row_cols.size(), 0);
#pragma omp parallel
  {
    std::vector<Pair> pairs;
#pragma omp for schedule(dynamic, 1024)
    for (int r = 0; r < equations; ++r) {
      row_pairs(r, pairs);
      std::int64_t distinct = 0;
      for (std::size_t i = 0; i < pairs.size(); ++i) distinct += i == 0 || pairs[i].col != pairs[i - 1].col;
      row_cols[static_cast<std::size_t>(r) + 1] = distinct;
      row_sources[static_cast<std::size_t>(r) + 1] = static_cast<std::int64_t>(pairs.size());
    }
  }
  for (int r = 0; r < equations; ++r) {
    row_cols[static_cast<std::size_t>(r) + 1] += row_cols[static_cast<std::size_t>(r)];
    row_sources[static_cast<std::size_t>(r) + 1] += row_sources[static_cast<std::size_t>(r)];
  }
  const std::int64_t nnz = row_cols.back();
  CsrMatrix& p = m.pattern;
  p.rows = equations;
  p.row_ptr = row_cols;
  p.col.resize(static_cast<std::size_t>(nnz));
  m.source.resize(static_cast<std::size_t>(row_sources.back()));
  m.source_ptr.resize(static_cast<std::size_t>(nnz) + 1);
  m.source_ptr[static_cast<std::size_t>(nnz)] = row_sources.back();
#pragma omp parallel
  {
    std::vector<Pair> pairs;
#pragma omp for schedule(dynamic, 1024)
    for (int r = 0; r < equations; ++r) {
      row_pairs(r, pairs);
      std::int64_t entry = row_cols[static_cast<std::size_t>(r)] - 1, src = row_sources[static_cast<std::size_t>(r)];
      for (std::size_t i = 0; i < pairs.size(); ++i, ++src) {
        if (i == 0 || pairs[i].col != pairs[i - 1].col) {
          ++entry;
          p.col[static_cast<std::size_t>(entry)] = pairs[i].col;
          m.source_ptr[static_cast<std::size_t>(entry)] = src;
        }
        m.source[static_cast<std::size_t>(src)] = pairs[i].source;
      }
    }
  }
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
