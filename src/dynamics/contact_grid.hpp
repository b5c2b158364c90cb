// The contact pass's broad phase: the spatial hash of cells its buckets sort facets (and
// edges) by, as host/device functions the CPU pass and the GPU kernels both call, so that
// their buckets agree (dynamics/contact_pass.hpp builds the pass on them).
#pragma once

#include <cmath>

#include "core/host_device.hpp"

namespace halfstep {

template <class T>
struct FacetCandidate;

/// The broad phase's buckets: facets sorted by the hash of the cell of their box centre.
template <class T>
struct ContactGrid {
  T cell = T(1);            ///< cell edge: the largest facet box edge plus the contact reach
  int mask = 0;             ///< buckets - 1 (a power of two minus one)
  const int* start = nullptr;   ///< bucket b holds facets[start[b] .. start[b+1])
  const int* facets = nullptr;  ///< facet indices, bucket by bucket
  /// The facets' candidate values in the same bucket order (the GPU's copy, so that a
  /// bucket's candidates are read contiguously); null: read from the facet arrays.
  const FacetCandidate<T>* candidates = nullptr;
};

/// The broad phase's cell edge from the largest facet box edge and the contact reach (the CPU
/// pass and the GPU kernels both call it, so their buckets agree).
HS_HD double contact_cell_edge(double extent, double reach) {
  const double s = extent + reach;
  return s + 1e-12 * s + 1e-300;
}

/// Integer cell coordinate of x, held within +-4e18: a position far outside any model (a run
/// blowing up before it goes non-finite, a damaged restart: fuzz finding 7) would overflow
/// the conversion, which is undefined; there it lands in an outermost cell and touches nothing.
template <class T>
HS_HD long long contact_cell(T x, T cell) {
  const T c = std::floor(x / cell), limit = T(4e18);
  return static_cast<long long>(c > limit ? limit : c >= -limit ? c : -limit);  // NaN: -limit
}

/// Bucket of cell (i, j, k) among mask + 1 buckets.
HS_HD int contact_bucket(long long i, long long j, long long k, int mask) {
  const unsigned long long h = static_cast<unsigned long long>(i) * 73856093ull ^
                               static_cast<unsigned long long>(j) * 19349663ull ^
                               static_cast<unsigned long long>(k) * 83492791ull;
  return static_cast<int>((h ^ (h >> 29)) & static_cast<unsigned long long>(mask));
}

}  // namespace halfstep
