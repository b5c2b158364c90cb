// B32 and B32R: quadratic beams run as quadratic bricks (C3D20, C3D20R) around their axis.
//
// Each beam node p gets a section of brick nodes in the plane of its frame (t the mean
// tangent, n1 the *BEAM SECTION's direction made normal to t, n2 = t x n1): at an end node
// eight (the rectangle's corners and edge midpoints, at -+a/2 along n1 and -+b/2 along n2), at
// a middle node its four corners (C3D20's mid-length nodes). The beam node itself is no brick
// node: it is the mean of its section through an equation, so loads, supports and printed
// displacements stay on the deck's nodes. Rotations are the section's mean rotation (the
// least-squares rotation of its nodes about p): a held rotation is an equation on it, a moment
// the forces that do its work.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "elements/registry.hpp"
#include "io/expansion_equations.hpp"
#include "io/inp_parser.hpp"

namespace halfstep::inp {

namespace {

using V3 = std::array<double, 3>;

V3 cross(const V3& a, const V3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const V3& a, const V3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
double norm(const V3& a) { return std::sqrt(dot(a, a)); }
V3 scaled(const V3& a, double s) { return {a[0] * s, a[1] * s, a[2] * s}; }

/// Section coordinates (eta along n1, zeta along n2, in half widths) of the eight section
/// nodes: corners, then the midpoints of the edges zeta = -1, eta = +1, zeta = +1, eta = -1.
constexpr int kEta[8] = {-1, 1, 1, -1, 0, 1, 0, -1};
constexpr int kZeta[8] = {-1, -1, 1, 1, -1, 0, 1, 0};

/// The section node at (eta, zeta).
int section_index(int eta, int zeta) {
  for (int k = 0; k < 8; ++k)
    if (kEta[k] == eta && kZeta[k] == zeta) return k;
  return -1;
}

/// C3D20's nodes as (beam node: 0 = first end, 1 = middle, 2 = second end; natural eta; natural
/// zeta), with xi along the beam from its first node to its third.
constexpr int kBrick[20][3] = {{0, -1, -1}, {2, -1, -1}, {2, 1, -1}, {0, 1, -1}, {0, -1, 1}, {2, -1, 1}, {2, 1, 1},
                               {0, 1, 1},   {1, -1, -1}, {2, 0, -1}, {1, 1, -1}, {0, 0, -1}, {1, -1, 1}, {2, 0, 1},
                               {1, 1, 1},   {0, 0, 1},   {0, -1, 0}, {2, -1, 0}, {2, 1, 0},  {0, 1, 0}};

/// The inverse of the symmetric 3 x 3 matrix J (row-major); false when it is singular.
bool invert3(const std::array<double, 9>& J, std::array<double, 9>& out) {
  const double a = J[0], b = J[1], c = J[2], d = J[4], e = J[5], f = J[8];
  const double det = a * (d * f - e * e) - b * (b * f - c * e) + c * (b * e - c * d);
  if (!(std::fabs(det) > 1e-300)) return false;
  out = {(d * f - e * e) / det, (c * e - b * f) / det, (b * e - c * d) / det, (c * e - b * f) / det, (a * f - c * c) / det,
         (b * c - a * e) / det, (b * e - c * d) / det, (b * c - a * e) / det, (a * d - b * b) / det};
  return true;
}

V3 times(const std::array<double, 9>& M, const V3& v) {
  return {M[0] * v[0] + M[1] * v[1] + M[2] * v[2], M[3] * v[0] + M[4] * v[1] + M[5] * v[2],
          M[6] * v[0] + M[7] * v[1] + M[8] * v[2]};
}

}  // namespace

bool DeckParser::expanded_b32(int e) const {
  return !expanded_b32_.empty() && expanded_b32_[static_cast<std::size_t>(e)];
}

void DeckParser::expand_b32_elements() {
  if (expanded_b32_elements_.empty()) return;
  const Elements& el = m_.elements;
  expanded_b32_.assign(static_cast<std::size_t>(el.size()), 0);
  for (int e : expanded_b32_elements_) expanded_b32_[static_cast<std::size_t>(e)] = 1;
  std::vector<B32Section> sections;
  const std::vector<int> section_of = take_b32_sections(sections);
  b32_frames(section_of, sections);
  make_b32_bricks();
}

void DeckParser::b32_frames(const std::vector<int>& section_of, const std::vector<B32Section>& sections) {
  const Elements& el = m_.elements;
  const Nodes& nd = m_.nodes;
  std::vector<char> rotating_user(static_cast<std::size_t>(nd.size()), 0);  // nodes of shells and beams
  for (int e = 0; e < el.size(); ++e)
    if (!expanded_b32(e) && element_kind(el.kind[static_cast<std::size_t>(e)]).dofs_per_node == 6)
      for (int a = 0; a < el.count_of(e); ++a) rotating_user[static_cast<std::size_t>(el.nodes_of(e)[a])] = 1;
  b32_node_of_.assign(static_cast<std::size_t>(nd.size()), -1);
  std::vector<V3> tangent(3 * expanded_b32_elements_.size());
  const auto at = [&](int n) { return V3{nd.x[static_cast<std::size_t>(n)], nd.y[static_cast<std::size_t>(n)], nd.z[static_cast<std::size_t>(n)]}; };
  for (std::size_t j = 0; j < expanded_b32_elements_.size(); ++j) {
    const int e = expanded_b32_elements_[j];
    const auto ke = static_cast<std::size_t>(e);
    if (section_of[ke] < 0) fail(el.loc[ke], s8_element_name(e) + " has no *BEAM SECTION");
    const B32Section& s = sections[static_cast<std::size_t>(section_of[ke])];
    const int* c = el.nodes_of(e);
    const V3 xa = at(c[0]), xm = at(c[1]), xb = at(c[2]);
    for (int a = 0; a < 3; ++a) {
      const double xi = a - 1.0;  // ends at -1 and +1, the middle at 0
      const double d0 = xi - 0.5, d1 = -2 * xi, d2 = xi + 0.5;
      V3 tg{};
      for (int i = 0; i < 3; ++i)
        tg[static_cast<std::size_t>(i)] = d0 * xa[static_cast<std::size_t>(i)] + d1 * xm[static_cast<std::size_t>(i)] +
                                          d2 * xb[static_cast<std::size_t>(i)];
      const double len = norm(tg);
      const auto p = static_cast<std::size_t>(c[a]);
      if (!(len > 0) || !std::isfinite(len))
        fail(el.loc[ke], s8_element_name(e) + " is degenerate at node " + std::to_string(nd.id[p]));
      tg = scaled(tg, 1 / len);
      // A section far beyond the element's length makes bricks whose stiffness overflows.
      if (std::max(s.a, s.b) > 1e3 * len)
        fail(el.loc[ke], s8_element_name(e) + ": its *BEAM SECTION is more than 1000 times the element's length");
      tangent[3 * j + static_cast<std::size_t>(a)] = tg;
      if (rotating_user[p])
        fail(el.loc[ke], "node " + std::to_string(nd.id[p]) + " of " + s8_element_name(e) +
                             " is also a node of a shell or beam element: B32/B32R run as bricks around their axis, "
                             "and joining them to elements with rotations is not supported yet");
      int& b = b32_node_of_[p];
      if (b < 0) {
        b = static_cast<int>(b32_nodes_.size());
        B32Node bn;
        bn.node = c[a];
        bn.end = a != 1;
        bn.a = s.a;
        bn.b = s.b;
        bn.circ = s.circ;
        bn.n1 = s.n1;
        bn.loc = el.loc[ke];
        b32_nodes_.push_back(bn);
      }
      B32Node& bn = b32_nodes_[static_cast<std::size_t>(b)];
      if (bn.end != (a != 1))
        fail(el.loc[ke], "node " + std::to_string(nd.id[p]) + " is an end of one B32/B32R element and the middle of " +
                             s8_element_name(e) + ": the mesh is not conforming");
      if (std::fabs(bn.a - s.a) > 1e-12 * bn.a || std::fabs(bn.b - s.b) > 1e-12 * bn.b || bn.circ != s.circ ||
          norm(cross(V3{bn.n1[0], bn.n1[1], bn.n1[2]}, V3{s.n1[0], s.n1[1], s.n1[2]})) > 1e-9 * norm(V3{s.n1[0], s.n1[1], s.n1[2]}) * norm(V3{bn.n1[0], bn.n1[1], bn.n1[2]}))
        fail(el.loc[ke], "node " + std::to_string(nd.id[p]) + " joins B32/B32R elements of different sections or n1 "
                                                              "directions: a step in the section is not supported yet");
      // Tangents of elements numbered the other way round count reversed.
      const double sign = dot(bn.t, tg) < 0 ? -1.0 : 1.0;
      for (int i = 0; i < 3; ++i) bn.t[static_cast<std::size_t>(i)] += sign * tg[static_cast<std::size_t>(i)];
    }
  }
  for (B32Node& bn : b32_nodes_) {
    bn.t = scaled(bn.t, 1 / std::max(norm(bn.t), 1e-300));
    V3 n1{bn.n1[0], bn.n1[1], bn.n1[2]};
    n1 = V3{n1[0] - dot(n1, bn.t) * bn.t[0], n1[1] - dot(n1, bn.t) * bn.t[1], n1[2] - dot(n1, bn.t) * bn.t[2]};
    const double len = norm(n1);
    if (!(len > 1e-6 * norm(V3{bn.n1[0], bn.n1[1], bn.n1[2]})))
      fail(bn.loc, "node " + std::to_string(nd.id[static_cast<std::size_t>(bn.node)]) +
                       ": the *BEAM SECTION's n1 direction lies along the beam there (give an n1 across the beam)");
    bn.n1 = scaled(n1, 1 / len);
    bn.n2 = cross(bn.t, bn.n1);
  }
  for (const auto& [node, pos] : node_normals_)
    if (b32_node_of_[static_cast<std::size_t>(node)] >= 0)
      fail(pos, "node " + std::to_string(nd.id[static_cast<std::size_t>(node)]) +
                    " has a normal direction on its *NODE line and B32/B32R elements use it: halfstep takes their "
                    "n1 from the *BEAM SECTION (delete the normal)");
  // One frame per node: a kink (elements whose tangents differ by more than 20 degrees)
  // would need a rigid knot.
  const double cos_limit = std::cos(20.0 * 3.14159265358979323846 / 180.0);
  b32_flip_.assign(expanded_b32_elements_.size(), 0);
  for (std::size_t j = 0; j < expanded_b32_elements_.size(); ++j) {
    const int e = expanded_b32_elements_[j];
    for (int a = 0; a < 3; ++a) {
      const auto p = static_cast<std::size_t>(el.nodes_of(e)[a]);
      const B32Node& bn = b32_nodes_[static_cast<std::size_t>(b32_node_of_[p])];
      const double c = dot(bn.t, tangent[3 * j + static_cast<std::size_t>(a)]);
      if (std::fabs(c) < cos_limit)
        fail(el.loc[static_cast<std::size_t>(e)], "the axis of " + s8_element_name(e) + " at node " + std::to_string(nd.id[p]) +
                                                      " turns by more than 20 degrees against the node's other B32/B32R "
                                                      "elements (a kink or a joint): B32/B32R run as bricks with one "
                                                      "section per node, and such nodes are not supported yet");
      const char flip = c < 0 ? 1 : 0;
      if (a > 0 && flip != b32_flip_[j])
        fail(el.loc[static_cast<std::size_t>(e)], s8_element_name(e) + " turns back on itself");
      b32_flip_[j] = flip;
    }
  }
}

void DeckParser::make_b32_bricks() {
  Elements& el = m_.elements;
  Nodes& nd = m_.nodes;
  for (B32Node& bn : b32_nodes_) {
    const auto p = static_cast<std::size_t>(bn.node);
    for (int k = 0; k < (bn.end ? 8 : 4); ++k) {
      const std::array<double, 3> r = b32_offset(bn, k);
      const std::int64_t id = ++max_node_id_;
      bn.section[static_cast<std::size_t>(k)] = nd.size();
      nd.index.emplace(id, nd.size());
      nd.id.push_back(id);
      nd.x.push_back(nd.x[p] + r[0]);
      nd.y.push_back(nd.y[p] + r[1]);
      nd.z.push_back(nd.z[p] + r[2]);
      nd.loc.push_back(bn.loc);
    }
  }
  b32_node_of_.resize(static_cast<std::size_t>(nd.size()), -1);
  for (const B32Node& bn : b32_nodes_)
    m_.expanded_nodes.push_back({bn.node, std::vector<int>(bn.section.begin(), bn.section.begin() + (bn.end ? 8 : 4))});
  if (!s8_node_of_.empty()) s8_node_of_.resize(static_cast<std::size_t>(nd.size()), -1);
  std::vector<int> brick_of(static_cast<std::size_t>(el.size()), -1);
  for (std::size_t j = 0; j < expanded_b32_elements_.size(); ++j) brick_of[static_cast<std::size_t>(expanded_b32_elements_[j])] = static_cast<int>(j);
  std::vector<int> conn;
  std::vector<int> ptr{0};
  conn.reserve(el.conn.size() + 17 * expanded_b32_elements_.size());
  for (int e = 0; e < el.size(); ++e) {
    const int* c = el.nodes_of(e);
    const int j = brick_of[static_cast<std::size_t>(e)];
    if (j < 0) {
      conn.insert(conn.end(), c, c + el.count_of(e));
    } else {
      // The brick's natural axes are (t, -n2, n1), the peer's: its integration points, and so
      // the printed stresses, come in the peer's order. An element against its nodes' tangents
      // runs along -t: (-t, n2, n1) keeps the brick right-handed.
      const int s = b32_flip_[static_cast<std::size_t>(j)] ? -1 : 1;
      for (const auto& q : kBrick) {
        const B32Node& bn = b32_nodes_[static_cast<std::size_t>(b32_node_of_[static_cast<std::size_t>(c[q[0]])])];
        conn.push_back(bn.section[static_cast<std::size_t>(section_index(q[2], -s * q[1]))]);
      }
    }
    ptr.push_back(static_cast<int>(conn.size()));
  }
  el.conn = std::move(conn);
  el.conn_ptr = std::move(ptr);
}

std::array<double, 9> DeckParser::b32_inverse_inertia(const B32Node& bn) const {
  std::array<double, 9> J{};
  for (int k = 0; k < (bn.end ? 8 : 4); ++k) {
    const V3 r = b32_offset(bn, k);
    const double r2 = dot(r, r);
    for (int i = 0; i < 3; ++i)
      for (int m = 0; m < 3; ++m)
        J[static_cast<std::size_t>(3 * i + m)] += (i == m ? r2 : 0.0) - r[static_cast<std::size_t>(i)] * r[static_cast<std::size_t>(m)];
  }
  std::array<double, 9> inv{};
  if (!invert3(J, inv)) fail(bn.loc, "B32/B32R section without extent");
  return inv;
}

std::array<double, 3> DeckParser::b32_offset(const B32Node& bn, int k) const {
  // A circle's corner nodes sit on it at 45 degrees, its edge nodes on the axes (the peer's
  // placement): the brick's quadratic sides then follow the circle.
  const double f = bn.circ && kEta[k] != 0 && kZeta[k] != 0 ? std::sqrt(0.5) : 1.0;
  const double u = 0.5 * bn.a * kEta[k] * f, v = 0.5 * bn.b * kZeta[k] * f;
  return {u * bn.n1[0] + v * bn.n2[0], u * bn.n1[1] + v * bn.n2[1], u * bn.n1[2] + v * bn.n2[2]};
}

void DeckParser::expand_b32_node_conditions() {
  if (b32_nodes_.empty()) return;
  const auto on_b32 = [&](int n) { return b32_node_of_[static_cast<std::size_t>(n)] >= 0; };
  for (const Step& step : m_.steps)
    if (step.procedure == Procedure::ExplicitDynamic)
      fail(step.loc, "step '" + step.name + "' is *DYNAMIC, EXPLICIT, and the model has B32/B32R elements: they run as "
                                            "quadratic bricks joined by equations in implicit steps only (B31 runs in "
                                            "explicit steps)");
  const std::vector<unsigned> held =
      take_held_rotations(b32_node_of_, b32_nodes_.size(), "B32/B32R", "a B32/B32R node",
                          "their sections' mean rotation can be held (value 0), not turned yet");
  for (Step& step : m_.steps) {
    b32_moments(step.cloads);
    for (TemperatureLine& t : step.temperatures) add_section_nodes(t.nodes);
  }
  for (TemperatureLine& t : m_.initial_temperatures) add_section_nodes(t.nodes);
  for (InitialVelocity& v : m_.initial_velocities) {
    if (v.dof > 3 && std::any_of(v.nodes.begin(), v.nodes.end(), on_b32))
      fail(v.loc, "an initial rotational velocity on B32/B32R nodes: not supported (their bricks carry no rotations)");
    add_section_nodes(v.nodes);
  }
  // Per beam node: its mean (N p = sum of its section's N nodes) and its held mean rotations
  // (e_h . J^-1 sum r_k x u_k = 0, J = sum |r_k|^2 I - r_k r_k^T).
  for (const B32Node& bn : b32_nodes_) {
    const int count = bn.end ? 8 : 4;
    std::vector<int> cols(bn.section.begin(), bn.section.begin() + count);
    cols.push_back(bn.node);
    const std::size_t ncol = 3 * cols.size();
    std::vector<std::vector<double>> rows;
    for (int d = 0; d < 3; ++d) {
      std::vector<double> r(ncol, 0.0);
      for (int k = 0; k < count; ++k) r[static_cast<std::size_t>(3 * k + d)] = 1.0;
      r[ncol - 3 + static_cast<std::size_t>(d)] = -count;
      rows.push_back(std::move(r));
    }
    const unsigned h = held[static_cast<std::size_t>(b32_node_of_[static_cast<std::size_t>(bn.node)])];
    if (h) {
      const std::array<double, 9> Jinv = b32_inverse_inertia(bn);
      for (int a = 0; a < 3; ++a) {
        if (!(h & (1u << a))) continue;
        const V3 w = times(Jinv, V3{a == 0 ? 1.0 : 0.0, a == 1 ? 1.0 : 0.0, a == 2 ? 1.0 : 0.0});
        std::vector<double> r(ncol, 0.0);
        for (int k = 0; k < count; ++k) {
          const V3 c = cross(w, b32_offset(bn, k));  // (J^-1 e_h) x r_k
          for (int i = 0; i < 3; ++i) r[static_cast<std::size_t>(3 * k + i)] = c[static_cast<std::size_t>(i)];
        }
        rows.push_back(std::move(r));
      }
    }
    append_reduced_equations(std::move(rows), cols, count, bn.loc, m_.equations);
  }
}

void DeckParser::b32_moments(std::vector<ConcentratedLoad>& cloads) const {
  // A moment M about e_h on a beam node does the work of the section's mean rotation: forces
  // f_k = (J^-1 M) x r_k on its section nodes (their sum is zero, their moment about the node M).
  std::vector<ConcentratedLoad> out;
  for (ConcentratedLoad& c : cloads) {
    if (c.dof <= 3 || std::none_of(c.nodes.begin(), c.nodes.end(), [&](int n) { return b32_node_of_[static_cast<std::size_t>(n)] >= 0; })) {
      out.push_back(std::move(c));
      continue;
    }
    ConcentratedLoad rest = c;
    rest.nodes.clear();
    for (int n : c.nodes) {
      const int b = b32_node_of_[static_cast<std::size_t>(n)];
      if (b < 0) {
        rest.nodes.push_back(n);
        continue;
      }
      const B32Node& bn = b32_nodes_[static_cast<std::size_t>(b)];
      const V3 w = times(b32_inverse_inertia(bn), V3{c.dof == 4 ? 1.0 : 0.0, c.dof == 5 ? 1.0 : 0.0, c.dof == 6 ? 1.0 : 0.0});
      for (int k = 0; k < (bn.end ? 8 : 4); ++k) {
        const V3 f = cross(w, b32_offset(bn, k));
        for (int d = 0; d < 3; ++d) {
          if (f[static_cast<std::size_t>(d)] == 0) continue;
          ConcentratedLoad l = c;
          l.nodes = {bn.section[static_cast<std::size_t>(k)]};
          l.dof = d + 1;
          l.magnitude = c.magnitude * f[static_cast<std::size_t>(d)];
          out.push_back(std::move(l));
        }
      }
    }
    if (!rest.nodes.empty()) out.push_back(std::move(rest));
  }
  cloads = std::move(out);
}

void DeckParser::add_section_nodes(std::vector<int>& nodes) const {
  const std::size_t n = nodes.size();
  for (std::size_t i = 0; i < n; ++i) {
    const int b = b32_node_of_[static_cast<std::size_t>(nodes[i])];
    if (b < 0) continue;
    const B32Node& bn = b32_nodes_[static_cast<std::size_t>(b)];
    nodes.insert(nodes.end(), bn.section.begin(), bn.section.begin() + (bn.end ? 8 : 4));
  }
}

}  // namespace halfstep::inp
