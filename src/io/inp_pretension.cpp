// *PRE-TENSION SECTION (a bolt's tightening): the section's surface cuts the mesh in two. The
// elements on the faces' side take twin nodes in place of the surface's nodes; each twin
// follows its node plus the section normal n times the pre-tension node's dof 1,
//   u_twin = u_node + n u_p,
// as *EQUATIONs (the twin's dofs dependent). So u_p is the overlap n . (u_faces' side - u_other
// side) the section closes (the bolt's shortening), a *CLOAD F on it pulls the two sides across
// the section into each other with F (tension in the bolt for F > 0 along the faces' outward
// normal, Abaqus's and the peer's sign), and a *BOUNDARY on it prescribes the shortening.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "elements/registry.hpp"
#include "elements/solid_faces.hpp"
#include "io/inp_parser.hpp"
#include "io/inp_text.hpp"

namespace halfstep::inp {

// SURFACE= and NODE= (Abaqus's and the peer's); ELEMENT= (a truss or beam as the section) is
// refused by name.
void DeckParser::pretension_keyword(const Keyword& kw) {
  allow_params(kw, {"SURFACE", "NODE", "ELEMENT"});
  if (kw.find("ELEMENT"))
    fail(kw.pos, "*PRE-TENSION SECTION, ELEMENT= (a truss or beam element as the section): not supported; cut the "
                 "bolt's solid mesh with SURFACE= instead");
  PendingPretension p;
  p.surface = key(required_param(kw, "SURFACE"));
  p.node = required_param(kw, "NODE");
  p.pos = kw.pos;
  pending_pretensions_.push_back(std::move(p));
}

// The optional data line: the section's normal (its sign sets the sign of the tightening).
void DeckParser::pretension_data(const Line& line) {
  if (block_lines_ > 1) fail(at_, "*PRE-TENSION SECTION takes one data line: the section's normal nx, ny, nz");
  need_fields(line, 3, "the normal's components nx, ny, nz");
  at_most_fields(line, 3, "the normal's components nx, ny, nz");
  PendingPretension& p = pending_pretensions_.back();
  double len = 0;
  for (int k = 0; k < 3; ++k) {
    p.normal[k] = real(line.fields[static_cast<std::size_t>(k)], "a component of the section's normal");
    len += p.normal[k] * p.normal[k];
  }
  len = std::sqrt(len);
  if (!(len > 0) || !std::isfinite(len))
    fail(at_, "*PRE-TENSION SECTION: the normal must be a non-zero, finite vector, got '" + std::string(line.fields[0]) +
                  ", " + std::string(line.fields[1]) + ", " + std::string(line.fields[2]) + "'");
  for (double& c : p.normal) c /= len;
  p.normal_given = true;
}

void DeckParser::resolve_pretension_sections() {
  if (pending_pretensions_.empty()) return;
  Nodes& nd = m_.nodes;
  Elements& el = m_.elements;
  std::vector<char> on_element(static_cast<std::size_t>(nd.size()), 0);
  for (int n : el.conn) on_element[static_cast<std::size_t>(n)] = 1;
  pretension_twin_.assign(static_cast<std::size_t>(nd.size()), -1);
  const auto node_name = [&](int n) { return "node " + std::to_string(nd.id[static_cast<std::size_t>(n)]); };
  const auto point = [&](int n) {
    const auto i = static_cast<std::size_t>(n);
    return std::array<double, 3>{nd.x[i], nd.y[i], nd.z[i]};
  };
  for (const PendingPretension& pp : pending_pretensions_) {
    const std::string what = "*PRE-TENSION SECTION on surface '" + pp.surface + "'";
    const std::vector<int> pn = node_targets(pp.node, pp.pos);
    if (pn.size() != 1)
      fail(pp.pos, what + ": NODE=" + pp.node + " has " + std::to_string(pn.size()) + " nodes, expected one");
    const int p = pn[0];
    if (pretension_nodes_.empty()) pretension_loc_ = loc(pp.pos);
    pretension_nodes_.push_back(p);
    if (on_element[static_cast<std::size_t>(p)])
      fail(pp.pos, what + ": the pre-tension " + node_name(p) +
                       " is a node of an element; give a node of its own (its dof 1 is the section's tightening)");
    const auto it = m_.surfaces.find(pp.surface);
    if (it == m_.surfaces.end()) fail(pp.pos, what + ": the surface is not defined");
    const Surface& s = it->second;
    if (s.node_based || s.elements.empty())
      fail(pp.pos, what + ": the surface must be made of element faces (TYPE=ELEMENT)");
    // The cut's nodes, the faces' elements, and the faces' outward area normal.
    std::vector<int> cut;
    std::vector<char> in_cut(static_cast<std::size_t>(nd.size()), 0), owner(static_cast<std::size_t>(el.size()), 0);
    double area[3] = {0, 0, 0};
    for (std::size_t f = 0; f < s.elements.size(); ++f) {
      const int e = s.elements[f];
      const ElementKindInfo& k = element_kind(el.kind[static_cast<std::size_t>(e)]);
      if (k.family != ElementFamily::Continuum || k.dimension != 3 || k.mid_surface || k.cross_section || k.discrete ||
          expanded_s8(e) || expanded_b32(e))
        fail(pp.pos, what + ": element " + std::to_string(el.id[static_cast<std::size_t>(e)]) + " (" +
                         el.abaqus_type[static_cast<std::size_t>(e)] +
                         ") is not a 3-D solid; the section cuts solid elements only so far");
      const int* c = el.nodes_of(e);
      const int count = el.count_of(e);
      int local[kFaceMaxNodes];
      const int shape = surface_face_nodes(count, false, s.faces[f], local);
      const int corners = face_corners(shape);
      // Newell's normal of the corners, turned away from the element's centre.
      double n[3] = {0, 0, 0}, fc[3] = {0, 0, 0}, ec[3] = {0, 0, 0};
      for (int a = 0; a < corners; ++a) {
        const auto pa = point(c[local[a]]), pb = point(c[local[(a + 1) % corners]]);
        n[0] += (pa[1] - pb[1]) * (pa[2] + pb[2]);
        n[1] += (pa[2] - pb[2]) * (pa[0] + pb[0]);
        n[2] += (pa[0] - pb[0]) * (pa[1] + pb[1]);
        for (int j = 0; j < 3; ++j) fc[j] += pa[static_cast<std::size_t>(j)] / corners;
      }
      for (int a = 0; a < count; ++a) {
        const auto pa = point(c[a]);
        for (int j = 0; j < 3; ++j) ec[j] += pa[static_cast<std::size_t>(j)] / count;
      }
      const double out = n[0] * (fc[0] - ec[0]) + n[1] * (fc[1] - ec[1]) + n[2] * (fc[2] - ec[2]);
      for (int j = 0; j < 3; ++j) area[j] += (out < 0 ? -0.5 : 0.5) * n[j];
      owner[static_cast<std::size_t>(e)] = 1;
      for (int a = 0; a < kFaceMaxNodes; ++a)
        if (local[a] >= 0 && !in_cut[static_cast<std::size_t>(c[local[a]])]) {
          in_cut[static_cast<std::size_t>(c[local[a]])] = 1;
          cut.push_back(c[local[a]]);
        }
    }
    const double alen = std::sqrt(area[0] * area[0] + area[1] * area[1] + area[2] * area[2]);
    if (!(alen > 0)) fail(pp.pos, what + ": the surface's faces have no area");
    const double side[3] = {area[0] / alen, area[1] / alen, area[2] / alen};  // outward of the faces' elements
    const double* normal = pp.normal_given ? pp.normal : side;
    // The elements on the faces' side: the faces' own, and any other element on a cut node
    // whose centre lies behind the section (against its outward normal).
    std::vector<char> twin_side = owner;
    for (int e = 0; e < el.size(); ++e) {
      if (owner[static_cast<std::size_t>(e)]) continue;
      const int* c = el.nodes_of(e);
      const int count = el.count_of(e);
      int at = -1;
      double ec[3] = {0, 0, 0}, size = 0;
      for (int a = 0; a < count; ++a) {
        if (in_cut[static_cast<std::size_t>(c[a])] && at < 0) at = c[a];
        const auto pa = point(c[a]);
        for (int j = 0; j < 3; ++j) ec[j] += pa[static_cast<std::size_t>(j)] / count;
      }
      if (at < 0) continue;
      for (int a = 0; a < count; ++a) {
        const auto pa = point(c[a]);
        size = std::max(size, std::fabs(pa[0] - ec[0]) + std::fabs(pa[1] - ec[1]) + std::fabs(pa[2] - ec[2]));
      }
      const auto pa = point(at);
      const double d = (ec[0] - pa[0]) * side[0] + (ec[1] - pa[1]) * side[1] + (ec[2] - pa[2]) * side[2];
      if (!(std::fabs(d) > 1e-9 * size))
        fail(pp.pos, what + ": element " + std::to_string(el.id[static_cast<std::size_t>(e)]) + " on " + node_name(at) +
                         " lies in the section's plane; it must lie on one side of the section");
      if (d < 0) twin_side[static_cast<std::size_t>(e)] = 1;
    }
    // The twins, with new ids above every id of the deck, in the surface's node order.
    const SourceLoc at = loc(pp.pos);
    for (int n : cut) {
      if (pretension_twin_[static_cast<std::size_t>(n)] >= 0)
        fail(pp.pos, what + ": " + node_name(n) + " is on an earlier pre-tension section too");
      const std::int64_t id = ++max_node_id_;
      const auto i = static_cast<std::size_t>(n);
      pretension_twin_[i] = nd.size();
      nd.index.emplace(id, nd.size());
      nd.id.push_back(id);
      nd.x.push_back(nd.x[i]);
      nd.y.push_back(nd.y[i]);
      nd.z.push_back(nd.z[i]);
      nd.loc.push_back(at);
    }
    pretension_twin_.resize(static_cast<std::size_t>(nd.size()), -1);
    for (int e = 0; e < el.size(); ++e) {
      if (!twin_side[static_cast<std::size_t>(e)]) continue;
      int* c = el.conn.data() + el.conn_ptr[static_cast<std::size_t>(e)];
      for (int a = 0; a < el.count_of(e); ++a)
        if (in_cut[static_cast<std::size_t>(c[a])]) c[a] = pretension_twin_[static_cast<std::size_t>(c[a])];
    }
    // u_twin - u_node - n u_p = 0, per direction, the twin's dof dependent.
    for (int n : cut)
      for (int d = 0; d < 3; ++d) {
        Equation eq;
        eq.nodes = {pretension_twin_[static_cast<std::size_t>(n)], n};
        eq.dofs = {d + 1, d + 1};
        eq.coefficients = {1.0, -1.0};
        if (normal[d] != 0) {
          eq.nodes.push_back(p);
          eq.dofs.push_back(1);
          eq.coefficients.push_back(-normal[d]);
        }
        eq.loc = at;
        m_.equations.push_back(std::move(eq));
      }
  }
  pending_pretensions_.clear();
}

void DeckParser::expand_pretension_node_conditions() {
  if (pretension_twin_.empty()) return;
  // The pre-tension node's dofs 2 and 3 carry nothing (no element, no equation): held at
  // zero in every step, so that an explicit step, whose nodes move by their masses, has no
  // massless free dof (its dof 1 takes the twins' masses through the equations).
  Boundary hold;
  hold.nodes = pretension_nodes_;
  hold.first_dof = 2;
  hold.last_dof = 3;
  hold.loc = pretension_loc_;
  for (std::size_t i = 0; i < m_.steps.size(); ++i)
    if (i == 0 || m_.steps[i].boundary_op_new) m_.steps[i].boundaries.push_back(hold);
  // A cut node's temperatures and initial velocities reach its twin.
  const auto add_twins = [&](std::vector<int>& nodes) {
    const std::size_t count = nodes.size();
    for (std::size_t i = 0; i < count; ++i) {
      const auto n = static_cast<std::size_t>(nodes[i]);
      if (n < pretension_twin_.size() && pretension_twin_[n] >= 0) nodes.push_back(pretension_twin_[n]);
    }
  };
  for (Step& step : m_.steps)
    for (TemperatureLine& t : step.temperatures) add_twins(t.nodes);
  for (TemperatureLine& t : m_.initial_temperatures) add_twins(t.nodes);
  for (InitialVelocity& v : m_.initial_velocities) add_twins(v.nodes);
}

}  // namespace halfstep::inp
