// Linear constraints (*TIE, *EQUATION) on the GPU: the kernels around the node pass that run
// the same host/device functions as the CPU backend (dynamics/constraint_pass.hpp).
#pragma once

#include "backends/cuda/assembled_kernels.cuh"
#include "dynamics/constraint_pass.hpp"

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
  local_node_forces<T, S, kDofs>(m, d, nf, sf, n, false, fi, fp);
  NodeDriveValues<T> values;
  const NodeDrive<T> drive = node_drive(d, n, inc.tau, inc.dt_next, values);
  store_dependent_force(c, k, fi, fp, drive.load);
}

/// After the node pass: dependent dofs from their independent ones (commit), or their
/// full-step velocity in the frame (sample). Idempotent when the node pass did not commit
/// (the masters are unchanged), so it needs no monitor check.
template <class T>
__global__ void dependent_update_kernel(NodeStateView<T> s, ConstraintView<T> c, NodeMode mode, FrameOut<T> frame,
                                        int nn) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= c.num_dependent) return;
  if (mode == NodeMode::Commit) {
    T* const v[3] = {s.v[0], s.v[1], s.v[2]};
    T* const u[3] = {s.ux, s.uy, s.uz};
    update_dependent(c, k, v, u);
  } else if (mode == NodeMode::Sample) {
    T* const f[3] = {frame.full, frame.full + nn, frame.full + 2 * static_cast<std::size_t>(nn)};
    frame.full[static_cast<std::size_t>(c.dep_dof[k]) * nn + c.dep_node[k]] = dependent_value(c, k, f);
  }
}

}  // namespace halfstep::cuda
