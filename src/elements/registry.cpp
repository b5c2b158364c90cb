#include "elements/registry.hpp"
#include "elements/trait_facts.hpp"

#include <sstream>
#include <type_traits>
#include <vector>

namespace halfstep {

namespace {

using trait_facts::CrossSectionOf;
using trait_facts::DiscreteOf;
using trait_facts::FormulationOf;

/// K::kExplicit and K::kExplicitAlternative when the trait has them, else true and "".
template <class K, class = void>
struct ExplicitOf {
  static constexpr bool value = true;
  static constexpr const char* alternative = "";
};
template <class K>
struct ExplicitOf<K, std::void_t<decltype(K::kExplicit)>> {
  static constexpr bool value = K::kExplicit;
  static constexpr const char* alternative = K::kExplicitAlternative;
};

/// K::kVtkOrder when the trait has one, else null (VTK's node order is the element's).
template <class K, class = void>
struct VtkOrderOf {
  static constexpr const int* value = nullptr;
};
template <class K>
struct VtkOrderOf<K, std::void_t<decltype(K::kVtkOrder)>> {
  static constexpr const int* value = K::kVtkOrder;
};

/// K::kAdhesion when the trait has it, else false.
template <class K, class = void>
struct AdhesionOf : std::false_type {};
template <class K>
struct AdhesionOf<K, std::void_t<decltype(K::kAdhesion)>> : std::bool_constant<K::kAdhesion> {};

template <class K>
ElementKindInfo info_of() {
  constexpr bool shell = std::is_same_v<K, Mitc4Kind>, beam = std::is_same_v<K, FpmBeamKind>;
  constexpr bool tri = std::is_same_v<K, FpmTriKind>;
  return {K::name(), K::kAliases, FormulationOf<K>::value, K::kNodes, K::kDimension,
          shell || beam || tri ? 6 : K::kDimension, K::kVtkCell, K::kCost, K::kPoints,
          shell  ? ElementFamily::Shell
          : beam ? ElementFamily::Beam
          : tri  ? ElementFamily::FpmShell
                 : ElementFamily::Continuum,
          DiscreteOf<K>::kind, DiscreteOf<K>::dofs, CrossSectionOf<K>::value,
          ExplicitOf<K>::value, ExplicitOf<K>::alternative, VtkOrderOf<K>::value, is_axisymmetric<K>(),
          AdhesionOf<K>::value, ElementDataSize<K>::value > 0 ? MadeBy<K>::value : "",
          TakesBulkViscosity<K>::value, TakesThermalStrain<K>::value,
          shell || tri                    ? "*SHELL SECTION"
          : beam                          ? "*BEAM SECTION"
          : DiscreteOf<K>::kind == 1      ? "*SPRING"
          : DiscreteOf<K>::kind == 2      ? "*DASHPOT"
          : AdhesionOf<K>::value          ? "*ADHESION"
                                          : "*SOLID SECTION",
          shell || tri, shell || beam || tri};
}

template <class... K>
std::vector<ElementKindInfo> table_of(KindList<K...>) {
  return {info_of<K>()...};
}

const std::vector<ElementKindInfo>& table() {
  static const std::vector<ElementKindInfo> t = table_of(AllKinds{});
  return t;
}

}  // namespace

int num_element_kinds() { return static_cast<int>(table().size()); }

const ElementKindInfo& element_kind(int id) { return table().at(static_cast<std::size_t>(id)); }

int find_element_kind(const std::string& deck_name) {
  for (int id = 0; id < num_element_kinds(); ++id) {
    const ElementKindInfo& k = element_kind(id);
    if (*k.formulation) continue;
    if (deck_name == k.name) return id;
    std::istringstream aliases(k.aliases);
    for (std::string a; aliases >> a;)
      if (deck_name == a) return id;
  }
  return -1;
}

int find_element_kind(const std::string& deck_name, const std::string& formulation) {
  if (formulation.empty()) return find_element_kind(deck_name);
  for (int id = 0; id < num_element_kinds(); ++id) {
    const ElementKindInfo& k = element_kind(id);
    if (deck_name == k.name && formulation == k.formulation) return id;
  }
  return -1;
}

int find_formulation_only_kind(const std::string& deck_name) {
  if (find_element_kind(deck_name) >= 0) return -1;
  for (int id = 0; id < num_element_kinds(); ++id) {
    const ElementKindInfo& k = element_kind(id);
    if (!*k.formulation) continue;
    if (deck_name == k.name) return id;
    std::istringstream aliases(k.aliases);
    for (std::string a; aliases >> a;)
      if (deck_name == a) return id;
  }
  return -1;
}

bool is_element_formulation(const std::string& formulation) {
  for (int id = 0; id < num_element_kinds(); ++id)
    if (*element_kind(id).formulation && formulation == element_kind(id).formulation) return true;
  return false;
}

std::string formulation_kinds(const std::string& formulation) {
  std::string out;
  for (int id = 0; id < num_element_kinds(); ++id) {
    const ElementKindInfo& k = element_kind(id);
    if (!*k.formulation || formulation != k.formulation) continue;
    out += (out.empty() ? "" : ", ") + std::string(k.name);
    std::istringstream aliases(k.aliases);
    for (std::string a; aliases >> a;) out += ", " + a;
  }
  return out;
}

std::string supported_formulations() {
  std::string out;
  for (int id = 0; id < num_element_kinds(); ++id) {
    const ElementKindInfo& k = element_kind(id);
    if (!*k.formulation || out.find(std::string(k.formulation) + " (for") != std::string::npos) continue;
    out += (out.empty() ? "" : ", ") + std::string(k.formulation) + " (for " + formulation_kinds(k.formulation) + ")";
  }
  return out;
}

std::string supported_element_names() {
  std::string out;
  for (int id = 0; id < num_element_kinds(); ++id) {
    const ElementKindInfo& k = element_kind(id);
    if (*k.formulation || *k.made_by) continue;  // not for *ELEMENT
    out += (out.empty() ? "" : ", ") + std::string(k.name);
    std::istringstream aliases(k.aliases);
    for (std::string a; aliases >> a;) out += ", " + a;
  }
  return out;
}

int shell_kind_id() {
  for (int id = 0; id < num_element_kinds(); ++id)
    if (element_kind(id).family == ElementFamily::Shell) return id;
  return -1;
}

}  // namespace halfstep
