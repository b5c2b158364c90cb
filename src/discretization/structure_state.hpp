// Mutable state of an explicit shell run, structure-of-arrays, owned by the solver.
#pragma once

#include <array>
#include <string>
#include <tuple>
#include <vector>

#include "core/restart_blob.hpp"
#include "discretization/structure_system.hpp"
#include "materials/material_law.hpp"

namespace halfstep {

/// Full-step nodal fields for output: v^n and reactions (global components).
struct FullStepFields {
  std::vector<double> v[6];   ///< translational velocity (3) and angular velocity (3), global
  std::vector<double> rf[6];  ///< reaction forces (3) and moments (3), global
  std::vector<double> a[6];   ///< acceleration (3) and angular acceleration (3), global (0 in static steps)
  /// Each node's internal force (its elements', springs' and contact's), global: the .dat's
  /// "forces" table means this, as the peer's does (a reaction at a support, the load at a
  /// loaded free node, an *EQUATION's force at its nodes). Filled by the implicit procedures;
  /// empty where a scheme gives reactions only (the .dat prints RF then).
  std::vector<double> nf[3];
  void resize(int nn);
};

/// Elements that keep a last thermal pass (StructureState::solid_thermal_last): every
/// continuum element when some material expands, else none.
std::size_t thermal_pass_elements(const StructureSystem& sys);

/// Displacements, half-step velocities, nodal frames and element force buffers.
struct StructureState {
  std::vector<double> ux, uy, uz;        ///< displacement at the current full step
  /// Half-step velocities: 3 global translations, then 2 rotation rates about (t1, t2) on
  /// shell nodes or 3 global angular velocities on beam and FPM triangle nodes (v[5] is zero without them).
  std::vector<double> v[kMaxNodeDofs];
  /// Current unit director and first triad vector (t2 = director x t1). On 6-dof nodes the
  /// node's rotation R turns the initial pair: (e1, e3) on beam and FPM triangle nodes, a
  /// MITC4 node's own initial triad and director.
  std::vector<double> dx, dy, dz;
  std::vector<double> t1x, t1y, t1z;
  std::vector<double> r1x, r1y, r1z;     ///< t1 pulled back to the reference (for rotation output)
  std::vector<double> elem_force;        ///< 4 corners x StructureSystem::shell_corner_values() per element
  std::vector<double> elem_pressure;     ///< 12 pressure forces per element (only when pressures exist)
  std::vector<double> elem_energy;       ///< strain energy per element at the current step
  std::vector<double> solid_force;       ///< 3 internal forces per solid element node (SolidMesh::conn order)
  std::vector<double> solid_energy;      ///< strain energy per solid element (hourglass energy excluded)
  std::vector<double> solid_hourglass;   ///< hourglass energy per solid element
  /// Material state per solid integration point, component-major: component c of point p at
  /// [c * solid.num_points + p] (empty when no law has state; materials/material_law.hpp).
  std::vector<double> solid_state;
  /// Per continuum element: its temperature change theta - theta_initial at `time` (what the
  /// latest element pass used and output reads); empty when no temperature has changed.
  /// Derived from the step's loads, so not in restarts (for_each_state_array).
  std::vector<double> solid_thermal;
  /// Models with *EXPANSION, per continuum element: the temperature change and d strain /
  /// d theta of its latest explicit pass (NaN change: none since the energy balance began),
  /// from which the next pass books the thermal work (ContinuumView::thermal_last); empty
  /// without expansion.
  std::vector<double> solid_thermal_last, solid_thermal_slope;
  /// State of the section points of plastic shells, component-major: component c of point p
  /// at [c * shell.num_points + p] (kJ2PlaneStateSize components; ShellMesh::
  /// first_point numbers the points; empty without plastic shells).
  std::vector<double> shell_state;
  /// Rotation R of each rigid body from its reference configuration, 9 per body (row-major).
  std::vector<double> body_rotation;
  /// The row families' slot forces, follower pressures and element states, in RowMeshes order
  /// (discretization/row_families.hpp); row<Mesh>() reaches one.
  std::array<RowFamilyState, kRowFamilies> rows;
  /// Contact (empty without it): the friction force of every slave record (3 each, the
  /// stick spring's history), and the latest contact pass's nodal contact forces, normal and
  /// frictional apart (3 per node: slaves' own and the reactions on the facets' corners).
  std::vector<double> contact_history, contact_normal, contact_shear;
  /// Per contact definition: the total normal and friction force on its slaves (6 each).
  std::vector<double> contact_pair_force;
  double time = 0;                       ///< t^n
  double half_dt_prev = 0;               ///< t^n - t^(n-1/2); 0 at the start

  /// Row family Mesh's arrays.
  template <class Mesh>
  RowFamilyState& row() {
    return rows[row_index<Mesh>()];
  }
  /// The same, read only.
  template <class Mesh>
  const RowFamilyState& row() const {
    return rows[row_index<Mesh>()];
  }

