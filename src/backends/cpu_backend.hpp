// CPU backend: OpenMP loops over elements (forces) and nodes (time integration).
#pragma once

#include <array>

#include "backends/backend.hpp"

namespace halfstep {

/// The OpenMP implementation of the passes of a time step.
class CpuBackend final : public Backend {
 public:
  /// opt.threads <= 0 uses OpenMP's default.
  CpuBackend(const StructureSystem& sys, const BackendOptions& opt);
  std::string name() const override { return "cpu"; }
  int threads() const override { return threads_; }
  std::string description() const override;
  void upload(const StructureState& st) override { st_ = st; }
  void download(StructureState& st) override;
  void begin_step(const StepDrive& drive) override;
  void element_pass(double tau, double time) override;
  void advance(const Increment& inc) override;
  void sample(const Increment& inc, OutputFrame& frame) override;
  EnergyMonitor poll() override { return monitor_; }

 private:
  /// Node pass over all nodes; returns the sums indexed by NodeSum.
  std::array<double, kNumNodeSums> node_pass(const Increment& inc, bool commit, FullStepFields* full);

  const StructureSystem& sys_;
  int threads_;
  StructureState st_;
  StepDrive drive_;
  std::vector<double> face_force_;  ///< 18 per loaded solid face
  EnergyMonitor monitor_;
};

}  // namespace halfstep
