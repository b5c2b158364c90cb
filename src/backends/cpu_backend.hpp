// CPU backend: OpenMP loops over elements (forces) and nodes (time integration). In a
// distributed run it holds one subdomain and sums the shared nodes' forces with its
// neighbours between the element and the node pass.
#pragma once

#include <array>
#include <memory>

#include "backends/backend.hpp"
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
  void begin_step(const StepDrive& drive) override;
  void element_pass(double tau, double time) override;
  void advance(const Increment& inc) override;
  void sample(const Increment& inc, OutputFrame& frame) override;
  EnergyMonitor poll() override { return monitor_; }
  void rebase_energy() override { monitor_.have_total0 = 0; }
  double communication_seconds() const override;
  std::string transport() const override { return halo_ ? "host" : ""; }

 private:
  /// Shell internal and pressure forces of shells [begin, end); returns {strain energy,
  /// plastic dissipation}.
  std::array<double, 2> shell_forces(int begin, int end, double tau);
  /// Solid and face forces of range; returns {strain + hourglass, hourglass, dissipation}.
  std::array<double, 3> solid_forces(ElementRange range, double tau);
  /// Forces of beams [begin, end); returns {internal work, plastic dissipation}.
  std::array<double, 2> beam_forces(int begin, int end);
  /// FPM triangle forces and pressures of triangles [begin, end) at step time tau; returns
  /// {internal work, plastic dissipation}.
  std::array<double, 2> tri_forces(int begin, int end, double tau);
  /// Node n's share of the forces of this rank's elements: 6 internal (the sixth only in
  /// models with 6-dof nodes), 3 pressure; with its contact force unless contact is false.
  void local_forces(int n, double fi[6], double fp[3], bool contact = true) const;
  /// Rigid bodies' part of the node pass (after the nodes): integrates each body at its
  /// reference node and moves its nodes; adds the bodies' energy terms.
  void body_pass(const Increment& inc, bool commit, FullStepFields* full, double& kinetic, double& wp, double& wn,
                 int& bad);
  /// Distributed: sums the interface nodes' forces over the ranks into halo_total_.
  void start_exchange();
  void finish_exchange();
  /// Contact at t^n (before the node pass that uses its forces): broad phase, one narrow
  /// phase body per slave record, nodal contact forces into st_.contact_normal/shear, the
  /// springs' energy and the dissipation into the monitor; commit advances the friction history.
  void contact_pass(const Increment& inc, bool commit);
  /// Distributed: the displacement and half-step velocity of the contact nodes this rank's
  /// slave and edge records can reach into contact_motion_ (its own, and the ghosts other
  /// ranks send: those within two broad-phase cells of its records' box), contact_known_
  /// marking them; the largest facet and edge box edges of all ranks into contact_extent_
  /// and contact_edge_extent_; the held bits of the local contact nodes into contact_held_.
  void share_contact_motion(const ContactShare& share);
  /// Node pass over all nodes; returns the sums indexed by NodeSum (over all ranks).
  std::array<double, kNumNodeSums> node_pass(const Increment& inc, bool commit, FullStepFields* full);

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
  // Contact work arrays (sized at the first contact pass).
  std::vector<int> bucket_start_, bucket_facets_, facet_bucket_;  ///< broad phase
  std::vector<double> facet_geom_;  ///< kFacetGeom per facet at t^n (ContactView::facet_geom)
  std::vector<double> facet_extent_;  ///< per facet: its box's largest edge at t^n (the broad phase's cell)
  std::vector<double> contact_force_, contact_weight_;            ///< 6 and 4 per slave record
  std::vector<int> contact_facet_;                                ///< per slave record
  std::vector<int> edge_start_, edge_list_, edge_bucket_;         ///< edge broad phase
  std::vector<double> edge_force_, edge_param_;                   ///< per edge record (ContactView)
  std::vector<int> edge_of_;                                      ///< per edge record
  // Distributed contact (per contact node of ContactShare).
  std::vector<double> contact_motion_;  ///< u x, y, z and v x, y, z, component after component
  std::vector<std::uint8_t> contact_held_, contact_known_;
  double contact_extent_ = 0;
  double contact_edge_extent_ = 0;          ///< largest edge box edge of all ranks (the edge broad phase's cell)
  std::vector<std::uint8_t> edge_searched_; ///< per edge: its nodes and its facets' corners are known here
  std::vector<double> contact_reduce_;      ///< per-definition totals (6 each) and the two energies, summed over the ranks
  std::vector<double> contact_energy_;      ///< stored energy and dissipation per record of this rank
  std::vector<double> edge_energy_;         ///< stored energy per edge record of this rank
  std::vector<int> edge_list_mine_;         ///< edge records in contact that push a local node, ascending
  std::vector<double> contact_pair_scratch_;
  std::vector<int> contact_list_;           ///< records in contact that push a local node, ascending
  std::vector<double> contact_node_force_;  ///< normal (3) then shear (3) per contact node
};

}  // namespace halfstep
