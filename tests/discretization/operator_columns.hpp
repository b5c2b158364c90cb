// Assembled columns of a ContinuumOperator's element matrices and the dofs to probe them at:
// the tangent-against-differences checks of the operator tests share them.
#pragma once

#include <vector>

#include "discretization/continuum_operator.hpp"

namespace halfstep::test {

/// Column j of the assembled matrix of element matrices k (ContinuumOperator's layout).
inline std::vector<double> assembled_column(const ContinuumOperator& op, const std::vector<double>& k, int j) {
  std::vector<double> col(static_cast<std::size_t>(op.num_dofs()), 0.0);
  for (int e = 0; e < op.num_elements(); ++e) {
    const int n = op.element_size(e);
    std::vector<int> ed(static_cast<std::size_t>(n));
    op.element_dofs(e, ed.data());
    for (int b = 0; b < n; ++b)
      if (ed[b] == j)
        for (int a = 0; a < n; ++a) col[ed[a]] += k[op.matrix_offset(e) + static_cast<std::size_t>(a * n + b)];
  }
  return col;
}

/// Up to eight active dofs spread over the model.
inline std::vector<int> probe_dofs(const ContinuumOperator& op) {
  const std::vector<char> active = op.active_dofs();
  std::vector<int> probe;
  for (int d = 0; d < op.num_dofs() && probe.size() < 8; d += 1 + op.num_dofs() / 9)
    if (active[d]) probe.push_back(d);
  return probe;
}

}  // namespace halfstep::test
