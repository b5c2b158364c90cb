// How a shared node's force is summed from the partial sums of the ranks that share it:
// always in ascending rank order, so every rank holding a copy of the node gets the same
// bits and the copies, integrated independently, never drift apart.
#pragma once

#include "core/host_device.hpp"

namespace halfstep {

/// Values exchanged per shared node: 6 generalized internal forces (the sixth nonzero only
/// on the six-dof nodes of beams and FPM triangles), then 3 pressure forces.
constexpr int kHaloValues = 9;
/// Offset of the pressure forces within a node's kHaloValues.
constexpr int kHaloPressure = 6;

/// Total of interface node k: the sum of the kHaloValues-vectors at positions
/// sum_src[sum_ptr[k] .. sum_ptr[k+1]) of buf (own partials, then those received).
template <class T>
HS_HD void sum_halo_node(const int* sum_ptr, const int* sum_src, const T* buf, int k, T* total) {
  for (int c = 0; c < kHaloValues; ++c) total[c] = T(0);
  for (int i = sum_ptr[k]; i < sum_ptr[k + 1]; ++i) {
    const T* v = buf + static_cast<long long>(sum_src[i]) * kHaloValues;
    for (int c = 0; c < kHaloValues; ++c) total[c] += v[c];
  }
}

}  // namespace halfstep
