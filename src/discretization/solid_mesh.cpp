#include "discretization/solid_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "core/forall.hpp"
#include "core/node_slots.hpp"
#include "core/threads.hpp"
#include "core/vec3.hpp"
#include "discretization/nurbs_patch.hpp"
#include "elements/registry.hpp"
#include "materials/material_law.hpp"

namespace halfstep {

int SolidMesh::group_of(int e) const {
  for (std::size_t g = 0; g < groups.size(); ++g)
    if (e < groups[g].first + groups[g].count) return static_cast<int>(g);
  return -1;
}

int SolidMesh::conn_start(int e) const {
  const SolidGroup& g = groups[static_cast<std::size_t>(group_of(e))];
  return g.conn_offset + (e - g.first) * g.nodes_per_element;
}

std::size_t SolidMesh::first_point(int e) const {
  const SolidGroup& g = groups[static_cast<std::size_t>(group_of(e))];
  return g.first_point + static_cast<std::size_t>(e - g.first) * static_cast<std::size_t>(element_kind(g.kind).points);
}

void assign_points(SolidMesh& sm) {
  std::size_t next = 0;
  for (SolidGroup& g : sm.groups) {
    g.first_point = next;
    next += static_cast<std::size_t>(g.count) * static_cast<std::size_t>(element_kind(g.kind).points);
  }
  sm.num_points = next;
  // One component count for the whole store: the most any (kind, material) pair present needs.
  sm.state_size = 0;
  for (const SolidGroup& g : sm.groups)
    visit_continuum_kind(g.kind, [&](auto kind) {
      using K = decltype(kind);
      for (int e = g.first; e < g.first + g.count; ++e)
        sm.state_size =
            std::max(sm.state_size, point_state_size<K>(sm.materials[static_cast<std::size_t>(sm.material[static_cast<std::size_t>(e)])]));
    });
}

Mat3<double> orientation_axes(const Orientation& o) {
  const Vec3<double> a{o.a[0], o.a[1], o.a[2]}, b{o.b[0], o.b[1], o.b[2]};
  Vec3<double> e[3];
  e[0] = normalized(a);
  e[2] = normalized(cross(a, b));
  e[1] = cross(e[2], e[0]);
  if (o.extra_axis >= 1 && o.extra_axis <= 3 && o.extra_angle != 0.0) {
    // Turn the two other local axes about the chosen one, right-handed.
    const int i = o.extra_axis % 3, j = (o.extra_axis + 1) % 3;
    const double c = std::cos(o.extra_angle * M_PI / 180.0), s = std::sin(o.extra_angle * M_PI / 180.0);
    const Vec3<double> ei = c * e[i] + s * e[j], ej = c * e[j] - s * e[i];
    e[i] = ei;
    e[j] = ej;
  }
  Mat3<double> r;
  for (int k = 0; k < 3; ++k) {
    r(k, 0) = e[k].x;
    r(k, 1) = e[k].y;
    r(k, 2) = e[k].z;
  }
  return r;
}

namespace {

/// The law and its constants of mat, without its expansion.
SolidMaterial<double> mechanical_material(const Material& mat, const Mat3<double>& axes) {
  try {
    if (mat.plastic()) {  // on isotropic *ELASTIC: model/validate.cpp refuses any other elasticity
      try {
        return j2_plastic(mat.youngs, mat.poisson, mat.density, mat.plastic_stress.data(), mat.plastic_strain.data(),
                          static_cast<int>(mat.plastic_stress.size()));
      } catch (const std::invalid_argument& e) {
        throw InputError(mat.plastic_loc, "material '" + mat.name + "': " + e.what());
      }
    }
    if (mat.has_hyperelastic)
      return mat.hyperelastic_log ? neo_hookean_log(mat.c10, mat.d1, mat.density)
                                  : neo_hookean(mat.c10, mat.d1, mat.density);
    switch (mat.elastic_type) {
      case ElasticType::Isotropic: return svk_isotropic(mat.youngs, mat.poisson, mat.density);
      case ElasticType::EngineeringConstants:
        return orthotropic_engineering(mat.elastic_constants.data(), mat.density, axes);
      case ElasticType::Orthotropic: return orthotropic_stiffness(mat.elastic_constants.data(), mat.density, axes);
      case ElasticType::Anisotropic: return anisotropic_stiffness(mat.elastic_constants.data(), mat.density, axes);
    }
  } catch (const std::invalid_argument& e) {
    throw InputError(mat.elastic_loc, "material '" + mat.name + "': " + e.what());
  }
  throw InputError(mat.loc, "material '" + mat.name + "' has no elasticity");
}

}  // namespace

SolidMaterial<double> solid_material_of(const Material& mat, const Mat3<double>& axes) {
  SolidMaterial<double> m = mechanical_material(mat, axes);
  if (mat.has_expansion) {
    for (int i = 0; i < 3; ++i) m.expansion[i] = mat.expansion[static_cast<std::size_t>(i)];
    // Orthotropic expansion acts along the section's orientation, whatever the elasticity.
    if (!(mat.expansion[0] == mat.expansion[1] && mat.expansion[1] == mat.expansion[2])) m.axes = axes;
  }
  return m;
}

namespace {


/// sm.element_data for the elements of the model's NURBS patches: per Bézier element its
/// control points' weights, then its 1D extraction operators, one per parametric direction
/// (the layout of nurbs_detail::NurbsQuad::kElementData and NurbsHex::kElementData), from the
/// patch's extraction; the element's nodes must be the extraction's control points (the
/// reader wrote them from the same patch).
void fill_element_data(const Model& model, SolidMesh& sm) {
  if (model.nurbs_patches.empty() && model.adhesions.empty()) return;
  std::vector<int> solid_of(static_cast<std::size_t>(model.elements.size()), -1);
  for (int e = 0; e < sm.num_elements; ++e) solid_of[static_cast<std::size_t>(sm.model_element[static_cast<std::size_t>(e)])] = e;
  std::vector<std::vector<double>> data(static_cast<std::size_t>(sm.num_elements));
  // Adhesion edges: the reader made their data from the faces they lie on.
  for (const AdhesionDef& a : model.adhesions)
    for (std::size_t i = 0; i < a.elements.size(); ++i) {
      const int e = solid_of[static_cast<std::size_t>(a.elements[i])];
      if (e >= 0) data[static_cast<std::size_t>(e)].assign(a.data.begin() + static_cast<std::ptrdiff_t>(a.data_ptr[i]),
                                                          a.data.begin() + static_cast<std::ptrdiff_t>(a.data_ptr[i + 1]));
    }
  for (const NurbsPatchDef& d : model.nurbs_patches) {
    const NurbsPatch patch = patch_of(model, d);
    validate(patch, d.loc);
    const BezierMesh bm = extract_bezier(patch, false);
    if (bm.elements != d.num_elements)
      throw InputError(d.loc, "NURBS patch " + d.name + ": " + std::to_string(d.num_elements) +
                                  " elements in the model, " + std::to_string(bm.elements) + " in its extraction");
    for (int k = 0; k < bm.elements; ++k) {
      const int me = d.first_element + k;
      const int e = solid_of[static_cast<std::size_t>(me)];
      if (e < 0) continue;  // not in this (sub)domain
      const int* c = bm.connectivity.data() + static_cast<std::size_t>(k) * bm.nb;
      if (model.elements.count_of(me) != bm.nb)
        throw InputError(d.loc, "NURBS patch " + d.name + ": element " + std::to_string(model.elements.id[static_cast<std::size_t>(me)]) +
                                    " has " + std::to_string(model.elements.count_of(me)) + " nodes, its degrees need " +
                                    std::to_string(bm.nb));
      std::vector<double>& v = data[static_cast<std::size_t>(e)];
      for (int a = 0; a < bm.nb; ++a) {
        if (model.elements.nodes_of(me)[a] != d.nodes[static_cast<std::size_t>(c[a])])
          throw InputError(d.loc, "NURBS patch " + d.name + ": element " +
                                      std::to_string(model.elements.id[static_cast<std::size_t>(me)]) +
                                      " does not hold the control points of its knot spans");
        v.push_back(d.weights[static_cast<std::size_t>(c[a])]);
      }
      for (int dir = 0; dir < d.dim; ++dir) {
        const Extraction1D& x = bm.dir[static_cast<std::size_t>(dir)];
        const double* op = x.op(bm.dir_element[static_cast<std::size_t>(k) * d.dim + dir]);
        v.insert(v.end(), op, op + (x.degree + 1) * (x.degree + 1));
      }
    }
  }
  sm.element_data_ptr.assign(static_cast<std::size_t>(sm.num_elements) + 1, 0);
  for (int e = 0; e < sm.num_elements; ++e) {
    const std::vector<double>& v = data[static_cast<std::size_t>(e)];
    sm.element_data_ptr[static_cast<std::size_t>(e) + 1] = sm.element_data_ptr[static_cast<std::size_t>(e)] + v.size();
    sm.element_data.insert(sm.element_data.end(), v.begin(), v.end());
  }
}

}  // namespace

namespace {

/// The solid mesh's "materials": each *SOLID SECTION's, each spring's or dashpot's (massless,
/// holding the stiffness or coefficient and the 0-based dofs, elements/discrete.hpp) and each
/// adhesion's (the law, the substrate and the thickness of the planar elements whose faces
/// they are); returns each model element's index into them (-1: none).
std::vector<int> add_materials(const Model& model, SolidMesh& sm) {
  std::vector<int> material_of(static_cast<std::size_t>(model.elements.size()), -1);
  for (const SolidSection& sec : model.solid_sections) {
    const Material& mat = model.materials.at(sec.material);
    const Mat3<double> axes =
        sec.orientation.empty() ? scaled_identity(1.0) : orientation_axes(model.orientations.at(sec.orientation));
    const int index = static_cast<int>(sm.materials.size());
    sm.materials.push_back(solid_material_of(mat, axes));
    sm.materials.back().thickness = sec.thickness;
    sm.material_name.push_back(sec.elset + "/" + sec.material);
    sm.alpha.push_back(mat.alpha);
    sm.beta.push_back(mat.beta);
    for (int e : model.elsets.at(sec.elset).members) material_of[static_cast<std::size_t>(e)] = index;
  }
  for (const DiscreteSection& sec : model.discrete_sections) {
    const int index = static_cast<int>(sm.materials.size());
    SolidMaterial<double> m;
    m.discrete = sec.value;
    m.dof1 = sec.dof1 > 0 ? sec.dof1 - 1 : 0;
    m.dof2 = sec.dof2 > 0 ? sec.dof2 - 1 : 0;
    m.hardening_points = static_cast<int>(sec.table_disp.size());  // nonlinear springs: the table
    for (std::size_t k = 0; k < sec.table_disp.size(); ++k) {
      m.yield_stress[k] = sec.table_force[k];
      m.yield_strain[k] = sec.table_disp[k];
    }
    sm.materials.push_back(m);
    sm.material_name.push_back(sec.elset + (sec.dashpot ? "/*DASHPOT" : "/*SPRING"));
    sm.alpha.push_back(0.0);
    sm.beta.push_back(0.0);
    for (int e : model.elsets.at(sec.elset).members) material_of[static_cast<std::size_t>(e)] = index;
  }

  // One thickness per *ADHESION.
  for (const AdhesionDef& a : model.adhesions) {
    const int index = static_cast<int>(sm.materials.size());
    SolidMaterial<double> m;
    AdhesionConstants& c = m.adhesion;
    c.law = a.law == AdhesionDef::Law::LennardJones ? kAdhesionLennardJones : kAdhesionPenalty;
    c.scale = c.law == kAdhesionLennardJones ? a.hamaker / (2.0 * M_PI * a.r0 * a.r0 * a.r0) : 0.0;
    c.r0 = a.r0;
    c.r_min = a.r_min;
    c.penalty = a.penalty;
    c.point[0] = a.point[0];
    c.point[1] = a.point[1];
    c.normal[0] = a.normal[0];
    c.normal[1] = a.normal[1];
    double thickness = -1;
    for (const int parent : a.parents) {
      const int pm = material_of[static_cast<std::size_t>(parent)];
      if (pm < 0) continue;  // reported as the parent's missing section
      const double t = sm.materials[static_cast<std::size_t>(pm)].thickness;
      if (thickness >= 0 && t != thickness)
        throw InputError(a.loc, "*ADHESION " + a.name + ": surface '" + a.surface +
                                    "' spans elements of different section thicknesses; give each thickness its own *ADHESION");
      thickness = t;
    }
    m.thickness = thickness > 0 ? thickness : 1.0;
    sm.materials.push_back(m);
    sm.material_name.push_back(a.name + "/*ADHESION");
    sm.alpha.push_back(0.0);
    sm.beta.push_back(0.0);
    for (int e : a.elements) material_of[static_cast<std::size_t>(e)] = index;
  }
  return material_of;
}

/// One group per continuum kind present, in registry order, and the checks on kinds that
/// cannot be mixed (planar with 3-D, axisymmetric with plane stress or strain).
void add_groups(const Model& model, const std::vector<int>& kind_count, const std::vector<int>& material_of,
                SolidMesh& sm) {
  for (int kind = 0; kind < num_element_kinds(); ++kind) {
    if (element_kind(kind).family != ElementFamily::Continuum || kind_count[static_cast<std::size_t>(kind)] == 0) continue;
    SolidGroup g;
    g.kind = kind;
    g.first = static_cast<int>(sm.model_element.size());
    g.conn_offset = static_cast<int>(sm.conn.size());
    g.nodes_per_element = element_kind(kind).nodes;
    for (int e = 0; e < model.elements.size(); ++e) {
      if (model.elements.kind[static_cast<std::size_t>(e)] != kind) continue;
      sm.model_element.push_back(e);
      sm.material.push_back(material_of[static_cast<std::size_t>(e)]);
      const int* c = model.elements.nodes_of(e);
      sm.conn.insert(sm.conn.end(), c, c + g.nodes_per_element);
    }
    g.count = static_cast<int>(sm.model_element.size()) - g.first;
    if (g.count > 0) {
      sm.groups.push_back(g);
      sm.planar |= element_kind(kind).dimension == 2;
    }
  }
  sm.num_elements = static_cast<int>(sm.model_element.size());
  if (sm.planar)
    for (const SolidGroup& g : sm.groups)
      // Springs and dashpots act in planar models too (every node's z is held there).
      if (element_kind(g.kind).dimension == 3 && !element_kind(g.kind).discrete) {
        const auto me = static_cast<std::size_t>(sm.model_element[static_cast<std::size_t>(g.first)]);
        throw InputError(model.elements.loc[me], "element " + std::to_string(model.elements.id[me]) + " (" +
                                                     element_kind(g.kind).name +
                                                     ") is 3-D, but the model has planar elements: "
                                                     "planar and 3-D elements cannot be mixed");
      }

  // An axisymmetric model's x and y are r and z: plane stress or strain elements beside it
  // would read them as x and y.
  for (const SolidGroup& g : sm.groups)
    for (const SolidGroup& h : sm.groups)
      if (element_kind(g.kind).axisymmetric && element_kind(h.kind).dimension == 2 && !element_kind(h.kind).axisymmetric) {
        const auto me = static_cast<std::size_t>(sm.model_element[static_cast<std::size_t>(h.first)]);
        throw InputError(model.elements.loc[me], "element " + std::to_string(model.elements.id[me]) + " (" +
                                                     element_kind(h.kind).name + ") is planar, but the model has "
                                                     "axisymmetric elements (" + element_kind(g.kind).name +
                                                     "): the two cannot be mixed");
      }
}

/// Where element e of group g (kind K) starts in the connectivity.
template <class K>
std::size_t conn_at(const SolidGroup& g, int e) {
  return static_cast<std::size_t>(g.conn_offset + (e - g.first) * K::kNodes);
}

/// Element e's checks, volume, increment and mass fractions (into fractions, at its conn
/// positions less base); throws InputError for the first check it fails.
template <class K>
void evaluate_element(const Model& model, SolidMesh& sm, const SolidGroup& g, int e, std::size_t base,
                      std::vector<double>& fractions) {
    const int* c = &sm.conn[conn_at<K>(g, e)];
    Vec3<double> X[K::kNodes];
    for (int a = 0; a < K::kNodes; ++a) X[a] = {model.nodes.x[c[a]], model.nodes.y[c[a]], model.nodes.z[c[a]]};
    double* const frac = &fractions[conn_at<K>(g, e) - base];
    const int me = sm.model_element[static_cast<std::size_t>(e)];
    if (ElementDataSize<K>::value > 0 && !sm.data_of(e))
      throw InputError(model.elements.loc[static_cast<std::size_t>(me)],
                       "element " + std::to_string(model.elements.id[static_cast<std::size_t>(me)]) + " (" +
                           K::name() + ") is made by " + MadeBy<K>::value + ", not by *ELEMENT");
    const int sec = sm.material[static_cast<std::size_t>(e)];
    const SolidMaterial<double>& m = sm.materials[static_cast<std::size_t>(sec)];
    if (K::kDimension == 2 && !is_axisymmetric<K>() && !(m.thickness > 0 && m.thickness < 1e300))
      throw InputError(model.solid_sections[static_cast<std::size_t>(sec)].thickness_loc,
                       "*SOLID SECTION thickness must be a positive number for planar elements such as element " +
                           std::to_string(model.elements.id[static_cast<std::size_t>(me)]) + " (" + K::name() +
                           "), got " + std::to_string(m.thickness));
    const bool truss = element_kind(g.kind).cross_section;
    if (truss) {
      const SolidSection& ss = model.solid_sections[static_cast<std::size_t>(sec)];
      if (!(m.thickness > 0 && m.thickness < 1e300))
        throw InputError(ss.thickness_loc.line > 0 ? ss.thickness_loc : ss.loc,
                         "*SOLID SECTION: the cross-section area of truss element " +
                             std::to_string(model.elements.id[static_cast<std::size_t>(me)]) + " (" + K::name() +
                             ") must be a positive number, got " + [&] {
                               char buf[32];
                               std::snprintf(buf, sizeof buf, "%g", m.thickness);
                               return std::string(buf);
                             }());
      if (!law_is<SvkIsotropic>(m))
        throw InputError(ss.loc, "*SOLID SECTION, MATERIAL=" + ss.material + " on truss element " +
                                     std::to_string(model.elements.id[static_cast<std::size_t>(me)]) + " (" +
                                     K::name() +
                                     "): trusses take isotropic *ELASTIC only (no *PLASTIC, *HYPERELASTIC or "
                                     "orthotropic elasticity)");
    }
    // Planar kinds return their area, trusses their length: the section's thickness or
    // area makes it a volume (axisymmetric kinds return their ring volume: no thickness).
    const double vol =
        kind_mass_fractions<K>(X, frac, sm.data_of(e)) * ((K::kDimension == 2 && !is_axisymmetric<K>()) || truss ? m.thickness : 1.0);
    if (!(vol > 0) && (truss || element_kind(g.kind).discrete))
      throw InputError(model.elements.loc[static_cast<std::size_t>(me)],
                       "element " + std::to_string(model.elements.id[static_cast<std::size_t>(me)]) + " (" +
                           K::name() + ") has zero length: its two nodes coincide");
    if (!(vol > 0))
      throw InputError(model.elements.loc[static_cast<std::size_t>(me)],
                       "element " + std::to_string(model.elements.id[static_cast<std::size_t>(me)]) + " (" +
                           K::name() +
                           ") is inverted or degenerate (non-positive volume at an integration point; "
                           "check the node order" +
                           (is_axisymmetric<K>() ? "; an axisymmetric element also needs every node at r = x >= 0)"
                                                 : ")"));
    sm.volume[static_cast<std::size_t>(e)] = vol;
    sm.element_dt[static_cast<std::size_t>(e)] = kind_stable_dt<K>(X, m, sm.hourglass_kappa, sm.data_of(e));
}

/// Each element's volume, increment and mass fractions on every core (the reference constants
/// are most of a solid model's set-up: 1.4 us per C3D8R on one core, 70 s of a 50 M-element
/// run's set-up; docs/performance.md), then the nodal sums in element order on one, so the
/// masses are the same to the bit on any number of threads. Chunks of elements bound the
/// fractions kept between the two passes (8 values per hexahedron).
void add_element_constants(const Model& model, SolidMesh& sm, SolidMassContribution& contrib) {
  sm.volume.assign(sm.num_elements, 0.0);
  sm.element_dt.assign(sm.num_elements, 0.0);
  constexpr int kChunk = 1 << 20;
  std::vector<double> fractions;
  for (const SolidGroup& g : sm.groups) {
    visit_continuum_kind(g.kind, [&](auto kind) {
      using K = decltype(kind);
      const auto evaluate = [&](int e, std::size_t base) { evaluate_element<K>(model, sm, g, e, base, fractions); };
      const int end = g.first + g.count;
      for (int begin = g.first; begin < end; begin += kChunk) {
        const int stop = std::min(end, begin + kChunk);
        const std::size_t base = conn_at<K>(g, begin);
        fractions.resize(conn_at<K>(g, stop) - base);
        // A failing element is only marked here (an exception may not leave an OpenMP loop);
        // the first one in element order is evaluated again below and throws its message.
        int first_bad = stop;
#pragma omp parallel for schedule(static) reduction(min : first_bad) num_threads(threads_for(stop - begin, default_threads()))
        for (int e = begin; e < stop; ++e) {
          try {
            evaluate(e, base);
          } catch (...) {
            first_bad = std::min(first_bad, e);
          }
        }
        if (first_bad < stop) evaluate(first_bad, base);
        for (int e = begin; e < stop; ++e) {
          const int* c = &sm.conn[conn_at<K>(g, e)];
          const double* frac = &fractions[conn_at<K>(g, e) - base];
          const int sec = sm.material[static_cast<std::size_t>(e)];
          const SolidMaterial<double>& m = sm.materials[static_cast<std::size_t>(sec)];
          const double alpha = sm.alpha[static_cast<std::size_t>(sec)];
          const double vol = sm.volume[static_cast<std::size_t>(e)];
          const double me_mass = m.density * vol;
          for (int a = 0; a < K::kNodes; ++a) {
            contrib.mass[c[a]] += frac[a] * me_mass;
            contrib.damp[c[a]] += alpha * frac[a] * me_mass;
          }
          contrib.total_mass += me_mass;
          contrib.energy_per_unit_strain += 0.5 * p_wave_modulus(m) * vol;
        }
      }
    });
  }
}

}  // namespace

SolidMesh build_solid_mesh(const Model& model, SolidMassContribution& contrib) {
  SolidMesh sm;
  const int nn = model.nodes.size();
  // Elements per kind, counted once: a pass over the model per continuum kind was most of the
  // set-up of a shell model of millions of elements.
  std::vector<int> kind_count(static_cast<std::size_t>(num_element_kinds()), 0);
  for (const int k : model.elements.kind) ++kind_count[static_cast<std::size_t>(k)];
  int continuum = 0;
  for (int kind = 0; kind < num_element_kinds(); ++kind)
    if (element_kind(kind).family == ElementFamily::Continuum) continuum += kind_count[static_cast<std::size_t>(kind)];
  if (continuum > 0) {
    contrib.mass.assign(nn, 0.0);
    contrib.damp.assign(nn, 0.0);
  }
  const std::vector<int> material_of = add_materials(model, sm);
  add_groups(model, kind_count, material_of, sm);
  fill_element_data(model, sm);
  add_element_constants(model, sm, contrib);
  assign_points(sm);
  build_node_slots(sm, nn);
  return sm;
}

void build_node_slots(SolidMesh& sm, int nn) {
  invert_connectivity(sm.conn, nn, sm.node_slot_ptr, sm.node_slots);
}

}  // namespace halfstep
