// The keyword-deck parser: turns the lexer's logical lines into a Model. Internal to the
// reader (see inp_reader.hpp for the public entry points); its methods are spread over
// inp_keywords.cpp (the keyword table), inp_parser.cpp (dispatch, deck structure, end of
// deck), inp_mesh.cpp (nodes, elements, sets), inp_material.cpp (materials, sections),
// inp_history.cpp (amplitudes, initial conditions, steps, boundary conditions, loads),
// inp_constraints.cpp (ties, equations, rigid bodies), inp_contact.cpp (contact),
// inp_analytic.cpp (rigid analytical surfaces) and inp_output.cpp (output requests).
#pragma once

#include <array>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "io/inp_lexer.hpp"
#include "io/inp_reader.hpp"
#include "model/model.hpp"

namespace halfstep::inp {

/// Reads one deck from a lexer into a Model; single use.
class DeckParser {
 public:
  /// max_errors: how many problems to collect before giving up (1: stop at the first);
  /// dialect: whose reading of the keywords the deck gets where Abaqus and the peer differ;
  /// limits: how much the deck may make the reader build (io/inp_reader.hpp).
  explicit DeckParser(Lexer& lexer, int max_errors = 1, Dialect dialect = Dialect::Abaqus, const ReadLimits& limits = {})
      : lex_(lexer), max_errors_(max_errors < 1 ? 1 : max_errors), dialect_(dialect), limits_(limits) {}
  /// Reads every line, checks the model as a whole and returns it. Throws InputError: the
  /// first problem, or with max_errors > 1 every problem found (one per line of what()).
  Model parse(const std::string& deck_path);

  /// Rules the parser core applies before a keyword's handler runs (KeywordSpec::flags).
  enum KeywordFlag : unsigned {
    kAnywhere = 0,              ///< no placement rule beyond what the handler checks
    kModelData = 1u << 0,       ///< an error once the first *STEP has been read
    kInStep = 1u << 1,          ///< an error outside *STEP ... *END STEP
    kMaterialOption = 1u << 2,  ///< needs, and keeps current, the *MATERIAL right before it
    kInsideBlock = 1u << 3,     ///< leaves the open block open (its data may go on after it)
    kInteractionOption = 1u << 4,  ///< needs, and keeps current, the *SURFACE INTERACTION before it
    kContactOption = 1u << 5,      ///< needs, and keeps open, the *CONTACT before it
  };
  /// One keyword the reader knows: its name and the handlers of its keyword and data lines.
  struct KeywordSpec {
    std::string_view name;  ///< as in messages: '*', upper-case, single blanks ("*SHELL SECTION")
    unsigned flags = kAnywhere;                             ///< KeywordFlag bits
    void (DeckParser::*keyword)(const Keyword&) = nullptr;  ///< reads the keyword line
    void (DeckParser::*data)(const Line&) = nullptr;  ///< one data line; none: data lines are errors
    void (DeckParser::*end)() = nullptr;  ///< checks the block once all its data lines are read
  };
  /// Every keyword the reader knows, one entry each (inp_keywords.cpp).
  static const std::vector<KeywordSpec>& keywords();
  /// The entry for a keyword line's squeezed name ("SHELLSECTION"), or nullptr if unknown.
  static const KeywordSpec* find_keyword(std::string_view squeezed_name);

 private:
  /// One member entry of a node or element set, resolved once the mesh is complete.
  struct SetItem {
    std::int64_t first = 0, last = 0, step = 1;  ///< id range (first == last for one id)
    int name = -1;                               ///< index into set_names_ for a nested set
    bool elements_nodes = false;  ///< name is an element set whose elements' nodes join (*NSET, ELSET=)
    Pos pos;
    bool generated = false;  ///< a GENERATE range (ids it spans may be missing), not listed ids
  };
  /// A set as written: its entries in deck order, plus where it was (first) defined.
  struct PendingSet {
    std::string name;
    Pos first;
    int scope = 0;  ///< 0 flat deck, 1 inside *PART, 2 inside *ASSEMBLY
    std::vector<SetItem> items;
    int state = 0;  ///< 0 pending, 1 being resolved (cycle check), 2 done
  };
  /// A node or set reference in model data, resolved once the mesh is complete.
  struct PendingTarget {
    std::string key;
    Pos pos;
  };
  /// A *SURFACE data line, resolved once the element sets are.
  struct PendingFace {
    std::string surface, target;
    int face = 0;
    Pos pos;
    double area = 1;  ///< a node surface's entry: the area each of its nodes stands for
  };
  /// Rotating-velocity data may spread over lines: where the current entry stands.
  enum class RotationState { NewEntry, NeedPointB, MayTakeV0 };

  /// A line of a *PART (or of an *INSTANCE's own mesh), kept to be read once per instance.
  struct StoredLine {
    bool is_keyword = false;
    Keyword keyword;   ///< when is_keyword
    std::string text;  ///< a data line as written
    Pos pos;
  };
  /// A part as written: its lines, read again for each *INSTANCE of it.
  struct PartDef {
    Pos pos;
    std::vector<StoredLine> lines;
    int instances = 0;
  };
  /// Where an instance's part lands in the model: its name (the prefix of its sets and the
  /// qualifier of its ids, "<instance>.<name>"), the offsets added to its node and element
  /// ids (0 for the first instance, so a flat single-instance deck keeps its ids), and the
  /// placement x -> R (x + t - a) + a of its nodes.
  struct InstanceContext {
    std::string name;
    std::int64_t node_offset = 0, element_offset = 0;
    double t[3] = {0, 0, 0}, a[3] = {0, 0, 0};
    double R[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    bool moved = false;
  };

