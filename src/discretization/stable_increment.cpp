#include "discretization/stable_increment.hpp"

#include <limits>

#include "discretization/element_blocks.hpp"

namespace halfstep {

std::vector<std::vector<double>> deformed_bound_ratios(const StructureSystem& sys, const StructureState& st) {
  const std::vector<const BlockFamily*>& families = block_families();
  std::vector<std::vector<double>> ratio(families.size());
  for (std::size_t f = 0; f < families.size(); ++f) ratio[f].assign(static_cast<std::size_t>(families[f]->count(sys)), 1.0);
  for (const ElementBlock& b : element_blocks(sys))
    if (b.family->bound_ratios)
      b.family->bound_ratios(sys, st, b, ratio[family_index(*b.family)].data() + b.first);
  return ratio;
}

std::pair<double, int> deformed_stable_dt(const StructureSystem& sys, const StructureState& st) {
  double best = std::numeric_limits<double>::infinity();
  int which = -1;
  const std::vector<std::vector<double>> ratio = deformed_bound_ratios(sys, st);
  for (const ElementBlock& b : element_blocks(sys)) {
    const std::vector<double>& r = ratio[family_index(*b.family)];
    for (int e = b.first; e < b.first + b.count; ++e) {
      const double d = (*b.element_dt)[static_cast<std::size_t>(e)] * r[static_cast<std::size_t>(e)];
      if (d < best) {  // the first of equals, in block order
        best = d;
        which = (*b.model_element)[static_cast<std::size_t>(e)];
      }
    }
  }
  return {best, which};
}

}  // namespace halfstep
