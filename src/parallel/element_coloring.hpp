// Element coloring: groups of elements that share no node, so one group can add its forces
// into nodal arrays in parallel without races (the colored GPU scheme, seed 000 sec. 3.1).
#pragma once

#include <vector>

namespace halfstep {

/// Elements grouped by color: the elements of color c are elements[ptr[c] .. ptr[c+1]).
struct ElementColoring {
  std::vector<int> ptr, elements;
  int colors() const { return static_cast<int>(ptr.size()) - 1; }
};

/// Greedy coloring of elements (nodes_per_element node indices per element in conn) over
/// num_nodes nodes: each element takes the lowest color no element sharing a node has.
/// Elements keep their relative order within a color.
ElementColoring color_elements(const std::vector<int>& conn, int num_nodes, int nodes_per_element = 4);

}  // namespace halfstep
