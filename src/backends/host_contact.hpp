// The contact pass on the host (physics in dynamics/contact_pass.hpp): the CPU backend's
// whole pass, one process or across MPI ranks, and the CUDA backend's distributed one, which
// stages this rank's contact nodes' motion to the host, runs this class and copies the nodal
// forces back (docs/parallel.md, "Distributed contact"). It owns the broad phase's and the
// rank exchange's work arrays; the friction history stays with the caller.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "backends/backend.hpp"
#include "dynamics/contact_pass.hpp"
#include "parallel/halo_exchange.hpp"

namespace halfstep {

/// What the host contact pass reads of this rank's nodes (local numbering, num_nodes each).
struct HostContactNodes {
  const double* u[3];           ///< displacement at t^n
  const double* v[3];           ///< translational velocity at t^(n-1/2)
  const std::uint8_t* held;     ///< the step's held bits per node, or null
};

/// Where the host contact pass writes (local numbering).
struct HostContactOut {
  double* history;     ///< kContactHistory per slave record, then per edge record (friction history)
  double* normal;      ///< 3 per node: the whole normal contact force (every record pushing the node)
  double* shear;       ///< 3 per node: the whole friction force
  double* pair_force;  ///< 6 per contact definition: its totals (CFN, CFS), over all ranks
};

/// The contact pass at t^n on the host, with its work arrays. Distributed (dist with a
/// non-empty ContactShare) every call is a collective of all ranks.
class HostContact {
 public:
  /// dist and halo: null in one process; halo sums the reductions over the ranks.
  HostContact(const StructureSystem& sys, const DistributedContext* dist, HaloExchange* halo, int threads)
      : sys_(sys), dist_(dist), halo_(halo), threads_(threads) {}
  /// Broad phase, narrow phase (slave and edge records; distributed: this rank's), nodal
  /// forces into out (distributed: the records of every rank that push a local node, in the
  /// one-process order); commit advances the friction history. Returns the springs' stored
  /// energy and the frictional dissipation of the latest slip, over all ranks.
  std::array<double, 2> run(const Increment& inc, bool commit, const HostContactNodes& in, const HostContactOut& out);
  /// Where every slave record touches at the displacements in.u (one process; no forces, no
  /// friction history, no velocities read): the explicit pass's search (broad phase, facing,
  /// self-contact and analytical masters) for a static step's contact. facet[i]: the target
  /// (ContactView::facet_of's numbering; -1: none), touch[i]: penetration, normal, weights.
  void touches(const HostContactNodes& in, std::vector<int>& facet, std::vector<ContactTouch<double>>& touch);

 private:
  /// Distributed: the displacement and half-step velocity of the contact nodes this rank's
  /// slave and edge records can reach into contact_motion_ (its own, and the ghosts other
  /// ranks send: those within two broad-phase cells of its records' box), contact_known_
  /// marking them; the largest facet and edge box edges of all ranks into contact_extent_
  /// and contact_edge_extent_; the held bits of the local contact nodes into contact_held_.
  void share_motion(const ContactShare& share, const HostContactNodes& in);
  /// The pass's view of the nodes (this process's, or the contact nodes gathered from their
  /// owners: nc of them) and of the contact system.
  ContactView<double> view(const Increment& inc, bool commit, const HostContactNodes& in, const HostContactOut& out,
                           const ContactShare* share, int& nc);
  /// Broad phase: facets by the cell of their box centre, in facet order within a bucket.
  void bucket_facets(ContactView<double>& c, const ContactShare* share);
  /// Edge-to-edge contact's broad phase: every edge by the cell of its midpoint.
  void bucket_edges(ContactView<double>& c, const ContactShare* share);
  /// Distributed: this rank's records, sent to the ranks holding the nodes they push.
  std::array<double, 2> run_distributed(ContactView<double>& c, const HostContactOut& out, const ContactShare& share,
                                        int nc);
  /// Distributed: the records other ranks sent (`values` numbers each).
  void receive_records(const std::vector<std::vector<double>>& recv, int values);
  /// Distributed: every record that pushes a local node scattered in record order, the
  /// per-definition totals and energies summed over the ranks.
  std::array<double, 2> scatter_records(ContactView<double>& c, const HostContactOut& out, const ContactShare& share,
                                        int nc);

  const StructureSystem& sys_;
  const DistributedContext* dist_;
  HaloExchange* halo_;
  int threads_;
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
