// The inverse of a connectivity list: for every node, the positions in conn that name it.
// Every element family gathers its per-corner forces through this map, in CSR order, so that
// each node sums its contributions in a fixed order on every backend (deterministic results).
#pragma once

#include <algorithm>
#include <climits>
#include <cstddef>
#include <vector>

#include "core/first_touch.hpp"
#include "core/forall.hpp"
#include "core/threads.hpp"

namespace halfstep {

/// Fills ptr (nn + 1 offsets) and slots (conn.size() positions) so that the positions i with
/// conn[i] == n are slots[ptr[n] .. ptr[n + 1]), ascending. The first `count` entries of conn
/// are used (all when count < 0). Runs on up to `threads` threads (default_threads() when 0);
/// the map is the same for any count.
inline void invert_connectivity(const std::vector<int>& conn, int nn, std::vector<int>& ptr, std::vector<int>& slots,
                                long long count = -1, int threads = 0) {
  const std::size_t m = count < 0 ? conn.size() : static_cast<std::size_t>(count);
  ptr.assign(static_cast<std::size_t>(nn) + 1, 0);
  threads = threads_for(static_cast<int>(std::min<std::size_t>(m, INT_MAX)), threads > 0 ? threads : default_threads());
  if (threads <= 1) {
    for (std::size_t i = 0; i < m; ++i) ++ptr[static_cast<std::size_t>(conn[i]) + 1];
    for (int n = 0; n < nn; ++n) ptr[static_cast<std::size_t>(n) + 1] += ptr[static_cast<std::size_t>(n)];
    slots.resize(m);
    std::vector<int> fill(ptr.begin(), ptr.end() - 1);
    for (std::size_t i = 0; i < m; ++i) slots[static_cast<std::size_t>(fill[static_cast<std::size_t>(conn[i])]++)] = static_cast<int>(i);
    return;
  }
  // Each thread owns a range of nodes and reads the whole list for them: no two threads write
  // the same entry, and each node's positions are found in ascending order as on one thread.
  reserve_first_touched(slots, m, threads);
  slots.resize(m);
  const auto mm = static_cast<long long>(m);
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), nt = omp_get_num_threads();
    const int lo = static_cast<int>(static_cast<long long>(nn) * t / nt);
    const int hi = static_cast<int>(static_cast<long long>(nn) * (t + 1) / nt);
    for (long long i = 0; i < mm; ++i) {
      const int n = conn[static_cast<std::size_t>(i)];
      if (n >= lo && n < hi) ++ptr[static_cast<std::size_t>(n) + 1];
    }
#pragma omp barrier
#pragma omp single
    for (int n = 0; n < nn; ++n) ptr[static_cast<std::size_t>(n) + 1] += ptr[static_cast<std::size_t>(n)];
    // (single ends in a barrier: the offsets are complete from here on)
    std::vector<int> fill(ptr.begin() + lo, ptr.begin() + hi);
    for (long long i = 0; i < mm; ++i) {
      const int n = conn[static_cast<std::size_t>(i)];
      if (n >= lo && n < hi) slots[static_cast<std::size_t>(fill[static_cast<std::size_t>(n - lo)]++)] = static_cast<int>(i);
    }
  }
}

}  // namespace halfstep
