// *DLOAD body forces that act on an element's mass: GRAV (gravity) and the rotational
// CENTRIF and ROTA (their axis and magnitude); the step loads lump them onto the nodes
// (discretization/step_loads.cpp).
#include <array>
#include <cmath>
#include <string>

#include "io/inp_parser.hpp"
#include "io/inp_text.hpp"

namespace halfstep::inp {

// *DLOAD type GRAV: gravity on an element set, or on the whole model (MASS elements included)
// when the first field is blank, as Abaqus reads it. The direction is normalized: the
// magnitude is the acceleration.
void DeckParser::gravity_data(const Line& line) {
  const char* form = "element or element set (blank: the whole model), GRAV, magnitude, direction x, y, z";
  need_fields(line, 6, form);
  at_most_fields(line, 6, form);
  DistributedLoad d;
  d.face = kGravityLoad;
  d.magnitude = real(line.fields[2], "the gravity magnitude (the acceleration)");
  d.direction = unit_direction(line, 3, "GRAV", "the gravity direction", "the direction of the acceleration, such as 0, 0, -1");
  d.amplitude = block_amplitude_;
  d.loc = loc(at_);
  body_load_targets(line, d);
  m_.steps.back().dloads.push_back(std::move(d));
}

// *DLOAD types CENTRIF (magnitude omega^2) and ROTA (magnitude alpha, the angular
// acceleration): an element set, or the whole model (MASS elements included) when the first
// field is blank as for GRAV; then a point of the axis and its direction (normalized).
void DeckParser::rotation_data(const Line& line, bool centrifugal) {
  const std::string name = centrifugal ? "CENTRIF" : "ROTA";
  const std::string form = "element or element set (blank: the whole model), " + name + ", " +
                           (centrifugal ? "omega^2" : "the angular acceleration") +
                           ", a point of the axis x, y, z, the axis direction x, y, z";
  need_fields(line, 9, form.c_str());
  at_most_fields(line, 9, form.c_str());
  DistributedLoad d;
  d.face = centrifugal ? kCentrifugalLoad : kRotaryLoad;
  d.magnitude = real(line.fields[2], centrifugal ? "the squared angular velocity omega^2" : "the angular acceleration");
  if (centrifugal && d.magnitude < 0)
    fail(at_, "*DLOAD CENTRIF: the magnitude is omega^2, which cannot be negative, got " + std::string(line.fields[2]));
  const char* axes[3] = {"x", "y", "z"};
  for (std::size_t k = 0; k < 3; ++k)
    d.point[k] = real(line.fields[3 + k], ("the axis point's " + std::string(axes[k]) + " coordinate").c_str());
  d.direction = unit_direction(line, 6, name, "the axis direction", "the direction of the rotation axis, such as 0, 0, 1");
  d.amplitude = block_amplitude_;
  d.loc = loc(at_);
  body_load_targets(line, d);
  m_.steps.back().dloads.push_back(std::move(d));
}

std::array<double, 3> DeckParser::unit_direction(const Line& line, std::size_t first, const std::string& load,
                                                 const std::string& what, const std::string& hint) {
  const char* axes[3] = {"x", "y", "z"};
  std::array<double, 3> v{};
  double length2 = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    v[k] = real(line.fields[first + k], (what + "'s " + axes[k] + " component").c_str());
    length2 += v[k] * v[k];
  }
  const double length = std::sqrt(length2);
  if (!(length > 0) || !std::isfinite(length))
    fail(at_, "*DLOAD " + load + ": " + what + " (" + std::string(line.fields[first]) + ", " +
                  std::string(line.fields[first + 1]) + ", " + std::string(line.fields[first + 2]) +
                  ") has no length; give " + hint);
  for (double& c : v) c /= length;
  return v;
}

void DeckParser::body_load_targets(const Line& line, DistributedLoad& d) {
  if (trim(line.fields[0]).empty()) {
    d.elements.resize(static_cast<std::size_t>(m_.elements.size()));
    for (int e = 0; e < m_.elements.size(); ++e) d.elements[static_cast<std::size_t>(e)] = e;
    d.point_masses = true;
  } else {
    d.elements = element_targets(line.fields[0], at_);
  }
}

}  // namespace halfstep::inp
