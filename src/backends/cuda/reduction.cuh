// Grid-wide sums finished inside the kernel, in a fixed order: every warp writes its partial
// sums to its own slot (slot = the warp's index in the grid); slots form groups of 32, groups
// form groups of 32 groups, and so on up to one entry, the total. The block whose ticket
// completes a group sums the group's 32 entries with one warp and carries the result a level
// up. Which block finishes last varies from run to run, and so does the block size (the
// start-up timing picks it), but neither changes the order of the additions: a warp sums the
// same 32 threads, a group the same 32 entries. So every run (and a run resumed from a restart)
// adds the same numbers in the same order. (Slots per block summed their block first: two runs
// of one contact deck differed in the last bit of the kinetic energy, measured on an H200 on
// 2026-12-02, because the timing had picked another node block size. Then one warp summing
// every group at the end put 31 serial reads per lane on the critical path of each pass: FP32
// ran ~10 % slower.) This keeps the energy balance on the GPU with no copy to the host. Node
// passes and contact sum this way in the kernel; element launches only store their warps'
// sums (put_warp_sums), which one small kernel adds after the pass.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace halfstep {
namespace cuda {

/// Entries per group at every level of the tree (a warp sums a group).
constexpr unsigned kSumGroup = 32;
/// The most values one grid sum adds (the element-local pass: node sums and two energies).
constexpr int kMaxSumValues = 8;

/// The totals and top ticket of one kind of kernel (device memory, zeroed; the totals stay
/// between the launches of one pass) and its scratch: per-warp partial sums, the tree's entries
/// above them and their tickets, zero between launches.
struct GridSum {
  double* acc;                       ///< the totals
  unsigned* ticket;                  ///< the top group's ticket (entries finished below it)
  double* partial = nullptr;         ///< kMaxSumValues x capacity: each warp's sums, value-major
  double* group = nullptr;           ///< kMaxSumValues x tree: the entries of levels 1, 2, ...
  unsigned* group_ticket = nullptr;  ///< tree: per entry, the entries below it finished so far
  unsigned capacity = 0;             ///< warp slots (a multiple of kSumGroup)
  unsigned tree = 0;                 ///< entries of levels 1, 2, ... (tree_entries(capacity))
};

/// Entries of level l (1: groups of slots) of a tree over capacity slots.
__host__ __device__ inline unsigned level_entries(unsigned capacity, unsigned l) {
  unsigned n = capacity;
  for (unsigned k = 0; k < l; ++k) n = (n + kSumGroup - 1) / kSumGroup;
  return n;
}

/// Entries of every level above the slots, up to the level of one entry.
__host__ __device__ inline unsigned tree_entries(unsigned capacity) {
  unsigned total = 0;
  for (unsigned n = (capacity + kSumGroup - 1) / kSumGroup;; n = (n + kSumGroup - 1) / kSumGroup) {
    total += n;
    if (n <= 1) return total;
  }
}

/// Groups of warp slots of a launch of blocks x threads (grid_sum's other_groups, first_group).
__host__ __device__ inline unsigned group_count(unsigned blocks, unsigned threads) {
  return (blocks * (threads / 32) + kSumGroup - 1) / kSumGroup;
}

/// The sum over the warp's lanes, in a fixed order, in lane 0.
__device__ inline double warp_sum(double v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

/// Sums entries [32 p, 32 p + in) of a level at src (stride apart per value) into entry dst + p
/// of g.group (every lane of one warp; L2 reads: other blocks wrote them).
template <int N>
__device__ void sum_entries(GridSum g, const double* src, std::size_t stride, unsigned dst, unsigned p, unsigned in,
                            unsigned lane) {
  for (int i = 0; i < N; ++i) {
    const double x = warp_sum(lane < in ? __ldcg(src + i * stride + p * kSumGroup + lane) : 0.0);
    if (lane == 0) g.group[i * g.tree + dst + p] = x;
  }
}

/// Carries entry j of level 1 (count entries there) up the tree: each level's ticket says
/// whether this warp completed the group above, which it then sums. Returns true (every lane)
/// when this warp added the total to g.acc. Every lane of one warp.
template <int N>
__device__ bool climb(GridSum g, unsigned j, unsigned count, unsigned lane) {
  unsigned off = 0, n = level_entries(g.capacity, 1);  // level 1's offset and room
  while (count > 1) {
    const unsigned p = j / kSumGroup, above = (count + kSumGroup - 1) / kSumGroup;
    const unsigned in = min(kSumGroup, count - p * kSumGroup), next = off + n;
    unsigned* t = above == 1 ? g.ticket : g.group_ticket + next + p;
    unsigned done = 0;
    if (lane == 0) {
      __threadfence();  // entry j before the ticket
      done = atomicAdd(t, 1u) + 1 == in;
    }
    if (!__shfl_sync(0xffffffffu, done, 0)) return false;
    __threadfence();
    if (lane == 0) *t = 0;
    sum_entries<N>(g, g.group + off, g.tree, next, p, in, lane);
    n = (n + kSumGroup - 1) / kSumGroup;
    off = next;
    j = p;
    count = above;
  }
  if (lane == 0)
    for (int i = 0; i < N; ++i) g.acc[i] = __ldcg(g.acc + i) + g.group[i * g.tree + off + j];
  return true;
}

/// Adds v[0..N) of every thread of the grid to g.acc. Returns true in exactly one thread
/// (thread 0 of the block that finished the sums), which may then read the totals with
/// read_total() and must call reset() after use. Every thread of the grid must call it, and
/// blockDim.x must be a multiple of 32 (whole warps). Two launches run alongside may sum into
/// one g: the first takes the groups of slots [0, own) and passes other_groups = the second's
/// group count; the second passes first_group = the first's group count and other_groups = it
/// too (group_count() of each launch). The total of all of them is added to g.acc in slot
/// order. The warps past the last thread with values add zeros at the end, which change no
/// sum: the order does not depend on the block size as long as the first launch's is fixed.
template <int N>
__device__ bool grid_sum(const double (&v)[N], GridSum g, unsigned other_groups = 0, unsigned first_group = 0) {
  static_assert(N <= kMaxSumValues, "GridSum holds kMaxSumValues values per slot");
  __shared__ unsigned finished[2];  // groups of slots this block completed (a block spans at most two)
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
      unsigned* t = groups == 1 ? g.ticket : g.group_ticket + first_group + grp;
      if (atomicAdd(t, upto - w) + (upto - w) == in_group) finished[k++] = grp;
    }
  }
  __syncthreads();
  if (finished[0] == ~0u) return false;
  bool total = false;
  if (warp == 0) {
    __threadfence();
    for (unsigned k = 0; k < 2 && finished[k] != ~0u; ++k) {
      const unsigned grp = finished[k], at = first_group + grp;
      if (lane == 0) *(groups == 1 ? g.ticket : g.group_ticket + at) = 0;
      sum_entries<N>(g, g.partial + base, g.capacity, first_group, grp, min(kSumGroup, warps - grp * kSumGroup), lane);
      total |= climb<N>(g, at, groups, lane);
    }
  }
  return total && threadIdx.x == 0;
}

