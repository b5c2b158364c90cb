// The FPM triangles of a model (S3 / S3R with *SHELL SECTION, FORMULATION=FPM) as
// structure-of-arrays: connectivity, section constants, reference edges, initial DCS axes,
// areas, stable increments and the node -> triangle-corner gather map. Built once from a
// Model; the state lives in StructureState.
//
// The FPM triangle pass's per-element work as a host/device forall body: gather the three
// nodes' displacements and frames, run fpm_tri_update on the triangle's state (in place) and
// write each corner's internal force and moment into its slot (6 values per corner, summed per
// node in a fixed order by add_slot_forces6: deterministic), and, with pressures, each
// corner's follower pressure force (3 values per corner).
//
// The family is three files: this header, tri_block.cpp (its build and block table) and
// backends/cuda/tri_device.cuh; discretization/row_families.hpp lists it.
#pragma once

#include <string>
#include <type_traits>
#include <vector>

#include "core/host_device.hpp"
#include "core/slot_forces.hpp"
#include "discretization/loads.hpp"
#include "discretization/rotating_mass.hpp"
#include "elements/fpm_tri.hpp"
#include "model/model.hpp"

namespace halfstep {

/// The FPM triangles of a model: the family's mesh and its host trait (a row family,
/// discretization/row_families.hpp: 6-dof corners, one store of state rows per element).
struct TriMesh {
  /// The family in restart sections and messages; its corners; whether the step's follower
  /// pressures load it; where each corner's frame starts in its state (kTriFrame).
  static constexpr const char* kKey = "tri";
  static constexpr const char* kWhat = "an FPM triangle";
  static constexpr int kCorners = 3;
  static constexpr bool kPressure = true;
  static constexpr int kFrame = kTriFrame;

  int num_elements = 0;
  std::vector<int> model_element;  ///< triangle -> model element index
  std::vector<int> conn;           ///< 3 node indices per triangle
  std::vector<int> section;        ///< index into constants per triangle
  std::vector<TriConstants<double>> constants;  ///< one per FPM *SHELL SECTION
  std::vector<double> edge2x, edge2y, edge2z, edge3x, edge3y, edge3z;  ///< X2 - X1, X3 - X1 per triangle
  std::vector<double> e1x, e1y, e1z;  ///< initial DCS axis e1 (Abaqus's default local 1-direction)
  std::vector<double> area0;       ///< reference area per triangle
  std::vector<double> element_dt;  ///< stable increment per triangle (fpm_tri_stable_dt)
  std::vector<int> node_slot_ptr, node_slots;  ///< node -> triangle corners (3 e + k), CSR; empty without triangles
  int state_size = 0;              ///< values per triangle in its RowFamilyState::state
  int boundary = 0;                ///< distributed runs: triangles [0, boundary) touch a shared node
  /// Some section yields (the element passes then compile the plastic path).
  bool any_plastic() const {
    for (const TriConstants<double>& c : constants)
      if (c.plastic) return true;
    return false;
  }
  /// Builds the triangles of a model and their masses (rho t A / 3 and the rotary inertia
  /// m max(t^2/12, kTriRotaryScale A) per node; energy_per_unit_strain sums E t A / 2).
  static TriMesh build(const Model& model, RotatingMassContribution& contrib);
  /// The state of every triangle at the start of a run (component-major, tri_initial_state).
  std::vector<double> initial_state() const;

