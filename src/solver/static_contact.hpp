// Contact in static steps (issue 44 item 1; docs/theory.md, "Contact in static steps"): the
// explicit pass's search (HostContact::touches: the same broad phase, facing and self-contact
// rules) at a Newton iterate's displacements, each touching slave record's normal force as
// internal forces, and its tangent F'(g) B B^T as coupling blocks that the tangent engine
// assembles with the element matrices. Hard contact is enforced by an augmented Lagrangian on a
// penalty spring; a softened law is the deck's physics as it stands. Coulomb friction is a
// penalty stick spring with a return map on the slip since the last converged increment.
#pragma once

#include <algorithm>
#include <vector>

#include "assembly/csr_assembly.hpp"
#include "backends/host_contact.hpp"
#include "discretization/configuration.hpp"
#include "discretization/structure_operator.hpp"
#include "discretization/structure_state.hpp"
#include "model/model.hpp"

namespace halfstep {

/// Relative multiplier change at which the augmented Lagrangian stops: a record's k g is at
/// most this fraction of its whole force, so the penetration left is this fraction of what
/// the bare penalty spring would allow.
inline constexpr double kContactAugmentTolerance = 1e-4;
/// Abaqus/Standard's default penalty: ten times the stiffness of the underlying elements.
inline constexpr double kStaticPenaltyFactor = 10.0;
/// A slave within this fraction of the mean contact facet's size from a master surface
/// touches it (the search finds it; at zero force its spring still enters the tangent).
inline constexpr double kTouchTolerance = 1e-6;
/// Friction's elastic slip at the limit, as a fraction of the mean contact facet's size
/// (Abaqus/Standard's default, 0.5 %): sets the stick stiffness.
inline constexpr double kElasticSlip = 0.005;

/// The contact of a static step on one process: touches, forces, tangent blocks and the
/// augmented Lagrangian's multipliers (per slave record, within one attempt).
class StaticContact {
 public:
  /// The penalty of each slave record from the element matrices at ref (k = 10 x the largest
  /// translational diagonal at its node, times *CONTACT CONTROLS' scale; a node without
  /// element stiffness takes its definition's mean; friction sticks with the stiffness that
  /// reaches its limit at kElasticSlip of the mean facet size, at most k); node to surface (edge-to-edge records are left out: the explicit pass's
  /// guard against fast edges crossing). Throws InputError when a definition's slave nodes
  /// have no element stiffness at all.
  StaticContact(const Model& model, const Step& step, const StructureSystem& sys, const StructureOperator& op,
                const Configuration& ref, int threads);

  /// An attempt starts from zero multipliers: its first solve is the bare penalty's, which
  /// releases a record continuously. (Carried over from the last increment, a multiplier pulls
  /// an unloading record through zero gap, where its force drops from the multiplier to zero,
  /// and the iterations chatter.) A frictional record keeps its converged multiplier: its
  /// friction limit needs the normal force it carries.
  /// Takes the records' friction forces and multipliers from the history a step before left
  /// (StructureState::contact_history, kContactHistory per record: the explicit pass's layout,
  /// store() writes it): a static step after another goes on with the forces it ended with.
  void resume(const std::vector<double>& history);
  /// u_start: the translations (3 per node) of the last converged increment, where the
  /// attempt's friction slip is measured from; dtau: the attempt's step time, over which a
  /// slip makes the slip rate of *FRICTION, EXPONENTIAL DECAY (0: no time, the static
  /// coefficient).
  void begin_attempt(const std::vector<double>& u_start, double dtau = 0);
  /// The contact at translations u (3 per node): f (ndn values per node, generalized internal
  /// forces) less the contact forces; the tangent blocks on global dofs (ndn per node) for
  /// blocks(). Returns the energy stored in the contact (the springs' and the multipliers'
  /// work over the penetration).
  double add_forces(const std::vector<double>& u, int ndn, std::vector<double>& f);
  /// The tangent blocks of the last add_forces.
  const CouplingBlocks& blocks() const { return blocks_; }
  /// Augmented Lagrangian after Newton converged at the last add_forces: every hard record's
  /// multiplier takes its spring force; true when some record's spring force was above
  /// kContactAugmentTolerance of its whole force (iterate on).
  bool augment();
  /// The increment converged at the last add_forces: its friction forces become the next
  /// increment's start, its slip's dissipation is added to the step's.
  void accepted();
  /// The last add_forces' nodal normal and friction contact forces and per-definition totals
  /// into st (CPRESS, CSHEAR, contact.csv), and the records' history (resume()).
  void store(StructureState& st) const;
  /// Work dissipated by friction slip over the converged increments of the step.
  double friction_dissipation() const { return dissipated_; }
  /// Whether records resting at zero force put their springs into the tangent (a static
  /// step's first solve needs them; a frequency step's perturbation about the base state
  /// takes the records that carry force only, as the peer does).
  void set_resting_springs(bool on) { resting_springs_ = on; }
  /// Slave records touching at the last add_forces.
  int touching() const { return touching_; }
  /// The mean translational stiffness of the model's nodes (force per displacement), from the
  /// element matrices at the reference.
  double node_stiffness() const { return node_stiffness_; }

