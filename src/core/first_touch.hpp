// Fresh memory faulted in on every core. A large std::vector's storage comes straight from
// the kernel (mmap) and each 4 KiB page is zeroed and mapped on its first write: resize or
// assign on one thread then spends most of its time in page faults (perf: a quarter of
// `halfstep check` at 4 M elements). Touching the reserved storage first, on several threads,
// moves those faults off the single thread; the vector's own fill then runs at memory speed.
// (Transparent huge pages by madvise were tried: with the kernel's default defrag=madvise their
// faults compact memory first, and `check` at 4 M elements took more system time, not less.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace halfstep {

/// Reserves n elements in the empty vector v and faults the storage's pages in on up to
/// `threads` threads (v stays empty; its contents are still made by the caller's resize or
/// assign). Nothing is done for a vector that is not empty or already large enough.
template <class T>
void reserve_first_touched(std::vector<T>& v, std::size_t n, int threads) {
  static_assert(std::is_trivially_destructible_v<T>, "storage touched before construction: plain data only");
  if (!v.empty() || v.capacity() >= n) return;
  v.reserve(n);
  const std::size_t bytes = n * sizeof(T);
  constexpr std::size_t kPage = 4096;
  // One thread would only fault the pages in a pass before the fill; a few MiB do so quickly.
  if (threads <= 1 || bytes < (std::size_t{8} << 20)) return;
  auto* base = reinterpret_cast<unsigned char*>(v.data());
  const auto pages = static_cast<long long>((bytes + kPage - 1) / kPage);
#pragma omp parallel for schedule(static) num_threads(threads)
  for (long long p = 0; p < pages; ++p) base[static_cast<std::size_t>(p) * kPage] = 0;
}

}  // namespace halfstep
