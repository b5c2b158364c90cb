// The explicit step runner: one step of central differences through the backend, from its
// start (or a restart point) to its end or a stop, with its output, restarts, mass scaling
// and increment updates on their schedules.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "discretization/constraints.hpp"
#include "discretization/nodal_triads.hpp"
#include "discretization/output_fields.hpp"
#include "discretization/stable_increment.hpp"
#include "dynamics/step_drive.hpp"
#include "solver/interrupt.hpp"
#include "solver/run_context.hpp"
#include "solver/run_failure.hpp"
#include "solver/scaling_across_ranks.hpp"

namespace halfstep {

namespace {

/// One explicit step of a run: its loop state, and the loop split into what happens at an
/// instant (stop, restart, masses, increment, output) and the increment after it.
class ExplicitStep {
 public:
  ExplicitStep(RunContext& c, std::size_t si)
      : c_(c),
        si_(si),
        step_(c.steps[si]),
        resumed_(c.resume_at.active && si == c.resume_at.step),
        hw_(*c.backend),
        st_(c.setup.st) {}

  /// Runs the step; true when it stopped early at a stop that was asked for.
  bool run() {
    begin_state();
    open_history_rows();
    plan();
    resume_or_start();
    bool at_resume = resumed_;  // the instant the restart holds: not written again
    const Clock::time_point t0 = Clock::now();
    for (;;) {
      const bool end = tau_ >= step_.period * (1 - 1e-12);
      poll_stop(end);
      const bool last = end || stop_;
      if (!at_resume) write_restart_if_due(end);
      at_resume = false;
      rescale_masses_if_due(last);
      update_increment_if_due(last);
      double dt_next = last ? 0.0 : std::min(dt_, step_.period - tau_);
      if (!last && step_.period - tau_ - dt_next < 1e-6 * dt_) dt_next = step_.period - tau_;
      const Increment inc{t_step0_ + tau_, tau_, dt_next, h_prev_};
      output(inc, last);
      if (last) break;

      hw_.advance(inc);
      ++increments_;
      if (increments_ % kPollEvery == 0) poll_failure();
      check_advances(dt_next);
      tau_ += dt_next;
      h_prev_ = 0.5 * dt_next;
      if (c_.reports && (increments_ & 15) == 0 && seconds_since(c_.last_status) >= kStatusInterval)
        c_.report_status(point(false));
      if (c_.tty && (increments_ & 255) == 0 && seconds_since(c_.last_progress) > 0.5) show_progress();
    }
    poll_failure();
    c_.solve_seconds += seconds_since(t0);
    c_.sum.steps += increments_;
    c_.sum.step_records.back().increments = increments_;
    st_.time = t_step0_ + tau_;
    st_.half_dt_prev = h_prev_;
    if (c_.reports) {
      if (c_.out) c_.out->finish();  // the step's last energy sample written: the point carries it
      c_.report_status(point(!stop_));
    }
    return stop_;
  }

 private:
  /// The host's state at the step's start (a resumed run: as the saved run had it), its
  /// reference triads for rotation output, and the backend's drive for the step.
  void begin_state() {
    const StructureSystem& sys = c_.sys;
    if (resumed_) {
      const RestartBlob& r = *c_.resume;
      r.get_finite_vector("host.r1x", st_.r1x, sys.num_nodes);
      r.get_finite_vector("host.r1y", st_.r1y, sys.num_nodes);
      r.get_finite_vector("host.r1z", st_.r1z, sys.num_nodes);
      st_.time = r.get_value<double>("host.time");
      st_.half_dt_prev = r.get_value<double>("host.half_dt_prev");
      held_rot_ = c_.resume_at.held_rot;
      c_.scaler.load(r, c_.setup.whole);  // the backend takes the masses after its own restart below
    } else {
      // Ranks other than 0 hold an outline of the whole system: rank 0 rescales for them.
      if (c_.setup.builds)
        c_.scaler.begin_step(static_cast<int>(si_), c_.setup.whole);
      else
        c_.scaler.follow_step(static_cast<int>(si_));
      hw_.download(st_);
      // Beam nodes hold global rotations as they are; shell nodes turn their triads to match.
      held_rot_ = sys.node_dofs == 6 ? std::vector<std::uint8_t>(sys.num_nodes, 0)
                                     : align_triads(sys, step_.fixed_rotation, st_);
    }
    if (c_.gather) {
      std::vector<std::vector<double>> rows = c_.gather->gather_nodes({&st_.r1x, &st_.r1y, &st_.r1z}, {1.0, 0.0, 0.0});
      if (c_.writes) r1_ = std::make_shared<ReferenceTriads>(ReferenceTriads{rows[0], rows[1], rows[2]});
    } else {
      r1_ = std::make_shared<ReferenceTriads>(ReferenceTriads{st_.r1x, st_.r1y, st_.r1z});
    }
    hw_.upload(st_);
    hw_.begin_step(build_step_drive(sys, step_, held_rot_));
  }

