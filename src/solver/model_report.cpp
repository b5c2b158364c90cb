#include "solver/model_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "solver/explicit_solver.hpp"
#include "discretization/element_blocks.hpp"
#include "discretization/mass_scaling.hpp"
#include "discretization/nodal_triads.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "discretization/step_loads.hpp"
#include "core/lap_timer.hpp"
#include "elements/registry.hpp"
#include "model/memory.hpp"
#include "solver/buckle_step.hpp"
#include "solver/frequency_step.hpp"
#include "solver/modal_dynamics.hpp"
#include "solver/static_solver.hpp"

namespace halfstep {

namespace {

/// Bytes a run holds in its system and state arrays (measured from the built arrays).
std::size_t memory_bytes(const StructureSystem& sys) {
  std::size_t b = vector_bytes(sys.x0) * 3 + vector_bytes(sys.dir0x) * 3 + vector_bytes(sys.mass) * 4;
  // The state's arrays by their sizes: building a StructureState only to measure it was a
  // fifth of `halfstep check` (its pages zero-filled twice).
  b += StructureState::bytes_for(sys);
  b += sizeof(double) * 12 * static_cast<std::size_t>(sys.num_nodes);  // output buffers (v^n, reactions)
  for (const BlockFamily* f : block_families()) b += f->mesh_bytes(sys);
  return b;
}

}  // namespace

std::string describe_model(const Model& model, double dt_scale, ModelReportTimes* times) {
  // The arrays are freed inside the total: their pages are unmapped before check returns.
  struct Total {
    ModelReportTimes* times;
    LapTimer whole;
    ~Total() {
      if (times) times->total = whole();
    }
  } total{times, {}};
  LapTimer lap;
  StructureSystem sys = build_structure_system(model);
  const double system_seconds = lap();
  const MassScalingResult scaling = apply_deck_mass_scaling(model, sys);  // as the run will
  check_variable_mass_scaling(model, sys);
  const std::vector<StepLoads> steps = build_step_loads(model, sys);
  // The implicit procedures' limits on the model, as the run checks them before its output.
  for (std::size_t i = 0; i < model.steps.size(); ++i) {
    const Step& step = model.steps[i];
    if (step.frequency) check_frequency_step(step, sys);
    if (step.buckle) check_buckle_step(step, sys);
    if (step.dynamic) check_dynamic_step(step, sys);
    if (step.modal) check_modal_step(model, step, sys);
    if (step.procedure == Procedure::Static) check_static_body_rotations(model, step, sys, steps[i]);
  }
  if (std::any_of(model.steps.begin(), model.steps.end(), [](const Step& s) { return s.procedure == Procedure::Static; })) {
    StructureState st;  // the initial conditions give the checks nothing they read
    st.initialize(sys);
    initialize_triads(st);
    check_implicit_steps(model, sys, steps, st, 0);
  }
  if (times) {
    times->system = system_seconds;
    times->steps = lap();
  }
  std::string out;
  char line[512];
  auto add = [&](const char* fmt, auto... args) {
    std::snprintf(line, sizeof line, fmt, args...);
    out += line;
  };
  add("deck            %s\n", model.deck_path.c_str());
  if (!model.heading.empty()) add("heading         %s\n", model.heading.substr(0, 200).c_str());
  add("nodes           %d\n", sys.num_nodes);
  std::string kinds;
  for (const ElementBlock& b : element_blocks(sys))
    kinds += (kinds.empty() ? "" : ", ") + b.family->describe(model, sys, b);
  add("elements        %d (%s)\n", sys.total_elements(), kinds.c_str());
  add("node sets       %zu\n", model.nsets.size());
  add("element sets    %zu\n", model.elsets.size());
  std::size_t sections = 0;
  for (const BlockFamily* f : block_families()) sections += f->sections(sys);
  add("sections        %zu\n", sections);
  int plastic = 0;
  for (const auto& [name, mat] : model.materials) plastic += mat.plastic() ? 1 : 0;
  add("materials       %zu (%d with *PLASTIC)\n", model.materials.size(), plastic);
  if (!model.point_masses.empty()) {
    double m = 0;
    for (const PointMass& p : model.point_masses) m += p.mass;
    add("point masses    %zu (%.6g in all)\n", model.point_masses.size(), m);
  }
  if (!model.point_inertias.empty()) {
    double I = 0;
    for (const PointMass& p : model.point_inertias) I += p.mass;
    add("rotary inertias %zu (%.6g in all)\n", model.point_inertias.size(), I);
  }
  add("total mass      %.6g\n", sys.total_mass);
  if (scaling.elements > 0)
    add("mass scaling    %d elements, added mass %.6g, stable increment %.6g -> %.6g\n", scaling.elements,
        scaling.added_mass, scaling.stable_dt_before, scaling.stable_dt_after);
  if (scaling.skipped > 0)
    add("mass scaling    %d elements (%s) not scaled: it scales shells and continuum elements only\n",
        scaling.skipped, scaling.skipped_what.c_str());
  for (std::size_t i = 0; i < model.steps.size(); ++i)
    for (const VariableMassScaling& v : model.steps[i].variable_mass_scaling)
      if (v.scaling.dt > 0)  // the masses then change during the run: only the definition is known here
        add("variable scaling step %zu: DT %.6g, %s, %s %lld%s\n", i + 1, v.scaling.dt,
            v.scaling.uniform ? "UNIFORM" : "BELOW MIN", v.frequency > 0 ? "every" : "at",
            static_cast<long long>(v.frequency > 0 ? v.frequency : v.number_interval),
            v.frequency > 0 ? " increments" : " points of the step");
  if (sys.controlling_element >= 0) {
    const int e = sys.controlling_element;
    add("stable increment %.6g (estimate; element %lld at %s controls it)\n", sys.stable_dt,
        static_cast<long long>(model.elements.id[e]), model.elements.loc[e].str().c_str());
  }
  double total_steps = 0;  // a double: a count past 2^63 is refused, not overflowed
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const Step& ms = model.steps[i];
    if (ms.frequency) {  // a perturbation: no increments, no time
      add("step %zu '%s'    frequency, %d modes%s%s, about the %s\n", i + 1, steps[i].name.c_str(),
          ms.frequency->modes, ms.frequency->min_frequency > 0 ? " above a lowest frequency" : "",
          ms.frequency->max_frequency > 0 ? " below a highest frequency" : "",
          ms.nlgeom ? "current configuration and its stresses (NLGEOM or PERTURBATION)" : "reference configuration");
      continue;
    }
    if (ms.buckle) {  // a perturbation too
      add("step %zu '%s'    buckle, %d buckling factors of the step's loads, about the %s\n", i + 1,
          steps[i].name.c_str(), ms.buckle->modes,
          ms.nlgeom ? "current configuration and its stresses (NLGEOM or PERTURBATION)" : "reference configuration");
      continue;
    }
    if (ms.procedure == Procedure::Static) {
      if (ms.modal && ms.modal->steady_state) {
        add("step %zu '%s'    steady state dynamics (harmonic, on the last frequency step's modes), %.6g to %.6g "
            "cycles/time, %d points per interval, bias %g\n",
            i + 1, steps[i].name.c_str(), ms.modal->low_frequency, ms.modal->high_frequency, ms.modal->points,
            ms.modal->bias);
        continue;
      }
      char kind[64] = "static";
      if (ms.dynamic) std::snprintf(kind, sizeof kind, "implicit dynamic (HHT alpha %g)", ms.dynamic->alpha);
      if (ms.modal) std::snprintf(kind, sizeof kind, "modal dynamic (superposing the last frequency step's modes)");
      add("step %zu '%s'    %s (NLGEOM=%s), period %.6g, increments %.6g (minimum %.6g, maximum %.6g)%s, "
          "at most %d\n",
          i + 1, steps[i].name.c_str(), kind, ms.nlgeom ? "YES" : "NO", steps[i].period, ms.controls.initial,
          ms.controls.minimum, ms.controls.maximum, ms.controls.direct ? " fixed (DIRECT)" : "",
          ms.controls.max_increments);
      continue;
    }
    const double dt = step_increment(sys, steps[i], dt_scale);
    const double n = checked_increment_count(ms, steps[i].period, dt);
    total_steps += n;
    add("step %zu '%s'    period %.6g, increment %.6g (%s), %.0f increments\n", i + 1, steps[i].name.c_str(),
        steps[i].period, dt, steps[i].fixed_increment ? "fixed by the deck" : "stable estimate x safety factor", n);
  }
  add("increments      %.0f in all (%.3g element-steps)\n", total_steps, total_steps * sys.total_elements());
  const std::size_t memory = memory_bytes(sys);
  add("memory          %.1f MiB (%.0f bytes per element)\n", memory / 1048576.0,
      sys.total_elements() ? static_cast<double>(memory) / sys.total_elements() : 0.0);
  // The model as read, which stays on the host beside the solver's arrays.
  const double model_bytes = static_cast<double>(model_host_bytes(model));
  add("model on host   %.1f MiB (%.0f bytes per element; deck %.1f MB)\n", model_bytes / 1048576.0,
      model.elements.size() ? model_bytes / model.elements.size() : 0.0, model.source_bytes / 1e6);
  for (const std::string& w : model.warnings) add("warning         %s\n", w.c_str());
  return out;
}

}  // namespace halfstep
