// The FPM beams as an element block family (element_blocks.hpp): their internal work,
// sizes, arrays and cell output (Abaqus's beam section forces and moments).
#include <string>
#include <vector>

#include "core/forall.hpp"
#include "discretization/beam_pass.hpp"
#include "discretization/element_blocks.hpp"
#include "elements/fpm_beam.hpp"

namespace halfstep {

namespace {

/// FPM beams: Abaqus beam section forces (SF1 axial, SF2 and SF3 shear along n1 and n2; SM1
/// and SM2 bending about n1 and n2, SM3 the torque, at the element's middle).
void beam_cells(CellContext& c, int cell0) {
  const Model& model = c.model;
  const StructureSystem& sys = c.sys;
  const StructureState& st = c.st;
  const int nb = sys.beam.num_elements;
  std::vector<double>& sf = *c.sf3;
  std::vector<double>& sm = *c.sm3;
  const BeamMesh& b = sys.beam;
  for (int e = 0; e < nb; ++e) {
    const int cell = cell0 + e;
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

/// The beams of range through BeamElementBody (their internal work and its plastic part).
std::array<double, 3> beam_forces(const HostPass& p, ElementRange range) {
  const BeamMesh& b = p.sys.beam;
  StructureState& st = p.st;
  int begin = 0, end = 0;
  range_bounds(range, b.boundary, b.num_elements, begin, end);
  if (end <= begin) return {0.0, 0.0, 0.0};
  const BeamView<double> v{b.num_elements, b.conn.data(), b.section.data(), b.constants.data(), b.chord0x.data(),
                           b.chord0y.data(), b.chord0z.data(), st.ux.data(), st.uy.data(), st.uz.data(),
                           st.t1x.data(), st.t1y.data(), st.t1z.data(), st.dx.data(), st.dy.data(), st.dz.data(),
                           st.beam_state.data(), st.beam_force.data()};
  double sum[2];
  forall_sum<2>(begin, end, p.threads, BeamElementBody<double>{v}, sum);
  return {sum[0], 0.0, sum[1]};
}

/// Node n's beam ends (force and moment, 6 values each).
void beam_gather(const StructureSystem& sys, const StructureState& st, int n, double fi[6], double*) {
  if (sys.beam.num_elements > 0)
    add_slot_forces6(sys.beam.node_slot_ptr.data(), sys.beam.node_slots.data(), st.beam_force.data(), n, fi);
}

/// The beams of share (restrict_fixed_mesh) with their reference length, chord and n1.
void beam_restrict_mesh(const StructureSystem& whole, const ElementShare& share, const std::vector<int>& node_local,
                        StructureSystem& s) {
  const BeamMesh& g = whole.beam;
  s.beam = restrict_fixed_mesh<2>(g, share, node_local, s.num_nodes, [&g](BeamMesh& m, std::size_t k) {
    m.length0.push_back(g.length0[k]);
    m.chord0x.push_back(g.chord0x[k]);
    m.chord0y.push_back(g.chord0y[k]);
    m.chord0z.push_back(g.chord0z[k]);
    m.n1x.push_back(g.n1x[k]);
    m.n1y.push_back(g.n1y[k]);
    m.n1z.push_back(g.n1z[k]);
  });
}

}  // namespace

/// The FPM beams' table (element_blocks.cpp lists it).
const BlockFamily& beam_block_family() {
  using Rows = RowState<&StructureSystem::beam, &StructureState::beam_state>;  // its state is one store of rows
  static const BlockFamily family{
      "beam",
      [](const StructureSystem& sys) { return sys.beam.num_elements; },
      [](const StructureSystem& sys, const StructureState& st, int e) {
        return st.beam_state[static_cast<std::size_t>(kBeamWork) * sys.beam.num_elements + e];
      },
      [](const StructureSystem& sys, int e) {
        const BeamMesh& m = sys.beam;
        return m.constants[static_cast<std::size_t>(m.section[e])].area * m.length0[static_cast<std::size_t>(e)];
      },
      [](const StructureSystem& sys) {
        const BeamMesh& m = sys.beam;
        return vector_bytes(m.model_element) + vector_bytes(m.conn) + vector_bytes(m.section) + vector_bytes(m.length0) + vector_bytes(m.chord0x) * 3 +
               vector_bytes(m.n1x) * 3 + vector_bytes(m.element_dt) + vector_bytes(m.node_slot_ptr) + vector_bytes(m.node_slots);
      },
      [](const StructureSystem& sys) { return sys.beam.constants.size(); },
      [](const Model& model, const StructureSystem&, const ElementBlock& b) {
        return count_and_type(model, b, " (FPM beam)");
      },
      [](const StructureSystem& sys, const StructureState&) {
        for (const BeamConstants<double>& b : sys.beam.constants)
          if (b.plastic) return true;
        return false;
      },
      true,
      beam_cells,
      beam_forces,
      [](const StructureSystem&, StructureState&, bool) {},  // beams carry no pressure
      beam_gather,
      PressureTable::None,
      beam_restrict_mesh,
      Rows::restrict_state,
      Rows::frame_size,
      Rows::frame_pack,
      Rows::frame_unpack,
      nullptr,  // the FPM increment keeps its undeformed bound
      nullptr,  // mass scaling refuses them
      nullptr,
      [](StructureSystem& sys) -> std::vector<double>& { return sys.beam.element_dt; },
      "beam"};
  return family;
}

}  // namespace halfstep
