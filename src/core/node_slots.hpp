// The inverse of a connectivity list: for every node, the positions in conn that name it.
// Every element family gathers its per-corner forces through this map, in CSR order, so that
// each node sums its contributions in a fixed order on every backend (deterministic results).
#pragma once

#include <cstddef>
#include <vector>

namespace halfstep {

/// Fills ptr (nn + 1 offsets) and slots (conn.size() positions) so that the positions i with
/// conn[i] == n are slots[ptr[n] .. ptr[n + 1]), ascending. The first `count` entries of conn
/// are used (all when count < 0).
inline void invert_connectivity(const std::vector<int>& conn, int nn, std::vector<int>& ptr, std::vector<int>& slots,
                                long long count = -1) {
  const std::size_t m = count < 0 ? conn.size() : static_cast<std::size_t>(count);
  ptr.assign(static_cast<std::size_t>(nn) + 1, 0);
  for (std::size_t i = 0; i < m; ++i) ++ptr[static_cast<std::size_t>(conn[i]) + 1];
  for (int n = 0; n < nn; ++n) ptr[static_cast<std::size_t>(n) + 1] += ptr[static_cast<std::size_t>(n)];
  slots.resize(m);
  std::vector<int> fill(ptr.begin(), ptr.end() - 1);
  for (std::size_t i = 0; i < m; ++i) slots[static_cast<std::size_t>(fill[static_cast<std::size_t>(conn[i])]++)] = static_cast<int>(i);
}

}  // namespace halfstep