  // Static steps (discretization/row_operator.hpp, backends/cuda/row_tangent.cuh): the
  // section constants in number type D, the arrays an evaluation reads (each through at(v):
  // the host vector's data, or a device copy's), and element e's generalized forces
  // (tri_generalized_forces) at the nodes' displacements u and frames t1, d (3 per node), one
  // path unit from the converged state `old`.
  template <class D>
  using Section = TriConstants<D>;
  template <class D>
  static Section<D> section_as(const TriConstants<double>& c) {
    return convert_tri_constants<D>(c);
  }
  /// What a static evaluation reads of the triangles.
  struct StaticView {
    const int *conn, *section;
    const double *edge2x, *edge2y, *edge2z, *edge3x, *edge3y, *edge3z;
    int state_size;
  };
  template <class At>
  StaticView static_view(At&& at) const {
    return {at(conn), at(section), at(edge2x), at(edge2y), at(edge2z), at(edge3x), at(edge3y), at(edge3z), state_size};
  }
  /// Element e's nodes at the displacements u and frames t1, d (3 values per node each).
  HS_HD static TriNodes<double> nodes(const StaticView& v, int e, const double* u, const double* t1, const double* d) {
    TriNodes<double> nd;
    nd.edge0[0] = {v.edge2x[e], v.edge2y[e], v.edge2z[e]};
    nd.edge0[1] = {v.edge3x[e], v.edge3y[e], v.edge3z[e]};
    for (int k = 0; k < 3; ++k) {
      const std::size_t n = 3 * static_cast<std::size_t>(v.conn[3 * static_cast<std::size_t>(e) + k]);
      nd.u[k] = {u[n], u[n + 1], u[n + 2]};
      nd.t1[k] = {t1[n], t1[n + 1], t1[n + 2]};
      nd.d[k] = {d[n], d[n + 1], d[n + 2]};
    }
    return nd;
  }
  template <class D>
  HS_HD static void generalized_forces(const StaticView& v, const Section<D>* sections, int e, const double* u,
                                       const double* t1, const double* d, const StridedState<const double>& old,
                                       int seed, const StridedState<D>& work, D* out) {
    tri_generalized_forces<D>(sections[v.section[e]], nodes(v, e, u, t1, d), old, v.state_size, seed, work, out);
  }
  // The linear theory's pieces (RowOperator::linear_forces): an evaluation's increment, of
  // which the first kIncrementGeometry values are geometry, the rest linear in the
  // displacements at the reference; the forces of a given increment; the displacements a
  // state stands for.
  static constexpr int kIncrement = kTriIncrementValues, kIncrementGeometry = kTriIncrementGeometry;
  /// Element e's increment (tri_increment_of) from old to the nodes at u, t1, d.
  template <class D>
  HS_HD static void increment(const StaticView& v, int e, const double* u, const double* t1, const double* d,
                              const StridedState<const double>& old, int seed, const StridedState<D>& work, D* inc) {
    tri_increment_of<D>(nodes(v, e, u, t1, d), old, v.state_size, seed, work, inc);
  }
  /// Element e's generalized forces of the increment inc taken from old (tri_increment_forces),
  /// moments along the corner frames t1, d.
  template <class D>
  HS_HD static void increment_forces(const StaticView& v, const Section<D>* sections, int e, const Vec3<double>* t1,
                                     const Vec3<double>* d, const StridedState<const double>& old, const D* inc,
                                     const StridedState<D>& work, D* out) {
    tri_increment_forces<D>(sections[v.section[e]], t1, d, old, v.state_size, inc, work, out);
  }
  /// The corners' translations relative to the first corner and their frames that element
  /// e's state s stands for (tri_state_nodes).
  HS_HD static void state_nodes(const StaticView& v, int e, const StridedState<const double>& s, Vec3<double>* du,
                                Vec3<double>* t1, Vec3<double>* d) {
    const Vec3<double> edge0[2] = {{v.edge2x[e], v.edge2y[e], v.edge2z[e]}, {v.edge3x[e], v.edge3y[e], v.edge3z[e]}};
    tri_state_nodes(s, edge0, du, t1, d);
  }
  /// Whether state component c records geometry (edges, axes, node frames), which a
  /// geometrically linear step takes from the linear configuration; the others are linear in
  /// the displacements there (RowOperator::linear_forces).
  static constexpr bool geometric_state(int c) { return c < kTriWork; }
  /// The state component of the element's accumulated work.
  static constexpr int kWorkState = kTriWork;
  /// The work an element's state has accumulated (its static steps' strain energy).
  HS_HD static double work_of(const StridedState<const double>& s) { return s[kTriWork]; }
  /// Element e's follower pressure force on each corner (3 values each, as the explicit pass's:
  /// -p (r2 x r3) / 6) at the displacements u (3 per node; null: the reference).
  void pressure_forces(int e, const double* u, double p, double* out) const {
    Vec3<double> r2{edge2x[e], edge2y[e], edge2z[e]}, r3{edge3x[e], edge3y[e], edge3z[e]};
    if (u) {
      const int* c = &conn[3 * static_cast<std::size_t>(e)];
      const auto at = [&](int k) {
        const std::size_t n = 3 * static_cast<std::size_t>(c[k]);
        return Vec3<double>{u[n], u[n + 1], u[n + 2]};
      };
      r2 = r2 + (at(1) - at(0));
      r3 = r3 + (at(2) - at(0));
    }
    const Vec3<double> fp = (-p / 6) * cross(r2, r3);
    for (int k = 0; k < 3; ++k) {
      out[3 * k] = fp.x;
      out[3 * k + 1] = fp.y;
      out[3 * k + 2] = fp.z;
    }
  }
};

// A rank share (parallel/run_share.cpp) carries a mesh through its field list below; the size
// guard (x86-64, libstdc++) stops the build when a field is added, so that it joins the list.
template <class Ar>
void serialize(Ar& ar, TriMesh& m) {
  ar(m.num_elements, m.model_element, m.conn, m.section, m.constants, m.edge2x, m.edge2y, m.edge2z, m.edge3x,
     m.edge3y, m.edge3z, m.e1x, m.e1y, m.e1z, m.area0, m.element_dt, m.node_slot_ptr, m.node_slots, m.state_size,
     m.boundary);
}
static_assert(sizeof(TriMesh) == 424, "TriMesh changed: add the new field to its serialize, then update the size");
static_assert(std::is_trivially_copyable_v<TriConstants<double>>,
              "TriConstants travels as bytes and gained an owning member: give it a field list");

/// Raw arrays of the triangle pass (host or device pointers).
template <class T>
struct TriView {
  int num_tris;
  const int *conn, *section;
  const TriConstants<T>* constants;
  const T *edge2x, *edge2y, *edge2z, *edge3x, *edge3y, *edge3z;
  const T *ux, *uy, *uz;
  const T *t1x, *t1y, *t1z, *dx, *dy, *dz;  ///< node frames (R t1_0, R d_0; elements/fpm_kinematics.hpp)
  T* state;     ///< component-major, stride num_tris
  T* force;     ///< 18 per triangle: corner k's force (3) and moment (3) at 6 (3 e + k)
  T* pressure;  ///< 9 per triangle (corner k's pressure force at 3 (3 e + k)), or null
  int pressure_offset;  ///< the triangles' first index in the drive's pressure tables
};

/// Triangle e's reference edges and its nodes' displacements and frames.
template <class T>
HS_HD TriNodes<T> gather_tri_nodes(const TriView<T>& v, int e) {
  TriNodes<T> nd;
  nd.edge0[0] = {v.edge2x[e], v.edge2y[e], v.edge2z[e]};
  nd.edge0[1] = {v.edge3x[e], v.edge3y[e], v.edge3z[e]};
  for (int k = 0; k < 3; ++k) {
    const int n = v.conn[3 * e + k];
    nd.u[k] = {v.ux[n], v.uy[n], v.uz[n]};
    nd.t1[k] = {v.t1x[n], v.t1y[n], v.t1z[n]};
    nd.d[k] = {v.dx[n], v.dy[n], v.dz[n]};
  }
  return nd;
}

/// Writes triangle e's corner forces and moments into its slots and, with pressures, its
/// follower pressure forces (from the current edges r2, r3); adds its internal work so far to
/// sum[0] and its plastic dissipation so far to sum[1] (MayYield = false: none, and the
/// dissipation's code stays out of the elastic kernels).
template <bool MayYield, class T>
HS_HD void finish_tri(const TriView<T>& v, const DriveView& drive, double tau, int e, const TriForces<T>& f,
                      const TriStateRef<T>& s, double* sum) {
  T* out = v.force + 18 * static_cast<long long>(e);
  for (int k = 0; k < 3; ++k) {
    const T vals[6] = {f.f[k].x, f.f[k].y, f.f[k].z, f.m[k].x, f.m[k].y, f.m[k].z};
    for (int i = 0; i < 6; ++i) out[6 * k + i] = vals[i];
  }
  if (v.pressure) {
    // Follower pressure, positive against the normal (r2 x r3): -p A n / 3 per corner. The
    // state holds the current edges (tri_kinematics stored them).
    const T p = T(evaluate_pressure(drive, v.pressure_offset + e, tau));
    const Vec3<T> fp = (-p / T(6)) * cross(load3(s, kTriEdge2), load3(s, kTriEdge3));
    T* po = v.pressure + 9 * static_cast<long long>(e);
    for (int k = 0; k < 3; ++k) {
      po[3 * k] = fp.x;
      po[3 * k + 1] = fp.y;
      po[3 * k + 2] = fp.z;
    }
  }
  sum[0] += static_cast<double>(s[kTriWork]);
  const TriConstants<T>& sec = v.constants[v.section[e]];
  if (MayYield && sec.plastic) {
    const Vec3<T> r2{v.edge2x[e], v.edge2y[e], v.edge2z[e]}, r3{v.edge3x[e], v.edge3y[e], v.edge3z[e]};
    sum[1] += static_cast<double>(tri_dissipation(sec, s, T(0.5) * norm(cross(r2, r3))));
  }
}

/// Triangle e's update; adds its accumulated internal work to sum[0] and the plastic part of
/// it to sum[1]. MayYield: some section of the model is plastic (fpm_tri_update's parameter).
template <class T, bool MayYield = true>
struct TriElementBody {
  TriView<T> v;
  DriveView drive;
  double tau;
  HS_HD void operator()(int e, double* sum) const {
    const TriStateRef<T> s{v.state + e, v.num_tris};
    const TriForces<T> f = fpm_tri_update<T, MayYield>(v.constants[v.section[e]], gather_tri_nodes(v, e), s);
    finish_tri<MayYield>(v, drive, tau, e, f, s, sum);
  }
};

/// The seed's split scheme, phase 1 for triangle e: kinematics into the increment store
/// (kTriIncrementValues components, stride num_tris).
template <class T>
HS_HD void tri_split_kinematics(const TriView<T>& v, T* increments, int e) {
  const TriStateRef<T> s{v.state + e, v.num_tris};
  store_tri_increment(StridedState<T>{increments + e, v.num_tris}, tri_kinematics(gather_tri_nodes(v, e), s));
}

/// Phase 2 for stress point j of triangle e (skipped beyond the triangle's stress points):
/// its work share into work[j * num_tris + e].
template <class T, bool MayYield>
HS_HD void tri_split_point(const TriView<T>& v, const T* increments, T* work, int j, int e) {
  const TriConstants<T>& sec = v.constants[v.section[e]];
  if (j >= tri_stress_points<MayYield>(sec)) return;
  const TriIncrement<T> inc = load_tri_increment(StridedState<T>{const_cast<T*>(increments) + e, v.num_tris});
  work[static_cast<long long>(j) * v.num_tris + e] =
      tri_stress_point_update<T, MayYield>(sec, TriStateRef<T>{v.state + e, v.num_tris}, j, inc);
}

/// Phase 3 for triangle e: the points' work summed in point order (as fpm_tri_update sums it),
/// forces, pressure; adds the internal work and dissipation so far to sum[0] and sum[1].
template <class T, bool MayYield>
HS_HD void tri_split_forces(const TriView<T>& v, const T* increments, const T* work, const DriveView& drive,
                            double tau, int e, double* sum) {
  const TriConstants<T>& sec = v.constants[v.section[e]];
  const TriIncrement<T> inc = load_tri_increment(StridedState<T>{const_cast<T*>(increments) + e, v.num_tris});
  const int points = tri_stress_points<MayYield>(sec);
  T w = T(0);
  for (int j = 0; j < points; ++j) w = w + work[static_cast<long long>(j) * v.num_tris + e];
  const TriStateRef<T> s{v.state + e, v.num_tris};
  finish_tri<MayYield>(v, drive, tau, e, tri_forces<T, MayYield>(sec, s, inc, w), s, sum);
}

}  // namespace halfstep
