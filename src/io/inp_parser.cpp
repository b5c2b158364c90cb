// Dispatch of keyword and data lines, deck-structure checks and the end-of-deck checks.
#include "io/inp_parser.hpp"

#include <algorithm>

#include "elements/registry.hpp"
#include "io/inp_text.hpp"
#include "model/validate.hpp"

namespace halfstep::inp {

Model DeckParser::parse(const std::string& deck_path) {
  m_.deck_path = deck_path;
  Line line;
  while (lex_.next(line)) {
    if (line.is_keyword)
      keyword(line.keyword);
    else
      data(line);
  }
  end_block();
  finish();
  return std::move(m_);
}

// ---------------------------------------------------------------------------------------
// Dispatch through the keyword table (inp_keywords.cpp)

void DeckParser::keyword(const Keyword& kw) {
  const KeywordSpec* spec = find_keyword(kw.name);
  if (spec && (spec->flags & kInsideBlock)) return (this->*spec->keyword)(kw);
  end_block();
  kw_ = kw;
  block_ = spec;
  block_lines_ = 0;
  at_ = kw.pos;
  // Material options belong to the *MATERIAL right before them; anything else ends it.
  if (!spec || !(spec->flags & kMaterialOption)) material_ = nullptr;
  // Any keyword halfstep does not know is an error: silently dropping physics would give a
  // plausible but wrong answer. The harmless ones are in the table, ignored with a warning.
  if (!spec)
    fail(kw.pos, "keyword " + kw.display +
                     " is not supported by halfstep; ignoring it would change the results");
  // The table name, not the line as written: "*HYPER ELASTIC" is still "*HYPERELASTIC".
  if ((spec->flags & kMaterialOption) && !material_)
    fail(kw.pos, std::string(spec->name) + " must follow a *MATERIAL (it defines that material)");
  if (spec->flags & kModelData) require_model_data(kw);
  if (spec->flags & kInStep) require_step(kw);
  (this->*spec->keyword)(kw);
}

void DeckParser::data(const Line& line) {
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

// Parts and assemblies are accepted only where the deck is really flat: one part, one
// instance of it without a transform. Names "<instance>.<name>" then mean "<name>".
void DeckParser::part_keyword(const Keyword& kw) {
  allow_params(kw, {"NAME"});
  if (in_part_) fail(kw.pos, "*PART inside *PART '" + part_ + "' (missing *END PART)");
  if (!part_.empty())
    fail(kw.pos, "a second *PART ('" + upper(param(kw, "NAME")) +
                     "'): halfstep reads decks with a single part instanced once (first part '" +
                     part_ + "' at " + loc(part_pos_).str() + ")");
  part_ = upper(required_param(kw, "NAME"));
  part_pos_ = kw.pos;
  in_part_ = true;
}

void DeckParser::end_part_keyword(const Keyword& kw) {
  allow_params(kw, {});
  if (!in_part_) fail(kw.pos, "*END PART without a matching *PART");
  in_part_ = false;
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
  if (!instance_.empty())
    fail(kw.pos, "a second *INSTANCE: halfstep flattens decks with a single instance (first '" +
                     instance_ + "' at " + loc(instance_pos_).str() + ")");
  const std::string part = upper(required_param(kw, "PART"));
  if (part != part_) fail(kw.pos, "*INSTANCE refers to part '" + part + "', which is not defined");
  instance_ = upper(required_param(kw, "NAME"));
  instance_pos_ = kw.pos;
  in_instance_ = true;
}

void DeckParser::end_instance_keyword(const Keyword& kw) {
  allow_params(kw, {});
  if (!in_instance_) fail(kw.pos, "*END INSTANCE without a matching *INSTANCE");
  in_instance_ = false;
}

// Instance data lines hold a translation and an optional rotation; only "none" flattens.
void DeckParser::instance_data(const Line& line) {
  for (std::string_view f : line.fields)
    if (real_or(f, 0.0, "an instance transform value") != 0.0)
      fail(at_, "*INSTANCE translation or rotation is not supported (halfstep flattens the "
                "instance; transform the part's nodes instead)");
}

// ---------------------------------------------------------------------------------------
// End of the model data and of the deck

void DeckParser::finish_model_data() {
  if (in_part_) fail(part_pos_, "*PART '" + part_ + "' has no *END PART");
  if (in_instance_) fail(instance_pos_, "*INSTANCE has no *END INSTANCE");
  if (in_assembly_) fail(assembly_pos_, "*ASSEMBLY has no *END ASSEMBLY");
  if (!part_.empty() && instance_.empty())
    fail(part_pos_, "part '" + part_ + "' is never instanced (no *INSTANCE, PART=" + part_ + ")");
  model_done_ = true;
  resolve_connectivity();
  resolve_sets();
  resolve_sections();
  resolve_surfaces();
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
  check_amplitude_references();
  if (m_.steps.size() > 1 && !total_time_amplitudes_.empty())
    fail(total_time_amplitudes_.front(),
         "*AMPLITUDE, TIME=TOTAL TIME is supported only for single-step models (use TIME=STEP "
         "TIME)");
  attach_model_boundaries();
  validate(m_);
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

// Names are case-insensitive; in a flattened assembly "<instance>.<name>" means "<name>".
std::string DeckParser::key(std::string_view name) const {
  std::string k = upper(unquote(trim(name)));
  if (!instance_.empty() && k.size() > instance_.size() + 1 &&
      k.compare(0, instance_.size(), instance_) == 0 && k[instance_.size()] == '.')
    k.erase(0, instance_.size() + 1);
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
