// Tests of the element partition of distributed runs (src/parallel/partition.hpp): recursive
// coordinate bisection gives every part points, balances the weight to within one point's
// weight on regular grids, cuts normal to the longest side, is deterministic and refuses more
// parts than points; partition_elements applies it to a model's element centroids.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "elements/registry.hpp"
#include "parallel/partition.hpp"
#include "parallel_test_util.hpp"

namespace halfstep {
namespace {

using test::BlockDeck;

/// Points of an nx x ny x nz grid (spacing hx, hy, hz), x fastest.
struct Cloud {
  std::vector<double> x, y, z, w;
  int size() const { return static_cast<int>(x.size()); }
};

Cloud grid(int nx, int ny, int nz, double hx = 1, double hy = 1, double hz = 1) {
  Cloud c;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        c.x.push_back(hx * i);
        c.y.push_back(hy * j);
        c.z.push_back(hz * k);
        c.w.push_back(1.0);
      }
  return c;
}

std::vector<double> part_weights(const std::vector<int>& part, const std::vector<double>& w, int parts) {
  std::vector<double> sum(parts, 0.0);
  for (std::size_t i = 0; i < part.size(); ++i) {
    EXPECT_GE(part[i], 0) << "point " << i;
    EXPECT_LT(part[i], parts) << "point " << i;
    if (part[i] >= 0 && part[i] < parts) sum[part[i]] += w[i];
  }
  return sum;
}

/// Every part non-empty and within one (largest) point weight of the mean.
void expect_balanced(const std::vector<int>& part, const std::vector<double>& w, int parts) {
  ASSERT_EQ(part.size(), w.size());
  const std::vector<double> sum = part_weights(part, w, parts);
  std::vector<int> count(parts, 0);
  for (int p : part)
    if (p >= 0 && p < parts) ++count[p];
  const double total = std::accumulate(w.begin(), w.end(), 0.0);
  const double wmax = *std::max_element(w.begin(), w.end());
  for (int p = 0; p < parts; ++p) {
    EXPECT_GT(count[p], 0) << "part " << p << " of " << parts << " is empty";
    EXPECT_LE(std::fabs(sum[p] - total / parts), wmax * (1 + 1e-12))
        << "part " << p << " of " << parts << " has weight " << sum[p] << ", mean " << total / parts;
  }
}

TEST(Partition, RegularGridIsBalancedForTwoThreeFourAndSevenParts) {
  for (const auto& dims : std::vector<std::array<int, 3>>{{12, 8, 4}, {5, 5, 5}, {30, 1, 1}, {7, 3, 2}}) {
    const Cloud c = grid(dims[0], dims[1], dims[2]);
    for (int parts : {2, 3, 4, 7}) {
      SCOPED_TRACE(testing::Message() << dims[0] << " x " << dims[1] << " x " << dims[2] << ", " << parts << " parts");
      expect_balanced(recursive_coordinate_bisection(c.x, c.y, c.z, c.w, parts), c.w, parts);
    }
  }
}

TEST(Partition, UnequalWeightsAreBalancedWithinOneElementWeight) {
  // Element costs of every kind, repeated along a 16 x 6 x 3 grid.
  Cloud c = grid(16, 6, 3);
  const int nk = num_element_kinds();
  for (int i = 0; i < c.size(); ++i) c.w[i] = element_cost((i * 7) % nk);
  for (int parts : {2, 3, 4, 5, 7, 8}) {
    SCOPED_TRACE(testing::Message() << parts << " parts");
    expect_balanced(recursive_coordinate_bisection(c.x, c.y, c.z, c.w, parts), c.w, parts);
  }
}

TEST(Partition, TwoPartsCutNormalToTheLongestSide) {
  // A 10 x 4 x 2 grid stretched along each axis in turn: the two halves are separated by a
  // plane normal to that axis, and the lower coordinates go to part 0.
  for (int axis = 0; axis < 3; ++axis) {
    SCOPED_TRACE(testing::Message() << "long axis " << axis);
    const double h[3] = {axis == 0 ? 1.0 : 0.1, axis == 1 ? 1.0 : 0.1, axis == 2 ? 1.0 : 0.1};
    const Cloud c = grid(10, 4, 2, h[0], h[1], h[2]);
    // Long side: 9 h[axis] against at most 3 * 0.1.
    const std::vector<double>* coord[3] = {&c.x, &c.y, &c.z};
    const std::vector<int> part = recursive_coordinate_bisection(c.x, c.y, c.z, c.w, 2);
    double max0 = -1e300, min1 = 1e300;
    for (int i = 0; i < c.size(); ++i) {
      const double v = (*coord[axis])[i];
      if (part[i] == 0) max0 = std::max(max0, v);
      else min1 = std::min(min1, v);
    }
    EXPECT_LT(max0, min1);
    expect_balanced(part, c.w, 2);
  }
}

TEST(Partition, IsDeterministic) {
  Cloud c = grid(9, 7, 5);
  for (int i = 0; i < c.size(); ++i) c.w[i] = 1.0 + (i % 3) * 0.5;
  for (int parts : {2, 3, 4, 7}) {
    const std::vector<int> a = recursive_coordinate_bisection(c.x, c.y, c.z, c.w, parts);
    const std::vector<int> b = recursive_coordinate_bisection(c.x, c.y, c.z, c.w, parts);
    EXPECT_EQ(a, b) << parts << " parts";
  }
  // Coincident points (ties in every coordinate) are split by index: the first half of the
  // indices go to part 0.
  const std::vector<double> zero(6, 0.0), one(6, 1.0);
  EXPECT_EQ(recursive_coordinate_bisection(zero, zero, zero, one, 2), (std::vector<int>{0, 0, 0, 1, 1, 1}));
}

TEST(Partition, OnePartAndOnePointPerPart) {
  const Cloud c = grid(3, 2, 1);
  EXPECT_EQ(recursive_coordinate_bisection(c.x, c.y, c.z, c.w, 1), std::vector<int>(6, 0));
  std::vector<int> part = recursive_coordinate_bisection(c.x, c.y, c.z, c.w, 6);
  std::sort(part.begin(), part.end());
  EXPECT_EQ(part, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  // Very unequal weights still leave every part a point.
  std::vector<double> w(6, 1e-6);
  w[0] = 1e6;
  for (int parts : {2, 3, 4, 5, 6}) {
    const std::vector<int> p = recursive_coordinate_bisection(c.x, c.y, c.z, w, parts);
    std::vector<int> count(parts, 0);
    for (int q : p) ++count[q];
    for (int q = 0; q < parts; ++q) EXPECT_GT(count[q], 0) << "part " << q << " of " << parts;
  }
}

TEST(Partition, FewerPointsThanPartsThrows) {
  const Cloud c = grid(3, 1, 1);
  EXPECT_THROW(recursive_coordinate_bisection(c.x, c.y, c.z, c.w, 4), std::invalid_argument);
  EXPECT_THROW(recursive_coordinate_bisection({}, {}, {}, {}, 1), std::invalid_argument);
  EXPECT_THROW(recursive_coordinate_bisection(c.x, c.y, c.z, c.w, 0), std::invalid_argument);
  EXPECT_NO_THROW(recursive_coordinate_bisection(c.x, c.y, c.z, c.w, 3));
}

TEST(Partition, ElementCostsArePositive) {
  for (int kind = 0; kind < num_element_kinds(); ++kind) EXPECT_GT(element_cost(kind), 0.0);
  EXPECT_EQ(element_cost(find_element_kind("S4R")), 1.0);
}

TEST(PartitionElements, BarIsCutAlongItsLength) {
  // 8 x 2 x 2 C3D8R bar along x (cells 0.25): halves x < 1 and x > 1, then quarters.
  BlockDeck o;
  o.nx = 8;
  const Model m = test::block_model(o);
  ASSERT_EQ(m.elements.size(), 32);
  for (int parts : {2, 4}) {
    const std::vector<int> part = partition_elements(m, parts);
    ASSERT_EQ(part.size(), 32u);
    for (int e = 0; e < 32; ++e) {
      const int i = e % 8;  // cell index along x
      EXPECT_EQ(part[e], i / (8 / parts)) << parts << " parts, element " << m.elements.id[e];
    }
  }
}

TEST(PartitionElements, MixedShellsAndSolidsUseTheElementCosts) {
  // C3D8 block (cost 2.15) with an S4R plate (cost 1) on top: balanced by cost, not count.
  BlockDeck o;
  o.nx = 12;
  o.ny = 4;
  o.nz = 1;
  o.solid = "C3D8";
  o.plate = true;
  const Model m = test::block_model(o);
  const int ne = m.elements.size();
  ASSERT_EQ(ne, 96);
  std::vector<double> w(ne);
  for (int e = 0; e < ne; ++e) w[e] = element_cost(m.elements.kind[e]);
  for (int parts : {2, 3, 4, 7}) {
    SCOPED_TRACE(testing::Message() << parts << " parts");
    const std::vector<int> part = partition_elements(m, parts);
    ASSERT_EQ(static_cast<int>(part.size()), ne);
    expect_balanced(part, w, parts);
    EXPECT_EQ(part, partition_elements(m, parts));
  }
}

TEST(PartitionElements, MoreRanksThanElementsIsABadPartition) {
  BlockDeck o;
  o.nx = 2;
  o.ny = 1;
  o.nz = 1;
  const Model m = test::block_model(o);
  ASSERT_EQ(m.elements.size(), 2);
  EXPECT_NO_THROW(partition_elements(m, 2));
  try {
    partition_elements(m, 4);
    FAIL() << "4 parts of 2 elements were accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad partition"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace halfstep
