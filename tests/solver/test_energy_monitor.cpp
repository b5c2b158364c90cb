// Tests of the running energy balance and stop flag (src/solver/energy_monitor.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "dynamics/energy_monitor.hpp"

namespace halfstep {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Sums {
  double s[kNumNodeSums] = {0, 0, 0, 0, 0, 0};
  Sums& kinetic(double v) { s[kKinetic] = v; return *this; }
  Sums& work(double prev, double next) { s[kWorkPrev] = prev; s[kWorkNext] = next; return *this; }
  Sums& damp(double prev, double next) { s[kDampPrev] = prev; s[kDampNext] = next; return *this; }
  Sums& nonfinite(double v) { s[kNonFinite] = v; return *this; }
  const double* data() const { return s; }
};

TEST(EnergyRecord, TotalIsKineticPlusInternalPlusDampingMinusWork) {
  EnergyRecord r;
  r.kinetic = 1.5;
  r.internal = 2.0;
  r.damping_work = 0.25;
  r.external_work = 3.0;
  EXPECT_DOUBLE_EQ(r.total(), 0.75);
}

TEST(EnergyMonitor, SampleFillsTheRecordAndFixesTotal0Once) {
  EnergyMonitor m;
  m.internal = 2.0;
  m.work = 1.0;
  m.damping = 0.5;
  monitor_sample(m, Sums().kinetic(3.0).work(0.25, 99.0).damp(0.125, 99.0).data(), 0.75);
  EXPECT_EQ(m.record.time, 0.75);
  EXPECT_EQ(m.record.kinetic, 3.0);
  EXPECT_EQ(m.record.internal, 2.0);
  EXPECT_EQ(m.record.external_work, 1.25);   // work + work of [t^(n-1/2), t^n]
  EXPECT_EQ(m.record.damping_work, 0.625);   // damping + damping of [t^(n-1/2), t^n]
  EXPECT_EQ(m.have_total0, 1);
  EXPECT_DOUBLE_EQ(m.total0, 3.0 + 2.0 + 0.625 - 1.25);
  const double total0 = m.total0;

  // A second sample updates the record but not total0.
  m.internal = 10.0;
  monitor_sample(m, Sums().kinetic(7.0).data(), 1.5);
  EXPECT_EQ(m.record.time, 1.5);
  EXPECT_EQ(m.record.kinetic, 7.0);
  EXPECT_EQ(m.record.internal, 10.0);
  EXPECT_EQ(m.record.external_work, 1.0);
  EXPECT_EQ(m.record.damping_work, 0.5);
  EXPECT_EQ(m.total0, total0);
  // Sampling changes nothing of the balance itself.
  EXPECT_EQ(m.work, 1.0);
  EXPECT_EQ(m.damping, 0.5);
  EXPECT_EQ(m.steps, 0);
  EXPECT_EQ(m.status, kRunning);
}

TEST(EnergyMonitor, CommitAccumulatesWorkDampingAndSteps) {
  EnergyMonitor m;
  for (int i = 0; i < 10; ++i) monitor_commit(m, Sums().kinetic(0.0).work(0.5, 0.25).damp(0.125, 0.0625).data(), i * 0.1);
  EXPECT_EQ(m.status, kRunning);
  EXPECT_EQ(m.steps, 10);
  EXPECT_DOUBLE_EQ(m.work, 7.5);
  EXPECT_DOUBLE_EQ(m.damping, 1.875);
  EXPECT_EQ(m.fail_step, 0);
}

// The bulk viscosity's power at each element pass dissipates over the interval since the
// previous pass: nothing at the first pass or at a repeated time, and it counts in the total.
TEST(EnergyMonitor, ViscousPowerIsIntegratedBetweenElementPasses) {
  EnergyMonitor m;
  monitor_element_pass(m, 1.0, 0.5, 0.0, 0.0, 4.0);  // the first pass: its interval starts here
  EXPECT_EQ(m.viscous, 0.0);
  monitor_element_pass(m, 1.0, 0.75, 0.0, 0.0, 2.0);
  EXPECT_DOUBLE_EQ(m.viscous, 0.5);
  monitor_element_pass(m, 1.0, 0.75, 0.0, 0.0, 8.0);  // the same instant again: nothing more
  EXPECT_DOUBLE_EQ(m.viscous, 0.5);
  monitor_element_pass(m, 1.0, 1.0, 0.0, 0.0, 1.0);
  EXPECT_DOUBLE_EQ(m.viscous, 0.75);
  monitor_sample(m, Sums().kinetic(2.0).data(), 1.0);
  EXPECT_DOUBLE_EQ(m.record.viscous_dissipation, 0.75);
  EXPECT_DOUBLE_EQ(m.record.total(), 2.0 + 1.0 + 0.75);
}

TEST(EnergyMonitor, ScaleIsTheLargestEnergySeen) {
  EnergyMonitor m;
  m.noise_energy = 1e-3;
  monitor_commit(m, Sums().data(), 0.0);
  EXPECT_DOUBLE_EQ(m.scale, 1e-3);
  monitor_commit(m, Sums().kinetic(4.0).data(), 0.1);
  EXPECT_DOUBLE_EQ(m.scale, 4.0);
  monitor_commit(m, Sums().kinetic(1.0).data(), 0.2);  // smaller energies keep the scale
  EXPECT_DOUBLE_EQ(m.scale, 4.0);
  m.internal = 6.0;
  monitor_commit(m, Sums().kinetic(1.0).data(), 0.3);
  EXPECT_DOUBLE_EQ(m.scale, 6.0);
  m.internal = 0.0;
  // |external work| counts too, also when negative.
  monitor_commit(m, Sums().work(-9.0, 0.0).data(), 0.4);
  EXPECT_DOUBLE_EQ(m.scale, 9.0);
  // So does |internal energy|: adhesion stores a negative energy.
  m.internal = -12.0;
  monitor_commit(m, Sums().data(), 0.5);
  EXPECT_DOUBLE_EQ(m.scale, 12.0);
}

TEST(EnergyMonitor, NaNKineticSumStopsWithNonFiniteNode) {
  EnergyMonitor m;
  for (int i = 0; i < 7; ++i) monitor_commit(m, Sums().kinetic(1.0).work(1.0, 1.0).data(), i * 0.1);
  ASSERT_EQ(m.steps, 7);
  const double work = m.work, damping = m.damping;
  monitor_commit(m, Sums().kinetic(kNaN).work(1.0, 1.0).damp(1.0, 1.0).data(), 0.7);
  EXPECT_EQ(m.status, kNonFiniteNode);
  EXPECT_EQ(m.fail_step, 8);
  EXPECT_DOUBLE_EQ(m.fail_time, 0.7);
  EXPECT_EQ(m.steps, 7);  // the failed increment is not committed
  EXPECT_EQ(m.work, work);
  EXPECT_EQ(m.damping, damping);
}

TEST(EnergyMonitor, InfiniteKineticSumStopsWithNonFiniteNode) {
  EnergyMonitor m;
  monitor_commit(m, Sums().kinetic(kInf).data(), 0.0);
  EXPECT_EQ(m.status, kNonFiniteNode);
  EXPECT_EQ(m.fail_step, 1);
  EXPECT_EQ(m.steps, 0);
}

TEST(EnergyMonitor, NonFiniteCountStopsWithNonFiniteNode) {
  EnergyMonitor m;
  for (int i = 0; i < 3; ++i) monitor_commit(m, Sums().kinetic(1.0).data(), i * 0.5);
  monitor_commit(m, Sums().kinetic(1.0).nonfinite(1.0).data(), 1.5);
  EXPECT_EQ(m.status, kNonFiniteNode);
  EXPECT_EQ(m.fail_step, 4);
  EXPECT_DOUBLE_EQ(m.fail_time, 1.5);
  EXPECT_EQ(m.steps, 3);
}

// A balance that is not a number cannot be judged: NaN compares false, so a NaN work sum
// (as a damaged restart's monitor carries) passed the drift test and the run "completed"
// over NaN energies (found by tests/fuzz/fuzz_restart.cpp).
TEST(EnergyMonitor, NonFiniteWorkStopsWithNonFiniteEnergy) {
  EnergyMonitor m;
  for (int i = 0; i < 3; ++i) monitor_commit(m, Sums().kinetic(1.0).data(), i * 0.5);
  m.work = kNaN;
  monitor_commit(m, Sums().kinetic(1.0).data(), 1.5);
  EXPECT_EQ(m.status, kNonFiniteEnergy);
  EXPECT_EQ(m.fail_step, 4);
  EXPECT_DOUBLE_EQ(m.fail_time, 1.5);
  EXPECT_EQ(m.steps, 3);
}

TEST(EnergyMonitor, InfiniteWorkOfTheIncrementOrNaNTotal0StopsWithNonFiniteEnergy) {
  EnergyMonitor m;
  monitor_commit(m, Sums().kinetic(1.0).work(kInf, 0.0).data(), 0.0);
  EXPECT_EQ(m.status, kNonFiniteEnergy);
  EnergyMonitor n;
  monitor_sample(n, Sums().kinetic(1.0).data(), 0.0);
  n.total0 = kNaN;
  monitor_commit(n, Sums().kinetic(1.0).data(), 0.0);
  EXPECT_EQ(n.status, kNonFiniteEnergy);
}

/// A monitor whose total0 is 1 (kinetic energy 1, nothing else), as after the first sample.
EnergyMonitor sampled_monitor() {
  EnergyMonitor m;
  monitor_sample(m, Sums().kinetic(1.0).data(), 0.0);
  EXPECT_DOUBLE_EQ(m.total0, 1.0);
  return m;
}

TEST(EnergyMonitor, DriftIsIgnoredDuringTheFirst100Steps) {
  EnergyMonitor m = sampled_monitor();
  // Kinetic energy 2: drift 1, far above 5 % of the scale 2.
  for (int i = 0; i <= 100; ++i) {
    monitor_commit(m, Sums().kinetic(2.0).data(), i * 1e-3);
    ASSERT_EQ(m.status, kRunning) << "commit " << i;
  }
  EXPECT_EQ(m.steps, 101);
  EXPECT_DOUBLE_EQ(m.max_drift, 1.0);  // the drift is still measured
}

TEST(EnergyMonitor, DriftAbove100StepsStops) {
  EnergyMonitor m = sampled_monitor();
  for (int i = 0; i <= 100; ++i) monitor_commit(m, Sums().kinetic(1.0).work(0.0, 0.0).data(), i * 1e-3);
  ASSERT_EQ(m.status, kRunning);
  ASSERT_EQ(m.steps, 101);
  EXPECT_DOUBLE_EQ(m.max_drift, 0.0);
  monitor_commit(m, Sums().kinetic(1.2).data(), 0.5);
  EXPECT_EQ(m.status, kEnergyDrift);
  EXPECT_EQ(m.fail_step, 101);
  EXPECT_DOUBLE_EQ(m.fail_time, 0.5);
  EXPECT_NEAR(m.fail_drift, 0.2, 1e-12);
  EXPECT_DOUBLE_EQ(m.fail_scale, 1.2);
  EXPECT_EQ(m.steps, 101);  // not committed
}

TEST(EnergyMonitor, DriftWithinToleranceKeepsRunning) {
  EnergyMonitor m = sampled_monitor();
  for (int i = 0; i < 300; ++i) monitor_commit(m, Sums().kinetic(1.04).data(), i * 1e-3);
  EXPECT_EQ(m.status, kRunning);
  EXPECT_EQ(m.steps, 300);
  EXPECT_NEAR(m.max_drift, 0.04, 1e-12);
}

TEST(EnergyMonitor, DriftToleranceIsAnOption) {
  EnergyMonitor m = sampled_monitor();
  m.tolerance = 0.01;
  for (int i = 0; i <= 100; ++i) monitor_commit(m, Sums().kinetic(1.0).data(), i * 1e-3);
  monitor_commit(m, Sums().kinetic(1.04).data(), 1.0);
  EXPECT_EQ(m.status, kEnergyDrift);
}

TEST(EnergyMonitor, NoiseEnergyFloorsTheScale) {
  EnergyMonitor m = sampled_monitor();
  m.noise_energy = 10.0;  // 5 % of 10 = 0.5 > drift 0.2
  for (int i = 0; i < 200; ++i) monitor_commit(m, Sums().kinetic(1.2).data(), i * 1e-3);
  EXPECT_EQ(m.status, kRunning);
  EXPECT_DOUBLE_EQ(m.scale, 10.0);
}

TEST(EnergyMonitor, NoDriftCheckBeforeTheFirstSample) {
  EnergyMonitor m;
  for (int i = 0; i < 200; ++i) monitor_commit(m, Sums().kinetic(1.0 + i).data(), i * 1e-3);
  EXPECT_EQ(m.status, kRunning);
  EXPECT_EQ(m.steps, 200);
}

TEST(EnergyMonitor, BalancedWorkAndKineticEnergyDoNotDrift) {
  // A constant force doing work 1 per increment (half before, half after t^n), all of which
  // becomes kinetic energy: total = K - W stays 0.
  EnergyMonitor m;
  monitor_sample(m, Sums().kinetic(0.5).work(0.5, 0.5).data(), 0.0);
  EXPECT_DOUBLE_EQ(m.total0, 0.0);
  for (int k = 0; k < 500; ++k) {
    monitor_commit(m, Sums().kinetic(k + 0.5).work(0.5, 0.5).data(), k * 1e-3);
    ASSERT_EQ(m.status, kRunning) << k;
  }
  EXPECT_DOUBLE_EQ(m.work, 500.0);
  EXPECT_DOUBLE_EQ(m.max_drift, 0.0);
  // Damping work also balances: kinetic energy lost to damping.
  EnergyMonitor d;
  d.internal = 0;
  monitor_sample(d, Sums().kinetic(1000.0).data(), 0.0);
  for (int k = 0; k < 300; ++k) {
    // Damping work up to t^n is k + 0.5 (committed damping + damp prev); K = 1000 - that.
    monitor_commit(d, Sums().kinetic(1000.0 - (k + 0.5)).damp(0.5, 0.5).data(), k * 1e-3);
    ASSERT_EQ(d.status, kRunning) << k;
  }
  EXPECT_DOUBLE_EQ(d.damping, 300.0);
  EXPECT_NEAR(d.max_drift, 0.0, 1e-9);
}

TEST(EnergyMonitor, CommitsAfterAFailureChangeNothing) {
  EnergyMonitor m = sampled_monitor();
  for (int i = 0; i < 5; ++i) monitor_commit(m, Sums().kinetic(1.0).work(0.1, 0.1).data(), i * 1e-3);
  monitor_commit(m, Sums().kinetic(kNaN).data(), 0.005);
  ASSERT_EQ(m.status, kNonFiniteNode);
  const EnergyMonitor before = m;
  for (int i = 0; i < 200; ++i) monitor_commit(m, Sums().kinetic(5.0).work(1.0, 1.0).damp(1.0, 1.0).nonfinite(i % 2).data(), 1.0 + i);
  EXPECT_EQ(m.status, kNonFiniteNode);
  EXPECT_EQ(m.steps, before.steps);
  EXPECT_EQ(m.fail_step, before.fail_step);
  EXPECT_EQ(m.fail_time, before.fail_time);
  EXPECT_EQ(m.work, before.work);
  EXPECT_EQ(m.damping, before.damping);
  EXPECT_EQ(m.scale, before.scale);
  EXPECT_EQ(m.max_drift, before.max_drift);
}

TEST(EnergyMonitor, CommitsAfterDriftChangeNothing) {
  EnergyMonitor m = sampled_monitor();
  for (int i = 0; i <= 100; ++i) monitor_commit(m, Sums().kinetic(1.0).data(), i * 1e-3);
  monitor_commit(m, Sums().kinetic(3.0).data(), 0.2);
  ASSERT_EQ(m.status, kEnergyDrift);
  const EnergyMonitor before = m;
  monitor_commit(m, Sums().kinetic(kNaN).data(), 0.3);  // would be a node failure
  monitor_commit(m, Sums().kinetic(1.0).work(2.0, 2.0).data(), 0.4);
  EXPECT_EQ(m.status, kEnergyDrift);
  EXPECT_EQ(m.fail_step, before.fail_step);
  EXPECT_EQ(m.fail_time, before.fail_time);
  EXPECT_EQ(m.fail_drift, before.fail_drift);
  EXPECT_EQ(m.steps, before.steps);
  EXPECT_EQ(m.work, before.work);
}

TEST(EnergyMonitor, ElementPassStoresTheStrainEnergy) {
  EnergyMonitor m;
  monitor_element_pass(m, 12.5, 0.1);
  EXPECT_EQ(m.internal, 12.5);
  EXPECT_EQ(m.status, kRunning);
}

TEST(EnergyMonitor, NaNElementEnergyStopsWithNonFiniteElement) {
  EnergyMonitor m;
  for (int i = 0; i < 4; ++i) monitor_commit(m, Sums().kinetic(1.0).data(), i * 0.1);
  monitor_element_pass(m, kNaN, 0.4);
  EXPECT_EQ(m.status, kNonFiniteElement);
  EXPECT_EQ(m.fail_step, 4);
  EXPECT_DOUBLE_EQ(m.fail_time, 0.4);
  // Later commits are ignored.
  monitor_commit(m, Sums().kinetic(1.0).work(1.0, 1.0).data(), 0.5);
  EXPECT_EQ(m.steps, 4);
  EXPECT_EQ(m.status, kNonFiniteElement);
}

TEST(EnergyMonitor, InfiniteElementEnergyStopsWithNonFiniteElement) {
  EnergyMonitor m;
  monitor_element_pass(m, -kInf, 0.0);
  EXPECT_EQ(m.status, kNonFiniteElement);
}

TEST(EnergyMonitor, ElementFailureDoesNotOverwriteAnEarlierFailure) {
  EnergyMonitor m;
  monitor_commit(m, Sums().kinetic(kNaN).data(), 0.25);
  ASSERT_EQ(m.status, kNonFiniteNode);
  monitor_element_pass(m, kNaN, 0.5);
  EXPECT_EQ(m.status, kNonFiniteNode);
  EXPECT_EQ(m.fail_step, 1);
  EXPECT_DOUBLE_EQ(m.fail_time, 0.25);
}

}  // namespace
}  // namespace halfstep
