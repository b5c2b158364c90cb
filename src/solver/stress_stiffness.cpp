#include "solver/stress_stiffness.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "core/dual.hpp"
#include "core/forall.hpp"
#include "core/slot_forces.hpp"
#include "core/threads.hpp"
#include "elements/registry.hpp"
#include "elements/trait_facts.hpp"
#include "materials/material_duals.hpp"

namespace halfstep {

namespace {

using D = Dual<double>;

using trait_facts::CrossSectionOf;
using trait_facts::DiscreteOf;
using trait_facts::FormulationOf;

/// Whether the kind's formulation is the finite particle method's (points of its own).
template <class K>
constexpr bool is_fpm() {
  const char* f = FormulationOf<K>::value;
  return f[0] == 'F' && f[1] == 'P' && f[2] == 'M' && f[3] == '\0';
}

/// Which point layout kind K has here, read from its trait (no kind is named: a new kind of
/// one of these shapes comes with it): 20-node bricks on their own Gauss rule, 8-node bricks
/// on 2x2x2 points next to their nodes (F-bar's stress at each point, or the plain one), the
/// one-point brick, the truss; 5: springs and dashpots along given dofs (their directions do not
/// turn: no stress stiffness); 6: the 4-node tetrahedron (one point); 7: the 10-node ones on
/// their 4 points; 0: none.
template <class K>
constexpr int layout() {
  if constexpr (DiscreteOf<K>::dofs > 0) {
    return 5;
  } else if constexpr (std::is_base_of_v<solid_detail::Hex20<2>, K> || std::is_base_of_v<solid_detail::Hex20<3>, K>) {
    return 1;
  } else if constexpr (K::kDimension == 3 && K::kNodes == 8 && ElementDataSize<K>::value == 0 && !is_fpm<K>()) {
    return K::kPoints == 8 ? 2 : K::kPoints == 1 ? 3 : 0;
  } else if constexpr (K::kNodes == 2 && CrossSectionOf<K>::value) {
    return 4;
  } else if constexpr (K::kDimension == 3 && K::kNodes == 4 && K::kPoints == 1 && ElementDataSize<K>::value == 0) {
    return 6;
  } else if constexpr (K::kDimension == 3 && K::kNodes == 10 && K::kPoints == 4 && ElementDataSize<K>::value == 0) {
    return 7;
  } else {
    return 0;
  }
}

template <class K>
constexpr int points_of() {
  return layout<K>() == 5 ? 0 : layout<K>() == 2 ? 8 : K::kPoints;
}

}  // namespace

bool StressStiffness::supports(int kind) {
  bool ok = false;
  visit_continuum_kind(kind, [&](auto k) { ok = layout<decltype(k)>() != 0; });
  return ok;
}

std::string StressStiffness::supported_names() {
  std::string out;
  for (int k = 0; k < num_element_kinds(); ++k)
    if (supports(k) && element_kind(k).formulation[0] == '\0') out += (out.empty() ? "" : ", ") + std::string(element_kind(k).name);
  return out;
}

StressStiffness::StressStiffness(const StructureSystem& sys, const std::vector<double>& u, int threads)
    : sys_(sys), threads_(threads > 0 ? threads : default_threads()) {
  const SolidMesh& sm = sys.solid;
  point_start_.assign(static_cast<std::size_t>(sm.num_elements) + 1, 0);
  grad_start_.assign(point_start_.size(), 0);
  for (const SolidGroup& g : sm.groups)
    visit_continuum_kind(g.kind, [&](auto kind) {
      using K = decltype(kind);
      if constexpr (layout<K>() == 0) {
        throw std::logic_error(std::string("StressStiffness: kind ") + element_kind(g.kind).name + " has none");
      } else {
        for (int i = 0; i < g.count; ++i) {
          const auto e = static_cast<std::size_t>(g.first + i);
          point_start_[e + 1] = points_of<K>();
          grad_start_[e + 1] = static_cast<std::size_t>(points_of<K>()) * 3 * K::kNodes;
        }
      }
    });
  for (std::size_t e = 0; e + 1 < point_start_.size(); ++e) {
    point_start_[e + 1] += point_start_[e];
    grad_start_[e + 1] += grad_start_[e];
  }
  ws_.assign(9 * point_start_.back(), 0.0);
  grad_.assign(grad_start_.back(), 0.0);
  std::vector<SolidMaterial<D>> mats;
  for (const SolidMaterial<double>& m : sm.materials) mats.push_back(dual_material(m));
  std::atomic<int> invalid{-1};  // an element inverted or flat at a point (no throw inside forall)
  for (const SolidGroup& g : sm.groups)
    visit_continuum_kind(g.kind, [&](auto kind) {
      using K = decltype(kind);
      constexpr int n = K::kNodes, P = points_of<K>();
      if constexpr (P > 0 && layout<K>() != 0) {
        forall(0, g.count, threads_, [&](int i) {
          const int e = g.first + i;
          const int* c = &sm.conn[static_cast<std::size_t>(g.conn_offset) + static_cast<std::size_t>(i) * n];
          Vec3<double> X[n];
          Vec3<D> Xd[n], ud[n];
          for (int a = 0; a < n; ++a) {
            const auto k = static_cast<std::size_t>(c[a]);
            X[a] = {sys.x0[k], sys.y0[k], sys.z0[k]};
            Xd[a] = {D(X[a].x), D(X[a].y), D(X[a].z)};
            // The linear stress: the point outputs' derivative along u at the reference.
            ud[a] = {D(0.0, u[3 * k]), D(0.0, u[3 * k + 1]), D(0.0, u[3 * k + 2])};
          }
          const SolidMaterial<D>& md = mats[static_cast<std::size_t>(sm.material[static_cast<std::size_t>(e)])];
          SolidOutput<D> out[P];
          double dv[P];
          Vec3<double> b[P][n];
          if constexpr (layout<K>() == 1) {
            K::point_outputs(Xd, ud, md, ElementState<D>{}, out);
            for (int q = 0; q < P; ++q) dv[q] = solid_detail::hex20_gradients(X, P == 8 ? 2 : 3, q, b[q]);
          } else if constexpr (layout<K>() == 2) {
            K::point_outputs(Xd, ud, md, ElementState<D>{}, out);
            for (int q = 0; q < P; ++q) {
              solid_detail::hex8_natural(solid_detail::hex8_gauss<double>(q, 0), solid_detail::hex8_gauss<double>(q, 1),
                                         solid_detail::hex8_gauss<double>(q, 2), b[q], static_cast<double*>(nullptr));
              dv[q] = solid_detail::hex8_gradients(X, b[q]);
            }
          } else if constexpr (layout<K>() == 3) {
            out[0] = K::centroid_output(Xd, ud, md);
            solid_detail::hex8_natural(0.0, 0.0, 0.0, b[0], static_cast<double*>(nullptr));
            dv[0] = 8 * solid_detail::hex8_gradients(X, b[0]);
          } else if constexpr (layout<K>() == 6) {
            out[0] = K::centroid_output(Xd, ud, md);
            dv[0] = solid_detail::tet4_gradients(X, b[0]);
          } else if constexpr (layout<K>() == 7) {
            K::point_outputs(Xd, ud, md, ElementState<D>{}, out);
            for (int q = 0; q < P; ++q) dv[q] = solid_detail::tet10_gauss_gradients(X, q, b[q]);
          } else if constexpr (layout<K>() == 4) {  // the truss: dN/ds along its chord, over its volume A L
            out[0] = K::centroid_output(Xd, ud, md);
            const Vec3<double> d = X[1] - X[0];
            const double L2 = dot(d, d);
            b[0][0] = (-1.0 / L2) * d;
            b[0][1] = (1.0 / L2) * d;
            dv[0] = sm.materials[static_cast<std::size_t>(sm.material[static_cast<std::size_t>(e)])].thickness * std::sqrt(L2);
          }
          const std::size_t p0 = point_start_[static_cast<std::size_t>(e)], g0 = grad_start_[static_cast<std::size_t>(e)];
          for (int q = 0; q < P; ++q) {
            if (!(dv[q] > 0)) invalid.store(e);
            for (int k = 0; k < 9; ++k) ws_[9 * (p0 + q) + k] = dv[q] * out[q].cauchy.a[k].d;
            for (int a = 0; a < n; ++a) {
              double* gb = &grad_[g0 + (static_cast<std::size_t>(q) * n + a) * 3];
              gb[0] = b[q][a].x;
              gb[1] = b[q][a].y;
              gb[2] = b[q][a].z;
            }
          }
        });
      }
    });
  if (invalid.load() >= 0)
    throw std::runtime_error("continuum element " + std::to_string(invalid.load()) + " is inverted or flat at a point");
}

void StressStiffness::apply(const std::vector<double>& phi, std::vector<double>& f) const {
  const SolidMesh& sm = sys_.solid;
  std::vector<double> slot(3 * sm.conn.size(), 0.0);
  for (const SolidGroup& g : sm.groups) {
    const int n = g.nodes_per_element;
    forall(0, g.count, threads_, [&](int i) {
      const int e = g.first + i;
      const std::size_t at = static_cast<std::size_t>(g.conn_offset) + static_cast<std::size_t>(i) * n;
      const int* c = &sm.conn[at];
      const std::size_t p0 = point_start_[static_cast<std::size_t>(e)], p1 = point_start_[static_cast<std::size_t>(e) + 1];
      const double* gb = &grad_[grad_start_[static_cast<std::size_t>(e)]];
      for (std::size_t q = p0; q < p1; ++q, gb += 3 * n) {
        // H = grad(phi) = sum_b phi_b (x) b_b; then f_a += H (dV S) b_a.
        double H[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
        for (int a = 0; a < n; ++a) {
          const auto k = static_cast<std::size_t>(c[a]);
          for (int r = 0; r < 3; ++r)
            for (int s = 0; s < 3; ++s) H[3 * r + s] += phi[3 * k + r] * gb[3 * a + s];
        }
        const double* W = &ws_[9 * q];
        double HW[9];
        for (int r = 0; r < 3; ++r)
          for (int s = 0; s < 3; ++s) HW[3 * r + s] = H[3 * r] * W[s] + H[3 * r + 1] * W[3 + s] + H[3 * r + 2] * W[6 + s];
        for (int a = 0; a < n; ++a)
          for (int r = 0; r < 3; ++r)
            slot[3 * (at + a) + r] +=
                HW[3 * r] * gb[3 * a] + HW[3 * r + 1] * gb[3 * a + 1] + HW[3 * r + 2] * gb[3 * a + 2];
      }
    });
  }
  f.assign(3 * static_cast<std::size_t>(sys_.num_nodes), 0.0);
  forall(0, sys_.num_nodes, threads_, [&](int n) {
    add_slot_forces3(sm.node_slot_ptr.data(), sm.node_slots.data(), slot.data(), n, &f[3 * static_cast<std::size_t>(n)]);
  });
}

}  // namespace halfstep
