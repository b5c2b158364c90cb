// A block of C3D8R cells whose node and element labels are assigned at random and written in
// random order, as decks from some pre-processors are: the poorly numbered mesh the locality
// renumbering is tested on (tests/model/test_renumber.cpp, tests/integration/test_renumber_run.cpp).
#pragma once

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace halfstep::test {

/// The mesh of an nx x ny x nz block of cubes of side h, and the labels of its nodes and cells.
struct ShuffledBlock {
  int nx = 0, ny = 0, nz = 0;
  std::vector<int> nlab, elab;  ///< label of node (i, j, k) and of cell (i, j, k), by grid index
  std::string mesh;             ///< "*NODE" and "*ELEMENT, TYPE=C3D8R, ELSET=BLOCK" blocks, lines in random order
  /// Label of grid node (i, j, k).
  int node(int i, int j, int k) const { return nlab[static_cast<std::size_t>(i + (nx + 1) * (j + (ny + 1) * k))]; }
  /// Label of cell (i, j, k).
  int element(int i, int j, int k) const { return elab[static_cast<std::size_t>(i + nx * (j + ny * k))]; }
};

/// Node labels first_node, first_node + node_step, ...; element labels first_element, ...;
/// both shuffled by rng, then the node lines and the element lines shuffled by it.
inline ShuffledBlock shuffled_block_mesh(int nx, int ny, int nz, double h, std::mt19937& rng, int first_node,
                                         int node_step, int first_element) {
  ShuffledBlock b;
  b.nx = nx;
  b.ny = ny;
  b.nz = nz;
  b.nlab.resize(static_cast<std::size_t>((nx + 1) * (ny + 1) * (nz + 1)));
  b.elab.resize(static_cast<std::size_t>(nx * ny * nz));
  for (std::size_t n = 0; n < b.nlab.size(); ++n) b.nlab[n] = first_node + node_step * static_cast<int>(n);
  std::iota(b.elab.begin(), b.elab.end(), first_element);
  std::shuffle(b.nlab.begin(), b.nlab.end(), rng);
  std::shuffle(b.elab.begin(), b.elab.end(), rng);
  std::vector<std::string> lines;
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        lines.push_back(std::to_string(b.node(i, j, k)) + ", " + std::to_string(h * i) + ", " + std::to_string(h * j) +
                        ", " + std::to_string(h * k));
  std::shuffle(lines.begin(), lines.end(), rng);
  b.mesh = "*NODE\n";
  for (const std::string& l : lines) b.mesh += l + "\n";
  lines.clear();
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        lines.push_back(std::to_string(b.element(i, j, k)) + ", " + std::to_string(b.node(i, j, k)) + ", " +
                        std::to_string(b.node(i + 1, j, k)) + ", " + std::to_string(b.node(i + 1, j + 1, k)) + ", " +
                        std::to_string(b.node(i, j + 1, k)) + ", " + std::to_string(b.node(i, j, k + 1)) + ", " +
                        std::to_string(b.node(i + 1, j, k + 1)) + ", " + std::to_string(b.node(i + 1, j + 1, k + 1)) +
                        ", " + std::to_string(b.node(i, j + 1, k + 1)));
  std::shuffle(lines.begin(), lines.end(), rng);
  b.mesh += "*ELEMENT, TYPE=C3D8R, ELSET=BLOCK\n";
  for (const std::string& l : lines) b.mesh += l + "\n";
  return b;
}

}  // namespace halfstep::test
