#include "discretization/structure_system.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>

#include "core/first_touch.hpp"
#include "core/forall.hpp"
#include "core/node_slots.hpp"
#include "core/threads.hpp"
#include "discretization/solid_mesh.hpp"
#include "elements/registry.hpp"

namespace halfstep {

namespace {

Vec3<double> node_pos(const StructureSystem& s, int n) { return {s.x0[n], s.y0[n], s.z0[n]}; }

/// Assigns each element its section index (the reader guarantees exactly one per element).
void assign_sections(const Model& model, const std::vector<int>& shell_index, StructureSystem& sys) {
  reserve_first_touched(sys.shell.section, static_cast<std::size_t>(sys.shell.num_elements), default_threads());
  sys.shell.section.assign(sys.shell.num_elements, -1);
  for (const ShellSection& sec : model.sections) {
    const Material& mat = model.materials.at(sec.material);
    SectionProps p;
    p.thickness = sec.thickness;
    p.density = mat.density;
    p.alpha = mat.alpha;
    p.youngs = mat.youngs;
    p.poisson = mat.poisson;
    // The shell's plane-stress constants are the solid law's stiffness condensed to S33 = 0
    // (materials/plane_stress.hpp): one law, two element families. validate() admits
    // isotropic *ELASTIC only here, for which this equals E / (1 - nu^2), nu, G to 1e-12.
    // A plastic section integrates the plane-stress J2 law (same E, nu) at its section points.
    const SolidMaterial<double> law = solid_material_of(mat, scaled_identity(1.0));
    p.elastic = ShellElastic<double>::from_material(
        mat.plastic() ? svk_isotropic(mat.youngs, mat.poisson, mat.density) : law);
    if (mat.plastic()) {
      p.law = law;
      p.section_points = sec.thickness_points;  // validate(): odd, 3 to 15, with *PLASTIC
    }
    p.name = sec.elset + "/" + sec.material;
    const int index = static_cast<int>(sys.shell.sections.size());
    sys.shell.sections.push_back(p);
    // An element listed twice in the set is written twice with the same index: atomic stores,
    // so that threads meeting there do not race.
    const std::vector<int>& members = model.elsets.at(sec.elset).members;
    int* section = sys.shell.section.data();
    forall(0, static_cast<int>(members.size()), default_threads(), [&](int i) {
      const int s = shell_index[members[i]];
      if (s < 0) return;  // validate() refused solids here
#pragma omp atomic write
      section[s] = index;
    });
  }
  int first_missing = sys.shell.num_elements;
#pragma omp parallel for schedule(static) reduction(min : first_missing) num_threads(threads_for(sys.shell.num_elements, default_threads()))
  for (int e = 0; e < sys.shell.num_elements; ++e)
    if (sys.shell.section[e] < 0) first_missing = std::min(first_missing, e);
  if (first_missing < sys.shell.num_elements) {
    const int me = sys.shell.model_element[first_missing];
    throw InputError(model.elements.loc[me], "element " + std::to_string(model.elements.id[me]) + " has no *SHELL SECTION");
  }
}

/// Per node, a bit i set when some step puts it on a symmetry plane normal to axis i: U_i,
/// UR_j and UR_k held at zero (XSYMM, YSYMM, ZSYMM or the same dofs listed), not fully clamped.
std::vector<std::uint8_t> symmetry_planes(const Model& model) {
  std::vector<std::uint8_t> fixed(model.nodes.size(), 0);
  for (const Step& step : model.steps)
    for (const Boundary& b : step.boundaries) {
      if (b.value != 0.0 || b.velocity) continue;
      for (int node : b.nodes)
        for (int dof = b.first_dof; dof <= b.last_dof; ++dof) fixed[node] |= static_cast<std::uint8_t>(1u << (dof - 1));
    }
  std::vector<std::uint8_t> planes(fixed.size(), 0);
  for (std::size_t n = 0; n < fixed.size(); ++n) {
    if (fixed[n] == 0x3f) continue;  // clamped: no plane to read off
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, k = (i + 2) % 3;
      const unsigned need = (1u << i) | (1u << (3 + j)) | (1u << (3 + k));
      if ((fixed[n] & need) == need) planes[n] |= static_cast<std::uint8_t>(1u << i);
    }
  }
  return planes;
}

/// Nodal directors: area-weighted average of the normals of the elements sharing the node.
/// On a symmetry plane the average sees only one side of the mirror, so it leans out of the
/// plane by half an element angle; it is projected back into the plane. Otherwise the
/// plane's rotation constraints would also hold the one rotation a 5-dof node has free
/// there, clamping the symmetry edge (and the mirrored surface would have a kink).
void compute_directors(const Model& model, StructureSystem& sys) {
  const std::vector<std::uint8_t> planes = symmetry_planes(model);
  const int nn = sys.num_nodes;
  const int threads = threads_for(nn, default_threads());
  for (std::vector<double>* d : {&sys.dir0x, &sys.dir0y, &sys.dir0z}) {
    reserve_first_touched(*d, static_cast<std::size_t>(nn), threads);
    d->resize(static_cast<std::size_t>(nn));
  }
  // Each node sums its elements' normals through the gather map, whose slots ascend in
  // element order: the same additions in the same order as a pass over the elements, so the
  // directors are bitwise those of one thread, whatever the thread count.
  int first_bad = nn;
#pragma omp parallel for schedule(static) num_threads(threads) reduction(min : first_bad)
  for (int n = 0; n < nn; ++n) {
    Vec3<double> sum{0, 0, 0};
    for (int i = sys.shell.node_slot_ptr[n]; i < sys.shell.node_slot_ptr[n + 1]; ++i) {
      const int* c = &sys.shell.conn[4 * static_cast<std::size_t>(sys.shell.node_slots[i] / 4)];
      sum += cross(node_pos(sys, c[2]) - node_pos(sys, c[0]), node_pos(sys, c[3]) - node_pos(sys, c[1]));
    }
    const double len = norm(sum);
    if (!(len > 0)) {
      // Unused nodes get an arbitrary director; nodes on elements with opposite normals cancel.
      if (sys.shell.node_slot_ptr[n + 1] > sys.shell.node_slot_ptr[n]) {
        first_bad = std::min(first_bad, n);
        continue;
      }
      sum = {0, 0, 1};
    }
    Vec3<double> d = normalized(sum);
    for (int i = 0; i < 3 && planes[n]; ++i) {
      if (!(planes[n] & (1u << i))) continue;
      const double di = i == 0 ? d.x : (i == 1 ? d.y : d.z);
      // A director far out of the plane means the plane is not a mirror of this surface
      // (a flat plate in its own plane, say): leave it.
      if (std::fabs(di) > 0.5) continue;
      if (i == 0) d.x = 0;
      if (i == 1) d.y = 0;
      if (i == 2) d.z = 0;
      d = normalized(d);
    }
    sys.dir0x[n] = d.x;
    sys.dir0y[n] = d.y;
    sys.dir0z[n] = d.z;
  }
  if (first_bad < nn)
    throw InputError(model.nodes.loc[first_bad], "node " + std::to_string(model.nodes.id[first_bad]) +
                                                     " joins elements with opposite normals: "
                                                     "element node order must be consistent");
}

}  // namespace

