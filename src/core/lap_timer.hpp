// Wall time on the host's steady clock: seconds since an instant, and a lap timer (the phase
// timers of distributed increments).
#pragma once

#include <chrono>

namespace halfstep {

/// Wall seconds since t0.
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

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
