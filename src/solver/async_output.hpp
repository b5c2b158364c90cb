// A writer thread for the results, so the time loop (and the GPU) never waits on the disk:
// it completes each frame from the backend's staging memory, turns it into named arrays
// (discretization/output_fields.hpp) and hands it to the sink.
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "discretization/bezier_output.hpp"
#include "discretization/structure_system.hpp"
#include "dynamics/output_frame.hpp"
#include "model/model.hpp"
#include "results/result_sink.hpp"

namespace halfstep {

/// Nodal triads pulled back to the reference (host-side, fixed within a step).
struct ReferenceTriads {
  std::vector<double> r1x, r1y, r1z;
};

/// Writes submitted frames in order on its own thread. At most `depth` frames wait; a
/// submit beyond that blocks until the writer catches up.
class AsyncOutput {
 public:
  /// sys is the whole model's system (the frames' nodes and elements); bezier, when given
  /// and not empty, adds its arrays to every field frame (ResultFrame::bezier).
  AsyncOutput(ResultSink& sink, const Model& model, const StructureSystem& sys, std::size_t depth,
              std::shared_ptr<const BezierOutput> bezier = nullptr);
  /// Drains the queue and joins the thread (errors then are swallowed: see finish()).
  ~AsyncOutput();
  AsyncOutput(const AsyncOutput&) = delete;
  AsyncOutput& operator=(const AsyncOutput&) = delete;

  /// Queues a frame; rethrows a failure of an earlier write.
  void submit(std::unique_ptr<OutputFrame> frame, std::shared_ptr<const ReferenceTriads> r1);
  /// Waits until every queued frame is written; rethrows a failure of any write.
  void finish();
  /// The energy totals of the latest energy frame written so far, if any: what a status line
  /// reports without making the time loop wait for the backend.
  bool latest_energy(EnergyRecord& record);

 private:
  struct Job {
    std::unique_ptr<OutputFrame> frame;
    std::shared_ptr<const ReferenceTriads> r1;
  };
  void run();
  void rethrow();

  ResultSink& sink_;
  const Model& model_;
  const StructureSystem& sys_;
  std::shared_ptr<const BezierOutput> bezier_;
  std::size_t depth_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Job> queue_;
  bool busy_ = false, stop_ = false;
  EnergyRecord latest_energy_;  ///< latest_energy()'s, under mutex_
  bool have_energy_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace halfstep
