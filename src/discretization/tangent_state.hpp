// An element's converged material state as constants of the dual-number evaluations that
// build its consistent tangent, written once for the CPU (ContinuumOperator::element_matrices)
// and the CUDA tangent engine (MatrixBody): each column starts from the converged state, and
// what the evaluations write is dropped.
#pragma once

#include <cstddef>

#include "core/host_device.hpp"
#include "elements/fpm_hex.hpp"
#include "materials/j2_plasticity.hpp"

namespace halfstep {

/// Most state values per point any continuum kind keeps: a law's (J2) or a kind's own (the FPM
/// hexahedron keeps its frame, configuration "a" and convected strain besides its law's): the
/// size of the per-element copies the dual-number evaluations take.
constexpr int kMaxPointState = kJ2StateSize > fpm_detail::kPointStateSize ? kJ2StateSize : fpm_detail::kPointStateSize;

/// Dual values a per-element copy of kind K's state holds (kMaxPointState per point).
template <class K>
HS_HD constexpr int state_capacity() {
  return kMaxPointState * K::kPoints;
}

/// Kind K's element whose first point is p0: its `size` state components from the store
/// (StructureState::solid_state's layout, `stride` values per component; null: the virgin
/// state, zeros) into old[c * K::kPoints + g] as duals without derivative.
template <class K, class D>
HS_HD void dual_point_state(const double* store, std::size_t stride, std::size_t p0, int size, D* old) {
  for (int c = 0; c < size; ++c)
    for (int g = 0; g < K::kPoints; ++g)
      old[c * K::kPoints + g] = D(store ? store[static_cast<std::size_t>(c) * stride + p0 + static_cast<std::size_t>(g)] : 0.0);
}

}  // namespace halfstep
