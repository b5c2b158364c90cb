// Contact: *SURFACE INTERACTION with *FRICTION and *SURFACE BEHAVIOR, *CONTACT PAIR, and
// general contact (*CONTACT with *CONTACT INCLUSIONS, *CONTACT PROPERTY ASSIGNMENT and
// *CONTACT CONTROLS ASSIGNMENT). The reader keeps what the deck says in Model::contact; the
// pairs are checked against the surfaces and elements at the end of the deck (a pair may be
// read in the first step, after the surfaces were resolved, or before its interaction).
// The physics (penalty, friction, search) is in docs/theory.md, "Contact".
#include <cmath>
#include <string>
#include <utility>

#include "elements/registry.hpp"
#include "io/inp_parser.hpp"
#include "io/inp_text.hpp"

namespace halfstep::inp {

namespace {

/// An interaction or surface name as written: case-insensitive, quotes removed.
std::string plain_name(std::string_view field) { return upper(unquote(trim(field))); }

/// True when element e is a planar (2-D) continuum element, whose surfaces are edges.
bool planar(const Model& m, int e) {
  const auto k = static_cast<std::size_t>(e);
  const ElementKindInfo& kind = element_kind(m.elements.kind[k]);
  return !kind.mid_surface && kind.dimension == 2;
}

/// True when element e is a 20-node hexahedron (C3D20, C3D20R).
bool quadratic_hex(const Model& m, int e) {
  return !element_kind(m.elements.kind[static_cast<std::size_t>(e)]).mid_surface && m.elements.count_of(e) == 20;
}

/// True when pair p's interaction has a softened pressure-overclosure law (not hard contact).
bool softened(const Model& m, const ContactPair& p) {
  const auto it = m.contact.interactions.find(p.interaction);
  return it != m.contact.interactions.end() && it->second.overclosure != Overclosure::kHard;
}

/// Why hard contact is refused on the 8-node faces of 20-node hexahedra.
constexpr const char* kQuadraticHard =
    ": hard contact does not converge on the 8-node faces of 20-node hexahedra (a uniform pressure puts negative "
    "shares on their corner nodes, which then open and close from iteration to iteration); give the interaction a "
    "softened *SURFACE BEHAVIOR (PRESSURE-OVERCLOSURE=LINEAR, TABULAR or EXPONENTIAL), or mesh the contact zone "
    "with first-order elements or quadratic tetrahedra";

/// True when element e has faces that contact can use: a mid-surface (its sides), or a 3-D
/// continuum element.
bool has_faces(const Model& m, int e) {
  const auto k = static_cast<std::size_t>(e);
  const ElementKindInfo& kind = element_kind(m.elements.kind[k]);
  if (kind.mid_surface) return true;
  return !is_discrete(m.elements.section[k]) && kind.family == ElementFamily::Continuum && kind.dimension == 3 &&
         kind.nodes >= 4;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// *SURFACE INTERACTION and its options

void DeckParser::surface_interaction_keyword(const Keyword& kw) {
  allow_params(kw, {"NAME"});
  if (in_part_) fail(kw.pos, "*SURFACE INTERACTION inside a *PART: interactions are model data outside the parts");
  const std::string name = plain_name(required_param(kw, "NAME"));
  const auto [it, inserted] = m_.contact.interactions.try_emplace(name);
  if (!inserted)
    fail(kw.pos, "surface interaction '" + name + "' is defined twice (first at " + it->second.loc.str() + ")");
  it->second.name = name;
  it->second.loc = loc(kw.pos);
  interaction_ = name;
  interaction_friction_ = false;
  interaction_behavior_ = false;
}

// Coulomb friction with a constant coefficient, or with the static coefficient decaying to
// the kinetic one with the slip rate (EXPONENTIAL DECAY). Penalty friction only.
void DeckParser::friction_keyword(const Keyword& kw) {
  static const std::pair<const char*, const char*> refused[] = {
      {"ROUGH", "ROUGH"}, {"LAGRANGE", "LAGRANGE"}, {"ELASTICSLIP", "ELASTIC SLIP"}};
  for (const auto& [k, shown] : refused)
    if (kw.find(k))
      fail(kw.pos, "*FRICTION, " + std::string(shown) + " is not supported (halfstep friction is Coulomb friction enforced by a penalty: "
                       "*FRICTION with a coefficient, or EXPONENTIAL DECAY)");
  allow_params(kw, {"EXPONENTIALDECAY", "SLIPTOLERANCE"});
  if (kw.find("SLIPTOLERANCE")) {
    // Only Abaqus/Standard's Lagrange friction uses it; read to refuse a malformed value.
    const double tol = real_param(kw, "SLIPTOLERANCE", 0.0);
    if (!(tol > 0)) fail(kw.pos, "*FRICTION, SLIP TOLERANCE= must be positive");
  }
  if (interaction_friction_)
    fail(kw.pos, "surface interaction '" + interaction_ + "' has a second *FRICTION");
  interaction_friction_ = true;
  friction_decay_ = kw.find("EXPONENTIALDECAY") != nullptr;
}

void DeckParser::friction_data(const Line& line) {
  if (block_lines_ > 1)
    fail(at_, "*FRICTION takes one data line: friction tables (by slip rate, contact pressure or temperature) "
              "are not supported");
  SurfaceInteraction& s = m_.contact.interactions.at(interaction_);
  if (friction_decay_) {
    need_fields(line, 3, "static coefficient, kinetic coefficient, decay coefficient");
    at_most_fields(line, 3, "static coefficient, kinetic coefficient, decay coefficient");
    const double mu_s = real(line.fields[0], "the static friction coefficient");
    const double mu_k = real(line.fields[1], "the kinetic friction coefficient");
    const double dc = real(line.fields[2], "the decay coefficient");
    if (mu_k < 0) fail(at_, "the kinetic friction coefficient must be >= 0, got " + format_real(mu_k));
    if (mu_s < mu_k)
      fail(at_, "the static friction coefficient " + format_real(mu_s) + " is below the kinetic one " +
                    format_real(mu_k) + " (EXPONENTIAL DECAY decays from static to kinetic)");
    if (dc < 0) fail(at_, "the decay coefficient must be >= 0, got " + format_real(dc));
    s.friction = mu_s;
    s.kinetic_friction = mu_k;
    s.decay = dc;
    return;
  }
  need_fields(line, 1, "the friction coefficient");
  const double mu = real(line.fields[0], "the friction coefficient");
  if (mu < 0) fail(at_, "the friction coefficient must be >= 0, got " + format_real(mu));
  s.friction = mu;
  // One line is a constant coefficient in both dialects: Abaqus's fields after it (slip rate,
  // contact pressure, temperature) place a one-row table; CalculiX's second is its stick slope,
  // which --dialect calculix takes (static steps' stick stiffness per contact area). Others
  // are read (as numbers) and said once.
  std::size_t first_unused = 1;
  if (dialect_ == Dialect::CalculiX && line.fields.size() > 1 && !trim(line.fields[1]).empty()) {
    const double slope = real(line.fields[1], "the stick slope (pressure per slip)");
    if (!(slope > 0)) fail(at_, "*FRICTION: the stick slope must be positive, got " + format_real(slope));
    s.stick_slope = slope;
    first_unused = 2;
  }
  bool extra = false;
  for (std::size_t k = first_unused; k < line.fields.size(); ++k)
    if (!line.fields[k].empty()) {
      real(line.fields[k], "a *FRICTION field after the coefficient");
      extra = true;
    }
  if (extra && !warned_friction_fields_)
    m_.warnings.push_back("*FRICTION at " + loc(at_).str() + ": the fields after the coefficient (Abaqus: the slip "
                          "rate, pressure or temperature of a one-row table; CalculiX: the stick slope) do not change "
                          "a one-line coefficient and are not used; halfstep's penalty friction sets its own stick "
                          "stiffness");
  warned_friction_fields_ = warned_friction_fields_ || extra;
}

void DeckParser::friction_end() {
  need_data_line(friction_decay_ ? "static coefficient, kinetic coefficient, decay coefficient"
                                 : "the friction coefficient");
}

// The normal behaviour: HARD (the default, a penalty spring as stiff as the stable increment
// allows) or a softened pressure-overclosure law from the data lines (docs/input.md).
void DeckParser::surface_behavior_keyword(const Keyword& kw) {
  if (kw.find("NOSEPARATION"))
    fail(kw.pos, "*SURFACE BEHAVIOR, NO SEPARATION is not supported (surfaces in contact may separate)");
  allow_params(kw, {"PRESSURE-OVERCLOSURE", "PENALTY"});
  if (interaction_behavior_)
    fail(kw.pos, "surface interaction '" + interaction_ + "' has a second *SURFACE BEHAVIOR");
  interaction_behavior_ = true;
  SurfaceInteraction& si = m_.contact.interactions.at(interaction_);
  const std::string po = squeeze_upper(param(kw, "PRESSURE-OVERCLOSURE"));
  if (!kw.find("PRESSURE-OVERCLOSURE") || po == "HARD") si.overclosure = Overclosure::kHard;
  else if (po == "LINEAR") si.overclosure = Overclosure::kLinear;
  else if (po == "TABULAR") si.overclosure = Overclosure::kTabular;
  // The two dialects mean different laws by EXPONENTIAL (docs/input.md).
  else if (po == "EXPONENTIAL")
    si.overclosure = dialect_ == Dialect::CalculiX ? Overclosure::kExponentialPeer : Overclosure::kExponential;
  else if (po == "TIED") {
    // The peer's tied contact: its pairs are read as *TIEs (tie_tied_contact_pairs).
    si.overclosure = Overclosure::kHard;
    tied_interactions_.insert(interaction_);
  } else
    fail(kw.pos, "*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=" + param(kw, "PRESSURE-OVERCLOSURE") +
                     ": expected HARD, LINEAR, TABULAR or EXPONENTIAL");
  si.overclosure_law.clear();
}

void DeckParser::surface_behavior_data(const Line& line) {
  SurfaceInteraction& si = m_.contact.interactions.at(interaction_);
  if (tied_interactions_.count(interaction_)) {
    // The peer's penalty stiffness of the tie: read, and not needed by an exact tie.
    if (block_lines_ > 1) fail(at_, "PRESSURE-OVERCLOSURE=TIED takes one data line (the peer's tie stiffness)");
    at_most_fields(line, 1, "the tie stiffness");
    if (!line.fields.empty() && !trim(line.fields[0]).empty()) {
      const double k = real(line.fields[0], "the tie stiffness");
      if (!(k > 0)) fail(at_, "PRESSURE-OVERCLOSURE=TIED: the tie stiffness must be positive, got " + format_real(k));
    }
    return;
  }
  const auto finite_at_least = [&](std::size_t k, const char* what, bool positive) {
    const double v = real(line.fields[k], what);
    if (positive ? !(v > 0) : !(v >= 0))
      fail(at_, std::string(what) + (positive ? " must be positive" : " must be >= 0") + ", got " + format_real(v));
    return v;
  };
  switch (si.overclosure) {
    case Overclosure::kHard:
      fail(at_, "*SURFACE BEHAVIOR with hard contact (PRESSURE-OVERCLOSURE=HARD, the default) takes no data lines; "
                "a softened law needs PRESSURE-OVERCLOSURE=LINEAR, TABULAR or EXPONENTIAL");
    case Overclosure::kLinear: {
      if (block_lines_ > 1) fail(at_, "PRESSURE-OVERCLOSURE=LINEAR takes one data line (the slope)");
      need_fields(line, 1, "the slope of the pressure-overclosure line (pressure per overclosure)");
      at_most_fields(line, 3, "slope[, CalculiX's sigma_inf, c0]");
      si.overclosure_law = {finite_at_least(0, "the slope of the pressure-overclosure line", true)};
      // CalculiX writes a tension at large clearances and a search distance after the slope:
      // settings of its implicit contact that a penalty in an explicit step has no use for.
      bool extra = false;
      for (std::size_t k = 1; k < line.fields.size(); ++k)
        if (!line.fields[k].empty()) {
          finite_at_least(k, k == 1 ? "sigma_inf (the tension at large clearances)" : "c0 (the spring search distance)", false);
          extra = true;
        }
      if (extra && !warned_calculix_linear_)
        m_.warnings.push_back("*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=LINEAR at " + loc(at_).str() +
                              ": the fields after the slope (CalculiX's sigma_inf and c0, settings of its implicit "
                              "contact) are read and not used: halfstep's softened contact carries no tension and "
                              "starts at zero clearance");
      warned_calculix_linear_ = warned_calculix_linear_ || extra;
      return;
    }
    case Overclosure::kExponential: {
      if (block_lines_ > 1) fail(at_, "PRESSURE-OVERCLOSURE=EXPONENTIAL takes one data line (c0, p0[, maximum stiffness])");
      need_fields(line, 2, "c0 (the clearance at which the pressure is zero), p0 (the pressure at zero clearance)");
      at_most_fields(line, 3, "c0, p0[, maximum stiffness]");
      const double c0 = finite_at_least(0, "c0 (the clearance at which the pressure is zero)", true);
      const double p0 = finite_at_least(1, "p0 (the pressure at zero clearance)", true);
      const double kmax =
          line.fields.size() > 2 && !line.fields[2].empty() ? finite_at_least(2, "the maximum stiffness", true) : 0.0;
      si.overclosure_law = {c0, p0, kmax};
      return;
    }
    case Overclosure::kExponentialPeer: {
      if (block_lines_ > 1) fail(at_, "PRESSURE-OVERCLOSURE=EXPONENTIAL takes one data line (c0, p0)");
      need_fields(line, 2, "c0 (the clearance at which the pressure is 1 % of p0), p0 (the pressure at zero clearance)");
      at_most_fields(line, 2, "c0, p0");
      const double c0 = finite_at_least(0, "c0 (the clearance at which the pressure is 1 % of p0)", true);
      const double p0 = finite_at_least(1, "p0 (the pressure at zero clearance)", true);
      si.overclosure_law = {c0, p0};
      return;
    }
    case Overclosure::kTabular: {
      need_fields(line, 2, "pressure, overclosure");
      at_most_fields(line, 2, "pressure, overclosure");
      const double p = finite_at_least(0, "the contact pressure", false);
      const double h = real(line.fields[1], "the overclosure");
      std::vector<double>& law = si.overclosure_law;
      if (law.empty() && p != 0)
        fail(at_, "the first point of a PRESSURE-OVERCLOSURE=TABULAR table must have pressure 0 (where contact "
                  "starts), got " + format_real(p));
      if (!law.empty() && !(h > law[law.size() - 2]))
        fail(at_, "PRESSURE-OVERCLOSURE=TABULAR: the overclosures must increase, got " + format_real(h) +
                      " after " + format_real(law[law.size() - 2]));
      if (!law.empty() && p < law.back())
        fail(at_, "PRESSURE-OVERCLOSURE=TABULAR: the pressures must not decrease, got " + format_real(p) +
                      " after " + format_real(law.back()));
      law.push_back(h);
      law.push_back(p);
      return;
    }
  }
}

void DeckParser::surface_behavior_end() {
  const SurfaceInteraction& si = m_.contact.interactions.at(interaction_);
  if (si.overclosure == Overclosure::kLinear) need_data_line("the slope of the pressure-overclosure line");
  if (si.overclosure == Overclosure::kExponential) need_data_line("c0, p0[, maximum stiffness]");
  if (si.overclosure == Overclosure::kExponentialPeer) need_data_line("c0, p0");
  if (si.overclosure != Overclosure::kTabular) return;
  need_data_line("pressure, overclosure");
  const std::vector<double>& law = si.overclosure_law;
  // The law goes on past its last point with the last segment's slope: a flat one would let
  // the surfaces pass through each other.
  if (law.size() < 4 || !(law[law.size() - 1] > law[law.size() - 3]))
    fail(kw_.pos, "PRESSURE-OVERCLOSURE=TABULAR needs at least two points and a rising last segment (the law goes on "
              "with its slope beyond the last point), interaction '" + interaction_ + "'");
}

// ---------------------------------------------------------------------------------------
// *CONTACT PAIR and *CONTACT

void DeckParser::require_contact_placement(const Keyword& kw) const {
  if (in_part_) fail(kw.pos, kw.display + " inside a *PART: contact is defined in the model data outside the parts or in the first step");
  if (m_.steps.size() > (in_step_ ? 1u : 0u))
    fail(kw.pos, kw.display + (in_step_ ? " in step '" + m_.steps.back().name + "'" : std::string(" after the first step")) +
                     ": contact is defined once, in the model data or the first step");
}

void DeckParser::add_contact_pair(const std::string& slave, const std::string& master, const std::string& interaction,
                                  const char* keyword, Pos at) {
  m_.contact.pairs.push_back(ContactPair{slave, master, interaction, loc(at), contact_edges_});
  pair_origins_.push_back(PairOrigin{keyword, loc(at)});
}

void DeckParser::contact_pair_keyword(const Keyword& kw) {
  require_contact_placement(kw);
  // Small sliding fixes each slave node's contact point at the start; finite sliding searches
  // it at every increment, which gives the same answer while the sliding stays small.
  if (kw.find("SMALLSLIDING") && warned_.emplace("CONTACTPAIR,SMALLSLIDING", kw.pos).second)
    m_.warnings.push_back("*CONTACT PAIR, SMALL SLIDING at " + loc(kw.pos).str() +
                          " runs as finite sliding (the contact points are searched at every increment, the same "
                          "answer while the sliding stays small)");
  allow_params(kw, {"INTERACTION", "MECHANICALCONSTRAINT", "TYPE", "CPSET", "EDGES", "SMALLSLIDING", "ADJUST"});
  // ADJUST= a distance (slave nodes that near the master surface move onto it) or a node set
  // (its nodes move); the system builder moves them (adjusted_for_contact).
  pair_adjust_ = -1;
  pair_adjust_set_.clear();
  if (const Param* adj = kw.find("ADJUST")) {
    const std::string v(trim(adj->value));
    if (v.empty()) fail(kw.pos, "*CONTACT PAIR, ADJUST= needs a distance or a node set name");
    const char c = v[0];
    if ((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+') {
      const double d = real_param(kw, "ADJUST", 0.0);
      if (!(d >= 0) || !std::isfinite(d))
        fail(kw.pos, "*CONTACT PAIR, ADJUST=" + v + ": the adjustment distance must be a finite number >= 0");
      pair_adjust_ = d;
    } else {
      pair_adjust_set_ = key(v);
    }
  }
  contact_edges_ = edges_param(kw);
  const std::string mc = squeeze_upper(param(kw, "MECHANICALCONSTRAINT"));
  if (mc == "KINEMATIC") {
    if (!warned_kinematic_)
      m_.warnings.push_back("*CONTACT PAIR, MECHANICAL CONSTRAINT=KINEMATIC is enforced by a penalty, as every "
                            "halfstep contact is (first at " + loc(kw.pos).str() + ")");
    warned_kinematic_ = true;
  } else if (kw.find("MECHANICALCONSTRAINT") && mc != "PENALTY") {
    fail(kw.pos, "*CONTACT PAIR, MECHANICAL CONSTRAINT=" + param(kw, "MECHANICALCONSTRAINT") +
                     ": expected PENALTY or KINEMATIC");
  }
  const std::string type = squeeze_upper(param(kw, "TYPE"));
  if (kw.find("TYPE") && type != "SURFACETOSURFACE" && type != "NODETOSURFACE")
    fail(kw.pos, "*CONTACT PAIR, TYPE=" + param(kw, "TYPE") + ": expected SURFACE TO SURFACE or NODE TO SURFACE");
  pair_interaction_ = plain_name(required_param(kw, "INTERACTION"));
}

void DeckParser::contact_pair_data(const Line& line) {
  need_fields(line, 2, "slave surface, master surface");
  at_most_fields(line, 2, "slave surface, master surface");
  if (line.fields[0].empty() || line.fields[1].empty())
    fail(at_, "*CONTACT PAIR data line: expected slave surface, master surface (both named)");
  add_contact_pair(key(line.fields[0]), key(line.fields[1]), pair_interaction_, "*CONTACT PAIR", at_);
  m_.contact.pairs.back().adjust = pair_adjust_;
  m_.contact.pairs.back().adjust_set = pair_adjust_set_;
}

void DeckParser::contact_pair_end() { need_data_line("slave surface, master surface"); }

// General contact: the block's options follow it (kContactOption); the block ends at the
// next other keyword (close_contact_block).
void DeckParser::contact_keyword(const Keyword& kw) {
  require_contact_placement(kw);
  allow_params(kw, {"OP", "EDGES"});
  contact_edges_ = edges_param(kw);
  if (kw.find("OP") && squeeze_upper(param(kw, "OP")) != "NEW")
    fail(kw.pos, "*CONTACT, OP=" + param(kw, "OP") + " is not supported (contact is defined once: OP=NEW)");
  if (contact_pos_)
    fail(kw.pos, "a second *CONTACT (the first is at " + loc(*contact_pos_).str() +
                     "): general contact is defined once, all its inclusions under one *CONTACT");
  contact_pos_ = kw.pos;
  contact_open_ = true;
  contact_first_pair_ = m_.contact.pairs.size();
  contact_inclusions_ = false;
  contact_property_pos_.reset();
  contact_property_.clear();
}

void DeckParser::close_contact_block() {
  if (!contact_open_) return;
  contact_open_ = false;
  if (!contact_inclusions_)
    fail(*contact_pos_, "*CONTACT has no *CONTACT INCLUSIONS (expected *CONTACT INCLUSIONS, ALL EXTERIOR or "
                        "data lines naming the surfaces in contact)");
  if (!contact_property_pos_) return;
  for (std::size_t i = contact_first_pair_; i < m_.contact.pairs.size(); ++i) {
    m_.contact.pairs[i].interaction = contact_property_;
    pair_origins_[i].interaction_at = loc(*contact_property_pos_);
  }
}

void DeckParser::contact_inclusions_keyword(const Keyword& kw) {
  allow_params(kw, {"ALLEXTERIOR"});
  contact_inclusions_ = true;
  inclusions_all_exterior_ = kw.find("ALLEXTERIOR") != nullptr;
  if (inclusions_all_exterior_) add_contact_pair(kAllExterior, kAllExterior, "", "*CONTACT INCLUSIONS", kw.pos);
}

// "surf1, surf2": each surface's nodes against the other's faces; "surf1," or "surf1, surf1":
// self-contact of surf1.
void DeckParser::contact_inclusions_data(const Line& line) {
  if (inclusions_all_exterior_)
    fail(at_, "*CONTACT INCLUSIONS, ALL EXTERIOR takes no data lines (leave out ALL EXTERIOR to name surfaces)");
  need_fields(line, 1, "surface 1, surface 2 (surface 2 blank: self-contact of surface 1)");
  at_most_fields(line, 2, "surface 1, surface 2 (surface 2 blank: self-contact of surface 1)");
  if (line.fields[0].empty())
    fail(at_, "*CONTACT INCLUSIONS: the first surface is blank (Abaqus's all-inclusive surface): use "
              "*CONTACT INCLUSIONS, ALL EXTERIOR for every exterior face, or name the surface");
  const std::string a = key(line.fields[0]);
  const std::string b = line.fields.size() > 1 && !line.fields[1].empty() ? key(line.fields[1]) : a;
  add_contact_pair(a, b, "", "*CONTACT INCLUSIONS", at_);
  if (b != a) add_contact_pair(b, a, "", "*CONTACT INCLUSIONS", at_);
}

void DeckParser::contact_inclusions_end() {
  if (!inclusions_all_exterior_) need_data_line("surface 1, surface 2 (or ALL EXTERIOR on the keyword line)");
}

void DeckParser::contact_property_keyword(const Keyword& kw) { allow_params(kw, {}); }

bool DeckParser::edges_param(const Keyword& kw) const {
  if (!kw.find("EDGES")) return true;
  const std::string v = squeeze_upper(param(kw, "EDGES"));
  if (v != "YES" && v != "NO")
    fail(kw.pos, kw.display + ", EDGES=" + param(kw, "EDGES") +
                     ": expected YES or NO (edge-to-edge contact of the feature edges; default YES)");
  return v == "YES";
}

// ", , PROP": one interaction for every contact of the block, applied when the block ends
// (the inclusions may come after the assignment).
void DeckParser::contact_property_data(const Line& line) {
  at_most_fields(line, 3, ", , interaction name");
  if ((!line.fields.empty() && !line.fields[0].empty()) || (line.fields.size() > 1 && !line.fields[1].empty()))
    fail(at_, "per-surface property assignment is not supported; use , , PROP (one interaction for every contact)");
  if (line.fields.size() < 3 || line.fields[2].empty())
    fail(at_, "*CONTACT PROPERTY ASSIGNMENT data line: expected , , interaction name");
  if (contact_property_pos_)
    fail(at_, "a second contact property assignment (the first is at " + loc(*contact_property_pos_).str() +
                  "): one , , PROP line sets the interaction of every contact");
  contact_property_ = plain_name(line.fields[2]);
  contact_property_pos_ = at_;
}

void DeckParser::contact_property_end() { need_data_line(", , interaction name"); }

void DeckParser::contact_controls_keyword(const Keyword& kw) {
  allow_params(kw, {"TYPE"});
  const std::string type = squeeze_upper(required_param(kw, "TYPE"));
  if (type != "SCALEPENALTY")
    fail(kw.pos, "*CONTACT CONTROLS ASSIGNMENT, TYPE=" + param(kw, "TYPE") +
                     " is not supported (TYPE=SCALE PENALTY only)");
}

void DeckParser::contact_controls_data(const Line& line) {
  at_most_fields(line, 3, ", , penalty scale factor");
  if ((!line.fields.empty() && !line.fields[0].empty()) || (line.fields.size() > 1 && !line.fields[1].empty()))
    fail(at_, "per-surface contact controls are not supported; use , , factor (one scale for every contact)");
  if (penalty_scale_pos_)
    fail(at_, "a second penalty scale (the first is at " + loc(*penalty_scale_pos_).str() + ")");
  const double f = real(line.fields.size() < 3 ? std::string_view() : line.fields[2], "the penalty scale factor");
  if (!(f > 0)) fail(at_, "the penalty scale factor must be positive, got " + format_real(f));
  m_.contact.penalty_scale = f;
  penalty_scale_pos_ = at_;
}

void DeckParser::contact_controls_end() { need_data_line(", , penalty scale factor"); }

void DeckParser::contact_exclusions_keyword(const Keyword& kw) {
  fail(kw.pos, "*CONTACT EXCLUSIONS is not supported yet (general contact takes every pair its *CONTACT "
               "INCLUSIONS names: name the pairs wanted there instead of excluding some)");
}

// ---------------------------------------------------------------------------------------
// End of the deck

void DeckParser::tie_tied_contact_pairs() {
  if (tied_interactions_.empty()) return;
  std::vector<ContactPair> pairs;
  std::vector<PairOrigin> origins;
  for (std::size_t i = 0; i < m_.contact.pairs.size(); ++i) {
    const ContactPair& p = m_.contact.pairs[i];
    if (!tied_interactions_.count(p.interaction)) {
      pairs.push_back(p);
      origins.push_back(pair_origins_[i]);
      continue;
    }
    const std::string what = std::string(pair_origins_[i].keyword) + " with PRESSURE-OVERCLOSURE=TIED (surface interaction '" +
                             p.interaction + "'): ";
    if (p.slave == kAllExterior || p.slave == p.master || is_analytical(p.slave) || is_analytical(p.master))
      fail(p.loc, what + "a tied pair needs two element surfaces (not ALL EXTERIOR, self-contact or an analytical "
                         "surface)");
    for (const std::string* name : {&p.slave, &p.master})
      if (!m_.surfaces.count(*name))
        fail(p.loc, what + "surface '" + *name + "' is not defined (expected a *SURFACE, NAME=" + *name + ")");
    if (m_.surfaces.at(p.master).node_based)
      fail(p.loc, what + "the master surface '" + p.master + "' is node-based: a tie's master is made of element faces");
    Tie t;
    t.name = "TIED CONTACT " + p.slave + " " + p.master;
    t.slave = p.slave;
    t.master = p.master;
    t.adjust = false;  // the peer's tied contact glues the surfaces where they are
    t.loc = p.loc;
    m_.ties.push_back(std::move(t));
    m_.warnings.push_back(std::string(pair_origins_[i].keyword) + " at " + p.loc.str() + " (surface interaction '" +
                          p.interaction + "', PRESSURE-OVERCLOSURE=TIED) is read as a *TIE of '" + p.slave + "' to '" +
                          p.master + "' (position tolerance 5 % of the master faces' mean diagonal, no adjustment): "
                          "the surfaces are joined exactly, where the peer's tied contact is a stiff penalty, and the "
                          "interaction's *FRICTION does not apply");
  }
  m_.contact.pairs = std::move(pairs);
  pair_origins_ = std::move(origins);
}

void DeckParser::resolve_contact() {
  tie_tied_contact_pairs();
  if (m_.contact.pairs.empty()) return;
  resolve_analytical_contact();
  const Model& m = m_;
  for (std::size_t i = 0; i < m.contact.pairs.size(); ++i) {
    const ContactPair& p = m.contact.pairs[i];
    const std::string what = std::string(pair_origins_[i].keyword) + ": ";
    if (p.slave == kAllExterior) {
      // Every exterior face of the model: the elements decide what that is.
      bool faces = false;
      for (int e = 0; e < m.elements.size(); ++e) {
        if (planar(m, e))
          fail(p.loc, what + "ALL EXTERIOR on a model with planar element " + std::to_string(m.elements.id[static_cast<std::size_t>(e)]) +
                          " (" + m.elements.abaqus_type[static_cast<std::size_t>(e)] + "): contact of 2-D models is not supported");
        if (quadratic_hex(m, e) && !softened(m, p))
          fail(p.loc, what + "ALL EXTERIOR on a model with 20-node hexahedron " +
                          std::to_string(m.elements.id[static_cast<std::size_t>(e)]) + kQuadraticHard);
        faces = faces || has_faces(m, e);
      }
      if (!faces)
        fail(p.loc, what + "ALL EXTERIOR on a model without solid or shell elements: the exterior surface is empty "
                           "(beams, trusses and discrete elements have no contact faces)");
    } else {
      for (const std::string* name : {&p.slave, &p.master}) {
        if (is_analytical(*name)) continue;  // a master, attached (resolve_analytical_contact)
        const auto it = m.surfaces.find(*name);
        if (it == m.surfaces.end())
          fail(p.loc, what + "surface '" + *name + "' is not defined (expected a *SURFACE, NAME=" + *name + ")");
        const Surface& s = it->second;
        if (name == &p.master && s.node_based)
          fail(p.loc, what + "the master surface '" + *name + "' is node-based (TYPE=NODE): nodes are pressed against "
                             "the faces of an element-based surface (TYPE=ELEMENT)");
        for (int e : s.elements) {
          if (planar(m, e))
            fail(p.loc, what + "surface '" + *name + "' holds edges of planar elements: contact of 2-D models is not supported");
          if (quadratic_hex(m, e) && !softened(m, p))
            fail(p.loc, what + "surface '" + *name + "' holds faces of 20-node hexahedra" + kQuadraticHard);
        }
        if (s.elements.empty() && s.nodes.empty())
          fail(p.loc, what + "surface '" + *name + "' is empty");
      }
    }
    if (!p.interaction.empty() && !m.contact.interactions.count(p.interaction))
      fail(pair_origins_[i].interaction_at, what + "surface interaction '" + p.interaction +
                                                "' is not defined (expected a *SURFACE INTERACTION, NAME=" + p.interaction + ")");
  }
}

}  // namespace halfstep::inp
