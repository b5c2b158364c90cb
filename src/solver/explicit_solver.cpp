#include "solver/explicit_solver.hpp"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cmath>
#include <cstdio>
#include <limits>
#include <thread>
#include <type_traits>

#include "core/threads.hpp"
#include "backends/backend.hpp"
#include "discretization/bezier_output.hpp"
#include "discretization/constraints.hpp"
#include "discretization/mass_scaling.hpp"
#include "discretization/stable_increment.hpp"
#include "discretization/output_fields.hpp"
#include "solver/interrupt.hpp"
#include "discretization/nodal_triads.hpp"
#include "discretization/structure_state.hpp"
#include "dynamics/output_times.hpp"
#include "dynamics/step_drive.hpp"
#include "discretization/step_loads.hpp"
#include "solver/async_output.hpp"
#include "solver/static_solver.hpp"
#include "parallel/frame_gather.hpp"
#include "parallel/partition.hpp"
#include "parallel/run_share.hpp"
#include "parallel/subdomain.hpp"

namespace halfstep {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

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
  for (int e = 0; e < sys.num_elements; ++e)
    if (!std::isfinite(st.elem_energy[e])) return named(sys.shell_model_element[e]);
  for (int e = 0; e < sys.solid.num_elements; ++e)
    if (!std::isfinite(st.solid_energy[e]) || !std::isfinite(st.solid_hourglass[e]))
      return named(sys.solid.model_element[e]);
  for (int e = 0; e < sys.beam.num_elements; ++e)
    if (!std::isfinite(st.beam_state[static_cast<std::size_t>(kBeamWork) * sys.beam.num_elements + e]))
      return named(sys.beam.model_element[e]);
  for (int e = 0; e < sys.tri.num_elements; ++e)
    if (!std::isfinite(st.tri_state[static_cast<std::size_t>(kTriWork) * sys.tri.num_elements + e]))
      return named(sys.tri.model_element[e]);
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
  // Shells per unit area, solids per unit volume: each is compared within its own kind.
  std::string out;
  if (peak) *peak = -1;
  const auto worst_of = [&](int count, auto density, const std::vector<int>& model_element, const char* what) {
    int worst = -1;
    double best = -1;
    for (int e = 0; e < count; ++e) {
      const double d = density(e);
      if (d > best) {
        best = d;
        worst = e;
      }
    }
    if (worst < 0) return;
    if (peak && best > *peak) *peak = best;
    if (!out.empty()) out += "; ";
    out += std::string(what) + " element " + names.element(model_element[worst]) +
           " has the highest strain energy density";
  };
  worst_of(sys.num_elements, [&](int e) { return st.elem_energy[e] / sys.area[e]; }, sys.shell_model_element, "shell");
  worst_of(sys.solid.num_elements,
           [&](int e) { return (st.solid_energy[e] + st.solid_hourglass[e]) / sys.solid.volume[e]; },
           sys.solid.model_element, "solid");
  worst_of(sys.beam.num_elements,
           [&](int e) {
             const double w = st.beam_state[static_cast<std::size_t>(kBeamWork) * sys.beam.num_elements + e];
             return w / (sys.beam.constants[sys.beam.section[e]].area * sys.beam.length0[e]);
           },
           sys.beam.model_element, "beam");
  worst_of(sys.tri.num_elements,
           [&](int e) {
             const double w = st.tri_state[static_cast<std::size_t>(kTriWork) * sys.tri.num_elements + e];
             return w / (sys.tri.constants[sys.tri.section[e]].thickness * sys.tri.area0[e]);
           },
           sys.tri.model_element, "FPM triangle");
  return out;
}

/// Output schedule of one kind (field or history) within a step.
struct Schedule {
  double interval = 0;  ///< step time between outputs; 0: never
  double next = 0;
  bool due(double tau, double dt) const { return interval > 0 && tau >= next - 1e-6 * dt; }
  void advance(double tau) { next = next_output_time(next, interval, tau, 1e-12 * interval); }
};

/// Step time between outputs of a request (deck interval, else Abaqus-like defaults).
double request_interval(const OutputRequest& r, double period) {
  if (r.time_interval) return *r.time_interval;
  if (r.number_interval && *r.number_interval > 0) return period / *r.number_interval;
  return r.kind == OutputRequest::Kind::Field ? period / 20 : period / 200;
}

/// Where a resumed run continues: the restart's step, increment and loop state.
struct RestartPoint {
  bool active = false;
  std::uint64_t step = 0;           ///< index of the explicit step
  std::int64_t increments = 0;      ///< increments of that step done
  std::int64_t steps_before = 0;    ///< increments of the earlier steps
  double tau = 0, h_prev = 0, t_step0 = 0, dt = 0;
  Schedule field, history, energy;  ///< before this instant's output
  Schedule restart_sched;           ///< *RESTART, NUMBER INTERVAL
  std::vector<std::uint8_t> held_rot;
  Schedule mass_sched;              ///< *VARIABLE MASS SCALING, NUMBER INTERVAL
};

/// Applies f(section, value) to every loop value of a restart point: the one list that
/// writing and reading share.
template <class Point, class F>
void for_each_loop_value(Point& r, F&& f) {
  f("loop.step", r.step);
  f("loop.increments", r.increments);
  f("loop.steps_before", r.steps_before);
  f("loop.tau", r.tau);
  f("loop.h_prev", r.h_prev);
  f("loop.t_step0", r.t_step0);
  f("loop.dt", r.dt);
  f("loop.field", r.field);
  f("loop.history", r.history);
  f("loop.energy", r.energy);
  f("loop.restart_sched", r.restart_sched);
  f("loop.mass_sched", r.mass_sched);
}

/// The increment of the mesh deformed by st: the smallest element bound (the minimum over
/// the ranks when comm is distributed) times dt_scale. Throws, naming the time, when an
/// element turned inside out (no positive bound): every rank alike in a distributed run.
double deformed_increment(const StructureSystem& sys, const StructureState& st, double dt_scale,
                          const Communicator& comm, double time) {
  double bound = deformed_stable_dt(sys, st).first;
  if (comm.distributed()) bound = comm.min(bound);
  if (!(bound > 0 && bound < 1e300)) {
    const std::string msg = "the stable increment of the deformed mesh is not a positive number (an element turned "
                            "inside out?) at time " + std::to_string(time);
    if (comm.distributed()) throw CollectiveRunError(msg);
    throw RunError(msg);
  }
  return dt_scale * bound;
}

