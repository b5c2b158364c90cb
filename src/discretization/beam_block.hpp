// The FPM beams of a model (B31 in the deck) as structure-of-arrays: connectivity, section
// constants, reference lengths, initial n1 directions, stable increments and the node ->
// beam-end gather map. Built once from a Model; the state lives in StructureState.
//
// The FPM beam pass's per-element work as a host/device forall body: gather the two nodes'
// displacements and frames, run fpm_beam_update on the beam's state (in place) and write the
// internal force and moment of each end into its slot (6 values per end, summed per node in a
// fixed order by add_slot_forces6: deterministic). The beam_split_* functions are the same
// update as seed 003's three GPU kernels (--fpm-kernels split) run it: per beam, per stress
// point, per beam, handing the increment and the points' returns over through stores.
//
// The family is three files: this header, beam_block.cpp (its build and block table) and
// backends/cuda/beam_device.cuh; discretization/row_families.hpp lists it.
#pragma once

#include <string>
#include <type_traits>
#include <vector>

#include "core/host_device.hpp"
#include "core/slot_forces.hpp"
#include "discretization/rotating_mass.hpp"
#include "elements/fpm_beam.hpp"
#include "model/model.hpp"

namespace halfstep {

/// The beams of a model: the family's mesh and its host trait (a row family,
/// discretization/row_families.hpp: 6-dof ends, one store of state rows per element).
struct BeamMesh {
  /// The family in restart sections and messages; its ends; whether the step's follower
  /// pressures load it; where each end's frame starts in its state (kBeamFrame).
  static constexpr const char* kKey = "beam";
  static constexpr const char* kWhat = "a beam";
  static constexpr int kCorners = 2;
  static constexpr bool kPressure = false;
  static constexpr int kFrame = kBeamFrame;

  int num_elements = 0;
  std::vector<int> model_element;  ///< beam -> model element index
  std::vector<int> conn;           ///< 2 node indices per beam
  std::vector<int> section;        ///< index into constants per beam
  std::vector<BeamConstants<double>> constants;  ///< one per *BEAM SECTION
  std::vector<double> length0;     ///< reference length per beam
  std::vector<double> chord0x, chord0y, chord0z;  ///< X2 - X1 per beam (formed once, exactly)
  std::vector<double> n1x, n1y, n1z;  ///< initial unit n1 (the DCS e2) per beam
  std::vector<double> element_dt;  ///< stable increment per beam (beam_stable_dt)
  std::vector<int> node_slot_ptr, node_slots;  ///< node -> beam ends (2 e + k), CSR; empty without beams
  int state_size = 0;              ///< values per beam in its RowFamilyState::state
  int boundary = 0;                ///< distributed runs: beams [0, boundary) touch a shared node
  /// Builds the beams of a model and their masses (rho A l / 2 and the rotary inertia of
  /// beam_rotary_arm per node; energy_per_unit_strain sums E A l / 2); throws InputError for
  /// an n1 parallel to a beam.
  static BeamMesh build(const Model& model, RotatingMassContribution& contrib);
  /// The state of every beam at the start of a run (component-major, beam_initial_state).
  std::vector<double> initial_state() const;

