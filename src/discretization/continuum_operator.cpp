// First: the laws' qualified autodiff::value_of calls must see its overloads (core/dual_lanes.hpp).
#include "core/dual_lanes.hpp"
#include "discretization/continuum_operator.hpp"

#include <omp.h>

#include <algorithm>
#include <type_traits>

#include "core/threads.hpp"
#include "core/dual.hpp"
#include "core/forall.hpp"
#include "discretization/continuum_pass.hpp"
#include "discretization/element_columns.hpp"
#include "discretization/point_tangent.hpp"
#include "discretization/tangent_state.hpp"
#include "elements/registry.hpp"
#include "materials/material_tangent.hpp"

namespace halfstep {

namespace {

/// Node displacements of element nodes c from the node-major vector u.
template <class T>
void gather(const std::vector<double>& u, const int* c, int n, Vec3<T>* out) {
  for (int a = 0; a < n; ++a) out[a] = {T(u[3 * c[a]]), T(u[3 * c[a] + 1]), T(u[3 * c[a] + 2])};
}

}  // namespace

ContinuumOperator::ContinuumOperator(const StructureSystem& sys, int threads)
    : sys_(sys), threads_(threads > 0 ? threads : default_threads()) {
  const SolidMesh& sm = sys.solid;
  offsets_.assign(static_cast<std::size_t>(sm.num_elements) + 1, 0);
  for (int e = 0; e < sm.num_elements; ++e) {
    const std::size_t n = static_cast<std::size_t>(element_size(e));
    offsets_[static_cast<std::size_t>(e) + 1] = offsets_[static_cast<std::size_t>(e)] + n * n;
  }
}

std::vector<char> ContinuumOperator::active_dofs() const {
  std::vector<char> on(static_cast<std::size_t>(num_dofs()), 0);
  const int comps = sys_.solid.planar ? 2 : 3;
  for (int n : sys_.solid.conn)
    for (int c = 0; c < comps; ++c) on[3 * static_cast<std::size_t>(n) + c] = 1;
  return on;
}

int ContinuumOperator::element_size(int e) const {
  return 3 * sys_.solid.groups[static_cast<std::size_t>(sys_.solid.group_of(e))].nodes_per_element;
}

void ContinuumOperator::element_dofs(int e, int* dofs) const {
  const SolidMesh& sm = sys_.solid;
  const int n = element_size(e) / 3;
  const int* c = &sm.conn[static_cast<std::size_t>(sm.conn_start(e))];
  for (int a = 0; a < n; ++a)
    for (int k = 0; k < 3; ++k) dofs[3 * a + k] = 3 * c[a] + k;
}

double ContinuumOperator::internal_force(const std::vector<double>& u, std::vector<double>& f, const double* thermal,
                                         const double* state_old, double* state_next, ElementForceSums* sums) const {
  const SolidMesh& sm = sys_.solid;
  f.assign(static_cast<std::size_t>(num_dofs()), 0.0);
  // Per-slot forces first (the gather strategy), then summed per node in a fixed order.
  std::vector<double> slot(3 * sm.conn.size()), energy(static_cast<std::size_t>(sm.num_elements)),
      hourglass(energy.size());
  std::vector<double> ux(static_cast<std::size_t>(sys_.num_nodes)), uy(ux.size()), uz(ux.size());
  for (std::size_t n = 0; n < ux.size(); ++n) {
    ux[n] = u[3 * n];
    uy[n] = u[3 * n + 1];
    uz[n] = u[3 * n + 2];
  }
  const SolidEnergy<double> w = continuum_pass(sm, sys_.x0.data(), sys_.y0.data(), sys_.z0.data(), ux.data(),
                                               uy.data(), uz.data(), slot.data(), energy.data(), hourglass.data(),
                                               threads_, ElementRange::All, state_next, nullptr, 0.0, 0.0, 0.0, thermal,
                                               state_old);
  forall(0, sys_.num_nodes, threads_, [&](int n) {
    add_slot_forces3(sm.node_slot_ptr.data(), sm.node_slots.data(), slot.data(), n, &f[3 * static_cast<std::size_t>(n)]);
  });
  if (sums) sums->add(slot.data(), slot.size());
  return w.strain + w.hourglass;
}

void ContinuumOperator::linear_slot_forces(const std::vector<double>& u, double kappa, std::vector<double>& slot,
                                           const double* thermal) const {
  using D = Dual<double>;
  const SolidMesh& sm = sys_.solid;
  std::vector<SolidMaterial<D>> mats;
  for (const SolidMaterial<double>& m : sm.materials) mats.push_back(dual_material(m));
  slot.assign(3 * sm.conn.size(), 0.0);
  for (const SolidGroup& g : sm.groups)
    visit_continuum_kind(g.kind, [&](auto kind) {
      using K = decltype(kind);
      forall(0, g.count, threads_, [&](int i) {
        const int e = g.first + i;
        const std::size_t first = static_cast<std::size_t>(g.conn_offset) + static_cast<std::size_t>(i) * K::kNodes;
        const int* c = &sm.conn[first];
        Vec3<D> X[K::kNodes], du[K::kNodes], fe[K::kNodes];
        for (int a = 0; a < K::kNodes; ++a) {
          X[a] = {D(sys_.x0[c[a]]), D(sys_.y0[c[a]]), D(sys_.z0[c[a]])};
          du[a] = {D(0.0, u[3 * c[a]]), D(0.0, u[3 * c[a] + 1]), D(0.0, u[3 * c[a] + 2])};
        }
        const SolidMaterial<D>& m = mats[static_cast<std::size_t>(sm.material[static_cast<std::size_t>(e)])];
        const D dtheta(0.0, thermal ? thermal[e] : 0.0);  // the temperature change rides in the derivative
        K::internal_force(X, du, m, D(kappa), fe, ElementState<D>{nullptr, nullptr, 0, 0, sm.data_of(e), dtheta});
        for (int a = 0; a < K::kNodes; ++a) {
          slot[3 * (first + a)] = fe[a].x.d;
          slot[3 * (first + a) + 1] = fe[a].y.d;
          slot[3 * (first + a) + 2] = fe[a].z.d;
        }
      });
    });
}

double ContinuumOperator::linearized_force(const std::vector<double>& u, std::vector<double>& f, const double* thermal) const {
  const SolidMesh& sm = sys_.solid;
  f.assign(static_cast<std::size_t>(num_dofs()), 0.0);
  // Per-slot forces, then summed per node in a fixed order (same as internal_force).
  std::vector<double> slot;
  linear_slot_forces(u, sm.hourglass_kappa, slot, thermal);
  forall(0, sys_.num_nodes, threads_, [&](int n) {
    add_slot_forces3(sm.node_slot_ptr.data(), sm.node_slots.data(), slot.data(), n, &f[3 * static_cast<std::size_t>(n)]);
  });
  double w = 0;
  for (std::size_t k = 0; k < f.size(); ++k) w += f[k] * u[k];
  return 0.5 * w;
}

void ContinuumOperator::linearized_energies(const std::vector<double>& u, std::vector<double>& strain,
                                            std::vector<double>& hourglass, const double* thermal) const {
  const SolidMesh& sm = sys_.solid;
  std::vector<double> full, bare, bare0;
  linear_slot_forces(u, sm.hourglass_kappa, full, thermal);
  linear_slot_forces(u, 0.0, bare, thermal);
  strain.assign(static_cast<std::size_t>(sm.num_elements), 0.0);
  hourglass.assign(strain.size(), 0.0);
  // The linear theory's energy is the quadratic form Q(w) = w . H w / 2 in w = (u_e, dtheta_e):
  // with f(w) = dQ/du = H_uu u + H_ut dtheta (linear_slot_forces),
  // Q = u . (f(u, dtheta) + f(0, dtheta)) / 2 + dtheta H_tt dtheta / 2; without temperatures
  // the familiar u . K u / 2 (the hourglass springs take none of the thermal strain).
  std::vector<double> thermal_self;
  if (thermal) {
    linear_slot_forces(std::vector<double>(u.size(), 0.0), 0.0, bare0, thermal);
    thermal_self = thermal_self_energies(thermal);
  }
  for (const SolidGroup& g : sm.groups)
    forall(0, g.count, threads_, [&](int i) {
      const std::size_t first = static_cast<std::size_t>(g.conn_offset) + static_cast<std::size_t>(i) * g.nodes_per_element;
      double w = 0, wh = 0;
      for (int a = 0; a < g.nodes_per_element; ++a)
        for (int k = 0; k < 3; ++k) {
          const std::size_t s = 3 * (first + static_cast<std::size_t>(a)) + static_cast<std::size_t>(k);
          const double uk = u[3 * static_cast<std::size_t>(sm.conn[first + static_cast<std::size_t>(a)]) + static_cast<std::size_t>(k)];
          w += (thermal ? bare[s] + bare0[s] : 2.0 * bare[s]) * uk;
          wh += (full[s] - bare[s]) * uk;
        }
      const std::size_t e = static_cast<std::size_t>(g.first + i);
      strain[e] = 0.25 * w + (thermal ? thermal_self[e] : 0.0);
      hourglass[e] = 0.5 * wh;
    });
}

double ContinuumOperator::thermal_energy_correction(const std::vector<double>& u, const double* thermal) const {
  const SolidMesh& sm = sys_.solid;
  std::vector<double> f0;  // per slot: the forces at u = 0, -f_th
  linear_slot_forces(std::vector<double>(u.size(), 0.0), sm.hourglass_kappa, f0, thermal);
  double uf = 0;
  for (std::size_t s = 0; s < sm.conn.size(); ++s)
    for (int k = 0; k < 3; ++k) uf += u[3 * static_cast<std::size_t>(sm.conn[s]) + static_cast<std::size_t>(k)] * f0[3 * s + static_cast<std::size_t>(k)];
  double self = 0;
  for (double w : thermal_self_energies(thermal)) self += w;
  return 0.5 * uf + self;
}

std::vector<double> ContinuumOperator::thermal_self_energies(const double* thermal) const {
  // dtheta H_tt dtheta / 2 of each element at u = 0: g(s) = dW(0, s dtheta)/ds is an exact
  // dual-number derivative, and (g(h) - g(-h)) / 2h = dtheta H_tt dtheta + O(h^2 (alpha
  // dtheta)^2); h = 1e-3 leaves a relative error near 1e-12 at any real alpha dtheta.
  using D = Dual<double>;
  constexpr double h = 1e-3;
  const SolidMesh& sm = sys_.solid;
  std::vector<SolidMaterial<D>> mats;
  for (const SolidMaterial<double>& m : sm.materials) mats.push_back(dual_material(m));
  std::vector<double> out(static_cast<std::size_t>(sm.num_elements), 0.0);
  for (const SolidGroup& g : sm.groups)
    visit_continuum_kind(g.kind, [&](auto kind) {
      using K = decltype(kind);
      forall(0, g.count, threads_, [&](int i) {
        const int e = g.first + i;
        const double dt = thermal[e];
        if (dt == 0.0) return;
        const int* c = &sm.conn[static_cast<std::size_t>(g.conn_offset) + static_cast<std::size_t>(i) * K::kNodes];
        Vec3<D> X[K::kNodes], u0[K::kNodes], fe[K::kNodes];
        for (int a = 0; a < K::kNodes; ++a) {
          X[a] = {D(sys_.x0[c[a]]), D(sys_.y0[c[a]]), D(sys_.z0[c[a]])};
          u0[a] = {D(0.0), D(0.0), D(0.0)};
        }
        const SolidMaterial<D>& m = mats[static_cast<std::size_t>(sm.material[static_cast<std::size_t>(e)])];
        double g2[2];
        for (int side = 0; side < 2; ++side) {
          const ElementState<D> st{nullptr, nullptr, 0, 0, sm.data_of(e), D((side == 0 ? h : -h) * dt, dt)};
          g2[side] = K::internal_force(X, u0, m, D(0.0), fe, st).strain.d;
        }
        out[static_cast<std::size_t>(e)] = (g2[0] - g2[1]) / (4.0 * h);
      });
    });
  return out;
}

namespace {

/// Whether kind K has its own element_matrix (a point-wise tangent that may decline).
template <class K, class = void>
struct HasElementMatrix : std::false_type {};
template <class K>
struct HasElementMatrix<K, std::void_t<decltype(&K::element_matrix)>> : std::true_type {};

}  // namespace

void ContinuumOperator::element_matrices(const std::vector<double>& u, std::vector<double>& k, const double* thermal,
                                         const double* state_old) const {
  k.assign(offsets_.back(), 0.0);
  element_matrices(u, k.data(), thermal, state_old);
}

namespace {

/// Derivative lanes per evaluation of the CPU's element matrices (DualLanes): a C3D8's 24
/// columns in two passes.
constexpr int kMatrixLanes = 12;

}  // namespace

void ContinuumOperator::element_matrices(const std::vector<double>& u, double* k, const double* thermal,
                                         const double* state_old) const {
  using D = Dual<double>;
  using DL = DualLanes<kMatrixLanes>;
  const SolidMesh& sm = sys_.solid;
  std::fill(k, k + offsets_.back(), 0.0);
  // Lanes for models without state. A law with state differentiates its return through
  // Dual-only code (J2's principal axes take the eigen-perturbation of Dual's derivative part,
  // which rotating lanes through the Jacobi sweeps would lose where an off-diagonal value is
  // exactly zero), and so do the FPM hexahedra's frames; a material under the small-strain
  // theory branches on the dual depth (materials/material_law.hpp), which only Dual carries.
  bool lanes = sm.state_size == 0;
  for (const SolidMaterial<double>& m : sm.materials) lanes = lanes && m.small_strain == 0;
  std::vector<SolidMaterial<D>> mats;
  std::vector<SolidMaterial<DL>> lane_mats;
  std::vector<SolidMaterial<PointLanes>> point_mats;  // the point-wise tangents' (their laws only)
  std::vector<SolidMaterial<FbarLanes>> fbar_mats;
  std::vector<char> point_tangent;
  for (const SolidMaterial<double>& m : sm.materials) {
    if (lanes) lane_mats.push_back(material_as<DL>(m));
    else mats.push_back(dual_material(m));
    point_tangent.push_back(takes_point_tangent(m));
    point_mats.push_back(material_as<PointLanes>(m));
    fbar_mats.push_back(material_as<FbarLanes>(m));
  }
  for (const SolidGroup& g : sm.groups)
    visit_continuum_kind(g.kind, [&](auto kind) {
      using K = decltype(kind);
      forall(0, g.count, threads_, [&](int i) {
        const int e = g.first + i;
        const int* c = &sm.conn[static_cast<std::size_t>(g.conn_offset) + static_cast<std::size_t>(i) * K::kNodes];
        Vec3<double> Xd[K::kNodes], ud[K::kNodes];
        for (int a = 0; a < K::kNodes; ++a) Xd[a] = {sys_.x0[c[a]], sys_.y0[c[a]], sys_.z0[c[a]]};
        gather(u, c, K::kNodes, ud);
        const std::size_t mi = static_cast<std::size_t>(sm.material[static_cast<std::size_t>(e)]);
        double* ke = &k[offsets_[static_cast<std::size_t>(e)]];
        if constexpr (HasPointGradients<K>::value) {  // a point-sum solid: its point-wise tangent
          if (point_tangent[mi] &&
              point_sum_element_matrix<K>(Xd, ud, point_mats[mi], thermal ? thermal[e] : 0.0, sm.data_of(e), ke))
            return;
        }
        if constexpr (HasFbarPointMatrix<K>::value) {  // the F-bar hexahedron's
          if (point_tangent[mi] && K::fbar_point_matrix(Xd, ud, fbar_mats[mi], thermal ? thermal[e] : 0.0, ke)) return;
        }
        if constexpr (HasElementMatrix<K>::value) {  // the kind's own point-wise tangent, where it applies
          if (K::element_matrix(Xd, ud, sm.materials[mi], sm.data_of(e), ke)) return;
        }
        // The converged state, sized by the store (as the CUDA engine's copy holds
        // state_capacity<K>()); empty and unallocated for laws without state.
        const int ns = sm.state_size;
        const auto run = [&](auto number, const SolidMaterial<decltype(number)>& m, auto lanes_tag) {
          using N = decltype(number);
          std::vector<N> st_old(static_cast<std::size_t>(ns) * K::kPoints);
          if (ns > 0) dual_point_state<K>(state_old, sm.num_points, sm.first_point(e), ns, st_old.data());
          const ElementState<N> est{ns > 0 ? st_old.data() : nullptr, nullptr, static_cast<std::size_t>(K::kPoints), 0,
                                    sm.data_of(e), N(thermal ? thermal[e] : 0.0)};
          element_matrix_by_columns<K, N, decltype(lanes_tag)::value>(Xd, ud, m, sm.hourglass_kappa, est, ke);
        };
        if (lanes) run(DL(0.0), lane_mats[mi], std::integral_constant<int, kMatrixLanes>{});
        else run(D(0.0), mats[mi], std::integral_constant<int, 1>{});
      });
    });
}

}  // namespace halfstep
