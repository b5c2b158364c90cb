// *TIE and *EQUATION: constraints between nodes (model data). The reader keeps what the deck
// says; the dependent dofs, the projections and the checks that need geometry are made by
// discretization/constraints.cpp when the system is built.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <type_traits>

#include "io/inp_parser.hpp"
#include "io/inp_text.hpp"
#include "elements/kind_info.hpp"
#include "elements/solid_faces.hpp"

namespace halfstep::inp {

void DeckParser::tie_keyword(const Keyword& kw) {
  allow_params(kw, {"NAME", "POSITIONTOLERANCE", "ADJUST", "TYPE", "NOROTATION"});
  tie_ = Tie{};
  tie_.name = key(required_param(kw, "NAME"));
  if (kw.find("POSITIONTOLERANCE")) {
    const double tol = real_param(kw, "POSITIONTOLERANCE", 0.0);
    if (!(tol > 0)) fail(kw.pos, "*TIE, POSITION TOLERANCE= must be positive");
    tie_.position_tolerance = tol;
  }
  const std::string adjust = squeeze_upper(param(kw, "ADJUST"));
  if (adjust == "NO") tie_.adjust = false;
  else if (!adjust.empty() && adjust != "YES")
    fail(kw.pos, "*TIE, ADJUST=" + param(kw, "ADJUST") + ": expected YES or NO");
  tie_.rotations = !kw.find("NOROTATION");
  const std::string type = squeeze_upper(param(kw, "TYPE"));
  if (!type.empty() && type != "SURFACETOSURFACE" && type != "NODETOSURFACE")
    fail(kw.pos, "*TIE, TYPE=" + param(kw, "TYPE") + ": expected SURFACE TO SURFACE or NODE TO SURFACE");
  tie_.loc = loc(kw.pos);
}

void DeckParser::tie_data(const Line& line) {
  need_fields(line, 2, "slave surface, master surface");
  at_most_fields(line, 2, "slave surface, master surface");
  Tie t = tie_;
  t.slave = key(line.fields[0]);
  t.master = key(line.fields[1]);
  t.loc = loc(at_);
  m_.ties.push_back(std::move(t));
}

void DeckParser::tie_end() { need_data_line("slave surface, master surface"); }

void DeckParser::equation_keyword(const Keyword& kw) {
  allow_params(kw, {});
  equation_open_ = false;
}

// A count line opens an equation; term lines (node or node set, dof, coefficient; up to four
// terms a line) follow until the count is reached.
void DeckParser::equation_data(const Line& line) {
  if (!equation_open_) {
    at_most_fields(line, 1, "the number of terms");
    const std::int64_t n = integer(line.fields.empty() ? std::string_view() : line.fields[0], "the number of terms");
    if (n < 2)
      fail(at_, "*EQUATION needs at least 2 terms, got " + std::to_string(n) +
                    " (a dof held at zero is a *BOUNDARY)");
    pending_equations_.push_back(PendingEquation{{}, static_cast<int>(n), at_});
    equation_open_ = true;
    return;
  }
  PendingEquation& eq = pending_equations_.back();
  if (line.fields.size() % 3 != 0 || line.fields.empty())
    fail(at_, "*EQUATION term line: expected node or node set, dof, coefficient (up to 4 terms a line), got " +
                  std::to_string(line.fields.size()) + " fields");
  const int terms = static_cast<int>(line.fields.size() / 3);
  if (static_cast<int>(eq.terms.size()) + terms > eq.expected)
    fail(at_, "*EQUATION has more terms than the " + std::to_string(eq.expected) + " its count line gives");
  for (int t = 0; t < terms; ++t) {
    const int d = dof(line.fields[3 * t + 1], "*EQUATION dof");  // rotations: checked with the model's dofs
    const double c = real(line.fields[3 * t + 2], "the coefficient");
    if (eq.terms.empty() && c == 0)
      fail(at_, "the first coefficient of an *EQUATION must be nonzero (its dof is the one eliminated)");
    eq.terms.push_back(PendingTerm{key(line.fields[3 * t]), d, c, at_});
  }
  if (static_cast<int>(eq.terms.size()) == eq.expected) equation_open_ = false;
}

void DeckParser::equation_end() {
  need_data_line("the number of terms, then the terms");
  if (equation_open_) {
    const PendingEquation& eq = pending_equations_.back();
    fail(eq.pos, "*EQUATION expects " + std::to_string(eq.expected) + " terms, got " +
                     std::to_string(eq.terms.size()));
  }
}

void DeckParser::rigid_body_keyword(const Keyword& kw) {
  allow_params(kw, {"REFNODE", "ELSET", "PINNSET", "TIENSET", "NSET", "ANALYTICALSURFACE", "ROTNODE"});
  coupling_open_ = false;
  PendingBody b;
  b.name = "*RIGID BODY";
  b.ref = key(required_param(kw, "REFNODE"));
  if (kw.find("ROTNODE")) b.rot = key(required_param(kw, "ROTNODE"));
  b.elset = key(param(kw, "ELSET"));
  b.pin = key(param(kw, "PINNSET"));
  b.tie = key(param(kw, "TIENSET"));
  // The peer's NSET=: its nodes move with the reference node in every dof, as TIE NSET='s do.
  if (kw.find("NSET")) {
    if (kw.find("TIENSET"))
      fail(kw.pos, "*RIGID BODY takes NSET= or TIE NSET= (the same nodes' role), not both");
    b.tie = key(required_param(kw, "NSET"));
  }
  if (kw.find("ANALYTICALSURFACE")) {
    // The surface is the body: resolved with the analytical surfaces (inp_analytic.cpp).
    b.analytical = key(required_param(kw, "ANALYTICALSURFACE"));
    if (!b.elset.empty() || !b.pin.empty() || !b.tie.empty())
      fail(kw.pos, "*RIGID BODY, ANALYTICAL SURFACE=" + b.analytical + " with ELSET=, PIN NSET= or TIE NSET=: "
                   "an analytical surface with other nodes in its rigid body is not supported yet: give it a "
                   "*RIGID BODY of its own");
  } else if (b.elset.empty() && b.pin.empty() && b.tie.empty()) {
    fail(kw.pos, "*RIGID BODY needs ELSET=, PIN NSET= or TIE NSET= (the nodes that move with REF NODE=), or "
                 "ANALYTICAL SURFACE=");
  }
  b.pos = kw.pos;
  b.order = constraint_order_++;
  pending_bodies_.push_back(std::move(b));
}

void DeckParser::coupling_keyword(const Keyword& kw) {
  allow_params(kw, {"CONSTRAINTNAME", "REFNODE", "SURFACE"});
  PendingBody b;
  b.name = "*COUPLING " + key(required_param(kw, "CONSTRAINTNAME"));
  b.ref = key(required_param(kw, "REFNODE"));
  b.surface = key(required_param(kw, "SURFACE"));
  b.pos = kw.pos;
  b.order = constraint_order_++;
  b.coupling = true;
  pending_bodies_.push_back(std::move(b));
  coupling_open_ = true;
}

void DeckParser::kinematic_keyword(const Keyword& kw) {
  allow_params(kw, {});
  if (!coupling_open_) fail(kw.pos, "*KINEMATIC must follow a *COUPLING");
  coupling_open_ = false;
  pending_bodies_.back().kinematic = true;
  kinematic_dofs_ = 0;
  kinematic_pos_ = kw.pos;
}

// Each data line: first dof[, last dof]; no line constrains all dofs.
void DeckParser::kinematic_data(const Line& line) {
  need_fields(line, 1, "first dof[, last dof]");
  at_most_fields(line, 2, "first dof[, last dof]");
  const int first = dof(line.fields[0], "*KINEMATIC dof");
  const int last = line.fields.size() > 1 && !line.fields[1].empty() ? dof(line.fields[1], "*KINEMATIC dof") : first;
  if (last < first) fail(at_, "*KINEMATIC: the last dof " + std::to_string(last) + " is below the first");
  for (int d = first; d <= last; ++d) kinematic_dofs_ |= 1u << (d - 1);
}

void DeckParser::kinematic_end() {
  PendingBody& b = pending_bodies_.back();
  if (block_lines_ == 0 || kinematic_dofs_ == 0x3F) {
    b.pinned_only = false;
  } else if (kinematic_dofs_ == 0x07) {
    b.pinned_only = true;  // translations only: the slaves' rotations stay free
  } else {
    fail(kinematic_pos_, "*KINEMATIC on a subset of dofs other than 1-3 is not supported: give no data line "
                         "(all dofs), 1, 6 or 1, 3");
  }
}

void DeckParser::distributing_keyword(const Keyword& kw) {
  allow_params(kw, {"WEIGHTINGMETHOD"});
  if (!coupling_open_) fail(kw.pos, "*DISTRIBUTING must follow a *COUPLING");
  const std::string weighting = squeeze_upper(param(kw, "WEIGHTINGMETHOD"));
  if (!weighting.empty() && weighting != "UNIFORM")
    fail(kw.pos, "*DISTRIBUTING, WEIGHTING METHOD=" + param(kw, "WEIGHTINGMETHOD") +
                     " is not supported (UNIFORM only)");
  coupling_open_ = false;
  pending_bodies_.back().distributing = true;
  kinematic_dofs_ = 0;
  kinematic_pos_ = kw.pos;
}

// As *KINEMATIC's: first dof[, last dof]; the translations only (the reference node's
// rotations would need the slaves' force couples).
void DeckParser::distributing_data(const Line& line) {
  kinematic_data(line);
  if (kinematic_dofs_ & 0x38u)
    fail(at_, "*DISTRIBUTING on rotational dofs is not supported yet (dofs 1 to 3)");
}

void DeckParser::distributing_end() {
  if (block_lines_ > 0 && kinematic_dofs_ != 0x07)
    fail(kinematic_pos_, "*DISTRIBUTING on a subset of the translations is not supported: give no data line or 1, 3");
}

void DeckParser::mpc_keyword(const Keyword& kw) {
  allow_params(kw, {});
}

// type, slave (node or node set), master (node or node set): PIN, TIE or BEAM.
void DeckParser::mpc_data(const Line& line) {
  need_fields(line, 3, "MPC type, slave node, master node");
  at_most_fields(line, 3, "MPC type, slave node, master node");
  const std::string type = squeeze_upper(line.fields[0]);
  if (type != "PIN" && type != "TIE" && type != "BEAM")
    fail(at_, "*MPC type '" + std::string(line.fields[0]) + "' is not supported (PIN, TIE or BEAM)");
  pending_mpcs_.push_back(PendingMpc{type, key(line.fields[1]), key(line.fields[2]), at_, constraint_order_++});
}

void DeckParser::mpc_end() { need_data_line("MPC type, slave node, master node"); }

void DeckParser::resolve_constraints() {
  resolve_ties();
  resolve_equations();
  node_claims_.clear();
  resolve_bodies();
  resolve_mpcs();
}

// Both surfaces of every *TIE exist, the master made of element faces.
void DeckParser::resolve_ties() {
  for (const Tie& t : m_.ties)
    for (const std::string* name : {&t.slave, &t.master}) {
      refuse_analytical(*name, t.loc, "*TIE " + t.name);
      const auto it = m_.surfaces.find(*name);
      if (it == m_.surfaces.end())
        fail(t.loc, "*TIE " + t.name + ": surface '" + *name + "' is not defined");
      if (name == &t.master && it->second.node_based)
        fail(t.loc, "*TIE " + t.name + ": the master surface '" + *name +
                        "' is node-based; it must be made of element faces (TYPE=ELEMENT)");
    }
}

// One equation per set member: every term's set has as many nodes (a node is a set of one).
void DeckParser::resolve_equations() {
  for (const PendingEquation& pe : pending_equations_) {
    // Short only when a refused term line was skipped (halfstep check reads on after a
    // problem, and *EQUATION's end check did not run): that line's message stands for it.
    if (static_cast<int>(pe.terms.size()) != pe.expected) {
      if (errors_.empty())
        fail(pe.pos, "*EQUATION expects " + std::to_string(pe.expected) + " terms, got " +
                         std::to_string(pe.terms.size()));
      continue;
    }
    std::vector<std::vector<int>> nodes;
    for (const PendingTerm& t : pe.terms) nodes.push_back(node_targets(t.target, t.pos));
    const std::size_t count = nodes[0].size();
    for (std::size_t i = 1; i < nodes.size(); ++i)
      if (nodes[i].size() != count)
        fail(pe.terms[i].pos, "*EQUATION term '" + pe.terms[i].target + "' has " + std::to_string(nodes[i].size()) +
                                  " nodes, the first term's has " + std::to_string(count) +
                                  " (node sets of an equation must be as large)");
    for (std::size_t k = 0; k < count; ++k) {
      Equation e;
      for (std::size_t i = 0; i < nodes.size(); ++i) {
        e.nodes.push_back(nodes[i][k]);
        e.dofs.push_back(pe.terms[i].dof);
        e.coefficients.push_back(pe.terms[i].coefficient);
      }
      e.loc = loc(pe.pos);
      m_.equations.push_back(std::move(e));
    }
  }
  pending_equations_.clear();
}

// A claim on a node by body pb (its reference node or one of its slaves), checked when every
// constraint has claimed its nodes.
void DeckParser::claim_node(int node, bool ref, const PendingBody& pb) {
  node_claims_.push_back(NodeClaim{node, ref, false, pb.order, pb.pos, pb.name});
}

// *RIGID BODY and *COUPLING blocks: analytical bodies claim their reference node (attached
// later), distributing couplings become equations, the others rigid bodies.
void DeckParser::resolve_bodies() {
  for (const PendingBody& pb : pending_bodies_) {
    if (!pb.analytical.empty()) {
      // Attached in resolve_analytical_bodies, once every body's nodes are claimed.
      const std::vector<int> ref = node_targets(pb.ref, pb.pos);
      if (ref.size() != 1)
        fail(pb.pos, pb.name + ": REF NODE=" + pb.ref + " has " + std::to_string(ref.size()) + " nodes, expected one");
      node_claims_.push_back(NodeClaim{ref[0], true, true, pb.order, pb.pos, pb.analytical});
      continue;
    }
    if (pb.coupling) refuse_analytical(pb.surface, loc(pb.pos), pb.name);
    if (pb.coupling && !pb.kinematic && !pb.distributing)
      fail(pb.pos, pb.name + " needs a *KINEMATIC or *DISTRIBUTING block after it");
    if (pb.distributing)
      add_distributing_coupling(pb);
    else
      add_rigid_body(pb);
  }
  pending_bodies_.clear();
}

// A distributing coupling: the reference node's translations are the mean of the surface
// nodes' (uniform weights): u_r - sum u_i / N = 0 per translation, the reference node
// dependent, so its loads are shared out to the surface nodes with the same weights.
void DeckParser::add_distributing_coupling(const PendingBody& pb) {
  const std::vector<int> ref = node_targets(pb.ref, pb.pos);
  if (ref.size() != 1)
    fail(pb.pos, pb.name + ": REF NODE=" + pb.ref + " has " + std::to_string(ref.size()) + " nodes, expected one");
  const auto it = m_.surfaces.find(pb.surface);
  if (it == m_.surfaces.end()) fail(pb.pos, pb.name + ": surface '" + pb.surface + "' is not defined");
  std::vector<int> nodes = it->second.nodes;
  std::vector<char> seen(m_.nodes.size(), 0);
  for (int n : nodes) seen[n] = 1;
  for (std::size_t i = 0; i < it->second.elements.size(); ++i) {
    const int e = it->second.elements[i], count = m_.elements.count_of(e);
    int local[kFaceMaxNodes];
    surface_face_nodes(count, element_kind(m_.elements.kind[e]).mid_surface, it->second.faces[i], local);
    for (int k = 0; k < kFaceMaxNodes; ++k)
      if (local[k] >= 0 && !seen[m_.elements.nodes_of(e)[local[k]]])
        seen[m_.elements.nodes_of(e)[local[k]]] = 1, nodes.push_back(m_.elements.nodes_of(e)[local[k]]);
  }
  if (seen[ref[0]]) fail(pb.pos, pb.name + ": the reference node is a node of the surface");
  claim_node(ref[0], true, pb);
  const double w = 1.0 / static_cast<double>(nodes.size());
  for (int d = 1; d <= 3; ++d) {
    Equation e;
    e.nodes.push_back(ref[0]);
    e.dofs.push_back(d);
    e.coefficients.push_back(1.0);
    for (int n : nodes) {
      e.nodes.push_back(n);
      e.dofs.push_back(d);
      e.coefficients.push_back(-w);
    }
    e.loc = loc(pb.pos);
    m_.equations.push_back(std::move(e));
  }
}

// Mass-proportional damping acts at the nodes (C = alpha M, lumped); a rigid body's nodes move
// with the body, whose update takes no damping. Rather than drop it silently, each body whose
// nodes an element with a damped material touches gets a warning naming the first such material.
void DeckParser::warn_undamped_rigid_bodies() {
  if (m_.rigid_bodies.empty()) return;
  std::vector<const Material*> material(m_.elements.size(), nullptr);
  const auto assign = [&](const std::string& elset, const std::string& name) {
    const auto set = m_.elsets.find(elset);
    const auto mat = m_.materials.find(name);
    if (set == m_.elsets.end() || mat == m_.materials.end()) return;  // validate() names what is missing
    for (int e : set->second.members) material[static_cast<std::size_t>(e)] = &mat->second;
  };
  for_each_section(m_, [&](const SectionUse& s) { assign(s.elset, s.material); });
  std::vector<int> body_of(m_.nodes.size(), -1);
  for (std::size_t b = 0; b < m_.rigid_bodies.size(); ++b) {
    const RigidBody& rb = m_.rigid_bodies[b];
    for (const std::vector<int>* slaves : {&rb.tied, &rb.pinned})
      for (int n : *slaves) body_of[static_cast<std::size_t>(n)] = static_cast<int>(b);
    body_of[static_cast<std::size_t>(rb.ref_node)] = static_cast<int>(b);
  }
  std::vector<const Material*> damped(m_.rigid_bodies.size(), nullptr);
  for (std::size_t e = 0; e < material.size(); ++e) {
    if (!material[e] || !(material[e]->alpha > 0)) continue;
    const int* nodes = m_.elements.nodes_of(static_cast<int>(e));
    for (int k = 0; k < m_.elements.count_of(static_cast<int>(e)); ++k) {
      const int b = body_of[static_cast<std::size_t>(nodes[k])];
      if (b >= 0 && !damped[static_cast<std::size_t>(b)]) damped[static_cast<std::size_t>(b)] = material[e];
    }
  }
  for (std::size_t b = 0; b < damped.size(); ++b) {
    if (!damped[b]) continue;
    char alpha[32];
    std::snprintf(alpha, sizeof alpha, "%g", damped[b]->alpha);
    const RigidBody& rb = m_.rigid_bodies[b];
    m_.warnings.push_back(rb.name + " at " + rb.loc.str() + ": *DAMPING, ALPHA=" + alpha + " of material " +
                          damped[b]->name + " is not applied to its nodes: rigid bodies move without "
                          "mass-proportional damping");
  }
}

// A *RIGID BODY (ELSET, TIE NSET, PIN NSET) or kinematic *COUPLING: its reference node and
// its tied and pinned slaves.
void DeckParser::add_rigid_body(const PendingBody& pb) {
  RigidBody b;
  b.name = pb.name;
  const std::vector<int> ref = node_targets(pb.ref, pb.pos);
  if (ref.size() != 1)
    fail(pb.pos, pb.name + ": REF NODE=" + pb.ref + " has " + std::to_string(ref.size()) + " nodes, expected one");
  b.ref_node = ref[0];
  std::vector<char> seen(m_.nodes.size(), 0);
  seen[b.ref_node] = 1;  // the reference node moves with the body by definition
  const auto add = [&](std::vector<int>& to, int n) {
    if (!seen[n]) seen[n] = 1, to.push_back(n);
  };
  if (!pb.elset.empty())
    for (int e : element_targets(pb.elset, pb.pos))
      for (int k = 0; k < m_.elements.count_of(e); ++k) add(b.tied, m_.elements.nodes_of(e)[k]);
  if (!pb.tie.empty())
    for (int n : node_targets(pb.tie, pb.pos)) add(b.tied, n);
  if (!pb.pin.empty())
    for (int n : node_targets(pb.pin, pb.pos)) add(b.pinned, n);
  if (pb.coupling) {
    const auto it = m_.surfaces.find(pb.surface);
    if (it == m_.surfaces.end()) fail(pb.pos, pb.name + ": surface '" + pb.surface + "' is not defined");
    const Surface& surf = it->second;
    std::vector<int>& to = pb.pinned_only ? b.pinned : b.tied;
    for (int n : surf.nodes) add(to, n);
    for (std::size_t i = 0; i < surf.elements.size(); ++i) {
      const int e = surf.elements[i], count = m_.elements.count_of(e);
      int local[kFaceMaxNodes];
      surface_face_nodes(count, element_kind(m_.elements.kind[e]).mid_surface, surf.faces[i], local);
      for (int k = 0; k < kFaceMaxNodes; ++k)
        if (local[k] >= 0) add(to, m_.elements.nodes_of(e)[local[k]]);
    }
  }
  if (b.tied.empty() && b.pinned.empty()) fail(pb.pos, pb.name + " has no nodes besides its reference node");
  if (!pb.rot.empty()) {
    const std::vector<int> rot = node_targets(pb.rot, pb.pos);
    if (rot.size() != 1)
      fail(pb.pos, pb.name + ": ROT NODE=" + pb.rot + " has " + std::to_string(rot.size()) + " nodes, expected one");
    if (seen[rot[0]])
      fail(pb.pos, pb.name + ": ROT NODE=" + pb.rot + " is the reference node or one of the body's nodes; the rotation "
                             "node must be a node of its own");
    for (const RigidBody& other : m_.rigid_bodies)
      if (other.rot_node == rot[0] || other.ref_node == rot[0])
        fail(pb.pos, pb.name + ": ROT NODE=" + pb.rot + " is already a reference or rotation node of another body");
    for (int e = 0; e < m_.elements.size(); ++e)
      for (int k = 0; k < m_.elements.count_of(e); ++k)
        if (m_.elements.nodes_of(e)[k] == rot[0])
          fail(pb.pos, pb.name + ": ROT NODE=" + pb.rot + " is a node of element " +
                           std::to_string(m_.elements.id[static_cast<std::size_t>(e)]) +
                           "; the rotation node must belong to no element");
    b.rot_node = rot[0];
  }
  claim_node(b.ref_node, true, pb);
  for (const std::vector<int>* slaves : {&b.tied, &b.pinned})
    for (int n : *slaves) claim_node(n, false, pb);
  b.loc = loc(pb.pos);
  m_.rigid_bodies.push_back(std::move(b));
}

// *MPC: PIN and TIE are equations u_s - u_m = 0 per translation, TIE also per rotation where
// both nodes have rotations (6-dof models; checked when the system is built); BEAM links the
// slave rigidly to the master, one rigid body per master.
void DeckParser::resolve_mpcs() {
  std::map<int, std::size_t> mpc_body;  // master node -> index in m_.rigid_bodies
  std::vector<char> rotates;            // nodes of elements with rotations (filled when a TIE needs it)
  for (const PendingMpc& p : pending_mpcs_) {
    const std::vector<int> slaves = node_targets(p.slave, p.pos), masters = node_targets(p.master, p.pos);
    if (slaves.size() != masters.size())
      fail(p.pos, "*MPC " + p.type + ": '" + p.slave + "' has " + std::to_string(slaves.size()) + " nodes and '" +
                      p.master + "' " + std::to_string(masters.size()) + " (they pair up in order)");
    for (std::size_t i = 0; i < slaves.size(); ++i) {
      const int sn = slaves[i], mn = masters[i];
      if (sn == mn) fail(p.pos, "*MPC " + p.type + ": node " + std::to_string(m_.nodes.id[sn]) + " is its own master");
      node_claims_.push_back(NodeClaim{sn, false, false, p.order, p.pos, "*MPC " + p.type});
      if (p.type == "BEAM") node_claims_.push_back(NodeClaim{mn, true, false, p.order, p.pos, "*MPC BEAM"});
      if (p.type == "BEAM") {
        const auto [it, fresh] = mpc_body.try_emplace(mn, m_.rigid_bodies.size());
        if (fresh) {
          RigidBody b;
          b.name = "*MPC BEAM with master node " + std::to_string(m_.nodes.id[mn]);
          b.ref_node = mn;
          b.loc = loc(p.pos);
          m_.rigid_bodies.push_back(std::move(b));
        }
        std::vector<int>& tied = m_.rigid_bodies[it->second].tied;
        if (std::find(tied.begin(), tied.end(), sn) == tied.end()) tied.push_back(sn);
        continue;
      }
      if (p.type == "TIE") {
        if (rotates.empty()) {
          rotates.assign(m_.nodes.size(), 0);
          for (int e = 0; e < m_.elements.size(); ++e)
            if (element_kind(m_.elements.kind[e]).dofs_per_node == 6)
              for (int k = 0; k < m_.elements.count_of(e); ++k) rotates[m_.elements.nodes_of(e)[k]] = 1;
        }
        if (rotates[sn] != rotates[mn])
          fail(p.pos, "*MPC TIE between node " + std::to_string(m_.nodes.id[rotates[sn] ? sn : mn]) +
                          ", which has rotations, and node " + std::to_string(m_.nodes.id[rotates[sn] ? mn : sn]) +
                          ", which has none: TIE makes all dofs equal; use PIN for the translations");
      }
      const int last = p.type == "TIE" && rotates[sn] ? 6 : 3;
      for (int d = 1; d <= last; ++d) {
        Equation e;
        e.nodes = {sn, mn};
        e.dofs = {d, d};
        e.coefficients = {1.0, -1.0};
        e.loc = loc(p.pos);
        m_.equations.push_back(std::move(e));
      }
    }
  }
  pending_mpcs_.clear();
}

// *TRANSFORM, NSET=, TYPE=R|C|S with one data line a1, a2, a3, b1, b2, b3.
void DeckParser::transform_keyword(const Keyword& kw) {
  allow_params(kw, {"NSET", "TYPE"});
  PendingTransform p;
  p.nset = key(required_param(kw, "NSET"));
  const std::string type = squeeze_upper(param(kw, "TYPE"));
  if (type.empty() || type == "R") p.t.type = NodeTransform::Type::Rectangular;
  else if (type == "C") p.t.type = NodeTransform::Type::Cylindrical;
  else if (type == "S") p.t.type = NodeTransform::Type::Spherical;
  else fail(kw.pos, "*TRANSFORM, TYPE=" + param(kw, "TYPE") + ": expected R (rectangular), C (cylindrical) or S (spherical)");
  if (inst_.moved)
    fail(kw.pos, "*TRANSFORM inside a part that is instanced with a translation or rotation is not supported: "
                 "write it in the assembly with the instance's node set");
  p.t.loc = loc(kw.pos);
  p.pos = kw.pos;
  pending_transforms_.push_back(std::move(p));
}

void DeckParser::transform_data(const Line& line) {
  if (block_lines_ > 1) fail(at_, "*TRANSFORM takes one data line (a1, a2, a3, b1, b2, b3)");
  need_fields(line, 6, "a1, a2, a3, b1, b2, b3 (the two points that define the local system)");
  at_most_fields(line, 6, "a1, a2, a3, b1, b2, b3");
  NodeTransform& t = pending_transforms_.back().t;
  for (std::size_t i = 0; i < 3; ++i) {
    t.a[i] = real_or(line.fields[i], 0.0, "a coordinate of point a");
    t.b[i] = real_or(line.fields[3 + i], 0.0, "a coordinate of point b");
  }
  const auto& a = t.a;
  const auto& b = t.b;
  const double la = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  const double lb = std::sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
  if (t.type == NodeTransform::Type::Rectangular) {
    const double cx = a[1] * b[2] - a[2] * b[1], cy = a[2] * b[0] - a[0] * b[2], cz = a[0] * b[1] - a[1] * b[0];
    if (!(std::sqrt(cx * cx + cy * cy + cz * cz) > 1e-10 * la * lb) || la == 0 || lb == 0)
      fail(at_, "*TRANSFORM, TYPE=R: points a and b must be nonzero and not on one line through the origin "
                "(a is on local axis 1, b in the local 1-2 plane)");
  } else {
    const double dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];
    if (!(std::sqrt(dx * dx + dy * dy + dz * dz) > 1e-12 * std::max(1.0, std::max(la, lb))))
      fail(at_, std::string("*TRANSFORM, TYPE=") + (t.type == NodeTransform::Type::Cylindrical ? "C" : "S") +
                    ": points a and b coincide (they define the " +
                    (t.type == NodeTransform::Type::Cylindrical ? "cylinder axis" : "polar axis") + ")");
  }
}

