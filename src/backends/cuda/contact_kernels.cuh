// The contact pass on the GPU (dynamics/contact_pass.hpp holds the physics; these kernels
// only launch it; edges alike, after the nodes): the largest facet box edge (an atomic max), facets counted into the
// buckets of the spatial hash, a scan, the facets placed (atomics: the order within a bucket
// varies, the narrow phase's choice does not), one thread per slave record, and the records'
// forces summed onto the nodes in a fixed order (contact_entry_key: sorted entries, a warp
// per node), so that every run, and a run resumed from a restart, repeats the others bit for
// bit. The cell size stays on the device: no host wait.
#pragma once

#include <cuda_runtime.h>

#include "backends/cuda/reduction.cuh"
#include "backends/cuda/views.cuh"
#include "dynamics/contact_pass.hpp"
#include "dynamics/energy_monitor.hpp"

namespace halfstep {
namespace cuda {

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

/// Records searched per block of the narrow-phase kernels (a warp each).
constexpr int kContactRecordsPerBlock = 4;

/// The warp's best touch from its lanes' (contact_better over the lanes: the same choice as
/// the serial search's, whatever the order), into every lane's best and touch.
template <class T, class Touch>
__device__ void warp_best_touch(int& best, Touch& touch) {
  constexpr unsigned all = 0xffffffffu;
  int b = best;
  T pen = touch.pen;
  for (int o = 16; o > 0; o >>= 1) {
    const int ob = __shfl_xor_sync(all, b, o);
    const T op = __shfl_xor_sync(all, pen, o);
    if (ob >= 0 && contact_better(op, ob, pen, b)) b = ob, pen = op;
  }
  const unsigned holders = __ballot_sync(all, b >= 0 && best == b);
  if (b < 0) return;
  // The touch is plain T values (pen, normal, weights or parameters): sent one by one.
  static_assert(sizeof(Touch) % sizeof(T) == 0, "a touch is an array of T");
  constexpr int count = static_cast<int>(sizeof(Touch) / sizeof(T));
  T values[count];
  memcpy(values, &touch, sizeof(Touch));
  const int source = __ffs(holders) - 1;
  for (int k = 0; k < count; ++k) values[k] = __shfl_sync(all, values[k], source);
  memcpy(&touch, values, sizeof(Touch));
  best = b;
}

/// Copies each bucket slot's facet candidate into bucket order (after contact_fill_kernel,
/// facet geometry of this pass): the narrow phase's threads then read a bucket's candidates
/// contiguously, and neighbouring slaves the same ones, instead of six scattered arrays.
template <class T>
__global__ void contact_gather_candidates_kernel(ContactView<T> c, int nf, const int* facets, FacetCandidate<T>* out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < nf) out[k] = load_facet_candidate(c, facets[k]);
}

/// Narrow phase, one thread per slave record; the last block hands the springs' energy and
/// the dissipation to the monitor. (Measured on the 1 M-element drop test, H200: a warp per
/// record, its lanes searching the 27 cells, took 676 us per increment against this kernel's
/// 250 us: at 176 registers a multiprocessor holds 8 warps, so 1,000 records were in flight
/// instead of 34,000; __launch_bounds__(128, 4) cut the registers to 128 but spilled 0.4 KB
/// and took 289 us.)
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

/// Edge-to-edge narrow phase, one warp per edge record: lane q < 27 searches the q-th cell
/// around it, lane 0 writes the record (feature edges are few, a few thousand in a 1 M-element
/// model: a thread each left most of the GPU idle, waiting on each thread's chain of 27
/// cells' loads; 7.5x faster on the 1 M-element drop test). After contact_narrow_kernel: the
/// last block adds the edge springs' energy to the monitor's contact energy.
template <class T>
__global__ void contact_edge_kernel(ContactView<T> c, const unsigned long long* max_bits, double reach, RunView run,
                                    GridSum sums) {
  const int lane = threadIdx.x & 31;
  const int i = blockIdx.x * kContactRecordsPerBlock + (threadIdx.x >> 5);
  double v[2] = {0.0, 0.0};
  if (i < c.num_edges && __shfl_sync(0xffffffffu, run.monitor->status == kRunning, 0)) {
    c.edge_grid.cell = T(contact_cell_size(max_bits, reach));
    const ContactEdgeBody<T> body{c};
    int best = -1;
    EdgeTouch<T> touch{};
    const EdgeSearch<T> s = body.prepare(i);
    if (s.search && lane < 27) body.search_cell(s, lane, best, touch);
    warp_best_touch<T>(best, touch);
    if (lane == 0) body.finish(i, best, touch, v);
  }
  if (grid_sum<2>(v, sums)) {
    monitor_contact_add(*run.monitor, read_total(sums, 0), read_total(sums, 1));
    reset<2>(sums);
  }
}

/// The ordered sum's entries (contact_entry_key): each entry's target into key, its index
/// into entry (the radix sort, stable, then keeps each target's entries in entry order).
template <class T>
__global__ void contact_entry_kernel(ContactView<T> c, int entries, int nn, int none, int* key, int* entry) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= entries) return;
  key[e] = contact_entry_key(c, e, nn, none);
  entry[e] = e;
}

/// The nodal contact forces and the definitions' totals from the sorted entries: a warp per
/// target (runs of equal keys: run_key, run_count, run_start, *num_runs of them), lane l
/// summing the run's entries l, l + 32, ... in order, then the lanes in a fixed tree, so the
/// sums depend only on the entries, never on timing. Writes every target that has entries
/// (the arrays are zeroed before; nothing else writes them in this pass). blockDim: a
/// multiple of 32.
template <class T>
__global__ void contact_ordered_sum_kernel(ContactView<T> c, const int* entry, const int* run_key, const int* run_count,
                                           const int* run_start, const int* num_runs, int nn, int none, T* normal,
                                           T* shear, T* pair_total) {
  const int lane = threadIdx.x & 31;
  const long long warps = (static_cast<long long>(gridDim.x) * blockDim.x) >> 5;
  const int runs = *num_runs;
  for (long long r = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; r < runs; r += warps) {
    const int key = run_key[r];
    if (key >= none) continue;  // the same for the whole warp
    const int begin = run_start[r], count = run_count[r];
    T v[6] = {T(0), T(0), T(0), T(0), T(0), T(0)};
    for (int k = lane; k < count; k += 32) {
      T x[6];
      contact_entry_values(c, entry[begin + k], x);
      for (int j = 0; j < 6; ++j) v[j] += x[j];
    }
    for (int o = 16; o > 0; o >>= 1)
      for (int j = 0; j < 6; ++j) v[j] += __shfl_down_sync(0xffffffffu, v[j], o);
    if (lane != 0) continue;
    if (key < nn) {
      for (int d = 0; d < 3; ++d) {
        normal[3 * static_cast<long long>(key) + d] = v[d];
        shear[3 * static_cast<long long>(key) + d] = v[3 + d];
      }
    } else {
      for (int j = 0; j < 6; ++j) pair_total[6 * static_cast<long long>(key - nn) + j] = v[j];
    }
  }
}

}  // namespace cuda
}  // namespace halfstep
