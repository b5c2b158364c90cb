// A restart whose energy balance sums are not finite (a damaged file whose checksum matches:
// found by tests/fuzz/fuzz_restart.cpp) must not resume to a "completed" run over NaN
// energies: NaN compared false in the drift test, so the balance was never judged.
#include <cmath>
#include <fstream>
#include <limits>
#include <string>

#include "core/restart_blob.hpp"
#include "dynamics/energy_monitor.hpp"
#include "run_util.hpp"

namespace halfstep::test {
namespace {

TEST(RestartMonitor, NonFiniteWorkInTheRestartFailsTheResumedRun) {
  const std::string dir = scratch_dir("nan_work");
  const std::string deck = HALFSTEP_SOURCE_DIR "/tests/gpu/decks/rigid_end.inp";
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/out", "--backend cpu --restart-every 30", &out), 0) << out;
  const std::string restart = dir + "/out/rigid_end.restart";
  RestartBlob blob = RestartBlob::parse(read_file(restart), restart);
  EnergyMonitor m = blob.get_value<EnergyMonitor>("backend.monitor");
  ASSERT_TRUE(std::isfinite(m.work));
  m.work = std::numeric_limits<double>::quiet_NaN();
  blob.put_value("backend.monitor", m);
  std::ofstream(restart, std::ios::binary) << blob.serialize();

  EXPECT_EQ(run_halfstep(deck, dir + "/out", "--backend cpu --restart " + restart, &out), 3) << out;
  EXPECT_NE(out.find("the energy balance is not a finite number at step"), std::string::npos) << out;
  const std::string summary = read_file(dir + "/out/summary.json");
  EXPECT_NE(summary.find("\"status\": \"failed"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("\"completed\""), std::string::npos) << summary;
}

}  // namespace
}  // namespace halfstep::test
