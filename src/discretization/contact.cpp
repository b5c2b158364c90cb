#include "discretization/contact.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>

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

/// Half its section's thickness for every mid-surface element (0 for other elements).
std::vector<double> mid_surface_half_thickness(const Model& m) {
  std::vector<double> h(static_cast<std::size_t>(m.elements.size()), 0.0);
  for_each_section(m, [&](const SectionUse& s) {
    const auto it = m.elsets.find(s.elset);
    if (it == m.elsets.end()) return;
    for (int e : it->second.members)
      if (element_kind(m.elements.kind[static_cast<std::size_t>(e)]).mid_surface)
        h[static_cast<std::size_t>(e)] = 0.5 * s.thickness;
  });
  return h;
}

/// Whether element e is a 3-D continuum element with faces (not a truss, spring or planar quad).
bool solid_with_faces(const Model& m, int e) {
  const ElementKindInfo& k = element_kind(m.elements.kind[static_cast<std::size_t>(e)]);
  return k.family == ElementFamily::Continuum && k.dimension == 3 && k.discrete == 0 && !k.cross_section &&
         solid_face_count(m.elements.count_of(e)) > 0;
}

/// Facets of face `face` (1-based) of solid element e: its corners turned so that the
/// right-hand normal points out of the element; a 6-node triangle becomes its 4 corner
/// triangles, an 8-node quadrilateral its 4 corner triangles and the quadrilateral of its
/// mid-edge nodes; depth is half the element's extent below the face.
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
  if (shape == kFaceQuad8) {
    // Quadratic quadrilateral: its four corner triangles and the quadrilateral of its mid-edge
    // nodes, each turned like the face (mid-edge k joins corners k and k + 1).
    const int k[4] = {c[local[0]], c[local[1]], c[local[2]], c[local[3]]};
    const int mid[4] = {c[local[4]], c[local[5]], c[local[6]], c[local[7]]};
    for (int a = 0; a < 4; ++a) {
      f.nodes = {k[a], mid[a], mid[(a + 3) % 4], -1};
      if (inward) std::swap(f.nodes[1], f.nodes[2]);
      out.push_back(f);
    }
    f.nodes = {mid[0], mid[1], mid[2], mid[3]};
    if (inward) std::reverse(f.nodes.begin(), f.nodes.end());
    out.push_back(f);
    return;
  }
  if (shape != kFaceTri6) {
    f.nodes = n;
    out.push_back(f);
    return;
  }
  // Quadratic triangle: its three corner triangles and the middle one, each turned like the face.
  const int c0 = c[local[0]], c1 = c[local[1]], c2 = c[local[2]];
  const int m01 = c[local[3]], m12 = c[local[4]], m20 = c[local[5]];
  const std::array<std::array<int, 3>, 4> parts = {{{c0, m01, m20}, {m01, c1, m12}, {m20, m12, c2}, {m01, m12, m20}}};
  for (const auto& t : parts) {
    f.nodes = {t[0], t[1], t[2], -1};
    if (inward) std::swap(f.nodes[1], f.nodes[2]);
    out.push_back(f);
  }
}

