// The FPM triangle pass's per-element work as a host/device forall body: gather the three
// nodes' displacements and frames, run fpm_tri_update on the triangle's state (in place) and
// write each corner's internal force and moment into its slot (6 values per corner, summed per
// node in a fixed order by add_slot_forces6: deterministic), and, with pressures, each
// corner's follower pressure force (3 values per corner).
#pragma once

#include "core/host_device.hpp"
#include "dynamics/step_drive.hpp"
#include "discretization/beam_pass.hpp"  // add_slot_forces6
#include "elements/fpm_tri.hpp"

namespace halfstep {

/// Raw arrays of the triangle pass (host or device pointers).
template <class T>
struct TriView {
  int num_tris;
  const int *conn, *section;
  const TriConstants<T>* constants;
  const T *edge2x, *edge2y, *edge2z, *edge3x, *edge3y, *edge3z;
  const T *ux, *uy, *uz;
  const T *t1x, *t1y, *t1z, *dx, *dy, *dz;  ///< node frames (R e1, R e3)
  T* state;     ///< component-major, stride num_tris
  T* force;     ///< 18 per triangle: corner k's force (3) and moment (3) at 6 (3 e + k)
  T* pressure;  ///< 9 per triangle (corner k's pressure force at 3 (3 e + k)), or null
  int pressure_offset;  ///< the triangles' first index in the drive's pressure tables
};

/// Triangle e's update; adds its accumulated internal work to sum[0] and the plastic part of
/// it to sum[1].
template <class T>
struct TriElementBody {
  TriView<T> v;
  DriveView drive;
  double tau;
  HS_HD void operator()(int e, double* sum) const {
    TriNodes<T> nd;
    nd.edge0[0] = {v.edge2x[e], v.edge2y[e], v.edge2z[e]};
    nd.edge0[1] = {v.edge3x[e], v.edge3y[e], v.edge3z[e]};
    for (int k = 0; k < 3; ++k) {
      const int n = v.conn[3 * e + k];
      nd.u[k] = {v.ux[n], v.uy[n], v.uz[n]};
      nd.t1[k] = {v.t1x[n], v.t1y[n], v.t1z[n]};
      nd.d[k] = {v.dx[n], v.dy[n], v.dz[n]};
    }
    const TriStateRef<T> s{v.state + e, v.num_tris};
    const TriForces<T> f = fpm_tri_update(v.constants[v.section[e]], nd, s);
    T* out = v.force + 18 * static_cast<long long>(e);
    for (int k = 0; k < 3; ++k) {
      const T vals[6] = {f.f[k].x, f.f[k].y, f.f[k].z, f.m[k].x, f.m[k].y, f.m[k].z};
      for (int i = 0; i < 6; ++i) out[6 * k + i] = vals[i];
    }
    sum[0] += static_cast<double>(s[kTriWork]);
    const TriConstants<T>& sec = v.constants[v.section[e]];
    if (sec.plastic)
      sum[1] += static_cast<double>(tri_dissipation(sec, s, T(0.5) * norm(cross(nd.edge0[0], nd.edge0[1]))));
    if (!v.pressure) return;
    // Follower pressure, positive against the normal (r2 x r3): -p A n / 3 per corner.
    const T p = T(evaluate_pressure(drive, v.pressure_offset + e, tau));
    const Vec3<T> r2 = nd.edge0[0] + (nd.u[1] - nd.u[0]), r3 = nd.edge0[1] + (nd.u[2] - nd.u[0]);
    const Vec3<T> fp = (-p / T(6)) * cross(r2, r3);
    T* po = v.pressure + 9 * static_cast<long long>(e);
    for (int k = 0; k < 3; ++k) {
      po[3 * k] = fp.x;
      po[3 * k + 1] = fp.y;
      po[3 * k + 2] = fp.z;
    }
  }
};

}  // namespace halfstep