  // inp_parser.cpp: dispatch and context
  void feed(const Line& line);
  void keyword(const Keyword& kw);
  void data(const Line& line);
  void replay_instance();
  void alias_single_instance_sets();
  /// The node (node true) or element id a key names: a plain id, or "<instance>.<id>" with
  /// that instance's offset; nothing for a set name.
  std::optional<std::int64_t> id_of(const std::string& k, bool node) const;
  /// A plain id written outside the parts: the renumbered id of the assembly-level node
  /// (element) of that label if there is one, else the id as written (the first instance's).
  std::int64_t plain_id(std::int64_t label, bool node) const;
  /// True while reading the assembly's own lines (not an instance's part).
  bool at_assembly_level() const { return in_assembly_ && inst_.name.empty(); }
  /// The offset of ids written at assembly level: above every id read so far (0 before any).
  std::int64_t assembly_offset(std::int64_t max_id) const;
  void end_block();
  void need_data_line(const char* what) const;
  void finish();
  void finish_model_data();
  void warn_ignored(const Keyword& kw);
  /// *CONTROLS: line-search settings are ignored with a warning (they change the Newton path,
  /// not the converged answer); controls that change tolerances or increments are refused.
  void controls_keyword(const Keyword& kw);
  void warn_ignored_param(const Keyword& kw, std::string_view param);
  void ignore_data(const Line& line);
  void require_model_data(const Keyword& kw) const;
  void require_step(const Keyword& kw) const;
  void follow_input(const Keyword& kw);
  void include_keyword(const Keyword& kw);
  void heading_keyword(const Keyword& kw);
  void heading_data(const Line& line);
  void part_keyword(const Keyword& kw);
  void end_part_keyword(const Keyword& kw);
  void assembly_keyword(const Keyword& kw);
  void end_assembly_keyword(const Keyword& kw);
  void instance_keyword(const Keyword& kw);
  void instance_data(const Line& line);
  void end_instance_keyword(const Keyword& kw);

