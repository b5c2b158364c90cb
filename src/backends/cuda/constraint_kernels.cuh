// Constraints on the GPU: the kernels around the node pass that run the same host/device
// functions as the CPU backend (linear ones: dynamics/constraint_pass.hpp; rigid bodies:
// dynamics/rigid_body.hpp).
#pragma once

#include "backends/cuda/assembled_kernels.cuh"
#include "dynamics/constraint_pass.hpp"
#include "dynamics/rigid_body.hpp"

namespace halfstep::cuda {

/// Before the node pass: each dependent dof's node forces (read without clearing the nodal
/// arrays of the atomic and colored schemes, which the node pass clears) and its loads.
template <class T, Sink S, int kDofs>
__global__ void dependent_force_kernel(MeshView<T> m, DriveView d, Increment inc, NodalForces<T> nf,
                                       SlotForces<T> sf, ConstraintView<T> c) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= c.num_dependent) return;
  const int n = c.dep_node[k];
  T fi[6], fp[3];
  node_forces<T, S, kDofs>(m, d, nf, sf, n, false, fi, fp);
  NodeDriveValues<T> values;
  const NodeDrive<T> drive = node_drive(d, n, inc.tau, inc.dt_next, values);
  store_dependent_force(c, k, fi, fp, drive.load);
}

/// After the node pass: dependent dofs from their independent ones (commit), or their
/// full-step velocity in the frame (sample). Idempotent when the node pass did not commit
/// (the masters are unchanged), so it needs no monitor check. A compact frame holds the
/// terms' nodes of every dependent dof it holds (frame_nodes, discretization/constraints.hpp).
template <class T>
__global__ void dependent_update_kernel(NodeStateView<T> s, ConstraintView<T> c, NodeMode mode, FrameOut<T> frame) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= c.num_dependent) return;
  if (mode == NodeMode::Commit) {
    T* const v[6] = {s.v[0], s.v[1], s.v[2], s.v[3], s.v[4], s.v[5]};
    T* const u[3] = {s.ux, s.uy, s.uz};
    update_dependent(c, k, v, u);
  } else if (mode == NodeMode::Sample) {
    const int n = c.dep_node[k];
    if (!frame.full || (frame.row && frame.row[n] < 0)) return;
    // v^n in columns 0..5, a^n in 12..17 (full_step_output's layout).
    T *f[6], *fa[6];
    for (int d = 0; d < 6; ++d) {
      f[d] = frame.full + static_cast<std::size_t>(d) * frame.rows;
      fa[d] = frame.full + static_cast<std::size_t>(12 + d) * frame.rows;
    }
    frame.put(c.dep_dof[k], n, frame.row ? dependent_value(c, k, f, frame.row) : dependent_value(c, k, f));
    frame.put(12 + c.dep_dof[k], n, frame.row ? dependent_value(c, k, fa, frame.row) : dependent_value(c, k, fa));
  }
}

/// After dependent_update_kernel on commit: turns the frames of the nodes with a dependent
/// rotation (not idempotent, so it checks that the run still goes on, as the node pass does).
template <class T>
__global__ void dependent_frame_kernel(NodeStateView<T> s, ConstraintView<T> c, Increment inc, RunView run) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= c.num_rot_nodes || run.monitor->status != kRunning) return;
  T* const v[6] = {s.v[0], s.v[1], s.v[2], s.v[3], s.v[4], s.v[5]};
  turn_dependent_frame(c, i, T(inc.dt_next), v, s.dx, s.dy, s.dz, s.t1x, s.t1y, s.t1z);
}

}  // namespace halfstep::cuda

