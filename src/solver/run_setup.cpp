#include "solver/run_setup.hpp"

#include <algorithm>
#include <cstdio>
#include <new>

#include "discretization/nodal_triads.hpp"
#include "parallel/partition.hpp"
#include "solver/buckle_step.hpp"
#include "solver/frequency_step.hpp"
#include "solver/modal_dynamics.hpp"
#include "solver/static_solver.hpp"

namespace halfstep {

namespace {

/// Sets v^0 from *INITIAL CONDITIONS (translations global, rotation rates on the triad).
void apply_initial_conditions(const Model& model, const StructureSystem& sys, StructureState& st) {
  std::vector<Vec3<double>> omega(sys.num_nodes, Vec3<double>{0, 0, 0});
  for (const InitialVelocity& iv : model.initial_velocities)
    for (int n : iv.nodes) {
      if (iv.dof <= 3) {
        st.v[iv.dof - 1][n] = iv.value;
      } else {
        double* w = iv.dof == 4 ? &omega[n].x : (iv.dof == 5 ? &omega[n].y : &omega[n].z);
        *w = iv.value;
      }
    }
  for (const InitialRotatingVelocity& r : model.initial_rotations) {
    const Vec3<double> a{r.a[0], r.a[1], r.a[2]}, b{r.b[0], r.b[1], r.b[2]};
    if (!(norm(b - a) > 0)) throw InputError(r.loc, "rotating velocity axis points a and b coincide");
    const Vec3<double> w = r.omega * normalized(b - a);
    for (int n : r.nodes) {
      const Vec3<double> x{sys.x0[n], sys.y0[n], sys.z0[n]};
      const Vec3<double> vel = cross(w, x - a) + Vec3<double>{r.v0[0], r.v0[1], r.v0[2]};
      st.v[0][n] = vel.x;
      st.v[1][n] = vel.y;
      st.v[2][n] = vel.z;
      omega[n] = w;
    }
  }
  // A rigid body's reference node keeps the body's angular velocity in global components
  // in every model (3-dof models have no other use for these arrays; 5-dof ones refuse bodies).
  std::vector<char> reference(sys.num_nodes, 0);
  for (int r : sys.bodies.ref_node) reference[r] = 1;
  for (int n = 0; n < sys.num_nodes; ++n) {
    if (sys.node_dofs == 6 || reference[n]) {  // beam and FPM triangle models: global angular velocities
      st.v[3][n] = omega[n].x;
      st.v[4][n] = omega[n].y;
      st.v[5][n] = omega[n].z;
      continue;
    }
    const Vec3<double> d{st.dx[n], st.dy[n], st.dz[n]}, t1{st.t1x[n], st.t1y[n], st.t1z[n]};
    st.v[3][n] = dot(omega[n], t1);
    st.v[4][n] = dot(omega[n], cross(d, t1));
  }
}

/// The checks of the deck's explicit steps that need the built system: a positive fixed
/// increment, a step that can end, mass at every free node,
/// static steps only where they run.
void check_built_model(const RunSetup& s, const RunOptions& opt, const Communicator& comm) {
  const Model& model = *s.model;
  const StructureSystem& whole = s.whole;
  const std::vector<StepLoads>& whole_steps = s.whole_steps;
  for (std::size_t i = 0; i < whole_steps.size(); ++i)
    if (whole_steps[i].fixed_increment && !(*whole_steps[i].fixed_increment > 0))
      throw InputError(model.steps[i].loc, "the fixed time increment must be positive");
  // A step that could never end (or whose count would overflow) is bad input, found here
  // with the increment check predicts (the masses scaled by *FIXED MASS SCALING).
  for (std::size_t i = 0; i < whole_steps.size(); ++i)
    if (model.steps[i].procedure == Procedure::ExplicitDynamic)
      (void)checked_increment_count(model.steps[i], whole_steps[i].period,
                                    step_increment(whole, whole_steps[i], opt.dt_scale));
  // A node that moves needs mass in an explicit step. Only springs and dashpots reach a node
  // without giving it mass (every other element needs *DENSITY there): their ground nodes are
  // massless and must be held.
  for (std::size_t i = 0; i < whole_steps.size(); ++i) {
    if (model.steps[i].procedure != Procedure::ExplicitDynamic) continue;
    const std::uint8_t free_mask = whole.solid.planar ? 0x03 : 0x07;
    for (int n = 0; n < whole.num_nodes; ++n)
      if (whole.node_used(n) && !(whole.mass[static_cast<std::size_t>(n)] > 0) &&
          (whole_steps[i].fixed_translation[static_cast<std::size_t>(n)] & free_mask) != free_mask)
        throw InputError(model.nodes.loc[static_cast<std::size_t>(n)],
                         "node " + std::to_string(model.nodes.id[static_cast<std::size_t>(n)]) +
                             " has no mass but is free to move in explicit step '" + model.steps[i].name +
                             "': hold it with *BOUNDARY or give it mass (*MASS, or elements with *DENSITY); "
                             "springs and dashpots carry none");
  }
  // A distributed run's leading static steps run on rank 0 before it sends the shares; a
  // static step after an explicit one would need the ranks' states gathered back first.
  bool explicit_before = false;
  for (const Step& step : model.steps) {
    if (step.procedure == Procedure::Static && explicit_before && comm.distributed())
      throw InputError(step.loc, "static step '" + step.name + "' follows an explicit step: under mpirun, static "
                                 "steps run on rank 0 before the explicit steps only (the distributed linear solve "
                                 "is not there yet); run without mpirun or put the static steps first");
    explicit_before = explicit_before || step.procedure == Procedure::ExplicitDynamic;
  }
  // The implicit procedures' limits on the model, then their steps' equations (the parts no
  // support holds, the massless free dofs) before the output folder is made.
  for (const Step& step : model.steps) {
    if (step.frequency) check_frequency_step(step, whole);
    if (step.buckle) check_buckle_step(step, whole);
    if (step.dynamic) check_dynamic_step(step, whole);
    if (step.modal) check_modal_step(model, step, whole);
  }
  check_implicit_steps(model, whole, whole_steps, s.st, opt.threads);
}

/// Rank 0 of a distributed run: every other rank's share sent (one at a time: rank 0 holds the
/// whole model and one other rank's part at most), then its own part kept. A failure here
/// aborts the run: the others wait for their shares.
void send_shares(RunSetup& s, const std::vector<int>& part, const Communicator& comm) {
  announce_setup_ok(comm);
  try {
    const Model outline = model_outline(*s.model);
    const StructureSystem whole_outline = system_outline(s.whole);
    s.share_bytes_per_rank.assign(static_cast<std::size_t>(comm.size()), 0.0);
    for (int q = 1; q < comm.size(); ++q) {
      RunShare r = rank_part(s.whole, s.whole_steps, s.st, part, q, comm.size());
      r.outline = outline;  // the steps' amplitudes travel by name, not through these pointers
      r.whole = whole_outline;
      const std::string bytes = serialize_share(r);
      s.share_bytes_per_rank[static_cast<std::size_t>(q)] = static_cast<double>(bytes.size());
      comm.send_bytes(bytes, q);
    }
    // What every rank held before rank 0 read alone (the whole model), for the summary.
    s.share_bytes_whole =
        static_cast<double>(share_bytes(outline, whole_outline, Subdomain{}, s.whole, s.whole_steps, s.st));
    RunShare mine = rank_part(s.whole, s.whole_steps, s.st, part, 0, comm.size());
    s.domain = std::make_unique<Subdomain>(std::move(mine.domain));
    s.local = std::move(mine.system);
    s.local_steps = std::move(mine.steps);
    s.st = std::move(mine.state);
    s.share_bytes_per_rank[0] =
        static_cast<double>(share_bytes(outline, whole_outline, *s.domain, s.local, s.local_steps, s.st));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "halfstep: rank 0 of %d failed sending the shares: %s\n", comm.size(), e.what());
    std::fflush(stderr);
    comm.abort(dynamic_cast<const std::bad_alloc*>(&e) ? 3 : 4);
  }
}

}  // namespace

