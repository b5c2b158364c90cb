// The row families: element families whose elements have 6-dof corners that hand their
// nodes slot forces (6 values per corner), and one store of state rows per element (the FPM
// beams and triangles). Each is one mesh type that is also its host trait (kKey, kWhat,
// kCorners, kPressure, kFrame, build, initial_state); this is the one list of them, so that
// the system, the state, restarts and rank shares hold and walk every row family without
// naming one. A new row family is its header, its block file and its device file, plus one
// line here and one in element_blocks.cpp and backends/cuda/device_families.cuh.
#pragma once

#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "discretization/beam_block.hpp"
#include "discretization/tri_block.hpp"

namespace halfstep {

/// Every row family's mesh, in block order.
using RowMeshes = std::tuple<BeamMesh, TriMesh>;

/// How many row families there are.
constexpr std::size_t kRowFamilies = std::tuple_size_v<RowMeshes>;

/// Position of row family Mesh in RowMeshes.
template <class Mesh, std::size_t I = 0>
constexpr std::size_t row_index() {
  static_assert(I < kRowFamilies, "not a row family's mesh (discretization/row_families.hpp)");
  if constexpr (std::is_same_v<std::tuple_element_t<I, RowMeshes>, Mesh>) return I;
  else return row_index<Mesh, I + 1>();
}

/// Whether Mesh is a row family's mesh.
template <class Mesh, std::size_t... I>
constexpr bool is_row_mesh_impl(std::index_sequence<I...>) {
  return (std::is_same_v<std::tuple_element_t<I, RowMeshes>, Mesh> || ...);
}
template <class Mesh>
constexpr bool is_row_mesh = is_row_mesh_impl<Mesh>(std::make_index_sequence<kRowFamilies>{});

/// Calls f(std::integral_constant<std::size_t, I>{}) for each row family I in order (its mesh
/// type is std::tuple_element_t<I, RowMeshes>).
template <class F, std::size_t... I>
void for_each_row_family_impl(F& f, std::index_sequence<I...>) {
  (f(std::integral_constant<std::size_t, I>{}), ...);
}
template <class F>
void for_each_row_family(F&& f) {
  for_each_row_family_impl(f, std::make_index_sequence<kRowFamilies>{});
}

/// One row family's element arrays in a state (StructureState::rows).
struct RowFamilyState {
  /// 6 values per corner, force then moment: corner k of element e at 6 (kCorners e + k).
  std::vector<double> force;
  /// 3 per corner: follower pressure forces (kPressure families, only when the step has pressures).
  std::vector<double> pressure;
  /// Component-major: component c of element e at [c * num_elements + e] (state_size rows).
  std::vector<double> state;
};

/// Writes into a row family's state (component-major, m's element count per component) each
/// element's corner frames from its nodes: frame(n, v) gives node n's t1 in v[0..2] and d in
/// v[3..5]. An FPM element reads its nodes' rotation increments against the frames it saw
/// last, so it starts from its nodes' own frames (StructureState::initialize, RowOperator).
template <class Mesh, class Frame, std::enable_if_t<is_row_mesh<Mesh>, int> = 0>
void set_corner_frames(const Mesh& m, std::vector<double>& state, Frame&& frame) {
  const int count = m.num_elements, corners = Mesh::kCorners;
  for (int e = 0; e < count; ++e)
    for (int k = 0; k < corners; ++k) {
      double v[6];
      frame(m.conn[static_cast<std::size_t>(corners) * e + k], v);
      for (int c = 0; c < 6; ++c)
        state[static_cast<std::size_t>(Mesh::kFrame + 6 * k + c) * static_cast<std::size_t>(count) + e] = v[c];
    }
}

/// Why a received row family's mesh counts cannot be right ("" when they can): a state size
/// beyond any section's, or more elements than the share (bytes) could carry.
template <class Mesh, std::enable_if_t<is_row_mesh<Mesh>, int> = 0>
std::string implausible_counts(const Mesh& m, long long bytes) {
  return m.state_size < 0 || m.state_size > 4096 || m.num_elements < 0 || m.num_elements > bytes
             ? "a count out of range"
             : "";
}

/// What a distributed run's whole-model outline keeps of a row family's mesh: its counts.
template <class Mesh, std::enable_if_t<is_row_mesh<Mesh>, int> = 0>
Mesh mesh_outline(const Mesh& g) {
  Mesh m;
  m.num_elements = g.num_elements;
  m.state_size = g.state_size;
  return m;
}

}  // namespace halfstep
