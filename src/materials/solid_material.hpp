// Hyperelastic solid materials in total Lagrangian form, as host/device functions: given the
// deformation gradient F, the second Piola-Kirchhoff stress S and the strain energy per unit
// reference volume. Every model is a function of C = F^T F only, so rigid rotations give the
// same S and energy (objectivity) and the element forces are the gradient of the energy.
//   svk-isotropic    St. Venant-Kirchhoff: S = lambda tr(E) I + 2 mu E, E = (C - I)/2
//                    (*ELASTIC; exact under finite rotations, small strains)
//   svk-orthotropic  the same with an orthotropic stiffness in material axes
//                    (*ELASTIC, TYPE=ENGINEERING CONSTANTS or ORTHOTROPIC, with *ORIENTATION)
//   neo-hookean      compressible Neo-Hookean of Abaqus: W = C10 (I1bar - 3) + (J - 1)^2 / D1
//                    (*HYPERELASTIC, NEO HOOKE)
//   neo-hookean-log  compressible Neo-Hookean of Bonet & Wood (seed 004):
//                    W = mu/2 (I1 - 3) - mu ln J + lambda/2 (ln J)^2
//                    (*HYPERELASTIC, NEO HOOKE, FORM=LOG)
// The functions are templates on the number type: float and double for the element passes,
// Dual<T> (core/dual.hpp) for tangents by forward differentiation (materials/material_tangent.hpp).
#pragma once

#include <cmath>

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "materials/adhesion_law.hpp"

