// Tests of the writer thread (src/io/async_output.hpp): frames are written in order, a frame's
// completion callback runs before it is written, a failure surfaces in the caller's next
// submit() or finish(), the queue depth bounds the waiting frames, and destruction drains it.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "discretization/output_fields.hpp"
#include "dynamics/output_frame.hpp"
#include "solver/async_output.hpp"
#include "io/inp_reader.hpp"
#include "io/result_writer.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "../io/io_test_util.hpp"

namespace halfstep {
namespace {

using test::kPlateMesh;
using test::kPlateStep;
using test::TempDir;



/// Model, system and a result writer in a temp directory.
struct Fixture {
  TempDir dir;
  Model model = read_inp_string((std::string(kPlateMesh) + kPlateStep), "mem/async.inp");
  StructureSystem sys = build_structure_system(model);
  std::string out = dir.str() + "/out";
  ResultWriter writer{model, result_mesh(sys), out, "job"};
};

std::shared_ptr<const ReferenceTriads> triads(int nn) {
  auto r = std::make_shared<ReferenceTriads>();
  r->r1x.assign(nn, 1.0);
  r->r1y.assign(nn, 0.0);
  r->r1z.assign(nn, 0.0);
  return r;
}

/// An energy-only frame with the given record.
std::unique_ptr<OutputFrame> energy_frame(double time, double kinetic) {
  auto f = std::make_unique<OutputFrame>();
  f->energy = true;
  f->record.time = time;
  f->record.kinetic = kinetic;
  f->record.internal = 2 * kinetic;
  f->record.external_work = 0.5;
  f->record.damping_work = 0.25;
  f->record.hourglass = 0.125;
  f->record.plastic_dissipation = 0.5 * kinetic;
  return f;
}

struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;
};

Csv read_csv(const std::string& path) {
  Csv csv;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::string line;
  bool first = true;
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string cell;
    std::vector<std::string> cells;
    while (std::getline(ss, cell, ',')) cells.push_back(cell);
    if (first) {
      csv.header = cells;
      first = false;
      continue;
    }
    std::vector<double> row;
    for (const std::string& c : cells) row.push_back(std::strtod(c.c_str(), nullptr));
    csv.rows.push_back(row);
  }
  return csv;
}

std::vector<double> column(const Csv& csv, int c) {
  std::vector<double> out;
  for (const auto& r : csv.rows) out.push_back(r.at(c));
  return out;
}

TEST(AsyncOutput, EnergyRowsAreWrittenInSubmissionOrder) {
  Fixture fx;
  const auto r1 = triads(fx.sys.num_nodes);
  {
    AsyncOutput out(fx.writer, fx.model, fx.sys, 2);
    for (int i = 0; i < 5; ++i) out.submit(energy_frame(0.1 * i + 0.05, 10.0 + i), r1);
    out.finish();
    const Csv csv = read_csv(fx.out + "/energy.csv");
    ASSERT_EQ(csv.header, (std::vector<std::string>{"time", "kinetic", "internal", "external_work", "damping_work", "total", "hourglass", "plastic_dissipation", "contact", "friction_dissipation", "mass_scaling_work", "viscous_dissipation", "thermal_work"}));
    ASSERT_EQ(csv.rows.size(), 5u);
    for (int i = 0; i < 5; ++i) {
      const auto& row = csv.rows[i];
      ASSERT_EQ(row.size(), 13u);
      EXPECT_DOUBLE_EQ(row[0], 0.1 * i + 0.05) << i;
      EXPECT_DOUBLE_EQ(row[1], 10.0 + i) << i;
      EXPECT_DOUBLE_EQ(row[2], 2 * (10.0 + i)) << i;
      EXPECT_DOUBLE_EQ(row[3], 0.5);
      EXPECT_DOUBLE_EQ(row[4], 0.25);
      EXPECT_DOUBLE_EQ(row[5], 3 * (10.0 + i) + 0.25 - 0.5);
      EXPECT_DOUBLE_EQ(row[6], 0.125);
      EXPECT_DOUBLE_EQ(row[7], 0.5 * (10.0 + i));
    }
  }
  EXPECT_EQ(fx.writer.frames_written(), 0);  // energy only: no field frames
}

TEST(AsyncOutput, ManyFramesThroughAShallowQueueStayInOrder) {
  Fixture fx;
  const auto r1 = triads(fx.sys.num_nodes);
  AsyncOutput out(fx.writer, fx.model, fx.sys, 1);
  for (int i = 0; i < 200; ++i) out.submit(energy_frame(i, i), r1);
  out.finish();
  const Csv csv = read_csv(fx.out + "/energy.csv");
  ASSERT_EQ(csv.rows.size(), 200u);
  const std::vector<double> t = column(csv, 0);
  for (int i = 0; i < 200; ++i) EXPECT_EQ(t[i], i);
}

