#include "assembly/csr_assembly.hpp"

#include <omp.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/threads.hpp"
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

std::vector<int> number_equations(const StructureOperator& op, const std::vector<char>& held, int* equations) {
  const std::vector<char> active = op.active_dofs();
  std::vector<int> eq(active.size(), -1);
  int next = 0;
  for (std::size_t d = 0; d < active.size(); ++d)
    if (active[d] && !(d < held.size() && held[d])) eq[d] = next++;
  *equations = next;
  return eq;
}

namespace {

/// One term of a dof's equations: the equation and its weight.
struct Term {
  int eq;
  double w;
  int term = -1;  ///< its index in DofCombinations' terms (-1: a dof's own equation, weight 1)
};

/// Per global dof (of `dofs`), its index in combined, or -1 (combined null: all -1).
std::vector<int> combination_index(std::size_t dofs, const DofCombinations* combined) {
  std::vector<int> combo(dofs, -1);
  if (combined)
    for (std::size_t i = 0; i < combined->dof.size(); ++i) combo[static_cast<std::size_t>(combined->dof[i])] = static_cast<int>(i);
  return combo;
}

/// The most terms a dof has (1 without combinations).
int most_terms(const DofCombinations* combined) {
  int most = 1;
  if (combined)
    for (std::size_t i = 0; i + 1 < combined->term_ptr.size(); ++i)
      most = std::max(most, combined->term_ptr[i + 1] - combined->term_ptr[i]);
  return most;
}

/// Dof `dof`'s terms into out (most_terms of them at most): its own equation with weight 1, a
/// combination's weighted terms, or none (a held dof); returns how many.
int dof_terms(const std::vector<int>& equation, const std::vector<int>& combo, const DofCombinations* combined,
              std::size_t dof, Term* out) {
  if (dof >= equation.size()) {  // a coupling block's entry on an equation of no dof (CouplingBlocks)
    out[0] = {static_cast<int>(dof - equation.size()), 1.0};
    return 1;
  }
  if (equation[dof] >= 0) {
    out[0] = {equation[dof], 1.0};
    return 1;
  }
  const int i = combo[dof];
  if (i < 0) return 0;
  int n = 0;
  for (int t = combined->term_ptr[static_cast<std::size_t>(i)]; t < combined->term_ptr[static_cast<std::size_t>(i) + 1]; ++t)
    out[n++] = {combined->term_eq[static_cast<std::size_t>(t)], combined->term_weight[static_cast<std::size_t>(t)], t};
  return n;
}

/// build_csr_assembly where several dofs share one equation (the slaves of a rigid body in a
/// static step move with its reference node's translations) or enter through weighted terms
/// (combined): every element entry is listed as (row, column, source, weight), sorted, and
/// merged. Slower than the node walk below, whose rows come from one node each, but such
/// models put few dofs on shared equations.
CsrAssemblyMap build_shared_csr_assembly(const StructureOperator& op, CsrAssemblyMap m, const DofCombinations* combined) {
  struct Entry {
    int row, col;
    std::int64_t source;
    double weight;
    int term_row, term_col;  ///< the weight's two terms (-1: weight 1), for reweight_csr_assembly
  };
  const std::vector<int>& equation = m.equation;
  const int ndn = op.dofs_per_node();
  const std::vector<int> combo = combination_index(equation.size(), combined);
  const auto terms = [&](std::size_t dof, Term* out) { return dof_terms(equation, combo, combined, dof, out); };
  const int most = most_terms(combined);
  std::vector<Term> rt(static_cast<std::size_t>(most)), ct(static_cast<std::size_t>(most));
  std::vector<Entry> entries;
  for (int e = 0; e < op.num_elements(); ++e) {
    const int n = op.element_nodes(e), dofs = op.element_node_dofs(e), nd = op.element_size(e);
    const int* c = op.element_connectivity(e);
    const std::int64_t base = static_cast<std::int64_t>(op.matrix_offset(e));
    for (int a = 0; a < n; ++a)
      for (int rc = 0; rc < dofs; ++rc) {
        const int nr = terms(static_cast<std::size_t>(ndn) * static_cast<std::size_t>(c[a]) + static_cast<std::size_t>(rc), rt.data());
        for (int b = 0; b < n; ++b)
          for (int cc = 0; cc < dofs; ++cc) {
            const int nc = terms(static_cast<std::size_t>(ndn) * static_cast<std::size_t>(c[b]) + static_cast<std::size_t>(cc), ct.data());
            const std::int64_t source = base + static_cast<std::int64_t>(dofs * a + rc) * nd + dofs * b + cc;
            for (int i = 0; i < nr; ++i)
              for (int j = 0; j < nc; ++j) {
                if (m.upper && ct[static_cast<std::size_t>(j)].eq < rt[static_cast<std::size_t>(i)].eq) continue;
                entries.push_back({rt[static_cast<std::size_t>(i)].eq, ct[static_cast<std::size_t>(j)].eq, source,
                                   rt[static_cast<std::size_t>(i)].w * ct[static_cast<std::size_t>(j)].w,
                                   rt[static_cast<std::size_t>(i)].term, ct[static_cast<std::size_t>(j)].term});
              }
          }
      }
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& x, const Entry& y) {
    return x.row != y.row ? x.row < y.row : x.col != y.col ? x.col < y.col : x.source < y.source;
  });
  const bool weighted = combined && !combined->empty();
  if (weighted) {
    m.weight.resize(entries.size());
    m.weight_terms.resize(2 * entries.size());
  }
  CsrMatrix& p = m.pattern;
  p.rows = m.equations;
  p.row_ptr.assign(static_cast<std::size_t>(m.equations) + 1, 0);
  m.source.resize(entries.size());
  m.source_ptr.assign(1, 0);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& x = entries[i];
    if (i == 0 || x.row != entries[i - 1].row || x.col != entries[i - 1].col) {
      if (i > 0) m.source_ptr.push_back(static_cast<std::int64_t>(i));
      p.col.push_back(x.col);
      ++p.row_ptr[static_cast<std::size_t>(x.row) + 1];
    }
    m.source[i] = x.source;
    if (weighted) {
      m.weight[i] = x.weight;
      m.weight_terms[2 * i] = x.term_row;
      m.weight_terms[2 * i + 1] = x.term_col;
    }
  }
  m.source_ptr.push_back(static_cast<std::int64_t>(entries.size()));
  if (entries.empty()) m.source_ptr.assign(1, 0);
  for (int r = 0; r < m.equations; ++r) p.row_ptr[static_cast<std::size_t>(r) + 1] += p.row_ptr[static_cast<std::size_t>(r)];
  return m;
}

}  // namespace