  /// History files stay open for later steps: their nodes accumulate over every step so far
  /// (static ones and, in a resumed run, those before the restart included).
  void open_history_rows() {
    std::vector<int> nodes;
    for (std::size_t k = 0; k <= si_; ++k)
      for (const OutputRequest& r : c_.steps[k].outputs)
        if (r.kind == OutputRequest::Kind::History && !r.nset.empty()) {
          const std::vector<int>& m = c_.model.nsets.at(r.nset).members;
          nodes.insert(nodes.end(), m.begin(), m.end());
        }
    // A body's rotation node reads its reference node's rotation and moment (output_fields).
    for (const RigidBody& b : c_.model.rigid_bodies)
      if (b.rot_node >= 0 && std::find(nodes.begin(), nodes.end(), b.rot_node) != nodes.end()) nodes.push_back(b.ref_node);
    if (c_.gather) {  // this rank's owned ones, as local nodes
      c_.gather->set_history_nodes(nodes);
      nodes = c_.gather->history_nodes();
    }
    c_.history_rows = std::make_shared<const std::vector<int>>(frame_nodes(c_.sys.constraints, c_.sys.num_nodes, nodes));
  }

  /// The increment and the schedules of output, restarts and mass scaling.
  void plan() {
    const RunOptions& opt = c_.opt;
    VariableMassScaler& scaler = c_.scaler;
    dt_ = step_increment(c_.sys, step_, opt.dt_scale);
    // A rank's system holds the whole model's stable_dt but only its own elements, whose
    // bulk viscosity factor step_increment applies: every rank takes the smallest.
    if (c_.comm.distributed() && !step_.fixed_increment) dt_ = c_.comm.min(dt_);
    update_dt_ = opt.dt_update > 0 && !step_.fixed_increment;
    // *VARIABLE MASS SCALING in force: re-evaluated at the step's start, then every
    // `mass_every` increments or at the points of mass_sched; each sets the increment.
    scaling_ = scaler.active();
    mass_every_ = scaling_ ? scaler.definitions().front().frequency : 0;
    if (scaling_ && mass_every_ == 0) mass_sched_.interval = step_.period / scaler.definitions().front().number_interval;
    // After definitions that ended the elements keep factors that made up for their shape then:
    // their undeformed increments overstate the bound, so the step starts from the deformed one.
    if (!resumed_ && !scaling_ && scaler.totals.evaluations > 0 && !step_.fixed_increment)
      dt_ = deformed_increment(c_.sys, st_, step_.bulk_linear, opt.dt_scale, c_.comm, st_.time);
    c_.sum.time_increment = dt_;
    c_.sum.step_records.back().increment = dt_;
    for (const OutputRequest& r : step_.outputs) {
      // A request carried from an implicit step: its points would have to cut the increment.
      if (!r.time_points.empty())
        throw InputError(r.loc, "*OUTPUT, TIME POINTS in force in an explicit step: not supported; give the "
                                "explicit step its own *OUTPUT with TIME INTERVAL or NUMBER INTERVAL");
      const double iv = request_interval(r, step_.period);
      Schedule& sch = r.kind == OutputRequest::Kind::Field ? field_ : history_;
      sch.interval = sch.interval > 0 ? std::min(sch.interval, iv) : iv;
    }
    energy_ = history_;
    if (!(energy_.interval > 0)) energy_.interval = step_.period / 200;
    // Printed tables: each request every `frequency` increments, all at the end of the
    // step; element tables need a full frame with element values.
    print_cells_ = prints_need_cells(c_.model.steps[si_].prints);
    if (si_ > 0) {
      // The first instant of a later step was the last of the previous one: already written.
      field_.advance(0);
      history_.advance(0);
      energy_.advance(0);
    }
    if (c_.setup.restart_points > 0) {  // *RESTART, NUMBER INTERVAL: points in step time
      restart_sched_.interval = step_.period / c_.setup.restart_points;
      restart_sched_.advance(0);
    }
    t_step0_ = st_.time;
    h_prev_ = st_.half_dt_prev;
  }

