// The model's compact per-item lists (core/id_index.hpp, core/compact_lists.hpp): what they
// return must be what the std containers they replaced returned.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <unordered_map>

#include "core/compact_lists.hpp"
#include "core/id_index.hpp"

namespace halfstep {
namespace {

TEST(IdIndex, AgreesWithAHashMapOnDenseSparseAndNegativeIds) {
  IdIndex index;
  std::unordered_map<std::int64_t, int> reference;
  std::mt19937_64 rng(7);
  // Dense runs, ids that go to the hash map first and fall inside the array later, huge ids.
  std::vector<std::int64_t> ids;
  for (std::int64_t i = 1; i <= 3000; ++i) ids.push_back(i);
  for (int i = 0; i < 500; ++i) ids.push_back(static_cast<std::int64_t>(rng() % 8'000'000));
  for (int i = 0; i < 50; ++i) ids.push_back(static_cast<std::int64_t>(rng() >> 2));
  ids.push_back(std::numeric_limits<std::int64_t>::max());
  ids.push_back(-5);
  for (std::int64_t id : ids) {
    const auto [hit, added] = index.emplace(id, static_cast<int>(reference.size()));
    const auto [it, ref_added] = reference.emplace(id, static_cast<int>(reference.size()));
    ASSERT_EQ(added, ref_added) << id;
    ASSERT_EQ(hit->second, it->second) << id;
  }
  EXPECT_EQ(index.size(), reference.size());
  for (const auto& [id, pos] : reference) {
    ASSERT_EQ(index.at(id), pos) << id;
    ASSERT_EQ(index.count(id), 1u);
  }
  for (std::int64_t id : {std::int64_t{0}, std::int64_t{3001}, std::int64_t{9'000'000}, std::int64_t{-1}})
    if (!reference.count(id)) {
      EXPECT_TRUE(index.find(id) == index.end()) << id;
      EXPECT_EQ(index.count(id), 0u);
      EXPECT_THROW(index.at(id), std::out_of_range);
    }
}

TEST(IdIndex, MillionDenseIdsCostAnArrayNotAHashMap) {
  IdIndex index;
  for (int i = 0; i < 1'000'000; ++i) index.emplace(i + 1, i);
  EXPECT_LE(index.bytes(), 1'000'000u * 8);  // 4-byte slots, grown by half at a time
  EXPECT_EQ(index.at(1'000'000), 999'999);
}

TEST(InternedStrings, KeepsEveryItemAndOneCopyOfEachString) {
  InternedStrings s;
  const std::vector<std::string> items = {"S4R", "S4R", "C3D8R", "S4R", "a name longer than fifteen characters", "C3D8R"};
  for (const std::string& i : items) s.push_back(i);
  EXPECT_EQ(s.to_vector(), items);
  EXPECT_EQ(s.at(4), items[4]);
  EXPECT_THROW(s.at(6), std::out_of_range);
  EXPECT_EQ(s.code(0), s.code(3));
  EXPECT_NE(s.code(0), s.code(2));
  s.permute({5, 4, 3, 2, 1, 0});
  EXPECT_EQ(s.to_vector(), std::vector<std::string>(items.rbegin(), items.rend()));
}

TEST(SourceLocList, GivesBackTheFileAndLineOfEachItem) {
  SourceLocList l;
  const std::string deck = "/a/rather/long/path/to/the/model/deck.inp", part = "/a/rather/long/path/part.inp";
  l.push_back(deck, 10);
  l.push_back(part, 3);
  l.push_back(SourceLoc{deck, 12});
  l.push_back(SourceLoc{});
  ASSERT_EQ(l.size(), 4u);
  EXPECT_EQ(l[0].str(), deck + ":10");
  EXPECT_EQ(l[1].str(), part + ":3");
  EXPECT_EQ(l[2].str(), deck + ":12");
  EXPECT_EQ(l[3].file, "");
  EXPECT_EQ(l[3].line, 0);
  // Two files in the table, not one string per item: 8 bytes an item once there are many.
  for (int i = 0; i < 10000; ++i) l.push_back(i % 2 ? deck : part, i);
  EXPECT_LT(l.bytes(), 10004u * sizeof(SourceLoc) / 2);  // vectors grown by doubling: 8-16 bytes an item
  EXPECT_EQ(l[10003].str(), deck + ":9999");
  l = SourceLocList();
  l.push_back(deck, 10);
  l.push_back(part, 3);
  l.push_back(SourceLoc{deck, 12});
  l.permute({2, 0});
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l[0].line, 12);
  EXPECT_EQ(l[1].line, 10);
}

}  // namespace
}  // namespace halfstep
