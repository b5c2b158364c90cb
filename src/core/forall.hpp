// One loop primitive for the host: forall runs the same body over an index range on OpenMP
// threads. Bodies are host/device functors (HS_HD operator()), so a CUDA backend runs the very
// same functor with cuda::forall (backends/cuda/forall.cuh); element, face and node physics is
// written once and the backends only choose where it runs.
#pragma once

namespace halfstep {

/// Calls body(i) for i in [begin, end) on `threads` OpenMP threads (static schedule: each
/// thread takes one contiguous block, the same for every call).
template <class Body>
void forall(int begin, int end, int threads, const Body& body) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int i = begin; i < end; ++i) body(i);
}

/// Like forall, with sums: body(i, part) adds its N contributions into part; returns the
/// totals in sum (overwritten).
template <int N, class Body>
void forall_sum(int begin, int end, int threads, const Body& body, double (&sum)[N]) {
  double s[N] = {};
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : s[:N])
  for (int i = begin; i < end; ++i) body(i, s);
  for (int k = 0; k < N; ++k) sum[k] = s[k];
}

}  // namespace halfstep
