// Solid element kernels: one launch per element kind (SolidGroup), calling the kind's
// host/device internal_force, the same function the CPU loop calls. Forces reach the nodes
// through the same sinks as the shells' (per-node-slot buffer, atomics, or colors).
#pragma once

#include "backends/cuda/assembled_kernels.cuh"
#include "elements/solid_kinds.hpp"

namespace halfstep {
namespace cuda {

/// What the solid kernels see: SolidMesh arrays and per-element outputs (device pointers).
template <class T>
struct SolidView {
  const int* conn;                     ///< node indices, groups in order (SolidMesh::conn)
  const int* material;                 ///< per solid element
  const SolidMaterial<T>* materials;   ///< per solid section
  T kappa;                             ///< C3D8R hourglass factor
  const T *x0, *y0, *z0;
  T* force;       ///< Slots sink: 3 per conn position, or null
  T* energy;      ///< strain energy per solid element
  T* hourglass;   ///< hourglass energy per solid element
};

/// Element pass over the solids of one group (elements: local indices of one color, or null
/// for all count elements). The last kernel of an element pass (finish) hands the summed
/// strain and hourglass energies to the monitor; earlier ones leave the sums accumulating.
template <class T, class K, Sink S>
__global__ void solid_element_kernel(SolidView<T> v, NodeStateView<T> s, int first, int conn_offset,
                                     const int* elements, int count, NodalForces<T> nf, RunView run, double time,
                                     bool finish) {
  if (run.monitor->status != kRunning) return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double w[2] = {0.0, 0.0};
  if (i < count) {
    const int local = elements ? elements[i] : i;
    const int e = first + local;
    const int base = conn_offset + local * K::kNodes;
    Vec3<T> X[K::kNodes], u[K::kNodes], f[K::kNodes];
    int c[K::kNodes];
    for (int a = 0; a < K::kNodes; ++a) {
      const int n = c[a] = v.conn[base + a];
      X[a] = {v.x0[n], v.y0[n], v.z0[n]};
      u[a] = {s.ux[n], s.uy[n], s.uz[n]};
    }
    const SolidEnergy<T> en = K::internal_force(X, u, v.materials[v.material[e]], v.kappa, f);
    for (int a = 0; a < K::kNodes; ++a) {
      const T fa[3] = {f[a].x, f[a].y, f[a].z};
      for (int j = 0; j < 3; ++j) {
        if (S == Sink::Slots) v.force[3 * static_cast<std::size_t>(base + a) + j] = fa[j];
        else if (S == Sink::Atomic) atomicAdd(nf.fi[j] + c[a], fa[j]);
        else nf.fi[j][c[a]] += fa[j];
      }
    }
    v.energy[e] = en.strain;
    v.hourglass[e] = en.hourglass;
    w[0] = double(en.strain) + double(en.hourglass);
    w[1] = double(en.hourglass);
  }
  if (grid_sum(w, run.element_sums)) {
    if (finish) {
      finish_element_pass(run, time, read_total(run.element_sums, 0), read_total(run.element_sums, 1));
      reset<2>(run.element_sums);
    } else {
      *run.element_sums.ticket = 0;
    }
  }
}

/// Nodal forces of the solid face pressures (18 per face), gathered by the node pass.
template <class T>
__global__ void face_pressure_kernel(DriveView d, double tau, const T* x0, const T* y0, const T* z0,
                                     NodeStateView<T> s, T* out, RunView run) {
  if (run.monitor->status != kRunning) return;
  const int f = blockIdx.x * blockDim.x + threadIdx.x;
  if (f < d.num_faces) evaluate_face_force(d, f, tau, x0, y0, z0, s.ux, s.uy, s.uz, out + 18 * static_cast<std::size_t>(f));
}

}  // namespace cuda
}  // namespace halfstep
