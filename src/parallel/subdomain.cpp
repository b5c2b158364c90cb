#include "parallel/subdomain.hpp"

#include <algorithm>
#include <utility>

#include "discretization/constraints.hpp"
#include "discretization/contact.hpp"

namespace halfstep {

namespace {

/// This rank's elements of block b, those touching a shared node first, appended to share
/// (global and local numbering); the count touching one goes to share.boundary.
template <class PartOf, class OnInterface>
void order_block(const ElementBlock& b, PartOf part_of, int rank, OnInterface on_interface, ElementShare& share) {
  int boundary = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (int e = b.first; e < b.first + b.count; ++e) {
      if (part_of(b, e) != rank) continue;
      bool touches = false;
      for_element_nodes(b, e, [&](int n) { touches = touches || on_interface(n); });
      if (touches != (pass == 0)) continue;
      share.local[static_cast<std::size_t>(e)] = static_cast<int>(share.global.size());
      share.global.push_back(e);
      if (touches) ++boundary;
    }
  share.boundary.push_back(boundary);
}

}  // namespace

namespace {

/// The interface exchange of subdomain d: its neighbours and, per neighbour, the shared nodes
/// in ascending global index (both sides list them in that order, so a message needs no node
/// numbers), and where each shared node's contributions sit in the received messages.
/// sharing: (global node, rank) of every shared node, sorted.
void build_exchange(Subdomain& d, const std::vector<std::pair<int, int>>& sharing, int rank) {
  const auto on_interface = [&](int n) { return d.node_local[n] >= 0 && d.node_local[n] < d.num_interface; };
  for (const auto& [n, p] : sharing)
    if (p != rank && on_interface(n)) d.neighbors.push_back(p);
  std::sort(d.neighbors.begin(), d.neighbors.end());
  d.neighbors.erase(std::unique(d.neighbors.begin(), d.neighbors.end()), d.neighbors.end());
  const std::size_t nb = d.neighbors.size();
  std::vector<std::vector<int>> lists(nb);
  std::vector<std::vector<std::pair<int, int>>> contributions(d.num_interface);  // (rank, neighbour or -1: own)
  std::size_t at = 0;
  for (int k = 0; k < d.num_interface; ++k) {
    const int n = d.node_global[k];
    while (at < sharing.size() && sharing[at].first < n) ++at;
    for (std::size_t s = at; s < sharing.size() && sharing[s].first == n; ++s) {
      const int p = sharing[s].second;
      if (p == rank) {
        contributions[k].emplace_back(p, -1);
        continue;
      }
      const std::size_t j = static_cast<std::size_t>(
          std::lower_bound(d.neighbors.begin(), d.neighbors.end(), p) - d.neighbors.begin());
      contributions[k].emplace_back(p, static_cast<int>(j));
      lists[j].push_back(k);
    }
  }
  d.send_ptr.assign(1, 0);
  for (const auto& l : lists) {
    d.send_nodes.insert(d.send_nodes.end(), l.begin(), l.end());
    d.send_ptr.push_back(static_cast<int>(d.send_nodes.size()));
  }
  // Position of node k in neighbour j's message: its rank in lists[j].
  d.sum_ptr.assign(1, 0);
  for (int k = 0; k < d.num_interface; ++k) {
    std::sort(contributions[k].begin(), contributions[k].end());
    for (const auto& [p, j] : contributions[k]) {
      if (j < 0) {
        d.sum_src.push_back(k);
        continue;
      }
      const auto& l = lists[static_cast<std::size_t>(j)];
      const int pos = static_cast<int>(std::lower_bound(l.begin(), l.end(), k) - l.begin());
      d.sum_src.push_back(d.num_interface + d.send_ptr[static_cast<std::size_t>(j)] + pos);
    }
    d.sum_ptr.push_back(static_cast<int>(d.sum_src.size()));
  }

}

/// Subdomain d's share of the contact system of g: every contact node, which of them and of
/// the records this rank fills, and which ranks hold each node (lo, hi: the lowest and highest
/// rank touching each node; sharing as for build_exchange).
void share_contact(Subdomain& d, const StructureSystem& g, const std::vector<int>& cnodes, const std::vector<int>& lo,
                   const std::vector<int>& hi, const std::vector<std::pair<int, int>>& sharing) {
  const int nn = g.num_nodes;
  ContactShare& c = d.contact;
  const int nc = static_cast<int>(cnodes.size());
  std::vector<int> to_contact(nn, -1);
  for (int k = 0; k < nc; ++k) to_contact[cnodes[k]] = k;
  c.node_global = cnodes;
  c.system = renumber_contact(g.contact, to_contact, nc);
  for (int k = 0; k < nc; ++k) {
    const int n = cnodes[k];
    const int l = d.node_local[n];
    c.node_local.push_back(l);
    c.fills.push_back(l >= 0 && d.owned[static_cast<std::size_t>(l)] ? 1 : 0);
    c.x0.push_back(g.x0[n]);
    c.y0.push_back(g.y0[n]);
    c.z0.push_back(g.z0[n]);
    c.mass.push_back(g.mass[n]);
  }
  for (int i = 0; i < g.contact.num_slaves; ++i)
    if (c.fills[static_cast<std::size_t>(c.system.slave_node[static_cast<std::size_t>(i)])]) c.records.push_back(i);
  // An edge record goes to the owner of the edge's first node, which holds that node but
  // not always the second (the edge's element may lie on another rank holding the node).
  for (int e = 0; e < g.contact.num_edges; ++e)
    if ((c.system.edge_role[static_cast<std::size_t>(e)] & kEdgeRecord) &&
        c.fills[static_cast<std::size_t>(c.system.edge_nodes[2 * static_cast<std::size_t>(e)])])
      c.edge_records.push_back(e);
  for (int n : cnodes) {
    if (lo[n] == hi[n]) {
      c.holders.push_back(lo[n]);
    } else {
      auto it = std::lower_bound(sharing.begin(), sharing.end(), std::pair<int, int>{n, -1});
      for (; it != sharing.end() && it->first == n; ++it) c.holders.push_back(it->second);
    }
    c.holder_ptr.push_back(static_cast<int>(c.holders.size()));
  }
}

}  // namespace

Subdomain build_subdomain(const StructureSystem& g, const std::vector<int>& part, int rank, int ranks) {
  Subdomain d;
  d.rank = rank;
  d.ranks = ranks;
  const int nn = g.num_nodes;
  const std::vector<ElementBlock> blocks = element_blocks(g);
  const auto part_of = [&](const ElementBlock& b, int e) {
    return part[static_cast<std::size_t>((*b.model_element)[static_cast<std::size_t>(e)])];
  };
  /// Calls f(node, rank) for every node of every element.
  const auto for_all_nodes = [&](auto&& f) {
    for (const ElementBlock& b : blocks)
      for (int e = b.first; e < b.first + b.count; ++e) for_element_nodes(b, e, [&](int n) { f(n, part_of(b, e)); });
  };

  // Lowest and highest rank touching each node; shared nodes are those where they differ.
  std::vector<int> lo(nn, ranks), hi(nn, -1);
  for_all_nodes([&](int n, int p) {
    lo[n] = std::min(lo[n], p);
    hi[n] = std::max(hi[n], p);
  });
  // Contact nodes no element uses (an analytical surface's reference node) go to rank 0,
  // which integrates them; the others learn their motion with the other contact nodes.
  const std::vector<int> cnodes = contact_nodes(g.contact);
  for (int n : cnodes)
    if (hi[n] < 0) lo[n] = hi[n] = 0;
  // Constraint nodes are held by every rank: each rank then has every force a constraint
  // needs (summed over the ranks in the halo exchange, in rank order) and runs the whole
  // constraint pass itself, with the same bits as the others (docs/parallel.md,
  // "Constraints across ranks").
  const std::vector<int> knodes = constraint_nodes(g.constraints, g.bodies);
  if (ranks > 1)
    for (int n : knodes) lo[n] = 0, hi[n] = ranks - 1;
  std::vector<std::pair<int, int>> sharing;  // (global node, rank) for shared nodes
  for_all_nodes([&](int n, int p) {
    if (lo[n] != hi[n]) sharing.emplace_back(n, p);
  });
  if (ranks > 1)
    for (int n : knodes)
      for (int p = 0; p < ranks; ++p) sharing.emplace_back(n, p);
  std::sort(sharing.begin(), sharing.end());
  sharing.erase(std::unique(sharing.begin(), sharing.end()), sharing.end());

  // Local nodes: shared ones first, each group ascending in global index.
  std::vector<char> local(nn, 0);
  for_all_nodes([&](int n, int p) {
    if (p == rank) local[n] = 1;
  });
  for (int n : cnodes)
    if (lo[n] == rank && hi[n] == rank) local[n] = 1;
  for (int n : knodes) local[n] = 1;
  for (int pass = 0; pass < 2; ++pass) {
    for (int n = 0; n < nn; ++n)
      if (local[n] && (lo[n] != hi[n]) == (pass == 0)) d.node_global.push_back(n);
    if (pass == 0) d.num_interface = static_cast<int>(d.node_global.size());
  }
  d.node_local.assign(nn, -1);
  for (std::size_t i = 0; i < d.node_global.size(); ++i) d.node_local[d.node_global[i]] = static_cast<int>(i);
  d.owned.resize(d.node_global.size());
  for (std::size_t i = 0; i < d.node_global.size(); ++i) d.owned[i] = lo[d.node_global[i]] == rank ? 1 : 0;

  // Local elements: those touching a shared node first (computed before the exchange).
  const auto on_interface = [&](int n) { return d.node_local[n] >= 0 && d.node_local[n] < d.num_interface; };
  for (const BlockFamily* f : block_families()) {
    ElementShare share;
    share.local.assign(static_cast<std::size_t>(f->count(g)), -1);
    for (const ElementBlock& b : blocks)
      if (b.family == f) order_block(b, part_of, rank, on_interface, share);
    d.elements.push_back(std::move(share));
  }

  build_exchange(d, sharing, rank);
  d.elements_per_rank.assign(ranks, 0);
  for (int p : part) ++d.elements_per_rank[static_cast<std::size_t>(p)];

  if (!g.contact.empty()) share_contact(d, g, cnodes, lo, hi, sharing);
  return d;
}

StructureSystem restrict_system(const StructureSystem& g, const Subdomain& d) {
  StructureSystem s;
  const std::vector<int>& nodes = d.node_global;
  s.num_nodes = static_cast<int>(nodes.size());
  s.x0 = local_values(g.x0, nodes);
  s.y0 = local_values(g.y0, nodes);
  s.z0 = local_values(g.z0, nodes);
  s.dir0x = local_values(g.dir0x, nodes);
  s.dir0y = local_values(g.dir0y, nodes);
  s.dir0z = local_values(g.dir0z, nodes);
  s.mass = local_values(g.mass, nodes);
  s.inertia = local_values(g.inertia, nodes);
  s.damp = local_values(g.damp, nodes);
  s.damp_rot = local_values(g.damp_rot, nodes);
  s.node_rotates = local_values(g.node_rotates, nodes);
  s.take_whole_model_scalars(g);  // the node mode, on every rank

  const std::vector<const BlockFamily*>& families = block_families();
  for (std::size_t f = 0; f < families.size(); ++f) families[f]->restrict_mesh(g, d.elements[f], d.node_local, s);

  s.num_interface = d.num_interface;
  s.owned = d.owned;
  s.used.reserve(nodes.size());
  for (int n : nodes) s.used.push_back(g.node_used(n) ? 1 : 0);
  s.contact = d.contact.system;
  if (!g.constraints.empty()) s.constraints = restrict_constraints(g.constraints, nodes, d.node_local);
  if (!g.bodies.empty()) s.bodies = restrict_bodies(g.bodies, nodes, d.node_local);
  return s;
}

StructureState restrict_state(const StructureState& g, const StructureSystem& whole, const StructureSystem& local,
                              const Subdomain& d) {
  StructureState s;
  s.initialize(local);
  const std::vector<int>& nodes = d.node_global;
  for (auto [from, to] : {std::pair{&g.ux, &s.ux}, {&g.uy, &s.uy}, {&g.uz, &s.uz}, {&g.dx, &s.dx}, {&g.dy, &s.dy},
                          {&g.dz, &s.dz}, {&g.t1x, &s.t1x}, {&g.t1y, &s.t1y}, {&g.t1z, &s.t1z}, {&g.r1x, &s.r1x},
                          {&g.r1y, &s.r1y}, {&g.r1z, &s.r1z}})
    if (!from->empty()) *to = local_values(*from, nodes);
  for (int k = 0; k < kMaxNodeDofs; ++k) s.v[k] = local_values(g.v[k], nodes);
  // Element state as the whole model has it now (at the start of a run, what a fresh start
  // would give; copied so that a restart from a later state would also carry it).
  const std::vector<const BlockFamily*>& families = block_families();
  for (std::size_t f = 0; f < families.size(); ++f) families[f]->restrict_state(whole, g, local, d.elements[f], s);
  if (g.body_rotation.size() == s.body_rotation.size()) s.body_rotation = g.body_rotation;  // bodies are whole on every rank
  s.time = g.time;
  s.half_dt_prev = g.half_dt_prev;
  return s;
}

namespace {

/// Keeps the rows of a table (key plus parallel columns) whose key has a local index in
/// to_local (>= 0), with the key renumbered to it.
template <class... Columns>
void keep_local_rows(std::vector<int>& key, const std::vector<int>& to_local, Columns&... columns) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < key.size(); ++i) {
    const int local = to_local[static_cast<std::size_t>(key[i])];
    if (local < 0) continue;
    key[kept] = local;
    ((columns[kept] = columns[i]), ...);
    ++kept;
  }
  key.resize(kept);
  (columns.resize(kept), ...);
}

}  // namespace

