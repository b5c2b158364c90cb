// The elements of a system as blocks that host code walks without naming a family (issue 43
// item 1): the MITC4 shells, each continuum group, the FPM beams, the FPM triangles. What a
// family must say about its elements to such code (energy, measure, cells, output) is one
// table of functions per family, in the family's own file (shell_block.cpp, solid_block.cpp,
// beam_block.cpp, tri_block.cpp); element_blocks.cpp is the only place that lists them.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/node_slots.hpp"
#include "discretization/loads.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "model/model.hpp"
#include "results/field_set.hpp"

namespace halfstep {

struct ElementBlock;

/// A distributed run's share of one family's elements (parallel/subdomain.hpp): which of the
/// whole model's this rank holds, in its local order.
struct ElementShare {
  std::vector<int> global;    ///< local element -> the whole family's element
  std::vector<int> local;     ///< the whole family's element -> local element, or -1 (elsewhere)
  /// Per block of the whole family (element_blocks order): how many of its local elements
  /// touch a shared node; they lead the block's local elements, so the element pass can do
  /// them before the halo exchange starts.
  std::vector<int> boundary;
  /// The local elements touching a shared node of the family's first block (0 without one).
  int first_boundary() const { return boundary.empty() ? 0 : boundary.front(); }
};

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
  bool points = false;  ///< integration-point arrays wanted too (FieldSet::ip; *EL PRINT tables)
};

/// Values in ElementSums.
constexpr int kElementSumCount = 5;

/// What an element pass sums over its elements: the internal energy (hourglass energy and
/// plastic dissipation included), the hourglass energy, the plastic dissipation, the power
/// the bulk viscosity dissipates (EnergyMonitor integrates it into ALLVD), and the work the
/// temperature changes since the last pass did (SolidEnergy::thermal_work).
using ElementSums = std::array<double, kElementSumCount>;

/// What a family's host element pass reads and writes: the CPU backend's state, the step's
/// loads at tau (follower pressures and the bulk viscosity) and its threads.
struct HostPass {
  const StructureSystem& sys;
  StructureState& st;
  DriveView drive;
  bool have_pressure;  ///< the step has pressure loads (st's pressure buffers are sized)
  double tau;
  int threads;
  double half_dt = 0;  ///< (t^n - t^(n-1)) / 2: back from the positions to where the velocities belong (bulk viscosity)
};

