// The loop primitive's thread choice and the default thread count.
#include <gtest/gtest.h>

#include <vector>

#include "core/forall.hpp"
#include "core/threads.hpp"

namespace halfstep {
namespace {

TEST(ThreadsFor, SmallLoopsStayOnOneThread) {
  EXPECT_EQ(threads_for(0, 8), 1);
  EXPECT_EQ(threads_for(16, 8), 1);
  EXPECT_EQ(threads_for(2 * kMinItemsPerThread - 1, 8), 1);
  EXPECT_EQ(threads_for(2 * kMinItemsPerThread, 8), 2);
  EXPECT_EQ(threads_for(100 * kMinItemsPerThread, 8), 8);
  EXPECT_EQ(threads_for(100 * kMinItemsPerThread, 0), 1);  // a bad request still gets a thread
}

TEST(Forall, VisitsEveryIndexOnceAndSums) {
  const int n = 5 * kMinItemsPerThread + 7;
  std::vector<int> hits(static_cast<std::size_t>(n), 0);
  forall(0, n, 4, [&](int i) { ++hits[static_cast<std::size_t>(i)]; });
  for (int h : hits) ASSERT_EQ(h, 1);
  double sum[2];
  forall_sum<2>(0, n, 4, [](int i, double* s) { s[0] += 1; s[1] += i; }, sum);
  EXPECT_EQ(sum[0], n);
  EXPECT_EQ(sum[1], 0.5 * n * (n - 1.0));
}

TEST(DefaultThreads, AtLeastOneAndNoMoreThanOpenMPOffers) {
  const int t = default_threads();
  EXPECT_GE(t, 1);
  EXPECT_LE(t, omp_get_max_threads());
  EXPECT_GE(cgroup_core_quota(), 0);
}

}  // namespace
}  // namespace halfstep
