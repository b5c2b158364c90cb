// Pieces shared by the solid element kinds (src/elements/solid_kinds.hpp): the energy and
// output records every kind returns, von Mises, and the host/device helpers for kinematics,
// output and the stable-increment bound.
#pragma once

#include <type_traits>

#include <cmath>

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "core/vec3.hpp"
#include "materials/material_law.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {

/// Constant data values per element of kind K (K::kElementData: a NURBS element's weights and
/// extraction operators, handed to it as ElementState::data); 0 for kinds without.
template <class K, class = void>
struct ElementDataSize : std::integral_constant<int, 0> {};
template <class K>
struct ElementDataSize<K, std::void_t<decltype(K::kElementData)>> : std::integral_constant<int, K::kElementData> {};

/// The keyword that makes the elements of kind K (K::kMadeBy) where *ELEMENT cannot: kinds
/// with constant element data need it from their keyword; "*NURBS PATCH" when not given.
/// Whether kind K's stresses take the thermal strain of a temperature change
/// (K::kThermalStrain: its points evaluate through point_stress, which applies it; kinds
/// with their own stress path, such as plane stress, FPM, trusses or springs, leave it out
/// and the step loads refuse a temperature change on them).
template <class K, class = void>
struct TakesThermalStrain : std::false_type {};
template <class K>
struct TakesThermalStrain<K, std::void_t<decltype(K::kThermalStrain)>> : std::bool_constant<K::kThermalStrain> {};

template <class K, class = void>
struct MadeBy {
  static constexpr const char* value = "*NURBS PATCH";
};
template <class K>
struct MadeBy<K, std::void_t<decltype(K::kMadeBy)>> {
  static constexpr const char* value = K::kMadeBy;
};

/// K::mass_fractions, with the element's constant data for kinds that have some.
template <class K, class T>
HS_HD T kind_mass_fractions(const Vec3<T>* X, T* frac, const double* data) {
  if constexpr (ElementDataSize<K>::value > 0)
    return K::mass_fractions(X, frac, data);
  else
    return ((void)data, K::mass_fractions(X, frac));
}

/// K::stable_dt, with the element's constant data for kinds that have some.
template <class K, class T>
HS_HD T kind_stable_dt(const Vec3<T>* X, const SolidMaterial<T>& m, T kappa, const double* data) {
  if constexpr (ElementDataSize<K>::value > 0)
    return K::stable_dt(X, m, kappa, data);
  else
    return ((void)data, K::stable_dt(X, m, kappa));
}

/// Energies of one solid element evaluation.
template <class T>
struct SolidEnergy {
  T strain;     ///< integral of the strain energy density W over the reference volume
  T hourglass;  ///< energy stored in the hourglass springs (0 for kinds without them)
  T dissipation = T(0);  ///< plastic work dissipated so far, part of strain (Abaqus ALLPD)
  T viscous = T(0);      ///< power the bulk viscosity dissipates now (a rate; its integral is in ALLVD)
  T thermal_slope = T(0);  ///< d strain / d theta: the integral of SolidStress::thermal_slope
  /// Work the element's temperature change since its last pass did on it (continuum_element
  /// books it where the pass keeps the previous temperature and slope; else 0).
  T thermal_work = T(0);
};

/// Element stress and strain for output, averaged over the integration points.
template <class T>
struct SolidOutput {
  Mat3<T> cauchy;  ///< Cauchy stress F S F^T / J
  Mat3<T> green;   ///< Green-Lagrange strain (F^T F - I) / 2
};

/// Von Mises equivalent stress sqrt(3/2 dev(s):dev(s)) of a (symmetric) stress.
template <class T>
HS_HD T von_mises(const Mat3<T>& s) {
  const T d0 = s(0, 0) - s(1, 1), d1 = s(1, 1) - s(2, 2), d2 = s(2, 2) - s(0, 0);
  // Off-diagonal terms as the mean of both triangles, so a slightly unsymmetric average
  // (round-off) does not bias the result.
  const T s01 = T(0.5) * (s(0, 1) + s(1, 0)), s12 = T(0.5) * (s(1, 2) + s(2, 1)), s20 = T(0.5) * (s(2, 0) + s(0, 2));
  const T j2x6 = d0 * d0 + d1 * d1 + d2 * d2 + T(6) * (s01 * s01 + s12 * s12 + s20 * s20);
  return std::sqrt(T(0.5) * j2x6);
}

namespace solid_detail {

/// Quiet NaN, to mark the results of an element whose reference shape is invalid.
template <class T>
HS_HD T quiet_nan() {
  return T(0) / T(0);
}

/// u (x) g added to F (F_ij += u_i g_j): one node's share of the displacement gradient.
template <class T>
HS_HD void add_outer(Mat3<T>& F, Vec3<T> u, Vec3<T> g) {
  const T ua[3] = {u.x, u.y, u.z}, ga[3] = {g.x, g.y, g.z};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) F(i, j) += ua[i] * ga[j];
}

