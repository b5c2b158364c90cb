// What a rank share checks and keeps of a mesh whose element state is one store of rows (the
// FPM beams' and triangles': num_elements elements of state_size values), for both meshes.
#pragma once

#include <string>

namespace halfstep {

/// Why a received row-state mesh's counts cannot be right ("" when they can): a state size
/// beyond any section's, or more elements than the share (bytes) could carry.
template <class Mesh>
std::string implausible_row_counts(const Mesh& m, long long bytes) {
  return m.state_size < 0 || m.state_size > 4096 || m.num_elements < 0 || m.num_elements > bytes
             ? "a count out of range"
             : "";
}

/// What a distributed run's whole-model outline keeps of a row-state mesh: its counts.
template <class Mesh>
Mesh row_mesh_outline(const Mesh& g) {
  Mesh m;
  m.num_elements = g.num_elements;
  m.state_size = g.state_size;
  return m;
}

}  // namespace halfstep
