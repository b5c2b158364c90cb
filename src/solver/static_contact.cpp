#include "solver/static_contact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>
#include <string>

#include "core/error.hpp"
#include "dynamics/contact_law.hpp"

namespace halfstep {

namespace {

/// The largest translational diagonal entry of the element matrices at ref, summed over the
/// elements at each node (per node: the stiffness a contact spring there acts against).
std::vector<double> translational_stiffness(const StructureOperator& op, const Configuration& ref) {
  std::vector<double> k;
  op.element_matrices(ref, k);
  const int ndn = op.dofs_per_node();
  std::vector<double> diag(static_cast<std::size_t>(op.num_dofs()), 0.0);
  op.for_each_matrix(k, [&](int, const int* dofs, const double* ke, int nd) {
    for (int i = 0; i < nd; ++i)
      if (dofs[i] >= 0) diag[static_cast<std::size_t>(dofs[i])] += ke[static_cast<std::size_t>(i) * nd + i];
  });
  std::vector<double> node(static_cast<std::size_t>(op.system().num_nodes), 0.0);
  for (std::size_t n = 0; n < node.size(); ++n)
    for (int c = 0; c < 3; ++c) node[n] = std::max(node[n], diag[static_cast<std::size_t>(ndn) * n + static_cast<std::size_t>(c)]);
  return node;
}

/// The nodes and weights a touch on target f pushes: a facet's corners, or an analytical
/// surface's reference node (weight 1). Returns how many.
int touch_corners(const ContactSystem& cs, int f, const ContactTouch<double>& t, int node[4], double w[4]) {
  if (f >= cs.num_facets) {
    node[0] = cs.analytic_ref[static_cast<std::size_t>(f - cs.num_facets)];
    w[0] = 1;
    return 1;
  }
  int count = 0;
  for (int k = 0; k < 4; ++k) {
    const int n = cs.facet_nodes[4 * static_cast<std::size_t>(f) + static_cast<std::size_t>(k)];
    if (n < 0) continue;
    node[count] = n;
    w[count++] = t.w[k];
  }
  return count;
}

/// The area normal of the facet with corners fn (4; a triangle's fourth -1) at positions x(n):
/// a triangle's half edge cross product, a quadrilateral's half diagonal cross product.
template <class Positions>
Vec3<double> facet_area_normal(const int* fn, const Positions& x) {
  const Vec3<double> a = fn[3] < 0 ? x(fn[1]) - x(fn[0]) : x(fn[2]) - x(fn[0]);
  const Vec3<double> b = fn[3] < 0 ? x(fn[2]) - x(fn[0]) : x(fn[3]) - x(fn[1]);
  return 0.5 * cross(a, b);
}

/// The mean edge of the contact facets at the reference (the square root of their mean area;
/// 0 without facets).
double mean_facet_size(const StructureSystem& sys) {
  const ContactSystem& cs = sys.contact;
  const auto x = [&](int n) {
    const std::size_t k = static_cast<std::size_t>(n);
    return Vec3<double>{sys.x0[k], sys.y0[k], sys.z0[k]};
  };
  double sum = 0;
  for (int f = 0; f < cs.num_facets; ++f)
    sum += norm(facet_area_normal(cs.facet_nodes.data() + 4 * static_cast<std::size_t>(f), x));
  return cs.num_facets > 0 ? std::sqrt(sum / cs.num_facets) : 0.0;
}

/// What the static search runs on: sys's nodes and contact with every slave's reach widened by
/// `touch`, so that a slave within that clearance is found (its overclosure then reads `touch`
/// more than it is).
StructureSystem widened_search(const StructureSystem& sys, double touch) {
  StructureSystem s;
  s.num_nodes = sys.num_nodes;
  s.x0 = sys.x0, s.y0 = sys.y0, s.z0 = sys.z0, s.mass = sys.mass;
  s.stable_dt = sys.stable_dt;
  s.bodies.skip = sys.bodies.skip;
  s.contact = sys.contact;
  for (double& o : s.contact.slave_offset) o += touch;
  s.contact.reach += 2 * touch;
  return s;
}

}  // namespace

StaticContact::StaticContact(const Model& model, const Step& step, const StructureSystem& sys,
                             const StructureOperator& op, const Configuration& ref, int threads)
    : sys_(sys),
      cs_(sys.contact),
      facet_size_(mean_facet_size(sys)),
      touch_tolerance_(kTouchTolerance * facet_size_),
      search_sys_(widened_search(sys, touch_tolerance_)),
      search_(search_sys_, nullptr, nullptr, threads) {
  const int ns = cs_.num_slaves;
  const std::vector<double> node_k = translational_stiffness(op, ref);
  {
    double sum_k = 0;
    int count_k = 0;
    for (double k : node_k)
      if (k > 0) sum_k += k, ++count_k;
    node_stiffness_ = count_k > 0 ? sum_k / count_k : 0.0;
  }
  penalty_.assign(static_cast<std::size_t>(ns), 0.0);
  // A definition's mean stiffness over its slave nodes that have any: for a slave without
  // elements of its own (a node surface on a reference node).
  std::vector<double> sum(static_cast<std::size_t>(cs_.num_pairs), 0.0);
  std::vector<int> count(sum.size(), 0);
  for (int i = 0; i < ns; ++i) {
    const double k = node_k[static_cast<std::size_t>(cs_.slave_node[static_cast<std::size_t>(i)])];
    if (!(k > 0)) continue;
    sum[static_cast<std::size_t>(cs_.slave_pair[static_cast<std::size_t>(i)])] += k;
    ++count[static_cast<std::size_t>(cs_.slave_pair[static_cast<std::size_t>(i)])];
  }
  for (int i = 0; i < ns; ++i) {
    const std::size_t pair = static_cast<std::size_t>(cs_.slave_pair[static_cast<std::size_t>(i)]);
    double k = node_k[static_cast<std::size_t>(cs_.slave_node[static_cast<std::size_t>(i)])];
    if (!(k > 0) && count[pair] > 0) k = sum[pair] / count[pair];
    if (!(k > 0) || !std::isfinite(k))
      throw InputError(model.contact.pairs.front().loc,
                       "static step '" + step.name + "': the slave nodes of a contact definition have no element "
                       "stiffness to scale the contact penalty by (node " +
                           std::to_string(model.nodes.id[static_cast<std::size_t>(cs_.slave_node[static_cast<std::size_t>(i)])]) + ")");
    penalty_[static_cast<std::size_t>(i)] = kStaticPenaltyFactor * cs_.penalty_scale * k;
  }
  lambda_.assign(static_cast<std::size_t>(ns), 0.0);
  force_.assign(static_cast<std::size_t>(ns), 0.0);
  // One key per (definition, master node): the corners whose facet normals a smoothed
  // normal averages.
  {
    std::map<std::pair<int, int>, int> key;
    corner_key_.assign(4 * static_cast<std::size_t>(cs_.num_facets), -1);
    for (std::size_t f = 0; f < static_cast<std::size_t>(cs_.num_facets); ++f)
      for (std::size_t k = 0; k < 4; ++k) {
        const int n = cs_.facet_nodes[4 * f + k];
        if (n < 0) continue;
        const auto it = key.emplace(std::make_pair(cs_.facet_pair[f], n), static_cast<int>(key.size())).first;
        corner_key_[4 * f + k] = it->second;
      }
    corner_normal_.assign(key.size(), Vec3<double>{0, 0, 0});
  }
  mu_ = cs_.mu_static;
  mu_.resize(static_cast<std::size_t>(cs_.num_pairs), 0.0);
  shear_.assign(3 * static_cast<std::size_t>(ns), 0.0);
  shear_start_ = shear_;
  lambda_start_ = lambda_;
  force_start_ = lambda_;
  limit_normal_ = lambda_;
  slip_work_.assign(static_cast<std::size_t>(ns), 0.0);
}

void StaticContact::resume(const std::vector<double>& history) {
  const std::size_t ns = static_cast<std::size_t>(cs_.num_slaves);
  if (history.size() < kContactHistory * ns) return;
  for (std::size_t r = 0; r < ns; ++r) {
    const double* h = history.data() + kContactHistory * r;
    if (h[3] == 0) continue;
    lambda_start_[r] = force_start_[r] = h[6] * penalty_[r];
    for (std::size_t c = 0; c < 3; ++c) shear_start_[3 * r + c] = h[c];
  }
}

void StaticContact::begin_attempt(const std::vector<double>& u_start, double dtau) {
  dtau_ = dtau;
  // A frictional record starts from its converged multiplier: from zero, its first iterate's
  // normal force is the bare penalty's, about 1e-5 of the force it carried, and the friction
  // force it held was returned onto a limit near zero (every node slipped and the iterations
  // diverged).
  for (std::size_t r = 0; r < lambda_.size(); ++r)
    lambda_[r] = mu_[static_cast<std::size_t>(cs_.slave_pair[r])] > 0 ? lambda_start_[r] : 0.0;
  limit_normal_ = force_start_;
  u_start_ = u_start;
}

void StaticContact::accepted() {
  shear_start_ = shear_;
  // A frictional record's multiplier takes its converged force (augment() passes it by), so
  // the penetration it needs shrinks increment by increment to what the last one added.
  for (std::size_t r = 0; r < lambda_.size(); ++r) {
    lambda_start_[r] = mu_[static_cast<std::size_t>(cs_.slave_pair[r])] > 0 ? std::max(force_[r], 0.0) : lambda_[r];
    force_start_[r] = std::max(force_[r], 0.0);
  }
  for (double w : slip_work_) dissipated_ += w;
}

void StaticContact::smooth_normals(const std::vector<double>& u) {
  const std::size_t nf = static_cast<std::size_t>(cs_.num_facets);
  if (nf == 0) return;
  const auto x = [&](int n) {
    const std::size_t k = static_cast<std::size_t>(n);
    return Vec3<double>{sys_.x0[k] + u[3 * k], sys_.y0[k] + u[3 * k + 1], sys_.z0[k] + u[3 * k + 2]};
  };
  // Each facet's area normal (a quadrilateral's: half the cross product of its diagonals),
  // summed at its corners per definition.
  std::fill(corner_normal_.begin(), corner_normal_.end(), Vec3<double>{0, 0, 0});
  for (std::size_t f = 0; f < nf; ++f) {
    const int* fn = cs_.facet_nodes.data() + 4 * f;
    const Vec3<double> area = facet_area_normal(fn, x);
    for (int k = 0; k < 4; ++k)
      if (fn[k] >= 0) corner_normal_[static_cast<std::size_t>(corner_key_[4 * f + static_cast<std::size_t>(k)])] += area;
  }
  for (std::size_t r = 0; r < facet_.size(); ++r) {
    const int f = facet_[r];
    if (f < 0 || f >= cs_.num_facets) continue;  // analytical targets keep their exact normal
    ContactTouch<double>& t = touch_[r];
    Vec3<double> n{0, 0, 0};
    for (int k = 0; k < 4; ++k) {
      const int key = corner_key_[4 * static_cast<std::size_t>(f) + static_cast<std::size_t>(k)];
      if (key >= 0) {
        const Vec3<double> c = corner_normal_[static_cast<std::size_t>(key)];
        const double size = norm(c);
        if (size > 0) n += (t.w[k] / size) * c;
      }
    }
    const double size = norm(n);
    if (!(size > 0.5)) continue;  // a fold or a sharp edge: the facet's own normal
    n = (dot(n, t.normal) < 0 ? -1.0 / size : 1.0 / size) * n;
    // The overclosure along the smoothed normal, from the same touch point.
    const int r_i = static_cast<int>(r);
    const double d_facet = normal_distance(u, r_i, f, t);
    ContactTouch<double> ts = t;
    ts.normal = n;
    ts.pen = t.pen + d_facet - normal_distance(u, r_i, f, ts);
    t = ts;
  }
}

double StaticContact::normal_distance(const std::vector<double>& u, int r, int f, const ContactTouch<double>& t) const {
  int node[5];
  double w[5];
  node[0] = cs_.slave_node[static_cast<std::size_t>(r)];
  w[0] = -1;
  const int corners = touch_corners(cs_, f, t, node + 1, w + 1);
  double d = 0;
  for (int a = 0; a <= corners; ++a) {
    const std::size_t n = static_cast<std::size_t>(node[a]);
    d -= w[a] * ((sys_.x0[n] + u[3 * n]) * t.normal.x + (sys_.y0[n] + u[3 * n + 1]) * t.normal.y +
                 (sys_.z0[n] + u[3 * n + 2]) * t.normal.z);
  }
  return d;
}

void StaticContact::keep_closed_touches(const std::vector<double>& u) {
  const std::size_t ns = static_cast<std::size_t>(cs_.num_slaves);
  if (last_facet_.size() != ns) last_facet_.assign(ns, -1), last_touch_.resize(ns), last_distance_.assign(ns, 0.0);
  for (std::size_t r = 0; r < ns; ++r) {
    const int i = static_cast<int>(r);
    if (facet_[r] >= 0) {
      last_facet_[r] = facet_[r];
      last_touch_[r] = touch_[r];
      last_distance_[r] = normal_distance(u, i, facet_[r], touch_[r]);
    } else if (lambda_[r] > 0 && last_facet_[r] >= 0) {
      // A record whose multiplier carries force is closed while lambda + k g > 0, also at a
      // slight clearance (g < 0) that the search, which looks for penetrations only, does not
      // report: its last touch goes on, its overclosure moved by the relative normal motion
      // since. Dropped, its force fell from lambda to zero within a step of 1e-9 and Newton
      // diverged (two blocks pressed and sheared, tests/integration/test_static_contact.cpp).
      ContactTouch<double> t = last_touch_[r];
      t.pen -= normal_distance(u, i, last_facet_[r], t) - last_distance_[r];
      facet_[r] = last_facet_[r];
      touch_[r] = t;
    }
  }
}

double StaticContact::decayed_limit(std::size_t pair, double size, double kt, double normal, double limit) const {
  // *FRICTION, EXPONENTIAL DECAY: mu = mu_k + (mu_s - mu_k) exp(-dc rate), the rate the
  // increment's slip over its step time (Abaqus/Standard's). The slip the return map leaves,
  // (size - mu F) / kt, and the coefficient it implies must agree: g(slip) = size - kt slip -
  // mu(slip / dtau) F = 0, with g(0) > 0 (it slips at mu_s) and g((size - mu_k F) / kt) <= 0;
  // bisection, as g need not be monotone (velocity weakening).
  if (pair >= cs_.decay.size() || pair >= cs_.mu_kinetic.size() || !(cs_.decay[pair] > 0) || !(dtau_ > 0))
    return limit;
  const double mu_s = mu_[pair], mu_k = cs_.mu_kinetic[pair], dc = cs_.decay[pair];
  if (!(mu_k < mu_s)) return limit;
  const auto g = [&](double slip) {
    return size - kt * slip - friction_coefficient(mu_s, mu_k, dc, slip / dtau_) * normal;
  };
  double lo = 0, hi = std::max(0.0, (size - mu_k * normal) / kt);
  for (int i = 0; i < 60 && hi - lo > 1e-14 * hi; ++i) (g(0.5 * (lo + hi)) > 0 ? lo : hi) = 0.5 * (lo + hi);
  return friction_coefficient(mu_s, mu_k, dc, 0.5 * (lo + hi) / dtau_) * normal;
}

double StaticContact::add_friction(const std::vector<double>& u, std::size_t r, int pair, int corners, const int* node,
                                   const double* w, const double* nv, double k, double ft[3], double proj[9],
                                   double& s_k) {
  // Coulomb friction: the stick spring kt on the slave's slip relative to the touched point
  // since the last converged increment, s = -sum_a w_a (u_a - u0_a), in the tangent plane;
  // the trial force ft0 - kt s_T returned onto mu F where it is larger (slip), F the normal
  // force the limit holds (limit_normal_, settled by augment()). Its tangent is
  // s_k w_a w_b P with P the tangent plane's projector (slip: less the slip direction,
  // s_k = kt mu F / |trial|): exact and symmetric while F is held.
  const double mu = mu_[static_cast<std::size_t>(pair)];
  // Abaqus/Standard's stick stiffness: the friction limit reached at an elastic slip of
  // kElasticSlip of the mean facet size (never stiffer than the normal penalty; at the
  // penalty's own stiffness, 1e-6 of a facet, a pressed block's partial slip flipped
  // records between stick and slip at every iteration).
  const double stick = cs_.stick_slope.empty() ? 0.0 : cs_.stick_slope[static_cast<std::size_t>(pair)];
  const double area = cs_.slave_area.empty() ? 0.0 : cs_.slave_area[r];
  const double kt = stick > 0 && area > 0 ? stick * area  // the deck's (CalculiX's stick slope)
                                          : std::min(k, mu * limit_normal_[r] / (kElasticSlip * facet_size_));
  if (mu > 0 && kt > 0) {
    double slip[3] = {0, 0, 0};
    for (int a = 0; a <= corners; ++a)
      for (int c = 0; c < 3; ++c) {
        const std::size_t k3 = 3 * static_cast<std::size_t>(node[a]) + static_cast<std::size_t>(c);
        slip[c] -= w[a] * (u[k3] - u_start_[k3]);
      }
    const double* f0 = shear_start_.data() + 3 * r;
    const double sn = slip[0] * nv[0] + slip[1] * nv[1] + slip[2] * nv[2];
    const double f0n = f0[0] * nv[0] + f0[1] * nv[1] + f0[2] * nv[2];
    double trial[3], size2 = 0;
    for (int c = 0; c < 3; ++c) {
      trial[c] = (f0[c] - f0n * nv[c]) - kt * (slip[c] - sn * nv[c]);
      size2 += trial[c] * trial[c];
    }
    const double size = std::sqrt(size2);
    double limit = mu * limit_normal_[r];
    for (int c = 0; c < 3; ++c)
      for (int d = 0; d < 3; ++d) proj[3 * c + d] = (c == d ? 1.0 : 0.0) - nv[c] * nv[d];
    if (size <= limit) {
      for (int c = 0; c < 3; ++c) ft[c] = trial[c];
      s_k = kt;
    } else {
      limit = decayed_limit(static_cast<std::size_t>(pair), size, kt, limit_normal_[r], limit);
      const double t[3] = {trial[0] / size, trial[1] / size, trial[2] / size};
      for (int c = 0; c < 3; ++c) {
        ft[c] = limit * t[c];
        for (int d = 0; d < 3; ++d) proj[3 * c + d] -= t[c] * t[d];
      }
      s_k = kt * limit / size;
      slip_work_[r] = limit * (size - limit) / kt;
    }
    for (int c = 0; c < 3; ++c) shear_[3 * r + static_cast<std::size_t>(c)] = ft[c];
    return 0.5 * (ft[0] * ft[0] + ft[1] * ft[1] + ft[2] * ft[2]) / kt;
  }
  return 0.0;
}

double StaticContact::add_forces(const std::vector<double>& u, int ndn, std::vector<double>& f) {
  const std::size_t nn = static_cast<std::size_t>(sys_.num_nodes), q = static_cast<std::size_t>(ndn);
  ux_.resize(nn), uy_.resize(nn), uz_.resize(nn);
  for (std::size_t n = 0; n < nn; ++n) ux_[n] = u[3 * n], uy_[n] = u[3 * n + 1], uz_[n] = u[3 * n + 2];
  HostContactNodes in{{ux_.data(), uy_.data(), uz_.data()}, {nullptr, nullptr, nullptr}, nullptr};
  search_.touches(in, facet_, touch_);
  // Before the step's first attempt (its initial state's forces) the slip is measured from here.
  if (u_start_.size() != u.size()) u_start_ = u;
  keep_closed_touches(u);
  smooth_normals(u);
  NormalLawView<double> law{};
  if (cs_.softened())
    law = {cs_.law_kind.data(), cs_.law_ptr.data(), cs_.law_values.data(), cs_.law_clearance.data(), cs_.slave_area.data()};
  blocks_.clear();
  touching_ = 0;
  double stored = 0;
  for (int i = 0; i < cs_.num_slaves; ++i) {
    const std::size_t r = static_cast<std::size_t>(i);
    force_[r] = 0;
    slip_work_[r] = 0;
    for (int c = 0; c < 3; ++c) shear_[3 * r + static_cast<std::size_t>(c)] = 0;
    const int f_touch = facet_[r];
    if (f_touch < 0) continue;
    const ContactTouch<double>& t = touch_[r];
    const int pair = cs_.slave_pair[r];
    const double k = penalty_[r], g = t.pen - touch_tolerance_;
    double fn, slope, energy;
    if (softened_contact(law, pair)) {
      // The deck's law uncapped: the explicit pass caps a softened spring at the hard one
      // because the stable increment must hold; an implicit step has no such bound, and a cap
      // here made a stiff law (K = 1e9 between two unit cubes) settle with 30 % of its
      // overclosure left. The law's slope by a central difference (its kinks are few; the
      // tangent only steers Newton, the forces are exact).
      const double no_cap = std::numeric_limits<double>::infinity();
      fn = normal_contact_force(law, pair, i, g, no_cap, energy);
      const double h = 1e-7 * std::max({std::fabs(g), std::fabs(law.clearance[pair]), 1e-12});
      double e0;
      slope = (normal_contact_force(law, pair, i, g + h, no_cap, e0) -
               normal_contact_force(law, pair, i, g - h, no_cap, e0)) /
              (2 * h);
    } else {
      fn = lambda_[r] + k * g;
      slope = k;
      energy = lambda_[r] * g + 0.5 * k * g * g;
    }
    // Open, unless it touches (within touch_tolerance_ of zero clearance) with a stiffness at
    // zero: its spring goes into the tangent without a force, so that a body resting on
    // another at zero gap and held by nothing else is not free in the first solve.
    const bool resting = resting_springs_ && !(fn > 0) && g >= -touch_tolerance_ && slope > 0;
    if (!(fn > 0) && !resting) continue;
    int node[5];
    double w[5];
    node[0] = cs_.slave_node[r];
    w[0] = -1;
    const int corners = touch_corners(cs_, f_touch, t, node + 1, w + 1);
    const Vec3<double> nrm = t.normal;
    // f_int = F B with B = (-n at the slave, w_j n at corner j); the tangent is F' B B^T (the
    // normal's and the weights' variations left out: a first-order contact tangent).
    const double nv[3] = {nrm.x, nrm.y, nrm.z};
    int dofs[15];
    double b[15];
    const int nd = 3 * (1 + corners);
    for (int a = 0; a <= corners; ++a)
      for (int c = 0; c < 3; ++c) {
        dofs[3 * a + c] = static_cast<int>(q * static_cast<std::size_t>(node[a]) + static_cast<std::size_t>(c));
        b[3 * a + c] = w[a] * nv[c];
      }
    double ft[3] = {0, 0, 0}, proj[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0}, s_k = 0;
    if (!resting) {
      ++touching_;
      force_[r] = fn;
      stored += energy;
      stored += add_friction(u, r, pair, corners, node, w, nv, k, ft, proj, s_k);
      for (int x = 0; x < nd; ++x) f[static_cast<std::size_t>(dofs[x])] += fn * b[x] + w[x / 3] * ft[x % 3];
    }
    double* kb = blocks_.add(dofs, nd);
    for (int x = 0; x < nd; ++x)
      for (int y = 0; y < nd; ++y) kb[x * nd + y] = slope * b[x] * b[y] + s_k * w[x / 3] * w[y / 3] * proj[3 * (x % 3) + y % 3];
  }
  return stored;
}

bool StaticContact::augment() {
  bool again = false;
  for (int i = 0; i < cs_.num_slaves; ++i) {
    const std::size_t r = static_cast<std::size_t>(i);
    const std::size_t pair = static_cast<std::size_t>(cs_.slave_pair[r]);
    const bool closed = facet_[r] >= 0 && force_[r] > 0;
    if (mu_[pair] > 0) {
      // The friction limit's normal force is held through each Newton pass (its tangent is then
      // exact and symmetric) and moved to the converged one here, until they agree. Taken as it
      // came, the normal force's share in the slip tangent, which a symmetric solver cannot
      // hold, flipped records between stick and slip at every iteration.
      const double fn = closed ? force_[r] : 0.0;
      if (std::fabs(fn - limit_normal_[r]) > kContactAugmentTolerance * std::max(fn, limit_normal_[r]) && closed)
        again = true;
      limit_normal_[r] = fn;
      // Its multiplier moves once per increment (accepted()): updated within the attempt too,
      // the normal force jumped and moved the friction limit with it, and the slips that
      // followed kept the iterations from settling.
      continue;
    }
    if (cs_.law_kind.size() > 0 && cs_.law_kind[pair] != 0) continue;  // softened: the law itself
    if (!closed) {
      lambda_[r] = 0;  // open: the multiplier of a later touch starts again from zero
      continue;
    }
    const double spring = penalty_[r] * (touch_[r].pen - touch_tolerance_);
    if (spring > kContactAugmentTolerance * force_[r]) again = true;
    lambda_[r] = force_[r];
  }
  return again;
}

void StaticContact::store(StructureState& st) const {
  const std::size_t nn = static_cast<std::size_t>(sys_.num_nodes);
  // The records' history as the explicit pass keeps it: the friction force, touching, the
  // target, and the stretch of the spring that carries the normal force (here lambda / k).
  const std::size_t ns = static_cast<std::size_t>(cs_.num_slaves);
  if (st.contact_history.size() >= kContactHistory * ns)
    for (std::size_t r = 0; r < ns; ++r) {
      double* h = st.contact_history.data() + kContactHistory * r;
      const bool closed = force_[r] > 0;
      for (std::size_t c = 0; c < 3; ++c) h[c] = shear_[3 * r + c];
      h[3] = closed ? 1 : 0;
      h[4] = 0;
      h[5] = closed ? facet_[r] : -1;
      h[6] = closed && penalty_[r] > 0 ? lambda_start_[r] / penalty_[r] : 0;
    }
  st.contact_normal.assign(3 * nn, 0.0);
  st.contact_shear.assign(3 * nn, 0.0);
  st.contact_pair_force.assign(6 * static_cast<std::size_t>(cs_.num_pairs), 0.0);
  for (int i = 0; i < cs_.num_slaves; ++i) {
    const std::size_t r = static_cast<std::size_t>(i);
    if (!(force_[r] > 0)) continue;
    const ContactTouch<double>& t = touch_[r];
    int node[4];
    double w[4];
    const int corners = touch_corners(cs_, facet_[r], t, node, w);
    const double fv[3] = {force_[r] * t.normal.x, force_[r] * t.normal.y, force_[r] * t.normal.z};
    const double* ft = shear_.data() + 3 * r;
    const std::size_t s = static_cast<std::size_t>(cs_.slave_node[r]);
    const std::size_t pf = 6 * static_cast<std::size_t>(cs_.slave_pair[r]);
    for (int c = 0; c < 3; ++c) {
      const std::size_t cc = static_cast<std::size_t>(c);
      st.contact_normal[3 * s + cc] += fv[c];
      st.contact_shear[3 * s + cc] += ft[c];
      st.contact_pair_force[pf + cc] += fv[c];
      st.contact_pair_force[pf + 3 + cc] += ft[c];
      for (int a = 0; a < corners; ++a) {
        st.contact_normal[3 * static_cast<std::size_t>(node[a]) + cc] -= w[a] * fv[c];
        st.contact_shear[3 * static_cast<std::size_t>(node[a]) + cc] -= w[a] * ft[c];
      }
    }
  }
}

}  // namespace halfstep
