// Penalty contact with Coulomb friction, node to facet, as host/device functions (issue 17;
// docs/theory.md, "Contact"). Each increment: a broad phase puts every master facet in the
// bucket of a spatial hash of its box centre (ContactGrid, in contact_grid.hpp), a narrow
// phase finds for every slave record the facet it penetrates least (ContactNodeBody, one
// record per call: the CPU runs it with forall_sum, the GPU one thread per record), and the
// records' forces are added to the nodes (the slave's force and its reaction spread over the
// facet's corners). The forces act at t^n like internal forces: they do no external work;
// their stored energy and the frictional dissipation enter the energy balance on their own.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/host_device.hpp"
#include "core/vec3.hpp"
#include "discretization/analytic_surface.hpp"
#include "discretization/contact.hpp"  // kContactHistory
#include "dynamics/contact_grid.hpp"
#include "dynamics/contact_law.hpp"
#include "dynamics/contact_touch.hpp"

namespace halfstep {

/// What the contact pass reads and writes (raw pointers; the backend owns the memory).
template <class T>
struct ContactView {
  const T *x0, *y0, *z0;      ///< reference coordinates
  const T *ux, *uy, *uz;      ///< displacements at t^n
  const T* v[3];              ///< half-step velocities v^(n-1/2)
  const T* mass;              ///< lumped nodal masses
  int num_slaves;
  const int* facet_nodes;     ///< 4 per facet (-1: triangle)
  const int* facet_pair;
  const T* facet_offset;
  const T* facet_depth;
  const std::uint8_t* facet_two_sided;
  const int* slave_node;
  const int* slave_pair;
  const T* slave_offset;
  const T* spring_mass;          ///< per record: the mass its penalty spring is scaled by
  const int* slave_facet_ptr;    ///< per record: its own facets (CSR), whose normals it faces along
  const int* slave_facet_nodes;  ///< 4 corners per own facet (-1: triangle)
  const T *mu_static, *mu_kinetic, *decay;  ///< per definition
  const std::uint8_t* self;
  const std::uint8_t* mirrored;  ///< per definition (ContactSystem::mirrored)
  /// Per node, or null: held translation bits (the step's) and those a rigid body moves; a
  /// slave with all three prescribed takes no contact of a mirrored definition.
  const std::uint8_t *held, *body_skip;
  T penalty;                  ///< penalty_scale x kContactPenaltyFraction / dt^2 (per unit of the spring's mass)
  T dt_prev;                  ///< t^n - t^(n-1): the slip of v^(n-1/2)
  ContactGrid<T> grid;
  T* shear_history;           ///< kContactHistory per record (written on commit)
  T* force;                   ///< 6 per record out: normal force, friction force on the slave
  int* facet_of;              ///< per record out: the facet touched, -1 for none
  T* weight;                  ///< 4 per record out: the touch point's weights on the facet's corners
  bool commit;                ///< advance the friction history (false: an output sample)
  /// Rigid analytical masters (a touch on surface s is stored as facet num_facets + s).
  AnalyticView<T> analytic;
  /// Per record (CSR; null: none), the nodes sharing an element with its node in a
  /// self-contact definition: facets holding one of them are skipped.
  const int* near_ptr = nullptr;
  const int* near_nodes = nullptr;
  /// kFacetGeom per facet at t^n (facet_geometry, written by the broad phase): each facet is
  /// a candidate of tens of slaves, so its plane is found once, not once per candidate.
  T* facet_geom = nullptr;
  /// Edge-to-edge contact (ContactSystem::edge_*; num_edges 0: none). An edge record's
  /// history follows the slave records' in shear_history.
  int num_edges = 0;
  const int* edge_nodes = nullptr;         ///< 2 per edge
  const int* edge_pair = nullptr;
  const std::uint8_t* edge_role = nullptr; ///< kEdgeRecord | kEdgeTarget
  const int* edge_facets = nullptr;        ///< 8 per edge: its two facets' corners (shells: -1)
  const T* edge_offset = nullptr;
  const T* edge_depth = nullptr;
  const T* edge_spring_mass = nullptr;
  const int* edge_near_ptr = nullptr;      ///< per edge (CSR), self-contact: nodes whose edges are skipped
  const int* edge_near_nodes = nullptr;
  ContactGrid<T> edge_grid{};              ///< every edge by the cell of its box centre
  T* edge_force = nullptr;                 ///< 3 per edge record out: the force on the record's edge
  T* edge_param = nullptr;                 ///< 2 per edge record out: closest points' parameters on both edges
  int* edge_of = nullptr;                  ///< per edge record out: the edge touched, -1 for none
  /// The definitions' pressure-overclosure laws (kind null: all hard).
  NormalLawView<T> law{};
};

/// Values per facet in ContactView::facet_geom: centre (3), unit normal of the mean plane
/// (3), warp (largest distance of a corner from that plane) and the squared radius (largest
/// squared distance of a corner from the centre; -1: a degenerate facet).
inline constexpr int kFacetGeom = 8;

/// Whether facet corners fn (4, -1: none) include one of the nodes near[0 .. count).
HS_HD bool facet_has_near_node(const int* fn, const int* near, int count) {
  for (int j = 0; j < count; ++j)
    for (int k = 0; k < 4; ++k)
      if (fn[k] == near[j]) return true;
  return false;
}

/// Position of node n at t^n.
template <class T>
HS_HD Vec3<T> contact_x(const ContactView<T>& c, int n) {
  return {c.x0[n] + c.ux[n], c.y0[n] + c.uy[n], c.z0[n] + c.uz[n]};
}

/// Facet f's values that the cheap rejection and the candidate filters read, loaded at once
/// (the narrow phase is a chain of dependent loads: loading these together, before any test,
/// takes the tests' loads off that chain).
template <class T>
struct FacetCandidate {
  int pair;
  int nodes[4];
  T geom[kFacetGeom];
  T offset, depth;
  bool two_sided;
};

/// Loads facet f's FacetCandidate.
template <class T>
HS_HD FacetCandidate<T> load_facet_candidate(const ContactView<T>& c, int f) {
  FacetCandidate<T> q;
  q.pair = c.facet_pair[f];
  for (int k = 0; k < 4; ++k) q.nodes[k] = c.facet_nodes[4 * f + k];
  for (int k = 0; k < kFacetGeom; ++k) q.geom[k] = c.facet_geom[kFacetGeom * static_cast<long long>(f) + k];
  q.offset = c.facet_offset[f];
  q.depth = c.facet_depth[f];
  q.two_sided = c.facet_two_sided[f] != 0;
  return q;
}

/// Cheap rejection before touch_facet's projections: whether p, of a slave with half
/// thickness off_s, lies in the slab within the reach of facet q's mean plane (its warp
/// added) and near enough to its centre to project into it (most broad-phase candidates
/// fail here; facet_geom holds the plane).
template <class T>
HS_HD bool facet_within_reach(const FacetCandidate<T>& q, Vec3<T> p, T off_s) {
  const T* g = q.geom;
  const T radius2 = g[7];
  if (!(radius2 >= T(0))) return false;
  const Vec3<T> centre{g[0], g[1], g[2]}, nn{g[3], g[4], g[5]};
  const T warp = g[6];
  const T reach = off_s + q.offset;
  const Vec3<T> r = p - centre;
  const T d = dot(r, nn);
  const T below = q.two_sided ? reach : q.depth;
  if (d - warp >= reach || d + warp <= -below) return false;
  // A warped facet's triangles tilt from the mean plane: their projections of p may lie up
  // to about |d| + warp farther out.
  const Vec3<T> qv = r - d * nn;
  const T out = std::sqrt(radius2) + warp + std::fabs(d);
  return !(dot(qv, qv) > out * out * T(1.0001));
}

/// facet_within_reach for facet f of c.
template <class T>
HS_HD bool facet_within_reach(const ContactView<T>& c, int f, Vec3<T> p, T off_s) {
  return facet_within_reach(load_facet_candidate(c, f), p, off_s);
}

/// Whether the point p of a slave with half thickness off_s touches facet f, and where,
/// once facet_within_reach has passed. A quadrilateral is four triangles about its centre
/// (weights 1/4 of the centre to each corner), so the contact surface is continuous and
/// every touch point has exact weights.
template <class T>
HS_HD bool touch_facet_within_reach(const ContactView<T>& c, int f, Vec3<T> p, T off_s, ContactTouch<T>& t) {
  const int* fn = c.facet_nodes + 4 * f;
  const int corners = fn[3] < 0 ? 3 : 4;
  Vec3<T> x[4];
  for (int k = 0; k < corners; ++k) x[k] = contact_x(c, fn[k]);
  T best_d = T(0);
  Vec3<T> best_n{T(0), T(0), T(0)};
  T w[4] = {T(0), T(0), T(0), T(0)};
  T best_out = T(0);
  bool found = false;
  if (corners == 3) {
    T l[3];
    if (barycentric_projection(p, x[0], x[1], x[2], best_d, best_n, l)) {
      found = true;
      best_out = projection_outside(l);
      for (int k = 0; k < 3; ++k) w[k] = l[k];
    }
  } else {
    const Vec3<T> centre = T(0.25) * (x[0] + x[1] + x[2] + x[3]);
    for (int k = 0; k < 4; ++k) {
      T d, l[3];
      Vec3<T> n;
      if (!barycentric_projection(p, x[k], x[(k + 1) % 4], centre, d, n, l)) continue;
      // The triangle that holds the projection, or the nearest one (see touch_better); among
      // those that hold it, the nearest plane.
      const T out = projection_outside(l);
      if (found && (out > T(0) || best_out > T(0) ? !(out < best_out) : !(std::fabs(d) < std::fabs(best_d)))) continue;
      found = true;
      best_d = d;
      best_n = n;
      best_out = out;
      for (int j = 0; j < 4; ++j) w[j] = T(0.25) * l[2];
      w[k] += l[0];
      w[(k + 1) % 4] += l[1];
    }
  }
  if (!found) return false;
  const T reach = off_s + c.facet_offset[f];
  if (c.facet_two_sided[f]) {
    const T side = best_d < T(0) ? T(-1) : T(1);
    if (!(std::fabs(best_d) < reach)) return false;
    t.pen = reach - std::fabs(best_d);
    t.normal = side * best_n;
  } else {
    if (!(best_d < reach && best_d > -c.facet_depth[f])) return false;
    t.pen = reach - best_d;
    t.normal = best_n;
  }
  for (int k = 0; k < 4; ++k) t.w[k] = w[k];
  t.out = best_out;
  return true;
}

/// Whether the point p of a slave with half thickness off_s touches facet f, and where.
template <class T>
HS_HD bool touch_facet(const ContactView<T>& c, int f, Vec3<T> p, T off_s, ContactTouch<T>& t) {
  return facet_within_reach(c, f, p, off_s) && touch_facet_within_reach(c, f, p, off_s, t);
}

/// The part of penetration pen that the spring of a record now touching target `best`
/// ignores (docs/theory.md, "Contact": new contacts, facet switches, jumps), from the
/// record's history hist (kContactHistory values) and allowed = twice its approach over the
/// last half step: the spring's stretch may grow by no more than that from its value at the
/// last commit (0 for a new contact); on the same target the excess kept so far is also
/// ignored while the penetration exceeds it.
template <class T>
HS_HD T contact_excess(const T* hist, int best, T pen, T allowed) {
  const bool touching = hist[3] != T(0);
  const T limit = (touching ? hist[6] : T(0)) + allowed;
  T excess = pen > limit ? pen - limit : T(0);
  if (touching && hist[5] == T(best)) {
    const T kept = hist[4] < pen ? hist[4] : pen;
    excess = kept > excess ? kept : excess;
  }
  return excess;
}

/// Coulomb friction coefficient at slip rate s (exponential decay from static to kinetic).
template <class T>
HS_HD T friction_coefficient(T mu_s, T mu_k, T dc, T s) {
  return mu_k + (mu_s - mu_k) * std::exp(-dc * s);
}

/// What one slave record's candidate search needs (ContactNodeBody::prepare): the node, its
/// position and side, and the broad-phase cell it lies in.
template <class T>
struct NodeSearch {
  int i, n, pair, surface;
  bool search;  ///< whether the facets of the 27 cells around it are candidates
  Vec3<T> p, facing;
  T facing_size, off_s;
  long long ci, cj, ck;
};

/// The contact of one slave record at t^n: the facet it penetrates least (ties: the lower
/// facet index, so the result does not depend on the bucket order), the penalty normal force
/// and the friction force (elastic stick predictor, return to the Coulomb cone), written to
/// the record's outputs. sum[0] += stored energy (normal and tangential springs), sum[1] +=
/// the frictional dissipation of the slip over [t^(n-1), t^n].
template <class T>
struct ContactNodeBody {
  ContactView<T> c;
  /// The record's search state; an analytical master's touch already in best/touch (best
  /// -1 otherwise).
  HS_HD NodeSearch<T> prepare(int i, int& best, ContactTouch<T>& touch) const {
    NodeSearch<T> s{};
    s.i = i;
    s.n = c.slave_node[i];
    s.pair = c.slave_pair[i];
    const int n = s.n, pair = s.pair;
    // A slave whose translations are all prescribed (held, driven, or a rigid body's) cannot
    // respond; where the surfaces also meet the other way, that pass carries the contact.
    // (Kept, its spring reacted on the other surface's nodes only, and a cube squeezed
    // between a held base and a driven plate in general contact rang up.)
    const unsigned prescribed = (c.held ? c.held[n] : 0u) | (c.body_skip ? c.body_skip[n] : 0u);
    const bool idle = c.mirrored[pair] && (prescribed & 7u) == 7u;
    s.p = contact_x(c, n);
    s.off_s = c.slave_offset[i];
    // The side the node faces: the sum of its own facets' unit normals (zero: any side).
    // Unit, not area, normals: at the corner of a bar of long elements the side facets'
    // areas swamped the end facet's, the node faced sideways, and the other bar's end face
    // was refused (general contact of two bars of fewer than ~16 elements never touched).
    Vec3<T> facing{T(0), T(0), T(0)};
    for (int j = c.slave_facet_ptr[i]; j < c.slave_facet_ptr[i + 1]; ++j) {
      const int* q = c.slave_facet_nodes + 4 * j;
      const Vec3<T> a = contact_x(c, q[0]), b = contact_x(c, q[1]), d = contact_x(c, q[2]);
      const Vec3<T> area = q[3] < 0 ? cross(b - a, d - a) : cross(d - a, contact_x(c, q[3]) - b);
      const T size = norm(area);
      if (size > T(0)) facing += (T(1) / size) * area;
    }
    s.facing = facing;
    s.facing_size = norm(facing);
    best = -1;
    touch = ContactTouch<T>{};
    s.surface = c.analytic.pair_surface ? c.analytic.pair_surface[pair] : -1;
    if (s.surface >= 0) {
      // A rigid analytical master: its reference node's translation moves it.
      const int r = c.analytic.ref[s.surface];
      const Vec3<T> u_ref{c.ux[r], c.uy[r], c.uz[r]};
      if (!idle && analytic_touch(c.analytic, s.surface, s.p, u_ref, s.off_s, touch.pen, touch.normal) &&
          !(dot(facing, touch.normal) > T(-0.1) * s.facing_size)) {
        best = c.analytic.num_facets + s.surface;
        touch.w[0] = T(1), touch.w[1] = touch.w[2] = touch.w[3] = T(0);
      }
    }
    s.search = !idle && s.surface < 0;
    if (s.search) {
      s.ci = contact_cell(s.p.x, c.grid.cell);
      s.cj = contact_cell(s.p.y, c.grid.cell);
      s.ck = contact_cell(s.p.z, c.grid.cell);
    }
    return s;
  }

