// The FPM triangles as an element block family (element_blocks.hpp): their internal work,
// sizes, arrays and cell output (Abaqus's S3 section forces and surface stresses).
#include <limits>
#include <string>
#include <vector>

#include "core/forall.hpp"
#include "discretization/element_blocks.hpp"
#include "discretization/tri_pass.hpp"
#include "elements/fpm_tri.hpp"

namespace halfstep {

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
  const int nt = sys.tri.num_elements;
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
    const int cell = cell0 + e;
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

/// The triangles of range through TriElementBody (their internal work and its plastic part;
/// follower pressures into st.tri_pressure).
std::array<double, 3> tri_forces(const HostPass& p, ElementRange range) {
  const TriMesh& t = p.sys.tri;
  StructureState& st = p.st;
  int begin = 0, end = 0;
  range_bounds(range, t.boundary, t.num_elements, begin, end);
  if (end <= begin) return {0.0, 0.0, 0.0};
  const TriView<double> v{t.num_elements, t.conn.data(), t.section.data(), t.constants.data(), t.edge2x.data(),
                          t.edge2y.data(), t.edge2z.data(), t.edge3x.data(), t.edge3y.data(), t.edge3z.data(),
                          st.ux.data(), st.uy.data(), st.uz.data(), st.t1x.data(), st.t1y.data(), st.t1z.data(),
                          st.dx.data(), st.dy.data(), st.dz.data(), st.tri_state.data(), st.tri_force.data(),
                          st.tri_pressure.empty() ? nullptr : st.tri_pressure.data(),
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
  if (have_pressure) st.tri_pressure.assign(9 * static_cast<std::size_t>(sys.tri.num_elements), 0.0);
  else st.tri_pressure.clear();
}

/// Node n's triangle corners (force and moment, 6 values each), then their pressure forces.
void tri_gather(const StructureSystem& sys, const StructureState& st, int n, double fi[6], double fp[3]) {
  if (sys.tri.num_elements == 0) return;
  add_slot_forces6(sys.tri.node_slot_ptr.data(), sys.tri.node_slots.data(), st.tri_force.data(), n, fi);
  if (!st.tri_pressure.empty())
    add_slot_forces3(sys.tri.node_slot_ptr.data(), sys.tri.node_slots.data(), st.tri_pressure.data(), n, fp);
}

/// The FPM triangles of share (restrict_fixed_mesh) with their reference edges, DCS axis and area.
void tri_restrict_mesh(const StructureSystem& whole, const ElementShare& share, const std::vector<int>& node_local,
                        StructureSystem& s) {
  const TriMesh& g = whole.tri;
  s.tri = restrict_fixed_mesh<3>(g, share, node_local, s.num_nodes, [&g](TriMesh& m, std::size_t k) {
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

}  // namespace

/// The FPM triangles' table (element_blocks.cpp lists it).
const BlockFamily& tri_block_family() {
  using Rows = RowState<&StructureSystem::tri, &StructureState::tri_state>;  // its state is one store of rows
  static const BlockFamily family{
      "FPM triangle",
      [](const StructureSystem& sys) { return sys.tri.num_elements; },
      [](const StructureSystem& sys, const StructureState& st, int e) {
        return st.tri_state[static_cast<std::size_t>(kTriWork) * sys.tri.num_elements + e];
      },
      [](const StructureSystem& sys, int e) {
        const TriMesh& m = sys.tri;
        return m.constants[static_cast<std::size_t>(m.section[e])].thickness * m.area0[static_cast<std::size_t>(e)];
      },
      [](const StructureSystem& sys) {
        const TriMesh& m = sys.tri;
        return vector_bytes(m.model_element) + vector_bytes(m.conn) + vector_bytes(m.section) + vector_bytes(m.edge2x) * 6 + vector_bytes(m.e1x) * 3 +
               vector_bytes(m.area0) + vector_bytes(m.element_dt) + vector_bytes(m.node_slot_ptr) + vector_bytes(m.node_slots);
      },
      [](const StructureSystem& sys) { return sys.tri.constants.size(); },
      [](const Model& model, const StructureSystem&, const ElementBlock& b) {
        return count_and_type(model, b, " (FPM triangle)");
      },
      [](const StructureSystem& sys, const StructureState&) { return sys.tri.any_plastic(); },
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
      nullptr,
      [](StructureSystem& sys) -> std::vector<double>& { return sys.tri.element_dt; },
      "tri",
      // Each increment's round-off strain adds to the stresses, so the noise energy grows like
      // n^(3/2) ulp^2 over n increments: 512 ulp covers the first thousand increments of a
      // load ramped up from zero (a pinched hemisphere at 1e-3 of its load tripped the 64-ulp
      // floor at increment 140 with 2e-21 of noise).
      512};
  return family;
}

}  // namespace halfstep
