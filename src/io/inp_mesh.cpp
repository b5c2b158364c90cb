// *NODE, *ELEMENT, *NSET, *ELSET and the resolution of node/element references.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "io/inp_parser.hpp"
#include "elements/registry.hpp"
#include "io/inp_text.hpp"

namespace halfstep::inp {

namespace {
bool looks_numeric(std::string_view s) {
  return !s.empty() && (std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '-' ||
                        s[0] == '+' || s[0] == '.');
}
}  // namespace

std::string DeckParser::renumbered_owner() const {
  return inst_.name.empty() ? std::string("the assembly") : "instance '" + inst_.name + "'";
}

void DeckParser::node_keyword(const Keyword& kw) {
  allow_params(kw, {"NSET", "INPUT"});
  // Nodes written in the assembly itself (Abaqus/CAE's reference points) have ids of their
  // own: above every id read so far, like another instance's.
  if (at_assembly_level()) {
    if (!assembly_node_offset_) assembly_node_offset_ = assembly_offset(max_node_id_);
    inst_.node_offset = *assembly_node_offset_;
  } else if (inst_.name.empty()) {
    inst_.node_offset = 0;  // a flat deck's nodes keep their ids
  }
  if (kw.find("NSET")) cur_set_ = &open_set(true, key(required_param(kw, "NSET")), kw.pos);
  follow_input(kw);
}

// Hot path for large decks: no allocation besides the model's own arrays.
void DeckParser::node_data(const Line& line) {
  const auto& f = line.fields;
  // Coordinates left out are zero, as in Abaqus and the peer (a line of the id alone puts the
  // node at the origin).
  need_fields(line, 1, "node id[, x, y, z]");
  if (f.size() > 7)
    fail(at_, "too many fields on *NODE data line: expected node id, x, y[, z[, nx, ny, nz]] (the "
              "normal direction), got " + std::to_string(f.size()) + " fields");
  // Fields 5-7 are the node's normal direction (Abaqus: for shells and beams; a zero or
  // empty one means none). Only continuum, truss and spring nodes may have one here: their
  // elements never read it (check_node_normals).
  bool normal = false;
  for (std::size_t k = 4; k < f.size(); ++k) normal = real_or(f[k], 0.0, "a normal direction cosine") != 0.0 || normal;
  const std::int64_t label = integer(f[0], "the node id");
  if (label < 1) fail(at_, "node id must be a positive integer, got " + std::to_string(label));
  if (label > std::numeric_limits<std::int64_t>::max() - inst_.node_offset)
    fail(at_, "node id " + std::to_string(label) + " is too large to renumber for " + renumbered_owner());
  const std::int64_t id = label + inst_.node_offset;
  if (at_assembly_level()) assembly_node_labels_.insert(label);
  double x = f.size() > 1 ? real_or(f[1], 0.0, "the x coordinate") : 0.0;
  double y = f.size() > 2 ? real_or(f[2], 0.0, "the y coordinate") : 0.0;
  double z = f.size() > 3 ? real_or(f[3], 0.0, "the z coordinate") : 0.0;
  if (inst_.moved) {  // x -> R (x + t - a) + a
    const double p[3] = {x + inst_.t[0] - inst_.a[0], y + inst_.t[1] - inst_.a[1], z + inst_.t[2] - inst_.a[2]};
    double q[3];
    for (int i = 0; i < 3; ++i) q[i] = inst_.R[i][0] * p[0] + inst_.R[i][1] * p[1] + inst_.R[i][2] * p[2] + inst_.a[i];
    x = q[0];
    y = q[1];
    z = q[2];
  }
  max_node_id_ = std::max(max_node_id_, id);
  Nodes& n = m_.nodes;
  const auto [it, inserted] = n.index.emplace(id, n.size());
  if (!inserted)
    fail(at_, "node " + std::to_string(label) +
                  (id != label ? " (renumbered " + std::to_string(id) + ")" : std::string()) +
                  " is defined twice (first at " + n.loc[static_cast<std::size_t>(it->second)].str() + ")");
  n.id.push_back(id);
  n.x.push_back(x);
  n.y.push_back(y);
  n.z.push_back(z);
  n.loc.push_back(lex_.file_name(at_), at_.line);
  if (normal) node_normals_.emplace_back(n.size() - 1, at_);
  if (cur_set_) add_set_id(*cur_set_, id, at_, true);
}

void DeckParser::check_node_normals() const {
  if (node_normals_.empty()) return;
  std::vector<int> user(static_cast<std::size_t>(m_.nodes.size()), -1);  // an element with rotations at the node
  const Elements& e = m_.elements;
  for (int k = e.size() - 1; k >= 0; --k)
    if (element_kind(e.kind[static_cast<std::size_t>(k)]).dofs_per_node == 6)
      for (int a = 0; a < e.count_of(k); ++a) user[static_cast<std::size_t>(e.nodes_of(k)[a])] = k;
  for (const auto& [node, pos] : node_normals_) {
    const int k = user[static_cast<std::size_t>(node)];
    if (k < 0) continue;
    fail(pos, "node " + std::to_string(m_.nodes.id[static_cast<std::size_t>(node)]) +
                  " has a normal direction on its *NODE line, and " + e.abaqus_type[static_cast<std::size_t>(k)] +
                  " element " + std::to_string(e.id[static_cast<std::size_t>(k)]) +
                  " uses the node: halfstep takes shell and beam normals from the mesh and the section, "
                  "never from *NODE (delete the normal, or give the beam's direction on *BEAM SECTION)");
  }
}

void DeckParser::element_keyword(const Keyword& kw) {
  allow_params(kw, {"TYPE", "ELSET", "INPUT"});
  // Elements written in the assembly itself (Abaqus/CAE puts springs, dashpots and point
  // masses there, their nodes as "instance.node") have ids of their own: they start above
  // every id read so far, like another instance's.
  if (at_assembly_level()) {
    if (!assembly_element_offset_) assembly_element_offset_ = assembly_offset(max_element_id_);
    inst_.element_offset = *assembly_element_offset_;
  } else if (inst_.name.empty()) {
    inst_.element_offset = 0;
  }
  element_abaqus_type_ = upper(trim(required_param(kw, "TYPE")));
  const std::string& t = element_abaqus_type_;
  // Point masses are not finite elements: their nodes get the mass of the *MASS that names
  // their element set (resolve_point_masses).
  mass_block_ = t == "MASS" || t == "ROTARYI";
  rotary_block_ = t == "ROTARYI";
  if (mass_block_) {
    if (!kw.find("ELSET"))
      fail(kw.pos, rotary_block_ ? "*ELEMENT, TYPE=ROTARYI needs ELSET= (the *ROTARY INERTIA that gives the inertia names that set)"
                                 : "*ELEMENT, TYPE=MASS needs ELSET= (the *MASS that gives the mass names that set)");
    mass_elset_ = key(required_param(kw, "ELSET"));
    follow_input(kw);
    return;
  }
  // S8 and S8R run as bricks across the thickness (inp_s8_expansion.cpp): read as
  // C3D20/C3D20R with their 8 shell nodes until the sections give the thickness.
  // B32 and B32R too, with their 3 beam nodes (inp_b32_expansion.cpp).
  expand_nodes_ = t == "S8" || t == "S8R" ? 8 : t == "B32" || t == "B32R" ? 3 : 0;
  // B32R runs as the full brick: a single row of C3D20R has zero-energy modes (docs/input.md).
  const bool reduced = t == "S8R";
  element_kind_ = expand_nodes_ ? find_element_kind(reduced ? "C3D20R" : "C3D20") : find_element_kind(t);
  // A kind that exists only as a formulation (S3: the FPM triangle) is taken here; its
  // section must then name the formulation (resolve_sections).
  if (element_kind_ < 0) element_kind_ = find_formulation_only_kind(t);
  if (element_kind_ < 0)
    fail(kw.pos, "element type " + t + " is not supported (halfstep supports " + supported_element_names() +
                     ", and S8, S8R, B32, B32R as 20-node bricks)");
  if (*element_kind(element_kind_).made_by)
    fail(kw.pos, "element type " + t + " is made by " + element_kind(element_kind_).made_by + ", not by *ELEMENT");
  if (kw.find("ELSET")) cur_set_ = &open_set(false, key(required_param(kw, "ELSET")), kw.pos);
  follow_input(kw);
}

// Node ids are kept as written until the model data ends: elements may precede their nodes.
// Abaqus decides whether an element goes on to the next data line by its node count: a line
// with the id and fewer nodes than the type has continues, a complete one ends (a trailing
// comma after the last node changes nothing).
void DeckParser::element_data(const Line& line) {
  const auto& f = line.fields;
  if (mass_block_) {
    need_fields(line, 2, "element id, node id (MASS and ROTARYI elements have one node)");
    at_most_fields(line, 2, "element id, node id (MASS and ROTARYI elements have one node)");
    const std::int64_t id = integer(f[0], "the element id");
    if (id < 1) fail(at_, "element id must be a positive integer, got " + std::to_string(id));
    if (id > std::numeric_limits<std::int64_t>::max() - inst_.element_offset)
      fail(at_, "element id " + std::to_string(id) + " is too large to renumber for " + renumbered_owner());
    const std::int64_t eid = id + inst_.element_offset;
    if (at_assembly_level()) assembly_element_labels_.insert(id);
    const auto [it, inserted] = mass_ids_.emplace(eid, at_);
    if (!inserted || m_.elements.index.count(eid))
      fail(at_, "element " + std::to_string(eid) + " is defined twice" +
                    (inserted ? std::string() : " (first at " + loc(it->second).str() + ")"));
    max_element_id_ = std::max(max_element_id_, eid);
    (rotary_block_ ? rotary_sets_ : mass_sets_)[mass_elset_].emplace_back(
        element_node_id(f[1], rotary_block_ ? "the node id of the ROTARYI element" : "the node id of the MASS element"), at_);
    return;
  }
  const int npe = expand_nodes_ ? expand_nodes_ : element_kind(element_kind_).nodes;
  // Built only for a message: a string per element line would cost more than parsing it.
  const auto form = [&] {
    return "element id and " + std::to_string(npe) + " node ids (" + element_abaqus_type_ + " elements have " +
           std::to_string(npe) + " nodes)";
  };
  std::size_t k0 = 0;
  if (element_pending_id_ == 0) {
    if (f.empty()) need_fields(line, 1, form().c_str());
    const std::int64_t id = integer(f[0], "the element id");
    if (id < 1) fail(at_, "element id must be a positive integer, got " + std::to_string(id));
    if (id > std::numeric_limits<std::int64_t>::max() - inst_.element_offset)
      fail(at_, "element id " + std::to_string(id) + " is too large to renumber for " + renumbered_owner());
    element_pending_id_ = id + inst_.element_offset;
    if (at_assembly_level()) assembly_element_labels_.insert(id);
    max_element_id_ = std::max(max_element_id_, element_pending_id_);
    element_pending_nodes_.clear();
    element_pending_at_ = at_;
    k0 = 1;
  }
  for (std::size_t k = k0; k < f.size(); ++k) {
    if (element_pending_nodes_.size() >= static_cast<std::size_t>(npe))
      fail(at_, "too many fields on *ELEMENT data line: expected " + form());
    element_pending_nodes_.push_back(element_node_id(f[k], "a node id of the element"));
  }
  if (element_pending_nodes_.size() < static_cast<std::size_t>(npe)) return;  // continues on the next line
  const std::int64_t id = element_pending_id_;
  element_pending_id_ = 0;
  Elements& e = m_.elements;
  const auto [it, inserted] = e.index.emplace(id, e.size());
  if (!inserted)
    fail(element_pending_at_, "element " + std::to_string(id) + " is defined twice (first at " +
                                  e.loc[static_cast<std::size_t>(it->second)].str() + ")");
  conn_ids_.insert(conn_ids_.end(), element_pending_nodes_.begin(), element_pending_nodes_.end());
  if (expand_nodes_ == 8) expanded_elements_.push_back(e.size());
  if (expand_nodes_ == 3) expanded_b32_elements_.push_back(e.size());
  e.id.push_back(id);
  e.kind.push_back(element_kind_);
  e.section.push_back(section_keyword_of(element_kind(element_kind_).section_keyword));
  e.conn_ptr.push_back(static_cast<int>(conn_ids_.size()));
  e.abaqus_type.push_back(element_abaqus_type_);
  e.loc.push_back(lex_.file_name(element_pending_at_), element_pending_at_.line);
  if (cur_set_) add_set_id(*cur_set_, id, element_pending_at_, true);
}

void DeckParser::mass_keyword(const Keyword& kw) {
  allow_params(kw, {"ELSET"});
  PendingMass p;
  p.elset = key(required_param(kw, "ELSET"));
  p.pos = kw.pos;
  pending_masses_.push_back(p);
}

void DeckParser::mass_data(const Line& line) {
  if (block_lines_ > 1) fail(at_, "*MASS takes one data line (the mass)");
  need_fields(line, 1, "the mass");
  at_most_fields(line, 1, "the mass (anisotropic masses are not supported)");
  const double m = real(line.fields[0], "the mass");
  if (!(m > 0 && m < 1e300)) fail(at_, "*MASS: the mass must be a positive number, got '" + std::string(line.fields[0]) + "'");
  pending_masses_.back().mass = m;
}

void DeckParser::mass_end() { need_data_line("the mass"); }

// Each *MASS puts its mass on every node of the MASS elements of its set; a set of MASS
// elements without a *MASS is an error (their mass would be lost).
void DeckParser::resolve_point_masses() {
  std::map<std::string, bool> used;
  for (const PendingMass& p : pending_masses_) {
    const auto it = mass_sets_.find(p.elset);
    if (it == mass_sets_.end())
      fail(p.pos, "*MASS, ELSET=" + p.elset + ": no *ELEMENT, TYPE=MASS block defines that element set");
    used[p.elset] = true;
    for (const auto& [node, pos] : it->second) {
      const auto n = m_.nodes.index.find(node);
      if (n == m_.nodes.index.end())
        fail(pos, "MASS element refers to node " + std::to_string(node) + ", which is not defined");
      m_.point_masses.push_back(PointMass{n->second, p.mass, loc(p.pos)});
    }
  }
  for (const auto& [set, members] : mass_sets_)
    if (!used.count(set) && !members.empty())
      fail(members.front().second, "MASS elements of set '" + set + "' have no *MASS giving their mass");
  std::map<std::string, bool> used_rotary;
  for (const PendingMass& p : pending_rotary_) {
    const auto it = rotary_sets_.find(p.elset);
    if (it == rotary_sets_.end())
      fail(p.pos, "*ROTARY INERTIA, ELSET=" + p.elset + ": no *ELEMENT, TYPE=ROTARYI block defines that element set");
    used_rotary[p.elset] = true;
    for (const auto& [node, pos] : it->second) {
      const auto n = m_.nodes.index.find(node);
      if (n == m_.nodes.index.end())
        fail(pos, "ROTARYI element refers to node " + std::to_string(node) + ", which is not defined");
      m_.point_inertias.push_back(PointMass{n->second, p.mass, loc(p.pos)});
    }
  }
  for (const auto& [set, members] : rotary_sets_)
    if (!used_rotary.count(set) && !members.empty())
      fail(members.front().second, "ROTARYI elements of set '" + set + "' have no *ROTARY INERTIA giving their inertia");
}

// A node of an element: an id (of the current instance), or "instance.id" (an assembly's
// elements name the nodes of its instances so).
std::int64_t DeckParser::element_node_id(std::string_view field, const char* what) const {
  if (to_int(field) || field.find('.') == std::string_view::npos) {
    const std::int64_t node = integer(field, what);
    if (inst_.name.empty()) return plain_id(node, true);  // an assembly-level or flat deck's node
    if (node > std::numeric_limits<std::int64_t>::max() - inst_.node_offset)
      fail(at_, "node id " + std::to_string(node) + " is too large to renumber for " + renumbered_owner());
    return node + inst_.node_offset;
  }
  const auto id = id_of(key(field), true);
  if (!id)
    fail(at_, "expected a node id or instance.node for " + std::string(what) + ", got '" + std::string(field) +
                  "' (no such instance)");
  return *id;
}

void DeckParser::rotary_keyword(const Keyword& kw) {
  allow_params(kw, {"ELSET", "ORIENTATION", "ALPHA", "COMPOSITE"});
  if (kw.find("ALPHA")) fail(kw.pos, "*ROTARY INERTIA, ALPHA (mass-proportional damping of the inertia) is not supported");
  // An isotropic inertia (the only one taken) is the same in every orientation.
  warn_ignored_param(kw, "COMPOSITE");
  PendingMass p;
  p.elset = key(required_param(kw, "ELSET"));
  p.pos = kw.pos;
  pending_rotary_.push_back(p);
}

// I11, I22, I33, I12, I13, I23 (blank: 0). The node integrator keeps one rotary inertia per
// node, so only an isotropic tensor is taken (I11 = I22 = I33, no products).
void DeckParser::rotary_data(const Line& line) {
  if (block_lines_ > 1) fail(at_, "*ROTARY INERTIA takes one data line (I11, I22, I33, I12, I13, I23)");
  at_most_fields(line, 6, "I11, I22, I33, I12, I13, I23");
  double I[6] = {0, 0, 0, 0, 0, 0};
  for (std::size_t k = 0; k < line.fields.size(); ++k) I[k] = real_or(line.fields[k], 0.0, "a rotary inertia component");
  if (!(I[0] > 0 && I[0] < 1e300))
    fail(at_, "*ROTARY INERTIA: I11 must be a positive number, got '" + std::string(line.fields.empty() ? "" : line.fields[0]) + "'");
  const double tol = 1e-12 * I[0];
  if (std::fabs(I[1] - I[0]) > tol || std::fabs(I[2] - I[0]) > tol || std::fabs(I[3]) > tol || std::fabs(I[4]) > tol ||
      std::fabs(I[5]) > tol)
    fail(at_, "*ROTARY INERTIA: only an isotropic rotary inertia is supported (I11 = I22 = I33, I12 = I13 = I23 = 0): "
              "halfstep's nodes carry one rotary inertia");
  pending_rotary_.back().mass = I[0];
}

void DeckParser::rotary_end() { need_data_line("I11, I22, I33, I12, I13, I23"); }

void DeckParser::element_end() {
  mass_block_ = false;
  rotary_block_ = false;
  if (element_pending_id_ == 0) return;
  const int npe = expand_nodes_ ? expand_nodes_ : element_kind(element_kind_).nodes;
  const std::int64_t id = element_pending_id_;
  element_pending_id_ = 0;
  fail(element_pending_at_, "too few fields on *ELEMENT data line: element " + std::to_string(id) + " has " +
                                std::to_string(element_pending_nodes_.size()) + " of its " + std::to_string(npe) +
                                " node ids (" + element_abaqus_type_ + "), and the block ends");
}

void DeckParser::nset_keyword(const Keyword& kw) { set_keyword(kw, true); }

void DeckParser::elset_keyword(const Keyword& kw) { set_keyword(kw, false); }

void DeckParser::set_keyword(const Keyword& kw, bool node_set) {
  const char* k = node_set ? "NSET" : "ELSET";
  allow_params(kw, node_set ? std::initializer_list<std::string_view>{k, "GENERATE", "INSTANCE", "INTERNAL", "UNSORTED",
                                                                        "INPUT", "ELSET"}
                            : std::initializer_list<std::string_view>{k, "GENERATE", "INSTANCE", "INTERNAL", "UNSORTED",
                                                                        "INPUT"});
  // The set itself belongs to where it is written; with INSTANCE= its members are that
  // instance's ids and sets.
  cur_set_ = &open_set(node_set, key(required_param(kw, k)), kw.pos);
  if (const Param* inst = kw.find("INSTANCE")) {
    const std::string name = upper(unquote(trim(inst->value)));
    if (!inst_.name.empty()) fail(kw.pos, kw.display + ", INSTANCE= inside a part is not allowed");
    if (!instance_offsets_.count(name)) fail(kw.pos, kw.display + ", INSTANCE=" + inst->value + ": no such instance");
    set_instance_ = name;
  }
  cur_set_nodes_ = node_set;
  cur_set_generate_ = kw.find("GENERATE") != nullptr;
  if (node_set && kw.find("ELSET")) {  // the nodes of an element set's elements; no data lines needed
    if (cur_set_generate_) fail(kw.pos, "*NSET takes ELSET= or GENERATE, not both");
    set_names_.push_back(key(required_param(kw, "ELSET")));
    SetItem item{0, 0, 1, static_cast<int>(set_names_.size()) - 1, true, kw.pos};
    cur_set_->items.push_back(item);
  }
  follow_input(kw);
}

// A run of consecutive ids becomes one range item: a million-element *ELEMENT, ELSET= block
// would otherwise hold a million items. An id that may be undefined joins a run only on the
// run's own line, so that the error still names the line that wrote it.
void DeckParser::add_set_id(PendingSet& set, std::int64_t id, Pos pos, bool defined) {
  if (!set.items.empty()) {
    SetItem& b = set.items.back();
    if (b.name < 0 && !b.elements_nodes && b.step == 1 && b.last + 1 == id &&
        (defined || (b.pos.file == pos.file && b.pos.line == pos.line))) {
      b.last = id;
      return;
    }
  }
  set.items.push_back(SetItem{id, id, 1, -1, false, pos});
}

void DeckParser::set_data(const Line& line) {
  const auto& f = line.fields;
  if (cur_set_generate_) {
    need_fields(line, 2, "first, last[, increment]");
    at_most_fields(line, 3, "first, last[, increment]");
    const std::string owner = !inst_.name.empty() ? inst_.name : set_instance_;
    std::int64_t offset = 0;
    const std::int64_t first0 = integer(f[0], "the first id of GENERATE");
    const std::int64_t last0 = integer(f[1], "the last id of GENERATE");
    if (!owner.empty()) {
      const auto& o = instance_offsets_.at(owner);
      offset = cur_set_nodes_ ? o.first : o.second;
    } else {  // the assembly's own nodes (elements) when it has one of the first label
      offset = plain_id(first0, cur_set_nodes_) - first0;
    }
    if (offset > 0 && (first0 > std::numeric_limits<std::int64_t>::max() - offset ||
                       last0 > std::numeric_limits<std::int64_t>::max() - offset))
      fail(at_, "GENERATE ids too large to renumber for " + (owner.empty() ? std::string("the assembly") : "instance '" + owner + "'"));
    const std::int64_t first = first0 + offset, last = last0 + offset;
    const std::int64_t inc = f.size() > 2 && !f[2].empty() ? integer(f[2], "the GENERATE increment") : 1;
    if (inc < 1) fail(at_, "GENERATE increment must be a positive integer, got " + std::to_string(inc));
    if (last < first)
      fail(at_, "GENERATE needs first <= last, got " + std::to_string(first) + " > " +
                    std::to_string(last));
    cur_set_->items.push_back(SetItem{first, last, inc, -1, false, at_, true});
    return;
  }
  const char* what = cur_set_nodes_ ? "a node id or node set name" : "an element id or element set name";
  for (std::string_view tok : f) {
    if (tok.empty()) continue;
    const std::string k = key(tok);
    if (const auto id = id_of(k, cur_set_nodes_)) {
      add_set_id(*cur_set_, *id, at_, false);
    } else {
      if (looks_numeric(k)) fail(at_, "expected " + std::string(what) + ", got '" + std::string(tok) + "'");
      set_names_.push_back(k);
      cur_set_->items.push_back(SetItem{0, 0, 1, static_cast<int>(set_names_.size()) - 1, false, at_});
    }
  }
}

// Repeated definitions of a set append. A part-level and an assembly-level set of the same
// name are different sets in Abaqus; flattening would merge them, so that is refused.
DeckParser::PendingSet& DeckParser::open_set(bool node_set, const std::string& name, Pos pos) {
  auto& sets = node_set ? pending_nsets_ : pending_elsets_;
  const int scope = in_part_ ? 1 : in_assembly_ ? 2 : 0;
  const auto [it, inserted] = sets.try_emplace(name);
  PendingSet& ps = it->second;
  if (inserted) {
    ps.name = name;
    ps.first = pos;
    ps.scope = scope;
  } else if (ps.scope != scope) {
    fail(pos, std::string(node_set ? "node" : "element") + " set '" + name +
                  "' is defined both in the part and in the assembly (first at " +
                  loc(ps.first).str() + "): halfstep cannot flatten this deck; rename one of them");
  }
  return ps;
}

// Kinds whose traits say kExplicit = false (the 8-node quadrilaterals, which Abaqus/Explicit
// lacks too, the NURBS and adhesion kinds) run in static steps only. The first such element
// is named with its line.
void DeckParser::check_explicit_kinds() const {
  const Step* explicit_step = nullptr;
  for (const Step& s : m_.steps)
    if (s.procedure == Procedure::ExplicitDynamic) {
      explicit_step = &s;
      break;
    }
  if (!explicit_step) return;
  for (int e = 0; e < m_.elements.size(); ++e) {
    const auto k = static_cast<std::size_t>(e);
    const ElementKindInfo& kind = element_kind(m_.elements.kind[k]);
    if (kind.explicit_dynamics) continue;
    if (!*kind.explicit_alternative)
      fail(m_.elements.loc[k], "element " + std::to_string(m_.elements.id[k]) + " is a " + kind.name +
                                   ", which runs in *STATIC steps only, and step '" + explicit_step->name + "' (" +
                                   explicit_step->loc.str() + ") is *DYNAMIC, EXPLICIT");
    fail(m_.elements.loc[k], "element " + std::to_string(m_.elements.id[k]) + " is a " + kind.name +
                                 ", which runs in *STATIC steps only (as in Abaqus, whose explicit solver has no " +
                                 kind.name + "), and step '" + explicit_step->name + "' (" +
                                 explicit_step->loc.str() + ") is *DYNAMIC, EXPLICIT: mesh it with " +
                                 kind.explicit_alternative + " for explicit steps");
  }
}

void DeckParser::resolve_connectivity() {
  Elements& e = m_.elements;
  e.conn.resize(conn_ids_.size());
  std::size_t owner = 0;
  for (std::size_t i = 0; i < conn_ids_.size(); ++i) {
    while (static_cast<std::size_t>(e.conn_ptr[owner + 1]) <= i) ++owner;
    const auto it = m_.nodes.index.find(conn_ids_[i]);
    if (it == m_.nodes.index.end())
      fail(e.loc[owner], "element " + std::to_string(e.id[owner]) + " refers to node " +
                             std::to_string(conn_ids_[i]) + ", which is not defined");
    e.conn[i] = it->second;
  }
  conn_ids_ = {};
}

void DeckParser::resolve_sets() {
  seen_.assign(static_cast<std::size_t>(std::max(m_.nodes.size(), m_.elements.size())), 0);
  // Element sets first: a node set may take the nodes of an element set (*NSET, ELSET=).
  for (auto& [name, ps] : pending_elsets_) resolve_set(false, ps);
  for (auto& [name, ps] : pending_nsets_) resolve_set(true, ps);
  pending_nsets_.clear();
  pending_elsets_.clear();
  seen_ = {};
}

// Nested sets first (so that seen_ is used by one set at a time), depth first with an
// explicit stack: a chain of tens of thousands of sets, each in the next, must not run out
// of call stack.
void DeckParser::resolve_set(bool node_set, PendingSet& root) {
  if (root.state == 2) return;
  const std::string kind = node_set ? "node" : "element";
  auto& pending = node_set ? pending_nsets_ : pending_elsets_;
  std::vector<std::pair<PendingSet*, std::size_t>> stack;  // a set and its next item to look at
  root.state = 1;
  stack.emplace_back(&root, 0);
  while (!stack.empty()) {
    PendingSet* ps = stack.back().first;
    PendingSet* deeper = nullptr;
    while (stack.back().second < ps->items.size()) {
      const SetItem& item = ps->items[stack.back().second++];
      if (item.name < 0 || item.elements_nodes) continue;  // element sets are resolved already
      const std::string& nested = set_names_[static_cast<std::size_t>(item.name)];
      const auto it = pending.find(nested);
      if (it == pending.end())
        fail(item.pos, kind + " set '" + nested + "' is not defined (used in " + kind + " set '" +
                           ps->name + "')");
      if (it->second.state == 1)
        fail(item.pos, kind + " set '" + ps->name + "' contains itself (through set '" + nested + "')");
      if (it->second.state == 0) {
        deeper = &it->second;
        break;
      }
    }
    if (deeper) {
      deeper->state = 1;
      stack.emplace_back(deeper, 0);
      continue;
    }
    build_set(node_set, *ps);
    stack.pop_back();
  }
}

void DeckParser::build_set(bool node_set, PendingSet& ps) {
  const std::string kind = node_set ? "node" : "element";
  auto& done = node_set ? m_.nsets : m_.elsets;
  const auto& index = node_set ? m_.nodes.index : m_.elements.index;
  IndexSet out;
  out.name = ps.name;
  out.loc = loc(ps.first);
  const auto add = [&](int i) {
    if (!seen_[static_cast<std::size_t>(i)]) {
      seen_[static_cast<std::size_t>(i)] = 1;
      out.members.push_back(i);
    }
  };
  for (const SetItem& item : ps.items) {
    if (item.elements_nodes) {
      const std::string& es = set_names_[static_cast<std::size_t>(item.name)];
      const auto it = m_.elsets.find(es);
      if (it == m_.elsets.end())
        fail(item.pos, "element set '" + es + "' is not defined (used in *NSET, NSET=" + ps.name + ", ELSET=)");
      for (int e : it->second.members) {
        const int* c = m_.elements.nodes_of(e);
        for (int k = 0; k < m_.elements.count_of(e); ++k) add(c[k]);
      }
      continue;
    }
    if (item.name >= 0) {
      for (int i : done.at(set_names_[static_cast<std::size_t>(item.name)]).members) add(i);
      continue;
    }
    // A GENERATE range may span ids the mesh does not use (the peer skips them): those are
    // skipped with a warning, as long as the range finds some and is not far longer than the
    // mesh (a mistyped bound would otherwise walk 10^18 ids); a listed id must exist.
    const bool range = item.generated;
    const std::int64_t span = (item.last - item.first) / item.step;
    const std::int64_t bound = 10 * static_cast<std::int64_t>(index.size()) + 1000000;
    std::int64_t skipped = 0, found = 0, first_missing = 0;
    for (std::int64_t id = item.first;; id += item.step) {
      const auto it = index.find(id);
      if (it == index.end()) {
        if (!range || span > bound)
          fail(item.pos, kind + " " + std::to_string(id) + " in " + kind + " set '" + ps.name +
                             "' is not defined");
        if (skipped++ == 0) first_missing = id;
      } else {
        add(it->second);
        ++found;
      }
      if (item.last - id < item.step) break;  // the next id would pass last (or overflow near 2^63)
    }
    if (skipped > 0 && found == 0)
      fail(item.pos, "GENERATE range " + std::to_string(item.first) + " to " + std::to_string(item.last) + " of " + kind +
                         " set '" + ps.name + "' holds no " + kind + " of the model");
    if (skipped > 0)
      m_.warnings.push_back(loc(item.pos).str() + ": " + kind + " set '" + ps.name + "': " + std::to_string(skipped) +
                            " ids of its GENERATE range " + std::to_string(item.first) + " to " +
                            std::to_string(item.last) + " are not " + kind + "s of the model (the first: " +
                            std::to_string(first_missing) + "), skipped");
  }
  for (int i : out.members) seen_[static_cast<std::size_t>(i)] = 0;
  ps.state = 2;
  done[ps.name] = std::move(out);
}

std::vector<int> DeckParser::node_targets(std::string_view field, Pos pos) const {
  if (field.empty()) fail(pos, "missing node or node set");
  const std::string k = key(field);
  if (const auto id = id_of(k, true)) {
    const auto it = m_.nodes.index.find(*id);
    if (it == m_.nodes.index.end()) fail(pos, "node " + std::to_string(*id) + " is not defined");
    return {it->second};
  }
  check_node_set(k, pos);
  return m_.nsets.at(k).members;
}

std::vector<int> DeckParser::element_targets(std::string_view field, Pos pos) const {
  if (field.empty()) fail(pos, "missing element or element set");
  const std::string k = key(field);
  if (const auto id = id_of(k, false)) {
    const auto it = m_.elements.index.find(*id);
    if (it == m_.elements.index.end())
      fail(pos, "element " + std::to_string(*id) + " is not defined");
    return {it->second};
  }
  check_element_set(k, pos);
  return m_.elsets.at(k).members;
}

void DeckParser::check_node_set(const std::string& name, Pos pos) const {
  if (!m_.nsets.count(name)) fail(pos, "node set '" + name + "' is not defined");
}

void DeckParser::check_element_set(const std::string& name, Pos pos) const {
  if (!m_.elsets.count(name)) fail(pos, "element set '" + name + "' is not defined");
}

}  // namespace halfstep::inp