/// Facets of a shell element on side spos (true: its normal's side), or on both sides.
Facet mid_surface_facet(const Model& m, int e, double half, bool spos, bool both) {
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
    if (element_kind(m.elements.kind[static_cast<std::size_t>(e)]).mid_surface) {
      out.push_back(mid_surface_facet(m, e, half[static_cast<std::size_t>(e)], true, true));
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
    if (element_kind(m.elements.kind[static_cast<std::size_t>(e)]).mid_surface)
      out.push_back(mid_surface_facet(m, e, half[static_cast<std::size_t>(e)], face == kSurfaceSpos, false));
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

/// Whether facet f is seen for the first time (by its sorted corners; a shell's two sides,
/// or a face shared by two surfaces, are one facet), recording it in seen.
bool first_sight(const Facet& f, std::set<std::array<int, 4>>& seen) {
  std::array<int, 4> key = f.nodes;
  std::sort(key.begin(), key.end());
  return seen.insert(key).second;
}

/// Facet f's area times its unit normal, in the reference configuration (a quadrilateral's
/// from its diagonals: exact for a flat one).
Vec3<double> facet_area_normal(const Model& m, const Facet& f) {
  const Vec3<double> a = node_x(m, f.nodes[0]), b = node_x(m, f.nodes[1]), c = node_x(m, f.nodes[2]);
  return f.nodes[3] < 0 ? 0.5 * cross(b - a, c - a) : 0.5 * cross(c - a, node_x(m, f.nodes[3]) - b);
}

/// Each node's share of the distinct facets it lies on (a third of a triangle, a quarter of
/// a quadrilateral; reference configuration; a shell's two sides count once).
std::map<int, double> facet_shares(const std::vector<Facet>& facets, const Model& m) {
  std::map<int, double> area;
  std::set<std::array<int, 4>> seen;
  for (const Facet& f : facets) {
    if (!first_sight(f, seen)) continue;
    const int corners = f.nodes[3] < 0 ? 3 : 4;
    const double share = norm(facet_area_normal(m, f)) / corners;
    for (int k = 0; k < corners; ++k) area[f.nodes[static_cast<std::size_t>(k)]] += share;
  }
  return area;
}

/// The area each node of a slave surface stands for: a node surface's areas, or its share of
/// the surface's facets (facet_shares). A node surface's NaN area (--dialect calculix, none
/// given) is the peer's: the node's share of the model's exterior facets (`exterior`).
std::map<int, double> slave_areas(const Surface* s, const std::vector<Facet>& facets, const Model& m,
                                  const std::function<const std::vector<Facet>&()>& exterior) {
  if (!(s && s->node_based)) return facet_shares(facets, m);
  std::map<int, double> area, share;
  bool shares = false;
  for (std::size_t k = 0; k < s->nodes.size(); ++k) {
    const double given = k < s->node_areas.size() ? s->node_areas[k] : 1.0;
    if (std::isnan(given) && !shares) share = facet_shares(exterior(), m), shares = true;
    area[s->nodes[k]] = std::isnan(given) ? share[s->nodes[k]] : given;
  }
  return area;
}

/// Appends each facet not seen before (by its sorted corners) to the nodes' area lists
/// (area[n]: 4 values per facet, ContactSystem::node_area).
void add_node_area(const Model& m, const std::vector<Facet>& facets, std::set<std::array<int, 4>>& seen,
                   std::vector<std::vector<double>>& area) {
  for (const Facet& f : facets) {
    if (!first_sight(f, seen)) continue;
    const int corners = f.nodes[3] < 0 ? 3 : 4;
    const Vec3<double> n = facet_area_normal(m, f);
    for (int k = 0; k < corners; ++k)
      area[static_cast<std::size_t>(f.nodes[static_cast<std::size_t>(k)])].insert(
          area[static_cast<std::size_t>(f.nodes[static_cast<std::size_t>(k)])].end(),
          {n.x / corners, n.y / corners, n.z / corners, f.two_sided ? 1.0 : 0.0});
  }
}

/// A feature edge before it is placed in the arrays (ContactSystem::edge_*).
struct Edge {
  std::array<int, 2> nodes{-1, -1};
  std::array<int, 8> facets{-1, -1, -1, -1, -1, -1, -1, -1};
  double offset = 0, depth = 0;
};

/// Facet sides keyed by their sorted end nodes: the facets (indices) they bound.
using SideMap = std::map<std::array<int, 2>, std::vector<int>>;

SideMap facet_sides(const std::vector<Facet>& facets) {
  SideMap sides;
  for (std::size_t i = 0; i < facets.size(); ++i) {
    const std::array<int, 4>& n = facets[i].nodes;
    const int corners = n[3] < 0 ? 3 : 4;
    for (int k = 0; k < corners; ++k) {
      std::array<int, 2> key{n[static_cast<std::size_t>(k)], n[static_cast<std::size_t>((k + 1) % corners)]};
      if (key[0] > key[1]) std::swap(key[0], key[1]);
      sides[key].push_back(static_cast<int>(i));
    }
  }
  return sides;
}

/// Unit outward normal of facet f in the reference configuration (zero if degenerate).
Vec3<double> facet_unit_normal(const Model& m, const Facet& f) {
  const Vec3<double> a = node_x(m, f.nodes[0]), b = node_x(m, f.nodes[1]), c = node_x(m, f.nodes[2]);
  const Vec3<double> n = f.nodes[3] < 0 ? cross(b - a, c - a) : cross(c - a, node_x(m, f.nodes[3]) - b);
  const double len = norm(n);
  return len > 0 ? (1.0 / len) * n : n;
}

/// Whether two facets have the same corners.
bool same_facet(const Facet& a, const Facet& b) {
  std::array<int, 4> x = a.nodes, y = b.nodes;
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  return x == y;
}

/// The feature edges of a surface's facets: solid edges whose two facets' outward normals
/// differ by more than kFeatureEdgeAngle, and the perimeter edges of shells (one facet).
/// A solid edge with one facet in the surface (its border) takes its other facet from the
/// model's exterior (exterior_sides over exterior): the body's edge, not the surface's.
/// Sides of more than two facets (shells meeting at a T) are left out.
std::vector<Edge> feature_edges(const Model& m, const std::vector<Facet>& facets, const std::vector<Facet>& exterior,
                                const SideMap& exterior_sides) {
  const double cos_limit = std::cos(kFeatureEdgeAngle * M_PI / 180.0);
  std::vector<Edge> out;
  for (const auto& [key, list] : facet_sides(facets)) {
    if (list.size() > 2) continue;
    const Facet& f0 = facets[static_cast<std::size_t>(list[0])];
    const auto of_mid_surface = [](const Facet& f) { return f.two_sided || f.offset > 0; };
    Edge e;
    e.nodes = key;
    if (of_mid_surface(f0)) {
      if (list.size() != 1) continue;
      e.offset = f0.offset;
      out.push_back(e);
      continue;
    }
    const Facet* f1 = list.size() == 2 ? &facets[static_cast<std::size_t>(list[1])] : nullptr;
    if (!f1) {
      const auto it = exterior_sides.find(key);
      if (it != exterior_sides.end())
        for (int g : it->second)
          if (!same_facet(exterior[static_cast<std::size_t>(g)], f0)) f1 = &exterior[static_cast<std::size_t>(g)];
    }
    if (!f1 || of_mid_surface(*f1)) continue;
    if (dot(facet_unit_normal(m, f0), facet_unit_normal(m, *f1)) > cos_limit) continue;
    std::copy(f0.nodes.begin(), f0.nodes.end(), e.facets.begin());
    std::copy(f1->nodes.begin(), f1->nodes.end(), e.facets.begin() + 4);
    e.depth = std::min(f0.depth, f1->depth);
    out.push_back(e);
  }
  return out;
}

/// Adds analytical surface a to cs's analytical arrays (frame and profile); returns its index.
int add_analytic(ContactSystem& cs, const AnalyticalSurface& a) {
  const Vec3<double> pa{a.a[0], a.a[1], a.a[2]}, pb{a.b[0], a.b[1], a.b[2]}, pc{a.c[0], a.c[1], a.c[2]};
  Vec3<double> ex, ey, ez;
  if (a.kind == AnalyticalSurface::Kind::Cylinder) {
    ex = normalized(pb - pa);
    const Vec3<double> g = pc - pa;
    ez = normalized(g - dot(g, ex) * ex);
    ey = cross(ez, ex);
  } else {
    ez = normalized(pb - pa);
    // Any axis across the symmetry axis: the profile's radial direction follows each point.
    const Vec3<double> t = std::abs(ez.x) < 0.9 ? Vec3<double>{1, 0, 0} : Vec3<double>{0, 1, 0};
    ex = normalized(t - dot(t, ez) * ez);
    ey = cross(ez, ex);
  }
  const double frame[kAnalyticFrameValues] = {a.kind == AnalyticalSurface::Kind::Cylinder ? 0.0 : 1.0,
                                              pa.x, pa.y, pa.z, ex.x, ex.y, ex.z, ey.x, ey.y, ey.z, ez.x, ez.y, ez.z};
  cs.analytic_frame.insert(cs.analytic_frame.end(), frame, frame + kAnalyticFrameValues);
  std::array<double, 2> from = a.start;
  for (const ProfileSegment& g : a.segments) {
    const double v[kAnalyticSegValues] = {g.kind == ProfileSegment::Kind::Line ? 0.0 : 1.0, from[0], from[1],
                                          g.end[0], g.end[1], g.centre[0], g.centre[1]};
    cs.analytic_seg.insert(cs.analytic_seg.end(), v, v + kAnalyticSegValues);
    from = g.end;
  }
  cs.analytic_seg_ptr.push_back(static_cast<int>(cs.analytic_seg.size() / kAnalyticSegValues));
  cs.analytic_ref.push_back(a.ref_node);
  cs.analytic_name.push_back(a.name);
  return cs.num_analytic++;
}

/// Refuses slave nodes that start behind an analytical master by more than a thousandth of
/// the model's size: they would be thrown out by the full penalty at the first increment,
/// and the usual cause is a profile written the wrong way round (its normal points away).
void check_initial_overclosure(const Model& m, const ContactSystem& cs, const std::vector<ContactPair>& defs) {
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  for (int n = 0; n < m.nodes.size(); ++n) {
    const double x[3] = {m.nodes.x[n], m.nodes.y[n], m.nodes.z[n]};
    for (int d = 0; d < 3; ++d) lo[d] = std::min(lo[d], x[d]), hi[d] = std::max(hi[d], x[d]);
  }
  const double size = std::sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                                (hi[2] - lo[2]) * (hi[2] - lo[2]));
  const AnalyticView<double> view = analytic_view(cs);
  std::vector<int> behind(static_cast<std::size_t>(cs.num_pairs), 0), deepest(static_cast<std::size_t>(cs.num_pairs), -1);
  std::vector<double> depth(static_cast<std::size_t>(cs.num_pairs), 0.0);
  for (int i = 0; i < cs.num_slaves; ++i) {
    const int pair = cs.slave_pair[static_cast<std::size_t>(i)];
    const int s = cs.pair_surface[static_cast<std::size_t>(pair)];
    if (s < 0) continue;
    const int n = cs.slave_node[static_cast<std::size_t>(i)];
    const double off = cs.slave_offset[static_cast<std::size_t>(i)];
    double pen = 0;
    Vec3<double> normal;
    if (!analytic_touch(view, s, node_x(m, n), Vec3<double>{0, 0, 0}, off, pen, normal)) continue;
    const double over = pen - off;
    if (!(over > 1e-3 * size)) continue;
    ++behind[static_cast<std::size_t>(pair)];
    if (over > depth[static_cast<std::size_t>(pair)]) depth[static_cast<std::size_t>(pair)] = over, deepest[static_cast<std::size_t>(pair)] = n;
  }
  for (int pair = 0; pair < cs.num_pairs; ++pair) {
    if (behind[static_cast<std::size_t>(pair)] == 0) continue;
    const ContactPair& p = defs[static_cast<std::size_t>(pair)];
    const AnalyticalSurface& a = m.analytical_surfaces.at(p.master);
    throw InputError(a.loc, std::to_string(behind[static_cast<std::size_t>(pair)]) + " node(s) of " +
                                (p.slave == kAllExterior ? std::string("the model's exterior") : "surface '" + p.slave + "'") +
                                " start behind analytical surface '" + a.name + "' (node " +
                                std::to_string(m.nodes.id[static_cast<std::size_t>(deepest[static_cast<std::size_t>(pair)])]) +
                                " by " + std::to_string(depth[static_cast<std::size_t>(pair)]) +
                                "); the surface's outward normal is its profile's direction turned 90 degrees "
                                "counterclockwise: write the profile the other way round if it points away from the body");
  }
}

}  // namespace

