// The implicit procedures: *FREQUENCY (solver/frequency_step.cpp runs it) and *DYNAMIC without
// EXPLICIT (the static step's Newton iterations with inertia, solver/static_dynamics.cpp).
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

// Abaqus's and the peer's parameters. The eigensolver and linear solver they name do not
// change the answer (every run uses shift-invert Lanczos on the static step's sparse
// factorization), so their values are accepted; STORAGE=YES keeps the modes for a later
// modal step, which halfstep does not have (a *MODAL DYNAMIC is refused where it stands).
void DeckParser::frequency_keyword(const Keyword& kw) {
  allow_params(kw, {"EIGENSOLVER", "SOLVER", "STORAGE", "NORMALIZATION", "GLOBAL", "CYCMPC", "MATRIXSTORAGE"});
  Step& s = m_.steps.back();
  if (has_procedure_) fail(kw.pos, "a second procedure in step '" + s.name + "'");
  has_procedure_ = true;
  s.procedure = Procedure::Static;
  // A perturbation about the base state: geometric nonlinearity is the base's (a NLGEOM
  // base enters through its stresses in the tangent), and *STEP, NLGEOM does not change it.
  // The peer's *STEP, PERTURBATION asks for the base's stresses in the tangent also after a
  // geometrically linear step: the tangent about the current configuration, as under NLGEOM.
  s.nlgeom = nlgeom_on_ || step_perturbation_.line > 0;
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
  // Not a time span: the step leaves the analysis time where it was.
  s.time_period = 1.0;
  s.controls.initial = s.controls.maximum = 1.0;
  s.controls.minimum = 1.0;
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

}  // namespace halfstep::inp
