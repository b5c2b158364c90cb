// The locality renumbering on one thread and on several gives the same model (issue 21: the
// keys, the sort, the permutations and the connectivity run on every core), and the Hilbert
// index's interleave by masks equals the bit-by-bit one it replaced.
#include <gtest/gtest.h>
#include <omp.h>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "../shuffled_block.hpp"
#include "io/inp_reader.hpp"
#include "model/renumber.hpp"

namespace halfstep {
namespace {

/// The Hilbert index as it was first written: Skilling's transform, then the bits
/// interleaved one at a time, most significant first.
std::uint64_t hilbert_index_bitwise(std::uint32_t x, std::uint32_t y, std::uint32_t z, int bits) {
  std::uint32_t X[3] = {x, y, z};
  for (int b = bits - 1; b > 0; --b) {
    const std::uint32_t p = (1u << b) - 1;
    for (int i = 0; i < 3; ++i) {
      const std::uint32_t set = 0u - ((X[i] >> b) & 1u);
      const std::uint32_t t = (X[0] ^ X[i]) & p & ~set;
      X[0] ^= (p & set) | t;
      X[i] ^= t;
    }
  }
  for (int i = 1; i < 3; ++i) X[i] ^= X[i - 1];
  std::uint32_t t = 0;
  for (int b = bits - 1; b > 0; --b) t ^= ((1u << b) - 1) & (0u - ((X[2] >> b) & 1u));
  for (int i = 0; i < 3; ++i) X[i] ^= t;
  std::uint64_t key = 0;
  for (int b = bits - 1; b >= 0; --b)
    for (int i = 0; i < 3; ++i) key = (key << 1) | ((X[i] >> b) & 1u);
  return key;
}

TEST(RenumberThreads, HilbertInterleaveByMasksEqualsTheBitwiseOne) {
  std::mt19937 rng(11);
  for (int bits : {1, 2, 5, 13, 20, 21})
    for (int k = 0; k < 20000; ++k) {
      const std::uint32_t mask = (1u << bits) - 1;
      const std::uint32_t x = rng() & mask, y = rng() & mask, z = rng() & mask;
      ASSERT_EQ(hilbert_index(x, y, z, bits), hilbert_index_bitwise(x, y, z, bits)) << bits << " " << x << " " << y << " " << z;
    }
  ASSERT_EQ(hilbert_index(2097151, 2097151, 2097151, 21), hilbert_index_bitwise(2097151, 2097151, 2097151, 21));
}

/// A shuffled C3D8R block with a node set, an element set and a load naming its entities.
std::string block_deck(int nx, int ny, int nz, unsigned seed) {
  std::mt19937 rng(seed);
  const test::ShuffledBlock blk = test::shuffled_block_mesh(nx, ny, nz, 0.5, rng, 1, 2, 1);
  std::ostringstream d;
  d << blk.mesh;
  d << "*NSET, NSET=FIXED\n";
  for (int j = 0; j <= ny; ++j)
    for (int k = 0; k <= nz; ++k) d << blk.node(0, j, k) << "\n";
  d << "*ELSET, ELSET=TOP\n";
  for (int i = 0; i < nx; ++i) d << blk.element(i, ny - 1, nz - 1) << "\n";
  d << "*MATERIAL, NAME=STEEL\n*ELASTIC\n1000., 0.3\n*DENSITY\n1.\n";
  d << "*SOLID SECTION, ELSET=BLOCK, MATERIAL=STEEL\n";
  d << "*STEP\n*DYNAMIC, EXPLICIT\n, 0.01\n*BOUNDARY\nFIXED, 1, 3\n*DLOAD\nTOP, P2, 0.25\n*END STEP\n";
  return d.str();
}

/// The model renumbered on `threads` OpenMP threads.
Model renumbered_on(const Model& deck, int threads) {
  const int before = omp_get_max_threads();
  omp_set_num_threads(threads);
  Model m = deck;
  renumber_for_locality(m);
  omp_set_num_threads(before);
  return m;
}

TEST(RenumberThreads, SameModelOnOneAndOnSeveralThreads) {
  // 40 x 30 x 12 = 14,400 elements: every threaded loop has work for several threads.
  const Model deck = read_inp_string(block_deck(40, 30, 12, 17), "block.inp");
  const Model one = renumbered_on(deck, 1);
  for (int threads : {2, 3, 4}) {
    SCOPED_TRACE(threads);
    const Model many = renumbered_on(deck, threads);
    EXPECT_EQ(one.renumbering.node_deck, many.renumbering.node_deck);
    EXPECT_EQ(one.renumbering.element_deck, many.renumbering.element_deck);
    EXPECT_EQ(one.renumbering.span_after, many.renumbering.span_after);
    EXPECT_EQ(one.nodes.id, many.nodes.id);
    EXPECT_EQ(one.nodes.x, many.nodes.x);
    EXPECT_EQ(one.nodes.y, many.nodes.y);
    EXPECT_EQ(one.nodes.z, many.nodes.z);
    EXPECT_EQ(one.elements.id, many.elements.id);
    EXPECT_EQ(one.elements.kind, many.elements.kind);
    EXPECT_EQ(one.elements.conn, many.elements.conn);
    EXPECT_EQ(one.elements.conn_ptr, many.elements.conn_ptr);
    EXPECT_EQ(one.nsets.at("FIXED").members, many.nsets.at("FIXED").members);
    EXPECT_EQ(one.elsets.at("TOP").members, many.elsets.at("TOP").members);
    for (int v = 0; v < many.nodes.size(); ++v) ASSERT_EQ(many.nodes.index.at(many.nodes.id[static_cast<std::size_t>(v)]), v);
  }
}

}  // namespace
}  // namespace halfstep
