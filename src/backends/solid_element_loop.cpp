#include "backends/solid_element_loop.hpp"

#include "core/forall.hpp"
#include "discretization/continuum_element.hpp"
#include "elements/registry.hpp"

namespace halfstep {

namespace {

/// Forall body: one element of group g (local index i) into the per-slot force buffer.
template <class K>
struct GroupBody {
  ContinuumView<double> v;
  const double *ux, *uy, *uz;
  SlotSink<double> sink;
  int first;
  int conn_offset;
  HS_HD void operator()(int i, double* sum) const {
    SlotSink<double> s = sink;
    const SolidEnergy<double> w =
        continuum_element<K>(v, ux, uy, uz, first + i, conn_offset + i * K::kNodes, s);
    sum[0] += w.strain;
    sum[1] += w.hourglass;
  }
};

template <class K>
SolidEnergy<double> group_pass(const SolidMesh& sm, const SolidGroup& g, const double* x0, const double* y0,
                               const double* z0, StructureState& st, int threads, ElementRange range) {
  int begin = 0, end = 0;
  range_bounds(range, g.boundary, g.count, begin, end);
  const ContinuumView<double> v{sm.conn.data(), sm.material.data(), sm.materials.data(), sm.hourglass_kappa,
                                x0, y0, z0, st.solid_energy.data(), st.solid_hourglass.data()};
  const GroupBody<K> body{v, st.ux.data(), st.uy.data(), st.uz.data(), SlotSink<double>{st.solid_force.data()},
                          g.first, g.conn_offset};
  double sum[2];
  forall_sum<2>(begin, end, threads, body, sum);
  return {sum[0], sum[1]};
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
