#include "parallel/partition.hpp"

#include "elements/registry.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace halfstep {

double element_cost(int kind) { return element_kind(kind).cost; }

namespace {

struct Bisection {
  const std::vector<double>* coord[3];
  const std::vector<double>& weight;
  std::vector<int>& part;

  void split(std::vector<int>::iterator begin, std::vector<int>::iterator end, int first, int parts) {
    if (parts == 1) {
      for (auto it = begin; it != end; ++it) part[static_cast<std::size_t>(*it)] = first;
      return;
    }
    double lo[3], hi[3];
    for (int a = 0; a < 3; ++a) {
      lo[a] = hi[a] = (*coord[a])[static_cast<std::size_t>(*begin)];
      for (auto it = begin; it != end; ++it) {
        const double v = (*coord[a])[static_cast<std::size_t>(*it)];
        lo[a] = std::min(lo[a], v);
        hi[a] = std::max(hi[a], v);
      }
    }
    int axis = 0;
    for (int a = 1; a < 3; ++a)
      if (hi[a] - lo[a] > hi[axis] - lo[axis]) axis = a;
    const std::vector<double>& c = *coord[axis];
    std::sort(begin, end, [&](int i, int j) {
      const double ci = c[static_cast<std::size_t>(i)], cj = c[static_cast<std::size_t>(j)];
      return ci < cj || (ci == cj && i < j);
    });
    const int left = parts / 2;
    double total = 0;
    for (auto it = begin; it != end; ++it) total += weight[static_cast<std::size_t>(*it)];
    const double target = total * left / parts;
    // Cut where the running weight comes closest to the target, leaving each side at least
    // as many points as it has parts.
    const long n = end - begin;
    long cut = left;
    double run = 0, best = -1;
    for (long i = 0; i < n; ++i) {
      run += weight[static_cast<std::size_t>(begin[i])];
      const long k = i + 1;
      if (k < left || n - k < parts - left) continue;
      const double miss = std::abs(run - target);
      if (best < 0 || miss < best) {
        best = miss;
        cut = k;
      }
      if (run > target) break;
    }
    split(begin, begin + cut, first, left);
    split(begin + cut, end, first + left, parts - left);
  }
};

}  // namespace

std::vector<int> recursive_coordinate_bisection(const std::vector<double>& x, const std::vector<double>& y,
                                                const std::vector<double>& z, const std::vector<double>& weight,
                                                int parts) {
  const std::size_t n = x.size();
  if (parts < 1) throw std::invalid_argument("the number of parts must be positive");
  if (n < static_cast<std::size_t>(parts))
    throw std::invalid_argument("cannot split " + std::to_string(n) + " elements into " + std::to_string(parts) +
                                " parts: every rank needs at least one element");
  std::vector<int> part(n, 0), order(n);
  std::iota(order.begin(), order.end(), 0);
  Bisection b{{&x, &y, &z}, weight, part};
  b.split(order.begin(), order.end(), 0, parts);
  return part;
}

std::vector<int> partition_elements(const Model& model, int parts) {
  const int ne = model.elements.size();
  std::vector<double> x(ne), y(ne), z(ne), w(ne);
  for (int e = 0; e < ne; ++e) {
    const int* c = model.elements.nodes_of(e);
    const int k = model.elements.count_of(e);
    double sx = 0, sy = 0, sz = 0;
    for (int a = 0; a < k; ++a) {
      sx += model.nodes.x[c[a]];
      sy += model.nodes.y[c[a]];
      sz += model.nodes.z[c[a]];
    }
    x[e] = sx / k;
    y[e] = sy / k;
    z[e] = sz / k;
    w[e] = element_cost(model.elements.kind[e]);
  }
  try {
    return recursive_coordinate_bisection(x, y, z, w, parts);
  } catch (const std::invalid_argument& err) {
    throw InputError(SourceLoc{model.deck_path, 0}, std::string("bad partition: ") + err.what());
  }
}

}  // namespace halfstep
