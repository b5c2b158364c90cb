// The FPM beam pass's per-element work as a host/device forall body: gather the two nodes'
// displacements and frames, run fpm_beam_update on the beam's state (in place) and write the
// internal force and moment of each end into its slot (6 values per end, summed per node in a
// fixed order by add_slot_forces6: deterministic). The beam_split_* functions are the same
// update as seed 003's three GPU kernels (--fpm-kernels split) run it: per beam, per stress
// point, per beam, handing the increment and the points' returns over through stores.
#pragma once

#include "core/host_device.hpp"
#include "core/slot_forces.hpp"
#include "elements/fpm_beam.hpp"

namespace halfstep {

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