double contact_pressure(const ContactSystem& cs, int n, const double f[3]) {
  if (static_cast<std::size_t>(n) + 1 >= cs.node_area_ptr.size()) return 0.0;
  const double size = std::sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
  if (!(size > 0)) return 0.0;
  double seen = 0;
  for (int j = cs.node_area_ptr[static_cast<std::size_t>(n)]; j < cs.node_area_ptr[static_cast<std::size_t>(n) + 1]; ++j) {
    const double* a = &cs.node_area[4 * static_cast<std::size_t>(j)];
    const double c = -(a[0] * f[0] + a[1] * f[1] + a[2] * f[2]) / size;  // pressing against its outward side
    seen += a[3] != 0 ? std::abs(c) : std::max(c, 0.0);
  }
  return seen > 0 ? size / seen : 0.0;
}

AnalyticView<double> analytic_view(const ContactSystem& cs) {
  return {cs.num_facets,           cs.num_analytic,          cs.analytic_ref.data(), cs.analytic_frame.data(),
          cs.analytic_seg_ptr.data(), cs.analytic_seg.data(), cs.pair_surface.data()};
}

namespace {

/// Builds the contact system of a model definition by definition: the master facets, slave
/// records, feature edges and analytical surfaces of each, with the lookups they share
/// (exterior facets, node neighbours for self-contact, facet sides) made on first use.
class ContactBuilder {
 public:
  explicit ContactBuilder(const Model& model) : m(model), half(mid_surface_half_thickness(model)) {
    // Half the largest shell thickness at each node: a shell node touches from that far.
    node_half.assign(static_cast<std::size_t>(m.nodes.size()), 0.0);
    for (int e = 0; e < m.elements.size(); ++e)
      if (element_kind(m.elements.kind[static_cast<std::size_t>(e)]).mid_surface)
        for (int k = 0; k < m.elements.count_of(e); ++k) {
          double& h = node_half[static_cast<std::size_t>(m.elements.nodes_of(e)[k])];
          h = std::max(h, half[static_cast<std::size_t>(e)]);
        }
    // The definitions: the deck's, then general contact against every attached analytical
    // surface (Abaqus's ALL EXTERIOR takes them too).
    defs = m.contact.pairs;
    for (const ContactPair& p : m.contact.pairs)
      if (p.slave == kAllExterior && p.master == kAllExterior)
        for (const auto& [name, a] : m.analytical_surfaces)
          if (a.ref_node >= 0) defs.push_back(ContactPair{kAllExterior, name, p.interaction, p.loc});
    node_area.resize(static_cast<std::size_t>(m.nodes.size()));
  }

