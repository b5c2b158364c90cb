// Dispatch of keyword and data lines, deck-structure checks and the end-of-deck checks.
#include "io/inp_parser.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "elements/registry.hpp"
#include "io/inp_text.hpp"
#include "model/validate.hpp"

namespace halfstep::inp {

std::uint64_t DeckParser::source_hash() const {
  // Every file has been read. Another dialect is another model of the same text: a restart
  // must not resume across it.
  const std::uint64_t h = lex_.source_hash();
  return dialect_ == Dialect::Abaqus ? h : h ^ 0x9e3779b97f4a7c15ull;
}

Model DeckParser::parse(const std::string& deck_path) {
  m_.deck_path = deck_path;
  Line line;
  if (max_errors_ == 1) {
    while (lex_.next(line)) feed(line);
    m_.source_hash = source_hash();
    m_.source_bytes = lex_.source_bytes();
    end_block();
    finish();
    return std::move(m_);
  }
  for (;;) {
    try {
      if (!lex_.next(line)) break;
      feed(line);
    } catch (const InputError& e) {
      note_error(e);
    }
  }
  m_.source_hash = source_hash();
  m_.source_bytes = lex_.source_bytes();
  // The checks of the whole model stop at their first problem; after earlier ones it may be
  // a consequence of them.
  try {
    end_block();
    finish();
  } catch (const InputError& e) {
    errors_.push_back(e.what());
  }
  if (!errors_.empty()) throw_errors();
  return std::move(m_);
}

void DeckParser::note_error(const InputError& e) {
  errors_.push_back(e.what());
  if (static_cast<int>(errors_.size()) >= max_errors_) throw_errors();
  // Go on at the next keyword, with no half-read block, element or instance left open.
  skipping_ = true;
  block_ = nullptr;
  cur_set_ = nullptr;
  set_instance_.clear();
  element_pending_id_ = 0;
  if (!inst_.name.empty()) {
    inst_ = InstanceContext{};
    in_part_ = false;
    in_assembly_ = true;
    instance_lines_.clear();
  }
}

void DeckParser::throw_errors() const {
  std::string all;
  for (const std::string& e : errors_) all += e + "\n";
  all += std::to_string(errors_.size()) + (errors_.size() == 1 ? " problem" : " problems") + " found" +
         (static_cast<int>(errors_.size()) >= max_errors_ ? " (reading stopped there)" : "") +
         "; later ones may follow from earlier ones";
  throw InputError(SourceLoc{}, all);
}

// ---------------------------------------------------------------------------------------
// Dispatch through the keyword table (inp_keywords.cpp)

// Inside a *PART (and inside an *INSTANCE after its transform lines) lines are kept, to be
// read once per instance; structure keywords and *INCLUDE are acted on at once (an included
// file's lines are kept like the part's own).
void DeckParser::feed(const Line& line) {
  if (line.is_keyword && in_instance_ && !capture_) {
    const KeywordSpec* spec = find_keyword(line.keyword.name);
    const std::string_view n = spec ? spec->name : std::string_view();
    if (n != "*END INSTANCE" && n != "*INCLUDE") capture_ = &instance_lines_;
  }
  if (capture_) {
    if (line.is_keyword) {
      const KeywordSpec* spec = find_keyword(line.keyword.name);
      const std::string_view n = spec ? spec->name : std::string_view();
      if (n == "*END PART" || n == "*END INSTANCE" || n == "*INCLUDE" || n == "*PART" || n == "*ASSEMBLY" ||
          n == "*INSTANCE" || n == "*END ASSEMBLY" || n == "*STEP")
        return keyword(line.keyword);
      if (line.keyword.find("INPUT"))
        fail(line.pos, line.keyword.display + ", INPUT= inside a *PART or *INSTANCE is not supported (use *INCLUDE)");
    }
    StoredLine s;
    s.is_keyword = line.is_keyword;
    if (line.is_keyword) s.keyword = line.keyword;
    s.text = std::string(line.text);
    s.pos = line.pos;
    capture_->push_back(std::move(s));
    return;
  }
  if (line.is_keyword)
    keyword(line.keyword);
  else
    data(line);
}

void DeckParser::keyword(const Keyword& kw) {
  skipping_ = false;
  const KeywordSpec* spec = find_keyword(kw.name);
  if (spec && (spec->flags & kInsideBlock)) return (this->*spec->keyword)(kw);
  // The previous block's end checks belong to that block: collecting problems (halfstep
  // check), one found there is noted and this keyword is still read (it was skipped with
  // its data lines, hiding their problems).
  if (max_errors_ > 1) {
    try {
      end_block();
    } catch (const InputError& e) {
      note_error(e);
      skipping_ = false;
    }
  } else {
    end_block();
  }
  kw_ = kw;
  block_ = spec;
  block_lines_ = 0;
  at_ = kw.pos;
  // Material options belong to the *MATERIAL right before them; anything else ends it.
  // Likewise the options of a *SURFACE INTERACTION and of a *CONTACT.
  if (!spec || !(spec->flags & kMaterialOption)) material_ = nullptr;
  if (!spec || !(spec->flags & kInteractionOption)) interaction_.clear();
  if (contact_open_ && (!spec || !(spec->flags & kContactOption))) close_contact_block();
  // Any keyword halfstep does not know is an error: silently dropping physics would give a
  // plausible but wrong answer. The harmless ones are in the table, ignored with a warning.
  if (!spec)
    fail(kw.pos, "keyword " + kw.display +
                     " is not supported by halfstep; ignoring it would change the results");
  // The table name, not the line as written: "*HYPER ELASTIC" is still "*HYPERELASTIC".
  if ((spec->flags & kMaterialOption) && !material_)
    fail(kw.pos, std::string(spec->name) + " must follow a *MATERIAL (it defines that material)");
  if ((spec->flags & kInteractionOption) && interaction_.empty())
    fail(kw.pos, std::string(spec->name) + " must follow a *SURFACE INTERACTION (it is an option of that interaction)");
  if ((spec->flags & kContactOption) && !contact_open_)
    fail(kw.pos, std::string(spec->name) + " must follow a *CONTACT (it is an option of that general contact definition)");
  if (spec->flags & kModelData) require_model_data(kw);
  if (spec->flags & kInStep) require_step(kw);
  (this->*spec->keyword)(kw);
}

void DeckParser::data(const Line& line) {
  if (skipping_) return;
  at_ = line.pos;
  ++block_lines_;
  if (!block_) fail(at_, "data line before any keyword (expected a keyword line starting with '*')");
  if (!block_->data) fail(at_, "unexpected data line: " + kw_.display + " takes no data lines");
  (this->*block_->data)(line);
}

// Checks that need all of a keyword's data lines.
void DeckParser::end_block() {
  if (block_ && block_->end) (this->*block_->end)();
  block_ = nullptr;
  cur_set_ = nullptr;
  set_instance_.clear();
}

void DeckParser::need_data_line(const char* what) const {
  if (block_lines_ == 0) fail(kw_.pos, kw_.display + " needs a data line with " + what);
}

// ---------------------------------------------------------------------------------------
// Deck structure

// Keywords that cannot change the computed motion (output controls, restart and
// preprocessor printing, hourglass/bulk-viscosity settings that MITC4 has no use for).
void DeckParser::warn_ignored(const Keyword& kw) {
  if (!warned_.emplace(kw.name, kw.pos).second) return;
  m_.warnings.push_back("keyword " + kw.display + " is not supported and was ignored (first at " +
                        loc(kw.pos).str() + ")");
}

void DeckParser::controls_keyword(const Keyword& kw) {
  allow_params(kw, {"PARAMETERS", "RESET", "ANALYSIS", "FIELD", "TYPE"});
  const std::string parameters = squeeze_upper(param(kw, "PARAMETERS"));
  if (kw.find("RESET") && parameters.empty()) return;  // back to the defaults: halfstep's own
  if (parameters == "LINESEARCH") return warn_ignored(kw);
  fail(kw.pos, "*CONTROLS, PARAMETERS=" + (parameters.empty() ? std::string("(none)") : param(kw, "PARAMETERS")) +
                   " is not supported: it changes the solver's tolerances or increments, and with them the "
                   "results (halfstep ignores only PARAMETERS=LINE SEARCH, which changes the Newton path, not the "
                   "converged answer)");
}

// A parameter that cannot change the motion (hourglass section controls, say), once per keyword.
void DeckParser::warn_ignored_param(const Keyword& kw, std::string_view param) {
  if (!kw.find(param) || !warned_.emplace(kw.name + "," + std::string(param), kw.pos).second) return;
  m_.warnings.push_back("parameter " + std::string(param) + " of " + kw.display +
                        " is not supported and was ignored (first at " + loc(kw.pos).str() + ")");
}

// The data lines of an ignored keyword, and a step's optional title line.
void DeckParser::ignore_data(const Line&) {}

void DeckParser::require_model_data(const Keyword& kw) const {
  if (in_step_ || !m_.steps.empty())
    fail(kw.pos, kw.display + " is model data: it must come before the first *STEP");
}

void DeckParser::require_step(const Keyword& kw) const {
  if (!in_step_) fail(kw.pos, kw.display + " must be inside a *STEP ... *END STEP block");
}

// INPUT= on a data keyword reads its data lines from another file.
void DeckParser::follow_input(const Keyword& kw) {
  if (kw.find("INPUT")) lex_.include(required_param(kw, "INPUT"), kw.pos);
}

// Data lines may go on inside the included file, so the current block stays open
// (kInsideBlock in the table).
void DeckParser::include_keyword(const Keyword& kw) {
  allow_params(kw, {"INPUT"});
  lex_.include(required_param(kw, "INPUT"), kw.pos);
}

void DeckParser::heading_keyword(const Keyword& kw) { allow_params(kw, {}); }

void DeckParser::heading_data(const Line& line) {
  if (!m_.heading.empty()) m_.heading += '\n';
  m_.heading += line.text;
}

// Parts and assemblies (what Abaqus/CAE writes): a part's lines are kept as written and read
// once per *INSTANCE of it, with the instance's name on its sets and surfaces
// ("<instance>.<name>"), offsets on its node and element ids after the first instance, and
// the instance's translation and rotation on its nodes. With a single instance, the part's
// set names also answer without the instance prefix, as the flat deck's would.
void DeckParser::part_keyword(const Keyword& kw) {
  allow_params(kw, {"NAME"});
  if (in_part_) fail(kw.pos, "*PART inside *PART '" + part_ + "' (missing *END PART)");
  if (in_assembly_) fail(kw.pos, "*PART inside *ASSEMBLY (parts come before the assembly)");
  part_ = upper(unquote(trim(required_param(kw, "NAME"))));
  const auto [it, inserted] = parts_.try_emplace(part_);
  if (!inserted) fail(kw.pos, "part '" + part_ + "' is defined twice (first at " + loc(it->second.pos).str() + ")");
  it->second.pos = kw.pos;
  part_pos_ = kw.pos;
  in_part_ = true;
  capture_ = &it->second.lines;
}

void DeckParser::end_part_keyword(const Keyword& kw) {
  allow_params(kw, {});
  if (!in_part_) fail(kw.pos, "*END PART without a matching *PART");
  in_part_ = false;
  capture_ = nullptr;
}

void DeckParser::assembly_keyword(const Keyword& kw) {
  allow_params(kw, {"NAME"});
  if (in_part_) fail(kw.pos, "*ASSEMBLY inside *PART '" + part_ + "' (missing *END PART)");
  if (in_assembly_) fail(kw.pos, "*ASSEMBLY inside *ASSEMBLY (missing *END ASSEMBLY)");
  in_assembly_ = true;
  assembly_pos_ = kw.pos;
}

void DeckParser::end_assembly_keyword(const Keyword& kw) {
  allow_params(kw, {});
  if (!in_assembly_) fail(kw.pos, "*END ASSEMBLY without a matching *ASSEMBLY");
  if (in_instance_) fail(kw.pos, "*END ASSEMBLY inside *INSTANCE (missing *END INSTANCE)");
  in_assembly_ = false;
}

void DeckParser::instance_keyword(const Keyword& kw) {
  allow_params(kw, {"NAME", "PART"});
  if (!in_assembly_) fail(kw.pos, "*INSTANCE must be inside *ASSEMBLY ... *END ASSEMBLY");
  if (in_instance_) fail(kw.pos, "*INSTANCE inside *INSTANCE '" + instance_ + "' (missing *END INSTANCE)");
  instance_part_ = upper(unquote(trim(required_param(kw, "PART"))));
  if (!parts_.count(instance_part_))
    fail(kw.pos, "*INSTANCE refers to part '" + instance_part_ + "', which is not defined (parts come before the assembly)");
  instance_ = upper(unquote(trim(required_param(kw, "NAME"))));
  if (instance_offsets_.count(instance_)) fail(kw.pos, "instance '" + instance_ + "' is defined twice");
  if (instance_.find('.') != std::string::npos)
    fail(kw.pos, "instance name '" + instance_ + "' contains '.', which separates instance and name in references");
  instance_pos_ = kw.pos;
  in_instance_ = true;
  instance_transform_.clear();
  instance_lines_.clear();
}

void DeckParser::end_instance_keyword(const Keyword& kw) {
  allow_params(kw, {});
  if (!in_instance_) fail(kw.pos, "*END INSTANCE without a matching *INSTANCE");
  in_instance_ = false;
  capture_ = nullptr;
  replay_instance();
}

// At most two data lines: a translation (x, y, z), then a rotation (point a, point b on the
// axis, angle in degrees), applied after the translation, as in Abaqus.
void DeckParser::instance_data(const Line& line) {
  if (block_lines_ > 2) fail(at_, "*INSTANCE takes at most two data lines (translation, rotation)");
  const std::size_t n = block_lines_ == 1 ? 3 : 7;
  const char* form = block_lines_ == 1 ? "translation x, y, z" : "rotation: a1, a2, a3, b1, b2, b3, angle (degrees)";
  at_most_fields(line, n, form);
  for (std::size_t i = 0; i < n; ++i)
    instance_transform_.push_back(i < line.fields.size() ? real_or(line.fields[i], 0.0, "an instance transform value") : 0.0);
}

// The part's lines (then the instance's own), read with the instance's context.
void DeckParser::replay_instance() {
  const Keyword end_kw = kw_;
  PartDef& part = parts_.at(instance_part_);
  ++part.instances;
  InstanceContext c;
  c.name = instance_;
  // Ids of later instances start above every id so far, at a round number (ids stay readable).
  // Assembly-level nodes or elements written before the first instance count too.
  if (!instance_order_.empty() || max_node_id_ > 0 || max_element_id_ > 0) {
    c.node_offset = assembly_offset(max_node_id_);
    c.element_offset = assembly_offset(max_element_id_);
  }
  const std::vector<double>& tr = instance_transform_;
  for (std::size_t i = 0; i < 3 && i < tr.size(); ++i) c.t[i] = tr[i];
  if (tr.size() >= 10 && tr[9] != 0.0) {
    double axis[3] = {tr[6] - tr[3], tr[7] - tr[4], tr[8] - tr[5]};
    const double len = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    if (!(len > 0)) fail(instance_pos_, "*INSTANCE rotation: points a and b of the axis coincide");
    for (double& v : axis) v /= len;
    const double th = tr[9] * M_PI / 180.0, co = std::cos(th), si = std::sin(th);
    for (int i = 0; i < 3; ++i) {
      c.a[i] = tr[3 + static_cast<std::size_t>(i)];
      for (int j = 0; j < 3; ++j) {
        // Rodrigues: R = cos I + sin [axis]x + (1 - cos) axis axis^T.
        const double cross = i == j ? 0.0 : ((i + 1) % 3 == j ? -axis[3 - i - j] : axis[3 - i - j]);
        c.R[i][j] = (i == j ? co : 0.0) + si * cross + (1 - co) * axis[i] * axis[j];
      }
    }
  }
  c.moved = c.t[0] != 0 || c.t[1] != 0 || c.t[2] != 0 || (tr.size() >= 10 && tr[9] != 0.0);
  instance_offsets_[instance_] = {c.node_offset, c.element_offset};
  instance_order_.push_back(instance_);
  inst_ = c;
  const bool was_in_assembly = in_assembly_;
  in_assembly_ = false;
  in_part_ = true;
  const auto read = [&](const std::vector<StoredLine>& lines) {
    for (const StoredLine& s : lines) {
      if (s.is_keyword) {
        keyword(s.keyword);
        continue;
      }
      Line l;
      l.is_keyword = false;
      l.text = s.text;
      l.pos = s.pos;
      split_fields(l.text, l.fields);
      data(l);
    }
  };
  read(part.lines);
  read(instance_lines_);
  end_block();
  in_part_ = false;
  in_assembly_ = was_in_assembly;
  inst_ = InstanceContext{};
  instance_lines_.clear();
  kw_ = end_kw;
}

// With one instance, a part set answers to its plain name too (unless the assembly defines
// that name), so references written for the flat deck keep working.
void DeckParser::alias_single_instance_sets() {
  if (instance_order_.size() != 1) return;
  const std::string prefix = instance_order_.front() + ".";
  for (auto* sets : {&pending_nsets_, &pending_elsets_}) {
    std::vector<std::pair<std::string, PendingSet>> add;
    for (const auto& [name, ps] : *sets) {
      if (name.compare(0, prefix.size(), prefix) != 0) continue;
      const std::string plain = name.substr(prefix.size());
      if (sets->count(plain)) continue;
      PendingSet alias;
      alias.name = plain;
      alias.first = ps.first;
      alias.scope = ps.scope;
      set_names_.push_back(name);
      alias.items.push_back(SetItem{0, 0, 1, static_cast<int>(set_names_.size()) - 1, false, ps.first});
      add.emplace_back(plain, std::move(alias));
    }
    for (auto& [plain, ps] : add) sets->emplace(plain, std::move(ps));
  }
  std::vector<std::pair<std::string, Surface>> surfaces;
  for (const auto& [name, s] : m_.surfaces)
    if (name.compare(0, prefix.size(), prefix) == 0 && !m_.surfaces.count(name.substr(prefix.size())) &&
        !m_.analytical_surfaces.count(name.substr(prefix.size())))
      surfaces.emplace_back(name.substr(prefix.size()), s);
  for (auto& [plain, s] : surfaces) {
    for (const PendingFace& f : std::vector<PendingFace>(pending_faces_))
      if (f.surface == prefix + plain) pending_faces_.push_back(PendingFace{plain, f.target, f.face, f.pos, f.area});
    s.name = plain;
    m_.surfaces.emplace(plain, std::move(s));
  }
}

std::int64_t DeckParser::assembly_offset(std::int64_t max_id) const {
  // Ids near 2^63 leave no power of ten above them: the clash is then reported as an id
  // defined twice, or an id too large to renumber.
  std::int64_t p = 1;
  while (p <= max_id && p <= std::numeric_limits<std::int64_t>::max() / 10) p *= 10;
  return max_id > 0 ? p : 0;
}

// Abaqus: outside the parts, a plain id is an assembly-level node or element. halfstep also
// lets it name the first instance's (decks written for one instance rely on that), so the
// assembly's own label wins only where it exists.
std::int64_t DeckParser::plain_id(std::int64_t label, bool node) const {
  if (node && assembly_node_offset_ && assembly_node_labels_.count(label)) return label + *assembly_node_offset_;
  if (!node && assembly_element_offset_ && assembly_element_labels_.count(label)) return label + *assembly_element_offset_;
  return label;
}

std::optional<std::int64_t> DeckParser::id_of(const std::string& k, bool node) const {
  if (const auto id = to_int(k)) return plain_id(*id, node);
  const std::size_t dot = k.rfind('.');
  if (dot == std::string::npos) return std::nullopt;
  const auto id = to_int(std::string_view(k).substr(dot + 1));
  if (!id) return std::nullopt;
  const auto it = instance_offsets_.find(k.substr(0, dot));
  if (it == instance_offsets_.end()) return std::nullopt;
  return *id + (node ? it->second.first : it->second.second);
}

// ---------------------------------------------------------------------------------------
// End of the model data and of the deck

void DeckParser::finish_model_data() {
  if (in_part_) fail(part_pos_, "*PART '" + part_ + "' has no *END PART");
  if (in_instance_) fail(instance_pos_, "*INSTANCE has no *END INSTANCE");
  if (in_assembly_) fail(assembly_pos_, "*ASSEMBLY has no *END ASSEMBLY");
  for (const auto& [name, part] : parts_)
    if (part.instances == 0)
      m_.warnings.push_back("part '" + name + "' (" + loc(part.pos).str() +
                            ") is never instanced: its nodes and elements are not in the model");
  alias_single_instance_sets();
  model_done_ = true;
  resolve_connectivity();
  resolve_point_masses();
  resolve_sets();
  resolve_sections();
  expand_s8_elements();
  expand_b32_elements();
  check_node_normals();
  resolve_discrete_sections();
  resolve_surfaces();
  resolve_adhesions();
  check_constraint_surfaces();
  resolve_pretension_sections();
  resolve_constraints();
  resolve_analytical_bodies();
  resolve_transforms();
  resolve_model_targets();
}

void DeckParser::finish() {
  const Pos end{0, lex_.top_line_count()};
  if (in_step_)
    fail(m_.steps.back().loc,
         "step '" + m_.steps.back().name + "' has no *END STEP (the deck ends inside it)");
  if (m_.nodes.size() == 0) fail(Pos{0, 1}, "deck is empty: no *NODE");
  if (!model_done_) finish_model_data();
  if (m_.elements.size() == 0)
    fail(end, "model has no elements: expected *ELEMENT, TYPE=... (" + supported_element_names() + ")");
  if (m_.steps.empty())
    fail(end, "deck has no *STEP: expected *STEP, *DYNAMIC, EXPLICIT ... *END STEP");
  check_id_range();
  check_amplitude_references();
  if (m_.steps.size() > 1 && !total_time_amplitudes_.empty())
    fail(total_time_amplitudes_.front(),
         "*AMPLITUDE, TIME=TOTAL TIME is supported only for single-step models (use TIME=STEP "
         "TIME)");
  attach_model_boundaries();
  remap_rotation_nodes();
  expand_s8_node_conditions();
  expand_b32_node_conditions();
  expand_pretension_node_conditions();
  close_contact_block();
  resolve_contact();
  check_explicit_kinds();
  check_adhesion_steps();
  warn_undamped_rigid_bodies();
  settle_temperature_prints();
  if (errors_.empty()) validate(m_);  // after a reading problem the model is incomplete
  // Warnings quote the deck too (ignored keywords and parameters): bounded as errors are.
  for (std::string& w : m_.warnings) w = printable(bounded(w));
}

// Every id, as read or as made (instances, NURBS patches, adhesion edges), after the model
// data: the results carry ids as Float64 (NodeId, ElementId, history rows), which hold every
// integer only up to 2^53; 2^53 + 1 was written as 2^53 (fuzzing).
void DeckParser::check_id_range() const {
  constexpr std::int64_t kMaxId = std::int64_t{1} << 53;
  const auto check = [&](const std::vector<std::int64_t>& ids, const auto& locs, const char* what) {
    for (std::size_t i = 0; i < ids.size(); ++i)
      if (ids[i] > kMaxId)
        fail(locs[i], std::string(what) + " id " + std::to_string(ids[i]) +
                          " is above 2^53 = 9007199254740992, the largest the results (Float64 NodeId, ElementId "
                          "and history columns) hold exactly");
  };
  check(m_.nodes.id, m_.nodes.loc, "node");
  check(m_.elements.id, m_.elements.loc, "element");
}

// ---------------------------------------------------------------------------------------
// Values, names and messages

void DeckParser::fail(Pos p, const std::string& msg) const { throw InputError(lex_.loc(p), msg); }

void DeckParser::fail(const SourceLoc& where, const std::string& msg) const {
  throw InputError(where, msg);
}

double DeckParser::real(std::string_view field, std::string_view what) const {
  if (field.empty()) fail(at_, "missing " + std::string(what) + " (expected a real number)");
  const auto v = to_real(field);
  if (!v) fail(at_, "expected a real number for " + std::string(what) + ", got '" + std::string(field) + "'");
  return *v;
}

double DeckParser::real_or(std::string_view field, double fallback, std::string_view what) const {
  return field.empty() ? fallback : real(field, what);
}

std::int64_t DeckParser::integer(std::string_view field, std::string_view what) const {
  if (field.empty()) fail(at_, "missing " + std::string(what) + " (expected an integer)");
  const auto v = to_int(field);
  if (!v) fail(at_, "expected an integer for " + std::string(what) + ", got '" + std::string(field) + "'");
  return *v;
}

int DeckParser::dof(std::string_view field, std::string_view what) const {
  const std::int64_t d = integer(field, what);
  if (d < 1 || d > kMaxDof)
    fail(at_, std::string(what) + " " + std::to_string(d) +
                  " is out of range: expected 1 to 6 (ux, uy, uz, rx, ry, rz)");
  return static_cast<int>(d);
}

// Names are case-insensitive. Inside an instance's part (and in the members of an *NSET or
// *ELSET with INSTANCE=) a name or an id belongs to that instance: "<instance>.<name>",
// "<instance>.<id>" (id_of adds the instance's offset).
std::string DeckParser::key(std::string_view name) const {
  std::string k = upper(unquote(trim(name)));
  const std::string& owner = !inst_.name.empty() ? inst_.name : set_instance_;
  if (!owner.empty() && !k.empty()) k = owner + "." + k;
  return k;
}

std::string DeckParser::param(const Keyword& kw, std::string_view k) const {
  const Param* p = kw.find(k);
  return p ? p->value : std::string();
}

std::string DeckParser::required_param(const Keyword& kw, std::string_view k) const {
  const Param* p = kw.find(k);
  if (!p || p->value.empty()) fail(kw.pos, kw.display + " needs " + std::string(k) + "=");
  return p->value;
}

double DeckParser::real_param(const Keyword& kw, std::string_view k, double fallback) const {
  const Param* p = kw.find(k);
  if (!p) return fallback;
  const auto v = to_real(trim(p->value));
  if (!v)
    fail(kw.pos, "expected a real number for " + kw.display + " parameter " + std::string(k) +
                     ", got '" + p->value + "'");
  return *v;
}

// An unknown parameter may change the meaning of the keyword, so it is refused.
void DeckParser::allow_params(const Keyword& kw, std::initializer_list<std::string_view> keys) const {
  for (const Param& p : kw.params)
    if (std::find(keys.begin(), keys.end(), p.key) == keys.end())
      fail(kw.pos, kw.display + " parameter " + p.key + " is not supported by halfstep");
}

void DeckParser::need_fields(const Line& line, std::size_t n, const char* form) const {
  if (line.fields.size() < n)
    fail(line.pos, "too few fields on " + kw_.display + " data line: expected " + form + ", got " +
                       std::to_string(line.fields.size()) + " field(s)");
}

void DeckParser::at_most_fields(const Line& line, std::size_t n, const char* form) const {
  if (line.fields.size() > n)
    fail(line.pos, "too many fields on " + kw_.display + " data line: expected " + form + ", got " +
                       std::to_string(line.fields.size()) + " fields");
}

}  // namespace halfstep::inp
