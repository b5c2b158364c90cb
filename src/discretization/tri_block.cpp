// The FPM triangles as an element block family (element_blocks.hpp): their internal work,
// sizes, arrays and cell output (Abaqus's S3 section forces and surface stresses).
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "core/forall.hpp"
#include "core/node_slots.hpp"
#include "discretization/element_blocks.hpp"
#include "discretization/solid_mesh.hpp"
#include "discretization/tri_block.hpp"
#include "elements/fpm_tri.hpp"
#include "elements/registry.hpp"

namespace halfstep {

TriMesh TriMesh::build(const Model& model, RotatingMassContribution& contrib) {
  TriMesh tm;
  const int nn = model.nodes.size();
  const bool tris = std::any_of(model.elements.kind.begin(), model.elements.kind.end(),
                                [](int k) { return element_kind(k).family == ElementFamily::FpmShell; });
  contrib.reset(tris ? nn : 0);
  std::vector<int> section_of(tris ? static_cast<std::size_t>(model.elements.size()) : 0, -1);
  std::vector<const Material*> material_of;  // per FPM section
  for (const ShellSection& sec : model.sections) {
    if (!sec.has_fpm()) continue;
    const Material& mat = model.materials.at(sec.material);
    const int index = static_cast<int>(tm.constants.size());
    const SolidMaterial<double> law = solid_material_of(mat, scaled_identity(1.0));
    tm.constants.push_back(make_tri_section(sec.thickness, mat.youngs, mat.poisson, sec.thickness_points,
                                            mat.plastic() ? &law : nullptr));
    material_of.push_back(&mat);
    if (tris)
      for (int e : model.elsets.at(sec.elset).members) section_of[static_cast<std::size_t>(e)] = index;
  }
  int most_state = tri_state_size(0);
  for (int e = 0; tris && e < model.elements.size(); ++e) {
    const auto k = static_cast<std::size_t>(e);
    if (element_kind(model.elements.kind[k]).family != ElementFamily::FpmShell) continue;
    const int s = section_of[k];  // the reader gave every FPM triangle an FPM *SHELL SECTION
    const Material& mat = *material_of[static_cast<std::size_t>(s)];
    const TriConstants<double>& tc = tm.constants[static_cast<std::size_t>(s)];
    const int* c = model.elements.nodes_of(e);
    const auto pos = [&](int n) {
      const auto q = static_cast<std::size_t>(n);
      return Vec3<double>{model.nodes.x[q], model.nodes.y[q], model.nodes.z[q]};
    };
    const Vec3<double> r2 = pos(c[1]) - pos(c[0]), r3 = pos(c[2]) - pos(c[0]);
    const Vec3<double> n = normalized(cross(r2, r3));
    const Vec3<double> e1 = shell_default_e1(n), e2 = cross(n, e1);
    const double x[3] = {0, dot(r2, e1), dot(r3, e1)}, y[3] = {0, dot(r2, e2), dot(r3, e2)};
    const double area = 0.5 * norm(cross(r2, r3));
    tm.model_element.push_back(e);
    for (int a = 0; a < 3; ++a) tm.conn.push_back(c[a]);
    tm.section.push_back(s);
    tm.edge2x.push_back(r2.x);
    tm.edge2y.push_back(r2.y);
    tm.edge2z.push_back(r2.z);
    tm.edge3x.push_back(r3.x);
    tm.edge3y.push_back(r3.y);
    tm.edge3z.push_back(r3.z);
    tm.e1x.push_back(e1.x);
    tm.e1y.push_back(e1.y);
    tm.e1z.push_back(e1.z);
    tm.area0.push_back(area);
    tm.element_dt.push_back(fpm_tri_stable_dt(tc, mat.density, x, y));
    most_state = std::max(most_state, tri_state_size(tc.section_points, tc.plastic != 0));
    const double t = tc.thickness, m = mat.density * t * area / 3;
    const double j = m * std::max(t * t / 12, kTriRotaryScale * area);
    for (int a = 0; a < 3; ++a) contrib.add(c[a], m, j, mat.alpha);
    contrib.total_mass += 3 * m;
    contrib.energy_per_unit_strain += 0.5 * mat.youngs * t * area;
  }
  tm.num_elements = static_cast<int>(tm.model_element.size());
  tm.state_size = most_state;
  if (tm.num_elements > 0) invert_connectivity(tm.conn, nn, tm.node_slot_ptr, tm.node_slots);
  return tm;
}

std::vector<double> TriMesh::initial_state() const {
  const TriMesh& tm = *this;
  std::vector<double> state(static_cast<std::size_t>(tm.state_size) * tm.num_elements, 0.0);
  for (int e = 0; e < tm.num_elements; ++e)
    tri_initial_state(Vec3<double>{tm.edge2x[e], tm.edge2y[e], tm.edge2z[e]},
                      Vec3<double>{tm.edge3x[e], tm.edge3y[e], tm.edge3z[e]},
                      Vec3<double>{tm.e1x[e], tm.e1y[e], tm.e1z[e]}, tm.state_size,
                      TriStateRef<double>{state.data() + e, tm.num_elements});
  return state;
}

const BlockFamily& tri_block_family();

namespace {

/// FPM triangles: Abaqus S3 section forces in the element's DCS (initially Abaqus's default
/// local axes, then convected): SF1-SF3 = N11, N22, N12; SM1-SM3 = M11, M22, M12 per unit
/// length; the stresses at the bottom and top section points.
void tri_cells(CellContext& c, int cell0) {
  const Model& model = c.model;
  const StructureSystem& sys = c.sys;
  const StructureState& st = c.st;
  FieldSet& fs = c.fs;
  const int nt = sys.mesh<TriMesh>().num_elements;
  const int nc = c.nc;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  FieldArray& top_array = fs.add_cell("S_top", 3, nc, nan);
  FieldArray& bottom_array = fs.add_cell("S_bottom", 3, nc, nan);
  top_array.component_names = {"S11", "S22", "S12"};
  bottom_array.component_names = {"S11", "S22", "S12"};
  std::vector<double>& stop = top_array.values;
  std::vector<double>& sbot = bottom_array.values;
  const TriMesh& t = sys.mesh<TriMesh>();
  for (int e = 0; e < nt; ++e) {
    const int cell = cell0 + e;
    const TriStateRef<const double> s{st.row<TriMesh>().state.data() + e, nt};
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

/// The triangles of range through TriElementBody (their internal work and its plastic part;
/// follower pressures into the family's pressure slots).
ElementSums tri_forces(const HostPass& p, ElementRange range) {
  const TriMesh& t = p.sys.mesh<TriMesh>();
  StructureState& st = p.st;
  RowFamilyState& r = st.row<TriMesh>();
  int begin = 0, end = 0;
  range_bounds(range, t.boundary, t.num_elements, begin, end);
  if (end <= begin) return {0.0, 0.0, 0.0};
  const TriView<double> v{t.num_elements, t.conn.data(), t.section.data(), t.constants.data(), t.edge2x.data(),
                          t.edge2y.data(), t.edge2z.data(), t.edge3x.data(), t.edge3y.data(), t.edge3z.data(),
                          st.ux.data(), st.uy.data(), st.uz.data(), st.t1x.data(), st.t1y.data(), st.t1z.data(),
                          st.dx.data(), st.dy.data(), st.dz.data(), r.state.data(), r.force.data(),
                          r.pressure.empty() ? nullptr : r.pressure.data(),
                          element_pressure_offset(p.sys, tri_block_family())};
  double sum[2];
  if (t.any_plastic())
    forall_sum<2>(begin, end, p.threads, TriElementBody<double, true>{v, p.drive, p.tau}, sum);
  else
    forall_sum<2>(begin, end, p.threads, TriElementBody<double, false>{v, p.drive, p.tau}, sum);
  return {sum[0], 0.0, sum[1]};
}

/// Sizes or clears the triangles' follower-pressure slots (3 per corner).
void tri_begin_step(const StructureSystem& sys, StructureState& st, bool have_pressure) {
  std::vector<double>& pressure = st.row<TriMesh>().pressure;
  if (have_pressure) pressure.assign(9 * static_cast<std::size_t>(sys.mesh<TriMesh>().num_elements), 0.0);
  else pressure.clear();
}

/// Node n's triangle corners (force and moment, 6 values each), then their pressure forces.
void tri_gather(const StructureSystem& sys, const StructureState& st, int n, double fi[6], double fp[3]) {
  const TriMesh& t = sys.mesh<TriMesh>();
  if (t.num_elements == 0) return;
  const RowFamilyState& r = st.row<TriMesh>();
  add_slot_forces6(t.node_slot_ptr.data(), t.node_slots.data(), r.force.data(), n, fi);
  if (!r.pressure.empty()) add_slot_forces3(t.node_slot_ptr.data(), t.node_slots.data(), r.pressure.data(), n, fp);
}

/// The FPM triangles of share (restrict_row_mesh) with their reference edges, DCS axis and area.
void tri_restrict_mesh(const StructureSystem& whole, const ElementShare& share, const std::vector<int>& node_local,
                        StructureSystem& s) {
  const TriMesh& g = whole.mesh<TriMesh>();
  s.mesh<TriMesh>() = restrict_row_mesh(g, share, node_local, s.num_nodes, [&g](TriMesh& m, std::size_t k) {
    m.edge2x.push_back(g.edge2x[k]);
    m.edge2y.push_back(g.edge2y[k]);
    m.edge2z.push_back(g.edge2z[k]);
    m.edge3x.push_back(g.edge3x[k]);
    m.edge3y.push_back(g.edge3y[k]);
    m.edge3z.push_back(g.edge3z[k]);
    m.e1x.push_back(g.e1x[k]);
    m.e1y.push_back(g.e1y[k]);
    m.e1z.push_back(g.e1z[k]);
    m.area0.push_back(g.area0[k]);
  });
}

/// A triangle's mass rho t A (or volume t A), a third to each corner (as the system build
/// lumps it).
void tri_lumped_mass(const Model& model, const StructureSystem& sys, const ElementBlock&, int e, bool volume, bool,
                     std::vector<std::pair<int, double>>& out) {
  const TriMesh& m = sys.mesh<TriMesh>();
  const auto k = static_cast<std::size_t>(e);
  // TriMesh::constants number the deck's *SHELL SECTIONs that FPM triangles take, in deck order.
  int index = m.section[k];
  const ShellSection* section = nullptr;
  for (const ShellSection& sec : model.sections)
    if (sec.has_fpm() && index-- == 0) {
      section = &sec;
      break;
    }
  const double density = volume ? 1.0 : section ? model.materials.at(section->material).density : 0.0;
  const double third = density * m.constants[static_cast<std::size_t>(m.section[k])].thickness * m.area0[k] / 3;
  for (int a = 0; a < 3; ++a) out.emplace_back(m.conn[3 * k + static_cast<std::size_t>(a)], third);
}

}  // namespace

/// The FPM triangles' table (element_blocks.cpp lists it).
const BlockFamily& tri_block_family() {
  using Rows = RowState<TriMesh>;  // its state is one store of rows
  static const BlockFamily family{
      "FPM triangle",
      [](const StructureSystem& sys) { return sys.mesh<TriMesh>().num_elements; },
      [](const StructureSystem& sys, const StructureState& st, int e) {
        return st.row<TriMesh>().state[static_cast<std::size_t>(kTriWork) * sys.mesh<TriMesh>().num_elements + e];
      },
      [](const StructureSystem& sys, int e) {
        const TriMesh& m = sys.mesh<TriMesh>();
        return m.constants[static_cast<std::size_t>(m.section[e])].thickness * m.area0[static_cast<std::size_t>(e)];
      },
      [](const StructureSystem& sys) {
        const TriMesh& m = sys.mesh<TriMesh>();
        return vector_bytes(m.model_element) + vector_bytes(m.conn) + vector_bytes(m.section) + vector_bytes(m.edge2x) * 6 + vector_bytes(m.e1x) * 3 +
               vector_bytes(m.area0) + vector_bytes(m.element_dt) + vector_bytes(m.node_slot_ptr) + vector_bytes(m.node_slots);
      },
      [](const StructureSystem& sys) { return sys.mesh<TriMesh>().constants.size(); },
      [](const Model& model, const StructureSystem&, const ElementBlock& b) {
        return count_and_type(model, b, " (FPM triangle)");
      },
      [](const StructureSystem& sys, const StructureState&) { return sys.mesh<TriMesh>().any_plastic(); },
      true,
      tri_cells,
      tri_forces,
      tri_begin_step,
      tri_gather,
      PressureTable::Element,
      tri_restrict_mesh,
      Rows::restrict_state,
      Rows::frame_size,
      Rows::frame_pack,
      Rows::frame_unpack,
      nullptr,  // the FPM increment keeps its undeformed bound
      nullptr,  // mass scaling refuses them
      tri_lumped_mass,
      [](StructureSystem& sys) -> std::vector<double>& { return sys.mesh<TriMesh>().element_dt; },
      TriMesh::kKey,
      // Each increment's round-off strain adds to the stresses, so the noise energy grows like
      // n^(3/2) ulp^2 over n increments: 512 ulp covers the first thousand increments of a
      // load ramped up from zero (a pinched hemisphere at 1e-3 of its load tripped the 64-ulp
      // floor at increment 140 with 2e-21 of noise).
      512};
  return family;
}

}  // namespace halfstep
