// Small models for the tests of the distributed-run building blocks (partition, subdomain):
// a structured block of solids, optionally with a shell plate on its top face that shares the
// block's top nodes, written as a deck and read with the real reader.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "discretization/element_blocks.hpp"
#include "io/inp_reader.hpp"
#include "model/model.hpp"

namespace halfstep::test {

/// Options of block_deck().
struct BlockDeck {
  int nx = 4, ny = 2, nz = 2;     ///< cells
  double h = 0.25;                ///< cell side
  const char* solid = "C3D8R";    ///< solid kind of every cell (hexahedra only)
  bool plate = false;             ///< S4R plate on the top face (z = nz h), sharing its nodes
  bool loads = false;             ///< the step (x = 0 clamped) has concentrated loads and pressures
};

/// Node id of grid point (i, j, k) of block_deck(o).
inline int block_node(const BlockDeck& o, int i, int j, int k) { return 1 + i + (o.nx + 1) * (j + (o.ny + 1) * k); }

/// Deck text of a structured block (elements numbered solids first, then shells, in grid
/// order x fastest).
inline std::string block_deck(const BlockDeck& o) {
  std::ostringstream d;
  d.precision(17);
  d << "*HEADING\nparallel unit test block\n*NODE\n";
  for (int k = 0; k <= o.nz; ++k)
    for (int j = 0; j <= o.ny; ++j)
      for (int i = 0; i <= o.nx; ++i)
        d << block_node(o, i, j, k) << ", " << o.h * i << ", " << o.h * j << ", " << o.h * k << "\n";
  int e = 0;
  d << "*ELEMENT, TYPE=" << o.solid << ", ELSET=BLOCK\n";
  for (int k = 0; k < o.nz; ++k)
    for (int j = 0; j < o.ny; ++j)
      for (int i = 0; i < o.nx; ++i)
        d << ++e << ", " << block_node(o, i, j, k) << ", " << block_node(o, i + 1, j, k) << ", "
          << block_node(o, i + 1, j + 1, k) << ", " << block_node(o, i, j + 1, k) << ", "
          << block_node(o, i, j, k + 1) << ", " << block_node(o, i + 1, j, k + 1) << ", "
          << block_node(o, i + 1, j + 1, k + 1) << ", " << block_node(o, i, j + 1, k + 1) << "\n";
  if (o.plate) {
    d << "*ELEMENT, TYPE=S4R, ELSET=PLATE\n";
    for (int j = 0; j < o.ny; ++j)
      for (int i = 0; i < o.nx; ++i)
        d << ++e << ", " << block_node(o, i, j, o.nz) << ", " << block_node(o, i + 1, j, o.nz) << ", "
          << block_node(o, i + 1, j + 1, o.nz) << ", " << block_node(o, i, j + 1, o.nz) << "\n";
  }
  d << "*NSET, NSET=X0\n";
  for (int k = 0; k <= o.nz; ++k)
    for (int j = 0; j <= o.ny; ++j) d << block_node(o, 0, j, k) << "\n";
  d << "*NSET, NSET=XL\n";
  for (int k = 0; k <= o.nz; ++k)
    for (int j = 0; j <= o.ny; ++j) d << block_node(o, o.nx, j, k) << "\n";
  d << "*ELSET, ELSET=ENDS\n";
  for (int k = 0; k < o.nz; ++k)
    for (int j = 0; j < o.ny; ++j) d << 1 + (o.nx - 1) + o.nx * (j + o.ny * k) << "\n";
  d << "*SURFACE, NAME=END, TYPE=ELEMENT\nENDS, S4\n";
  d << "*MATERIAL, NAME=M\n*ELASTIC\n1000, 0.3\n*DENSITY\n1\n";
  d << "*SOLID SECTION, ELSET=BLOCK, MATERIAL=M\n";
  if (o.plate) d << "*SHELL SECTION, ELSET=PLATE, MATERIAL=M\n0.05, 5\n";
  d << "*STEP\n*DYNAMIC, EXPLICIT\n, 0.1\n*BOUNDARY\nX0, 1, 3\n";
  if (o.loads) {
    d << "*CLOAD\nXL, 3, 0.5\nXL, 1, -0.25\n*DSLOAD\nEND, P, 2.0\n";
    if (o.plate) d << "*DLOAD\nPLATE, P, -0.1\n";
  }
  d << "*END STEP\n";
  return d.str();
}

/// The model of block_deck(o), read from memory.
inline Model block_model(const BlockDeck& o) { return read_inp_string(block_deck(o), "block.inp"); }

/// The share of d of the element family named what (BlockFamily::what: "shell", "solid",
/// "beam", "FPM triangle"): the sources walk the families without naming them, tests name them.
template <class Domain>
auto& share(Domain& d, const std::string& what) {
  const std::vector<const BlockFamily*>& families = block_families();
  for (std::size_t f = 0; f < families.size(); ++f)
    if (what == families[f]->what) return d.elements.at(f);
  throw std::logic_error("no element family '" + what + "'");
}

}  // namespace halfstep::test