/// The warp sums of an element pass's launches: each launch's warps store their sums at their
/// own slots, with no fence and no ticket, and one small kernel of a fixed shape adds them in
/// slot order after the pass's last launch (element_sums_kernel). A ticket per block in the
/// element kernels made the MITC4 pass 9 % slower (H200, docs/performance.md).
struct WarpSums {
  double* v = nullptr;    ///< kElementSums x capacity: each slot's sums, value-major
  unsigned capacity = 0;  ///< slots
};

/// Stores the sums of v[0..N) over each warp's lanes at slot slot0 + the warp's index in this
/// launch, for the warps that hold a thread below used (a warp's slot does not depend on the
/// block size). Every thread of the launch must call it (the warp's shuffles); blockDim.x must
/// be a multiple of 32.
template <int N>
__device__ void put_warp_sums(const double (&v)[N], WarpSums p, unsigned slot0, unsigned long long used) {
  double s[N];
  for (int i = 0; i < N; ++i) s[i] = warp_sum(v[i]);
  const unsigned long long t = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if ((threadIdx.x & 31u) != 0 || t >= used) return;
  const unsigned long long slot = slot0 + t / 32;
  if (slot >= p.capacity) __trap();  // fewer slots than the host planned: fail, never sum wrong
  for (int i = 0; i < N; ++i) p.v[i * static_cast<std::size_t>(p.capacity) + slot] = s[i];
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
