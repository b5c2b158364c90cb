// S8 and S8R: quadratic shells run as quadratic bricks (C3D20, C3D20R) across the thickness.
//
// Each shell node p becomes a line of brick nodes along its normal n: a bottom node at
// p - t/2 n and a top node at p + t/2 n; a corner node keeps p itself as the brick's mid-edge
// node (C3D20 nodes 17..20), a midside node (which the brick has no mid-thickness node for)
// follows their mean through an equation. The shell's translations are p's, so loads, supports
// and printed displacements stay on the deck's nodes; held rotations become equations that
// keep the line of brick nodes at the node turned as the rotation allows.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "elements/registry.hpp"
#include "io/expansion_equations.hpp"
#include "io/inp_parser.hpp"
#include "io/inp_text.hpp"

namespace halfstep::inp {

namespace {

using V3 = std::array<double, 3>;

V3 cross(const V3& a, const V3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const V3& a, const V3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
double norm(const V3& a) { return std::sqrt(dot(a, a)); }

/// Natural coordinates of the eight nodes of S8 (corners, then the midsides of edges 1-2,
/// 2-3, 3-4, 4-1).
constexpr double kXi[8] = {-1, 1, 1, -1, 0, 1, 0, -1};
constexpr double kEta[8] = {-1, -1, 1, 1, -1, 0, 1, 0};

/// Derivatives of the eight serendipity shape functions at (xi, eta).
void serendipity_derivatives(double xi, double eta, double dxi[8], double deta[8]) {
  for (int a = 0; a < 8; ++a) {
    const double xa = kXi[a], ya = kEta[a];
    if (a < 4) {
      dxi[a] = 0.25 * xa * (1 + eta * ya) * (2 * xi * xa + eta * ya);
      deta[a] = 0.25 * ya * (1 + xi * xa) * (xi * xa + 2 * eta * ya);
    } else if (xa == 0) {
      dxi[a] = -xi * (1 + eta * ya);
      deta[a] = 0.5 * (1 - xi * xi) * ya;
    } else {
      dxi[a] = 0.5 * xa * (1 - eta * eta);
      deta[a] = -eta * (1 + xi * xa);
    }
  }
}

/// One constraint row on a shell node's brick dofs: columns 0..2 bottom, 3..5 top, 6..8 the
/// deck's node.
using Row = std::array<double, 9>;

}  // namespace

bool DeckParser::expanded_s8(int e) const {
  return !expanded_s8_.empty() && expanded_s8_[static_cast<std::size_t>(e)];
}

void DeckParser::expand_s8_elements() {
  if (expanded_elements_.empty()) {
    if (!nodal_thickness_.empty())
      fail(nodal_thickness_.front().pos, "*NODAL THICKNESS in a model without S8/S8R elements: nodal thicknesses apply "
                                         "to S8/S8R elements only so far (give the thickness on *SHELL SECTION)");
    return;
  }
  const Elements& el = m_.elements;
  expanded_s8_.assign(static_cast<std::size_t>(el.size()), 0);
  for (int e : expanded_elements_) expanded_s8_[static_cast<std::size_t>(e)] = 1;
  const std::vector<double> thickness = s8_section_thickness();
  s8_node_lines(thickness);
  make_s8_bricks();
}

std::string DeckParser::s8_element_name(int e) const {
  const Elements& el = m_.elements;
  return "element " + std::to_string(el.id[static_cast<std::size_t>(e)]) + " (" + el.abaqus_type[static_cast<std::size_t>(e)] + ")";
}

std::vector<double> DeckParser::s8_section_thickness() {
  const Elements& el = m_.elements;
  // Each *SHELL SECTION of expanded elements becomes a *SOLID SECTION.
  std::vector<double> thickness(static_cast<std::size_t>(el.size()), -1.0);
  for (std::size_t i = 0; i < m_.sections.size();) {
    const auto& s = m_.sections[i];
    const std::vector<int>& members = m_.elsets.at(s.elset).members;
    const auto n_expanded = std::count_if(members.begin(), members.end(), [&](int e) { return expanded_s8(e); });
    if (n_expanded == 0) {
      ++i;
      continue;
    }
    if (n_expanded != static_cast<std::ptrdiff_t>(members.size()))
      fail(section_pos_[i], "*SHELL SECTION on element set '" + s.elset +
                                "' holds S8/S8R elements, which run as quadratic bricks across the thickness, and "
                                "other elements: give the S8/S8R elements a *SHELL SECTION of their own");
    if (!s.formulation.empty())
      fail(section_pos_[i], "*SHELL SECTION, FORMULATION=" + s.formulation + " does not apply to S8/S8R elements");
    if (!(s.thickness > 0) || !std::isfinite(s.thickness))
      fail(section_pos_[i], "shell thickness must be positive and finite");
    for (int e : members) {
      if (thickness[static_cast<std::size_t>(e)] >= 0)
        fail(section_pos_[i], s8_element_name(e) + " already has a *SHELL SECTION");
      thickness[static_cast<std::size_t>(e)] = s.thickness;
    }
    add_solid_section(s.elset, s.material, s.loc, section_pos_[i]);
    m_.sections.erase(m_.sections.begin() + static_cast<std::ptrdiff_t>(i));
    section_pos_.erase(section_pos_.begin() + static_cast<std::ptrdiff_t>(i));
  }
  return thickness;
}

void DeckParser::s8_node_lines(const std::vector<double>& thickness) {
  const Elements& el = m_.elements;
  const Nodes& nd = m_.nodes;
  // Per deck node: the mean unit normal of its expanded elements, its thickness and role.
  // Elements whose nodes carry translations only (solids, trusses, springs) may share the deck's
  // nodes: they join the shell's reference surface as a hinge, as in the peer (and as a solid
  // joins a shell in Abaqus). Shells and beams would need the node's rotations.
  std::vector<char> other_user(static_cast<std::size_t>(nd.size()), 0);
  for (int e = 0; e < el.size(); ++e)
    if (!expanded_s8(e) && element_kind(el.kind[static_cast<std::size_t>(e)]).dofs_per_node == 6)
      for (int a = 0; a < el.count_of(e); ++a) other_user[static_cast<std::size_t>(el.nodes_of(e)[a])] = 1;
  s8_node_of_.assign(static_cast<std::size_t>(nd.size()), -1);
  std::vector<V3> element_normal(8 * expanded_elements_.size());
  std::vector<std::pair<int, int>> step_at;  // (shell node, element) where section thicknesses differ
  for (std::size_t j = 0; j < expanded_elements_.size(); ++j) {
    const int e = expanded_elements_[j];
    if (thickness[static_cast<std::size_t>(e)] < 0) fail(el.loc[static_cast<std::size_t>(e)], s8_element_name(e) + " has no *SHELL SECTION");
    const int* c = el.nodes_of(e);
    for (int a = 0; a < 8; ++a) {
      const auto p = static_cast<std::size_t>(c[a]);
      if (other_user[p])
        fail(el.loc[static_cast<std::size_t>(e)], "node " + std::to_string(nd.id[p]) + " of " + s8_element_name(e) +
                                                      " is also a node of a shell or beam element: S8/S8R run as bricks "
                                                      "across the thickness, whose nodes carry no rotations, and joining "
                                                      "them to elements with rotations is not supported yet");
      double dxi[8], deta[8];
      serendipity_derivatives(kXi[a], kEta[a], dxi, deta);
      V3 gx{}, gy{};
      for (int b = 0; b < 8; ++b) {
        const auto q = static_cast<std::size_t>(c[b]);
        const V3 x{nd.x[q], nd.y[q], nd.z[q]};
        for (int i = 0; i < 3; ++i) {
          gx[static_cast<std::size_t>(i)] += dxi[b] * x[static_cast<std::size_t>(i)];
          gy[static_cast<std::size_t>(i)] += deta[b] * x[static_cast<std::size_t>(i)];
        }
      }
      V3 n = cross(gx, gy);
      const double len = norm(n);
      if (!(len > 0) || !std::isfinite(len))
        fail(el.loc[static_cast<std::size_t>(e)], s8_element_name(e) + " is degenerate at node " + std::to_string(nd.id[p]) +
                                                      " (its edges there are parallel or of zero length)");
      for (double& v : n) v /= len;
      element_normal[8 * j + static_cast<std::size_t>(a)] = n;
      int& s = s8_node_of_[p];
      if (s < 0) {
        s = static_cast<int>(s8_nodes_.size());
        S8Node sn;
        sn.node = c[a];
        sn.corner = a < 4;
        sn.thickness = thickness[static_cast<std::size_t>(e)];
        sn.loc = el.loc[static_cast<std::size_t>(e)];
        s8_nodes_.push_back(sn);
      }
      S8Node& sn = s8_nodes_[static_cast<std::size_t>(s)];
      if (sn.corner != (a < 4))
        fail(el.loc[static_cast<std::size_t>(e)], "node " + std::to_string(nd.id[p]) + " is a corner of one S8/S8R element and a "
                                                      "midside node of " + s8_element_name(e) + ": the mesh is not conforming");
      if (std::fabs(sn.thickness - thickness[static_cast<std::size_t>(e)]) > 1e-12 * sn.thickness)
        step_at.emplace_back(s, e);
      for (int i = 0; i < 3; ++i) sn.normal[static_cast<std::size_t>(i)] += n[static_cast<std::size_t>(i)];
      sn.size = std::max(sn.size, 2 * std::max(norm(gx), norm(gy)));
    }
  }
  // *NODAL THICKNESS replaces the section's thickness at its nodes (the bricks taper).
  std::vector<char> nodal(s8_nodes_.size(), 0);
  for (const PendingThickness& t : nodal_thickness_)
    for (int n : node_targets(t.target, t.pos)) {
      const int s = s8_node_of_[static_cast<std::size_t>(n)];
      if (s < 0)
        fail(t.pos, "*NODAL THICKNESS on node " + std::to_string(nd.id[static_cast<std::size_t>(n)]) +
                        ", which no S8/S8R element uses: nodal thicknesses apply to S8/S8R elements only so far");
      s8_nodes_[static_cast<std::size_t>(s)].thickness = t.thickness;
      nodal[static_cast<std::size_t>(s)] = 1;
    }
  for (const auto& [s, e] : step_at)
    if (!nodal[static_cast<std::size_t>(s)])
      fail(el.loc[static_cast<std::size_t>(e)], "node " + std::to_string(nd.id[static_cast<std::size_t>(s8_nodes_[static_cast<std::size_t>(s)].node)]) +
                                                    " joins S8/S8R elements of different *SHELL SECTION thicknesses: a "
                                                    "step in thickness is not supported (give the node a *NODAL THICKNESS)");
  // A thickness far beyond the elements' size makes bricks whose stiffness overflows.
  for (const S8Node& sn : s8_nodes_)
    if (sn.thickness > 1e3 * sn.size)
      fail(sn.loc, "node " + std::to_string(nd.id[static_cast<std::size_t>(sn.node)]) + ": the shell thickness " +
                       format_real(sn.thickness) + " is more than 1000 times its S8/S8R elements' size");
  for (S8Node& sn : s8_nodes_) {
    const double len = norm(sn.normal);
    for (double& v : sn.normal) v /= len > 0 ? len : 1.0;
  }
  // One normal per node: a fold or a junction of shells (elements whose normals at the node
  // differ by more than 20 degrees, or an element turned over) would need a rigid knot.
  const double cos_limit = std::cos(20.0 * 3.14159265358979323846 / 180.0);
  for (std::size_t j = 0; j < expanded_elements_.size(); ++j) {
    const int e = expanded_elements_[j];
    for (int a = 0; a < 8; ++a) {
      const auto p = static_cast<std::size_t>(el.nodes_of(e)[a]);
      const S8Node& sn = s8_nodes_[static_cast<std::size_t>(s8_node_of_[p])];
      if (dot(sn.normal, element_normal[8 * j + static_cast<std::size_t>(a)]) < cos_limit)
        fail(el.loc[static_cast<std::size_t>(e)], "the normal of " + s8_element_name(e) + " at node " + std::to_string(nd.id[p]) +
                                                      " differs from the node's other S8/S8R elements by more than 20 "
                                                      "degrees (a fold, a junction of shells or an element numbered the other "
                                                      "way round): S8/S8R run as bricks along one normal per node, and "
                                                      "such nodes are not supported yet");
    }
  }
  for (const auto& [node, pos] : node_normals_)
    if (s8_node_of_[static_cast<std::size_t>(node)] >= 0)
      fail(pos, "node " + std::to_string(nd.id[static_cast<std::size_t>(node)]) +
                    " has a normal direction on its *NODE line and S8/S8R elements use it: halfstep takes their "
                    "normals from the mesh (delete the normal)");
}

void DeckParser::make_s8_bricks() {
  Elements& el = m_.elements;
  Nodes& nd = m_.nodes;
  // The brick nodes: new ids above every id of the deck.
  for (S8Node& sn : s8_nodes_) {
    const auto p = static_cast<std::size_t>(sn.node);
    const SourceLoc at = sn.loc;
    for (int side = 0; side < 2; ++side) {
      const double s = (side == 0 ? -0.5 : 0.5) * sn.thickness;
      const std::int64_t id = ++max_node_id_;
      (side == 0 ? sn.bottom : sn.top) = nd.size();
      nd.index.emplace(id, nd.size());
      nd.id.push_back(id);
      nd.x.push_back(nd.x[p] + s * sn.normal[0]);
      nd.y.push_back(nd.y[p] + s * sn.normal[1]);
      nd.z.push_back(nd.z[p] + s * sn.normal[2]);
      nd.loc.push_back(at);
    }
  }
  s8_node_of_.resize(static_cast<std::size_t>(nd.size()), -1);  // the brick nodes are no shell nodes
  for (const S8Node& sn : s8_nodes_) m_.expanded_nodes.push_back({sn.node, {sn.bottom, sn.top}});
  // Connectivity: C3D20's bottom corners, top corners, bottom midsides, top midsides, then the
  // mid-thickness nodes of the corner lines (the deck's corner nodes).
  std::vector<int> conn;
  std::vector<int> ptr{0};
  conn.reserve(el.conn.size() + 12 * expanded_elements_.size());
  for (int e = 0; e < el.size(); ++e) {
    const int* c = el.nodes_of(e);
    if (!expanded_s8(e)) {
      conn.insert(conn.end(), c, c + el.count_of(e));
    } else {
      const auto line = [&](int a) -> const S8Node& { return s8_nodes_[static_cast<std::size_t>(s8_node_of_[static_cast<std::size_t>(c[a])])]; };
      for (int a = 0; a < 4; ++a) conn.push_back(line(a).bottom);
      for (int a = 0; a < 4; ++a) conn.push_back(line(a).top);
      for (int a = 4; a < 8; ++a) conn.push_back(line(a).bottom);
      for (int a = 4; a < 8; ++a) conn.push_back(line(a).top);
      for (int a = 0; a < 4; ++a) conn.push_back(c[a]);
    }
    ptr.push_back(static_cast<int>(conn.size()));
  }
  el.conn = std::move(conn);
  el.conn_ptr = std::move(ptr);
}

std::vector<unsigned> DeckParser::take_held_rotations(const std::vector<int>& node_of, std::size_t entries,
                                                     const char* kinds, const char* a_node, const char* turn_why) {
  const auto node_name = [&](int n) { return "node " + std::to_string(m_.nodes.id[static_cast<std::size_t>(n)]); };
  const auto expanded = [&](int n) { return node_of[static_cast<std::size_t>(n)] >= 0; };
  std::vector<unsigned> held(entries, 0);
  for (std::size_t si = 0; si < m_.steps.size(); ++si) {
    Step& step = m_.steps[si];
    std::vector<Boundary> lines;
    for (Boundary& b : step.boundaries) {
      if (b.last_dof < 4 || std::none_of(b.nodes.begin(), b.nodes.end(), expanded)) {
        lines.push_back(std::move(b));
        continue;
      }
      Boundary rest = b, kept = b;
      rest.nodes.clear();
      kept.nodes.clear();
      for (int n : b.nodes) (expanded(n) ? kept : rest).nodes.push_back(n);
      if (b.value != 0 || b.velocity)
        fail(b.loc, "a prescribed rotation (dofs " + std::to_string(std::max(4, b.first_dof)) + " to " +
                        std::to_string(b.last_dof) + ", value " + format_real(b.value) + ") on " + node_name(kept.nodes[0]) +
                        " of " + kinds + " elements: " + turn_why);
      unsigned bits = 0;
      for (int d = std::max(4, b.first_dof); d <= b.last_dof; ++d) bits |= 1u << (d - 4);
      for (int n : kept.nodes) {
        unsigned& h = held[static_cast<std::size_t>(node_of[static_cast<std::size_t>(n)])];
        if (si > 0 && (bits & ~h))
          fail(b.loc, "rotations of " + node_name(n) + " (" + a_node + ") held from step '" + step.name +
                          "' on: they are equations of the whole analysis; hold them from the first step");
        h |= bits;
      }
      if (!rest.nodes.empty()) lines.push_back(std::move(rest));
      if (b.first_dof <= 3) {
        kept.last_dof = 3;
        lines.push_back(std::move(kept));
      }
    }
    step.boundaries = std::move(lines);
    if (si > 0 && step.boundary_op_new && std::any_of(held.begin(), held.end(), [](unsigned h) { return h != 0; }))
      fail(step.loc, "*BOUNDARY, OP=NEW in step '" + step.name + "' with held rotations on " + kinds +
                         " nodes: they are equations of the whole analysis and cannot be released yet");
  }
  return held;
}

void DeckParser::expand_s8_node_conditions() {
  if (s8_nodes_.empty()) return;
  const auto on_s8 = [&](int n) { return s8_node_of_[static_cast<std::size_t>(n)] >= 0; };
  for (const Step& step : m_.steps)
    if (step.procedure == Procedure::ExplicitDynamic)
      fail(step.loc, "step '" + step.name + "' is *DYNAMIC, EXPLICIT, and the model has S8/S8R elements: they run as "
                                            "quadratic bricks joined by equations in implicit steps (*STATIC, *DYNAMIC, "
                                            "*FREQUENCY and the modal steps) only; Abaqus/Explicit has no S8R either");
  const std::vector<unsigned> held = take_held_rotations(
      s8_node_of_, s8_nodes_.size(), "S8/S8R", "an S8/S8R node",
      "they run as bricks across the thickness, whose nodes carry no rotations; holding rotations (value 0) is "
      "supported, turning them is not yet");
  for (Step& step : m_.steps) {
    s8_moments(step.cloads);
    split_s8_corner_loads(step.cloads);
    for (TemperatureLine& t : step.temperatures) add_brick_nodes(t.nodes);
  }
  for (TemperatureLine& t : m_.initial_temperatures) add_brick_nodes(t.nodes);
  for (InitialVelocity& v : m_.initial_velocities) {
    if (v.dof > 3 && std::any_of(v.nodes.begin(), v.nodes.end(), on_s8))
      fail(v.loc, "an initial rotational velocity on S8/S8R nodes: not supported (their bricks carry no rotations)");
    add_brick_nodes(v.nodes);
  }
  s8_node_equations(held);
}

void DeckParser::s8_node_equations(const std::vector<unsigned>& held) {
  // Equations per shell node: the midside node is the mean of its two brick nodes; a held
  // rotation about a tangent w keeps the node's line of brick nodes from turning about it:
  // with c = w x n, c . (top - bottom) = 0 (and c . (mid - bottom) = 0 at a corner, whose
  // line has three nodes). Gauss-Jordan on the rows, pivots among the brick nodes' dofs only, gives
  // each equation its own dependent dof and none a dependent term.
  const V3 axes[3] = {V3{1, 0, 0}, V3{0, 1, 0}, V3{0, 0, 1}};
  for (std::size_t s = 0; s < s8_nodes_.size(); ++s) {
    const S8Node& sn = s8_nodes_[s];
    std::vector<Row> rows;
    if (!sn.corner)
      for (int d = 0; d < 3; ++d) {
        Row r{};
        r[static_cast<std::size_t>(d)] = 1;
        r[static_cast<std::size_t>(3 + d)] = 1;
        r[static_cast<std::size_t>(6 + d)] = -2;
        rows.push_back(r);
      }
    // A brick line has no drilling rotation, so the rotation about the normal is free to
    // take any value: a held component theta . e_h = 0 constrains the line only in the
    // combinations w = sum lambda_h e_h that have no normal part (sum lambda_h n_h = 0),
    // theta . w = 0 with w in the tangent plane. (Holding the rotation about a normal that
    // round-off tilts must not hold a bending rotation.)
    std::vector<int> hs;
    for (int h = 0; h < 3; ++h)
      if (held[s] & (1u << h)) hs.push_back(h);
    std::vector<V3> ws;
    if (!hs.empty()) {
      int m = hs[0];
      for (int h : hs)
        if (std::fabs(sn.normal[static_cast<std::size_t>(h)]) > std::fabs(sn.normal[static_cast<std::size_t>(m)])) m = h;
      const double nm = sn.normal[static_cast<std::size_t>(m)];
      for (int h : hs) {
        if (std::fabs(nm) > 1e-8 && h == m) continue;
        V3 w = axes[h];
        if (std::fabs(nm) > 1e-8)
          for (int i = 0; i < 3; ++i) w[static_cast<std::size_t>(i)] -= sn.normal[static_cast<std::size_t>(h)] / nm * axes[m][static_cast<std::size_t>(i)];
        ws.push_back(w);
      }
    }
    std::vector<V3> basis;
    for (const V3& w : ws) {
      V3 c = cross(w, sn.normal);
      for (const V3& b : basis) {
        const double k = dot(c, b);
        for (int i = 0; i < 3; ++i) c[static_cast<std::size_t>(i)] -= k * b[static_cast<std::size_t>(i)];
      }
      const double len = norm(c);
      if (len < 1e-6) continue;
      for (double& v : c) v /= len;
      basis.push_back(c);
    }
    for (const V3& c : basis) {
      Row r{};  // c . (top - bottom)
      for (int i = 0; i < 3; ++i) {
        r[static_cast<std::size_t>(i)] = -c[static_cast<std::size_t>(i)];
        r[static_cast<std::size_t>(3 + i)] = c[static_cast<std::size_t>(i)];
      }
      rows.push_back(r);
      if (sn.corner) {
        Row m{};  // c . (mid - bottom)
        for (int i = 0; i < 3; ++i) {
          m[static_cast<std::size_t>(i)] = -c[static_cast<std::size_t>(i)];
          m[static_cast<std::size_t>(6 + i)] = c[static_cast<std::size_t>(i)];
        }
        rows.push_back(m);
      }
    }
    std::vector<std::vector<double>> dyn;
    for (const Row& r : rows) dyn.emplace_back(r.begin(), r.end());
    append_reduced_equations(std::move(dyn), {sn.bottom, sn.top, sn.node}, 2, sn.loc, m_.equations);
  }
}

int DeckParser::s8_pressure_face(const std::vector<int>& elements, int face, const std::string& type) const {
  if (std::any_of(elements.begin(), elements.end(), [&](int e) { return expanded_b32(e); }))
    fail(at_, "*DLOAD type " + type + " on B32/B32R elements: distributed loads on beams are not supported (use *CLOAD)");
  const auto s8 = [&](int e) { return expanded_s8(e); };
  if (std::none_of(elements.begin(), elements.end(), s8)) return face;
  if (face != 0) fail(at_, "*DLOAD type " + type + " on S8/S8R elements: shells take P");
  if (!std::all_of(elements.begin(), elements.end(), s8))
    fail(at_, "*DLOAD type P on a set of S8/S8R and other elements: give the S8/S8R elements a line of their own");
  return 1;  // the brick's bottom face, pushing along the normal as Abaqus's P on a shell does
}

void DeckParser::s8_moments(std::vector<ConcentratedLoad>& cloads) const {
  // A moment about e_h on a shell node turns its line of brick nodes: the forces -+(M_t x n) / t
  // on its bottom and top nodes (M_t the moment less its part along the normal; their moment
  // about the node is M_t). A line carries no moment about its own direction (a drilling
  // moment), so a moment axis more than 0.1 % along the normal is refused.
  const auto on_s8 = [&](int n) { return s8_node_of_[static_cast<std::size_t>(n)] >= 0; };
  std::vector<ConcentratedLoad> out;
  for (ConcentratedLoad& c : cloads) {
    if (c.dof <= 3 || std::none_of(c.nodes.begin(), c.nodes.end(), on_s8)) {
      out.push_back(std::move(c));
      continue;
    }
    ConcentratedLoad rest = c;
    rest.nodes.clear();
    for (int n : c.nodes) {
      if (!on_s8(n)) {
        rest.nodes.push_back(n);
        continue;
      }
      const S8Node& sn = s8_nodes_[static_cast<std::size_t>(s8_node_of_[static_cast<std::size_t>(n)])];
      V3 w{c.dof == 4 ? 1.0 : 0.0, c.dof == 5 ? 1.0 : 0.0, c.dof == 6 ? 1.0 : 0.0};
      const double wn = dot(w, sn.normal);
      if (std::fabs(wn) > 1e-3)
        fail(c.loc, "a moment about axis " + std::to_string(c.dof - 3) + " on node " +
                        std::to_string(m_.nodes.id[static_cast<std::size_t>(n)]) +
                        " of S8/S8R elements, whose normal there is not normal to that axis: S8/S8R run as bricks "
                        "across the thickness, which carry no moment about the shell's normal (a drilling moment)");
      for (int i = 0; i < 3; ++i) w[static_cast<std::size_t>(i)] -= wn * sn.normal[static_cast<std::size_t>(i)];
      const V3 f = cross(w, sn.normal);
      for (int side = 0; side < 2; ++side)
        for (int d = 0; d < 3; ++d) {
          if (f[static_cast<std::size_t>(d)] == 0) continue;
          ConcentratedLoad l = c;
          l.nodes = {side == 0 ? sn.bottom : sn.top};
          l.dof = d + 1;
          l.magnitude = (side == 0 ? -1.0 : 1.0) * c.magnitude * f[static_cast<std::size_t>(d)] / sn.thickness;
          out.push_back(std::move(l));
        }
    }
    if (!rest.nodes.empty()) out.push_back(std::move(rest));
  }
  cloads = std::move(out);
}

void DeckParser::split_s8_corner_loads(std::vector<ConcentratedLoad>& cloads) const {
  // A force on a corner node's line of three brick nodes is shared -1/2, 2, -1/2 (bottom,
  // mid, top); a midside node hands its force to its two brick nodes through its equation,
  // 1/2 each. A uniform edge traction on the shell gives its corner and midside nodes 1/6 and
  // 2/3 of each element edge's force, and the brick face across the edge (an 8-node
  // serendipity face) takes a uniform traction as -1/12 at its corners and 1/3 at its
  // midsides: the shares above, so the stress stays uniform (1/6-2/3-1/6, the quadratic
  // line's weights, made the edge wavy by 24 %; the peer's answers agree with these).
  std::vector<ConcentratedLoad> out;
  for (ConcentratedLoad& c : cloads) {
    ConcentratedLoad rest = c, mid = c, ends = c;
    rest.nodes.clear();
    mid.nodes.clear();
    ends.nodes.clear();
    for (int n : c.nodes) {
      const int s = s8_node_of_[static_cast<std::size_t>(n)];
      if (s < 0 || !s8_nodes_[static_cast<std::size_t>(s)].corner) {
        rest.nodes.push_back(n);
        continue;
      }
      mid.nodes.push_back(n);
      ends.nodes.push_back(s8_nodes_[static_cast<std::size_t>(s)].bottom);
      ends.nodes.push_back(s8_nodes_[static_cast<std::size_t>(s)].top);
    }
    if (!rest.nodes.empty()) out.push_back(std::move(rest));
    if (mid.nodes.empty()) continue;
    mid.magnitude = c.magnitude * 2.0;
    ends.magnitude = -c.magnitude / 2.0;
    out.push_back(std::move(mid));
    out.push_back(std::move(ends));
  }
  cloads = std::move(out);
}

void DeckParser::add_brick_nodes(std::vector<int>& nodes) const {
  const std::size_t n = nodes.size();
  for (std::size_t i = 0; i < n; ++i) {
    const int s = s8_node_of_[static_cast<std::size_t>(nodes[i])];
    if (s < 0) continue;
    nodes.push_back(s8_nodes_[static_cast<std::size_t>(s)].bottom);
    nodes.push_back(s8_nodes_[static_cast<std::size_t>(s)].top);
  }
}

}  // namespace halfstep::inp

namespace halfstep::inp {

void DeckParser::nodal_thickness_keyword(const Keyword& kw) { allow_params(kw, {}); }

void DeckParser::nodal_thickness_data(const Line& line) {
  need_fields(line, 2, "node or node set, thickness");
  at_most_fields(line, 2, "node or node set, thickness");
  PendingThickness t;
  t.target = key(line.fields[0]);
  t.thickness = real(line.fields[1], "the thickness");
  if (!(t.thickness > 0) || !std::isfinite(t.thickness))
    fail(at_, "*NODAL THICKNESS: the thickness must be positive and finite, got '" + std::string(line.fields[1]) + "'");
  t.pos = at_;
  nodal_thickness_.push_back(std::move(t));
}

}  // namespace halfstep::inp
