// --dt-update: the stable increment re-evaluated on the deformed mesh. A C3D8R cube squeezed
// to 0.6 of its height: Flanagan and Belytschko's bound for a box a x b x c is
// L = 1 / sqrt(1/a^2 + 1/b^2 + 1/c^2) over the wave speed, so the increment falls by
// sqrt(3 / (2 + 1/h^2)) at height h; a resumed run repeats the updates bit for bit.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "run_util.hpp"
#include "squeezed_cube.hpp"

namespace halfstep::test {
namespace {

namespace fs = std::filesystem;

const std::string kCube = std::string("*HEADING\none C3D8R cube squeezed to 0.6 of its height\n") + kSqueezedCubeModel + R"(*STEP
*DYNAMIC, EXPLICIT
, 10
*BOUNDARY, TYPE=VELOCITY
TOP, 3, 3, -0.04
*END STEP
)";


std::string write_cube(const std::string& dir) {
  const std::string path = dir + "/cube.inp";
  std::ofstream(path) << kCube;
  return path;
}

TEST(DeformedIncrement, FollowsTheSqueezedCube) {
  const std::string dir = scratch_dir("dt_update_cube");
  const std::string deck = write_cube(dir);
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/fixed", "--backend cpu", &out), 0) << out;
  ASSERT_EQ(run_halfstep(deck, dir + "/updated", "--backend cpu --dt-update 1", &out), 0) << out;
  const std::string fixed = read_file(dir + "/fixed/summary.json"), updated = read_file(dir + "/updated/summary.json");
  const double dt0 = summary_number(fixed, "time_increment");
  const double smallest = summary_number(updated, "smallest_increment");
  ASSERT_GT(dt0, 0) << fixed;
  // The last update is at most one increment (0.04 x 0.0125 = 5e-4 of height) before h = 0.6.
  const auto ratio = [](double h) { return std::sqrt(3.0 / (2.0 + 1.0 / (h * h))); };
  EXPECT_GT(smallest / dt0, ratio(0.6)) << updated;
  EXPECT_LT(smallest / dt0, ratio(0.6005)) << updated;
  EXPECT_LT(summary_number(updated, "energy_balance_error"), 1e-4) << updated;
}

TEST(DeformedIncrement, AResumedRunRepeatsTheUpdates) {
  const std::string dir = scratch_dir("dt_update_restart");
  const std::string deck = write_cube(dir);
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/full", "--backend cpu --dt-update 7 --restart-every 300", &out), 0) << out;
  fs::copy(dir + "/full", dir + "/resumed", fs::copy_options::recursive);
  ASSERT_EQ(run_halfstep(deck, dir + "/resumed", "--backend cpu --dt-update 7 --restart " + dir + "/resumed/cube.restart", &out), 0)
      << out;
  for (const char* f : {"energy.csv"}) EXPECT_TRUE(read_file(dir + "/full/" + f) == read_file(dir + "/resumed/" + f)) << f;
  EXPECT_EQ(summary_number(read_file(dir + "/full/summary.json"), "time_increment"),
            summary_number(read_file(dir + "/resumed/summary.json"), "time_increment"));
  // Without the option the restart is refused: its increments came from the deformed mesh.
  EXPECT_EQ(run_halfstep(deck, dir + "/resumed", "--backend cpu --restart " + dir + "/resumed/cube.restart", &out), 2) << out;
  EXPECT_NE(out.find("--dt-update"), std::string::npos) << out;
}

}  // namespace
}  // namespace halfstep::test
