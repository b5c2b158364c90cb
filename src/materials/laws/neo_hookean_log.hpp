// Compressible Neo-Hookean of Bonet & Wood (seed 004): W = mu/2 (I1 - 3) - mu ln J +
// lambda/2 (ln J)^2 (*HYPERELASTIC, NEO HOOKE, FORM=LOG). A law of materials/solid_laws.hpp;
// its tangent is by dual numbers.
#pragma once

#include <cmath>

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "materials/laws/lame_moduli.hpp"
#include "materials/solid_material_data.hpp"

namespace halfstep {

namespace solid_detail {

/// x - ln(1 + x), without the cancellation of its two O(x) terms near 0 (where it is
/// x^2/2 - x^3/3 + ...): with s = x / (2 + x), ln(1 + x) = 2 atanh(s) and x - 2 s = x s, so
/// x - ln(1 + x) = x s - 2 s^3 (1/3 + s^2/5 + ... + s^14/17), a series whose next term is
/// below 1e-20 of the sum for |x| <= 0.1 (|s| <= 0.053). Beyond, the plain difference loses
/// at most a few bits (x - ln(1 + x) >= 0.0047 |x| there).
template <class T>
HS_HD T x_minus_log1p(const T& x) {
  using std::fabs;  // unqualified: Dual<T> finds its own
  using std::log1p;
  if (fabs(x) > T(0.1)) return x - log1p(x);
  const T s = x / (T(2) + x), s2 = s * s;
  T sum = T(1) / T(17);
  for (int k = 15; k >= 3; k -= 2) sum = T(1) / T(k) + s2 * sum;
  return x * s - T(2) * s2 * s * sum;
}

/// Compressible Neo-Hookean of Bonet & Wood: Kirchhoff stress tau = mu (b - I) + lambda ln J I,
/// S = F^-1 tau F^-T = mu (I - C^-1) + lambda ln J C^-1. NaN for J <= 0.
/// In H = F - I, like neo_hookean: b - I = H + H^T + H H^T, J - 1 = tr H + q with
/// q = ((tr H)^2 - tr(H H))/2 + det H, ln J = log1p(J - 1), and the energy's O(H) terms,
/// which cancel (I1 - 3 ~ 2 tr H, 2 ln J ~ 2 tr H), are taken out analytically:
/// I1 - 3 - 2 ln J = tr(H H^T) - 2 q + 2 (J - 1 - ln J). A strain of 1e-9 then keeps its
/// energy to round-off instead of to 1e-7.
template <class T>
HS_HD SolidStress<T> neo_hookean_log(const SolidMaterial<T>& m, const Mat3<T>& F) {
  const Mat3<T> H = F - scaled_identity(T(1));
  const T trh = trace(H);
  const T q = T(0.5) * (trh * trh - trace(H * H)) + determinant(H);
  const T jm1 = trh + q;  // det(I + H) - 1
  if (!(T(1) + jm1 > T(0))) {
    const T nan = T(0) / T(0);
    return {scaled_identity(nan), nan};
  }
  using std::log1p;  // unqualified: Dual<T> (tangents, core/dual.hpp) finds its own
  const T lnj = log1p(jm1);
  const Mat3<T> Ht = transpose(H);
  const Mat3<T> tau = m.mu * (H + Ht + H * Ht) + scaled_identity(m.lambda * lnj);
  const Mat3<T> Fi = inverse(F);
  const T shear = ddot(H, H) - T(2) * q + T(2) * x_minus_log1p(jm1);  // I1 - 3 - 2 ln J
  return {Fi * tau * transpose(Fi), T(0.5) * m.mu * shear + T(0.5) * m.lambda * lnj * lnj};
}

}  // namespace solid_detail

/// The neo-hookean-log law (constants lambda, mu).
struct NeoHookeanLog : LameModuli {
  static constexpr int kStateSize = 0;
  static constexpr int kPeeq = -1;
  static constexpr bool kConstantTangent = false;
  /// S and the energy density at F (NaN for J <= 0).
  template <class T>
  HS_HD static SolidStress<T> stress(const SolidMaterial<T>& m, const Mat3<T>& F) {
    return solid_detail::neo_hookean_log(m, F);
  }
};

}  // namespace halfstep