CsrAssemblyMap build_csr_assembly(const StructureOperator& op, const std::vector<int>& equation, int equations,
                                  bool upper, const DofCombinations* combined) {
  CsrAssemblyMap m;
  m.equations = equations;
  m.equation = equation;
  m.upper = upper;
  if (combined && !combined->empty()) return build_shared_csr_assembly(op, std::move(m), combined);
  {
    std::vector<char> used(static_cast<std::size_t>(equations), 0);
    for (const int q : equation)
      if (q >= 0) {
        if (used[static_cast<std::size_t>(q)]) return build_shared_csr_assembly(op, std::move(m), nullptr);
        used[static_cast<std::size_t>(q)] = 1;
      }
  }
  // Node by node, in parallel: the entries of a node's rows come from the elements around it
  // (the mesh's node -> connectivity-slot lists of solids and of shells), so each node sorts
  // only its own (column node, element) pairs, once for all its dofs. A global sort of every
  // (row, col, source) triple took tens of seconds at seed 004's 3.6 M elements, and a
  // per-dof sort 3-9x more items than this. Sources within an entry come out in element order
  // (offsets grow with the element), the fixed summation order the deterministic gather needs.
  const int nn = op.system().num_nodes, ndn = op.dofs_per_node();
  struct Pair {
    int node;  ///< column node
    int element, a, b;  ///< element, local index of the row node and of the column node
    int dofs;  ///< the element's dofs per node
  };
  // One node's pairs, sorted by column node then element.
  const auto node_pairs = [&](int n, std::vector<Pair>& out) {
    out.clear();
    op.for_each_element_at(n, [&](int e, int a) {
      const int ne = op.element_nodes(e), dofs = op.element_node_dofs(e);
      const int* c = op.element_connectivity(e);
      for (int b = 0; b < ne; ++b) out.push_back({c[b], e, a, b, dofs});
    });
    std::sort(out.begin(), out.end(),
              [](const Pair& x, const Pair& y) { return x.node != y.node ? x.node < y.node : x.element < y.element; });
  };
  const auto eq_of = [&](int node, int comp) {
    return equation[static_cast<std::size_t>(ndn) * static_cast<std::size_t>(node) + static_cast<std::size_t>(comp)];
  };
  const auto any_row = [&](int n) {
    for (int c = 0; c < ndn; ++c)
      if (eq_of(n, c) >= 0) return true;
    return false;
  };
  // Walks node n's rows in order, calling entry(row, col, first pair, last pair, rc, cc) per
  // CSR entry; the pairs in [i, j) that reach component (rc, cc) are those with dofs > both.
  const auto walk = [&](int n, const std::vector<Pair>& pairs, auto&& entry) {
    for (int rc = 0; rc < ndn; ++rc) {
      const int row = eq_of(n, rc);
      if (row < 0) continue;
      for (std::size_t i = 0; i < pairs.size();) {
        std::size_t j = i;
        int reach = 0;
        while (j < pairs.size() && pairs[j].node == pairs[i].node) reach = std::max(reach, pairs[j++].dofs);
        if (rc < reach)
          for (int cc = 0; cc < reach; ++cc) {
            const int col = eq_of(pairs[i].node, cc);
            if (col < 0 || (upper && col < row)) continue;
            entry(row, col, i, j, rc, cc);
          }
        i = j;
      }
    }
  };
  const auto reaches = [](const Pair& p, int rc, int cc) { return rc < p.dofs && cc < p.dofs; };
  // Rows of one node are consecutive equations only if number_equations numbered them so;
  // count per row, then fill at the row offsets.
  std::vector<std::int64_t> row_cols(static_cast<std::size_t>(equations) + 1, 0), row_sources(row_cols.size(), 0);
#pragma omp parallel num_threads(threads_for(nn, default_threads()))
  {
    std::vector<Pair> pairs;
#pragma omp for schedule(dynamic, 512)
    for (int n = 0; n < nn; ++n) {
      if (!any_row(n)) continue;
      node_pairs(n, pairs);
      walk(n, pairs, [&](int row, int, std::size_t i, std::size_t j, int rc, int cc) {
        ++row_cols[static_cast<std::size_t>(row) + 1];
        std::int64_t c = 0;
        for (std::size_t q = i; q < j; ++q) c += reaches(pairs[q], rc, cc) ? 1 : 0;
        row_sources[static_cast<std::size_t>(row) + 1] += c;
      });
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
#pragma omp parallel num_threads(threads_for(nn, default_threads()))
  {
    std::vector<Pair> pairs;
#pragma omp for schedule(dynamic, 512)
    for (int n = 0; n < nn; ++n) {
      if (!any_row(n)) continue;
      node_pairs(n, pairs);
      // Columns of a row come out in column-node order, and a node's equations are numbered
      // in component order, so each row's columns are already sorted.
      std::int64_t entry[6] = {0, 0, 0, 0, 0, 0}, src[6] = {0, 0, 0, 0, 0, 0};  // at most 6 dofs per node
      for (int rc = 0; rc < ndn; ++rc) {
        const int row = eq_of(n, rc);
        entry[rc] = row < 0 ? 0 : row_cols[static_cast<std::size_t>(row)];
        src[rc] = row < 0 ? 0 : row_sources[static_cast<std::size_t>(row)];
      }
      walk(n, pairs, [&](int, int col, std::size_t i, std::size_t j, int rc, int cc) {
        const std::size_t k = static_cast<std::size_t>(entry[rc]++);
        p.col[k] = col;
        m.source_ptr[k] = src[rc];
        for (std::size_t q = i; q < j; ++q) {
          const Pair& pr = pairs[q];
          if (!reaches(pr, rc, cc)) continue;
          const int nd = op.element_size(pr.element);
          m.source[static_cast<std::size_t>(src[rc]++)] =
              static_cast<std::int64_t>(op.matrix_offset(pr.element)) +
              static_cast<std::int64_t>(pr.dofs * pr.a + rc) * nd + pr.dofs * pr.b + cc;
        }
      });
    }
  }
  return m;
}

void reweight_csr_assembly(CsrAssemblyMap& map, const DofCombinations& combined) {
  if (map.weight.empty()) return;
  const auto w = [&](int t) { return t < 0 ? 1.0 : combined.term_weight[static_cast<std::size_t>(t)]; };
  for (std::size_t i = 0; i < map.weight.size(); ++i) map.weight[i] = w(map.weight_terms[2 * i]) * w(map.weight_terms[2 * i + 1]);
}

CsrMatrix assemble_csr(const CsrAssemblyMap& map, const std::vector<double>& element_matrices, int threads) {
  CsrMatrix a;
  assemble_csr_into(map, element_matrices, a, threads);
  return a;
}

void assemble_csr_into(const CsrAssemblyMap& map, const std::vector<double>& element_matrices, CsrMatrix& a,
                       int threads) {
  if (a.rows != map.pattern.rows || a.col.size() != map.pattern.col.size() ||
      a.row_ptr.size() != map.pattern.row_ptr.size()) {
    a.rows = map.pattern.rows;
    a.row_ptr = map.pattern.row_ptr;
    a.col = map.pattern.col;
  }
  a.val.resize(a.col.size());
  const int nnz = static_cast<int>(a.col.size());
  if (static_cast<std::size_t>(nnz) != a.col.size()) throw std::length_error("CSR matrix over 2^31 entries");
  forall(0, nnz, threads > 0 ? threads : default_threads(), [&](int k) {
    double s = 0;
    if (map.weight.empty())
      for (std::int64_t i = map.source_ptr[static_cast<std::size_t>(k)]; i < map.source_ptr[static_cast<std::size_t>(k) + 1]; ++i)
        s += element_matrices[static_cast<std::size_t>(map.source[static_cast<std::size_t>(i)])];
    else
      for (std::int64_t i = map.source_ptr[static_cast<std::size_t>(k)]; i < map.source_ptr[static_cast<std::size_t>(k) + 1]; ++i)
        s += map.weight[static_cast<std::size_t>(i)] * element_matrices[static_cast<std::size_t>(map.source[static_cast<std::size_t>(i)])];
    a.val[static_cast<std::size_t>(k)] = s;
  });
}

void CouplingBlocks::clear() {
  ptr.assign(1, 0);
  dofs.clear();
  vptr.assign(1, 0);
  values.clear();
}

double* CouplingBlocks::add(const int* d, int n) {
  dofs.insert(dofs.end(), d, d + n);
  ptr.push_back(static_cast<int>(dofs.size()));
  const std::int64_t at = vptr.back();
  vptr.push_back(at + static_cast<std::int64_t>(n) * n);
  values.resize(static_cast<std::size_t>(vptr.back()));
  return values.data() + at;
}

CouplingPattern::CouplingPattern(const CsrAssemblyMap& base, const DofCombinations& combined)
    : base_(base), combo_(combination_index(base.equation.size(), &combined)), combined_(combined),
      pattern_(base.pattern) {
  base_pos_.resize(base.pattern.col.size());
  for (std::size_t k = 0; k < base_pos_.size(); ++k) base_pos_[k] = static_cast<std::int64_t>(k);
}

template <class F>
void CouplingPattern::entries(const CouplingBlocks& b, F&& entry) const {
  const int most = most_terms(&combined_);
  std::vector<Term> rt(static_cast<std::size_t>(most)), ct(static_cast<std::size_t>(most));
  for (int blk = 0; blk < b.count(); ++blk) {
    const int first = b.ptr[static_cast<std::size_t>(blk)], n = b.ptr[static_cast<std::size_t>(blk) + 1] - first;
    const std::int64_t v0 = b.vptr[static_cast<std::size_t>(blk)];
    for (int i = 0; i < n; ++i) {
      const int nr = dof_terms(base_.equation, combo_, &combined_,
                               static_cast<std::size_t>(b.dofs[static_cast<std::size_t>(first + i)]), rt.data());
      for (int j = 0; j < n; ++j) {
        const int nc = dof_terms(base_.equation, combo_, &combined_,
                                 static_cast<std::size_t>(b.dofs[static_cast<std::size_t>(first + j)]), ct.data());
        for (int x = 0; x < nr; ++x)
          for (int y = 0; y < nc; ++y)
            if (!(base_.upper && ct[static_cast<std::size_t>(y)].eq < rt[static_cast<std::size_t>(x)].eq))
              entry(rt[static_cast<std::size_t>(x)].eq, ct[static_cast<std::size_t>(y)].eq,
                    rt[static_cast<std::size_t>(x)].w * ct[static_cast<std::size_t>(y)].w,
                    v0 + static_cast<std::int64_t>(i) * n + j);
      }
    }
  }
}

std::int64_t CouplingPattern::find(int row, int col) const {
  const auto first = pattern_.col.begin() + pattern_.row_ptr[static_cast<std::size_t>(row)];
  const auto last = pattern_.col.begin() + pattern_.row_ptr[static_cast<std::size_t>(row) + 1];
  const auto it = std::lower_bound(first, last, col);
  return it != last && *it == col ? static_cast<std::int64_t>(it - pattern_.col.begin()) : -1;
}

bool CouplingPattern::grow(const CouplingBlocks& b) {
  std::vector<std::pair<int, int>> missing;
  entries(b, [&](int row, int col, double, std::int64_t) {
    if (find(row, col) < 0) missing.emplace_back(row, col);
  });
  if (missing.empty()) return false;
  std::sort(missing.begin(), missing.end());
  missing.erase(std::unique(missing.begin(), missing.end()), missing.end());
  // Merge row by row; the old entries' new positions carry the base entries' along.
  CsrMatrix p;
  p.rows = pattern_.rows;
  p.row_ptr.assign(static_cast<std::size_t>(p.rows) + 1, 0);
  p.col.reserve(pattern_.col.size() + missing.size());
  std::vector<std::int64_t> moved(pattern_.col.size());
  std::size_t m = 0;
  for (int r = 0; r < p.rows; ++r) {
    std::int64_t k = pattern_.row_ptr[static_cast<std::size_t>(r)];
    const std::int64_t end = pattern_.row_ptr[static_cast<std::size_t>(r) + 1];
    while (k < end || (m < missing.size() && missing[m].first == r)) {
      const bool old = k < end && !(m < missing.size() && missing[m].first == r && missing[m].second < pattern_.col[static_cast<std::size_t>(k)]);
      if (old) {
        moved[static_cast<std::size_t>(k)] = static_cast<std::int64_t>(p.col.size());
        p.col.push_back(pattern_.col[static_cast<std::size_t>(k++)]);
      } else {
        p.col.push_back(missing[m++].second);
      }
    }
    p.row_ptr[static_cast<std::size_t>(r) + 1] = static_cast<std::int64_t>(p.col.size());
  }
  for (std::int64_t& pos : base_pos_) pos = moved[static_cast<std::size_t>(pos)];
  pattern_ = std::move(p);
  return true;
}

CsrMatrix CouplingPattern::add(const CsrMatrix& a, const CouplingBlocks& b) const {
  CsrMatrix out;
  out.rows = pattern_.rows;
  out.row_ptr = pattern_.row_ptr;
  out.col = pattern_.col;
  out.val.assign(out.col.size(), 0.0);
  for (std::size_t k = 0; k < base_pos_.size(); ++k) out.val[static_cast<std::size_t>(base_pos_[k])] = a.val[k];
  std::vector<std::int64_t> pos;
  std::vector<double> val;
  sums(b, pos, val);
  for (std::size_t i = 0; i < pos.size(); ++i) out.val[static_cast<std::size_t>(pos[i])] += val[i];
  return out;
}

void CouplingPattern::sums(const CouplingBlocks& b, std::vector<std::int64_t>& pos, std::vector<double>& val) const {
  std::vector<std::pair<std::int64_t, double>> terms;
  entries(b, [&](int row, int col, double w, std::int64_t v) {
    const std::int64_t k = find(row, col);
    if (k < 0) throw std::logic_error("coupling block entry outside the grown pattern");
    terms.emplace_back(k, w * b.values[static_cast<std::size_t>(v)]);
  });
  // Stable: an entry's terms keep their block order, so the sum is the same on every run.
  std::stable_sort(terms.begin(), terms.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  pos.clear();
  val.clear();
  for (const auto& [k, v] : terms) {
    if (pos.empty() || pos.back() != k) {
      pos.push_back(k);
      val.push_back(0.0);
    }
    val.back() += v;
  }
}

}  // namespace halfstep