  // inp_parser.cpp: values, names and messages
  [[noreturn]] void fail(Pos p, const std::string& msg) const;
  [[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) const;
  // `what` names the value in messages; a view, so that no string is built unless it fails.
  double real(std::string_view field, std::string_view what) const;
  double real_or(std::string_view field, double fallback, std::string_view what) const;
  std::int64_t integer(std::string_view field, std::string_view what) const;
  int dof(std::string_view field, std::string_view what) const;
  std::string key(std::string_view name) const;
  std::string param(const Keyword& kw, std::string_view k) const;
  std::string required_param(const Keyword& kw, std::string_view k) const;
  double real_param(const Keyword& kw, std::string_view k, double fallback) const;
  void allow_params(const Keyword& kw, std::initializer_list<std::string_view> keys) const;
  void need_fields(const Line& line, std::size_t n, const char* form) const;
  void at_most_fields(const Line& line, std::size_t n, const char* form) const;
  SourceLoc loc(Pos p) const { return lex_.loc(p); }

  // inp_mesh.cpp
  /// "instance 'NAME'" or "the assembly": whose ids are being renumbered, for messages.
  std::string renumbered_owner() const;
  void node_keyword(const Keyword& kw);
  void node_data(const Line& line);
  void element_keyword(const Keyword& kw);
  void mass_keyword(const Keyword& kw);
  void mass_data(const Line& line);
  void mass_end();
  std::int64_t element_node_id(std::string_view field, const char* what) const;
  void rotary_keyword(const Keyword& kw);
  void rotary_data(const Line& line);
  void rotary_end();
  void resolve_point_masses();
  void element_end();
  // inp_nurbs.cpp
  void nurbs_keyword(const Keyword& kw);
  void nurbs_data(const Line& line);
  void nurbs_end();
  // inp_adhesion.cpp
  void adhesion_keyword(const Keyword& kw);
  void adhesion_data(const Line& line);
  void adhesion_end();
  void resolve_adhesions();
  void check_adhesion_steps() const;
  void element_data(const Line& line);
  void nset_keyword(const Keyword& kw);
  void elset_keyword(const Keyword& kw);
  void set_keyword(const Keyword& kw, bool node_set);
  void set_data(const Line& line);
  PendingSet& open_set(bool node_set, const std::string& name, Pos pos);
  /// Adds one id to a set as written; defined: the id is known to exist (a *NODE/*ELEMENT block's own).
  void add_set_id(PendingSet& set, std::int64_t id, Pos pos, bool defined);
  void resolve_connectivity();
  /// Refuses elements of a static-only kind (C3D20, C3D10, ...) when the deck has an explicit step.
  void check_explicit_kinds() const;
  void resolve_sets();
  void resolve_set(bool node_set, PendingSet& ps);
  void build_set(bool node_set, PendingSet& ps);
  std::vector<int> node_targets(std::string_view field, Pos pos) const;
  std::vector<int> element_targets(std::string_view field, Pos pos) const;
  void check_node_set(const std::string& name, Pos pos) const;
  void check_element_set(const std::string& name, Pos pos) const;

  // inp_material.cpp
  void material_keyword(const Keyword& kw);
  void elastic_keyword(const Keyword& kw);
  void elastic_data(const Line& line);
  void elastic_end();
  /// Constants per temperature of the current *ELASTIC's TYPE (9, or 21 anisotropic).
  std::size_t elastic_count() const;
  void density_keyword(const Keyword& kw);
  void density_data(const Line& line);
  void density_end();
  void damping_keyword(const Keyword& kw);
  void user_material_keyword(const Keyword& kw);
  void section_keyword(const Keyword& kw);
  void section_data(const Line& line);
  void section_end();
  void hyperelastic_keyword(const Keyword& kw);
  void hyperelastic_data(const Line& line);
  void hyperelastic_end();
  void plastic_keyword(const Keyword& kw);
  void plastic_data(const Line& line);
  void plastic_end();
  void expansion_keyword(const Keyword& kw);
  void expansion_data(const Line& line);
  void expansion_end();
  void solid_section_keyword(const Keyword& kw);
  void solid_section_data(const Line& line);
  void beam_section_keyword(const Keyword& kw);
  void beam_section_data(const Line& line);
  void beam_section_end();
  void orientation_keyword(const Keyword& kw);
  void orientation_data(const Line& line);
  void orientation_end();
  void resolve_sections();
  void discrete_keyword(const Keyword& kw);
  void discrete_data(const Line& line);
  void discrete_end();
  /// Checks each *SPRING / *DASHPOT against the kind of its elements and reads its data lines.
  void resolve_discrete_sections();
  /// Switches the elements of solid section s (keyword at pos) to the kind of its FORMULATION=.
  void apply_formulation(const std::string& elset, const std::string& formulation, const char* keyword, Pos pos);
  /// Dialect::CalculiX: a section's elements without FORMULATION= become the formulation the
  /// peer runs for their deck kind (C3D8: FULL).
  void apply_peer_formulations(const std::string& elset);

  // inp_history.cpp
  void amplitude_keyword(const Keyword& kw);
  void amplitude_data(const Line& line);
  void amplitude_end();
  void initial_conditions_keyword(const Keyword& kw);
  void initial_conditions_data(const Line& line);
  void initial_conditions_end();
  void initial_velocity_data(const Line& line);
  void initial_rotation_data(const Line& line);
  void initial_temperature_data(const Line& line);
  /// A temperature data line's value and place (nodes left to the caller); what: the value in messages.
  TemperatureLine temperature_line(const Line& line, const char* what);
  void temperature_keyword(const Keyword& kw);
  void temperature_data(const Line& line);
  void step_keyword(const Keyword& kw);
  void end_step_keyword(const Keyword& kw);
  void dynamic_keyword(const Keyword& kw);
  void fixed_mass_scaling_keyword(const Keyword& kw);
  void variable_mass_scaling_keyword(const Keyword& kw);
  void dynamic_data(const Line& line);
  void dynamic_end();
  void bulk_viscosity_keyword(const Keyword& kw);
  void bulk_viscosity_data(const Line& line);
  void static_keyword(const Keyword& kw);
  void static_data(const Line& line);
  Step& begin_static_procedure(const Keyword& kw);
  /// The current step as a *FREQUENCY or *BUCKLE perturbation (inp_implicit_steps.cpp).
  Step& begin_perturbation_procedure(const Keyword& kw);
  // inp_implicit_steps.cpp
  void implicit_dynamic_keyword(const Keyword& kw);
  void frequency_keyword(const Keyword& kw);
  void frequency_data(const Line& line);
  void frequency_end();
  void buckle_keyword(const Keyword& kw);
  void buckle_data(const Line& line);
  void buckle_end();
  bool buckle_lanczos_ = false;  ///< the current *BUCKLE's EIGENSOLVER=LANCZOS (its data line's layout)
  void modal_dynamic_keyword(const Keyword& kw);
  void modal_dynamic_data(const Line& line);
  void modal_dynamic_end();
  Step& begin_modal_procedure(const Keyword& kw, bool steady_state);
  void steady_state_keyword(const Keyword& kw);
  void steady_state_data(const Line& line);
  void steady_state_end();
  void modal_damping_keyword(const Keyword& kw);
  void modal_damping_data(const Line& line);
  void modal_damping_end();
  void boundary_keyword(const Keyword& kw);
  void boundary_data(const Line& line);
  /// OP= of a carried block (*BOUNDARY, *CLOAD, *DLOAD, *TEMPERATURE): true for NEW (drop
  /// the carried entries), false for MOD or none; anything else is refused.
  bool replaces_carried(const Keyword& kw) const;
  void cload_keyword(const Keyword& kw);
  void cload_data(const Line& line);
  void dload_keyword(const Keyword& kw);
  void dload_data(const Line& line);
  void gravity_data(const Line& line);
  void rotation_data(const Line& line, bool centrifugal);
  /// The unit vector of fields first..first+2 of a *DLOAD line of type `load` (what: the
  /// vector's name in messages, hint: what to give instead of a zero or non-finite one).
  std::array<double, 3> unit_direction(const Line& line, std::size_t first, const std::string& load,
                                       const std::string& what, const std::string& hint);
  /// A body load's elements: the line's element or set, or with a blank first field the whole
  /// model, MASS elements included (DistributedLoad::point_masses).
  void body_load_targets(const Line& line, DistributedLoad& d);
  void check_face(int e, int face, Pos pos) const;
  void surface_keyword(const Keyword& kw);
  void surface_data(const Line& line);
  void surface_end();
  void resolve_surfaces();
  /// Refuses a *TIE or *COUPLING on a surface of planar-element edges (their face tables are
  /// the 3-D solids'; edges carry pressures only).
  void check_constraint_surfaces() const;
  /// Refuses a normal direction on a *NODE line of a node that a shell or beam uses.
  void check_node_normals() const;
  // inp_s8_expansion.cpp
  /// S8 and S8R: each element becomes a C3D20 or C3D20R brick across its shell's thickness
  /// (new nodes at x -+ t/2 n, the deck's corner nodes at mid-thickness); its *SHELL SECTION
  /// becomes a *SOLID SECTION. After the sections, before the surfaces.
  void expand_s8_elements();
  /// The expanded shells' node conditions (end of deck): a midside node is the mean of its two
  /// brick nodes, held rotations become equations on the brick nodes; prescribed rotations,
  /// moments and explicit steps are refused; temperatures and initial velocities of a deck
  /// node reach its brick nodes.
  void expand_s8_node_conditions();
  /// Whether element e is an expanded S8/S8R (its pressure P acts on face 1, SPOS is S2, SNEG S1).
  bool expanded_s8(int e) const;
  /// The face a *DLOAD line of `type` (face: its P/Pn code) loads on `elements`: 1 (the
  /// brick's bottom) for P on S8/S8R; refuses Pn on them and a line mixing them with others.
  int s8_pressure_face(const std::vector<int>& elements, int face, const std::string& type) const;
  std::string s8_element_name(int e) const;  ///< "element 7 (S8R)", for messages
  /// The *SHELL SECTION thickness of each expanded element (-1: none); those sections become
  /// *SOLID SECTIONs.
  std::vector<double> s8_section_thickness();
  /// The S8 nodes' lines: mean normals, thicknesses (*NODAL THICKNESS first), roles, with the
  /// checks that one line per node needs.
  void s8_node_lines(const std::vector<double>& thickness);
  /// The bottom and top nodes of every line and the C3D20 connectivity.
  void make_s8_bricks();
  /// The equations of each S8 node: midside means and held rotations (bits of dofs 4..6).
  void s8_node_equations(const std::vector<unsigned>& held);
  /// *NODAL THICKNESS: the shell thickness at nodes, over the section's (S8/S8R nodes only).
  void nodal_thickness_keyword(const Keyword& kw);
  void nodal_thickness_data(const Line& line);
  // inp_b32_expansion.cpp
  /// B32 and B32R: each element becomes a C3D20 or C3D20R brick around its axis (section nodes
  /// at the rectangle's corners and edge midpoints of each end, its corners at the middle);
  /// its *BEAM SECTION becomes a *SOLID SECTION. After the sections, before the surfaces.
  void expand_b32_elements();
  /// A *SOLID SECTION of elset and material for expanded elements, read at loc / pos (their
  /// *SHELL or *BEAM SECTION's line).
  void add_solid_section(const std::string& elset, const std::string& material, const SourceLoc& loc, Pos pos);
  /// A B32/B32R element's rectangle (a along n1, b along n2) and its section's n1.
  struct B32Section {
    double a = 0, b = 0;  ///< the rectangle's sides, or the circle's diameter twice
    std::array<double, 3> n1{};
    bool circ = false;  ///< SECTION=CIRC: the section nodes on the circle (b32_offset)
  };
  /// Per element, its index in `sections` (-1: none); the *BEAM SECTIONs of B32/B32R become
  /// *SOLID SECTIONs (inp_material.cpp).
  std::vector<int> take_b32_sections(std::vector<B32Section>& sections);
  /// The beam nodes' frames (mean tangent, n1 across it, n2 = t x n1) and sections.
  void b32_frames(const std::vector<int>& section_of, const std::vector<B32Section>& sections);
  /// The section nodes of every beam node and the C3D20 connectivity.
  void make_b32_bricks();
  /// The beam nodes' conditions (end of deck): each node the mean of its section, held
  /// rotations as the section's mean rotation, moments as the forces that turn it.
  void expand_b32_node_conditions();
  /// Moments on beam nodes into forces on their section nodes.
  void b32_moments(std::vector<ConcentratedLoad>& cloads) const;
  /// Appends the section nodes of the beam nodes in `nodes`.
  void add_section_nodes(std::vector<int>& nodes) const;
  /// Whether element e is an expanded B32/B32R.
  bool expanded_b32(int e) const;
  /// The held rotations (value 0) of an expanded kind's deck nodes (node_of: per node its entry
  /// of `entries`, or -1), as bits of dofs 4..6 per entry, taken off every step's *BOUNDARY
  /// lines (their translations stay); held from the first step on only, never turned: kinds
  /// ("S8/S8R"), a_node ("an S8/S8R node") and turn_why name them in the refusals.
  std::vector<unsigned> take_held_rotations(const std::vector<int>& node_of, std::size_t entries, const char* kinds,
                                            const char* a_node, const char* turn_why);
  /// Moments on S8 nodes into forces on their lines' bottom and top nodes.
  void s8_moments(std::vector<ConcentratedLoad>& cloads) const;
  /// Shares the forces on S8 corner nodes among their lines' brick nodes (1/6, 2/3, 1/6).
  void split_s8_corner_loads(std::vector<ConcentratedLoad>& cloads) const;
  /// Appends the brick nodes of the shell nodes in `nodes`.
  void add_brick_nodes(std::vector<int>& nodes) const;
  void dsload_data(const Line& line);
  // inp_constraints.cpp
  void tie_keyword(const Keyword& kw);
  void tie_data(const Line& line);
  void tie_end();
  void equation_keyword(const Keyword& kw);
  void equation_data(const Line& line);
  void equation_end();
  void rigid_body_keyword(const Keyword& kw);
  void coupling_keyword(const Keyword& kw);
  void kinematic_keyword(const Keyword& kw);
  void kinematic_data(const Line& line);
  void kinematic_end();
  void distributing_keyword(const Keyword& kw);
  void distributing_data(const Line& line);
  void distributing_end();
  void mpc_keyword(const Keyword& kw);
  void mpc_data(const Line& line);
  void mpc_end();
  // inp_pretension.cpp
  void pretension_keyword(const Keyword& kw);
  void pretension_data(const Line& line);
  /// Each *PRE-TENSION SECTION cuts its surface's nodes in two: the elements on the faces'
  /// side get twin nodes, each twin follows its node plus the section normal times the
  /// pre-tension node's dof 1 (equations). After the surfaces, before the constraints.
  void resolve_pretension_sections();
  /// The twins' share of the node conditions (end of deck): temperatures and initial
  /// conditions of a cut node reach its twin; the pre-tension nodes' dofs 2 and 3 are held.
  void expand_pretension_node_conditions();
  void resolve_constraints();
  /// Refuses node and element ids above 2^53 (not exact in the results' Float64 id arrays).
  void check_id_range() const;
  void transform_keyword(const Keyword& kw);
  void transform_data(const Line& line);
  void transform_end();
  void resolve_transforms();
  // inp_contact.cpp
  void surface_interaction_keyword(const Keyword& kw);
  void friction_keyword(const Keyword& kw);
  void friction_data(const Line& line);
  void friction_end();
  void surface_behavior_keyword(const Keyword& kw);
  void surface_behavior_data(const Line& line);
  void surface_behavior_end();
  void contact_pair_keyword(const Keyword& kw);
  void contact_pair_data(const Line& line);
  void contact_pair_end();
  void contact_keyword(const Keyword& kw);
  void contact_inclusions_keyword(const Keyword& kw);
  void contact_inclusions_data(const Line& line);
  void contact_inclusions_end();
  void contact_property_keyword(const Keyword& kw);
  void contact_property_data(const Line& line);
  void contact_property_end();
  void contact_controls_keyword(const Keyword& kw);
  void contact_controls_data(const Line& line);
  void contact_controls_end();
  void contact_exclusions_keyword(const Keyword& kw);
  /// The EDGES=YES|NO parameter of *CONTACT or *CONTACT PAIR (YES when left out).
  bool edges_param(const Keyword& kw) const;
  /// Refuses contact keywords in a *PART or after the first step (contact is defined once).
  void require_contact_placement(const Keyword& kw) const;
  /// Adds one contact pair read at `at`; `keyword` names its definition in later messages.
  void add_contact_pair(const std::string& slave, const std::string& master, const std::string& interaction,
                        const char* keyword, Pos at);
  /// Ends the open *CONTACT block: its property assignment goes to the pairs it made.
  void close_contact_block();
  /// Checks every pair against the surfaces, elements, interactions and steps (end of deck).
  void resolve_contact();
  // inp_analytic.cpp
  /// *SURFACE, TYPE=CYLINDER or REVOLUTION (type squeezed upper-case): the keyword line.
  void analytic_surface_keyword(const Keyword& kw, const std::string& type);
  void analytic_surface_data(const Line& line);
  void analytic_surface_end();
  /// Attaches each *RIGID BODY, ANALYTICAL SURFACE= to its surface and checks its reference
  /// node against the other bodies and couplings (claims: see NodeClaim), at the later line.
  void resolve_analytical_bodies();
  /// True when name is a *SURFACE, TYPE=CYLINDER or REVOLUTION.
  bool is_analytical(const std::string& name) const;
  /// Refuses an analytical surface named where element or node surfaces are expected.
  void refuse_analytical(const std::string& name, const SourceLoc& at, const std::string& where) const;
  /// The contact pairs that name analytical surfaces: keeps them as masters only, drops
  /// the mirrored pair of a *CONTACT INCLUSIONS line, needs their *RIGID BODY.
  void resolve_analytical_contact();
  // inp_output.cpp
  void output_keyword(const Keyword& kw);
  void node_output_keyword(const Keyword& kw);
  void node_output_data(const Line& line);
  void element_output_keyword(const Keyword& kw);
  void element_output_data(const Line& line);
  OutputRequest& start_output_block(const Keyword& kw, bool other_set);
  void output_variable_param(const Keyword& kw, const std::string& keyword,
                             std::initializer_list<const char*> all, std::vector<std::string>& vars);
  void output_block_end();
  void node_print_keyword(const Keyword& kw);
  void el_print_keyword(const Keyword& kw);
  void energy_print_keyword(const Keyword& kw);
  void print_keyword(const Keyword& kw, PrintRequest::Kind kind);
  void restart_keyword(const Keyword& kw);
  void print_data(const Line& line);
  void print_end();
  void time_points_keyword(const Keyword& kw);
  void time_points_data(const Line& line);
  void time_points_end();
  /// The instants of TIME POINTS=name on kw (into points, total: TIME=TOTAL TIME); false
  /// when kw has no TIME POINTS=. Refuses a name no earlier *TIME POINTS defined.
  bool time_points_param(const Keyword& kw, std::vector<double>& points, bool& total) const;
  /// Refuses TIME POINTS on the requests of explicit step s.
  void check_step_time_points(const Step& s) const;
  void finish_output_request();
  std::string reference_amplitude(const Keyword& kw);
  void resolve_model_targets();
  void attach_model_boundaries();
  void check_amplitude_references();

  /// The hash of every file read, and of the dialect (Model::source_hash).
  std::uint64_t source_hash() const;
  /// Records a problem and resets the block it happened in, so reading can go on at the
  /// next keyword; throws the collected problems once max_errors_ are reached.
  void note_error(const InputError& e);
  [[noreturn]] void throw_errors() const;

  Lexer& lex_;
  Model m_;
  int max_errors_ = 1;
  Dialect dialect_ = Dialect::Abaqus;  ///< see io/inp_reader.hpp
  ReadLimits limits_;                  ///< see io/inp_reader.hpp
  std::vector<std::string> errors_;  ///< problems found so far (what() of each)
  bool skipping_ = false;            ///< data lines of a keyword that failed are skipped

  // The keyword whose data lines are being read.
  Keyword kw_;
  const KeywordSpec* block_ = nullptr;  ///< its table entry; nullptr before the first keyword
  int block_lines_ = 0;
  Pos at_;  ///< the line being read, for value errors

  // Deck structure.
  bool in_step_ = false, model_done_ = false;
  Material* material_ = nullptr;  ///< the *MATERIAL that *ELASTIC etc. apply to
  Orientation* orientation_ = nullptr;  ///< the *ORIENTATION being read
  std::vector<double> elastic_values_;  ///< orthotropic constants read so far
  std::string surface_name_;            ///< the *SURFACE being read
  /// The *SURFACE, TYPE=CYLINDER/REVOLUTION being read (nullptr: an element or node surface)
  /// and which of its data lines comes next: 0 points a, b; 1 point c; 2 START; 3 segments.
  AnalyticalSurface* analytic_ = nullptr;
  int analytic_stage_ = 0;
  Pos analytic_start_pos_;  ///< its START line
  std::vector<PendingFace> pending_faces_;
  /// One *EQUATION term as written, its node or node set resolved with the mesh.
  struct PendingTerm {
    std::string target;
    int dof = 1;
    double coefficient = 0;
    Pos pos;
  };
  /// An *EQUATION as written: its terms and the count its first line gave.
  struct PendingEquation {
    std::vector<PendingTerm> terms;
    int expected = 0;
    Pos pos;
  };
  /// A *RIGID BODY or *COUPLING as written, its names resolved with the mesh.
  struct PendingBody {
    std::string name, ref, elset, pin, tie, surface;
    std::string rot;  ///< ROT NODE= of a *RIGID BODY (the peer's rotation node)
    std::string analytical;  ///< ANALYTICAL SURFACE= of a *RIGID BODY (then no node sets)
    bool coupling = false, kinematic = false, distributing = false, pinned_only = false;
    int order = 0;  ///< deck order among bodies, couplings and *MPC lines (constraint_order_)
    Pos pos;
  };
  // resolve_constraints' parts (inp_constraints.cpp).
  void resolve_ties();
  void resolve_equations();
  void resolve_bodies();
  void claim_node(int node, bool ref, const PendingBody& pb);
  void add_distributing_coupling(const PendingBody& pb);
  void add_rigid_body(const PendingBody& pb);
  /// A warning per rigid body whose nodes carry *DAMPING, ALPHA from an element's material:
  /// a rigid body moves without mass-proportional damping.
  void warn_undamped_rigid_bodies();
  /// *NODE PRINT's NT: dropped (with a warning) in a model without temperatures, else refused.
  void settle_temperature_prints();
  void resolve_mpcs();
  /// Moves the *BOUNDARY and *CLOAD lines on rigid bodies' rotation nodes (ROT NODE=, dofs
  /// 1-3) to their reference nodes' dofs 4-6, after the model-level ones joined the first step.
  void remap_rotation_nodes();
  std::vector<PendingBody> pending_bodies_;
  /// A node that a body, coupling or *MPC uses, for the checks of the analytical surfaces'
  /// reference nodes (resolve_analytical_bodies): which, where, and in what role.
  struct NodeClaim {
    int node = -1;
    bool ref = false;   ///< its reference (or *MPC BEAM master) node; false: a slave node
    bool analytical = false;  ///< the reference node of a *RIGID BODY, ANALYTICAL SURFACE= (owner: the surface)
    int order = 0;      ///< PendingBody::order of the claim's line
    Pos pos;
    std::string owner;  ///< for messages ("*RIGID BODY", "*COUPLING C1", "*MPC BEAM")
  };
  std::vector<NodeClaim> node_claims_;  ///< filled by resolve_constraints
  int constraint_order_ = 0;            ///< next PendingBody/PendingMpc order
  /// A *TRANSFORM as written: its node set is resolved with the mesh.
  struct PendingTransform {
    std::string nset;
    NodeTransform t;
    Pos pos;
  };
  std::vector<PendingTransform> pending_transforms_;
  /// An *MPC data line as written.
  struct PendingMpc {
    std::string type, slave, master;
    Pos pos;
    int order = 0;  ///< deck order among bodies, couplings and *MPC lines
  };
  std::vector<PendingMpc> pending_mpcs_;
  bool coupling_open_ = false;     ///< a *COUPLING waits for its *KINEMATIC
  unsigned kinematic_dofs_ = 0;    ///< dofs of the open *KINEMATIC (bit d-1)
  Pos kinematic_pos_;
  Tie tie_;                       ///< the open *TIE's parameters
  bool equation_open_ = false;    ///< the last *EQUATION still expects terms
  std::vector<PendingEquation> pending_equations_;
  /// A *PRE-TENSION SECTION as written.
  struct PendingPretension {
    std::string surface, node;
    bool normal_given = false;
    double normal[3] = {0, 0, 0};
    Pos pos;
  };
  std::vector<PendingPretension> pending_pretensions_;
  /// Per node index: its twin across a pre-tension section (-1: none); empty without sections.
  std::vector<int> pretension_twin_;
  std::vector<int> pretension_nodes_;  ///< the sections' pre-tension nodes
  SourceLoc pretension_loc_;           ///< the first section (for the holds it adds)
  bool in_part_ = false, in_assembly_ = false, in_instance_ = false;
  std::string part_, instance_;  ///< upper-case names of the open *PART and *INSTANCE
  Pos part_pos_, assembly_pos_, instance_pos_;
  std::map<std::string, PartDef> parts_;
  std::vector<StoredLine>* capture_ = nullptr;  ///< where the lines of an open part or instance go
  std::vector<StoredLine> instance_lines_;      ///< an instance's own mesh lines
  std::string instance_part_;                   ///< PART= of the open *INSTANCE
  std::vector<double> instance_transform_;      ///< its data lines: translation, then rotation
  InstanceContext inst_;                        ///< the instance being read (name empty otherwise)
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> instance_offsets_;  ///< node, element
  std::vector<std::string> instance_order_;
  std::string set_instance_;  ///< INSTANCE= of the open *NSET/*ELSET: its members are that instance's
  std::int64_t max_node_id_ = 0, max_element_id_ = 0;
  std::vector<std::pair<int, Pos>> node_normals_;  ///< nodes whose *NODE line gives a normal, with the line
  int expand_nodes_ = 0;  ///< the open *ELEMENT block is S8/S8R (8) or B32/B32R (3): nodes read, bricks later
  std::vector<int> expanded_b32_elements_;  ///< B32/B32R elements (indices), read as C3D20/C3D20R with 3 nodes
  std::vector<int> expanded_elements_;  ///< S8/S8R elements (indices), read as C3D20/C3D20R with 8 nodes
  std::vector<char> expanded_s8_;    ///< per element: an expanded S8/S8R (empty: none)
  /// A deck node of S8/S8R elements and its brick nodes along the mean normal.
  struct S8Node {
    int node = -1, bottom = -1, top = -1;  ///< node indices
    bool corner = false;                   ///< a corner (also the bricks' mid-thickness node)
    double thickness = 0;
    double size = 0;                       ///< the largest extent of its elements at it
    std::array<double, 3> normal{};        ///< unit
    SourceLoc loc;                         ///< its first element's line
  };
  std::vector<S8Node> s8_nodes_;
  /// A deck node of B32/B32R elements: its frame and its section of brick nodes.
  struct B32Node {
    int node = -1;
    bool end = false;                       ///< an end (eight section nodes) or a middle node (four)
    std::array<int, 8> section{{-1, -1, -1, -1, -1, -1, -1, -1}};  ///< node indices (corners, then edge midpoints)
    std::array<double, 3> t{}, n1{}, n2{};  ///< unit frame (n1: the section's direction until the frame is made)
    double a = 0, b = 0;                    ///< the rectangle: along n1, along n2 (a circle: its diameter)
    bool circ = false;                      ///< a circular section (B32Section::circ)
    SourceLoc loc;                          ///< its first element's line
  };
  std::vector<B32Node> b32_nodes_;
  std::vector<int> b32_node_of_;  ///< per node: its b32_nodes_ entry, or -1
  std::vector<char> expanded_b32_;  ///< per element: an expanded B32/B32R (empty: none)
  std::vector<char> b32_flip_;      ///< per expanded B32: it runs against its nodes' tangents
  /// The inverse of the polar matrix J = sum |r_k|^2 I - r_k r_k^T of a beam node's section.
  std::array<double, 9> b32_inverse_inertia(const B32Node& bn) const;
  /// The offset of section node k of bn from its beam node.
  std::array<double, 3> b32_offset(const B32Node& bn, int k) const;
  /// *NODAL THICKNESS lines as written: node or node set, thickness (resolved with the shells).
  struct PendingThickness {
    std::string target;
    double thickness = 0;
    Pos pos;
  };
  std::vector<PendingThickness> nodal_thickness_;
  std::vector<int> s8_node_of_;  ///< per node: its s8_nodes_ entry, or -1
  std::optional<std::int64_t> assembly_element_offset_;  ///< ids of elements written in the assembly itself
  std::optional<std::int64_t> assembly_node_offset_;     ///< ids of nodes written there (CAE's reference points)
  /// Labels of the nodes and elements written in the assembly itself, as written: a plain
  /// id outside the parts names one of these when it can (plain_id).
  std::set<std::int64_t> assembly_node_labels_, assembly_element_labels_;
  std::map<std::string, Pos> warned_;  ///< harmless keywords already reported

  // Contact (inp_contact.cpp).
  std::string interaction_;  ///< the *SURFACE INTERACTION that *FRICTION etc. apply to; empty: none
  bool interaction_friction_ = false;  ///< it has its *FRICTION already
  bool friction_decay_ = false;        ///< the open *FRICTION is EXPONENTIAL DECAY
  bool interaction_behavior_ = false;  ///< it has its *SURFACE BEHAVIOR already
  bool warned_calculix_linear_ = false;  ///< LINEAR's CalculiX fields (sigma_inf, c0) reported once
  /// Surface interactions with PRESSURE-OVERCLOSURE=TIED: their contact pairs become *TIEs
  /// (tie_tied_contact_pairs).
  std::set<std::string> tied_interactions_;
  /// The contact pairs whose interaction is TIED, as *TIEs of their slave to their master
  /// surface (exact, where the peer's tied contact is a stiff penalty), with a warning.
  void tie_tied_contact_pairs();
  bool warned_friction_fields_ = false;  ///< *FRICTION's fields after the coefficient reported once
  /// Where each pair of m_.contact.pairs was defined, for the end-of-deck messages.
  struct PairOrigin {
    const char* keyword = "";  ///< "*CONTACT PAIR" or "*CONTACT INCLUSIONS"
    SourceLoc interaction_at;  ///< the line naming its interaction (the pair's, or the assignment's)
  };
  std::vector<PairOrigin> pair_origins_;  ///< parallel to m_.contact.pairs
  std::string pair_interaction_;          ///< INTERACTION= of the open *CONTACT PAIR
  double pair_adjust_ = -1;               ///< ADJUST=distance of the open *CONTACT PAIR (-1: none)
  std::string pair_adjust_set_;           ///< ADJUST=node set of the open *CONTACT PAIR (empty: none)
  bool warned_kinematic_ = false;         ///< MECHANICAL CONSTRAINT=KINEMATIC reported once
  bool contact_open_ = false;             ///< a *CONTACT block takes its options
  std::optional<Pos> contact_pos_;        ///< the *CONTACT keyword (only one per deck)
  std::size_t contact_first_pair_ = 0;    ///< the first pair its inclusions made
  bool contact_edges_ = true;             ///< EDGES= of the *CONTACT or *CONTACT PAIR being read
  bool contact_inclusions_ = false;       ///< it has a *CONTACT INCLUSIONS
  bool inclusions_all_exterior_ = false;  ///< the open *CONTACT INCLUSIONS is ALL EXTERIOR
  std::optional<Pos> contact_property_pos_;  ///< its , , PROP line
  std::string contact_property_;             ///< PROP, upper-case
  std::optional<Pos> penalty_scale_pos_;     ///< the , , factor line of TYPE=SCALE PENALTY

  // Mesh and sets, resolved when the model data ends.
  std::vector<std::int64_t> conn_ids_;  ///< deck node ids of all elements (offsets in elements.conn_ptr)
  std::string block_set_;               ///< NSET= of *NODE / ELSET= of *ELEMENT
  std::string element_abaqus_type_;  ///< TYPE= of the current *ELEMENT, upper-case
  int element_kind_ = 0;  ///< registry id of the current *ELEMENT block
  /// An element whose node ids go on past its first data line: its id, the ids read so far
  /// and the first line (id 0: none pending).
  bool mass_block_ = false;  ///< the current *ELEMENT block is TYPE=MASS or TYPE=ROTARYI
  bool rotary_block_ = false;  ///< ... TYPE=ROTARYI
  std::string mass_elset_;  ///< its ELSET=
  /// MASS elements by element set: their node ids (as written) and lines, and their ids.
  std::map<std::string, std::vector<std::pair<std::int64_t, Pos>>> mass_sets_;
  std::map<std::int64_t, Pos> mass_ids_;
  /// *MASS blocks: the element set, the value and the keyword line.
  struct PendingMass {
    std::string elset;
    double mass = 0;
    Pos pos;
  };
  std::vector<PendingMass> pending_masses_;
  /// ROTARYI elements by element set, and the *ROTARY INERTIA blocks (mass: the inertia).
  std::map<std::string, std::vector<std::pair<std::int64_t, Pos>>> rotary_sets_;
  std::vector<PendingMass> pending_rotary_;
  std::int64_t element_pending_id_ = 0;
  std::vector<std::int64_t> element_pending_nodes_;
  Pos element_pending_at_;
  std::map<std::string, PendingSet> pending_nsets_, pending_elsets_;
  std::vector<std::string> set_names_;  ///< nested set names referenced by SetItem::name
  PendingSet* cur_set_ = nullptr;
  /// The *NURBS PATCH being read: its parameters, then its data lines in order (stage 0:
  /// degrees, 1: control point counts, 2 .. dim + 1: the knot vectors, dim + 2: the control
  /// points).
  struct PendingNurbs {
    bool open = false;
    Pos pos;
    std::string name, type, elset, nset;
    int dim = 2;  ///< parametric dimension: 2 (TYPE=CPE, CPS) or 3 (TYPE=C3D)
    int refine = 0, elevate = 0, stage = 0;
    std::array<int, 3> degree{}, count{};
    std::array<std::vector<double>, 3> knots;
    std::vector<double> x, y, z, w;
    std::vector<Pos> pos_of_point;
  };
  PendingNurbs nurbs_;
  /// An *ADHESION block: its parameters and data (lines: how many were read), made into
  /// edge elements when the model data ends (resolve_adhesions).
  struct PendingAdhesion {
    Pos pos;
    std::string name, surface;
    int law = 0;  ///< AdhesionLawKind
    int lines = 0;
    double hamaker = 0, r0 = 0, r_min = 0, penalty = 0;
    std::array<double, 2> point{}, normal{};
  };
  std::vector<PendingAdhesion> pending_adhesions_;
  bool cur_set_nodes_ = true, cur_set_generate_ = false;
  std::vector<char> seen_;  ///< scratch membership flags while a set is resolved

  // Model-data references and holds, resolved when the model data ends.
  std::vector<PendingTarget> velocity_targets_, rotation_targets_, model_boundary_targets_, temperature_targets_;
  std::vector<Boundary> model_boundaries_;
  std::vector<Pos> section_pos_;  ///< *SHELL SECTION keyword lines, parallel to sections
  std::vector<Pos> solid_section_pos_;  ///< *SOLID SECTION keyword lines, parallel to solid_sections
  std::vector<Pos> beam_section_pos_;   ///< *BEAM SECTION keyword lines, parallel to beam_sections
  /// *SPRING and *DASHPOT blocks: element set, which keyword, and their non-blank data lines
  /// (values as read, empty fields as NaN; the kind of the set decides what they mean).
  struct PendingDiscrete {
    std::string elset;
    bool dashpot = false;
    bool nonlinear = false;  ///< *SPRING, NONLINEAR: force, relative displacement lines
    Pos pos;
    std::vector<std::pair<std::vector<double>, Pos>> lines;
  };
  std::vector<PendingDiscrete> pending_discrete_;
  std::vector<std::pair<std::string, Pos>> amplitude_refs_;
  /// An amplitude shifted by the peer's TIME DELAY= (its copy `name` of `base`, later by `delay`).
  struct DelayedAmplitude {
    std::string name, base;
    double delay = 0;
  };
  std::vector<DelayedAmplitude> delayed_amplitudes_;

  // Block state.
  Amplitude amp_;
  bool amp_total_time_ = false;
  double amp_time_ = 0;     ///< a time whose value is still to come (pairs may wrap lines)
  bool amp_half_pair_ = false;
  std::vector<Pos> total_time_amplitudes_;
  bool initial_rotating_ = false;  ///< *INITIAL CONDITIONS, TYPE=ROTATING VELOCITY
  bool initial_temperature_ = false;  ///< *INITIAL CONDITIONS, TYPE=TEMPERATURE
  bool expansion_ortho_ = false;      ///< *EXPANSION, TYPE=ORTHO
  RotationState rotation_state_ = RotationState::NewEntry;
  int output_target_ = -1;  ///< request the current *NODE/*ELEMENT OUTPUT fills
  bool output_block_has_vars_ = false;
  std::string block_amplitude_;  ///< AMPLITUDE= of the current *BOUNDARY/*CLOAD/*DLOAD
  bool block_imaginary_ = false;  ///< LOAD CASE=2 of the current *CLOAD (steady-state dynamics)
  bool block_velocity_ = false;  ///< *BOUNDARY, TYPE=VELOCITY
  bool block_fixed_ = false;     ///< *BOUNDARY, FIXED

  // Step state.
  bool has_procedure_ = false;      ///< the step has its *DYNAMIC, EXPLICIT or *STATIC
  int step_nlgeom_ = -1;
  /// *STEP, AMPLITUDE=: where it was given (line 0: not given) and its value (upper case).
  Pos step_amplitude_{};
  std::string step_amplitude_value_;
  /// Refuses *STEP, AMPLITUDE= other than a *STATIC step's default, RAMP (kw: the procedure).
  void check_step_amplitude(const Keyword& kw) const;
  Pos step_perturbation_{};         ///< *STEP, PERTURBATION: where it was given (line 0: not given)            ///< *STEP, NLGEOM=: -1 not given, 0 NO, 1 YES
  bool nlgeom_on_ = false;          ///< a previous static step turned NLGEOM on
  int output_first_ = -1, output_current_ = -1;  ///< the step's current *OUTPUT (and clone)
  /// *TIME POINTS lists by name, as read so far (a request names one defined before it).
  struct TimePointList {
    std::vector<double> times;
    bool total = false, generate = false;
    Pos pos{};
  };
  std::map<std::string, TimePointList> time_points_;
  std::string time_points_current_;  ///< the list the open *TIME POINTS block fills
  bool output_preselect_ = false, output_has_sub_ = false;
};

}  // namespace halfstep::inp