void DeckParser::transform_end() { need_data_line("a1, a2, a3, b1, b2, b3"); }

// Node sets are known once the mesh is read. A node in two *TRANSFORMs takes the later one,
// with one warning per *TRANSFORM that overrides an earlier one.
void DeckParser::resolve_transforms() {
  std::map<int, std::size_t> owner;
  for (const PendingTransform& p : pending_transforms_) {
    check_node_set(p.nset, p.pos);
    NodeTransform t = p.t;
    t.nodes = node_targets(p.nset, p.pos);
    int overridden = 0, first = -1;
    for (int n : t.nodes) {
      const auto [it, inserted] = owner.try_emplace(n, m_.transforms.size());
      if (!inserted) {
        if (overridden++ == 0) first = n;
        it->second = m_.transforms.size();
      }
    }
    if (overridden)
      m_.warnings.push_back("*TRANSFORM at " + t.loc.str() + " replaces an earlier *TRANSFORM on " +
                            std::to_string(overridden) + " node(s) (first: node " +
                            std::to_string(m_.nodes.id[static_cast<std::size_t>(first)]) + "): the later one applies");
    m_.transforms.push_back(std::move(t));
  }
  pending_transforms_.clear();
}

}  // namespace halfstep::inp

namespace halfstep::inp {

void DeckParser::remap_rotation_nodes() {
  std::vector<int> body_of(m_.nodes.size(), -1);
  bool any = false;
  for (std::size_t b = 0; b < m_.rigid_bodies.size(); ++b)
    if (m_.rigid_bodies[b].rot_node >= 0) {
      body_of[static_cast<std::size_t>(m_.rigid_bodies[b].rot_node)] = static_cast<int>(b);
      any = true;
    }
  if (!any) return;
  const auto ref_of = [&](int n) { return m_.rigid_bodies[static_cast<std::size_t>(body_of[static_cast<std::size_t>(n)])].ref_node; };
  const auto refuse = [&](const SourceLoc& at, int n, int dof, const char* what) {
    throw InputError(at, std::string(what) + " on dof " + std::to_string(dof) + " of node " +
                             std::to_string(m_.nodes.id[static_cast<std::size_t>(n)]) +
                             ", a *RIGID BODY's ROT NODE: its dofs 1 to 3 are the body's rotations, it has no others");
  };
  // Each entry's rotation nodes leave it for a copy on their reference node, its dofs moved
  // by 3 (shift); an entry left without nodes goes.
  const auto remap = [&](auto& lines, auto last_dof, auto shift, const char* what) {
    using Entry = typename std::decay_t<decltype(lines)>::value_type;
    std::vector<Entry> moved;
    for (Entry& l : lines) {
      std::vector<int> keep;
      for (int n : l.nodes) {
        if (body_of[static_cast<std::size_t>(n)] < 0) {
          keep.push_back(n);
          continue;
        }
        if (last_dof(l) > 3) refuse(l.loc, n, last_dof(l), what);
        Entry r = l;
        r.nodes = {ref_of(n)};
        shift(r);
        moved.push_back(std::move(r));
      }
      l.nodes = std::move(keep);
    }
    lines.erase(std::remove_if(lines.begin(), lines.end(), [](const Entry& l) { return l.nodes.empty(); }), lines.end());
    lines.insert(lines.end(), moved.begin(), moved.end());
  };
  for (Step& s : m_.steps) {
    remap(s.boundaries, [](const Boundary& b) { return b.last_dof; },
          [](Boundary& b) {
            b.first_dof += 3;
            b.last_dof += 3;
          }, "*BOUNDARY");
    remap(s.cloads, [](const ConcentratedLoad& c) { return c.dof; }, [](ConcentratedLoad& c) { c.dof += 3; }, "*CLOAD");
  }
}

}  // namespace halfstep::inp
