// The discretized structure: arrays the time integrator needs, built once from a Model. The
// nodes' arrays are stored here; each family's elements in their own member: MITC4 shells in
// `shell` (discretization/shell_mesh.hpp), solids in `solid`, and the row families (FPM beams
// and triangles, discretization/row_families.hpp) in `rows`, reached as mesh<Mesh>(). Nodes
// used only by solids carry 3 dofs: their rotational dofs are held in every step.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "discretization/shell_mesh.hpp"
#include "discretization/constraints.hpp"
#include "discretization/contact.hpp"
#include "discretization/row_families.hpp"
#include "model/model.hpp"
#include "discretization/solid_mesh.hpp"

namespace halfstep {

/// Generalized dofs per shell node: 3 translations (global) + 2 director rotations (nodal triad).
constexpr int kShellDofs = 5;
/// The most dofs a node has: beam nodes carry 3 translations and 3 global rotations.
constexpr int kMaxNodeDofs = 6;

/// Mesh, section, mass and reference-geometry arrays in structure-of-arrays form.
struct StructureSystem {
  int num_nodes = 0;
  std::vector<double> x0, y0, z0;  ///< reference coordinates
  std::vector<double> dir0x, dir0y, dir0z;   ///< initial unit director per node
  std::vector<double> mass, inertia;         ///< lumped translational mass, rotational inertia
  std::vector<double> damp, damp_rot;        ///< damping coefficients c = alpha m per node
  double total_mass = 0;
  double energy_per_unit_strain = 0;  ///< sum of E t A / 2: membrane energy of a unit strain
  double stable_dt = 0;        ///< min element_dt over shells and solids (no safety factor)
  int controlling_element = -1;  ///< model element index of the element giving stable_dt
  ShellMesh shell;             ///< MITC4 shells
  SolidMesh solid;             ///< continuum elements
  RowMeshes rows;              ///< the row families' meshes (FPM beams and triangles)
  LinearConstraints constraints;  ///< *TIE and *EQUATION (empty without them)
  RigidBodies bodies;             ///< *RIGID BODY and kinematic *COUPLING (empty without them)
  ContactSystem contact;          ///< *CONTACT PAIR and *CONTACT (empty without them)
  /// True when the node pass has constraints to apply (linear ones or rigid bodies).
  bool constrained() const { return !constraints.empty() || !bodies.empty(); }
  std::vector<std::uint8_t> node_rotates;  ///< per node: 1 when some shell, beam or triangle of the whole model uses it
  bool any_director_nodes = false;  ///< the whole model has MITC4 shells, whose nodes turn two director angles (5 dofs unless node_dofs is 6)
  /// Dofs per node of the whole model: 6 with beams or FPM triangles (global rotations; MITC4
  /// shells among them hand their nodes global moments, see shell_global_moments), 5 with
  /// MITC4 shells only (rotations about the nodal triad), else 3.
  int node_dofs = 3;

  // A subdomain of a distributed run (parallel/subdomain.hpp); defaults describe a whole model.
  int num_interface = 0;       ///< nodes [0, num_interface) are shared with other ranks
  std::vector<std::uint8_t> owned;  ///< per node: 1 where this rank reports it (empty: all)
  /// Per node: 1 when some element of the whole model uses it (empty: ask the elements here).
  /// A rank holds constraint nodes that none of its own elements may use.
  std::vector<std::uint8_t> used;

  /// Calls f with each family's mesh in block order (shells, continuum, the row families):
  /// code that treats every mesh alike (a rank share's field list and checks) names none.
  template <class F>
  void for_each_mesh(F&& f) {
    f(shell);
    f(solid);
    std::apply([&f](auto&... m) { (f(m), ...); }, rows);
  }
  /// The same, read only.
  template <class F>
  void for_each_mesh(F&& f) const {
    f(shell);
    f(solid);
    std::apply([&f](const auto&... m) { (f(m), ...); }, rows);
  }
  /// The family mesh of type Mesh (ShellMesh, SolidMesh or a row family's).
  template <class Mesh>
  const Mesh& mesh() const {
    if constexpr (std::is_same_v<Mesh, ShellMesh>) return shell;
    else if constexpr (std::is_same_v<Mesh, SolidMesh>) return solid;
    else return std::get<Mesh>(rows);
  }
  /// The same, to build or restrict it.
  template <class Mesh>
  Mesh& mesh() {
    return const_cast<Mesh&>(static_cast<const StructureSystem&>(*this).mesh<Mesh>());
  }

