#include "parallel/subdomain.hpp"

#include <algorithm>
#include <utility>

namespace halfstep {

namespace {

/// Calls f(node) for each node of global shell e or solid e.
template <class F>
void for_shell_nodes(const StructureSystem& g, int e, F&& f) {
  for (int k = 0; k < 4; ++k) f(g.conn[4 * static_cast<std::size_t>(e) + k]);
}
template <class F>
void for_solid_nodes(const SolidMesh& sm, int e, F&& f) {
  const SolidGroup& grp = sm.groups[static_cast<std::size_t>(sm.group_of(e))];
  const std::size_t base = static_cast<std::size_t>(grp.conn_offset) +
                           static_cast<std::size_t>(e - grp.first) * static_cast<std::size_t>(grp.nodes_per_element);
  for (int k = 0; k < grp.nodes_per_element; ++k) f(sm.conn[base + static_cast<std::size_t>(k)]);
}

}  // namespace

Subdomain build_subdomain(const StructureSystem& g, const std::vector<int>& part, int rank, int ranks) {
  Subdomain d;
  d.rank = rank;
  d.ranks = ranks;
  const int nn = g.num_nodes;
  const SolidMesh& sm = g.solid;
  const auto shell_part = [&](int e) { return part[static_cast<std::size_t>(g.shell_model_element[e])]; };
  const auto solid_part = [&](int e) { return part[static_cast<std::size_t>(sm.model_element[e])]; };

  // Lowest and highest rank touching each node; shared nodes are those where they differ.
  std::vector<int> lo(nn, ranks), hi(nn, -1);
  const auto touch = [&](int n, int p) {
    lo[n] = std::min(lo[n], p);
    hi[n] = std::max(hi[n], p);
  };
  for (int e = 0; e < g.num_elements; ++e) for_shell_nodes(g, e, [&](int n) { touch(n, shell_part(e)); });
  for (int e = 0; e < sm.num_elements; ++e) for_solid_nodes(sm, e, [&](int n) { touch(n, solid_part(e)); });
  std::vector<std::pair<int, int>> sharing;  // (global node, rank) for shared nodes
  const auto add_pair = [&](int n, int p) {
    if (lo[n] != hi[n]) sharing.emplace_back(n, p);
  };
  for (int e = 0; e < g.num_elements; ++e) for_shell_nodes(g, e, [&](int n) { add_pair(n, shell_part(e)); });
  for (int e = 0; e < sm.num_elements; ++e) for_solid_nodes(sm, e, [&](int n) { add_pair(n, solid_part(e)); });
  std::sort(sharing.begin(), sharing.end());
  sharing.erase(std::unique(sharing.begin(), sharing.end()), sharing.end());

  // Local nodes: shared ones first, each group ascending in global index.
  std::vector<char> local(nn, 0);
  for (int e = 0; e < g.num_elements; ++e)
    if (shell_part(e) == rank) for_shell_nodes(g, e, [&](int n) { local[n] = 1; });
  for (int e = 0; e < sm.num_elements; ++e)
    if (solid_part(e) == rank) for_solid_nodes(sm, e, [&](int n) { local[n] = 1; });
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
  d.shell_local.assign(g.num_elements, -1);
  for (int pass = 0; pass < 2; ++pass) {
    for (int e = 0; e < g.num_elements; ++e) {
      if (shell_part(e) != rank) continue;
      bool boundary = false;
      for_shell_nodes(g, e, [&](int n) { boundary = boundary || on_interface(n); });
      if (boundary == (pass == 0)) d.shell_global.push_back(e);
    }
    if (pass == 0) d.boundary_shells = static_cast<int>(d.shell_global.size());
  }
  for (std::size_t i = 0; i < d.shell_global.size(); ++i) d.shell_local[d.shell_global[i]] = static_cast<int>(i);
  d.solid_local.assign(sm.num_elements, -1);
  for (const SolidGroup& grp : sm.groups) {
    int boundary_count = 0, count = 0;
    for (int pass = 0; pass < 2; ++pass)
      for (int e = grp.first; e < grp.first + grp.count; ++e) {
        if (solid_part(e) != rank) continue;
        bool boundary = false;
        for_solid_nodes(sm, e, [&](int n) { boundary = boundary || on_interface(n); });
        if (boundary != (pass == 0)) continue;
        d.solid_global.push_back(e);
        ++count;
        if (boundary) ++boundary_count;
      }
    if (count > 0) d.solid_boundary.push_back(boundary_count);
  }
  for (std::size_t i = 0; i < d.solid_global.size(); ++i) d.solid_local[d.solid_global[i]] = static_cast<int>(i);

  // Neighbours and, per neighbour, the shared nodes in ascending global index (both sides
  // list them in that order, so a message needs no node numbers).
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

  d.elements_per_rank.assign(ranks, 0);
  for (int p : part) ++d.elements_per_rank[static_cast<std::size_t>(p)];
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
  s.any_shells = g.any_shells;
  s.node_dofs = g.node_dofs;  // the whole model's node mode, on every rank

  s.num_elements = static_cast<int>(d.shell_global.size());
  s.sections = g.sections;
  for (int e : d.shell_global) {
    s.shell_model_element.push_back(g.shell_model_element[e]);
    for (int k = 0; k < 4; ++k) s.conn.push_back(d.node_local[g.conn[4 * static_cast<std::size_t>(e) + k]]);
    s.section.push_back(g.section[e]);
    s.ref.push_back(g.ref[e]);
    s.area.push_back(g.area[e]);
    s.element_dt.push_back(g.element_dt[e]);
  }
  build_gather_map(s);
  assign_shell_points(s);

  const SolidMesh& gm = g.solid;
  SolidMesh& m = s.solid;
  m.materials = gm.materials;
  m.material_name = gm.material_name;
  m.alpha = gm.alpha;
  m.hourglass_kappa = gm.hourglass_kappa;
  m.planar = gm.planar;
  m.num_elements = static_cast<int>(d.solid_global.size());
  std::size_t next_group = 0;
  for (std::size_t i = 0; i < d.solid_global.size(); ++i) {
    const int e = d.solid_global[i];
    const SolidGroup& gg = gm.groups[static_cast<std::size_t>(gm.group_of(e))];
    if (m.groups.empty() || m.groups.back().kind != gg.kind) {
      SolidGroup ng;
      ng.kind = gg.kind;
      ng.first = static_cast<int>(i);
      ng.conn_offset = static_cast<int>(m.conn.size());
      ng.nodes_per_element = gg.nodes_per_element;
      ng.boundary = d.solid_boundary[next_group++];
      m.groups.push_back(ng);
    }
    ++m.groups.back().count;
    m.model_element.push_back(gm.model_element[e]);
    m.material.push_back(gm.material[e]);
    m.volume.push_back(gm.volume[e]);
    m.element_dt.push_back(gm.element_dt[e]);
    const std::size_t base = static_cast<std::size_t>(gg.conn_offset) +
                             static_cast<std::size_t>(e - gg.first) * static_cast<std::size_t>(gg.nodes_per_element);
    for (int k = 0; k < gg.nodes_per_element; ++k) m.conn.push_back(d.node_local[gm.conn[base + static_cast<std::size_t>(k)]]);
  }
  assign_points(m);
  // Every rank's store has the global component count (a subdomain may lack the kind that
  // needs the most): frames gather the state with the global layout.
  m.state_size = gm.state_size;
  build_node_slots(m, s.num_nodes);

  // Whole-model scalars: the increment and the energy balance are global.
  s.total_mass = g.total_mass;
  s.energy_per_unit_strain = g.energy_per_unit_strain;
  s.stable_dt = g.stable_dt;
  s.controlling_element = g.controlling_element;
  s.num_interface = d.num_interface;
  s.boundary_shells = d.boundary_shells;
  s.owned = d.owned;
  return s;
}

StructureState restrict_state(const StructureState& g, const StructureSystem& local, const Subdomain& d) {
  StructureState s;
  s.initialize(local);
  const std::vector<int>& nodes = d.node_global;
  for (auto [from, to] : {std::pair{&g.ux, &s.ux}, {&g.uy, &s.uy}, {&g.uz, &s.uz}, {&g.dx, &s.dx}, {&g.dy, &s.dy},
                          {&g.dz, &s.dz}, {&g.t1x, &s.t1x}, {&g.t1y, &s.t1y}, {&g.t1z, &s.t1z}, {&g.r1x, &s.r1x},
                          {&g.r1y, &s.r1y}, {&g.r1z, &s.r1z}})
    if (!from->empty()) *to = local_values(*from, nodes);
  for (int k = 0; k < kMaxNodeDofs; ++k) s.v[k] = local_values(g.v[k], nodes);
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
  keep_local_rows(s.pressure_elem, d.shell_local, s.pressure_amp, s.pressure_value);
  keep_local_rows(s.face_elem, d.solid_local, s.face_label, s.face_amp, s.face_value);
  keep_local_rows(s.motion_node, d.node_local, s.motion_dof, s.motion_amp, s.motion_value, s.motion_velocity);
  s.fixed_translation = local_values(g.fixed_translation, d.node_global);
  s.fixed_rotation = local_values(g.fixed_rotation, d.node_global);
  return s;
}

}  // namespace halfstep
