// Arrays of millions of entries put into a new order on every core (the locality renumbering
// moves a dozen of them, issue 21): each entry is copied from its own place, so the result is
// the same for any thread count.
#pragma once

#include <cstddef>
#include <type_traits>
#include <vector>

#include "core/first_touch.hpp"
#include "core/forall.hpp"

namespace halfstep {

/// v in a new order, out[k] = v[order[k]], copied on up to `threads` threads (the pages of the
/// result faulted in on them too). Every order[k] must index v.
template <class T>
std::vector<T> gathered(const std::vector<T>& v, const std::vector<int>& order, int threads) {
  static_assert(std::is_trivially_copyable_v<T>, "plain data only");
  const int n = static_cast<int>(order.size());
  threads = threads_for(n, threads);
  std::vector<T> out;
  reserve_first_touched(out, order.size(), threads);
  out.resize(order.size());
  forall(0, n, threads, [&](int k) { out[static_cast<std::size_t>(k)] = v[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])]; });
  return out;
}

}  // namespace halfstep
