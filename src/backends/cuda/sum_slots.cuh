// Host side of the grid sums (reduction.cuh): the warp slots each kind of kernel sums into.
#pragma once

#include <cstddef>
#include <limits>
#include <stdexcept>

#include "backends/cuda/device_memory.cuh"
#include "backends/cuda/reduction.cuh"

namespace halfstep {
namespace cuda {

/// The warp slots of one grid sum (grid_sum): its per-warp partials, the tree's entries above
/// them and their counters, for launches of up to capacity warps.
struct SumSlots {
  DeviceArray<double> partial, group;
  DeviceArray<unsigned> group_ticket;
  unsigned capacity = 0;  ///< warp slots
  unsigned tree = 0;      ///< entries above the slots (GridSum::tree)
  /// Room for up to two launches (grid_sum) of up to threads threads in all, counters zeroed:
  /// each launch may add a partly empty last block (up to 32 warps) and a partly empty last
  /// group (up to 31 warps).
  void size(std::size_t threads, cudaStream_t stream) {
    const std::size_t warps = (threads + 31) / 32 + 2 * (32 + kSumGroup);
    const std::size_t groups = (warps + kSumGroup - 1) / kSumGroup;
    if (groups * kSumGroup > std::numeric_limits<unsigned>::max())
      throw std::length_error("grid sum: more warps than a 32-bit slot index holds");
    capacity = static_cast<unsigned>(groups * kSumGroup);
    tree = tree_entries(capacity);
    partial.resize(kMaxSumValues * static_cast<std::size_t>(capacity));
    group.resize(kMaxSumValues * static_cast<std::size_t>(tree));
    group_ticket.resize(tree);
    group_ticket.zero(stream);
  }
  /// The grid sum over totals acc and top ticket with these slots.
  GridSum view(double* acc, unsigned* ticket) {
    return {acc, ticket, partial.get(), group.get(), group_ticket.get(), capacity, tree};
  }
};

}  // namespace cuda
}  // namespace halfstep
