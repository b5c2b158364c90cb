// The MITC4 shells as an element block family (element_blocks.hpp): their energies, sizes,
// arrays and cell output (section forces and moments, surface stresses and strains).
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/dual.hpp"
#include "core/forall.hpp"
#include "discretization/element_blocks.hpp"
#include "discretization/rotary_inertia.hpp"
#include "discretization/shell_pass.hpp"
#include "discretization/shell_tangent.hpp"
#include "elements/mitc4_section.hpp"
#include "elements/rotation.hpp"
#include "materials/j2_plane_stress.hpp"  // kJ2PlaneStateSize

namespace halfstep {

namespace {

/// Shell e's nodes in a geometrically linear step, for results differentiated at the
/// reference (u = 0, directors V0) along the step's displacements and director increments
/// theta x V0, theta the nodes' rotation vectors (the linear step turns the reference triads
/// by them). At the reference every strain and stress is zero, so the derivative is the
/// linear MITC4 of the step's stiffness K(0).
Mitc4Nodes<Dual<double>> linear_nodes(const StructureSystem& sys, const StructureState& st, int e) {
  using D = Dual<double>;
  Mitc4Nodes<D> nodes;
  for (int k = 0; k < 4; ++k) {
    const std::size_t n = static_cast<std::size_t>(sys.shell.conn[4 * static_cast<std::size_t>(e) + k]);
    const Vec3<double> d0{sys.dir0x[n], sys.dir0y[n], sys.dir0z[n]}, r1{st.r1x[n], st.r1y[n], st.r1z[n]};
    const Vec3<double> d{st.dx[n], st.dy[n], st.dz[n]}, t1{st.t1x[n], st.t1y[n], st.t1z[n]};
    const Vec3<double> dv = cross(rotation_vector(r1, cross(d0, r1), d0, t1, cross(d, t1), d), d0);
    nodes.X[k] = {D(sys.x0[n]), D(sys.y0[n]), D(sys.z0[n])};
    nodes.u[k] = {D(0.0, st.ux[n]), D(0.0, st.uy[n]), D(0.0, st.uz[n])};
    nodes.V0[k] = {D(d0.x), D(d0.y), D(d0.z)};
    nodes.v[k] = {D(d0.x, dv.x), D(d0.y, dv.y), D(d0.z, dv.z)};
  }
  return nodes;
}

/// A plastic section's results in a geometrically linear step: its linearized strains (the
/// derivative parts at the reference, as linear_section_results') and the stress of its state
/// there; PEEQ into *peeq.
Mitc4SectionResults<double> linear_plastic_section_results(const StructureSystem& sys, const StructureState& st, int e,
                                                           double* peeq) {
  using D = Dual<double>;
  const SectionProps& sec = sys.shell.sections[static_cast<std::size_t>(sys.shell.section[e])];
  Mitc4Strain<D> dual[4];
  mitc4_strains(mitc4_dual_ref<D>(sys.shell.ref[static_cast<std::size_t>(e)]), linear_nodes(sys, st, e), D(sec.thickness),
                dual);
  Mitc4Strain<double> eps[4];
  for (int g = 0; g < 4; ++g) {
    for (int i = 0; i < 3; ++i) {
      eps[g].mem[i] = dual[g].mem[i].d;
      eps[g].bend[i] = dual[g].bend[i].d;
    }
    for (int i = 0; i < 2; ++i) eps[g].shear[i] = dual[g].shear[i].d;
  }
  return mitc4_plastic_section_results_at(eps, sec.thickness, sec.law, sec.elastic.kshear, sec.section_points,
                                          shell_element_state(sys, st, e), peeq);
}

/// The linear theory's section results of an elastic shell e at st's displacements (their
/// derivative at the reference along them); Mises from the linear stresses.
Mitc4SectionResults<double> linear_section_results(const StructureSystem& sys, const StructureState& st, int e) {
  using D = Dual<double>;
  const SectionProps& sec = sys.shell.sections[static_cast<std::size_t>(sys.shell.section[e])];
  const Mitc4Nodes<D> nodes = linear_nodes(sys, st, e);
  const Mitc4SectionResults<D> r = mitc4_section_results(mitc4_dual_ref<D>(sys.shell.ref[static_cast<std::size_t>(e)]), nodes,
                                                         D(sec.thickness), mitc4_dual_elastic<D>(sec.elastic));
  Mitc4SectionResults<double> out{};
  for (int i = 0; i < 5; ++i) out.sf[i] = r.sf[i].d;
  for (int i = 0; i < 3; ++i) {
    out.sm[i] = r.sm[i].d;
    out.s_top[i] = r.s_top[i].d;
    out.s_bottom[i] = r.s_bottom[i].d;
    out.e_top[i] = r.e_top[i].d;
    out.e_bottom[i] = r.e_bottom[i].d;
  }
  out.mises_top = plane_mises(out.s_top);  // not the derivative: the Mises norm has none at zero
  out.mises_bottom = plane_mises(out.s_bottom);
  return out;
}


/// MITC4 shells: section forces and moments, surface stresses and strains in the shell's
/// local axes (named as Abaqus names them: X, Y, Z would mislead), Mises at both surfaces.
void shell_cells(CellContext& c, int cell0) {
  const Model& model = c.model;
  const StructureSystem& sys = c.sys;
  const StructureState& st = c.st;
  FieldSet& fs = c.fs;
  const bool plastic_shells = has_plastic_shells(sys) && !st.shell_state.empty();
  const int ne = sys.shell.num_elements, nc = c.nc;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto local = [&](const char* name, int k, std::vector<std::string> names) -> std::vector<double>& {
    FieldArray& a = fs.add_cell(name, k, nc, nan);
    a.component_names = std::move(names);
    return a.values;
  };
  std::vector<double>& sf = local("SF", 5, {"SF1", "SF2", "SF3", "SF4", "SF5"});
  std::vector<double>& sm = local("SM", 3, {"SM1", "SM2", "SM3"});
  std::vector<double>& stop = local("S_top", 3, {"S11", "S22", "S12"});
  std::vector<double>& sbot = local("S_bottom", 3, {"S11", "S22", "S12"});
  std::vector<double>& etop = local("E_top", 3, {"E11", "E22", "E12"});
  std::vector<double>& ebot = local("E_bottom", 3, {"E11", "E22", "E12"});
  std::vector<double>& mtop = fs.add_cell("Mises_top", 1, nc, nan).values;
  std::vector<double>& mbot = fs.add_cell("Mises_bottom", 1, nc, nan).values;
  for (int e = 0; e < ne; ++e) {
    const int cell = cell0 + e;
    const SectionProps& sec = sys.shell.sections[sys.shell.section[e]];
    const Mitc4Nodes<double> nodes = gather_element_nodes(sys, st, e);
    // Plastic sections: from the section points' state (PEEQ the through-thickness maximum).
    double pe = 0;
    const Mitc4SectionResults<double> r =
        sec.section_points > 0 && plastic_shells && c.small_strain ? linear_plastic_section_results(sys, st, e, &pe)
        : sec.section_points > 0 && plastic_shells
            ? mitc4_plastic_section_results(sys.shell.ref[e], nodes, sec.thickness, sec.law, sec.elastic.kshear,
                                            sec.section_points, shell_element_state(sys, st, e), &pe)
        : c.small_strain ? linear_section_results(sys, st, e)
                       : mitc4_section_results(sys.shell.ref[e], nodes, sec.thickness, sec.elastic);
    if (c.peeq) (*c.peeq)[cell] = pe;  // 0 on elastic shells: they never yield
    for (int i = 0; i < 5; ++i) sf[5 * cell + i] = r.sf[i];
    for (int i = 0; i < 3; ++i) {
      sm[3 * cell + i] = r.sm[i];
      stop[3 * cell + i] = r.s_top[i];
      sbot[3 * cell + i] = r.s_bottom[i];
      etop[3 * cell + i] = r.e_top[i];
      ebot[3 * cell + i] = r.e_bottom[i];
    }
    mtop[cell] = r.mises_top;
    mbot[cell] = r.mises_bottom;
    c.eids[cell] = static_cast<double>(model.elements.id[sys.shell.model_element[e]]);
    c.energy_density[cell] = st.elem_energy[e] / sys.shell.area[e];
  }
}

/// The shells of range through ShellElementBody (their energy and dissipation; no hourglass).
ElementSums shell_forces(const HostPass& p, ElementRange range) {
  int begin = 0, end = 0;
  range_bounds(range, p.sys.shell.boundary, p.sys.shell.num_elements, begin, end);
  double sum[2];
  forall_sum<2>(begin, end, p.threads,
                ShellElementBody{p.sys, p.st, p.drive, p.have_pressure, p.tau, p.sys.shell_global_moments()}, sum);
  return {sum[0], 0.0, sum[1]};
}

/// Sizes or clears the shells' follower-pressure slots (3 per corner).
void shell_begin_step(const StructureSystem& sys, StructureState& st, bool have_pressure) {
  if (have_pressure) st.elem_pressure.assign(12 * static_cast<std::size_t>(sys.shell.num_elements), 0.0);
  else st.elem_pressure.clear();
}

/// Node n's shell corners: 5 values each (6, force and global moment, on 6-dof nodes), and
/// their pressure forces, slot by slot.
void shell_gather(const StructureSystem& sys, const StructureState& st, int n, double fi[6], double fp[3]) {
  const bool have_pressure = !st.elem_pressure.empty();
  const int per_corner = sys.shell_corner_values();  // 5, or 6 with global moments
  for (int i = sys.shell.node_slot_ptr[n]; i < sys.shell.node_slot_ptr[n + 1]; ++i) {
    const int slot = sys.shell.node_slots[i];
    const double* f = &st.elem_force[per_corner * static_cast<std::size_t>(slot)];
    for (int d = 0; d < per_corner; ++d) fi[d] += f[d];
    if (have_pressure) {
      const double* p = &st.elem_pressure[3 * static_cast<std::size_t>(slot)];
      fp[0] += p[0];
      fp[1] += p[1];
      fp[2] += p[2];
    }
  }
}

/// The shells of share (BlockFamily::restrict_mesh), with their gather map and section points.
void shell_restrict_mesh(const StructureSystem& g, const ElementShare& share, const std::vector<int>& node_local,
                         StructureSystem& s) {
  ShellMesh& m = s.shell;
  m.num_elements = static_cast<int>(share.global.size());
  m.sections = g.shell.sections;
  m.boundary = share.first_boundary();
  for (int e : share.global) {
    const auto k = static_cast<std::size_t>(e);
    m.model_element.push_back(g.shell.model_element[k]);
    for (int a = 0; a < 4; ++a) m.conn.push_back(node_local[static_cast<std::size_t>(g.shell.conn[4 * k + a])]);
    m.section.push_back(g.shell.section[k]);
    m.ref.push_back(g.shell.ref[k]);
    m.area.push_back(g.shell.area[k]);
    m.element_dt.push_back(g.shell.element_dt[k]);
  }
  build_gather_map(s);
  assign_shell_points(s);
}

/// Section points of plastic shells: local shell i's points are its whole-model shell's.
void shell_restrict_state(const StructureSystem& whole, const StructureState& g, const StructureSystem& local,
                          const ElementShare& share, StructureState& s) {
  if (g.shell_state.empty()) return;
  const std::size_t np_whole = whole.shell.num_points, np_local = local.shell.num_points;
  for (std::size_t c = 0; c < static_cast<std::size_t>(kJ2PlaneStateSize); ++c)
    for (std::size_t i = 0; i < share.global.size(); ++i) {
      const std::size_t from = whole.shell.first_point[static_cast<std::size_t>(share.global[i])];
      const std::size_t count = local.shell.first_point[i + 1] - local.shell.first_point[i];
      for (std::size_t p = 0; p < count; ++p)
        s.shell_state[c * np_local + local.shell.first_point[i] + p] = g.shell_state[c * np_whole + from + p];
    }
}

/// A gathered frame's shell arrays: energies, and the section points' state of plastic shells.
void shell_frame_size(const StructureSystem& whole, StructureState& out) {
  out.elem_energy.assign(static_cast<std::size_t>(whole.shell.num_elements), 0.0);
  out.shell_state.assign(static_cast<std::size_t>(kJ2PlaneStateSize) * whole.shell.num_points, 0.0);
}

/// Shell e's energy, then its section points' state (component-major within the element).
void shell_frame_pack(const StructureSystem& local, const StructureState& st, int e, std::vector<double>& out) {
  const auto k = static_cast<std::size_t>(e);
  out.push_back(st.elem_energy[k]);
  const std::size_t np = local.shell.num_points, first = local.shell.first_point[k],
                    count = local.shell.first_point[k + 1] - first;
  const bool sized = st.shell_state.size() == static_cast<std::size_t>(kJ2PlaneStateSize) * np;
  for (std::size_t c = 0; c < static_cast<std::size_t>(kJ2PlaneStateSize); ++c)
    for (std::size_t p = 0; p < count; ++p) out.push_back(sized ? st.shell_state[c * np + first + p] : 0.0);
}

/// Puts shell_frame_pack's values of whole-model shell e in place.
std::size_t shell_frame_unpack(const StructureSystem& whole, int e, const double* v, std::size_t left,
                               StructureState& out) {
  const auto k = static_cast<std::size_t>(e);
  const std::size_t np = whole.shell.num_points, first = whole.shell.first_point[k],
                    count = whole.shell.first_point[k + 1] - first;
  const std::size_t need = 1 + static_cast<std::size_t>(kJ2PlaneStateSize) * count;
  if (left < need) return 0;
  out.elem_energy[k] = *v++;
  for (std::size_t c = 0; c < static_cast<std::size_t>(kJ2PlaneStateSize); ++c)
    for (std::size_t p = 0; p < count; ++p) out.shell_state[c * np + first + p] = *v++;
  return need;
}

/// The shells' characteristic length (area over the longest diagonal) now over undeformed: the
/// wave speed, and a mass scaling's factor, are in element_dt, only the length changes.
void shell_bound_ratios(const StructureSystem& sys, const StructureState& st, const ElementBlock& b, double* ratio) {
  for (int e = b.first; e < b.first + b.count; ++e) {
    Vec3<double> X[4], x[4];
    for (int k = 0; k < 4; ++k) {
      const auto n = static_cast<std::size_t>(sys.shell.conn[4 * static_cast<std::size_t>(e) + k]);
      X[k] = {sys.x0[n], sys.y0[n], sys.z0[n]};
      x[k] = {sys.x0[n] + st.ux[n], sys.y0[n] + st.uy[n], sys.z0[n] + st.uz[n]};
    }
    const double l0 = mitc4_characteristic_length(X);
    ratio[e - b.first] = l0 > 0 ? mitc4_characteristic_length(x) / l0 : 1.0;
  }
}

/// A shell's mass rho t A (or volume t A), its corners' shares by their areas (as the system
/// build lumps it).
void shell_lumped_mass(const Model&, const StructureSystem& sys, const ElementBlock&, int e, bool volume, bool,
                       std::vector<std::pair<int, double>>& out) {
  const auto k = static_cast<std::size_t>(e);
  const SectionProps& sec = sys.shell.sections[static_cast<std::size_t>(sys.shell.section[k])];
  double corner[4];
  mitc4_corner_areas(sys.shell.ref[k], corner);
  const double density = volume ? 1.0 : sec.density;
  for (int a = 0; a < 4; ++a) out.emplace_back(sys.shell.conn[4 * k + a], density * sec.thickness * corner[a]);
}

}  // namespace

/// The MITC4 shells' table (element_blocks.cpp lists it).
const BlockFamily& shell_block_family() {
  static const BlockFamily family{
      "shell",
      [](const StructureSystem& sys) { return sys.shell.num_elements; },
      [](const StructureSystem&, const StructureState& st, int e) { return st.elem_energy[static_cast<std::size_t>(e)]; },
      [](const StructureSystem& sys, int e) { return sys.shell.area[static_cast<std::size_t>(e)]; },
      [](const StructureSystem& sys) {
        const ShellMesh& m = sys.shell;
        return vector_bytes(m.conn) + vector_bytes(m.section) + vector_bytes(m.ref) + vector_bytes(m.area) + vector_bytes(m.element_dt) +
               vector_bytes(m.node_slot_ptr) + vector_bytes(m.node_slots) + vector_bytes(m.first_point);
      },
      [](const StructureSystem& sys) { return sys.shell.sections.size(); },
      [](const Model&, const StructureSystem&, const ElementBlock& b) { return std::to_string(b.count) + " MITC4"; },
      [](const StructureSystem& sys, const StructureState& st) { return has_plastic_shells(sys) && !st.shell_state.empty(); },
      false,
      shell_cells,
      shell_forces,
      shell_begin_step,
      shell_gather,
      PressureTable::Element,
      shell_restrict_mesh,
      shell_restrict_state,
      shell_frame_size,
      shell_frame_pack,
      shell_frame_unpack,
      shell_bound_ratios,
      [](const StructureSystem&, int) { return true; },
      shell_lumped_mass,
      [](StructureSystem& sys) -> std::vector<double>& { return sys.shell.element_dt; },
      "shell"};
  return family;
}

std::vector<double> node_spin_inertia(const Model& model, const StructureSystem& sys) {
  std::vector<double> rot(static_cast<std::size_t>(sys.num_nodes), 0.0);
  for (int e = 0; e < sys.shell.num_elements; ++e) {
    const SectionProps& sec = sys.shell.sections[static_cast<std::size_t>(sys.shell.section[static_cast<std::size_t>(e)])];
    double corner[4];
    mitc4_corner_areas(sys.shell.ref[static_cast<std::size_t>(e)], corner);
    for (int k = 0; k < 4; ++k)
      rot[static_cast<std::size_t>(sys.shell.conn[4 * static_cast<std::size_t>(e) + static_cast<std::size_t>(k)])] +=
          sec.density * sec.thickness * sec.thickness * sec.thickness / 12 * corner[k];
  }
  for (const PointMass& r : model.point_inertias) rot[static_cast<std::size_t>(r.node)] += r.mass;
  return rot;
}

}  // namespace halfstep