void build_gather_map(StructureSystem& sys) {
  invert_connectivity(sys.shell.conn, sys.num_nodes, sys.shell.node_slot_ptr, sys.shell.node_slots, 4LL * sys.shell.num_elements);
}

void assign_shell_points(StructureSystem& sys) {
  sys.shell.first_point.assign(static_cast<std::size_t>(sys.shell.num_elements) + 1, 0);
  for (int e = 0; e < sys.shell.num_elements; ++e)
    sys.shell.first_point[static_cast<std::size_t>(e) + 1] =
        sys.shell.first_point[static_cast<std::size_t>(e)] +
        4 * static_cast<std::size_t>(sys.shell.sections[static_cast<std::size_t>(sys.shell.section[e])].section_points);
  sys.shell.num_points = sys.shell.first_point.back();
}

bool has_plastic_shells(const StructureSystem& sys) { return sys.shell.num_points > 0; }

double plate_wave_speed(const SectionProps& s) {
  return std::sqrt(s.youngs / (s.density * (1.0 - s.poisson * s.poisson)));
}

double mitc4_characteristic_length(const Vec3<double> x[4]) {
  // Area over the longest diagonal: h / sqrt(2) for a square of side h. Conservative against
  // the element's highest frequency (checked in tests/elements/test_mitc4_frequency.cpp).
  const Vec3<double> d1 = x[2] - x[0], d2 = x[3] - x[1];
  const double area = 0.5 * norm(cross(d1, d2));
  return area / std::max(norm(d1), norm(d2));
}