/// a in numbers with derivative lanes (host; T: DualLanes): entry (i, j) seeded in lane
/// first + 3 i + j, so that lanes [first, first + 9) carry the derivatives along a.
template <class T>
Mat3<T> seeded_lanes(const Mat3<double>& a, int first) {
  Mat3<T> m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      m(i, j) = T(a(i, j));
      m(i, j).seed(first + 3 * i + j);
    }
  return m;
}

/// HRZ lumping (Hinton, Rock & Zienkiewicz): node a's share of the element's mass is its
/// diagonal entry of the consistent mass, sum over the points of dv N_a^2, over their sum
/// (every share positive, where row sums give quadratic corners negative ones). point(g, N)
/// fills the shape values at point g of `points` and returns its weight w detJ (times the
/// ring's 2 pi r when axisymmetric); a non-positive weight (an invalid element) is returned
/// at once, frac left as it was. Returns the element's measure (the weights' sum).
template <int Nodes, class T, class Point>
HS_HD T hrz_fractions(int points, const Point& point, T frac[Nodes]) {
  T diag[Nodes];
  for (int a = 0; a < Nodes; ++a) diag[a] = T(0);
  T vol = T(0);
  for (int g = 0; g < points; ++g) {
    T N[Nodes];
    const T dv = point(g, N);
    if (!(dv > T(0))) return dv;
    for (int a = 0; a < Nodes; ++a) diag[a] += dv * N[a] * N[a];
    vol += dv;
  }
  T sum = T(0);
  for (int a = 0; a < Nodes; ++a) sum += diag[a];
  for (int a = 0; a < Nodes; ++a) frac[a] = diag[a] / sum;
  return vol;
}

/// Jacobian dX/dxi (J_ij = sum_a X_a,i dN_a/dxi_j) from the natural-coordinate derivatives.
template <class T>
HS_HD void add_jacobian(Mat3<T>& J, Vec3<T> X, Vec3<T> dn) {
  add_outer(J, X, dn);
}

/// Cauchy stress and Green-Lagrange strain of material m at F, for output: point g of an
/// element whose state is read (never written: output re-evaluates a converged point).
template <class T>
HS_HD SolidOutput<T> point_output(const SolidMaterial<T>& m, const Mat3<T>& F, ElementState<T> state = {}, int g = 0) {
  state.next = nullptr;
  const SolidStress<T> s = point_stress(m, F, state, g);
  return {(T(1) / determinant(F)) * (F * s.S * transpose(F)), green_strain(F)};
}

/// Constants of the stable-increment bound: for the small-strain stiffness C of m about the
/// stress-free reference, eps:C:eps <= lam (tr eps)^2 + g2 eps:eps for every symmetric eps.
/// Isotropic (St. Venant-Kirchhoff, and both Neo-Hookeans linearised: lambda = K - 2/3 mu,
/// mu = 2 C10; the log form holds them as lambda, mu): lam = max(lambda, 0), g2 = 2 mu, so lam + g2 is the P-wave modulus
/// lambda + 2 mu when lambda >= 0. Orthotropic: lam = 0 and g2 = max(p_wave_modulus(m),
/// 2 max(D1212, D1313, D2323)) (normal block by its Gershgorin bound; the shear terms act on
/// engineering strains, 2 D1212 e12^2 twice in eps:C:eps against 2 e12^2 in eps:eps).
template <class T>
HS_HD void bound_moduli(const SolidMaterial<T>& m, T& lam, T& g2) {
  visit_material(m, [&](auto law) { decltype(law)::bound_moduli(m, lam, g2); });
}

/// 2 / omega from a bound omega^2 <= omega2 (0 when the bound is not a positive number, i.e.
/// for an invalid element or massless nodes).
template <class T>
HS_HD T dt_from_omega2(T omega2) {
  if (!(omega2 > T(0))) return T(0);
  return T(2) / std::sqrt(omega2);
}

