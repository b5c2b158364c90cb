// A fill-reducing elimination order for the sparse direct solvers, from the mesh itself:
// nested dissection by recursive coordinate bisection. Each node set is cut at the median of
// its longest extent; the nodes of one side that touch the other form the separator, ordered
// after both halves, which are ordered the same way recursively. On meshes (2D and 3D,
// structured or not) this gives the fill of graph nested dissection at a fraction of the cost
// of a general-purpose ordering: it needs only coordinates and the element connectivity.
#pragma once

#include <vector>

#include "discretization/continuum_operator.hpp"

namespace halfstep {

/// Elimination order of the numbered equations (number_equations): order[k] is the equation
/// eliminated k-th; the equations of a node stay together. threads <= 0: OpenMP default.
std::vector<int> geometric_nested_dissection(const ContinuumOperator& op, const std::vector<int>& equation,
                                             int equations, int threads = 0);

}  // namespace halfstep
