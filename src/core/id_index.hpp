// Deck id -> position of a node or element. Decks number their nodes and elements nearly
// densely (1..n with gaps), so a plain array answers most lookups; a hash map with one heap
// node per entry cost the reader ~15 % of its time and ~50 bytes per node and per element.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

namespace halfstep {

/// Map from positive 64-bit ids to 0-based positions: ids up to a few times the count live in
/// an array, the rest (offset instance ids, huge labels) in a hash map.
class IdIndex {
 public:
  /// What find() returns: first is the id, second the position (-1 when absent, equal to end()).
  struct Hit {
    std::int64_t first = 0;
    int second = -1;
    const Hit* operator->() const { return this; }
    bool operator==(const Hit& o) const { return second == o.second; }
    bool operator!=(const Hit& o) const { return second != o.second; }
  };

  /// Position of id, or end().
  Hit find(std::int64_t id) const {
    if (id >= 0 && static_cast<std::uint64_t>(id) < dense_.size()) {
      // An id can sit in the hash map below the array's end: it went there before the array grew.
      const int p = dense_[static_cast<std::size_t>(id)];
      if (p >= 0 || sparse_.empty()) return Hit{id, p};
    }
    if (sparse_.empty()) return Hit{};
    const auto it = sparse_.find(id);
    return it == sparse_.end() ? Hit{} : Hit{id, it->second};
  }
  /// The not-found value of find().
  Hit end() const { return Hit{}; }
  /// 1 when id is present, else 0.
  std::size_t count(std::int64_t id) const { return find(id).second >= 0 ? 1 : 0; }
  /// Position of id; std::out_of_range when absent.
  int at(std::int64_t id) const {
    const Hit h = find(id);
    if (h.second < 0) throw std::out_of_range("IdIndex::at: no such id");
    return h.second;
  }
  /// Adds id -> position unless id is present; returns the entry and whether it was added.
  std::pair<Hit, bool> emplace(std::int64_t id, int position) {
    const Hit h = find(id);
    if (h.second >= 0) return {h, false};
    if (id >= 0 && static_cast<std::uint64_t>(id) < dense_limit()) {
      if (static_cast<std::size_t>(id) >= dense_.size())
        dense_.resize(std::max(static_cast<std::size_t>(id) + 1, dense_.size() + dense_.size() / 2), -1);
      dense_[static_cast<std::size_t>(id)] = position;
    } else {
      sparse_.emplace(id, position);
    }
    ++size_;
    return {Hit{id, position}, true};
  }
  /// Number of ids.
  std::size_t size() const { return size_; }
  /// Moves every id to position new_of[old position] (a renumbering: the ids stay, the
  /// positions they name change).
  void remap_positions(const std::vector<int>& new_of) {
    for (int& p : dense_)
      if (p >= 0) p = new_of[static_cast<std::size_t>(p)];
    for (auto& kv : sparse_) kv.second = new_of[static_cast<std::size_t>(kv.second)];
  }
  /// Forgets every id.
  void clear() {
    dense_.clear();
    sparse_.clear();
    size_ = 0;
  }
  /// Bytes held: the array and an estimate of the hash map's nodes and buckets.
  std::size_t bytes() const {
    return dense_.capacity() * sizeof(int) + sparse_.size() * (sizeof(std::pair<const std::int64_t, int>) + 2 * sizeof(void*)) +
           sparse_.bucket_count() * sizeof(void*);
  }

 private:
  // Ids below this go to the array: at most 4 array slots (16 bytes) per id held, never less
  // than 2^20 slots (4 MiB) so that small decks with scattered ids stay in the array.
  std::uint64_t dense_limit() const { return std::max<std::uint64_t>(4 * (size_ + 1), 1u << 20); }

  std::vector<int> dense_;  ///< position by id, -1 for none
  std::unordered_map<std::int64_t, int> sparse_;
  std::size_t size_ = 0;
};

}  // namespace halfstep
