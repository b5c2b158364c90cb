// Output requests whose interval is shorter than the increment, down to below the resolution
// of the step time (TIME INTERVAL=1e-300): one frame or history row per increment, as Abaqus
// writes at most once per increment. The schedule used to add the interval until it passed
// the step time, which never happened once t + interval == t: run hung (and ignored SIGTERM,
// which is honoured between increments) while check predicted a few increments.
#include <fstream>
#include <string>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

/// One C3D8R cube held at its base, node 7 pulled up at speed 1; `step` is the step's
/// procedure and its output requests.
std::string cube_deck(const std::string& dir, const std::string& name, const std::string& step) {
  const std::string path = dir + "/" + name + ".inp";
  std::ofstream(path) << held_cube_model("C3D8") << "*STEP\n"
                      << step << "*END STEP\n";
  return path;
}

/// run under a hard time limit: a hang is a failure (exit 137), not a stuck test.
int run_bounded(const std::string& deck, const std::string& out, std::string* log) {
  return run_command("timeout -s KILL 120 " HALFSTEP_BINARY " run " + deck + " -o " + out +
                         " --quiet --backend cpu --threads 1",
                     log);
}

// Ten fixed increments of 1e-4: a frame at 0 and after each, at its time.
TEST(OutputTimes, ExplicitIntervalBelowTimeResolutionWritesEveryIncrement) {
  for (const std::string interval : {"1e-300", "1e-12"}) {
    const std::string dir = scratch_dir("explicit_" + interval);
    const std::string deck =
        cube_deck(dir, "cube",
                  "*DYNAMIC, EXPLICIT, DIRECT USER CONTROL\n1e-4, 1e-3\n*BOUNDARY, TYPE=VELOCITY\n7, 3, 3, 1.0\n"
                  "*OUTPUT, FIELD, TIME INTERVAL=" + interval + "\n*NODE OUTPUT\nU\n"
                  "*OUTPUT, HISTORY, TIME INTERVAL=" + interval + "\n*NODE OUTPUT, NSET=SEVEN\nU\n");
    std::string out;
    ASSERT_EQ(run_bounded(deck, dir + "/out", &out), 0) << interval << ": " << out;
    const auto frames = pvd_frames(dir + "/out/cube.pvd");
    ASSERT_EQ(frames.size(), 11u) << interval;
    for (std::size_t k = 0; k < frames.size(); ++k) EXPECT_NEAR(frames[k].first, 1e-4 * k, 1e-15) << interval;
    const Csv h = read_csv(dir + "/out/history/SEVEN.csv");
    EXPECT_EQ(h.rows.size(), 7u * 11) << interval;  // 7 nodes, 11 instants
    const Csv e = read_csv(dir + "/out/energy.csv");
    EXPECT_EQ(e.rows.size(), 11u) << interval;
  }
}

// Four fixed static increments of 0.25: a frame at 0 and after each.
TEST(OutputTimes, StaticIntervalBelowTimeResolutionWritesEveryIncrement) {
  const std::string dir = scratch_dir("static");
  const std::string deck = cube_deck(dir, "cube",
                                     "*STATIC, DIRECT\n0.25, 1.\n*BOUNDARY\n7, 3, 3, 0.01\n"
                                     "*OUTPUT, FIELD, TIME INTERVAL=1e-300\n*NODE OUTPUT\nU\n"
                                     "*OUTPUT, HISTORY, TIME INTERVAL=1e-300\n*NODE OUTPUT, NSET=SEVEN\nU\n");
  std::string out;
  ASSERT_EQ(run_bounded(deck, dir + "/out", &out), 0) << out;
  const auto frames = pvd_frames(dir + "/out/cube.pvd");
  ASSERT_EQ(frames.size(), 5u);
  for (std::size_t k = 0; k < frames.size(); ++k) EXPECT_NEAR(frames[k].first, 0.25 * k, 1e-15);
  EXPECT_EQ(read_csv(dir + "/out/history/SEVEN.csv").rows.size(), 7u * 5);
}

}  // namespace
}  // namespace halfstep::test
