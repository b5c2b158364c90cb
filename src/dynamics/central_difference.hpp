// Per-dof update of the half-station central difference scheme in its reordered single-pass
// form (seed 000, eqs. 3.1-3.4): acceleration first, then half-step velocity.
#pragma once

#include "core/host_device.hpp"

namespace halfstep {

/// Time levels of one step: h_prev = t^n - t^(n-1/2), h_next = t^(n+1/2) - t^n.
template <class T>
struct HalfSteps {
  T h_prev, h_next;
};

/// Result of updating one dof at step n.
template <class T>
struct DofUpdate {
  T v_full;   ///< v^n (for kinetic energy and output)
  T v_next;   ///< v^(n+1/2)
  T reaction; ///< force the constraint exerts (0 for free dofs)
};

/// Free dof with mass m, damping c = alpha m, external force fe, internal force fi (eq. 3.1-3.3).
template <class T>
HS_HD DofUpdate<T> free_dof(T m, T c, T fe, T fi, T v_half, HalfSteps<T> h) {
  const T a = (fe - fi - c * v_half) / (m + c * h.h_prev);
  return {v_half + h.h_prev * a, v_half + (h.h_prev + h.h_next) * a, T(0)};
}

/// Constrained dof whose next half-step velocity is imposed (0 when held); the reaction is
/// what the support must add to the applied forces to produce that motion.
template <class T>
HS_HD DofUpdate<T> constrained_dof(T m, T c, T fe, T fi, T v_half, T v_imposed, HalfSteps<T> h) {
  const T span = h.h_prev + h.h_next;
  const T a = (v_imposed - v_half) / span;
  const T v_full = v_half + h.h_prev * a;
  return {v_full, v_imposed, m * a + c * v_full + fi - fe};
}

}  // namespace halfstep
