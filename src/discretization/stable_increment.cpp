#include "discretization/stable_increment.hpp"

#include <algorithm>
#include <limits>

#include "discretization/element_blocks.hpp"
#include "elements/bulk_viscosity.hpp"
#include "elements/registry.hpp"

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

double kind_bulk_dt_factor(int kind, double bulk_linear) {
  return kind >= 0 && kind < num_element_kinds() && element_kind(kind).bulk_viscosity
             ? bulk_viscosity_dt_factor(bulk_linear)
             : 1.0;
}

double bulk_stable_dt(const StructureSystem& sys, double bulk_linear) {
  double best = sys.stable_dt;
  for (const ElementBlock& b : element_blocks(sys)) {
    const double f = kind_bulk_dt_factor(b.kind, bulk_linear);
    if (f == 1.0) continue;
    for (int e = b.first; e < b.first + b.count; ++e)
      best = std::min(best, (*b.element_dt)[static_cast<std::size_t>(e)] * f);
  }
  return best;
}

std::pair<double, int> deformed_stable_dt(const StructureSystem& sys, const StructureState& st, double bulk_linear) {
  double best = std::numeric_limits<double>::infinity();
  int which = -1;
  const std::vector<std::vector<double>> ratio = deformed_bound_ratios(sys, st);
  for (const ElementBlock& b : element_blocks(sys)) {
    const std::vector<double>& r = ratio[family_index(*b.family)];
    const double k = kind_bulk_dt_factor(b.kind, bulk_linear);
    for (int e = b.first; e < b.first + b.count; ++e) {
      const double d = (*b.element_dt)[static_cast<std::size_t>(e)] * r[static_cast<std::size_t>(e)] * k;
      if (d < best) {  // the first of equals, in block order
        best = d;
        which = (*b.model_element)[static_cast<std::size_t>(e)];
      }
    }
  }
  return {best, which};
}

}  // namespace halfstep
