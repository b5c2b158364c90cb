// The mass of the static step's dofs for the steps that need inertia (frequency, steady-state
// and implicit dynamic steps): the lumped nodal masses, with the quadratic solids' consistent
// element masses in place of their lumped share (elements/consistent_mass.hpp), as
// Abaqus/Standard and the peer use second-order elements' consistent mass; and the
// mass-proportional damping of *DAMPING, ALPHA on the same split.
#pragma once

#include <cstddef>
#include <vector>

#include "assembly/csr_assembly.hpp"
#include "discretization/structure_system.hpp"
#include "model/model.hpp"

namespace halfstep {

class ContinuumOperator;

/// The mass and damping matrices on the dofs of the static step's layout (`q` per node).
struct DofMass {
  std::size_t q = 3;              ///< dofs per node
  std::vector<double> m_rest;     ///< lumped mass per dof less the elements' below
  std::vector<double> c_rest;     ///< lumped damping (c = alpha m) per dof less the elements'
  /// Consistent element masses: element i's nodes are element_nodes[element_ptr[i] ..
  /// element_ptr[i + 1]), its matrix (n x n, row-major, the same for each direction) at
  /// element_mass[mass_ptr[i]], its damping element_alpha[i] times that.
  std::vector<int> element_ptr{0}, element_nodes;
  std::vector<std::size_t> mass_ptr;
  std::vector<double> element_mass, element_alpha;
  /// *DAMPING, BETA (add_stiffness_damping): damping block i couples the dofs
  /// stiff_dofs[stiff_ptr[i] .. stiff_ptr[i + 1]) through beta_e K_0e (row-major) at
  /// stiff_matrix[stiff_off[i]], K_0e the element's stiffness at the reference configuration.
  std::vector<int> stiff_ptr{0}, stiff_dofs;
  std::vector<std::size_t> stiff_off;
  std::vector<double> stiff_matrix;
  /// f = M v for dof vectors.
  void apply(const std::vector<double>& v, std::vector<double>& f) const;
  /// f = C v for dof vectors.
  void apply_damping(const std::vector<double>& v, std::vector<double>& f) const;
  /// b = the element blocks mass_factor M_e + damping_factor alpha_e M_e, one per element and
  /// direction (the lumped rest is diagonal: m_rest and c_rest), and damping_factor beta_e K_0e.
  void element_blocks(double mass_factor, double damping_factor, CouplingBlocks& b) const;
  /// Whether any element's mass is consistent.
  bool consistent() const { return element_ptr.size() > 1; }
  /// Whether the matrices have element blocks besides the diagonal (element_blocks not empty).
  bool has_blocks() const { return consistent() || stiff_ptr.size() > 1; }
};

/// The lumped mass per dof (q per node): each node's mass on its translations, and on 5-dof
/// (MITC4) nodes the physical rotary inertia on their two spins.
std::vector<double> lumped_dof_mass(const Model& model, const StructureSystem& sys, std::size_t q);

/// The model's mass and damping on the dofs (q per node): `lumped` (lumped_dof_mass's), with
/// the quadratic solids' consistent element masses in place of their lumped share; transient:
/// for an implicit dynamic step (a kind may have another mass there, ConsistentMass's
/// transient_matrix).
DofMass dof_mass(const StructureSystem& sys, const std::vector<double>& lumped, std::size_t q, bool transient = false);

/// Adds *DAMPING, BETA's C += beta K_0 to d: the stiffness of each continuum element whose
/// material has beta > 0 (op's element matrices at zero displacement, no temperature change,
/// virgin state), on the dofs of d's layout.
void add_stiffness_damping(DofMass& d, const StructureSystem& sys, const ContinuumOperator& op);

}  // namespace halfstep