TEST(AsyncOutput, FinishCanBeCalledRepeatedlyAndBetweenSubmits) {
  Fixture fx;
  const auto r1 = triads(fx.sys.num_nodes);
  AsyncOutput out(fx.writer, fx.model, fx.sys, 3);
  out.finish();  // nothing queued
  out.submit(energy_frame(1.0, 1.0), r1);
  out.finish();
  EXPECT_EQ(read_csv(fx.out + "/energy.csv").rows.size(), 1u);
  out.submit(energy_frame(2.0, 1.0), r1);
  out.submit(energy_frame(3.0, 1.0), r1);
  out.finish();
  out.finish();
  EXPECT_EQ(column(read_csv(fx.out + "/energy.csv"), 0), (std::vector<double>{1.0, 2.0, 3.0}));
}

TEST(AsyncOutput, FramesWithNothingRequestedWriteNothing) {
  Fixture fx;
  const auto r1 = triads(fx.sys.num_nodes);
  AsyncOutput out(fx.writer, fx.model, fx.sys, 2);
  auto f = energy_frame(1.0, 1.0);
  f->energy = false;
  out.submit(std::move(f), r1);
  out.submit(energy_frame(2.0, 1.0), r1);
  out.finish();
  EXPECT_EQ(column(read_csv(fx.out + "/energy.csv"), 0), (std::vector<double>{2.0}));
}

TEST(AsyncOutput, CompleteCallbackRunsBeforeTheFrameIsWritten) {
  Fixture fx;
  const auto r1 = triads(fx.sys.num_nodes);
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<int> calls{0};
  std::atomic<bool> on_other_thread{false};
  {
    AsyncOutput out(fx.writer, fx.model, fx.sys, 2);
    for (int i = 0; i < 3; ++i) {
      auto f = std::make_unique<OutputFrame>();
      f->energy = true;  // record left zero: the callback fills it
      f->complete = [i, caller, &calls, &on_other_thread](OutputFrame& frame) {
        frame.record.time = 100.0 + i;
        frame.record.kinetic = 7.0 * (i + 1);
        frame.record.external_work = 1.0;
        ++calls;
        if (std::this_thread::get_id() != caller) on_other_thread = true;
      };
      out.submit(std::move(f), r1);
    }
    out.finish();
  }
  EXPECT_EQ(calls.load(), 3);
  EXPECT_TRUE(on_other_thread.load());
  const Csv csv = read_csv(fx.out + "/energy.csv");
  ASSERT_EQ(csv.rows.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(csv.rows[i][0], 100.0 + i);
    EXPECT_EQ(csv.rows[i][1], 7.0 * (i + 1));
    EXPECT_EQ(csv.rows[i][3], 1.0);
    EXPECT_EQ(csv.rows[i][5], 7.0 * (i + 1) - 1.0);
  }
}

TEST(AsyncOutput, FieldFrameGetsTheReferenceTriadsAndIsWritten) {
  Fixture fx;
  const int nn = fx.sys.num_nodes;
  auto r1 = std::make_shared<ReferenceTriads>();
  r1->r1x.assign(nn, 0.0);
  r1->r1y.assign(nn, 1.0);
  r1->r1z.assign(nn, 0.0);
  std::atomic<bool> r1_set_after_complete{false};
  {
    AsyncOutput out(fx.writer, fx.model, fx.sys, 2);
    // A field frame: state from the system, filled before submitting.
    auto f = std::make_unique<OutputFrame>();
    f->field = true;
    f->energy = true;
    f->state.initialize(fx.sys);
    f->state.time = 0.5;
    f->full.resize(nn);
    f->record.time = 0.5;
    // The writer sets r1 after the callback; the callback sees the state before that.
    f->complete = [&r1_set_after_complete](OutputFrame& frame) {
      r1_set_after_complete = !frame.state.r1y.empty() && frame.state.r1y[0] != 1.0;
    };
    out.submit(std::move(f), r1);
    out.finish();
  }
  EXPECT_TRUE(r1_set_after_complete.load());
  EXPECT_EQ(fx.writer.frames_written(), 1);
  EXPECT_TRUE(std::filesystem::exists(fx.out + "/job_000000.vtu"));
  EXPECT_TRUE(std::filesystem::exists(fx.out + "/job.pvd"));
  EXPECT_EQ(column(read_csv(fx.out + "/energy.csv"), 0), (std::vector<double>{0.5}));
}

