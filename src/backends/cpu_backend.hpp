// CPU backend: OpenMP loops over elements (forces) and nodes (time integration).
#pragma once

#include <cstdint>
#include <vector>

#include "backends/backend.hpp"
#include "solver/central_difference.hpp"
#include "solver/shell_state.hpp"
#include "solver/shell_system.hpp"

namespace halfstep {

/// The OpenMP implementation of the two passes of a time step.
class CpuBackend final : public Backend {
 public:
  /// threads <= 0 uses OpenMP's default.
  CpuBackend(const ShellSystem& sys, int threads);
  std::string name() const override { return "cpu"; }
  int threads() const override { return threads_; }
  std::string description() const override;
  void upload(const ShellState&) override {}
  void download(ShellState&) override {}
  void set_step_inputs(const NodalInputs&) override {}

  /// Internal forces (eq. 3.5) and, when pressure != nullptr (one value per element, already
  /// scaled by its amplitude), pressure forces (eq. 3.6) at the current configuration.
  /// Returns the total strain energy.
  double element_forces(ShellState& st, const double* pressure) override;

  /// Accelerations, full- and half-step velocities (eq. 3.1-3.3) and, when commit is true,
  /// the displacement and director update (eq. 3.4). full, if given, receives v^n and reactions.
  NodeSums node_update(ShellState& st, const NodalInputs& in, HalfSteps<double> h, bool commit,
                       FullStepFields* full) override;

 private:
  const ShellSystem& sys_;
  int threads_;
};

}  // namespace halfstep
