// The small-strain theory of a geometrically linear static step with plasticity or adhesion on the CPU
// (ContinuumOperator::small_strain_force and small_strain_matrices): the per-element work is
// discretization/small_strain_element.hpp's, which the CUDA tangent engine runs too.
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "core/dual.hpp"
#include "core/forall.hpp"
#include "core/slot_forces.hpp"
#include "discretization/continuum_operator.hpp"
#include "discretization/small_strain_element.hpp"
#include "elements/registry.hpp"
#include "materials/material_duals.hpp"

namespace halfstep {

std::vector<SolidMaterial<Dual<double>>> small_strain_materials(const SolidMesh& sm) {
  std::vector<SolidMaterial<Dual<double>>> out;
  for (SolidMaterial<double> m : sm.materials) {
    m.small_strain = 1;
    out.push_back(dual_material(m));
  }
  return out;
}

namespace {

/// Element e's reference nodes and displacements (node-major u, 3 per node).
template <int N>
void element_nodes(const StructureSystem& sys, const int* c, const std::vector<double>& u, Vec3<double>* X,
                   Vec3<double>* ue) {
  for (int a = 0; a < N; ++a) {
    const std::size_t n = static_cast<std::size_t>(c[a]);
    X[a] = {sys.x0[n], sys.y0[n], sys.z0[n]};
    ue[a] = {u[3 * n], u[3 * n + 1], u[3 * n + 2]};
  }
}

void check_state_size(const SolidMesh& sm) {
  if (sm.state_size > kMaxPointState)
    throw std::logic_error("small-strain theory: " + std::to_string(sm.state_size) + " state values per point, at most " +
                           std::to_string(kMaxPointState));
}

}  // namespace

double ContinuumOperator::small_strain_force(const std::vector<double>& u, std::vector<double>& f,
                                             const double* thermal, const double* state_old, double* state_next,
                                             std::vector<double>* energy, std::vector<double>* hourglass,
                                             double* dissipation) const {
  const SolidMesh& sm = sys_.solid;
  check_state_size(sm);
  const std::vector<SolidMaterial<Dual<double>>> mats = small_strain_materials(sm);
  const std::size_t ne = static_cast<std::size_t>(sm.num_elements);
  std::vector<double> slot(3 * sm.conn.size(), 0.0), strain(ne, 0.0), springs(ne, 0.0), dissipated(ne, 0.0);
  for (const SolidGroup& g : sm.groups)
    visit_continuum_kind(g.kind, [&](auto kind) {
      using K = decltype(kind);
      forall(0, g.count, threads_, [&](int i) {
        const int e = g.first + i;
        const std::size_t first = static_cast<std::size_t>(g.conn_offset) + static_cast<std::size_t>(i) * K::kNodes;
        Vec3<double> X[K::kNodes], ue[K::kNodes], fe[K::kNodes];
        element_nodes<K::kNodes>(sys_, &sm.conn[first], u, X, ue);
        SmallStrainEnergy w{};
        if constexpr (IsAdhesionEdge<K>::value) {
          w.strain = K::internal_force(X, ue, sm.materials[static_cast<std::size_t>(sm.material[static_cast<std::size_t>(e)])],
                                       0.0, fe, ElementState<double>{nullptr, nullptr, 0, 0, sm.data_of(e)})
                         .strain;
        } else {
          w = small_strain_element<K>(X, ue, mats[static_cast<std::size_t>(sm.material[static_cast<std::size_t>(e)])],
                                      sm.hourglass_kappa, state_old, state_next, sm.num_points, sm.first_point(e),
                                      sm.state_size, sm.data_of(e), thermal ? thermal[e] : 0.0, fe);
        }
        for (int a = 0; a < K::kNodes; ++a) {
          slot[3 * (first + a)] = fe[a].x;
          slot[3 * (first + a) + 1] = fe[a].y;
          slot[3 * (first + a) + 2] = fe[a].z;
        }
        strain[static_cast<std::size_t>(e)] = w.strain;
        springs[static_cast<std::size_t>(e)] = w.hourglass;
        dissipated[static_cast<std::size_t>(e)] = w.dissipation;
      });
    });
  f.assign(static_cast<std::size_t>(num_dofs()), 0.0);
  forall(0, sys_.num_nodes, threads_, [&](int n) {
    add_slot_forces3(sm.node_slot_ptr.data(), sm.node_slots.data(), slot.data(), n, &f[3 * static_cast<std::size_t>(n)]);
  });
  // Sums in element order: the same on any thread count (and the CUDA engine's order).
  double total = 0;
  for (std::size_t e = 0; e < ne; ++e) total += strain[e] + springs[e];
  if (dissipation) {
    *dissipation = 0;
    for (double d : dissipated) *dissipation += d;
  }
  if (energy) *energy = std::move(strain);
  if (hourglass) *hourglass = std::move(springs);
  return total;
}

void ContinuumOperator::small_strain_matrices(const std::vector<double>& u, double* k, const double* thermal,
                                              const double* state_old) const {
  using D = Dual<double>;
  const SolidMesh& sm = sys_.solid;
  check_state_size(sm);
  std::fill(k, k + offsets_.back(), 0.0);
  const std::vector<SolidMaterial<D>> mats1 = small_strain_materials(sm);
  std::vector<SolidMaterial<Dual<D>>> mats2;
  for (const SolidMaterial<D>& m : mats1) mats2.push_back(dual_material(m));
  for (const SolidGroup& g : sm.groups)
    visit_continuum_kind(g.kind, [&](auto kind) {
      using K = decltype(kind);
      constexpr int nd = 3 * K::kNodes;
      forall(0, g.count, threads_, [&](int i) {
        const int e = g.first + i;
        const int* c = &sm.conn[static_cast<std::size_t>(g.conn_offset) + static_cast<std::size_t>(i) * K::kNodes];
        const std::size_t mi = static_cast<std::size_t>(sm.material[static_cast<std::size_t>(e)]);
        double* ke = &k[offsets_[static_cast<std::size_t>(e)]];
        Vec3<double> X[K::kNodes], ue[K::kNodes], col[K::kNodes];
        element_nodes<K::kNodes>(sys_, c, u, X, ue);
        for (int j = 0; j < nd; ++j) {  // column j: the forces' derivative along dof j
          if (K::kDimension == 2 && j % 3 == 2) continue;
          if constexpr (IsAdhesionEdge<K>::value) {  // the derivative of its forces at u along dof j
            Vec3<D> Xd[K::kNodes], ud[K::kNodes], fd[K::kNodes];
            for (int a = 0; a < K::kNodes; ++a) {
              Xd[a] = {D(X[a].x), D(X[a].y), D(X[a].z)};
              ud[a] = {D(ue[a].x, j == 3 * a ? 1.0 : 0.0), D(ue[a].y, j == 3 * a + 1 ? 1.0 : 0.0),
                       D(ue[a].z, j == 3 * a + 2 ? 1.0 : 0.0)};
            }
            K::internal_force(Xd, ud, mats1[mi], D(0.0), fd, ElementState<D>{nullptr, nullptr, 0, 0, sm.data_of(e)});
            for (int a = 0; a < K::kNodes; ++a) col[a] = {fd[a].x.d, fd[a].y.d, fd[a].z.d};
          } else if constexpr (TakesThermalStrain<K>::value || std::is_same_v<K, FpmC3D8>) {
            small_strain_column<K>(X, ue, mats2[mi], sm.hourglass_kappa, state_old, sm.num_points, sm.first_point(e),
                                   sm.state_size, sm.data_of(e), thermal ? thermal[e] : 0.0, j, col);
          } else {
            // No law with state reaches it (StaticProblem refuses): its K(0), the derivative of
            // its linear forces along dof j.
            Vec3<double> unit[K::kNodes];
            for (int a = 0; a < K::kNodes; ++a)
              unit[a] = {j == 3 * a ? 1.0 : 0.0, j == 3 * a + 1 ? 1.0 : 0.0, j == 3 * a + 2 ? 1.0 : 0.0};
            small_strain_element<K>(X, unit, mats1[mi], sm.hourglass_kappa, nullptr, nullptr, sm.num_points, 0, 0,
                                    sm.data_of(e), 0.0, col);
          }
          for (int a = 0; a < K::kNodes; ++a) {
            ke[(3 * a) * nd + j] = col[a].x;
            ke[(3 * a + 1) * nd + j] = col[a].y;
            ke[(3 * a + 2) * nd + j] = col[a].z;
          }
        }
      });
    });
}

}  // namespace halfstep