  /// The candidates of neighbour cell q (0..26: dx fastest, then dy, dz) into best/touch.
  HS_HD void search_cell(const NodeSearch<T>& s, int q, int& best, ContactTouch<T>& touch) const {
    const ContactGrid<T>& g = c.grid;
    const int n = s.n, pair = s.pair;
    const int b = contact_bucket(s.ci + q % 3 - 1, s.cj + (q / 3) % 3 - 1, s.ck + q / 9 - 1, g.mask);
    ContactTouch<T> t{};
    for (int k = g.start[b]; k < g.start[b + 1]; ++k) {
      const int f = g.facets[k];
      const FacetCandidate<T> fq = g.candidates ? g.candidates[k] : load_facet_candidate(c, f);
      if (fq.pair != pair) continue;
      const int* fn = fq.nodes;
      if (c.self[pair] && (fn[0] == n || fn[1] == n || fn[2] == n || fn[3] == n)) continue;
      if (!facet_within_reach(fq, s.p, s.off_s)) continue;
      // Self-contact: the facets of the node's neighbours lie within a thickness of it
      // wherever the surface folds tightly (a shell's hinge): no contact there. (Tested
      // before the projections: these facets pass the cheap rejection.)
      if (c.self[pair] && c.near_ptr &&
          facet_has_near_node(fn, c.near_nodes + c.near_ptr[s.i], c.near_ptr[s.i + 1] - c.near_ptr[s.i]))
        continue;
      if (!touch_facet_within_reach(c, f, s.p, s.off_s, t)) continue;
      // The facet must face the node: not the way the node faces (a node on a bar's edge
      // lies in the other bar's side-face planes), nor across it (a node on a block's
      // bottom edge projects onto the top edge of the base's side face, "inside" it by
      // up to that face's depth): within 84 degrees of opposite.
      if (dot(s.facing, t.normal) > T(-0.1) * s.facing_size) continue;
      if (!touch_better(t, f, touch, best)) continue;
      best = f;
      touch = t;
    }
  }

