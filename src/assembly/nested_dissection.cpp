#include "assembly/nested_dissection.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>

namespace halfstep {

namespace {

/// Subsets at most this large are ordered as they come (their fill is negligible).
constexpr std::size_t kLeaf = 8;
/// Subsets above this size split their two halves into parallel tasks.
constexpr std::size_t kTask = 20000;

/// The recursion's shared arrays.
struct Dissection {
  const std::vector<double>* xyz[3];
  std::vector<std::int64_t> adj_ptr;  ///< node -> neighbour nodes (CSR, over active nodes)
  std::vector<int> adj;
  std::vector<int> part;              ///< per node: id of the subset it is in now
  std::vector<unsigned char> side;    ///< per node: 1 when on the upper side of its subset's cut
  std::atomic<int> next_id{1};

  /// Orders `nodes` (a subset whose part[] is id) into out[0 .. nodes.size()).
  void order(std::vector<int> nodes, int id, int* out) {
    if (nodes.size() <= kLeaf) {
      std::copy(nodes.begin(), nodes.end(), out);
      return;
    }
    // Longest extent of the bounding box.
    std::array<double, 3> lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
    for (int n : nodes)
      for (int a = 0; a < 3; ++a) {
        const double v = (*xyz[a])[static_cast<std::size_t>(n)];
        lo[a] = std::min(lo[a], v);
        hi[a] = std::max(hi[a], v);
      }
    int axis = 0;
    for (int a = 1; a < 3; ++a)
      if (hi[a] - lo[a] > hi[axis] - lo[axis]) axis = a;
    const std::vector<double>& c = *xyz[axis];
    std::size_t half = nodes.size() / 2;
    std::nth_element(nodes.begin(), nodes.begin() + static_cast<std::ptrdiff_t>(half), nodes.end(),
                     [&](int a, int b) { return c[static_cast<std::size_t>(a)] < c[static_cast<std::size_t>(b)]; });
    // Cut between coordinates, not through a row of equal ones (a structured mesh has many):
    // everything at the median value goes up, unless that leaves nothing below.
    const double cut = c[static_cast<std::size_t>(nodes[half])];
    const auto below = std::partition(nodes.begin(), nodes.end(),
                                      [&](int n) { return c[static_cast<std::size_t>(n)] < cut; });
    if (below != nodes.begin()) half = static_cast<std::size_t>(below - nodes.begin());
    for (std::size_t i = 0; i < nodes.size(); ++i) side[static_cast<std::size_t>(nodes[i])] = i >= half ? 1 : 0;
    // Separator: lower-side nodes with a neighbour on the upper side of this subset.
    std::vector<int> left, right, sep;
    left.reserve(half);
    right.reserve(nodes.size() - half);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const int n = nodes[i];
      if (i >= half) {
        right.push_back(n);
        continue;
      }
      bool touches = false;
      for (std::int64_t k = adj_ptr[static_cast<std::size_t>(n)]; k < adj_ptr[static_cast<std::size_t>(n) + 1] && !touches; ++k) {
        const int m = adj[static_cast<std::size_t>(k)];
        touches = part[static_cast<std::size_t>(m)] == id && side[static_cast<std::size_t>(m)] == 1;
      }
      (touches ? sep : left).push_back(n);
    }
    nodes.clear();
    nodes.shrink_to_fit();
    const int left_id = next_id++, right_id = next_id++;
    for (int n : left) part[static_cast<std::size_t>(n)] = left_id;
    for (int n : right) part[static_cast<std::size_t>(n)] = right_id;
    for (int n : sep) part[static_cast<std::size_t>(n)] = 0;  // ordered: out of every later subset
    std::copy(sep.begin(), sep.end(), out + left.size() + right.size());
    int* out_right = out + left.size();
    const bool parallel = left.size() + right.size() > kTask;
#pragma omp task shared(left) if (parallel)
    order(std::move(left), left_id, out);
#pragma omp task shared(right) if (parallel)
    order(std::move(right), right_id, out_right);
#pragma omp taskwait
  }
};

}  // namespace

