// The solid material laws: the one list of them and the one switch over them. A law is a
// functor type in materials/laws/ with
//   kStateSize (state values per integration point), kPeeq (the state component of
//   the equivalent plastic strain, -1: none), kConstantTangent,
//   stress(m, F)                the second Piola-Kirchhoff stress and energy density at F,
//   constant_tangent(m, C)      dS/dE when kConstantTangent (else tangents are by dual numbers),
//   update(m, F, old, next)     with state (kStateSize > 0): the increment from old to F,
//   hourglass_modulus(m), p_wave_modulus(m), bound_moduli(m, lam, g2)   small-strain moduli
//                               (LameModuli, laws/lame_moduli.hpp, as a base: from lambda and mu),
// all host/device templates on the number type. SolidMaterial::model is the law's position
// in SolidLaws (law_id); visit_material(m, f) calls f(Law{}) for m's law. A new law is its
// file plus one entry here (and its deck keyword's handler, io/inp_material.cpp).
#pragma once

#include <type_traits>

#include "core/host_device.hpp"
#include "materials/laws/j2_plastic.hpp"
#include "materials/laws/neo_hookean.hpp"
#include "materials/laws/neo_hookean_log.hpp"
#include "materials/laws/svk_anisotropic.hpp"
#include "materials/laws/svk_isotropic.hpp"
#include "materials/laws/svk_orthotropic.hpp"
#include "materials/solid_material_data.hpp"

namespace halfstep {

/// A list of law types.
template <class... Laws>
struct LawList {};

/// Every law, in id order (ids are positions: restart files and rank shares carry them, so
/// a new law goes at the end). The first is the default of a SolidMaterial.
using SolidLaws = LawList<SvkIsotropic, SvkOrthotropic, NeoHookean, J2Plastic, NeoHookeanLog, SvkAnisotropic>;

namespace law_detail {

template <class L, class... Ls>
constexpr int index_of(LawList<Ls...>) {
  int i = 0, found = -1;
  ((std::is_same_v<L, Ls> ? (found = i, ++i) : ++i), ...);
  return found;
}

template <class... Ls>
HS_HD constexpr int state_size_of(int model, LawList<Ls...>) {
  int i = 0, found = -1;
  ((model == i++ ? (found = Ls::kStateSize, 0) : 0), ...);
  return found;
}

/// f(L{}) for the law of id model among the list's laws after the first; the first's when
/// none matches (as a default-constructed material is).
template <class F, class First, class L, class... Ls>
HS_HD decltype(auto) visit_rest(int model, F&& f, int id) {
  if (model == id) return f(L{});
  if constexpr (sizeof...(Ls) == 0) return f(First{});
  else return visit_rest<F, First, Ls...>(model, static_cast<F&&>(f), id + 1);
}

template <class F, class First, class... Ls>
HS_HD decltype(auto) visit(int model, F&& f, LawList<First, Ls...>) {
  if constexpr (sizeof...(Ls) == 0) return f(First{});
  else return visit_rest<F, First, Ls...>(model, static_cast<F&&>(f), 1);
}

}  // namespace law_detail

/// The id (SolidMaterial::model) of law L.
template <class L>
inline constexpr int law_id = law_detail::index_of<L>(SolidLaws{});

/// Whether m follows law L.
template <class L, class T>
HS_HD bool law_is(const SolidMaterial<T>& m) {
  return m.model == law_id<L>;
}

/// f(Law{}) for m's law: the one switch over the laws.
template <class T, class F>
HS_HD decltype(auto) visit_material(const SolidMaterial<T>& m, F&& f) {
  return law_detail::visit(m.model, static_cast<F&&>(f), SolidLaws{});
}

/// Number of state variables per integration point of a law id (-1 for an unknown id).
HS_HD constexpr int state_size(int model) { return law_detail::state_size_of(model, SolidLaws{}); }

/// Number of state variables per integration point of a material.
template <class T>
HS_HD constexpr int state_size(const SolidMaterial<T>& m) {
  return state_size(m.model);
}

/// The state component that holds the equivalent plastic strain (PEEQ) of m's law, or -1 for
/// a law without one.
template <class T>
HS_HD int peeq_component(const SolidMaterial<T>& m) {
  return visit_material(m, [](auto law) { return decltype(law)::kPeeq; });
}

}  // namespace halfstep