  /// A resumed step takes the restart's loop state and the backend's arrays, then continues the
  /// result files (only now, with every check of the restart passed, are they cut back to the
  /// restart point: a refused restart leaves them as they were); a fresh step computes the
  /// forces of its first instant. Either way the step's histories and tables open.
  void resume_or_start() {
    if (resumed_) {
      const RestartPoint& at = c_.resume_at;
      if (update_dt_ || (c_.scaler.in_deck() && !step_.fixed_increment)) dt_ = at.dt;  // the deformed mesh's
      if (dt_ != at.dt || t_step0_ != at.t_step0)
        c_.resume->fail("its time increment or step start differs from this run's (another deck or options: "
                        "--dt-scale?)");
      field_ = at.field;
      history_ = at.history;
      energy_ = at.energy;
      restart_sched_ = at.restart_sched;
      mass_sched_ = at.mass_sched;
      tau_ = at.tau;
      h_prev_ = at.h_prev;
      increments_ = at.increments;
      hw_.load_restart(*c_.resume);  // the state and forces at this instant, as saved
      // The masses as saved (also after definitions that ended: the backend was built with the
      // deck's); the monitor already holds their work.
      if (c_.scaler.in_deck()) hw_.update_masses(c_.setup.whole, 0.0);
      if (c_.writer) c_.writer->resume(c_.opt.resume->bytes("output"), c_.opt.resume->file());
    } else {
      if (si_ > 0) hw_.rebase_energy(false);  // monitor_rebase: loads applied at once here
      hw_.element_pass(0.0, t_step0_, h_prev_);
    }
    if (c_.writer) {
      c_.writer->open_histories(step_.outputs);
      c_.writer->open_prints(c_.model.steps[si_].prints);
    }
  }

  /// Whether a stop was asked for (a signal) or --restart-interval has passed. One process
  /// looks at every increment; ranks agree at the polls (a collective), so all of them stop at
  /// the same increment.
  void poll_stop(bool end) {
    if (end || increments_ == 0) return;
    const double interval = c_.setup.restart_interval;
    const bool clock_due = interval > 0 && seconds_since(c_.last_restart) >= interval;
    if (!c_.dist) {
      stop_ = interrupt_requested();
      timed_ = clock_due;
    } else if (increments_ % kPollEvery == 0) {
      double flags[2] = {interrupt_requested() ? 1.0 : 0.0, c_.comm.rank() == 0 && clock_due ? 1.0 : 0.0};
      c_.comm.sum(flags, 2);
      stop_ = flags[0] > 0;
      timed_ = flags[1] > 0;
    }
  }

