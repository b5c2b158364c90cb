// Splitting a model's elements into one subdomain per rank: recursive coordinate bisection
// of the element centroids (the explicit-dynamics default: cheap, deterministic, compact
// parts), weighted by what each element kind costs per increment.
#pragma once

#include <vector>

#include "model/model.hpp"

namespace halfstep {

/// Relative cost of one element of a kind per increment (MITC4 = 1): the trait's kCost, from
/// the H200 FP64 gather rates in docs/performance.md.
double element_cost(int kind);

/// Part (0 .. parts-1) of each point: each cut is normal to the longest side of the current
/// box and splits the weight in proportion to the parts on each side. Deterministic: ties in
/// coordinate are broken by point index. Throws std::invalid_argument when there are fewer
/// points than parts.
std::vector<int> recursive_coordinate_bisection(const std::vector<double>& x, const std::vector<double>& y,
                                                const std::vector<double>& z, const std::vector<double>& weight,
                                                int parts);

/// Part of every model element (RCB of centroids, weighted by element_cost); throws
/// InputError when the model has fewer elements than parts.
std::vector<int> partition_elements(const Model& model, int parts);

}  // namespace halfstep
