// Lumped nodal masses of the element families whose nodes rotate (FPM beams and triangles):
// one record filled by each family's mesh builder and summed into the system's nodes.
#pragma once

#include <cstddef>
#include <vector>

namespace halfstep {

/// Lumped nodal contributions of one family (per node, size num_nodes; empty when the family
/// has no elements, so that a model of millions of shells does not fill arrays of zeros).
struct RotatingMassContribution {
  std::vector<double> mass, inertia, damp, damp_rot;
  double total_mass = 0;
  double energy_per_unit_strain = 0;  ///< sum of E times the section measure over the elements, / 2

  /// Zeroed arrays for nn nodes.
  void reset(int nn) {
    for (std::vector<double>* v : {&mass, &inertia, &damp, &damp_rot}) v->assign(static_cast<std::size_t>(nn), 0.0);
    total_mass = energy_per_unit_strain = 0;
  }
  /// Adds mass m and rotary inertia j at node n, with mass-proportional damping alpha on both
  /// (the caller adds the element's mass to total_mass).
  void add(int n, double m, double j, double alpha) {
    const auto k = static_cast<std::size_t>(n);
    mass[k] += m;
    inertia[k] += j;
    damp[k] += alpha * m;
    damp_rot[k] += alpha * j;
  }
};

}  // namespace halfstep
