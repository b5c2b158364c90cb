// The continuum part of a discretized structure as an operator on displacement states, apart
// from the clients that drive it (deal.II step-44's split of local element work from the
// global copy): internal forces, element matrices for a sparse assembly, lumped masses and the
// stable increment, at any displacements. The explicit time loop reaches the same element
// functions through the backends; a static Newton driver (issue 12) is a second client that
// needs nothing else (tests/discretization/test_continuum_operator.cpp drives one).
#pragma once

#include <cstddef>
#include <vector>

#include "core/dual.hpp"
#include "discretization/element_force_sums.hpp"
#include "discretization/structure_system.hpp"

namespace halfstep {

/// The mesh's materials as dual numbers flagged for the small-strain theory
/// (SolidMaterial::small_strain): what small_strain_force and the CUDA engine evaluate with.
std::vector<SolidMaterial<Dual<double>>> small_strain_materials(const SolidMesh& sm);

/// Continuum elements of a system as an operator; dofs are 3 translations per node,
/// node-major (dof 3 n + c).
class ContinuumOperator {
 public:
  /// Borrows sys (it must outlive the operator); threads: OpenMP threads (<= 0: default).
  ContinuumOperator(const StructureSystem& sys, int threads = 0);

  /// Global dof count (3 per node).
  int num_dofs() const { return 3 * sys_.num_nodes; }
  /// Continuum elements.
  int num_elements() const { return sys_.solid.num_elements; }
  /// The system it borrows (a GPU engine uploads its mesh and materials from it).
  const StructureSystem& system() const { return sys_; }
  /// 1 where a dof carries stiffness: nodes of continuum elements, x and y only in a planar model.
  std::vector<char> active_dofs() const;

  /// Internal forces (3 per node) at displacements u (3 per node) and per-element temperature
  /// changes thermal (null: none); returns the strain energy (hourglass energy included).
  /// Laws with state (SolidMesh::state_size > 0) start from state_old (the store of
  /// StructureState::solid_state; null: the virgin state) and write the state at u into
  /// state_next (null: nothing), which must not alias state_old. With sums, every element's
  /// own nodal forces' magnitudes are added to it (the residual check's force scale).
  double internal_force(const std::vector<double>& u, std::vector<double>& f, const double* thermal = nullptr,
                        const double* state_old = nullptr, double* state_next = nullptr,
                        ElementForceSums* sums = nullptr) const;

  /// The small-displacement forces f = K(0) u (3 per node) of a geometrically linear analysis:
  /// the derivative of internal_force at zero along u, by one dual-number pass per element
  /// (no element matrix is stored); returns the strain energy u . K(0) u / 2. With thermal
  /// (per element temperature changes), the derivative runs along (u, thermal) from no
  /// change: K(0) u less the thermal forces of C alpha dtheta.
  double linearized_force(const std::vector<double>& u, std::vector<double>& f, const double* thermal = nullptr) const;
  /// Element energies of the same linear analysis at u (3 per node), for output: strain
  /// 1/2 u_e . K_e(0) u_e without the hourglass part, which goes to hourglass (the terms
  /// proportional to the hourglass coefficient: K_e(0) at kappa less K_e(0) at kappa = 0).
  void linearized_energies(const std::vector<double>& u, std::vector<double>& strain,
                           std::vector<double>& hourglass, const double* thermal = nullptr) const;

  /// What linearized_force's u . f / 2 lacks of the linear theory's energy when temperatures
  /// change: its forces K u - f_th give u . (K u - f_th) / 2 (zero for a free expansion), the
  /// energy is u . K u / 2 - u . f_th + dtheta . H_tt dtheta / 2; returns the difference
  /// -u . f_th / 2 + dtheta . H_tt dtheta / 2 (u: 3 per node; thermal: per element).
  double thermal_energy_correction(const std::vector<double>& u, const double* thermal) const;
  /// The forces of a geometrically linear step whose laws have state (plasticity): each
  /// kind's kinematics linearized about the reference by dual numbers (the derivative of
  /// internal_force at zero along u, as linearized_force), the laws with state evaluated in
  /// the small-strain theory (SolidMaterial::small_strain) from state_old (null: virgin) into
  /// state_next (null: not written). Laws without state give linearized_force's K(0) u
  /// exactly. Returns the strain energy, hourglass included (stored plus dissipated for the
  /// laws with state, eps : C : eps / 2 for the others: small_strain_element). Per element,
  /// when not null: energy (without the hourglass part), hourglass; and the plastic work
  /// dissipated into *dissipation.
  double small_strain_force(const std::vector<double>& u, std::vector<double>& f, const double* thermal,
                            const double* state_old, double* state_next, std::vector<double>* energy = nullptr,
                            std::vector<double>* hourglass = nullptr, double* dissipation = nullptr) const;
  /// The consistent tangents of small_strain_force at u into k (element_matrices' layout,
  /// zeroed first): second-order dual numbers, the outer level linearizing the kinematics and
  /// the inner one the tangent's direction. Kinds whose points do not evaluate through
  /// point_stress (plane stress, trusses, springs; TakesThermalStrain false) have no law with
  /// state in such a step (StaticProblem refuses it) and take their K(0).
  void small_strain_matrices(const std::vector<double>& u, double* k, const double* thermal,
                             const double* state_old) const;
  /// Size of element e's square matrix (3 x its nodes).
  int element_size(int e) const;
  /// Global dofs of element e's matrix rows (3 per element node, node order).
  void element_dofs(int e, int* dofs) const;
  /// Offset of element e's matrix in element_matrices' output.
  std::size_t matrix_offset(int e) const { return offsets_[static_cast<std::size_t>(e)]; }
  /// Consistent tangents K_e = d f_e / d u_e at u, row-major, element after element: exact
  /// derivatives of the kind's own internal_force by forward dual numbers (one evaluation per
  /// element dof), so the tangent can never drift from the force. A law with state is
  /// differentiated through its update from state_old (null: the virgin state): the
  /// consistent tangent of a return map.
  void element_matrices(const std::vector<double>& u, std::vector<double>& k, const double* thermal = nullptr,
                        const double* state_old = nullptr) const;
  /// Same, into k[0, matrix_offset(num_elements())) (zeroed first).
  void element_matrices(const std::vector<double>& u, double* k, const double* thermal = nullptr,
                        const double* state_old = nullptr) const;

  /// Lumped translational nodal masses.
  const std::vector<double>& lumped_mass() const { return sys_.mass; }
  /// The stable increment estimate of the explicit scheme (no safety factor).
  double stable_increment() const { return sys_.stable_dt; }

 private:
  /// Per element: dtheta . H_tt dtheta / 2, the linear theory's energy of its temperature
  /// change thermal at u = 0 (its thermal strain held by the reference shape).
  std::vector<double> thermal_self_energies(const double* thermal) const;
  /// K_e(0) u_e of every element into its slots (3 per conn position), with hourglass
  /// coefficient kappa, less the thermal forces of thermal (null: none).
  void linear_slot_forces(const std::vector<double>& u, double kappa, std::vector<double>& slot,
                          const double* thermal) const;

  const StructureSystem& sys_;
  int threads_;
  std::vector<std::size_t> offsets_;  ///< per element, then the total
};

}  // namespace halfstep
