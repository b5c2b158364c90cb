#include "solver/async_output.hpp"

#include "core/permute.hpp"
#include "discretization/output_fields.hpp"

namespace halfstep {

AsyncOutput::AsyncOutput(ResultSink& sink, const Model& model, const StructureSystem& sys, std::size_t depth,
                         std::shared_ptr<const BezierOutput> bezier)
    : sink_(sink),
      model_(model),
      sys_(sys),
      bezier_(bezier && !bezier->empty() ? std::move(bezier) : nullptr),
      depth_(depth < 1 ? 1 : depth),
      thread_([this] { run(); }) {}

AsyncOutput::~AsyncOutput() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void AsyncOutput::rethrow() {
  if (error_) {
    std::exception_ptr e = error_;
    error_ = nullptr;
    std::rethrow_exception(e);
  }
}

void AsyncOutput::submit(std::unique_ptr<OutputFrame> frame, std::shared_ptr<const ReferenceTriads> r1) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return queue_.size() < depth_ || error_; });
  rethrow();
  queue_.push_back({std::move(frame), std::move(r1)});
  changed_.notify_all();
}

void AsyncOutput::finish() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return (queue_.empty() && !busy_) || error_; });
  rethrow();
}

bool AsyncOutput::latest_energy(EnergyRecord& record) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (have_energy_) record = latest_energy_;
  return have_energy_;
}

void AsyncOutput::run() {
  for (;;) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return !queue_.empty() || stop_; });
      if (queue_.empty()) return;
      job = std::move(queue_.front());
      queue_.pop_front();
      busy_ = true;
    }
    try {
      OutputFrame& f = *job.frame;
      if (f.complete) f.complete(f);
      if (!f.discard) {  // a frame sampled after a failure is not a result
        if (f.nodes) {  // the frame's nodes only, like its other node rows
          const std::vector<int>& nodes = *f.nodes;
          const std::vector<double>* from[3] = {&job.r1->r1x, &job.r1->r1y, &job.r1->r1z};
          std::vector<double>* to[3] = {&f.state.r1x, &f.state.r1y, &f.state.r1z};
          for (int i = 0; i < 3; ++i) *to[i] = gathered(*from[i], nodes, 1);
        } else {
          f.state.r1x = job.r1->r1x;
          f.state.r1y = job.r1->r1y;
          f.state.r1z = job.r1->r1z;
        }
        ResultFrame out;
        out.time = f.state.time;
        out.field = f.field;
        out.history = f.history;
        out.energy = f.energy;
        out.print = f.print;
        out.step = f.step;
        out.increment = f.increment;
        out.step_end = f.step_end;
        out.prints_due = f.prints_due;
        out.nodes = f.nodes;
        out.eigenvalues = f.eigenvalues;
        out.participation = f.participation;
        out.effective_mass = f.effective_mass;
        out.total_mass = f.total_mass;
        out.buckling_factors = f.buckling_factors;
        out.steady_state_factors = f.steady_state_factors;
        out.steady_state_frequency = f.steady_state_frequency;
        // Integration-point values only for the element tables that print them (each frame's
        // step is its model step f.step, 1-based).
        const bool points = f.print_cells && f.step >= 1 && f.step <= static_cast<int>(model_.steps.size()) &&
                            prints_need_points(model_.steps[static_cast<std::size_t>(f.step - 1)].prints);
        if (f.field || f.history || f.print)
          out.fields = output_fields(model_, sys_, f.state, f.full, f.field || f.print_cells, f.nodes.get(), f.small_strain,
                                     points,
                                     f.body_turn.empty() ? nullptr : &f.body_turn);
        if (f.field && bezier_) out.bezier = bezier_fields(*bezier_, out.fields);
        const EnergyRecord& e = f.record;
        out.energy_row = {e.time,    e.kinetic,   e.internal,           e.external_work, e.damping_work,
                          e.total(), e.hourglass, e.plastic_dissipation, e.contact,       e.friction_dissipation,
                          e.mass_scaling_work, e.viscous_dissipation, e.thermal_work};
        if (f.energy) out.contact_force = f.state.contact_pair_force;
        sink_.write(out);
        if (f.energy) {
          std::lock_guard<std::mutex> lock(mutex_);
          latest_energy_ = f.record;
          have_energy_ = true;
        }
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) error_ = std::current_exception();
      queue_.clear();  // after a failed write, later frames would only add to the damage
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      busy_ = false;
    }
    changed_.notify_all();
  }
}

}  // namespace halfstep
