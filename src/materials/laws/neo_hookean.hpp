// Compressible Neo-Hookean of Abaqus: W = C10 (I1bar - 3) + (J - 1)^2 / D1 (*HYPERELASTIC,
// NEO HOOKE). A law of materials/solid_laws.hpp; its tangent is by dual numbers.
#pragma once

#include <cmath>

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "materials/solid_material_data.hpp"

namespace halfstep {

namespace solid_detail {

/// Compressible Neo-Hookean (Abaqus): Cauchy stress 2 C10 / J dev(Bbar) + 2 / D1 (J - 1) I,
/// pulled back to S = J F^-1 sigma F^-T. Returns NaN for J <= 0 (an inverted element).
/// Written in H = F - I so that J - 1, Ibar1 - 3 and dev(Bbar) carry no cancellation: a
/// strain of 1e-9 keeps its energy to ~16 digits instead of drowning in C10 * eps, which
/// the energy balance would read as an error.
template <class T>
HS_HD SolidStress<T> neo_hookean(const SolidMaterial<T>& m, const Mat3<T>& F) {
  const Mat3<T> H = F - scaled_identity(T(1));
  const T trh = trace(H);
  const T jm1 = trh + T(0.5) * (trh * trh - trace(H * H)) + determinant(H);  // det(I + H) - 1
  const T J = T(1) + jm1;
  if (!(J > T(0))) {
    const T nan = T(0) / T(0);
    return {scaled_identity(nan), nan};
  }
  using std::expm1;  // unqualified calls: Dual<T> (tangents, core/dual.hpp) finds its own
  using std::log1p;
  const T jm23m1 = expm1(T(-2) / T(3) * log1p(jm1));  // J^(-2/3) - 1
  const Mat3<T> A = H + transpose(H) + H * transpose(H);         // B - I
  const T tra = trace(A);
  const Mat3<T> dev = (T(1) + jm23m1) * (A - scaled_identity(tra / T(3)));  // dev(Bbar)
  const T i1m3 = jm23m1 * (T(3) + tra) + tra;                                // Ibar1 - 3
  const Mat3<T> sigma = (T(2) * m.c10 / J) * dev + scaled_identity(T(2) / m.d1 * jm1);
  const Mat3<T> Fi = inverse(F);
  return {J * (Fi * sigma * transpose(Fi)), m.c10 * i1m3 + jm1 * jm1 / m.d1};
}

}  // namespace solid_detail

/// The neo-hookean law (constants c10, d1).
struct NeoHookean {
  static constexpr int kStateSize = 0;
  static constexpr int kPeeq = -1;
  static constexpr bool kConstantTangent = false;
  /// S and the energy density at F (NaN for J <= 0).
  template <class T>
  HS_HD static SolidStress<T> stress(const SolidMaterial<T>& m, const Mat3<T>& F) {
    return solid_detail::neo_hookean(m, F);
  }
  /// Hourglass-spring modulus: twice the small-strain shear modulus, 4 C10 (mu = 2 C10).
  template <class T>
  HS_HD static T hourglass_modulus(const SolidMaterial<T>& m) { return T(4) * m.c10; }
  /// Small-strain P-wave modulus K + 4/3 mu with K = 2 / D1, mu = 2 C10.
  template <class T>
  HS_HD static T p_wave_modulus(const SolidMaterial<T>& m) { return T(2) / m.d1 + T(4) / T(3) * (T(2) * m.c10); }
  /// Stable-increment bound constants of the linearised law: lambda = K - 2/3 mu, mu = 2 C10.
  template <class T>
  HS_HD static void bound_moduli(const SolidMaterial<T>& m, T& lam, T& g2) {
    const T mu = T(2) * m.c10, lambda = T(2) / m.d1 - T(2) / T(3) * mu;
    lam = lambda > T(0) ? lambda : T(0);
    g2 = T(2) * mu;
  }
};

}  // namespace halfstep
