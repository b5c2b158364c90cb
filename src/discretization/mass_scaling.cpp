#include "discretization/mass_scaling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "core/vec3.hpp"
#include "elements/registry.hpp"
#include "elements/solid_common.hpp"

namespace halfstep {

namespace {

/// Where a model element lives in the system: family and index in it.
struct Place {
  enum Family { None, Shell, Solid, Other } family = None;
  int index = -1;
};

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
                                           StructureSystem& sys) {
  MassScalingResult out;
  out.stable_dt_before = sys.stable_dt;
  if (scalings.empty()) return out;
  const std::size_t n_model = model.elements.id.size();
  std::vector<Place> place(n_model);
  for (int e = 0; e < sys.num_elements; ++e) place[static_cast<std::size_t>(sys.shell_model_element[e])] = {Place::Shell, e};
  for (int e = 0; e < sys.solid.num_elements; ++e)
    place[static_cast<std::size_t>(sys.solid.model_element[static_cast<std::size_t>(e)])] = {Place::Solid, e};
  for (int e : sys.beam.model_element) place[static_cast<std::size_t>(e)] = {Place::Other, -1};
  for (int e : sys.tri.model_element) place[static_cast<std::size_t>(e)] = {Place::Other, -1};

  // Each model element's increment now, and the set it is scaled with.
  std::vector<double> dt(n_model, std::numeric_limits<double>::infinity());
  for (std::size_t i = 0; i < n_model; ++i) {
    const Place& p = place[i];
    if (p.family == Place::Shell) dt[i] = sys.element_dt[static_cast<std::size_t>(p.index)];
    if (p.family == Place::Solid) dt[i] = sys.solid.element_dt[static_cast<std::size_t>(p.index)];
  }
  std::vector<double> factor(n_model, 1.0);
  for (const MassScaling& ms : scalings) {
    std::vector<int> members;
    if (ms.elset.empty()) {
      for (std::size_t i = 0; i < n_model; ++i)
        if (place[i].family == Place::Shell || place[i].family == Place::Solid) members.push_back(static_cast<int>(i));
    } else {
      members = model.elsets.at(ms.elset).members;
    }
    // Springs, dashpots and point masses have no density to scale; they are left as they are.
    std::vector<int> scalable;
    for (int i : members) {
      const Place& p = place[static_cast<std::size_t>(i)];
      if (p.family == Place::Other)
        throw InputError(ms.loc, "*FIXED MASS SCALING of FPM beams and triangles (element " +
                                     std::to_string(model.elements.id[static_cast<std::size_t>(i)]) +
                                     ") is not supported: leave them out of the ELSET");
      if (p.family == Place::Solid) {
        const SolidMaterial<double>& m = sys.solid.materials[static_cast<std::size_t>(
            sys.solid.material[static_cast<std::size_t>(p.index)])];
        if (!(m.density > 0)) continue;
      }
      if (p.family != Place::None) scalable.push_back(i);
    }
    set_factors(ms, scalable, dt, factor);
  }

  // The added mass of each scaled element, to its nodes as its lumped mass is.
  std::vector<double> added(static_cast<std::size_t>(sys.num_nodes), 0.0);
  for (int e = 0; e < sys.num_elements; ++e) {
    const double f = factor[static_cast<std::size_t>(sys.shell_model_element[e])];
    if (f == 1.0) continue;
    const SectionProps& sec = sys.sections[static_cast<std::size_t>(sys.section[e])];
    double corner[4];
    mitc4_corner_areas(sys.ref[static_cast<std::size_t>(e)], corner);
    for (int k = 0; k < 4; ++k)
      added[static_cast<std::size_t>(sys.conn[4 * static_cast<std::size_t>(e) + k])] +=
          (f - 1) * sec.density * sec.thickness * corner[k];
    sys.element_dt[static_cast<std::size_t>(e)] *= std::sqrt(f);
    out.elements += 1;
  }
  for (const SolidGroup& g : sys.solid.groups)
    visit_continuum_kind(g.kind, [&](auto kind) {
      using K = decltype(kind);
      for (int e = g.first; e < g.first + g.count; ++e) {
        const double f = factor[static_cast<std::size_t>(sys.solid.model_element[static_cast<std::size_t>(e)])];
        if (f == 1.0) continue;
        const int* c = &sys.solid.conn[static_cast<std::size_t>(g.conn_offset + (e - g.first) * K::kNodes)];
        Vec3<double> X[K::kNodes];
        for (int a = 0; a < K::kNodes; ++a)
          X[a] = {model.nodes.x[static_cast<std::size_t>(c[a])], model.nodes.y[static_cast<std::size_t>(c[a])],
                  model.nodes.z[static_cast<std::size_t>(c[a])]};
        double frac[K::kNodes];
        kind_mass_fractions<K>(X, frac, sys.solid.data_of(e));
        const SolidMaterial<double>& m =
            sys.solid.materials[static_cast<std::size_t>(sys.solid.material[static_cast<std::size_t>(e)])];
        const double mass = m.density * sys.solid.volume[static_cast<std::size_t>(e)];
        for (int a = 0; a < K::kNodes; ++a) added[static_cast<std::size_t>(c[a])] += (f - 1) * frac[a] * mass;
        sys.solid.element_dt[static_cast<std::size_t>(e)] *= std::sqrt(f);
        out.elements += 1;
      }
    });

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

  update_stable_dt(sys);  // as the system build takes it
  out.stable_dt_after = sys.stable_dt;
  return out;
}

MassScalingResult apply_deck_mass_scaling(const Model& model, StructureSystem& sys) {
  MassScalingResult result;
  result.stable_dt_before = result.stable_dt_after = sys.stable_dt;
  bool explicit_before = false;
  for (const Step& s : model.steps) {
    if (!s.mass_scaling.empty()) {
      if (s.procedure == Procedure::Static)
        throw InputError(s.mass_scaling[0].loc, "*FIXED MASS SCALING belongs in an explicit dynamic step, not a static one");
      if (explicit_before)
        throw InputError(s.mass_scaling[0].loc,
                         "*FIXED MASS SCALING is applied once, when the run starts: halfstep takes it in the first "
                         "explicit step only (move it there)");
      result = apply_fixed_mass_scaling(model, s.mass_scaling, sys);
    }
    explicit_before = explicit_before || s.procedure == Procedure::ExplicitDynamic;
  }
  return result;
}

}  // namespace halfstep
