// One node's step of the reordered central difference (seed 000 eqs. 3.1-3.4) as a
// host/device function: the CPU loop and every GPU scheme call this, after gathering the
// node's internal and pressure forces their own way.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/frame3.hpp"
#include "core/host_device.hpp"
#include "core/vec3.hpp"
#include "elements/rotation.hpp"
#include "discretization/continuum_element.hpp"  // add_slot_forces3
#include "dynamics/central_difference.hpp"

namespace halfstep {

/// Mutable nodal arrays (host or device pointers), structure of arrays.
template <class T>
struct NodeStateView {
  T *ux, *uy, *uz;   ///< displacement
  /// Half-step velocities: 3 translations, then 2 rotation rates about (t1, t2) on 5-dof
  /// nodes or 3 global angular velocity components on 6-dof nodes (v[5] unused below 6).
  T* v[6];
  T *dx, *dy, *dz;   ///< unit director (6-dof nodes: R d_0, the rotated initial director or z axis)
  T *t1x, *t1y, *t1z;  ///< first triad vector (6-dof nodes: R t1_0)
  /// Null, or (FP32 runs) the rounding remainders of ux, uy, uz, dx, dy, dz: the value is
  /// the array's plus this. Every reader sees the correctly rounded value; the commit adds
  /// each increment to the pair exactly (compensated_add), so that a hundred thousand
  /// increments of a large motion do not each lose half an ulp of |u| (a tumbling plate
  /// gained 1.7 % of energy from that noise in FP32).
  T* rem[6] = {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
};

/// hi + lo += inc, keeping the rounding error of the sum in lo (Knuth's two-sum, exact for
/// any magnitudes under round-to-nearest): hi stays the correctly rounded value to within
/// one ulp and nothing of the increments is lost. Needs IEEE arithmetic (no fast-math).
template <class T>
HS_HD void compensated_add(T& hi, T& lo, T inc) {
  const T b = inc + lo;
  const T s = hi + b;
  const T bv = s - hi;
  lo = (hi - (s - bv)) + (b - bv);
  hi = s;
}

/// Turns the director (dx, dy, dz) of node n by theta and returns it: normalized in the
/// plain state; with remainders (FP32), the increment is added to the compensated pair and
/// the length is left to the exact rotation (a renormalization in FP32 would round the
/// director at every increment, which is the noise the remainders remove).
template <class T>
HS_HD Vec3<T> turn_director(const NodeStateView<T>& s, int n, Vec3<T> theta, Vec3<T> dir) {
  if (!s.rem[3]) {
    const Vec3<T> nd = normalized(rotate(theta, dir));
    s.dx[n] = nd.x;
    s.dy[n] = nd.y;
    s.dz[n] = nd.z;
    return nd;
  }
  const Vec3<T> full{dir.x + s.rem[3][n], dir.y + s.rem[4][n], dir.z + s.rem[5][n]};
  const Vec3<T> inc = rotation_increment(theta, full);
  compensated_add(s.dx[n], s.rem[3][n], inc.x);
  compensated_add(s.dy[n], s.rem[4][n], inc.y);
  compensated_add(s.dz[n], s.rem[5][n], inc.z);
  return {s.dx[n], s.dy[n], s.dz[n]};
}

/// Constant nodal arrays.
template <class T>
struct NodeConstView {
  const T *mass, *inertia;
  const T *damp, *damp_rot;  ///< null when the model has no damping
  /// Null, or 3 per node: translational masses with the masses that linear constraints hand
  /// to independent dofs (discretization/constraints.hpp); replaces mass for translations.
  const T* mass3 = nullptr;
  /// Null, or 3 per node: rotary inertias with those constraints hand to rotations (6-dof).
  const T* inertia3 = nullptr;
};

/// Step inputs of one node that carries loads or prescribed motions (a "special" node).
template <class T>
struct NodeDrive {
  const T* load = nullptr;     ///< global force (3) and moment (3), or null
  const T* motion = nullptr;   ///< per translation: target displacement at t^(n+1), or velocity
  std::uint8_t moving = 0;     ///< bit d: translation d has a prescribed motion
  std::uint8_t by_velocity = 0;  ///< bit d: motion[d] is a velocity (else a target displacement)
  /// Bit d: dof d is dependent on others (a linear constraint or a rigid body): it is left as
  /// it is (a skipped rotation leaves the frame too) and contributes nothing; the constraint
  /// pass sets it.
  std::uint8_t skip = 0;
  /// Null, or the node's *TRANSFORM: 9 values, column c the local axis c in global
  /// components. Then held bits, motions and loads (forces and moments) are local components.
  const T* frame = nullptr;
};

/// Energy terms and full-step fields of one node's update.
template <class T>
struct NodeUpdateResult {
  T kinetic, work_prev, work_next, damp_prev, damp_next;
  T v_full[6], reaction[6];  ///< v^n and support reactions: translations global, rotations on (t1, t2, t3)
  /// a^n = (v^(n+1/2) - v^(n-1/2)) / (t^(n+1/2) - t^(n-1/2)), as v_full's components (0
  /// on skipped dofs and when both half steps are 0).
  T a_full[6];
  Vec3<T> t1, t2, t3;        ///< axes of the rotational values (the triad at t^n, or global axes on 6-dof nodes)
  bool finite;
};

/// Integrates node n given its gathered internal forces fi and pressure forces fp (kDofs and
/// 3 values, fi at least 5), its held-dof bits (0-2 translations, 3-5 rotations) and drive.
/// With commit, advances u, v^(n+1/2) and the nodal frame. Three node modes:
///  * kDofs = 3, a model without shells or beams: translations only; the rotational arrays are
///    neither read nor written, and the rotational results are zero.
///  * kDofs = 5, shell (MITC4) models: rotation rates about the triad vectors t1, t2 (no
///    drilling); held bits 3-4 are those triad rotations; the triad turns about a tangent axis.
///  * kDofs = 6, models with beams or FPM triangles (MITC4 shells among them included):
///    angular velocity in global components, each integrated like a translation with the
///    node's scalar rotary inertia (isotropic, so no gyroscopic term); held bits 3-5 are
///    global UR1..UR3 and moments act in global axes. The frame (t1, dir) = R (t1_0, dir_0),
///    (e1, e3) on beam and triangle nodes and a MITC4 node's triad and director, turns by the
///    step's rotation increment dt w^(n+1/2): R <- exp[dt w] R.
template <class T, int kDofs = 5>
HS_HD NodeUpdateResult<T> integrate_node(int n, const T* fi, const T fp[3], std::uint8_t held,
                                          const NodeDrive<T>& drive, HalfSteps<T> h, bool commit,
                                          const NodeStateView<T>& s, const NodeConstView<T>& c) {
  static_assert(kDofs == 3 || kDofs == 5 || kDofs == 6, "nodes have 3, 5 or 6 dofs");
  NodeUpdateResult<T> r;
  Vec3<T> dir{T(0), T(0), T(1)}, t1{T(1), T(0), T(0)};
  if (kDofs == 5) {
    dir = {s.dx[n], s.dy[n], s.dz[n]};
    t1 = {s.t1x[n], s.t1y[n], s.t1z[n]};
  }
  // 6-dof nodes: rotational values are global, so their axes are e1, e2, e3 (dir and t1 keep
  // their defaults here; the node's own frame is only advanced on commit).
  const Vec3<T> t2 = cross(dir, t1);
  r.t1 = t1;
  r.t2 = t2;
  r.t3 = dir;
  T fe[6] = {fp[0], fp[1], fp[2], T(0), T(0), T(0)};
  if (drive.load) {
    T l[6] = {drive.load[0], drive.load[1], drive.load[2], drive.load[3], drive.load[4], drive.load[5]};
    if (drive.frame) {  // a transformed node's loads are local components
      to_global3(drive.frame, l);
      to_global3(drive.frame, l + 3);
    }
    fe[0] += l[0];
    fe[1] += l[1];
    fe[2] += l[2];
    const Vec3<T> moment{l[3], l[4], l[5]};
    fe[3] += dot(moment, t1);
    fe[4] += dot(moment, t2);
    fe[5] += dot(moment, dir);  // read only by 6-dof nodes
  }
  T u_now[3] = {s.ux[n], s.uy[n], s.uz[n]};
  // The dofs are integrated in the components they are constrained in: global ones, or a
  // transformed node's local ones (translations, and 6-dof rotations, turned by Q^T).
  T fl[6] = {T(0), T(0), T(0), T(0), T(0), T(0)}, vh[6] = {T(0), T(0), T(0), T(0), T(0), T(0)};
  T m3[3];
  for (int d = 0; d < kDofs; ++d) {
    fl[d] = fi[d];
    vh[d] = s.v[d][n];
  }
  for (int d = 0; d < 3; ++d) m3[d] = c.mass3 ? c.mass3[3 * n + d] : c.mass[n];
  T i3[3];  // rotary inertias, per global rotation where constraints hand some on
  for (int d = 0; d < 3; ++d) i3[d] = c.inertia3 ? c.inertia3[3 * n + d] : c.inertia[n];
  const T* q = drive.frame;
  if (q) {
    to_local3(q, fe);
    to_local3(q, fl);
    to_local3(q, vh);
    to_local3(q, u_now);
    // Lumped masses that differ per global direction (constraint transfers): the diagonal
    // of Q^T M Q (exact for equal masses).
    const T g[3] = {m3[0], m3[1], m3[2]};
    for (int d = 0; d < 3; ++d) m3[d] = q[3 * d] * q[3 * d] * g[0] + q[3 * d + 1] * q[3 * d + 1] * g[1] + q[3 * d + 2] * q[3 * d + 2] * g[2];
    if (kDofs == 6) {
      const T gi[3] = {i3[0], i3[1], i3[2]};
      for (int d = 0; d < 3; ++d)
        i3[d] = q[3 * d] * q[3 * d] * gi[0] + q[3 * d + 1] * q[3 * d + 1] * gi[1] + q[3 * d + 2] * q[3 * d + 2] * gi[2];
      to_local3(q, fe + 3);
      to_local3(q, fl + 3);
      to_local3(q, vh + 3);
    }
  }
  T v_next[6] = {T(0), T(0), T(0), T(0), T(0), T(0)};
  r.kinetic = r.work_prev = r.work_next = r.damp_prev = r.damp_next = T(0);
  for (int d = 0; d < 6; ++d) r.a_full[d] = T(0);
  for (int d = kDofs; d < 6; ++d) r.v_full[d] = r.reaction[d] = T(0);
  const T span = h.h_prev + h.h_next;  // t^(n+1/2) - t^(n-1/2)
  for (int d = 0; d < kDofs; ++d) {
    const bool rot = d >= 3;
    if (drive.skip & (1u << d)) {
      r.v_full[d] = r.reaction[d] = T(0);
      v_next[d] = vh[d];
      continue;
    }
    const T m = rot ? i3[d - 3] : m3[d];
    const T cd = c.damp ? (rot ? c.damp_rot[n] : c.damp[n]) : T(0);  // null: no damping anywhere
    const T v_half = vh[d];
    DofUpdate<T> u;
    if (held & (1u << d)) {
      T imposed = T(0);
      if (d < 3 && (drive.moving & (1u << d)) && h.h_next > T(0))
        imposed = (drive.by_velocity & (1u << d)) ? drive.motion[d]
                                                   : (drive.motion[d] - u_now[d]) / (T(2) * h.h_next);
      u = constrained_dof(m, cd, fe[d], fl[d], v_half, imposed, h);
    } else {
      u = free_dof(m, cd, fe[d], fl[d], v_half, h);
    }
    // Constrained dofs: the support force does work too (prescribed motions).
    const T f_applied = fe[d] + u.reaction;
    r.kinetic += T(0.5) * m * u.v_full * u.v_full;
    r.work_prev += f_applied * h.h_prev * v_half;
    r.work_next += f_applied * h.h_next * u.v_next;
    r.damp_prev += cd * u.v_full * h.h_prev * v_half;
    r.damp_next += cd * u.v_full * h.h_next * u.v_next;
    r.v_full[d] = u.v_full;
    r.reaction[d] = u.reaction;
    r.a_full[d] = span > T(0) ? (u.v_next - v_half) / span : T(0);
    v_next[d] = u.v_next;
  }
  if (q) {  // back to global components: the state and the output stay global
    to_global3(q, v_next);
    to_global3(q, r.v_full);
    to_global3(q, r.reaction);
    to_global3(q, r.a_full);
    if (kDofs == 6) {
      to_global3(q, v_next + 3);
      to_global3(q, r.v_full + 3);
      to_global3(q, r.reaction + 3);
      to_global3(q, r.a_full + 3);
    }
  }
  const T check = v_next[0] + v_next[1] + v_next[2] + v_next[3] + v_next[4] + v_next[5];
  r.finite = check == check && check - check == T(0);  // not NaN, not infinite
  if (commit) {
    const T dt = T(2) * h.h_next;
    for (int d = 0; d < kDofs; ++d) s.v[d][n] = v_next[d];
    // Skipped (dependent) translations stay: the constraint pass moves them.
    T* const u[3] = {s.ux + n, s.uy + n, s.uz + n};
    for (int d = 0; d < 3; ++d) {
      if (drive.skip & (1u << d)) continue;
      if (s.rem[d]) compensated_add(*u[d], s.rem[d][n], dt * v_next[d]);
      else *u[d] += dt * v_next[d];
    }
    if (kDofs == 5 && !(drive.skip & 0x18u) && (v_next[3] != T(0) || v_next[4] != T(0))) {
      // Finite rotation of the whole triad about an axis in the tangent plane (eq. 3.4 for
      // rotational dofs): no drilling is introduced and the frame stays orthonormal.
      const Vec3<T> theta = (dt * v_next[3]) * t1 + (dt * v_next[4]) * t2;
      const Vec3<T> nd = turn_director(s, n, theta, dir);
      Vec3<T> nt = rotate(theta, t1);
      nt = normalized(nt - dot(nt, nd) * nd);
      s.t1x[n] = nt.x;
      s.t1y[n] = nt.y;
      s.t1z[n] = nt.z;
    }
    if (kDofs == 6 && !(drive.skip & 0x38u) && (v_next[3] != T(0) || v_next[4] != T(0) || v_next[5] != T(0))) {
      // R <- exp[dt w] R on the frame's two stored columns (re-orthonormalised).
      const Vec3<T> theta{dt * v_next[3], dt * v_next[4], dt * v_next[5]};
      const Vec3<T> nd = turn_director(s, n, theta, Vec3<T>{s.dx[n], s.dy[n], s.dz[n]});
      Vec3<T> nt = rotate(theta, Vec3<T>{s.t1x[n], s.t1y[n], s.t1z[n]});
      nt = normalized(nt - dot(nt, nd) * nd);
      s.t1x[n] = nt.x;
      s.t1y[n] = nt.y;
      s.t1z[n] = nt.z;
    }
  }
  return r;
}

/// Values per node of full_step_output (FullStepFields' rows: v, rf, a).
inline constexpr int kFullStepValues = 18;

/// Output values of a node update in global components: v (3), angular velocity (3),
/// reaction force (3) and moment (3), acceleration (3) and angular acceleration (3).
template <class T, class Out>
HS_HD void full_step_output(const NodeUpdateResult<T>& r, Out out[kFullStepValues]) {
  const Vec3<T> w = r.v_full[3] * r.t1 + r.v_full[4] * r.t2 + r.v_full[5] * r.t3;
  const Vec3<T> mo = r.reaction[3] * r.t1 + r.reaction[4] * r.t2 + r.reaction[5] * r.t3;
  const Vec3<T> ar = r.a_full[3] * r.t1 + r.a_full[4] * r.t2 + r.a_full[5] * r.t3;
  const T vals[kFullStepValues] = {r.v_full[0], r.v_full[1], r.v_full[2], w.x,  w.y,  w.z,
                                   r.reaction[0], r.reaction[1], r.reaction[2], mo.x, mo.y, mo.z,
                                   r.a_full[0], r.a_full[1], r.a_full[2], ar.x, ar.y, ar.z};
  for (int i = 0; i < kFullStepValues; ++i) out[i] = static_cast<Out>(vals[i]);
}

}  // namespace halfstep
