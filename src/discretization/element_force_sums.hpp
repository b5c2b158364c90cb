// The magnitudes of the elements' own nodal forces, before assembly: Abaqus/Standard's and
// CalculiX's force scale for the residual check is their mean. An average of the assembled
// forces is far smaller (interior nodes' contributions cancel), so a residual measured against
// it asks for many more iterations than either program for the same answer.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace halfstep {

/// The sum of |component| over every element's nodal force values and their count.
struct ElementForceSums {
  double sum = 0;
  std::int64_t count = 0;

  /// Adds n force components.
  void add(const double* v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) sum += std::fabs(v[i]);
    count += static_cast<std::int64_t>(n);
  }
  /// Adds a partial sum of n components computed elsewhere (a device reduction).
  void add_sum(double s, std::int64_t n) {
    sum += s;
    count += n;
  }
  /// The mean magnitude (0 where there is none).
  double mean() const { return count ? sum / static_cast<double>(count) : 0.0; }
};

}  // namespace halfstep
