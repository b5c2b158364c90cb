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
/// step's requests space them out (the smallest interval of each kind) or name TIME POINTS
/// (frames at those instants), printed tables on their own increments or points, and
/// everything at the step's end. The points are also the instants the step's increments must
/// end on (marks()).
class StepFrameSchedule {
 public:
  /// The schedule of model.steps' step `step` over `period` of step time, starting at analysis
  /// time t0 (TIME=TOTAL TIME points), with its output requests `outputs` (the step loads').
  StepFrameSchedule(const Model& model, const Step& step, const std::vector<OutputRequest>& outputs, double period,
                    double t0 = 0)
      : step_(step), eps_(1e-9 * period) {
    for (const OutputRequest& r : outputs) {
      const bool field = r.kind == OutputRequest::Kind::Field;
      (field ? want_field_ : want_history_) = true;
      if (!r.time_points.empty()) {
        add_points(r.time_points, r.points_total, t0, period, field ? field_points_ : history_points_);
        continue;
      }
      double every = 0;
      if (r.time_interval) every = *r.time_interval;
      else if (r.number_interval && *r.number_interval > 0) every = period / *r.number_interval;
      double& target = field ? field_every_ : history_every_;
      bool& by_interval = field ? field_by_interval_ : history_by_interval_;
      target = by_interval ? std::min(target, every) : every;
      by_interval = true;
    }
    for (auto* v : {&field_points_, &history_points_}) std::sort(v->begin(), v->end());
    for (const PrintRequest& p : step.prints) {
      print_points_.emplace_back();
      if (!p.time_points.empty()) add_points(p.time_points, p.points_total, t0, period, print_points_.back());
      has_points_ = has_points_ || !p.time_points.empty();
    }
    for (const auto* v : {&field_points_, &history_points_}) marks_.insert(marks_.end(), v->begin(), v->end());
    for (const std::vector<double>& v : print_points_) marks_.insert(marks_.end(), v.begin(), v.end());
    std::sort(marks_.begin(), marks_.end());
    marks_.erase(std::unique(marks_.begin(), marks_.end()), marks_.end());
    next_field_ = field_every_;
    next_history_ = history_every_;
    step_number_ = static_cast<int>(&step - model.steps.data()) + 1;
    print_cells_ = prints_need_cells(step.prints);
  }

  /// The step times the increments must end on (TIME POINTS inside the step), ascending.
  const std::vector<double>& marks() const { return marks_; }

  /// Whether the increment `increment` ending at step time tau has a frame.
  bool due(long long increment, double tau, bool last) const {
    return last || field_due(tau) || history_due(tau) || print_due(increment, tau, last);
  }

  /// The frame of `increment` at step time tau with its field, history, energy and print
  /// flags, step and increment set (initial: the analysis's first frame, which prints no
  /// table); the next field and history instants move past tau.
  std::unique_ptr<OutputFrame> frame(long long increment, double tau, bool last, bool initial = false) {
    auto f = std::make_unique<OutputFrame>();
    f->field = want_field_ && (initial || last || field_due(tau));
    f->history = want_history_ && (initial || last || history_due(tau));
    next_field_ = next_output_time(next_field_, field_every_, tau, eps_);
    next_history_ = next_output_time(next_history_, history_every_, tau, eps_);
    f->energy = true;
    f->print = !initial && print_due(increment, tau, last);
    if (f->print && has_points_)
      for (std::size_t i = 0; i < step_.prints.size(); ++i)
        f->prints_due.push_back(step_.prints[i].due(increment, last) || on(print_points_[i], tau) ? 1 : 0);
    f->print_cells = f->print && print_cells_;
    f->step = step_number_;
    f->increment = increment;
    f->step_end = last;
    return f;
  }

 private:
  /// points (analysis time when total) that fall inside the step, in step time, into out.
  void add_points(const std::vector<double>& points, bool total, double t0, double period, std::vector<double>& out) {
    for (double t : points) {
      const double tau = total ? t - t0 : t;
      if (tau > eps_ && tau < period + eps_) out.push_back(std::min(tau, period));
    }
  }
  /// Whether step time tau is one of points (increments end on them exactly).
  bool on(const std::vector<double>& points, double tau) const {
    const auto it = std::lower_bound(points.begin(), points.end(), tau - eps_);
    return it != points.end() && *it <= tau + eps_;
  }
  bool field_due(double tau) const {
    return (field_by_interval_ && tau >= next_field_ - eps_) || (!field_points_.empty() && on(field_points_, tau));
  }
  bool history_due(double tau) const {
    return (history_by_interval_ && tau >= next_history_ - eps_) ||
           (!history_points_.empty() && on(history_points_, tau));
  }
  bool print_due(long long increment, double tau, bool last) const {
    for (std::size_t i = 0; i < step_.prints.size(); ++i)
      if (step_.prints[i].due(increment, last) || on(print_points_[i], tau)) return true;
    return false;
  }

  const Step& step_;
  double eps_;
  double field_every_ = 0, history_every_ = 0;  ///< step time between frames; 0: every increment
  bool want_field_ = false, want_history_ = false;
  bool field_by_interval_ = false, history_by_interval_ = false;  ///< a request by increments or interval
  std::vector<double> field_points_, history_points_;  ///< TIME POINTS in step time, ascending
  std::vector<std::vector<double>> print_points_;      ///< per printed table: its points
  bool has_points_ = false;                            ///< a printed table prints on points
  std::vector<double> marks_;
  double next_field_ = 0, next_history_ = 0;
  int step_number_ = 0;
  bool print_cells_ = false;
};

}  // namespace halfstep
