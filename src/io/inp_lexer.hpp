// Splits deck files into logical keyword and data lines (comments dropped, keyword-line
// continuations joined), following *INCLUDE into other files.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace halfstep::inp {

/// Compact source position: an index into the lexer's file table and a 1-based line.
/// Kept small because the reader remembers one per set member while a deck is read.
struct Pos {
  int file = -1;
  int line = 0;
};

/// One parameter of a keyword line; key is upper-case without blanks, value as written
/// (trimmed, quotes removed) because file paths and names keep their case.
struct Param {
  std::string key, value;
  bool has_value = false;
};

/// A keyword line such as "*SHELL SECTION, ELSET=Plate, MATERIAL=Steel".
struct Keyword {
  std::string name;     ///< upper-case, blanks removed ("SHELLSECTION"): for matching
  std::string display;  ///< upper-case, blanks collapsed ("*SHELL SECTION"): for messages
  std::vector<Param> params;
  Pos pos;
  /// The parameter with this (squeezed upper-case) key, or nullptr.
  const Param* find(std::string_view key) const;
};

/// One logical line of a deck: a keyword line or a data line split at commas.
struct Line {
  bool is_keyword = false;
  Keyword keyword;                       ///< when is_keyword
  std::string_view text;                 ///< whole data line (one physical line)
  std::vector<std::string_view> fields;  ///< trimmed fields; trailing empty ones dropped
  Pos pos;                               ///< first physical line of the logical line
};

/// Splits a data line at commas outside double quotes into trimmed fields, trailing empty
/// fields dropped (the views point into text).
void split_fields(std::string_view text, std::vector<std::string_view>& fields);

/// A file mapped read-only into memory (POSIX mmap); empty when the file could not be mapped.
/// The mapping lives only while the deck is read (about a second per 150 MB); a deck cut short
/// by another program in that second would fault, as it would under any solver that maps it.
class MappedFile {
 public:
  MappedFile() = default;
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  /// Maps the file; false (and nothing held) for an empty file, a non-regular file or a failure.
  bool open(const std::string& path);
  /// The mapped bytes.
  std::string_view view() const { return {static_cast<const char*>(data_), size_}; }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

/// Reads logical lines from a stack of open files; views stay valid until the next call.
class Lexer {
 public:
  Lexer();
  ~Lexer();
  Lexer(const Lexer&) = delete;
  Lexer& operator=(const Lexer&) = delete;

  /// Starts reading the deck at path. Throws InputError if it cannot be read or is binary.
  void open_file(const std::string& path);
  /// Starts reading a deck held in memory; includes resolve relative to virtual_path's folder.
  void open_text(std::string text, const std::string& virtual_path);
  /// Continues in the file named by an *INCLUDE at `at` (relative to that file's folder)
  /// until it ends. Throws InputError at `at` for a missing file or an include cycle.
  void include(std::string_view path, Pos at);
  /// Reads the next logical line into line; false once the top-level deck has ended.
  bool next(Line& line);

  /// Full location of p for messages.
  SourceLoc loc(Pos p) const;
  /// Name of the file of p ("" when none): the reader stores it per node without a copy.
  const std::string& file_name(Pos p) const;
  /// Number of lines of the top-level deck (at least 1): where "missing X" errors point.
  int top_line_count() const { return top_lines_; }
  /// hash64 of every file read so far (the deck and its includes, in reading order):
  /// a restart names the deck by it.
  std::uint64_t source_hash() const { return hash_; }
  /// Bytes of every file read so far (the deck and its includes): reading speed is per byte.
  std::uint64_t source_bytes() const { return bytes_; }

 private:
  struct Source;
  void push(std::unique_ptr<Source> s, const std::string& name);
  void reset_counts();
  std::string_view join_continuations(Source& s, std::string_view first);

  std::vector<std::string> names_;              ///< file table, indexed by Pos::file
  std::vector<std::unique_ptr<Source>> stack_;  ///< innermost include last
  std::string joined_;                          ///< reused buffer for continued lines
  int top_lines_ = 1;
  long long includes_ = 0, included_bytes_ = 0;  ///< *INCLUDEs followed so far, and their bytes
  std::uint64_t hash_ = 0;                       ///< source_hash()
  std::uint64_t bytes_ = 0;                      ///< source_bytes()
};

}  // namespace halfstep::inp
