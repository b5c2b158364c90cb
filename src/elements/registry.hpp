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
#include "elements/kind_info.hpp"
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
                          ADH4, NC3D1, NC3D2, NC3D3, CPS8, CPS8R, CPE8, CPE8R, CAX8, CAX8R, C3D8Full,
                          C3D20RReducedMass>;

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
