// The keyword table: every keyword the deck reader knows, one line each.
//
// Adding a keyword:
//  1. Write its handlers as DeckParser methods in the file of its concern (inp_mesh.cpp,
//     inp_material.cpp, inp_history.cpp, inp_constraints.cpp, inp_contact.cpp,
//     inp_analytic.cpp, inp_output.cpp; deck structure in inp_parser.cpp)
//     and declare them in that file's section of inp_parser.hpp:
//       void foo_keyword(const Keyword& kw);  // the keyword line: parameters, checks, state
//       void foo_data(const Line& line);      // one data line (leave out if it takes none)
//       void foo_end();                       // checks needing all data lines (optional)
//  2. Add one line below: {"*FOO", flags, &P::foo_keyword, &P::foo_data, &P::foo_end}.
// The core (inp_parser.cpp) applies the flags before the keyword handler runs, so handlers
// need not repeat them, and a data line under a keyword without a data handler is refused
// there. Report errors with fail(pos, ...): pos is the keyword's or data line's, so every
// message carries file:line. Document the keyword in docs/input.md.
#include <algorithm>

#include "io/inp_parser.hpp"

namespace halfstep::inp {

const std::vector<DeckParser::KeywordSpec>& DeckParser::keywords() {
  using P = DeckParser;
  // Names are written as messages show them; blanks do not matter when matching.
  static const std::vector<KeywordSpec> table = {
      // Deck structure (inp_parser.cpp). *INCLUDE keeps the open block: a *NODE's data
      // lines may continue in the included file.
      {"*INCLUDE", kInsideBlock, &P::include_keyword},
      {"*HEADING", kModelData, &P::heading_keyword, &P::heading_data},
      {"*PART", kModelData, &P::part_keyword},
      {"*END PART", kAnywhere, &P::end_part_keyword},
      {"*ASSEMBLY", kModelData, &P::assembly_keyword},
      {"*END ASSEMBLY", kAnywhere, &P::end_assembly_keyword},
      {"*INSTANCE", kAnywhere, &P::instance_keyword, &P::instance_data},
      {"*END INSTANCE", kAnywhere, &P::end_instance_keyword},

      // Mesh and sets (inp_mesh.cpp)
      {"*NODE", kModelData, &P::node_keyword, &P::node_data},
      {"*ELEMENT", kModelData, &P::element_keyword, &P::element_data, &P::element_end},
      {"*NURBS PATCH", kModelData, &P::nurbs_keyword, &P::nurbs_data, &P::nurbs_end},
      {"*ADHESION", kModelData, &P::adhesion_keyword, &P::adhesion_data, &P::adhesion_end},
      {"*MASS", kModelData, &P::mass_keyword, &P::mass_data, &P::mass_end},
      {"*ROTARY INERTIA", kModelData, &P::rotary_keyword, &P::rotary_data, &P::rotary_end},
      {"*NSET", kModelData, &P::nset_keyword, &P::set_data},
      {"*ELSET", kModelData, &P::elset_keyword, &P::set_data},

      // Materials, sections, orientations (inp_material.cpp)
      {"*MATERIAL", kModelData, &P::material_keyword},
      {"*ELASTIC", kMaterialOption, &P::elastic_keyword, &P::elastic_data, &P::elastic_end},
      {"*HYPERELASTIC", kMaterialOption, &P::hyperelastic_keyword, &P::hyperelastic_data,
       &P::hyperelastic_end},
      {"*PLASTIC", kMaterialOption, &P::plastic_keyword, &P::plastic_data, &P::plastic_end},
      {"*DENSITY", kMaterialOption, &P::density_keyword, &P::density_data, &P::density_end},
      {"*EXPANSION", kMaterialOption, &P::expansion_keyword, &P::expansion_data, &P::expansion_end},
      {"*DAMPING", kMaterialOption, &P::damping_keyword},
      {"*USER MATERIAL", kMaterialOption, &P::user_material_keyword},
      {"*SHELL SECTION", kModelData, &P::section_keyword, &P::section_data, &P::section_end},
      {"*SOLID SECTION", kModelData, &P::solid_section_keyword, &P::solid_section_data},
      {"*NODAL THICKNESS", kModelData, &P::nodal_thickness_keyword, &P::nodal_thickness_data},
      {"*SPRING", kModelData, &P::discrete_keyword, &P::discrete_data, &P::discrete_end},
      {"*DASHPOT", kModelData, &P::discrete_keyword, &P::discrete_data, &P::discrete_end},
      {"*BEAM SECTION", kModelData, &P::beam_section_keyword, &P::beam_section_data, &P::beam_section_end},
      {"*ORIENTATION", kModelData, &P::orientation_keyword, &P::orientation_data,
       &P::orientation_end},

      // Amplitudes, initial conditions, surfaces, steps, boundary conditions and loads
      // (inp_history.cpp; *SURFACE, TYPE=CYLINDER/REVOLUTION in inp_analytic.cpp). *BOUNDARY
      // checks its own placement: it may also come before the first step. A step's optional
      // data line is its title.
      {"*AMPLITUDE", kAnywhere, &P::amplitude_keyword, &P::amplitude_data, &P::amplitude_end},
      {"*INITIAL CONDITIONS", kModelData, &P::initial_conditions_keyword,
       &P::initial_conditions_data, &P::initial_conditions_end},
      {"*SURFACE", kModelData, &P::surface_keyword, &P::surface_data, &P::surface_end},

      // Constraints (inp_constraints.cpp)
      {"*TIE", kModelData, &P::tie_keyword, &P::tie_data, &P::tie_end},
      {"*EQUATION", kModelData, &P::equation_keyword, &P::equation_data, &P::equation_end},
      {"*RIGID BODY", kModelData, &P::rigid_body_keyword},
      {"*COUPLING", kModelData, &P::coupling_keyword},
      {"*KINEMATIC", kModelData, &P::kinematic_keyword, &P::kinematic_data, &P::kinematic_end},
      {"*DISTRIBUTING", kModelData, &P::distributing_keyword, &P::distributing_data, &P::distributing_end},
      {"*MPC", kModelData, &P::mpc_keyword, &P::mpc_data, &P::mpc_end},
      {"*PRE-TENSION SECTION", kModelData, &P::pretension_keyword, &P::pretension_data},
      {"*TRANSFORM", kModelData, &P::transform_keyword, &P::transform_data, &P::transform_end},

      // Contact (inp_contact.cpp). *CONTACT PAIR and *CONTACT check their own placement:
      // model data or the first step. Options follow their *SURFACE INTERACTION or *CONTACT.
      {"*SURFACE INTERACTION", kModelData, &P::surface_interaction_keyword},
      {"*FRICTION", kInteractionOption, &P::friction_keyword, &P::friction_data, &P::friction_end},
      {"*SURFACE BEHAVIOR", kInteractionOption, &P::surface_behavior_keyword, &P::surface_behavior_data,
       &P::surface_behavior_end},
      {"*CONTACT PAIR", kAnywhere, &P::contact_pair_keyword, &P::contact_pair_data, &P::contact_pair_end},
      {"*CONTACT", kAnywhere, &P::contact_keyword},
      {"*CONTACT INCLUSIONS", kContactOption, &P::contact_inclusions_keyword, &P::contact_inclusions_data,
       &P::contact_inclusions_end},
      {"*CONTACT PROPERTY ASSIGNMENT", kContactOption, &P::contact_property_keyword, &P::contact_property_data,
       &P::contact_property_end},
      {"*CONTACT CONTROLS ASSIGNMENT", kContactOption, &P::contact_controls_keyword, &P::contact_controls_data,
       &P::contact_controls_end},
      {"*CONTACT EXCLUSIONS", kContactOption, &P::contact_exclusions_keyword},

      {"*STEP", kAnywhere, &P::step_keyword, &P::ignore_data},
      {"*END STEP", kAnywhere, &P::end_step_keyword},
      {"*DYNAMIC", kInStep, &P::dynamic_keyword, &P::dynamic_data, &P::dynamic_end},
      {"*STATIC", kInStep, &P::static_keyword, &P::static_data},
      {"*FREQUENCY", kInStep, &P::frequency_keyword, &P::frequency_data, &P::frequency_end},
      {"*BUCKLE", kInStep, &P::buckle_keyword, &P::buckle_data, &P::buckle_end},
      {"*MODAL DYNAMIC", kInStep, &P::modal_dynamic_keyword, &P::modal_dynamic_data, &P::modal_dynamic_end},
      {"*STEADY STATE DYNAMICS", kInStep, &P::steady_state_keyword, &P::steady_state_data, &P::steady_state_end},
      {"*MODAL DAMPING", kInStep, &P::modal_damping_keyword, &P::modal_damping_data, &P::modal_damping_end},
      {"*FIXED MASS SCALING", kInStep, &P::fixed_mass_scaling_keyword},
      {"*VARIABLE MASS SCALING", kInStep, &P::variable_mass_scaling_keyword},
      {"*BULK VISCOSITY", kInStep, &P::bulk_viscosity_keyword, &P::bulk_viscosity_data},
      {"*BOUNDARY", kAnywhere, &P::boundary_keyword, &P::boundary_data},
      {"*CLOAD", kInStep, &P::cload_keyword, &P::cload_data},
      {"*DLOAD", kInStep, &P::dload_keyword, &P::dload_data},
      {"*DSLOAD", kInStep, &P::dload_keyword, &P::dsload_data},
      {"*TEMPERATURE", kInStep, &P::temperature_keyword, &P::temperature_data},

      // Output requests (inp_output.cpp)
      {"*OUTPUT", kInStep, &P::output_keyword},
      {"*NODE OUTPUT", kInStep, &P::node_output_keyword, &P::node_output_data,
       &P::output_block_end},
      {"*ELEMENT OUTPUT", kInStep, &P::element_output_keyword, &P::element_output_data,
       &P::output_block_end},
      {"*NODE PRINT", kInStep, &P::node_print_keyword, &P::print_data, &P::print_end},
      {"*EL PRINT", kInStep, &P::el_print_keyword, &P::print_data, &P::print_end},
      {"*ENERGY PRINT", kInStep, &P::energy_print_keyword},
      {"*TIME POINTS", kAnywhere, &P::time_points_keyword, &P::time_points_data, &P::time_points_end},
      {"*RESTART", kAnywhere, &P::restart_keyword},

      // Keywords that cannot change the computed motion: ignored with one warning each,
      // their data lines skipped. Any keyword missing from this table is an error.
      {"*PREPRINT", kAnywhere, &P::warn_ignored, &P::ignore_data},
      {"*ENERGY OUTPUT", kAnywhere, &P::warn_ignored, &P::ignore_data},
      {"*MONITOR", kAnywhere, &P::warn_ignored, &P::ignore_data},
      {"*FILE FORMAT", kAnywhere, &P::warn_ignored, &P::ignore_data},
      {"*SECTION CONTROLS", kAnywhere, &P::warn_ignored, &P::ignore_data},
      {"*NODE FILE", kAnywhere, &P::warn_ignored, &P::ignore_data},
      {"*EL FILE", kAnywhere, &P::warn_ignored, &P::ignore_data},
      {"*ENERGY FILE", kAnywhere, &P::warn_ignored, &P::ignore_data},
      {"*CONTACT OUTPUT", kAnywhere, &P::warn_ignored, &P::ignore_data},
      {"*CONTACT FILE", kAnywhere, &P::warn_ignored, &P::ignore_data},
      {"*CONTACT PRINT", kAnywhere, &P::warn_ignored, &P::ignore_data},
      {"*CONTROLS", kAnywhere, &P::controls_keyword, &P::ignore_data},
      {"*DIAGNOSTICS", kAnywhere, &P::warn_ignored, &P::ignore_data},
      {"*PRINT", kAnywhere, &P::warn_ignored, &P::ignore_data},
      {"*FILE OUTPUT", kAnywhere, &P::warn_ignored, &P::ignore_data},
  };
  return table;
}

namespace {

// Keyword lines arrive squeezed ("SHELLSECTION"), so the table name is compared without
// its '*' and its blanks rather than building a string per keyword line.
bool same_keyword(std::string_view table_name, std::string_view squeezed) {
  std::size_t j = 0;
  for (std::size_t i = 1; i < table_name.size(); ++i) {
    if (table_name[i] == ' ') continue;
    if (j == squeezed.size() || table_name[i] != squeezed[j]) return false;
    ++j;
  }
  return j == squeezed.size();
}

}  // namespace

const DeckParser::KeywordSpec* DeckParser::find_keyword(std::string_view squeezed_name) {
  const auto& table = keywords();
  const auto it = std::find_if(table.begin(), table.end(), [&](const KeywordSpec& k) {
    return same_keyword(k.name, squeezed_name);
  });
  return it == table.end() ? nullptr : &*it;
}

}  // namespace halfstep::inp
