// IsLanes: whether a number type is lanes of derivatives (core/dual_lanes.hpp, the CPU
// engine's element matrices). The elements' reference geometry carries no derivative and is
// then computed in double: in the lanes, every operation on a constant still tests its flag.
// Host/device code may name the trait without the lanes type, which is host only.
#pragma once

#include "core/host_device.hpp"
#include "core/vec3.hpp"

namespace halfstep {

namespace autodiff {
template <int N>
struct DualLanes;  // core/dual_lanes.hpp
}  // namespace autodiff

/// Whether T is lanes of derivatives (24 % of an NLGEOM C3D8 run's time went to the flags'
/// tests on its constant geometry before the geometry moved to double).
template <class T>
struct IsLanes {
  static constexpr bool value = false;
};
/// DualLanes<N>.
template <int N>
struct IsLanes<autodiff::DualLanes<N>> {
  static constexpr bool value = true;
};

/// The value parts of n points in lanes (IsLanes), whose derivatives are zero.
template <class T>
HS_HD void lane_values(const Vec3<T>* p, int n, Vec3<double>* out) {
  for (int a = 0; a < n; ++a) out[a] = {p[a].x.v, p[a].y.v, p[a].z.v};
}

/// n points computed in double as constants of number type T (lanes with no derivative).
template <class T>
HS_HD void from_values(const Vec3<double>* p, int n, Vec3<T>* out) {
  for (int a = 0; a < n; ++a) out[a] = {T(p[a].x), T(p[a].y), T(p[a].z)};
}

}  // namespace halfstep
