#include "solver/static_contact.hpp"

#include <algorithm>
#include <cmath>
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
  std::vector<int> dofs;
  for (int e = 0; e < op.num_elements(); ++e) {
    const int nd = op.element_size(e);
    dofs.resize(static_cast<std::size_t>(nd));
    op.element_dofs(e, dofs.data());
    const double* ke = k.data() + op.matrix_offset(e);
    for (int i = 0; i < nd; ++i)
      if (dofs[static_cast<std::size_t>(i)] >= 0) diag[static_cast<std::size_t>(dofs[static_cast<std::size_t>(i)])] += ke[static_cast<std::size_t>(i) * nd + i];
  }
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

}  // namespace

StaticContact::StaticContact(const Model& model, const Step& step, const StructureSystem& sys,
                             const StructureOperator& op, const Configuration& ref, int threads)
    : sys_(sys), cs_(sys.contact), search_(sys, nullptr, nullptr, threads) {
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
}

double StaticContact::add_forces(const std::vector<double>& u, int ndn, std::vector<double>& f) {
  const std::size_t nn = static_cast<std::size_t>(sys_.num_nodes), q = static_cast<std::size_t>(ndn);
  ux_.resize(nn), uy_.resize(nn), uz_.resize(nn);
  for (std::size_t n = 0; n < nn; ++n) ux_[n] = u[3 * n], uy_[n] = u[3 * n + 1], uz_[n] = u[3 * n + 2];
  HostContactNodes in{{ux_.data(), uy_.data(), uz_.data()}, {nullptr, nullptr, nullptr}, nullptr};
  search_.touches(in, facet_, touch_);
  NormalLawView<double> law{};
  if (cs_.softened())
    law = {cs_.law_kind.data(), cs_.law_ptr.data(), cs_.law_values.data(), cs_.law_clearance.data(), cs_.slave_area.data()};
  blocks_.clear();
  touching_ = 0;
  double stored = 0;
  for (int i = 0; i < cs_.num_slaves; ++i) {
    const std::size_t r = static_cast<std::size_t>(i);
    force_[r] = 0;
    const int f_touch = facet_[r];
    if (f_touch < 0) continue;
    const ContactTouch<double>& t = touch_[r];
    const int pair = cs_.slave_pair[r];
    const double k = penalty_[r], g = t.pen;
    double fn, slope, energy;
    if (softened_contact(law, pair)) {
      // The law's slope by a central difference (its kinks are few; the tangent only steers
      // Newton, the forces are exact).
      fn = normal_contact_force(law, pair, i, g, k, energy);
      const double h = 1e-7 * std::max({std::fabs(g), std::fabs(law.clearance[pair]), 1e-12});
      double e0;
      slope = (normal_contact_force(law, pair, i, g + h, k, e0) - normal_contact_force(law, pair, i, g - h, k, e0)) /
              (2 * h);
    } else {
      fn = lambda_[r] + k * g;
      slope = k;
      energy = lambda_[r] * g + 0.5 * k * g * g;
    }
    if (!(fn > 0)) continue;
    ++touching_;
    force_[r] = fn;
    stored += energy;
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
        f[q * static_cast<std::size_t>(node[a]) + static_cast<std::size_t>(c)] += fn * b[3 * a + c];
      }
    double* kb = blocks_.add(dofs, nd);
    for (int x = 0; x < nd; ++x)
      for (int y = 0; y < nd; ++y) kb[x * nd + y] = slope * b[x] * b[y];
  }
  return stored;
}

bool StaticContact::augment() {
  bool again = false;
  for (int i = 0; i < cs_.num_slaves; ++i) {
    const std::size_t r = static_cast<std::size_t>(i);
    if (cs_.law_kind.size() > 0 && cs_.law_kind[static_cast<std::size_t>(cs_.slave_pair[r])] != 0) continue;  // softened: the law itself
    if (facet_[r] < 0 || !(force_[r] > 0)) {
      lambda_[r] = 0;  // open: the multiplier of a later touch starts again from zero
      continue;
    }
    const double spring = penalty_[r] * touch_[r].pen;
    if (spring > kContactAugmentTolerance * force_[r]) again = true;
    lambda_[r] = force_[r];
  }
  return again;
}

void StaticContact::store(StructureState& st) const {
  const std::size_t nn = static_cast<std::size_t>(sys_.num_nodes);
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
    const std::size_t s = static_cast<std::size_t>(cs_.slave_node[r]);
    for (int c = 0; c < 3; ++c) {
      st.contact_normal[3 * s + static_cast<std::size_t>(c)] += fv[c];
      st.contact_pair_force[6 * static_cast<std::size_t>(cs_.slave_pair[r]) + static_cast<std::size_t>(c)] += fv[c];
      for (int a = 0; a < corners; ++a)
        st.contact_normal[3 * static_cast<std::size_t>(node[a]) + static_cast<std::size_t>(c)] -= w[a] * fv[c];
    }
  }
}

}  // namespace halfstep
