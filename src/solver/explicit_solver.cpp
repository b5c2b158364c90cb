#include "solver/explicit_solver.hpp"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <thread>

#include "core/threads.hpp"
#include "discretization/bezier_output.hpp"
#include "discretization/output_fields.hpp"
#include "discretization/stable_increment.hpp"
#include "discretization/step_loads.hpp"
#include "elements/registry.hpp"
#include "solver/buckle_step.hpp"
#include "solver/frequency_step.hpp"
#include "solver/interrupt.hpp"
#include "solver/modal_dynamics.hpp"
#include "solver/run_context.hpp"
#include "solver/static_solver.hpp"

namespace halfstep {

double step_increment(const StructureSystem& sys, const StepLoads& step, double dt_scale) {
  return step.fixed_increment ? *step.fixed_increment : dt_scale * bulk_stable_dt(sys, step.bulk_linear);
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

namespace {

/// The backend of the explicit steps (none for a deck of static steps only, which needs no
/// masses): options from the run's, a distributed run's ranks sharing a host's cores and GPUs.
std::unique_ptr<Backend> start_backend(RunSetup& setup, const RunOptions& opt, const Communicator& comm,
                                       const DistributedContext* dist, bool writes) {
  BackendOptions bopt = opt.backend_options;
  bopt.energy_tolerance = opt.energy_tolerance;
  bopt.threads = opt.threads;
  if (dist && bopt.threads <= 0)  // the ranks of a host share its cores
    bopt.threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / comm.local_size());
  if (dist) bopt.gpu.device = comm.local_rank();
  bopt.distributed = dist;
  // Distributed contact runs on either backend (the GPU one stages the contact nodes to the
  // host pass each increment: docs/parallel.md, "Distributed contact").
  std::unique_ptr<Backend> backend =
      setup.any_explicit ? make_backend(opt.backend, setup.sys(), bopt, opt.progress && writes) : nullptr;
  if (backend) backend->upload(setup.st);
  if (setup.restarts && !backend->restart_unsupported().empty())
    setup.cannot_restart(backend->restart_unsupported() + "; run with --backend cpu to write them", comm);
  return backend;
}

/// The restart a run resumes, checked (restart_point): where it continues. Distributed: rank 0
/// holds the file; each rank's part of it travels to that rank (into rank_part, which c.resume
/// then points to), and the first rank to refuse its part stops them all.
RestartPoint resume_point(RunContext& c, RestartBlob& rank_part) {
  const Communicator& comm = c.comm;
  c.resume = c.opt.resume;
  if (!c.resume) return RestartPoint{};
  if (!c.dist) return restart_point(*c.resume, c.model, c.sys, *c.backend, c.opt);
  std::string why;
  const int ranks = comm.rank() == 0 && c.resume->has("run.ranks") ? c.resume->get_value<int>("run.ranks") : 1;
  if (comm.rank() == 0 && ranks != comm.size()) why = rank_count_refusal(ranks);
  why = comm.broadcast(why, 0);
  if (!why.empty()) throw CollectiveRestartError(c.resume->file(), why);
  if (comm.rank() == 0) {
    for (int q = 1; q < comm.size(); ++q) comm.send_bytes(c.resume->bytes("rank." + std::to_string(q)), q);
  } else {
    rank_part = RestartBlob::parse(comm.receive_bytes(0), c.resume->file() + " (rank " + std::to_string(comm.rank()) + ")");
    c.resume = &rank_part;
  }
  RestartPoint r;  // ranks check their own parts: the first refusal stops them all
  try {
    r = restart_point(*c.resume, c.model, c.sys, *c.backend, c.opt);
  } catch (const RestartError& e) {
    why = e.what();
  }
  const int first = comm.min(why.empty() ? comm.size() : comm.rank());
  if (first < comm.size()) throw CollectiveRestartError("", comm.broadcast(why, first));
  return r;
}

/// Names once the continuum kinds of the model that take no bulk viscosity when some
/// explicit step has it (Abaqus applies its linear term to them; docs/input.md).
void note_bulk_viscosity_kinds(const StructureSystem& whole, const std::vector<StepLoads>& steps) {
  bool any = false;
  for (const StepLoads& s : steps) any = any || s.bulk_linear > 0 || s.bulk_quadratic > 0;
  if (!any) return;
  std::string kinds;
  int count = 0;
  for (const SolidGroup& g : whole.solid.groups) {
    const ElementKindInfo& k = element_kind(g.kind);
    if (k.bulk_viscosity || k.discrete || k.cross_section || k.adhesion || g.count == 0) continue;
    if (kinds.find(k.name) == std::string::npos) kinds += std::string(kinds.empty() ? "" : ", ") + k.name;
    count += g.count;
  }
  std::string takers;  // the registry's, in its order
  for (int id = 0; id < num_element_kinds(); ++id)
    if (element_kind(id).bulk_viscosity) takers += std::string(takers.empty() ? "" : ", ") + element_kind(id).name;
  if (count > 0)
    std::fprintf(stderr, "halfstep: bulk viscosity: %d elements (%s) take none; it acts in %s\n", count, kinds.c_str(),
                 takers.c_str());
}

/// The summary's account of the explicit steps' backend (none: a deck of static steps).
void describe_backend(RunContext& c) {
  if (!c.backend) return;
  c.sum.threads = c.backend->threads();
  c.sum.backend = c.backend->name();
  c.sum.precision = c.backend->precision();
  c.sum.device_bytes_per_element = c.backend->device_bytes() / std::max(1, c.sys.total_elements());
}

/// The summary's account of the model and the set-up, before the first step.
void describe_setup(RunContext& c) {
  RunSummary& sum = c.sum;
  const StructureSystem& whole = c.setup.whole;
  const MassScalingResult& ms = c.setup.mass_scaling;
  if (c.resume_at.active) {
    sum.resumed_from = c.opt.resume->file();
    sum.resumed_at = c.resume_at.t_step0 + c.resume_at.tau;
    sum.steps = c.resume_at.steps_before;
  }
  sum.nodes = whole.num_nodes;
  sum.elements = whole.total_elements();
  describe_backend(c);
  // The estimate as the first explicit step takes it (its bulk viscosity's factor included).
  double b1 = 0;
  for (std::size_t i = 0; i < c.model.steps.size() && i < c.setup.whole_steps.size(); ++i)
    if (c.model.steps[i].procedure == Procedure::ExplicitDynamic) {
      b1 = c.setup.whole_steps[i].bulk_linear;
      break;
    }
  sum.stable_increment = bulk_stable_dt(whole, b1);
  sum.mass_scaled_elements = ms.elements;
  sum.mass_scaling_skipped = ms.skipped;
  sum.added_mass = ms.added_mass;
  sum.added_mass_fraction = whole.total_mass > 0 ? ms.added_mass / (whole.total_mass - ms.added_mass) : 0;
  sum.model_mass = whole.total_mass - ms.added_mass;
  sum.stable_increment_unscaled = ms.elements > 0 ? ms.stable_dt_before : sum.stable_increment;
  if (ms.elements > 0 && c.opt.progress && c.writes)
    std::fprintf(stderr,
                 "halfstep: *FIXED MASS SCALING: %d elements, added mass %.4g (%.3g %% of the model's), stable "
                 "increment %.4g -> %.4g\n",
                 ms.elements, ms.added_mass, 100 * sum.added_mass_fraction, ms.stable_dt_before, ms.stable_dt_after);
  if (ms.skipped > 0 && c.opt.progress && c.writes)
    std::fprintf(stderr,
                 "halfstep: *FIXED MASS SCALING: %d elements (%s) are not scaled: it scales shells and continuum "
                 "elements only\n",
                 ms.skipped, ms.skipped_what.c_str());
  if (c.opt.progress && c.writes) note_bulk_viscosity_kinds(whole, c.setup.whole_steps);
  sum.controlling_element =
      c.setup.builds && whole.controlling_element >= 0 ? c.model.elements.id[whole.controlling_element] : 0;
}

/// Runs static step si (static_solver's Newton driver) from the state the run is in, and hands
/// the next explicit step its state at rest; true when it was interrupted.
bool run_static_step_of_run(RunContext& c, std::size_t si) {
  const StepLoads& step = c.steps[si];
  StructureState& st = c.setup.st;
  RunSummary& sum = c.sum;
  sum.step_records.back().procedure = c.model.steps[si].dynamic ? "implicit dynamic" : "static";
  if (c.backend) c.backend->download(st);
  if (c.writer) {
    c.writer->open_histories(step.outputs);
    c.writer->open_prints(c.model.steps[si].prints);
  }
  StaticStepOptions so;
  so.backend = c.opt.backend;
  so.tangent = c.opt.tangent;
  so.tangent.threads = c.opt.threads;
  so.progress = c.opt.progress && c.writes;
  so.first_step = si == 0;
  if (c.reports)
    so.status = [&c, si](const StatusPoint& q) {
      if (!q.step_end && seconds_since(c.last_status) < kStatusInterval) return;
      StatusPoint p = q;
      p.step = static_cast<int>(si) + 1;
      c.report_status(p);
    };
  // The step aligns the triads with its held rotations before its first frame, so the
  // reference triads for rotation output are taken at that frame.
  std::shared_ptr<ReferenceTriads> r1;
  if (c.out)
    so.emit = [&](std::unique_ptr<OutputFrame> f) {
      if (!r1) r1 = std::make_shared<ReferenceTriads>(ReferenceTriads{st.r1x, st.r1y, st.r1z});
      c.out->submit(std::move(f), r1);
    };
  const std::int64_t increments_before = sum.statics.increments;
  if (c.model.steps[si].frequency) {  // a perturbation: the state stays as it was
    sum.step_records.back().procedure = "frequency";
    sum.step_records.back().period = 0;
    if (!c.modes) c.modes = std::make_shared<ModeSet>();
    sum.step_records.back().eigenvalues =
        run_frequency_step(c.model, c.model.steps[si], c.sys, step, st, so, sum.statics, c.modes.get());
    return false;
  }
  if (c.model.steps[si].buckle) {  // a perturbation: the state stays as it was
    sum.step_records.back().procedure = "buckle";
    sum.step_records.back().period = 0;
    sum.step_records.back().eigenvalues = run_buckle_step(c.model, c.model.steps[si], c.sys, step, st, so, sum.statics);
    return false;
  }
  if (c.model.steps[si].modal) {
    sum.step_records.back().procedure = c.model.steps[si].modal->steady_state ? "steady state dynamics" : "modal dynamic";
    try {
      sum.step_records.back().increments =
          run_modal_dynamic_step(c.model, c.model.steps[si], c.sys, step, st, so, sum.statics, c.modes.get());
    } catch (const RunInterrupted&) {
      return true;
    }
    if (c.backend) {
      c.backend->upload(st);  // the next explicit step starts from here, at rest
      c.backend->rebase_energy(true);
    }
    return false;
  }
  try {
    run_static_step(c.model, c.model.steps[si], c.sys, step, st, so, sum.statics);
  } catch (const RunInterrupted&) {
    return true;
  }
  sum.step_records.back().increments = sum.statics.increments - increments_before;
  if (c.backend) {
    c.backend->upload(st);  // the next explicit step starts from here, at rest
    c.backend->rebase_energy(true);
  }
  return false;
}

/// The summary's account of the run, after the last step (or the stop).
void describe_end(RunContext& c, bool interrupted) {
  RunSummary& sum = c.sum;
  const RunOptions& opt = c.opt;
  const StructureState& st = c.setup.st;
  const EnergyMonitor& mon = c.mon;
  if (interrupted) {
    const int sig = interrupt_request().load();
    char at[64];
    std::snprintf(at, sizeof at, " at time %.6g", st.time);
    sum.status = std::string("interrupted by ") + (sig == SIGTERM ? "SIGTERM" : sig == SIGINT ? "SIGINT" : "a request") + at;
  }
  if (c.backend) sum.backend_description = c.backend->description();  // now with the tuned block sizes
  if (!c.backend) {
    sum.backend = sum.statics.on_gpu ? "cuda" : "cpu";
    sum.backend_description = sum.statics.engine;
    sum.threads = opt.threads > 0 ? opt.threads : default_threads();
  }
  if (c.tty) std::fprintf(stderr, "\r%70s\r", "");
  sum.energy_error = mon.scale > 0 ? mon.max_drift / mon.scale : 0.0;
  if (const VariableMassScaler::Totals& vt = c.scaler.totals; vt.evaluations > 0) {
    sum.variable_scalings = vt.evaluations;
    sum.variable_scaled_elements = static_cast<int>(vt.elements);
    sum.variable_added_mass = vt.added_mass;
    sum.variable_added_mass_max = vt.added_mass_max;
    const double unscaled = c.mass_after_fixed - c.setup.mass_scaling.added_mass;
    sum.variable_added_mass_fraction_max = unscaled > 0 ? vt.added_mass_max / unscaled : 0.0;
    sum.variable_smallest_increment = vt.smallest_increment;
    sum.mass_scaling_work = mon.record.mass_scaling_work;
    // One line for the run: a line per re-evaluation would bury the log.
    if (opt.progress && c.writes)
      std::fprintf(stderr,
                   "halfstep: *VARIABLE MASS SCALING: %lld re-evaluations; at the end %lld elements scaled, added "
                   "mass %.4g (at most %.4g, %.3g %% of the unscaled model's), kinetic energy added %.4g, "
                   "increment %.4g (smallest %.4g)\n",
                   static_cast<long long>(vt.evaluations), static_cast<long long>(vt.elements), vt.added_mass,
                   vt.added_mass_max, 100 * sum.variable_added_mass_fraction_max, sum.mass_scaling_work,
                   sum.time_increment, vt.smallest_increment);
  }
  sum.frames = c.writer ? c.writer->frames_written() : 0;
  sum.final_time = st.time;
  sum.solve_seconds = std::max(c.solve_seconds, 1e-12);
  sum.element_steps_per_second = static_cast<double>(c.setup.whole.total_elements()) * sum.steps / sum.solve_seconds;
  if (sum.statics.steps) sum.solve_seconds += sum.statics.seconds;
}

/// A distributed run's figures per rank (collective): elements, share bytes, communication
/// and phase seconds, devices.
void describe_ranks(RunContext& c) {
  RunSummary& sum = c.sum;
  const Communicator& comm = c.comm;
  Backend& backend = *c.backend;
  sum.ranks = comm.size();
  sum.rank_elements = c.setup.domain->elements_per_rank;
  sum.rank_share_bytes = c.setup.share_bytes_per_rank;
  sum.whole_share_bytes = c.setup.share_bytes_whole;
  sum.rank_comm_seconds = comm.gather(std::vector<double>{backend.communication_seconds()}, 0);
  const auto phases = backend.phase_seconds();  // the same names, in the same order, on every rank
  std::vector<double> mine;
  for (const auto& ph : phases) mine.push_back(ph.second);
  const std::vector<double> all = comm.gather(mine, 0);
  if (comm.rank() == 0 && !phases.empty())
    for (std::size_t i = 0; i < phases.size(); ++i) {
      std::vector<double> per_rank;
      for (int r = 0; r < comm.size(); ++r) per_rank.push_back(all[static_cast<std::size_t>(r) * phases.size() + i]);
      sum.rank_phase_seconds.emplace_back(phases[i].first, per_rank);
    }
  sum.rank_devices = comm.gather(std::vector<int>{backend.device()}, 0);
  sum.transport = backend.transport();
  sum.mpi_library = comm.library();
}

/// The step loop's settings and clocks from now (t_begin: analysis time at its start). Status
/// points (opt.status), rank 0 only: at most every kStatusInterval wall seconds and at each
/// step's end; the ETA is at this run's pace so far (a resumed run's loop begins at its restart).
void begin_loop(RunContext& c, double t_begin) {
  c.tty = c.opt.progress && c.writes && isatty(2);
  for (const StepLoads& s : c.steps) c.total_time += s.period;
  c.reports = c.writes && static_cast<bool>(c.opt.status);
  c.t_loop = c.last_status = Clock::now();
  c.t_begin = t_begin;
}

/// Runs step si with its runner; true when it was interrupted.
bool run_step(RunContext& c, std::size_t si) {
  if (c.out) c.out->finish();  // the writer must not be writing while histories are reopened
  c.sum.step_records.push_back({c.model.steps[si].name, "explicit", c.setup.st.time, c.steps[si].period, 0.0, 0, {}});
  return c.model.steps[si].procedure == Procedure::Static ? run_static_step_of_run(c, si) : run_explicit_step(c, si);
}

/// Rank 0's result writer and the writer thread in front of it (none elsewhere).
struct RunOutput {
  std::unique_ptr<ResultSink> writer;
  std::unique_ptr<AsyncOutput> out;
};

RunOutput make_output(const RunSetup& setup, const RunOptions& opt, bool writes) {
  RunOutput o;
  if (!writes || !opt.make_sink) return o;
  const Model& model = *setup.model;
  // NURBS patches are also written as rational Bézier cells: the mesh tells the sink,
  // the writer thread adds their arrays to each field frame.
  auto bezier = std::make_shared<const BezierOutput>(bezier_output(model, setup.whole));
  ResultMesh mesh = result_mesh(setup.whole);
  if (!model.transforms.empty()) node_frames(model, setup.whole, mesh.axes_of, mesh.axes);
  if (!bezier->empty()) mesh.bezier = std::shared_ptr<const ResultMesh>(bezier, &bezier->mesh);
  o.writer = opt.make_sink(mesh);  // a resumed run's continues its files once the restart is loaded
  o.out = std::make_unique<AsyncOutput>(*o.writer, model, setup.whole, 2, bezier);
  return o;
}

/// Drains and stops a RunOutput's writer thread when it leaves scope (declared after the
/// backend, so that it runs before the backend is destroyed, whatever the way out).
struct DrainOutputFirst {
  RunOutput& output;
  explicit DrainOutputFirst(RunOutput& o) : output(o) {}
  DrainOutputFirst(const DrainOutputFirst&) = delete;
  DrainOutputFirst& operator=(const DrainOutputFirst&) = delete;
  ~DrainOutputFirst() { output.out.reset(); }  // ~AsyncOutput writes what is queued, then joins
};

/// Exit code of an interrupted run (apps/halfstep/main.cpp's kInterrupted), for the ranks
/// that leave when rank 0 was stopped in its leading static steps.
constexpr int kInterruptedExit = 5;

/// Rank 0 of a distributed run whose deck begins with static steps (RunSetup::shares_deferred):
/// those steps on the whole model, as one process runs them, their account into sum; then
/// the shares go out with the converged state, or the other ranks are let go when nothing is
/// left (or a stop came). Returns the first step not run.
std::size_t run_static_head(RunSetup& setup, const RunOptions& opt, const Communicator& comm, VariableMassScaler& scaler,
                            RunOutput& o, Clock::time_point t_start, RunSummary& sum, bool& interrupted) {
  RunContext h(opt, comm, setup, nullptr, true, scaler);
  h.t_start = t_start;
  h.writer = o.writer.get();
  h.out = o.out.get();
  std::size_t si = 0;
  try {
    describe_setup(h);
    if (opt.progress)
      std::fprintf(stderr, "halfstep: the leading static steps run on rank 0 of %d (the other ranks wait)\n",
                   comm.size());
    h.sum.setup_seconds = seconds_since(t_start);
    begin_loop(h, setup.st.time);
    for (; si < h.steps.size() && h.model.steps[si].procedure == Procedure::Static && !interrupted; ++si)
      interrupted = run_step(h, si);
    if (h.out) h.out->finish();
  } catch (const std::exception& e) {
    announce_setup_failure(comm, e);  // the other ranks wait for their shares
    throw;
  }
  if (interrupted || si == h.steps.size()) {
    describe_end(h, interrupted);
    h.sum.wall_seconds = seconds_since(t_start);
    announce_run_ended(comm, interrupted ? kInterruptedExit : 0);
  } else {
    send_deferred_shares(setup, comm);
  }
  sum = std::move(h.sum);
  return si;
}

RunSummary run_steps_with_output(RunSetup& setup, const RunOptions& opt, const Communicator& comm,
                                 Clock::time_point t_start, bool& output_began);

/// The run after its set-up: backend, restart, output, every step, the summary; an input
/// error after the output began says so (InputErrorAfterOutput).
RunSummary run_steps(RunSetup& setup, const RunOptions& opt, const Communicator& comm, Clock::time_point t_start) {
  bool output_began = false;
  try {
    return run_steps_with_output(setup, opt, comm, t_start, output_began);
  } catch (const InputErrorAfterOutput&) {
    throw;
  } catch (const RestartError&) {
    throw;  // a refused restart leaves the folder as it was (the writers continue only after it)
  } catch (const InputError& e) {
    if (output_began) throw InputErrorAfterOutput(e);
    throw;
  }
}

/// run_steps' work; output_began is set once the sink is made.
RunSummary run_steps_with_output(RunSetup& setup, const RunOptions& opt, const Communicator& comm,
                                 Clock::time_point t_start, bool& output_began) {
  const Model& model = *setup.model;
  VariableMassScaler scaler(model, setup.mass_scaling);
  const bool writes = comm.rank() == 0;  // rank 0 writes every file
  RunOutput output;
  RunSummary head;  // the leading static steps rank 0 ran alone
  const bool head_ran = setup.shares_deferred;
  std::size_t first = 0;
  bool interrupted = false;
  if (head_ran) {
    output = make_output(setup, opt, writes);
    output_began = true;
    first = run_static_head(setup, opt, comm, scaler, output, t_start, head, interrupted);
    if (interrupted || first == model.steps.size()) return head;
  } else {
    first = setup.static_head;  // the other ranks got their shares after rank 0 ran these
  }
  const DistributedContext context{&comm, setup.domain.get()};
  const DistributedContext* dist = setup.domain ? &context : nullptr;  // null: one process
  RunContext c(opt, comm, setup, dist, writes, scaler);
  if (head_ran) c.sum = std::move(head);
  c.t_start = t_start;
  const std::unique_ptr<Backend> backend = start_backend(setup, opt, comm, dist, writes);
  c.backend = backend.get();
  // Queued frames complete from the backend's staging buffers (CudaBackend::sample), so the
  // writer thread must be done with them before the backend goes: a failed step leaves by an
  // exception, which would destroy the backend (declared later) before the writer (declared
  // earlier), and a writer thread lagging behind then read freed device events.
  const DrainOutputFirst drain_first(output);
  RestartBlob rank_part;
  c.resume_at = resume_point(c, rank_part);  // a resumed run continues at the restart's step and increment
  // Rank 0 writes the file; every rank takes part in writing it.
  c.restart_writer = comm.broadcast(opt.write_restart ? "1" : "", 0) == "1";
  if (backend && opt.progress && writes) {
    std::fprintf(stderr, "halfstep: running on %s\n", backend->description().c_str());
    if (dist)
      std::fprintf(stderr, "halfstep: %d ranks (%s), interface buffers %s\n", comm.size(), comm.library().c_str(),
                   backend->transport().c_str());
  }
  std::unique_ptr<FrameGather> gather;
  if (dist) gather = std::make_unique<FrameGather>(comm, *setup.domain, setup.whole, setup.local);
  c.gather = gather.get();
  if (!head_ran) output = make_output(setup, opt, writes);
  output_began = true;
  c.writer = output.writer.get();
  c.out = output.out.get();
  if (head_ran) {
    describe_backend(c);  // the rest was described before the static steps
  } else {
    describe_setup(c);
    c.sum.setup_seconds = seconds_since(t_start);
  }
  c.last_progress = c.last_restart = Clock::now();
  begin_loop(c, c.resume_at.active ? c.resume_at.t_step0 + c.resume_at.tau : setup.st.time);
  for (std::size_t si = c.resume_at.active ? c.resume_at.step : first; si < c.steps.size() && !interrupted; ++si)
    interrupted = run_step(c, si);
  if (c.out) c.out->finish();
  describe_end(c, interrupted);
  if (dist) describe_ranks(c);
  c.sum.wall_seconds = seconds_since(t_start);
  return std::move(c.sum);
}

}  // namespace

RunSummary run_analysis(const Model& deck, const RunOptions& opt) {
  const Clock::time_point t_start = Clock::now();
  const Communicator single;
  const Communicator& comm = opt.comm ? *opt.comm : single;
  RunSetup setup;
  prepare_run(setup, deck, opt, comm);
  try {
    return run_steps(setup, opt, comm, t_start);
  } catch (const CollectiveRunError&) {
    throw;  // every rank stops with the same message
  } catch (const CollectiveRestartError&) {
    throw;
  } catch (const std::exception& e) {
    if (!setup.domain) throw;
    // Only this rank saw it: the others may be waiting for it in a collective call, so the
    // whole run is stopped from here.
    std::fprintf(stderr, "halfstep: rank %d of %d failed: %s\n", comm.rank(), comm.size(), e.what());
    std::fflush(stderr);
    comm.abort(dynamic_cast<const RunError*>(&e) || dynamic_cast<const std::bad_alloc*>(&e) ? 3 : 4);
  }
}

}  // namespace halfstep
