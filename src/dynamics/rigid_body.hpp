// One rigid body's step of the central difference (*RIGID BODY, kinematic *COUPLING) as
// host/device functions: the body is integrated at its reference node with its full 6 x 6
// mass matrix (mass, first moment and inertia about that node), so held or prescribed
// translations of the reference node enter as known accelerations (docs/theory.md, "Rigid
// bodies").
#pragma once

#include "core/host_device.hpp"
#include "core/vec3.hpp"
#include "dynamics/central_difference.hpp"
#include "dynamics/node_integrator.hpp"
#include "elements/rotation.hpp"

namespace halfstep {

/// Forces on a body at t^n: external (loads, pressures) and internal, with their moments
/// about the reference node's current position (global components).
template <class T>
struct BodyLoads {
  Vec3<T> fe{T(0), T(0), T(0)}, fi{T(0), T(0), T(0)}, me{T(0), T(0), T(0)}, mi{T(0), T(0), T(0)};
};

/// Adds one node's forces at t^n to its body's loads (one source for the CPU body pass and the
/// GPU body kernel): fi the internal forces (3, or 6 when the node rotates with the body), fp
/// the pressure forces, drive the node's loads, arm the node's position relative to the
/// reference node. Moments of loads count on rotating nodes and on the reference node.
template <class T>
HS_HD void add_body_node(BodyLoads<T>& f, const Vec3<T>& arm, const T* fi, const T* fp, const NodeDrive<T>& drive,
                         bool rotates, bool reference) {
  Vec3<T> fe{fp[0], fp[1], fp[2]};
  if (drive.load) fe += Vec3<T>{drive.load[0], drive.load[1], drive.load[2]};
  const Vec3<T> fin{fi[0], fi[1], fi[2]};
  f.fe += fe;
  f.fi += fin;
  f.me += cross(arm, fe);
  f.mi += cross(arm, fin);
  if (drive.load && (rotates || reference)) f.me += Vec3<T>{drive.load[3], drive.load[4], drive.load[5]};
  if (rotates) f.mi += Vec3<T>{fi[3], fi[4], fi[5]};
}

/// Half-step velocities that held or prescribed translations of the reference node impose
/// (held bits), as integrate_node takes them: a velocity as given, a target displacement
/// reached over the next increment (2 h_next).
template <class T>
HS_HD void body_imposed_velocity(unsigned held, const NodeDrive<T>& drive, const T* u_now, T h_next, T imposed[3]) {
  for (int k = 0; k < 3; ++k) {
    imposed[k] = T(0);
    if ((held & (1u << k)) && (drive.moving & (1u << k)) && h_next > T(0))
      imposed[k] = (drive.by_velocity & (1u << k)) ? drive.motion[k] : (drive.motion[k] - u_now[k]) / (T(2) * h_next);
  }
}

/// Results of a body's step: full-step and next half-step velocities of the reference node
/// (translation and angular velocity), the support reaction on held translations and the
/// reaction moment on held rotations, energies.
template <class T>
struct BodyStep {
  Vec3<T> v_full, w_full, v_next, w_next, reaction, reaction_moment;
  T kinetic, work_prev, work_next;
  bool finite;
};

/// Values per body a sampling node pass leaves for the frame (the GPU's body_out): v^n (3),
/// w^n (3), the reference node's reaction (3), a^n (3), the angular acceleration (3), the
/// reaction moment (3).
inline constexpr int kBodyOutValues = 18;

/// A body's accelerations at t^n: its reference node's and its angular one, the change of the
/// half-step velocities over t^(n-1/2) .. t^(n+1/2) (zero when both half steps are 0).
template <class T>
struct BodyAcceleration {
  Vec3<T> a, alpha;
};

/// The accelerations of step s from the half-step velocities before it.
template <class T>
HS_HD BodyAcceleration<T> body_acceleration(const BodyStep<T>& s, Vec3<T> v_half, Vec3<T> w_half, HalfSteps<T> h) {
  const T span = h.h_prev + h.h_next;
  if (!(span > T(0))) return {{T(0), T(0), T(0)}, {T(0), T(0), T(0)}};
  return {(T(1) / span) * (s.v_next - v_half), (T(1) / span) * (s.w_next - w_half)};
}

/// Acceleration of the body's point at offset off (spatial, from the reference node):
/// a + alpha x off + w x (w x off), with w the angular velocity at t^n.
template <class T>
HS_HD Vec3<T> body_point_acceleration(const BodyStep<T>& s, const BodyAcceleration<T>& acc, Vec3<T> off) {
  return acc.a + cross(acc.alpha, off) + cross(s.w_full, cross(s.w_full, off));
}

/// R v for a row-major 3 x 3 matrix.
template <class T>
HS_HD Vec3<T> mat_vec(const T* R, Vec3<T> v) {
  return {R[0] * v.x + R[1] * v.y + R[2] * v.z, R[3] * v.x + R[4] * v.y + R[5] * v.z,
          R[6] * v.x + R[7] * v.y + R[8] * v.z};
}

/// The body's step: mass m, first moment s0 and inertia I0 (row-major) about the reference
/// node in the reference configuration, rotation R, half-step velocities v_half and w_half,
/// held bits (0-2: translations, with their imposed half-step velocities as integrate_node
/// takes them; 3-5: global rotations, held at rest: explicit steps hold rotations at zero only).
template <class T>
HS_HD BodyStep<T> rigid_body_step(T m, const T* s0, const T* I0, const T* R, Vec3<T> v_half, Vec3<T> w_half,
                                  const BodyLoads<T>& f, unsigned held, const T imposed[3], HalfSteps<T> h) {
  // Spatial first moment and inertia: m c = R s0, I = R I0 R^T.
  const Vec3<T> mc = mat_vec(R, Vec3<T>{s0[0], s0[1], s0[2]});
  T I[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      T sum = T(0);
      for (int k = 0; k < 3; ++k)
        for (int l = 0; l < 3; ++l) sum += R[3 * i + k] * I0[3 * k + l] * R[3 * j + l];
      I[3 * i + j] = sum;
    }
  // A [a; alpha] = b: m a - [mc]x alpha = F - w x (w x mc); [mc]x a + I alpha = M - w x (I w).
  T A[6][6] = {};
  const T K[3][3] = {{T(0), -mc.z, mc.y}, {mc.z, T(0), -mc.x}, {-mc.y, mc.x, T(0)}};
  for (int i = 0; i < 3; ++i) {
    A[i][i] = m;
    for (int j = 0; j < 3; ++j) {
      A[i][3 + j] = -K[i][j];
      A[3 + i][j] = K[i][j];
      A[3 + i][3 + j] = I[3 * i + j];
    }
  }
  const Vec3<T> Iw{I[0] * w_half.x + I[1] * w_half.y + I[2] * w_half.z,
                   I[3] * w_half.x + I[4] * w_half.y + I[5] * w_half.z,
                   I[6] * w_half.x + I[7] * w_half.y + I[8] * w_half.z};
  const Vec3<T> F = f.fe - f.fi - cross(w_half, cross(w_half, mc));
  const Vec3<T> M = f.me - f.mi - cross(w_half, Iw);
  T b[6] = {F.x, F.y, F.z, M.x, M.y, M.z};
  const T span = h.h_prev + h.h_next;
  const T vh[6] = {v_half.x, v_half.y, v_half.z, w_half.x, w_half.y, w_half.z};
  T x[6] = {T(0), T(0), T(0), T(0), T(0), T(0)};
  bool fixed[6] = {false, false, false, false, false, false};
  for (int d = 0; d < 6; ++d)
    if (held & (1u << d)) {
      fixed[d] = true;
      x[d] = ((d < 3 ? imposed[d] : T(0)) - vh[d]) / span;
    }
  // Free rows: Gaussian elimination with partial pivoting on the free unknowns.
  T M6[6][7];
  int free_idx[6], nf = 0;
  for (int i = 0; i < 6; ++i)
    if (!fixed[i]) free_idx[nf++] = i;
  for (int r = 0; r < nf; ++r) {
    const int i = free_idx[r];
    T rhs = b[i];
    for (int j = 0; j < 6; ++j)
      if (fixed[j]) rhs -= A[i][j] * x[j];
    for (int c = 0; c < nf; ++c) M6[r][c] = A[i][free_idx[c]];
    M6[r][nf] = rhs;
  }
  for (int c = 0; c < nf; ++c) {
    int p = c;
    for (int r = c + 1; r < nf; ++r)
      if ((M6[r][c] < T(0) ? -M6[r][c] : M6[r][c]) > (M6[p][c] < T(0) ? -M6[p][c] : M6[p][c])) p = r;
    if (p != c)
      for (int k = 0; k <= nf; ++k) {
        const T t = M6[c][k];
        M6[c][k] = M6[p][k];
        M6[p][k] = t;
      }
    for (int r = c + 1; r < nf; ++r) {
      const T q = M6[r][c] / M6[c][c];
      for (int k = c; k <= nf; ++k) M6[r][k] -= q * M6[c][k];
    }
  }
  for (int c = nf - 1; c >= 0; --c) {
    T s = M6[c][nf];
    for (int k = c + 1; k < nf; ++k) s -= M6[c][k] * x[free_idx[k]];
    x[free_idx[c]] = s / M6[c][c];
  }
  BodyStep<T> r;
  T react[6] = {T(0), T(0), T(0), T(0), T(0), T(0)};
  for (int d = 0; d < 6; ++d)
    if (fixed[d]) {
      T s = -b[d];
      for (int j = 0; j < 6; ++j) s += A[d][j] * x[j];
      react[d] = s;
    }
  r.reaction = {react[0], react[1], react[2]};
  r.reaction_moment = {react[3], react[4], react[5]};
  const Vec3<T> a{x[0], x[1], x[2]}, alpha{x[3], x[4], x[5]};
  r.v_full = v_half + h.h_prev * a;
  r.w_full = w_half + h.h_prev * alpha;
  r.v_next = v_half + span * a;
  r.w_next = w_half + span * alpha;
  // Kinetic energy 1/2 y^T A y at t^n, y = (v, w) at the full step.
  const T y[6] = {r.v_full.x, r.v_full.y, r.v_full.z, r.w_full.x, r.w_full.y, r.w_full.z};
  T ke = T(0);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) ke += y[i] * A[i][j] * y[j];
  r.kinetic = T(0.5) * ke;
  // Work of the applied forces and moments (loads and reactions).
  const Vec3<T> fa = f.fe + r.reaction, ma = f.me + r.reaction_moment;
  r.work_prev = h.h_prev * (dot(fa, v_half) + dot(ma, w_half));
  r.work_next = h.h_next * (dot(fa, r.v_next) + dot(ma, r.w_next));
  const T check = r.v_next.x + r.v_next.y + r.v_next.z + r.w_next.x + r.w_next.y + r.w_next.z;
  r.finite = check == check && check - check == T(0);
  return r;
}

/// R <- exp[theta] R on a row-major rotation (each column turned by theta).
template <class T>
HS_HD void turn_rotation(T* R, Vec3<T> theta) {
  for (int j = 0; j < 3; ++j) {
    const Vec3<T> c = rotate(theta, Vec3<T>{R[j], R[3 + j], R[6 + j]});
    R[j] = c.x;
    R[3 + j] = c.y;
    R[6 + j] = c.z;
  }
}

}  // namespace halfstep