  // Static steps (discretization/row_operator.hpp, backends/cuda/row_tangent.cuh): as
  // TriMesh's (beam_generalized_forces).
  template <class D>
  using Section = BeamConstants<D>;
  template <class D>
  static Section<D> section_as(const BeamConstants<double>& c) {
    return convert_beam_constants<D>(c);
  }
  /// What a static evaluation reads of the beams.
  struct StaticView {
    const int *conn, *section;
    const double *chord0x, *chord0y, *chord0z;
    int state_size;
  };
  template <class At>
  StaticView static_view(At&& at) const {
    return {at(conn), at(section), at(chord0x), at(chord0y), at(chord0z), state_size};
  }
  /// Element e's nodes at the displacements u and frames t1, d (3 values per node each).
  HS_HD static BeamNodes<double> nodes(const StaticView& v, int e, const double* u, const double* t1, const double* d) {
    BeamNodes<double> nd;
    nd.chord0 = {v.chord0x[e], v.chord0y[e], v.chord0z[e]};
    for (int k = 0; k < 2; ++k) {
      const std::size_t n = 3 * static_cast<std::size_t>(v.conn[2 * static_cast<std::size_t>(e) + k]);
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
    beam_generalized_forces<D>(sections[v.section[e]], nodes(v, e, u, t1, d), old, v.state_size, seed, work, out);
  }
  // The linear theory's pieces, as TriMesh's (RowOperator::linear_forces).
  static constexpr int kIncrement = kBeamIncrementValues, kIncrementGeometry = kBeamIncrementGeometry;
  /// Element e's increment (beam_increment_of) from old to the nodes at u, t1, d.
  template <class D>
  HS_HD static void increment(const StaticView& v, int e, const double* u, const double* t1, const double* d,
                              const StridedState<const double>& old, int seed, const StridedState<D>& work, D* inc) {
    beam_increment_of<D>(nodes(v, e, u, t1, d), old, v.state_size, seed, work, inc);
  }
  /// Element e's generalized forces of the increment inc taken from old (beam_increment_forces),
  /// moments along the end frames t1, d.
  template <class D>
  HS_HD static void increment_forces(const StaticView& v, const Section<D>* sections, int e, const Vec3<double>* t1,
                                     const Vec3<double>* d, const StridedState<const double>& old, const D* inc,
                                     const StridedState<D>& work, D* out) {
    beam_increment_forces<D>(sections[v.section[e]], t1, d, old, v.state_size, inc, work, out);
  }
  /// The ends' translations relative to the first end and their frames that element e's state
  /// s stands for (beam_state_nodes).
  HS_HD static void state_nodes(const StaticView& v, int e, const StridedState<const double>& s, Vec3<double>* du,
                                Vec3<double>* t1, Vec3<double>* d) {
    beam_state_nodes(s, Vec3<double>{v.chord0x[e], v.chord0y[e], v.chord0z[e]}, du, t1, d);
  }
  /// Whether state component c records geometry (edges, axes, node frames), which a
  /// geometrically linear step takes from the linear configuration; the others are linear in
  /// the displacements there (RowOperator::linear_forces).
  static constexpr bool geometric_state(int c) { return c < kBeamForce || (c >= kBeamFrame && c < kBeamWork); }
  /// The state component of the element's accumulated work.
  static constexpr int kWorkState = kBeamWork;
  /// The work an element's state has accumulated (its static steps' strain energy).
  HS_HD static double work_of(const StridedState<const double>& s) { return s[kBeamWork]; }
};

// A rank share (parallel/run_share.cpp) carries a mesh through its field list below; the size
// guard (x86-64, libstdc++) stops the build when a field is added, so that it joins the list.
template <class Ar>
void serialize(Ar& ar, BeamMesh& m) {
  ar(m.num_elements, m.model_element, m.conn, m.section, m.constants, m.length0, m.chord0x, m.chord0y, m.chord0z,
     m.n1x, m.n1y, m.n1z, m.element_dt, m.node_slot_ptr, m.node_slots, m.state_size, m.boundary);
}
static_assert(sizeof(BeamMesh) == 352, "BeamMesh changed: add the new field to its serialize, then update the size");
static_assert(std::is_trivially_copyable_v<BeamConstants<double>>,
              "BeamConstants travels as bytes and gained an owning member: give it a field list");

/// Raw arrays of the beam pass (host or device pointers).
template <class T>
struct BeamView {
  int num_beams;
  const int *conn, *section;
  const BeamConstants<T>* constants;
  const T *chord0x, *chord0y, *chord0z;
  const T *ux, *uy, *uz;
  const T *t1x, *t1y, *t1z, *dx, *dy, *dz;  ///< node frames (R t1_0, R d_0; elements/fpm_kinematics.hpp)
  T* state;  ///< component-major, stride num_beams
  T* force;  ///< 12 per beam: end k's force (3) and moment (3) at 6 (2 e + k)
};

/// Beam e's reference chord and its nodes' displacements and frames.
template <class T>
HS_HD BeamNodes<T> gather_beam_nodes(const BeamView<T>& v, int e) {
  BeamNodes<T> nd;
  nd.chord0 = {v.chord0x[e], v.chord0y[e], v.chord0z[e]};
  for (int k = 0; k < 2; ++k) {
    const int n = v.conn[2 * e + k];
    nd.u[k] = {v.ux[n], v.uy[n], v.uz[n]};
    nd.t1[k] = {v.t1x[n], v.t1y[n], v.t1z[n]};
    nd.d[k] = {v.dx[n], v.dy[n], v.dz[n]};
  }
  return nd;
}

/// Writes beam e's end forces and moments into its slots; adds its internal work so far to
/// sum[0] and its plastic dissipation so far to sum[1].
template <class T>
HS_HD void finish_beam(const BeamView<T>& v, int e, const BeamForces<T>& f, const BeamStateRef<T>& s, double* sum) {
  T* out = v.force + 12 * static_cast<long long>(e);
  for (int k = 0; k < 2; ++k) {
    const T vals[6] = {f.f[k].x, f.f[k].y, f.f[k].z, f.m[k].x, f.m[k].y, f.m[k].z};
    for (int i = 0; i < 6; ++i) out[6 * k + i] = vals[i];
  }
  sum[0] += static_cast<double>(s[kBeamWork]);
  sum[1] += static_cast<double>(s[kBeamDissipation]);
}

/// Beam e's update; adds its accumulated internal work to sum[0] and the plastic part of it
/// to sum[1].
template <class T>
struct BeamElementBody {
  BeamView<T> v;
  HS_HD void operator()(int e, double* sum) const {
    const BeamStateRef<T> s{v.state + e, v.num_beams};
    finish_beam(v, e, fpm_beam_update(v.constants[v.section[e]], gather_beam_nodes(v, e), s), s, sum);
  }
};

/// The seed's split scheme, phase 1 for beam e: kinematics into the increment store
/// (kBeamIncrementValues components, stride num_beams).
template <class T>
HS_HD void beam_split_kinematics(const BeamView<T>& v, T* increments, int e) {
  const BeamStateRef<T> s{v.state + e, v.num_beams};
  store_beam_increment(StridedState<T>{increments + e, v.num_beams}, beam_kinematics(gather_beam_nodes(v, e), s));
}

/// Phase 2 for stress point j of beam e (skipped beyond the beam's stress points): what it
/// returns (elastic: work; plastic: the fibre's dissipation) into points[j * num_beams + e].
template <class T>
HS_HD void beam_split_point(const BeamView<T>& v, const T* increments, T* points, int j, int e) {
  const BeamConstants<T>& sec = v.constants[v.section[e]];
  if (j >= beam_stress_points(sec)) return;
  const BeamIncrement<T> inc = load_beam_increment(StridedState<T>{const_cast<T*>(increments) + e, v.num_beams});
  points[static_cast<long long>(j) * v.num_beams + e] =
      beam_stress_point_update(sec, BeamStateRef<T>{v.state + e, v.num_beams}, j, inc);
}

/// Phase 3 for beam e: the points' returns summed in point order (as fpm_beam_update sums
/// them), forces into the slots; adds the internal work and dissipation so far to sum[0] and
/// sum[1].
template <class T>
HS_HD void beam_split_forces(const BeamView<T>& v, const T* increments, const T* points, int e, double* sum) {
  const BeamConstants<T>& sec = v.constants[v.section[e]];
  const BeamIncrement<T> inc = load_beam_increment(StridedState<T>{const_cast<T*>(increments) + e, v.num_beams});
  const int n = beam_stress_points(sec);
  T w = T(0);
  for (int j = 0; j < n; ++j) w = w + points[static_cast<long long>(j) * v.num_beams + e];
  const BeamStateRef<T> s{v.state + e, v.num_beams};
  finish_beam(v, e, beam_forces(sec, s, inc, w), s, sum);
}

}  // namespace halfstep
