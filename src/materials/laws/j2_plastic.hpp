// J2 plasticity with isotropic hardening at finite strain (materials/j2_plasticity.hpp: the
// return map and its state). A law of materials/solid_laws.hpp with per-point state.
#pragma once

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "materials/j2_plasticity.hpp"
#include "materials/laws/lame_moduli.hpp"
#include "materials/laws/svk_isotropic.hpp"
#include "materials/solid_material_data.hpp"

namespace halfstep {

/// The j2-plastic law (isotropic elasticity lambda, mu; the *PLASTIC table).
struct J2Plastic : LameModuli {
  static constexpr int kStateSize = kJ2StateSize;
  static constexpr int kPeeq = kJ2Alpha;
  /// Of its stateless response below (update's tangent is by dual numbers: material_law.hpp).
  static constexpr bool kConstantTangent = true;
  /// S and energy from the point's state at the start of the increment (old, kStateSize
  /// values) to F, the state at F into next. The energy is the stored elastic energy plus the
  /// plastic work dissipated so far: the internal energy of the energy balance.
  template <class T, class S>
  HS_HD static SolidStress<T> update(const SolidMaterial<T>& m, const Mat3<T>& F, const S* old, T* next) {
    SolidStress<T> r = j2_update(m, F, old, next);
    r.energy = r.energy + next[kJ2Dissipation];
    r.dissipation = next[kJ2Dissipation];
    return r;
  }
  /// The small-strain theory's update for a geometrically linear step (F a dual number about
  /// the reference; j2_small_strain_linearized), with the same state layout.
  template <class V, class S>
  HS_HD static SolidStress<Dual<V>> small_strain_update(const SolidMaterial<Dual<V>>& m, const Mat3<Dual<V>>& F,
                                                        const S* old, Dual<V>* next) {
    return j2_small_strain_linearized(m, F, old, next);
  }
  /// Without state (the tangent engines, which refuse plastic laws): the elastic response of
  /// isotropic St. Venant-Kirchhoff with the same constants.
  template <class T>
  HS_HD static SolidStress<T> stress(const SolidMaterial<T>& m, const Mat3<T>& F) {
    return SvkIsotropic::stress(m, F);
  }
  /// The tangent of stress() above.
  template <class T>
  HS_HD static void constant_tangent(const SolidMaterial<T>& m, T C[6][6]) {
    SvkIsotropic::constant_tangent(m, C);
  }
};

}  // namespace halfstep
