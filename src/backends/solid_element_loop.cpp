#include "backends/solid_element_loop.hpp"

#include <omp.h>

#include "elements/registry.hpp"

namespace halfstep {

namespace {

template <class K>
SolidEnergy<double> group_pass(const SolidMesh& sm, const SolidGroup& g, const double* x0, const double* y0,
                               const double* z0, StructureState& st, int threads, ElementRange range) {
  double strain = 0, hourglass = 0;
  int begin = 0, end = 0;
  range_bounds(range, g.boundary, g.count, begin, end);
  const SolidMaterial<double>* mats = sm.materials.data();
  const double kappa = sm.hourglass_kappa;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : strain, hourglass)
  for (int i = begin; i < end; ++i) {
    const int e = g.first + i;
    const std::size_t base = static_cast<std::size_t>(g.conn_offset) + static_cast<std::size_t>(i) * K::kNodes;
    const int* c = &sm.conn[base];
    Vec3<double> X[K::kNodes], u[K::kNodes], f[K::kNodes];
    for (int a = 0; a < K::kNodes; ++a) {
      const int n = c[a];
      X[a] = {x0[n], y0[n], z0[n]};
      u[a] = {st.ux[n], st.uy[n], st.uz[n]};
    }
    const SolidEnergy<double> w = K::internal_force(X, u, mats[sm.material[e]], kappa, f);
    double* out = &st.solid_force[3 * base];
    for (int a = 0; a < K::kNodes; ++a) {
      out[3 * a] = f[a].x;
      out[3 * a + 1] = f[a].y;
      out[3 * a + 2] = f[a].z;
    }
    st.solid_energy[e] = w.strain;
    st.solid_hourglass[e] = w.hourglass;
    strain += w.strain;
    hourglass += w.hourglass;
  }
  return {strain, hourglass};
}

}  // namespace

SolidEnergy<double> solid_element_pass(const SolidMesh& sm, const double* x0, const double* y0, const double* z0,
                                       StructureState& st, int threads, ElementRange range) {
  SolidEnergy<double> sum{0.0, 0.0};
  for (const SolidGroup& g : sm.groups)
    visit_continuum_kind(g.kind, [&](auto kind) {
      const SolidEnergy<double> w = group_pass<decltype(kind)>(sm, g, x0, y0, z0, st, threads, range);
      sum.strain += w.strain;
      sum.hourglass += w.hourglass;
    });
  return sum;
}

}  // namespace halfstep
