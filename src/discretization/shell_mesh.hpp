// The MITC4 shells of a model as structure-of-arrays: connectivity, sections, reference
// constants, areas, stable increments, the node -> corner gather map and the section points of
// plastic sections. Built with the rest of the system (build_structure_system); the state
// lives in StructureState.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "elements/mitc4.hpp"
#include "elements/mitc4_elastic.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {

/// Per-section constants used by the element loop.
struct SectionProps {
  double thickness = 0;
  double density = 0;
  double alpha = 0;  ///< mass-proportional damping coefficient
  double youngs = 0, poisson = 0;
  ShellElastic<double> elastic{};
  /// Simpson points through the thickness of a plastic section (*SHELL SECTION's count; 0:
  /// elastic, integrated in closed form).
  int section_points = 0;
  SolidMaterial<double> law{};  ///< plastic sections: elastic constants and hardening table (J2Plastic)
  std::string name;  ///< "elset/material", for reports
};

/// The shells of a model.
struct ShellMesh {
  int num_elements = 0;            ///< shells; "element e" below means shell e
  std::vector<int> model_element;  ///< shell -> model element index
  std::vector<int> conn;           ///< 4 node indices per shell
  std::vector<int> section;        ///< index into sections per shell
  std::vector<SectionProps> sections;
  std::vector<Mitc4Ref<double>> ref;  ///< reference constants per shell
  std::vector<double> area;           ///< shell areas
  std::vector<double> element_dt;     ///< stable increment estimate per shell
  std::vector<int> node_slot_ptr, node_slots;  ///< node -> (shell*4 + corner) gather map (CSR)
  /// Section points of plastic shells in the shell state store (elements/mitc4_plastic.hpp):
  /// shell e owns points [first_point[e], first_point[e + 1]), 4 x its section's
  /// section_points (none for elastic sections); empty without shells.
  std::vector<std::size_t> first_point;
  std::size_t num_points = 0;  ///< points over all shells: the store's stride
  int boundary = 0;            ///< distributed runs: shells [0, boundary) touch a shared node
};

// A rank share (parallel/run_share.cpp) carries a mesh through its field list below; the size
// guard (x86-64, libstdc++) stops the build when a field is added, so that it joins the list.
template <class Ar>
void serialize(Ar& ar, SectionProps& s) {
  ar(s.thickness, s.density, s.alpha, s.youngs, s.poisson, s.elastic, s.section_points, s.law, s.name);
}
static_assert(sizeof(SectionProps) == 808, "SectionProps changed: add the new field to its serialize, then update the size");

/// The shells' fields in the order a rank share carries them.
template <class Ar>
void serialize(Ar& ar, ShellMesh& m) {
  ar(m.num_elements, m.model_element, m.conn, m.section, m.sections, m.ref, m.area, m.element_dt, m.node_slot_ptr,
     m.node_slots, m.first_point, m.num_points, m.boundary);
}
static_assert(sizeof(ShellMesh) == 264, "ShellMesh changed: add the new field to its serialize, then update the size");
static_assert(std::is_trivially_copyable_v<Mitc4Ref<double>> && std::is_trivially_copyable_v<ShellElastic<double>>,
              "a shell value that travels as bytes gained an owning member: give it a field list");

/// Why a received shell mesh's counts cannot be right ("" when they can): the count against
/// its arrays, section points beyond any section's (a corrupt count would size the state).
inline std::string implausible_counts(const ShellMesh& m, long long) {
  if (m.num_elements < 0 || m.num_elements != static_cast<long long>(m.model_element.size()))
    return "shell count " + std::to_string(m.num_elements);
  const long long points = static_cast<long long>(m.num_points);
  return points < 0 || points > 1024LL * m.num_elements ? "a count out of range" : "";
}

/// What a distributed run's whole-model outline keeps of the shells: their counts.
inline ShellMesh mesh_outline(const ShellMesh& g) {
  ShellMesh m;
  m.num_elements = g.num_elements;
  m.num_points = g.num_points;
  return m;
}

}  // namespace halfstep
