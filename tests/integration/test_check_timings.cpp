// `halfstep check --timings`: the phases' seconds on stderr, the summary on stdout unchanged.
#include <gtest/gtest.h>

#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

TEST(CheckTimings, PhasesGoToStderrAndTheSummaryStaysTheSame) {
  const std::string deck = HALFSTEP_SOURCE_DIR "/examples/pinched_cylinder.inp";
  const std::string exe = HALFSTEP_BINARY;
  std::string plain, timed, err;
  ASSERT_EQ(run_command("(" + exe + " check " + deck + " 2>/dev/null)", &plain), 0) << plain;
  ASSERT_EQ(run_command("(" + exe + " check --timings " + deck + " 2>/dev/null)", &timed), 0) << timed;
  EXPECT_EQ(plain, timed);
  ASSERT_EQ(run_command("(" + exe + " check --timings " + deck + " >/dev/null)", &err), 0) << err;
  EXPECT_NE(err.find("halfstep: check: read "), std::string::npos) << err;
  EXPECT_NE(err.find("set-up "), std::string::npos) << err;
  EXPECT_NE(err.find("(solver arrays "), std::string::npos) << err;
}

}  // namespace
}  // namespace halfstep::test
