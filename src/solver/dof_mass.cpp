#include "solver/dof_mass.hpp"

#include <algorithm>

#include "core/vec3.hpp"
#include "discretization/continuum_operator.hpp"
#include "discretization/rotary_inertia.hpp"
#include "elements/consistent_mass.hpp"
#include "elements/registry.hpp"

namespace halfstep {

namespace {

/// f += factor_e M_e v per element and direction (factor: 1, or the element's alpha).
void add_element_products(const DofMass& d, const std::vector<double>& v, bool damping, std::vector<double>& f) {
  for (std::size_t i = 0; i + 1 < d.element_ptr.size(); ++i) {
    const double s = damping ? d.element_alpha[i] : 1.0;
    if (s == 0.0) continue;
    const int* nodes = &d.element_nodes[static_cast<std::size_t>(d.element_ptr[i])];
    const int n = d.element_ptr[i + 1] - d.element_ptr[i];
    const double* M = &d.element_mass[d.mass_ptr[i]];
    for (int a = 0; a < n; ++a)
      for (std::size_t k = 0; k < 3; ++k) {
        double sum = 0;
        for (int b = 0; b < n; ++b) sum += M[a * n + b] * v[d.q * static_cast<std::size_t>(nodes[b]) + k];
        f[d.q * static_cast<std::size_t>(nodes[a]) + k] += s * sum;
      }
  }
}

}  // namespace

void DofMass::apply(const std::vector<double>& v, std::vector<double>& f) const {
  f.resize(m_rest.size());
  for (std::size_t k = 0; k < m_rest.size(); ++k) f[k] = m_rest[k] * v[k];
  add_element_products(*this, v, false, f);
}

void DofMass::apply_damping(const std::vector<double>& v, std::vector<double>& f) const {
  f.resize(c_rest.size());
  for (std::size_t k = 0; k < c_rest.size(); ++k) f[k] = c_rest[k] * v[k];
  add_element_products(*this, v, true, f);
  for (std::size_t i = 0; i + 1 < stiff_ptr.size(); ++i) {
    const int* dofs = &stiff_dofs[static_cast<std::size_t>(stiff_ptr[i])];
    const int n = stiff_ptr[i + 1] - stiff_ptr[i];
    const double* K = &stiff_matrix[stiff_off[i]];
    for (int a = 0; a < n; ++a) {
      double sum = 0;
      for (int b = 0; b < n; ++b) sum += K[a * n + b] * v[static_cast<std::size_t>(dofs[b])];
      f[static_cast<std::size_t>(dofs[a])] += sum;
    }
  }
}

void DofMass::element_blocks(double mass_factor, double damping_factor, CouplingBlocks& b) const {
  b.clear();
  std::vector<int> dofs;
  for (std::size_t i = 0; i + 1 < element_ptr.size(); ++i) {
    const int* nodes = &element_nodes[static_cast<std::size_t>(element_ptr[i])];
    const int n = element_ptr[i + 1] - element_ptr[i];
    const double* M = &element_mass[mass_ptr[i]];
    const double s = mass_factor + damping_factor * element_alpha[i];
    dofs.resize(static_cast<std::size_t>(n));
    for (std::size_t k = 0; k < 3; ++k) {
      for (int a = 0; a < n; ++a) dofs[static_cast<std::size_t>(a)] = static_cast<int>(q * static_cast<std::size_t>(nodes[a]) + k);
      double* out = b.add(dofs.data(), n);
      for (int j = 0; j < n * n; ++j) out[j] = s * M[j];
    }
  }
  if (damping_factor == 0.0) return;
  for (std::size_t i = 0; i + 1 < stiff_ptr.size(); ++i) {
    const int n = stiff_ptr[i + 1] - stiff_ptr[i];
    const double* K = &stiff_matrix[stiff_off[i]];
    double* out = b.add(&stiff_dofs[static_cast<std::size_t>(stiff_ptr[i])], n);
    for (int j = 0; j < n * n; ++j) out[j] = damping_factor * K[j];
  }
}

std::vector<double> lumped_dof_mass(const Model& model, const StructureSystem& sys, std::size_t q) {
  const std::size_t nn = static_cast<std::size_t>(sys.num_nodes);
  std::vector<double> m(q * nn, 0.0);
  for (std::size_t n = 0; n < nn; ++n)
    for (std::size_t d = 0; d < 3; ++d) m[q * n + d] = sys.mass[n];
  if (q >= 5) {
    // 5-dof nodes' spins about their triad: the physical rotary inertia.
    const std::vector<double> rot = node_spin_inertia(model, sys);
    for (std::size_t n = 0; n < nn; ++n) m[q * n + 3] = m[q * n + 4] = rot[n];
  }
  return m;
}

DofMass dof_mass(const StructureSystem& sys, const std::vector<double>& lumped, std::size_t q, bool transient) {
  DofMass d;
  d.q = q;
  d.m_rest = lumped;
  // *DAMPING, ALPHA: c = alpha m, node by node (the spins' with their node's alpha).
  d.c_rest.assign(d.m_rest.size(), 0.0);
  if (!sys.damp.empty())
    for (std::size_t n = 0; n < static_cast<std::size_t>(sys.num_nodes); ++n) {
      const double alpha = sys.mass[n] > 0 ? sys.damp[n] / sys.mass[n] : 0.0;
      for (std::size_t k = 0; k < std::min<std::size_t>(q, 5); ++k) d.c_rest[q * n + k] = alpha * d.m_rest[q * n + k];
    }
  const SolidMesh& sm = sys.solid;
  for (const SolidGroup& g : sm.groups)
    visit_continuum_kind(g.kind, [&](auto kind) {
      using K = decltype(kind);
      if constexpr (ConsistentMass<K>::kHas) {
        constexpr int nn = K::kNodes;
        for (int i = 0; i < g.count; ++i) {
          const int e = g.first + i;
          const int* c = &sm.conn[static_cast<std::size_t>(g.conn_offset) + static_cast<std::size_t>(i) * nn];
          Vec3<double> X[nn];
          for (int a = 0; a < nn; ++a) X[a] = {sys.x0[c[a]], sys.y0[c[a]], sys.z0[c[a]]};
          const std::size_t sec = static_cast<std::size_t>(sm.material[e]);
          const double rho = sm.materials[sec].density, alpha = sm.alpha.empty() ? 0.0 : sm.alpha[sec];
          double M[nn * nn], frac[nn];
          const double vol = K::mass_fractions(X, frac);
          double got = 0;
          if constexpr (HasTransientMass<K>::value)
            got = transient ? ConsistentMass<K>::transient_matrix(X, rho, M) : ConsistentMass<K>::matrix(X, rho, M);
          else
            got = ConsistentMass<K>::matrix(X, rho, M);
          if (!(got > 0) || !(vol > 0)) continue;  // keeps its lumped mass
          d.mass_ptr.push_back(d.element_mass.size());
          d.element_mass.insert(d.element_mass.end(), M, M + nn * nn);
          d.element_alpha.push_back(alpha);
          for (int a = 0; a < nn; ++a) {
            d.element_nodes.push_back(c[a]);
            for (std::size_t k = 0; k < 3; ++k) {
              const std::size_t dof = q * static_cast<std::size_t>(c[a]) + k;
              d.m_rest[dof] = std::max(0.0, d.m_rest[dof] - rho * vol * frac[a]);
              d.c_rest[dof] = std::max(0.0, d.c_rest[dof] - alpha * rho * vol * frac[a]);
            }
          }
          d.element_ptr.push_back(static_cast<int>(d.element_nodes.size()));
        }
      }
    });
  return d;
}

void add_stiffness_damping(DofMass& d, const StructureSystem& sys, const ContinuumOperator& op) {
  const SolidMesh& sm = sys.solid;
  const auto beta_of = [&](int e) {
    const auto m = static_cast<std::size_t>(sm.material[static_cast<std::size_t>(e)]);
    return m < sm.beta.size() ? sm.beta[m] : 0.0;
  };
  bool any = false;
  for (int e = 0; e < sm.num_elements && !any; ++e) any = beta_of(e) > 0;
  if (!any) return;
  // The linear theory's stiffness at the reference: the tangent at zero displacement.
  const std::vector<double> zero(static_cast<std::size_t>(op.num_dofs()), 0.0);
  std::vector<double> k;
  op.element_matrices(zero, k);
  std::vector<int> dofs;
  for (int e = 0; e < sm.num_elements; ++e) {
    const double beta = beta_of(e);
    if (!(beta > 0)) continue;
    const int n = op.element_size(e);
    dofs.resize(static_cast<std::size_t>(n));
    op.element_dofs(e, dofs.data());
    for (int a = 0; a < n; ++a) {  // the operator's 3 per node onto d's q per node
      const int node = dofs[static_cast<std::size_t>(a)] / 3, comp = dofs[static_cast<std::size_t>(a)] % 3;
      d.stiff_dofs.push_back(static_cast<int>(d.q * static_cast<std::size_t>(node)) + comp);
    }
    d.stiff_ptr.push_back(static_cast<int>(d.stiff_dofs.size()));
    d.stiff_off.push_back(d.stiff_matrix.size());
    const double* K = &k[op.matrix_offset(e)];
    for (int j = 0; j < n * n; ++j) d.stiff_matrix.push_back(beta * K[j]);
  }
}

}  // namespace halfstep
