// Tests of the greedy element coloring (src/parallel/element_coloring.hpp): a valid partition,
// no shared node within a color, the expected number of colors on simple meshes, and stable
// order of elements within a color.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "parallel/element_coloring.hpp"

namespace halfstep {
namespace {

/// Connectivity of an nx-by-ny grid of quads; node (i,j) = j*(nx+1)+i, corners counter-clockwise.
std::vector<int> grid_conn(int nx, int ny) {
  std::vector<int> conn;
  auto node = [nx](int i, int j) { return j * (nx + 1) + i; };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      conn.push_back(node(i, j));
      conn.push_back(node(i + 1, j));
      conn.push_back(node(i + 1, j + 1));
      conn.push_back(node(i, j + 1));
    }
  return conn;
}

/// A fan of n quads all sharing node 0 (the centre); each quad has 3 private nodes.
std::vector<int> fan_conn(int n, int* num_nodes) {
  std::vector<int> conn;
  int next = 1;
  for (int e = 0; e < n; ++e) {
    conn.push_back(0);
    conn.push_back(next++);
    conn.push_back(next++);
    conn.push_back(next++);
  }
  *num_nodes = next;
  return conn;
}

/// Checks that the coloring is a partition of the elements with no node shared in a color.
void expect_valid(const ElementColoring& c, const std::vector<int>& conn, int num_nodes) {
  const int ne = static_cast<int>(conn.size() / 4);
  ASSERT_GE(c.ptr.size(), 1u);
  EXPECT_EQ(c.ptr.front(), 0);
  EXPECT_EQ(c.ptr.back(), ne);
  ASSERT_EQ(static_cast<int>(c.elements.size()), ne);
  for (int k = 0; k < c.colors(); ++k) {
    EXPECT_LT(c.ptr[k], c.ptr[k + 1]) << "color " << k << " is empty";
  }
  std::vector<int> count(ne, 0);
  for (int e : c.elements) {
    ASSERT_GE(e, 0);
    ASSERT_LT(e, ne);
    ++count[e];
  }
  for (int e = 0; e < ne; ++e) EXPECT_EQ(count[e], 1) << "element " << e;
  for (int k = 0; k < c.colors(); ++k) {
    std::vector<int> owner(num_nodes, -1);
    for (int i = c.ptr[k]; i < c.ptr[k + 1]; ++i) {
      const int e = c.elements[i];
      std::set<int> nodes(conn.begin() + 4 * e, conn.begin() + 4 * e + 4);
      for (int n : nodes) {
        EXPECT_EQ(owner[n], -1) << "color " << k << ": elements " << owner[n] << " and " << e
                                << " share node " << n;
        owner[n] = e;
      }
    }
  }
}

TEST(ElementColoring, EmptyMeshHasNoColors) {
  const ElementColoring c = color_elements({}, 0);
  EXPECT_EQ(c.colors(), 0);
  EXPECT_TRUE(c.elements.empty());
  const ElementColoring c2 = color_elements({}, 5);  // nodes but no elements
  EXPECT_EQ(c2.colors(), 0);
  EXPECT_TRUE(c2.elements.empty());
}

TEST(ElementColoring, SingleElementHasOneColor) {
  const std::vector<int> conn = {0, 1, 2, 3};
  const ElementColoring c = color_elements(conn, 4);
  ASSERT_EQ(c.colors(), 1);
  EXPECT_EQ(c.ptr, (std::vector<int>{0, 1}));
  EXPECT_EQ(c.elements, (std::vector<int>{0}));
}

TEST(ElementColoring, DisjointElementsShareOneColor) {
  // Three quads with no node in common.
  const std::vector<int> conn = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const ElementColoring c = color_elements(conn, 12);
  ASSERT_EQ(c.colors(), 1);
  EXPECT_EQ(c.elements, (std::vector<int>{0, 1, 2}));
}

TEST(ElementColoring, StripOfQuadsAlternatesTwoColors) {
  // A 5 x 1 strip: neighbours share an edge, so the greedy order gives 0,1,0,1,0.
  const std::vector<int> conn = grid_conn(5, 1);
  const ElementColoring c = color_elements(conn, 12);
  expect_valid(c, conn, 12);
  ASSERT_EQ(c.colors(), 2);
  EXPECT_EQ(c.ptr, (std::vector<int>{0, 3, 5}));
  EXPECT_EQ(c.elements, (std::vector<int>{0, 2, 4, 1, 3}));
}

TEST(ElementColoring, StructuredGridGetsFourColors) {
  for (const auto& [nx, ny] : std::vector<std::pair<int, int>>{{2, 2}, {3, 3}, {4, 7}, {10, 10}, {17, 5}}) {
    SCOPED_TRACE(testing::Message() << nx << " x " << ny);
    const std::vector<int> conn = grid_conn(nx, ny);
    const int nn = (nx + 1) * (ny + 1);
    const ElementColoring c = color_elements(conn, nn);
    expect_valid(c, conn, nn);
    EXPECT_EQ(c.colors(), 4);
  }
}

TEST(ElementColoring, StructuredGridColorsFollowTheCheckerPattern) {
  // Greedy in row order: row 0 alternates colors 0/1, row 1 alternates 2/3, and so on.
  const int nx = 6, ny = 4;
  const std::vector<int> conn = grid_conn(nx, ny);
  const ElementColoring c = color_elements(conn, (nx + 1) * (ny + 1));
  ASSERT_EQ(c.colors(), 4);
  std::vector<int> color(nx * ny, -1);
  for (int k = 0; k < c.colors(); ++k)
    for (int i = c.ptr[k]; i < c.ptr[k + 1]; ++i) color[c.elements[i]] = k;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) EXPECT_EQ(color[j * nx + i], 2 * (j % 2) + (i % 2)) << "element (" << i << "," << j << ")";
}

