// The continuum (solid) part of a structure: elements grouped by kind, per-section
// materials in material axes, lumped masses, stable increments and the node gather map.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "materials/solid_material.hpp"
#include "model/model.hpp"

namespace halfstep {

/// Solid elements of one kind, contiguous in SolidMesh's arrays (solid indices
/// first .. first + count, node indices from conn_offset, nodes_per_element each).
struct SolidGroup {
  int kind = 0;  ///< element kind id (elements/registry.hpp)
  int first = 0, count = 0;
  int conn_offset = 0;
  int nodes_per_element = 8;
  int boundary = 0;  ///< distributed runs: the group's first elements that touch a shared node
  std::size_t first_point = 0;  ///< integration-point index of the group's first element (points of a group are contiguous)
};

/// Which elements of a subdomain a pass covers: all, those touching a shared node (computed
/// first in a distributed run, so the exchange overlaps the rest), or the rest.
enum class ElementRange { All, Boundary, Interior };

/// First and one-past-last element (counted from the group's start) of range within a group
/// whose first `boundary` elements touch shared nodes.
inline void range_bounds(ElementRange r, int boundary, int count, int& begin, int& end) {
  begin = r == ElementRange::Interior ? boundary : 0;
  end = r == ElementRange::Boundary ? boundary : count;
}

/// Solid elements of a model, ordered by kind (one SolidGroup per kind present).
struct SolidMesh {
  int num_elements = 0;
  std::vector<int> model_element;  ///< solid index -> model element index
  std::vector<int> conn;           ///< node indices, element after element, groups in order
  std::vector<int> material;       ///< per element: index into materials
  std::vector<SolidMaterial<double>> materials;  ///< one per *SOLID SECTION, axes applied
  std::vector<std::string> material_name;        ///< "elset/material", for reports
  std::vector<double> alpha;       ///< per material: mass-proportional damping
  std::vector<double> beta;        ///< per material: stiffness-proportional damping (implicit dynamics)
  std::vector<SolidGroup> groups;
  std::vector<double> volume;      ///< reference volume per element
  std::vector<double> element_dt;  ///< critical increment bound per element
  std::vector<int> node_slot_ptr, node_slots;  ///< node -> positions in conn (CSR)
  double hourglass_kappa = 0.1;    ///< C3D8R hourglass stiffness factor (docs/theory.md)
  bool planar = false;             ///< planar elements (x, y only): every node's z is held
  int state_size = 0;              ///< material state values per integration point (0: no law has state)
  std::size_t num_points = 0;      ///< integration points over all elements (the state store's stride)
  /// Constant per-element data (kinds with kElementData: NURBS weights and extraction
  /// operators; discretization/nurbs_patch.hpp), element e's at element_data_ptr[e]; both
  /// empty when no element has any.
  std::vector<double> element_data;
  std::vector<std::size_t> element_data_ptr;
  /// Element e's constant data, or null.
  const double* data_of(int e) const {
    const std::size_t i = static_cast<std::size_t>(e);
    return element_data_ptr.empty() || element_data_ptr[i] == element_data_ptr[i + 1] ? nullptr
                                                                                     : element_data.data() + element_data_ptr[i];
  }
  /// Offset in conn of element e's first node.
  int conn_start(int e) const;
  /// Group index of element e.
  int group_of(int e) const;
  /// Integration-point index of element e's first point.
  std::size_t first_point(int e) const;
};

/// Numbers the integration points of sm's groups (SolidGroup::first_point, num_points) and
/// sets state_size from the kinds and materials of its elements; after the groups are final.
void assign_points(SolidMesh& sm);

/// Rotation matrix (rows = material axes in global components) of an *ORIENTATION.
Mat3<double> orientation_axes(const Orientation& o);

/// The SolidMaterial of a deck material with the given axes; throws InputError naming the
/// material's definition when its constants are not admissible.
SolidMaterial<double> solid_material_of(const Material& mat, const Mat3<double>& axes);

/// Lumped nodal masses and damping added by the solids, with their reference data.
struct SolidMassContribution {
  std::vector<double> mass, damp;  ///< per node (size num_nodes; empty without continuum elements)
  double total_mass = 0;
  double energy_per_unit_strain = 0;  ///< sum of M V / 2
};

/// Builds the solid part of a model; throws InputError for inverted or degenerate elements
/// (with their deck line). Masses are added into contrib.
SolidMesh build_solid_mesh(const Model& model, SolidMassContribution& contrib);

/// Rebuilds the node -> conn-position gather map of sm over nn nodes.
void build_node_slots(SolidMesh& sm, int nn);

// A rank share (parallel/run_share.cpp) carries a mesh through its field list below; the size
// guard (x86-64, libstdc++) stops the build when a field is added, so that it joins the list.
template <class Ar>
void serialize(Ar& ar, SolidMesh& m) {
  ar(m.num_elements, m.model_element, m.conn, m.material, m.materials, m.material_name, m.alpha, m.beta, m.groups, m.volume,
     m.element_dt, m.node_slot_ptr, m.node_slots, m.hourglass_kappa, m.planar, m.state_size, m.num_points,
     m.element_data, m.element_data_ptr);
}
static_assert(sizeof(SolidMesh) == 368, "SolidMesh changed: add the new field to its serialize, then update the size");
static_assert(std::is_trivially_copyable_v<SolidGroup> && std::is_trivially_copyable_v<SolidMaterial<double>>,
              "a continuum value that travels as bytes gained an owning member: give it a field list");

/// Why a received continuum mesh's counts cannot be right ("" when they can): the count
/// against its arrays, points and state beyond any kind's (27 points, a few dozen values).
inline std::string implausible_counts(const SolidMesh& m, long long) {
  if (m.num_elements < 0 || m.num_elements != static_cast<long long>(m.model_element.size()))
    return "solid count " + std::to_string(m.num_elements);
  const long long points = static_cast<long long>(m.num_points);
  return points < 0 || points > 64LL * m.num_elements || m.state_size < 0 || m.state_size > 4096
             ? "a count out of range"
             : "";
}

/// What a distributed run's whole-model outline keeps of the continuum elements: counts, groups
/// and materials (a few per model: a frame gather counts points with them).
inline SolidMesh mesh_outline(const SolidMesh& g) {
  SolidMesh m;
  m.num_elements = g.num_elements;
  m.groups = g.groups;
  m.materials = g.materials;
  m.material_name = g.material_name;
  m.alpha = g.alpha;
  m.beta = g.beta;
  m.hourglass_kappa = g.hourglass_kappa;
  m.planar = g.planar;
  m.state_size = g.state_size;
  m.num_points = g.num_points;
  return m;
}

}  // namespace halfstep
