// MITC4 shells as an operator on a state, for static steps (groundwork of issue 12's shell
// tangent; the static driver does not use it yet): the 5 generalized forces per corner
// (forces, and moments about the nodal triad t1, t2 = d x t1) and their element matrices,
// the exact derivatives of mitc4_internal_force by forward dual numbers, with the rotation
// dofs parametrised as in the explicit scheme: a rotation alpha about t1 and beta about t2
// turns the director and the triad by (alpha t1 + beta t2) x (.) to first order.
#pragma once

#include <vector>

#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"

namespace halfstep {

/// The shells of a system as an operator on states (positions, directors, triads).
class ShellOperator {
 public:
  /// Borrows sys (it must outlive the operator); threads: OpenMP threads (<= 0: default).
  explicit ShellOperator(const StructureSystem& sys, int threads = 0);

  /// Shell elements.
  int num_elements() const { return sys_.num_elements; }
  /// Generalized internal forces of every element at state st: 20 per element (corner k:
  /// f.x, f.y, f.z, moment about t1, moment about t2 at out[20 e + 5 k ..]); returns the
  /// strain energy.
  double element_forces(const StructureState& st, std::vector<double>& out) const;
  /// Element matrices K_e = d(generalized forces) / d(corner dofs), 20 x 20 row-major per
  /// element, dofs ordered as the forces (3 translations, rotation about t1, about t2).
  void element_matrices(const StructureState& st, std::vector<double>& k) const;

 private:
  const StructureSystem& sys_;
  int threads_;
};

}  // namespace halfstep
