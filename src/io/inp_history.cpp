// *INITIAL CONDITIONS, *STEP ... *END STEP with *DYNAMIC, *BOUNDARY, *CLOAD
// and *DLOAD. Output requests are in inp_output.cpp.
#include <limits>
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "elements/registry.hpp"
#include "elements/solid_faces.hpp"
#include "io/inp_parser.hpp"
#include "io/inp_text.hpp"

namespace halfstep::inp {

namespace {

// Abaqus boundary-condition types as contiguous dof ranges (one Boundary per range).
struct DofRange {
  int first, last;
};
bool bc_type_ranges(const std::string& type, std::vector<DofRange>& out) {
  if (type == "ENCASTRE") out = {{1, 6}};
  else if (type == "PINNED") out = {{1, 3}};
  else if (type == "XSYMM") out = {{1, 1}, {5, 6}};
  else if (type == "YSYMM") out = {{2, 2}, {4, 4}, {6, 6}};
  else if (type == "ZSYMM") out = {{3, 5}};
  else if (type == "XASYMM") out = {{2, 4}};
  else if (type == "YASYMM") out = {{1, 1}, {3, 3}, {5, 5}};
  else if (type == "ZASYMM") out = {{1, 2}, {6, 6}};
  else return false;
  return true;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Initial conditions

void DeckParser::initial_conditions_keyword(const Keyword& kw) {
  allow_params(kw, {"TYPE"});
  const std::string type = squeeze_upper(required_param(kw, "TYPE"));
  initial_rotating_ = initial_temperature_ = false;
  if (type == "VELOCITY") {
  } else if (type == "ROTATINGVELOCITY") {
    initial_rotating_ = true;
    rotation_state_ = RotationState::NewEntry;
  } else if (type == "TEMPERATURE") {
    initial_temperature_ = true;
  } else {
    fail(kw.pos, "*INITIAL CONDITIONS, TYPE=" + upper(param(kw, "TYPE")) +
                     " is not supported by halfstep (VELOCITY, ROTATING VELOCITY or TEMPERATURE); ignoring it "
                     "would change the results");
  }
}

// The two TYPEs have different data lines.
void DeckParser::initial_conditions_data(const Line& line) {
  if (initial_rotating_) initial_rotation_data(line);
  else if (initial_temperature_) initial_temperature_data(line);
  else initial_velocity_data(line);
}

void DeckParser::initial_conditions_end() {
  if (initial_rotating_ && rotation_state_ == RotationState::NeedPointB)
    fail(at_, "*INITIAL CONDITIONS, TYPE=ROTATING VELOCITY: missing the line with point b "
              "(bx, by, bz) of the rotation axis");
}

void DeckParser::initial_velocity_data(const Line& line) {
  need_fields(line, 3, "node or node set, dof, velocity");
  at_most_fields(line, 3, "node or node set, dof, velocity");
  InitialVelocity iv;
  iv.dof = dof(line.fields[1], "initial velocity dof");
  iv.value = real(line.fields[2], "the initial velocity");
  iv.loc = loc(at_);
  m_.initial_velocities.push_back(std::move(iv));
  velocity_targets_.push_back(PendingTarget{key(line.fields[0]), at_});
}

// Accepted forms: "set, omega, ax, ay, az, bx, by, bz" on one line, or Abaqus' split
// "set, omega, ax, ay, az" + "bx, by, bz"; either may be followed by "vx, vy, vz".
void DeckParser::initial_rotation_data(const Line& line) {
  const auto& f = line.fields;
  const auto point = [&](std::size_t at, const char* name) {
    std::array<double, 3> p{};
    for (std::size_t k = 0; k < 3; ++k)
      p[k] = real(f[at + k], std::string("coordinate ") + "xyz"[k] + " of point " + name + " of the rotation axis");
    return p;
  };
  const auto check_axis = [&](const InitialRotatingVelocity& r) {
    if (r.a == r.b) fail(at_, "rotation axis points a and b coincide: the axis has no direction");
  };
  if (rotation_state_ == RotationState::NeedPointB) {
    if (f.size() != 3) fail(at_, "expected point b of the rotation axis: bx, by, bz");
    m_.initial_rotations.back().b = point(0, "b");
    check_axis(m_.initial_rotations.back());
    rotation_state_ = RotationState::MayTakeV0;
    return;
  }
  if (rotation_state_ == RotationState::MayTakeV0 && f.size() == 3) {
    auto& v0 = m_.initial_rotations.back().v0;
    for (std::size_t k = 0; k < 3; ++k)
      v0[k] = real(f[k], std::string("translational velocity ") + "xyz"[k]);
    rotation_state_ = RotationState::NewEntry;
    return;
  }
  if (f.size() != 8 && f.size() != 5)
    fail(at_, "*INITIAL CONDITIONS, TYPE=ROTATING VELOCITY data line must be: node or node set, "
              "omega, ax, ay, az, bx, by, bz");
  InitialRotatingVelocity r;
  r.omega = real(f[1], "the angular velocity");
  r.a = point(2, "a");
  r.loc = loc(at_);
  if (f.size() == 8) {
    r.b = point(5, "b");
    check_axis(r);
    rotation_state_ = RotationState::MayTakeV0;
  } else {
    rotation_state_ = RotationState::NeedPointB;
  }
  m_.initial_rotations.push_back(std::move(r));
  rotation_targets_.push_back(PendingTarget{key(f[0]), at_});
}

void DeckParser::resolve_model_targets() {
  for (std::size_t i = 0; i < velocity_targets_.size(); ++i)
    m_.initial_velocities[i].nodes = node_targets(velocity_targets_[i].key, velocity_targets_[i].pos);
  for (std::size_t i = 0; i < rotation_targets_.size(); ++i)
    m_.initial_rotations[i].nodes = node_targets(rotation_targets_[i].key, rotation_targets_[i].pos);
  for (std::size_t i = 0; i < temperature_targets_.size(); ++i)
    m_.initial_temperatures[i].nodes = node_targets(temperature_targets_[i].key, temperature_targets_[i].pos);
  for (std::size_t i = 0; i < model_boundary_targets_.size(); ++i)
    model_boundaries_[i].nodes =
        node_targets(model_boundary_targets_[i].key, model_boundary_targets_[i].pos);
}

// ---------------------------------------------------------------------------------------
// Steps

void DeckParser::step_keyword(const Keyword& kw) {
  allow_params(kw, {"NAME", "NLGEOM", "INC", "PERTURBATION", "AMPLITUDE", "EXTRAPOLATION"});
  if (in_step_)
    fail(kw.pos, "*STEP inside step '" + m_.steps.back().name + "' (started at " +
                     m_.steps.back().loc.str() + "): missing *END STEP");
  step_nlgeom_ = -1;
  // The peer's linear perturbation step: a *FREQUENCY about the last general step's state,
  // which is what every frequency step here is; another procedure is refused at its keyword.
  step_perturbation_ = kw.find("PERTURBATION") ? kw.pos : Pos{};
  step_amplitude_ = kw.find("AMPLITUDE") ? kw.pos : Pos{};
  step_amplitude_value_ = squeeze_upper(param(kw, "AMPLITUDE"));
  if (const Param* nl = kw.find("NLGEOM")) {
    const std::string v = squeeze_upper(nl->value);
    if (v == "NO") step_nlgeom_ = 0;
    else if (v == "YES" || v.empty()) step_nlgeom_ = 1;
    else fail(kw.pos, "*STEP, NLGEOM=" + nl->value + " (expected YES or NO)");
  }
  if (!model_done_) {
    // While collecting problems, one in the model data must not also lose the step: its
    // keywords would each be reported as outside a step.
    try {
      finish_model_data();
    } catch (const InputError& e) {
      if (max_errors_ == 1) throw;
      errors_.push_back(e.what());
      if (static_cast<int>(errors_.size()) >= max_errors_) throw_errors();
    }
  }
  Step s;
  s.name = kw.find("NAME") ? std::string(unquote(trim(param(kw, "NAME"))))
                           : "Step-" + std::to_string(m_.steps.size() + 1);
  if (kw.find("INC")) {
    const std::int64_t inc = integer(param(kw, "INC"), "INC (the most increments of a static step)");
    if (inc < 1 || inc > 100000000)
      fail(kw.pos, "*STEP, INC=" + param(kw, "INC") + " must be between 1 and 100000000");
    s.controls.max_increments = static_cast<int>(inc);
  }
  if (const Param* ex = kw.find("EXTRAPOLATION")) {
    const std::string v = squeeze_upper(ex->value);
    if (v == "NO") s.controls.extrapolate = false;
    else if (v != "LINEAR")
      fail(kw.pos, "*STEP, EXTRAPOLATION=" + ex->value + " is not supported (LINEAR, the default, or NO)");
  }
  s.loc = loc(kw.pos);
  m_.steps.push_back(std::move(s));
  in_step_ = true;
  has_procedure_ = false;
  output_first_ = output_current_ = -1;
}

void DeckParser::end_step_keyword(const Keyword& kw) {
  allow_params(kw, {});
  if (!in_step_) fail(kw.pos, "*END STEP without a matching *STEP");
  finish_output_request();
  Step& s = m_.steps.back();
  if (!has_procedure_)
    fail(s.loc, "step '" + s.name + "' has no procedure: expected *DYNAMIC, EXPLICIT or *STATIC");
  check_step_time_points(s);
  // Defaults: 20 field frames per step; 200 history points per step. A static step writes a
  // frame at every converged increment unless the request says otherwise.
  for (OutputRequest& o : s.outputs) {
    if (o.number_interval || o.time_interval || !o.time_points.empty()) continue;
    if (s.procedure == Procedure::Static) o.number_interval = 0;
    else if (o.kind == OutputRequest::Kind::Field) o.number_interval = 20;
    else o.time_interval = s.time_period / 200.0;
  }
  in_step_ = false;
}

void DeckParser::dynamic_keyword(const Keyword& kw) {
  if (!kw.find("EXPLICIT")) {
    implicit_dynamic_keyword(kw);
    return;
  }
  allow_params(kw, {"EXPLICIT", "DIRECTUSERCONTROL", "FIXEDTIMEINCREMENTATION", "ELEMENTBYELEMENT"});
  check_step_amplitude(kw);
  if (step_perturbation_.line > 0)
    fail(step_perturbation_, "*STEP, PERTURBATION is supported with *FREQUENCY only (a linear perturbation "
                             "*DYNAMIC, EXPLICIT step is not)");
  if (has_procedure_) fail(kw.pos, "a second procedure in step '" + m_.steps.back().name + "'");
  if (step_nlgeom_ == 0)
    fail(m_.steps.back().loc, "*STEP, NLGEOM=NO with *DYNAMIC, EXPLICIT: explicit steps always account for "
                              "large displacements and rotations");
  has_procedure_ = true;
}

// Abaqus/Explicit's fixed mass scaling, applied once when the run starts (the solver refuses
// it in any step but the first explicit one). TYPE=SET EQUAL DT (which also lowers masses)
// and variable mass scaling are not read.
void DeckParser::fixed_mass_scaling_keyword(const Keyword& kw) {
  allow_params(kw, {"FACTOR", "DT", "TYPE", "ELSET"});
  MassScaling ms;
  ms.loc = loc(kw.pos);
  if (!kw.find("FACTOR") && !kw.find("DT"))
    fail(kw.pos, "*FIXED MASS SCALING needs FACTOR= (a density factor) and/or DT= (a target element increment)");
  if (kw.find("FACTOR")) {
    ms.factor = real_param(kw, "FACTOR", 1);
    if (!(ms.factor > 0 && ms.factor <= 1e12))
      fail(kw.pos, "*FIXED MASS SCALING, FACTOR must be a positive number up to 1e12, got '" +
                       std::string(param(kw, "FACTOR")) + "'");
  }
  if (kw.find("DT")) {
    ms.dt = real_param(kw, "DT", 0);
    if (!(ms.dt > 0 && ms.dt < 1e300))
      fail(kw.pos, "*FIXED MASS SCALING, DT must be a positive time increment, got '" + std::string(param(kw, "DT")) + "'");
  }
  if (kw.find("TYPE")) {
    const std::string type = squeeze_upper(param(kw, "TYPE"));
    if (type == "UNIFORM") ms.uniform = true;
    else if (type != "BELOWMIN")
      fail(kw.pos, "*FIXED MASS SCALING, TYPE must be BELOW MIN or UNIFORM, got '" + std::string(param(kw, "TYPE")) + "'");
    if (!kw.find("DT")) fail(kw.pos, "*FIXED MASS SCALING, TYPE= goes with DT= (the target increment)");
  }
  if (kw.find("ELSET")) {
    ms.elset = key(required_param(kw, "ELSET"));
    check_element_set(ms.elset, kw.pos);
  }
  m_.steps.back().mass_scaling.push_back(ms);
}

// Abaqus/Explicit's variable mass scaling: the scaling rules of *FIXED MASS SCALING applied at
// the step's start and then every FREQUENCY increments or at NUMBER INTERVAL points of the
// step. Without DT the line ends earlier steps' definitions (the masses stay). FACTOR, which
// Abaqus's keyword lacks, is taken as *FIXED MASS SCALING takes it, before the DT rule.
void DeckParser::variable_mass_scaling_keyword(const Keyword& kw) {
  allow_params(kw, {"DT", "TYPE", "ELSET", "FREQUENCY", "NUMBERINTERVAL", "FACTOR"});
  VariableMassScaling v;
  MassScaling& ms = v.scaling;
  ms.loc = loc(kw.pos);
  if (kw.find("DT")) {
    ms.dt = real_param(kw, "DT", 0);
    if (!(ms.dt > 0 && ms.dt <= 1e30))
      fail(kw.pos, "*VARIABLE MASS SCALING, DT must be a positive time increment up to 1e30, got '" +
                       std::string(param(kw, "DT")) + "'");
  }
  if (kw.find("FACTOR")) {
    ms.factor = real_param(kw, "FACTOR", 1);
    if (!(ms.factor > 0 && ms.factor <= 1e12))
      fail(kw.pos, "*VARIABLE MASS SCALING, FACTOR must be a positive number up to 1e12, got '" +
                       std::string(param(kw, "FACTOR")) + "'");
  }
  if (kw.find("TYPE")) {
    const std::string type = squeeze_upper(param(kw, "TYPE"));
    if (type == "UNIFORM") ms.uniform = true;
    else if (type == "SETEQUALDT" || type == "ROLLING")
      fail(kw.pos, "*VARIABLE MASS SCALING, TYPE=" + std::string(param(kw, "TYPE")) +
                       " is not supported: halfstep takes TYPE=BELOW MIN (the default) or UNIFORM");
    else if (type != "BELOWMIN")
      fail(kw.pos, "*VARIABLE MASS SCALING, TYPE must be BELOW MIN or UNIFORM, got '" + std::string(param(kw, "TYPE")) + "'");
  }
  const bool frequency = kw.find("FREQUENCY"), intervals = kw.find("NUMBERINTERVAL");
  if (frequency && intervals)
    fail(kw.pos, "*VARIABLE MASS SCALING takes FREQUENCY= (increments) or NUMBER INTERVAL= (points of the step), not both");
  // Parameter names arrive squeezed ("NUMBERINTERVAL"); shown is what the message prints.
  const auto count = [&](const char* name, const char* shown, std::int64_t max) {
    const auto n = to_int(trim(param(kw, name)));
    if (!n || *n < 1 || *n > max)
      fail(kw.pos, std::string("*VARIABLE MASS SCALING, ") + shown + " must be a whole number from 1 to " +
                       std::to_string(max) + ", got '" + std::string(param(kw, name)) + "'");
    return *n;
  };
  if (frequency) v.frequency = count("FREQUENCY", "FREQUENCY", 1000000000);
  if (intervals) v.number_interval = static_cast<int>(count("NUMBERINTERVAL", "NUMBER INTERVAL", 1000000));
  if (ms.dt > 0 && !frequency && !intervals)
    fail(kw.pos, "*VARIABLE MASS SCALING, DT= needs FREQUENCY= (increments between re-evaluations) or NUMBER "
                 "INTERVAL= (re-evaluations in the step)");
  if (!(ms.dt > 0) && (kw.find("TYPE") || kw.find("FACTOR") || kw.find("ELSET") || frequency || intervals))
    fail(kw.pos, "*VARIABLE MASS SCALING without DT= only ends the definitions of earlier steps: it takes no other "
                 "parameters");
  if (kw.find("ELSET")) {
    ms.elset = key(required_param(kw, "ELSET"));
    check_element_set(ms.elset, kw.pos);
  }
  m_.steps.back().variable_mass_scaling.push_back(v);
}

// "[increment], time period": the increment is read only under user control; otherwise
// the explicit solver picks its own stable increment, as Abaqus/Explicit does.
void DeckParser::dynamic_data(const Line& line) {
  if (m_.steps.back().dynamic) {  // implicit: increments as in a static step
    static_data(line);
    return;
  }
  if (block_lines_ > 1) fail(at_, "*DYNAMIC, EXPLICIT takes one data line: [increment,] time period");
  const auto& f = line.fields;
  need_fields(line, 2, "[increment,] time period");
  for (std::size_t i = 2; i < f.size(); ++i)
    if (!f[i].empty())
      fail(at_, "*DYNAMIC, EXPLICIT data field " + std::to_string(i + 1) +
                    " is not supported (halfstep reads [increment,] time period)");
  Step& s = m_.steps.back();
  s.time_period = real(f[1], "the time period");
  if (!(s.time_period > 0))
    fail(at_, "the step time period must be positive, got '" + std::string(f[1]) + "'");
  const bool user = kw_.find("DIRECTUSERCONTROL") || kw_.find("FIXEDTIMEINCREMENTATION");
  if (user) {
    if (f[0].empty())
      fail(at_, "missing the time increment (required with DIRECT USER CONTROL or FIXED TIME "
                "INCREMENTATION)");
    const double dt = real(f[0], "the time increment");
    if (!(dt > 0) || dt > s.time_period)
      fail(at_, "the time increment must be positive and at most the time period, got '" +
                    std::string(f[0]) + "'");
    s.fixed_increment = dt;
  } else if (!f[0].empty()) {
    real(f[0], "the initial time increment");  // checked, then left to the stability limit
  }
}

void DeckParser::dynamic_end() {
  need_data_line(m_.steps.back().dynamic ? "initial increment, time period[, minimum, maximum increment]"
                                         : "[increment,] time period");
}

// *BULK VISCOSITY: the step's linear and quadratic coefficients (a blank field or no data line
// keeps Abaqus's default for it), in force until another step gives others.
void DeckParser::bulk_viscosity_keyword(const Keyword& kw) {
  allow_params(kw, {});
  Step& s = m_.steps.back();
  if (s.bulk_viscosity) fail(kw.pos, "a second *BULK VISCOSITY in step '" + s.name + "'");
  s.bulk_viscosity = BulkViscosityLine{};
  s.bulk_viscosity->loc = loc(kw.pos);
}

void DeckParser::bulk_viscosity_data(const Line& line) {
  if (block_lines_ > 1) fail(at_, "*BULK VISCOSITY takes one data line: linear, quadratic coefficient");
  const auto& f = line.fields;
  if (f.size() > 2) fail(at_, "*BULK VISCOSITY takes two fields (linear, quadratic coefficient), got " + std::to_string(f.size()));
  BulkViscosityLine& b = *m_.steps.back().bulk_viscosity;
  const char* what[2] = {"the linear bulk viscosity coefficient", "the quadratic bulk viscosity coefficient"};
  double* value[2] = {&b.linear, &b.quadratic};
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (f[i].empty()) continue;
    *value[i] = real(f[i], what[i]);
    // Large coefficients overdamp the element's modes and shrink the increment towards 0.
    if (!(*value[i] >= 0 && *value[i] <= 100))
      fail(at_, std::string(what[i]) + " must be a number from 0 to 100, got '" + std::string(f[i]) + "'");
  }
}

// *STATIC: Abaqus/Standard's automatic incrementation (or DIRECT: fixed increments).
void DeckParser::static_keyword(const Keyword& kw) {
  allow_params(kw, {"DIRECT", "STABILIZE", "FACTOR", "SOLVER"});
  Step& s = begin_static_procedure(kw);
  // STABILIZE[=fraction of the strain energy dissipated] [, FACTOR=c]: Abaqus' automatic
  // stabilization of unstable static problems (local snaps: a peel front, a buckle).
  if (const Param* st = kw.find("STABILIZE")) {
    s.controls.stabilize = true;
    if (!trim(st->value).empty()) s.controls.stabilize_fraction = real_param(kw, "STABILIZE", 2e-4);
    if (!(s.controls.stabilize_fraction > 0) || !std::isfinite(s.controls.stabilize_fraction))
      fail(kw.pos, "*STATIC, STABILIZE=" + st->value + ": the dissipated energy fraction must be a positive number");
  }
  if (kw.find("FACTOR")) {
    if (!s.controls.stabilize) fail(kw.pos, "*STATIC, FACTOR= needs STABILIZE (the viscous stabilization's damping factor)");
    s.controls.stabilize_factor = real_param(kw, "FACTOR", 0.0);
    if (!(s.controls.stabilize_factor > 0) || !std::isfinite(s.controls.stabilize_factor))
      fail(kw.pos, "*STATIC, FACTOR=" + param(kw, "FACTOR") + ": the damping factor must be a positive number");
  }
}

// What *STATIC and an implicit *DYNAMIC share: the procedure, NLGEOM carried on, DIRECT, and
// without a data line one increment over a period of 1.

Step& DeckParser::begin_static_procedure(const Keyword& kw) {
  Step& s = m_.steps.back();
  // The peer's SOLVER= names its linear equation solver: a direct one and a converged
  // iterative one give the same answer, and halfstep's own is --linear-solver's.
  if (kw.find("SOLVER")) {
    const std::string v = squeeze_upper(param(kw, "SOLVER"));
    static const char* const known[] = {"SPOOLES", "PARDISO", "PASTIX", "ITERATIVESCALING", "ITERATIVECHOLESKY", "SGI",
                                        "TAUCS", "MATRIXSTORAGE"};
    bool ok = false;
    for (const char* k : known) ok = ok || v == k;
    if (!ok || v == "MATRIXSTORAGE")
      fail(kw.pos, kw.display + ", SOLVER=" + param(kw, "SOLVER") +
                       " is not supported (SPOOLES, PARDISO, PASTIX, ITERATIVE SCALING, ITERATIVE CHOLESKY, SGI or "
                       "TAUCS: read, and --linear-solver picks halfstep's own)");
  }
  if (step_perturbation_.line > 0)
    fail(step_perturbation_, "*STEP, PERTURBATION is supported with *FREQUENCY only (a linear perturbation " +
                                 std::string(kw.display) + " step is not)");
  check_step_amplitude(kw);
  if (has_procedure_) fail(kw.pos, "a second procedure in step '" + s.name + "'");
  has_procedure_ = true;
  s.procedure = Procedure::Static;
  if (step_nlgeom_ >= 0) nlgeom_on_ = nlgeom_on_ || step_nlgeom_ == 1;
  if (step_nlgeom_ == 0 && nlgeom_on_)
    fail(s.loc, "*STEP, NLGEOM=NO after a step with NLGEOM=YES: once on, geometric nonlinearity stays on");
  s.nlgeom = nlgeom_on_;
  s.controls.direct = kw.find("DIRECT") != nullptr;
  s.time_period = 1.0;
  s.controls.initial = s.controls.maximum = 1.0;
  s.controls.minimum = 1e-5;
  return s;
}

// "initial increment, time period, minimum increment, maximum increment" (blank: defaults).
void DeckParser::static_data(const Line& line) {
  if (block_lines_ > 1) fail(at_, "*STATIC takes one data line: initial increment, time period, minimum, maximum");
  const auto& f = line.fields;
  at_most_fields(line, 4, "initial increment, time period, minimum increment, maximum increment");
  Step& s = m_.steps.back();
  StaticControls& c = s.controls;
  s.time_period = f.size() > 1 ? real_or(f[1], 1.0, "the time period") : 1.0;
  if (!(s.time_period > 0) || !std::isfinite(s.time_period))
    fail(at_, "the step time period must be positive, got '" + std::string(f[1]) + "'");
  c.initial = !f.empty() ? real_or(f[0], s.time_period, "the initial time increment") : s.time_period;
  if (!(c.initial > 0) || c.initial > s.time_period)
    fail(at_, "the initial time increment must be positive and at most the time period, got '" +
                  std::string(f[0]) + "'");
  c.minimum = f.size() > 2 ? real_or(f[2], std::min(c.initial, 1e-5 * s.time_period), "the minimum time increment")
                           : std::min(c.initial, 1e-5 * s.time_period);
  if (!(c.minimum > 0) || c.minimum > c.initial)
    fail(at_, "the minimum time increment must be positive and at most the initial increment, got '" +
                  std::string(f[2]) + "'");
  c.maximum = f.size() > 3 ? real_or(f[3], s.time_period, "the maximum time increment") : s.time_period;
  if (!(c.maximum >= c.initial))
    fail(at_, "the maximum time increment must be at least the initial increment, got '" + std::string(f[3]) + "'");
  // An implicit dynamic step has no half-increment residual control yet (Abaqus grows its
  // increments by it): its automatic increments never exceed the initial one (Newton's
  // cut-backs may shorten them), so the accuracy is the deck's initial choice; the INC= check
  // below then counts with it. The peer grows them as a static step's, by the iterations
  // alone: --dialect calculix does too.
  if (s.dynamic && dialect_ == Dialect::Abaqus) c.maximum = std::min(c.maximum, c.initial);
  // A step that cannot end within INC= increments is refused here rather than after INC= of
  // them (up to 10^8, a frame each: an initial increment of 1e-300 under DIRECT ran for hours).
  const double step_inc = c.direct ? c.initial : c.maximum;
  const double least = std::ceil(s.time_period / step_inc - 1e-6);
  if (least > c.max_increments) {
    char msg[200];
    std::snprintf(msg, sizeof msg, "the step needs at least %.6g increments (time period %.6g / %s increment %.6g), more than ",
                  least, s.time_period, c.direct ? "the DIRECT" : "the maximum", step_inc);
    fail(at_, msg + std::string("its *STEP's INC=") + std::to_string(c.max_increments) +
                  ": raise INC= (up to 100000000) or the increment");
  }
}

// ---------------------------------------------------------------------------------------
// Boundary conditions and loads

// Before the first *STEP a *BOUNDARY is model data: zero-valued holds that apply from the
// start (see attach_model_boundaries). Between steps it is an error.
void DeckParser::boundary_keyword(const Keyword& kw) {
  if (!in_step_ && !m_.steps.empty())
    fail(kw.pos, "*BOUNDARY between steps: put it inside a *STEP, or before the first *STEP to "
                 "hold dofs from the start");
  allow_params(kw, {"AMPLITUDE", "TYPE", "OP", "FIXED", "TIMEDELAY"});
  const std::string type = squeeze_upper(param(kw, "TYPE"));
  if (!type.empty() && type != "DISPLACEMENT" && type != "VELOCITY")
    fail(kw.pos, "*BOUNDARY, TYPE=" + param(kw, "TYPE") +
                     " is not supported (DISPLACEMENT or VELOCITY)");
  block_velocity_ = type == "VELOCITY";
  const bool op_new = replaces_carried(kw);
  if (in_step_) {
    if (op_new) m_.steps.back().boundary_op_new = true;
  } else if (block_velocity_) {
    fail(kw.pos, "*BOUNDARY, TYPE=VELOCITY before the first *STEP: model-level boundary "
                 "conditions hold displacements at zero; prescribe velocities inside a step");
  }
  block_amplitude_ = reference_amplitude(kw);
  // FIXED: the dofs stay where the step starts (Abaqus and the peer), a history-only form.
  block_fixed_ = static_cast<bool>(kw.find("FIXED"));
  if (block_fixed_ && (!in_step_ || block_velocity_ || !block_amplitude_.empty()))
    fail(kw.pos, "*BOUNDARY, FIXED belongs inside a *STEP, without TYPE=VELOCITY or AMPLITUDE=");
}

void DeckParser::boundary_data(const Line& line) {
  const auto& f = line.fields;
  need_fields(line, 2, "node or node set, first dof[, last dof[, value]] or node or node set, type");
  std::vector<DofRange> ranges;
  double value = 0;
  if (!f[1].empty() && std::isalpha(static_cast<unsigned char>(f[1][0]))) {
    at_most_fields(line, 2, "node or node set, ENCASTRE|PINNED|XSYMM|YSYMM|ZSYMM|XASYMM|YASYMM|ZASYMM");
    if (!bc_type_ranges(squeeze_upper(f[1]), ranges))
      fail(at_, "unknown boundary condition type '" + std::string(f[1]) +
                    "' (expected a dof number or ENCASTRE, PINNED, XSYMM, YSYMM, ZSYMM, XASYMM, "
                    "YASYMM, ZASYMM)");
  } else {
    at_most_fields(line, 4, "node or node set, first dof[, last dof[, value]]");
    const int first = dof(f[1], "first dof");
    const int last = f.size() > 2 && !f[2].empty() ? dof(f[2], "last dof") : first;
    if (last < first)
      fail(at_, "last dof " + std::to_string(last) + " is below first dof " + std::to_string(first));
    value = f.size() > 3 ? real_or(f[3], 0.0, "the prescribed value") : 0.0;
    if (block_fixed_ && f.size() > 3 && !trim(f[3]).empty())
      fail(at_, "*BOUNDARY, FIXED takes no value (the dofs stay where the step starts), got '" + std::string(f[3]) + "'");
    ranges.push_back({first, last});
  }
  Boundary b;
  b.value = value;
  b.amplitude = block_amplitude_;
  b.velocity = block_velocity_;
  b.fixed = block_fixed_;
  b.loc = loc(at_);
  // A nonzero value before the first step (CalculiX decks write them) is prescribed in the
  // first step like a line of its own (attach_model_boundaries).
  if (in_step_) b.nodes = node_targets(f[0], at_);
  for (const DofRange& r : ranges) {
    if (block_fixed_ && r.last > 3)
      fail(at_, "*BOUNDARY, FIXED on rotations (dof " + std::to_string(r.last) + ") is not supported: fix dofs 1-3");
    b.first_dof = r.first;
    b.last_dof = r.last;
    if (in_step_) {
      m_.steps.back().boundaries.push_back(b);
    } else {
      model_boundaries_.push_back(b);
      model_boundary_targets_.push_back(PendingTarget{key(f[0]), at_});
    }
  }
}

// Model-level holds go in front of the first step's own boundary conditions, so that a
// step line for the same dof (later in the list) overrides them, and later steps inherit
// them through the usual step-to-step propagation. As in Abaqus, *BOUNDARY, OP=NEW in the
// first step removes them.
void DeckParser::attach_model_boundaries() {
  if (model_boundaries_.empty()) return;
  Step& first = m_.steps.front();
  if (first.boundary_op_new) {
    m_.warnings.push_back("model-level *BOUNDARY conditions (first at " +
                          model_boundaries_.front().loc.str() + ") are removed by *BOUNDARY, OP=NEW "
                          "in step '" + first.name + "', as in Abaqus");
    return;
  }
  first.boundaries.insert(first.boundaries.begin(), model_boundaries_.begin(), model_boundaries_.end());
}

bool DeckParser::replaces_carried(const Keyword& kw) const {
  const std::string op = squeeze_upper(param(kw, "OP"));
  if (!op.empty() && op != "MOD" && op != "NEW")
    fail(kw.pos, kw.display + ", OP=" + param(kw, "OP") + " is not supported (MOD or NEW)");
  return op == "NEW";
}

void DeckParser::cload_keyword(const Keyword& kw) {
  allow_params(kw, {"AMPLITUDE", "OP", "LOADCASE", "TIMEDELAY"});
  if (replaces_carried(kw)) m_.steps.back().cload_op_new = true;
  block_amplitude_ = reference_amplitude(kw);
  // The peer's LOAD CASE: 1 the real, 2 the imaginary part of a steady-state dynamics load.
  block_imaginary_ = false;
  if (kw.find("LOADCASE")) {
    const std::string c = squeeze_upper(param(kw, "LOADCASE"));
    if (c != "1" && c != "2")
      fail(kw.pos, "*CLOAD, LOAD CASE must be 1 (the real part) or 2 (the imaginary part), got '" +
                       param(kw, "LOADCASE") + "'");
    block_imaginary_ = c == "2";
    const Step& s = m_.steps.back();
    if (block_imaginary_ && !(s.modal && s.modal->steady_state))
      fail(kw.pos, "*CLOAD, LOAD CASE=2 (the imaginary part of a harmonic load) belongs in a *STEADY STATE DYNAMICS "
                   "step, after its procedure line");
  }
}

void DeckParser::cload_data(const Line& line) {
  need_fields(line, 3, "node or node set, dof, magnitude");
  at_most_fields(line, 3, "node or node set, dof, magnitude");
  ConcentratedLoad c;
  c.dof = dof(line.fields[1], "load dof");
  c.magnitude = real(line.fields[2], "the load magnitude");
  c.amplitude = block_amplitude_;
  c.loc = loc(at_);
  c.imaginary = block_imaginary_;
  c.nodes = node_targets(line.fields[0], at_);
  m_.steps.back().cloads.push_back(std::move(c));
}

// *DLOAD and *DSLOAD: the same parameters and the same carried set of pressures.
void DeckParser::dload_keyword(const Keyword& kw) {
  allow_params(kw, {"AMPLITUDE", "OP", "TIMEDELAY"});
  if (replaces_carried(kw)) m_.steps.back().dload_op_new = true;
  block_amplitude_ = reference_amplitude(kw);
}

void DeckParser::dload_data(const Line& line) {
  need_fields(line, 3, "element or element set, load type (P, or P1..P6 on a solid face or planar edge), magnitude");
  const std::string type = squeeze_upper(line.fields[1]);
  if (type == "GRAV") return gravity_data(line);
  if (type == "CENTRIF" || type == "ROTA") return rotation_data(line, type == "CENTRIF");
  if (type == "BX" || type == "BY" || type == "BZ") {
    at_most_fields(line, 3, "element or element set, BX, BY or BZ, force per unit volume");
    DistributedLoad d;
    d.face = kBodyForceLoad;
    d.direction[static_cast<std::size_t>(type[1] - 'X')] = 1.0;
    d.magnitude = real(line.fields[2], "the body force per unit volume");
    d.amplitude = block_amplitude_;
    d.loc = loc(at_);
    d.elements = element_targets(line.fields[0], at_);
    m_.steps.back().dloads.push_back(std::move(d));
    return;
  }
  int face = -1;
  if (type == "P") face = 0;
  else if (type.size() == 2 && type[0] == 'P' && type[1] >= '1' && type[1] <= '6') face = type[1] - '0';
  if (face < 0)
    fail(at_, "*DLOAD load type '" + std::string(line.fields[1]) +
                  "' is not supported (halfstep supports P: pressure on a shell, P1..P6: pressure on a "
                  "solid face or, P1..P4, a planar element's edge, GRAV: gravity, BX, BY, BZ: body forces, and "
                  "CENTRIF, ROTA: rotational body forces)");
  at_most_fields(line, 3, "element or element set, load type, magnitude");
  DistributedLoad d;
  d.face = face;
  d.magnitude = real(line.fields[2], "the pressure magnitude");
  d.amplitude = block_amplitude_;
  d.loc = loc(at_);
  d.elements = element_targets(line.fields[0], at_);
  d.face = face = s8_pressure_face(d.elements, face, std::string(line.fields[1]));
  for (int e : d.elements) check_face(e, face, at_);
  // Abaqus: a positive element-based pressure on a shell acts along the positive normal
  // (opposite to a solid face's, and to a *DSLOAD on the shell's SPOS side, which pushes
  // against it). Face-0 loads push against the normal, as SPOS does: P enters negated.
  if (face == 0) d.magnitude = -d.magnitude;
  m_.steps.back().dloads.push_back(std::move(d));
}

// A face label must exist on the element's kind; shells take P, solids P1..P6 and planar
// elements P1..P4 (their edges).
void DeckParser::check_face(int e, int face, Pos pos) const {
  const auto k = static_cast<std::size_t>(e);
  const std::string name = "element " + std::to_string(m_.elements.id[k]) + " (" + m_.elements.abaqus_type[k] + ")";
  const ElementKindInfo& kind = element_kind(m_.elements.kind[k]);
  if (kind.section_forces && !kind.mid_surface)
    fail(pos, "pressure on beam " + name + ": distributed loads on beams are not supported (use *CLOAD)");
  const bool solid = !kind.mid_surface;
  if (solid && kind.nodes <= 2)
    fail(pos, "pressure on " + name + ": trusses, springs and dashpots have no faces (use *CLOAD)");
  const bool planar = solid && kind.dimension == 2;
  if (face == 0 && planar)
    fail(pos, "pressure type P on planar " + name + ": planar elements take P1..P4 on their edges (or a *SURFACE with S1..S4 and *DSLOAD)");
  if (face == 0 && solid)
    fail(pos, "pressure type P on solid " + name + ": solid faces take P1..P6 (or a *SURFACE with *DSLOAD)");
  if (face > 0 && !solid) fail(pos, "face pressure P" + std::to_string(face) + " on shell " + name + ": shells take P");
  const int faces = element_face_count(kind.nodes, kind.dimension);
  if (face > faces)
    fail(pos, std::string(planar ? "edge " : "face ") + std::to_string(face) + " does not exist on " + name +
                  ", which has " + (planar ? "edges" : "faces") + " 1.." + std::to_string(faces));
}

void DeckParser::surface_keyword(const Keyword& kw) {
  analytic_ = nullptr;
  const std::string type = squeeze_upper(param(kw, "TYPE"));
  if (type == "CYLINDER" || type == "REVOLUTION" || type == "SEGMENTS") return analytic_surface_keyword(kw, type);
  allow_params(kw, {"NAME", "TYPE"});
  if (!type.empty() && type != "ELEMENT" && type != "NODE")
    fail(kw.pos, "*SURFACE, TYPE=" + param(kw, "TYPE") +
                     " is not supported (TYPE=ELEMENT or NODE; CYLINDER or REVOLUTION for a rigid analytical surface)");
  const std::string name = key(required_param(kw, "NAME"));
  if (const auto a = m_.analytical_surfaces.find(name); a != m_.analytical_surfaces.end())
    fail(kw.pos, "surface '" + name + "' is defined twice (first at " + a->second.loc.str() +
                     ", as an analytical surface)");
  const auto [it, inserted] = m_.surfaces.try_emplace(name);
  if (!inserted) fail(kw.pos, "surface '" + name + "' is defined twice (first at " + it->second.loc.str() + ")");
  it->second.name = name;
  it->second.node_based = type == "NODE";
  it->second.loc = loc(kw.pos);
  surface_name_ = name;
}

// Resolved when the model data ends (element sets may be defined later).
void DeckParser::surface_data(const Line& line) {
  if (analytic_) return analytic_surface_data(line);
  if (m_.surfaces.at(surface_name_).node_based) {
    // A node-based surface's optional second field is a contact area, which ties do not use.
    // Not given: 1 as Abaqus has it, or (--dialect calculix) NaN, the peer's: the node's share
    // of the exterior element faces it lies on, resolved where contact is built
    // (discretization/contact.cpp, slave_areas).
    need_fields(line, 1, "node or node set[, area]");
    at_most_fields(line, 2, "node or node set[, area]");
    double area = dialect_ == Dialect::CalculiX ? std::numeric_limits<double>::quiet_NaN() : 1.0;
    if (line.fields.size() == 2 && !line.fields[1].empty()) {
      area = real(line.fields[1], "the node area");
      if (!(area > 0)) fail(at_, "the node area must be positive, got " + format_real(area));
    }
    pending_faces_.push_back(PendingFace{surface_name_, key(line.fields[0]), 0, at_, area});
    return;
  }
  need_fields(line, 2, "element or element set, face label S1..S6 (S1..S4: edges of planar elements), SPOS or SNEG");
  at_most_fields(line, 2, "element or element set, face label S1..S6 (S1..S4: edges of planar elements), SPOS or SNEG");
  const std::string label = squeeze_upper(line.fields[1]);
  if (label == "SPOS" || label == "SNEG") {
    pending_faces_.push_back(PendingFace{surface_name_, key(line.fields[0]), label == "SPOS" ? kSurfaceSpos : kSurfaceSneg, at_});
    return;
  }
  if (label.size() != 2 || label[0] != 'S' || label[1] < '1' || label[1] > '6')
    fail(at_, "*SURFACE face label must be S1..S6 (a solid element face, or S1..S4 a planar element's edge) or "
              "SPOS, SNEG (a shell's side), got '" + std::string(line.fields[1]) + "'");
  pending_faces_.push_back(PendingFace{surface_name_, key(line.fields[0]), label[1] - '0', at_});
}

void DeckParser::surface_end() {
  if (analytic_) return analytic_surface_end();
  need_data_line(m_.surfaces.at(surface_name_).node_based ? "node or node set" : "element or element set, face label");
}

void DeckParser::resolve_surfaces() {
  for (const PendingFace& p : pending_faces_) {
    Surface& s = m_.surfaces.at(p.surface);
    if (p.face == 0) {  // a node-based surface's node or node set
      for (int n : node_targets(p.target, p.pos))
        if (std::find(s.nodes.begin(), s.nodes.end(), n) == s.nodes.end()) {
          s.nodes.push_back(n);
          s.node_areas.push_back(p.area);
        }
      continue;
    }
    for (int e : element_targets(p.target, p.pos)) {
      if ((p.face == kSurfaceSpos || p.face == kSurfaceSneg) && !expanded_s8(e)) {  // a shell's side
        const auto k = static_cast<std::size_t>(e);
        if (!element_kind(m_.elements.kind[k]).mid_surface)
          fail(p.pos, std::string(p.face == kSurfaceSpos ? "SPOS" : "SNEG") + " on element " +
                          std::to_string(m_.elements.id[k]) + " (" + m_.elements.abaqus_type[k] +
                          "), which is not a shell: solids take S1..S6");
        s.elements.push_back(e);
        s.faces.push_back(p.face);
        continue;
      }
      if (expanded_b32(e)) fail(p.pos, "a surface on B32/B32R element " + std::to_string(m_.elements.id[static_cast<std::size_t>(e)]) + ": not supported");
      const int face = p.face == kSurfaceSpos ? 2 : p.face == kSurfaceSneg ? 1 : p.face;  // S8/S8R: the brick's
      check_face(e, face, p.pos);
      s.elements.push_back(e);
      s.faces.push_back(face);
    }
  }
  pending_faces_.clear();
  for (const auto& [name, s] : m_.surfaces)
    if (s.elements.empty() && s.nodes.empty())
      fail(s.loc, "surface '" + name + "' has no " + (s.node_based ? "nodes" : "faces"));
}

void DeckParser::check_constraint_surfaces() const {
  const auto planar_edges = [&](const std::string& name) {
    const auto it = m_.surfaces.find(name);
    if (it == m_.surfaces.end()) return false;  // reported where the surface is resolved
    for (int e : it->second.elements)
      if (const ElementKindInfo& kind = element_kind(m_.elements.kind[static_cast<std::size_t>(e)]);
          !kind.mid_surface && kind.dimension == 2)
        return true;
    return false;
  };
  // NURBS solids' faces are patches of control points, not Lagrange faces (their node order is
  // the tensor order, and only the corner points lie on the body): pressures only.
  const auto nurbs_faces = [&](const std::string& name) {
    const auto it = m_.surfaces.find(name);
    if (it == m_.surfaces.end()) return false;
    for (int e : it->second.elements)
      for (const NurbsPatchDef& d : m_.nurbs_patches)
        if (e >= d.first_element && e < d.first_element + d.num_elements) return true;
    return false;
  };
  const std::string why = "' holds edges of planar elements: ties and couplings take 3-D solid faces (edges take pressures only)";
  const std::string why_nurbs = "' holds faces of NURBS elements (*NURBS PATCH): ties and couplings interpolate on "
                                "Lagrange element faces; NURBS faces take pressures only";
  for (const Tie& t : m_.ties)
    for (const std::string& s : {t.slave, t.master}) {
      if (planar_edges(s)) fail(t.loc, "*TIE " + t.name + ": surface '" + s + why);
      if (nurbs_faces(s)) fail(t.loc, "*TIE " + t.name + ": surface '" + s + why_nurbs);
    }
  for (const PendingBody& b : pending_bodies_) {
    if (b.coupling && planar_edges(b.surface)) fail(b.pos, "*COUPLING " + b.name + ": surface '" + b.surface + why);
    if (b.coupling && nurbs_faces(b.surface)) fail(b.pos, "*COUPLING " + b.name + ": surface '" + b.surface + why_nurbs);
  }
}

void DeckParser::dsload_data(const Line& line) {
  // The load type first: a traction (TRSHR, TRVEC: six fields) is an unsupported type, not a
  // line with too many fields.
  if (line.fields.size() >= 2 && squeeze_upper(line.fields[1]) != "P")
    fail(at_, "*DSLOAD load type '" + std::string(line.fields[1]) +
                  "' is not supported (halfstep supports P: pressure; surface tractions TRSHR, TRVEC and "
                  "user loads are not)");
  need_fields(line, 3, "surface, P, magnitude");
  at_most_fields(line, 3, "surface, P, magnitude");
  const std::string name = key(line.fields[0]);
  refuse_analytical(name, loc(at_), "*DSLOAD");
  const auto it = m_.surfaces.find(name);
  if (it == m_.surfaces.end()) fail(at_, "surface '" + name + "' is not defined");
  if (it->second.node_based) fail(at_, "*DSLOAD on node-based surface '" + name + "': pressure needs element faces");
  const double magnitude = real(line.fields[2], "the pressure magnitude");
  // A shell's SPOS side takes the pressure as *DLOAD, P does (pushing against the normal), its
  // SNEG side the opposite.
  for (int side : {kSurfaceSpos, kSurfaceSneg}) {
    DistributedLoad d;
    d.face = 0;
    d.magnitude = side == kSurfaceSpos ? magnitude : -magnitude;
    d.amplitude = block_amplitude_;
    d.loc = loc(at_);
    for (std::size_t i = 0; i < it->second.elements.size(); ++i)
      if (it->second.faces[i] == side) d.elements.push_back(it->second.elements[i]);
    if (!d.elements.empty()) m_.steps.back().dloads.push_back(std::move(d));
  }
  // One load per face label, as *DLOAD, Pn would give.
  for (int face = 1; face <= 6; ++face) {
    DistributedLoad d;
    d.face = face;
    d.magnitude = magnitude;
    d.amplitude = block_amplitude_;
    d.loc = loc(at_);
    for (std::size_t i = 0; i < it->second.elements.size(); ++i)
      if (it->second.faces[i] == face) d.elements.push_back(it->second.elements[i]);
    if (!d.elements.empty()) m_.steps.back().dloads.push_back(std::move(d));
  }
}

}  // namespace halfstep::inp
