// The through-thickness section of a yielding MITC4 shell, host/device: at each of the
// element's 2x2 in-plane points, Simpson's rule over `points` section points (odd, >= 3; the
// two outer ones on the surfaces z = -a/2 and +a/2, z along the director), each a plane-stress
// J2 point (materials/j2_plane_stress.hpp) with its own state.
//
// The strain of section point z is the element's Green-Lagrange membrane strain plus z times
// its curvature, E(z) = e + z k, in the Cartesian frame of the reference surface that the
// elastic element already uses (elements/mitc4.hpp). That measure is invariant under rigid
// motions of any size, so the additive split E = E_e + E_p with the plastic strain stored in
// that frame is objective (large rotations, small strains: the setting of shell yielding),
// and the stress it gives is the second Piola-Kirchhoff stress S = C (E - E_p) in the same
// frame. Transverse shear stays elastic (kappa G gamma, as in the elastic element).
//
// State: component c of section point k at in-plane point g of an element is component c of
// point first + g * points + k of a structure-of-arrays store (ElementState; stride = the
// store's number of points), with the kJ2PlaneStateSize components of the plane-stress law.
#pragma once

#include "core/dual.hpp"
#include "elements/mitc4.hpp"
#include "materials/j2_plane_stress.hpp"
#include "materials/material_law.hpp"

namespace halfstep {

/// Most section points through a shell's thickness (Abaqus allows up to 15 with Simpson).
constexpr int kMaxShellSectionPoints = 15;

/// Position z (from the mid-surface along the director) and Simpson weight (thickness
/// included) of section point k of n over thickness a.
template <class T>
HS_HD void shell_section_point(int k, int n, T a, T& z, T& w) {
  const T h = a / T(n - 1);
  z = T(-0.5) * a + T(k) * h;
  w = h / T(3) * (k == 0 || k == n - 1 ? T(1) : (k % 2 == 1 ? T(4) : T(2)));
}

/// A plastic section (mitc4_internal_force_with's Section): integrates the plane-stress J2
/// law through the thickness at every in-plane point and updates the points' state. S is the
/// state store's number type: T itself, or double under a dual-number T (a static step's
/// tangent differentiates the return from the converged state, which has no derivative).
template <class T, class S = T>
struct Mitc4PlasticSection {
  const SolidMaterial<T>& law;  ///< elastic constants (lambda, mu) and hardening table
  T kshear;                     ///< kappa G of the elastic transverse shear
  T a;                          ///< thickness
  int points;                   ///< Simpson section points (odd, >= 3)
  ElementState<S> state;        ///< old and new state of the element's 4 x points points
  T* dissipation;               ///< per in-plane point: dissipation per unit area so far (written)

  /// Resultants r of strains e at in-plane point g; returns the internal energy per unit
  /// area (stored elastic energy plus the dissipation so far, integrated over the thickness).
  HS_HD T operator()(int g, const Mitc4Strain<T>& e, Mitc4Resultants<T>& r) const {
    for (int i = 0; i < 3; ++i) r.n[i] = r.m[i] = T(0);
    T energy = T(0), dissipated = T(0);
    for (int k = 0; k < points; ++k) {
      T z, w;
      shell_section_point(k, points, a, z, w);
      const T eps[3] = {e.mem[0] + z * e.bend[0], e.mem[1] + z * e.bend[1], e.mem[2] + z * e.bend[2]};
      const int p = g * points + k;
      T old[kJ2PlaneStateSize], next[kJ2PlaneStateSize];
      const StateSlice<const S> from = state.old_at(p);
      for (int c = 0; c < kJ2PlaneStateSize; ++c) old[c] = from.p ? T(from[c]) : T(0);
      const J2PlaneResult<T> s = j2_plane_stress_update(law, eps, old, next);
      const StateSlice<S> to = state.next_at(p);
      if (to.p)
        for (int c = 0; c < kJ2PlaneStateSize; ++c) to[c] = static_cast<S>(autodiff::value_of(next[c]));
      for (int i = 0; i < 3; ++i) {
        r.n[i] += w * s.stress[i];
        r.m[i] += (w * z) * s.stress[i];
      }
      energy += w * (s.energy + next[kJ2PlaneDissipation]);
      dissipated += w * next[kJ2PlaneDissipation];
    }
    dissipation[g] = dissipated;
    r.q[0] = kshear * a * e.shear[0];
    r.q[1] = kshear * a * e.shear[1];
    return energy + T(0.5) * (r.q[0] * e.shear[0] + r.q[1] * e.shear[1]);
  }
};

/// The plastic section of a geometrically linear step (Abaqus/Standard's small-strain theory,
/// as the continuum's SolidMaterial::small_strain): the element is evaluated in dual numbers
/// Dual<V> at its reference configuration with derivative parts along the displacements, so
/// the strains' derivative parts are the linearized strains; the plane-stress return runs on
/// those (in V: double for the forces, a dual number again for their tangent) from the
/// converged state, and the resultants and the energy (stored plus dissipated) go to the
/// derivative parts with zero value parts, so that the forces' derivative parts are B^T r.
template <class V>
struct Mitc4SmallStrainSection {
  const SolidMaterial<V>& law;
  V kshear;                     ///< kappa G of the elastic transverse shear
  V a;                          ///< thickness
  int points;                   ///< Simpson section points
  ElementState<double> state;   ///< converged state (old; null: virgin) and the trial's (next; null: none)
  V* dissipation;               ///< per in-plane point: dissipation per unit area so far (written)

