// CPU backend: OpenMP loops over elements (forces) and nodes (time integration).
#pragma once

#include <cstdint>
#include <vector>

#include "solver/central_difference.hpp"
#include "solver/shell_state.hpp"
#include "solver/shell_system.hpp"

namespace halfstep {

/// Per-node inputs of the node update for the current step.
struct NodalInputs {
  std::vector<std::uint8_t> held;      ///< per node: bits 0-2 translations constrained, bits 3-4 triad rotations held
  std::vector<int> special;            ///< per node: index into the arrays below, or -1
  std::vector<double> load;            ///< 6 per special node: global force (3) and moment (3)
  std::vector<double> motion;          ///< 3 per special node: imposed v^(n+1/2) of prescribed translations
  std::vector<std::uint8_t> moving;    ///< per special node: bit d = translation d has an imposed motion
};

/// Sums over dofs produced by a node update (for the energy balance).
struct NodeSums {
  double kinetic = 0;               ///< sum m (v^n)^2 / 2
  double work_prev = 0, work_next = 0;  ///< external work f^n . (h_prev v^(n-1/2)), f^n . (h_next v^(n+1/2))
  double damp_prev = 0, damp_next = 0;  ///< same for the damping force c v^n
  bool finite = true;
};

/// Full-step nodal fields for output: v^n and reactions (global components).
struct FullStepFields {
  std::vector<double> v[6];   ///< translational velocity (3) and angular velocity (3), global
  std::vector<double> rf[6];  ///< reaction forces (3) and moments (3), global
  void resize(int nn);
};

/// The OpenMP implementation of the two passes of a time step.
class CpuBackend {
 public:
  /// threads <= 0 uses OpenMP's default.
  CpuBackend(const ShellSystem& sys, int threads);
  int threads() const { return threads_; }

  /// Internal forces (eq. 3.5) and, when pressure != nullptr (one value per element, already
  /// scaled by its amplitude), pressure forces (eq. 3.6) at the current configuration.
  /// Returns the total strain energy.
  double element_forces(ShellState& st, const double* pressure);

  /// Accelerations, full- and half-step velocities (eq. 3.1-3.3) and, when commit is true,
  /// the displacement and director update (eq. 3.4). full, if given, receives v^n and reactions.
  NodeSums node_update(ShellState& st, const NodalInputs& in, HalfSteps<double> h, bool commit,
                       FullStepFields* full);

 private:
  const ShellSystem& sys_;
  int threads_;
};

}  // namespace halfstep
