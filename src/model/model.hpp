// The analysis model as read from a deck: mesh, sets, materials, sections, amplitudes, steps.
// Everything is in the deck's units; ids are the deck's, indices are 0-based positions.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/error.hpp"
#include "model/amplitude.hpp"

namespace halfstep {

/// Element kinds halfstep knows; S4 and S4R are both run as MITC4.
enum class ElementType { MITC4 };

/// Nodes in structure-of-arrays form; node_index maps deck ids to positions.
struct Nodes {
  std::vector<std::int64_t> id;
  std::vector<double> x, y, z;
  std::vector<SourceLoc> loc;  ///< where each node was defined (for error messages)
  std::unordered_map<std::int64_t, int> index;
  int size() const { return static_cast<int>(id.size()); }
};

/// Four-node shell elements; conn holds 4 node indices per element, consecutively.
struct Elements {
  std::vector<std::int64_t> id;
  std::vector<int> conn;                 ///< 4 * size() node indices
  std::vector<std::string> abaqus_type;  ///< S4 or S4R, as written in the deck
  std::vector<SourceLoc> loc;
  std::unordered_map<std::int64_t, int> index;
  int size() const { return static_cast<int>(id.size()); }
};

/// A named set of node or element indices (names are stored upper-case).
struct IndexSet {
  std::string name;
  std::vector<int> members;  ///< 0-based indices, in deck order, no duplicates
  SourceLoc loc;
};

/// Isotropic linear elastic material with density and mass-proportional damping.
struct Material {
  std::string name;
  bool has_elastic = false, has_density = false;
  double youngs = 0, poisson = 0, density = 0;
  double alpha = 0;  ///< *DAMPING, ALPHA= (C = alpha M)
  SourceLoc loc;
};

/// *SHELL SECTION: thickness and material for an element set.
struct ShellSection {
  std::string elset, material;
  double thickness = 0;
  int thickness_points = 5;  ///< as given in the deck; output uses top/bottom
  SourceLoc loc;
};

/// Abaqus dof numbers 1..6 (UX, UY, UZ, URX, URY, URZ).
constexpr int kMaxDof = 6;

/// *BOUNDARY line: dofs first..last of a node set held at value * amplitude(t).
struct Boundary {
  std::vector<int> nodes;
  int first_dof = 1, last_dof = 1;
  double value = 0;
  std::string amplitude;  ///< empty: ramp over the step for nonzero values
  bool velocity = false;  ///< TYPE=VELOCITY: value is a prescribed velocity
  SourceLoc loc;
};

/// *CLOAD line: a concentrated force (dof 1-3) or moment (4-6), fixed in direction.
struct ConcentratedLoad {
  std::vector<int> nodes;
  int dof = 1;
  double magnitude = 0;
  std::string amplitude;  ///< empty: applied at once and held
  SourceLoc loc;
};

/// *DLOAD line, type P: pressure on elements, following the deformed normal.
struct DistributedLoad {
  std::vector<int> elements;
  double magnitude = 0;  ///< positive pressure pushes against the element normal
  std::string amplitude;
  SourceLoc loc;
};

/// Output variables a request may name.
struct OutputRequest {
  enum class Kind { Field, History };
  Kind kind = Kind::Field;
  std::optional<int> number_interval;
  std::optional<double> time_interval;
  std::string nset;                       ///< *NODE OUTPUT, NSET= (history: required)
  std::string elset;                      ///< *ELEMENT OUTPUT, ELSET= (empty: all elements)
  std::vector<std::string> node_vars;     ///< U, V, RF (upper-case)
  std::vector<std::string> element_vars;  ///< S, SF, SM, E (field only)
  SourceLoc loc;
};

/// One *STEP ... *END STEP block of an explicit dynamic analysis.
struct Step {
  std::string name;
  double time_period = 0;
  std::optional<double> fixed_increment;  ///< DIRECT USER CONTROL / FIXED TIME INCREMENTATION
  std::vector<Boundary> boundaries;
  std::vector<ConcentratedLoad> cloads;
  std::vector<DistributedLoad> dloads;
  std::vector<OutputRequest> outputs;
  bool boundary_op_new = false, cload_op_new = false, dload_op_new = false;
  SourceLoc loc;
};

/// *INITIAL CONDITIONS, TYPE=VELOCITY line: one dof of a node set.
struct InitialVelocity {
  std::vector<int> nodes;
  int dof = 1;
  double value = 0;
  SourceLoc loc;
};

/// *INITIAL CONDITIONS, TYPE=ROTATING VELOCITY: v = omega (axis x (x - a)) + v0.
struct InitialRotatingVelocity {
  std::vector<int> nodes;
  double omega = 0;
  std::array<double, 3> a{}, b{};   ///< two points on the axis (a -> b)
  std::array<double, 3> v0{};       ///< optional translational velocity
  SourceLoc loc;
};

/// A parsed deck. Sets, materials and amplitudes are keyed by upper-case name.
struct Model {
  std::string heading;
  std::string deck_path;
  Nodes nodes;
  Elements elements;
  std::map<std::string, IndexSet> nsets, elsets;
  std::map<std::string, Material> materials;
  std::vector<ShellSection> sections;
  std::map<std::string, Amplitude> amplitudes;
  std::vector<InitialVelocity> initial_velocities;
  std::vector<InitialRotatingVelocity> initial_rotations;
  std::vector<Step> steps;
  std::vector<std::string> warnings;  ///< e.g. unknown keywords ignored (each named once)
};

}  // namespace halfstep
