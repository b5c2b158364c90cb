#include "model/amplitude.hpp"

#include <algorithm>

namespace halfstep {

double Amplitude::operator()(double t) const {
  if (time.empty()) return 1.0;
  if (t <= time.front()) return value.front();
  if (t >= time.back()) return value.back();
  // First point strictly after t; the interval is [i-1, i].
  const auto it = std::upper_bound(time.begin(), time.end(), t);
  const std::size_t i = static_cast<std::size_t>(it - time.begin());
  const double t0 = time[i - 1], t1 = time[i];
  const double a0 = value[i - 1], a1 = value[i];
  const double xi = (t - t0) / (t1 - t0);
  if (kind == Kind::Tabular) return a0 + (a1 - a0) * xi;
  // Abaqus smooth step: zero first and second derivatives at both ends.
  return a0 + (a1 - a0) * xi * xi * xi * (10.0 - 15.0 * xi + 6.0 * xi * xi);
}

}  // namespace halfstep
