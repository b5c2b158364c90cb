// The FPM beams as an element block family (element_blocks.hpp): their internal work,
// sizes, arrays and cell output (Abaqus's beam section forces and moments).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/forall.hpp"
#include "core/node_slots.hpp"
#include "discretization/beam_block.hpp"
#include "discretization/element_blocks.hpp"
#include "discretization/solid_mesh.hpp"
#include "elements/fpm_beam.hpp"

namespace halfstep {

BeamMesh BeamMesh::build(const Model& model, RotatingMassContribution& contrib) {
  BeamMesh bm;
  const int nn = model.nodes.size();
  const bool beams = std::any_of(model.elements.section.begin(), model.elements.section.end(),
                                 [](SectionKeyword s) { return s == SectionKeyword::Beam; });
  contrib.reset(beams ? nn : 0);
  std::vector<int> section_of(beams ? static_cast<std::size_t>(model.elements.size()) : 0, -1);
  for (std::size_t i = 0; i < model.beam_sections.size(); ++i) {
    const BeamSection& sec = model.beam_sections[i];
    const Material& mat = model.materials.at(sec.material);
    const SolidMaterial<double> law = solid_material_of(mat, scaled_identity(1.0));
    const int shape = sec.shape == BeamSection::Shape::Rect ? kBeamRect : kBeamCirc;
    bm.constants.push_back(make_beam_section(shape, sec.a, sec.b, mat.youngs, mat.poisson, mat.plastic() ? &law : nullptr));
    if (beams)
      for (int e : model.elsets.at(sec.elset).members) section_of[static_cast<std::size_t>(e)] = static_cast<int>(i);
  }
  bool plastic = false;
  for (int e = 0; beams && e < model.elements.size(); ++e) {
    const auto k = static_cast<std::size_t>(e);
    if (model.elements.section[k] != SectionKeyword::Beam) continue;
    const int s = section_of[k];  // validate() gave every beam exactly one section
    const BeamSection& sec = model.beam_sections[static_cast<std::size_t>(s)];
    const Material& mat = model.materials.at(sec.material);
    const BeamConstants<double>& bc = bm.constants[static_cast<std::size_t>(s)];
    const int* c = model.elements.nodes_of(e);
    const auto pos = [&](int n) {
      const auto q = static_cast<std::size_t>(n);
      return Vec3<double>{model.nodes.x[q], model.nodes.y[q], model.nodes.z[q]};
    };
    const Vec3<double> chord = pos(c[1]) - pos(c[0]);
    const double l = norm(chord);
    const Vec3<double> t = (1.0 / l) * chord;
    // Abaqus: n2 = t x n1 (approximate), n1 = n2 x t; an n1 along the beam leaves no plane.
    const Vec3<double> n1a{sec.n1[0], sec.n1[1], sec.n1[2]};
    const Vec3<double> n2 = cross(t, n1a);
    if (!(norm(n2) > 1e-6 * norm(n1a))) {
      const SourceLoc& at = sec.n1_given ? sec.n1_loc : sec.loc;
      throw InputError(at, "*BEAM SECTION: the n1 direction (" + std::to_string(sec.n1[0]) + ", " +
                               std::to_string(sec.n1[1]) + ", " + std::to_string(sec.n1[2]) + ") is parallel to element " +
                               std::to_string(model.elements.id[k]) + " (at " + model.elements.loc[k].str() + ")" +
                               (sec.n1_given ? "" : "; give n1 on the section's second data line"));
    }
    const Vec3<double> n1 = normalized(cross(normalized(n2), t));
    bm.model_element.push_back(e);
    bm.conn.push_back(c[0]);
    bm.conn.push_back(c[1]);
    bm.section.push_back(s);
    bm.length0.push_back(l);
    bm.chord0x.push_back(chord.x);
    bm.chord0y.push_back(chord.y);
    bm.chord0z.push_back(chord.z);
    bm.n1x.push_back(n1.x);
    bm.n1y.push_back(n1.y);
    bm.n1z.push_back(n1.z);
    bm.element_dt.push_back(beam_stable_dt(bc, mat.density, l));
    plastic = plastic || bc.plastic;
    const double m = 0.5 * mat.density * bc.area * l, j = m * beam_rotary_arm(bc, l);
    for (int a = 0; a < 2; ++a) contrib.add(c[a], m, j, mat.alpha);
    contrib.total_mass += 2 * m;
    contrib.energy_per_unit_strain += 0.5 * mat.youngs * bc.area * l;
  }
  bm.num_elements = static_cast<int>(bm.model_element.size());
  bm.state_size = plastic ? kBeamPlasticState : kBeamElasticState;
  if (bm.num_elements > 0) invert_connectivity(bm.conn, nn, bm.node_slot_ptr, bm.node_slots);
  return bm;
}

std::vector<double> BeamMesh::initial_state() const {
  const BeamMesh& bm = *this;
  std::vector<double> state(static_cast<std::size_t>(bm.state_size) * bm.num_elements, 0.0);
  for (int e = 0; e < bm.num_elements; ++e)
    beam_initial_state(Vec3<double>{bm.n1x[e], bm.n1y[e], bm.n1z[e]},
                       Vec3<double>{bm.chord0x[e], bm.chord0y[e], bm.chord0z[e]}, bm.state_size,
                       BeamStateRef<double>{state.data() + e, bm.num_elements});
  return state;
}

namespace {

/// FPM beams: Abaqus beam section forces (SF1 axial, SF2 and SF3 shear along n1 and n2; SM1
/// and SM2 bending about n1 and n2, SM3 the torque, at the element's middle).
void beam_cells(CellContext& c, int cell0) {
  const Model& model = c.model;
  const StructureSystem& sys = c.sys;
  const StructureState& st = c.st;
  const int nb = sys.mesh<BeamMesh>().num_elements;
  std::vector<double>& sf = *c.sf3;
  std::vector<double>& sm = *c.sm3;
  const BeamMesh& b = sys.mesh<BeamMesh>();
  for (int e = 0; e < nb; ++e) {
    const int cell = cell0 + e;
    const BeamStateRef<const double> s{st.row<BeamMesh>().state.data() + e, nb};
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
ElementSums beam_forces(const HostPass& p, ElementRange range) {
  const BeamMesh& b = p.sys.mesh<BeamMesh>();
  StructureState& st = p.st;
  int begin = 0, end = 0;
  range_bounds(range, b.boundary, b.num_elements, begin, end);
  if (end <= begin) return {0.0, 0.0, 0.0};
  const BeamView<double> v{b.num_elements, b.conn.data(), b.section.data(), b.constants.data(), b.chord0x.data(),
                           b.chord0y.data(), b.chord0z.data(), st.ux.data(), st.uy.data(), st.uz.data(),
                           st.t1x.data(), st.t1y.data(), st.t1z.data(), st.dx.data(), st.dy.data(), st.dz.data(),
                           st.row<BeamMesh>().state.data(), st.row<BeamMesh>().force.data()};
  double sum[2];
  forall_sum<2>(begin, end, p.threads, BeamElementBody<double>{v}, sum);
  return {sum[0], 0.0, sum[1]};
}

/// Node n's beam ends (force and moment, 6 values each).
void beam_gather(const StructureSystem& sys, const StructureState& st, int n, double fi[6], double*) {
  const BeamMesh& b = sys.mesh<BeamMesh>();
  if (b.num_elements > 0)
    add_slot_forces6(b.node_slot_ptr.data(), b.node_slots.data(), st.row<BeamMesh>().force.data(), n, fi);
}

/// The beams of share (restrict_row_mesh) with their reference length, chord and n1.
void beam_restrict_mesh(const StructureSystem& whole, const ElementShare& share, const std::vector<int>& node_local,
                        StructureSystem& s) {
  const BeamMesh& g = whole.mesh<BeamMesh>();
  s.mesh<BeamMesh>() = restrict_row_mesh(g, share, node_local, s.num_nodes, [&g](BeamMesh& m, std::size_t k) {
    m.length0.push_back(g.length0[k]);
    m.chord0x.push_back(g.chord0x[k]);
    m.chord0y.push_back(g.chord0y[k]);
    m.chord0z.push_back(g.chord0z[k]);
    m.n1x.push_back(g.n1x[k]);
    m.n1y.push_back(g.n1y[k]);
    m.n1z.push_back(g.n1z[k]);
  });
}

/// A beam's mass rho A l (or volume A l), half to each end (as the system build lumps it).
void beam_lumped_mass(const Model& model, const StructureSystem& sys, const ElementBlock&, int e, bool volume, bool,
                      std::vector<std::pair<int, double>>& out) {
  const BeamMesh& m = sys.mesh<BeamMesh>();
  const auto k = static_cast<std::size_t>(e);
  const auto s = static_cast<std::size_t>(m.section[k]);  // BeamMesh::constants follow the deck's sections
  const double density = volume ? 1.0 : model.materials.at(model.beam_sections[s].material).density;
  const double half = 0.5 * density * m.constants[s].area * m.length0[k];
  for (int a = 0; a < 2; ++a) out.emplace_back(m.conn[2 * k + static_cast<std::size_t>(a)], half);
}

}  // namespace

/// The FPM beams' table (element_blocks.cpp lists it).
const BlockFamily& beam_block_family() {
  using Rows = RowState<BeamMesh>;  // its state is one store of rows
  static const BlockFamily family{
      "beam",
      [](const StructureSystem& sys) { return sys.mesh<BeamMesh>().num_elements; },
      [](const StructureSystem& sys, const StructureState& st, int e) {
        return st.row<BeamMesh>().state[static_cast<std::size_t>(kBeamWork) * sys.mesh<BeamMesh>().num_elements + e];
      },
      [](const StructureSystem& sys, int e) {
        const BeamMesh& m = sys.mesh<BeamMesh>();
        return m.constants[static_cast<std::size_t>(m.section[e])].area * m.length0[static_cast<std::size_t>(e)];
      },
      [](const StructureSystem& sys) {
        const BeamMesh& m = sys.mesh<BeamMesh>();
        return vector_bytes(m.model_element) + vector_bytes(m.conn) + vector_bytes(m.section) + vector_bytes(m.length0) + vector_bytes(m.chord0x) * 3 +
               vector_bytes(m.n1x) * 3 + vector_bytes(m.element_dt) + vector_bytes(m.node_slot_ptr) + vector_bytes(m.node_slots);
      },
      [](const StructureSystem& sys) { return sys.mesh<BeamMesh>().constants.size(); },
      [](const Model& model, const StructureSystem&, const ElementBlock& b) {
        return count_and_type(model, b, " (FPM beam)");
      },
      [](const StructureSystem& sys, const StructureState&) {
        for (const BeamConstants<double>& b : sys.mesh<BeamMesh>().constants)
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
      beam_lumped_mass,
      [](StructureSystem& sys) -> std::vector<double>& { return sys.mesh<BeamMesh>().element_dt; },
      BeamMesh::kKey};
  return family;
}

}  // namespace halfstep
