#include "discretization/mass_scaling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "core/error.hpp"
#include "core/vec3.hpp"
#include "discretization/element_blocks.hpp"
#include "discretization/stable_increment.hpp"
#include "discretization/step_loads.hpp"

namespace halfstep {

namespace {

/// Where a model element lives in the system: its family (block_families() index, -1: none)
/// and its index in the family's mesh.
struct Place {
  int family = -1;
  int index = -1;
};

/// Where each model element lives in the system.
std::vector<Place> places(const StructureSystem& sys, std::size_t n_model) {
  std::vector<Place> place(n_model);
  for (const ElementBlock& b : element_blocks(sys))
    for (int e = b.first; e < b.first + b.count; ++e)
      place[static_cast<std::size_t>((*b.model_element)[static_cast<std::size_t>(e)])] = {
          static_cast<int>(family_index(*b.family)), e};
  return place;
}

/// Family f's undeformed element increments in sys, to change.
std::vector<double>& family_dt(const BlockFamily& f, StructureSystem& sys) { return f.element_dt(sys); }

/// Family f's undeformed element increments in sys, to read (BlockFamily::element_dt hands out
/// the array to change; reading it through a const system changes nothing).
const std::vector<double>& family_dt(const BlockFamily& f, const StructureSystem& sys) {
  return f.element_dt(const_cast<StructureSystem&>(sys));
}

/// The family of a place, or null.
const BlockFamily* family_of(const Place& p) {
  return p.family < 0 ? nullptr : block_families()[static_cast<std::size_t>(p.family)];
}

/// Whether mass scaling can scale the elements of p's family (BlockFamily::has_density).
bool scalable_family(const Place& p) {
  const BlockFamily* f = family_of(p);
  return f && f->has_density;
}

/// The elements a line scales: its set's (every element of the scalable families without
/// ELSET) with a density; refused gets the first element in the set of a family mass scaling
/// refuses (-1: none).
std::vector<int> scalable_members(const Model& model, const StructureSystem& sys, const std::vector<Place>& place,
                                  const MassScaling& ms, int* refused) {
  std::vector<int> members, out;
  if (ms.elset.empty()) {
    for (std::size_t i = 0; i < place.size(); ++i)
      if (scalable_family(place[i])) members.push_back(static_cast<int>(i));
  } else {
    members = model.elsets.at(ms.elset).members;
  }
  if (refused) *refused = -1;
  for (int i : members) {
    const Place& p = place[static_cast<std::size_t>(i)];
    if (!family_of(p)) continue;
    if (!scalable_family(p)) {
      if (refused && *refused < 0) *refused = i;
      continue;
    }
    if (family_of(p)->has_density(sys, p.index)) out.push_back(i);  // springs and dashpots have none
  }
  return out;
}

/// The model's elements of families mass scaling does not scale (FPM beams and triangles): how
/// many, and those families' names ("beam,FPM triangle").
std::pair<int, std::string> unscaled_families(const std::vector<Place>& place) {
  int count = 0;
  std::vector<char> named(block_families().size(), 0);
  std::string what;
  for (const Place& p : place)
    if (family_of(p) && !scalable_family(p)) {
      char& seen = named[static_cast<std::size_t>(p.family)];
      if (!seen) what += (what.empty() ? "" : ",") + std::string(family_of(p)->what);  // each family once
      seen = 1;
      ++count;
    }
  return {count, what};
}

/// The InputError for a line without ELSET (keyword) on a model whose elements are all of
/// families mass scaling does not scale: it would scale nothing.
InputError scales_nothing(const SourceLoc& at, const char* keyword, const std::pair<int, std::string>& unscaled) {
  return InputError(at, std::string(keyword) + " without ELSET scales no element of this model: it scales shells "
                                               "and continuum elements with a density, and the model's " +
                            std::to_string(unscaled.first) + " elements (" + unscaled.second +
                            ") are of families whose mass it does not scale; remove the keyword");
}

/// The InputError for mass scaling (keyword) of model element i, whose family it refuses.
InputError refused_element(const Model& model, const std::vector<Place>& place, int i, const SourceLoc& at,
                           const char* keyword) {
  return InputError(at, std::string(keyword) + " of element " +
                            std::to_string(model.elements.id[static_cast<std::size_t>(i)]) + " (" +
                            family_of(place[static_cast<std::size_t>(i)])->what +
                            ") is not supported: it scales shells and continuum elements; leave the element out "
                            "of the ELSET");
}

/// Calls f(model_element, node, mass) for every node's share of the lumped mass, at its
/// density, of each element that keep(model_element) selects (BlockFamily::lumped_mass), in
/// block order.
template <class Keep, class F>
void for_each_mass_share(const Model& model, const StructureSystem& sys, Keep&& keep, F&& f) {
  std::vector<std::pair<int, double>> shares;
  for (const ElementBlock& b : element_blocks(sys)) {
    if (!b.family->has_density || !b.family->lumped_mass) continue;  // families it cannot scale
    for (int e = b.first; e < b.first + b.count; ++e) {
      const int me = (*b.model_element)[static_cast<std::size_t>(e)];
      if (!keep(me)) continue;
      shares.clear();
      b.family->lumped_mass(model, sys, b, e, false, false, shares);
      for (const auto& [node, mass] : shares) f(me, node, mass);
    }
  }
}

/// The density factor of each element of the set (1: unchanged), from one MassScaling.
void set_factors(const MassScaling& ms, const std::vector<int>& members, const std::vector<double>& dt,
                 std::vector<double>& factor) {
  for (int i : members) factor[static_cast<std::size_t>(i)] *= ms.factor;
  if (!(ms.dt > 0)) return;
  // The element increment grows with the square root of its density.
  const auto dt_now = [&](int i) { return dt[static_cast<std::size_t>(i)] * std::sqrt(factor[static_cast<std::size_t>(i)]); };
  if (ms.uniform) {
    double lowest = std::numeric_limits<double>::infinity();
    for (int i : members) lowest = std::min(lowest, dt_now(i));
    if (!(lowest < ms.dt)) return;
    const double f = (ms.dt / lowest) * (ms.dt / lowest);
    for (int i : members) factor[static_cast<std::size_t>(i)] *= f;
    return;
  }
  for (int i : members) {
    const double d = dt_now(i);
    if (d < ms.dt) factor[static_cast<std::size_t>(i)] *= (ms.dt / d) * (ms.dt / d);
  }
}

}  // namespace

MassScalingResult apply_fixed_mass_scaling(const Model& model, const std::vector<MassScaling>& scalings,
                                           StructureSystem& sys, double bulk_linear) {
  MassScalingResult out;
  out.stable_dt_before = bulk_stable_dt(sys, bulk_linear);
  if (scalings.empty()) return out;
  const std::size_t n_model = model.elements.id.size();
  const std::vector<Place> place = places(sys, n_model);

  // Each model element's increment now (as the step takes it: with its bulk viscosity factor),
  // and the set it is scaled with.
  std::vector<double> dt(n_model, std::numeric_limits<double>::infinity());
  for (std::size_t i = 0; i < n_model; ++i)
    if (scalable_family(place[i]))
      dt[i] = family_dt(*family_of(place[i]), sys)[static_cast<std::size_t>(place[i].index)] *
              kind_bulk_dt_factor(model.elements.kind[i], bulk_linear);
  std::vector<double> factor(n_model, 1.0);
  for (const MassScaling& ms : scalings) {
    // Springs, dashpots and point masses have no density to scale; they are left as they are.
    int refused = -1;
    const std::vector<int> scalable = scalable_members(model, sys, place, ms, &refused);
    if (refused >= 0) throw refused_element(model, place, refused, ms.loc, "*FIXED MASS SCALING");
    if (ms.elset.empty()) {
      // The whole model: the elements of families it cannot scale keep their density (and
      // their increment, which may then still control the step); say so, and refuse a line
      // that would scale nothing at all.
      const std::pair<int, std::string> unscaled = unscaled_families(place);
      if (scalable.empty() && unscaled.first > 0) throw scales_nothing(ms.loc, "*FIXED MASS SCALING", unscaled);
      out.skipped = unscaled.first;
      out.skipped_what = unscaled.second;
    }
    set_factors(ms, scalable, dt, factor);
  }

  // The added mass of each scaled element, to its nodes as its lumped mass is; its increment
  // grows with the square root of its density.
  std::vector<double> added(static_cast<std::size_t>(sys.num_nodes), 0.0);
  const auto scaled = [&factor](int me) { return factor[static_cast<std::size_t>(me)] != 1.0; };
  for_each_mass_share(model, sys, scaled, [&](int me, int node, double mass) {
    added[static_cast<std::size_t>(node)] += (factor[static_cast<std::size_t>(me)] - 1) * mass;
  });
  for (std::size_t i = 0; i < n_model; ++i) {
    if (!scaled(static_cast<int>(i))) continue;
    family_dt(*family_of(place[i]), sys)[static_cast<std::size_t>(place[i].index)] *= std::sqrt(factor[i]);
    out.elements += 1;
  }

  for (int n = 0; n < sys.num_nodes; ++n) {
    const double a = added[static_cast<std::size_t>(n)];
    if (a == 0.0) continue;
    const double ratio = (sys.mass[n] + a) / sys.mass[n];
    sys.mass[n] += a;
    sys.inertia[n] *= ratio;  // rotary inertia and damping are proportional to the node's mass
    sys.damp[n] *= ratio;
    sys.damp_rot[n] *= ratio;
    out.added_mass += a;
  }
  sys.total_mass += out.added_mass;
  // The constraints, rigid bodies and contact springs took the unscaled masses when the
  // system was built (a tied or rigid node would move with the old inertia), and the springs',
  // dashpots' and adhesion edges' increments come from their nodes' masses.
  rebuild_mass_dependents(model, sys);

  update_stable_dt(sys);  // as the system build takes it
  out.stable_dt_after = bulk_stable_dt(sys, bulk_linear);
  out.factor = std::move(factor);
  return out;
}

MassScalingResult apply_deck_mass_scaling(const Model& model, StructureSystem& sys) {
  MassScalingResult result;
  result.stable_dt_before = result.stable_dt_after = sys.stable_dt;
  bool explicit_before = false;
  for (std::size_t k = 0; k < model.steps.size(); ++k) {
    const Step& s = model.steps[k];
    if (!s.mass_scaling.empty()) {
      if (s.procedure == Procedure::Static)
        throw InputError(s.mass_scaling[0].loc, "*FIXED MASS SCALING belongs in an explicit dynamic step, not a static one");
      if (explicit_before)
        throw InputError(s.mass_scaling[0].loc,
                         "*FIXED MASS SCALING is applied once, when the run starts: halfstep takes it in the first "
                         "explicit step only (move it there)");
      result = apply_fixed_mass_scaling(model, s.mass_scaling, sys, step_bulk_viscosity(model, k).linear);
    }
    explicit_before = explicit_before || s.procedure == Procedure::ExplicitDynamic;
  }
  return result;
}

void check_variable_mass_scaling(const Model& model, const StructureSystem& sys) {
  std::vector<Place> place;  // made only for a deck that scales: an array per model element
  for (const Step& s : model.steps) {
    if (s.variable_mass_scaling.empty()) continue;
    if (place.empty()) place = places(sys, model.elements.id.size());
    const VariableMassScaling& first = s.variable_mass_scaling.front();
    const SourceLoc& at = first.scaling.loc;
    if (s.procedure == Procedure::Static)
      throw InputError(at, "*VARIABLE MASS SCALING belongs in an explicit dynamic step, not a static one");
    for (const VariableMassScaling& v : s.variable_mass_scaling) {
      if (v.frequency != first.frequency || v.number_interval != first.number_interval)
        throw InputError(v.scaling.loc, "the *VARIABLE MASS SCALING lines of a step are re-evaluated together: give "
                                        "them the same FREQUENCY or NUMBER INTERVAL as the line at " + at.str());
      int refused = -1;
      const std::vector<int> scalable = scalable_members(model, sys, place, v.scaling, &refused);
      if (refused >= 0) throw refused_element(model, place, refused, v.scaling.loc, "*VARIABLE MASS SCALING");
      if (v.scaling.elset.empty() && scalable.empty()) {
        const std::pair<int, std::string> unscaled = unscaled_families(place);
        if (unscaled.first > 0) throw scales_nothing(v.scaling.loc, "*VARIABLE MASS SCALING", unscaled);
      }
    }
  }
}

VariableMassScaler::VariableMassScaler(const Model& model, const MassScalingResult& fixed) : model_(model) {
  const std::size_t n_model = model.elements.id.size();
  base_density_ = fixed.factor.empty() ? std::vector<double>(n_model, 1.0) : fixed.factor;
  factor_.assign(n_model, 1.0);
  base_dt_.resize(block_families().size());  // empty until a step's lines take the base
  for (const Step& step : model.steps) in_deck_ = in_deck_ || !step.variable_mass_scaling.empty();
}

const std::vector<VariableMassScaling>& VariableMassScaler::definitions() const {
  static const std::vector<VariableMassScaling> none;
  return step_ >= 0 ? model_.steps[static_cast<std::size_t>(step_)].variable_mass_scaling : none;
}

void VariableMassScaler::begin_step(int step, const StructureSystem& sys) {
  const std::vector<VariableMassScaling>& lines = model_.steps[static_cast<std::size_t>(step)].variable_mass_scaling;
  if (lines.empty()) return;  // the definitions in force go on, from their own base
  // The masses now become the base: what earlier definitions added stays.
  for (std::size_t i = 0; i < factor_.size(); ++i) base_density_[i] *= factor_[i];
  factor_.assign(factor_.size(), 1.0);
  base_mass_ = sys.mass;
  base_inertia_ = sys.inertia;
  base_damp_ = sys.damp;
  base_damp_rot_ = sys.damp_rot;
  base_dt_.clear();
  for (const BlockFamily* f : block_families()) base_dt_.push_back(family_dt(*f, sys));
  base_total_mass_ = sys.total_mass;
  step_ = -1;
  for (const VariableMassScaling& v : lines)
    if (v.scaling.dt > 0) step_ = step;  // lines without DT only end the earlier ones
  members_.clear();
  if (step_ >= 0) prepare(sys);
}

void VariableMassScaler::prepare(const StructureSystem& sys) {
  const std::size_t n_model = model_.elements.id.size();
  const std::vector<Place> place = places(sys, n_model);
  members_.clear();
  for (const VariableMassScaling& v : definitions()) members_.push_back(scalable_members(model_, sys, place, v.scaling, nullptr));
  family_of_.assign(n_model, -1);
  index_of_.assign(n_model, -1);
  for (std::size_t i = 0; i < n_model; ++i)
    if (scalable_family(place[i])) {
      family_of_[i] = place[i].family;
      index_of_[i] = place[i].index;
    }
  std::vector<char> scaled(n_model, 0);
  for (const std::vector<int>& m : members_)
    for (int i : m) scaled[static_cast<std::size_t>(i)] = 1;
  // Each scalable element's base mass, to its nodes as its lumped mass goes.
  std::vector<std::vector<std::pair<int, double>>> shares(n_model);
  for_each_mass_share(
      model_, sys, [&scaled](int me) { return scaled[static_cast<std::size_t>(me)] != 0; },
      [&](int me, int node, double mass) {
        shares[static_cast<std::size_t>(me)].emplace_back(node, base_density_[static_cast<std::size_t>(me)] * mass);
      });
  share_ptr_.assign(1, 0);
  share_node_.clear();
  share_mass_.clear();
  for (const auto& list : shares) {
    for (const auto& [n, m] : list) {
      share_node_.push_back(n);
      share_mass_.push_back(m);
    }
    share_ptr_.push_back(static_cast<int>(share_node_.size()));
  }
}

void VariableMassScaler::set_element_dt(StructureSystem& sys, std::size_t i, double scale) const {
  if (family_of_[i] < 0) return;
  const auto f = static_cast<std::size_t>(family_of_[i]), k = static_cast<std::size_t>(index_of_[i]);
  block_families()[f]->element_dt(sys)[k] = scale == 1.0 ? base_dt_[f][k] : base_dt_[f][k] * scale;
}

void VariableMassScaler::rebuild_mass_copies(StructureSystem& sys) const {
  // Contact's penalty springs are scaled by the masses of the nodes they join (and the stable
  // increment): with the old masses a node that lost mass would ring above the increment.
  set_spring_masses(sys.contact, sys.mass);
  // A dependent dof's mass is handed to its independent dofs, a body integrates its nodes'
  // masses as one: both are sums of the nodal masses, made again from the new ones.
  if (!sys.constraints.empty()) set_constraint_masses(sys.constraints, sys.mass, sys.inertia);
  if (!sys.bodies.empty()) set_body_masses(sys.bodies, model_, sys.mass, sys.inertia, sys.node_rotates);
}

double added_kinetic_energy(const StructureSystem& sys, const StructureState& st, int n, double mass, double inertia) {
  const std::size_t k = static_cast<std::size_t>(n);
  const double v2 = st.v[0][k] * st.v[0][k] + st.v[1][k] * st.v[1][k] + st.v[2][k] * st.v[2][k];
  double added = 0.5 * (mass - sys.mass[k]) * v2;
  if (sys.has_rotations(n)) {
    const double w2 = st.v[3][k] * st.v[3][k] + st.v[4][k] * st.v[4][k] + st.v[5][k] * st.v[5][k];
    added += 0.5 * (inertia - sys.inertia[k]) * w2;
  }
  return added;
}

void VariableMassScaler::follow_step(int step) {
  const std::vector<VariableMassScaling>& lines = model_.steps[static_cast<std::size_t>(step)].variable_mass_scaling;
  if (lines.empty()) return;
  step_ = -1;
  for (const VariableMassScaling& v : lines)
    if (v.scaling.dt > 0) step_ = step;
}

VariableScalingResult VariableMassScaler::rescale(StructureSystem& sys, const StructureState& st) {
  if (!active()) return {};
  return rescale_with(sys, deformed_bound_ratios(sys, st), &st);
}

VariableScalingResult VariableMassScaler::rescale_with(StructureSystem& sys, const std::vector<std::vector<double>>& ratio,
                                                       const StructureState* st) {
  VariableScalingResult out;
  if (!active()) return out;
  const std::size_t n_model = factor_.size();
  // Each element's increment on the deformed mesh with its base mass: the factors are always
  // taken from there, so they follow the mesh down and up again.
  // (With the step's bulk viscosity factor: the target is the increment the step takes.)
  const double b1 = step_bulk_viscosity(model_, static_cast<std::size_t>(step_)).linear;
  std::vector<double> dt(n_model, std::numeric_limits<double>::infinity());
  for (std::size_t i = 0; i < n_model; ++i)
    if (family_of_[i] >= 0) {
      const auto f = static_cast<std::size_t>(family_of_[i]), k = static_cast<std::size_t>(index_of_[i]);
      dt[i] = base_dt_[f][k] * ratio[f][k] * kind_bulk_dt_factor(model_.elements.kind[i], b1);
    }
  factor_.assign(n_model, 1.0);
  const std::vector<VariableMassScaling>& lines = definitions();
  for (std::size_t l = 0; l < lines.size(); ++l)
    if (lines[l].scaling.dt > 0) set_factors(lines[l].scaling, members_[l], dt, factor_);

  std::vector<double> mass = base_mass_;
  for (std::size_t i = 0; i < n_model; ++i) {
    const double f = factor_[i];
    if (f == 1.0) continue;
    out.elements += 1;
    for (int k = share_ptr_[i]; k < share_ptr_[i + 1]; ++k)
      mass[static_cast<std::size_t>(share_node_[static_cast<std::size_t>(k)])] += (f - 1) * share_mass_[static_cast<std::size_t>(k)];
    set_element_dt(sys, i, std::sqrt(f));
  }
  for (std::size_t i = 0; i < n_model; ++i) {  // elements back at their base
    if (factor_[i] == 1.0) set_element_dt(sys, i, 1.0);
  }
  for (int n = 0; n < sys.num_nodes; ++n) {
    const std::size_t k = static_cast<std::size_t>(n);
    // Rotary inertia and damping are proportional to the node's mass, as the fixed scaling keeps them.
    const double ratio = mass[k] == base_mass_[k] ? 1.0 : mass[k] / base_mass_[k];
    const double inertia = ratio == 1.0 ? base_inertia_[k] : base_inertia_[k] * ratio;
    if (st) out.added_kinetic += added_kinetic_energy(sys, *st, n, mass[k], inertia);
    out.added_mass += mass[k] - base_mass_[k];
    sys.mass[k] = mass[k];
    sys.inertia[k] = inertia;
    sys.damp[k] = ratio == 1.0 ? base_damp_[k] : base_damp_[k] * ratio;
    sys.damp_rot[k] = ratio == 1.0 ? base_damp_rot_[k] : base_damp_rot_[k] * ratio;
  }
  sys.total_mass = base_total_mass_ + out.added_mass;
  update_stable_dt(sys);
  rebuild_mass_copies(sys);
  return out;
}

template <class Self, class Sys, class Arrays, class Values>
void VariableMassScaler::for_each_restart_item(Self& self, Sys& sys, Arrays&& f, Values&& g) {
  const long long n_model = static_cast<long long>(self.factor_.size());
  g("vms.step", self.step_);
  f("vms.base_density", self.base_density_, n_model);
  f("vms.factor", self.factor_, n_model);
  f("vms.base_mass", self.base_mass_, -1);
  f("vms.base_inertia", self.base_inertia_, -1);
  f("vms.base_damp", self.base_damp_, -1);
  f("vms.base_damp_rot", self.base_damp_rot_, -1);
  const std::vector<const BlockFamily*>& families = block_families();
  for (std::size_t k = 0; k < families.size(); ++k)
    if (families[k]->has_density) f(std::string("vms.base_") + families[k]->key + "_dt", self.base_dt_[k], -1);
  g("vms.base_total_mass", self.base_total_mass_);
  // The system's scaled arrays as they are, rather than recomputed from the factors.
  f("vms.mass", sys.mass, sys.num_nodes);
  f("vms.inertia", sys.inertia, sys.num_nodes);
  f("vms.damp", sys.damp, sys.num_nodes);
  f("vms.damp_rot", sys.damp_rot, sys.num_nodes);
  for (const BlockFamily* fam : families)
    if (fam->has_density)
      f(std::string("vms.") + fam->key + "_dt", family_dt(*fam, sys), fam->count(sys));
  g("vms.total_mass", sys.total_mass);
  g("vms.totals", self.totals);
}

void VariableMassScaler::save(RestartBlob& blob, const StructureSystem& sys) const {
  // Without the keyword the masses are the system's own: nothing to save. This also keeps
  // distributed runs (which refuse the keyword) out of it: their sys is one rank's part.
  if (!in_deck_) return;
  for_each_restart_item(
      *this, sys, [&](const std::string& name, const auto& v, long long) { blob.put_view(name, v); },
      [&](const char* name, const auto& x) { blob.put_value(name, x); });
}

void VariableMassScaler::load(const RestartBlob& blob, StructureSystem& sys) {
  if (!in_deck_) return;  // the deck's hash, checked before, says the saved run had none either
  for_each_restart_item(
      *this, sys, [&](const std::string& name, auto& v, long long size) { blob.get_vector(name, v, size); },
      [&](const char* name, auto& x) { x = blob.get_value<std::remove_reference_t<decltype(x)>>(name); });
  if (step_ >= static_cast<int>(model_.steps.size())) blob.fail("its *VARIABLE MASS SCALING step is not in this deck");
  update_stable_dt(sys);
  rebuild_mass_copies(sys);  // from the saved masses, as rescale() left them
  members_.clear();
  if (step_ >= 0) prepare(sys);
}

}  // namespace halfstep