TEST(ElementColoring, FanAroundOneNodeNeedsOneColorPerElement) {
  int nn = 0;
  const std::vector<int> conn = fan_conn(12, &nn);
  const ElementColoring c = color_elements(conn, nn);
  expect_valid(c, conn, nn);
  ASSERT_EQ(c.colors(), 12);
  for (int k = 0; k < 12; ++k) {
    EXPECT_EQ(c.ptr[k + 1] - c.ptr[k], 1);
    EXPECT_EQ(c.elements[c.ptr[k]], k);
  }
}

TEST(ElementColoring, ClosedFanOfQuadsSharingCentreAndEdges) {
  // 12 quads around node 0, neighbours also sharing a spoke node: still 12 colors.
  const int n = 12;
  std::vector<int> conn;
  // spoke nodes 1..n, outer nodes n+1..2n
  for (int e = 0; e < n; ++e) {
    const int a = 1 + e, b = 1 + (e + 1) % n, o = n + 1 + e;
    conn.insert(conn.end(), {0, a, o, b});
  }
  const ElementColoring c = color_elements(conn, 2 * n + 1);
  expect_valid(c, conn, 2 * n + 1);
  EXPECT_EQ(c.colors(), n);
}

TEST(ElementColoring, ElementsKeepTheirOrderWithinAColor) {
  // A shuffled-looking mesh: a grid whose element order is interleaved with unrelated quads.
  std::vector<int> conn = grid_conn(7, 5);
  const int base = 8 * 6;
  for (int k = 0; k < 9; ++k) conn.insert(conn.end(), {base + 4 * k, base + 4 * k + 1, base + 4 * k + 2, base + 4 * k + 3});
  // Extra elements sharing nodes with the grid in reverse order.
  for (int k = 0; k < 6; ++k) conn.insert(conn.end(), {47 - k, 40 - k, 10 + k, 3 + k});
  const int nn = base + 36;
  const ElementColoring c = color_elements(conn, nn);
  expect_valid(c, conn, nn);
  for (int k = 0; k < c.colors(); ++k)
    for (int i = c.ptr[k] + 1; i < c.ptr[k + 1]; ++i)
      EXPECT_LT(c.elements[i - 1], c.elements[i]) << "color " << k;
}

TEST(ElementColoring, GreedyTakesTheLowestFreeColor) {
  // e0 = {0,1,2,3}, e1 shares node 1 with e0 -> color 1, e2 shares node 5 with e1 only -> color 0,
  // e3 shares a node with e0 and with e1 -> color 2, e4 shares only with e2 -> color 1.
  const std::vector<int> conn = {
      0, 1, 2, 3,      // e0
      1, 4, 5, 6,      // e1
      5, 7, 8, 9,      // e2
      3, 6, 10, 11,    // e3
      9, 12, 13, 14,   // e4
  };
  const ElementColoring c = color_elements(conn, 15);
  expect_valid(c, conn, 15);
  ASSERT_EQ(c.colors(), 3);
  EXPECT_EQ(c.ptr, (std::vector<int>{0, 2, 4, 5}));
  EXPECT_EQ(c.elements, (std::vector<int>{0, 2, 1, 4, 3}));
}

TEST(ElementColoring, UnusedNodesDoNotMatter) {
  // Node numbers far above the used ones, and a mesh that uses only some nodes.
  const std::vector<int> conn = {100, 101, 102, 103, 103, 104, 105, 106};
  const ElementColoring c = color_elements(conn, 200);
  expect_valid(c, conn, 200);
  EXPECT_EQ(c.colors(), 2);
}

}  // namespace
}  // namespace halfstep
