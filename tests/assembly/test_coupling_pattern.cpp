// Coupling blocks added to an assembled matrix (src/assembly/csr_assembly.hpp, CouplingPattern:
// static contact's springs): the pattern grows only for entries it lacks, keeps the base
// matrix's values, and adds each block as T^T B T (a dependent dof through its terms' weights,
// a held dof left out), in both triangles or the upper one, against a dense sum.
#include <gtest/gtest.h>

#include <vector>

#include "assembly/csr_assembly.hpp"

namespace halfstep {
namespace {

/// Dense copy of a (both triangles as stored).
std::vector<double> dense(const CsrMatrix& a) {
  std::vector<double> d(static_cast<std::size_t>(a.rows) * a.rows, 0.0);
  for (int r = 0; r < a.rows; ++r)
    for (std::int64_t k = a.row_ptr[static_cast<std::size_t>(r)]; k < a.row_ptr[static_cast<std::size_t>(r) + 1]; ++k)
      d[static_cast<std::size_t>(r) * a.rows + a.col[static_cast<std::size_t>(k)]] += a.val[static_cast<std::size_t>(k)];
  return d;
}

/// A base map of 3 equations on dofs 0, 1, 4 (dof 2 a dependent of 0 and 1, dof 3 held), its
/// pattern the diagonal and (0, 1), and a matrix with values on it.
struct Base {
  CsrAssemblyMap map;
  DofCombinations combined;
  CsrMatrix a;
  explicit Base(bool upper) {
    map.equations = 3;
    map.equation = {0, 1, -1, -1, 2};
    map.upper = upper;
    CsrMatrix& p = map.pattern;
    p.rows = 3;
    if (upper) {
      p.row_ptr = {0, 2, 3, 4};
      p.col = {0, 1, 1, 2};
    } else {
      p.row_ptr = {0, 2, 4, 5};
      p.col = {0, 1, 0, 1, 2};
    }
    combined.dof = {2};
    combined.term_ptr = {0, 2};
    combined.term_eq = {0, 1};
    combined.term_weight = {0.25, 0.75};
    a = p;
    a.val = upper ? std::vector<double>{10, 1, 20, 30} : std::vector<double>{10, 1, 1, 20, 30};
  }
};

TEST(CouplingPattern, GrowsOnlyForNewEntriesAndAddsTtBT) {
  for (const bool upper : {false, true}) {
    Base b(upper);
    CouplingPattern grown(b.map, b.combined);
    CouplingBlocks blocks;
    // Block 1 couples dof 4 (eq 2) with dof 2 (the dependent) and dof 3 (held).
    const int d1[3] = {4, 2, 3};
    double* v1 = blocks.add(d1, 3);
    const double m1[9] = {2, -1, 5, -1, 4, 7, 5, 7, 9};
    for (int i = 0; i < 9; ++i) v1[i] = m1[i];
    // Block 2 on dofs 0 and 1 only: entries the base pattern has.
    const int d2[2] = {0, 1};
    double* v2 = blocks.add(d2, 2);
    const double m2[4] = {3, 1, 1, 6};
    for (int i = 0; i < 4; ++i) v2[i] = m2[i];
    EXPECT_TRUE(grown.grow(blocks));   // (2, 0) and (2, 1) are new
    EXPECT_FALSE(grown.grow(blocks));  // and now there
    const std::vector<double> got = dense(grown.add(b.a, blocks));
    // Expected: the base, plus T^T B T with T mapping dof 4 -> eq 2, dof 2 -> 0.25 eq 0 + 0.75 eq 1.
    std::vector<double> want = dense(b.a);
    const double w[2] = {0.25, 0.75};
    const auto add = [&](int r, int c, double v) {
      if (!upper || c >= r) want[static_cast<std::size_t>(r) * 3 + c] += v;
    };
    add(2, 2, 2);
    for (int k = 0; k < 2; ++k) {
      add(2, k, -1 * w[k]);
      add(k, 2, -1 * w[k]);
      for (int l = 0; l < 2; ++l) add(k, l, 4 * w[k] * w[l]);
    }
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 2; ++c) add(r, c, m2[2 * r + c]);
    for (std::size_t i = 0; i < want.size(); ++i) EXPECT_DOUBLE_EQ(got[i], want[i]) << "entry " << i << (upper ? " (upper)" : "");
    // Blocks gone: the grown pattern stays, holding the base values only.
    const std::vector<double> bare = dense(grown.add(b.a, CouplingBlocks{}));
    EXPECT_EQ(bare, dense(b.a));
  }
}

}  // namespace
}  // namespace halfstep
