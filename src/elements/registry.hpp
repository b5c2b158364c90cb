// The element registry: the one place that lists the element kinds. A deck's TYPE= is looked
// up here, and every loop that must call a kind's compile-time trait (CPU passes, GPU
// launches, output, model build) reaches it through visit_continuum_kind. Adding a kind is
// its trait header plus one entry in AllKinds below (docs/architecture.md).
//
// A trait K provides (see solid_kinds.hpp for the continuum interface):
//   kNodes, name(), kAliases (space-separated other deck names), kDimension (2: planar, nodes
//   carry x and y only; 3), kVtkCell, kCost (partition weight), kPoints (integration points),
//   and optionally kFormulation: a kind that is another formulation of a deck element (the FPM
//   hexahedron is C3D8 with *SOLID SECTION, FORMULATION=FPM) names its deck kind in name() and
//   the formulation there; TYPE= never selects it, find_element_kind(name, formulation) does;
//   optionally kExplicit = false for a kind that runs in static steps only (as in Abaqus,
//   whose explicit solver lacks it: CPS8, CAX8 and the other 8-node quadrilaterals) with kExplicitAlternative, the
//   kinds to use instead (named in the reader's message); and optionally kVtkOrder[kNodes],
//   the element node that is VTK's point i when VTK orders the cell differently (C3D6);
//   optionally kAxisymmetric = true for a planar kind whose nodes are (r, z) and whose
//   volumes are rings (CAX4R, CAX8: the section thickness is not used, no planar kinds beside it).
// Continuum traits (3 or 2 translational dofs per node) add mass_fractions, internal_force,
// stable_dt and centroid_output, host/device.
#pragma once

#include <string>
#include <type_traits>

#include "elements/adhesion_edge.hpp"
#include "elements/discrete.hpp"
#include "elements/axisymmetric_quad.hpp"
#include "elements/bulk_viscosity.hpp"
#include "elements/fpm_hex.hpp"
#include "elements/fpm_beam.hpp"
#include "elements/fpm_tri.hpp"
#include "elements/mitc4.hpp"
#include "elements/nurbs_hex.hpp"
#include "elements/nurbs_quad.hpp"
#include "elements/plane_quad.hpp"
#include "elements/plane_quad8.hpp"
#include "elements/solid_hex20.hpp"
#include "elements/solid_kinds.hpp"
#include "elements/truss.hpp"
#include "elements/solid_wedge.hpp"

namespace halfstep {

/// A compile-time list of element traits.
template <class... K>
struct KindList {};

/// Every element kind, in registry order: the position is the kind id stored in the model
/// (Elements::kind) and the order of the continuum element groups. Shells come first.
using AllKinds = KindList<Mitc4Kind, C3D8R, C3D8, C3D4, C3D10M, CPS4, CPE4, FpmC3D8, FpmBeamKind, FpmTriKind, T3D2,
                          SPRINGA, SPRING1, SPRING2, DASHPOTA, DASHPOT1, DASHPOT2, CPS4R, CPE4R, C3D6, C3D20R, C3D20,
                          C3D10, CAX4R, NCPE1, NCPE2, NCPE3, NCPE4, NCPS1, NCPS2, NCPS3, NCPS4, ADH1, ADH2, ADH3,
                          ADH4, NC3D1, NC3D2, NC3D3, CPS8, CPS8R, CPE8, CPE8R, CAX8, CAX8R>;

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

namespace registry_detail {

template <class K, class = void>
struct RunsExplicit : std::true_type {};
template <class K>
struct RunsExplicit<K, std::void_t<decltype(K::kExplicit)>> : std::bool_constant<K::kExplicit> {};

template <class K, class = void>
struct Axisymmetric : std::false_type {};
template <class K>
struct Axisymmetric<K, std::void_t<decltype(K::kAxisymmetric)>> : std::bool_constant<K::kAxisymmetric> {};

template <class F, class K, class... Rest>
bool visit_continuum(int id, int at, F& f, KindList<K, Rest...>) {
  if (id == at) {
    if constexpr (std::is_same_v<K, Mitc4Kind> || std::is_same_v<K, FpmBeamKind> || std::is_same_v<K, FpmTriKind>) {
      return false;
    } else {
      f(K{});
      return true;
    }
  }
  if constexpr (sizeof...(Rest) > 0) return visit_continuum(id, at + 1, f, KindList<Rest...>{});
  return false;
}

}  // namespace registry_detail

/// Whether kind K is axisymmetric (nodes (r, z), ring volumes; trait kAxisymmetric).
template <class K>
constexpr bool is_axisymmetric() {
  return registry_detail::Axisymmetric<K>::value;
}

/// Whether kind K runs in explicit dynamic steps (false for a trait with kExplicit = false):
/// the explicit kernels are instantiated for these kinds only.
template <class K>
constexpr bool runs_explicit() {
  return registry_detail::RunsExplicit<K>::value;
}

/// Calls f(K{}) with the trait of continuum kind id; false (f not called) for the shell,
/// beam and triangle kinds or an id outside the registry.
template <class F>
bool visit_continuum_kind(int id, F&& f) {
  return registry_detail::visit_continuum(id, 0, f, AllKinds{});
}

}  // namespace halfstep
