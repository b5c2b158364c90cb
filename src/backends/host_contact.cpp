// The contact pass on the host: moved here from CpuBackend unchanged (same operations in the
// same order, so the CPU results keep their bits); see host_contact.hpp.
#include "backends/host_contact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/forall.hpp"
#include "dynamics/contact_pass.hpp"

namespace halfstep {
namespace {

/// Counting sort of items 0 .. key.size() into the broad phase's buckets: key[i] is item i's
/// bucket (-1: left out); start gets buckets + 1 offsets and items the item indices bucket
/// by bucket, in item order within a bucket (deterministic).
void place_in_buckets(const std::vector<int>& key, int buckets, std::vector<int>& start, std::vector<int>& items) {
  start.assign(static_cast<std::size_t>(buckets) + 1, 0);
  for (int b : key)
    if (b >= 0) ++start[static_cast<std::size_t>(b) + 1];
  for (int b = 0; b < buckets; ++b) start[b + 1] += start[b];
  items.resize(key.size());
  std::vector<int> fill(start.begin(), start.end() - 1);
  for (std::size_t i = 0; i < key.size(); ++i)
    if (key[i] >= 0) items[static_cast<std::size_t>(fill[static_cast<std::size_t>(key[i])]++)] = static_cast<int>(i);
}

}  // namespace

void HostContact::share_motion(const ContactShare& share, const HostContactNodes& in) {
  const int nc = share.num_nodes();
  const ContactSystem& cs = sys_.contact;
  const Communicator& comm = *dist_->comm;
  const int ranks = comm.size(), me = comm.rank();
  const std::uint8_t* held = in.held;
  contact_motion_.assign(6 * static_cast<std::size_t>(nc), 0.0);
  contact_known_.assign(static_cast<std::size_t>(nc), 0);
  contact_held_.assign(static_cast<std::size_t>(nc), 0);
  const double* const from[6] = {in.u[0], in.u[1], in.u[2], in.v[0], in.v[1], in.v[2]};
  for (int k = 0; k < nc; ++k) {
    const int l = share.node_local[static_cast<std::size_t>(k)];
    if (l >= 0 && held) contact_held_[static_cast<std::size_t>(k)] = held[l];  // read for this rank's slaves only
    if (!share.fills[static_cast<std::size_t>(k)]) continue;
    for (int j = 0; j < 6; ++j) contact_motion_[static_cast<std::size_t>(j) * nc + k] = from[j][l];
    contact_known_[static_cast<std::size_t>(k)] = 1;
  }
  const auto x_of = [&](int k, int d) {
    const double* x0 = d == 0 ? share.x0.data() : d == 1 ? share.y0.data() : share.z0.data();
    return x0[k] + contact_motion_[static_cast<std::size_t>(d) * nc + k];
  };
  // This rank's search box (its records' slave nodes and its edge records' first nodes,
  // which it owns) and the largest box edges of the facets and feature edges whose nodes it
  // holds (every facet and edge belongs to some rank's element): slot `me` of a sum over the
  // ranks, zeros elsewhere, gives every rank every box exactly.
  constexpr int kBox = 10;  // lowest, highest corner, largest master facet, own facet, edge, edge facet box edge
  std::vector<double> boxes(kBox * static_cast<std::size_t>(ranks), 0.0);
  double* mine = &boxes[kBox * static_cast<std::size_t>(me)];
  for (int d = 0; d < 3; ++d) mine[d] = std::numeric_limits<double>::infinity(), mine[3 + d] = -mine[d];
  const auto widen = [&](int k) {
    for (int d = 0; d < 3; ++d) {
      mine[d] = std::min(mine[d], x_of(k, d));
      mine[3 + d] = std::max(mine[3 + d], x_of(k, d));
    }
  };
  for (int i : share.records) widen(cs.slave_node[static_cast<std::size_t>(i)]);
  for (int e : share.edge_records) widen(cs.edge_nodes[2 * static_cast<std::size_t>(e)]);
  // Box edges of the facets whose corners this rank holds: the master facets (the broad
  // phase's cell follows their largest) and the slaves' own facets (they hold their slave,
  // so their corners lie within their edge of it); likewise of the feature edges (the edge
  // broad phase's cell) and of the facets orienting them.
  const double* const u_local[3] = {in.u[0], in.u[1], in.u[2]};
  const auto held_extent = [&](const int* fn, int count = 4) {
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, e = 0;
    for (int c = 0; c < count; ++c) {
      if (fn[c] < 0) continue;
      const int l = share.node_local[static_cast<std::size_t>(fn[c])];
      if (l < 0) return 0.0;  // another rank holds the whole facet
      for (int d = 0; d < 3; ++d) {
        const double* x0 = d == 0 ? share.x0.data() : d == 1 ? share.y0.data() : share.z0.data();
        const double x = x0[fn[c]] + u_local[d][l];
        lo[d] = c == 0 ? x : std::min(lo[d], x);
        hi[d] = c == 0 ? x : std::max(hi[d], x);
      }
    }
    for (int d = 0; d < 3; ++d) e = std::max(e, hi[d] - lo[d]);
    return e;
  };
  double extent = 0, own_extent = 0;
  for (int f = 0; f < cs.num_facets; ++f) extent = std::max(extent, held_extent(&cs.facet_nodes[4 * static_cast<std::size_t>(f)]));
  for (std::size_t j = 0; 4 * j < cs.slave_facet_nodes.size(); ++j)
    own_extent = std::max(own_extent, held_extent(&cs.slave_facet_nodes[4 * j]));
  double edge_extent = 0, edge_facet_extent = 0;
  for (int e = 0; e < cs.num_edges; ++e) {
    edge_extent = std::max(edge_extent, held_extent(&cs.edge_nodes[2 * static_cast<std::size_t>(e)], 2));
    for (int f = 0; f < 2; ++f)
      edge_facet_extent = std::max(edge_facet_extent, held_extent(&cs.edge_facets[8 * static_cast<std::size_t>(e) + 4 * f]));
  }
  mine[6] = extent;
  mine[7] = own_extent;
  mine[8] = edge_extent;
  mine[9] = edge_facet_extent;
  halo_->sum(boxes.data(), static_cast<int>(boxes.size()));
  contact_extent_ = 0;
  contact_edge_extent_ = 0;
  double own_max = 0, edge_facet_max = 0;
  for (int r = 0; r < ranks; ++r) {
    contact_extent_ = std::max(contact_extent_, boxes[kBox * static_cast<std::size_t>(r) + 6]);
    own_max = std::max(own_max, boxes[kBox * static_cast<std::size_t>(r) + 7]);
    contact_edge_extent_ = std::max(contact_edge_extent_, boxes[kBox * static_cast<std::size_t>(r) + 8]);
    edge_facet_max = std::max(edge_facet_max, boxes[kBox * static_cast<std::size_t>(r) + 9]);
  }
  // Ghost surfaces: to each rank, the contact nodes this rank supplies that lie within two
  // broad-phase cells of its box (every corner of a facet one of its slaves can touch lies
  // within extent + reach of the slave, docs/parallel.md) or within the largest own facet
  // (the facing test reads the slaves' own facets), and the analytical surfaces' reference
  // nodes; 7 values per node (index, u, v). With feature edges also within two edge cells,
  // an edge and an edge facet of its edge records' first nodes: every edge an edge record
  // searches (midpoint in a cell next to the record's midpoint's) has its nodes and its
  // facets' corners there, and so has the record itself.
  double margin = std::max(2 * contact_cell_edge(contact_extent_, cs.reach), 1.01 * own_max);
  if (cs.num_edges > 0)
    margin = std::max(margin, 1.01 * (2 * contact_cell_edge(contact_edge_extent_, cs.reach) + contact_edge_extent_ + edge_facet_max));
  std::vector<std::vector<double>> send(static_cast<std::size_t>(ranks));
  for (int q = 0; q < ranks; ++q) {
    if (q == me) continue;
    const double* box = &boxes[kBox * static_cast<std::size_t>(q)];
    if (!(box[0] <= box[3])) continue;  // no records there
    std::vector<double>& out = send[static_cast<std::size_t>(q)];
    const auto put = [&](int k) {
      out.push_back(static_cast<double>(k));
      for (int j = 0; j < 6; ++j) out.push_back(contact_motion_[static_cast<std::size_t>(j) * nc + k]);
    };
    for (int k = 0; k < nc; ++k) {
      if (!share.fills[static_cast<std::size_t>(k)]) continue;
      bool inside = true;
      for (int d = 0; d < 3 && inside; ++d) inside = x_of(k, d) >= box[d] - margin && x_of(k, d) <= box[3 + d] + margin;
      if (inside) put(k);
    }
    for (int k : cs.analytic_ref)
      if (share.fills[static_cast<std::size_t>(k)]) put(k);
  }
  const std::vector<std::vector<double>> recv = comm.exchange(send);
  for (int q = 0; q < ranks; ++q) {
    if (q == me) continue;
    const std::vector<double>& in = recv[static_cast<std::size_t>(q)];
    for (std::size_t at = 0; at + 7 <= in.size(); at += 7) {
      const int k = static_cast<int>(in[at]);
      for (int j = 0; j < 6; ++j) contact_motion_[static_cast<std::size_t>(j) * nc + k] = in[at + 1 + j];
      contact_known_[static_cast<std::size_t>(k)] = 1;
    }
  }
  // The facing test reads the slaves' own facets: their corners must all be here (the margin
  // covers them); a gap would be a bug in the margin, not bad input.
  for (int i : share.records)
    for (int j = 4 * cs.slave_facet_ptr[static_cast<std::size_t>(i)]; j < 4 * cs.slave_facet_ptr[static_cast<std::size_t>(i) + 1]; ++j) {
      const int k = cs.slave_facet_nodes[static_cast<std::size_t>(j)];
      if (k >= 0 && !contact_known_[static_cast<std::size_t>(k)])
        throw std::logic_error("distributed contact: a slave's own facet corner did not arrive");
    }
  // Likewise an edge record's nodes and its facets' corners.
  for (int e : share.edge_records) {
    bool known = true;
    for (int k = 0; k < 2; ++k) known = known && contact_known_[static_cast<std::size_t>(cs.edge_nodes[2 * static_cast<std::size_t>(e) + k])];
    for (int k = 0; k < 8; ++k) {
      const int n = cs.edge_facets[8 * static_cast<std::size_t>(e) + k];
      known = known && (n < 0 || contact_known_[static_cast<std::size_t>(n)]);
    }
    if (!known) throw std::logic_error("distributed contact: a node of an edge record or of its facets did not arrive");
  }
}

namespace {

/// Adds v to a[k] (the scatter's accumulation on the host: plain adds in record order).
void add_to(double* a, int k, double v) { a[k] += v; }

}  // namespace

ContactView<double> HostContact::view(const Increment& inc, bool commit, const HostContactNodes& in,
                                      const HostContactOut& out, const ContactShare* share, int& nc) {
  const ContactSystem& cs = sys_.contact;  // distributed: numbered by contact nodes (ContactShare)
  const int ns = cs.num_slaves;
  // Where the pass reads the nodes: this process's arrays, or (distributed) every contact
  // node's motion gathered from the ranks owning them.
  const double *x0 = sys_.x0.data(), *y0 = sys_.y0.data(), *z0 = sys_.z0.data(), *mass = sys_.mass.data();
  const double* u[3] = {in.u[0], in.u[1], in.u[2]};
  const double* vel[3] = {in.v[0], in.v[1], in.v[2]};
  const std::uint8_t* held = in.held;
  nc = sys_.num_nodes;
  if (share) {
    share_motion(*share, in);
    nc = share->num_nodes();
    x0 = share->x0.data(), y0 = share->y0.data(), z0 = share->z0.data(), mass = share->mass.data();
    for (int j = 0; j < 3; ++j) {
      u[j] = contact_motion_.data() + static_cast<std::size_t>(j) * nc;
      vel[j] = contact_motion_.data() + static_cast<std::size_t>(3 + j) * nc;
    }
    held = held ? contact_held_.data() : nullptr;
  }
  // The penalty follows the stable increment estimate, not the increment in use: a step's
  // shorter last increment must not stiffen the springs (their energy would jump).
  const double dt = sys_.stable_dt;
  ContactView<double> view{x0,
                        y0,
                        z0,
                        u[0],
                        u[1],
                        u[2],
                        {vel[0], vel[1], vel[2]},
                        mass,
                        ns,
                        cs.facet_nodes.data(),
                        cs.facet_pair.data(),
                        cs.facet_offset.data(),
                        cs.facet_depth.data(),
                        cs.facet_two_sided.data(),
                        cs.slave_node.data(),
                        cs.slave_pair.data(),
                        cs.slave_offset.data(),
                        cs.spring_mass.data(),
                        cs.slave_facet_ptr.data(),
                        cs.slave_facet_nodes.data(),
                        cs.mu_static.data(),
                        cs.mu_kinetic.data(),
                        cs.decay.data(),
                        cs.self.data(),
                        cs.mirrored.data(),
                        held,
                        sys_.bodies.skip.empty() ? nullptr : sys_.bodies.skip.data(),
                        dt > 0 ? cs.penalty_scale * kContactPenaltyFraction / (dt * dt) : 0.0,
                        2 * inc.h_prev,
                        {},
                        out.history,
                        nullptr,
                        nullptr,
                        nullptr,
                        commit,
                        analytic_view(cs),
                        cs.near_ptr.data(),
                        cs.near_nodes.empty() ? nullptr : cs.near_nodes.data()};
  if (cs.softened())
    view.law = {cs.law_kind.data(), cs.law_ptr.data(), cs.law_values.data(), cs.law_clearance.data(),
                cs.slave_area.data()};
  return view;
}

void HostContact::bucket_facets(ContactView<double>& c, const ContactShare* share) {
  const ContactSystem& cs = sys_.contact;
  const int nf = cs.num_facets, ns = cs.num_slaves;
  // Broad phase: facets by the cell of their box centre, in facet order within a bucket.
  // Each facet's plane once (the narrow phase's cheap rejection reads it; distributed: only
  // the searched facets' are read).
  facet_geom_.resize(static_cast<std::size_t>(kFacetGeom) * nf);
  c.facet_geom = facet_geom_.data();
  // The per-facet work (corner gathers) runs in parallel; the reductions after it are
  // plain scans in facet order (deterministic).
  facet_extent_.resize(static_cast<std::size_t>(nf));
  forall(0, nf, threads_, [&](int f) {
    facet_extent_[static_cast<std::size_t>(f)] = facet_geometry(c, f, c.facet_geom + static_cast<std::size_t>(kFacetGeom) * f);
  });
  // Distributed: the extent over all facets comes from their holders, and only the facets
  // whose corners all arrived (the ghost surface near this rank's slaves) are searched.
  double extent = share ? contact_extent_ : 0.0;
  if (!share)
    for (int f = 0; f < nf; ++f) extent = std::max(extent, facet_extent_[static_cast<std::size_t>(f)]);
  const auto searched = [&](int f) {
    if (!share) return true;
    for (int k = 0; k < 4; ++k) {
      const int n = cs.facet_nodes[4 * static_cast<std::size_t>(f) + k];
      if (n >= 0 && !contact_known_[static_cast<std::size_t>(n)]) return false;
    }
    return true;
  };
  int buckets = 1;
  while (buckets < 2 * nf) buckets *= 2;
  const double cell = contact_cell_edge(extent, cs.reach);
  facet_bucket_.resize(static_cast<std::size_t>(nf));
  forall(0, nf, threads_, [&](int f) { facet_bucket_[f] = searched(f) ? facet_bucket(c, f, cell, buckets - 1) : -1; });
  place_in_buckets(facet_bucket_, buckets, bucket_start_, bucket_facets_);
  c.grid = {cell, buckets - 1, bucket_start_.data(), bucket_facets_.data()};
  contact_force_.resize(6 * static_cast<std::size_t>(ns));
  contact_weight_.resize(4 * static_cast<std::size_t>(ns));
  contact_facet_.resize(static_cast<std::size_t>(ns));
  c.force = contact_force_.data();
  c.weight = contact_weight_.data();
  c.facet_of = contact_facet_.data();
}

void HostContact::bucket_edges(ContactView<double>& c, const ContactShare* share) {
  const ContactSystem& cs = sys_.contact;
  // Edge-to-edge contact: every edge by the cell of its midpoint, then one record per edge
  // (distributed: only the edges whose nodes and facets' corners all arrived are bucketed;
  // every edge an edge record of this rank searches is among them, and the cell follows the
  // largest edge of all ranks, so the choice is the one-process one).
  const int ne = cs.num_edges;
  if (ne == 0) return;
  {
    c.num_edges = ne;
    c.edge_nodes = cs.edge_nodes.data();
    c.edge_pair = cs.edge_pair.data();
    c.edge_role = cs.edge_role.data();
    c.edge_facets = cs.edge_facets.data();
    c.edge_offset = cs.edge_offset.data();
    c.edge_depth = cs.edge_depth.data();
    c.edge_spring_mass = cs.edge_spring_mass.data();
    c.edge_near_ptr = cs.edge_near_ptr.data();
    c.edge_near_nodes = cs.edge_near_nodes.empty() ? nullptr : cs.edge_near_nodes.data();
    double edge_len = share ? contact_edge_extent_ : 0.0;
    if (!share)
      for (int e = 0; e < ne; ++e) edge_len = std::max(edge_len, edge_extent(c, e));
    edge_searched_.assign(static_cast<std::size_t>(ne), 1);
    if (share)
      for (int e = 0; e < ne; ++e) {
        std::uint8_t known = 1;
        for (int k = 0; k < 2; ++k) known &= contact_known_[static_cast<std::size_t>(cs.edge_nodes[2 * static_cast<std::size_t>(e) + k])];
        for (int k = 0; k < 8; ++k) {
          const int n = cs.edge_facets[8 * static_cast<std::size_t>(e) + k];
          if (n >= 0) known &= contact_known_[static_cast<std::size_t>(n)];
        }
        edge_searched_[static_cast<std::size_t>(e)] = known;
      }
    int edge_buckets = 1;
    while (edge_buckets < 2 * ne) edge_buckets *= 2;
    const double edge_cell = contact_cell_edge(edge_len, cs.reach);
    edge_bucket_.resize(static_cast<std::size_t>(ne));
    for (int e = 0; e < ne; ++e)
      edge_bucket_[e] = edge_searched_[static_cast<std::size_t>(e)] ? edge_bucket(c, e, edge_cell, edge_buckets - 1) : -1;
    place_in_buckets(edge_bucket_, edge_buckets, edge_start_, edge_list_);
    c.edge_grid = {edge_cell, edge_buckets - 1, edge_start_.data(), edge_list_.data()};
    edge_force_.resize(3 * static_cast<std::size_t>(ne));
    edge_param_.resize(2 * static_cast<std::size_t>(ne));
    edge_of_.resize(static_cast<std::size_t>(ne));
    c.edge_force = edge_force_.data();
    c.edge_param = edge_param_.data();
    c.edge_of = edge_of_.data();
  }
}

std::array<double, 2> HostContact::run(const Increment& inc, bool commit, const HostContactNodes& in,
                                       const HostContactOut& out) {
  const ContactShare* share = dist_ && !dist_->domain->contact.node_global.empty() ? &dist_->domain->contact : nullptr;
  int nc = 0;
  ContactView<double> c = view(inc, commit, in, out, share, nc);
  bucket_facets(c, share);
  bucket_edges(c, share);
  if (share) return run_distributed(c, out, *share, nc);
  const ContactSystem& cs = sys_.contact;
  const std::size_t nn3 = 3 * static_cast<std::size_t>(sys_.num_nodes);
  const int ns = cs.num_slaves, ne = cs.num_edges;
  double sums[2];
  forall_sum<2>(0, ns, threads_, ContactNodeBody<double>{c}, sums);
  if (ne > 0) {
    double edge_sums[2];
    forall_sum<2>(0, ne, threads_, ContactEdgeBody<double>{c}, edge_sums);
    sums[0] += edge_sums[0];
  }
  // Nodal forces in record order: deterministic sums.
  std::fill(out.normal, out.normal + nn3, 0.0);
  std::fill(out.shear, out.shear + nn3, 0.0);
  std::fill(out.pair_force, out.pair_force + 6 * static_cast<std::size_t>(cs.num_pairs), 0.0);
  for (int i = 0; i < ns; ++i) scatter_contact(c, i, out.normal, out.shear, out.pair_force, add_to);
  for (int i = 0; i < ne; ++i) scatter_edge_contact(c, i, out.normal, out.pair_force, add_to);
  return {sums[0], sums[1]};
}

std::array<double, 2> HostContact::run_distributed(ContactView<double>& c, const HostContactOut& out,
                                                   const ContactShare& share, int nc) {
  const ContactSystem& cs = sys_.contact;
  const int nf = cs.num_facets, ne = cs.num_edges;
  // Distributed: this rank computes the records of the slave nodes it owns and the edge
  // records of the edges whose first node it owns, and sends the results of those in contact
  // (force, weights, facet; edges: force, parameters, edge) to every rank holding a node they
  // push. Each rank scatters the records it has in record order, slave records then edge
  // records, as one process does: a node gets every record that pushes it, in the same
  // order, so the same bits on every holder (docs/parallel.md, "Distributed contact").
  // The per-definition totals and the energies are summed per rank in record order, then
  // over the ranks.
  const std::vector<int>& mine = share.records;
  const int nr = static_cast<int>(mine.size());
  const Communicator& comm = *dist_->comm;
  const int ranks = comm.size(), me = comm.rank();
  const ContactNodeBody<double> body{c};
  contact_energy_.assign(2 * static_cast<std::size_t>(nr), 0.0);
  forall(0, nr, threads_, [&](int k) { body(mine[static_cast<std::size_t>(k)], &contact_energy_[2 * static_cast<std::size_t>(k)]); });
  const std::vector<int>& mine_edges = share.edge_records;
  const int ner = ne > 0 ? static_cast<int>(mine_edges.size()) : 0;
  edge_energy_.assign(static_cast<std::size_t>(ner), 0.0);
  if (ner > 0) {
    const ContactEdgeBody<double> edge_body{c};
    forall(0, ner, threads_, [&](int k) { edge_body(mine_edges[static_cast<std::size_t>(k)], &edge_energy_[static_cast<std::size_t>(k)]); });
  }
  const int np = cs.num_pairs;
  contact_reduce_.assign(6 * static_cast<std::size_t>(np) + 2, 0.0);
  double* pair = contact_reduce_.data();
  // record, force 6, weights 4, facet; an edge record: -1 - edge, force 3, parameters 2,
  // 5 unused, edge touched (one message layout, one exchange)
  constexpr int kValues = 12;
  std::vector<std::vector<double>> send(static_cast<std::size_t>(ranks));
  contact_list_.clear();
  std::vector<int> dest;
  const auto add_holders = [&](int node) {
    for (int j = share.holder_ptr[static_cast<std::size_t>(node)]; j < share.holder_ptr[static_cast<std::size_t>(node) + 1]; ++j)
      dest.push_back(share.holders[static_cast<std::size_t>(j)]);
  };
  for (int k = 0; k < nr; ++k) {
    const int i = mine[static_cast<std::size_t>(k)];
    pair[6 * np] += contact_energy_[2 * static_cast<std::size_t>(k)];
    pair[6 * np + 1] += contact_energy_[2 * static_cast<std::size_t>(k) + 1];
    const int f = contact_facet_[static_cast<std::size_t>(i)];
    if (f < 0) continue;
    const double* force = &contact_force_[6 * static_cast<std::size_t>(i)];
    for (int j = 0; j < 6; ++j) pair[6 * cs.slave_pair[static_cast<std::size_t>(i)] + j] += force[j];
    dest.clear();
    add_holders(cs.slave_node[static_cast<std::size_t>(i)]);
    if (f >= nf) {
      add_holders(cs.analytic_ref[static_cast<std::size_t>(f - nf)]);
    } else {
      for (int j = 0; j < 4; ++j)
        if (cs.facet_nodes[4 * static_cast<std::size_t>(f) + j] >= 0) add_holders(cs.facet_nodes[4 * static_cast<std::size_t>(f) + j]);
    }
    std::sort(dest.begin(), dest.end());
    dest.erase(std::unique(dest.begin(), dest.end()), dest.end());
    for (int q : dest) {
      if (q == me) {
        contact_list_.push_back(i);
        continue;
      }
      std::vector<double>& out = send[static_cast<std::size_t>(q)];
      out.push_back(static_cast<double>(i));
      out.insert(out.end(), force, force + 6);
      for (int j = 0; j < 4; ++j) out.push_back(contact_weight_[4 * static_cast<std::size_t>(i) + j]);
      out.push_back(static_cast<double>(f));
    }
  }
  edge_list_mine_.clear();
  for (int k = 0; k < ner; ++k) {
    const int e = mine_edges[static_cast<std::size_t>(k)];
    pair[6 * np] += edge_energy_[static_cast<std::size_t>(k)];
    const int j = edge_of_[static_cast<std::size_t>(e)];
    if (j < 0) continue;
    const double* force = &edge_force_[3 * static_cast<std::size_t>(e)];
    for (int d = 0; d < 3; ++d) pair[6 * cs.edge_pair[static_cast<std::size_t>(e)] + d] += force[d];
    dest.clear();
    for (int m = 0; m < 2; ++m) {
      add_holders(cs.edge_nodes[2 * static_cast<std::size_t>(e) + m]);
      add_holders(cs.edge_nodes[2 * static_cast<std::size_t>(j) + m]);
    }
    std::sort(dest.begin(), dest.end());
    dest.erase(std::unique(dest.begin(), dest.end()), dest.end());
    for (int q : dest) {
      if (q == me) {
        edge_list_mine_.push_back(e);
        continue;
      }
      std::vector<double>& out = send[static_cast<std::size_t>(q)];
      out.push_back(-1.0 - e);
      out.insert(out.end(), force, force + 3);
      out.push_back(edge_param_[2 * static_cast<std::size_t>(e)]);
      out.push_back(edge_param_[2 * static_cast<std::size_t>(e) + 1]);
      out.insert(out.end(), 5, 0.0);
      out.push_back(static_cast<double>(j));
    }
  }
  const std::vector<std::vector<double>> recv = comm.exchange(send);
  receive_records(recv, kValues);
  return scatter_records(c, out, share, nc);
}

void HostContact::receive_records(const std::vector<std::vector<double>>& recv, int values) {
  const Communicator& comm = *dist_->comm;
  const int ranks = comm.size(), me = comm.rank();
  for (int q = 0; q < ranks; ++q) {
    if (q == me) continue;
    const std::vector<double>& in = recv[static_cast<std::size_t>(q)];
    for (std::size_t at = 0; at + values <= in.size(); at += values) {
      if (in[at] < 0) {
        const int e = -1 - static_cast<int>(in[at]);
        for (int d = 0; d < 3; ++d) edge_force_[3 * static_cast<std::size_t>(e) + d] = in[at + 1 + d];
        edge_param_[2 * static_cast<std::size_t>(e)] = in[at + 4];
        edge_param_[2 * static_cast<std::size_t>(e) + 1] = in[at + 5];
        edge_of_[static_cast<std::size_t>(e)] = static_cast<int>(in[at + 11]);
        edge_list_mine_.push_back(e);
        continue;
      }
      const int i = static_cast<int>(in[at]);
      for (int j = 0; j < 6; ++j) contact_force_[6 * static_cast<std::size_t>(i) + j] = in[at + 1 + j];
      for (int j = 0; j < 4; ++j) contact_weight_[4 * static_cast<std::size_t>(i) + j] = in[at + 7 + j];
      contact_facet_[static_cast<std::size_t>(i)] = static_cast<int>(in[at + 11]);
      contact_list_.push_back(i);
    }
  }
}

std::array<double, 2> HostContact::scatter_records(ContactView<double>& c, const HostContactOut& out,
                                                   const ContactShare& share, int nc) {
  const ContactSystem& cs = sys_.contact;
  const int np = cs.num_pairs;
  const std::size_t nn3 = 3 * static_cast<std::size_t>(sys_.num_nodes);
  double* pair = contact_reduce_.data();
  std::sort(contact_list_.begin(), contact_list_.end());
  contact_node_force_.assign(6 * static_cast<std::size_t>(nc), 0.0);
  double* normal = contact_node_force_.data();
  double* shear = normal + 3 * static_cast<std::size_t>(nc);
  contact_pair_scratch_.assign(6 * static_cast<std::size_t>(np), 0.0);  // the totals come from the owners (above)
  for (int i : contact_list_) scatter_contact(c, i, normal, shear, contact_pair_scratch_.data(), add_to);
  std::sort(edge_list_mine_.begin(), edge_list_mine_.end());
  for (int e : edge_list_mine_) scatter_edge_contact(c, e, normal, contact_pair_scratch_.data(), add_to);
  std::fill(out.normal, out.normal + nn3, 0.0);
  std::fill(out.shear, out.shear + nn3, 0.0);
  for (int k = 0; k < nc; ++k) {
    const int l = share.node_local[static_cast<std::size_t>(k)];
    if (l < 0) continue;
    for (int d = 0; d < 3; ++d) {
      out.normal[3 * static_cast<std::size_t>(l) + d] = normal[3 * static_cast<std::size_t>(k) + d];
      out.shear[3 * static_cast<std::size_t>(l) + d] = shear[3 * static_cast<std::size_t>(k) + d];
    }
  }
  halo_->sum(pair, 6 * np + 2);
  std::copy(pair, pair + 6 * np, out.pair_force);
  return {pair[6 * np], pair[6 * np + 1]};
}

void HostContact::touches(const HostContactNodes& in, std::vector<int>& facet, std::vector<ContactTouch<double>>& touch) {
  if (dist_) throw std::logic_error("HostContact::touches runs in one process");
  const int ns = sys_.contact.num_slaves;
  const HostContactOut out{nullptr, nullptr, nullptr, nullptr};
  int nc = 0;
  ContactView<double> c = view(Increment{}, false, in, out, nullptr, nc);
  bucket_facets(c, nullptr);
  facet.assign(static_cast<std::size_t>(ns), -1);
  touch.assign(static_cast<std::size_t>(ns), ContactTouch<double>{});
  const ContactNodeBody<double> body{c};
  forall(0, ns, threads_, [&](int i) {
    int best;
    ContactTouch<double> t;
    const NodeSearch<double> s = body.prepare(i, best, t);
    if (s.search)
      for (int q = 0; q < 27; ++q) body.search_cell(s, q, best, t);
    facet[static_cast<std::size_t>(i)] = best;
    touch[static_cast<std::size_t>(i)] = t;
  });
}

}  // namespace halfstep