  /// A restart holds this instant before its output (which a resumed run writes): every
  /// restart_every increments of the run, every restart_interval seconds, and on a stop.
  void write_restart_if_due(bool end) {
    if (!c_.restart_writer || increments_ == 0 || (end && !stop_)) return;
    RunSummary& sum = c_.sum;
    const std::int64_t done = sum.steps + increments_;
    const std::int64_t every = c_.setup.restart_every;
    const bool due = stop_ || (every > 0 && done % every == 0) || restart_sched_.due(tau_, dt_) || timed_;
    timed_ = false;
    restart_sched_.advance(tau_);
    if (!due) return;
    if (!hw_.restart_unsupported().empty()) {
      if (stop_ && c_.writes) std::fprintf(stderr, "halfstep: no restart written: %s\n", hw_.restart_unsupported().c_str());
      return;
    }
    const Clock::time_point t_r = Clock::now();
    poll_failure();  // a failed state is reported, never saved
    if (c_.out) c_.out->finish();
    const RestartPoint here{true, si_, increments_, sum.steps, tau_,           h_prev_,  t_step0_,
                            dt_,  field_, history_, energy_,  restart_sched_, held_rot_, mass_sched_};
    RestartBlob b = make_restart(here, st_, hw_, c_.model, c_.sys, c_.scaler, c_.opt);
    if (c_.dist) {  // one file: rank 0's sections, then each other rank's restart whole
      const Communicator& comm = c_.comm;
      b.put_value("run.ranks", comm.size());
      if (comm.rank() != 0) comm.send_bytes(b.serialize(), 0);
      for (int q = 1; q < comm.size() && comm.rank() == 0; ++q)
        b.put_owned("rank." + std::to_string(q), comm.receive_bytes(q));
    }
    if (c_.writer) b.put_text("output", c_.writer->checkpoint());
    if (c_.opt.write_restart) sum.restart_file = c_.opt.write_restart(b);
    sum.restarts_written += 1;
    sum.restart_time = t_step0_ + tau_;
    sum.restart_seconds += seconds_since(t_r);
    c_.last_restart = Clock::now();
  }

  /// *VARIABLE MASS SCALING: the masses from the deformed mesh (after the restart point, as
  /// the increment below), and the increment they allow.
  void rescale_masses_if_due(bool last) {
    if (!scaling_ || last || !(mass_every_ > 0 ? increments_ % mass_every_ == 0 : mass_sched_.due(tau_, dt_))) return;
    // The system the backend runs: the whole one, or this rank's part.
    StructureSystem& sys = c_.setup.domain ? c_.setup.local : c_.setup.whole;
    mass_sched_.advance(tau_);
    hw_.download(st_);  // displacements for the increments, velocities for the kinetic energy
    const VariableScalingResult r = c_.setup.domain ? rescale_across_ranks(c_.scaler, c_.setup, st_, c_.comm)
                                                    : c_.scaler.rescale(sys, st_);
    hw_.update_masses(sys, r.added_kinetic);
    VariableMassScaler::Totals& t = c_.scaler.totals;
    t.evaluations += 1;
    t.elements = r.elements;
    t.added_mass = sys.total_mass - c_.mass_after_fixed;
    t.added_mass_max = std::max(t.added_mass_max, t.added_mass);
    if (!step_.fixed_increment) {
      dt_ = deformed_increment(c_.sys, st_, step_.bulk_linear, c_.opt.dt_scale, c_.comm, t_step0_ + tau_);
      c_.sum.time_increment = dt_;
    }
    t.smallest_increment = t.smallest_increment > 0 ? std::min(t.smallest_increment, dt_) : dt_;
    if (increments_ == 0) c_.sum.step_records.back().increment = dt_;
  }

  /// --dt-update: the increment from the deformed mesh (after the restart point, which a
  /// resumed run repeats, so it takes the same increment here).
  void update_increment_if_due(bool last) {
    if (!update_dt_ || last || increments_ == 0 || increments_ % c_.opt.dt_update != 0) return;
    RunSummary& sum = c_.sum;
    hw_.download_displacements(st_);
    dt_ = deformed_increment(c_.sys, st_, step_.bulk_linear, c_.opt.dt_scale, c_.comm, t_step0_ + tau_);
    sum.increment_updates += 1;
    sum.smallest_increment = sum.smallest_increment > 0 ? std::min(sum.smallest_increment, dt_) : dt_;
    sum.time_increment = dt_;
  }

