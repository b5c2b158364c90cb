// One loop primitive for the host: forall runs the same body over an index range on OpenMP
// threads. Bodies are host/device functors (HS_HD operator()), so a CUDA backend runs the very
// same functor with cuda::forall (backends/cuda/forall.cuh); element, face and node physics is
// written once and the backends only choose where it runs.
#pragma once

namespace halfstep {

/// Fewest loop items worth a thread of their own. A model of a few hundred elements is done
/// in microseconds per pass, less than waking and joining a team; on a busy or shared machine
/// (tests side by side, a container's CPU quota) every fork and join of threads that cannot
/// all run costs a scheduler time slice, and a small explicit run of thousands of increments
/// then takes minutes instead of a fraction of a second.
inline constexpr int kMinItemsPerThread = 1024;

/// The threads a loop over `items` items gets: at most `threads`, each with kMinItemsPerThread
/// items or more, and at least one.
inline int threads_for(int items, int threads) {
  const int most = items / kMinItemsPerThread;
  if (threads < 1) threads = 1;
  return most < 1 ? 1 : (threads < most ? threads : most);
}

/// Calls body(i) for i in [begin, end) on up to `threads` OpenMP threads (threads_for; static
/// schedule: each thread takes one contiguous block, the same for every call with the same
/// range and threads).
template <class Body>
void forall(int begin, int end, int threads, const Body& body) {
#pragma omp parallel for num_threads(threads_for(end - begin, threads)) schedule(static)
  for (int i = begin; i < end; ++i) body(i);
}

/// Like forall, with sums: body(i, part) adds its N contributions into part; returns the
/// totals in sum (overwritten).
template <int N, class Body>
void forall_sum(int begin, int end, int threads, const Body& body, double (&sum)[N]) {
  double s[N] = {};
#pragma omp parallel for num_threads(threads_for(end - begin, threads)) schedule(static) reduction(+ : s[:N])
  for (int i = begin; i < end; ++i) body(i, s);
  for (int k = 0; k < N; ++k) sum[k] = s[k];
}

}  // namespace halfstep
