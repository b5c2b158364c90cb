#include "discretization/beam_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "core/node_slots.hpp"
#include "discretization/solid_mesh.hpp"  // solid_material_of

namespace halfstep {

BeamMesh build_beam_mesh(const Model& model, RotatingMassContribution& contrib) {
  BeamMesh bm;
  const int nn = model.nodes.size();
  const bool beams = std::any_of(model.elements.beam.begin(), model.elements.beam.end(), [](std::uint8_t b) { return b != 0; });
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
    if (!model.elements.beam[k]) continue;
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

std::vector<double> initial_beam_state(const BeamMesh& bm) {
  std::vector<double> state(static_cast<std::size_t>(bm.state_size) * bm.num_elements, 0.0);
  for (int e = 0; e < bm.num_elements; ++e)
    beam_initial_state(Vec3<double>{bm.n1x[e], bm.n1y[e], bm.n1z[e]},
                       Vec3<double>{bm.chord0x[e], bm.chord0y[e], bm.chord0z[e]}, bm.state_size,
                       BeamStateRef<double>{state.data() + e, bm.num_elements});
  return state;
}

}  // namespace halfstep
