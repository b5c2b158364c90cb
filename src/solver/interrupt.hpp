// A request to stop a run early (SIGINT, SIGTERM), set by the application and read by the
// time loops: they finish the increment under way, write a last frame, and return a summary
// whose status says so, so that an interrupted run leaves complete, valid results.
#pragma once

#include <atomic>
#include <stdexcept>

namespace halfstep {

/// The pending request: 0 none, else the signal number that asked to stop.
std::atomic<int>& interrupt_request();

/// True when a stop has been asked for (a relaxed read: cheap enough for every increment).
inline bool interrupt_requested() { return interrupt_request().load(std::memory_order_relaxed) != 0; }

/// Thrown by a static step that stopped on a request after writing its last frame.
class RunInterrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace halfstep
