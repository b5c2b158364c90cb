// The solid element kinds as traits with one interface, so that one templated element loop
// (CPU OpenMP and CUDA) serves every kind. Total Lagrangian, finite strain; nothing is stored
// per element (reference data is recomputed from the reference coordinates X on each call).
// The FPM hexahedron (fpm_hex.hpp) has the same interface but is incremental: it keeps its
// frame and previous configuration in the state store.
//
// Each kind K (C3D8R, C3D8 in solid_hex.hpp; C3D4, C3D10M in solid_tet.hpp) provides, for T
// double or float, as host/device static members:
//   static constexpr int kNodes;
//   static const char* name();                               Abaqus element name
//   static T mass_fractions(const Vec3<T> X[kNodes], T frac[kNodes]);
//       lumped-mass fraction per node (positive, summing to 1); returns the reference
//       volume, <= 0 when the element is inverted or flat at any integration point
//   static SolidEnergy<T> internal_force(const Vec3<T> X[], const Vec3<T> u[],
//                                        const SolidMaterial<T>& m, T hourglass_kappa,
//                                        Vec3<T> f[]);
//       nodal forces, the exact gradient of strain + hourglass energy (kappa only for C3D8R)
//   static T stable_dt(const Vec3<T> X[], const SolidMaterial<T>& m,
//                      T hourglass_kappa = 0.1);
//       a lower bound of the critical increment 2 / omega_max of the free element with its
//       lumped masses, about the stress-free reference (0 for an invalid element);
//       hourglass_kappa must be the one passed to internal_force (used by C3D8R only)
//   static SolidOutput<T> centroid_output(const Vec3<T> X[], const Vec3<T> u[],
//                                         const SolidMaterial<T>& m);
//       Cauchy stress and Green-Lagrange strain, averaged over the integration points
// The stable-increment bounds follow from tr(eps)^2 and eps:eps both being at most
// (sum_a |b_a|^2 / m_a)(sum_a m_a |u_a|^2) at an integration point (Cauchy-Schwarz on
// grad u = sum_a u_a (x) b_a); see solid_detail::bound_moduli and docs/theory.md.
//
// A kind may also provide state_size(m): its state values per integration point when they
// are not (only) the law's, e.g. an incremental kind's frame and strain (fpm_hex.hpp);
// point_state_size asks for it.
#pragma once

#include <type_traits>
#include <utility>

#include "elements/solid_common.hpp"
#include "elements/solid_hex.hpp"
#include "elements/solid_tet.hpp"

namespace halfstep {

namespace solid_detail {
template <class K, class T, class = void>
struct HasStateSize : std::false_type {};
template <class K, class T>
struct HasStateSize<K, T, std::void_t<decltype(K::state_size(std::declval<const SolidMaterial<T>&>()))>>
    : std::true_type {};
}  // namespace solid_detail

/// State values per integration point that kind K needs with material m: the kind's own
/// state_size(m) when it has one, else the law's.
template <class K, class T>
constexpr int point_state_size(const SolidMaterial<T>& m) {
  if constexpr (solid_detail::HasStateSize<K, T>::value) {
    return K::state_size(m);
  } else {
    return state_size(m);
  }
}

namespace solid_detail {
template <class K, class = void>
struct HasPointOutputs : std::false_type {};
template <class K>
struct HasPointOutputs<K, std::void_t<decltype(K::point_outputs(
                              static_cast<const Vec3<double>*>(nullptr), static_cast<const Vec3<double>*>(nullptr),
                              std::declval<const SolidMaterial<double>&>(), std::declval<const ElementState<double>&>(),
                              static_cast<SolidOutput<double>*>(nullptr)))>> : std::true_type {};
template <class K, class = void>
struct HasOutputPoint : std::false_type {};
template <class K>
struct HasOutputPoint<K, std::void_t<decltype(K::kOutputPoint[0])>> : std::true_type {};
}  // namespace solid_detail

/// True when kind K gives its stress and strain at each integration point
/// (point_outputs(X, u, m, state, out[kPoints])), as Abaqus prints them.
template <class K>
constexpr bool has_point_outputs() {
  return solid_detail::HasPointOutputs<K>::value;
}

/// K's own index of the integration point that Abaqus numbers p + 1 (kOutputPoint when K
/// numbers its points otherwise, else p).
template <class K>
constexpr int output_point(int p) {
  if constexpr (solid_detail::HasOutputPoint<K>::value) {
    return K::kOutputPoint[p];
  } else {
    return p;
  }
}

}  // namespace halfstep
