#include "discretization/continuum_pass.hpp"

#include "core/forall.hpp"
#include "elements/registry.hpp"

namespace halfstep {

namespace {

/// Forall body: element first + i of one group into the per-slot force buffer (kThermal:
/// continuum_element's).
template <class K, bool kThermal>
struct GroupBody {
  ContinuumView<double> v;
  const double *ux, *uy, *uz;
  SlotSink<double> sink;
  int first;
  int conn_offset;
  std::size_t first_point;
  const double* const* vel;
  HS_HD void operator()(int i, double* sum) const {
    SlotSink<double> s = sink;
    const SolidEnergy<double> w = continuum_element<K, kThermal>(v, ux, uy, uz, first + i, conn_offset + i * K::kNodes, s,
                                                       first_point + static_cast<std::size_t>(i) * K::kPoints, vel);
    sum[0] += w.strain;
    sum[1] += w.hourglass;
    sum[2] += w.dissipation;
    sum[3] += w.viscous;
    sum[4] += w.thermal_work;
  }
};

}  // namespace

SolidEnergy<double> continuum_pass(const SolidMesh& sm, const double* x0, const double* y0, const double* z0,
                                   const double* ux, const double* uy, const double* uz, double* slot_force,
                                   double* energy, double* hourglass, int threads, ElementRange range,
                                   double* state, const double* const* vel, double bulk_linear,
                                   double bulk_quadratic, double half_dt, const double* thermal,
                                   const double* state_old, double* thermal_last, double* thermal_slope) {
  const ContinuumView<double> v{sm.conn.data(), sm.material.data(), sm.materials.data(), sm.hourglass_kappa,
                                x0,
                                y0,
                                z0,
                                energy,
                                hourglass,
                                sm.state_size > 0 ? state : nullptr,
                                sm.num_points,
                                sm.element_data_ptr.empty() ? nullptr : sm.element_data.data(),
                                sm.element_data_ptr.empty() ? nullptr : sm.element_data_ptr.data(),
                                bulk_linear,
                                bulk_quadratic,
                                half_dt,
                                thermal,
                                thermal_last,
                                thermal_slope,
                                sm.state_size > 0 ? state_old : nullptr};
  SolidEnergy<double> total{0.0, 0.0, 0.0, 0.0};
  for (const SolidGroup& g : sm.groups)
    visit_continuum_kind(g.kind, [&](auto kind) {
      using K = decltype(kind);
      int begin = 0, end = 0;
      range_bounds(range, g.boundary, g.count, begin, end);
      double sum[5];
      const auto run = [&](auto body) { forall_sum<5>(begin, end, threads, body, sum); };
      // Models with *EXPANSION keep their last thermal passes (StructureState::solid_thermal_last)
      // or change temperatures: the thermal path; the others compile without it.
      if (thermal || thermal_last)
        run(GroupBody<K, true>{v, ux, uy, uz, SlotSink<double>{slot_force}, g.first, g.conn_offset, g.first_point, vel});
      else
        run(GroupBody<K, false>{v, ux, uy, uz, SlotSink<double>{slot_force}, g.first, g.conn_offset, g.first_point, vel});
      total.strain += sum[0];
      total.hourglass += sum[1];
      total.dissipation += sum[2];
      total.viscous += sum[3];
      total.thermal_work += sum[4];
    });
  return total;
}

}  // namespace halfstep