 private:
  /// Record r's Coulomb friction (definition `pair`, touching the nodes node[1..corners] with
  /// weights w[1..], node[0] its slave, w[0] = -1; unit normal nv; k its normal penalty): its
  /// friction force ft, the tangent's projector proj and factor s_k (s_k w_a w_b proj), its
  /// history (shear_, slip_work_). Returns the energy its stick spring stores (0 without
  /// friction, ft and s_k left as given).
  double add_friction(const std::vector<double>& u, std::size_t r, int pair, int corners, const int* node,
                      const double* w, const double* nv, double k, double ft[3], double proj[9], double& s_k);
  /// The friction limit of a slipping record of definition `pair` (trial force size, stick
  /// stiffness kt, normal force F, Coulomb limit mu_s F): with EXPONENTIAL DECAY, the limit
  /// at the slip rate its own return leaves; else the given limit.
  double decayed_limit(std::size_t pair, double size, double kt, double normal, double limit) const;
  /// Slave record r's distance from its touch point on target f along the touch's normal at
  /// translations u (positive: the slave is on the normal's side).
  double normal_distance(const std::vector<double>& u, int r, int f, const ContactTouch<double>& t) const;
  /// Turns each facet touch's normal into the touch weights' mean of the nodal normals (the
  /// facet normals summed at each master node, area-weighted, per definition), and its
  /// overclosure to the distance along it: continuous where a slave crosses from facet to
  /// facet, where the facets' own normals jump by the kink between them and a slave near a
  /// shared node flipped between them at every iteration.
  void smooth_normals(const std::vector<double>& u);
  /// Records the search's touches as each record's last, and gives a record that carries a
  /// multiplier but was not found its last touch, moved with the nodes.
  void keep_closed_touches(const std::vector<double>& u);

  const StructureSystem& sys_;
  const ContactSystem& cs_;
  double facet_size_;                    ///< the mean contact facet's size at the reference
  double touch_tolerance_;               ///< kTouchTolerance x the mean facet size
  StructureSystem search_sys_;           ///< the search's copy of the nodes and contact, reach widened
  HostContact search_;
  std::vector<double> penalty_;          ///< per slave record
  std::vector<double> lambda_;           ///< per record: the multiplier (hard contact)
  std::vector<double> lambda_start_;     ///< per record: its multiplier at the last converged increment
  std::vector<double> force_start_;      ///< per record: its normal force at the last converged increment
  std::vector<double> limit_normal_;     ///< per record: the normal force its friction limit takes (augment())
  std::vector<int> facet_;               ///< per record: the touch of the last add_forces (-1: none)
  std::vector<ContactTouch<double>> touch_;
  std::vector<int> last_facet_;          ///< per record: the target of its last search touch (-1: none)
  std::vector<ContactTouch<double>> last_touch_;
  std::vector<double> last_distance_;    ///< per record: normal_distance at its last search touch
  std::vector<int> corner_key_;          ///< 4 per facet: its corner's (definition, node) key (-1: none)
  std::vector<Vec3<double>> corner_normal_;  ///< per key: the summed area normals
  std::vector<double> force_;            ///< per record: its normal force at the last add_forces
  std::vector<double> mu_;               ///< per definition: the Coulomb coefficient (0: frictionless)
  std::vector<double> u_start_;          ///< translations of the last converged increment (3 per node)
  double dtau_ = 0;                      ///< the attempt's step time (slip rates)
  std::vector<double> shear_;            ///< per record: its friction force at the last add_forces (3)
  std::vector<double> shear_start_;      ///< per record: its friction force at the last converged increment
  std::vector<double> slip_work_;        ///< per record: the dissipation of the last add_forces' slip
  double dissipated_ = 0;                ///< friction's dissipation over the converged increments
  std::vector<double> ux_, uy_, uz_;     ///< the search's displacement components
  CouplingBlocks blocks_;
  int touching_ = 0;
  bool resting_springs_ = true;
  double node_stiffness_ = 0;
};

}  // namespace halfstep