namespace {

StructureSystem build_unconstrained(const Model& model, bool six_dofs = false);

/// Whether constraints act on rotations of shells: a *TIE (without NO ROTATION) onto shell
/// faces, an *EQUATION on dofs 4-6 or a rigid body (*RIGID BODY, kinematic *COUPLING). MITC4
/// nodes then run with 6 global dofs, as in mixed models, since rotations about each node's
/// own triad cannot be weighted across nodes nor turned with a body.
bool constrains_shell_rotations(const Model& model) {
  bool shells = false;
  for (int e = 0; e < model.elements.size(); ++e)
    shells = shells || element_kind(model.elements.kind[e]).family == ElementFamily::Shell;
  if (!shells) return false;
  for (const Tie& t : model.ties) {
    const auto it = model.surfaces.find(t.master);
    if (!t.rotations || it == model.surfaces.end()) continue;
    for (int e : it->second.elements)
      if (element_kind(model.elements.kind[e]).mid_surface) return true;
  }
  for (const Equation& e : model.equations)
    for (int d : e.dofs)
      if (d > 3) return true;
  // A rigid body turns its shell nodes' directors with it: their rotations are global too.
  return !model.rigid_bodies.empty();
}

}  // namespace

namespace {

StructureSystem build_bodies_and_constraints(const Model& model);

/// A copy of the model with the given nodes at their new positions; null when none moves.
std::unique_ptr<Model> moved_copy(const Model& model, const std::vector<AdjustedNode>& moves) {
  if (moves.empty()) return nullptr;
  auto moved = std::make_unique<Model>(model);
  for (const AdjustedNode& a : moves) {
    moved->nodes.x[a.node] = a.to[0];
    moved->nodes.y[a.node] = a.to[1];
    moved->nodes.z[a.node] = a.to[2];
  }
  return moved;
}

}  // namespace

StructureSystem build_structure_system(const Model& model) {
  // *CONTACT PAIR, ADJUST=: the system (and so the frames' reference) starts from the moved
  // slave nodes, strain-free, as Abaqus's adjusted initial coordinates do.
  const std::unique_ptr<Model> adjusted = moved_copy(model, contact_adjustments(model));
  const Model& m = adjusted ? *adjusted : model;
  StructureSystem sys = build_bodies_and_constraints(m);
  sys.contact = build_contact_system(m);
  set_spring_masses(sys.contact, sys.mass);
  return sys;
}

namespace {

/// The model with each tied slave of an ADJUST tie moved onto its master surface (the
/// positions the system is built from); null when no node moves.
std::unique_ptr<Model> adjusted_for_ties(const Model& model, const std::vector<TiedNode>& tied) {
  bool moves = false;
  for (const TiedNode& t : tied) moves = moves || (model.ties[t.tie].adjust && t.distance > 0);
  if (!moves) return nullptr;
  std::vector<AdjustedNode> to;
  for (const TiedNode& t : tied)
    if (model.ties[t.tie].adjust) to.push_back({t.node, t.on_master});
  return moved_copy(model, to);
}

/// The linear constraints and rigid bodies of m from sys's nodal masses and inertias.
void constrain(const Model& m, const std::vector<TiedNode>& tied, StructureSystem& sys) {
  sys.constraints = build_linear_constraints(m, tied, sys.mass, sys.inertia, sys.node_rotates, sys.node_dofs);
  sys.bodies = build_rigid_bodies(m, sys.constraints, sys.mass, sys.inertia, sys.node_rotates, sys.node_dofs);
}

/// Whether the model has ties, equations or rigid bodies (the system then has constraints).
bool has_constraints(const Model& model) {
  return !model.ties.empty() || !model.equations.empty() || !model.rigid_bodies.empty();
}

StructureSystem build_bodies_and_constraints(const Model& model) {
  if (!has_constraints(model)) return build_unconstrained(model);
  const std::vector<TiedNode> tied = project_ties(model);
  const std::unique_ptr<Model> adjusted = adjusted_for_ties(model, tied);
  const Model& m = adjusted ? *adjusted : model;
  StructureSystem sys = build_unconstrained(m, constrains_shell_rotations(model));
  constrain(m, tied, sys);
  return sys;
}

}  // namespace

