#include "parallel/subdomain.hpp"

#include <algorithm>
#include <utility>

#include "core/node_slots.hpp"
#include "discretization/contact.hpp"
#include "materials/j2_plane_stress.hpp"  // kJ2PlaneStateSize

namespace halfstep {

namespace {

/// The elements of one fixed-size family (shells, beams, FPM triangles): conn holds `per`
/// nodes per element, model_element maps each to the model's element index.
struct Family {
  const std::vector<int>& conn;
  int per;
  const std::vector<int>& model_element;
  int count() const { return static_cast<int>(model_element.size()); }
  /// Calls f(node) for each node of element e.
  template <class F>
  void for_nodes(int e, F&& f) const {
    for (int k = 0; k < per; ++k) f(conn[static_cast<std::size_t>(per) * static_cast<std::size_t>(e) + k]);
  }
};

/// Calls f(node) for each node of solid e.
template <class F>
void for_solid_nodes(const SolidMesh& sm, int e, F&& f) {
  const SolidGroup& grp = sm.groups[static_cast<std::size_t>(sm.group_of(e))];
  const std::size_t base = static_cast<std::size_t>(grp.conn_offset) +
                           static_cast<std::size_t>(e - grp.first) * static_cast<std::size_t>(grp.nodes_per_element);
  for (int k = 0; k < grp.nodes_per_element; ++k) f(sm.conn[base + static_cast<std::size_t>(k)]);
}

/// This rank's elements of family f, those touching a shared node first (global and local
/// numbering); returns how many touch one.
template <class Part, class OnInterface>
int order_family(const Family& f, Part part, int rank, OnInterface on_interface, std::vector<int>& global,
                 std::vector<int>& local) {
  int boundary = 0;
  local.assign(static_cast<std::size_t>(f.count()), -1);
  for (int pass = 0; pass < 2; ++pass) {
    for (int e = 0; e < f.count(); ++e) {
      if (part(f, e) != rank) continue;
      bool touches = false;
      f.for_nodes(e, [&](int n) { touches = touches || on_interface(n); });
      if (touches == (pass == 0)) global.push_back(e);
    }
    if (pass == 0) boundary = static_cast<int>(global.size());
  }
  for (std::size_t i = 0; i < global.size(); ++i) local[static_cast<std::size_t>(global[i])] = static_cast<int>(i);
  return boundary;
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
  const SolidMesh& sm = g.solid;
  const Family shells{g.shell.conn, 4, g.shell.model_element}, beams{g.beam.conn, 2, g.beam.model_element},
      tris{g.tri.conn, 3, g.tri.model_element};
  const Family* families[] = {&shells, &beams, &tris};
  const auto part_of = [&](const Family& f, int e) { return part[static_cast<std::size_t>(f.model_element[e])]; };
  const auto solid_part = [&](int e) { return part[static_cast<std::size_t>(sm.model_element[e])]; };
  /// Calls f(node, rank) for every node of every element.
  const auto for_all_nodes = [&](auto&& f) {
    for (const Family* fam : families)
      for (int e = 0; e < fam->count(); ++e) fam->for_nodes(e, [&](int n) { f(n, part_of(*fam, e)); });
    for (int e = 0; e < sm.num_elements; ++e) for_solid_nodes(sm, e, [&](int n) { f(n, solid_part(e)); });
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
  std::vector<std::pair<int, int>> sharing;  // (global node, rank) for shared nodes
  for_all_nodes([&](int n, int p) {
    if (lo[n] != hi[n]) sharing.emplace_back(n, p);
  });
  std::sort(sharing.begin(), sharing.end());
  sharing.erase(std::unique(sharing.begin(), sharing.end()), sharing.end());

  // Local nodes: shared ones first, each group ascending in global index.
  std::vector<char> local(nn, 0);
  for_all_nodes([&](int n, int p) {
    if (p == rank) local[n] = 1;
  });
  for (int n : cnodes)
    if (lo[n] == rank && hi[n] == rank) local[n] = 1;
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
  d.boundary_shells = order_family(shells, part_of, rank, on_interface, d.shell_global, d.shell_local);
  d.boundary_beams = order_family(beams, part_of, rank, on_interface, d.beam_global, d.beam_local);
  d.boundary_tris = order_family(tris, part_of, rank, on_interface, d.tri_global, d.tri_local);
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

  build_exchange(d, sharing, rank);
  d.elements_per_rank.assign(ranks, 0);
  for (int p : part) ++d.elements_per_rank[static_cast<std::size_t>(p)];

  if (!g.contact.empty()) share_contact(d, g, cnodes, lo, hi, sharing);
  return d;
}

namespace {

/// Elements [elements] of g, a mesh of a six-dof family (BeamMesh, TriMesh) with kNodes nodes
/// per element, with their nodes renumbered by node_local; the section constants and the
/// state layout (state_size) stay the whole model's. copy(m, k) appends global element k's
/// arrays of the family's own geometry.
template <int kNodes, class Mesh, class Copy>
Mesh restrict_rotating_family(const Mesh& g, const std::vector<int>& elements, const std::vector<int>& node_local,
                              int num_nodes, int boundary, Copy&& copy) {
  Mesh m;
  m.constants = g.constants;
  m.state_size = g.state_size;
  m.boundary = boundary;
  m.num_elements = static_cast<int>(elements.size());
  for (int e : elements) {
    const auto k = static_cast<std::size_t>(e);
    m.model_element.push_back(g.model_element[k]);
    for (int a = 0; a < kNodes; ++a) m.conn.push_back(node_local[static_cast<std::size_t>(g.conn[kNodes * k + a])]);
    m.section.push_back(g.section[k]);
    m.element_dt.push_back(g.element_dt[k]);
    copy(m, k);
  }
  if (m.num_elements > 0) invert_connectivity(m.conn, num_nodes, m.node_slot_ptr, m.node_slots);
  return m;
}

/// The beams of elements (restrict_rotating_family): reference length, chord and n1.
BeamMesh restrict_beams(const BeamMesh& g, const std::vector<int>& elements, const std::vector<int>& node_local,
                        int num_nodes, int boundary) {
  return restrict_rotating_family<2>(g, elements, node_local, num_nodes, boundary, [&g](BeamMesh& m, std::size_t k) {
    m.length0.push_back(g.length0[k]);
    m.chord0x.push_back(g.chord0x[k]);
    m.chord0y.push_back(g.chord0y[k]);
    m.chord0z.push_back(g.chord0z[k]);
    m.n1x.push_back(g.n1x[k]);
    m.n1y.push_back(g.n1y[k]);
    m.n1z.push_back(g.n1z[k]);
  });
}

/// The FPM triangles of elements (restrict_rotating_family): reference edges, DCS axis, area.
TriMesh restrict_tris(const TriMesh& g, const std::vector<int>& elements, const std::vector<int>& node_local,
                      int num_nodes, int boundary) {
  return restrict_rotating_family<3>(g, elements, node_local, num_nodes, boundary, [&g](TriMesh& m, std::size_t k) {
    m.edge2x.push_back(g.edge2x[k]);
    m.edge2y.push_back(g.edge2y[k]);
    m.edge2z.push_back(g.edge2z[k]);
    m.edge3x.push_back(g.edge3x[k]);
    m.edge3y.push_back(g.edge3y[k]);
    m.edge3z.push_back(g.edge3z[k]);
    m.e1x.push_back(g.e1x[k]);
    m.e1y.push_back(g.e1y[k]);
    m.e1z.push_back(g.e1z[k]);
    m.area0.push_back(g.area0[k]);
  });
}

/// Copies the state of elements (global indices, in local order) from a component-major store
/// of global stride to one of local stride; `components` values per element.
void copy_element_state(const std::vector<double>& from, std::size_t global_count, const std::vector<int>& elements,
                        int components, std::vector<double>& to) {
  const std::size_t nl = elements.size();
  to.assign(static_cast<std::size_t>(components) * nl, 0.0);
  for (int c = 0; c < components; ++c)
    for (std::size_t i = 0; i < nl; ++i)
      to[c * nl + i] = from[c * global_count + static_cast<std::size_t>(elements[i])];
}

}  // namespace

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

  s.shell.num_elements = static_cast<int>(d.shell_global.size());
  s.shell.sections = g.shell.sections;
  for (int e : d.shell_global) {
    s.shell.model_element.push_back(g.shell.model_element[e]);
    for (int k = 0; k < 4; ++k) s.shell.conn.push_back(d.node_local[g.shell.conn[4 * static_cast<std::size_t>(e) + k]]);
    s.shell.section.push_back(g.shell.section[e]);
    s.shell.ref.push_back(g.shell.ref[e]);
    s.shell.area.push_back(g.shell.area[e]);
    s.shell.element_dt.push_back(g.shell.element_dt[e]);
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
  s.beam = restrict_beams(g.beam, d.beam_global, d.node_local, s.num_nodes, d.boundary_beams);
  s.tri = restrict_tris(g.tri, d.tri_global, d.node_local, s.num_nodes, d.boundary_tris);

  // Whole-model scalars: the increment and the energy balance are global.
  s.total_mass = g.total_mass;
  s.energy_per_unit_strain = g.energy_per_unit_strain;
  s.stable_dt = g.stable_dt;
  s.controlling_element = g.controlling_element;
  s.num_interface = d.num_interface;
  s.shell.boundary = d.boundary_shells;
  s.owned = d.owned;
  s.contact = d.contact.system;
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
  copy_element_state(g.beam_state, d.beam_local.size(), d.beam_global, local.beam.state_size, s.beam_state);
  copy_element_state(g.tri_state, d.tri_local.size(), d.tri_global, local.tri.state_size, s.tri_state);
  if (!g.shell_state.empty()) {
    // Section points: local shell i's points are its global shell's, renumbered.
    const std::size_t np_whole = whole.shell.num_points, np_local = local.shell.num_points;
    for (int c = 0; c < kJ2PlaneStateSize; ++c)
      for (std::size_t i = 0; i < d.shell_global.size(); ++i) {
        const std::size_t from = whole.shell.first_point[static_cast<std::size_t>(d.shell_global[i])];
        const std::size_t count = local.shell.first_point[i + 1] - local.shell.first_point[i];
        for (std::size_t p = 0; p < count; ++p)
          s.shell_state[c * np_local + local.shell.first_point[i] + p] = g.shell_state[c * np_whole + from + p];
      }
  }
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
  // Pressure tables number shells, then FPM triangles (after the shells): so do the local ones.
  std::vector<int> pressure_local = d.shell_local;
  const int local_shells = static_cast<int>(d.shell_global.size());
  for (int t : d.tri_local) pressure_local.push_back(t < 0 ? -1 : local_shells + t);
  keep_local_rows(s.pressure_elem, pressure_local, s.pressure_amp, s.pressure_value);
  keep_local_rows(s.face_elem, d.solid_local, s.face_label, s.face_amp, s.face_value);
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
  s.fixed_rotation = local_values(g.fixed_rotation, d.node_global);
  return s;
}

}  // namespace halfstep
