// Output instants spaced by a step-time interval (TIME INTERVAL=, NUMBER INTERVAL=, restart
// and mass-scaling points), shared by the explicit and the static time loops.
#pragma once

#include <cmath>
#include <limits>

namespace halfstep {

/// The first of next, next + interval, next + 2 interval ... past tau + eps: the next output
/// instant once the one at tau is written. An interval shorter than the increment gives one
/// output per increment (as Abaqus, which writes at most once per increment); one below the
/// resolution of the step time (next + interval == next, e.g. TIME INTERVAL=1e-300) too,
/// where adding it until past tau never ended. A few intervals are added one at a time (the
/// instants of every ordinary run); more are jumped over in one step, not tau / interval adds.
inline double next_output_time(double next, double interval, double tau, double eps) {
  if (!(interval > 0)) return next;  // never due
  const double past = tau + eps;
  for (int i = 0; i < 64 && next <= past; ++i) {
    const double after = next + interval;
    if (!(after > next)) break;  // below the resolution of next
    next = after;
  }
  if (next > past) return next;
  const double jumped = next + (std::floor((past - next) / interval) + 1) * interval;
  return jumped > past ? jumped : std::nextafter(past, std::numeric_limits<double>::infinity());
}

}  // namespace halfstep
