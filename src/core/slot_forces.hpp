// Gathers of element forces stored per slot (an element corner's values; the slots of node n
// in a CSR slot_ptr/slots list): every backend and every family adds them in CSR order, so
// CPU and GPU sums agree.
#pragma once

#include <cstddef>

#include "core/host_device.hpp"

namespace halfstep {

/// Adds node n's 3-value forces stored per slot (force + 3 * slot) to f.
template <class T>
HS_HD void add_slot_forces3(const int* slot_ptr, const int* slots, const T* force, int n, T f[3]) {
  for (int i = slot_ptr[n]; i < slot_ptr[n + 1]; ++i) {
    const T* g = force + 3 * static_cast<std::size_t>(slots[i]);
    f[0] += g[0];
    f[1] += g[1];
    f[2] += g[2];
  }
}

/// Adds node n's forces and moments stored 6 per slot (beam ends, FPM triangle corners) to f.
template <class T>
HS_HD void add_slot_forces6(const int* slot_ptr, const int* slots, const T* force, int n, T f[6]) {
  for (int i = slot_ptr[n]; i < slot_ptr[n + 1]; ++i) {
    const T* g = force + 6 * static_cast<long long>(slots[i]);
    for (int d = 0; d < 6; ++d) f[d] += g[d];
  }
}

}  // namespace halfstep
