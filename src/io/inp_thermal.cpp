// Thermal loads: *EXPANSION (a material option), *INITIAL CONDITIONS, TYPE=TEMPERATURE's data
// lines and *TEMPERATURE (a step's nodal temperatures). The step loads turn them into each
// element's temperature change (discretization/step_loads.cpp).
#include <array>
#include <cmath>
#include <string>

#include "io/inp_parser.hpp"
#include "io/inp_text.hpp"

namespace halfstep::inp {

void DeckParser::expansion_keyword(const Keyword& kw) {
  allow_params(kw, {"TYPE", "ZERO", "DEPENDENCIES"});
  const std::string type = squeeze_upper(param(kw, "TYPE"));
  if (!type.empty() && type != "ISO" && type != "ORTHO")
    fail(kw.pos, "*EXPANSION, TYPE=" + upper(param(kw, "TYPE")) + " is not supported (ISO or ORTHO)");
  if (real_param(kw, "DEPENDENCIES", 0.0) != 0.0)
    fail(kw.pos, "*EXPANSION, DEPENDENCIES: field-variable dependence is not supported");
  // ZERO= is the reference temperature of the coefficients: with constant ones it cancels
  // from alpha (theta - theta_0) - alpha (theta_initial - theta_0).
  (void)real_param(kw, "ZERO", 0.0);
  if (material_->has_expansion) fail(kw.pos, "material '" + material_->name + "' has a second *EXPANSION");
  expansion_ortho_ = type == "ORTHO";
  material_->expansion_loc = loc(kw.pos);
}

// A temperature column is read, as *ELASTIC's: the same coefficients on every line are
// constant in temperature; coefficients that change with it are refused.
void DeckParser::expansion_data(const Line& line) {
  const char* form = expansion_ortho_ ? "alpha11, alpha22, alpha33[, temperature]" : "alpha[, temperature]";
  const std::size_t n = expansion_ortho_ ? 3 : 1;
  need_fields(line, n, form);
  at_most_fields(line, n + 1, form);
  std::array<double, 3> alpha{};
  for (std::size_t i = 0; i < 3; ++i) {
    const std::size_t k = expansion_ortho_ ? i : 0;
    const double a = real(line.fields[k], "a thermal expansion coefficient");
    // |alpha dtheta| near 1 would fold an element inside out; real coefficients are < 1e-3.
    if (!(std::fabs(a) < 1.0))
      fail(at_, "*EXPANSION: a thermal expansion coefficient must be a number below 1 in size, got '" +
                    std::string(line.fields[k]) + "'");
    alpha[i] = a;
  }
  if (line.fields.size() > n && !line.fields[n].empty()) (void)real(line.fields[n], "the temperature");
  if (block_lines_ > 1) {
    if (alpha != material_->expansion)
      fail(at_, "*EXPANSION: other coefficients at a second temperature: temperature-dependent expansion is not "
                "supported yet (give one line, or the same coefficients on every line)");
    return;
  }
  material_->expansion = alpha;
  material_->has_expansion = true;
}

void DeckParser::expansion_end() {
  need_data_line(expansion_ortho_ ? "alpha11, alpha22, alpha33" : "alpha");
}

TemperatureLine DeckParser::temperature_line(const Line& line, const char* what) {
  need_fields(line, 2, "node or node set, temperature");
  at_most_fields(line, 2, "node or node set, temperature (temperatures through the thickness of shells and beams "
                          "are not supported)");
  TemperatureLine t;
  t.value = real(line.fields[1], what);
  t.loc = loc(at_);
  return t;
}

void DeckParser::initial_temperature_data(const Line& line) {
  m_.initial_temperatures.push_back(temperature_line(line, "the initial temperature"));
  temperature_targets_.push_back(PendingTarget{key(line.fields[0]), at_});
}

// *TEMPERATURE: nodal temperatures of a step (a predefined field that strains materials
// with *EXPANSION), carried like loads.
void DeckParser::temperature_keyword(const Keyword& kw) {
  allow_params(kw, {"AMPLITUDE", "OP"});
  if (replaces_carried(kw)) m_.steps.back().temperature_op_new = true;
  block_amplitude_ = reference_amplitude(kw);
}

void DeckParser::temperature_data(const Line& line) {
  TemperatureLine t = temperature_line(line, "the temperature");
  t.amplitude = block_amplitude_;
  t.nodes = node_targets(line.fields[0], at_);
  m_.steps.back().temperatures.push_back(std::move(t));
}

}  // namespace halfstep::inp
