#include "solver/restart_point.hpp"

#include <cmath>
#include <cstdio>
#include <type_traits>

#include "discretization/stable_increment.hpp"

namespace halfstep {

namespace {

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

}  // namespace

double request_interval(const OutputRequest& r, double period) {
  if (r.time_interval) return *r.time_interval;
  if (r.number_interval && *r.number_interval > 0) return period / *r.number_interval;
  return r.kind == OutputRequest::Kind::Field ? period / 20 : period / 200;
}

double deformed_increment(const StructureSystem& sys, const StructureState& st, double bulk_linear, double dt_scale,
                          const Communicator& comm, double time) {
  double bound = deformed_stable_dt(sys, st, bulk_linear).first;
  if (comm.distributed()) bound = comm.min(bound);
  if (!(bound > 0 && bound < 1e300)) {
    const std::string msg = "the stable increment of the deformed mesh is not a positive number (an element turned "
                            "inside out?) at time " + std::to_string(time);
    if (comm.distributed()) throw CollectiveRunError(msg);
    throw RunError(msg);
  }
  return dt_scale * bound;
}

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

std::string rank_count_refusal(int ranks) {
  return "it was written by a run of " + std::to_string(ranks) + " process(es); resume it with as many" +
         (ranks > 1 ? " (mpirun -np " + std::to_string(ranks) + ")" : std::string(" (without mpirun)"));
}

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
           "' (or a file it includes) has changed since (its model, steps or output), or it is read in another --dialect");
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
    b.fail(rank_count_refusal(ranks));
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

}  // namespace halfstep