/// A restart of the run at point p: what identifies the run (checked by restart_point), the
/// loop, the host's reference triads and times of the step's start, and the backend's state.
/// It views p, host and the backend's arrays: write it before any of them changes. The
/// output checkpoint is added by the caller.
RestartBlob make_restart(const RestartPoint& p, const StructureState& host, Backend& hw, const Model& model,
                         const StructureSystem& sys, const VariableMassScaler& scaler, const RunOptions& opt) {
  RestartBlob b;
  b.put_text("run.job", opt.job);
  b.put_text("run.deck", model.deck_path.substr(model.deck_path.find_last_of('/') + 1));
  b.put_value("run.deck_hash", model.source_hash);
  b.put_text("run.build", opt.build_id ? opt.build_id() : std::string());
  b.put_text("run.backend", hw.name());
  b.put_text("run.precision", hw.precision());
  b.put_text("run.layout", hw.restart_layout());
  b.put_value("run.dt_update", opt.dt_update);
  // The renumbering changes every array's order and the sums' order: a restart continues bit
  // for bit only with the same setting.
  b.put_value("run.renumbered", static_cast<int>(model.renumbering.applied));
  b.put_value("run.threads", hw.threads());
  b.put_value("run.nodes", sys.num_nodes);
  b.put_value("run.elements", sys.total_elements());
  for_each_loop_value(p, [&](const char* name, const auto& v) { b.put_value(name, v); });
  b.put_view("loop.held_rot", p.held_rot);
  // Of the host's state only what the backend does not hold: every other array is
  // downloaded from the backend before it is read (the next step's start, a failure).
  b.put_view("host.r1x", host.r1x);
  b.put_view("host.r1y", host.r1y);
  b.put_view("host.r1z", host.r1z);
  b.put_value("host.time", host.time);
  b.put_value("host.half_dt_prev", host.half_dt_prev);
  scaler.save(b, sys);  // the masses now: the backend holds them as constants
  hw.save_restart(b);
  return b;
}

/// Reads and checks a restart against this deck, build and backend (RestartError otherwise).
RestartPoint restart_point(const RestartBlob& b, const Model& model, const StructureSystem& sys, const Backend& hw,
                           const RunOptions& opt) {
  const std::string build = opt.build_id ? opt.build_id() : std::string();
  if (b.bytes("run.build") != build)
    b.fail("it was written by " + b.bytes("run.build") + ", this is " + build +
           " (a restart continues bit for bit only in the program that wrote it)");
  // Another job (the restart of another deck's run) and a changed deck are told apart: a job
  // is its name, which names its result files, and its deck's content (every file included).
  // A copied or moved deck and output folder are the same job.
  if (b.bytes("run.job") != opt.job)
    b.fail("it was written by job '" + b.bytes("run.job") + "' (deck '" + b.bytes("run.deck") + "'), this is job '" +
           opt.job + "' (deck '" + model.deck_path + "'): a restart resumes only the job that wrote it");
  if (b.get_value<std::uint64_t>("run.deck_hash") != model.source_hash)
    b.fail("it was written for job '" + opt.job + "' with another version of its deck: '" + model.deck_path +
           "' (or a file it includes) has changed since (its model, steps or output)");
  if (b.bytes("run.backend") != hw.name() || b.bytes("run.precision") != hw.precision())
    b.fail("it was written by the " + b.bytes("run.backend") + " backend in " + b.bytes("run.precision") +
           " precision; this run uses " + hw.name() + " in " + hw.precision());
  if (b.bytes("run.layout") != hw.restart_layout())
    b.fail("it was written by '" + b.bytes("run.layout") + "'; this run is '" + hw.restart_layout() +
           "' (the same GPU and --gpu-scheme are needed)");
  if (b.get_value<std::int64_t>("run.dt_update") != opt.dt_update)
    b.fail("it was written by a run with --dt-update " + std::to_string(b.get_value<std::int64_t>("run.dt_update")) +
           ", this run has " + std::to_string(opt.dt_update) + " (0: not given)");
  const bool renumbered = b.has("run.renumbered") && b.get_value<int>("run.renumbered") != 0;
  if (renumbered != model.renumbering.applied)
    b.fail(std::string("it was written by a run with --renumber ") + (renumbered ? "on" : "off") +
           ", this run has --renumber " + (model.renumbering.applied ? "on" : "off") +
           " (the node and element order must be the same to continue bit for bit)");
  const int ranks = b.has("run.ranks") ? b.get_value<int>("run.ranks") : 1;
  if (ranks != (opt.comm ? opt.comm->size() : 1))
    b.fail("it was written by a run of " + std::to_string(ranks) + " process(es); resume it with as many" +
           (ranks > 1 ? " (mpirun -np " + std::to_string(ranks) + ")" : std::string(" (without mpirun)")));
  if (b.get_value<int>("run.nodes") != sys.num_nodes || b.get_value<int>("run.elements") != sys.total_elements())
    b.fail("it holds another model's nodes and elements");
  if (b.get_value<int>("run.threads") != hw.threads())
    std::fprintf(stderr,
                 "halfstep: note: the restart was written with %d threads, this run has %d: sums over the "
                 "threads may differ in the last bits from an uninterrupted run\n",
                 b.get_value<int>("run.threads"), hw.threads());
  RestartPoint r;
  r.active = true;
  for_each_loop_value(r, [&](const char* name, auto& v) {
    v = b.get_value<std::decay_t<decltype(v)>>(name);
    if constexpr (std::is_floating_point_v<std::decay_t<decltype(v)>>)
      if (!std::isfinite(v)) b.fail(std::string("section '") + name + "' is not a finite number: the file was damaged");
  });
  if (!std::isfinite(b.get_value<double>("host.time")) || !std::isfinite(b.get_value<double>("host.half_dt_prev")))
    b.fail("section 'host.time' or 'host.half_dt_prev' is not a finite number: the file was damaged");
  if (r.step >= model.steps.size() || model.steps[r.step].procedure != Procedure::ExplicitDynamic)
    b.fail("its step " + std::to_string(r.step + 1) + " is not an explicit step of this deck");
  b.get_vector("loop.held_rot", r.held_rot, sys.num_nodes);
  return r;
}

}  // namespace

double step_increment(const StructureSystem& sys, const std::optional<double>& fixed, double dt_scale) {
  return fixed ? *fixed : dt_scale * sys.stable_dt;
}

