#include "solver/run_failure.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "discretization/element_blocks.hpp"
#include "parallel/subdomain.hpp"
#include "solver/explicit_solver.hpp"

namespace halfstep {

namespace {

/// Deck ids and lines of model elements and nodes in failure reports. A rank that holds no
/// deck (ranks other than 0 of a distributed run) writes placeholders instead, which rank 0
/// fills in (fill_names) before the report reaches every rank.
struct Names {
  const Model& model;
  static constexpr char kMark = '\x1f';  ///< brackets a placeholder: never in a deck's text (printable())
  std::string placeholder(char what, std::size_t i) const { return kMark + (what + std::to_string(i)) + kMark; }
  /// Deck id of model element me.
  std::string element(int me) const {
    const auto i = static_cast<std::size_t>(me);
    return model.elements.id.empty() ? placeholder('E', i) : std::to_string(model.elements.id[i]);
  }
  /// file:line of model element me.
  std::string element_line(int me) const {
    const auto i = static_cast<std::size_t>(me);
    return model.elements.id.empty() ? placeholder('L', i) : model.elements.loc[i].str();
  }
  /// Deck id of model node n.
  std::string node(int n) const {
    const auto i = static_cast<std::size_t>(n);
    return model.nodes.id.empty() ? placeholder('N', i) : std::to_string(model.nodes.id[i]);
  }
  /// text with every placeholder replaced by what it stands for (this rank holds the deck).
  std::string fill(const std::string& text) const {
    std::string out;
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t open = text.find(kMark, at), close = open == std::string::npos ? open : text.find(kMark, open + 1);
      if (close == std::string::npos) {
        out += text.substr(at);
        break;
      }
      out += text.substr(at, open - at);
      const int i = std::stoi(text.substr(open + 2, close - open - 2));
      const char what = text[open + 1];
      out += what == 'E' ? element(i) : what == 'L' ? element_line(i) : node(i);
      at = close + 1;
    }
    return out;
  }
};

/// First element (deck id) or node with a non-finite value, for instability reports (empty
/// when there is none). node_global maps the system's nodes to the model's (empty: same).
std::string find_nonfinite(const Names& names, const StructureSystem& sys, const StructureState& st,
                           const std::vector<int>& node_global) {
  const auto named = [&](int me) {
    return "element " + names.element(me) + " (" + names.element_line(me) + ") has a non-finite strain energy";
  };
  for (const ElementBlock& b : element_blocks(sys))
    for (int e = b.first; e < b.first + b.count; ++e)
      if (!std::isfinite(b.family->energy(sys, st, e))) return named((*b.model_element)[static_cast<std::size_t>(e)]);
  for (int n = 0; n < sys.num_nodes; ++n)
    for (int d = 0; d < kMaxNodeDofs; ++d)
      if (!std::isfinite(st.v[d][n]))
        return "node " + names.node(node_global.empty() ? n : node_global[n]) + " has a non-finite velocity";
  return "";
}

/// Largest |value| of element strain energy density, to name the element driving a blow-up;
/// *peak gets the largest density found (for picking a rank).
std::string most_strained_element(const Names& names, const StructureSystem& sys, const StructureState& st,
                                  double* peak = nullptr) {
  // Shells per unit area, solids per unit volume, ...: each family is compared within itself.
  std::string out;
  if (peak) *peak = -1;
  const std::vector<ElementBlock> blocks = element_blocks(sys);
  for (std::size_t i = 0; i < blocks.size();) {
    const BlockFamily* family = blocks[i].family;
    int worst = -1;
    double best = -1;
    const std::vector<int>* model_element = blocks[i].model_element;
    for (; i < blocks.size() && blocks[i].family == family; ++i)  // a family's blocks follow each other
      for (int e = blocks[i].first; e < blocks[i].first + blocks[i].count; ++e) {
        const double d = family->energy(sys, st, e) / family->measure(sys, e);
        if (d > best) {
          best = d;
          worst = e;
        }
      }
    if (worst < 0) continue;
    if (peak && best > *peak) *peak = best;
    if (!out.empty()) out += "; ";
    out += std::string(family->what) + " element " + names.element((*model_element)[static_cast<std::size_t>(worst)]) +
           " has the highest strain energy density";
  }
  return out;
}

}  // namespace

[[noreturn]] void report_failure(const Model& model, const StructureSystem& sys, Backend& backend, StructureState& st,
                                 const EnergyMonitor& m, const std::string& step_name, double tolerance,
                                 const DistributedContext* dist) {
  backend.download(st);
  const std::vector<int> no_map;
  const std::vector<int>& node_global = dist ? dist->domain->node_global : no_map;
  std::string where;  // "on rank r of P: " in a distributed run
  std::string culprit;
  const Names names{model};
  // The culprit's rank names it; rank 0, which holds the deck, fills in its ids.
  const auto from_rank = [&](int r) {
    culprit = dist->comm->broadcast(culprit, r);
    culprit = dist->comm->broadcast(dist->comm->rank() == 0 ? names.fill(culprit) : std::string(), 0);
    where = "on rank " + std::to_string(r) + " of " + std::to_string(dist->comm->size()) + ", ";
  };
  if (m.status == kNonFiniteEnergy) {
    culprit = "its work, dissipation or contact energy sums are not finite numbers while the state is";
  } else if (m.status == kEnergyDrift) {
    double peak = -1;
    culprit = most_strained_element(names, sys, st, &peak);
    if (dist) from_rank(dist->comm->max_location(peak).second);
  } else {
    culprit = find_nonfinite(names, sys, st, node_global);
    if (dist) {
      const int r = dist->comm->min(culprit.empty() ? dist->comm->size() : dist->comm->rank());
      if (r < dist->comm->size()) from_rank(r);
    }
    if (culprit.empty()) culprit = "a non-finite value appeared";
  }
  std::string msg;
  if (m.status == kNonFiniteEnergy)
    msg = "the energy balance is not a finite number at step " + std::to_string(m.fail_step) + " (time " +
          std::to_string(m.fail_time) + ", step '" + step_name + "'): " + culprit;
  else if (m.status == kEnergyDrift)
    msg = "energy balance error of " + std::to_string(100 * m.fail_drift / m.fail_scale) + " % at step " +
          std::to_string(m.fail_step) + " (time " + std::to_string(m.fail_time) + ", step '" + step_name +
          "') exceeds " + std::to_string(100 * tolerance) + " %: the solution is unstable; " + where + culprit;
  else
    msg = "instability at step " + std::to_string(m.fail_step) + " (time " + std::to_string(m.fail_time) +
          ", step '" + step_name + "'): " + where + culprit + "; reduce the time increment or check the loads";
  if (dist) throw CollectiveRunError(msg);
  throw RunError(msg);
}

}  // namespace halfstep
