#include "parallel/element_coloring.hpp"

namespace halfstep {

ElementColoring color_elements(const std::vector<int>& conn, int num_nodes, int nodes_per_element) {
  const int npe = nodes_per_element;
  const int ne = static_cast<int>(conn.size() / npe);
  // Node -> elements map, then for each element the colors its neighbours already hold.
  std::vector<int> node_ptr(num_nodes + 1, 0), node_elems(conn.size());
  for (int n : conn) ++node_ptr[n + 1];
  for (int n = 0; n < num_nodes; ++n) node_ptr[n + 1] += node_ptr[n];
  std::vector<int> next(node_ptr.begin(), node_ptr.end() - 1);
  for (int e = 0; e < ne; ++e)
    for (int k = 0; k < npe; ++k) node_elems[next[conn[npe * e + k]]++] = e;

  std::vector<int> color(ne, -1), seen_by;  // seen_by[c] == e: color c is taken near e
  int num_colors = 0;
  for (int e = 0; e < ne; ++e) {
    for (int k = 0; k < npe; ++k) {
      const int n = conn[npe * e + k];
      for (int i = node_ptr[n]; i < node_ptr[n + 1]; ++i) {
        const int c = color[node_elems[i]];
        if (c >= 0) seen_by[c] = e;
      }
    }
    int c = 0;
    while (c < num_colors && seen_by[c] == e) ++c;
    if (c == num_colors) {
      ++num_colors;
      seen_by.push_back(-1);
    }
    color[e] = c;
  }
  ElementColoring out;
  out.ptr.assign(num_colors + 1, 0);
  for (int e = 0; e < ne; ++e) ++out.ptr[color[e] + 1];
  for (int c = 0; c < num_colors; ++c) out.ptr[c + 1] += out.ptr[c];
  out.elements.resize(ne);
  std::vector<int> fill(out.ptr.begin(), out.ptr.end() - 1);
  for (int e = 0; e < ne; ++e) out.elements[fill[color[e]]++] = e;
  return out;
}

}  // namespace halfstep
