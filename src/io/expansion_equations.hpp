// Linear constraints among the nodes that the reader makes for an element it expands (S8,
// B32): rows on a small set of nodes' translations, reduced to *EQUATIONs.
#pragma once

#include <vector>

#include "core/error.hpp"
#include "model/model.hpp"

namespace halfstep::inp {

/// Rows sum_j row[j] u(col_node[j / 3], j % 3 + 1) = 0 on the translations of col_node, reduced
/// by Gauss-Jordan with pivots among the first pivot_nodes nodes' dofs only, appended to out as
/// *EQUATIONs: each has its own dependent dof and no other equation's dependent among its terms
/// (the solver eliminates in one pass). A row implied by earlier ones is dropped.
void append_reduced_equations(std::vector<std::vector<double>> rows, const std::vector<int>& col_node, int pivot_nodes,
                              const SourceLoc& loc, std::vector<Equation>& out);

}  // namespace halfstep::inp
