#include "io/async_output.hpp"

namespace halfstep {

AsyncOutput::AsyncOutput(ResultWriter& writer, std::size_t depth)
    : writer_(writer), depth_(depth < 1 ? 1 : depth), thread_([this] { run(); }) {}

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
        f.state.r1x = job.r1->r1x;
        f.state.r1y = job.r1->r1y;
        f.state.r1z = job.r1->r1z;
        if (f.field) writer_.write_frame(f.state, f.full);
        if (f.history) writer_.write_history(f.state, f.full);
        if (f.energy) writer_.write_energy(f.record);
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
