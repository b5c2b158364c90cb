#include "discretization/contact.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "core/error.hpp"
#include "core/vec3.hpp"
#include "elements/registry.hpp"
#include "elements/solid_faces.hpp"

namespace halfstep {
namespace {

/// A facet before it is placed in the arrays: corners (d = -1 for a triangle's fourth).
struct Facet {
  std::array<int, 4> nodes{-1, -1, -1, -1};
  double offset = 0, depth = 0;
  bool two_sided = false;
};

Vec3<double> node_x(const Model& m, int n) { return {m.nodes.x[n], m.nodes.y[n], m.nodes.z[n]}; }

/// Half the shell thickness of every shell element (0 for other elements).
std::vector<double> shell_half_thickness(const Model& m) {
  std::vector<double> h(static_cast<std::size_t>(m.elements.size()), 0.0);
  for (const ShellSection& s : m.sections) {
    const auto it = m.elsets.find(s.elset);
    if (it == m.elsets.end()) continue;
    for (int e : it->second.members) h[static_cast<std::size_t>(e)] = 0.5 * s.thickness;
  }
  return h;
}

/// Whether element e is a 3-D continuum element with faces (not a truss, spring or planar quad).
bool solid_with_faces(const Model& m, int e) {
  const ElementKindInfo& k = element_kind(m.elements.kind[static_cast<std::size_t>(e)]);
  return !m.elements.shell[static_cast<std::size_t>(e)] && !m.elements.beam[static_cast<std::size_t>(e)] &&
         k.family == ElementFamily::Continuum && k.dimension == 3 && k.discrete == 0 && !k.cross_section &&
         solid_face_count(m.elements.count_of(e)) > 0;
}

/// Facets of face `face` (1-based) of solid element e: its corners turned so that the
/// right-hand normal points out of the element; a 6-node triangle becomes its 4 corner
/// triangles; depth is half the element's extent below the face.
void solid_facets(const Model& m, int e, int face, std::vector<Facet>& out) {
  const int* c = m.elements.nodes_of(e);
  const int count = m.elements.count_of(e);
  int local[kFaceMaxNodes];
  const int shape = solid_face(count, face, local);
  const int corners = face_corners(shape);
  std::array<int, 4> n{-1, -1, -1, -1};
  for (int k = 0; k < corners; ++k) n[static_cast<std::size_t>(k)] = c[local[k]];
  Vec3<double> centre{0, 0, 0};
  for (int k = 0; k < corners; ++k) centre += node_x(m, n[static_cast<std::size_t>(k)]);
  centre = (1.0 / corners) * centre;
  const Vec3<double> normal = corners == 4 ? cross(node_x(m, n[2]) - node_x(m, n[0]), node_x(m, n[3]) - node_x(m, n[1]))
                                           : cross(node_x(m, n[1]) - node_x(m, n[0]), node_x(m, n[2]) - node_x(m, n[0]));
  const double area2 = norm(normal);
  Vec3<double> body{0, 0, 0};
  for (int k = 0; k < count; ++k) body += node_x(m, c[k]);
  body = (1.0 / count) * body;
  double extent = 0;
  for (int k = 0; k < count; ++k) extent = std::max(extent, std::abs(dot(node_x(m, c[k]) - centre, normal)));
  extent = area2 > 0 ? extent / area2 : 0;
  const bool inward = dot(body - centre, normal) > 0;
  if (inward) std::reverse(n.begin(), n.begin() + corners);
  Facet f;
  f.depth = 0.5 * extent;
  if (shape != kFaceTri6) {
    f.nodes = n;
    out.push_back(f);
    return;
  }
  // Quadratic triangle: its three corner triangles and the middle one, each turned like the face.
  const int c0 = c[local[0]], c1 = c[local[1]], c2 = c[local[2]];
  const int m01 = c[local[3]], m12 = c[local[4]], m20 = c[local[5]];
  const std::array<std::array<int, 3>, 4> tris = {{{c0, m01, m20}, {m01, c1, m12}, {m20, m12, c2}, {m01, m12, m20}}};
  for (const auto& t : tris) {
    f.nodes = {t[0], t[1], t[2], -1};
    if (inward) std::swap(f.nodes[1], f.nodes[2]);
    out.push_back(f);
  }
}

/// Facets of a shell element on side spos (true: its normal's side), or on both sides.
Facet shell_facet(const Model& m, int e, double half, bool spos, bool both) {
  Facet f;
  const int* c = m.elements.nodes_of(e);
  const int count = std::min(m.elements.count_of(e), 4);
  for (int k = 0; k < count; ++k) f.nodes[static_cast<std::size_t>(k)] = c[k];
  if (!spos && !both) std::reverse(f.nodes.begin(), f.nodes.begin() + count);
  f.offset = half;
  f.two_sided = both;
  return f;
}

/// Every exterior facet of the model: solid faces that no other element shares, and shells
/// (both sides).
std::vector<Facet> exterior_facets(const Model& m, const std::vector<double>& half) {
  std::map<std::array<int, 4>, int> seen;  // sorted corners -> occurrences
  const auto key_of = [&](int e, int face) {
    int local[kFaceMaxNodes];
    const int shape = solid_face(m.elements.count_of(e), face, local);
    std::array<int, 4> k{-1, -1, -1, -1};
    for (int i = 0; i < face_corners(shape); ++i) k[static_cast<std::size_t>(i)] = m.elements.nodes_of(e)[local[i]];
    std::sort(k.begin(), k.end());
    return k;
  };
  for (int e = 0; e < m.elements.size(); ++e)
    if (solid_with_faces(m, e))
      for (int f = 1; f <= solid_face_count(m.elements.count_of(e)); ++f) ++seen[key_of(e, f)];
  std::vector<Facet> out;
  for (int e = 0; e < m.elements.size(); ++e) {
    if (m.elements.shell[static_cast<std::size_t>(e)]) {
      out.push_back(shell_facet(m, e, half[static_cast<std::size_t>(e)], true, true));
      continue;
    }
    if (!solid_with_faces(m, e)) continue;
    for (int f = 1; f <= solid_face_count(m.elements.count_of(e)); ++f)
      if (seen[key_of(e, f)] == 1) solid_facets(m, e, f, out);
  }
  return out;
}

/// The facets of an element-based surface.
std::vector<Facet> surface_facets(const Model& m, const Surface& s, const std::vector<double>& half) {
  std::vector<Facet> out;
  for (std::size_t i = 0; i < s.elements.size(); ++i) {
    const int e = s.elements[i], face = s.faces[i];
    if (m.elements.shell[static_cast<std::size_t>(e)])
      out.push_back(shell_facet(m, e, half[static_cast<std::size_t>(e)], face == kSurfaceSpos, false));
    else if (solid_with_faces(m, e) && face >= 1 && face <= solid_face_count(m.elements.count_of(e)))
      solid_facets(m, e, face, out);
  }
  return out;
}

/// The nodes of a slave surface: a node surface's nodes, or the corners of its facets.
std::vector<int> slave_nodes(const Surface* s, const std::vector<Facet>& facets) {
  std::vector<int> nodes;
  if (s && s->node_based) return s->nodes;
  for (const Facet& f : facets)
    for (int n : f.nodes)
      if (n >= 0) nodes.push_back(n);
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

}  // namespace

ContactSystem build_contact_system(const Model& m) {
  ContactSystem cs;
  if (m.contact.empty()) return cs;
  const std::vector<double> half = shell_half_thickness(m);
  // Half the largest shell thickness at each node: a shell node touches from that far.
  std::vector<double> node_half(static_cast<std::size_t>(m.nodes.size()), 0.0);
  for (int e = 0; e < m.elements.size(); ++e)
    if (m.elements.shell[static_cast<std::size_t>(e)])
      for (int k = 0; k < m.elements.count_of(e); ++k) {
        double& h = node_half[static_cast<std::size_t>(m.elements.nodes_of(e)[k])];
        h = std::max(h, half[static_cast<std::size_t>(e)]);
      }
  std::vector<Facet> exterior;
  bool have_exterior = false;
  const auto facets_of = [&](const std::string& name) -> std::vector<Facet> {
    if (name == kAllExterior) {
      if (!have_exterior) exterior = exterior_facets(m, half), have_exterior = true;
      return exterior;
    }
    return surface_facets(m, m.surfaces.at(name), half);
  };
  double max_offset = 0, max_depth = 0;
  for (const ContactPair& p : m.contact.pairs) {
    const int pair = cs.num_pairs++;
    const std::vector<Facet> master = facets_of(p.master);
    if (master.empty())
      throw InputError(p.loc, "contact: the master surface '" + p.master +
                                  "' has no faces that contact acts on (solid faces or shell sides)");
    const Surface* slave_surface = p.slave == kAllExterior ? nullptr : &m.surfaces.at(p.slave);
    const std::vector<Facet> own = p.slave == p.master ? master : facets_of(p.slave);
    const std::vector<int> slaves = slave_nodes(slave_surface, own);
    // The one-sided facets of the slave surface at each node (none for a node surface).
    std::map<int, std::vector<const Facet*>> at_node;
    if (!(slave_surface && slave_surface->node_based))
      for (const Facet& f : own)
        if (!f.two_sided)
          for (int n : f.nodes)
            if (n >= 0) at_node[n].push_back(&f);
    if (slaves.empty())
      throw InputError(p.loc, "contact: the slave surface '" + p.slave + "' has no nodes");
    for (const Facet& f : master) {
      cs.facet_nodes.insert(cs.facet_nodes.end(), f.nodes.begin(), f.nodes.end());
      cs.facet_pair.push_back(pair);
      cs.facet_offset.push_back(f.offset);
      cs.facet_depth.push_back(f.depth);
      cs.facet_two_sided.push_back(f.two_sided ? 1 : 0);
      max_offset = std::max(max_offset, f.offset);
      max_depth = std::max(max_depth, f.depth);
    }
    for (int n : slaves) {
      cs.slave_node.push_back(n);
      cs.slave_pair.push_back(pair);
      cs.slave_offset.push_back(node_half[static_cast<std::size_t>(n)]);
      const auto it = at_node.find(n);
      // A shell node touches from either side: no facing filter.
      if (it != at_node.end() && node_half[static_cast<std::size_t>(n)] == 0)
        for (const Facet* f : it->second) cs.slave_facet_nodes.insert(cs.slave_facet_nodes.end(), f->nodes.begin(), f->nodes.end());
      cs.slave_facet_ptr.push_back(static_cast<int>(cs.slave_facet_nodes.size() / 4));
      max_offset = std::max(max_offset, node_half[static_cast<std::size_t>(n)]);
    }
    double mu = 0, mu_k = -1, dc = 0;
    if (!p.interaction.empty()) {
      const SurfaceInteraction& si = m.contact.interactions.at(p.interaction);
      mu = si.friction;
      mu_k = si.kinetic_friction;
      dc = si.decay;
    }
    cs.mu_static.push_back(mu);
    cs.mu_kinetic.push_back(mu_k < 0 ? mu : mu_k);
    cs.decay.push_back(dc);
    cs.self.push_back(p.slave == p.master ? 1 : 0);
  }
  for (const ContactPair& p : m.contact.pairs) {
    bool mirror = p.slave == p.master;
    for (const ContactPair& q : m.contact.pairs) mirror = mirror || (q.slave == p.master && q.master == p.slave);
    cs.mirrored.push_back(mirror ? 1 : 0);
  }
  cs.num_facets = static_cast<int>(cs.facet_pair.size());
  cs.num_slaves = static_cast<int>(cs.slave_node.size());
  cs.penalty_scale = m.contact.penalty_scale;
  cs.reach = 2 * max_offset + max_depth;
  return cs;
}

void set_spring_masses(ContactSystem& cs, const std::vector<double>& mass) {
  std::vector<double> lightest(static_cast<std::size_t>(cs.num_pairs), std::numeric_limits<double>::infinity());
  for (int f = 0; f < cs.num_facets; ++f) {
    double& l = lightest[static_cast<std::size_t>(cs.facet_pair[static_cast<std::size_t>(f)])];
    for (int k = 0; k < 4; ++k) {
      const int n = cs.facet_nodes[4 * static_cast<std::size_t>(f) + k];
      if (n >= 0 && mass[static_cast<std::size_t>(n)] > 0) l = std::min(l, mass[static_cast<std::size_t>(n)]);
    }
  }
  cs.spring_mass.assign(static_cast<std::size_t>(cs.num_slaves), 0.0);
  for (int i = 0; i < cs.num_slaves; ++i) {
    const double ms = mass[static_cast<std::size_t>(cs.slave_node[static_cast<std::size_t>(i)])];
    const double mf = lightest[static_cast<std::size_t>(cs.slave_pair[static_cast<std::size_t>(i)])];
    // The lighter of the slave and the lightest master node. (Not their reduced mass: slaves
    // of one surface then get springs in proportion to their masses only where the master is
    // the lighter, and a cube pressed onto a held base by its top, whose bottom nodes had
    // springs of 0.89 to 0.97 of kappa m / dt^2, rang up without bound.)
    cs.spring_mass[static_cast<std::size_t>(i)] = ms > 0 ? std::min(ms, mf) : (std::isfinite(mf) ? mf : 0.0);
  }
}

}  // namespace halfstep