  /// The whole system.
  ContactSystem build() {
    for (const ContactPair& p : defs) add_definition(p);
    for (const ContactPair& p : defs) {
      bool mirror = p.slave == p.master;
      for (const ContactPair& q : defs) mirror = mirror || (q.slave == p.master && q.master == p.slave);
      cs.mirrored.push_back(mirror ? 1 : 0);
    }
    cs.num_facets = static_cast<int>(cs.facet_pair.size());
    cs.num_slaves = static_cast<int>(cs.slave_node.size());
    cs.num_edges = static_cast<int>(cs.edge_pair.size());
    cs.penalty_scale = m.contact.penalty_scale;
    cs.reach = 2 * max_offset + max_depth;
    cs.node_area_ptr.assign(1, 0);
    for (const std::vector<double>& a : node_area) {
      cs.node_area.insert(cs.node_area.end(), a.begin(), a.end());
      cs.node_area_ptr.push_back(static_cast<int>(cs.node_area.size() / 4));
    }
    if (cs.num_analytic > 0) check_initial_overclosure(m, cs, defs);
    return std::move(cs);
  }

 private:
  /// A surface's facets (the model's exterior for ALL EXTERIOR, computed once).
  std::vector<Facet> facets_of(const std::string& name) {
    if (name == kAllExterior) {
      if (!have_exterior) exterior = exterior_facets(m, half), have_exterior = true;
      return exterior;
    }
    return surface_facets(m, m.surfaces.at(name), half);
  }

