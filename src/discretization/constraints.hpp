// Linear constraints of the explicit scheme (*TIE, *EQUATION) by elimination: each dependent
// dof (a translation, or a global rotation of a 6-dof node) is a weighted sum of independent ones, u_s = sum_k w_k u_(m_k). The node pass
// hands a dependent dof's force and lumped mass to its independent dofs with the weights,
// integrates the independent dofs and then sets the dependent ones from them
// (docs/theory.md, "Constraints").
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "model/model.hpp"

namespace halfstep {

/// The dependent dofs and their weights, and per node the transfers it receives (CSR).
struct LinearConstraints {
  int num_dependent = 0;                ///< dependent dofs (node, dof) over the model
  std::vector<int> dep_node, dep_dof;   ///< per dependent dof: node index, dof 0..5 (3..5: global rotations)
  std::vector<SourceLoc> dep_loc;       ///< the *TIE or *EQUATION line that made it dependent
  std::vector<int> term_ptr;            ///< num_dependent + 1 offsets into the terms
  std::vector<int> term_node, term_dof; ///< independent node and dof of each term (a rotation's terms are rotations)
  std::vector<double> term_weight;      ///< w_k
  std::vector<std::uint8_t> dependent;  ///< per node: bits 0-5 of its dependent dofs
  /// Per node, the dependent dofs whose force it receives: [recv_ptr[n], recv_ptr[n + 1]).
  std::vector<int> recv_ptr, recv_dependent, recv_dof;
  std::vector<double> recv_weight;
  /// Three per node: the node's translational mass plus the masses handed to that dof.
  std::vector<double> mass3;
  /// Empty without dependent rotations, else three per node: the rotary inertia plus the
  /// inertias handed to that rotation.
  std::vector<double> inertia3;
  /// Nodes with a dependent rotation: the constraint pass turns their frames (the node pass
  /// leaves a frame alone when one of its rotations is skipped).
  std::vector<int> rot_node;
  bool empty() const { return num_dependent == 0; }
};

/// Rigid bodies (*RIGID BODY, kinematic *COUPLING): per body its reference node, mass
/// properties about that node in the reference configuration, and its slave nodes with their
/// offsets X_s - X_r. The body is integrated at its reference node with the full 6 x 6 mass
/// matrix (docs/theory.md, "Rigid bodies").
struct RigidBodies {
  int num_bodies = 0;
  std::vector<int> ref_node;             ///< per body
  std::vector<double> mass;              ///< per body: total mass
  std::vector<double> first_moment;      ///< 3 per body: sum m_k (X_k - X_r)
  std::vector<double> inertia;           ///< 9 per body: inertia tensor about the reference node (row-major)
  std::vector<int> slave_ptr;            ///< num_bodies + 1 offsets into the slaves
  std::vector<int> slave_node;           ///< per slave: node index
  std::vector<double> offset;            ///< 3 per slave: X_s - X_r
  std::vector<std::uint8_t> slave_rot;   ///< per slave: 1 when its rotations follow the body (6-dof nodes, tied)
  std::vector<std::uint8_t> skip;        ///< per node: dofs the node pass leaves to the body pass (empty: no bodies)
  std::vector<SourceLoc> loc;            ///< per body: its keyword line
  bool empty() const { return num_bodies == 0; }
};

/// A slave node of a *TIE: the master face's nodes and their shape-function weights at the
/// point of the master surface nearest to the node.
struct TiedNode {
  int node = -1, tie = -1;     ///< node index, index into Model::ties
  std::vector<int> masters;
  std::vector<double> weights;
  std::array<double, 3> on_master{};  ///< the projection (where ADJUST=YES moves the node)
  double distance = 0;
};

/// A node moved before the run and where to (*CONTACT PAIR, ADJUST=).
struct AdjustedNode {
  int node = -1;
  std::array<double, 3> to{};
};

/// The slave nodes that *CONTACT PAIR, ADJUST= moves onto their master surfaces, with their
/// projections (a node of two adjusting pairs: the first pair's): with a distance, the
/// slave surface's nodes at most that far from the master faces; with a node set, that set's
/// nodes. Throws InputError (at the pair's line) for a missing node set or a master surface
/// that is not made of element faces (an analytical rigid surface).
std::vector<AdjustedNode> contact_adjustments(const Model& model);

/// Projects every slave node of every *TIE onto its master surface; throws InputError (at the
/// *TIE line) for a node beyond the position tolerance or a surface with no usable faces.
/// Slave nodes that belong to the master surface are shared already and left out.
std::vector<TiedNode> project_ties(const Model& model);

/// The dependent dofs of the ties (projected) and equations with their masses (mass: the
/// lumped translational mass per node; inertia: the rotary inertia per node; node_rotates:
/// nodes with rotational dofs; dofs: the model's dofs per node). Throws InputError for a dof
/// made dependent twice, a chain (a dependent dof in another constraint's terms), a dependent
/// dof that a *BOUNDARY of some step prescribes, and rotational dofs on nodes without them, in
/// 5-dof (MITC4) models or mixed with translations in one equation.
LinearConstraints build_linear_constraints(const Model& model, const std::vector<TiedNode>& tied,
                                           const std::vector<double>& mass, const std::vector<double>& inertia,
                                           const std::vector<std::uint8_t>& node_rotates, int dofs);

/// The linear constraints' masses again (mass3, inertia3) from new nodal masses and rotary
/// inertias, their tables unchanged: build_linear_constraints' rule, used after *VARIABLE
/// MASS SCALING changes the masses.
void set_constraint_masses(LinearConstraints& c, const std::vector<double>& mass, const std::vector<double>& inertia);

/// The rigid bodies' mass, first moment and inertia tensor again from new nodal masses and
/// rotary inertias (model: its *ROTARY INERTIA elements), their slaves and offsets unchanged:
/// build_rigid_bodies' rule, used after *VARIABLE MASS SCALING changes the masses.
void set_body_masses(RigidBodies& r, const Model& model, const std::vector<double>& mass,
                     const std::vector<double>& inertia, const std::vector<std::uint8_t>& node_rotates);

/// The rigid bodies of the model (mass, inertia: lumped per node; node_rotates: nodes with
/// rotational dofs; dofs: the model's dofs per node). Throws InputError for a node in two
/// bodies or in a body and a linear constraint, a slave or reference rotation under
/// *BOUNDARY, a massless body, a body whose inertia tensor is singular, and 5-dof (MITC4)
/// models.
RigidBodies build_rigid_bodies(const Model& model, const LinearConstraints& linear, const std::vector<double>& mass,
                               const std::vector<double>& inertia, const std::vector<std::uint8_t>& node_rotates,
                               int dofs);

/// The nodes a compact output frame (dynamics/output_frame.hpp, OutputFrame::nodes) carries
/// so that its rows of `nodes` are whole: nodes and the independent nodes of their dependent
/// dofs (a dependent dof's full-step velocity is the weighted sum of theirs), ascending and
/// without repeats. Nodes outside 0..num_nodes-1 throw std::out_of_range.
std::vector<int> frame_nodes(const LinearConstraints& lc, int num_nodes, std::vector<int> nodes);

/// Every node a linear constraint or a rigid body names (dependent nodes, their terms' nodes,
/// reference and slave nodes), ascending without repeats: a distributed run holds each of
/// them on every rank (parallel/subdomain.hpp).
std::vector<int> constraint_nodes(const LinearConstraints& lc, const RigidBodies& rb);

/// The linear constraints on a subset of the nodes (nodes: new index -> node; to_local: node ->
/// new index or -1), which must hold every constraint node (std::logic_error otherwise). The
/// dependent dofs, their terms and each node's received forces keep their order.
LinearConstraints restrict_constraints(const LinearConstraints& lc, const std::vector<int>& nodes,
                                       const std::vector<int>& to_local);

/// The rigid bodies on a subset of the nodes, as restrict_constraints.
RigidBodies restrict_bodies(const RigidBodies& rb, const std::vector<int>& nodes, const std::vector<int>& to_local);

}  // namespace halfstep