  /// The frame of this instant, when some output is due (the step's last instant always
  /// writes energies), handed to the writer thread.
  void output(const Increment& inc, bool last) {
    const bool want_field = field_.due(tau_, dt_) || (last && field_.interval > 0);
    const bool want_history = history_.due(tau_, dt_) || (last && history_.interval > 0);
    const bool want_energy = energy_.due(tau_, dt_) || last;
    const bool want_print = any_print_due(c_.model.steps[si_].prints, increments_, last);
    if (!(want_field || want_history || want_energy || want_print)) return;
    auto frame = std::make_unique<OutputFrame>();
    frame->field = want_field;
    frame->history = want_history;
    frame->energy = want_energy;
    frame->print = want_print;
    frame->print_cells = want_print && print_cells_;
    frame->step = static_cast<int>(si_) + 1;
    frame->increment = increments_;
    frame->step_end = last;
    if (!want_field && !want_print) frame->nodes = want_history ? c_.history_rows : c_.no_rows;
    hw_.sample(inc, *frame);
    if (c_.gather) {
      // Collective: completed here (MPI stays on this thread) with only the nodes the
      // frame needs, then assembled on rank 0; an energy-only frame needs none.
      if (frame->complete && (want_field || want_history || want_print)) frame->complete(*frame);
      frame->complete = nullptr;
      frame = c_.gather->gather(*frame);
    }
    if (c_.out) c_.out->submit(std::move(frame), r1_);
    if (want_field) field_.advance(tau_);
    if (want_history) history_.advance(tau_);
    if (want_energy) energy_.advance(tau_);
  }

  /// An increment shrunk mid-step (a deformed mesh, mass scaling) may still fall below the
  /// step time's resolution: the step would never end.
  void check_advances(double dt_next) const {
    if (tau_ + dt_next > tau_) return;
    char msg[256];
    std::snprintf(msg, sizeof msg,
                  "step '%.64s': the increment %.6g no longer advances the step time %.17g (below its "
                  "resolution); the step cannot end",
                  step_.name.c_str(), dt_next, tau_);
    if (c_.dist) throw CollectiveRunError(msg);
    throw RunError(msg);
  }

  /// The live progress line on a terminal.
  void show_progress() {
    c_.last_progress = Clock::now();
    const double now = t_step0_ + tau_;
    const double rate = (c_.sum.steps + increments_) / std::max(1e-9, seconds_since(c_.t_start));
    const double remaining = (c_.total_time - now) / std::max(dt_, 1e-300) / std::max(rate, 1e-9);
    std::fprintf(stderr, "\r  %5.1f%%  t = %.4e  %.0f steps/s  ETA %02d:%02d:%02d   ", 100 * now / c_.total_time, now,
                 rate, static_cast<int>(remaining / 3600), static_cast<int>(remaining / 60) % 60,
                 static_cast<int>(remaining) % 60);
  }

  /// The backend's monitor, and the failure report when it stopped.
  void poll_failure() {
    c_.mon = hw_.poll();
    if (c_.mon.status != kRunning) fail();
  }
  [[noreturn]] void fail() {
    report_failure(c_.model, c_.sys, hw_, st_, c_.mon, step_.name, c_.opt.energy_tolerance, c_.dist);
  }

  /// This instant as a status point; its energies are the latest sample the writer thread has
  /// completed (no wait for the GPU: the frame's own copy, taken at the sample).
  StatusPoint point(bool end) const {
    StatusPoint p;
    p.step = static_cast<int>(si_) + 1;
    p.step_end = end;
    p.increment = increments_;
    p.step_time = tau_;
    p.total_time = t_step0_ + tau_;
    p.dt = dt_;
    EnergyRecord e;
    if (c_.out && c_.out->latest_energy(e)) {
      p.have_energy = true;
      p.energy_time = e.time;
      p.kinetic = e.kinetic;
      p.internal = e.internal;
      p.external_work = e.external_work;
      p.energy_error = e.balance_error;
    }
    return p;
  }

  RunContext& c_;
  const std::size_t si_;
  const StepLoads& step_;
  const bool resumed_;  ///< the step a restart continues
  Backend& hw_;
  StructureState& st_;
  std::vector<std::uint8_t> held_rot_;
  std::shared_ptr<ReferenceTriads> r1_;
  double dt_ = 0;
  bool update_dt_ = false, scaling_ = false, print_cells_ = false;
  std::int64_t mass_every_ = 0;
  Schedule field_, history_, energy_, restart_sched_, mass_sched_;
  double t_step0_ = 0, tau_ = 0, h_prev_ = 0;
  std::int64_t increments_ = 0;  ///< of this step so far
  bool stop_ = false;            ///< a stop was asked for: this instant is the run's last
  bool timed_ = false;           ///< --restart-interval has passed (distributed: rank 0's clock, at polls)
};

}  // namespace

bool run_explicit_step(RunContext& c, std::size_t si) { return ExplicitStep(c, si).run(); }

}  // namespace halfstep
