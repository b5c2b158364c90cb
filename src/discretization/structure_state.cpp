#include "discretization/structure_state.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "discretization/contact.hpp"
#include "discretization/nodal_triads.hpp"
#include "materials/j2_plane_stress.hpp"

namespace halfstep {

std::size_t thermal_pass_elements(const StructureSystem& sys) {
  const bool expands = std::any_of(sys.solid.materials.begin(), sys.solid.materials.end(),
                                   [](const SolidMaterial<double>& m) { return has_expansion(m); });
  return expands ? static_cast<std::size_t>(sys.solid.num_elements) : 0;
}

void FullStepFields::resize(int nn) {
  for (auto& a : v) a.assign(nn, 0.0);
  for (auto& a : rf) a.assign(nn, 0.0);
  for (auto& x : a) x.assign(nn, 0.0);
}

std::size_t StructureState::bytes_for(const StructureSystem& sys) {
  const std::size_t nn = sys.num_nodes, ne = sys.shell.num_elements;
  std::size_t values = nn * (3 + kMaxNodeDofs + 9);  // u; v; directors, t1 and r1
  values += 4 * static_cast<std::size_t>(sys.shell_corner_values()) * ne + ne;  // elem_force, elem_energy
  values += static_cast<std::size_t>(kJ2PlaneStateSize) * sys.shell.num_points;
  values += 3 * sys.solid.conn.size() + 2 * static_cast<std::size_t>(sys.solid.num_elements) +
            static_cast<std::size_t>(sys.solid.state_size) * sys.solid.num_points + 2 * thermal_pass_elements(sys);
  for_each_row_family([&](auto i) {
    using Mesh = std::tuple_element_t<i, RowMeshes>;
    const Mesh& m = std::get<i>(sys.rows);
    values += static_cast<std::size_t>(6 * Mesh::kCorners + m.state_size) * static_cast<std::size_t>(m.num_elements);
  });
  return sizeof(double) * values;
}

void StructureState::initialize(const StructureSystem& sys) {
  const std::size_t nn = sys.num_nodes, ne = sys.shell.num_elements;
  ux.assign(nn, 0.0);
  uy.assign(nn, 0.0);
  uz.assign(nn, 0.0);
  for (auto& a : v) a.assign(nn, 0.0);
  dx = sys.dir0x;
  dy = sys.dir0y;
  dz = sys.dir0z;
  t1x.assign(nn, 1.0);
  t1y.assign(nn, 0.0);
  t1z.assign(nn, 0.0);
  r1x.assign(nn, 1.0);
  r1y.assign(nn, 0.0);
  r1z.assign(nn, 0.0);
  body_rotation.clear();
  for (int b = 0; b < sys.bodies.num_bodies; ++b)
    body_rotation.insert(body_rotation.end(), {1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0});
  initialize_triads(*this);  // t1 and r1: Abaqus's default local 1-direction on each director
  elem_force.assign(4 * static_cast<std::size_t>(sys.shell_corner_values()) * ne, 0.0);
  elem_pressure.clear();
  elem_energy.assign(ne, 0.0);
  solid_force.assign(3 * sys.solid.conn.size(), 0.0);
  solid_energy.assign(sys.solid.num_elements, 0.0);
  solid_hourglass.assign(sys.solid.num_elements, 0.0);
  solid_state.assign(static_cast<std::size_t>(sys.solid.state_size) * sys.solid.num_points, 0.0);
  solid_thermal_slope.assign(thermal_pass_elements(sys), 0.0);
  solid_thermal_last.resize(solid_thermal_slope.size());
  forget_thermal_passes();
  shell_state.assign(static_cast<std::size_t>(kJ2PlaneStateSize) * sys.shell.num_points, 0.0);
  // An FPM element reads each node's rotation increment from the node's frame now and the
  // frame it saw last (elements/fpm_kinematics.hpp), so it starts from its nodes' own frames:
  // (e1, e3) where only row families meet, a MITC4 node's triad and director where the
  // element shares a node with shells (the node then turns that frame).
  for_each_row_family([&](auto i) {
    using Mesh = std::tuple_element_t<i, RowMeshes>;
    const Mesh& m = std::get<i>(sys.rows);
    RowFamilyState& r = rows[i];
    const int count = m.num_elements, corners = Mesh::kCorners;
    r.force.assign(6 * static_cast<std::size_t>(corners) * static_cast<std::size_t>(count), 0.0);
    r.pressure.clear();
    r.state = m.initial_state();
    set_corner_frames(m, r.state, [&](int node, double* v) {
      const auto n = static_cast<std::size_t>(node);
      const double vals[6] = {t1x[n], t1y[n], t1z[n], dx[n], dy[n], dz[n]};
      std::copy(vals, vals + 6, v);
    });
  });
  if (!sys.contact.empty()) {
    contact_history.assign(kContactHistory * static_cast<std::size_t>(sys.contact.num_slaves + sys.contact.num_edges), 0.0);
    contact_normal.assign(3 * static_cast<std::size_t>(nn), 0.0);
    contact_shear.assign(3 * static_cast<std::size_t>(nn), 0.0);
    contact_pair_force.assign(6 * static_cast<std::size_t>(sys.contact.num_pairs), 0.0);
  } else {
    contact_history.clear(), contact_normal.clear(), contact_shear.clear(), contact_pair_force.clear();
  }
  time = 0;
  half_dt_prev = 0;
}

void StructureState::forget_thermal_passes() {
  std::fill(solid_thermal_last.begin(), solid_thermal_last.end(), std::numeric_limits<double>::quiet_NaN());
}

void copy_output_fields(const StructureState& from, StructureState& to, bool elements) {
  to.ux = from.ux;
  to.uy = from.uy;
  to.uz = from.uz;
  to.dx = from.dx;
  to.dy = from.dy;
  to.dz = from.dz;
  to.t1x = from.t1x;
  to.t1y = from.t1y;
  to.t1z = from.t1z;
  if (elements) {
    to.elem_energy = from.elem_energy;
    to.solid_energy = from.solid_energy;
    to.solid_hourglass = from.solid_hourglass;
    to.solid_state = from.solid_state;
    to.solid_thermal = from.solid_thermal;
    to.shell_state = from.shell_state;
    for (std::size_t i = 0; i < kRowFamilies; ++i) to.rows[i].state = from.rows[i].state;
  }
  to.contact_normal = from.contact_normal;
  to.contact_shear = from.contact_shear;
  to.contact_pair_force = from.contact_pair_force;
  to.body_rotation = from.body_rotation;
  to.time = from.time;
}


void save_state(const StructureState& st, const std::string& prefix, RestartBlob& blob) {
  for_each_state_array(st, [&](const std::string& name, const std::vector<double>& a, unsigned) {
    blob.put_view(prefix + name, a);
  });
  blob.put_value(prefix + "time", st.time);
  blob.put_value(prefix + "half_dt_prev", st.half_dt_prev);
}

void load_state(const RestartBlob& blob, const std::string& prefix, StructureState& st) {
  for_each_state_array(st, [&](const std::string& name, std::vector<double>& a, unsigned flags) {
    blob.get_finite_vector(prefix + name, a, (flags & kStateByStep) ? -1 : static_cast<long long>(a.size()));
  });
  st.time = blob.get_value<double>(prefix + "time");
  st.half_dt_prev = blob.get_value<double>(prefix + "half_dt_prev");
  if (!std::isfinite(st.time) || !std::isfinite(st.half_dt_prev))
    blob.fail("section '" + prefix + "time' or '" + prefix + "half_dt_prev' is not a finite number: the file was damaged");
}

}  // namespace halfstep
