// The FPM beams of a model (B31 in the deck) as structure-of-arrays: connectivity, section
// constants, reference lengths, initial n1 directions, stable increments and the node ->
// beam-end gather map. Built once from a Model; the state lives in StructureState.
#pragma once

#include <string>
#include <type_traits>
#include <vector>

#include "discretization/rotating_mass.hpp"
#include "discretization/row_mesh.hpp"
#include "elements/fpm_beam.hpp"
#include "model/model.hpp"

namespace halfstep {

/// The beams of a model.
struct BeamMesh {
  int num_elements = 0;
  std::vector<int> model_element;  ///< beam -> model element index
  std::vector<int> conn;           ///< 2 node indices per beam
  std::vector<int> section;        ///< index into constants per beam
  std::vector<BeamConstants<double>> constants;  ///< one per *BEAM SECTION
  std::vector<double> length0;     ///< reference length per beam
  std::vector<double> chord0x, chord0y, chord0z;  ///< X2 - X1 per beam (formed once, exactly)
  std::vector<double> n1x, n1y, n1z;  ///< initial unit n1 (the DCS e2) per beam
  std::vector<double> element_dt;  ///< stable increment per beam (beam_stable_dt)
  std::vector<int> node_slot_ptr, node_slots;  ///< node -> beam ends (2 e + k), CSR; empty without beams
  int state_size = 0;              ///< values per beam in StructureState::beam_state
  int boundary = 0;                ///< distributed runs: beams [0, boundary) touch a shared node
};

/// Builds the beams of a model and their masses (rho A l / 2 and the rotary inertia of
/// beam_rotary_arm per node; energy_per_unit_strain sums E A l / 2); throws InputError for an n1 parallel to a beam.
BeamMesh build_beam_mesh(const Model& model, RotatingMassContribution& contrib);

/// The state of every beam at the start of a run (component-major, beam_initial_state).
std::vector<double> initial_beam_state(const BeamMesh& bm);

// A rank share (parallel/run_share.cpp) carries a mesh through its field list below; the size
// guard (x86-64, libstdc++) stops the build when a field is added, so that it joins the list.
template <class Ar>
void serialize(Ar& ar, BeamMesh& m) {
  ar(m.num_elements, m.model_element, m.conn, m.section, m.constants, m.length0, m.chord0x, m.chord0y, m.chord0z,
     m.n1x, m.n1y, m.n1z, m.element_dt, m.node_slot_ptr, m.node_slots, m.state_size, m.boundary);
}
static_assert(sizeof(BeamMesh) == 352, "BeamMesh changed: add the new field to its serialize, then update the size");
static_assert(std::is_trivially_copyable_v<BeamConstants<double>>,
              "BeamConstants travels as bytes and gained an owning member: give it a field list");

/// Why a received beam mesh's counts cannot be right ("" when they can); bytes: the share's.
inline std::string implausible_counts(const BeamMesh& m, long long bytes) { return implausible_row_counts(m, bytes); }

/// What a distributed run's whole-model outline keeps of the beams: their counts.
inline BeamMesh mesh_outline(const BeamMesh& g) { return row_mesh_outline(g); }

}  // namespace halfstep
