// The FPM triangles of a model (S3 / S3R with *SHELL SECTION, FORMULATION=FPM) as
// structure-of-arrays: connectivity, section constants, reference edges, initial DCS axes,
// areas, stable increments and the node -> triangle-corner gather map. Built once from a
// Model; the state lives in StructureState.
#pragma once

#include <vector>

#include "discretization/rotating_mass.hpp"
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

}  // namespace halfstep
