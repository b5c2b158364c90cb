// *OUTPUT, *NODE OUTPUT and *ELEMENT OUTPUT inside a step; printed tables; *TIME POINTS.
#include <algorithm>
#include <cmath>
#include <iterator>

#include "io/inp_parser.hpp"
#include "io/inp_text.hpp"

namespace halfstep::inp {

namespace {

void add_unique(std::vector<std::string>& vars, const char* v) {
  for (const auto& x : vars)
    if (x == v) return;
  vars.emplace_back(v);
}

}  // namespace

void DeckParser::output_keyword(const Keyword& kw) {
  finish_output_request();
  const bool field = kw.find("FIELD") != nullptr, history = kw.find("HISTORY") != nullptr;
  if (field == history) fail(kw.pos, "*OUTPUT needs exactly one of FIELD or HISTORY");
  // Output settings cannot change the motion, so unknown ones only warn.
  for (const Param& p : kw.params) {
    static constexpr std::string_view known[] = {"FIELD", "HISTORY", "VARIABLE", "NUMBERINTERVAL",
                                                 "TIMEINTERVAL", "TIMEPOINTS"};
    if (std::find(std::begin(known), std::end(known), p.key) != std::end(known)) continue;
    if (warned_.emplace("OUTPUT," + p.key, kw.pos).second)
      m_.warnings.push_back("parameter " + p.key + " of *OUTPUT is not supported and was ignored (first at " +
                            loc(kw.pos).str() + ")");
  }
  OutputRequest r;
  r.kind = field ? OutputRequest::Kind::Field : OutputRequest::Kind::History;
  r.loc = loc(kw.pos);
  const std::string var = squeeze_upper(param(kw, "VARIABLE"));
  if (!var.empty() && var != "PRESELECT" && var != "ALL")
    fail(kw.pos, "*OUTPUT, VARIABLE=" + param(kw, "VARIABLE") + " is not supported (PRESELECT or ALL)");
  if (kw.find("NUMBERINTERVAL") && kw.find("TIMEINTERVAL"))
    fail(kw.pos, "*OUTPUT takes NUMBER INTERVAL or TIME INTERVAL, not both");
  if (kw.find("NUMBERINTERVAL")) {
    const auto n = to_int(trim(param(kw, "NUMBERINTERVAL")));
    if (!n || *n < 1 || *n > 1000000000)
      fail(kw.pos, "*OUTPUT, NUMBER INTERVAL must be a positive integer up to 1e9, got '" +
                       param(kw, "NUMBERINTERVAL") + "'");
    r.number_interval = static_cast<int>(*n);
  }
  if (kw.find("TIMEINTERVAL")) {
    const double dt = real_param(kw, "TIMEINTERVAL", 0.0);
    if (!(dt > 0))
      fail(kw.pos, "*OUTPUT, TIME INTERVAL must be positive, got '" + param(kw, "TIMEINTERVAL") + "'");
    r.time_interval = dt;
  }
  if (time_points_param(kw, r.time_points, r.points_total) && (r.number_interval || r.time_interval))
    fail(kw.pos, "*OUTPUT takes TIME POINTS or an interval (NUMBER INTERVAL, TIME INTERVAL), not both");
  // As in Abaqus, *NODE/*ELEMENT OUTPUT after VARIABLE=PRESELECT add to the preselection
  // (a history preselection is the energies, which are always written).
  if (!var.empty() && field) {
    r.node_vars = {"U", "V", "RF"};
    r.element_vars = {"S", "SF", "SM", "E"};
  }
  auto& outs = m_.steps.back().outputs;
  outs.push_back(std::move(r));
  output_first_ = output_current_ = static_cast<int>(outs.size()) - 1;
  output_preselect_ = !var.empty();
  output_has_sub_ = false;
}

// A field request that names nothing (no VARIABLE=, no node or element output) is dropped.
void DeckParser::finish_output_request() {
  if (output_first_ < 0) return;
  auto& outs = m_.steps.back().outputs;
  const OutputRequest& r = outs[static_cast<std::size_t>(output_first_)];
  if (!output_has_sub_ && !output_preselect_ && r.kind == OutputRequest::Kind::Field) {
    m_.warnings.push_back("*OUTPUT, FIELD at " + r.loc.str() + " requests no variables and was dropped");
    outs.pop_back();  // nothing was copied from it, so it is the last request
  }
  output_first_ = output_current_ = -1;
}

/// The request a *NODE OUTPUT or *ELEMENT OUTPUT block fills: the current one, or (other_set)
/// a new request of the same kind and interval, since a request holds a single set.
OutputRequest& DeckParser::start_output_block(const Keyword& kw, bool other_set) {
  auto& outs = m_.steps.back().outputs;
  if (other_set) {
    const OutputRequest& cur = outs[static_cast<std::size_t>(output_current_)];
    OutputRequest copy;
    copy.kind = cur.kind;
    copy.number_interval = cur.number_interval;
    copy.time_interval = cur.time_interval;
    copy.time_points = cur.time_points;
    copy.points_total = cur.points_total;
    copy.loc = loc(kw.pos);
    outs.push_back(std::move(copy));
    output_current_ = static_cast<int>(outs.size()) - 1;
  }
  output_target_ = output_current_;
  output_has_sub_ = true;
  output_block_has_vars_ = false;
  return outs[static_cast<std::size_t>(output_current_)];
}

/// VARIABLE=PRESELECT or ALL adds every variable in all; other values are refused.
void DeckParser::output_variable_param(const Keyword& kw, const std::string& keyword,
                                       std::initializer_list<const char*> all, std::vector<std::string>& vars) {
  const std::string var = squeeze_upper(param(kw, "VARIABLE"));
  if (var.empty()) return;
  if (var != "PRESELECT" && var != "ALL")
    fail(kw.pos, keyword + ", VARIABLE=" + param(kw, "VARIABLE") + " is not supported (PRESELECT or ALL)");
  for (const char* v : all) add_unique(vars, v);
  output_block_has_vars_ = true;
}

void DeckParser::node_output_keyword(const Keyword& kw) {
  if (output_first_ < 0)
    fail(kw.pos, "*NODE OUTPUT must follow an *OUTPUT, FIELD or *OUTPUT, HISTORY in the same step");
  allow_params(kw, {"NSET", "VARIABLE"});
  auto& outs = m_.steps.back().outputs;
  const std::string nset = kw.find("NSET") ? key(required_param(kw, "NSET")) : std::string();
  if (!nset.empty()) check_node_set(nset, kw.pos);
  const OutputRequest& cur = outs[static_cast<std::size_t>(output_current_)];
  if (cur.kind == OutputRequest::Kind::History && nset.empty())
    fail(kw.pos, "history *NODE OUTPUT needs NSET= (history is written for a set of nodes)");
  // A request holds one node set: a second set under the same *OUTPUT gets its own copy.
  OutputRequest& target = start_output_block(kw, !cur.node_vars.empty() && cur.nset != nset);
  target.nset = nset;
  output_variable_param(kw, "*NODE OUTPUT", {"U", "V", "RF"}, target.node_vars);
}

namespace {

/// The nodal vector halfstep writes for an Abaqus *NODE OUTPUT identifier: U for U, UT, UR and
/// their components (U1 .. U3, UR1 .. UR3), likewise V, A and RF (RF, RT, RM and RF1 .. RM3);
/// "" for any other identifier. A component request writes the whole vector.
const char* node_output_vector(std::string v) {
  if (v.size() >= 2 && v.back() >= '1' && v.back() <= '3') v.pop_back();
  if (v == "U" || v == "UT" || v == "UR") return "U";
  if (v == "V" || v == "VT" || v == "VR") return "V";
  if (v == "RF" || v == "RT" || v == "RM") return "RF";
  if (v == "A" || v == "AT" || v == "AR") return "A";
  return "";
}

}  // namespace

void DeckParser::node_output_data(const Line& line) {
  auto& vars = m_.steps.back().outputs[static_cast<std::size_t>(output_target_)].node_vars;
  for (std::string_view f : line.fields) {
    if (f.empty()) continue;
    const char* v = node_output_vector(squeeze_upper(f));
    if (!*v)
      fail(at_, "node output variable '" + std::string(f) +
                    "' is not supported (halfstep writes U, V, A, RF, and the whole vector for a component such as U2 "
                    "or RM3)");
    add_unique(vars, v);
    output_block_has_vars_ = true;
  }
}

void DeckParser::element_output_keyword(const Keyword& kw) {
  if (output_first_ < 0)
    fail(kw.pos, "*ELEMENT OUTPUT must follow an *OUTPUT, FIELD in the same step");
  auto& outs = m_.steps.back().outputs;
  const OutputRequest& cur = outs[static_cast<std::size_t>(output_current_)];
  if (cur.kind == OutputRequest::Kind::History)
    fail(kw.pos, "history *ELEMENT OUTPUT is not supported (halfstep writes element results as "
                 "field output only)");
  // DIRECTIONS only adds orientation vectors to the output database.
  allow_params(kw, {"ELSET", "VARIABLE", "DIRECTIONS"});
  const std::string elset = kw.find("ELSET") ? key(required_param(kw, "ELSET")) : std::string();
  if (!elset.empty()) check_element_set(elset, kw.pos);
  OutputRequest& target = start_output_block(kw, !cur.element_vars.empty() && cur.elset != elset);
  target.elset = elset;
  output_variable_param(kw, "*ELEMENT OUTPUT", {"S", "SF", "SM", "E"}, target.element_vars);
}

void DeckParser::element_output_data(const Line& line) {
  auto& vars = m_.steps.back().outputs[static_cast<std::size_t>(output_target_)].element_vars;
  for (std::string_view f : line.fields) {
    if (f.empty()) continue;
    const std::string v = squeeze_upper(f);
    if (v == "S" || v == "SF" || v == "SM" || v == "E" || v == "PEEQ") add_unique(vars, v.c_str());
    else
      fail(at_, "element output variable '" + std::string(f) +
                    "' is not supported (halfstep writes S, SF, SM, E, PEEQ)");
    output_block_has_vars_ = true;
  }
}

void DeckParser::output_block_end() {
  if (!output_block_has_vars_)
    fail(kw_.pos, kw_.display + " needs a data line naming the variables (or VARIABLE=PRESELECT)");
}

}  // namespace halfstep::inp