namespace {
void set_nodal_mass_increments(const Model& model, StructureSystem& sys);
}  // namespace

void rebuild_mass_dependents(const Model& model, StructureSystem& sys) {
  // Springs, dashpots and adhesion edges take their increments from their nodes' masses.
  set_nodal_mass_increments(model, sys);
  if (has_constraints(model)) {
    const std::vector<TiedNode> tied = project_ties(model);
    const std::unique_ptr<Model> adjusted = adjusted_for_ties(model, tied);
    constrain(adjusted ? *adjusted : model, tied, sys);
  }
  set_spring_masses(sys.contact, sys.mass);
}

namespace {

/// The MITC4 shells: connectivity, sections and Gauss points, gather map, directors, each
/// element's reference geometry and increment, the nodal masses and inertias their corners
/// give, and their totals.
void add_shells(const Model& model, StructureSystem& sys) {
  const int nn = sys.num_nodes, nm = model.elements.size();
  const int node_threads = threads_for(nn, default_threads());
  std::vector<int> shell_index(static_cast<std::size_t>(nm), -1);
  int shells = 0;
  for (int e = 0; e < nm; ++e)
    if (element_kind(model.elements.kind[e]).family == ElementFamily::Shell) shell_index[e] = shells++;  // MITC4 only
  const int threads = threads_for(shells, default_threads());
  reserve_first_touched(sys.shell.model_element, static_cast<std::size_t>(shells), threads);
  reserve_first_touched(sys.shell.conn, 4 * static_cast<std::size_t>(shells), threads);
  sys.shell.model_element.resize(static_cast<std::size_t>(shells));
  sys.shell.conn.resize(4 * static_cast<std::size_t>(shells));
  forall(0, nm, default_threads(), [&](int e) {
    const int i = shell_index[e];
    if (i < 0) return;
    sys.shell.model_element[i] = e;
    const int* c = model.elements.nodes_of(e);
    for (int k = 0; k < 4; ++k) sys.shell.conn[4 * static_cast<std::size_t>(i) + k] = c[k];
  });
  sys.shell.num_elements = shells;
  assign_sections(model, shell_index, sys);
  assign_shell_points(sys);
  build_gather_map(sys);
  sys.any_director_nodes = sys.shell.num_elements > 0;
  reserve_first_touched(sys.node_rotates, static_cast<std::size_t>(nn), node_threads);
  sys.node_rotates.resize(static_cast<std::size_t>(nn));
  forall(0, nn, node_threads, [&](int n) { sys.node_rotates[n] = sys.shell.node_slot_ptr[n + 1] > sys.shell.node_slot_ptr[n]; });
  compute_directors(model, sys);

  const int ne = sys.shell.num_elements;
  reserve_first_touched(sys.shell.ref, static_cast<std::size_t>(ne), threads);
  sys.shell.ref.resize(static_cast<std::size_t>(ne));
  for (std::vector<double>* v : {&sys.shell.area, &sys.shell.element_dt}) {
    reserve_first_touched(*v, static_cast<std::size_t>(ne), threads);
    v->assign(static_cast<std::size_t>(ne), 0.0);
  }
  for (std::vector<double>* v : {&sys.mass, &sys.inertia, &sys.damp, &sys.damp_rot}) {
    reserve_first_touched(*v, static_cast<std::size_t>(nn), node_threads);
    v->assign(static_cast<std::size_t>(nn), 0.0);
  }
  // Each element's reference geometry on its own (at millions of elements this loop and the
  // first touch of its ~600 bytes per element were most of the set-up).
  std::vector<double> corner_areas;
  reserve_first_touched(corner_areas, 4 * static_cast<std::size_t>(ne), threads);
  corner_areas.resize(4 * static_cast<std::size_t>(ne));
  int first_bad = ne;
#pragma omp parallel for schedule(static) reduction(min : first_bad) num_threads(threads)
  for (int e = 0; e < ne; ++e) {
    const SectionProps& sec = sys.shell.sections[sys.shell.section[e]];
    const int* c = &sys.shell.conn[4 * e];
    Vec3<double> X[4], V[4];
    for (int k = 0; k < 4; ++k) {
      X[k] = node_pos(sys, c[k]);
      V[k] = {sys.dir0x[c[k]], sys.dir0y[c[k]], sys.dir0z[c[k]]};
    }
    if (!mitc4_reference(X, V, sec.thickness, sys.shell.ref[e])) {
      first_bad = std::min(first_bad, e);
      continue;
    }
    const Mitc4Ref<double>& ref = sys.shell.ref[e];
    double area = 0;
    for (int g = 0; g < 4; ++g) area += ref.wj[g];
    mitc4_corner_areas(ref, &corner_areas[4 * static_cast<std::size_t>(e)]);
    sys.shell.area[e] = area;
    sys.shell.element_dt[e] = mitc4_characteristic_length(X) / plate_wave_speed(sec);
  }
  if (first_bad < ne)
    throw InputError(model.elements.loc[sys.shell.model_element[first_bad]],
                     "element " + std::to_string(model.elements.id[sys.shell.model_element[first_bad]]) +
                         " is degenerate or inverted (non-positive Jacobian at a Gauss point; "
                         "check node order and that neighbours have consistent normals)");
  // The nodal masses: each node adds its corners' shares through the gather map, whose slots
  // ascend in element order (the additions of an element-order pass, in its order).
  forall(0, nn, node_threads, [&](int n) {
    double mass = 0, inertia = 0, damp = 0, damp_rot = 0;
    for (int i = sys.shell.node_slot_ptr[n]; i < sys.shell.node_slot_ptr[n + 1]; ++i) {
      const int e = sys.shell.node_slots[i] / 4, k = sys.shell.node_slots[i] % 4;
      const SectionProps& sec = sys.shell.sections[sys.shell.section[e]];
      const double area = sys.shell.area[e];
      const double rho_t = sec.density * sec.thickness;
      const double rot_arm = std::max(sec.thickness * sec.thickness / 12.0, kRotaryScale * area);
      const double m = rho_t * corner_areas[4 * static_cast<std::size_t>(e) + k];
      mass += m;
      inertia += m * rot_arm;
      damp += sec.alpha * m;
      damp_rot += sec.alpha * m * rot_arm;
    }
    sys.mass[n] = mass;
    sys.inertia[n] = inertia;
    sys.damp[n] = damp;
    sys.damp_rot[n] = damp_rot;
  });
  // The totals on one thread in element order, so that they do not depend on the thread count.
  for (int e = 0; e < ne; ++e) {
    const SectionProps& sec = sys.shell.sections[sys.shell.section[e]];
    const double area = sys.shell.area[e];
    sys.total_mass += sec.density * sec.thickness * area;
    sys.energy_per_unit_strain += 0.5 * sec.youngs * sec.thickness * area;
  }
}

/// Point masses (MASS elements) and rotary inertias (ROTARYI elements) onto their nodes.
void add_point_masses(const Model& model, StructureSystem& sys) {
  // Point masses (MASS elements): translational mass only, no damping, no rotary inertia.
  for (const PointMass& p : model.point_masses) {
    sys.mass[static_cast<std::size_t>(p.node)] += p.mass;
    if (!sys.has_rotations(p.node)) sys.inertia[static_cast<std::size_t>(p.node)] = sys.mass[static_cast<std::size_t>(p.node)];
    sys.total_mass += p.mass;
  }
  // Rotary inertias (ROTARYI elements): isotropic, added to nodes that have rotations.
  // A rigid body's reference node without rotations of its own: its body takes the inertia
  // (discretization/constraints.cpp, build_rigid_bodies).
  std::vector<char> body_ref(static_cast<std::size_t>(sys.num_nodes), 0);
  for (const RigidBody& b : model.rigid_bodies) body_ref[static_cast<std::size_t>(b.ref_node)] = 1;
  for (const PointMass& p : model.point_inertias) {
    if (!sys.has_rotations(p.node) && body_ref[static_cast<std::size_t>(p.node)]) continue;
    if (!sys.has_rotations(p.node))
      throw InputError(p.loc, "*ROTARY INERTIA on node " + std::to_string(model.nodes.id[static_cast<std::size_t>(p.node)]) +
                                  ", which has no rotational dofs (only beams, shells and FPM triangles give a node "
                                  "rotations)");
    sys.inertia[static_cast<std::size_t>(p.node)] += p.mass;
  }
}

/// Whether kind K's stable increment depends on its nodes' masses (K::nodal_mass_dt).
template <class K, class = void>
struct HasNodalMassDt : std::false_type {};
template <class K>
struct HasNodalMassDt<K, std::void_t<decltype(&K::nodal_mass_dt)>> : std::true_type {};

/// Springs, dashpots and adhesion edges limit the increment through their nodes' masses,
/// known only now.
void set_nodal_mass_increments(const Model& model, StructureSystem& sys) {
  bool explicit_steps = false;
  for (const Step& s : model.steps) explicit_steps = explicit_steps || s.procedure == Procedure::ExplicitDynamic;
  for (const SolidGroup& g : sys.solid.groups)
    visit_continuum_kind(g.kind, [&](auto kind) {
      using K = decltype(kind);
      if constexpr (HasNodalMassDt<K>::value) {
        for (int e = g.first; e < g.first + g.count; ++e) {
          const int* c = &sys.solid.conn[static_cast<std::size_t>(g.conn_offset + (e - g.first) * K::kNodes)];
          double m[K::kNodes];
          Vec3<double> X[K::kNodes];
          for (int a = 0; a < K::kNodes; ++a) {
            const auto n = static_cast<std::size_t>(c[a]);
            m[a] = sys.mass[n];
            X[a] = {sys.x0[n], sys.y0[n], sys.z0[n]};
          }
          const SolidMaterial<double>& mat =
              sys.solid.materials[static_cast<std::size_t>(sys.solid.material[static_cast<std::size_t>(e)])];
          sys.solid.element_dt[static_cast<std::size_t>(e)] =
              explicit_steps ? K::nodal_mass_dt(mat, m, X, sys.solid.data_of(e)) : 1e30;
        }
      }
    });
}

StructureSystem build_unconstrained(const Model& model, bool six_dofs) {
  StructureSystem sys;
  sys.num_nodes = model.nodes.size();
  const int nn = sys.num_nodes;
  // Every array of millions of entries is faulted in on all cores before it is filled
  // (core/first_touch.hpp), and every loop below that writes each entry from its own inputs
  // runs on all cores; the sums over elements into nodes are gathered per node in element
  // order, so each array is bitwise the same for any thread count.
  const int node_threads = threads_for(nn, default_threads());
  const auto copy = [&](std::vector<double>& to, const std::vector<double>& from) {
    reserve_first_touched(to, from.size(), node_threads);
    to.assign(from.begin(), from.end());
  };
  copy(sys.x0, model.nodes.x);
  copy(sys.y0, model.nodes.y);
  copy(sys.z0, model.nodes.z);
  add_shells(model, sys);
  SolidMassContribution solid_mass;
  sys.solid = build_solid_mesh(model, solid_mass);
  if (sys.solid.planar && sys.shell.num_elements > 0) {
    const auto me = static_cast<std::size_t>(sys.shell.model_element[0]);
    throw InputError(model.elements.loc[me], "element " + std::to_string(model.elements.id[me]) + " (" +
                                                 model.elements.abaqus_type[me] +
                                                 ") is a shell, but the model has planar elements: "
                                                 "planar elements cannot be mixed with shells");
  }
  std::array<RotatingMassContribution, kRowFamilies> row_mass;
  for_each_row_family([&](auto i) {
    using Mesh = std::tuple_element_t<i, RowMeshes>;
    std::get<i>(sys.rows) = Mesh::build(model, row_mass[i]);
  });
  sys.node_dofs = sys.any_director_nodes ? (six_dofs ? 6 : 5) : 3;
  // The row families (beams, FPM triangles) give their nodes 6 dofs (global rotations), and
  // every node of the model then runs with 6: MITC4 nodes among them turn their director and
  // triad with the node's rotation, and the MITC4 corners hand them global moments
  // (docs/theory.md, "Mixed models"). Their rotary inertia is isotropic, so the drilling
  // component they gain is inert. (Every family is built before any is checked: a deck's
  // first error stays the one the builds meet.)
  for_each_row_family([&](auto i) {
    using Mesh = std::tuple_element_t<i, RowMeshes>;
    const Mesh& mesh = std::get<i>(sys.rows);
    if (mesh.model_element.empty()) return;
    const auto me = static_cast<std::size_t>(mesh.model_element[0]);
    if (sys.solid.planar)
      throw InputError(model.elements.loc[me], "element " + std::to_string(model.elements.id[me]) + " is " +
                                                   Mesh::kWhat + ", but the model has planar elements: planar "
                                                   "elements cannot be mixed with elements that have rotations");
    for (int n : mesh.conn) sys.node_rotates[static_cast<std::size_t>(n)] = 1;
    sys.node_dofs = 6;
  });
  // A family without elements leaves its contribution arrays empty: zeros, added as zeros.
  const auto at = [](const std::vector<double>& v, int n) { return v.empty() ? 0.0 : v[static_cast<std::size_t>(n)]; };
  forall(0, nn, node_threads, [&](int n) {
    // Summed in the order the families were always added in: solids, then each row family.
    double m = at(solid_mass.mass, n), c = at(solid_mass.damp, n), j = 0, cr = 0;
    for (const RotatingMassContribution& r : row_mass) {
      m += at(r.mass, n);
      c += at(r.damp, n);
      j += at(r.inertia, n);
      cr += at(r.damp_rot, n);
    }
    sys.mass[n] += m;
    sys.damp[n] += c;
    sys.inertia[n] += j;
    sys.damp_rot[n] += cr;
    // 3-dof nodes: the rotational dofs are held, but the update divides by the inertia.
    if (!sys.has_rotations(n)) {
      sys.inertia[n] = sys.mass[n] > 0 ? sys.mass[n] : 1.0;
      sys.damp_rot[n] = 0.0;
    }
  });
  double added_mass = solid_mass.total_mass, added_energy = solid_mass.energy_per_unit_strain;
  for (const RotatingMassContribution& r : row_mass) {
    added_mass += r.total_mass;
    added_energy += r.energy_per_unit_strain;
  }
  sys.total_mass += added_mass;
  add_point_masses(model, sys);
  set_nodal_mass_increments(model, sys);
  sys.energy_per_unit_strain += added_energy;
  update_stable_dt(sys);
  return sys;
}

}  // namespace

