// Contact in static steps (issue 44 item 1; docs/theory.md, "Contact in static steps"): the
// explicit pass's search (HostContact::touches: the same broad phase, facing and self-contact
// rules) at a Newton iterate's displacements, each touching slave record's normal force as
// internal forces, and its tangent F'(g) B B^T as coupling blocks that the tangent engine
// assembles with the element matrices. Hard contact is enforced by an augmented Lagrangian on a
// penalty spring; a softened law is the deck's physics as it stands.
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

/// The contact of a static step on one process: touches, forces, tangent blocks and the
/// augmented Lagrangian's multipliers (per slave record, within one attempt).
class StaticContact {
 public:
  /// The penalty of each slave record from the element matrices at ref (k = 10 x the largest
  /// translational diagonal at its node, times *CONTACT CONTROLS' scale; a node without
  /// element stiffness takes its definition's mean). Frictionless (the reader refuses
  /// *FRICTION with a static step); node to surface (edge-to-edge records are left out: the
  /// explicit pass's guard against fast edges crossing). Throws InputError when a definition's
  /// slave nodes have no element stiffness at all.
  StaticContact(const Model& model, const Step& step, const StructureSystem& sys, const StructureOperator& op,
                const Configuration& ref, int threads);

  /// An attempt starts from zero multipliers: its first solve is the bare penalty's, which
  /// releases a record continuously. (Carried over from the last increment, a multiplier pulls
  /// an unloading record through zero gap, where its force drops from the multiplier to zero,
  /// and the iterations chatter.)
  void begin_attempt() { std::fill(lambda_.begin(), lambda_.end(), 0.0); }
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
  /// The last add_forces' nodal normal contact forces and per-definition totals into st
  /// (CPRESS, contact.csv), friction forces zero.
  void store(StructureState& st) const;
  /// Slave records touching at the last add_forces.
  int touching() const { return touching_; }
  /// The mean translational stiffness of the model's nodes (force per displacement), from the
  /// element matrices at the reference.
  double node_stiffness() const { return node_stiffness_; }

 private:
  const StructureSystem& sys_;
  const ContactSystem& cs_;
  HostContact search_;
  std::vector<double> penalty_;          ///< per slave record
  std::vector<double> lambda_;           ///< per record: the multiplier (hard contact)
  std::vector<int> facet_;               ///< per record: the touch of the last add_forces (-1: none)
  std::vector<ContactTouch<double>> touch_;
  std::vector<double> force_;            ///< per record: its normal force at the last add_forces
  std::vector<double> ux_, uy_, uz_;     ///< the search's displacement components
  CouplingBlocks blocks_;
  int touching_ = 0;
  double node_stiffness_ = 0;
};

}  // namespace halfstep
