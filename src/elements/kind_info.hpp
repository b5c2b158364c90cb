// The run-time facts of the element kinds and their lookups, apart from the registry's
// trait list: code that asks what a kind is (its section keyword, faces, dofs) includes this
// without compiling every element trait.
#pragma once

#include <string>

namespace halfstep {

/// How a kind's elements are integrated: the MITC4 shell path (5 dofs per node, nodal
/// triads), the continuum path (translations only, one templated loop for every trait), the
/// FPM beam path or the FPM triangle path (both 6 dofs per node, global rotations).
enum class ElementFamily { Shell, Continuum, Beam, FpmShell };

/// Run-time facts of one element kind, read from its trait.
struct ElementKindInfo {
  const char* name;     ///< Abaqus name (the kind's canonical deck name)
  const char* aliases;  ///< other deck names run as this kind, space-separated
  const char* formulation;  ///< "" for a deck kind's default formulation, else its FORMULATION= value
  int nodes;
  int dimension;        ///< 2: planar (x, y); 3: spatial
  int dofs_per_node;    ///< 6 for shells and beams (3 translations, 3 rotations), else the dimension
  int vtk_cell;
  double cost;          ///< relative cost per increment (MITC4 = 1)
  int points;           ///< integration points per element
  ElementFamily family;
  int discrete = 0;       ///< 1: a spring (takes *SPRING), 2: a dashpot (*DASHPOT), 0: neither (K::kDiscrete)
  int discrete_dofs = 0;  ///< dof fields on the *SPRING / *DASHPOT first data line (K::kDiscreteDofs)
  bool cross_section = false;  ///< a truss: the *SOLID SECTION data line is its area (K::kCrossSection)
  bool explicit_dynamics;            ///< false: static steps only (the reader refuses it in explicit steps)
  const char* explicit_alternative;  ///< the kinds to use in explicit steps instead ("" when explicit_dynamics)
  const int* vtk_order;              ///< element node of VTK point i, or null when VTK's order is the element's
  bool axisymmetric;                 ///< planar kind on (r, z) with ring volumes (CAX4R)
  bool adhesion = false;             ///< an adhesion edge (K::kAdhesion): ties its nodes to a rigid substrate
  const char* made_by = "";          ///< the keyword that makes its elements (kinds with element data), "" for *ELEMENT
  bool bulk_viscosity = false;       ///< takes the explicit steps' bulk viscosity (K::hex_corner, elements/bulk_viscosity.hpp)
  bool thermal_strain = false;       ///< its stresses take the thermal strain of *EXPANSION (K::kThermalStrain)
  /// The keyword that gives its elements their section, as spelled in a deck: "*SOLID SECTION",
  /// "*SHELL SECTION", "*BEAM SECTION", "*SPRING", "*DASHPOT" or "*ADHESION" (which makes them).
  const char* section_keyword = "*SOLID SECTION";
  /// A mid-surface with its section's thickness (MITC4, the FPM triangle): its faces are its two
  /// sides (SPOS, SNEG), its pressure is P, contact acts at half the thickness off it.
  bool mid_surface = false;
  /// Its stress output is section forces and moments (SF, SM) at the element, not stresses at points.
  bool section_forces = false;
};

/// Number of kinds in the registry.
int num_element_kinds();
/// Facts of kind id (0 .. num_element_kinds() - 1).
const ElementKindInfo& element_kind(int id);
/// Kind id of a deck TYPE= name (upper-case), or -1 when no kind has that name or alias
/// (kinds of another formulation are never found by name alone).
int find_element_kind(const std::string& deck_name);
/// Kind id of formulation `formulation` (upper-case; "" the default) of the kind whose
/// canonical name is deck_name, or -1 when the registry has no such pair.
int find_element_kind(const std::string& deck_name, const std::string& formulation);
/// Kind id of a kind that exists only as a formulation (no default-formulation kind has this
/// name): the kind whose name or alias is deck_name, or -1. The reader takes such elements
/// (S3) and requires their section's FORMULATION=.
int find_formulation_only_kind(const std::string& deck_name);
/// Whether some kind has this FORMULATION= value.
bool is_element_formulation(const std::string& formulation);
/// The deck kinds that have formulation `formulation`, comma-separated (e.g. "C3D8").
std::string formulation_kinds(const std::string& formulation);
/// Every formulation with the kinds it applies to, e.g. "FPM (for C3D8)", for error messages.
std::string supported_formulations();
/// Every deck name the registry accepts, comma-separated, for error messages.
std::string supported_element_names();
/// Kind id of the shell kind (MITC4).
int shell_kind_id();

}  // namespace halfstep
