// The FPM triangles of a model (S3 / S3R with *SHELL SECTION, FORMULATION=FPM) as
// structure-of-arrays: connectivity, section constants, reference edges, initial DCS axes,
// areas, stable increments and the node -> triangle-corner gather map. Built once from a
// Model; the state lives in StructureState.
#pragma once

#include <string>
#include <type_traits>
#include <vector>

#include "discretization/rotating_mass.hpp"
#include "discretization/row_mesh.hpp"
#include "elements/fpm_tri.hpp"
#include "model/model.hpp"

namespace halfstep {

/// The FPM triangles of a model.
struct TriMesh {
  int num_elements = 0;
  std::vector<int> model_element;  ///< triangle -> model element index
  std::vector<int> conn;           ///< 3 node indices per triangle
  std::vector<int> section;        ///< index into constants per triangle
  std::vector<TriConstants<double>> constants;  ///< one per FPM *SHELL SECTION
  std::vector<double> edge2x, edge2y, edge2z, edge3x, edge3y, edge3z;  ///< X2 - X1, X3 - X1 per triangle
  std::vector<double> e1x, e1y, e1z;  ///< initial DCS axis e1 (Abaqus's default local 1-direction)
  std::vector<double> area0;       ///< reference area per triangle
  std::vector<double> element_dt;  ///< stable increment per triangle (fpm_tri_stable_dt)
  std::vector<int> node_slot_ptr, node_slots;  ///< node -> triangle corners (3 e + k), CSR; empty without triangles
  int state_size = 0;              ///< values per triangle in StructureState::tri_state
  int boundary = 0;                ///< distributed runs: triangles [0, boundary) touch a shared node
  /// Some section yields (the element passes then compile the plastic path).
  bool any_plastic() const {
    for (const TriConstants<double>& c : constants)
      if (c.plastic) return true;
    return false;
  }
};

/// Builds the triangles of a model and their masses (rho t A / 3 and the rotary inertia
/// m max(t^2/12, kTriRotaryScale A) per node; energy_per_unit_strain sums E t A / 2).
TriMesh build_tri_mesh(const Model& model, RotatingMassContribution& contrib);

/// The state of every triangle at the start of a run (component-major, tri_initial_state).
std::vector<double> initial_tri_state(const TriMesh& tm);

// A rank share (parallel/run_share.cpp) carries a mesh through its field list below; the size
// guard (x86-64, libstdc++) stops the build when a field is added, so that it joins the list.
template <class Ar>
void serialize(Ar& ar, TriMesh& m) {
  ar(m.num_elements, m.model_element, m.conn, m.section, m.constants, m.edge2x, m.edge2y, m.edge2z, m.edge3x,
     m.edge3y, m.edge3z, m.e1x, m.e1y, m.e1z, m.area0, m.element_dt, m.node_slot_ptr, m.node_slots, m.state_size,
     m.boundary);
}
static_assert(sizeof(TriMesh) == 424, "TriMesh changed: add the new field to its serialize, then update the size");
static_assert(std::is_trivially_copyable_v<TriConstants<double>>,
              "TriConstants travels as bytes and gained an owning member: give it a field list");

/// Why a received FPM-triangle mesh's counts cannot be right ("" when they can); bytes: the share's.
inline std::string implausible_counts(const TriMesh& m, long long bytes) { return implausible_row_counts(m, bytes); }

/// What a distributed run's whole-model outline keeps of the FPM triangles: their counts.
inline TriMesh mesh_outline(const TriMesh& g) { return row_mesh_outline(g); }

}  // namespace halfstep
