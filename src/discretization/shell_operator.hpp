// MITC4 shells as an operator on configurations, for static steps: the 5 generalized forces
// per corner (forces, and moments about the nodal triad t1, t2 = d x t1) and their element
// matrices, the exact derivatives of mitc4_internal_force by forward dual numbers
// (discretization/shell_tangent.hpp, shared with the CUDA engine), with the rotation dofs
// parametrised as in the explicit scheme: a rotation alpha about t1 and beta about t2 turns
// the director and the triad by (alpha t1 + beta t2) x (.) to first order.
#pragma once

#include <vector>

#include "discretization/configuration.hpp"
#include "discretization/structure_system.hpp"

namespace halfstep {

/// The shells of a system as an operator on configurations.
class ShellOperator {
 public:
  /// Borrows sys (it must outlive the operator); threads: OpenMP threads (<= 0: default).
  explicit ShellOperator(const StructureSystem& sys, int threads = 0);

  /// Shell elements.
  int num_elements() const { return sys_.shell.num_elements; }
  /// Generalized internal forces of every element in configuration c: 20 per element (corner
  /// k: f.x, f.y, f.z, moment about t1, moment about t2 at out[20 e + 5 k ..]); the strain
  /// energy per element into energy when given; returns the total strain energy. Plastic
  /// sections (elements/mitc4_plastic.hpp) return from state_old (StructureState::shell_state's
  /// layout; null: the virgin state) and write the state at c into state_next (null: nowhere;
  /// it must not alias state_old); their energy is stored plus dissipated, and the dissipated
  /// part is added to *dissipation when given.
  double element_forces(const Configuration& c, std::vector<double>& out, std::vector<double>* energy = nullptr,
                        const double* state_old = nullptr, double* state_next = nullptr,
                        double* dissipation = nullptr) const;
  /// Element matrices K_e = d(generalized forces) / d(corner dofs), 20 x 20 row-major per
  /// element from k on, dofs ordered as the forces (3 translations, spin about t1, about t2);
  /// plastic sections differentiate their return from state_old (the consistent tangent).
  void element_matrices(const Configuration& c, double* k, const double* state_old = nullptr) const;
  /// Same, into a vector sized here.
  void element_matrices(const Configuration& c, std::vector<double>& k, const double* state_old = nullptr) const;
  /// The forces of a geometrically linear step with plastic sections (20 per element, x as
  /// in linearized_forces, ref the step's reference): elastic sections K_e(ref) x_e, plastic
  /// ones the small-strain theory (Mitc4SmallStrainSection) from state_old (null: virgin) into
  /// state_next (null: nowhere); per element energies into energy (elastic x.K x / 2, plastic
  /// stored plus dissipated) and the dissipated part added to *dissipation, when given.
  /// Returns the total energy.
  double small_strain_forces(const Configuration& ref, const std::vector<double>& x, int dofs_per_node,
                             std::vector<double>& out, std::vector<double>* energy, const double* state_old,
                             double* state_next, double* dissipation = nullptr) const;
  /// Their consistent tangents at the linear step's configuration c (whose directors are the
  /// reference's turned by the exact rotation of x's spins, so x is read back from them), in
  /// element_matrices' layout; elastic sections K_e(ref).
  void small_strain_matrices(const Configuration& ref, const Configuration& c, double* k, const double* state_old) const;
  /// K_e(c) x_e of every element (20 per element), x holding dofs_per_node values per node
  /// (3 translations, then the spins about t1 and t2): with c the reference configuration,
  /// the forces of a geometrically linear analysis; with energy, that analysis' element
  /// energies x_e . K_e x_e / 2.
  void linearized_forces(const Configuration& c, const std::vector<double>& x, int dofs_per_node,
                         std::vector<double>& out, std::vector<double>* energy = nullptr) const;

 private:
  /// The element matrices' loop at configuration at: elastic sections K_e(at) into their 20 x
  /// 20 block; for a plastic section plastic(e, s, sec, ke), s its DualShell at `at`.
  template <class Plastic>
  void for_each_matrix(const Configuration& at, double* k, Plastic&& plastic) const;

  const StructureSystem& sys_;
  int threads_;
};

}  // namespace halfstep