namespace halfstep::cuda {

/// Rigid bodies on the device (discretization/constraints.hpp, RigidBodies), their state
/// (rotation, angular velocity) and what their kernel leaves for the node pass and the frame.
template <class T>
struct BodyView {
  int num_bodies;
  const int *ref_node, *slave_ptr, *slave_node;
  const std::uint8_t *slave_rot, *ref_rot;  ///< rotations follow the body (6-dof nodes)
  const T *mass, *first_moment, *inertia, *offset;
  T* rotation;   ///< 9 per body (row-major)
  T* omega;      ///< 3 per body: angular velocity at the half step, global
  T* out;        ///< kBodyOutValues per body (dynamics/rigid_body.hpp)
  double* sums;  ///< 4 per body: kinetic energy, work before and after t^n, non-finite
  const std::uint8_t* skip;  ///< per node: dofs the node pass leaves to the body kernel
};

/// One thread per body, before the node pass: its forces and moments (nodal arrays read
/// without clearing), the 6 x 6 step of dynamics/rigid_body.hpp and, on commit, the motion
/// of its nodes (which the node pass then skips).
template <class T, Sink S, int kDofs>
__global__ void body_kernel(MeshView<T> m, NodeStateView<T> s, DriveView d, Increment inc, NodeMode mode,
                            NodalForces<T> nf, SlotForces<T> sf, BodyView<T> bv, RunView run) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= bv.num_bodies) return;
  double* sums = bv.sums + 4 * b;
  for (int i = 0; i < 4; ++i) sums[i] = 0.0;
  if (mode == NodeMode::Commit && run.monitor->status != kRunning) return;
  const int r = bv.ref_node[b];
  const Vec3<T> xr{m.x0[r] + s.ux[r], m.y0[r] + s.uy[r], m.z0[r] + s.uz[r]};
  const HalfSteps<T> h{T(inc.h_prev), T(0.5 * inc.dt_next)};
  BodyLoads<T> f;
  const auto add_node = [&](int n, bool rotates, bool reference) {
    T fi[6], fp[3];
    node_forces<T, S, kDofs>(m, d, nf, sf, n, false, fi, fp);
    NodeDriveValues<T> values;
    const NodeDrive<T> drive = node_drive(d, n, inc.tau, inc.dt_next, values);
    const Vec3<T> arm = Vec3<T>{m.x0[n] + s.ux[n], m.y0[n] + s.uy[n], m.z0[n] + s.uz[n]} - xr;
    add_body_node(f, arm, fi, fp, drive, rotates, reference);
  };
  add_node(r, bv.ref_rot[b] != 0, true);
  for (int i = bv.slave_ptr[b]; i < bv.slave_ptr[b + 1]; ++i) add_node(bv.slave_node[i], bv.slave_rot[i] != 0, false);
  NodeDriveValues<T> values;
  const NodeDrive<T> drive = node_drive(d, r, inc.tau, inc.dt_next, values);
  const unsigned held = d.held[r] & 0x3Fu;  // translations, and rotations held at rest
  const T u_now[3] = {s.ux[r], s.uy[r], s.uz[r]};
  T imposed[3];
  body_imposed_velocity(held, drive, u_now, h.h_next, imposed);
  T* R = bv.rotation + 9 * b;
  T* w = bv.omega + 3 * b;
  const BodyStep<T> st = rigid_body_step(bv.mass[b], bv.first_moment + 3 * b, bv.inertia + 9 * b, R,
                                         Vec3<T>{s.v[0][r], s.v[1][r], s.v[2][r]}, Vec3<T>{w[0], w[1], w[2]}, f,
                                         held, imposed, h);
  if (!m.owned || m.owned[r]) {  // every rank of a distributed run steps the body; its owner counts it
    sums[0] = st.kinetic;
    sums[1] = st.work_prev;
    sums[2] = st.work_next;
  }
  sums[3] = st.finite ? 0.0 : 1.0;
  T* out = bv.out + kBodyOutValues * b;
  const BodyAcceleration<T> acc =
      body_acceleration(st, Vec3<T>{s.v[0][r], s.v[1][r], s.v[2][r]}, Vec3<T>{w[0], w[1], w[2]}, h);
  const T o[kBodyOutValues] = {st.v_full.x, st.v_full.y, st.v_full.z, st.w_full.x,  st.w_full.y,
                               st.w_full.z, st.reaction.x, st.reaction.y, st.reaction.z, acc.a.x,
                               acc.a.y,     acc.a.z,     acc.alpha.x,  acc.alpha.y,  acc.alpha.z,
                               st.reaction_moment.x, st.reaction_moment.y, st.reaction_moment.z};
  for (int i = 0; i < kBodyOutValues; ++i) out[i] = o[i];
  if (mode != NodeMode::Commit) return;
  const T dt = T(2) * h.h_next;
  s.v[0][r] = st.v_next.x, s.v[1][r] = st.v_next.y, s.v[2][r] = st.v_next.z;
  w[0] = st.w_next.x, w[1] = st.w_next.y, w[2] = st.w_next.z;
  s.ux[r] += dt * st.v_next.x;
  s.uy[r] += dt * st.v_next.y;
  s.uz[r] += dt * st.v_next.z;
  const Vec3<T> theta = dt * st.w_next;
  turn_rotation(R, theta);
  const auto turn_frame = [&](int n) {
    const Vec3<T> nd = normalized(rotate(theta, Vec3<T>{s.dx[n], s.dy[n], s.dz[n]}));
    Vec3<T> nt = rotate(theta, Vec3<T>{s.t1x[n], s.t1y[n], s.t1z[n]});
    nt = normalized(nt - dot(nt, nd) * nd);
    s.dx[n] = nd.x, s.dy[n] = nd.y, s.dz[n] = nd.z;
    s.t1x[n] = nt.x, s.t1y[n] = nt.y, s.t1z[n] = nt.z;
  };
  if (bv.ref_rot[b]) {
    s.v[3][r] = st.w_next.x, s.v[4][r] = st.w_next.y, s.v[5][r] = st.w_next.z;
    turn_frame(r);
  }
  const Vec3<T> xr_next{m.x0[r] + s.ux[r], m.y0[r] + s.uy[r], m.z0[r] + s.uz[r]};
  for (int i = bv.slave_ptr[b]; i < bv.slave_ptr[b + 1]; ++i) {
    const int n = bv.slave_node[i];
    const Vec3<T> x = xr_next + mat_vec(R, Vec3<T>{bv.offset[3 * i], bv.offset[3 * i + 1], bv.offset[3 * i + 2]});
    const Vec3<T> u{x.x - m.x0[n], x.y - m.y0[n], x.z - m.z0[n]};
    s.v[0][n] = (u.x - s.ux[n]) / dt, s.v[1][n] = (u.y - s.uy[n]) / dt, s.v[2][n] = (u.z - s.uz[n]) / dt;
    s.ux[n] = u.x, s.uy[n] = u.y, s.uz[n] = u.z;
    if (bv.slave_rot[i]) {
      s.v[3][n] = st.w_next.x, s.v[4][n] = st.w_next.y, s.v[5][n] = st.w_next.z;
      turn_frame(n);
    }
  }
}