  /// Node n's neighbours through elements, for self-contact (built on first use).
  const std::vector<int>& near_of(int n) {
    if (neighbours.empty()) {
      neighbours.resize(static_cast<std::size_t>(m.nodes.size()));
      for (int e = 0; e < m.elements.size(); ++e) {
        const int* c = m.elements.nodes_of(e);
        for (int a = 0; a < m.elements.count_of(e); ++a)
          for (int b = 0; b < m.elements.count_of(e); ++b)
            if (a != b) neighbours[static_cast<std::size_t>(c[a])].push_back(c[b]);
      }
      for (std::vector<int>& v : neighbours) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
      }
    }
    return neighbours[static_cast<std::size_t>(n)];
  }

  /// The model's exterior facets and their sides (the other facet of a surface's border edge).
  const SideMap& exterior_side_map() {
    if (exterior_sides.empty()) exterior_sides = facet_sides(facets_of(kAllExterior));
    return exterior_sides;
  }

  /// Edges of one definition into cs (role: kEdgeRecord / kEdgeTarget bits).
  void add_edges(const std::vector<Facet>& facets, int pair, std::uint8_t role, bool self_contact) {
    const SideMap& sides = exterior_side_map();
    std::vector<Edge> edges = feature_edges(m, facets, exterior, sides);
    if (m.renumbering.applied) {
      // The edges in the order (and each edge's nodes in the direction) a run in the deck's
      // numbering gives them, by their nodes' deck indices: of two touching edges of a
      // self-contact definition the first records the contact, and history/contact.csv's
      // totals (the force on the records) must not depend on --renumber.
      const std::vector<int>& deck = m.renumbering.node_deck;
      const auto key = [&deck](const Edge& e) {
        return std::make_pair(deck[static_cast<std::size_t>(e.nodes[0])], deck[static_cast<std::size_t>(e.nodes[1])]);
      };
      for (Edge& e : edges)
        if (deck[static_cast<std::size_t>(e.nodes[0])] > deck[static_cast<std::size_t>(e.nodes[1])])
          std::swap(e.nodes[0], e.nodes[1]);
      std::sort(edges.begin(), edges.end(), [&key](const Edge& a, const Edge& b) { return key(a) < key(b); });
    }
    for (const Edge& e : edges) {
      cs.edge_nodes.insert(cs.edge_nodes.end(), e.nodes.begin(), e.nodes.end());
      cs.edge_pair.push_back(pair);
      cs.edge_role.push_back(role);
      cs.edge_facets.insert(cs.edge_facets.end(), e.facets.begin(), e.facets.end());
      cs.edge_offset.push_back(e.offset);
      cs.edge_depth.push_back(e.depth);
      if (self_contact) {
        std::vector<int> near = near_of(e.nodes[0]);
        const std::vector<int>& more = near_of(e.nodes[1]);
        near.insert(near.end(), more.begin(), more.end());
        std::sort(near.begin(), near.end());
        near.erase(std::unique(near.begin(), near.end()), near.end());
        cs.edge_near_nodes.insert(cs.edge_near_nodes.end(), near.begin(), near.end());
      }
      cs.edge_near_ptr.push_back(static_cast<int>(cs.edge_near_nodes.size()));
    }
  }

