// A stop asked for while a run goes (SIGINT, SIGTERM in the application; the flag here): the
// time loops end after a whole increment, write a last frame with every output, and the
// summary says "interrupted" (issue 20).
#include <gtest/gtest.h>

#include <cmath>
#include <csignal>

#include "solver/interrupt.hpp"
#include "static_util.hpp"

namespace halfstep::test {
namespace {

/// Clears the request when the test ends, whatever happens.
struct ClearRequest {
  ~ClearRequest() { interrupt_request().store(0); }
};

TEST(Interrupt, StaticStepStopsAfterItsFirstIncrementWithALastFrame) {
  ClearRequest clear;
  Capture full;
  const RunSummary a = run_deck(rolled_strip(8, 0.1, 4, "NO"), full, LinearSolverKind::Ldlt);
  EXPECT_EQ(a.status, "completed");
  EXPECT_EQ(a.statics.increments, 4);
  interrupt_request().store(SIGINT);
  Capture part;
  const RunSummary b = run_deck(rolled_strip(8, 0.1, 4, "NO"), part, LinearSolverKind::Ldlt);
  EXPECT_EQ(b.status.rfind("interrupted by SIGINT", 0), 0u) << b.status;
  EXPECT_EQ(b.statics.increments, 1);
  ASSERT_FALSE(part.frames.empty());
  const ResultFrame& last = part.frames.back();
  EXPECT_TRUE(last.field);
  EXPECT_NEAR(last.time, 0.25, 1e-12);
  // The state at the stop is the uninterrupted run's first increment (NLGEOM=NO: linear in the load).
  EXPECT_NEAR(u_of(last, 9, 2), 0.25 * u_of(last_field(full), 9, 2), 1e-9 * std::fabs(u_of(last_field(full), 9, 2)));
}

TEST(Interrupt, ExplicitStepStopsAfterAWholeIncrementWithALastFrame) {
  ClearRequest clear;
  const std::string deck = cantilever_deck(8, 2);  // an explicit CPS4 cantilever
  interrupt_request().store(SIGTERM);
  Capture c;
  const RunSummary s = run_deck(deck, c);
  EXPECT_EQ(s.status.rfind("interrupted by SIGTERM", 0), 0u) << s.status;
  EXPECT_EQ(s.steps, 1);  // one increment, then the stop
  ASSERT_FALSE(c.frames.empty());
  EXPECT_TRUE(c.frames.back().energy);
  EXPECT_GT(c.frames.back().time, 0.0);
}

}  // namespace
}  // namespace halfstep::test
