// Grid-wide sums finished inside the kernel: every block adds its partial sums with one
// atomic per value, and the last block to finish sees the totals. This keeps the energy
// balance on the GPU with no extra launch and no copy to the host.
#pragma once

#include <cuda_runtime.h>

namespace halfstep {
namespace cuda {

/// Accumulators and the ticket counter of one kind of kernel (device memory, zeroed).
struct GridSum {
  double* acc;
  unsigned* ticket;
};

__device__ inline double warp_sum(double v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

/// Adds v[0..N) of every thread of the block into acc[0..N) (one atomic per value and
/// block, by thread 0). Every thread of the block must call it.
template <int N>
__device__ void block_sum_add(const double (&v)[N], double* acc) {
  __shared__ double partial[N][32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
  for (int i = 0; i < N; ++i) {
    const double s = warp_sum(v[i]);
    if (lane == 0) partial[i][warp] = s;
  }
  __syncthreads();
  if (warp == 0)
    for (int i = 0; i < N; ++i) {
      double s = lane < warps ? partial[i][lane] : 0.0;
      s = warp_sum(s);
      if (lane == 0 && s != 0.0) atomicAdd(acc + i, s);
    }
}

/// Adds v[0..N) of every thread of the grid into g.acc. Returns true in exactly one thread
/// (thread 0 of the last block to finish), which may then read the totals with
/// read_total() and must call reset() after use. Every thread of the grid must call it.
/// extra_blocks: blocks of other launches (run alongside) that sum into the same g; the
/// last block of all of them gets true.
template <int N>
__device__ bool grid_sum(const double (&v)[N], GridSum g, unsigned extra_blocks = 0) {
  __shared__ bool last;
  block_sum_add(v, g.acc);
  if (threadIdx.x == 0) {  // the thread that made the block's atomics
    __threadfence();
    last = atomicAdd(g.ticket, 1u) == gridDim.x + extra_blocks - 1;
  }
  __syncthreads();
  return last && threadIdx.x == 0;
}

/// Total i, read from L2 (after grid_sum returned true).
__device__ inline double read_total(GridSum g, int i) { return *reinterpret_cast<volatile double*>(g.acc + i); }

/// Clears N totals and the ticket for the next launch.
template <int N>
__device__ void reset(GridSum g) {
  for (int i = 0; i < N; ++i) g.acc[i] = 0.0;
  *g.ticket = 0;
}

}  // namespace cuda
}  // namespace halfstep