  /// Definition p: its master (facets or an analytical surface), its slave records, its edges
  /// and its friction.
  void add_definition(const ContactPair& p) {
    const int pair = cs.num_pairs++;
    const auto an = m.analytical_surfaces.find(p.master);
    std::vector<Facet> master;
    if (an == m.analytical_surfaces.end()) {
      master = facets_of(p.master);
      if (master.empty())
        throw InputError(p.loc, "contact: the master surface '" + p.master +
                                    "' has no faces that contact acts on (solid faces or shell sides)");
      cs.pair_surface.push_back(-1);
    } else {
      if (an->second.ref_node < 0)
        throw InputError(p.loc, "contact: analytical surface '" + p.master + "' needs *RIGID BODY, ANALYTICAL SURFACE=" +
                                    p.master + ", REF NODE=...");
      auto it = analytic_index.find(p.master);
      if (it == analytic_index.end()) it = analytic_index.emplace(p.master, add_analytic(cs, an->second)).first;
      cs.pair_surface.push_back(it->second);
    }
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
    const SurfaceInteraction* si = p.interaction.empty() ? nullptr : &m.contact.interactions.at(p.interaction);
    const bool softened = si && si->overclosure != Overclosure::kHard;
    double clearance = 0;
    if (softened && (si->overclosure == Overclosure::kExponential || si->overclosure == Overclosure::kExponentialPeer))
      clearance = si->overclosure_law[0];
    if (softened && si->overclosure == Overclosure::kTabular) clearance = std::max(0.0, -si->overclosure_law[0]);
    cs.law_kind.push_back(static_cast<std::uint8_t>(softened ? si->overclosure : Overclosure::kHard));
    if (softened) cs.law_values.insert(cs.law_values.end(), si->overclosure_law.begin(), si->overclosure_law.end());
    cs.law_ptr.push_back(static_cast<int>(cs.law_values.size()));
    cs.law_clearance.push_back(clearance);
    const std::map<int, double> area = slave_areas(slave_surface, own, m, [&]() -> const std::vector<Facet>& {
      facets_of(kAllExterior);  // computed once, kept in `exterior`
      return exterior;
    });
    add_node_area(m, master, area_seen, node_area);
    add_node_area(m, own, area_seen, node_area);
    // Edge-to-edge contact is symmetric: of a pair and its reverse, the first one takes it.
    bool reverse_before = false;
    for (int q = 0; q < pair; ++q)
      reverse_before = reverse_before || (defs[static_cast<std::size_t>(q)].slave == p.master &&
                                          defs[static_cast<std::size_t>(q)].master == p.slave);
    // A softened law acts on the nodes' areas: edges, which stand for no area, take no contact.
    if (p.edges && an == m.analytical_surfaces.end() && !reverse_before && !softened) {
      if (p.slave == p.master) {
        add_edges(master, pair, kEdgeRecord | kEdgeTarget, true);
      } else if (!(slave_surface && slave_surface->node_based)) {
        add_edges(own, pair, kEdgeRecord, false);
        add_edges(master, pair, kEdgeTarget, false);
      }
    }
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
      cs.slave_offset.push_back(node_half[static_cast<std::size_t>(n)] + clearance);
      const auto a = area.find(n);
      cs.slave_area.push_back(a == area.end() ? 0.0 : a->second);
      const auto it = at_node.find(n);
      // A shell node touches from either side: no facing filter.
      if (it != at_node.end() && node_half[static_cast<std::size_t>(n)] == 0)
        for (const Facet* f : it->second) cs.slave_facet_nodes.insert(cs.slave_facet_nodes.end(), f->nodes.begin(), f->nodes.end());
      cs.slave_facet_ptr.push_back(static_cast<int>(cs.slave_facet_nodes.size() / 4));
      if (p.slave == p.master) {
        const std::vector<int>& near = near_of(n);
        cs.near_nodes.insert(cs.near_nodes.end(), near.begin(), near.end());
      }
      cs.near_ptr.push_back(static_cast<int>(cs.near_nodes.size()));
      max_offset = std::max(max_offset, node_half[static_cast<std::size_t>(n)] + clearance);
    }
    double mu = 0, mu_k = -1, dc = 0, stick = 0;
    if (!p.interaction.empty()) {
      const SurfaceInteraction& si = m.contact.interactions.at(p.interaction);
      mu = si.friction;
      mu_k = si.kinetic_friction;
      dc = si.decay;
      stick = si.stick_slope;
    }
    cs.stick_slope.push_back(stick);
    cs.mu_static.push_back(mu);
    cs.mu_kinetic.push_back(mu_k < 0 ? mu : mu_k);
    cs.decay.push_back(dc);
    cs.self.push_back(p.slave == p.master ? 1 : 0);
  }

  const Model& m;
  const std::vector<double> half;  ///< each shell element's half thickness
  std::vector<double> node_half;   ///< half the largest shell thickness at each node
  std::vector<ContactPair> defs;
  ContactSystem cs;
  std::vector<Facet> exterior;
  bool have_exterior = false;
  std::map<std::string, int> analytic_index;
  std::vector<std::vector<int>> neighbours;  ///< per node, for self-contact (built on first use)
  SideMap exterior_sides;
  std::vector<std::vector<double>> node_area;
  std::set<std::array<int, 4>> area_seen;
  double max_offset = 0, max_depth = 0;
};

}  // namespace

