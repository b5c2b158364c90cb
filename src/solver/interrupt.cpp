#include "solver/interrupt.hpp"

namespace halfstep {

std::atomic<int>& interrupt_request() {
  // A lock-free atomic: the one kind of object a signal handler may write.
  static std::atomic<int> request{0};
  static_assert(std::atomic<int>::is_always_lock_free, "signal handlers need a lock-free flag");
  return request;
}

}  // namespace halfstep