  HS_HD void operator()(int i, double* sum) const {
    int best;
    ContactTouch<T> touch;
    const NodeSearch<T> s = prepare(i, best, touch);
    if (s.search)
      for (int q = 0; q < 27; ++q) search_cell(s, q, best, touch);
    finish(i, s, best, touch, sum);
  }

  /// The record's forces and history from the touch found (best < 0: none).
  HS_HD void finish(int i, const NodeSearch<T>& s, int best, const ContactTouch<T>& touch, double* sum) const {
    const int n = s.n, pair = s.pair, surface = s.surface;
    T* out = c.force + 6 * static_cast<long long>(i);
    T* hist = c.shear_history + kContactHistory * static_cast<long long>(i);
    c.facet_of[i] = best;
    if (best < 0) {
      for (int k = 0; k < 6; ++k) out[k] = T(0);
      for (int k = 0; k < 4; ++k) c.weight[4 * static_cast<long long>(i) + k] = T(0);
      if (c.commit)
        for (int k = 0; k < kContactHistory; ++k) hist[k] = T(0);
      return;
    }
    // The record's spring is fixed (docs/theory.md, "Contact"): one that changed with the
    // facet touched would not be conservative.
    Vec3<T> v_master{T(0), T(0), T(0)};
    if (surface >= 0) {
      const int r = c.analytic.ref[surface];
      v_master = Vec3<T>{c.v[0][r], c.v[1][r], c.v[2][r]};
    } else {
      const int* fn = c.facet_nodes + 4 * best;
      for (int k = 0; k < 4; ++k)
        if (fn[k] >= 0) v_master += touch.w[k] * Vec3<T>{c.v[0][fn[k]], c.v[1][fn[k]], c.v[2][fn[k]]};
    }
    const T k = c.penalty * c.spring_mass[i];
    const Vec3<T> nrm = touch.normal;
    const Vec3<T> v_rel = Vec3<T>{c.v[0][n], c.v[1][n], c.v[2][n]} - v_master;
    // A contact that starts deeper than the last half-step's approach along the normal can
    // explain came in from the side: a node of a fold slipping past a shell's free edge into
    // its thickness, or an initial overclosure. Its spring counts only further penetration
    // (the excess is kept while the contact lasts, and shrinks when the node backs out), so
    // it stores no energy it was not given; at full depth it held up to twice the crush's
    // work in a crushed tube. A record that moves on to another facet keeps its spring's
    // stretch the same way: the new facet's penetration beyond the old stretch and the
    // approach is excess (a node between the layers of a fold going from one to the other
    // and back raised its spring from nothing to 13 kJ in one increment). docs/theory.md,
    // "Contact".
    // A softened law is the deck's physics at every overclosure, its first touch included:
    // its spring takes all of it.
    const T approach = -dot(v_rel, nrm) * c.dt_prev;
    const T allowed = T(2) * (approach > T(0) ? approach : T(0));
    const T excess = softened_contact(c.law, pair) ? T(0) : contact_excess(hist, best, touch.pen, allowed);
    if (c.commit) hist[3] = T(1), hist[4] = excess, hist[5] = T(best), hist[6] = touch.pen - excess;
    const T pen = touch.pen - excess;
    T stored;
    const T fnorm = normal_contact_force(c.law, pair, i, pen, k, stored);
    // Friction: the slip of the last half-step velocities, in the tangent plane.
    const Vec3<T> v_t = v_rel - dot(v_rel, nrm) * nrm;
    Vec3<T> ft{hist[0], hist[1], hist[2]};
    ft = ft - dot(ft, nrm) * nrm;
    T dissipated = T(0);
    const T mu_s = c.mu_static[pair];
    if (mu_s > T(0) && k > T(0)) {
      const Vec3<T> trial = ft - (k * c.dt_prev) * v_t;
      const T mu = friction_coefficient(mu_s, c.mu_kinetic[pair], c.decay[pair], norm(v_t));
      const T limit = mu * fnorm;
      const T size = norm(trial);
      if (size > limit) {
        ft = size > T(0) ? (limit / size) * trial : trial;
        dissipated = limit * (size - limit) / k;
      } else {
        ft = trial;
      }
      stored += T(0.5) * dot(ft, ft) / k;
    } else {
      ft = {T(0), T(0), T(0)};
    }
    if (c.commit) hist[0] = ft.x, hist[1] = ft.y, hist[2] = ft.z;
    const Vec3<T> fn_vec = fnorm * nrm;
    out[0] = fn_vec.x, out[1] = fn_vec.y, out[2] = fn_vec.z;
    out[3] = ft.x, out[4] = ft.y, out[5] = ft.z;
    for (int j = 0; j < 4; ++j) c.weight[4 * static_cast<long long>(i) + j] = touch.w[j];
    sum[0] += static_cast<double>(stored);
    sum[1] += static_cast<double>(dissipated);
  }
};

/// Adds record i's forces to the nodal contact forces (3 per node; normal and friction
/// apart): the slave's, and their reactions on the touched facet's corners by the weights;
/// the slave's also to its definition's total (pair_total: 6 per definition; null: not
/// there, the GPU sums those per warp first).
/// add(node, component, value) performs the addition (a plain add in a serial loop, an
/// atomic one on a GPU).
template <class T, class Add>
HS_HD void scatter_contact(const ContactView<T>& c, int i, T* normal, T* shear, T* pair_total, Add add) {
  const int f = c.facet_of[i];
  if (f < 0) return;
  const T* out = c.force + 6 * static_cast<long long>(i);
  const int n = c.slave_node[i];
  if (pair_total)
    for (int k = 0; k < 6; ++k) add(pair_total, 6 * c.slave_pair[i] + k, out[k]);
  for (int d = 0; d < 3; ++d) {
    add(normal, 3 * n + d, out[d]);
    add(shear, 3 * n + d, out[3 + d]);
  }
  if (c.analytic.num > 0 && f >= c.analytic.num_facets) {  // a rigid analytical master: the reaction on its reference node
    const int r = c.analytic.ref[f - c.analytic.num_facets];
    for (int d = 0; d < 3; ++d) {
      add(normal, 3 * r + d, -out[d]);
      add(shear, 3 * r + d, -out[3 + d]);
    }
    return;
  }
  const int* fn = c.facet_nodes + 4 * f;
  for (int k = 0; k < 4; ++k) {
    if (fn[k] < 0) continue;
    const T w = c.weight[4 * static_cast<long long>(i) + k];
    for (int d = 0; d < 3; ++d) {
      add(normal, 3 * fn[k] + d, -w * out[d]);
      add(shear, 3 * fn[k] + d, -w * out[3 + d]);
    }
  }
}

/// Facet f's plane at t^n into g (kFacetGeom values; see there); returns the largest edge of
/// its box (the broad phase's cell follows it), from the same corners.
template <class T>
HS_HD T facet_geometry(const ContactView<T>& c, int f, T* g) {
  const int* fn = c.facet_nodes + 4 * f;
  const int corners = fn[3] < 0 ? 3 : 4;
  Vec3<T> x[4];
  for (int k = 0; k < corners; ++k) x[k] = contact_x(c, fn[k]);
  Vec3<T> lo = x[0], hi = x[0];
  for (int k = 1; k < corners; ++k) {
    lo = {x[k].x < lo.x ? x[k].x : lo.x, x[k].y < lo.y ? x[k].y : lo.y, x[k].z < lo.z ? x[k].z : lo.z};
    hi = {x[k].x > hi.x ? x[k].x : hi.x, x[k].y > hi.y ? x[k].y : hi.y, x[k].z > hi.z ? x[k].z : hi.z};
  }
  T extent = hi.x - lo.x;
  if (hi.y - lo.y > extent) extent = hi.y - lo.y;
  if (hi.z - lo.z > extent) extent = hi.z - lo.z;
  Vec3<T> centre = x[0] + x[1] + x[2];
  Vec3<T> nn;
  if (corners == 4) {
    centre = T(0.25) * (centre + x[3]);
    nn = cross(x[2] - x[0], x[3] - x[1]);
  } else {
    centre = (T(1) / T(3)) * centre;
    nn = cross(x[1] - x[0], x[2] - x[0]);
  }
  const T len = norm(nn);
  T warp = T(0), radius2 = T(-1);
  if (len > T(0)) {
    nn = (T(1) / len) * nn;
    radius2 = T(0);
    for (int k = 0; k < corners; ++k) {
      const Vec3<T> r = x[k] - centre;
      const T h = std::fabs(dot(r, nn));
      warp = h > warp ? h : warp;
      radius2 = dot(r, r) > radius2 ? dot(r, r) : radius2;
    }
  }
  g[0] = centre.x, g[1] = centre.y, g[2] = centre.z;
  g[3] = nn.x, g[4] = nn.y, g[5] = nn.z;
  g[6] = warp, g[7] = radius2;
  return extent;
}

/// Lowest and highest coordinates of facet f's corners at t^n.
template <class T>
HS_HD void facet_box(const ContactView<T>& c, int f, Vec3<T>& lo, Vec3<T>& hi) {
  const int* fn = c.facet_nodes + 4 * f;
  lo = hi = contact_x(c, fn[0]);
  for (int k = 1; k < 4; ++k) {
    if (fn[k] < 0) continue;
    const Vec3<T> x = contact_x(c, fn[k]);
    lo = {x.x < lo.x ? x.x : lo.x, x.y < lo.y ? x.y : lo.y, x.z < lo.z ? x.z : lo.z};
    hi = {x.x > hi.x ? x.x : hi.x, x.y > hi.y ? x.y : hi.y, x.z > hi.z ? x.z : hi.z};
  }
}

/// Bucket of facet f: the cell of its box centre.
template <class T>
HS_HD int facet_bucket(const ContactView<T>& c, int f, T cell, int mask) {
  Vec3<T> lo, hi;
  facet_box(c, f, lo, hi);
  return contact_bucket(contact_cell(T(0.5) * (lo.x + hi.x), cell), contact_cell(T(0.5) * (lo.y + hi.y), cell),
                        contact_cell(T(0.5) * (lo.z + hi.z), cell), mask);
}

// ---------------------------------------------------------------------------------------
// Edge-to-edge contact (docs/theory.md, "Contact", edges): two feature edges that cross
// without a node entering a facet (bars laid crosswise, edge onto edge).

/// Outward direction of edge e at t^n: the sum of its two facets' unit outward normals (zero
/// for a shell's perimeter edge, which touches from any side).
template <class T>
HS_HD Vec3<T> edge_outward(const ContactView<T>& c, int e) {
  Vec3<T> out{T(0), T(0), T(0)};
  for (int f = 0; f < 2; ++f) {
    const int* q = c.edge_facets + 8 * static_cast<long long>(e) + 4 * f;
    if (q[0] < 0) continue;
    const Vec3<T> a = contact_x(c, q[0]), b = contact_x(c, q[1]), d = contact_x(c, q[2]);
    const Vec3<T> n = q[3] < 0 ? cross(b - a, d - a) : cross(d - a, contact_x(c, q[3]) - b);
    const T len = norm(n);
    if (len > T(0)) out += (T(1) / len) * n;
  }
  return out;
}

/// Closest points of segments a0 + s (a1 - a0) and b0 + t (b1 - b0) when both lie inside
/// their segments: s, t in (end, 1 - end), and the unit common normal n = (a1 - a0) x (b1 -
/// b0) / |..| with the signed distance g = (x_a(s) - x_b(t)) . n. False for nearly parallel
/// segments (sine of their angle below 0.1: node-to-facet contact covers them) or closest
/// points at or beyond an end (a node there is the contact).
template <class T>
HS_HD bool segment_closest_points(Vec3<T> a0, Vec3<T> a1, Vec3<T> b0, Vec3<T> b1, T& s, T& t, Vec3<T>& n, T& g) {
  const Vec3<T> da = a1 - a0, db = b1 - b0, r = a0 - b0;
  const T aa = dot(da, da), ab = dot(da, db), bb = dot(db, db), ar = dot(da, r), br = dot(db, r);
  const T den = aa * bb - ab * ab;  // |da x db|^2
  if (!(den > T(0.01) * aa * bb)) return false;
  s = (ab * br - bb * ar) / den;
  t = (aa * br - ab * ar) / den;
  const T end = T(1e-3);
  if (!(s > end && s < T(1) - end && t > end && t < T(1) - end)) return false;
  n = (T(1) / std::sqrt(den)) * cross(da, db);
  g = dot(r, n);  // the same for every pair of points on the two lines: n is normal to both
  return true;
}

/// Where edge record i touches edge j: penetration (> 0), the unit normal pushing edge i out
/// of edge j's body, and the closest points' parameters s (on i), t (on j).
template <class T>
struct EdgeTouch {
  T pen;
  Vec3<T> normal;
  T s, t;
};

/// Whether edge i (outward direction out_i) touches edge j, and where. The common normal is
/// turned out of j's body and into i's (their outward directions; two shell edges: from j
/// to i); solid edges must face it within 84 degrees, or the touch is a facet's.
template <class T>
HS_HD bool touch_edge(const ContactView<T>& c, int i, Vec3<T> out_i, int j, EdgeTouch<T>& t) {
  const int* a = c.edge_nodes + 2 * static_cast<long long>(i);
  const int* b = c.edge_nodes + 2 * static_cast<long long>(j);
  T s, u, g;
  Vec3<T> n;
  if (!segment_closest_points(contact_x(c, a[0]), contact_x(c, a[1]), contact_x(c, b[0]), contact_x(c, b[1]), s, u, n, g))
    return false;
  // Deeper than the smaller solid edge's depth: the edges passed each other long ago, or
  // lie on opposite sides of a body. (|g| beyond the offsets and that depth: no touch
  // either way; most candidates end here, before the target's facet normals.)
  const T off = c.edge_offset[i] + c.edge_offset[j];
  T depth = T(0);
  bool solid = false;
  for (int k = 0; k < 2; ++k) {
    const int e = k == 0 ? i : j;
    if (c.edge_facets[8 * static_cast<long long>(e)] < 0) continue;
    depth = solid && depth < c.edge_depth[e] ? depth : c.edge_depth[e];
    solid = true;
  }
  if (!(std::fabs(g) < off + depth)) return false;
  const Vec3<T> out_j = edge_outward(c, j);
  const T size_i = norm(out_i), size_j = norm(out_j);
  T side;
  if (size_i > T(0) || size_j > T(0)) {
    const T o = dot(n, out_j) - dot(n, out_i);
    side = o < T(0) ? T(-1) : T(1);
    if (size_j > T(0) && !(side * dot(n, out_j) > T(0.1) * size_j)) return false;
    if (size_i > T(0) && !(side * dot(n, out_i) < T(-0.1) * size_i)) return false;
  } else {
    side = g < T(0) ? T(-1) : T(1);
  }
  const T pen = off - side * g;
  if (!(pen > T(0))) return false;
  if (solid && !(pen < off + depth)) return false;
  t.pen = pen;
  t.normal = side * n;
  t.s = s;
  t.t = u;
  return true;
}

/// What one edge record's candidate search needs (ContactEdgeBody::prepare).
template <class T>
struct EdgeSearch {
  int i, pair, near_count;
  bool search, self;
  const int* a;     ///< the edge's two nodes
  const int* near;  ///< its element neighbours (self-contact), near_count of them
  Vec3<T> out_i;
  long long ci, cj, ck;
};

/// The edge-to-edge contact of edge record i at t^n: the target edge of its definition it
/// penetrates least (ties: the lower index), skipping edges through its nodes and, in
/// self-contact, through their element neighbours (each pair once: the higher index is the
/// target); the penalty force k pen n on edge i at its closest point, minus it on the
/// target's. Frictionless. sum[0] += the spring's energy. Initial penetration beyond what
/// the approach explains is ignored as in ContactNodeBody (history: the record's last four
/// values).
template <class T>
struct ContactEdgeBody {
  ContactView<T> c;
  /// The record's search state (search false: not a record, no candidates).
  HS_HD EdgeSearch<T> prepare(int i) const {
    EdgeSearch<T> s{};
    s.i = i;
    s.search = (c.edge_role[i] & kEdgeRecord) != 0;
    if (!s.search) return s;
    s.pair = c.edge_pair[i];
    s.self = c.self[s.pair] != 0;
    s.a = c.edge_nodes + 2 * static_cast<long long>(i);
    const Vec3<T> mid = T(0.5) * (contact_x(c, s.a[0]) + contact_x(c, s.a[1]));
    s.out_i = edge_outward(c, i);
    s.near = c.edge_near_nodes ? c.edge_near_nodes + c.edge_near_ptr[i] : nullptr;
    s.near_count = c.edge_near_nodes ? c.edge_near_ptr[i + 1] - c.edge_near_ptr[i] : 0;
    s.ci = contact_cell(mid.x, c.edge_grid.cell);
    s.cj = contact_cell(mid.y, c.edge_grid.cell);
    s.ck = contact_cell(mid.z, c.edge_grid.cell);
    return s;
  }

