// Time functions that scale loads and prescribed motions (*AMPLITUDE).
#pragma once

#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/host_device.hpp"

namespace halfstep {

/// Value at t of an amplitude given by n points (time, value), n >= 1, constant outside
/// them; linear between points, or the 5th-order smooth step of Abaqus when smooth. One
/// function for the host and the GPU, so loads scale identically on both.
HS_HD double amplitude_at(bool smooth, const double* time, const double* value, int n, double t) {
  if (t <= time[0]) return value[0];
  if (t >= time[n - 1]) return value[n - 1];
  // Bisection for the interval [lo, lo + 1] holding t.
  int lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (time[mid] <= t) lo = mid;
    else hi = mid;
  }
  const double xi = (t - time[lo]) / (time[hi] - time[lo]);
  const double a0 = value[lo], a1 = value[hi];
  if (!smooth) return a0 + (a1 - a0) * xi;
  // Abaqus smooth step: zero first and second derivatives at both ends.
  return a0 + (a1 - a0) * xi * xi * xi * (10.0 - 15.0 * xi + 6.0 * xi * xi);
}

/// A tabular or smooth-step amplitude in step time; constant outside its points.
struct Amplitude {
  enum class Kind { Tabular, SmoothStep };
  std::string name;
  Kind kind = Kind::Tabular;
  std::vector<double> time, value;  ///< strictly increasing times
  SourceLoc loc;

  /// Amplitude value at step time t (see amplitude_at).
  double operator()(double t) const {
    if (time.empty()) return 1.0;
    return amplitude_at(kind == Kind::SmoothStep, time.data(), value.data(), static_cast<int>(time.size()), t);
  }
};

}  // namespace halfstep
