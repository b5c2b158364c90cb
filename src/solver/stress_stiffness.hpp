// The initial-stress (geometric) stiffness of a linear stress state, K_sigma phi = int grad(phi)
// S grad(N_a) dV per node a: what the tangent gains from the stresses S of displacements u
// (buckle steps' (K + lambda K_sigma) phi = 0). Matrix-free on the continuum elements of the
// kinds that have it (supports()), from each point's reference gradients and the small-strain
// stress the kind itself computes there (its point outputs, differentiated along u).
#pragma once

#include <string>
#include <vector>

#include "discretization/structure_system.hpp"

namespace halfstep {

/// K_sigma of the small-strain stresses of one displacement field, applied to vectors.
class StressStiffness {
 public:
  /// Whether continuum kind `kind` (elements/registry.hpp id) has a stress stiffness here:
  /// the 8- and 20-node bricks on their own points (not FPM's), the one-point brick, the 4- and
  /// 10-node tetrahedra, the truss (springs along given dofs have none to add).
  static bool supports(int kind);
  /// The deck names of the kinds that have one, comma-separated (for messages).
  static std::string supported_names();
  /// The stresses of displacements u (3 per node) at every point of sys's continuum
  /// elements (all of supported kinds), with the virgin material state.
  StressStiffness(const StructureSystem& sys, const std::vector<double>& u, int threads = 0);
  /// f = K_sigma phi (3 per node each; f is resized).
  void apply(const std::vector<double>& phi, std::vector<double>& f) const;

 private:
  const StructureSystem& sys_;
  int threads_;
  /// Per element: its first point in points_ and gradient offset in grad_.
  std::vector<std::size_t> point_start_, grad_start_;
  std::vector<double> ws_;    ///< per point: dV S (9, row-major)
  std::vector<double> grad_;  ///< per point: the nodes' reference gradients (3 each)
};

}  // namespace halfstep