  /// Node index -> true when some shell, beam or triangle uses it (the node has rotational dofs).
  bool has_rotations(int n) const { return node_rotates[n] != 0; }
  /// True when some element of any kind uses node n.
  bool node_used(int n) const {
    if (!used.empty()) return used[static_cast<std::size_t>(n)] != 0;
    return has_rotations(n) || (!solid.node_slot_ptr.empty() && solid.node_slot_ptr[n + 1] > solid.node_slot_ptr[n]);
  }
  /// True when MITC4 shells run on 6-dof nodes (a model that also has beams or FPM
  /// triangles): each corner then hands its node 6 values, the force and the global moment
  /// v x dW/dv, instead of 5 (two moments about the nodal triad).
  bool shell_global_moments() const { return any_director_nodes && node_dofs == 6; }
  /// Values per MITC4 corner in the element force buffers: 6 or 5 (shell_global_moments).
  int shell_corner_values() const { return shell_global_moments() ? 6 : kShellDofs; }
  /// Takes the whole model's values that every rank of a distributed run shares: the node
  /// mode, the mass and energy scales and the stable increment.
  void take_whole_model_scalars(const StructureSystem& whole) {
    any_director_nodes = whole.any_director_nodes;
    node_dofs = whole.node_dofs;
    total_mass = whole.total_mass;
    energy_per_unit_strain = whole.energy_per_unit_strain;
    stable_dt = whole.stable_dt;
    controlling_element = whole.controlling_element;
  }
  /// Elements of every family.
  int total_elements() const {
    int n = 0;
    for_each_mesh([&n](const auto& m) { n += m.num_elements; });
    return n;
  }
};

/// Rule for rotational inertia: I = m * max(t^2/12, kRotaryScale * A). The second term scales
/// rotary inertia of thin elements so that rotations never control the stable increment
/// (Belytschko, Lin & Tsay 1984); its value is checked by tests/elements/test_mitc4_frequency.
constexpr double kRotaryScale = 0.25;

/// Builds the system; throws InputError (with the element's deck line) for elements that
/// are inverted or degenerate at a Gauss point, and for constraints that cannot be made
/// (constraints.hpp). Slave nodes of *TIE, ADJUST=YES are moved onto their master surface
/// before anything else is computed.
StructureSystem build_structure_system(const Model& model);

/// Rebuilds what the system derived from its nodal masses when it was built (the linear
/// constraints' and rigid bodies' masses and inertias, the contact springs' masses, and the
/// springs', dashpots' and adhesion edges' increment bounds from their nodes' masses), after
/// mass scaling changed the masses.
void rebuild_mass_dependents(const Model& model, StructureSystem& sys);

/// Rebuilds the node -> shell-corner gather map (shell.node_slot_ptr, node_slots) from shell.conn.
void build_gather_map(StructureSystem& sys);

/// Numbers the section points of plastic shells (shell.first_point, shell.num_points) from
/// shell.section and shell.sections.
void assign_shell_points(StructureSystem& sys);

/// True when some shell section of sys is plastic (its shells carry section-point state).
bool has_plastic_shells(const StructureSystem& sys);

/// Element characteristic length used in the stable increment: area / longest diagonal... see .cpp.
double mitc4_characteristic_length(const Vec3<double> x[4]);

/// Plate wave speed sqrt(E / (rho (1 - nu^2))) of a section.
double plate_wave_speed(const SectionProps& s);

/// Each corner's share of a MITC4 element's area (its lumped mass per unit rho t).
void mitc4_corner_areas(const Mitc4Ref<double>& ref, double corner_area[4]);

/// Sets stable_dt and controlling_element: the smallest element_dt of every family (shells,
/// the row families in RowMeshes order, continuum elements, in that order; the first of equals).
void update_stable_dt(StructureSystem& sys);

}  // namespace halfstep
