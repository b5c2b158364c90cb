// The row families (discretization/row_families.hpp) as an operator for static steps: their
// elements' generalized forces on 6-dof nodes (3 translations, then the spins about the node's
// frame t1, t2 = d x t1, d) and the element matrices, exact derivatives by forward dual
// numbers through the same incremental update. A family takes part when its mesh has the
// static hooks (Section<D>, section_as, StaticView, static_view, generalized_forces, work_of,
// geometric_state, kWorkState; TriMesh and BeamMesh have them); the
// others are refused by the model's checks before a static step runs.
#pragma once

#include <cstddef>
#include <type_traits>
#include <vector>

#include "discretization/configuration.hpp"
#include "discretization/loads.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"

namespace halfstep {

/// Whether row family Mesh runs in static steps (has the static hooks).
template <class Mesh, class = void>
struct HasStaticForces : std::false_type {};
template <class Mesh>
struct HasStaticForces<Mesh, std::void_t<decltype(&Mesh::template section_as<double>)>> : std::true_type {};
template <class Mesh>
constexpr bool has_static_forces = HasStaticForces<Mesh>::value;

/// Every static row family's elements as one operator; elements are numbered family after
/// family (RowMeshes order), and so are their states and matrices.
class RowOperator {
 public:
  /// Borrows sys (it must outlive the operator); threads: OpenMP threads (<= 0: default).
  RowOperator(const StructureSystem& sys, int threads);

  /// Elements of every static row family.
  int num_elements() const { return total_; }
  /// Corners of element e.
  int element_nodes(int e) const { return part(e).corners; }
  /// Element e's node indices.
  const int* element_connectivity(int e) const;
  /// Offset of element e's matrix (6 corners x 6 dofs squared per element) among the rows'.
  std::size_t matrix_offset(int e) const;
  /// Values of the families' states (component-major per family, one after the other).
  std::size_t state_size() const { return state_total_; }
  /// st's row states in that layout (appended to out).
  void append_state(const StructureState& st, std::vector<double>& out) const;
  /// Writes the layout's values from s on into st's row states.
  void store_state(const double* s, StructureState& st) const;
  /// Calls f(e, a) for every element e whose corner a is node n, in a fixed order.
  template <class F>
  void for_each_element_at(int n, F&& f) const {
    for (const Part& p : parts_)
      if (!p.slot_ptr->empty())
        for (int s = (*p.slot_ptr)[static_cast<std::size_t>(n)]; s < (*p.slot_ptr)[static_cast<std::size_t>(n) + 1]; ++s) {
          const int slot = (*p.slots)[static_cast<std::size_t>(s)];
          f(p.first + slot / p.corners, slot % p.corners);
        }
  }
  /// The families' states at the start of a run, in this layout, the elements' frames those of
  /// the nodes in c (what a null `old` means: unstressed elements at c's frames).
  std::vector<double> initial_states(const Configuration& c) const;
  /// Generalized forces of every element at configuration c (6 per corner, element after
  /// element), one path unit from the state `old` (this layout; null: initial_states(c)); the
  /// trial state into `next` (null: nowhere). Returns the elements' accumulated work at c
  /// (their strain energy).
  double element_forces(const Configuration& c, std::vector<double>& out, const double* old, double* next) const;
  /// Element matrices at c from `old` (null: initial_states(c)), row-major, matrix_offset(e) on
  /// from k: the symmetric part of the generalized forces' derivative.
  void element_matrices(const Configuration& c, double* k, const double* old) const;
  /// The geometrically linear theory about ref (the unstressed elements at ref's frames):
  /// each element's increment is the linear map B of the kinematics there applied to the
  /// change of its generalized dofs x (6 per node; element_forces' output layout) since the
  /// state `old` (null: initial_states(ref)), taken from that state by the same stress update
  /// and forces, on ref's geometry (yielding sections return as in NLGEOM steps). The state
  /// into `next` (null: nowhere) is what a later step continues from: stresses and moments so
  /// updated, geometry (edges, axes, node frames) that of the linear configuration
  /// (translations x, frames turned by x's spins). Returns the elements' accumulated work.
  double linear_forces(const Configuration& ref, const std::vector<double>& x, std::vector<double>& out,
                       const double* old, double* next) const;
  /// The linear theory's element matrices at c (the linear configuration of some x) from
  /// `old` (null: initial_states(ref)), element_matrices' layout: the symmetric part of the
  /// derivative of linear_forces.
  void linear_matrices(const Configuration& ref, const Configuration& c, double* k, const double* old) const;
  /// Adds the step's element pressures at step time tau (follower forces on c's
  /// displacements, or on the reference when `current` is false) to f, q values per node.
  void add_pressure_forces(const Configuration& c, bool current, const DriveView& dv, double tau, int q,
                           std::vector<double>& f) const;
  /// Adds node n's corner forces (6 each, in for_each_element_at's order) from element_forces'
  /// output into f[0..5].
  void gather(int n, const std::vector<double>& forces, double* f) const;

  /// One family's block of elements.
  struct Part {
    int first, count, corners;
    std::size_t state_at, state_rows;       ///< its state's offset in the layout, rows (values per element)
    std::size_t matrix_at;                  ///< its first matrix's offset
    std::size_t corner_at;                  ///< its first corner among element_forces' (6 values each)
    const std::vector<int>* conn;
    const std::vector<int>*slot_ptr, *slots;  ///< node -> corner slots (kCorners e + k)
    std::size_t family;                     ///< its index in RowMeshes
    int pressure_at = -1;                   ///< its first element in the step's pressure table (-1: none)
  };
  /// The families' blocks, in element order (what another backend mirrors).
  const std::vector<Part>& parts() const { return parts_; }
  /// Corners of every element (element_forces gives 6 values each).
  std::size_t num_corners() const { return corner_total_; }
  /// The index of element e's corner a among them.
  std::size_t corner_index(int e, int a) const {
    const Part& p = part(e);
    return p.corner_at + static_cast<std::size_t>(p.corners) * static_cast<std::size_t>(e - p.first) + static_cast<std::size_t>(a);
  }

 private:
  const Part& part(int e) const;

  const StructureSystem& sys_;
  int threads_;
  std::vector<Part> parts_;
  int total_ = 0;
  std::size_t state_total_ = 0, matrix_total_ = 0, corner_total_ = 0;
};

}  // namespace halfstep
