// The analysis model as read from a deck: mesh, sets, materials, sections, amplitudes, steps.
// Everything is in the deck's units; ids are the deck's, indices are 0-based positions.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/compact_lists.hpp"
#include "core/error.hpp"
#include "core/id_index.hpp"
#include "model/amplitude.hpp"

namespace halfstep {

/// Nodes in structure-of-arrays form; node_index maps deck ids to positions.
struct Nodes {
  std::vector<std::int64_t> id;
  std::vector<double> x, y, z;
  SourceLocList loc;  ///< where each node was defined (for error messages)
  IdIndex index;  ///< deck id -> position
  int size() const { return static_cast<int>(id.size()); }
};

/// The keyword that gives an element its section, stored per element because model/ (and its
/// checks) cannot ask the element registry: the reader sets it from the kind's
/// ElementKindInfo::section_keyword.
enum class SectionKeyword : std::uint8_t { Solid, Shell, Beam, Spring, Dashpot, Adhesion };

/// Deck spellings of the SectionKeyword values, in their order.
inline constexpr const char* kSectionKeywordNames[] = {"*SOLID SECTION", "*SHELL SECTION", "*BEAM SECTION",
                                                       "*SPRING",        "*DASHPOT",        "*ADHESION"};

/// The deck spelling of keyword k.
inline const char* section_keyword_name(SectionKeyword k) { return kSectionKeywordNames[static_cast<int>(k)]; }

/// The keyword spelled `name` (a kind's section_keyword); a spelling not in the list is a
/// programming error.
inline SectionKeyword section_keyword_of(std::string_view name) {
  for (int i = 0; i < 6; ++i)
    if (name == kSectionKeywordNames[i]) return static_cast<SectionKeyword>(i);
  throw std::logic_error("unknown section keyword " + std::string(name));
}

/// Springs, dashpots and adhesion edges: no volume, no faces, no mass of their own.
inline bool is_discrete(SectionKeyword k) { return k >= SectionKeyword::Spring; }

/// Elements of every kind; element e's node indices are conn[conn_ptr[e] .. conn_ptr[e+1]).
struct Elements {
  std::vector<std::int64_t> id;
  std::vector<int> kind;                 ///< element kind id (elements/registry.hpp)
  std::vector<SectionKeyword> section;   ///< the keyword that gives each element its section (its kind's)
  std::vector<int> conn;                 ///< node indices of all elements, consecutively
  std::vector<int> conn_ptr{0};          ///< size() + 1 offsets into conn
  InternedStrings abaqus_type;  ///< TYPE= as written in the deck
  SourceLocList loc;            ///< where each element was defined (for error messages)
  IdIndex index;  ///< deck id -> position
  int size() const { return static_cast<int>(id.size()); }
  /// Node indices of element e.
  const int* nodes_of(int e) const { return conn.data() + conn_ptr[static_cast<std::size_t>(e)]; }
  /// Node count of element e.
  int count_of(int e) const { return conn_ptr[static_cast<std::size_t>(e) + 1] - conn_ptr[static_cast<std::size_t>(e)]; }
};

/// A named set of node or element indices (names are stored upper-case).
struct IndexSet {
  std::string name;
  std::vector<int> members;  ///< 0-based indices, in deck order, no duplicates
  SourceLoc loc;
};

/// *ELASTIC, TYPE=: how elastic_constants are to be read.
enum class ElasticType { Isotropic, EngineeringConstants, Orthotropic, Anisotropic };

/// A material: elasticity (isotropic, orthotropic) or Neo-Hookean hyperelasticity, density
/// and mass-proportional damping.
struct Material {
  std::string name;
  bool has_elastic = false, has_density = false, has_hyperelastic = false;
  ElasticType elastic_type = ElasticType::Isotropic;
  double youngs = 0, poisson = 0, density = 0;  ///< isotropic E, nu
  /// TYPE=ENGINEERING CONSTANTS: E1 E2 E3 nu12 nu13 nu23 G12 G13 G23; TYPE=ORTHOTROPIC:
  /// D1111 D1122 D2222 D1133 D2233 D3333 D1212 D1313 D2323; TYPE=ANISOTROPIC: all 21 in
  /// Abaqus's order (materials/laws/svk_anisotropic.hpp).
  std::array<double, 21> elastic_constants{};
  double c10 = 0, d1 = 0;  ///< *HYPERELASTIC, NEO HOOKE
  bool hyperelastic_log = false;  ///< FORM=LOG: Bonet & Wood's law from C10, D1 instead of Abaqus'
  double alpha = 0;        ///< *DAMPING, ALPHA= (C = alpha M)
  /// *DAMPING, BETA=: stiffness-proportional damping, C += beta K_0 with K_0 the elements'
  /// stiffness at the reference configuration (implicit dynamic steps).
  double beta = 0;
  SourceLoc damping_loc;   ///< the *DAMPING keyword line
  /// *PLASTIC (isotropic hardening): yield stress at each equivalent plastic strain, the
  /// strains increasing from 0; empty when the material is elastic.
  std::vector<double> plastic_stress, plastic_strain;
  SourceLoc loc;
  SourceLoc elastic_loc;   ///< the *ELASTIC or *HYPERELASTIC keyword line
  SourceLoc plastic_loc;   ///< the *PLASTIC keyword line
  /// *EXPANSION: thermal expansion coefficients along material directions 1, 2, 3 (TYPE=ISO:
  /// all three the one given), constant in temperature, so ZERO= cancels out of the thermal
  /// strain alpha (theta - theta_initial).
  bool has_expansion = false;
  std::array<double, 3> expansion{};
  SourceLoc expansion_loc;  ///< the *EXPANSION keyword line
  /// True when the material yields (*PLASTIC given).
  bool plastic() const { return !plastic_stress.empty(); }
};

/// A point mass (*ELEMENT, TYPE=MASS with its *MASS): translational mass added at a node.
struct PointMass {
  int node = -1;  ///< node index
  double mass = 0;
  SourceLoc loc;  ///< the *MASS data line
};

/// *ORIENTATION, SYSTEM=RECTANGULAR: material axis 1 along a, axis 2 in the (a, b) plane,
/// optionally turned by an angle (degrees) about one of the local axes.
struct Orientation {
  std::string name;
  std::array<double, 3> a{1, 0, 0}, b{0, 1, 0};
  int extra_axis = 0;        ///< 1..3 when the second data line gives an extra rotation
  double extra_angle = 0;    ///< degrees
  SourceLoc loc;
};

/// *TRANSFORM: a local system for the translations (and 6-dof rotations) of a node set, in
/// which their *BOUNDARY dofs and *CLOAD components are given.
struct NodeTransform {
  enum class Type { Rectangular, Cylindrical, Spherical };
  Type type = Type::Rectangular;
  std::vector<int> nodes;  ///< node indices of NSET=
  /// R: a on local axis 1, b in the local 1-2 plane (directions from the origin);
  /// C: two points on the local 3 axis; S: a the centre, b on the polar axis.
  std::array<double, 3> a{}, b{};
  SourceLoc loc;
};

/// *SHELL SECTION: thickness and material for an element set.
struct ShellSection {
  std::string elset, material;
  std::string formulation;   ///< FORMULATION= (halfstep's parameter), upper-case; empty: MITC4
  double thickness = 0;
  int thickness_points = 5;  ///< as given in the deck; MITC4 output uses top/bottom, FPM triangles integrate with them
  SourceLoc loc;
  bool gauss = false;  ///< SECTION INTEGRATION=GAUSS
  /// No FORMULATION, but some of its elements are kinds that exist only as a formulation (S3,
  /// S3R: the FPM one): they run as it with this section's thickness, points and material,
  /// beside its S4/S4R (MITC4).
  bool formulation_only_kinds = false;
  /// Whether FPM elements take this section (named or by default).
  bool has_fpm() const { return !formulation.empty() || formulation_only_kinds; }
};

/// *SOLID SECTION: material (and orientation) of a set of continuum elements.
struct SolidSection {
  std::string elset, material, orientation;  ///< orientation empty: global axes
  std::string formulation;  ///< FORMULATION= (halfstep's parameter), upper-case; empty: the kind's default
  double thickness = 1;    ///< out-of-plane thickness of planar elements (data line; default 1)
  SourceLoc thickness_loc;  ///< the data line, when given
  SourceLoc loc;
};

/// *SPRING or *DASHPOT: the linear stiffness or dashpot coefficient of a set of spring or
/// dashpot elements, with the dofs of the 1- and 2-dof kinds.
struct DiscreteSection {
  std::string elset;
  bool dashpot = false;  ///< *DASHPOT (else *SPRING)
  double value = 0;      ///< stiffness (force per relative displacement) or coefficient (per relative velocity)
  int dof1 = 0, dof2 = 0;  ///< Abaqus dofs (1..3) of the first and second node; 0: not used by the kind
  /// *SPRING, NONLINEAR: force against relative displacement (ascending), replacing value.
  std::vector<double> table_force, table_disp;
  SourceLoc loc;         ///< the keyword line
};

/// *BEAM SECTION: the cross-section, material and orientation of a set of beams.
struct BeamSection {
  enum class Shape { Rect, Circ };
  std::string elset, material;
  Shape shape = Shape::Rect;
  double a = 0, b = 0;                     ///< RECT: width along n1, height along n2; CIRC: radius a
  std::array<double, 3> n1{0.0, 0.0, -1.0};  ///< approximate n1 direction (Abaqus default (0, 0, -1))
  bool n1_given = false;                   ///< the second data line gave n1
  SourceLoc loc;                           ///< the keyword line
  SourceLoc n1_loc;                        ///< the n1 line, when given
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
  bool fixed = false;     ///< *BOUNDARY, FIXED: held where the step starts (translations)
  SourceLoc loc;
};

/// *CLOAD line: a concentrated force (dof 1-3) or moment (4-6), fixed in direction.
struct ConcentratedLoad {
  std::vector<int> nodes;
  int dof = 1;
  double magnitude = 0;
  std::string amplitude;  ///< empty: applied at once and held
  SourceLoc loc;
  /// LOAD CASE=2 of a *STEADY STATE DYNAMICS step: the imaginary part of the harmonic load
  /// (the step's runner applies it; step loads leave it out).
  bool imaginary = false;
};

/// DistributedLoad::face of a gravity load (*DLOAD type GRAV) and of a body force per unit
/// volume along a global axis (BX, BY, BZ: DistributedLoad::direction is that axis); of the
/// rotational body forces CENTRIF (rho omega^2 times the distance from the axis) and ROTA (the
/// d'Alembert force -rho alpha n x r of a rotary acceleration), whose axis passes through
/// DistributedLoad::point along direction.
constexpr int kGravityLoad = -1, kBodyForceLoad = -2, kCentrifugalLoad = -3, kRotaryLoad = -4;

/// *DLOAD line (type P on shells, P1..P6 on solid faces) or *DSLOAD line: pressure following
/// the deformed surface; or *DLOAD type GRAV: gravity, a force rho g per unit volume fixed in
/// direction (the deck's density: mass scaling leaves it as it is); or BX, BY, BZ: a force per
/// unit volume along a global axis.
struct DistributedLoad {
  std::vector<int> elements;
  int face = 0;  ///< 0: shell pressure; 1..6: Abaqus face label of the solids; kGravityLoad; kBodyForceLoad
  /// Pressure: positive pushes against the element normal. Gravity: the acceleration. Body
  /// force: force per unit volume. CENTRIF: omega^2. ROTA: the angular acceleration alpha.
  double magnitude = 0;
  std::string amplitude;
  SourceLoc loc;
  std::array<double, 3> direction{};  ///< gravity, body force: the unit direction (GRAV: the deck's vector, normalized); CENTRIF, ROTA: the axis's
  std::array<double, 3> point{};      ///< CENTRIF, ROTA: a point of the rotation axis
  bool point_masses = false;          ///< gravity, CENTRIF, ROTA on the whole model: the MASS elements too
};

/// Face codes of a shell's two sides in Surface::faces (after the solids' S1..S6).
constexpr int kSurfaceSpos = 7, kSurfaceSneg = 8;

/// *SURFACE: TYPE=ELEMENT, element faces (element index and 1-based face label pairs: S1..S6
/// of solids, kSurfaceSpos/kSurfaceSneg of shells), or TYPE=NODE, a list of nodes.
struct Surface {
  std::string name;
  bool node_based = false;  ///< TYPE=NODE: `nodes` holds the surface, elements/faces are empty
  std::vector<int> elements, faces;
  std::vector<int> nodes;   ///< TYPE=NODE: node indices, deck order, no duplicates
  /// TYPE=NODE: per node, the area it stands for (the data line's second field; without one
  /// 1, or NaN under --dialect calculix: the peer's share of the exterior faces, resolved by
  /// the contact build): a softened contact law's pressure acts on it.
  std::vector<double> node_areas;
  SourceLoc loc;
};

/// *TIE: each node of the slave surface follows the point of the master surface nearest to
/// it (translations; see docs/input.md).
struct Tie {
  std::string name, slave, master;        ///< surface names, upper-case
  std::optional<double> position_tolerance;  ///< none: 5 % of the mean master face diagonal
  bool adjust = true;                     ///< ADJUST=YES: slave nodes moved onto the master surface
  bool rotations = true;                  ///< no NO ROTATION: shell slaves' rotations follow shell masters
  SourceLoc loc;
};

/// One *EQUATION: sum_i coefficient_i * u(node_i, dof_i) = 0; the first term's dof is the
/// dependent one (eliminated).
struct Equation {
  std::vector<int> nodes, dofs;  ///< node indices, dofs 1..3
  std::vector<double> coefficients;
  SourceLoc loc;
};

/// *RIGID BODY, or *COUPLING with *KINEMATIC: nodes that move rigidly with a reference node.
struct RigidBody {
  std::string name;         ///< "*RIGID BODY" or "*COUPLING <CONSTRAINT NAME>", for messages
  int ref_node = -1;        ///< node index
  std::vector<int> tied;    ///< translations and (on 6-dof nodes) rotations follow the body
  std::vector<int> pinned;  ///< translations only follow the body
  SourceLoc loc;
  /// ROT NODE= (the peer's): a node of no element whose dofs 1-3 stand for the body's
  /// rotations (the reader moves its *BOUNDARY and *CLOAD lines to the reference node's dofs
  /// 4-6; output shows the body's rotation as its U and the moment as its RF); -1 without.
  int rot_node = -1;
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
  /// TIME POINTS=: a *TIME POINTS list's instants (ascending; step time, or analysis time
  /// when points_total): frames there and at the step's end, and an implicit step's
  /// increments end on them. Empty: the intervals above.
  std::vector<double> time_points;
  bool points_total = false;
  SourceLoc loc;
};

/// *NODE PRINT, *EL PRINT or *ENERGY PRINT: tables of values written to <job>.dat every
/// `frequency` increments of the step (and at its end).
struct PrintRequest {
  enum class Kind { Node, Element, Energy };
  Kind kind = Kind::Node;
  std::string set;                 ///< NSET= / ELSET= (empty: every node or element)
  std::vector<std::string> vars;   ///< U, V, RF (nodes); S, E, PEEQ (elements); upper-case; none for energies
  int frequency = 1;               ///< increments between prints; 0: none
  bool totals = false;             ///< TOTALS=YES: a line of sums after the table
  bool totals_only = false;        ///< TOTALS=ONLY: the sums without the table (totals is set too)
  /// GLOBAL=YES: nodal vectors in global components at *TRANSFORM nodes too (Abaqus's default,
  /// GLOBAL=NO, prints them in the node's local system).
  bool global = false;
  /// Element tables: POSITION=CENTROIDAL (one row per element) instead of the default, a row
  /// per integration point of the kinds that have point values.
  bool centroidal = false;
  /// TIME POINTS= (the peer's, on *NODE PRINT and *EL PRINT): printed at a *TIME POINTS
  /// list's instants and at the step's end instead of every `frequency` increments (as
  /// OutputRequest::time_points).
  std::vector<double> time_points;
  bool points_total = false;
  SourceLoc loc;
  /// True when this table is printed after `increment` increments of its step (every
  /// `frequency`-th one, and at the step's end); one on time points only at the step's end
  /// here (StepFrameSchedule adds the points).
  bool due(long long increment, bool step_end) const {
    if (!time_points.empty()) return step_end;
    return frequency > 0 && (step_end || (increment > 0 && increment % frequency == 0));
  }
};

/// True when one of a step's print requests is due (PrintRequest::due).
inline bool any_print_due(const std::vector<PrintRequest>& prints, long long increment, bool step_end) {
  for (const PrintRequest& p : prints)
    if (p.due(increment, step_end)) return true;
  return false;
}

/// True when a step's print requests include an element table (frames then need element values).
inline bool prints_need_cells(const std::vector<PrintRequest>& prints) {
  for (const PrintRequest& p : prints)
    if (p.kind == PrintRequest::Kind::Element) return true;
  return false;
}

/// True when a step's print requests include an element table at the integration points.
inline bool prints_need_points(const std::vector<PrintRequest>& prints) {
  for (const PrintRequest& p : prints)
    if (p.kind == PrintRequest::Kind::Element && !p.centroidal) return true;
  return false;
}

/// The analysis procedure of a step.
enum class Procedure { ExplicitDynamic, Static };

/// *STATIC data line and parameters: the automatic incrementation of a static step.
struct StaticControls {
  double initial = 0;       ///< first increment (step time)
  double minimum = 0;       ///< smallest increment a cut-back may reach before the run stops
  double maximum = 0;       ///< largest increment
  bool direct = false;      ///< DIRECT: fixed increments of `initial`, no cut-backs
  int max_increments = 100; ///< *STEP, INC=
  /// *STEP, EXTRAPOLATION=LINEAR (Abaqus's default) or NO: an increment's first trial adds
  /// the last increment's correction, scaled to its length.
  bool extrapolate = true;
  /// *STATIC, STABILIZE: viscous forces c m* du / dtau on the translations (m*: a lumped mass
  /// of unit density), c from stabilize_factor, or else chosen after the first increment so
  /// that it would dissipate stabilize_fraction of that increment's strain energy.
  bool stabilize = false;
  double stabilize_fraction = 2e-4;
  double stabilize_factor = 0;  ///< FACTOR=; 0: from the fraction
};

/// *BULK VISCOSITY: Abaqus/Explicit's linear and quadratic coefficients, in force from its
/// step on until another one (Abaqus's defaults before the first).
struct BulkViscosityLine {
  double linear = 0.06;    ///< b1
  double quadratic = 1.2;  ///< b2
  SourceLoc loc;
};

/// *FIXED MASS SCALING: densities of a set of elements scaled once, at the start of the
/// step (halfstep: the first explicit step), by FACTOR and/or up to a target increment DT.
struct MassScaling {
  double factor = 1;     ///< FACTOR= (1: none)
  double dt = 0;         ///< DT= target element increment (0: none)
  bool uniform = false;  ///< TYPE=UNIFORM: one factor for the whole set; else BELOW MIN, element by element
  std::string elset;     ///< ELSET= key ("": every element)
  SourceLoc loc;
};

/// *VARIABLE MASS SCALING: densities scaled again and again during the step, at its start and
/// every `frequency` increments or at `number_interval` points of it, as the element increments
/// on the deformed mesh ask. A line without DT ends the definitions of earlier steps.
struct VariableMassScaling {
  MassScaling scaling;         ///< FACTOR, DT (0: the line ends earlier definitions), TYPE, ELSET
  std::int64_t frequency = 0;  ///< FREQUENCY= increments (0: NUMBER INTERVAL)
  int number_interval = 0;     ///< NUMBER INTERVAL= points of the step (0: FREQUENCY)
};

/// *INITIAL CONDITIONS, TYPE=TEMPERATURE line, or a *TEMPERATURE line of a step: the
/// temperature of a node set (a step's follows its amplitude, or the step's default: applied
/// at once in explicit steps, ramped from the previous temperature in static ones).
struct TemperatureLine {
  std::vector<int> nodes;
  double value = 0;
  std::string amplitude;  ///< a step's AMPLITUDE= (upper-case), empty: the step's default
  SourceLoc loc;
};

/// *DYNAMIC without EXPLICIT: implicit dynamics by the Hilber-Hughes-Taylor method on the static
/// step's Newton machinery (its Step::procedure is Static; its StaticControls the increments).
struct ImplicitDynamics {
  double alpha = -0.05;  ///< HHT's alpha in [-1/3, 0]; beta = (1 - alpha)^2 / 4, gamma = 1/2 - alpha
  SourceLoc loc;
};

/// One *MODAL DAMPING, MODAL=DIRECT line: modes first..last (1-based) take the critical
/// damping ratio `ratio`.
struct ModalDampingRange {
  int first = 1, last = 1;
  double ratio = 0;
  SourceLoc loc;
};

/// *MODAL DYNAMIC: the response of the linear model as the superposition of the modes of the
/// last *FREQUENCY step, each mode's equation q'' + 2 zeta omega q' + omega^2 q = phi . f(t)
/// integrated exactly for loads linear over each increment (its Step::procedure is Static,
/// its StaticControls::initial the fixed increment). Damping: *MODAL DAMPING, by ranges of
/// modes or RAYLEIGH (zeta = alpha / (2 omega) + beta omega / 2); the later line wins.
struct ModalDynamics {
  std::vector<ModalDampingRange> damping;
  bool rayleigh = false;
  double rayleigh_alpha = 0, rayleigh_beta = 0;
  SourceLoc loc;
  /// *STEADY STATE DYNAMICS (harmonic): instead of a transient, the steady response to loads
  /// varying as e^(i omega t) at frequencies from low_frequency to high_frequency
  /// (cycles/time), `points` per interval between them and the eigenfrequencies inside,
  /// concentrated about those fixed points by `bias` (solver/steady_state_dynamics.cpp).
  bool steady_state = false;
  double low_frequency = 0, high_frequency = 0, bias = 3;
  int points = 20;
  /// DIRECT=NO (the peer's automatic increments): each increment tries 1.5 times the last,
  /// shortened in proportion where the step's nodal forces would change by more than
  /// `deltmx` (largest change of one component) and kept within [min_increment,
  /// max_increment]; deltmx 0: fixed increments (StaticControls::initial).
  double deltmx = 0, min_increment = 0, max_increment = 0;
};

/// *FREQUENCY: the step's natural frequencies and mode shapes about its base state (the
/// state the previous general step left, with its stresses under NLGEOM). A frequency step is
/// a perturbation: it runs on the static step's equations and tangent (its Step::procedure is
/// Static) and leaves the state as it found it.
struct FrequencyRequest {
  int modes = 1;                  ///< eigenvalues asked for
  double min_frequency = 0;       ///< lowest frequency of interest (cycles/time)
  double max_frequency = 0;       ///< highest (cycles/time; 0: no limit)
  bool mass_normalized = true;    ///< NORMALIZATION=MASS (phi^T M phi = 1) or DISPLACEMENT (largest = 1)
  SourceLoc loc;
};

/// *BUCKLE: the lowest eigenvalue buckling factors of the step's loads about the state the run
/// is in, (K + lambda K_sigma) phi = 0.
struct BuckleRequest {
  int modes = 1;           ///< buckling factors asked for
  double accuracy = 1e-2;  ///< the peer's second field: its convergence tolerance (Lanczos converges tighter)
  double max_factor = 0;   ///< Abaqus's second field: the largest factor of interest (0: no limit)
  SourceLoc loc;
};

struct Step {
  std::string name;
  Procedure procedure = Procedure::ExplicitDynamic;
  /// Geometric nonlinearity: always on in explicit steps; *STEP, NLGEOM= in static steps
  /// (default NO, and once YES it stays on in later steps, as in Abaqus).
  bool nlgeom = true;
  StaticControls controls;  ///< static steps only
  std::optional<FrequencyRequest> frequency;  ///< *FREQUENCY: a perturbation step run on the static machinery
  std::optional<ImplicitDynamics> dynamic;    ///< *DYNAMIC (implicit): inertia in the static step's Newton iterations
  std::optional<ModalDynamics> modal;         ///< *MODAL DYNAMIC: superposition of the last frequency step's modes
  std::optional<BuckleRequest> buckle;        ///< *BUCKLE: a perturbation step run on the static machinery
  double time_period = 0;
  std::optional<double> fixed_increment;  ///< DIRECT USER CONTROL / FIXED TIME INCREMENTATION
  std::vector<Boundary> boundaries;
  std::vector<ConcentratedLoad> cloads;
  std::vector<DistributedLoad> dloads;
  std::vector<OutputRequest> outputs;
  std::vector<PrintRequest> prints;
  std::vector<MassScaling> mass_scaling;  ///< *FIXED MASS SCALING lines, in deck order
  std::vector<VariableMassScaling> variable_mass_scaling;  ///< *VARIABLE MASS SCALING lines, in deck order
  std::optional<BulkViscosityLine> bulk_viscosity;  ///< *BULK VISCOSITY of this step, if it has one
  std::vector<TemperatureLine> temperatures;  ///< *TEMPERATURE lines, in deck order
  bool boundary_op_new = false, cload_op_new = false, dload_op_new = false;
  bool temperature_op_new = false;  ///< a *TEMPERATURE, OP=NEW: nodes not named go back to their initial temperature
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

/// One piece of an analytical surface's profile (*SURFACE, TYPE=CYLINDER or REVOLUTION data
/// lines after START): a straight line or a circular arc (less than 180 degrees) from the
/// previous end point, in the profile's local coordinates ((x, y), or (r, z) of a revolution).
struct ProfileSegment {
  enum class Kind { Line, Circle };
  Kind kind = Kind::Line;
  std::array<double, 2> end{};     ///< end point
  std::array<double, 2> centre{};  ///< CIRCL: the arc's centre
  SourceLoc loc;
};

/// *SURFACE, TYPE=CYLINDER or TYPE=REVOLUTION: a rigid analytical surface, a profile swept
/// along a generator (cylinder, infinite along it) or revolved about an axis, moved by the
/// reference node of its *RIGID BODY, ANALYTICAL SURFACE=. Its outward normal is the
/// profile's direction turned 90 degrees counterclockwise in the profile plane.
struct AnalyticalSurface {
  enum class Kind { Cylinder, Revolution };
  std::string name;  ///< upper-case; no element or node surface has the same name
  Kind kind = Kind::Cylinder;
  /// Cylinder: a the local origin, b on the local x-axis, c on the generator (local z).
  /// Revolution: a the local origin, b on the symmetry axis (local z); c unused.
  std::array<double, 3> a{}, b{}, c{};
  std::array<double, 2> start{};          ///< START: the profile's first point
  std::vector<ProfileSegment> segments;   ///< at least one
  int ref_node = -1;  ///< node index of REF NODE= of its *RIGID BODY (-1: none names it)
  SourceLoc loc;      ///< the *SURFACE line
  SourceLoc body_loc; ///< the *RIGID BODY line
};

/// *SURFACE BEHAVIOR's pressure-overclosure law (docs/theory.md, "Softened contact"): hard
/// contact (a penalty spring as stiff as the stable increment allows) or a softened law that
/// gives the contact pressure as a function of the overclosure.
/// kExponentialPeer: EXPONENTIAL as CalculiX reads it (--dialect calculix): p = p0 exp(beta h),
/// beta = ln 100 / c0, from the clearance c0 (where p is 1 % of p0) on.
enum class Overclosure : std::uint8_t { kHard = 0, kLinear = 1, kTabular = 2, kExponential = 3, kExponentialPeer = 4 };

/// *SURFACE INTERACTION with its *FRICTION and *SURFACE BEHAVIOR: how two surfaces in contact
/// act on each other (docs/theory.md "Contact").
struct SurfaceInteraction {
  std::string name;              ///< upper-case
  double friction = 0;           ///< Coulomb coefficient (static coefficient with EXPONENTIAL DECAY)
  double kinetic_friction = -1;  ///< EXPONENTIAL DECAY: the kinetic coefficient; < 0: none (= friction)
  double decay = 0;              ///< EXPONENTIAL DECAY: dc in mu = mu_k + (mu_s - mu_k) exp(-dc |slip rate|)
  /// CalculiX's stick slope (*FRICTION's second field, --dialect calculix): the stick stiffness
  /// per contact area (pressure per slip); 0: the solver's own.
  double stick_slope = 0;
  Overclosure overclosure = Overclosure::kHard;
  /// The softened law's values: LINEAR {slope}; EXPONENTIAL {c0, p0, kmax (0: none)};
  /// the peer's EXPONENTIAL {c0, p0};
  /// TABULAR (overclosure, pressure) pairs by ascending overclosure, the first at pressure 0.
  std::vector<double> overclosure_law;
  SourceLoc loc;
};

/// One contact definition: the nodes of `slave` against the faces of `master` (a *CONTACT
/// PAIR, or one side of a *CONTACT INCLUSIONS pair), or self-contact of one surface
/// (slave == master: its nodes against its own faces, those holding the node skipped).
struct ContactPair {
  std::string slave, master;  ///< surface names, upper-case; ALL EXTERIOR: both kAllExterior
  std::string interaction;    ///< *SURFACE INTERACTION name, upper-case; empty: frictionless
  SourceLoc loc;
  bool edges = true;          ///< edge-to-edge contact of the surfaces' feature edges (EDGES=NO: off)
  /// *CONTACT PAIR, ADJUST=distance: slave nodes at most this far from the master surface
  /// are moved onto it before the run (strain-free); -1: none.
  double adjust = -1;
  /// ADJUST=node set: that set's nodes are moved onto the master surface; empty: none.
  std::string adjust_set;
};

/// Surface name that stands for every exterior face of the model (*CONTACT INCLUSIONS,
/// ALL EXTERIOR: solid faces on no other element, both sides of shells).
inline constexpr const char* kAllExterior = "*ALL EXTERIOR";

/// The deck's contact: *CONTACT PAIR and *CONTACT (general contact) definitions, in force in
/// every explicit step of the run (they are read in the model data or the first step).
struct Contact {
  std::vector<ContactPair> pairs;  ///< each one-sided: two-sided inclusions appear twice
  std::map<std::string, SurfaceInteraction> interactions;
  double penalty_scale = 1;        ///< *CONTACT CONTROLS ASSIGNMENT, TYPE=SCALE PENALTY
  bool empty() const { return pairs.empty(); }
};

/// A parsed deck. Sets, materials and amplitudes are keyed by upper-case name.
/// A NURBS patch (issue 14; docs/input.md "*NURBS PATCH"): its parametric dimension,
/// degrees, open knot vectors and control points (model nodes, direction 0 fastest, with
/// their weights), and its Bézier elements, consecutive in Elements in the order of
/// extract_bezier (discretization/nurbs_patch.hpp), which gives each its weights and
/// extraction operators when the model is built.
struct NurbsPatchDef {
  std::string name;
  int dim = 2;                              ///< parametric dimension (2: planar)
  std::array<int, 3> degree{{1, 1, 1}};     ///< per direction
  std::array<int, 3> count{{0, 1, 1}};      ///< control points per direction
  std::array<std::vector<double>, 3> knots;  ///< per direction, count + degree + 1 values
  std::vector<int> nodes;                   ///< model node index of each control point
  std::vector<double> weights;              ///< per control point, > 0
  int first_element = 0, num_elements = 0;  ///< its elements in Elements
  SourceLoc loc;
};

/// *ADHESION (issue 14; docs/input.md): a law between the faces of an element surface of
/// planar elements and a rigid flat substrate, run as adhesion edge elements
/// (elements/adhesion_edge.hpp), one per face, which the reader adds to Elements.
struct AdhesionDef {
  std::string name;             ///< upper-case; also the element set of its edge elements
  std::string surface;          ///< upper-case
  enum class Law { LennardJones, Penalty };
  Law law = Law::LennardJones;
  double hamaker = 0, r0 = 0, r_min = 0;  ///< Lennard-Jones: A_H, the spacing, the linear continuation's start
  double penalty = 0;                     ///< Penalty: traction per unit penetration
  std::array<double, 2> point{}, normal{};  ///< the substrate plane (unit normal towards the body)
  std::vector<int> elements;    ///< its edge elements (model element indices)
  std::vector<int> parents;     ///< the planar element whose face each edge is
  /// Per edge element, its constant data (the face nodes' weights, then the side's 1D
  /// extraction operator): data[data_ptr[i] .. data_ptr[i+1]).
  std::vector<double> data;
  std::vector<std::size_t> data_ptr;
  SourceLoc loc;
};

/// The locality renumbering of a model (model/renumber.hpp, issue 21): nodes and elements
/// reordered once after reading so that neighbours in the mesh are neighbours in memory.
/// The deck's order is kept so that every output is written in it.
struct Renumbering {
  bool applied = false;           ///< the model's indices are not the deck's order
  /// Node index -> its index in the deck's order (empty when not applied).
  std::vector<int> node_deck;
  /// Element index -> its index in the deck's order (empty when not applied).
  std::vector<int> element_deck;
  /// Locality before and after: the mean, over elements, of the spread of their node indices
  /// (largest minus smallest), in node indices (renumber.hpp, node_index_span).
  double span_before = 0, span_after = 0;
  double seconds = 0;             ///< wall time of the pass
};

/// A deck node of S8/S8R or B32/B32R elements and the brick nodes the reader made for it (its
/// line across the thickness, its section): the force the deck node carries is theirs summed.
struct ExpandedNode {
  int node = -1;            ///< node index (the deck's node)
  std::vector<int> bricks;  ///< node indices of its brick nodes (not the deck node itself)
};

struct Model {
  std::string heading;
  std::string deck_path;
  std::uint64_t source_hash = 0;  ///< hash of the deck and every file it includes (Lexer::source_hash)
  std::uint64_t source_bytes = 0;  ///< bytes of the deck and every file it includes, as read
  Nodes nodes;
  Elements elements;
  std::map<std::string, IndexSet> nsets, elsets;
  std::map<std::string, Material> materials;
  std::vector<ShellSection> sections;        ///< *SHELL SECTION, in deck order
  std::vector<SolidSection> solid_sections;  ///< *SOLID SECTION, in deck order
  std::vector<BeamSection> beam_sections;    ///< *BEAM SECTION, in deck order
  std::map<std::string, Orientation> orientations;
  std::map<std::string, Surface> surfaces;
  std::map<std::string, AnalyticalSurface> analytical_surfaces;  ///< *SURFACE, TYPE=CYLINDER/REVOLUTION
  std::vector<Tie> ties;             ///< *TIE, deck order
  std::vector<Equation> equations;   ///< *EQUATION, deck order
  std::vector<ExpandedNode> expanded_nodes;  ///< S8/S8R and B32/B32R nodes and their brick nodes
  std::vector<NodeTransform> transforms;  ///< *TRANSFORM, deck order (a later one wins per node)
  std::vector<RigidBody> rigid_bodies;  ///< *RIGID BODY and kinematic *COUPLING, deck order
  Contact contact;                   ///< contact pairs and general contact
  std::vector<PointMass> point_masses;  ///< MASS elements with their *MASS values
  /// ROTARYI elements with their *ROTARY INERTIA (isotropic: PointMass::mass is the inertia).
  std::vector<PointMass> point_inertias;
  std::vector<NurbsPatchDef> nurbs_patches;  ///< *NURBS PATCH, deck order
  std::vector<AdhesionDef> adhesions;        ///< *ADHESION, deck order
  std::vector<DiscreteSection> discrete_sections;  ///< *SPRING and *DASHPOT, in deck order
  std::map<std::string, Amplitude> amplitudes;
  std::vector<InitialVelocity> initial_velocities;
  std::vector<InitialRotatingVelocity> initial_rotations;
  /// *INITIAL CONDITIONS, TYPE=TEMPERATURE lines, in deck order (a later line on a node
  /// wins); a node without one starts at 0.
  std::vector<TemperatureLine> initial_temperatures;
  std::vector<Step> steps;
  std::vector<std::string> warnings;  ///< e.g. unknown keywords ignored (each named once)
  /// *RESTART, WRITE: a restart point every `frequency` explicit increments and/or
  /// `number_interval` times per explicit step (0: not by that measure); loc: where (line 0: none).
  struct RestartRequest {
    std::int64_t frequency = 0;
    int number_interval = 0;
    SourceLoc loc;
  } restart;
  /// The locality renumbering applied after reading (not applied: the deck's order).
  Renumbering renumbering;
};

/// What a section gives its element set, for code that needs no more than this.
struct SectionUse {
  const std::string& elset;
  const std::string& material;
  /// *SHELL SECTION: the shell's; *SOLID SECTION: a planar element's out-of-plane one (1 when
  /// not given); *BEAM SECTION: 0.
  double thickness;
};

/// Calls f(SectionUse) for every *SOLID SECTION, *SHELL SECTION and *BEAM SECTION of m, in
/// that order, each keyword's in deck order.
template <class F>
void for_each_section(const Model& m, F&& f) {
  for (const SolidSection& s : m.solid_sections) f(SectionUse{s.elset, s.material, s.thickness});
  for (const ShellSection& s : m.sections) f(SectionUse{s.elset, s.material, s.thickness});
  for (const BeamSection& s : m.beam_sections) f(SectionUse{s.elset, s.material, 0.0});
}

}  // namespace halfstep
