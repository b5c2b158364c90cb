// IsLanes: whether a number type is lanes of derivatives (core/dual_lanes.hpp, the CPU
// engine's element matrices). The elements' reference geometry carries no derivative and is
// then computed in double: in the lanes, every operation on a constant still tests its flag.
// Host/device code may name the trait without the lanes type, which is host only.
#pragma once

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

}  // namespace halfstep