/// After a sampling node pass: v^n of every body node and the reference node's reaction in
/// the frame (those of its nodes that the frame holds).
template <class T>
__global__ void body_output_kernel(BodyView<T> bv, FrameOut<T> frame) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= bv.num_bodies) return;
  const T* o = bv.out + kBodyOutValues * b;
  const T* R = bv.rotation + 9 * b;
  const int r = bv.ref_node[b];
  const auto put = [&](int column, int n, T value) { frame.put(column, n, value); };
  for (int k = 0; k < 6; ++k) put(k, r, o[k]), put(12 + k, r, o[9 + k]);
  for (int k = 0; k < 3; ++k) put(6 + k, r, o[6 + k]), put(9 + k, r, o[15 + k]);
  const Vec3<T> v{o[0], o[1], o[2]}, w{o[3], o[4], o[5]};
  BodyStep<T> st{};
  st.w_full = w;
  const BodyAcceleration<T> acc{{o[9], o[10], o[11]}, {o[12], o[13], o[14]}};
  for (int i = bv.slave_ptr[b]; i < bv.slave_ptr[b + 1]; ++i) {
    const int n = bv.slave_node[i];
    const Vec3<T> off = mat_vec(R, Vec3<T>{bv.offset[3 * i], bv.offset[3 * i + 1], bv.offset[3 * i + 2]});
    const Vec3<T> vs = v + cross(w, off);
    const Vec3<T> as = body_point_acceleration(st, acc, off);
    put(0, n, vs.x), put(1, n, vs.y), put(2, n, vs.z);
    put(12, n, as.x), put(13, n, as.y), put(14, n, as.z);
    if (bv.slave_rot[i]) {
      put(3, n, w.x), put(4, n, w.y), put(5, n, w.z);
      put(15, n, acc.alpha.x), put(16, n, acc.alpha.y), put(17, n, acc.alpha.z);
    }
  }
}

}  // namespace halfstep::cuda
