// Per-item lists that a model holds for millions of nodes and elements, stored compactly: a
// SourceLoc or a type name per item would cost 32-70 bytes and, for a file path longer than
// 15 characters, a heap block each (issue 21: the reader's memory per element is bounded).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace halfstep {

/// Strings drawn from a small set (file names, element type names), one per item, at 4 bytes
/// an item: an index into a table of the distinct strings.
class InternedStrings {
 public:
  /// Appends s, adding it to the table when new.
  void push_back(const std::string& s) { codes_.push_back(intern(s)); }
  /// The string of item i.
  const std::string& operator[](std::size_t i) const { return table_[static_cast<std::size_t>(codes_[i])]; }
  /// The string of item i, bounds-checked (std::out_of_range past the end).
  const std::string& at(std::size_t i) const { return table_.at(static_cast<std::size_t>(codes_.at(i))); }
  /// Table index of item i.
  int code(std::size_t i) const { return codes_[i]; }
  std::size_t size() const { return codes_.size(); }
  bool empty() const { return codes_.empty(); }
  void reserve(std::size_t n) { codes_.reserve(n); }
  /// Bytes held: the codes and the table.
  std::size_t bytes() const {
    std::size_t n = codes_.capacity() * sizeof(int);
    for (const std::string& s : table_) n += sizeof(std::string) + s.capacity();
    return n;
  }
  /// The items as strings (tests, small models).
  std::vector<std::string> to_vector() const {
    std::vector<std::string> v;
    v.reserve(size());
    for (std::size_t i = 0; i < size(); ++i) v.push_back((*this)[i]);
    return v;
  }
  /// Keeps items order[0], order[1], ... in that order (a renumbering).
  void permute(const std::vector<int>& order) {
    std::vector<int> c(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) c[i] = codes_[static_cast<std::size_t>(order[i])];
    codes_ = std::move(c);
  }

 private:
  // Table index of s, added when new (the last one added is checked first: items come in runs
  // of the same string).
  int intern(const std::string& s) {
    if (last_ >= 0 && table_[static_cast<std::size_t>(last_)] == s) return last_;
    for (std::size_t i = 0; i < table_.size(); ++i)
      if (table_[i] == s) return last_ = static_cast<int>(i);
    table_.push_back(s);
    return last_ = static_cast<int>(table_.size() - 1);
  }

  std::vector<std::string> table_;
  std::vector<int> codes_;
  int last_ = -1;
};

/// Source locations of many items (a model's nodes and elements) at 8 bytes an item: the file
/// as an index into a table of names, and the line. operator[] rebuilds the SourceLoc, which
/// only messages need.
class SourceLocList {
 public:
  void push_back(const SourceLoc& l) { push_back(l.file, l.line); }
  /// Appends file:line without building a SourceLoc (the reader's hot path).
  void push_back(const std::string& file, int line) {
    files_.push_back(file);
    lines_.push_back(line);
  }
  /// The location of item i.
  SourceLoc operator[](std::size_t i) const { return SourceLoc{files_[i], lines_[i]}; }
  std::size_t size() const { return lines_.size(); }
  bool empty() const { return lines_.empty(); }
  void reserve(std::size_t n) {
    files_.reserve(n);
    lines_.reserve(n);
  }
  /// Bytes held.
  std::size_t bytes() const { return files_.bytes() + lines_.capacity() * sizeof(int); }
  /// Keeps items order[0], order[1], ... in that order (a renumbering).
  void permute(const std::vector<int>& order) {
    files_.permute(order);
    std::vector<int> l(order.size());
    for (std::size_t i = 0; i < order.size(); ++i) l[i] = lines_[static_cast<std::size_t>(order[i])];
    lines_ = std::move(l);
  }

 private:
  InternedStrings files_;  ///< each item's file
  std::vector<int> lines_;
};

}  // namespace halfstep
