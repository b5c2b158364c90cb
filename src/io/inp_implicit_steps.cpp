// The implicit procedures: *FREQUENCY (solver/frequency_step.cpp runs it), *DYNAMIC without
// EXPLICIT (the static step's Newton iterations with inertia, solver/static_dynamics.cpp) and
// *MODAL DYNAMIC and *STEADY STATE DYNAMICS with *MODAL DAMPING (solver/modal_dynamics.cpp,
// solver/steady_state_dynamics.cpp).
#include <cmath>
#include <string>

#include "io/inp_parser.hpp"
#include "io/inp_text.hpp"

namespace halfstep::inp {

// Hilber-Hughes-Taylor implicit dynamics. ALPHA in [-1/3, 0] (Abaqus's and the peer's default
// -0.05); APPLICATION=TRANSIENT FIDELITY is that default, the others change the scheme.
void DeckParser::implicit_dynamic_keyword(const Keyword& kw) {
  allow_params(kw, {"DIRECT", "ALPHA", "APPLICATION", "INITIAL", "SOLVER"});
  ImplicitDynamics d;
  d.loc = loc(kw.pos);
  if (kw.find("ALPHA")) {
    d.alpha = real_param(kw, "ALPHA", -0.05);
    if (!(d.alpha >= -1.0 / 3.0 && d.alpha <= 0))
      fail(kw.pos, "*DYNAMIC, ALPHA must be between -1/3 and 0 (Hilber-Hughes-Taylor), got '" + param(kw, "ALPHA") + "'");
  }
  const std::string app = squeeze_upper(param(kw, "APPLICATION"));
  if (!app.empty() && app != "TRANSIENTFIDELITY")
    fail(kw.pos, "*DYNAMIC, APPLICATION=" + param(kw, "APPLICATION") +
                     " is not supported (TRANSIENT FIDELITY: Hilber-Hughes-Taylor with ALPHA=)");
  if (kw.find("INITIAL") && squeeze_upper(param(kw, "INITIAL")) != "YES")
    fail(kw.pos, "*DYNAMIC, INITIAL=" + param(kw, "INITIAL") +
                     " is not supported (the initial accelerations are computed, INITIAL=YES)");
  Step& s = begin_static_procedure(kw);
  s.dynamic = d;
}

// The current step as a perturbation about the base state (*FREQUENCY, *BUCKLE): run on the
// static machinery; geometric nonlinearity is the base's (a NLGEOM base enters through its
// stresses in the tangent) and *STEP, NLGEOM does not change it. The peer's *STEP,
// PERTURBATION asks for the base's stresses also after a geometrically linear step: the
// tangent about the current configuration, as under NLGEOM. Not a time span: the step leaves
// the analysis time where it was (one unit "increment").
Step& DeckParser::begin_perturbation_procedure(const Keyword& kw) {
  Step& s = m_.steps.back();
  check_step_amplitude(kw);
  if (has_procedure_) fail(kw.pos, "a second procedure in step '" + s.name + "'");
  has_procedure_ = true;
  s.procedure = Procedure::Static;
  s.nlgeom = nlgeom_on_ || step_perturbation_.line > 0;
  s.time_period = 1.0;
  s.controls.initial = s.controls.maximum = 1.0;
  s.controls.minimum = 1.0;
  return s;
}

// Abaqus's and the peer's parameters. The eigensolver and linear solver they name do not
// change the answer (every run uses shift-invert Lanczos on the static step's sparse
// factorization), so their values are accepted; STORAGE=YES keeps the modes for a later
// modal step (every frequency step's modes are kept for the next *MODAL DYNAMIC).
void DeckParser::frequency_keyword(const Keyword& kw) {
  allow_params(kw, {"EIGENSOLVER", "SOLVER", "STORAGE", "NORMALIZATION", "GLOBAL", "CYCMPC", "MATRIXSTORAGE"});
  Step& s = begin_perturbation_procedure(kw);
  FrequencyRequest f;
  f.loc = loc(kw.pos);
  const std::string norm = squeeze_upper(param(kw, "NORMALIZATION"));
  if (!norm.empty() && norm != "MASS" && norm != "DISPLACEMENT")
    fail(kw.pos, "*FREQUENCY, NORMALIZATION must be MASS or DISPLACEMENT, got '" + param(kw, "NORMALIZATION") + "'");
  f.mass_normalized = norm != "DISPLACEMENT";
  for (const char* k : {"GLOBAL", "CYCMPC"})
    if (kw.find(k) && squeeze_upper(param(kw, k)) != "NO")
      fail(kw.pos, std::string("*FREQUENCY, ") + k + "=" + param(kw, k) +
                       ": cyclic symmetry is not supported (GLOBAL=NO and CYCMPC=NO only)");
  if (kw.find("MATRIXSTORAGE"))
    fail(kw.pos, "*FREQUENCY, MATRIXSTORAGE writes the peer's stiffness and mass matrices to files: not supported");
  s.frequency = f;
}

// "number of eigenvalues[, lowest frequency[, highest frequency[, shift]]]" (cycles/time).
void DeckParser::frequency_data(const Line& line) {
  if (block_lines_ > 1) fail(at_, "*FREQUENCY takes one data line: number of eigenvalues[, lowest, highest frequency]");
  const auto& f = line.fields;
  at_most_fields(line, 4, "number of eigenvalues[, lowest frequency, highest frequency, shift]");
  FrequencyRequest& r = *m_.steps.back().frequency;
  if (f.empty() || trim(f[0]).empty())
    fail(at_, "*FREQUENCY: the number of eigenvalues is required (Abaqus's Lanczos default of all modes in a "
              "range is not supported)");
  const std::int64_t n = integer(f[0], "the number of eigenvalues");
  if (n < 1 || n > 10000) fail(at_, "*FREQUENCY: the number of eigenvalues must be 1 to 10000, got '" + std::string(f[0]) + "'");
  r.modes = static_cast<int>(n);
  r.min_frequency = f.size() > 1 ? real_or(f[1], 0.0, "the lowest frequency of interest") : 0.0;
  r.max_frequency = f.size() > 2 ? real_or(f[2], 0.0, "the highest frequency of interest") : 0.0;
  if (!(r.min_frequency >= 0) || !std::isfinite(r.min_frequency))
    fail(at_, "*FREQUENCY: the lowest frequency must be zero or positive, got '" + std::string(f[1]) + "'");
  if (!(r.max_frequency >= 0) || !std::isfinite(r.max_frequency) ||
      (r.max_frequency > 0 && r.max_frequency <= r.min_frequency))
    fail(at_, "*FREQUENCY: the highest frequency must be blank or above the lowest, got '" + std::string(f[2]) + "'");
  if (f.size() > 3 && !trim(f[3]).empty() && real(f[3], "the shift point") != 0)
    fail(at_, "*FREQUENCY: a shift point is not supported (the modes are taken from zero up; hold the model "
              "against rigid motion)");
}

void DeckParser::frequency_end() { need_data_line("the number of eigenvalues"); }

// Eigenvalue buckling (solver/buckle_step.cpp): the factors by which the step's loads, added
// to the base state, make the tangent singular. The eigensolver a deck names does not change
// the answer (Lanczos on the static step's factorization), so its values are accepted.
void DeckParser::buckle_keyword(const Keyword& kw) {
  allow_params(kw, {"EIGENSOLVER", "SOLVER"});
  Step& s = begin_perturbation_procedure(kw);
  BuckleRequest b;
  b.loc = loc(kw.pos);
  s.buckle = b;
  const std::string solver = squeeze_upper(param(kw, "EIGENSOLVER"));
  if (!solver.empty() && solver != "SUBSPACE" && solver != "LANCZOS")
    fail(kw.pos, "*BUCKLE, EIGENSOLVER must be SUBSPACE or LANCZOS, got '" + param(kw, "EIGENSOLVER") + "'");
  buckle_lanczos_ = solver == "LANCZOS";
}

// "number of factors[, second field[, Lanczos vectors[, iterations]]]": the second field is
// Abaqus's largest eigenvalue of interest (its SUBSPACE layout, the default), and the peer's
// accuracy (its ARPACK tolerance); the last two tune the eigensolver and are read only for
// their form. Abaqus's EIGENSOLVER=LANCZOS layout: number, minimum, maximum, block size, steps.
void DeckParser::buckle_data(const Line& line) {
  if (block_lines_ > 1) fail(at_, "*BUCKLE takes one data line: number of buckling factors[, ...]");
  const auto& f = line.fields;
  if (!(buckle_lanczos_ && dialect_ == Dialect::Abaqus))
    at_most_fields(line, 4, "number of buckling factors[, largest factor or accuracy, vectors, iterations]");
  BuckleRequest& r = *m_.steps.back().buckle;
  if (f.empty() || trim(f[0]).empty()) fail(at_, "*BUCKLE: the number of buckling factors is required");
  const std::int64_t n = integer(f[0], "the number of buckling factors");
  if (n < 1 || n > 1000) fail(at_, "*BUCKLE: the number of buckling factors must be 1 to 1000, got '" + std::string(f[0]) + "'");
  r.modes = static_cast<int>(n);
  if (buckle_lanczos_ && dialect_ == Dialect::Abaqus) {
    at_most_fields(line, 5, "number of buckling factors[, minimum, maximum of interest, block size, block steps]");
    if (f.size() > 1 && !trim(f[1]).empty() && real(f[1], "the minimum eigenvalue of interest") != 0)
      fail(at_, "*BUCKLE, EIGENSOLVER=LANCZOS: a minimum eigenvalue of interest is not supported (the factors are "
                "taken from the smallest magnitude up)");
    if (f.size() > 2 && !trim(f[2]).empty()) {
      r.max_factor = real(f[2], "the maximum eigenvalue of interest");
      if (!(r.max_factor > 0) || !std::isfinite(r.max_factor))
        fail(at_, "*BUCKLE: the maximum eigenvalue of interest must be a positive number, got '" + std::string(f[2]) + "'");
    }
    return;
  }
  if (f.size() > 1 && !trim(f[1]).empty()) {
    const double v = real(f[1], dialect_ == Dialect::CalculiX ? "the accuracy" : "the largest eigenvalue of interest");
    if (!(v > 0) || !std::isfinite(v))
      fail(at_, std::string("*BUCKLE: ") + (dialect_ == Dialect::CalculiX ? "the accuracy" : "the largest eigenvalue of interest") +
                    " must be a positive number, got '" + std::string(f[1]) + "'");
    (dialect_ == Dialect::CalculiX ? r.accuracy : r.max_factor) = v;
  }
  for (std::size_t k = 2; k < f.size(); ++k)
    if (!trim(f[k]).empty()) {
      const std::int64_t v = integer(f[k], k == 2 ? "the number of Lanczos vectors" : "the number of iterations");
      if (v < 1) fail(at_, std::string("*BUCKLE: ") + (k == 2 ? "the number of Lanczos vectors" : "the number of iterations") +
                               " must be positive, got '" + std::string(f[k]) + "'");
    }
}

void DeckParser::buckle_end() { need_data_line("the number of buckling factors"); }

// The peer's and Abaqus's parameters: DIRECT (YES, the default: fixed increments; the modal
// equations are integrated exactly for loads linear over an increment, so the increment only
// samples the amplitudes and the output) and, with DIRECT=NO, DELTMX (the peer's automatic
// increments: the largest change of a nodal force within one); STEADY STATE and CYCLIC
// SYMMETRY are other analyses.
void DeckParser::modal_dynamic_keyword(const Keyword& kw) {
  allow_params(kw, {"DIRECT", "DELTMX", "SOLVER", "STEADYSTATE", "CYCLICSYMMETRY", "NSET", "CONTINUE"});
  for (const char* k : {"STEADYSTATE", "CYCLICSYMMETRY", "NSET"})
    if (kw.find(k))
      fail(kw.pos, std::string("*MODAL DYNAMIC, ") + (std::string(k) == "STEADYSTATE" ? "STEADY STATE" : k) +
                       ": not supported (a transient modal response from the first increment, without cyclic symmetry)");
  if (kw.find("CONTINUE") && squeeze_upper(param(kw, "CONTINUE")) != "NO")
    fail(kw.pos, "*MODAL DYNAMIC, CONTINUE=YES is not supported (each modal step starts at rest)");
  bool automatic = false;
  if (kw.find("DIRECT")) {
    const std::string d = squeeze_upper(param(kw, "DIRECT"));
    if (!d.empty() && d != "YES" && d != "NO")
      fail(kw.pos, "*MODAL DYNAMIC, DIRECT must be YES or NO, got '" + param(kw, "DIRECT") + "'");
    automatic = d == "NO";
  }
  const double deltmx = kw.find("DELTMX") ? real_param(kw, "DELTMX", 0.0) : 0.0;
  if (automatic && !(deltmx > 0 && std::isfinite(deltmx)))
    fail(kw.pos, "*MODAL DYNAMIC, DIRECT=NO needs DELTMX= (a positive number: the largest change of a nodal force "
                 "within one increment), got '" + param(kw, "DELTMX") + "'");
  Step& s = begin_modal_procedure(kw, false);
  if (automatic) s.modal->deltmx = deltmx;
}

// A procedure on the last frequency step's modes (*MODAL DYNAMIC, *STEADY STATE DYNAMICS), run
// on the static machinery: linear about the reference configuration, its increments fixed.
Step& DeckParser::begin_modal_procedure(const Keyword& kw, bool steady_state) {
  ModalDynamics d;
  d.loc = loc(kw.pos);
  d.steady_state = steady_state;
  Step& s = begin_static_procedure(kw);
  if (s.nlgeom)
    fail(kw.pos, kw.display + " with NLGEOM (on since an earlier step): a modal response is linear about the "
                              "reference configuration; run it in a deck without NLGEOM");
  s.controls.direct = true;
  s.modal = d;
  return s;
}

// "time increment, time period[, minimum, maximum increment]": the bounds act with DIRECT=NO
// (the peer's defaults: the smaller of the first increment and 1e-10 of the period, no maximum).
void DeckParser::modal_dynamic_data(const Line& line) {
  if (block_lines_ > 1) fail(at_, "*MODAL DYNAMIC takes one data line: time increment, time period");
  need_fields(line, 2, "time increment, time period");
  at_most_fields(line, 4, "time increment, time period[, minimum increment, maximum increment]");
  const double min_inc = line.fields.size() > 2 ? real_or(line.fields[2], 0.0, "the minimum time increment") : 0.0;
  const double max_inc = line.fields.size() > 3 ? real_or(line.fields[3], 0.0, "the maximum time increment") : 0.0;
  Step& s = m_.steps.back();
  const double dt = real(line.fields[0], "the time increment");
  s.time_period = real(line.fields[1], "the time period");
  if (!(s.time_period > 0) || !std::isfinite(s.time_period))
    fail(at_, "*MODAL DYNAMIC: the time period must be positive, got '" + std::string(line.fields[1]) + "'");
  if (!(dt > 0) || !(dt <= s.time_period))
    fail(at_, "*MODAL DYNAMIC: the time increment must be positive and at most the time period, got '" +
                  std::string(line.fields[0]) + "'");
  s.controls.initial = s.controls.minimum = s.controls.maximum = dt;
  ModalDynamics& md = *s.modal;
  if (md.deltmx > 0) {
    if (!(min_inc >= 0) || !std::isfinite(min_inc) || !(max_inc >= 0) || !std::isfinite(max_inc))
      fail(at_, "*MODAL DYNAMIC: the minimum and maximum time increments must be zero (the default) or positive");
    md.min_increment = min_inc > 0 ? min_inc : std::min(dt, 1e-10 * s.time_period);
    md.max_increment = max_inc > 0 ? max_inc : s.time_period;
    if (md.min_increment > dt || md.max_increment < dt)
      fail(at_, "*MODAL DYNAMIC: the time increment must lie between the minimum and the maximum increment");
    return;  // their number is known once the loads are (run_modal_dynamic_step checks INC=)
  }
  // Refused here rather than after INC= increments (as a static step's count).
  const double increments = std::ceil(s.time_period / dt - 1e-9);
  if (increments > s.controls.max_increments)
    fail(at_, "*MODAL DYNAMIC: the step takes " + std::to_string(static_cast<long long>(std::min(increments, 1e18))) +
                  " increments (time period / time increment), more than its *STEP's INC=" +
                  std::to_string(s.controls.max_increments) + ": raise INC= (up to 100000000) or the increment");
}

void DeckParser::modal_dynamic_end() { need_data_line("time increment, time period"); }

// The peer's harmonic form (HARMONIC=YES, its default) on the modes of the last *FREQUENCY step;
// SOLVER= names the peer's sparse solver (the answer does not depend on it). The time-domain
// form (HARMONIC=NO: a periodic load expanded in Fourier terms) is refused by name.
void DeckParser::steady_state_keyword(const Keyword& kw) {
  allow_params(kw, {"HARMONIC", "SOLVER"});
  const std::string harmonic = squeeze_upper(param(kw, "HARMONIC"));
  if (harmonic == "NO")
    fail(kw.pos, "*STEADY STATE DYNAMICS, HARMONIC=NO (a periodic load given in time, expanded in Fourier terms) is "
                 "not supported yet; HARMONIC=YES (loads varying as e^(i omega t)) runs");
  if (!harmonic.empty() && harmonic != "YES")
    fail(kw.pos, "*STEADY STATE DYNAMICS, HARMONIC must be YES or NO, got '" + param(kw, "HARMONIC") + "'");
  // A perturbation: the analysis time does not move (its frames are at their frequencies),
  // and its one "increment" per frequency is the unit period.
  Step& s = begin_modal_procedure(kw, true);
  s.controls.minimum = 1.0;
}

// "lower frequency, upper frequency[, number of points (default 20)[, bias (default 3)]]"
// (cycles/time). As in the peer, fewer than 2 points or a bias below 1 take the defaults.
void DeckParser::steady_state_data(const Line& line) {
  if (block_lines_ > 1) fail(at_, "*STEADY STATE DYNAMICS takes one data line: lower frequency, upper frequency[, points, bias]");
  need_fields(line, 2, "lower frequency, upper frequency[, number of points, bias]");
  at_most_fields(line, 4, "lower frequency, upper frequency[, number of points, bias]");
  ModalDynamics& d = *m_.steps.back().modal;
  const auto& f = line.fields;
  d.low_frequency = real(f[0], "the lower frequency");
  d.high_frequency = real(f[1], "the upper frequency");
  if (!(d.low_frequency >= 0) || !std::isfinite(d.low_frequency))
    fail(at_, "*STEADY STATE DYNAMICS: the lower frequency must be zero or positive, got '" + std::string(f[0]) + "'");
  if (!(d.high_frequency >= d.low_frequency) || !std::isfinite(d.high_frequency))
    fail(at_, "*STEADY STATE DYNAMICS: the upper frequency must be at least the lower one, got '" + std::string(f[1]) +
                  "'");
  if (f.size() > 2 && !trim(f[2]).empty()) {
    const std::int64_t n = integer(f[2], "the number of data points");
    if (n > 100000)
      fail(at_, "*STEADY STATE DYNAMICS: at most 100000 data points per interval, got '" + std::string(f[2]) + "'");
    d.points = n < 2 ? 20 : static_cast<int>(n);
  }
  if (f.size() > 3 && !trim(f[3]).empty()) {
    const double b = real(f[3], "the bias");
    if (!std::isfinite(b) || b > 1e6) fail(at_, "*STEADY STATE DYNAMICS: the bias must be a finite number up to 1e6, got '" + std::string(f[3]) + "'");
    d.bias = b < 1 ? 3.0 : b;
  }
}

void DeckParser::steady_state_end() { need_data_line("lower frequency, upper frequency"); }

// *MODAL DAMPING inside a *MODAL DYNAMIC step: MODAL=DIRECT (the default; lines "first mode,
// last mode, critical damping ratio") or RAYLEIGH (", , alpha, beta"). The peer's default
// DEFINITION=MODE NUMBERS only.
void DeckParser::modal_damping_keyword(const Keyword& kw) {
  allow_params(kw, {"MODAL", "RAYLEIGH", "DEFINITION", "STRUCTURAL", "VISCOUS"});
  Step& s = m_.steps.back();
  if (!s.modal)
    fail(kw.pos, "*MODAL DAMPING belongs in a *MODAL DYNAMIC or *STEADY STATE DYNAMICS step, after its procedure line");
  const std::string modal = squeeze_upper(param(kw, "MODAL"));
  if (!modal.empty() && modal != "DIRECT")
    fail(kw.pos, "*MODAL DAMPING, MODAL=" + param(kw, "MODAL") + " is not supported (DIRECT or RAYLEIGH)");
  const std::string def = squeeze_upper(param(kw, "DEFINITION"));
  if (!def.empty() && def != "MODENUMBERS")
    fail(kw.pos, "*MODAL DAMPING, DEFINITION=" + param(kw, "DEFINITION") + " is not supported (MODE NUMBERS)");
  if (kw.find("STRUCTURAL"))
    fail(kw.pos, "*MODAL DAMPING, STRUCTURAL is not supported (viscous damping ratios or RAYLEIGH)");
  ModalDynamics& d = *s.modal;
  d.rayleigh = kw.find("RAYLEIGH") != nullptr;
  d.damping.clear();
  d.rayleigh_alpha = d.rayleigh_beta = 0;
}

void DeckParser::modal_damping_data(const Line& line) {
  ModalDynamics& d = *m_.steps.back().modal;
  const auto& f = line.fields;
  if (d.rayleigh) {
    if (block_lines_ > 1) fail(at_, "*MODAL DAMPING, RAYLEIGH takes one data line: , , alpha, beta");
    at_most_fields(line, 4, ", , alpha, beta");
    d.rayleigh_alpha = f.size() > 2 ? real_or(f[2], 0.0, "the mass-proportional factor alpha") : 0.0;
    d.rayleigh_beta = f.size() > 3 ? real_or(f[3], 0.0, "the stiffness-proportional factor beta") : 0.0;
    if (!(d.rayleigh_alpha >= 0) || !(d.rayleigh_beta >= 0) || !std::isfinite(d.rayleigh_alpha) ||
        !std::isfinite(d.rayleigh_beta))
      fail(at_, "*MODAL DAMPING, RAYLEIGH: alpha and beta must be zero or positive");
    return;
  }
  need_fields(line, 3, "first mode, last mode, critical damping ratio");
  at_most_fields(line, 3, "first mode, last mode, critical damping ratio");
  ModalDampingRange r;
  r.loc = loc(at_);
  const std::int64_t first = integer(f[0], "the first mode");
  const std::int64_t last = trim(f[1]).empty() ? first : integer(f[1], "the last mode");
  if (first < 1 || last < first || last > 100000)
    fail(at_, "*MODAL DAMPING: modes must run from a first mode >= 1 to a last mode >= it, got '" + std::string(f[0]) +
                  "', '" + std::string(f[1]) + "'");
  r.first = static_cast<int>(first);
  r.last = static_cast<int>(last);
  r.ratio = real(f[2], "the critical damping ratio");
  if (!(r.ratio >= 0) || !std::isfinite(r.ratio))
    fail(at_, "*MODAL DAMPING: the critical damping ratio must be zero or positive, got '" + std::string(f[2]) + "'");
  d.damping.push_back(r);
}

void DeckParser::modal_damping_end() {
  need_data_line(m_.steps.back().modal->rayleigh ? ", , alpha, beta" : "first mode, last mode, critical damping ratio");
}

// Abaqus's default variation of a step's loads: RAMP in a *STATIC step, STEP in an implicit
// *DYNAMIC one, which is what halfstep does there; other values would change when loads act.
void DeckParser::check_step_amplitude(const Keyword& kw) const {
  if (step_amplitude_.line == 0) return;
  if (squeeze_upper(kw.display) == "*STATIC" && step_amplitude_value_ == "RAMP") return;
  if (squeeze_upper(kw.display) == "*DYNAMIC" && !kw.find("EXPLICIT") && step_amplitude_value_ == "STEP") return;
  fail(step_amplitude_, "*STEP, AMPLITUDE=" + step_amplitude_value_ + " with " + kw.display +
                            " is not supported (the procedure's default is read: RAMP in a *STATIC step, STEP in an "
                            "implicit *DYNAMIC one; give a load varying otherwise its own *AMPLITUDE)");
}

}  // namespace halfstep::inp
