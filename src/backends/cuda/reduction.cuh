// Grid-wide sums finished inside the kernel, in a fixed order: every warp writes its partial
// sums to its own slot (slot = the warp's index in the grid); the block that completes a group
// of 32 slots sums the group's slots with one warp, and the block that completes the last
// group sums the groups. Which block finishes last varies from run to run, and so does the
// block size (the start-up timing picks it), but neither changes the order of the additions:
// a warp sums the same 32 threads, a group the same 32 warps. So every run (and a run resumed
// from a restart) adds the same numbers in the same order. (Slots per block summed their block
// first: two runs of one contact deck differed in the last bit of the kinetic energy, measured
// on an H200 on 2026-12-02, because the timing had picked another node block size.) This keeps
// the energy balance on the GPU with no extra launch and no copy to the host.
#pragma once

#include <cuda_runtime.h>

namespace halfstep {
namespace cuda {

/// Warp slots per group (a warp sums a group's slots).
constexpr unsigned kSumGroup = 32;
/// The most values one grid sum adds (the element-local pass: node sums and two energies).
constexpr int kMaxSumValues = 8;

/// The totals and ticket of one kind of kernel (device memory, zeroed; the totals stay between
/// the launches of one pass) and its scratch: per-warp and per-group partial sums and per-group
/// counters, zero between launches.
struct GridSum {
  double* acc;                       ///< the totals
  unsigned* ticket;                  ///< groups finished in this launch
  double* partial = nullptr;         ///< kMaxSumValues x capacity: each warp's sums, value-major
  double* group = nullptr;           ///< kMaxSumValues x (capacity / kSumGroup): each group's sums
  unsigned* group_ticket = nullptr;  ///< capacity / kSumGroup: warps finished per group
  unsigned capacity = 0;             ///< warp slots (a multiple of kSumGroup)
};

/// Groups of warp slots of a launch of blocks x threads (grid_sum's other_groups, first_group).
__host__ __device__ inline unsigned group_count(unsigned blocks, unsigned threads) {
  return (blocks * (threads / 32) + kSumGroup - 1) / kSumGroup;
}

/// The sum over the warp's lanes, in a fixed order, in lane 0.
__device__ inline double warp_sum(double v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

/// Sums group grp's in_group warp slots into its group partial (every lane of one warp).
template <int N>
__device__ void sum_group(GridSum g, unsigned grp, unsigned in_group, unsigned lane) {
  const unsigned group_cap = g.capacity / kSumGroup;
  for (int i = 0; i < N; ++i) {  // L2 reads: other blocks wrote them
    const double x = warp_sum(lane < in_group ? __ldcg(g.partial + i * g.capacity + grp * kSumGroup + lane) : 0.0);
    if (lane == 0) g.group[i * group_cap + grp] = x;
  }
}

/// Adds v[0..N) of every thread of the grid to g.acc. Returns true in exactly one thread
/// (thread 0 of the block that finished the sums), which may then read the totals with
/// read_total() and must call reset() (or clear the ticket) after use. Every thread of the grid
/// must call it, and blockDim.x must be a multiple of 32 (whole warps). Two launches run
/// alongside may sum into one g: the first takes groups [0, own) and passes other_groups = the
/// second's group count; the second passes first_group = the first's group count and
/// other_groups = it too (group_count() of each launch's warps). The total of all of them is
/// added to g.acc in slot order. The warps past the last thread with values add zeros at the
/// end, which change no sum: the order does not depend on the block size as long as the first
/// launch's block size is fixed.
template <int N>
__device__ bool grid_sum(const double (&v)[N], GridSum g, unsigned other_groups = 0, unsigned first_group = 0) {
  static_assert(N <= kMaxSumValues, "GridSum holds kMaxSumValues values per slot");
  __shared__ unsigned finished[2];  // groups this block completed (a block spans at most two)
  __shared__ bool last;
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5, block_warps = blockDim.x >> 5;
  const unsigned warps = gridDim.x * block_warps;  // this launch's slots
  const unsigned own_groups = group_count(gridDim.x, blockDim.x), groups = own_groups + other_groups;
  const unsigned base = first_group * kSumGroup, first = blockIdx.x * block_warps;  // the block's first warp
  double s[N];
  for (int i = 0; i < N; ++i) s[i] = warp_sum(v[i]);
  if (lane == 0) {
    if ((first_group + own_groups) * kSumGroup > g.capacity) __trap();  // slots for fewer warps: fail, never sum wrong
    for (int i = 0; i < N; ++i) g.partial[i * g.capacity + base + first + warp] = s[i];
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    // One fence and one ticket per group the block's warps fall in: the block that completes a
    // group's count sums it, whatever the block size.
    __threadfence();
    const unsigned end = first + block_warps;
    finished[0] = finished[1] = ~0u;
    unsigned k = 0;
    for (unsigned w = first; w < end; w = (w / kSumGroup + 1) * kSumGroup) {
      const unsigned grp = w / kSumGroup, upto = min(end, (grp + 1) * kSumGroup);
      const unsigned in_group = min(kSumGroup, warps - grp * kSumGroup);
      if (atomicAdd(g.group_ticket + first_group + grp, upto - w) + (upto - w) == in_group) finished[k++] = grp;
    }
  }
  __syncthreads();
  if (finished[0] == ~0u) return false;
  if (warp == 0) {
    __threadfence();
    unsigned done = 0;
    for (unsigned k = 0; k < 2 && finished[k] != ~0u; ++k) {
      const unsigned grp = finished[k];
      sum_group<N>(g, first_group + grp, min(kSumGroup, warps - grp * kSumGroup), lane);
      if (lane == 0) g.group_ticket[first_group + grp] = 0;
      ++done;
    }
    if (lane == 0) {
      __threadfence();
      last = atomicAdd(g.ticket, done) + done == groups;
    }
  }
  __syncthreads();
  if (!last) return false;
  if (warp == 0) {
    __threadfence();
    const unsigned group_cap = g.capacity / kSumGroup;
    for (int i = 0; i < N; ++i) {
      double x = 0.0;
      for (unsigned k = lane; k < groups; k += kSumGroup) x += __ldcg(g.group + i * group_cap + k);
      x = warp_sum(x);
      if (lane == 0) g.acc[i] = __ldcg(g.acc + i) + x;
    }
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