ContactSystem build_contact_system(const Model& m) {
  if (m.contact.empty()) return ContactSystem{};
  return ContactBuilder(m).build();
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
    // Against a rigid analytical master the spring moves the slave alone (omega^2 = k / m,
    // not up to 2 k / m between two nodes): twice the mass keeps the same frequency margin.
    if (!cs.pair_surface.empty() && cs.pair_surface[static_cast<std::size_t>(cs.slave_pair[static_cast<std::size_t>(i)])] >= 0)
      cs.spring_mass[static_cast<std::size_t>(i)] = 2 * ms;
  }
  // Edge records: the same rule over the edges' nodes (an edge's spring acts on its two
  // nodes by the closest point's weights, each at most 1).
  const auto edge_mass = [&](int e) {
    double l = std::numeric_limits<double>::infinity();
    for (int k = 0; k < 2; ++k) {
      const double mk = mass[static_cast<std::size_t>(cs.edge_nodes[2 * static_cast<std::size_t>(e) + k])];
      if (mk > 0) l = std::min(l, mk);
    }
    return l;
  };
  std::vector<double> lightest_target(static_cast<std::size_t>(cs.num_pairs), std::numeric_limits<double>::infinity());
  for (int e = 0; e < cs.num_edges; ++e)
    if (cs.edge_role[static_cast<std::size_t>(e)] & kEdgeTarget) {
      double& l = lightest_target[static_cast<std::size_t>(cs.edge_pair[static_cast<std::size_t>(e)])];
      l = std::min(l, edge_mass(e));
    }
  cs.edge_spring_mass.assign(static_cast<std::size_t>(cs.num_edges), 0.0);
  for (int e = 0; e < cs.num_edges; ++e) {
    const double mm = std::min(edge_mass(e), lightest_target[static_cast<std::size_t>(cs.edge_pair[static_cast<std::size_t>(e)])]);
    cs.edge_spring_mass[static_cast<std::size_t>(e)] = std::isfinite(mm) ? mm : 0.0;
  }
}

