// Point-to-point exchange of shared-node values between neighbouring subdomains: one
// message per neighbour and direction, contiguous buffers, non-blocking so that a backend
// computes its interior elements while the messages travel.
#pragma once

#include <memory>
#include <vector>

#include "parallel/communicator.hpp"

namespace halfstep {

/// The messages of one subdomain's interface (same counts both ways: a shared node is shared
/// by both neighbours).
class HaloExchange {
 public:
  /// neighbors: ranks, ascending; counts: values exchanged with each; single: FP32 values.
  HaloExchange(const Communicator& comm, std::vector<int> neighbors, std::vector<int> counts, bool single);
  ~HaloExchange();
  HaloExchange(const HaloExchange&) = delete;
  HaloExchange& operator=(const HaloExchange&) = delete;

  /// Posts the receives into recv (neighbour after neighbour) and the sends from send (the
  /// same layout). Device pointers only when the communicator is CUDA-aware.
  void start(const void* send, void* recv);
  /// Waits for the messages posted by start().
  void finish();
  /// Sums v[0..n) over all ranks in place, timed with the exchanges.
  void sum(double* v, int n);
  /// Values sent (and received) in all.
  int total() const { return total_; }
  /// Wall seconds spent inside start(), finish() and sum() so far.
  double seconds() const { return seconds_; }

 private:
  struct Requests;
  const Communicator& comm_;
  std::vector<int> neighbors_, counts_, offsets_;
  int total_ = 0;
  bool single_ = false;
  double seconds_ = 0;
  std::unique_ptr<Requests> requests_;
};

}  // namespace halfstep
