// The contact pass on the GPU (dynamics/contact_pass.hpp holds the physics; these kernels
// only launch it; edges alike, after the nodes): the largest facet box edge (an atomic max), facets counted into the
// buckets of the spatial hash, a scan, the facets placed (atomics: the order within a bucket
// varies, the narrow phase's choice does not), one thread per slave record, and the records'
// forces added to the nodes with atomics. The cell size stays on the device: no host wait.
#pragma once

#include <cuda_runtime.h>

#include "backends/cuda/reduction.cuh"
#include "backends/cuda/views.cuh"
#include "dynamics/contact_pass.hpp"
#include "dynamics/energy_monitor.hpp"

namespace halfstep {
namespace cuda {

/// Adds into a[k] with an atomic (device) or a plain add (host: never used there).
template <class T>
struct AtomicAdd {
  HS_HD void operator()(T* a, int k, T v) const {
#ifdef __CUDA_ARCH__
    atomicAdd(a + k, v);
#else
    a[k] += v;
#endif
  }
};

/// The broad phase's cell edge from the largest facet box edge (its bits: a non-negative
/// double orders like its bit pattern) and the contact reach; the CPU pass computes the same.
__device__ inline double contact_cell_size(const unsigned long long* max_extent_bits, double reach) {
  return contact_cell_edge(__longlong_as_double(static_cast<long long>(*max_extent_bits)), reach);
}

/// Each facet's plane (facet_geometry) and the largest facet box edge into *max_bits (zeroed
/// before; edges: the largest edge box edge, no planes): a warp's maximum first, so one
/// atomic per warp rather than per facet on the one address (blockDim a multiple of 32).
template <class T>
__global__ void contact_extent_kernel(ContactView<T> c, int nf, unsigned long long* max_bits, bool edges) {
  const int f = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long bits = 0;
  if (f < nf && edges) {
    bits = static_cast<unsigned long long>(__double_as_longlong(static_cast<double>(edge_extent(c, f))));
  } else if (f < nf) {
    const T extent = facet_geometry(c, f, c.facet_geom + static_cast<long long>(kFacetGeom) * f);
    bits = static_cast<unsigned long long>(__double_as_longlong(static_cast<double>(extent)));
  }
  for (int o = 16; o > 0; o >>= 1) {
    const unsigned long long other = __shfl_down_sync(0xffffffffu, bits, o);
    bits = other > bits ? other : bits;
  }
  if ((threadIdx.x & 31) == 0 && bits != 0) atomicMax(max_bits, bits);
}

/// Each facet's (edges: edge's) bucket into key, counted in count[bucket + 1] (zeroed before).
template <class T>
__global__ void contact_count_kernel(ContactView<T> c, int nf, const unsigned long long* max_bits, double reach,
                                     int mask, int* key, int* count, bool edges) {
  const int f = blockIdx.x * blockDim.x + threadIdx.x;
  if (f >= nf) return;
  const T cell = T(contact_cell_size(max_bits, reach));
  const int b = edges ? edge_bucket(c, f, cell, mask) : facet_bucket(c, f, cell, mask);
  key[f] = b;
  atomicAdd(count + b + 1, 1);
}

/// Places each facet in its bucket (cursor: the buckets' starts, advanced as they fill).
__global__ inline void contact_fill_kernel(int nf, const int* key, int* cursor, int* facets) {
  const int f = blockIdx.x * blockDim.x + threadIdx.x;
  if (f >= nf) return;
  facets[atomicAdd(cursor + key[f], 1)] = f;
}

/// Narrow phase, one thread per slave record; the last block hands the springs' energy and
/// the dissipation to the monitor.
template <class T>
__global__ void contact_narrow_kernel(ContactView<T> c, const unsigned long long* max_bits, double reach,
                                      RunView run, GridSum sums) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double v[2] = {0.0, 0.0};
  if (i < c.num_slaves && run.monitor->status == kRunning) {
    c.grid.cell = T(contact_cell_size(max_bits, reach));
    ContactNodeBody<T>{c}(i, v);
  }
  if (grid_sum<2>(v, sums)) {
    monitor_contact(*run.monitor, read_total(sums, 0), read_total(sums, 1));
    reset<2>(sums);
  }
}

/// Edge-to-edge narrow phase, one thread per edge (after contact_narrow_kernel: the last
/// block adds the edge springs' energy to the monitor's contact energy).
template <class T>
__global__ void contact_edge_kernel(ContactView<T> c, const unsigned long long* max_bits, double reach, RunView run,
                                    GridSum sums) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double v[2] = {0.0, 0.0};
  if (i < c.num_edges && run.monitor->status == kRunning) {
    c.edge_grid.cell = T(contact_cell_size(max_bits, reach));
    ContactEdgeBody<T>{c}(i, v);
  }
  if (grid_sum<2>(v, sums)) {
    monitor_contact_add(*run.monitor, read_total(sums, 0), read_total(sums, 1));
    reset<2>(sums);
  }
}

/// Adds every edge record's force to the nodal normal contact forces (zeroed before).
template <class T>
__global__ void contact_edge_scatter_kernel(ContactView<T> c, T* normal, T* pair_total) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= c.num_edges) return;
  scatter_edge_contact(c, i, normal, pair_total, AtomicAdd<T>{});
}

/// Adds every record's forces to the nodal contact forces (zeroed before).
template <class T>
__global__ void contact_scatter_kernel(ContactView<T> c, T* normal, T* shear, T* pair_total) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= c.num_slaves) return;
  scatter_contact(c, i, normal, shear, pair_total, AtomicAdd<T>{});
}

}  // namespace cuda
}  // namespace halfstep