  /// The target edges of neighbour cell q (0..26, as ContactNodeBody) into best/touch.
  HS_HD void search_cell(const EdgeSearch<T>& s, int q, int& best, EdgeTouch<T>& touch) const {
    const ContactGrid<T>& g = c.edge_grid;
    const int* a = s.a;
    const int bk = contact_bucket(s.ci + q % 3 - 1, s.cj + (q / 3) % 3 - 1, s.ck + q / 9 - 1, g.mask);
    EdgeTouch<T> t{};
    for (int k = g.start[bk]; k < g.start[bk + 1]; ++k) {
      const int j = g.facets[k];
      if (c.edge_pair[j] != s.pair || !(c.edge_role[j] & kEdgeTarget) || (s.self && j <= s.i)) continue;
      const int* b = c.edge_nodes + 2 * static_cast<long long>(j);
      if (b[0] == a[0] || b[0] == a[1] || b[1] == a[0] || b[1] == a[1]) continue;
      bool neighbour = false;
      for (int q2 = 0; q2 < s.near_count && !neighbour; ++q2) neighbour = s.near[q2] == b[0] || s.near[q2] == b[1];
      if (neighbour) continue;
      if (!touch_edge(c, s.i, s.out_i, j, t)) continue;
      if (!contact_better(t.pen, j, touch.pen, best)) continue;
      best = j;
      touch = t;
    }
  }

