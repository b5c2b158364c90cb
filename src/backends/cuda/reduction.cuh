// Grid-wide sums finished inside the kernel, in a fixed order: every block writes its partial
// sums to its own slot; the last block of each group of 32 slots sums the group's slots, and
// the last group to finish sums the groups. Which block finishes last varies from run to run,
// but no sum depends on it, so every run (and a run resumed from a restart) adds the same
// numbers in the same order and repeats the others bit for bit. (One atomicAdd per block, as
// before, summed in the order the blocks happened to finish: two runs of one deck could differ
// in the last bit of the energies.) This keeps the energy balance on the GPU with no extra
// launch and no copy to the host.
#pragma once

#include <cuda_runtime.h>

namespace halfstep {
namespace cuda {

/// Block slots per group (a warp sums a group's slots).
constexpr unsigned kSumGroup = 32;
/// The most values one grid sum adds (the element-local pass: node sums and two energies).
constexpr int kMaxSumValues = 8;

/// The totals and ticket of one kind of kernel (device memory, zeroed; the totals stay between
/// the launches of one pass) and its scratch: per-block and per-group partial sums and per-group
/// counters, zero between launches.
struct GridSum {
  double* acc;                       ///< the totals
  unsigned* ticket;                  ///< groups finished in this launch
  double* partial = nullptr;         ///< kMaxSumValues x capacity: each block's sums, value-major
  double* group = nullptr;           ///< kMaxSumValues x (capacity / kSumGroup): each group's sums
  unsigned* group_ticket = nullptr;  ///< capacity / kSumGroup: blocks finished per group
  unsigned capacity = 0;             ///< block slots (a multiple of kSumGroup)
};

__device__ inline double warp_sum(double v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

/// The sums of v[0..N) over the block's threads, into out (valid in thread 0), in a fixed
/// order. Every thread of the block must call it.
template <int N>
__device__ void block_sum(const double (&v)[N], double (&out)[N]) {
  __shared__ double partial[N][32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
  for (int i = 0; i < N; ++i) {
    const double s = warp_sum(v[i]);
    if (lane == 0) partial[i][warp] = s;
  }
  __syncthreads();
  if (warp == 0)
    for (int i = 0; i < N; ++i) out[i] = warp_sum(lane < warps ? partial[i][lane] : 0.0);
}

/// Adds v[0..N) of every thread of the grid to g.acc. Returns true in exactly one thread
/// (thread 0 of the block that finished the sums), which may then read the totals with
/// read_total() and must call reset() (or clear the ticket) after use. Every thread of the grid
/// must call it, and blockDim.x must be a multiple of 32. extra_blocks: blocks of another launch
/// (run alongside) that sum into the same g; first_slot: this launch's first block slot (the
/// other launch's grid for the second of the two, else 0). The total of all of them is added to
/// g.acc in slot order.
template <int N>
__device__ bool grid_sum(const double (&v)[N], GridSum g, unsigned extra_blocks = 0, unsigned first_slot = 0) {
  static_assert(N <= kMaxSumValues, "GridSum holds kMaxSumValues values per slot");
  __shared__ bool group_last, last;
  double s[N];
  block_sum(v, s);
  const unsigned total = gridDim.x + extra_blocks, slot = first_slot + blockIdx.x, grp = slot / kSumGroup;
  const unsigned groups = (total + kSumGroup - 1) / kSumGroup, group_cap = g.capacity / kSumGroup;
  const unsigned in_group = min(kSumGroup, total - grp * kSumGroup);
  if (threadIdx.x == 0) {
    if (total > g.capacity) __trap();  // the backend sized the slots for fewer blocks: fail, never sum wrong
    for (int i = 0; i < N; ++i) g.partial[i * g.capacity + slot] = s[i];
    __threadfence();
    group_last = atomicAdd(g.group_ticket + grp, 1u) == in_group - 1;
  }
  __syncthreads();
  if (!group_last) return false;
  const unsigned lane = threadIdx.x;
  if (lane < 32) {  // warp 0 sums the group's slots, lane by lane (L2 reads: other blocks wrote them)
    for (int i = 0; i < N; ++i) {
      const double x = warp_sum(lane < in_group ? __ldcg(g.partial + i * g.capacity + grp * kSumGroup + lane) : 0.0);
      if (lane == 0) g.group[i * group_cap + grp] = x;
    }
    if (lane == 0) {
      g.group_ticket[grp] = 0;
      __threadfence();
      last = atomicAdd(g.ticket, 1u) == groups - 1;
    }
  }
  __syncthreads();
  if (!last) return false;
  if (lane < 32)
    for (int i = 0; i < N; ++i) {
      double x = 0.0;
      for (unsigned k = lane; k < groups; k += kSumGroup) x += __ldcg(g.group + i * group_cap + k);
      x = warp_sum(x);
      if (lane == 0) g.acc[i] = __ldcg(g.acc + i) + x;
    }
  return threadIdx.x == 0;
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
