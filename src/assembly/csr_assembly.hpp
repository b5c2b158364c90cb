// Global sparse matrices from element matrices (issue 12's assembly, host side): the CSR
// pattern and each element entry's position in it are built once per mesh and constraint
// set; every assembly after that is a gather (each CSR entry sums its element contributions
// in a fixed order: deterministic, no atomics), the same strategy as the explicit gather
// scheme. Element matrices come from discretization/structure_operator.hpp.
#pragma once

#include <cstdint>
#include <vector>

#include "discretization/structure_operator.hpp"

namespace halfstep {

/// A square sparse matrix in compressed sparse row form (column indices sorted per row).
struct CsrMatrix {
  int rows = 0;
  std::vector<std::int64_t> row_ptr;  ///< rows + 1 offsets into col and val
  std::vector<int> col;
  std::vector<double> val;
  /// y = A x.
  void multiply(const std::vector<double>& x, std::vector<double>& y) const;
};

/// Dofs without an equation of their own whose unknown is a weighted sum of other dofs'
/// (static steps eliminate *TIE and *EQUATION so: u_d = sum_k w_k u_k): an element entry in a
/// combined dof's row or column goes to its terms' equations, scaled by the weights, so the
/// assembled matrix is T^T K T. Terms without an equation (held dofs) are left out.
struct DofCombinations {
  std::vector<int> dof;             ///< the combined global dofs
  std::vector<int> term_ptr{0};     ///< dof.size() + 1 offsets into the terms
  std::vector<int> term_eq;         ///< each term's equation
  std::vector<double> term_weight;  ///< w_k
  bool empty() const { return dof.empty(); }
};

/// The fixed part of an assembly: equation numbers, the pattern, and where every element
/// matrix entry goes.
struct CsrAssemblyMap {
  int equations = 0;
  std::vector<int> equation;          ///< per global dof: its equation, or -1 (held or inactive)
  bool upper = false;                 ///< only the upper triangle (col >= row) is stored
  CsrMatrix pattern;                  ///< row_ptr and col; val empty
  /// Gather lists: CSR entry k sums element-matrix values at source[source_ptr[k] ..
  /// source_ptr[k+1]) (positions in StructureOperator::element_matrices' output).
  std::vector<std::int64_t> source_ptr, source;
  /// Per source: its factor (products of DofCombinations weights); empty: every factor is 1.
  std::vector<double> weight;
  /// Per source: the two DofCombinations terms whose weights make its factor (-1: a dof's own
  /// equation, weight 1), 2 per source; with weight only.
  std::vector<int> weight_terms;
};

/// Equation numbers for the operator's active dofs that are not held (held: per global dof,
/// nonzero for a prescribed dof), in dof order.
std::vector<int> number_equations(const StructureOperator& op, const std::vector<char>& held, int* equations);

/// Builds the pattern and the gather lists of op's element matrices over the numbered
/// equations; upper: store the upper triangle only (symmetric matrices); combined (null or
/// empty: none): dofs that enter through their terms' equations.
CsrAssemblyMap build_csr_assembly(const StructureOperator& op, const std::vector<int>& equation, int equations,
                                  bool upper, const DofCombinations* combined = nullptr);

/// Dense square blocks on global dofs that join the element matrices in an assembly (static
/// contact's springs): block b couples dofs[ptr[b] .. ptr[b+1]) through the row-major matrix
/// at values[vptr[b] ..). An entry past the operator's dofs (ndof + e) names equation e itself
/// (an unknown of no dof: a turning rigid body's rotation).
struct CouplingBlocks {
  std::vector<int> ptr{0}, dofs;
  std::vector<std::int64_t> vptr{0};
  std::vector<double> values;
  /// Blocks held.
  int count() const { return static_cast<int>(ptr.size()) - 1; }
  /// Drops every block.
  void clear();
  /// Appends a block on the n dofs d; returns where its n x n values go.
  double* add(const int* d, int n);
};

/// A CSR pattern that grows to hold coupling blocks' entries besides an element assembly's
/// (CsrAssemblyMap), so that blocks that come and go (contacts opening and closing) change
/// the pattern only when they reach new entries, and a solver analyzes it again only then.
class CouplingPattern {
 public:
  /// The element assembly's pattern, with its equations and eliminated dofs.
  CouplingPattern(const CsrAssemblyMap& base, const DofCombinations& combined);
  /// Adds the entries of b the pattern lacks; true when it grew.
  bool grow(const CouplingBlocks& b);
  /// The matrix a (assembled on the base pattern) on this pattern, with b's sums added.
  CsrMatrix add(const CsrMatrix& a, const CouplingBlocks& b) const;
  /// The blocks' contributions per pattern entry they reach: ascending positions, each
  /// entry's terms summed in block order (so every backend adds the same numbers).
  void sums(const CouplingBlocks& b, std::vector<std::int64_t>& pos, std::vector<double>& val) const;
  /// The grown pattern (rows, row_ptr, col; no values).
  const CsrMatrix& pattern() const { return pattern_; }
  /// Each base entry's position in pattern().
  const std::vector<std::int64_t>& base_positions() const { return base_pos_; }

 private:
  /// Calls entry(row, col, weight, value index) for every stored entry of b (both triangles,
  /// or the upper one).
  template <class F>
  void entries(const CouplingBlocks& b, F&& entry) const;
  /// Position of (row, col) in the pattern, or -1.
  std::int64_t find(int row, int col) const;

  const CsrAssemblyMap& base_;
  std::vector<int> combo_;  ///< per global dof: its index in combined, or -1
  const DofCombinations& combined_;
  CsrMatrix pattern_;
  std::vector<std::int64_t> base_pos_;  ///< each base entry's position in pattern_
};

/// The factors of map (built with combined) from combined's current term weights: terms whose
/// weights change with the state (a turning rigid body's arms) keep the pattern.
void reweight_csr_assembly(CsrAssemblyMap& map, const DofCombinations& combined);

/// Sums element matrices (element_matrices' output) into a CSR matrix with map's pattern,
/// on `threads` OpenMP threads (<= 0: default).
CsrMatrix assemble_csr(const CsrAssemblyMap& map, const std::vector<double>& element_matrices, int threads = 0);

/// The same into a: a's pattern is taken from map unless a already holds it (a matrix this
/// function filled from the same map before: same rows and entries), when only the values are
/// written. A Newton loop that keeps its matrix thus holds one copy of it, not two at once.
void assemble_csr_into(const CsrAssemblyMap& map, const std::vector<double>& element_matrices, CsrMatrix& a,
                       int threads = 0);

}  // namespace halfstep
