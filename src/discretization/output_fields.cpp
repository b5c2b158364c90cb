#include "discretization/output_fields.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/dual.hpp"
#include "discretization/shell_tangent.hpp"
#include "discretization/solid_results.hpp"
#include "elements/mitc4_section.hpp"
#include "elements/registry.hpp"
#include "elements/rotation.hpp"

namespace halfstep {

ResultMesh result_mesh(const StructureSystem& sys) {
  ResultMesh m;
  m.num_points = sys.num_nodes;
  m.x = sys.x0;
  m.y = sys.y0;
  m.z = sys.z0;
  const int ne = sys.shell.num_elements, ns = sys.solid.num_elements, nb = sys.beam.num_elements, nt = sys.tri.num_elements;
  const int nc = ne + ns + nb + nt;
  m.conn = sys.shell.conn;
  m.conn.insert(m.conn.end(), sys.solid.conn.begin(), sys.solid.conn.end());
  m.conn.insert(m.conn.end(), sys.beam.conn.begin(), sys.beam.conn.end());
  m.conn.insert(m.conn.end(), sys.tri.conn.begin(), sys.tri.conn.end());
  m.offsets.resize(nc);
  m.types.assign(nc, static_cast<std::uint8_t>(Mitc4Kind::kVtkCell));
  for (int e = 0; e < ne; ++e) m.offsets[e] = 4 * (e + 1);
  for (const SolidGroup& g : sys.solid.groups) {
    const auto type = static_cast<std::uint8_t>(element_kind(g.kind).vtk_cell);
    if (const int* order = element_kind(g.kind).vtk_order) {  // VTK orders this cell's nodes differently
      const int npe = g.nodes_per_element;
      for (int e = 0; e < g.count; ++e) {
        const std::size_t from = static_cast<std::size_t>(g.conn_offset) + static_cast<std::size_t>(e) * npe;
        const std::size_t to = 4 * static_cast<std::size_t>(ne) + from;
        for (int i = 0; i < npe; ++i) m.conn[to + i] = sys.solid.conn[from + order[i]];
      }
    }
    for (int e = g.first; e < g.first + g.count; ++e) {
      m.offsets[ne + e] = ne * 4 + g.conn_offset + (e - g.first + 1) * g.nodes_per_element;
      m.types[ne + e] = type;
    }
  }
  const std::int64_t beams_at = 4 * static_cast<std::int64_t>(ne) + static_cast<std::int64_t>(sys.solid.conn.size());
  for (int e = 0; e < nb; ++e) {
    m.offsets[ne + ns + e] = beams_at + 2 * (e + 1);
    m.types[ne + ns + e] = static_cast<std::uint8_t>(FpmBeamKind::kVtkCell);
  }
  const std::int64_t tris_at = beams_at + 2 * static_cast<std::int64_t>(nb);
  for (int e = 0; e < nt; ++e) {
    m.offsets[ne + ns + nb + e] = tris_at + 3 * (e + 1);
    m.types[ne + ns + nb + e] = static_cast<std::uint8_t>(FpmTriKind::kVtkCell);
  }
  return m;
}

namespace {

/// Rotation vector of every node row of st (row k: node (*nodes)[k], or k without nodes), from
/// the reference to the current nodal frame.
void rotations(const StructureSystem& sys, const StructureState& st, const std::vector<int>* nodes,
               std::vector<double>& out) {
  const std::size_t rows = out.size() / 3;
  for (std::size_t k = 0; k < rows; ++k) {
    const std::size_t n = nodes ? static_cast<std::size_t>((*nodes)[k]) : k;
    const Vec3<double> d0{sys.dir0x[n], sys.dir0y[n], sys.dir0z[n]};
    const Vec3<double> r1{st.r1x[k], st.r1y[k], st.r1z[k]};
    const Vec3<double> d{st.dx[k], st.dy[k], st.dz[k]};
    const Vec3<double> t1{st.t1x[k], st.t1y[k], st.t1z[k]};
    const Vec3<double> th = rotation_vector(r1, cross(d0, r1), d0, t1, cross(d, t1), d);
    out[3 * k] = th.x;
    out[3 * k + 1] = th.y;
    out[3 * k + 2] = th.z;
  }
}

/// The labels of a vector's global components.
const std::vector<std::string> kXyz = {"X", "Y", "Z"};

/// Interleaves three component arrays into one 3-vector array.
void interleave(const std::vector<double>* comp, std::vector<double>& out) {
  const std::size_t nn = comp[0].size();
  for (std::size_t n = 0; n < nn; ++n)
    for (int i = 0; i < 3; ++i) out[3 * n + i] = comp[i][n];
}

/// Section results of shell e in a geometrically linear step: mitc4_section_results
/// differentiated at the reference (u = 0, directors V0) along the step's displacements and
/// director increments theta x V0, theta the nodes' rotation vectors (the linear step turns
/// the reference triads by them). At the reference every strain and stress is zero, so the
/// derivative is the linear MITC4 of the step's stiffness K(0); Mises from the linear stresses.
Mitc4SectionResults<double> linear_section_results(const StructureSystem& sys, const StructureState& st, int e) {
  using D = Dual<double>;
  const SectionProps& sec = sys.shell.sections[static_cast<std::size_t>(sys.shell.section[e])];
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

/// The cell arrays every family writes into: ids, strain energy density, PEEQ (null without a
/// plastic law), and the three-component SF and SM that beams and FPM triangles share.
struct CellArrays {
  int nc = 0;  ///< cells: shells, solids, beams, FPM triangles in that order
  std::vector<double>& eids;
  std::vector<double>& energy_density;
  std::vector<double>* peeq = nullptr;
  std::vector<double>* sf3 = nullptr;
  std::vector<double>* sm3 = nullptr;
};

/// MITC4 shells: section forces and moments, surface stresses and strains in the shell's
/// local axes (named as Abaqus names them: X, Y, Z would mislead), Mises at both surfaces.
void add_shell_cells(const Model& model, const StructureSystem& sys, const StructureState& st, bool small_strain,
                     bool plastic_shells, FieldSet& fs, CellArrays& c) {
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
    const SectionProps& sec = sys.shell.sections[sys.shell.section[e]];
    const Mitc4Nodes<double> nodes = gather_element_nodes(sys, st, e);
    // Plastic sections: from the section points' state (PEEQ the through-thickness maximum).
    double pe = 0;
    const Mitc4SectionResults<double> r =
        sec.section_points > 0 && plastic_shells
            ? mitc4_plastic_section_results(sys.shell.ref[e], nodes, sec.thickness, sec.law, sec.elastic.kshear,
                                            sec.section_points, shell_element_state(sys, st, e), &pe)
        : small_strain ? linear_section_results(sys, st, e)
                       : mitc4_section_results(sys.shell.ref[e], nodes, sec.thickness, sec.elastic);
    if (c.peeq) (*c.peeq)[e] = pe;  // 0 on elastic shells: they never yield
    for (int i = 0; i < 5; ++i) sf[5 * e + i] = r.sf[i];
    for (int i = 0; i < 3; ++i) {
      sm[3 * e + i] = r.sm[i];
      stop[3 * e + i] = r.s_top[i];
      sbot[3 * e + i] = r.s_bottom[i];
      etop[3 * e + i] = r.e_top[i];
      ebot[3 * e + i] = r.e_bottom[i];
    }
    mtop[e] = r.mises_top;
    mbot[e] = r.mises_bottom;
    c.eids[e] = static_cast<double>(model.elements.id[sys.shell.model_element[e]]);
    c.energy_density[e] = st.elem_energy[e] / sys.shell.area[e];
  }
}

/// Continuum elements: stress and strain tensors, Mises, hourglass energy, axial forces of
/// trusses, springs and dashpots.
void add_solid_cells(const Model& model, const StructureSystem& sys, const StructureState& st,
                     const FullStepFields& full, bool small_strain, bool plastic_solids, FieldSet& fs, CellArrays& c) {
  const int ne = sys.shell.num_elements, ns = sys.solid.num_elements, nc = c.nc;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  FieldArray& s_array = fs.add_cell("S", 6, nc, nan);
  FieldArray& e_array = fs.add_cell("E", 6, nc, nan);
  s_array.symmetric_tensor = e_array.symmetric_tensor = true;
  std::vector<double>& s6 = s_array.values;
  std::vector<double>& e6 = e_array.values;
  std::vector<double>& mises = fs.add_cell("Mises", 1, nc, nan).values;
  std::vector<double>& hg = fs.add_cell("HourglassEnergyDensity", 1, nc, nan).values;
  const double* const vel[3] = {full.v[0].data(), full.v[1].data(), full.v[2].data()};
  const bool have_vel = full.v[0].size() == static_cast<std::size_t>(sys.num_nodes);
  const std::vector<SolidCellResult> solid = solid_cell_results(sys, st, have_vel ? vel : nullptr, small_strain);
  // Trusses, springs and dashpots: their force (tension positive), NaN on other cells.
  bool axial = false;
  for (const SolidGroup& g : sys.solid.groups)
    axial = axial || element_kind(g.kind).cross_section || element_kind(g.kind).discrete;
  std::vector<double>* axial_force = axial ? &fs.add_cell("AxialForce", 1, nc, nan).values : nullptr;
  for (int e = 0; e < ns; ++e) {
    const int cell = ne + e;
    for (int i = 0; i < 6; ++i) {
      s6[6 * cell + i] = solid[e].stress[i];
      e6[6 * cell + i] = solid[e].strain[i];
    }
    mises[cell] = solid[e].mises;
    c.eids[cell] = static_cast<double>(model.elements.id[sys.solid.model_element[e]]);
    c.energy_density[cell] = st.solid_energy[e] / sys.solid.volume[e];
    hg[cell] = st.solid_hourglass[e] / sys.solid.volume[e];
    if (plastic_solids) (*c.peeq)[cell] = solid[e].peeq;
    if (axial_force) (*axial_force)[cell] = solid[e].axial_force;
  }
}

/// FPM beams: Abaqus beam section forces (SF1 axial, SF2 and SF3 shear along n1 and n2; SM1
/// and SM2 bending about n1 and n2, SM3 the torque, at the element's middle).
void add_beam_cells(const Model& model, const StructureSystem& sys, const StructureState& st, CellArrays& c) {
  const int ne = sys.shell.num_elements, ns = sys.solid.num_elements, nb = sys.beam.num_elements;
  std::vector<double>& sf = *c.sf3;
  std::vector<double>& sm = *c.sm3;
  const BeamMesh& b = sys.beam;
  for (int e = 0; e < nb; ++e) {
    const int cell = ne + ns + e;
    const BeamStateRef<const double> s{st.beam_state.data() + e, nb};
    const Vec3<double> chord{s[kBeamChord], s[kBeamChord + 1], s[kBeamChord + 2]};
    double f[3], m[3];
    beam_section_forces(s, norm(chord), f, m);
    for (int i = 0; i < 3; ++i) {
      sf[3 * cell + i] = f[i];
      sm[3 * cell + i] = m[i];
    }
    const BeamConstants<double>& sec = b.constants[b.section[e]];
    c.eids[cell] = static_cast<double>(model.elements.id[b.model_element[e]]);
    c.energy_density[cell] = s[kBeamWork] / (sec.area * b.length0[e]);
    if (c.peeq) (*c.peeq)[cell] = beam_peeq(sec, s);
  }
}

/// FPM triangles: Abaqus S3 section forces in the element's DCS (initially Abaqus's default
/// local axes, then convected): SF1-SF3 = N11, N22, N12; SM1-SM3 = M11, M22, M12 per unit
/// length; the stresses at the bottom and top section points.
void add_tri_cells(const Model& model, const StructureSystem& sys, const StructureState& st, FieldSet& fs,
                   CellArrays& c) {
  const int ne = sys.shell.num_elements, ns = sys.solid.num_elements, nb = sys.beam.num_elements, nt = sys.tri.num_elements;
  const int nc = c.nc;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  FieldArray& top_array = fs.add_cell("S_top", 3, nc, nan);
  FieldArray& bottom_array = fs.add_cell("S_bottom", 3, nc, nan);
  top_array.component_names = {"S11", "S22", "S12"};
  bottom_array.component_names = {"S11", "S22", "S12"};
  std::vector<double>& stop = top_array.values;
  std::vector<double>& sbot = bottom_array.values;
  const TriMesh& t = sys.tri;
  for (int e = 0; e < nt; ++e) {
    const int cell = ne + ns + nb + e;
    const TriStateRef<const double> s{st.tri_state.data() + e, nt};
    const TriConstants<double>& sec = t.constants[t.section[e]];
    double f[3], m[3], bottom[3], top[3];
    tri_section_results(sec, s, f, m, bottom, top);
    if (c.peeq) (*c.peeq)[cell] = tri_peeq(sec, s);  // 0 on elastic sections
    for (int i = 0; i < 3; ++i) {
      (*c.sf3)[3 * cell + i] = f[i];
      (*c.sm3)[3 * cell + i] = m[i];
      stop[3 * cell + i] = top[i];
      sbot[3 * cell + i] = bottom[i];
    }
    c.eids[cell] = static_cast<double>(model.elements.id[t.model_element[e]]);
    c.energy_density[cell] = s[kTriWork] / t.area0[e];  // per unit area, as for MITC4
  }
}

void add_cell_fields(const Model& model, const StructureSystem& sys, const StructureState& st,
                     const FullStepFields& full, bool small_strain, FieldSet& fs) {
  const int ne = sys.shell.num_elements, ns = sys.solid.num_elements, nb = sys.beam.num_elements, nt = sys.tri.num_elements;
  const int nc = ne + ns + nb + nt;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double>& eids = fs.add_cell("ElementId", 1, nc).values;
  std::vector<double> energy_density(nc);
  CellArrays cells{nc, eids, energy_density};
  // PEEQ with a plastic law only: the solid state store also serves elastic kinds that carry
  // state of their own (the FPM hexahedron's frame and strain).
  bool plastic_beams = false, plastic_solids = false, plastic_tris = false;
  for (const BeamConstants<double>& b : sys.beam.constants) plastic_beams = plastic_beams || b.plastic;
  for (const TriConstants<double>& c : sys.tri.constants) plastic_tris = plastic_tris || c.plastic;
  for (const SolidMaterial<double>& m : sys.solid.materials) plastic_solids = plastic_solids || m.model == kJ2Plastic;
  plastic_solids = plastic_solids && sys.solid.state_size > 0;
  const bool plastic_shells = has_plastic_shells(sys) && !st.shell_state.empty();
  if (plastic_solids || plastic_beams || plastic_shells || plastic_tris) cells.peeq = &fs.add_cell("PEEQ", 1, nc, nan).values;
  if (ne > 0) add_shell_cells(model, sys, st, small_strain, plastic_shells, fs, cells);
  if (ns > 0) add_solid_cells(model, sys, st, full, small_strain, plastic_solids, fs, cells);
  // Beams and FPM triangles share three-component SF and SM arrays (each cell has its own
  // element's meaning); MITC4 shells, whose SF has five, share a model with neither
  // (model/validate.cpp).
  if (nb + nt > 0) {
    FieldArray& sf = fs.add_cell("SF", 3, nc, nan);
    FieldArray& sm = fs.add_cell("SM", 3, nc, nan);
    sf.component_names = {"SF1", "SF2", "SF3"};
    sm.component_names = {"SM1", "SM2", "SM3"};
    cells.sf3 = &sf.values;
    cells.sm3 = &sm.values;
  }
  if (nb > 0) add_beam_cells(model, sys, st, cells);
  if (nt > 0) add_tri_cells(model, sys, st, fs, cells);
  fs.add_cell("StrainEnergyDensity", 1, nc).values = std::move(energy_density);
}

}  // namespace

FieldSet output_fields(const Model& model, const StructureSystem& sys, const StructureState& st,
                       const FullStepFields& full, bool cells, const std::vector<int>* nodes, bool small_strain) {
  FieldSet fs;
  // References into the arrays are held while later arrays are added: no reallocation.
  fs.point.reserve(12);
  fs.cell.reserve(24);
  const std::size_t nn = nodes ? nodes->size() : static_cast<std::size_t>(sys.num_nodes);
  if (nodes) {
    // A compact frame: every node row of the frame must be of its nodes, and it has no cells.
    const std::vector<double>* rows[] = {&st.ux, &st.uy, &st.uz, &st.dx, &st.dy, &st.dz, &st.t1x, &st.t1y,
                                         &st.t1z, &st.r1x, &st.r1y, &st.r1z, &full.v[0], &full.v[1], &full.v[2],
                                         &full.v[3], &full.v[4], &full.v[5], &full.rf[0], &full.rf[1], &full.rf[2],
                                         &full.rf[3], &full.rf[4], &full.rf[5]};
    for (const std::vector<double>* r : rows)
      if (r->size() != nn)
        throw std::logic_error("output_fields: a node row of " + std::to_string(r->size()) + " values in a frame of " +
                               std::to_string(nn) + " nodes");
    if (cells) throw std::logic_error("output_fields: cell arrays asked of a frame that holds some nodes only");
  }
  const auto node_of = [nodes](std::size_t k) { return nodes ? static_cast<std::size_t>((*nodes)[k]) : k; };
  std::vector<double>& ids = fs.add_point("NodeId", 1, nn).values;
  for (std::size_t k = 0; k < nn; ++k) ids[k] = static_cast<double>(model.nodes.id[node_of(k)]);
  // Nodal vectors in global components.
  const auto vector = [&](const char* name) -> std::vector<double>& {
    FieldArray& a = fs.add_point(name, 3, nn);
    a.component_names = kXyz;
    return a.values;
  };
  std::vector<double>& u = vector("U");
  for (std::size_t k = 0; k < nn; ++k) {
    u[3 * k] = st.ux[k];
    u[3 * k + 1] = st.uy[k];
    u[3 * k + 2] = st.uz[k];
  }
  rotations(sys, st, nodes, vector("UR"));
  interleave(&full.v[0], vector("V"));
  interleave(&full.v[3], vector("VR"));
  interleave(&full.rf[0], vector("RF"));
  interleave(&full.rf[3], vector("RM"));
  if (nodes) return fs;  // what history rows read; contact forces are field output
  if (!st.contact_normal.empty()) {  // contact forces on the nodes (Abaqus CNORMF, CSHEARF)
    vector("CNORMF") = st.contact_normal;
    vector("CSHEARF") = st.contact_shear;
    // Contact pressure (discretization/contact.hpp, contact_pressure).
    std::vector<double>& p = fs.add_point("CPRESS", 1, nn).values;
    for (int n = 0; n < sys.num_nodes; ++n)
      p[n] = contact_pressure(sys.contact, n, &st.contact_normal[3 * static_cast<std::size_t>(n)]);
  }
  if (cells) add_cell_fields(model, sys, st, full, small_strain, fs);
  return fs;
}

}  // namespace halfstep