double checked_increment_count(const Step& step, double period, double dt) {
  const double n = dt > 0 ? std::ceil(period / dt - 1e-9) : std::numeric_limits<double>::infinity();
  if (!(n <= kMaxStepIncrements)) {
    char msg[320];
    std::snprintf(msg, sizeof msg,
                  "step '%.64s' would take %.3g increments (period %.6g / increment %.6g): more than 2^52 = %.4g, "
                  "past which the step time cannot resolve one increment; raise the increment (%s) or shorten the step",
                  step.name.c_str(), n, period, dt, kMaxStepIncrements,
                  step.fixed_increment ? "*DYNAMIC data line, field 1" : "a stiffer, lighter mesh has a smaller one");
    throw InputError(step.loc, msg);
  }
  return std::max(n, 0.0);
}

/// Stops the run with the reason the monitor gives (state downloaded for the report). In a
/// distributed run every rank calls this together (their monitors see the same sums); the
/// rank holding the culprit names it and every rank throws the same CollectiveRunError.
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

RunSummary run_analysis(const Model& deck, const RunOptions& opt) {
  const Clock::time_point t_start = Clock::now();
  const Communicator single;
  const Communicator& comm = opt.comm ? *opt.comm : single;
  // Rank 0 alone reads the deck and builds the whole model; it sends every other rank its
  // share (parallel/run_share.hpp), so those hold their part and an outline of the rest.
  const bool builds = comm.rank() == 0;
  RunShare share;
  if (!builds) share = receive_share(comm);  // throws what rank 0's set-up threw
  const Model& model = builds ? deck : share.outline;
  bool any_explicit = false, any_static = false;
  for (const Step& s : model.steps) {
    any_explicit = any_explicit || s.procedure == Procedure::ExplicitDynamic;
    any_static = any_static || s.procedure == Procedure::Static;
  }
  StructureSystem whole;  // rank 0: the whole system; the other ranks: its outline
  MassScalingResult mass_scaling;
  std::vector<StepLoads> whole_steps;
  StructureState st;
  // The command line's count overrides the deck's *RESTART, FREQUENCY. Restarts the command
  // line asks for and this run cannot write are an error; the deck's (an Abaqus deck often
  // has *RESTART) are dropped with a warning, as the keyword was before restarts existed.
  std::int64_t restart_every = opt.restart_every > 0 ? opt.restart_every : model.restart.frequency;
  int restart_points = model.restart.number_interval;
  double restart_interval = opt.restart_interval;
  const bool restarts_asked =
      opt.resume || opt.restart_every > 0 || (opt.restart_interval > 0 && !opt.restart_interval_default);
  const auto cannot_restart = [&](const std::string& why) {
    if (restarts_asked) throw InputError(SourceLoc{model.deck_path, 0}, why);
    if ((restart_every > 0 || restart_points > 0) && comm.rank() == 0)
      std::fprintf(stderr, "halfstep: warning: *RESTART (%s) is ignored: %s\n", model.restart.loc.str().c_str(),
                   why.c_str());
    restart_every = 0;
    restart_points = 0;
    restart_interval = 0;
  };
  std::vector<int> part;  // rank 0 of a distributed run: each model element's rank
  try {
    // Everything that can reject the input happens before the output directory is touched
    // and, in a distributed run, before rank 0 tells the others that the set-up succeeded.
    if (builds) {
      whole = build_structure_system(model);
      // *FIXED MASS SCALING changes the masses once, before anything reads them or the increment.
      mass_scaling = apply_deck_mass_scaling(model, whole);
      // *VARIABLE MASS SCALING changes whole's masses during the run (never a subdomain's: refused).
      check_variable_mass_scaling(model, whole, comm.distributed());
      whole_steps = build_step_loads(model, whole);
      st.initialize(whole);
      initialize_triads(st);
      apply_initial_conditions(model, whole, st);
      for (std::size_t s = 0; s < whole_steps.size(); ++s)
        if (whole_steps[s].fixed_increment && !(*whole_steps[s].fixed_increment > 0))
          throw InputError(model.steps[s].loc, "the fixed time increment must be positive");
      // A step that could never end (or whose count would overflow) is bad input, found here
      // with the increment check predicts (the masses scaled by *FIXED MASS SCALING).
      for (std::size_t s = 0; s < whole_steps.size(); ++s)
        if (model.steps[s].procedure == Procedure::ExplicitDynamic)
          (void)checked_increment_count(model.steps[s], whole_steps[s].period,
                                        step_increment(whole, whole_steps[s].fixed_increment, opt.dt_scale));
      if (whole.constrained() && comm.distributed()) {
        // The elimination runs in the explicit node pass of one process (docs/theory.md);
        // validate() refused static steps.
        const SourceLoc& at = whole.constraints.empty() ? whole.bodies.loc[0] : whole.constraints.dep_loc[0];
        throw InputError(at, "constraints (*TIE, *EQUATION, *RIGID BODY, *COUPLING) run in one process: run "
                             "without mpirun");
      }
      // A node that moves needs mass in an explicit step. Only springs and dashpots reach a node
      // without giving it mass (every other element needs *DENSITY there): their ground nodes are
      // massless and must be held.
      for (std::size_t s = 0; s < whole_steps.size(); ++s) {
        if (model.steps[s].procedure != Procedure::ExplicitDynamic) continue;
        const std::uint8_t free_mask = whole.solid.planar ? 0x03 : 0x07;
        for (int n = 0; n < whole.num_nodes; ++n)
          if (whole.node_used(n) && !(whole.mass[static_cast<std::size_t>(n)] > 0) &&
              (whole_steps[s].fixed_translation[static_cast<std::size_t>(n)] & free_mask) != free_mask)
            throw InputError(model.nodes.loc[static_cast<std::size_t>(n)],
                             "node " + std::to_string(model.nodes.id[static_cast<std::size_t>(n)]) +
                                 " has no mass but is free to move in explicit step '" + model.steps[s].name +
                                 "': hold it with *BOUNDARY or give it mass (*MASS, or elements with *DENSITY); "
                                 "springs and dashpots carry none");
      }
      if (!whole.contact.empty()) {
        const SourceLoc& at = model.contact.pairs.front().loc;
        for (const Step& s : model.steps)
          if (s.procedure != Procedure::ExplicitDynamic)
            throw InputError(at, "contact acts in explicit dynamic steps; step '" + s.name +
                                     "' is static (contact in static steps is not supported)");
      }
      if (any_static && comm.distributed())
        throw InputError(SourceLoc{model.deck_path, 0}, "static steps run in one process (the distributed linear "
                                                         "solve is not there yet): run without mpirun");
    }
    // Ranks other than 0 come here only after rank 0 passed it: the same outline and options
    // give them the same settings without an error.
    if (!any_explicit) cannot_restart("restart files are written in explicit dynamic steps; this deck has none");
    if (builds && comm.distributed()) {
      if (opt.backend_options.scheme == GpuScheme::ElementLocal || opt.backend_options.scheme == GpuScheme::Colored)
        throw InputError(SourceLoc{}, "distributed runs use the gather or atomic GPU scheme, not --gpu-scheme " +
                                          gpu_scheme_name(opt.backend_options.scheme));
      part = partition_elements(model, comm.size());
    }
  } catch (const std::exception& e) {
    if (builds && comm.distributed()) announce_setup_failure(comm, e);
    throw;
  }
  const bool restarts = restarts_asked || restart_every > 0 || restart_points > 0 || restart_interval > 0;

  std::unique_ptr<Subdomain> domain;
  StructureSystem local;
  std::vector<StepLoads> local_steps;
  std::vector<double> share_bytes_per_rank;  // rank 0: the bytes of each rank's share
  double share_bytes_whole = 0;              // rank 0: the same archive of the whole model
  if (comm.distributed() && builds) {
    announce_setup_ok(comm);
    try {
      // One share at a time: rank 0 holds the whole model and one other rank's part at most.
      const Model outline = model_outline(model);
      const StructureSystem whole_outline = system_outline(whole);
      share_bytes_per_rank.assign(static_cast<std::size_t>(comm.size()), 0.0);
      for (int q = 1; q < comm.size(); ++q) {
        RunShare s = rank_part(whole, whole_steps, st, part, q, comm.size());
        s.outline = outline;  // the steps' amplitudes travel by name, not through these pointers
        s.whole = whole_outline;
        const std::string bytes = serialize_share(s);
        share_bytes_per_rank[static_cast<std::size_t>(q)] = static_cast<double>(bytes.size());
        comm.send_bytes(bytes, q);
      }
      // What every rank held before rank 0 read alone (the whole model), for the summary.
      share_bytes_whole =
          static_cast<double>(share_bytes(outline, whole_outline, Subdomain{}, whole, whole_steps, st));
      RunShare mine = rank_part(whole, whole_steps, st, part, 0, comm.size());
      domain = std::make_unique<Subdomain>(std::move(mine.domain));
      local = std::move(mine.system);
      local_steps = std::move(mine.steps);
      st = std::move(mine.state);
      share_bytes_per_rank[0] =
          static_cast<double>(share_bytes(outline, whole_outline, *domain, local, local_steps, st));
    } catch (const std::exception& e) {
      // The others wait for their shares or in the time loop's first collective.
      std::fprintf(stderr, "halfstep: rank 0 of %d failed sending the shares: %s\n", comm.size(), e.what());
      std::fflush(stderr);
      comm.abort(dynamic_cast<const std::bad_alloc*>(&e) ? 3 : 4);
    }
  } else if (comm.distributed()) {
    whole = std::move(share.whole);
    domain = std::make_unique<Subdomain>(std::move(share.domain));
    local = std::move(share.system);
    local_steps = std::move(share.steps);  // their amplitudes point into share.outline
    st = std::move(share.state);
  }
  VariableMassScaler scaler(model, mass_scaling);
  const double mass_after_fixed = whole.total_mass;
  const StructureSystem& sys = domain ? local : whole;
  const std::vector<StepLoads>& steps = domain ? local_steps : whole_steps;
  const DistributedContext context{&comm, domain.get()};
  const DistributedContext* dist = domain ? &context : nullptr;  // null: one process
  const bool writes = comm.rank() == 0;  // rank 0 writes every file

  try {
    BackendOptions bopt = opt.backend_options;
    bopt.energy_tolerance = opt.energy_tolerance;
    bopt.threads = opt.threads;
    if (domain && bopt.threads <= 0)  // the ranks of a host share its cores
      bopt.threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / comm.local_size());
    if (domain) bopt.device = comm.local_rank();
    bopt.distributed = dist;
    // A deck of static steps only builds no explicit backend (nor needs masses).
    // Distributed contact runs on either backend (the GPU one stages the contact nodes to the
    // host pass each increment: docs/architecture.md, "Distributed contact").
    const std::unique_ptr<Backend> backend =
        any_explicit ? make_backend(opt.backend, sys, bopt, opt.progress && writes) : nullptr;
    if (backend) backend->upload(st);
    if (restarts && !backend->restart_unsupported().empty())
      cannot_restart(backend->restart_unsupported() + "; run with --backend cpu to write them");
    // A resumed run continues at the restart's step and increment (restart_point()).
    // Distributed: rank 0 holds the file; each rank's part of it travels to that rank.
    RestartBlob rank_part;
    const RestartBlob* resume = opt.resume;
    if (resume && dist) {
      std::string why;
      const int ranks = comm.rank() == 0 && resume->has("run.ranks") ? resume->get_value<int>("run.ranks") : 1;
      if (comm.rank() == 0 && ranks != comm.size())
        why = "it was written by a run of " + std::to_string(ranks) + " process(es); resume it with as many" +
              (ranks > 1 ? " (mpirun -np " + std::to_string(ranks) + ")" : std::string(" (without mpirun)"));
      why = comm.broadcast(why, 0);
      if (!why.empty()) throw CollectiveRestartError(resume->file(), why);
      if (comm.rank() == 0) {
        for (int q = 1; q < comm.size(); ++q) comm.send_bytes(resume->bytes("rank." + std::to_string(q)), q);
      } else {
        rank_part = RestartBlob::parse(comm.receive_bytes(0), resume->file() + " (rank " + std::to_string(comm.rank()) + ")");
        resume = &rank_part;
      }
    }
    const RestartPoint resume_at = [&] {
      if (!resume) return RestartPoint{};
      if (!dist) return restart_point(*resume, model, sys, *backend, opt);
      std::string why;  // ranks check their own parts: the first refusal stops them all
      RestartPoint r;
      try {
        r = restart_point(*resume, model, sys, *backend, opt);
      } catch (const RestartError& e) {
        why = e.what();
      }
      const int first = comm.min(why.empty() ? comm.size() : comm.rank());
      if (first < comm.size()) throw CollectiveRestartError("", comm.broadcast(why, first));
      return r;
    }();
    // Rank 0 writes the file; every rank takes part in writing it.
    const bool restart_writer = comm.broadcast(opt.write_restart ? "1" : "", 0) == "1";
    if (backend && opt.progress && writes) {
      const Backend& hw = *backend;
      std::fprintf(stderr, "halfstep: running on %s\n", hw.description().c_str());
      if (domain)
        std::fprintf(stderr, "halfstep: %d ranks (%s), interface buffers %s\n", comm.size(), comm.library().c_str(),
                     hw.transport().c_str());
    }
    std::unique_ptr<FrameGather> gather;
    if (domain) gather = std::make_unique<FrameGather>(comm, *domain, whole, local);
    std::unique_ptr<ResultSink> writer;
    std::unique_ptr<AsyncOutput> out;
    if (writes && opt.make_sink) {
      // NURBS patches are also written as rational Bézier cells: the mesh tells the sink,
      // the writer thread adds their arrays to each field frame.
      auto bezier = std::make_shared<const BezierOutput>(bezier_output(model, whole));
      ResultMesh mesh = result_mesh(whole);
      if (!bezier->empty()) mesh.bezier = std::shared_ptr<const ResultMesh>(bezier, &bezier->mesh);
      writer = opt.make_sink(mesh);  // a resumed run's continues its files once the restart is loaded
      out = std::make_unique<AsyncOutput>(*writer, model, whole, 2, bezier);
    }

    RunSummary sum;
    if (resume_at.active) {
      sum.resumed_from = opt.resume->file();
      sum.resumed_at = resume_at.t_step0 + resume_at.tau;
      sum.steps = resume_at.steps_before;
    }
    sum.nodes = whole.num_nodes;
    sum.elements = whole.total_elements();
    if (backend) {
      sum.threads = backend->threads();
      sum.backend = backend->name();
      sum.precision = backend->precision();
      sum.device_bytes_per_element = backend->device_bytes() / std::max(1, sys.total_elements());
    }
    sum.stable_increment = whole.stable_dt;
    sum.mass_scaled_elements = mass_scaling.elements;
    sum.added_mass = mass_scaling.added_mass;
    sum.added_mass_fraction = whole.total_mass > 0 ? mass_scaling.added_mass / (whole.total_mass - mass_scaling.added_mass) : 0;
    sum.stable_increment_unscaled = mass_scaling.elements > 0 ? mass_scaling.stable_dt_before : whole.stable_dt;
    if (mass_scaling.elements > 0 && opt.progress && writes)
      std::fprintf(stderr,
                   "halfstep: *FIXED MASS SCALING: %d elements, added mass %.4g (%.3g %% of the model's), stable "
                   "increment %.4g -> %.4g\n",
                   mass_scaling.elements, mass_scaling.added_mass, 100 * sum.added_mass_fraction,
                   mass_scaling.stable_dt_before, mass_scaling.stable_dt_after);
    sum.controlling_element = builds && whole.controlling_element >= 0 ? model.elements.id[whole.controlling_element] : 0;

    double solve_seconds = 0;
    Clock::time_point last_progress = Clock::now();
    const bool tty = opt.progress && writes && isatty(2);
    double total_time = 0;
    for (const StepLoads& s : steps) total_time += s.period;
    // The host learns of an instability or energy drift only when it polls the backend; the
    // backend stops at the failing increment, so a late poll loses nothing but time.
    constexpr std::int64_t kPollEvery = 2000;
    EnergyMonitor mon;
    // What a frame without field output or printed tables carries (OutputFrame::nodes): a
    // history row the nodes of every history set opened so far (the writer goes on writing a
    // set in later steps), an energy row none.
    std::shared_ptr<const std::vector<int>> history_rows;
    const auto no_rows = std::make_shared<const std::vector<int>>();

    bool interrupted = false;
    Clock::time_point last_restart = Clock::now();
    sum.setup_seconds = seconds_since(t_start);
    // Status points (opt.status), rank 0 only: at most every kStatusInterval wall seconds and
    // at each step's end. The ETA is at this run's pace so far: wall seconds per unit of
    // analysis time since the time loop began (a resumed run's begins at its restart).
    const bool reports = writes && static_cast<bool>(opt.status);
    const Clock::time_point t_loop = Clock::now();
    const double t_begin = resume_at.active ? resume_at.t_step0 + resume_at.tau : st.time;
    Clock::time_point last_status = t_loop;
    const auto report_status = [&](StatusPoint p) {
      last_status = Clock::now();
      p.end_time = total_time;
      const double done = p.total_time - t_begin;
      if (done > 0) p.eta_seconds = seconds_since(t_loop) * std::max(0.0, total_time - p.total_time) / done;
      opt.status(p);
    };
    // An explicit step's point; its energies are the latest sample the writer thread has
    // completed (no wait for the GPU: the frame's own copy, taken at the sample).
    const auto explicit_point = [&](std::size_t si, std::int64_t increments, double tau, double t_step0, double dt,
                                    bool end) {
      StatusPoint p;
      p.step = static_cast<int>(si) + 1;
      p.step_end = end;
      p.increment = increments;
      p.step_time = tau;
      p.total_time = t_step0 + tau;
      p.dt = dt;
      EnergyRecord e;
      if (out && out->latest_energy(e)) {
        p.have_energy = true;
        p.energy_time = e.time;
        p.kinetic = e.kinetic;
        p.internal = e.internal;
        p.external_work = e.external_work;
        p.energy_error = e.balance_error;
      }
      return p;
    };
    for (std::size_t si = resume_at.active ? resume_at.step : 0; si < steps.size(); ++si) {
      const StepLoads& step = steps[si];
      const bool resumed = resume_at.active && si == resume_at.step;  // the step a restart continues
      if (out) out->finish();  // the writer must not be writing while histories are reopened
      sum.step_records.push_back({model.steps[si].name, "explicit", st.time, step.period, 0.0, 0});
      if (model.steps[si].procedure == Procedure::Static) {
        sum.step_records.back().procedure = "static";
        if (backend) backend->download(st);
        if (writer) {
          writer->open_histories(step.outputs);
          writer->open_prints(model.steps[si].prints);
        }
        StaticStepOptions so;
        so.backend = opt.backend;
        so.tangent = opt.tangent;
        so.tangent.threads = opt.threads;
        so.progress = opt.progress && writes;
        so.first_step = si == 0;
        if (reports)
          so.status = [&report_status, &last_status, si](const StatusPoint& q) {
            if (!q.step_end && seconds_since(last_status) < kStatusInterval) return;
            StatusPoint p = q;
            p.step = static_cast<int>(si) + 1;
            report_status(p);
          };
        // The step aligns the triads with its held rotations before its first frame, so the
        // reference triads for rotation output are taken at that frame.
        std::shared_ptr<ReferenceTriads> r1;
        if (out)
          so.emit = [&](std::unique_ptr<OutputFrame> f) {
            if (!r1) r1 = std::make_shared<ReferenceTriads>(ReferenceTriads{st.r1x, st.r1y, st.r1z});
            out->submit(std::move(f), r1);
          };
        const std::int64_t increments_before = sum.statics.increments;
        try {
          run_static_step(model, model.steps[si], sys, step, st, so, sum.statics);
        } catch (const RunInterrupted&) {
          interrupted = true;
          break;
        }
        sum.step_records.back().increments = sum.statics.increments - increments_before;
        if (backend) {
          backend->upload(st);  // the next explicit step starts from here, at rest
          backend->rebase_energy();
        }
        continue;
      }
      Backend& hw = *backend;
      std::vector<std::uint8_t> held_rot;
      if (resumed) {  // the host state as the saved run had it at this step's start
        const RestartBlob& r = *resume;
        r.get_finite_vector("host.r1x", st.r1x, sys.num_nodes);
        r.get_finite_vector("host.r1y", st.r1y, sys.num_nodes);
        r.get_finite_vector("host.r1z", st.r1z, sys.num_nodes);
        st.time = r.get_value<double>("host.time");
        st.half_dt_prev = r.get_value<double>("host.half_dt_prev");
        held_rot = resume_at.held_rot;
        scaler.load(r, whole);  // the backend takes the masses after its own restart below
      } else {
        scaler.begin_step(static_cast<int>(si), whole);
        hw.download(st);
        // Beam nodes hold global rotations as they are; shell nodes turn their triads to match.
        held_rot = sys.node_dofs == 6 ? std::vector<std::uint8_t>(sys.num_nodes, 0)
                                      : align_triads(sys, step.fixed_rotation, st);
      }
      std::shared_ptr<ReferenceTriads> r1;
      if (gather) {
        std::vector<std::vector<double>> rows = gather->gather_nodes({&st.r1x, &st.r1y, &st.r1z}, {1.0, 0.0, 0.0});
        if (writes) r1 = std::make_shared<ReferenceTriads>(ReferenceTriads{rows[0], rows[1], rows[2]});
      } else {
        r1 = std::make_shared<ReferenceTriads>(ReferenceTriads{st.r1x, st.r1y, st.r1z});
      }
      hw.upload(st);
      hw.begin_step(build_step_drive(sys, step, held_rot));
      {
        // History files stay open for later steps: their nodes accumulate over every step so far
        // (static ones and, in a resumed run, those before the restart included).
        std::vector<int> nodes;
        for (std::size_t k = 0; k <= si; ++k)
          for (const OutputRequest& r : steps[k].outputs)
            if (r.kind == OutputRequest::Kind::History && !r.nset.empty()) {
              const std::vector<int>& m = model.nsets.at(r.nset).members;
              nodes.insert(nodes.end(), m.begin(), m.end());
            }
        if (gather) {  // this rank's owned ones, as local nodes
          gather->set_history_nodes(nodes);
          nodes = gather->history_nodes();
        }
        history_rows = std::make_shared<const std::vector<int>>(frame_nodes(sys.constraints, sys.num_nodes, nodes));
      }
      double dt = step_increment(sys, step.fixed_increment, opt.dt_scale);
      const bool update_dt = opt.dt_update > 0 && !step.fixed_increment;
      // *VARIABLE MASS SCALING in force: re-evaluated at the step's start, then every
      // `mass_every` increments or at the points of mass_sched; each sets the increment.
      const bool scaling = scaler.active();
      const std::int64_t mass_every = scaling ? scaler.definitions().front().frequency : 0;
      Schedule mass_sched;
      if (scaling && mass_every == 0) mass_sched.interval = step.period / scaler.definitions().front().number_interval;
      // After definitions that ended the elements keep factors that made up for their shape then:
      // their undeformed increments overstate the bound, so the step starts from the deformed one.
      if (!resumed && !scaling && scaler.totals.evaluations > 0 && !step.fixed_increment) {
        dt = deformed_increment(sys, st, opt.dt_scale, comm, st.time);
      }
      sum.time_increment = dt;
      sum.step_records.back().increment = dt;
      Schedule field, history;
      for (const OutputRequest& r : step.outputs) {
        const double iv = request_interval(r, step.period);
        Schedule& sch = r.kind == OutputRequest::Kind::Field ? field : history;
        sch.interval = sch.interval > 0 ? std::min(sch.interval, iv) : iv;
      }
      Schedule energy = history;
      if (!(energy.interval > 0)) energy.interval = step.period / 200;
      // Printed tables: each request every `frequency` increments, all at the end of the
      // step; element tables need a full frame with element values.
      const std::vector<PrintRequest>& prints = model.steps[si].prints;
      const bool print_cells = prints_need_cells(prints);
      if (si > 0) {
        // The first instant of a later step was the last of the previous one: already written.
        field.advance(0);
        history.advance(0);
        energy.advance(0);
      }
      Schedule restart_sched;  // *RESTART, NUMBER INTERVAL: points in step time
      if (restart_points > 0) {
        restart_sched.interval = step.period / restart_points;
        restart_sched.advance(0);
      }
      const double t_step0 = st.time;
      double tau = 0, h_prev = st.half_dt_prev;
      std::int64_t step_increments = 0;
      if (resumed) {
        if (update_dt || (scaler.in_deck() && !step.fixed_increment)) dt = resume_at.dt;  // the deformed mesh's
        if (dt != resume_at.dt || t_step0 != resume_at.t_step0)
          resume->fail("its time increment or step start differs from this run's (another deck or options: "
                           "--dt-scale?)");
        field = resume_at.field;
        history = resume_at.history;
        energy = resume_at.energy;
        restart_sched = resume_at.restart_sched;
        mass_sched = resume_at.mass_sched;
        tau = resume_at.tau;
        h_prev = resume_at.h_prev;
        step_increments = resume_at.increments;
        hw.load_restart(*resume);  // the state and forces at this instant, as saved
        // The masses as saved (also after definitions that ended: the backend was built with the
        // deck's); the monitor already holds their work.
        if (scaler.in_deck()) hw.update_masses(whole, 0.0);
        // Only now, with every check of the restart passed (its increment, its backend sections),
        // are the result files cut back to the restart point: a refused restart leaves them as
        // they were.
        if (writer) writer->resume(opt.resume->bytes("output"), opt.resume->file());
      } else {
        hw.element_pass(0.0, t_step0);
      }
      if (writer) {
        writer->open_histories(step.outputs);
        writer->open_prints(model.steps[si].prints);
      }
      bool at_resume = resumed;  // the instant the restart holds: not written again
      const Clock::time_point t0 = Clock::now();
      bool stop = false;  // a stop was asked for: this instant is the run's last
      bool timed = false;  // --restart-interval has passed (distributed: rank 0's clock, at polls)
      for (;;) {
        const bool end = tau >= step.period * (1 - 1e-12);
        // One process looks at every increment; ranks agree at the polls (a collective), so
        // all of them stop at the same increment.
        if (!end && step_increments > 0) {
          const bool clock_due = restart_interval > 0 && seconds_since(last_restart) >= restart_interval;
          if (!dist) {
            stop = interrupt_requested();
            timed = clock_due;
          } else if (step_increments % kPollEvery == 0) {
            double flags[2] = {interrupt_requested() ? 1.0 : 0.0, comm.rank() == 0 && clock_due ? 1.0 : 0.0};
            comm.sum(flags, 2);
            stop = flags[0] > 0;
            timed = flags[1] > 0;
          }
        }
        const bool last = end || stop;
        // A restart holds this instant before its output (which a resumed run writes): every
        // restart_every increments of the run, every restart_interval seconds, and on a stop.
        if (restart_writer && !at_resume && step_increments > 0 && (!end || stop)) {
          const std::int64_t done = sum.steps + step_increments;
          const bool due = stop || (restart_every > 0 && done % restart_every == 0) || restart_sched.due(tau, dt) || timed;
          timed = false;
          restart_sched.advance(tau);
          if (due && !hw.restart_unsupported().empty()) {
            if (stop && writes)
              std::fprintf(stderr, "halfstep: no restart written: %s\n", hw.restart_unsupported().c_str());
          } else if (due) {
            const Clock::time_point t_r = Clock::now();
            mon = hw.poll();  // a failed state is reported, never saved
            if (mon.status != kRunning)
              report_failure(model, sys, hw, st, mon, step.name, opt.energy_tolerance, dist);
            if (out) out->finish();
            const RestartPoint here{true,  si,      step_increments, sum.steps, tau,           h_prev,   t_step0,
                                    dt,    field,   history,         energy,    restart_sched, held_rot, mass_sched};
            RestartBlob b = make_restart(here, st, hw, model, sys, scaler, opt);
            if (dist) {  // one file: rank 0's sections, then each other rank's restart whole
              b.put_value("run.ranks", comm.size());
              if (comm.rank() != 0) comm.send_bytes(b.serialize(), 0);
              for (int q = 1; q < comm.size() && comm.rank() == 0; ++q)
                b.put_owned("rank." + std::to_string(q), comm.receive_bytes(q));
            }
            if (writer) b.put_text("output", writer->checkpoint());
            if (opt.write_restart) sum.restart_file = opt.write_restart(b);
            sum.restarts_written += 1;
            sum.restart_time = t_step0 + tau;
            sum.restart_seconds += seconds_since(t_r);
            last_restart = Clock::now();
          }
        }
        at_resume = false;
        // The masses from the deformed mesh (after the restart point, as the increment below).
        if (scaling && !last && (mass_every > 0 ? step_increments % mass_every == 0 : mass_sched.due(tau, dt))) {
          mass_sched.advance(tau);
          hw.download(st);  // displacements for the increments, velocities for the kinetic energy
          const VariableScalingResult r = scaler.rescale(whole, st);
          hw.update_masses(whole, r.added_kinetic);
          VariableMassScaler::Totals& t = scaler.totals;
          t.evaluations += 1;
          t.elements = r.elements;
          t.added_mass = whole.total_mass - mass_after_fixed;
          t.added_mass_max = std::max(t.added_mass_max, t.added_mass);
          if (!step.fixed_increment) {
            dt = deformed_increment(sys, st, opt.dt_scale, comm, t_step0 + tau);
            sum.time_increment = dt;
          }
          t.smallest_increment = t.smallest_increment > 0 ? std::min(t.smallest_increment, dt) : dt;
          if (step_increments == 0) sum.step_records.back().increment = dt;
        }
        // The increment from the deformed mesh (after the restart point, which a resumed run
        // repeats, so it takes the same increment here).
        if (update_dt && !last && step_increments > 0 && step_increments % opt.dt_update == 0) {
          hw.download_displacements(st);
          dt = deformed_increment(sys, st, opt.dt_scale, comm, t_step0 + tau);
          sum.increment_updates += 1;
          sum.smallest_increment = sum.smallest_increment > 0 ? std::min(sum.smallest_increment, dt) : dt;
          sum.time_increment = dt;
        }
        double dt_next = last ? 0.0 : std::min(dt, step.period - tau);
        if (!last && step.period - tau - dt_next < 1e-6 * dt) dt_next = step.period - tau;
        const Increment inc{t_step0 + tau, tau, dt_next, h_prev};

        const bool want_field = field.due(tau, dt) || (last && field.interval > 0);
        const bool want_history = history.due(tau, dt) || (last && history.interval > 0);
        const bool want_energy = energy.due(tau, dt) || last;
        const bool want_print = any_print_due(prints, step_increments, last);
        if (want_field || want_history || want_energy || want_print) {
          auto frame = std::make_unique<OutputFrame>();
          frame->field = want_field;
          frame->history = want_history;
          frame->energy = want_energy;
          frame->print = want_print;
          frame->print_cells = want_print && print_cells;
          frame->step = static_cast<int>(si) + 1;
          frame->increment = step_increments;
          frame->step_end = last;
          if (!want_field && !want_print) frame->nodes = want_history ? history_rows : no_rows;
          hw.sample(inc, *frame);
          if (gather) {
            // Collective: completed here (MPI stays on this thread) with only the nodes the
            // frame needs, then assembled on rank 0; an energy-only frame needs none.
            if (frame->complete && (want_field || want_history || want_print)) frame->complete(*frame);
            frame->complete = nullptr;
            frame = gather->gather(*frame);
          }
          if (out) out->submit(std::move(frame), r1);
          if (want_field) field.advance(tau);
          if (want_history) history.advance(tau);
          if (want_energy) energy.advance(tau);
        }
        if (last) break;

        hw.advance(inc);
        ++step_increments;
        if (step_increments % kPollEvery == 0) {
          mon = hw.poll();
          if (mon.status != kRunning)
            report_failure(model, sys, hw, st, mon, step.name, opt.energy_tolerance, dist);
        }
        // An increment shrunk mid-step (a deformed mesh, mass scaling) may still fall below
        // the step time's resolution: the step would never end.
        if (!(tau + dt_next > tau)) {
          char msg[256];
          std::snprintf(msg, sizeof msg,
                        "step '%.64s': the increment %.6g no longer advances the step time %.17g (below its "
                        "resolution); the step cannot end",
                        step.name.c_str(), dt_next, tau);
          if (dist) throw CollectiveRunError(msg);
          throw RunError(msg);
        }
        tau += dt_next;
        h_prev = 0.5 * dt_next;
        if (reports && (step_increments & 15) == 0 && seconds_since(last_status) >= kStatusInterval)
          report_status(explicit_point(si, step_increments, tau, t_step0, dt, false));
        if (tty && (step_increments & 255) == 0 && seconds_since(last_progress) > 0.5) {
          last_progress = Clock::now();
          const double now = t_step0 + tau;
          const double rate = (sum.steps + step_increments) / std::max(1e-9, seconds_since(t_start));
          const double remaining = (total_time - now) / std::max(dt, 1e-300) / std::max(rate, 1e-9);
          std::fprintf(stderr, "\r  %5.1f%%  t = %.4e  %.0f steps/s  ETA %02d:%02d:%02d   ", 100 * now / total_time,
                       now, rate, static_cast<int>(remaining / 3600), static_cast<int>(remaining / 60) % 60,
                       static_cast<int>(remaining) % 60);
        }
      }
      mon = hw.poll();
      solve_seconds += seconds_since(t0);
      if (mon.status != kRunning) report_failure(model, sys, hw, st, mon, step.name, opt.energy_tolerance, dist);
      sum.steps += step_increments;
      sum.step_records.back().increments = step_increments;
      st.time = t_step0 + tau;
      st.half_dt_prev = h_prev;
      if (reports) {
        if (out) out->finish();  // the step's last energy sample written: the point carries it
        report_status(explicit_point(si, step_increments, tau, t_step0, dt, !stop));
      }
      if (stop) {
        interrupted = true;
        break;
      }
    }
    if (out) out->finish();
    if (interrupted) {
      const int sig = interrupt_request().load();
      char at[64];
      std::snprintf(at, sizeof at, " at time %.6g", st.time);
      sum.status = std::string("interrupted by ") + (sig == SIGTERM ? "SIGTERM" : sig == SIGINT ? "SIGINT" : "a request") + at;
    }
    if (backend) sum.backend_description = backend->description();  // now with the tuned block sizes
    if (!backend) {
      sum.backend = sum.statics.on_gpu ? "cuda" : "cpu";
      sum.backend_description = sum.statics.engine;
      sum.threads = opt.threads > 0 ? opt.threads : default_threads();
    }
    if (tty) std::fprintf(stderr, "\r%70s\r", "");
    sum.energy_error = mon.scale > 0 ? mon.max_drift / mon.scale : 0.0;
    if (const VariableMassScaler::Totals& vt = scaler.totals; vt.evaluations > 0) {
      sum.variable_scalings = vt.evaluations;
      sum.variable_scaled_elements = static_cast<int>(vt.elements);
      sum.variable_added_mass = vt.added_mass;
      sum.variable_added_mass_max = vt.added_mass_max;
      const double unscaled = mass_after_fixed - mass_scaling.added_mass;
      sum.variable_added_mass_fraction_max = unscaled > 0 ? vt.added_mass_max / unscaled : 0.0;
      sum.variable_smallest_increment = vt.smallest_increment;
      sum.mass_scaling_work = mon.record.mass_scaling_work;
      // One line for the run: a line per re-evaluation would bury the log.
      if (opt.progress && writes)
        std::fprintf(stderr,
                     "halfstep: *VARIABLE MASS SCALING: %lld re-evaluations; at the end %lld elements scaled, added "
                     "mass %.4g (at most %.4g, %.3g %% of the unscaled model's), kinetic energy added %.4g, "
                     "increment %.4g (smallest %.4g)\n",
                     static_cast<long long>(vt.evaluations), static_cast<long long>(vt.elements), vt.added_mass,
                     vt.added_mass_max, 100 * sum.variable_added_mass_fraction_max, sum.mass_scaling_work,
                     sum.time_increment, vt.smallest_increment);
    }
    sum.frames = writer ? writer->frames_written() : 0;
    sum.final_time = st.time;
    sum.solve_seconds = std::max(solve_seconds, 1e-12);
    sum.element_steps_per_second = static_cast<double>(whole.total_elements()) * sum.steps / sum.solve_seconds;
    if (sum.statics.steps) sum.solve_seconds += sum.statics.seconds;
    if (domain) {
      sum.ranks = comm.size();
      sum.rank_elements = domain->elements_per_rank;
      sum.rank_share_bytes = share_bytes_per_rank;
      sum.whole_share_bytes = share_bytes_whole;
      sum.rank_comm_seconds = comm.gather(std::vector<double>{backend->communication_seconds()}, 0);
      const auto phases = backend->phase_seconds();  // the same names, in the same order, on every rank
      std::vector<double> mine;
      for (const auto& ph : phases) mine.push_back(ph.second);
      const std::vector<double> all = comm.gather(mine, 0);
      if (comm.rank() == 0 && !phases.empty())
        for (std::size_t i = 0; i < phases.size(); ++i) {
          std::vector<double> per_rank;
          for (int r = 0; r < comm.size(); ++r) per_rank.push_back(all[static_cast<std::size_t>(r) * phases.size() + i]);
          sum.rank_phase_seconds.emplace_back(phases[i].first, per_rank);
        }
      sum.rank_devices = comm.gather(std::vector<int>{backend->device()}, 0);
      sum.transport = backend->transport();
      sum.mpi_library = comm.library();
    }
    sum.wall_seconds = seconds_since(t_start);
    return sum;
  } catch (const CollectiveRunError&) {
    throw;  // every rank stops with the same message
  } catch (const CollectiveRestartError&) {
    throw;
  } catch (const std::exception& e) {
    if (!domain) throw;
    // Only this rank saw it: the others may be waiting for it in a collective call, so the
    // whole run is stopped from here.
    std::fprintf(stderr, "halfstep: rank %d of %d failed: %s\n", comm.rank(), comm.size(), e.what());
    std::fflush(stderr);
    comm.abort(dynamic_cast<const RunError*>(&e) || dynamic_cast<const std::bad_alloc*>(&e) ? 3 : 4);
  }
}

}  // namespace halfstep