std::vector<int> geometric_nested_dissection(const ContinuumOperator& op, const std::vector<int>& equation,
                                             int equations, int threads) {
  const StructureSystem& sys = op.system();
  const SolidMesh& sm = sys.solid;
  const int nn = sys.num_nodes;
  std::vector<int> active;
  for (int n = 0; n < nn; ++n) {
    bool has = false;
    for (int c = 0; c < 3; ++c) has = has || equation[3 * static_cast<std::size_t>(n) + static_cast<std::size_t>(c)] >= 0;
    if (has) active.push_back(n);
  }
  Dissection d;
  d.xyz[0] = &sys.x0;
  d.xyz[1] = &sys.y0;
  d.xyz[2] = &sys.z0;
  // Element of each connectivity slot, then node -> neighbour lists (sorted, unique).
  std::vector<int> slot_element(sm.conn.size());
  for (int e = 0; e < sm.num_elements; ++e) {
    const int n = op.element_size(e) / 3;
    const std::size_t first = static_cast<std::size_t>(sm.conn_start(e));
    for (int a = 0; a < n; ++a) slot_element[first + static_cast<std::size_t>(a)] = e;
  }
  const int nt = threads > 0 ? threads : omp_get_max_threads();
  d.adj_ptr.assign(static_cast<std::size_t>(nn) + 1, 0);
  std::vector<std::vector<int>> lists(static_cast<std::size_t>(nn));
#pragma omp parallel for num_threads(nt) schedule(dynamic, 4096)
  for (int n = 0; n < nn; ++n) {
    std::vector<int>& l = lists[static_cast<std::size_t>(n)];
    for (int k = sm.node_slot_ptr[static_cast<std::size_t>(n)]; k < sm.node_slot_ptr[static_cast<std::size_t>(n) + 1]; ++k) {
      const int e = slot_element[static_cast<std::size_t>(sm.node_slots[static_cast<std::size_t>(k)])];
      const int* c = &sm.conn[static_cast<std::size_t>(sm.conn_start(e))];
      for (int a = 0; a < op.element_size(e) / 3; ++a)
        if (c[a] != n) l.push_back(c[a]);
    }
    std::sort(l.begin(), l.end());
    l.erase(std::unique(l.begin(), l.end()), l.end());
    d.adj_ptr[static_cast<std::size_t>(n) + 1] = static_cast<std::int64_t>(l.size());
  }
  for (int n = 0; n < nn; ++n) d.adj_ptr[static_cast<std::size_t>(n) + 1] += d.adj_ptr[static_cast<std::size_t>(n)];
  d.adj.resize(static_cast<std::size_t>(d.adj_ptr.back()));
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int n = 0; n < nn; ++n) {
    std::copy(lists[static_cast<std::size_t>(n)].begin(), lists[static_cast<std::size_t>(n)].end(),
              d.adj.begin() + d.adj_ptr[static_cast<std::size_t>(n)]);
    std::vector<int>().swap(lists[static_cast<std::size_t>(n)]);
  }
  d.part.assign(static_cast<std::size_t>(nn), 0);
  d.side.assign(static_cast<std::size_t>(nn), 0);
  for (int n : active) d.part[static_cast<std::size_t>(n)] = 1;
  d.next_id = 2;
  std::vector<int> node_order(active.size());
#pragma omp parallel num_threads(nt)
#pragma omp single
  d.order(active, 1, node_order.data());
  std::vector<int> order;
  order.reserve(static_cast<std::size_t>(equations));
  for (int n : node_order)
    for (int c = 0; c < 3; ++c) {
      const int eq = equation[3 * static_cast<std::size_t>(n) + static_cast<std::size_t>(c)];
      if (eq >= 0) order.push_back(eq);
    }
  return order;
}

}  // namespace halfstep
