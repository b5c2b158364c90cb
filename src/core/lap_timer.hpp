// A lap timer on the host's steady clock: the phase timers of distributed increments.
#pragma once

#include <chrono>

namespace halfstep {

/// Seconds since construction or since the previous lap.
struct LapTimer {
  std::chrono::steady_clock::time_point t = std::chrono::steady_clock::now();
  /// Seconds since the last lap; starts the next one.
  double operator()() {
    const auto now = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(now - t).count();
    t = now;
    return s;
  }
};

}  // namespace halfstep
