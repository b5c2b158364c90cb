// *TIME POINTS (Abaqus's *OUTPUT, TIME POINTS=; the peer's *NODE PRINT, TIME POINTS=): an
// implicit step ends an increment on each instant and writes the requests there and at its
// end. Checked on a spring under a ramped load in static steps (u = F(t) / k at each point,
// step time and the peer's TIME=TOTAL TIME) and on a mass on a spring in a modal dynamic step
// (the closed form (F / k)(1 - cos w t) at points off the increment grid).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

/// The (time, U1) of every "displacements ... for set N" table of a .dat, in order.
std::vector<std::pair<double, double>> printed_u1(const std::string& dat) {
  std::vector<std::pair<double, double>> out;
  std::istringstream in(dat);
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t at = line.find("displacements (vx,vy,vz) for set N and time");
    if (at == std::string::npos) continue;
    const double t = std::stod(line.substr(line.rfind(' ') + 1));
    while (std::getline(in, line) && line.find_first_not_of(' ') == std::string::npos) {
    }
    std::istringstream row(line);
    int node = 0;
    double u1 = 0;
    row >> node >> u1;
    out.emplace_back(t, u1);
  }
  return out;
}

/// A grounded spring k = 100 on node 1 (free in x), *TIME POINTS TP (its data line `points`,
/// parameters `params`) and the steps `steps`.
std::string spring_deck(const std::string& params, const std::string& points, const std::string& steps) {
  return "*HEADING\nspring\n*NODE, NSET=N\n1, 0., 0., 0.\n*ELEMENT, TYPE=SPRING1, ELSET=K\n1, 1\n*SPRING, ELSET=K\n1\n"
         "100.\n*BOUNDARY\n1, 2, 3\n*TIME POINTS, NAME=TP" + params + "\n" + points + "\n" + steps;
}

// One static increment of 1.0 without points; with points 0.4, 0.6, 0.9 the increments end
// there: the printed table and the history rows come at 0.4, 0.6, 0.9 and 1 with
// u = 5 t / 100 (the load ramps over the step).
TEST(TimePoints, StaticIncrementsEndOnThePointsAndWriteThere) {
  const std::string dir = scratch_dir("time_points_static");
  std::ofstream(dir + "/s.inp") << spring_deck(
      "", "0.9, 0.4\n0.6",
      "*STEP\n*STATIC\n1., 1.\n*CLOAD\n1, 1, 5.\n*NODE PRINT, NSET=N, TIME POINTS=TP\nU\n"
      "*OUTPUT, HISTORY, TIME POINTS=TP\n*NODE OUTPUT, NSET=N\nU\n*END STEP\n");
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/s.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const auto printed = printed_u1(read_file(dir + "/out/s.dat"));
  const double times[] = {0.4, 0.6, 0.9, 1.0};
  ASSERT_EQ(printed.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_NEAR(printed[i].first, times[i], 1e-12);
    EXPECT_NEAR(printed[i].second, 0.05 * times[i], 1e-12);
  }
  const Csv h = read_csv(dir + "/out/history/N.csv");
  std::vector<double> rows;
  for (const auto& r : h.rows)
    if (r[0] > 0) {
      rows.push_back(r[0]);
      EXPECT_NEAR(r[static_cast<std::size_t>(h.col("U1"))], 0.05 * r[0], 1e-12);
    }
  ASSERT_EQ(rows.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(rows[i], times[i], 1e-12);
}

// TIME=TOTAL TIME (the peer's): the second step (analysis time 1 to 2, the load from 5 to 10)
// prints at analysis time 1.5, its step time 0.5: u = 7.5 / 100; the first step's time
// points (0.25 in total time) print there too.
TEST(TimePoints, TotalTimePointsFallInTheirSteps) {
  const std::string dir = scratch_dir("time_points_total");
  std::ofstream(dir + "/s.inp") << spring_deck(
      ", TIME=TOTAL TIME", "1.5, 0.25",
      "*STEP\n*STATIC\n1., 1.\n*CLOAD\n1, 1, 5.\n*NODE PRINT, NSET=N, TIME POINTS=TP\nU\n*END STEP\n"
      "*STEP\n*STATIC\n1., 1.\n*CLOAD\n1, 1, 10.\n*NODE PRINT, NSET=N, TIME POINTS=TP\nU\n*END STEP\n");
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/s.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const auto printed = printed_u1(read_file(dir + "/out/s.dat"));
  ASSERT_EQ(printed.size(), 4u);
  const double u[] = {0.05 * 0.25, 0.05, 0.075, 0.1};
  for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(printed[i].second, u[i], 1e-12) << i;
}

// A mass m = 2 on the spring, its mode found by a frequency step, then a modal dynamic step
// of increments h = 0.1 under F = 3 applied at once: the points 0.25 and 0.55 lie between the
// grid's instants; the modal step's exact propagator gives (F / k)(1 - cos w t) there, and the
// grid's other instants (0.1, 0.2, ...) keep their own increments.
TEST(TimePoints, ModalStepsEndIncrementsOnThePoints) {
  const std::string dir = scratch_dir("time_points_modal");
  std::string deck = spring_deck(
      "", "0.25, 0.55",
      "*STEP\n*FREQUENCY\n1\n*END STEP\n*STEP\n*MODAL DYNAMIC\n0.1, 1.\n*CLOAD\n1, 1, 3.\n"
      "*NODE PRINT, NSET=N, TIME POINTS=TP\nU\n*OUTPUT, HISTORY, TIME POINTS=TP\n*NODE OUTPUT, NSET=N\nU\n*END STEP\n");
  deck.insert(deck.find("*BOUNDARY"), "*ELEMENT, TYPE=MASS, ELSET=PM\n2, 1\n*MASS, ELSET=PM\n2.\n");
  std::ofstream(dir + "/m.inp") << deck;
  std::string log;
  ASSERT_EQ(run_halfstep(dir + "/m.inp", dir + "/out", "--backend cpu", &log), 0) << log;
  const auto printed = printed_u1(read_file(dir + "/out/m.dat"));
  const double w = std::sqrt(100.0 / 2.0);
  const double times[] = {0.25, 0.55, 1.0};
  ASSERT_EQ(printed.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {  // the table's 7 digits
    EXPECT_NEAR(printed[i].first, times[i], 1e-12);
    EXPECT_NEAR(printed[i].second, 0.03 * (1 - std::cos(w * times[i])), 1e-8) << times[i];
  }
  std::vector<std::pair<double, double>> rows;  // the history's full precision
  const Csv h = read_csv(dir + "/out/history/N.csv");
  for (const auto& r : h.rows)
    if (r[0] > 0) rows.emplace_back(r[0], r[static_cast<std::size_t>(h.col("U1"))]);
  ASSERT_EQ(rows.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_NEAR(rows[i].first, times[i], 1e-12);
    EXPECT_NEAR(rows[i].second, 0.03 * (1 - std::cos(w * times[i])), 1e-13) << times[i];
  }
}

}  // namespace
}  // namespace halfstep::test
