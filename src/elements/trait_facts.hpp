// Optional facts of an element trait read at compile time (a trait that does not declare one
// gets the default): its formulation, discrete (spring, dashpot) and cross-section (truss)
// kinds. The registry builds its run-time table from them; host code that dispatches on a
// kind's shape (solver/stress_stiffness.cpp) reads the same facts, so no kind is named there.
#pragma once

#include <type_traits>

namespace halfstep::trait_facts {

/// K::kFormulation when the trait has one, else "" (the deck kind's default formulation).
template <class K, class = void>
struct FormulationOf {
  static constexpr const char* value = "";
};
template <class K>
struct FormulationOf<K, std::void_t<decltype(K::kFormulation)>> {
  static constexpr const char* value = K::kFormulation;
};

/// K::kDiscrete, K::kDiscreteDofs and K::kCrossSection when the trait has them, else 0.
template <class K, class = void>
struct DiscreteOf {
  static constexpr int kind = 0, dofs = 0;
};
template <class K>
struct DiscreteOf<K, std::void_t<decltype(K::kDiscrete)>> {
  static constexpr int kind = K::kDiscrete, dofs = K::kDiscreteDofs;
};
template <class K, class = void>
struct CrossSectionOf : std::false_type {};
template <class K>
struct CrossSectionOf<K, std::void_t<decltype(K::kCrossSection)>> : std::bool_constant<K::kCrossSection> {};

}  // namespace halfstep::trait_facts
