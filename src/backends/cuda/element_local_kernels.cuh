// The optimized scheme of seed 000 sec. 3.2: one kernel per time step. Every element keeps
// its own copy of its four nodes' state (structure of arrays over element corners, "slots"),
// integrates those copies, and then computes its forces. A node's force is gathered from the
// previous step's double-buffered element force arrays (Algorithm 1), in the same order by
// every element sharing it, so all copies of a node stay bitwise identical without ever
// being exchanged. Held dofs are the sign bits of per-slot masses.
#pragma once

#include "backends/cuda/views.cuh"

namespace halfstep {
namespace cuda {

/// Per-slot masses, one per dof; a negative value marks a held dof.
template <class T>
struct SignedMasses {
  T* m[5];
};

/// One integrated copy of node n held in slot: reads the state of the slot, updates it
/// (when commit), and returns the update. fi, fp: the node's gathered forces.
template <class T>
__device__ inline NodeUpdateResult<T> integrate_slot(const MeshView<T>& m, const NodeStateView<T>& ss, int slot,
                                                     int n, std::uint8_t held, T mass, T inertia, const T fi[5],
                                                     const T fp[3], const NodeDrive<T>& drive, HalfSteps<T> h,
                                                     bool commit, Vec3<T>& u, Vec3<T>& dir, Vec3<T>& t1) {
  T ux = ss.ux[slot], uy = ss.uy[slot], uz = ss.uz[slot];
  T v0 = ss.v[0][slot], v1 = ss.v[1][slot], v2 = ss.v[2][slot], v3 = ss.v[3][slot], v4 = ss.v[4][slot];
  T dx = ss.dx[slot], dy = ss.dy[slot], dz = ss.dz[slot];
  T tx = ss.t1x[slot], ty = ss.t1y[slot], tz = ss.t1z[slot];
  T cd = T(0), cdr = T(0);
  if (m.node.damp) {
    cd = m.node.damp[n];
    cdr = m.node.damp_rot[n];
  }
  const NodeStateView<T> lv{&ux, &uy, &uz, {&v0, &v1, &v2, &v3, &v4}, &dx, &dy, &dz, &tx, &ty, &tz};
  const NodeConstView<T> lc{&mass, &inertia, m.node.damp ? &cd : nullptr, &cdr};
  const NodeUpdateResult<T> r = integrate_node(0, fi, fp, held, drive, h, commit, lv, lc);
  if (commit) {
    ss.ux[slot] = ux;
    ss.uy[slot] = uy;
    ss.uz[slot] = uz;
    ss.v[0][slot] = v0;
    ss.v[1][slot] = v1;
    ss.v[2][slot] = v2;
    ss.v[3][slot] = v3;
    ss.v[4][slot] = v4;
    ss.dx[slot] = dx;
    ss.dy[slot] = dy;
    ss.dz[slot] = dz;
    ss.t1x[slot] = tx;
    ss.t1y[slot] = ty;
    ss.t1z[slot] = tz;
  }
  u = {ux, uy, uz};
  dir = {dx, dy, dz};
  t1 = {tx, ty, tz};
  return r;
}

/// The single kernel of a time step (integrate = true): node copies to t^(n+1), then element
/// forces there. With integrate = false it only computes forces (start of a step).
template <class T>
__global__ void element_local_kernel(MeshView<T> m, NodeStateView<T> ss, SignedMasses<T> sm, DriveView d,
                                     Increment inc, bool integrate, ForceLevel<T> read, ForceLevel<T> write,
                                     T* elem_energy, RunView run) {
  if (integrate && run.monitor->status != kRunning) return;
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  double acc[kNumNodeSums + 2] = {0, 0, 0, 0, 0, 0, 0, 0};  // node sums, strain energy, dissipation
  const double tau = integrate ? inc.tau + inc.dt_next : inc.tau;
  if (e < m.ne) {
    Mitc4Nodes<T> nodes;
    Vec3<T> t1[4];
    const HalfSteps<T> h{T(inc.h_prev), T(0.5 * inc.dt_next)};
    for (int k = 0; k < 4; ++k) {
      const int slot = 4 * e + k, n = m.conn[slot];
      nodes.X[k] = {m.x0[n], m.y0[n], m.z0[n]};
      nodes.V0[k] = {m.d0x[n], m.d0y[n], m.d0z[n]};
      if (integrate) {
        T fi[5], fp[3];
        gather_forces(m, read, n, fi, fp);
        std::uint8_t held = 0;
        for (int j = 0; j < 5; ++j)
          if (signbit(sm.m[j][slot])) held |= static_cast<std::uint8_t>(1u << j);
        NodeDriveValues<T> values;
        const NodeDrive<T> drive = node_drive(d, n, inc.tau, inc.dt_next, values);
        const NodeUpdateResult<T> r = integrate_slot(m, ss, slot, n, held, fabs(sm.m[0][slot]), fabs(sm.m[3][slot]),
                                                     fi, fp, drive, h, true, nodes.u[k], nodes.v[k], t1[k]);
        if (m.slots[m.slot_ptr[n]] == slot) {  // the node's first slot counts its energy
          double s[kNumNodeSums];
          node_sums(r, s);
          for (int j = 0; j < kNumNodeSums; ++j) acc[j] += s[j];
        }
      } else {
        nodes.u[k] = {ss.ux[slot], ss.uy[slot], ss.uz[slot]};
        nodes.v[k] = {ss.dx[slot], ss.dy[slot], ss.dz[slot]};
        t1[k] = {ss.t1x[slot], ss.t1y[slot], ss.t1z[slot]};
      }
    }
    T* out = write.force + 20 * e;
    T dissipation;
    const T energy = emit_internal_forces(
        m, e, nodes, [&](int k) { return t1[k]; },
        [&](int k, const T* gen) {
          for (int j = 0; j < 5; ++j) out[5 * k + j] = gen[j];
        },
        &dissipation);
    elem_energy[e] = energy;
    acc[kNumNodeSums] = energy;
    acc[kNumNodeSums + 1] = dissipation;
    if (write.pressure) {
      T* p = write.pressure + 12 * e;
      emit_pressure_forces(d, tau, e, nodes, Vec3<T>{T(0), T(0), T(0)}, [&](int k, const T* fp) {
        for (int j = 0; j < 3; ++j) p[3 * k + j] = fp[j];
      });
    }
  }
  if (grid_sum(acc, run.node_sums)) {
    double sums[kNumNodeSums];
    for (int i = 0; i < kNumNodeSums; ++i) sums[i] = read_total(run.node_sums, i);
    const double energy = read_total(run.node_sums, kNumNodeSums);
    const double dissipation = read_total(run.node_sums, kNumNodeSums + 1);
    if (integrate) monitor_commit(*run.monitor, sums, inc.time);
    monitor_element_pass(*run.monitor, energy, integrate ? inc.time + inc.dt_next : inc.time, 0.0, dissipation);
    reset<kNumNodeSums + 2>(run.node_sums);
  }
}

/// Sampling (or probing) node pass of the element-local scheme: each node's first slot is
/// integrated without committing, from the latest force level.
template <class T>
__global__ void element_local_sample_kernel(MeshView<T> m, NodeStateView<T> ss, DriveView d, Increment inc,
                                            NodeMode mode, ForceLevel<T> current, FrameOut<T> frame, RunView run) {
  const int n = blockIdx.x * blockDim.x + threadIdx.x;
  double acc[kNumNodeSums] = {0, 0, 0, 0, 0, 0};
  if (n < m.nn && m.slot_ptr[n + 1] > m.slot_ptr[n]) {
    const int slot = m.slots[m.slot_ptr[n]];
    T fi[5], fp[3];
    gather_forces(m, current, n, fi, fp);
    NodeDriveValues<T> values;
    const NodeDrive<T> drive = node_drive(d, n, inc.tau, inc.dt_next, values);
    const HalfSteps<T> h{T(inc.h_prev), T(0.5 * inc.dt_next)};
    Vec3<T> u, dir, t1;
    const NodeUpdateResult<T> r = integrate_slot(m, ss, slot, n, d.held[n], m.node.mass[n], m.node.inertia[n], fi, fp,
                                                 drive, h, false, u, dir, t1);
    node_sums(r, acc);
    if (mode == NodeMode::Sample) {
      T out[kFullStepValues];
      full_step_output(r, out);
      for (int i = 0; i < kFullStepValues; ++i) frame.put(i, n, out[i]);
    }
  } else if (n < m.nn && mode == NodeMode::Sample) {
    for (int i = 0; i < kFullStepValues; ++i) frame.put(i, n, T(0));
  }
  if (grid_sum(acc, run.node_sums)) finish_node_pass(run, mode, inc.time);
}

/// Per-slot signed masses from the step's held bits.
template <class T>
__global__ void sign_masses_kernel(MeshView<T> m, const std::uint8_t* held, SignedMasses<T> sm) {
  const int slot = blockIdx.x * blockDim.x + threadIdx.x;
  if (slot >= 4 * m.ne) return;
  const int n = m.conn[slot];
  for (int j = 0; j < 5; ++j) {
    const T mass = j < 3 ? m.node.mass[n] : m.node.inertia[n];
    sm.m[j][slot] = (held[n] >> j) & 1u ? -mass : mass;
  }
}

}  // namespace cuda
}  // namespace halfstep
