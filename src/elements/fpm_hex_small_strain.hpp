// The FPM hexahedron in the small-strain theory of a geometrically linear static step
// (docs/theory.md, "FPM hexahedron"; run by discretization/small_strain_element.hpp). The
// element's incremental update has no small-strain form of its own: at small strain its sum of
// increments is the linearized strain, so the theory evaluates that strain directly, from the
// reference, with the law's converged state, and writes the state an explicit step continues
// from. Host only, as the small-strain theory is.
#pragma once

#include "core/dual.hpp"
#include "elements/fpm_hex.hpp"

namespace halfstep {

/// FpmC3D8 at small strain: X the reference, u the displacements in the derivative parts (value
/// 0: small_strain_element's convention), st the converged state (old) and where the state goes
/// (next; null: nowhere). At Gauss point g the strain is the linearized B-bar strain sym(H_g)
/// with the trace of the centroid's H; the law returns from the converged state on it (J2 with
/// the plastic strain as stored); the forces are sum_g detJ_g (dev sigma_g + pbar I) b_a on the
/// reference. Forces, energy (stored plus dissipated) and dissipation come back in the derivative
/// parts. The state written is the reference frame, configuration "a" = u, the convected strain
/// eps_g, the law's state and the work: what an explicit step after the static one continues from.
template <class V>
HS_HD SolidEnergy<Dual<V>> fpm_hex_small_strain(const Vec3<Dual<V>> X[8], const Vec3<Dual<V>> u[8],
                                               const SolidMaterial<Dual<V>>& m, const ElementState<Dual<V>>& st,
                                               Vec3<Dual<V>> f[8]) {
  using namespace fpm_detail;
  using T = Dual<V>;
  using solid_detail::add_outer;
  const int vi[6] = {0, 1, 2, 0, 0, 1}, vj[6] = {0, 1, 2, 1, 2, 2};
  Vec3<T> ul[8];  // the displacements, lifted from the derivative parts into the values
  for (int a = 0; a < 8; ++a) ul[a] = {T(u[a].x.d), T(u[a].y.d), T(u[a].z.d)};
  Vec3<T> bbar[8];
  const T vol = solid_detail::c3d8_mean_gradients(X, bbar);
  Mat3<T> Hbar = scaled_identity(T(0));
  for (int a = 0; a < 8; ++a) add_outer(Hbar, ul[a], bbar[a]);
  const T vol_strain = trace(Hbar);
  const Mat3<T> I = scaled_identity(T(1));
  HexForceSums<T> acc = hex_force_sums<T>();
  T stored = T(0), dissipation = T(0);
  bool valid = vol > T(0);
  for (int g = 0; g < 8 && valid; ++g) {
    Vec3<T> b[8];
    solid_detail::hex8_natural(solid_detail::hex8_gauss<T>(g, 0), solid_detail::hex8_gauss<T>(g, 1),
                               solid_detail::hex8_gauss<T>(g, 2), b, static_cast<T*>(nullptr));
    const T jg = solid_detail::hex8_gradients(X, b);
    Mat3<T> H = scaled_identity(T(0));
    for (int a = 0; a < 8; ++a) add_outer(H, ul[a], b[a]);
    Mat3<T> eps = sym(H);
    eps = eps + ((vol_strain - trace(eps)) / T(3)) * I;
    const StateSlice<const T> old = st.old_at(g);
    T law_next[kJ2StateSize];
    Mat3<T> sigma;
    if (law_is<J2Plastic>(m)) {
      T law_old[kJ2StateSize];
      for (int c = 0; c < kJ2StateSize; ++c) law_old[c] = old.p ? old[kLaw + c] : T(0);
      const SolidStress<T> r = j2_small_strain_update(m, eps, law_old, law_next);
      sigma = r.S;
      stored = stored + jg * r.energy;
      dissipation = dissipation + jg * law_next[kJ2Dissipation];
    } else {  // isotropic elasticity (model/validate.cpp refuses other laws for FPM)
      for (int c = 0; c < kJ2StateSize; ++c) law_next[c] = T(0);
      sigma = elastic_stress(m, eps);
      stored = stored + T(0.5) * jg * ddot(sigma, eps);
    }
    if (st.next) {
      const StateSlice<T> next = st.next_at(g);
      for (int c = 0; c < kJ2StateSize; ++c) next[kLaw + c] = law_next[c];
      for (int k = 0; k < 6; ++k) next[kStrain + k] = eps(vi[k], vj[k]);
    }
    valid = hex_point_force(X, g, I, sigma, acc) && valid;
  }
  Vec3<T> fl[8];
  const SolidEnergy<T> e = hex_finish(st, ul, I, stored + dissipation, dissipation, acc, valid, fl);
  for (int a = 0; a < 8; ++a) f[a] = {T(V(0), fl[a].x.v), T(V(0), fl[a].y.v), T(V(0), fl[a].z.v)};
  return {T(V(0), e.strain.v), T(0), T(V(0), e.dissipation.v)};
}

}  // namespace halfstep