  /// Resultants r of linearized strains e.d at in-plane point g; returns the energy per area.
  HS_HD Dual<V> operator()(int g, const Mitc4Strain<Dual<V>>& e, Mitc4Resultants<Dual<V>>& r) const {
    V n[3] = {V(0), V(0), V(0)}, m[3] = {V(0), V(0), V(0)}, energy = V(0), dissipated = V(0);
    for (int k = 0; k < points; ++k) {
      V z, w;
      shell_section_point(k, points, a, z, w);
      const V eps[3] = {e.mem[0].d + z * e.bend[0].d, e.mem[1].d + z * e.bend[1].d, e.mem[2].d + z * e.bend[2].d};
      const int p = g * points + k;
      V old[kJ2PlaneStateSize], next[kJ2PlaneStateSize];
      const StateSlice<const double> from = state.old_at(p);
      for (int c = 0; c < kJ2PlaneStateSize; ++c) old[c] = from.p ? V(from[c]) : V(0);
      const J2PlaneResult<V> s = j2_plane_stress_update(law, eps, old, next);
      const StateSlice<double> to = state.next_at(p);
      if (to.p)
        for (int c = 0; c < kJ2PlaneStateSize; ++c) to[c] = autodiff::value_of(next[c]);
      for (int i = 0; i < 3; ++i) {
        n[i] += w * s.stress[i];
        m[i] += (w * z) * s.stress[i];
      }
      energy += w * (s.energy + next[kJ2PlaneDissipation]);
      dissipated += w * next[kJ2PlaneDissipation];
    }
    if (dissipation) dissipation[g] = dissipated;
    const V q[2] = {kshear * a * e.shear[0].d, kshear * a * e.shear[1].d};
    for (int i = 0; i < 3; ++i) {
      r.n[i] = Dual<V>(V(0), n[i]);
      r.m[i] = Dual<V>(V(0), m[i]);
    }
    r.q[0] = Dual<V>(V(0), q[0]);
    r.q[1] = Dual<V>(V(0), q[1]);
    return Dual<V>(V(0), energy + V(0.5) * (q[0] * e.shear[0].d + q[1] * e.shear[1].d));
  }
};

/// Internal forces of a plastic element (see mitc4_internal_force_with), updating its state;
/// the plastic work dissipated in it so far goes to *dissipation when that is not null.
template <class T>
HS_HD T mitc4_plastic_internal_force(const Mitc4Ref<T>& ref, const Mitc4Nodes<T>& nodes, T a, const SolidMaterial<T>& law,
                                     T kshear, int points, const ElementState<T>& state, Vec3<T> f[4], Vec3<T> gv[4],
                                     T* dissipation = nullptr) {
  T d[4];
  const T energy =
      mitc4_internal_force_with(ref, nodes, a, Mitc4PlasticSection<T>{law, kshear, a, points, state, d}, f, gv);
  if (dissipation) *dissipation = ref.wj[0] * d[0] + ref.wj[1] * d[1] + ref.wj[2] * d[2] + ref.wj[3] * d[3];
  return energy;
}

}  // namespace halfstep