  HS_HD void operator()(int i, double* sum) const {
    int best = -1;
    EdgeTouch<T> touch{};
    const EdgeSearch<T> s = prepare(i);
    if (s.search)
      for (int q = 0; q < 27; ++q) search_cell(s, q, best, touch);
    finish(i, best, touch, sum);
  }

  /// The record's force and history from the touch found (best < 0: none).
  HS_HD void finish(int i, int best, const EdgeTouch<T>& touch, double* sum) const {
    T* out = c.edge_force + 3 * static_cast<long long>(i);
    T* hist = c.shear_history + kContactHistory * (static_cast<long long>(c.num_slaves) + i);
    c.edge_of[i] = best;
    if (best < 0) {
      for (int k = 0; k < 3; ++k) out[k] = T(0);
      c.edge_param[2 * static_cast<long long>(i)] = c.edge_param[2 * static_cast<long long>(i) + 1] = T(0);
      if (c.commit) hist[3] = hist[4] = hist[5] = hist[6] = T(0);
      return;
    }
    const int* a = c.edge_nodes + 2 * static_cast<long long>(i);
    const int* b = c.edge_nodes + 2 * static_cast<long long>(best);
    const auto vel = [&](int n) { return Vec3<T>{c.v[0][n], c.v[1][n], c.v[2][n]}; };
    const Vec3<T> v_rel = (T(1) - touch.s) * vel(a[0]) + touch.s * vel(a[1]) - (T(1) - touch.t) * vel(b[0]) - touch.t * vel(b[1]);
    // As ContactNodeBody: a new touch counts what the approach explains, one that moves on
    // to another edge keeps its spring's stretch.
    const T approach = -dot(v_rel, touch.normal) * c.dt_prev;
    const T allowed = T(2) * (approach > T(0) ? approach : T(0));
    const T excess = contact_excess(hist, best, touch.pen, allowed);
    if (c.commit) hist[3] = T(1), hist[4] = excess, hist[5] = T(best), hist[6] = touch.pen - excess;
    const T pen = touch.pen - excess;
    const T fnorm = c.penalty * c.edge_spring_mass[i] * pen;
    out[0] = fnorm * touch.normal.x, out[1] = fnorm * touch.normal.y, out[2] = fnorm * touch.normal.z;
    c.edge_param[2 * static_cast<long long>(i)] = touch.s;
    c.edge_param[2 * static_cast<long long>(i) + 1] = touch.t;
    sum[0] += static_cast<double>(T(0.5) * fnorm * pen);
  }
};

/// Adds edge record i's force to the nodal normal contact forces: on its edge's nodes by the
/// closest point's weights (1 - s, s), minus it on the touched edge's (1 - t, t), and to its
/// definition's total (pair_total, the first 3 of its 6). add as in scatter_contact.
template <class T, class Add>
HS_HD void scatter_edge_contact(const ContactView<T>& c, int i, T* normal, T* pair_total, Add add) {
  const int j = c.edge_of[i];
  if (j < 0) return;
  const T* f = c.edge_force + 3 * static_cast<long long>(i);
  const T s = c.edge_param[2 * static_cast<long long>(i)], t = c.edge_param[2 * static_cast<long long>(i) + 1];
  const int* a = c.edge_nodes + 2 * static_cast<long long>(i);
  const int* b = c.edge_nodes + 2 * static_cast<long long>(j);
  for (int d = 0; d < 3; ++d) {
    add(pair_total, 6 * c.edge_pair[i] + d, f[d]);
    add(normal, 3 * a[0] + d, (T(1) - s) * f[d]);
    add(normal, 3 * a[1] + d, s * f[d]);
    add(normal, 3 * b[0] + d, -(T(1) - t) * f[d]);
    add(normal, 3 * b[1] + d, -t * f[d]);
  }
}

/// The contact forces as entries of an ordered sum (the GPU's: it sorts the entries by
/// target, stably, and sums each target's in entry order, so the nodal forces and the
/// definitions' totals come out bit for bit the same in every run and after a restart,
/// where atomics added them in an order that varied). Slave record i has entries 6i + r: r 0
/// its node, 1..4 the touched facet's corners (an analytical master: 1 its reference node),
/// 5 its definition's total; edge record j has 6 num_slaves + 5j + r: r 0..3 the nodes of
/// both edges, 4 its definition's total. Summed in entry order, a target's entries give
/// scatter_contact's and scatter_edge_contact's serial sums exactly.
inline constexpr int kContactSlaveEntries = 6, kContactEdgeEntries = 5;

/// The number of entries of the contact pass's ordered sum.
template <class T>
HS_HD long long contact_entries(const ContactView<T>& c) {
  return kContactSlaveEntries * static_cast<long long>(c.num_slaves) + kContactEdgeEntries * static_cast<long long>(c.num_edges);
}

/// Entry e's target: node n (n < nn), definition p's total (nn + p), or `none` (an entry
/// that adds nothing: no touch, a triangle's fourth corner).
template <class T>
HS_HD int contact_entry_key(const ContactView<T>& c, long long e, int nn, int none) {
  const long long slaves = kContactSlaveEntries * static_cast<long long>(c.num_slaves);
  if (e < slaves) {
    const int i = static_cast<int>(e / kContactSlaveEntries), r = static_cast<int>(e % kContactSlaveEntries);
    const int f = c.facet_of[i];
    if (f < 0) return none;
    if (r == 0) return c.slave_node[i];
    if (r == 5) return nn + c.slave_pair[i];
    if (c.analytic.num > 0 && f >= c.analytic.num_facets) return r == 1 ? c.analytic.ref[f - c.analytic.num_facets] : none;
    const int n = c.facet_nodes[4 * static_cast<long long>(f) + r - 1];
    return n >= 0 ? n : none;
  }
  const long long k = e - slaves;
  const int i = static_cast<int>(k / kContactEdgeEntries), r = static_cast<int>(k % kContactEdgeEntries);
  const int j = c.edge_of[i];
  if (j < 0) return none;
  if (r == 4) return nn + c.edge_pair[i];
  return r < 2 ? c.edge_nodes[2 * static_cast<long long>(i) + r] : c.edge_nodes[2 * static_cast<long long>(j) + r - 2];
}

/// Entry e's 6 values (normal force 3, friction force 3; a definition's total: its 6), as
/// scatter_contact and scatter_edge_contact add them; valid where contact_entry_key is not none.
template <class T>
HS_HD void contact_entry_values(const ContactView<T>& c, long long e, T v[6]) {
  const long long slaves = kContactSlaveEntries * static_cast<long long>(c.num_slaves);
  if (e < slaves) {
    const int i = static_cast<int>(e / kContactSlaveEntries), r = static_cast<int>(e % kContactSlaveEntries);
    const T* out = c.force + 6 * static_cast<long long>(i);
    const int f = c.facet_of[i];
    if (r == 0 || r == 5) {
      for (int k = 0; k < 6; ++k) v[k] = out[k];
    } else if (c.analytic.num > 0 && f >= c.analytic.num_facets) {
      for (int k = 0; k < 6; ++k) v[k] = -out[k];
    } else {
      const T w = c.weight[4 * static_cast<long long>(i) + r - 1];
      for (int k = 0; k < 6; ++k) v[k] = -w * out[k];
    }
    return;
  }
  const long long k = e - slaves;
  const int i = static_cast<int>(k / kContactEdgeEntries), r = static_cast<int>(k % kContactEdgeEntries);
  const T* f = c.edge_force + 3 * static_cast<long long>(i);
  const T s = c.edge_param[2 * static_cast<long long>(i)], t = c.edge_param[2 * static_cast<long long>(i) + 1];
  for (int d = 0; d < 3; ++d) {
    v[d] = r == 0   ? (T(1) - s) * f[d]
           : r == 1 ? s * f[d]
           : r == 2 ? -(T(1) - t) * f[d]
           : r == 3 ? -t * f[d]
                    : f[d];
    v[3 + d] = T(0);
  }
}

/// Largest edge of edge e's box at t^n (the edge broad phase's cell follows it).
template <class T>
HS_HD T edge_extent(const ContactView<T>& c, int e) {
  const Vec3<T> d = contact_x(c, c.edge_nodes[2 * static_cast<long long>(e) + 1]) - contact_x(c, c.edge_nodes[2 * static_cast<long long>(e)]);
  T x = std::fabs(d.x);
  if (std::fabs(d.y) > x) x = std::fabs(d.y);
  if (std::fabs(d.z) > x) x = std::fabs(d.z);
  return x;
}

/// Bucket of edge e: the cell of its midpoint (its box centre).
template <class T>
HS_HD int edge_bucket(const ContactView<T>& c, int e, T cell, int mask) {
  const Vec3<T> m = T(0.5) * (contact_x(c, c.edge_nodes[2 * static_cast<long long>(e)]) +
                              contact_x(c, c.edge_nodes[2 * static_cast<long long>(e) + 1]));
  return contact_bucket(contact_cell(m.x, cell), contact_cell(m.y, cell), contact_cell(m.z, cell), mask);
}

}  // namespace halfstep