void RunSetup::cannot_restart(const std::string& why, const Communicator& comm) {
  if (restarts_asked) throw InputError(SourceLoc{model->deck_path, 0}, why);
  if ((restart_every > 0 || restart_points > 0) && comm.rank() == 0)
    std::fprintf(stderr, "halfstep: warning: *RESTART (%s) is ignored: %s\n", model->restart.loc.str().c_str(),
                 why.c_str());
  restart_every = 0;
  restart_points = 0;
  restart_interval = 0;
}

void prepare_run(RunSetup& s, const Model& deck, const RunOptions& opt, const Communicator& comm) {
  // Rank 0 alone reads the deck and builds the whole model; it sends every other rank its
  // share (parallel/run_share.hpp), so those hold their part and an outline of the rest.
  s.builds = comm.rank() == 0;
  if (!s.builds) s.share = receive_share(comm);  // throws what rank 0's set-up threw
  s.model = s.builds ? &deck : &s.share.outline;
  const Model& model = *s.model;
  for (const Step& step : model.steps) {
    s.any_explicit = s.any_explicit || step.procedure == Procedure::ExplicitDynamic;
    s.any_static = s.any_static || step.procedure == Procedure::Static;
  }
  s.restart_every = opt.restart_every > 0 ? opt.restart_every : model.restart.frequency;
  s.restart_points = model.restart.number_interval;
  s.restart_interval = opt.restart_interval;
  s.restarts_asked = opt.resume || opt.restart_every > 0 || (opt.restart_interval > 0 && !opt.restart_interval_default);
  std::vector<int> part;  // rank 0 of a distributed run: each model element's rank
  try {
    // Everything that can reject the input happens before the output directory is touched
    // and, in a distributed run, before rank 0 tells the others that the set-up succeeded.
    if (s.builds) {
      s.whole = build_structure_system(model);
      // *FIXED MASS SCALING changes the masses once, before anything reads them or the increment.
      s.mass_scaling = apply_deck_mass_scaling(model, s.whole);
      // *VARIABLE MASS SCALING changes whole's masses during the run (and, distributed, the
      // ranks' from whole's: solver/scaling_across_ranks.hpp).
      check_variable_mass_scaling(model, s.whole);
      s.whole_steps = build_step_loads(model, s.whole);
      s.st.initialize(s.whole);
      initialize_triads(s.st);
      apply_initial_conditions(model, s.whole, s.st);
      check_built_model(s, opt, comm);
    }
    // Ranks other than 0 come here only after rank 0 passed it: the same outline and options
    // give them the same settings without an error.
    if (!s.any_explicit) s.cannot_restart("restart files are written in explicit dynamic steps; this deck has none", comm);
    if (comm.distributed() && std::any_of(model.steps.begin(), model.steps.end(),
                                          [](const Step& step) { return !step.variable_mass_scaling.empty(); }))
      s.cannot_restart("*VARIABLE MASS SCALING under mpirun: its restarts are not written yet (the scaler's state is "
                       "rank 0's); run without mpirun to write restarts", comm);
    if (s.builds && comm.distributed()) {
      if (opt.backend_options.gpu.scheme == GpuScheme::ElementLocal || opt.backend_options.gpu.scheme == GpuScheme::Colored)
        throw InputError(SourceLoc{}, "distributed runs use the gather or atomic GPU scheme, not --gpu-scheme " +
                                          gpu_scheme_name(opt.backend_options.gpu.scheme));
      part = partition_elements(model, comm.size());
    }
  } catch (const std::exception& e) {
    if (s.builds && comm.distributed()) announce_setup_failure(comm, e);
    throw;
  }
  s.restarts = s.restarts_asked || s.restart_every > 0 || s.restart_points > 0 || s.restart_interval > 0;
  // Leading static steps run on rank 0 alone (a resumed run starts in an explicit step).
  if (comm.distributed() && !opt.resume)
    while (s.static_head < model.steps.size() && model.steps[s.static_head].procedure == Procedure::Static)
      ++s.static_head;
  s.shares_deferred = s.builds && s.static_head > 0;
  if (s.shares_deferred) {
    s.part = std::move(part);
  } else if (comm.distributed() && s.builds) {
    send_shares(s, part, comm);
  } else if (comm.distributed()) {
    s.whole = std::move(s.share.whole);
    s.domain = std::make_unique<Subdomain>(std::move(s.share.domain));
    s.local = std::move(s.share.system);
    s.local_steps = std::move(s.share.steps);  // their amplitudes point into share.outline
    s.st = std::move(s.share.state);
  }
}

void send_deferred_shares(RunSetup& s, const Communicator& comm) {
  send_shares(s, s.part, comm);
  s.shares_deferred = false;
  s.part.clear();
}

}  // namespace halfstep
