// The MITC4 shells of a model as structure-of-arrays: connectivity, sections, reference
// constants, areas, stable increments, the node -> corner gather map and the section points of
// plastic sections. Built with the rest of the system (build_structure_system); the state
// lives in StructureState.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "elements/mitc4.hpp"
#include "materials/shell_elastic.hpp"
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
  SolidMaterial<double> law{};  ///< plastic sections: elastic constants and hardening table (kJ2Plastic)
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

}  // namespace halfstep
