// When an implicit step's frames are due (static, implicit dynamic and modal steps), shared by
// their runners (static_solver.cpp, modal_dynamics.cpp).
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "dynamics/output_frame.hpp"
#include "dynamics/output_times.hpp"
#include "model/model.hpp"

namespace halfstep {

/// An implicit step's frame schedule: field and history frames at every increment unless the
/// step's requests space them out (the smallest interval of each kind), printed tables on their
/// own increments, and everything at the step's end.
class StepFrameSchedule {
 public:
  /// The schedule of model.steps' step `step` over `period` of step time with its output
  /// requests `outputs` (the step loads').
  StepFrameSchedule(const Model& model, const Step& step, const std::vector<OutputRequest>& outputs, double period)
      : step_(step), eps_(1e-9 * period) {
    for (const OutputRequest& r : outputs) {
      double every = 0;
      if (r.time_interval) every = *r.time_interval;
      else if (r.number_interval && *r.number_interval > 0) every = period / *r.number_interval;
      double& target = r.kind == OutputRequest::Kind::Field ? field_every_ : history_every_;
      bool& want = r.kind == OutputRequest::Kind::Field ? want_field_ : want_history_;
      target = want ? std::min(target, every) : every;
      want = true;
    }
    next_field_ = field_every_;
    next_history_ = history_every_;
    step_number_ = static_cast<int>(&step - model.steps.data()) + 1;
    print_cells_ = prints_need_cells(step.prints);
  }

  /// Whether the increment `increment` ending at step time tau has a frame.
  bool due(long long increment, double tau, bool last) const {
    return last || (want_field_ && tau >= next_field_ - eps_) || (want_history_ && tau >= next_history_ - eps_) ||
           any_print_due(step_.prints, increment, last);
  }

  /// The frame of `increment` at step time tau with its field, history, energy and print
  /// flags, step and increment set (initial: the analysis's first frame, which prints no
  /// table); the next field and history instants move past tau.
  std::unique_ptr<OutputFrame> frame(long long increment, double tau, bool last, bool initial = false) {
    auto f = std::make_unique<OutputFrame>();
    f->field = want_field_ && (initial || last || tau >= next_field_ - eps_);
    f->history = want_history_ && (initial || last || tau >= next_history_ - eps_);
    next_field_ = next_output_time(next_field_, field_every_, tau, eps_);
    next_history_ = next_output_time(next_history_, history_every_, tau, eps_);
    f->energy = true;
    f->print = !initial && any_print_due(step_.prints, increment, last);
    f->print_cells = f->print && print_cells_;
    f->step = step_number_;
    f->increment = increment;
    f->step_end = last;
    return f;
  }

 private:
  const Step& step_;
  double eps_;
  double field_every_ = 0, history_every_ = 0;  ///< step time between frames; 0: every increment
  bool want_field_ = false, want_history_ = false;
  double next_field_ = 0, next_history_ = 0;
  int step_number_ = 0;
  bool print_cells_ = false;
};

}  // namespace halfstep