void mitc4_corner_areas(const Mitc4Ref<double>& ref, double corner_area[4]) {
  for (int k = 0; k < 4; ++k) corner_area[k] = 0;
  for (int g = 0; g < 4; ++g) {
    const double r = mitc4_gauss_r(g), s = mitc4_gauss_s(g);
    for (int k = 0; k < 4; ++k)
      corner_area[k] += ref.wj[g] * 0.25 * (1 + r * mitc4_node_r(k)) * (1 + s * mitc4_node_s(k));
  }
}

void update_stable_dt(StructureSystem& sys) {
  sys.stable_dt = std::numeric_limits<double>::infinity();
  const auto consider = [&](double dt, int model_element) {
    if (dt < sys.stable_dt) {
      sys.stable_dt = dt;
      sys.controlling_element = model_element;
    }
  };
  for (int e = 0; e < sys.shell.num_elements; ++e) consider(sys.shell.element_dt[e], sys.shell.model_element[e]);
  for_each_row_family([&](auto i) {
    const auto& m = std::get<i>(sys.rows);
    for (int e = 0; e < m.num_elements; ++e) consider(m.element_dt[e], m.model_element[e]);
  });
  for (int e = 0; e < sys.solid.num_elements; ++e) consider(sys.solid.element_dt[e], sys.solid.model_element[e]);
}

}  // namespace halfstep
