#include "discretization/tri_mesh.hpp"

#include <algorithm>
#include <string>

#include "core/node_slots.hpp"
#include "discretization/solid_mesh.hpp"  // solid_material_of
#include "elements/registry.hpp"

namespace halfstep {

TriMesh build_tri_mesh(const Model& model, RotatingMassContribution& contrib) {
  TriMesh tm;
  const int nn = model.nodes.size();
  const bool tris = std::any_of(model.elements.kind.begin(), model.elements.kind.end(),
                                [](int k) { return element_kind(k).family == ElementFamily::FpmShell; });
  contrib.reset(tris ? nn : 0);
  std::vector<int> section_of(tris ? static_cast<std::size_t>(model.elements.size()) : 0, -1);
  std::vector<const Material*> material_of;  // per FPM section
  for (const ShellSection& sec : model.sections) {
    if (sec.formulation.empty()) continue;
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

std::vector<double> initial_tri_state(const TriMesh& tm) {
  std::vector<double> state(static_cast<std::size_t>(tm.state_size) * tm.num_elements, 0.0);
  for (int e = 0; e < tm.num_elements; ++e)
    tri_initial_state(Vec3<double>{tm.edge2x[e], tm.edge2y[e], tm.edge2z[e]},
                      Vec3<double>{tm.edge3x[e], tm.edge3y[e], tm.edge3z[e]},
                      Vec3<double>{tm.e1x[e], tm.e1y[e], tm.e1z[e]}, tm.state_size,
                      TriStateRef<double>{state.data() + e, tm.num_elements});
  return state;
}

}  // namespace halfstep