  /// Sizes the arrays and sets the reference configuration with zero velocity.
  void initialize(const StructureSystem& sys);
  /// Starts the thermal work afresh (a new energy baseline): no element has a last pass.
  void forget_thermal_passes();
  /// Bytes initialize(sys) gives the per-node and per-element arrays the report counts
  /// (displacements, velocities, directors and triads, element forces, energies and point
  /// states), without allocating them: kept beside initialize, which sizes them the same way.
  static std::size_t bytes_for(const StructureSystem& sys);
};

/// Copies what output needs: displacements, directors, triads and contact forces, and with
/// elements also the element energies and material states (field frames and printed tables
/// need them; a history or energy row does not, and on a large model they are most of it).
void copy_output_fields(const StructureState& from, StructureState& to, bool elements = true);

/// How an array of StructureState travels (for_each_state_array): kStateShared, in a rank's
/// share of a distributed run (the others are what StructureState::initialize gives the rank's
/// system, zeros that need not travel: a third of a shell share); kStateByStep, sized by a
/// step's loads (pressures) rather than the model. Every array is in a restart.
enum StateArrayFlags : unsigned { kStateShared = 1u, kStateByStep = 2u };

/// Applies f(name, array, flags) to every array of st: the one list that restart files (every
/// array, by name) and the ranks' shares (the kStateShared ones, parallel/run_share.cpp) read,
/// so an array added to StructureState and here is saved, loaded and sent alike.
template <class State, class F>
void for_each_state_array(State& st, F&& f) {
  f("ux", st.ux, kStateShared);
  f("uy", st.uy, kStateShared);
  f("uz", st.uz, kStateShared);
  for (int d = 0; d < kMaxNodeDofs; ++d) f("v" + std::to_string(d), st.v[d], kStateShared);
  f("dx", st.dx, kStateShared);
  f("dy", st.dy, kStateShared);
  f("dz", st.dz, kStateShared);
  f("t1x", st.t1x, kStateShared);
  f("t1y", st.t1y, kStateShared);
  f("t1z", st.t1z, kStateShared);
  f("r1x", st.r1x, kStateShared);
  f("r1y", st.r1y, kStateShared);
  f("r1z", st.r1z, kStateShared);
  f("elem_force", st.elem_force, 0u);
  f("elem_pressure", st.elem_pressure, kStateByStep);
  f("elem_energy", st.elem_energy, 0u);
  f("solid_force", st.solid_force, 0u);
  f("solid_energy", st.solid_energy, 0u);
  f("solid_hourglass", st.solid_hourglass, 0u);
  f("solid_state", st.solid_state, 0u);
  f("solid_thermal_last", st.solid_thermal_last, 0u);
  f("solid_thermal_slope", st.solid_thermal_slope, 0u);
  f("shell_state", st.shell_state, kStateShared);
  f("body_rotation", st.body_rotation, 0u);
  for_each_row_family([&](auto i) {
    using Mesh = std::tuple_element_t<i, RowMeshes>;
    auto& r = st.rows[i];
    const std::string key = Mesh::kKey;
    f(key + "_force", r.force, 0u);
    if constexpr (Mesh::kPressure) f(key + "_pressure", r.pressure, kStateByStep);
    f(key + "_state", r.state, kStateShared);
  });
  f("contact_history", st.contact_history, 0u);
  f("contact_normal", st.contact_normal, 0u);
  f("contact_shear", st.contact_shear, 0u);
  f("contact_pair_force", st.contact_pair_force, 0u);
}

/// Restart: every array of st (as views: st must stay unchanged until blob is written) and its
/// two times into blob, each section named prefix + field.
void save_state(const StructureState& st, const std::string& prefix, RestartBlob& blob);
/// Restart: st from save_state's sections; every array must have the size it has in st now
/// (st sized for this model), else RestartError.
void load_state(const RestartBlob& blob, const std::string& prefix, StructureState& st);

/// Where shell e's section-point state lives in st.shell_state (the explicit pass updates it
/// in place; output reads it).
inline ElementState<double> shell_element_state(const StructureSystem& sys, StructureState& st, int e) {
  return {st.shell_state.data(), st.shell_state.data(), sys.shell.num_points,
          sys.shell.first_point[static_cast<std::size_t>(e)]};
}

/// The same, read-only (next null: nothing is written).
inline ElementState<double> shell_element_state(const StructureSystem& sys, const StructureState& st, int e) {
  return {st.shell_state.data(), nullptr, sys.shell.num_points, sys.shell.first_point[static_cast<std::size_t>(e)]};
}

/// Gathers element e's reference and current nodal vectors from the system and the state.
inline Mitc4Nodes<double> gather_element_nodes(const StructureSystem& sys, const StructureState& st, int e) {
  Mitc4Nodes<double> nodes;
  const int* c = &sys.shell.conn[4 * e];
  for (int k = 0; k < 4; ++k) {
    const int n = c[k];
    nodes.X[k] = {sys.x0[n], sys.y0[n], sys.z0[n]};
    nodes.u[k] = {st.ux[n], st.uy[n], st.uz[n]};
    nodes.V0[k] = {sys.dir0x[n], sys.dir0y[n], sys.dir0z[n]};
    nodes.v[k] = {st.dx[n], st.dy[n], st.dz[n]};
  }
  return nodes;
}

}  // namespace halfstep
