// Every element of a discretized structure as one operator for static steps: continuum
// elements (3 translations per node), MITC4 shells (5 dofs per node: 3 translations and
// spins about the nodal triad) and the row families that run in static steps (6 dofs per
// node: the spins about t1, t2 and the director d; discretization/row_operator.hpp), on one
// dof layout of dofs_per_node() values per node (6 with row elements, else 5 when the model
// has shells: solid-only nodes then carry inactive rotation dofs, MITC4-only nodes an
// inactive spin about d). The CSR
// assembly and the tangent engines see elements only through this interface (element sizes,
// dofs, matrix offsets), so a new kind with a tangent is its operator plus a branch here.
#pragma once

#include <cstddef>
#include <vector>

#include "discretization/configuration.hpp"
#include "discretization/continuum_operator.hpp"
#include "discretization/row_operator.hpp"
#include "discretization/shell_operator.hpp"
#include "discretization/structure_state.hpp"

namespace halfstep {

/// The per-point state of the laws with state (J2) for one evaluation, in the operator's
/// material-state layout (StructureOperator::material_state: the continuum's points, then the
/// plastic shells' section points): old is the last converged increment's (null: the virgin
/// state), next receives the state at the evaluated configuration (null: nowhere).
struct PointStates {
  const double* old = nullptr;
  double* next = nullptr;
};

/// Solids, shells and row elements of a system as an operator on configurations. Elements
/// are numbered continuum first ([0, num_solids())), then shells, then row elements.
class StructureOperator {
 public:
  /// Borrows sys (it must outlive the operator); threads: OpenMP threads (<= 0: default).
  explicit StructureOperator(const StructureSystem& sys, int threads = 0);

  /// The system it borrows.
  const StructureSystem& system() const { return sys_; }
  /// The continuum part.
  const ContinuumOperator& continuum() const { return solids_; }
  /// The shell part.
  const ShellOperator& shells() const { return shells_; }
  /// The row elements' part.
  const RowOperator& rows() const { return rows_; }
  /// 6 when the model has row elements, else 5 when it has shells, else 3.
  int dofs_per_node() const { return ndn_; }
  /// dofs_per_node() x nodes.
  int num_dofs() const { return ndn_ * sys_.num_nodes; }
  /// Continuum, shell and row elements.
  int num_elements() const { return solids_.num_elements() + shells_.num_elements() + rows_.num_elements(); }
  /// Continuum elements (the first element numbers).
  int num_solids() const { return solids_.num_elements(); }
  /// 1 where a dof carries stiffness (translations of used nodes, x and y only in a planar
  /// model; the two spins of shell nodes, the three of row elements' nodes).
  std::vector<char> active_dofs() const;
  /// Values of the material state that PointStates and the engines carry: the continuum's
  /// (StructureState::solid_state), the plastic shells' (shell_state), then the row
  /// elements' (their whole incremental state: RowOperator's layout); 0 without any.
  std::size_t material_state_size() const { return solid_state_size_ + shell_state_size_ + rows_.state_size(); }
  /// st's material state in that layout.
  std::vector<double> material_state(const StructureState& st) const;
  /// Writes s (that layout) back into st's solid_state and shell_state.
  void store_material_state(const std::vector<double>& s, StructureState& st) const;

  /// Nodes of element e.
  int element_nodes(int e) const;
  /// Dofs per node of element e's matrix (3 for continuum elements, 5 for shells, 6 for row elements).
  int element_node_dofs(int e) const { return e < num_solids() ? 3 : (e < first_row() ? 5 : 6); }
  /// The first row element's number.
  int first_row() const { return solids_.num_elements() + shells_.num_elements(); }
  /// Element e's node indices.
  const int* element_connectivity(int e) const;
  /// Size of element e's square matrix.
  int element_size(int e) const { return element_nodes(e) * element_node_dofs(e); }
  /// Global dofs of element e's matrix rows (node after node, element_node_dofs each).
  void element_dofs(int e, int* dofs) const;
  /// Offset of element e's matrix in element_matrices' output (offset(num_elements()) = size).
  std::size_t matrix_offset(int e) const;
  /// Calls f(e, a) for every element e whose local node a is node n (continuum elements first,
  /// then shells), from the meshes' node -> connectivity-slot lists: how the CSR assembly finds
  /// the elements of a node's rows without naming a family.
  template <class F>
  void for_each_element_at(int n, F&& f) const {
    const SolidMesh& sm = sys_.solid;
    const auto k = static_cast<std::size_t>(n);
    if (!sm.node_slot_ptr.empty())  // empty in a model without continuum elements
      for (int s = sm.node_slot_ptr[k]; s < sm.node_slot_ptr[k + 1]; ++s) {
        const int slot = sm.node_slots[static_cast<std::size_t>(s)];
        std::size_t g = 0;  // groups lie one after the other in conn
        while (slot >= sm.groups[g].conn_offset + sm.groups[g].count * sm.groups[g].nodes_per_element) ++g;
        const int at = slot - sm.groups[g].conn_offset, npe = sm.groups[g].nodes_per_element;
        f(sm.groups[g].first + at / npe, at % npe);
      }
    if (sys_.shell.num_elements > 0)
      for (int s = sys_.shell.node_slot_ptr[k]; s < sys_.shell.node_slot_ptr[k + 1]; ++s) {
        const int slot = sys_.shell.node_slots[static_cast<std::size_t>(s)];
        f(num_solids() + slot / 4, slot % 4);
      }
    rows_.for_each_element_at(n, [&](int e, int a) { f(first_row() + e, a); });
  }