StepLoads restrict_step(const StepLoads& g, const Subdomain& d) {
  StepLoads s = g;
  keep_local_rows(s.load_node, d.node_local, s.load_dof, s.load_amp, s.load_value);
  keep_local_rows(s.spin_node, d.node_local, s.spin_from, s.spin_axis, s.spin_amp, s.spin_value);
  // A pair's other node may lie on another rank: such a row cannot be evaluated here. Rotational
  // body forces act in static steps only (explicit steps refuse them), which run whole on rank 0.
  for (int& n : s.spin_from) n = d.node_local[static_cast<std::size_t>(n)];
  // Pressure tables number the elements of the families that carry them one family after the
  // other (PressureTable::Element): so do the local ones.
  // Face loads number their family's elements.
  std::vector<int> pressure_local, face_local;
  int local_before = 0;
  const std::vector<const BlockFamily*>& families = block_families();
  for (std::size_t f = 0; f < families.size(); ++f) {
    const ElementShare& share = d.elements[f];
    if (families[f]->pressure_table == PressureTable::Face) face_local = share.local;
    if (families[f]->pressure_table != PressureTable::Element) continue;
    for (int e : share.local) pressure_local.push_back(e < 0 ? -1 : local_before + e);
    local_before += static_cast<int>(share.global.size());
  }
  keep_local_rows(s.pressure_elem, pressure_local, s.pressure_amp, s.pressure_value);
  keep_local_rows(s.face_elem, face_local, s.face_label, s.face_amp, s.face_value);
  keep_local_rows(s.thermal_elem, face_local, s.thermal_amp, s.thermal_value);  // continuum element indices too
  keep_local_rows(s.motion_node, d.node_local, s.motion_dof, s.motion_amp, s.motion_value, s.motion_velocity);
  // *TRANSFORM frames: 9 values per node, kept with the node.
  s.frame_node.clear();
  s.frame_q.clear();
  for (std::size_t i = 0; i < g.frame_node.size(); ++i) {
    const int local = d.node_local[static_cast<std::size_t>(g.frame_node[i])];
    if (local < 0) continue;
    s.frame_node.push_back(local);
    s.frame_q.insert(s.frame_q.end(), g.frame_q.begin() + 9 * static_cast<long>(i), g.frame_q.begin() + 9 * static_cast<long>(i + 1));
  }
  s.fixed_translation = local_values(g.fixed_translation, d.node_global);
  if (!g.keep_translation.empty()) s.keep_translation = local_values(g.keep_translation, d.node_global);
  s.fixed_rotation = local_values(g.fixed_rotation, d.node_global);
  return s;
}

}  // namespace halfstep
