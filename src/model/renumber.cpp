#include "model/renumber.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#if defined(_OPENMP) && defined(__GLIBCXX__)
#include <parallel/algorithm>
#endif

#include "core/first_touch.hpp"
#include "core/forall.hpp"
#include "core/permute.hpp"
#include "core/threads.hpp"

namespace halfstep {

namespace {

/// The low 21 bits of v, bit b moved to bit 3b.
std::uint64_t spread3(std::uint32_t v) {
  std::uint64_t x = v & 0x1fffffu;
  x = (x | (x << 32)) & 0x1f00000000ffffull;
  x = (x | (x << 16)) & 0x1f0000ff0000ffull;
  x = (x | (x << 8)) & 0x100f00f00f00f00full;
  x = (x | (x << 4)) & 0x10c30c30c30c30c3ull;
  x = (x | (x << 2)) & 0x1249249249249249ull;
  return x;
}

}  // namespace

// Skilling's transpose form of the Hilbert curve ("Programming the Hilbert curve", AIP Conf.
// Proc. 707, 2004): the coordinates are turned into the curve's transposed index in place,
// then their bits are interleaved, most significant first.
std::uint64_t hilbert_index(std::uint32_t x, std::uint32_t y, std::uint32_t z, int bits) {
  std::uint32_t X[3] = {x, y, z};
  // Undo the excess work of the curve's rotations: where bit b of X[i] is set, invert the
  // low bits of X[0], else exchange them with X[i]'s. Written without branches: the bits of
  // centroids in no order are random, and their mispredictions dominated locality_order (perf).
  for (int b = bits - 1; b > 0; --b) {
    const std::uint32_t p = (1u << b) - 1;
    for (int i = 0; i < 3; ++i) {
      const std::uint32_t set = 0u - ((X[i] >> b) & 1u);  // all ones where the bit is set
      const std::uint32_t t = (X[0] ^ X[i]) & p & ~set;
      X[0] ^= (p & set) | t;
      X[i] ^= t;
    }
  }
  for (int i = 1; i < 3; ++i) X[i] ^= X[i - 1];  // Gray encode
  std::uint32_t t = 0;
  for (int b = bits - 1; b > 0; --b) t ^= ((1u << b) - 1) & (0u - ((X[2] >> b) & 1u));
  for (int i = 0; i < 3; ++i) X[i] ^= t;
  // Bit b of X[0], X[1], X[2] goes to bit 3b + 2, 3b + 1, 3b of the key: each coordinate's
  // bits spread three apart by shifts and masks (a loop over the 63 bits was a third of the
  // key's cost).
  const std::uint32_t low = (1u << bits) - 1;
  return (spread3(X[0] & low) << 2) | (spread3(X[1] & low) << 1) | spread3(X[2] & low);
}

double node_index_span(const Model& model) {
  const Elements& el = model.elements;
  if (el.size() == 0) return 0;
  double sum = 0;
  for (int e = 0; e < el.size(); ++e) {
    const int* c = el.nodes_of(e);
    const int n = el.count_of(e);
    if (n == 0) continue;
    const auto mm = std::minmax_element(c, c + n);
    sum += static_cast<double>(*mm.second - *mm.first);
  }
  return sum / el.size();
}

LocalityOrder locality_order(const Model& model) {
  const Nodes& nd = model.nodes;
  const Elements& el = model.elements;
  const int nn = nd.size(), ne = el.size();
  LocalityOrder order;
  const int threads = threads_for(ne, default_threads());
  reserve_first_touched(order.element_order, static_cast<std::size_t>(ne), threads);
  order.element_order.resize(static_cast<std::size_t>(ne));
  forall(0, ne, threads, [&](int e) { order.element_order[static_cast<std::size_t>(e)] = e; });
  if (model.nurbs_patches.empty() && ne > 1) {
    // The centroids, and a bounding box with cubic cells: a thin model keeps its aspect, so
    // the curve does not run across its thickness more finely than along it.
    // On every core: each element's centroid and key are its own, min and max are exact in
    // any order, and the keys are unique (the index breaks ties), so the order does not
    // depend on the thread count.
    std::vector<double> c;
    reserve_first_touched(c, 3 * static_cast<std::size_t>(ne), threads);
    c.assign(3 * static_cast<std::size_t>(ne), 0.0);
    double lo0 = std::numeric_limits<double>::infinity(), lo1 = lo0, lo2 = lo0, hi0 = -lo0, hi1 = -lo0, hi2 = -lo0;
#pragma omp parallel for schedule(static) num_threads(threads) reduction(min : lo0, lo1, lo2) reduction(max : hi0, hi1, hi2)
    for (int e = 0; e < ne; ++e) {
      const int* conn = el.nodes_of(e);
      const int n = el.count_of(e);
      double* ce = &c[3 * static_cast<std::size_t>(e)];
      for (int k = 0; k < n; ++k) {
        const auto v = static_cast<std::size_t>(conn[k]);
        ce[0] += nd.x[v];
        ce[1] += nd.y[v];
        ce[2] += nd.z[v];
      }
      if (n > 0)
        for (int i = 0; i < 3; ++i) ce[i] /= n;
      lo0 = std::min(lo0, ce[0]), lo1 = std::min(lo1, ce[1]), lo2 = std::min(lo2, ce[2]);
      hi0 = std::max(hi0, ce[0]), hi1 = std::max(hi1, ce[1]), hi2 = std::max(hi2, ce[2]);
    }
    const double lo[3] = {lo0, lo1, lo2};
    const double extent = std::max({hi0 - lo0, hi1 - lo1, hi2 - lo2});
    constexpr int kBits = 21;
    constexpr double kCells = static_cast<double>(1u << kBits);
    const double scale = extent > 0 && std::isfinite(extent) ? (kCells - 1) / extent : 0.0;
    std::vector<std::pair<std::uint64_t, int>> keyed;
    reserve_first_touched(keyed, static_cast<std::size_t>(ne), threads);
    keyed.resize(static_cast<std::size_t>(ne));
    forall(0, ne, threads, [&](int e) {
      std::uint32_t g[3];
      for (int i = 0; i < 3; ++i) {
        const double s = (c[3 * static_cast<std::size_t>(e) + static_cast<std::size_t>(i)] - lo[i]) * scale;
        g[i] = static_cast<std::uint32_t>(std::clamp(s, 0.0, kCells - 1));
      }
      keyed[static_cast<std::size_t>(e)] = {hilbert_index(g[0], g[1], g[2], kBits), e};
    });
    // Equal keys: the deck's order (the index).
#if defined(_OPENMP) && defined(__GLIBCXX__)
    if (threads > 1) __gnu_parallel::sort(keyed.begin(), keyed.end());
    else std::sort(keyed.begin(), keyed.end());
#else
    std::sort(keyed.begin(), keyed.end());
#endif
    forall(0, ne, threads, [&](int e) { order.element_order[static_cast<std::size_t>(e)] = keyed[static_cast<std::size_t>(e)].second; });
  }
  // Nodes by first touch along the new element order, then the untouched ones.
  order.node_order.reserve(static_cast<std::size_t>(nn));
  if (threads <= 1) {
    std::vector<char> placed(static_cast<std::size_t>(nn), 0);
    for (int e : order.element_order) {
      const int* conn = el.nodes_of(e);
      for (int k = 0; k < el.count_of(e); ++k) {
        const auto v = static_cast<std::size_t>(conn[k]);
        if (!placed[v]) {
          placed[v] = 1;
          order.node_order.push_back(conn[k]);
        }
      }
    }
    for (int v = 0; v < nn; ++v)
      if (!placed[static_cast<std::size_t>(v)]) order.node_order.push_back(v);
    return order;
  }
  // On every core, the same order: a node's first touch is the least (place in the new order,
  // corner) among its touches, a minimum whatever the order the threads meet them in; a scan
  // along the new order then keeps each node where it is first touched, in static blocks
  // (each block's count, the blocks' offsets in order, then each block writes its nodes).
  int most = 0;
#pragma omp parallel for schedule(static) num_threads(threads) reduction(max : most)
  for (int e = 0; e < ne; ++e) most = std::max(most, el.count_of(e));
  const long long width = std::max(most, 1), none = std::numeric_limits<long long>::max();
  std::vector<long long> first;
  reserve_first_touched(first, static_cast<std::size_t>(nn), threads);
  first.assign(static_cast<std::size_t>(nn), none);
  forall(0, ne, threads, [&](int p) {
    const int e = order.element_order[static_cast<std::size_t>(p)];
    const int* conn = el.nodes_of(e);
    for (int k = 0; k < el.count_of(e); ++k) {
      long long* at = &first[static_cast<std::size_t>(conn[k])];
      const long long touch = p * width + k;
      long long seen = __atomic_load_n(at, __ATOMIC_RELAXED);
      while (touch < seen && !__atomic_compare_exchange_n(at, &seen, touch, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
      }
    }
  });
  const auto block = [&](int b, int& lo, int& hi) {
    lo = static_cast<int>(static_cast<long long>(ne) * b / threads);
    hi = static_cast<int>(static_cast<long long>(ne) * (b + 1) / threads);
  };
  // Visits the first touches of block b's places in order.
  const auto firsts = [&](int b, auto&& visit) {
    int lo, hi;
    block(b, lo, hi);
    for (int p = lo; p < hi; ++p) {
      const int e = order.element_order[static_cast<std::size_t>(p)];
      const int* conn = el.nodes_of(e);
      for (int k = 0; k < el.count_of(e); ++k)
        if (first[static_cast<std::size_t>(conn[k])] == p * width + k) visit(conn[k]);
    }
  };
  std::vector<int> offset(static_cast<std::size_t>(threads) + 1, 0);
#pragma omp parallel for schedule(static, 1) num_threads(threads)
  for (int b = 0; b < threads; ++b) {
    int count = 0;
    firsts(b, [&](int) { ++count; });
    offset[static_cast<std::size_t>(b) + 1] = count;
  }
  for (int b = 0; b < threads; ++b) offset[static_cast<std::size_t>(b) + 1] += offset[static_cast<std::size_t>(b)];
  order.node_order.resize(static_cast<std::size_t>(offset.back()));
#pragma omp parallel for schedule(static, 1) num_threads(threads)
  for (int b = 0; b < threads; ++b) {
    int at = offset[static_cast<std::size_t>(b)];
    firsts(b, [&](int v) { order.node_order[static_cast<std::size_t>(at++)] = v; });
  }
  for (int v = 0; v < nn; ++v)
    if (first[static_cast<std::size_t>(v)] == none) order.node_order.push_back(v);
  return order;
}

namespace {

/// new_of[old] for an order (order[new] = old), or std::invalid_argument when order is not a
/// permutation of 0..n-1.
std::vector<int> inverse(const std::vector<int>& order, int n, const char* what) {
  if (order.size() != static_cast<std::size_t>(n))
    throw std::invalid_argument(std::string("renumbering: ") + what + " order of " + std::to_string(order.size()) +
                                " entries for " + std::to_string(n));
  std::vector<int> new_of(static_cast<std::size_t>(n), -1);
  for (int k = 0; k < n; ++k) {
    const int old = order[static_cast<std::size_t>(k)];
    if (old < 0 || old >= n || new_of[static_cast<std::size_t>(old)] >= 0)
      throw std::invalid_argument(std::string("renumbering: the ") + what + " order is not a permutation");
    new_of[static_cast<std::size_t>(old)] = k;
  }
  return new_of;
}

/// v permuted into the new order: out[k] = v[order[k]] (on every core: order is a permutation,
/// checked by inverse()).
template <class T>
void permute(std::vector<T>& v, const std::vector<int>& order) {
  v = gathered(v, order, default_threads());
}

/// Every index in v mapped through new_of (negative entries, "none", kept).
void remap(std::vector<int>& v, const std::vector<int>& new_of) {
  for (int& i : v)
    if (i >= 0) i = new_of[static_cast<std::size_t>(i)];
}

/// One index mapped through new_of (negative: none, kept).
void remap(int& i, const std::vector<int>& new_of) {
  if (i >= 0) i = new_of[static_cast<std::size_t>(i)];
}

}  // namespace

void apply_order(Model& m, const LocalityOrder& order) {
  const std::vector<int> node_new = inverse(order.node_order, m.nodes.size(), "node");
  const std::vector<int> elem_new = inverse(order.element_order, m.elements.size(), "element");
  for (const NurbsPatchDef& d : m.nurbs_patches)
    for (int k = d.first_element; k < d.first_element + d.num_elements; ++k)
      if (elem_new[static_cast<std::size_t>(k)] != k)
        throw std::invalid_argument("renumbering: the elements of NURBS patch " + d.name + " must keep their indices");

  Nodes& nd = m.nodes;
  permute(nd.id, order.node_order);
  permute(nd.x, order.node_order);
  permute(nd.y, order.node_order);
  permute(nd.z, order.node_order);
  nd.loc.permute(order.node_order);
  // The label maps keep their entries (labels are unchanged); only the indices move, which
  // is much cheaper at a million entries than rebuilding the maps.
  nd.index.remap_positions(node_new);

  Elements& el = m.elements;
  // The offsets on one thread (a running sum), then each element's nodes on every core.
  const int ne = el.size();
  const int threads = threads_for(ne, default_threads());
  std::vector<int> conn_ptr;
  reserve_first_touched(conn_ptr, static_cast<std::size_t>(ne) + 1, threads);
  conn_ptr.resize(static_cast<std::size_t>(ne) + 1);
  conn_ptr[0] = 0;
  for (int k = 0; k < ne; ++k)
    conn_ptr[static_cast<std::size_t>(k) + 1] = conn_ptr[static_cast<std::size_t>(k)] + el.count_of(order.element_order[static_cast<std::size_t>(k)]);
  std::vector<int> conn;
  const auto entries = static_cast<std::size_t>(conn_ptr[static_cast<std::size_t>(ne)]);
  reserve_first_touched(conn, entries, threads);
  conn.resize(entries);
  forall(0, ne, threads, [&](int k) {
    const int old = order.element_order[static_cast<std::size_t>(k)];
    const int* c = el.nodes_of(old);
    int* to = &conn[static_cast<std::size_t>(conn_ptr[static_cast<std::size_t>(k)])];
    for (int i = 0; i < el.count_of(old); ++i) to[i] = node_new[static_cast<std::size_t>(c[i])];
  });
  el.conn = std::move(conn);
  el.conn_ptr = std::move(conn_ptr);
  permute(el.id, order.element_order);
  permute(el.kind, order.element_order);
  permute(el.section, order.element_order);
  el.abaqus_type.permute(order.element_order);
  el.loc.permute(order.element_order);
  el.index.remap_positions(elem_new);

  // Every other index the model holds; the lists keep their order (the deck's), only the
  // numbers change.
  for (auto& kv : m.nsets) remap(kv.second.members, node_new);
  for (auto& kv : m.elsets) remap(kv.second.members, elem_new);
  for (auto& kv : m.surfaces) {
    remap(kv.second.elements, elem_new);
    remap(kv.second.nodes, node_new);
  }
  for (auto& kv : m.analytical_surfaces) remap(kv.second.ref_node, node_new);
  for (Equation& q : m.equations) remap(q.nodes, node_new);
  for (ExpandedNode& x : m.expanded_nodes) {
    remap(x.node, node_new);
    remap(x.bricks, node_new);
  }
  for (NodeTransform& t : m.transforms) remap(t.nodes, node_new);
  for (RigidBody& b : m.rigid_bodies) {
    remap(b.ref_node, node_new);
    remap(b.tied, node_new);
    remap(b.pinned, node_new);
  }
  for (PointMass& p : m.point_masses) remap(p.node, node_new);
  for (PointMass& p : m.point_inertias) remap(p.node, node_new);
  for (NurbsPatchDef& d : m.nurbs_patches) remap(d.nodes, node_new);
  for (AdhesionDef& a : m.adhesions) {
    remap(a.elements, elem_new);
    remap(a.parents, elem_new);
  }
  for (InitialVelocity& v : m.initial_velocities) remap(v.nodes, node_new);
  for (InitialRotatingVelocity& v : m.initial_rotations) remap(v.nodes, node_new);
  for (TemperatureLine& t : m.initial_temperatures) remap(t.nodes, node_new);
  for (Step& s : m.steps) {
    for (TemperatureLine& t : s.temperatures) remap(t.nodes, node_new);
    for (Boundary& b : s.boundaries) remap(b.nodes, node_new);
    for (ConcentratedLoad& c : s.cloads) remap(c.nodes, node_new);
    for (DistributedLoad& d : s.dloads) remap(d.elements, elem_new);
  }
  // The deck's order follows the nodes and elements to their new places.
  Renumbering& r = m.renumbering;
  if (r.applied) {
    permute(r.node_deck, order.node_order);
    permute(r.element_deck, order.element_order);
  }
}

void renumber_for_locality(Model& model) {
  const auto t0 = std::chrono::steady_clock::now();
  Renumbering& r = model.renumbering;
  r.span_before = node_index_span(model);
  if (!r.applied) {
    r.node_deck.resize(static_cast<std::size_t>(model.nodes.size()));
    r.element_deck.resize(static_cast<std::size_t>(model.elements.size()));
    for (std::size_t v = 0; v < r.node_deck.size(); ++v) r.node_deck[v] = static_cast<int>(v);
    for (std::size_t e = 0; e < r.element_deck.size(); ++e) r.element_deck[e] = static_cast<int>(e);
    r.applied = true;
  }
  apply_order(model, locality_order(model));
  r.span_after = node_index_span(model);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace halfstep
