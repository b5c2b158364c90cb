// One rank's share of a distributed model: the elements it owns, the nodes they touch
// (shared nodes first), who else holds each shared node, and the restriction of the
// whole-model arrays (system, state, step loads) to this share.
#pragma once

#include <cstdint>
#include <vector>

#include "discretization/element_blocks.hpp"
#include "discretization/step_loads.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"

namespace halfstep {

/// A distributed run's contact on one rank (docs/parallel.md, "Distributed contact"):
/// every rank keeps the whole contact system, numbered by its contact nodes (contact_nodes),
/// and each increment learns the motion of all of them (each from the rank that owns it).
struct ContactShare {
  std::vector<int> node_global;     ///< contact node -> global node
  std::vector<int> node_local;      ///< contact node -> local node, or -1 (held elsewhere)
  std::vector<std::uint8_t> fills;  ///< per contact node: 1 when this rank owns it and supplies its motion
  std::vector<int> records;         ///< slave records this rank computes (it owns their node), ascending
  /// Edge records (role kEdgeRecord) this rank computes: it owns the edge's first node, ascending.
  std::vector<int> edge_records;
  /// Per contact node (CSR), the ranks holding it, ascending: a record's results go to every
  /// rank holding one of the nodes it pushes.
  std::vector<int> holder_ptr{0}, holders;
  std::vector<double> x0, y0, z0;   ///< reference coordinates per contact node
  std::vector<double> mass;         ///< whole-model nodal mass per contact node
  ContactSystem system;             ///< the whole contact system in contact-node numbering
  int num_nodes() const { return static_cast<int>(node_global.size()); }
};

/// Local numbering and interface of one rank.
struct Subdomain {
  int rank = 0, ranks = 1;
  std::vector<int> node_global;   ///< local node -> global node; the num_interface shared nodes first
  std::vector<int> node_local;    ///< global node -> local node, or -1
  int num_interface = 0;          ///< local nodes [0, num_interface) are shared with other ranks
  std::vector<std::uint8_t> owned;  ///< per local node: 1 when this is the lowest rank holding it
  /// Per element family (block_families() order): this rank's elements, those touching a
  /// shared node first within each block.
  std::vector<ElementShare> elements;
  std::vector<int> neighbors;     ///< ranks sharing a node with this one, ascending
  std::vector<int> send_ptr, send_nodes;  ///< per neighbour: its shared nodes, ascending global index
  /// Per interface node: positions of the partial sums to add (CSR), in ascending rank order,
  /// in the halo buffer [own num_interface | received from neighbour 0 | neighbour 1 | ...].
  std::vector<int> sum_ptr, sum_src;
  std::vector<int> elements_per_rank;  ///< elements of every rank, for the summary
  ContactShare contact;           ///< empty without contact
};

/// Values exchanged with each neighbour (both ways): values_per_node per node shared with it.
inline std::vector<int> message_sizes(const Subdomain& d, int values_per_node) {
  std::vector<int> sizes;
  for (std::size_t j = 0; j < d.neighbors.size(); ++j) sizes.push_back(values_per_node * (d.send_ptr[j + 1] - d.send_ptr[j]));
  return sizes;
}

/// The share of rank of the whole system, given every model element's part (rank). A
/// contact node that no element uses (an analytical surface's reference node) belongs to
/// rank 0 alone.
Subdomain build_subdomain(const StructureSystem& global, const std::vector<int>& part, int rank, int ranks);

/// The system of the subdomain: local elements and nodes, whole-model nodal masses (so shared
/// nodes need no mass exchange), the whole model's stable increment and energy scales. Its
/// contact is d.contact.system: numbered by contact nodes, not by local nodes.
StructureSystem restrict_system(const StructureSystem& global, const Subdomain& d);

/// The state of the subdomain's nodes and of its elements' material state (each family's
/// BlockFamily::restrict_state); force buffers sized for local.
StructureState restrict_state(const StructureState& global_state, const StructureSystem& global,
                              const StructureSystem& local, const Subdomain& d);

/// A step's loads and constraints on the subdomain's nodes and elements. A concentrated load
/// on a shared node is applied by every rank holding the node (each integrates its own copy
/// with the same total force); its work is counted once, by the owner. Pressures follow their
/// elements (numbered across the families with BlockFamily::element_pressure, globally and
/// locally).
StepLoads restrict_step(const StepLoads& step, const Subdomain& d);

/// Values of global per-node array v at the subdomain's nodes.
template <class T>
std::vector<T> local_values(const std::vector<T>& v, const std::vector<int>& global_index) {
  std::vector<T> out(global_index.size());
  for (std::size_t i = 0; i < global_index.size(); ++i) out[i] = v[static_cast<std::size_t>(global_index[i])];
  return out;
}

}  // namespace halfstep