/// Internal forces f (N) and energies of a total-Lagrangian element integrated at `points`
/// points, the sum over them of w detJ (P b_a, W): gradients(g, b) fills the shape-function
/// gradients b (N) at point g and returns w_g detJ_g. NaN forces for an invalid reference
/// (a point with w detJ <= 0). Shared by the fully integrated kinds (C3D10M, C3D6, C3D20).
template <int N, class T, class Gradients>
HS_HD SolidEnergy<T> point_sum_internal_force(int points, const Gradients& gradients, const Vec3<T> u[N],
                                              const SolidMaterial<T>& m, Vec3<T> f[N], const ElementState<T>& state) {
  for (int a = 0; a < N; ++a) f[a] = {T(0), T(0), T(0)};
  T energy = T(0), dissipation = T(0), slope = T(0);
  for (int g = 0; g < points; ++g) {
    Vec3<T> b[N];
    const T dv = gradients(g, b);
    if (!(dv > T(0))) {
      const T nan = quiet_nan<T>();
      for (int a = 0; a < N; ++a) f[a] = {nan, nan, nan};
      return {nan, T(0)};
    }
    Mat3<T> F = scaled_identity(T(1));
    for (int a = 0; a < N; ++a) add_outer(F, u[a], b[a]);
    const SolidStress<T> s = point_stress(m, F, state, g);
    const Mat3<T> P = dv * (F * s.S);
    for (int a = 0; a < N; ++a) f[a] += P * b[a];
    energy += dv * s.energy;
    dissipation += dv * s.dissipation;
    slope += dv * s.thermal_slope;
  }
  return {energy, T(0), dissipation, T(0), slope};
}

/// Critical increment bound 2/omega of such an element, omega^2 <= sum_g w_g detJ_g
/// (lam + g2) sum_a |b_a(g)|^2 / m_a with the lumped masses m_a = rho vol frac_a (see
/// C3D8::stable_dt); 0 for an invalid reference (vol <= 0).
template <int N, class T, class Gradients>
HS_HD T point_sum_stable_dt(int points, const Gradients& gradients, const SolidMaterial<T>& m, T vol,
                            const T frac[N]) {
  if (!(vol > T(0))) return T(0);
  T lam, g2;
  bound_moduli(m, lam, g2);
  T omega2 = T(0);
  for (int g = 0; g < points; ++g) {
    Vec3<T> b[N];
    const T dv = gradients(g, b);
    T bg = T(0);
    for (int a = 0; a < N; ++a) bg += dot(b[a], b[a]) / (m.density * vol * frac[a]);
    omega2 += dv * (lam + g2) * bg;
  }
  return dt_from_omega2(omega2);
}

/// Calls f(g, w_g detJ_g, output) at each of such an element's points with its Cauchy stress
/// and Green strain; false (f not called further) at the first point with w detJ <= 0.
template <int N, class T, class Gradients, class F>
HS_HD bool for_each_point_output(int points, const Gradients& gradients, const Vec3<T> u[N], const SolidMaterial<T>& m,
                                 const ElementState<T>& state, F&& f) {
  for (int g = 0; g < points; ++g) {
    Vec3<T> b[N];
    const T dv = gradients(g, b);
    if (!(dv > T(0))) return false;
    Mat3<T> Fg = scaled_identity(T(1));
    for (int a = 0; a < N; ++a) add_outer(Fg, u[a], b[a]);
    f(g, dv, point_output(m, Fg, state, g));
  }
  return true;
}

/// Cauchy stress and Green strain of such an element averaged over its points with weights
/// w_g detJ_g / V (NaN for an invalid reference).
template <int N, class T, class Gradients>
HS_HD SolidOutput<T> point_sum_output(int points, const Gradients& gradients, const Vec3<T> u[N],
                                      const SolidMaterial<T>& m, const ElementState<T>& state) {
  SolidOutput<T> out{scaled_identity(T(0)), scaled_identity(T(0))};
  T vol = T(0);
  const bool valid = for_each_point_output<N>(points, gradients, u, m, state, [&](int, T dv, const SolidOutput<T>& p) {
    out.cauchy = out.cauchy + dv * p.cauchy;
    out.green = out.green + dv * p.green;
    vol += dv;
  });
  if (!valid) {
    const T nan = quiet_nan<T>();
    return {scaled_identity(nan), scaled_identity(nan)};
  }
  out.cauchy = (T(1) / vol) * out.cauchy;
  out.green = (T(1) / vol) * out.green;
  return out;
}

/// The Cauchy stress and Green strain at each of such an element's points (out[g]; NaN at
/// every point for an invalid reference): the values Abaqus prints per integration point.
template <int N, class T, class Gradients>
HS_HD void point_list_output(int points, const Gradients& gradients, const Vec3<T> u[N], const SolidMaterial<T>& m,
                             const ElementState<T>& state, SolidOutput<T>* out) {
  const bool valid = for_each_point_output<N>(points, gradients, u, m, state,
                                              [&](int g, T, const SolidOutput<T>& p) { out[g] = p; });
  if (!valid) {
    const T nan = quiet_nan<T>();
    for (int g = 0; g < points; ++g) out[g] = {scaled_identity(nan), scaled_identity(nan)};
  }
}

}  // namespace solid_detail
}  // namespace halfstep