/// A step's table of pressure loads that numbers a family's elements (discretization/step_loads.hpp).
enum class PressureTable {
  None,
  /// The *DLOAD P table of whole-element pressures (pressure_elem): the elements of such
  /// families one family after the other (the shells, then the FPM triangles).
  Element,
  /// The face loads' table (face_elem): the family's own element index.
  Face,
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
  /// energies and state updated; returns its ElementSums.
  ElementSums (*host_forces)(const HostPass& p, ElementRange range);
  /// Sizes (have_pressure) or clears the family's follower-pressure buffers in st at the
  /// start of a step.
  void (*begin_step)(const StructureSystem& sys, StructureState& st, bool have_pressure);
  /// Adds node n's share of the family's element forces in st, in a fixed order over the
  /// node's slots: internal forces (3, 5 or 6 values) to fi, follower pressures to fp.
  void (*gather)(const StructureSystem& sys, const StructureState& st, int n, double fi[6], double fp[3]);
  /// Which of a step's pressure tables numbers the family's elements (StepLoads).
  PressureTable pressure_table;
  /// Sets s's mesh of the family (s's nodes are set) to whole's restricted to share: its
  /// elements in share order, their nodes renumbered by node_local, sections and state layout
  /// the whole model's (every rank's state has the same components).
  void (*restrict_mesh)(const StructureSystem& whole, const ElementShare& share, const std::vector<int>& node_local,
                        StructureSystem& s);
  /// Copies the element state of share's elements from the whole model's state g into s
  /// (initialized for local), so that a rank starts from the state the whole model has.
  void (*restrict_state)(const StructureSystem& whole, const StructureState& g, const StructureSystem& local,
                         const ElementShare& share, StructureState& s);
  /// Sizes, with zeros, the whole-model element arrays of a gathered output frame that the
  /// family fills (frame_unpack).
  void (*frame_size)(const StructureSystem& whole, StructureState& out);
  /// Appends what an output frame carries of local element e (its energies and material
  /// state) to out; zeros where st lacks the array, so every rank packs the same count.
  void (*frame_pack)(const StructureSystem& local, const StructureState& st, int e, std::vector<double>& out);
  /// Puts whole-model element e's frame values (frame_pack's, from the rank holding it) in
  /// place in out; returns how many it read, none when fewer than it needs are left.
  std::size_t (*frame_unpack)(const StructureSystem& whole, int e, const double* values, std::size_t left,
                              StructureState& out);
  /// Block b's elements' geometric bound on the mesh deformed by st over their bound on the
  /// undeformed mesh (the factor their undeformed increment takes), element b.first + i's at
  /// ratio[i]; null where the increment does not follow the mesh (FPM beams and triangles
  /// keep their undeformed bound), and kinds without a finite bound keep 1.
  void (*bound_ratios)(const StructureSystem& sys, const StructureState& st, const ElementBlock& b, double* ratio);
  /// Mass scaling (null where it is refused: FPM beams and triangles). Whether element e has a
  /// density to raise (springs and dashpots have none).
  bool (*has_density)(const StructureSystem& sys, int e);
  /// Appends block b's element e's lumped mass at its deck density to out, (node, mass) node
  /// by node, in the proportions the system build spreads it with (mass scaling, where
  /// has_density is set, and gravity loads read it); volume: its volume instead (density 1:
  /// what body forces per unit volume read). consistent: kinds with a consistent mass
  /// (elements/consistent_mass.hpp) give its row sums, int rho N_a dV, instead: the body
  /// load that goes with that mass in the static procedures (a free fall then stays
  /// stress-free) and the variationally consistent one in a static step.
  void (*lumped_mass)(const Model& model, const StructureSystem& sys, const ElementBlock& b, int e, bool volume,
                      bool consistent, std::vector<std::pair<int, double>>& out);
  /// The family's per-element increments on the undeformed mesh (ElementBlock::element_dt),
  /// for mass scaling to change.
  std::vector<double>& (*element_dt)(StructureSystem& sys);
  /// The family's short name in restart sections ("shell", "solid").
  const char* key;
  /// Strain energies below (this many ulp of strain)^2 per unit energy are round-off noise
  /// (the energy balance's floor; backend_factory.cpp): a family whose stresses gather each
  /// increment's round-off needs more.
  double noise_ulps = 64;
  /// Block b's element e's consistent mass at its deck density, where its kind has one
  /// (elements/consistent_mass.hpp): its nodes into nodes and M_ab = int rho N_a N_b dV into M
  /// (row-major, nodes.size() squared), true; false, nothing written, for the kinds without
  /// (null: no kind of the family has one). A rotational body force in a static procedure
  /// reads it: its load int rho omega^2 r(x) N_a dV is M times the nodes' radii.
  bool (*consistent_mass)(const Model& model, const StructureSystem& sys, const ElementBlock& b, int e,
                          std::vector<int>& nodes, std::vector<double>& M) = nullptr;
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
  const std::vector<double>* element_dt = nullptr;  ///< the mesh's undeformed stable increments
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

/// Position of family f in block_families() (a distributed run's shares are in that order).
std::size_t family_index(const BlockFamily& f);

/// Where family f's elements start in a step's whole-element pressure table
/// (PressureTable::Element numbers such families' elements one family after the other, in
/// block_families() order).
int element_pressure_offset(const StructureSystem& sys, const BlockFamily& f);

/// The elements a step's whole-element pressure table numbers (every such family's).
int element_pressure_count(const StructureSystem& sys);

/// The frame cell of continuum element 0: a frame's cells list the families one after the
/// other in block_families() order.
int continuum_cell_offset(const StructureSystem& sys);

/// Element e's blocks' node indices: calls visit(node) for each node of block b's element e
/// (an index of the family's mesh in [b.first, b.first + b.count)).
template <class Visit>
void for_element_nodes(const ElementBlock& b, int e, Visit&& visit) {
  const std::size_t base = b.conn_offset + static_cast<std::size_t>(e - b.first) * static_cast<std::size_t>(b.nodes);
  for (int k = 0; k < b.nodes; ++k) visit((*b.conn)[base + static_cast<std::size_t>(k)]);
}

/// A row family's mesh (row_families.hpp: kCorners nodes per element) restricted to share
/// (BlockFamily::restrict_mesh); copy(m, k) appends whole element k's arrays of the family's
/// own geometry.
template <class Mesh, class Copy>
Mesh restrict_row_mesh(const Mesh& g, const ElementShare& share, const std::vector<int>& node_local, int num_nodes,
                       Copy&& copy) {
  constexpr int kNodes = Mesh::kCorners;
  Mesh m;
  m.constants = g.constants;
  m.state_size = g.state_size;
  m.boundary = share.first_boundary();
  m.num_elements = static_cast<int>(share.global.size());
  for (int e : share.global) {
    const auto k = static_cast<std::size_t>(e);
    m.model_element.push_back(g.model_element[k]);
    for (int a = 0; a < kNodes; ++a) m.conn.push_back(node_local[static_cast<std::size_t>(g.conn[kNodes * k + a])]);
    m.section.push_back(g.section[k]);
    m.element_dt.push_back(g.element_dt[k]);
    copy(m, k);
  }
  if (m.num_elements > 0) invert_connectivity(m.conn, num_nodes, m.node_slot_ptr, m.node_slots);
  return m;
}

/// Copies the rows of share's elements (in local order) from a component-major store of the
/// whole family (`components` values per element) to one of the local elements.
void copy_element_rows(const std::vector<double>& from, const ElementShare& share, int components,
                       std::vector<double>& to);

/// Appends local element e's values of a component-major store of count elements to out, or
/// components zeros when the store is not of that layout (BlockFamily::frame_pack).
void pack_element_row(const std::vector<double>& store, std::size_t count, int components, int e,
                      std::vector<double>& out);

/// Puts element e's row from values into a component-major store of count elements
/// (BlockFamily::frame_unpack); returns components, or 0 when fewer are left.
std::size_t unpack_element_row(const double* values, std::size_t left, std::size_t count, int components, int e,
                               std::vector<double>& store);

/// The state functions of a row family (row_families.hpp), whose element state is one
/// component-major store of its mesh's state_size rows: the family table's restrict_state,
/// frame_size, frame_pack and frame_unpack.
template <class Mesh>
struct RowState {
  static void restrict_state(const StructureSystem&, const StructureState& g, const StructureSystem& local,
                             const ElementShare& share, StructureState& s) {
    copy_element_rows(g.row<Mesh>().state, share, local.mesh<Mesh>().state_size, s.row<Mesh>().state);
  }
  static void frame_size(const StructureSystem& whole, StructureState& out) {
    const Mesh& m = whole.mesh<Mesh>();
    out.row<Mesh>().state.assign(static_cast<std::size_t>(m.state_size) * static_cast<std::size_t>(m.num_elements), 0.0);
  }
  static void frame_pack(const StructureSystem& local, const StructureState& st, int e, std::vector<double>& out) {
    const Mesh& m = local.mesh<Mesh>();
    pack_element_row(st.row<Mesh>().state, static_cast<std::size_t>(m.num_elements), m.state_size, e, out);
  }
  static std::size_t frame_unpack(const StructureSystem& whole, int e, const double* v, std::size_t left,
                                  StructureState& out) {
    const Mesh& m = whole.mesh<Mesh>();
    return unpack_element_row(v, left, static_cast<std::size_t>(m.num_elements), m.state_size, e,
                              out.row<Mesh>().state);
  }
};

/// "COUNT TYPE SUFFIX": a block's element count and its first element's deck type (for
/// BlockFamily::describe).
std::string count_and_type(const Model& model, const ElementBlock& b, const std::string& suffix);

}  // namespace halfstep