std::vector<int> contact_nodes(const ContactSystem& cs) {
  std::vector<int> nodes;
  for (int n : cs.facet_nodes)
    if (n >= 0) nodes.push_back(n);
  for (int n : cs.slave_facet_nodes)
    if (n >= 0) nodes.push_back(n);
  nodes.insert(nodes.end(), cs.slave_node.begin(), cs.slave_node.end());
  nodes.insert(nodes.end(), cs.analytic_ref.begin(), cs.analytic_ref.end());
  nodes.insert(nodes.end(), cs.edge_nodes.begin(), cs.edge_nodes.end());
  for (int n : cs.edge_facets)
    if (n >= 0) nodes.push_back(n);
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

ContactSystem renumber_contact(const ContactSystem& cs, const std::vector<int>& to_new, int num) {
  ContactSystem out = cs;
  const auto map = [&](std::vector<int>& v) {
    for (int& n : v)
      if (n >= 0) n = to_new[static_cast<std::size_t>(n)];
  };
  map(out.facet_nodes);
  map(out.slave_facet_nodes);
  map(out.slave_node);
  map(out.analytic_ref);
  map(out.edge_nodes);
  map(out.edge_facets);
  // A neighbour that is no contact node is no facet's corner and no edge's node: dropping it
  // changes nothing (and a -1 left in would match a triangle's missing fourth corner).
  const auto map_near = [&](const std::vector<int>& ptr, const std::vector<int>& nodes, std::vector<int>& out_ptr,
                            std::vector<int>& out_nodes) {
    out_ptr.assign(1, 0);
    out_nodes.clear();
    for (std::size_t i = 0; i + 1 < ptr.size(); ++i) {
      for (int j = ptr[i]; j < ptr[i + 1]; ++j) {
        const int n = to_new[static_cast<std::size_t>(nodes[static_cast<std::size_t>(j)])];
        if (n >= 0) out_nodes.push_back(n);
      }
      out_ptr.push_back(static_cast<int>(out_nodes.size()));
    }
  };
  map_near(cs.near_ptr, cs.near_nodes, out.near_ptr, out.near_nodes);
  map_near(cs.edge_near_ptr, cs.edge_near_nodes, out.edge_near_ptr, out.edge_near_nodes);
  out.node_area_ptr.assign(static_cast<std::size_t>(num) + 1, 0);
  out.node_area.clear();
  if (!cs.node_area_ptr.empty()) {
    std::vector<int> from(static_cast<std::size_t>(num), -1);
    for (std::size_t n = 0; n + 1 < cs.node_area_ptr.size(); ++n)
      if (to_new[n] >= 0) from[static_cast<std::size_t>(to_new[n])] = static_cast<int>(n);
    for (int k = 0; k < num; ++k) {
      const int n = from[static_cast<std::size_t>(k)];
      if (n >= 0)
        out.node_area.insert(out.node_area.end(), cs.node_area.begin() + 4 * cs.node_area_ptr[static_cast<std::size_t>(n)],
                             cs.node_area.begin() + 4 * cs.node_area_ptr[static_cast<std::size_t>(n) + 1]);
      out.node_area_ptr[static_cast<std::size_t>(k) + 1] = static_cast<int>(out.node_area.size() / 4);
    }
  }
  return out;
}

}  // namespace halfstep
