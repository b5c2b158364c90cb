#include "discretization/structure_state.hpp"

#include "materials/j2_plane_stress.hpp"

namespace halfstep {

void FullStepFields::resize(int nn) {
  for (auto& a : v) a.assign(nn, 0.0);
  for (auto& a : rf) a.assign(nn, 0.0);
}

void StructureState::initialize(const StructureSystem& sys) {
  const std::size_t nn = sys.num_nodes, ne = sys.num_elements;
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
  elem_force.assign(20 * ne, 0.0);
  elem_pressure.clear();
  elem_energy.assign(ne, 0.0);
  solid_force.assign(3 * sys.solid.conn.size(), 0.0);
  solid_energy.assign(sys.solid.num_elements, 0.0);
  solid_hourglass.assign(sys.solid.num_elements, 0.0);
  solid_state.assign(static_cast<std::size_t>(sys.solid.state_size) * sys.solid.num_points, 0.0);
  shell_state.assign(static_cast<std::size_t>(kJ2PlaneStateSize) * sys.shell_num_points, 0.0);
  beam_force.assign(12 * static_cast<std::size_t>(sys.beam.num_elements), 0.0);
  beam_state = initial_beam_state(sys.beam);
  tri_force.assign(18 * static_cast<std::size_t>(sys.tri.num_elements), 0.0);
  tri_pressure.clear();
  tri_state = initial_tri_state(sys.tri);
  time = 0;
  half_dt_prev = 0;
}

void copy_output_fields(const StructureState& from, StructureState& to) {
  to.ux = from.ux;
  to.uy = from.uy;
  to.uz = from.uz;
  to.dx = from.dx;
  to.dy = from.dy;
  to.dz = from.dz;
  to.t1x = from.t1x;
  to.t1y = from.t1y;
  to.t1z = from.t1z;
  to.elem_energy = from.elem_energy;
  to.solid_energy = from.solid_energy;
  to.solid_hourglass = from.solid_hourglass;
  to.solid_state = from.solid_state;
  to.shell_state = from.shell_state;
  to.beam_state = from.beam_state;
  to.tri_state = from.tri_state;
  to.time = from.time;
}

}  // namespace halfstep