  /// Calls f(e, dofs, m, n) for every element e: its n global dofs (element_dofs) and its n x n
  /// matrix m (row-major) in k, element_matrices' layout.
  template <class F>
  void for_each_matrix(const std::vector<double>& k, F&& f) const {
    std::vector<int> dofs;
    for (int e = 0; e < num_elements(); ++e) {
      const int n = element_size(e);
      dofs.resize(static_cast<std::size_t>(n));
      element_dofs(e, dofs.data());
      f(e, dofs.data(), &k[matrix_offset(e)], n);
    }
  }

  /// Generalized internal forces (dofs_per_node per node: forces, moments about t1 and t2) in
  /// configuration c; returns the strain energy (hourglass energy included). With
  /// shell_energy, the shells' energies per element. With sums, the magnitudes of every
  /// continuum element's own nodal forces (ElementForceSums) are added to it: shells' and
  /// row elements' corner forces carry their bending moments as couples M / h, which would
  /// set the force scale by the moments over the element size and loosen the force check by
  /// the model's length over h (an FPM strip rolled by an end moment then stopped 8e-4 L from
  /// the closed form, against 1e-4 L), so their forces count assembled only.
  double internal_force(const Configuration& c, std::vector<double>& f, std::vector<double>* shell_energy = nullptr,
                        PointStates states = {}, ElementForceSums* sums = nullptr) const;
  /// K(ref) x of a geometrically linear analysis, x and f with dofs_per_node values per node
  /// (continuum elements: K(0), whatever ref.u is); returns x . K x / 2.
  double linearized_force(const Configuration& ref, const std::vector<double>& x, std::vector<double>& f,
                          const std::vector<double>* thermal = nullptr) const;
  /// The forces of a geometrically linear step with plasticity or row elements: the continuum
  /// elements' and the shells' small-strain theory from states.old into states.next
  /// (ContinuumOperator::small_strain_force, ShellOperator::small_strain_forces: elastic
  /// shells K(ref) x), the row elements' linear theory (RowOperator::linear_forces: their
  /// state into states.next); returns the strain energy (stored plus dissipated where laws
  /// have state).
  double small_strain_force(const Configuration& ref, const std::vector<double>& x, std::vector<double>& f,
                            const std::vector<double>* thermal, PointStates states) const;
  /// Their element matrices at c's displacements and temperatures (element_matrices'
  /// layout): the consistent small-strain tangents (elastic shells and row elements: K(ref)).
  void small_strain_matrices(const Configuration& ref, const Configuration& c, std::vector<double>& k,
                             const double* state_old) const;
  /// The undeformed configuration with Abaqus' default triads (t1 the projection of global x,
  /// or z, on the tangent plane): what an engine's set-up assembles for its analysis.
  Configuration rest() const;
  /// Element matrices at c, element after element (matrix_offset), row-major; laws with state
  /// differentiate their update from state_old (material_state's layout; null: the virgin
  /// state).
  void element_matrices(const Configuration& c, std::vector<double>& k, const double* state_old = nullptr) const;

 private:
  /// Nodal generalized forces from the continuum forces (3 per node; empty: none), the
  /// shell corner forces (20 per shell; empty: none) and the row elements' (6 per corner;
  /// empty: none), in a fixed order.
  void gather(const std::vector<double>& solid, const std::vector<double>& shell, std::vector<double>& f,
              const std::vector<double>& row = {}) const;

  /// Throws where the row elements would be left out (linearized_force has no state to write).
  void linear_only() const;

  const StructureSystem& sys_;
  int threads_;
  ContinuumOperator solids_;
  ShellOperator shells_;
  RowOperator rows_;
  int ndn_;
  std::size_t solid_size_;  ///< entries of the continuum matrices
  std::size_t solid_state_size_, shell_state_size_;  ///< the material state's two parts
  /// The shells' part of states (null stays null; the continuum's part starts at the same place).
  PointStates shell_part(PointStates states) const {
    return {states.old ? states.old + solid_state_size_ : nullptr, states.next ? states.next + solid_state_size_ : nullptr};
  }
  /// The row elements' part of states (null stays null).
  PointStates row_part(PointStates states) const {
    const std::size_t at = solid_state_size_ + shell_state_size_;
    return {states.old ? states.old + at : nullptr, states.next ? states.next + at : nullptr};
  }
};

}  // namespace halfstep
