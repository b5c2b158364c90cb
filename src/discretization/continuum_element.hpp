// The continuum element pass's per-element work, written once for every backend: gather the
// element's reference and current nodes, call the kind's internal_force and hand each node's
// force to a sink. Where the force goes (a per-slot buffer gathered by the node pass,
// atomics, or plain adds within one color) is the assembly strategy the backend picks; the
// element code does not know it.
#pragma once

#include <cstddef>
#include <type_traits>

#include "core/host_device.hpp"
#include "core/slot_forces.hpp"
#include "core/vec3.hpp"
#include "elements/bulk_viscosity.hpp"
#include "elements/solid_common.hpp"

namespace halfstep {

/// What the continuum element pass reads and writes besides the nodal displacements
/// (host pointers on the CPU, device pointers on a GPU).
template <class T>
struct ContinuumView {
  const int* conn;                     ///< node indices, groups in order (SolidMesh::conn)
  const int* material;                 ///< per element: index into materials
  const SolidMaterial<T>* materials;   ///< per section, axes and thickness applied
  T kappa;                             ///< C3D8R hourglass factor
  const T *x0, *y0, *z0;               ///< reference coordinates
  T* energy;                           ///< strain energy per element (written)
  T* hourglass;                        ///< hourglass energy per element (written)
  T* state = nullptr;                  ///< per-point material state, updated in place (null: no law has state)
  std::size_t state_stride = 0;        ///< the state store's number of points (SolidMesh::num_points)
  const double* element_data = nullptr;          ///< constant per-element data (SolidMesh::element_data; null: no kind has any)
  const std::size_t* element_data_ptr = nullptr;  ///< element e's data at element_data + element_data_ptr[e]
  T bulk_linear = T(0), bulk_quadratic = T(0);  ///< the step's bulk viscosity b1, b2 (0, 0: none; static steps)
  /// (t^n - t^(n-1)) / 2: the bulk viscosity takes the velocities v^(n-1/2) at the midpoint
  /// configuration x^n - half_dt v^(n-1/2), where a rigid rotation's chord velocities are
  /// exactly a rigid velocity field (no volume rate); at x^n they are not.
  T half_dt = T(0);
  /// Per element: its temperature change theta - theta_initial at this pass's time
  /// (thermal_pass, discretization/loads.hpp); null when the step changes no temperature.
  const T* thermal = nullptr;
  /// Explicit passes of models with *EXPANSION (null elsewhere): per element, the temperature
  /// change and d strain / d theta of its last pass (NaN: no pass since the energy balance
  /// began), read and rewritten so that each pass books the thermal work of the change since
  /// (continuum_element).
  T* thermal_last = nullptr;
  T* thermal_slope = nullptr;
  /// The state to read where it is not `state` itself (a static step's Newton iterations
  /// all start from the last converged increment's and write the trial's into `state`, or
  /// nothing when `state` is null); null: read `state`, updated in place.
  const T* state_old = nullptr;
};

/// Whether kind K's internal_force takes the nodal velocities (K::kUsesVelocity: dashpots).
template <class K, class = void>
struct UsesVelocity : std::false_type {};
template <class K>
struct UsesVelocity<K, std::void_t<decltype(K::kUsesVelocity)>> : std::bool_constant<K::kUsesVelocity> {};

/// Whether kind K's internal_force reads the displacements only through their differences
/// (K::kRelativeDisplacements: its strains come from shape-function gradients, which sum to
/// zero), so that continuum_element may hand it displacements relative to its first node.
template <class K, class = void>
struct RelativeDisplacements : std::false_type {};
template <class K>
struct RelativeDisplacements<K, std::void_t<decltype(K::kRelativeDisplacements)>>
    : std::bool_constant<K::kRelativeDisplacements> {};

/// Element e of kind K, whose nodes start at conn position base and integration points at
/// point: internal forces at the displacements (ux, uy, uz), handed to sink(slot, node, f)
/// per element node (slot = base + a); advances the points' state in place, stores and
/// returns the energies. vel (x, y, z arrays, or null) are the nodal velocities (the latest
/// half-station's), read by kinds that use them (UsesVelocity) and by the step's bulk
/// viscosity (v.bulk_linear, v.bulk_quadratic; kinds with TakesBulkViscosity), whose power
/// comes back as SolidEnergy::viscous. rem (FP32 runs: the displacements' rounding remainders,
/// NodeStateView::rem; else null): kinds with RelativeDisplacements then take each node's
/// displacement less the first node's, formed with the remainders, exact to the precision of
/// the difference. On a large rigid motion the plain FP32 values carry eps |u| of noise, a
/// strain of eps L / h that heats a tumbling body (docs/performance.md). With
/// v.thermal_last, SolidEnergy::thermal_work is the work of the element's temperature change
/// since its last pass. kThermal false: the model has no *EXPANSION (ElementState::expands),
/// and the pass compiles without the thermal path.
template <class K, bool kThermal = true, class T, class Sink>
HS_HD SolidEnergy<T> continuum_element(const ContinuumView<T>& v, const T* ux, const T* uy, const T* uz, int e,
                                       int base, Sink& sink, std::size_t point = 0,
                                       const T* const* vel = nullptr, const T* const* rem = nullptr) {
  Vec3<T> X[K::kNodes], u[K::kNodes], f[K::kNodes];
  int c[K::kNodes];
  bool relative = false;
  if constexpr (RelativeDisplacements<K>::value) relative = rem != nullptr;
  const int n0 = v.conn[base];
  for (int a = 0; a < K::kNodes; ++a) {
    const int n = c[a] = v.conn[base + a];
    X[a] = {v.x0[n], v.y0[n], v.z0[n]};
    if (relative)
      u[a] = {(ux[n] - ux[n0]) + (rem[0][n] - rem[0][n0]), (uy[n] - uy[n0]) + (rem[1][n] - rem[1][n0]),
              (uz[n] - uz[n0]) + (rem[2][n] - rem[2][n0])};
    else
      u[a] = {ux[n], uy[n], uz[n]};
  }
  const ElementState<T> state{v.state_old ? v.state_old : v.state, v.state, v.state_stride, point,
                              v.element_data ? v.element_data + v.element_data_ptr[e] : nullptr,
                              v.thermal ? v.thermal[e] : T(0), kThermal};
  SolidEnergy<T> w;
  if constexpr (UsesVelocity<K>::value) {
    Vec3<T> vn[K::kNodes];
    for (int a = 0; a < K::kNodes; ++a)
      vn[a] = vel ? Vec3<T>{vel[0][c[a]], vel[1][c[a]], vel[2][c[a]]} : Vec3<T>{T(0), T(0), T(0)};
    w = K::internal_force(X, u, v.materials[v.material[e]], v.kappa, f, state, vel ? vn : nullptr);
  } else {
    (void)vel;
    w = K::internal_force(X, u, v.materials[v.material[e]], v.kappa, f, state);
  }
  if constexpr (TakesBulkViscosity<K>::value) {
    if (vel && (v.bulk_linear > T(0) || v.bulk_quadratic > T(0))) {
      // Positions relative to the first node where the displacements are (a translation
      // changes neither the volume nor its gradient), at the midpoint configuration.
      Vec3<T> X8[8], x8[8], v8[8], f8[8];
      for (int k = 0; k < 8; ++k) {
        const int a = K::hex_corner(k);
        X8[k] = X[a];
        v8[k] = {vel[0][c[a]], vel[1][c[a]], vel[2][c[a]]};
        x8[k] = X[a] + u[a] - v.half_dt * v8[k];
        f8[k] = {T(0), T(0), T(0)};
      }
      w.viscous = add_bulk_viscosity(X8, x8, v8, v.materials[v.material[e]], v.bulk_linear, v.bulk_quadratic, f8);
      for (int k = 0; k < 8; ++k) f[K::hex_corner(k)] += f8[k];
    }
  }
  if constexpr (TakesThermalStrain<K>::value && kThermal) {
    if (v.thermal_last) {
      // The work of the temperature change since the last pass at (nearly) fixed
      // deformation, by the trapezoidal rule in theta: exact for the quadratic energy of
      // linear thermoelasticity, so a temperature applied at once is booked whole.
      const T theta = state.thermal, last = v.thermal_last[e];
      if (last == last) w.thermal_work = T(0.5) * (v.thermal_slope[e] + w.thermal_slope) * (theta - last);
      v.thermal_last[e] = theta;
      v.thermal_slope[e] = w.thermal_slope;
    }
  }
  for (int a = 0; a < K::kNodes; ++a) sink(base + a, c[a], f[a]);
  v.energy[e] = w.strain;
  v.hourglass[e] = w.hourglass;
  return w;
}

/// Sink of the gather strategy: 3 values per element node slot, summed per node later in a
/// fixed order by add_slot_forces3 (deterministic).
template <class T>
struct SlotSink {
  T* force;
  HS_HD void operator()(int slot, int, const Vec3<T>& f) const {
    T* out = force + 3 * static_cast<std::size_t>(slot);
    out[0] = f.x;
    out[1] = f.y;
    out[2] = f.z;
  }
};

}  // namespace halfstep
