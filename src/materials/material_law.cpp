#include "materials/material_law.hpp"

#include <stdexcept>
#include <string>

namespace halfstep {

PointState::PointState(const std::vector<int>& points_per_element, int components) : components_(components) {
  if (components < 0) throw std::invalid_argument("PointState: negative component count " + std::to_string(components));
  offset_.reserve(points_per_element.size() + 1);
  for (int n : points_per_element) {
    if (n < 0) throw std::invalid_argument("PointState: negative integration-point count " + std::to_string(n));
    offset_.push_back(offset_.back() + static_cast<std::size_t>(n));
  }
  values_.assign(static_cast<std::size_t>(components) * num_points(), 0.0);
}

PointState PointState::select(const std::vector<int>& elements) const {
  std::vector<int> counts;
  counts.reserve(elements.size());
  for (int e : elements) counts.push_back(points_of(e));
  PointState part(counts, components_);
  for (std::size_t k = 0; k < elements.size(); ++k) {
    const int e = elements[k];
    for (int c = 0; c < components_; ++c)
      for (int g = 0; g < counts[k]; ++g) part(c, part.point(static_cast<int>(k), g)) = (*this)(c, point(e, g));
  }
  return part;
}

void PointState::assign(const std::vector<int>& elements, const PointState& part) {
  if (part.num_elements() != elements.size() || part.components() != components_)
    throw std::invalid_argument("PointState::assign: the part does not match the element list");
  // Checked before anything is written, so that a refused part leaves this store as it was.
  for (std::size_t k = 0; k < elements.size(); ++k)
    if (part.points_of(static_cast<int>(k)) != points_of(elements[k]))
      throw std::invalid_argument("PointState::assign: element " + std::to_string(elements[k]) +
                                  " has a different number of integration points in the part");
  for (std::size_t k = 0; k < elements.size(); ++k) {
    const int e = elements[k];
    for (int c = 0; c < components_; ++c)
      for (int g = 0; g < points_of(e); ++g) (*this)(c, point(e, g)) = part(c, part.point(static_cast<int>(k), g));
  }
}

}  // namespace halfstep
