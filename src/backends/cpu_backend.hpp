// CPU backend: OpenMP loops over elements (forces) and nodes (time integration). In a
// distributed run it holds one subdomain and sums the shared nodes' forces with its
// neighbours between the element and the node pass.
#pragma once

#include <array>
#include <memory>

#include "backends/backend.hpp"
#include "backends/host_contact.hpp"
#include "parallel/halo_exchange.hpp"

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
  void download_displacements(StructureState& st) override {
    st.ux = st_.ux;
    st.uy = st_.uy;
    st.uz = st_.uz;
  }
  void begin_step(const StepDrive& drive) override;
  void element_pass(double tau, double time, double half_dt = 0.0) override;
  void advance(const Increment& inc) override;
  void sample(const Increment& inc, OutputFrame& frame) override;
  EnergyMonitor poll() override { return monitor_; }
  void rebase_energy(bool forget_thermal) override {
    monitor_rebase(monitor_);
    if (forget_thermal) st_.forget_thermal_passes();
  }
  void update_masses(const StructureSystem& sys, double added_kinetic) override;
  double communication_seconds() const override;
  std::string transport() const override { return halo_ ? "host" : ""; }
  std::vector<std::pair<std::string, double>> phase_seconds() const override;
  std::string restart_unsupported() const override;
  void save_restart(RestartBlob& blob) override;
  void load_restart(const RestartBlob& blob) override;

 private:
  /// Every family's element forces of range (element_blocks.hpp's host passes), and the face
  /// pressures with the first range; adds their ElementSums to sums.
  void element_forces(ElementRange range, double tau, double half_dt, double sums[kElementSumCount]);
  /// Node n's share of the forces of this rank's elements: 6 internal (the sixth only in
  /// models with 6-dof nodes), 3 pressure; with its contact force unless contact is false.
  void local_forces(int n, double fi[6], double fp[3], bool contact = true) const;
  /// Node n's whole forces: local_forces, or on a shared node of a distributed run the sum
  /// over the ranks holding it (halo_total_, after the element pass) and the contact force.
  void node_forces(int n, double fi[6], double fp[3]) const;
  /// Rigid bodies' part of the node pass (after the nodes): integrates each body at its
  /// reference node and moves its nodes; adds the bodies' energy terms.
  void body_pass(const Increment& inc, bool commit, FullStepFields* full, const int* row, double& kinetic, double& wp,
                 double& wn, int& bad);
  /// Distributed: sums the interface nodes' forces over the ranks into halo_total_.
  void start_exchange();
  void finish_exchange();
  /// Contact at t^n (before the node pass that uses its forces; HostContact): nodal contact
  /// forces into st_.contact_normal/shear, the springs' energy and the dissipation into the
  /// monitor; commit advances the friction history. Distributed: a collective of all ranks.
  void contact_pass(const Increment& inc, bool commit);
  /// Node pass over all nodes; returns the sums indexed by NodeSum (over all ranks). With
  /// full, the full-step values of node n go to full's row[n] (-1: none; row null: row n).
  std::array<double, kNumNodeSums> node_pass(const Increment& inc, bool commit, FullStepFields* full,
                                             const int* row = nullptr);

  const StructureSystem& sys_;
  int threads_;
  StructureState st_;
  StepDrive drive_;
  std::vector<double> face_force_;  ///< 18 per loaded solid face
  EnergyMonitor monitor_;
  const DistributedContext* dist_ = nullptr;
  std::unique_ptr<HaloExchange> halo_;
  std::vector<double> dep_force_;  ///< linear constraints: two forces per dependent dof
  std::vector<double> halo_buf_, send_buf_, halo_total_;  ///< [own | received], per neighbour, summed
  std::unique_ptr<HostContact> contact_;  ///< made at the first contact pass
  /// The node list of the latest compact frame (OutputFrame::nodes) and node -> its row (-1:
  /// none): built when a frame brings another list (once per step), not per frame.
  std::shared_ptr<const std::vector<int>> frame_nodes_;
  std::vector<int> frame_row_;
  /// Distributed: wall seconds per phase (Phase), summed over the run.
  enum Phase { kContact, kNodes, kNodeSums, kInterfaceElements, kPack, kInteriorElements, kWait, kInterfaceSum,
               kEnergySums, kNumPhases };
  std::array<double, kNumPhases> phase_{};
};

}  // namespace halfstep
