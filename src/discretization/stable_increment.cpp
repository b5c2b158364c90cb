#include "discretization/stable_increment.hpp"

#include <limits>

#include "core/vec3.hpp"
#include "elements/discrete.hpp"
#include "elements/registry.hpp"
#include "elements/solid_common.hpp"

namespace halfstep {

void deformed_bound_ratios(const StructureSystem& sys, const StructureState& st, std::vector<double>& shell_ratio,
                           std::vector<double>& solid_ratio) {
  shell_ratio.assign(static_cast<std::size_t>(sys.shell.num_elements), 1.0);
  solid_ratio.assign(static_cast<std::size_t>(sys.solid.num_elements), 1.0);
  const auto ref = [&](int n) { return Vec3<double>{sys.x0[n], sys.y0[n], sys.z0[n]}; };
  const auto now = [&](int n) { return Vec3<double>{sys.x0[n] + st.ux[n], sys.y0[n] + st.uy[n], sys.z0[n] + st.uz[n]}; };
  for (int e = 0; e < sys.shell.num_elements; ++e) {
    Vec3<double> X[4], x[4];
    for (int k = 0; k < 4; ++k) {
      X[k] = ref(sys.shell.conn[4 * static_cast<std::size_t>(e) + k]);
      x[k] = now(sys.shell.conn[4 * static_cast<std::size_t>(e) + k]);
    }
    // The wave speed (and a mass scaling's factor) is in element_dt: only the length changes.
    const double l0 = mitc4_characteristic_length(X);
    if (l0 > 0) shell_ratio[static_cast<std::size_t>(e)] = mitc4_characteristic_length(x) / l0;
  }
  for (const SolidGroup& g : sys.solid.groups)
    visit_continuum_kind(g.kind, [&](auto kind) {
      using K = decltype(kind);
      if constexpr (!IsDiscrete<K>::value) {  // a spring's bound is set by its nodes' masses, not its shape
        for (int e = g.first; e < g.first + g.count; ++e) {
          const int* c = &sys.solid.conn[static_cast<std::size_t>(g.conn_offset + (e - g.first) * K::kNodes)];
          Vec3<double> X[K::kNodes], x[K::kNodes];
          for (int a = 0; a < K::kNodes; ++a) {
            X[a] = ref(c[a]);
            x[a] = now(c[a]);
          }
          const SolidMaterial<double>& m =
              sys.solid.materials[static_cast<std::size_t>(sys.solid.material[static_cast<std::size_t>(e)])];
          const double b0 = kind_stable_dt<K>(X, m, sys.solid.hourglass_kappa, sys.solid.data_of(e));
          const double b = kind_stable_dt<K>(x, m, sys.solid.hourglass_kappa, sys.solid.data_of(e));
          if (b0 > 0 && b0 < 1e300) solid_ratio[static_cast<std::size_t>(e)] = b / b0;
        }
      }
    });
}

std::pair<double, int> deformed_stable_dt(const StructureSystem& sys, const StructureState& st) {
  double best = std::numeric_limits<double>::infinity();
  int which = -1;
  const auto consider = [&](double d, int model_element) {
    if (d < best) {
      best = d;
      which = model_element;
    }
  };
  std::vector<double> shell_ratio, solid_ratio;
  deformed_bound_ratios(sys, st, shell_ratio, solid_ratio);
  for (int e = 0; e < sys.shell.num_elements; ++e)
    consider(sys.shell.element_dt[static_cast<std::size_t>(e)] * shell_ratio[static_cast<std::size_t>(e)],
             sys.shell.model_element[e]);
  for (int e = 0; e < sys.solid.num_elements; ++e)
    consider(sys.solid.element_dt[static_cast<std::size_t>(e)] * solid_ratio[static_cast<std::size_t>(e)],
             sys.solid.model_element[static_cast<std::size_t>(e)]);
  for (int e = 0; e < sys.tri.num_elements; ++e) consider(sys.tri.element_dt[e], sys.tri.model_element[e]);
  for (int e = 0; e < sys.beam.num_elements; ++e) consider(sys.beam.element_dt[e], sys.beam.model_element[e]);
  return {best, which};
}

}  // namespace halfstep
