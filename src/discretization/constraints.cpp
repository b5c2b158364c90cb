#include "discretization/constraints.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "core/vec3.hpp"
#include "elements/kind_info.hpp"
#include "elements/solid_faces.hpp"

namespace halfstep {
namespace {

/// A face of a master surface: its nodes (3, 4 or 6; FaceShape) in the element's order.
struct MasterFace {
  int shape = kFaceQuad4;
  int nodes[kFaceMaxNodes] = {-1, -1, -1, -1, -1, -1, -1, -1};
};

MasterFace master_face(const Model& m, int e, int face) {
  MasterFace f;
  const int* c = m.elements.nodes_of(e);
  const int count = m.elements.count_of(e);
  int local[kFaceMaxNodes];
  f.shape = surface_face_nodes(count, element_kind(m.elements.kind[e]).mid_surface, face, local);
  for (int k = 0; k < f.shape; ++k) f.nodes[k] = c[local[k]];
  return f;
}

/// Whether a face shape is a quadrilateral (parameters r, s in [-1, 1]).
bool quad_face(int shape) { return shape == kFaceQuad4 || shape == kFaceQuad8; }

/// Shape functions of a face at (r, s) and their derivatives (quad: r, s in [-1, 1]; triangles:
/// r, s >= 0, r + s <= 1 with the corners at (0, 0), (1, 0), (0, 1)).
void face_shape(int shape, double r, double s, double N[kFaceMaxNodes], double dr[kFaceMaxNodes],
                double ds[kFaceMaxNodes]) {
  if (shape == kFaceQuad8) {
    // Serendipity: corners (-+1, -+1) counter-clockwise, then mid-edge nodes of (0,1) (1,2)
    // (2,3) (3,0), as solid_face lists them.
    const double rs[4] = {-1, 1, 1, -1}, ss[4] = {-1, -1, 1, 1};
    for (int a = 0; a < 4; ++a) {
      const double p = 1 + rs[a] * r, q = 1 + ss[a] * s, t = rs[a] * r + ss[a] * s - 1;
      N[a] = 0.25 * p * q * t;
      dr[a] = 0.25 * rs[a] * q * (t + p);
      ds[a] = 0.25 * ss[a] * p * (t + q);
    }
    for (int e = 0; e < 4; ++e) {
      const int a = 4 + e;
      if (e % 2 == 0) {  // on s = -+1
        const double se = e == 0 ? -1 : 1;
        N[a] = 0.5 * (1 - r * r) * (1 + se * s);
        dr[a] = -r * (1 + se * s);
        ds[a] = 0.5 * (1 - r * r) * se;
      } else {  // on r = +-1
        const double re = e == 1 ? 1 : -1;
        N[a] = 0.5 * (1 + re * r) * (1 - s * s);
        dr[a] = 0.5 * re * (1 - s * s);
        ds[a] = -(1 + re * r) * s;
      }
    }
  } else if (shape == kFaceQuad4) {
    const double rs[4] = {-1, 1, 1, -1}, ss[4] = {-1, -1, 1, 1};
    for (int a = 0; a < 4; ++a) {
      N[a] = 0.25 * (1 + rs[a] * r) * (1 + ss[a] * s);
      dr[a] = 0.25 * rs[a] * (1 + ss[a] * s);
      ds[a] = 0.25 * ss[a] * (1 + rs[a] * r);
    }
  } else if (shape == kFaceTri3) {
    N[0] = 1 - r - s, N[1] = r, N[2] = s;
    dr[0] = -1, dr[1] = 1, dr[2] = 0;
    ds[0] = -1, ds[1] = 0, ds[2] = 1;
  } else {  // 6-node triangle: corners, then mid-edge nodes of (0,1), (1,2), (2,0)
    const double l0 = 1 - r - s;
    const double n[6] = {l0 * (2 * l0 - 1), r * (2 * r - 1), s * (2 * s - 1), 4 * l0 * r, 4 * r * s, 4 * s * l0};
    const double a[6] = {-(4 * l0 - 1), 4 * r - 1, 0, 4 * (l0 - r), 4 * s, -4 * s};
    const double b[6] = {-(4 * l0 - 1), 0, 4 * s - 1, -4 * r, 4 * r, 4 * (l0 - s)};
    for (int k = 0; k < 6; ++k) N[k] = n[k], dr[k] = a[k], ds[k] = b[k];
  }
}

/// Keeps (r, s) inside the face's parameter domain.
void clamp_to_face(int shape, double& r, double& s) {
  if (quad_face(shape)) {
    r = std::clamp(r, -1.0, 1.0);
    s = std::clamp(s, -1.0, 1.0);
    return;
  }
  r = std::max(r, 0.0);
  s = std::max(s, 0.0);
  if (r + s > 1) {
    const double excess = 0.5 * (r + s - 1);
    r = std::max(r - excess, 0.0);
    s = 1 - r;
  }
}

Vec3<double> node_x(const Model& m, int n) { return {m.nodes.x[n], m.nodes.y[n], m.nodes.z[n]}; }

/// Nearest point of face f to p by Gauss-Newton on the face parameters, kept inside the face:
/// the weights there and the distance.
double project_on_face(const Model& m, const MasterFace& f, const Vec3<double>& p, double N[kFaceMaxNodes],
                       Vec3<double>& at) {
  double r = quad_face(f.shape) ? 0.0 : 1.0 / 3.0, s = r;
  double dr[kFaceMaxNodes], ds[kFaceMaxNodes];
  for (int it = 0; it < 50; ++it) {
    face_shape(f.shape, r, s, N, dr, ds);
    Vec3<double> x{0, 0, 0}, xr{0, 0, 0}, xs{0, 0, 0};
    for (int a = 0; a < f.shape; ++a) {
      const Vec3<double> xa = node_x(m, f.nodes[a]);
      x += N[a] * xa;
      xr += dr[a] * xa;
      xs += ds[a] * xa;
    }
    const Vec3<double> g = p - x;
    const double a11 = dot(xr, xr), a12 = dot(xr, xs), a22 = dot(xs, xs), b1 = dot(xr, g), b2 = dot(xs, g);
    const double det = a11 * a22 - a12 * a12;
    if (!(det > 0)) break;
    const double d1 = (a22 * b1 - a12 * b2) / det, d2 = (a11 * b2 - a12 * b1) / det;
    const double r_old = r, s_old = s;
    r += d1;
    s += d2;
    clamp_to_face(f.shape, r, s);
    if (std::abs(r - r_old) + std::abs(s - s_old) < 1e-15) break;
  }
  face_shape(f.shape, r, s, N, dr, ds);
  at = {0, 0, 0};
  for (int a = 0; a < f.shape; ++a) at += N[a] * node_x(m, f.nodes[a]);
  return norm(at - p);
}

/// Longest diagonal of a quadrilateral face, longest corner-to-corner edge of a triangle.
double face_size(const Model& m, const MasterFace& f) {
  if (quad_face(f.shape))
    return std::max(norm(node_x(m, f.nodes[2]) - node_x(m, f.nodes[0])),
                    norm(node_x(m, f.nodes[3]) - node_x(m, f.nodes[1])));
  double size = 0;
  for (int k = 0; k < 3; ++k) size = std::max(size, norm(node_x(m, f.nodes[(k + 1) % 3]) - node_x(m, f.nodes[k])));
  return size;
}

std::string node_name(const Model& m, int n) { return "node " + std::to_string(m.nodes.id[n]); }

}  // namespace

namespace {

/// The faces of surface s, marking their nodes in on_faces (sized to the model's nodes).
std::vector<MasterFace> surface_faces(const Model& model, const Surface& s, std::vector<char>& on_faces) {
  std::vector<MasterFace> faces;
  on_faces.assign(model.nodes.size(), 0);
  for (std::size_t i = 0; i < s.elements.size(); ++i) {
    faces.push_back(master_face(model, s.elements[i], s.faces[i]));
    for (int k = 0; k < faces.back().shape; ++k) on_faces[faces.back().nodes[k]] = 1;
  }
  return faces;
}

/// Surface s's nodes: its node list, then its faces' nodes not in it, in face order.
std::vector<int> surface_node_list(const Model& model, const Surface& s) {
  std::vector<int> nodes = s.nodes;
  std::vector<char> seen(model.nodes.size(), 0);
  for (int n : nodes) seen[n] = 1;
  for (std::size_t i = 0; i < s.elements.size(); ++i) {
    const MasterFace f = master_face(model, s.elements[i], s.faces[i]);
    for (int k = 0; k < f.shape; ++k)
      if (!seen[f.nodes[k]]) seen[f.nodes[k]] = 1, nodes.push_back(f.nodes[k]);
  }
  return nodes;
}

/// The point of faces nearest to p (the first face at the least distance): its face, its
/// weights N there and the point; returns the distance (infinite without faces).
double nearest_on_faces(const Model& model, const std::vector<MasterFace>& faces, const Vec3<double>& p, int& face,
                        double N[kFaceMaxNodes], Vec3<double>& at) {
  double best = std::numeric_limits<double>::infinity(), n_f[kFaceMaxNodes];
  Vec3<double> at_f;
  face = -1;
  at = {0, 0, 0};
  for (std::size_t f = 0; f < faces.size(); ++f) {
    const double d = project_on_face(model, faces[f], p, n_f, at_f);
    if (d < best) {
      best = d, face = static_cast<int>(f), at = at_f;
      std::copy(n_f, n_f + kFaceMaxNodes, N);
    }
  }
  return best;
}

}  // namespace

std::vector<AdjustedNode> contact_adjustments(const Model& model) {
  std::vector<AdjustedNode> out;
  std::vector<char> moved(model.nodes.size(), 0);
  for (const ContactPair& p : model.contact.pairs) {
    if (p.adjust < 0 && p.adjust_set.empty()) continue;
    const auto mit = model.surfaces.find(p.master);
    if (mit == model.surfaces.end() || mit->second.elements.empty())
      throw InputError(p.loc, "*CONTACT PAIR, ADJUST=: master surface '" + p.master +
                                  "' is not a surface of element faces (slave nodes are adjusted onto element faces "
                                  "only, not onto an analytical rigid surface)");
    std::vector<char> on_master;
    const std::vector<MasterFace> faces = surface_faces(model, mit->second, on_master);
    std::vector<int> nodes;
    if (!p.adjust_set.empty()) {
      const auto sit = model.nsets.find(p.adjust_set);
      if (sit == model.nsets.end())
        throw InputError(p.loc, "*CONTACT PAIR, ADJUST=" + p.adjust_set + ": no node set of that name (expected a "
                                    "distance or a node set)");
      nodes = sit->second.members;
    } else if (const auto s = model.surfaces.find(p.slave); s != model.surfaces.end()) {
      nodes = surface_node_list(model, s->second);
    }
    for (int n : nodes) {
      if (on_master[n] || moved[n]) continue;
      int face;
      double N[kFaceMaxNodes];
      Vec3<double> at;
      const double best = nearest_on_faces(model, faces, node_x(model, n), face, N, at);
      if (!p.adjust_set.empty() || best <= p.adjust) {
        moved[n] = 1;
        out.push_back({n, {at.x, at.y, at.z}});
      }
    }
  }
  return out;
}

std::vector<TiedNode> project_ties(const Model& model) {
  std::vector<TiedNode> out;
  for (std::size_t t = 0; t < model.ties.size(); ++t) {
    const Tie& tie = model.ties[t];
    std::vector<char> on_master;
    const std::vector<MasterFace> faces = surface_faces(model, model.surfaces.at(tie.master), on_master);
    double mean_size = 0;
    for (const MasterFace& f : faces) mean_size += face_size(model, f);
    mean_size /= static_cast<double>(faces.size());
    const double tolerance = tie.position_tolerance ? *tie.position_tolerance : 0.05 * mean_size;
    for (int n : surface_node_list(model, model.surfaces.at(tie.slave))) {
      if (on_master[n]) continue;  // shared by both sides already
      int best_face;
      double best_N[kFaceMaxNodes] = {};
      Vec3<double> best_at;
      const double best = nearest_on_faces(model, faces, node_x(model, n), best_face, best_N, best_at);
      if (!(best <= tolerance))
        throw InputError(tie.loc, "*TIE " + tie.name + ": slave " + node_name(model, n) + " of surface '" +
                                      tie.slave + "' is " + std::to_string(best) + " from master surface '" +
                                      tie.master + "', beyond the position tolerance " + std::to_string(tolerance) +
                                      " (POSITION TOLERANCE=)");
      TiedNode tn;
      tn.node = n;
      tn.tie = static_cast<int>(t);
      for (int k = 0; k < faces[best_face].shape; ++k)
        if (best_N[k] != 0.0) {
          tn.masters.push_back(faces[best_face].nodes[k]);
          tn.weights.push_back(best_N[k]);
        }
      tn.on_master = {best_at.x, best_at.y, best_at.z};
      tn.distance = best;
      out.push_back(std::move(tn));
    }
  }
  return out;
}

void set_constraint_masses(LinearConstraints& c, const std::vector<double>& mass, const std::vector<double>& inertia) {
  // Dof m_k gets |w_k| sum_j |w_j| m_s, the absolute row sum of the consistent W^T m_s W, over
  // the dependents in order (deterministic sums); rotations the same way with the rotary
  // inertias.
  const std::size_t nn = mass.size();
  c.mass3.resize(3 * nn);
  for (std::size_t n = 0; n < nn; ++n)
    for (std::size_t d = 0; d < 3; ++d) c.mass3[3 * n + d] = mass[n];
  c.inertia3.clear();
  if (!c.rot_node.empty()) {
    c.inertia3.resize(3 * nn);
    for (std::size_t n = 0; n < nn; ++n)
      for (std::size_t d = 0; d < 3; ++d) c.inertia3[3 * n + d] = inertia[n];
  }
  for (int k = 0; k < c.num_dependent; ++k) {
    double abs_sum = 0;
    for (int i = c.term_ptr[k]; i < c.term_ptr[k + 1]; ++i) abs_sum += std::abs(c.term_weight[i]);
    const bool rot = c.dep_dof[k] >= 3;
    for (int i = c.term_ptr[k]; i < c.term_ptr[k + 1]; ++i) {
      if (rot)
        c.inertia3[3 * static_cast<std::size_t>(c.term_node[i]) + c.term_dof[i] - 3] +=
            std::abs(c.term_weight[i]) * abs_sum * inertia[c.dep_node[k]];
      else
        c.mass3[3 * static_cast<std::size_t>(c.term_node[i]) + c.term_dof[i]] +=
            std::abs(c.term_weight[i]) * abs_sum * mass[c.dep_node[k]];
    }
  }
}

namespace {

/// Chains (a constraint's term that another constraint makes dependent, as the peer's and
/// Abaqus's decks write them) resolved by substitution, depth first with an explicit stack
/// (a long chain cannot overflow it): each dependent ends on independent dofs only, terms of
/// the same dof merged in the order they first appear (deterministic), exact zeros dropped. A
/// cycle (a dof that depends on itself through the chain) is an error naming both constraints.
/// dep_index: per node and dof (6 per node), the dependent's index or -1.
template <class DofName>
void resolve_chains(LinearConstraints& c, const std::vector<int>& dep_index, const DofName& dof_name) {
  const auto dep_of = [&](int i) { return dep_index[6 * static_cast<std::size_t>(c.term_node[i]) + c.term_dof[i]]; };
  bool chained = false;
  for (std::size_t i = 0; i < c.term_node.size() && !chained; ++i) chained = dep_of(static_cast<int>(i)) >= 0;
  if (!chained) return;
  struct Term {
    int node, dof;
    double weight;
  };
  const int nd = c.num_dependent;
  std::vector<std::vector<Term>> resolved(static_cast<std::size_t>(nd));
  std::vector<char> state(static_cast<std::size_t>(nd), 0);  // 0 not reached, 1 open, 2 resolved
  std::vector<int> stack;
  for (int root = 0; root < nd; ++root) {
    if (state[static_cast<std::size_t>(root)]) continue;
    stack.push_back(root);
    while (!stack.empty()) {
      const int k = stack.back();
      char& st = state[static_cast<std::size_t>(k)];
      if (st == 2) {
        stack.pop_back();
      } else if (st == 0) {  // open it: its dependent terms first
        st = 1;
        for (int i = c.term_ptr[k]; i < c.term_ptr[k + 1]; ++i) {
          const int j = dep_of(i);
          if (j < 0) continue;
          if (state[static_cast<std::size_t>(j)] == 1)  // open: an ancestor of k
            throw InputError(c.dep_loc[k], "the constraint of " + dof_name(c.dep_node[k], c.dep_dof[k]) +
                                               " refers to " + dof_name(c.term_node[i], c.term_dof[i]) +
                                               ", which depends on it in turn through the constraint at " +
                                               c.dep_loc[j].str() + ": the constraints form a cycle");
          if (state[static_cast<std::size_t>(j)] == 0) stack.push_back(j);
        }
      } else {  // its dependent terms are resolved: substitute them
        std::vector<Term>& out = resolved[static_cast<std::size_t>(k)];
        std::unordered_map<long long, std::size_t> at;
        const auto add = [&](int n, int d, double w) {
          const long long key = 6LL * n + d;
          const auto [it, fresh] = at.emplace(key, out.size());
          if (fresh)
            out.push_back({n, d, w});
          else
            out[it->second].weight += w;
        };
        for (int i = c.term_ptr[k]; i < c.term_ptr[k + 1]; ++i) {
          const int j = dep_of(i);
          if (j < 0)
            add(c.term_node[i], c.term_dof[i], c.term_weight[i]);
          else
            for (const Term& t : resolved[static_cast<std::size_t>(j)]) add(t.node, t.dof, c.term_weight[i] * t.weight);
        }
        out.erase(std::remove_if(out.begin(), out.end(), [](const Term& t) { return t.weight == 0.0; }), out.end());
        st = 2;
        stack.pop_back();
      }
    }
  }
  c.term_node.clear();
  c.term_dof.clear();
  c.term_weight.clear();
  c.term_ptr.assign(1, 0);
  for (const std::vector<Term>& terms : resolved) {
    for (const Term& t : terms) {
      c.term_node.push_back(t.node);
      c.term_dof.push_back(t.dof);
      c.term_weight.push_back(t.weight);
    }
    c.term_ptr.push_back(static_cast<int>(c.term_node.size()));
  }
}

}  // namespace

LinearConstraints build_linear_constraints(const Model& model, const std::vector<TiedNode>& tied,
                                           const std::vector<double>& mass, const std::vector<double>& inertia,
                                           const std::vector<std::uint8_t>& node_rotates, int dofs) {
  const int nn = model.nodes.size();
  LinearConstraints c;
  c.term_ptr.push_back(0);
  c.dependent.assign(nn, 0);
  std::vector<int> dep_index(6 * static_cast<std::size_t>(nn), -1);
  const auto dof_name = [&](int n, int d) { return node_name(model, n) + " dof " + std::to_string(d + 1); };
  const auto add_dependent = [&](int n, int d, const SourceLoc& loc) {
    int& k = dep_index[6 * static_cast<std::size_t>(n) + d];
    if (k >= 0)
      throw InputError(loc, dof_name(n, d) + " is already dependent through the constraint at " +
                                c.dep_loc[k].str() + ": a dof can be eliminated by one constraint only");
    k = c.num_dependent++;
    c.dep_node.push_back(n);
    c.dep_dof.push_back(d);
    c.dep_loc.push_back(loc);
    c.dependent[n] |= static_cast<std::uint8_t>(1u << d);
  };
  const auto add_term = [&](int n, int d, double w) {
    c.term_node.push_back(n);
    c.term_dof.push_back(d);
    c.term_weight.push_back(w);
  };
  for (const TiedNode& t : tied) {
    // A node with rotations on a face whose nodes all have them (shell to shell, without NO
    // ROTATION): its rotations follow the face's with the same weights; else translations only.
    const Tie& tie = model.ties[t.tie];
    bool rotates = tie.rotations && node_rotates[t.node];
    for (int m : t.masters) rotates = rotates && node_rotates[m];
    if (rotates && dofs != 6)
      throw InputError(tie.loc, "*TIE " + tie.name + ": the rotations of " + node_name(model, t.node) +
                                    " cannot be tied in a model whose nodes carry 5 dofs (rotations about each "
                                    "node's own triad): add NO ROTATION to tie translations only");
    for (int d = 0; d < (rotates ? 6 : 3); ++d) {
      add_dependent(t.node, d, tie.loc);
      for (std::size_t k = 0; k < t.masters.size(); ++k) add_term(t.masters[k], d, t.weights[k]);
      c.term_ptr.push_back(static_cast<int>(c.term_node.size()));
    }
  }
  for (const Equation& e : model.equations) {
    const int n = e.nodes[0], d = e.dofs[0] - 1;
    // Rotations: global angular velocities of 6-dof nodes only (a MITC4 node's two rotations
    // are about its own triad, which differs from node to node), never mixed with
    // translations (the constraint pass keeps no total rotation to weight).
    for (std::size_t i = 0; i < e.nodes.size(); ++i) {
      if (e.dofs[i] <= 3) continue;
      if (!node_rotates[e.nodes[i]])
        throw InputError(e.loc, "rotational " + dof_name(e.nodes[i], e.dofs[i] - 1) + " in a constraint, but " +
                                    node_name(model, e.nodes[i]) +
                                    " has no rotations (only beams, shells and FPM triangles give a node rotations)");
      if (dofs != 6)
        throw InputError(e.loc, "rotational " + dof_name(e.nodes[i], e.dofs[i] - 1) +
                                    " in a constraint of a model whose nodes carry 5 dofs (MITC4 shells only: two "
                                    "rotations about each node's own triad): rotations can be constrained in models "
                                    "with beams or FPM triangles (6 global dofs per node); tie translations only");
      if (e.dofs[0] <= 3)
        throw InputError(e.loc, "a constraint mixes translations and rotations (" + dof_name(n, d) + " and " +
                                    dof_name(e.nodes[i], e.dofs[i] - 1) + "): only all-translation or all-rotation "
                                    "equations are supported");
    }
    if (e.dofs[0] > 3)
      for (std::size_t i = 1; i < e.nodes.size(); ++i)
        if (e.dofs[i] <= 3)
          throw InputError(e.loc, "a constraint mixes translations and rotations (" + dof_name(n, d) + " and " +
                                      dof_name(e.nodes[i], e.dofs[i] - 1) + "): only all-translation or all-rotation "
                                      "equations are supported");
    add_dependent(n, d, e.loc);
    for (std::size_t i = 1; i < e.nodes.size(); ++i) {
      if (e.nodes[i] == n && e.dofs[i] - 1 == d)
        throw InputError(e.loc, "*EQUATION: the dependent " + dof_name(n, d) + " appears again among its terms");
      add_term(e.nodes[i], e.dofs[i] - 1, -e.coefficients[i] / e.coefficients[0]);
    }
    c.term_ptr.push_back(static_cast<int>(c.term_node.size()));
  }
  resolve_chains(c, dep_index, dof_name);
  for (const Step& s : model.steps)
    for (const Boundary& b : s.boundaries)
      for (int n : b.nodes)
        for (int d = b.first_dof - 1; d < std::min(b.last_dof, 6); ++d) {
          const int k = dep_index[6 * static_cast<std::size_t>(n) + d];
          if (k >= 0)
            throw InputError(b.loc, "*BOUNDARY prescribes " + dof_name(n, d) + ", which the constraint at " +
                                        c.dep_loc[k].str() +
                                        " makes dependent: constrain an independent dof or drop one of the two");
        }
  // Receiving side, node by node (a gather: deterministic sums).
  std::vector<char> turns(nn, 0);
  for (int k = 0; k < c.num_dependent; ++k)
    if (c.dep_dof[k] >= 3) turns[c.dep_node[k]] = 1;
  for (int n = 0; n < nn; ++n)
    if (turns[n]) c.rot_node.push_back(n);
  set_constraint_masses(c, mass, inertia);
  std::vector<std::vector<std::array<int, 2>>> recv(nn);  // (term, dependent)
  for (int k = 0; k < c.num_dependent; ++k)
    for (int i = c.term_ptr[k]; i < c.term_ptr[k + 1]; ++i) recv[c.term_node[i]].push_back({i, k});
  c.recv_ptr.assign(1, 0);
  for (int n = 0; n < nn; ++n) {
    for (const auto& [i, k] : recv[n]) {
      c.recv_dependent.push_back(k);
      c.recv_dof.push_back(c.term_dof[i]);
      c.recv_weight.push_back(c.term_weight[i]);
    }
    c.recv_ptr.push_back(static_cast<int>(c.recv_dependent.size()));
  }
  return c;
}

namespace {

/// Body b's mass m, first moment s0 and inertia tensor I about its reference node from the
/// nodal masses and rotary inertias (its reference node, slaves and offsets already in r):
/// the reference node's own rotary inertia (or, on a node without rotations, its *ROTARY
/// INERTIA), then each slave's mass at its offset and, where its rotations follow the body,
/// its rotary inertia.
void body_mass_properties(const RigidBodies& r, int b, const Model& model, const std::vector<double>& mass,
                          const std::vector<double>& inertia, const std::vector<std::uint8_t>& node_rotates, double& m,
                          double s0[3], double I[9]) {
  const int ref = r.ref_node[static_cast<std::size_t>(b)];
  m = mass[ref];
  for (int i = 0; i < 3; ++i) s0[i] = 0;
  for (int i = 0; i < 9; ++i) I[i] = 0;
  if (node_rotates[ref])
    for (int d = 0; d < 3; ++d) I[4 * d] += inertia[ref];
  else  // *ROTARY INERTIA on a reference node without rotations of its own (an inertia feature)
    for (const PointMass& p : model.point_inertias)
      if (p.node == ref)
        for (int d = 0; d < 3; ++d) I[4 * d] += p.mass;
  for (int s = r.slave_ptr[b]; s < r.slave_ptr[b + 1]; ++s) {
    const int n = r.slave_node[s];
    const double* dd = &r.offset[3 * static_cast<std::size_t>(s)];
    const double mk = mass[n], d2 = dd[0] * dd[0] + dd[1] * dd[1] + dd[2] * dd[2];
    m += mk;
    for (int i = 0; i < 3; ++i) {
      s0[i] += mk * dd[i];
      for (int j = 0; j < 3; ++j) I[3 * i + j] += mk * ((i == j ? d2 : 0.0) - dd[i] * dd[j]);
    }
    if (r.slave_rot[s])
      for (int i = 0; i < 3; ++i) I[4 * i] += inertia[n];
  }
}

}  // namespace

void set_body_masses(RigidBodies& r, const Model& model, const std::vector<double>& mass,
                     const std::vector<double>& inertia, const std::vector<std::uint8_t>& node_rotates) {
  for (int b = 0; b < r.num_bodies; ++b) {
    double m, s0[3], I[9];
    body_mass_properties(r, b, model, mass, inertia, node_rotates, m, s0, I);
    r.mass[b] = m;
    for (int i = 0; i < 3; ++i) r.first_moment[3 * static_cast<std::size_t>(b) + i] = s0[i];
    for (int i = 0; i < 9; ++i) r.inertia[9 * static_cast<std::size_t>(b) + i] = I[i];
  }
}

RigidBodies build_rigid_bodies(const Model& model, const LinearConstraints& linear, const std::vector<double>& mass,
                               const std::vector<double>& inertia, const std::vector<std::uint8_t>& node_rotates,
                               int dofs) {
  RigidBodies r;
  if (model.rigid_bodies.empty()) return r;
  const int nn = model.nodes.size();
  if (dofs == 5)
    throw InputError(model.rigid_bodies[0].loc, model.rigid_bodies[0].name +
                                                    ": rigid bodies in models of MITC4 shells (5 dofs per node) are "
                                                    "not supported yet");
  r.num_bodies = static_cast<int>(model.rigid_bodies.size());
  r.skip.assign(nn, 0);
  bool explicit_steps = false;
  for (const Step& s : model.steps) explicit_steps = explicit_steps || s.procedure == Procedure::ExplicitDynamic;
  std::vector<int> body_of(nn, -1);
  r.slave_ptr.push_back(0);
  for (int b = 0; b < r.num_bodies; ++b) {
    const RigidBody& rb = model.rigid_bodies[b];
    const int ref = rb.ref_node;
    const Vec3<double> xr = node_x(model, ref);
    const auto claim = [&](int n) {
      if (body_of[n] >= 0)
        throw InputError(rb.loc, rb.name + ": " + node_name(model, n) + " is already in " +
                                     model.rigid_bodies[body_of[n]].name + " (" +
                                     model.rigid_bodies[body_of[n]].loc.str() + "): a node moves with one body only");
      const bool linked = (!linear.empty() && linear.dependent[n] != 0) ||
                          (!linear.empty() && linear.recv_ptr[n + 1] > linear.recv_ptr[n]);
      if (linked)
        throw InputError(rb.loc, rb.name + ": " + node_name(model, n) +
                                     " is also in a *TIE or *EQUATION: a node in a rigid body cannot be in another "
                                     "constraint");
      body_of[n] = b;
    };
    claim(ref);
    // Rotations of the reference node: the body's; 3 translations always.
    r.skip[ref] = 0x3F;
    const auto add_slave = [&](int n, bool tied) {
      claim(n);
      const Vec3<double> d = node_x(model, n) - xr;
      const bool rot = tied && dofs == 6 && node_rotates[n];
      r.slave_node.push_back(n);
      r.offset.insert(r.offset.end(), {d.x, d.y, d.z});
      r.slave_rot.push_back(rot ? 1 : 0);
      r.skip[n] = rot ? 0x3F : 0x07;
    };
    for (int n : rb.tied) add_slave(n, true);
    for (int n : rb.pinned) add_slave(n, false);
    r.slave_ptr.push_back(static_cast<int>(r.slave_node.size()));
    r.ref_node.push_back(ref);
    r.loc.push_back(rb.loc);
    double m, s0[3], I[9];
    body_mass_properties(r, b, model, mass, inertia, node_rotates, m, s0, I);
    r.mass.push_back(m);
    r.first_moment.insert(r.first_moment.end(), s0, s0 + 3);
    r.inertia.insert(r.inertia.end(), I, I + 9);
    // Only explicit steps integrate the body's motion: a static analysis needs no mass.
    if (!explicit_steps) continue;
    if (!(m > 0)) throw InputError(rb.loc, rb.name + " has no mass (its nodes carry no element or point mass)");
    // Inertia about the reference node: positive definite unless the mass lies on a line
    // through it (then a rotation about that line has no inertia).
    const double det = I[0] * (I[4] * I[8] - I[5] * I[7]) - I[1] * (I[3] * I[8] - I[5] * I[6]) +
                       I[2] * (I[3] * I[7] - I[4] * I[6]);
    const double tr = I[0] + I[4] + I[8];
    if (!(det > 1e-12 * tr * tr * tr))
      throw InputError(rb.loc, rb.name + " has a singular inertia tensor about its reference node (its mass lies on "
                                         "a line through it): add nodes off that line");
  }
  for (const Step& s : model.steps)
    for (const Boundary& bc : s.boundaries)
      for (int n : bc.nodes) {
        const int b = body_of[n];
        if (b < 0) continue;
        const bool ref = r.ref_node[b] == n;
        // The reference node carries the body's motion: static steps turn it by a prescribed
        // rotation (solver/static_solver), explicit steps hold its rotations at rest.
        if (!ref)
          throw InputError(bc.loc, "*BOUNDARY on " + node_name(model, n) + " of " + model.rigid_bodies[b].name + " (" +
                                       model.rigid_bodies[b].loc.str() +
                                       "): a slave node moves with the body; prescribe its reference node");
      }
  return r;
}

std::vector<int> frame_nodes(const LinearConstraints& lc, int num_nodes, std::vector<int> nodes) {
  for (int n : nodes)
    if (n < 0 || n >= num_nodes) throw std::out_of_range("frame_nodes: node " + std::to_string(n) + " of " + std::to_string(num_nodes));
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  // No chains (build_linear_constraints refuses them): the terms' nodes are independent, so
  // one pass over the dependent dofs closes the list.
  const std::size_t listed = nodes.size();
  for (int k = 0; k < lc.num_dependent; ++k) {
    if (!std::binary_search(nodes.begin(), nodes.begin() + static_cast<std::ptrdiff_t>(listed), lc.dep_node[k])) continue;
    for (int i = lc.term_ptr[k]; i < lc.term_ptr[k + 1]; ++i) nodes.push_back(lc.term_node[i]);
  }
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

std::vector<int> constraint_nodes(const LinearConstraints& lc, const RigidBodies& rb) {
  std::vector<int> nodes(lc.dep_node);
  nodes.insert(nodes.end(), lc.term_node.begin(), lc.term_node.end());
  nodes.insert(nodes.end(), rb.ref_node.begin(), rb.ref_node.end());
  nodes.insert(nodes.end(), rb.slave_node.begin(), rb.slave_node.end());
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

namespace {

/// Node n's new index; a constraint node missing from the subset is a bug of the caller.
int renumbered(const std::vector<int>& to_local, int n) {
  const int l = to_local[static_cast<std::size_t>(n)];
  if (l < 0) throw std::logic_error("restricting constraints: node " + std::to_string(n) + " is not in the subset");
  return l;
}

/// Three values per node of a whole-model array, at the subset's nodes (empty stays empty).
std::vector<double> per_node3(const std::vector<double>& a, const std::vector<int>& nodes) {
  std::vector<double> out;
  if (a.empty()) return out;
  out.reserve(3 * nodes.size());
  for (int n : nodes) out.insert(out.end(), a.begin() + 3 * static_cast<long>(n), a.begin() + 3 * static_cast<long>(n) + 3);
  return out;
}

}  // namespace

LinearConstraints restrict_constraints(const LinearConstraints& g, const std::vector<int>& nodes,
                                       const std::vector<int>& to_local) {
  LinearConstraints c = g;  // dependent dofs and terms keep their order: the sums stay the same
  for (int& n : c.dep_node) n = renumbered(to_local, n);
  for (int& n : c.term_node) n = renumbered(to_local, n);
  for (int& n : c.rot_node) n = renumbered(to_local, n);
  c.dependent.clear();
  c.recv_ptr.assign(1, 0);
  c.recv_dependent.clear();
  c.recv_dof.clear();
  c.recv_weight.clear();
  for (int n : nodes) {
    c.dependent.push_back(g.dependent.empty() ? 0 : g.dependent[static_cast<std::size_t>(n)]);
    if (!g.recv_ptr.empty())
      for (int i = g.recv_ptr[static_cast<std::size_t>(n)]; i < g.recv_ptr[static_cast<std::size_t>(n) + 1]; ++i) {
        c.recv_dependent.push_back(g.recv_dependent[static_cast<std::size_t>(i)]);
        c.recv_dof.push_back(g.recv_dof[static_cast<std::size_t>(i)]);
        c.recv_weight.push_back(g.recv_weight[static_cast<std::size_t>(i)]);
      }
    c.recv_ptr.push_back(static_cast<int>(c.recv_dependent.size()));
  }
  c.mass3 = per_node3(g.mass3, nodes);
  c.inertia3 = per_node3(g.inertia3, nodes);
  return c;
}

RigidBodies restrict_bodies(const RigidBodies& g, const std::vector<int>& nodes, const std::vector<int>& to_local) {
  RigidBodies b = g;
  for (int& n : b.ref_node) n = renumbered(to_local, n);
  for (int& n : b.slave_node) n = renumbered(to_local, n);
  b.skip.clear();
  if (!g.skip.empty())
    for (int n : nodes) b.skip.push_back(g.skip[static_cast<std::size_t>(n)]);
  return b;
}

}  // namespace halfstep
