// The magnitudes of the elements' own nodal forces, before assembly: Abaqus/Standard's and
// CalculiX's force scale for the residual check is their mean. An average of the assembled
// forces is far smaller (interior nodes' contributions cancel), so a residual measured against
// it asks for many more iterations than either program for the same answer.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace halfstep {

/// Sums of |component| over every element's nodal force values and their count, per field
/// (0: forces, 1: moments).
struct ElementForceSums {
  double sum[2] = {0, 0};
  std::int64_t count[2] = {0, 0};

  /// Adds n values laid out in groups of period, the first forces of each group forces and
  /// the rest moments (continuum slots: 3, 3).
  void add(const double* v, std::size_t n, int period, int forces) {
    for (std::size_t i = 0; i < n; ++i) {
      const int field = static_cast<int>(i % static_cast<std::size_t>(period)) < forces ? 0 : 1;
      sum[field] += std::fabs(v[i]);
      ++count[field];
    }
  }
  /// Adds partial sums computed elsewhere (a device reduction).
  void add_sums(double forces, double moments, std::int64_t n_forces, std::int64_t n_moments) {
    sum[0] += forces;
    sum[1] += moments;
    count[0] += n_forces;
    count[1] += n_moments;
  }
  /// The mean magnitude of field f (0 where there is none).
  double mean(int f) const { return count[f] ? sum[f] / static_cast<double>(count[f]) : 0.0; }
};

}  // namespace halfstep