namespace halfstep::inp {

// *NODE PRINT, *EL PRINT and *ENERGY PRINT: tables in <job>.dat (io/result_writer.cpp).
void DeckParser::node_print_keyword(const Keyword& kw) { print_keyword(kw, PrintRequest::Kind::Node); }
void DeckParser::el_print_keyword(const Keyword& kw) { print_keyword(kw, PrintRequest::Kind::Element); }
void DeckParser::energy_print_keyword(const Keyword& kw) { print_keyword(kw, PrintRequest::Kind::Energy); }

// *RESTART, WRITE, FREQUENCY=N (every N increments) or NUMBER INTERVAL=N (N times per step).
// halfstep keeps the latest restart point only, as with OVERLAY; READ is the command line's
// --restart FILE, so a deck cannot point a run at a file.
void DeckParser::restart_keyword(const Keyword& kw) {
  allow_params(kw, {"WRITE", "READ", "FREQUENCY", "NUMBERINTERVAL", "OVERLAY", "TIMEMARKS"});
  if (kw.find("READ"))
    fail(kw.pos, "*RESTART, READ: resume a run with 'halfstep run DECK -o DIR --restart DIR/<job>.restart'");
  if (!kw.find("WRITE")) fail(kw.pos, "*RESTART needs WRITE (with FREQUENCY= or NUMBER INTERVAL=)");
  if (m_.restart.loc.line > 0)
    fail(kw.pos, "a second *RESTART (the first is at line " + std::to_string(m_.restart.loc.line) + ")");
  // Parameter names arrive squeezed ("NUMBERINTERVAL"); shown is what the message prints.
  const auto count = [&](const char* name, const char* shown, std::int64_t max) {
    const auto n = to_int(trim(param(kw, name)));
    if (!n || *n < 1 || *n > max)
      fail(kw.pos, std::string("*RESTART, ") + shown + " must be a whole number from 1 to " + std::to_string(max) +
                       ", got '" + std::string(param(kw, name)) + "'");
    return *n;
  };
  if (kw.find("FREQUENCY")) m_.restart.frequency = count("FREQUENCY", "FREQUENCY", 1000000000000LL);
  if (kw.find("NUMBERINTERVAL"))
    m_.restart.number_interval = static_cast<int>(count("NUMBERINTERVAL", "NUMBER INTERVAL", 1000000));
  if (!m_.restart.frequency && !m_.restart.number_interval)
    fail(kw.pos, "*RESTART, WRITE needs FREQUENCY= (increments) or NUMBER INTERVAL= (restart points per step)");
  m_.restart.loc = loc(kw.pos);
}

void DeckParser::print_keyword(const Keyword& kw, PrintRequest::Kind kind) {
  finish_output_request();
  const char* set_param = kind == PrintRequest::Kind::Node ? "NSET" : "ELSET";
  // Layout-only parameters (what Abaqus adds to its own tables) change nothing computed.
  allow_params(kw, {set_param, "FREQUENCY", "TOTALS", "SUMMARY", "GLOBAL", "POSITION", "TIMEPOINTS"});
  PrintRequest p;
  p.kind = kind;
  p.loc = loc(kw.pos);
  if (kind != PrintRequest::Kind::Energy && kw.find(set_param)) {
    p.set = key(required_param(kw, set_param));
    if (kind == PrintRequest::Kind::Node) check_node_set(p.set, kw.pos);
    else check_element_set(p.set, kw.pos);
  }
  if (kw.find("FREQUENCY")) {
    const auto n = to_int(trim(param(kw, "FREQUENCY")));
    if (!n || *n < 0 || *n > 1000000000)
      fail(kw.pos, kw.display + ", FREQUENCY must be a whole number of increments (0: none), got '" +
                       param(kw, "FREQUENCY") + "'");
    p.frequency = static_cast<int>(*n);
  }
  if (time_points_param(kw, p.time_points, p.points_total) && kw.find("FREQUENCY"))
    fail(kw.pos, kw.display + " takes FREQUENCY or TIME POINTS, not both");
  const std::string totals = squeeze_upper(param(kw, "TOTALS"));
  if (!totals.empty() && totals != "YES" && totals != "NO" && totals != "ONLY")
    fail(kw.pos, kw.display + ", TOTALS must be YES, NO or ONLY, got '" + param(kw, "TOTALS") + "'");
  // ONLY: the sums without the rows. On element tables Abaqus sums energies and volumes
  // (ELSE, ELKE, EVOL), which halfstep does not print.
  if (totals == "ONLY" && kind == PrintRequest::Kind::Element)
    fail(kw.pos, "*EL PRINT, TOTALS=ONLY (sums of element energies and volumes: ELSE, ELKE, EVOL) is not supported; "
                 "halfstep prints S, E and PEEQ at the points");
  p.totals = totals == "YES" || totals == "ONLY";
  p.totals_only = totals == "ONLY";
  const std::string global = squeeze_upper(param(kw, "GLOBAL"));
  if (!global.empty() && global != "YES" && global != "NO")
    fail(kw.pos, kw.display + ", GLOBAL must be YES or NO, got '" + param(kw, "GLOBAL") + "'");
  p.global = global == "YES";
  // Element values at the integration points unless CENTROIDAL (Abaqus's default and choice);
  // values averaged at the nodes are not computed, the points' values are printed instead.
  const std::string position = squeeze_upper(param(kw, "POSITION"));
  if (kind == PrintRequest::Kind::Element && kw.find("POSITION")) {
    if (position == "CENTROIDAL") {
      p.centroidal = true;
    } else if (position == "AVERAGEDATNODES" || position == "NODES") {
      if (warned_.emplace("ELPRINT,POSITION", kw.pos).second)
        m_.warnings.push_back("*EL PRINT, POSITION=" + param(kw, "POSITION") +
                              ": halfstep prints element values at the integration points (first at " +
                              loc(kw.pos).str() + ")");
    } else if (position != "INTEGRATIONPOINTS") {
      fail(kw.pos, "*EL PRINT, POSITION must be INTEGRATION POINTS, CENTROIDAL, AVERAGED AT NODES or NODES, got '" +
                       param(kw, "POSITION") + "'");
    }
  }
  m_.steps.back().prints.push_back(std::move(p));
}

void DeckParser::print_data(const Line& line) {
  PrintRequest& p = m_.steps.back().prints.back();
  const bool node = p.kind == PrintRequest::Kind::Node;
  for (std::string_view f : line.fields) {
    if (f.empty()) continue;
    std::string v = squeeze_upper(f);
    // A component (U2, RF1, S12, E33) prints its whole table, as *NODE OUTPUT writes its vector.
    if (node && v.size() >= 2 && v.back() >= '1' && v.back() <= '3' &&
        (v.size() == 2 ? std::string("UVA").find(v[0]) != std::string::npos : v.compare(0, 2, "RF") == 0 && v.size() == 3))
      v.pop_back();
    else if (!node && v.size() == 3 && (v[0] == 'S' || v[0] == 'E') && v[1] >= '1' && v[1] <= '3' && v[2] >= v[1] &&
             v[2] <= '3')
      v.resize(1);
    if (node && (v == "UT" || v == "U")) v = "U";
    else if (node && (v == "VT" || v == "V")) v = "V";
    else if (node && (v == "AT" || v == "A")) v = "A";
    else if (node && v == "RF") v = "RF";
    else if (node && (v == "NT" || v == "NT11")) v = "NT";  // settled by settle_temperature_prints
    else if (!node && (v == "S" || v == "E" || v == "PEEQ")) {
    } else
      fail(at_, std::string(node ? "*NODE PRINT" : "*EL PRINT") + " variable '" + std::string(f) +
                    "' is not supported (halfstep prints " +
                    (node ? "U, V, A, RF (NT without temperatures), and the whole table for a component such as U2"
                          : "S, E, PEEQ, and the whole table for a component such as S12") +
                    ")");
    add_unique(p.vars, v.c_str());
  }
}

// NT (nodal temperatures): a model without any temperature has none to print, and the peer
// then prints no table: the variable is dropped with a warning (a request left with no
// variable prints nothing). With temperatures the table is not written yet: refused.
void DeckParser::settle_temperature_prints() {
  bool temperatures = !m_.initial_temperatures.empty();
  for (const Step& s : m_.steps) temperatures = temperatures || !s.temperatures.empty();
  for (Step& s : m_.steps) {
    std::vector<PrintRequest>& prints = s.prints;
    for (std::size_t i = 0; i < prints.size();) {
      std::vector<std::string>& vars = prints[i].vars;
      const auto nt = std::find(vars.begin(), vars.end(), std::string("NT"));
      if (prints[i].kind != PrintRequest::Kind::Node || nt == vars.end()) {
        ++i;
        continue;
      }
      if (temperatures)
        fail(prints[i].loc, "*NODE PRINT of NT in a model with temperatures: not supported yet (the nodal "
                            "temperatures table); print U, V, A or RF");
      vars.erase(nt);
      if (warned_.emplace("NODEPRINT,NT", Pos{}).second)
        m_.warnings.push_back("*NODE PRINT of NT at " + prints[i].loc.str() +
                              ": the model has no temperatures, so no table is printed (as the peer)");
      if (vars.empty())
        prints.erase(prints.begin() + static_cast<std::ptrdiff_t>(i));
      else
        ++i;
    }
  }
}

// Without a data line the request names no variable: the peer's way to wipe the step's
// selection (with FREQUENCY=0 also its way to print nothing), so it prints nothing.
void DeckParser::print_end() {
  std::vector<PrintRequest>& prints = m_.steps.back().prints;
  if (!prints.back().vars.empty()) return;
  if (prints.back().frequency != 0 && warned_.emplace("PRINT,NOVARIABLES", kw_.pos).second)
    m_.warnings.push_back(kw_.display + " at " + loc(kw_.pos).str() +
                          " names no variables (no data line): it prints nothing, as in the peer");
  prints.pop_back();
}

// *TIME POINTS, NAME=name [, GENERATE] [, TIME=STEP TIME | TOTAL TIME]: output instants a
// request names with TIME POINTS= (Abaqus's *OUTPUT; the peer's *NODE PRINT and *EL PRINT).
// Data lines: instants, any number per line; GENERATE: start, end, increment per line.
void DeckParser::time_points_keyword(const Keyword& kw) {
  allow_params(kw, {"NAME", "GENERATE", "TIME"});
  const std::string name = key(required_param(kw, "NAME"));
  const std::string time = squeeze_upper(param(kw, "TIME"));
  if (kw.find("TIME") && time != "STEPTIME" && time != "TOTALTIME")
    fail(kw.pos, "*TIME POINTS, TIME must be STEP TIME or TOTAL TIME, got '" + param(kw, "TIME") + "'");
  if (const auto it = time_points_.find(name); it != time_points_.end())
    fail(kw.pos, "*TIME POINTS '" + param(kw, "NAME") + "' is defined twice (first at " + loc(it->second.pos).str() + ")");
  TimePointList& t = time_points_[name];
  t.total = time == "TOTALTIME";
  t.generate = kw.find("GENERATE") != nullptr;
  t.pos = kw.pos;
  time_points_current_ = name;
}

void DeckParser::time_points_data(const Line& line) {
  TimePointList& t = time_points_[time_points_current_];
  constexpr std::size_t kMaxPoints = 1000000;  // instants the frames of one request may take
  const auto instant = [&](std::string_view f, const char* what) {
    const double v = real_or(f, -1.0, what);
    if (!(v >= 0) || !std::isfinite(v)) fail(at_, std::string("*TIME POINTS: ") + what + " must be a time >= 0, got '" + std::string(f) + "'");
    return v;
  };
  if (t.generate) {
    need_fields(line, 3, "start, end, increment");
    if (line.fields.size() > 3) fail(at_, "*TIME POINTS, GENERATE: one start, end, increment per line");
    const double a = instant(line.fields[0], "the start"), b = instant(line.fields[1], "the end"),
                 d = real_or(line.fields[2], 0.0, "the increment");
    if (!(d > 0) || !(b >= a) || (b - a) / d > static_cast<double>(kMaxPoints))
      fail(at_, "*TIME POINTS, GENERATE: expected start <= end and an increment > 0 giving at most 1e6 points");
    for (double k = 0; a + k * d <= b + 1e-9 * d; k += 1) t.times.push_back(a + k * d);
  } else {
    for (std::string_view f : line.fields)
      if (!f.empty()) t.times.push_back(instant(f, "an instant"));
  }
  if (t.times.size() > kMaxPoints) fail(at_, "*TIME POINTS: more than 1e6 instants");
}

void DeckParser::time_points_end() {
  TimePointList& t = time_points_[time_points_current_];
  if (t.times.empty()) fail(t.pos, "*TIME POINTS without an instant (expected data lines of times)");
  std::sort(t.times.begin(), t.times.end());
  t.times.erase(std::unique(t.times.begin(), t.times.end()), t.times.end());
}

bool DeckParser::time_points_param(const Keyword& kw, std::vector<double>& points, bool& total) const {
  if (!kw.find("TIMEPOINTS")) return false;
  const std::string name = key(required_param(kw, "TIMEPOINTS"));
  const auto it = time_points_.find(name);
  if (it == time_points_.end())
    fail(kw.pos, kw.display + ", TIME POINTS=" + param(kw, "TIMEPOINTS") + ": no *TIME POINTS, NAME=" +
                     param(kw, "TIMEPOINTS") + " before this line");
  points = it->second.times;
  total = it->second.total;
  return true;
}

// TIME POINTS land an implicit step's increments on them; the explicit step's increment is
// its stability's, which a point would have to cut.
void DeckParser::check_step_time_points(const Step& s) const {
  if (s.procedure != Procedure::ExplicitDynamic) return;
  for (const OutputRequest& o : s.outputs)
    if (!o.time_points.empty())
      fail(o.loc, "*OUTPUT, TIME POINTS in an explicit step (step '" + s.name +
                      "'): not supported; use TIME INTERVAL or NUMBER INTERVAL");
  for (const PrintRequest& p : s.prints)
    if (!p.time_points.empty())
      fail(p.loc, "TIME POINTS on a printed table in an explicit step (step '" + s.name + "'): not supported; use FREQUENCY");
}

}  // namespace halfstep::inp