TEST(AsyncOutput, FailingCallbackIsRethrownByFinish) {
  Fixture fx;
  const auto r1 = triads(fx.sys.num_nodes);
  AsyncOutput out(fx.writer, fx.model, fx.sys, 4);
  out.submit(energy_frame(1.0, 1.0), r1);
  auto bad = energy_frame(2.0, 1.0);
  bad->complete = [](OutputFrame&) { throw std::runtime_error("staging copy failed"); };
  out.submit(std::move(bad), r1);
  try {
    out.finish();
    ADD_FAILURE() << "finish() did not rethrow";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "staging copy failed");
  }
  // The failed frame wrote nothing.
  EXPECT_EQ(column(read_csv(fx.out + "/energy.csv"), 0), (std::vector<double>{1.0}));
}

TEST(AsyncOutput, FailingCallbackIsRethrownByALaterSubmit) {
  Fixture fx;
  const auto r1 = triads(fx.sys.num_nodes);
  AsyncOutput out(fx.writer, fx.model, fx.sys, 1);
  out.submit(energy_frame(1.0, 1.0), r1);
  out.finish();
  auto bad = energy_frame(2.0, 1.0);
  bad->complete = [](OutputFrame&) { throw std::logic_error("bad frame"); };
  out.submit(std::move(bad), r1);
  // With a queue of depth 1, a submit can return only once the failed frame has left the
  // queue; the latest of the next two submits must see the failure.
  int thrown = 0, submitted = 0;
  for (int i = 0; i < 2 && thrown == 0; ++i) {
    try {
      out.submit(energy_frame(3.0 + i, 1.0), r1);
      ++submitted;
    } catch (const std::logic_error& e) {
      EXPECT_STREQ(e.what(), "bad frame");
      ++thrown;
    }
  }
  EXPECT_EQ(thrown, 1);
  EXPECT_LE(submitted, 1);
  // Frames queued behind the failed one are dropped, not written.
  out.finish();
  EXPECT_EQ(column(read_csv(fx.out + "/energy.csv"), 0), (std::vector<double>{1.0}));
}

TEST(AsyncOutput, FailingCallbackIsRethrownOnlyOnce) {
  Fixture fx;
  const auto r1 = triads(fx.sys.num_nodes);
  AsyncOutput out(fx.writer, fx.model, fx.sys, 2);
  auto bad = energy_frame(2.0, 1.0);
  bad->complete = [](OutputFrame&) { throw std::runtime_error("once"); };
  out.submit(std::move(bad), r1);
  EXPECT_THROW(out.finish(), std::runtime_error);
  EXPECT_NO_THROW(out.finish());
}

TEST(AsyncOutput, SubmitBlocksWhileDepthFramesWait) {
  Fixture fx;
  const auto r1 = triads(fx.sys.num_nodes);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::promise<void> started;
  std::atomic<bool> fourth_returned{false};
  {
    AsyncOutput out(fx.writer, fx.model, fx.sys, 2);
    auto first = energy_frame(1.0, 1.0);
    first->complete = [released, &started](OutputFrame&) {
      started.set_value();
      released.wait();
    };
    out.submit(std::move(first), r1);
    started.get_future().wait();  // the writer holds frame 1; the queue is empty
    out.submit(energy_frame(2.0, 1.0), r1);
    out.submit(energy_frame(3.0, 1.0), r1);  // two frames wait: the queue is full
    std::thread t([&] {
      out.submit(energy_frame(4.0, 1.0), r1);
      fourth_returned = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_FALSE(fourth_returned.load()) << "submit returned although depth frames were waiting";
    release.set_value();
    t.join();
    EXPECT_TRUE(fourth_returned.load());
    out.finish();
  }
  EXPECT_EQ(column(read_csv(fx.out + "/energy.csv"), 0), (std::vector<double>{1.0, 2.0, 3.0, 4.0}));
}

TEST(AsyncOutput, DestructorDrainsTheQueue) {
  Fixture fx;
  const auto r1 = triads(fx.sys.num_nodes);
  {
    AsyncOutput out(fx.writer, fx.model, fx.sys, 8);
    for (int i = 0; i < 8; ++i) out.submit(energy_frame(i, 1.0), r1);
    // No finish(): the destructor must still write every frame.
  }
  EXPECT_EQ(column(read_csv(fx.out + "/energy.csv"), 0),
            (std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(AsyncOutput, DestructorSwallowsAnUnreportedFailure) {
  Fixture fx;
  const auto r1 = triads(fx.sys.num_nodes);
  EXPECT_NO_THROW({
    AsyncOutput out(fx.writer, fx.model, fx.sys, 2);
    auto bad = energy_frame(1.0, 1.0);
    bad->complete = [](OutputFrame&) { throw std::runtime_error("ignored"); };
    out.submit(std::move(bad), r1);
  });
  EXPECT_TRUE(read_csv(fx.out + "/energy.csv").rows.empty());
}

}  // namespace
}  // namespace halfstep