namespace halfstep {

/// Which constitutive law a SolidMaterial holds.
enum SolidModel : int { kSvkIsotropic = 0, kSvkOrthotropic = 1, kNeoHookean = 2, kJ2Plastic = 3, kNeoHookeanLog = 4 };

/// Most points of a *PLASTIC hardening table a material carries (plain data on the GPU).
constexpr int kMaxHardening = 16;

/// Constants of one solid material (plain data, copied to the GPU as is).
template <class T>
struct SolidMaterial {
  int model = kSvkIsotropic;
  T density = T(0);
  T thickness = T(1);  ///< out-of-plane thickness of planar elements, cross-section area of trusses (the section's; 1 for 3D solids)
  /// Discrete elements (springs, dashpots; elements/discrete.hpp): the stiffness or the
  /// dashpot coefficient, and the dofs it acts in (0, 1, 2: x, y, z) for SPRING1/2, DASHPOT1/2.
  /// A nonlinear spring (*SPRING, NONLINEAR) keeps its force-displacement table in the
  /// hardening arrays instead: hardening_points pairs, yield_stress the forces and
  /// yield_strain the relative displacements (ascending).
  T discrete = T(0);
  int dof1 = 0, dof2 = 0;
  T lambda = T(0), mu = T(0);  ///< Lame constants (svk-isotropic, neo-hookean-log, J2's elasticity)
  T c10 = T(0), d1 = T(0);     ///< Neo-Hookean constants (Abaqus)
  /// Orthotropic stiffness in material axes, Abaqus order D1111, D1122, D2222, D1133, D2233,
  /// D3333, D1212, D1313, D2323 (shear terms act on engineering shear strains).
  T d[9] = {};
  /// Material axes: row i is material direction i in global reference components.
  Mat3<T> axes = {{T(1), T(0), T(0), T(0), T(1), T(0), T(0), T(0), T(1)}};
  /// J2 plasticity (kJ2Plastic, isotropic elasticity from lambda and mu): yield stress
  /// against equivalent plastic strain, piecewise linear, the first strain 0, constant after
  /// the last point (Abaqus' *PLASTIC table).
  int hardening_points = 0;
  T yield_stress[kMaxHardening] = {};
  T yield_strain[kMaxHardening] = {};
  /// Adhesion edges (elements/adhesion_edge.hpp, *ADHESION): the law and the substrate.
  AdhesionConstants adhesion;
};

/// Second Piola-Kirchhoff stress and strain energy density of a deformation.
template <class T>
struct SolidStress {
  Mat3<T> S;
  T energy;
  T dissipation = T(0);  ///< plastic work dissipated so far per unit volume, part of energy (0: elastic)
};

/// Green-Lagrange strain (F^T F - I) / 2.
template <class T>
HS_HD Mat3<T> green_strain(const Mat3<T>& F) {
  return T(0.5) * (transpose(F) * F - scaled_identity(T(1)));
}

namespace solid_detail {

/// Orthotropic St. Venant-Kirchhoff: strain rotated to material axes, Voigt product, back.
template <class T>
HS_HD SolidStress<T> svk_orthotropic(const SolidMaterial<T>& m, const Mat3<T>& E) {
  const Mat3<T>& A = m.axes;
  const Mat3<T> e = A * E * transpose(A);
  const T* d = m.d;
  Mat3<T> s;
  s(0, 0) = d[0] * e(0, 0) + d[1] * e(1, 1) + d[3] * e(2, 2);
  s(1, 1) = d[1] * e(0, 0) + d[2] * e(1, 1) + d[4] * e(2, 2);
  s(2, 2) = d[3] * e(0, 0) + d[4] * e(1, 1) + d[5] * e(2, 2);
  s(0, 1) = s(1, 0) = d[6] * T(2) * e(0, 1);
  s(0, 2) = s(2, 0) = d[7] * T(2) * e(0, 2);
  s(1, 2) = s(2, 1) = d[8] * T(2) * e(1, 2);
  return {transpose(A) * s * A, T(0.5) * ddot(s, e)};
}

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

/// S and the energy density of material m at deformation gradient F.
template <class T>
HS_HD SolidStress<T> solid_stress(const SolidMaterial<T>& m, const Mat3<T>& F) {
  if (m.model == kNeoHookean) return solid_detail::neo_hookean(m, F);
  if (m.model == kNeoHookeanLog) return solid_detail::neo_hookean_log(m, F);
  const Mat3<T> E = green_strain(F);
  if (m.model == kSvkOrthotropic) return solid_detail::svk_orthotropic(m, E);
  const T tr = trace(E);
  return {scaled_identity(m.lambda * tr) + (T(2) * m.mu) * E, T(0.5) * m.lambda * tr * tr + m.mu * ddot(E, E)};
}

/// Modulus of the C3D8R hourglass springs: twice the small-strain shear modulus (the largest
/// of D1212, D1313, D2323 for orthotropic materials). Shear, not the P-wave modulus: the
/// hourglass modes of a nearly incompressible material would otherwise be as stiff as its
/// bulk modulus, and bending-dominated meshes would lock (Cook's membrane, nu = 0.4999).
template <class T>
HS_HD T hourglass_modulus(const SolidMaterial<T>& m) {
  if (m.model == kSvkIsotropic || m.model == kJ2Plastic || m.model == kNeoHookeanLog) return T(2) * m.mu;
  if (m.model == kNeoHookean) return T(4) * m.c10;  // mu = 2 C10
  T g = m.d[6] > m.d[7] ? m.d[6] : m.d[7];
  return T(2) * (g > m.d[8] ? g : m.d[8]);
}

/// Largest small-strain P-wave modulus (for the stable increment: c = sqrt(M / density)).
/// Orthotropic: a Gershgorin bound on the normal-stiffness block, never below the true value.
template <class T>
HS_HD T p_wave_modulus(const SolidMaterial<T>& m) {
  if (m.model == kSvkIsotropic || m.model == kJ2Plastic || m.model == kNeoHookeanLog) return m.lambda + T(2) * m.mu;
  if (m.model == kNeoHookean) return T(2) / m.d1 + T(4) / T(3) * (T(2) * m.c10);  // K + 4/3 mu, mu = 2 C10
  using std::fabs;  // unqualified below: Dual<T> finds its own by argument-dependent lookup
  const T* d = m.d;
  const T r1 = fabs(d[0]) + fabs(d[1]) + fabs(d[3]);
  const T r2 = fabs(d[1]) + fabs(d[2]) + fabs(d[4]);
  const T r3 = fabs(d[3]) + fabs(d[4]) + fabs(d[5]);
  const T r = r1 > r2 ? r1 : r2;
  return r > r3 ? r : r3;
}

/// Isotropic St. Venant-Kirchhoff from Young's modulus and Poisson's ratio. Throws
/// std::invalid_argument (message for the user) unless E > 0 and -1 < nu < 0.5.
SolidMaterial<double> svk_isotropic(double youngs, double poisson, double density);

/// J2 plasticity with isotropic hardening on isotropic elasticity: yield stress stress[k] at
/// equivalent plastic strain strain[k] (n points, strain[0] = 0, increasing; constant after
/// the last). Throws std::invalid_argument (message for the user) for an inadmissible table.
SolidMaterial<double> j2_plastic(double youngs, double poisson, double density, const double* stress,
                                 const double* strain, int n);

/// Abaqus Neo-Hookean; throws std::invalid_argument unless C10 > 0 and D1 > 0.
SolidMaterial<double> neo_hookean(double c10, double d1, double density);

/// Bonet & Wood's Neo-Hookean from the same deck constants, with the same small-strain moduli
/// (mu = 2 C10, K = 2 / D1, lambda = K - 2 mu / 3); throws unless C10 > 0 and D1 > 0.
SolidMaterial<double> neo_hookean_log(double c10, double d1, double density);

/// Orthotropic from engineering constants E1, E2, E3, nu12, nu13, nu23, G12, G13, G23 (Abaqus
/// *ELASTIC, TYPE=ENGINEERING CONSTANTS order). Throws std::invalid_argument unless the
/// compliance is positive definite.
SolidMaterial<double> orthotropic_engineering(const double c[9], double density, const Mat3<double>& axes);

/// Orthotropic from stiffness components D1111, D1122, D2222, D1133, D2233, D3333, D1212,
/// D1313, D2323 (Abaqus TYPE=ORTHOTROPIC order). Throws unless the stiffness is positive definite.
SolidMaterial<double> orthotropic_stiffness(const double d[9], double density, const Mat3<double>& axes);

/// The same material in another precision.
template <class T>
SolidMaterial<T> convert_material(const SolidMaterial<double>& m) {
  SolidMaterial<T> r;
  r.model = m.model;
  r.density = T(m.density);
  r.thickness = T(m.thickness);
  r.discrete = T(m.discrete);
  r.dof1 = m.dof1;
  r.dof2 = m.dof2;
  r.lambda = T(m.lambda);
  r.mu = T(m.mu);
  r.c10 = T(m.c10);
  r.d1 = T(m.d1);
  for (int i = 0; i < 9; ++i) {
    r.d[i] = T(m.d[i]);
    r.axes.a[i] = T(m.axes.a[i]);
  }
  r.hardening_points = m.hardening_points;
  for (int k = 0; k < kMaxHardening; ++k) {
    r.yield_stress[k] = T(m.yield_stress[k]);
    r.yield_strain[k] = T(m.yield_strain[k]);
  }
  r.adhesion = m.adhesion;
  return r;
}

}  // namespace halfstep
