// The elements of a system as blocks that host code walks without naming a family (issue 43
// item 1): the MITC4 shells, each continuum group, the FPM beams, the FPM triangles. What a
// family must say about its elements to such code (energy, measure, cells, output) is one
// table of functions per family, in the family's own file (shell_block.cpp, solid_block.cpp,
// beam_block.cpp, tri_block.cpp); element_blocks.cpp is the only place that lists them.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "discretization/loads.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "model/model.hpp"
#include "results/field_set.hpp"

namespace halfstep {

struct ElementBlock;

/// What a family's cell output writes into: the frame's arrays and the cells' shared ones
/// (ids, strain energy density, PEEQ when some family has a plastic law, and the
/// three-component SF and SM of the families that share them).
struct CellContext {
  const Model& model;
  const StructureSystem& sys;
  const StructureState& st;
  const FullStepFields& full;
  bool small_strain;  ///< a geometrically linear static step's frame
  FieldSet& fs;
  int nc;             ///< cells of the frame (every element of the system)
  std::vector<double>& eids;
  std::vector<double>& energy_density;
  std::vector<double>* peeq = nullptr;
  std::vector<double>* sf3 = nullptr;
  std::vector<double>* sm3 = nullptr;
};

/// What a family's host element pass reads and writes: the CPU backend's state, the step's
/// loads at tau (follower pressures) and its threads.
struct HostPass {
  const StructureSystem& sys;
  StructureState& st;
  DriveView drive;
  bool have_pressure;  ///< the step has pressure loads (st's pressure buffers are sized)
  double tau;
  int threads;
};

/// The host-side facts of one element family, for code that walks every element.
struct BlockFamily {
  /// The family in messages ("shell", "solid", "beam", "FPM triangle").
  const char* what;
  /// The family's elements in a system (its mesh's).
  int (*count)(const StructureSystem& sys);
  /// Element e's strain energy in st, hourglass energy included (FPM kinds: their internal
  /// work). Non-finite when the element's state went non-finite.
  double (*energy)(const StructureSystem& sys, const StructureState& st, int e);
  /// Element e's size (area, volume, A L0, t A0): energy / measure compares the elements of a
  /// family.
  double (*measure)(const StructureSystem& sys, int e);
  /// Bytes of the family's mesh arrays (zero-length ones included).
  std::size_t (*mesh_bytes)(const StructureSystem& sys);
  /// Sections (or materials) the family's mesh holds.
  std::size_t (*sections)(const StructureSystem& sys);
  /// A block's elements as `halfstep check` names them ("1200 MITC4", "64 C3D8 (FPM)").
  std::string (*describe)(const Model& model, const StructureSystem& sys, const ElementBlock& b);
  /// Whether some element of the family follows a plastic law with state in st (PEEQ).
  bool (*plastic)(const StructureSystem& sys, const StructureState& st);
  /// Whether its SF and SM are the shared three-component arrays (CellContext::sf3, sm3).
  bool shares_sf3;
  /// Writes the family's cell results for cells [cell0, cell0 + count) (its elements in
  /// order), adding the arrays only it has (NaN on the other families' cells).
  void (*cells)(CellContext& c, int cell0);
  /// The explicit element pass over the family's elements in range (a distributed run's
  /// elements on shared nodes, the rest, or all): internal forces into st's slot buffers,
  /// energies and state updated; returns the internal energy (hourglass energy and plastic
  /// dissipation included), the hourglass energy and the plastic dissipation.
  std::array<double, 3> (*host_forces)(const HostPass& p, ElementRange range);
  /// Sizes (have_pressure) or clears the family's follower-pressure buffers in st at the
  /// start of a step.
  void (*begin_step)(const StructureSystem& sys, StructureState& st, bool have_pressure);
  /// Adds node n's share of the family's element forces in st, in a fixed order over the
  /// node's slots: internal forces (3, 5 or 6 values) to fi, follower pressures to fp.
  void (*gather)(const StructureSystem& sys, const StructureState& st, int n, double fi[6], double fp[3]);
};

/// A block of one kind's elements: [first, first + count) of its family's mesh, whose
/// connectivity holds `nodes` node indices per element from conn_offset on.
struct ElementBlock {
  int kind = -1;                                   ///< registry kind id (elements/registry.hpp)
  int first = 0, count = 0;
  const std::vector<int>* model_element = nullptr;  ///< model element of each of the mesh's elements
  const std::vector<int>* conn = nullptr;           ///< the mesh's connectivity
  std::size_t conn_offset = 0;                      ///< the block's first element's first node in conn
  int nodes = 0;                                    ///< nodes per element
  const BlockFamily* family = nullptr;
};

/// The system's blocks in pass and cell order: shells, the continuum groups, beams,
/// triangles (a family without elements has none).
std::vector<ElementBlock> element_blocks(const StructureSystem& sys);

/// Every family, in cell order, with or without elements in a given system.
const std::vector<const BlockFamily*>& block_families();

/// Bytes of a vector's elements (for BlockFamily::mesh_bytes).
template <class T>
std::size_t vector_bytes(const std::vector<T>& v) {
  return v.size() * sizeof(T);
}

/// "COUNT TYPE SUFFIX": a block's element count and its first element's deck type (for
/// BlockFamily::describe).
std::string count_and_type(const Model& model, const ElementBlock& b, const std::string& suffix);

}  // namespace halfstep
