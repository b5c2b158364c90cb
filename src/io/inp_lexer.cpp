#include "io/inp_lexer.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/restart_blob.hpp"
#include "io/inp_text.hpp"

#if __has_include(<sys/mman.h>)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define HALFSTEP_HAVE_MMAP 1
#endif

namespace halfstep::inp {

namespace fs = std::filesystem;

/// An open file: its whole text (decks are read in one go: it is the fastest way to
/// scan them) and a cursor over its physical lines.
struct Lexer::Source {
  std::string_view text;  ///< the file's bytes: in owned or in map
  std::string owned;
  MappedFile map;
  std::size_t pos = 0;
  int line = 0;
  int file = -1;
  std::string identity;  ///< canonical path, to detect include cycles

  bool read(std::string_view& out) {
    if (pos >= text.size()) return false;
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    out = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line;
    return true;
  }
};

namespace {

constexpr int kMaxIncludeDepth = 64;
// Includes that are not cycles can still multiply: a file that includes the next one twice,
// 40 deep, would read 2^40 copies. Real decks include a few hundred files at most.
constexpr long long kMaxIncludes = 100000;
constexpr long long kMaxIncludedBytes = 64LL << 30;

bool read_whole_file(const std::string& name, std::string& text) {
  std::ifstream in(name, std::ios::binary | std::ios::ate);
  if (!in) return false;
  const std::streamoff size = in.tellg();
  if (size < 0) return false;
  text.resize(static_cast<std::size_t>(size));
  in.seekg(0);
  return size == 0 || static_cast<bool>(in.read(text.data(), size));
}

// A deck mapped, or else read, into memory: mapping spares the copy out of the page cache
// and the zeroing of a buffer as large as the deck (~20 % of reading a 100 MB deck).
bool load_file(const std::string& name, std::string& owned, MappedFile& map, std::string_view& text) {
  if (map.open(name)) {
    text = map.view();
    return true;
  }
  if (!read_whole_file(name, owned)) return false;
  text = owned;
  return true;
}

bool is_comment(std::string_view trimmed) { return trimmed.substr(0, 2) == "**"; }

// Binary files (results databases, archives, UTF-16 text) would otherwise produce a
// confusing parse error far into the file; looking at the first KiB is enough.
bool looks_binary(std::string_view text) {
  const std::size_t n = std::min<std::size_t>(text.size(), 1024);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v' && c != 0x1a)
      return true;
    if (c == 0x7f) return true;
  }
  return false;
}

std::string identity_of(const std::string& name) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::path(name), ec);
  if (ec) p = fs::absolute(fs::path(name), ec).lexically_normal();
  return p.string();
}

// Splits at commas that are not inside double quotes (quoted names may hold commas).
template <class F>
void split_unquoted(std::string_view s, F&& emit) {
  bool quoted = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '"')
      quoted = !quoted;
    else if (s[i] == ',' && !quoted) {
      emit(s.substr(start, i - start));
      start = i + 1;
    }
  }
  emit(s.substr(start));
}

std::string collapse_blanks_upper(std::string_view s) {
  std::string out;
  bool blank = false;
  for (char c : trim(s)) {
    if (c == ' ' || c == '\t') {
      blank = true;
      continue;
    }
    if (blank && !out.empty()) out.push_back(' ');
    blank = false;
    out.push_back((c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c);
  }
  return out;
}

void parse_keyword(std::string_view text, Keyword& kw) {
  kw.params.clear();
  bool first = true;
  split_unquoted(text, [&](std::string_view piece) {
    piece = trim(piece);
    if (first) {
      first = false;
      piece.remove_prefix(1);  // the '*'
      kw.name = squeeze_upper(piece);
      kw.display = "*" + collapse_blanks_upper(piece);
      return;
    }
    if (piece.empty()) return;
    Param p;
    const std::size_t eq = piece.find('=');
    if (eq == std::string_view::npos) {
      p.key = squeeze_upper(piece);
    } else {
      p.key = squeeze_upper(piece.substr(0, eq));
      p.value = std::string(unquote(trim(piece.substr(eq + 1))));
      p.has_value = true;
    }
    kw.params.push_back(std::move(p));
  });
}

}  // namespace

// A quoted name may hold commas in data lines too ("Right, Edge", 1, 6); lines without a
// quote (nearly all: node and element lines) take the plain loop.
void split_fields(std::string_view text, std::vector<std::string_view>& fields) {
  fields.clear();
  if (text.find('"') != std::string_view::npos) {
    split_unquoted(text, [&](std::string_view piece) { fields.push_back(trim(piece)); });
    while (!fields.empty() && fields.back().empty()) fields.pop_back();
    return;
  }
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) {
      fields.push_back(trim(text.substr(start)));
      break;
    }
    fields.push_back(trim(text.substr(start, comma - start)));
    start = comma + 1;
  }
  while (!fields.empty() && fields.back().empty()) fields.pop_back();
}

const Param* Keyword::find(std::string_view key) const {
  for (const Param& p : params)
    if (p.key == key) return &p;
  return nullptr;
}

MappedFile::~MappedFile() {
#ifdef HALFSTEP_HAVE_MMAP
  if (data_) munmap(data_, size_);
#endif
}

bool MappedFile::open(const std::string& path) {
#ifdef HALFSTEP_HAVE_MMAP
  // The whole deck is read: mapping its pages in one call costs less than a fault per page
  // (1 M-element deck, 2-core machine: read + check 0.64-0.85 s -> 0.56-0.63 s wall).
#ifdef MAP_POPULATE
  constexpr int kPopulate = MAP_POPULATE;
#else
  constexpr int kPopulate = 0;
#endif
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  void* p = MAP_FAILED;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    p = mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE | kPopulate, fd, 0);
  ::close(fd);  // the mapping keeps the file
  if (p == MAP_FAILED) return false;
  data_ = p;
  size_ = static_cast<std::size_t>(st.st_size);
  madvise(data_, size_, MADV_SEQUENTIAL);  // read once, front to back
  return true;
#else
  (void)path;
  return false;
#endif
}

Lexer::Lexer() = default;
Lexer::~Lexer() = default;

void Lexer::open_file(const std::string& path) {
  const SourceLoc where{path, 0};
  std::error_code ec;
  if (!fs::exists(path, ec)) throw InputError(where, "deck file not found");
  if (!fs::is_regular_file(path, ec)) throw InputError(where, "deck path is not a regular file");
  stack_.clear();
  names_.clear();
  reset_counts();
  auto s = std::make_unique<Source>();
  if (!load_file(path, s->owned, s->map, s->text)) throw InputError(where, "cannot read deck file");
  push(std::move(s), path);
}

void Lexer::reset_counts() {
  includes_ = included_bytes_ = 0;
  hash_ = hash64(nullptr, 0);
  bytes_ = 0;
  top_lines_ = 1;
}

void Lexer::open_text(std::string text, const std::string& virtual_path) {
  stack_.clear();
  names_.clear();
  reset_counts();
  auto s = std::make_unique<Source>();
  s->owned = std::move(text);
  s->text = s->owned;
  push(std::move(s), virtual_path);
}

void Lexer::include(std::string_view path, Pos at) {
  const SourceLoc where = loc(at);
  if (path.empty()) throw InputError(where, "*INCLUDE needs INPUT=<file>");
  if (stack_.size() >= static_cast<std::size_t>(kMaxIncludeDepth))
    throw InputError(where, "*INCLUDE nested more than 64 deep (include cycle?)");
  fs::path p(path);
  if (p.is_relative()) p = fs::path(names_[at.file]).parent_path() / p;
  const std::string name = p.lexically_normal().string();
  std::error_code ec;
  if (!fs::is_regular_file(name, ec))
    throw InputError(
        where, "*INCLUDE file '" + std::string(path) + "' not found (looked for " + name + ")");
  const std::string id = identity_of(name);
  for (const auto& s : stack_)
    if (s->identity == id)
      throw InputError(where, "include cycle: '" + std::string(path) +
                                  "' is already being read (it includes itself)");
  if (++includes_ > kMaxIncludes)
    throw InputError(where, "more than " + std::to_string(kMaxIncludes) +
                                " *INCLUDEs in one deck (files that include others several times?)");
  auto s = std::make_unique<Source>();
  if (!load_file(name, s->owned, s->map, s->text))
    throw InputError(where, "cannot read *INCLUDE file '" + name + "'");
  included_bytes_ += static_cast<long long>(s->text.size());
  if (included_bytes_ > kMaxIncludedBytes)
    throw InputError(where, "the *INCLUDEs of this deck add up to more than 64 GiB (files included many times?)");
  push(std::move(s), name);
}

void Lexer::push(std::unique_ptr<Source> s, const std::string& name) {
  const std::string_view text = s->text;
  s->file = static_cast<int>(names_.size());
  names_.push_back(name);
  if (looks_binary(text))
    throw InputError(SourceLoc{name, 1}, "file is not a text deck (binary data in its first KiB)");
  // A UTF-8 byte order mark would otherwise glue itself to the first keyword.
  if (text.substr(0, 3) == "\xEF\xBB\xBF") s->pos = 3;
  s->identity = identity_of(name);
  hash_ = hash64(text.data(), text.size(), hash_);
  bytes_ += text.size();
  stack_.push_back(std::move(s));
}

const std::string& Lexer::file_name(Pos p) const {
  static const std::string none;
  if (p.file < 0 || p.file >= static_cast<int>(names_.size())) return none;
  return names_[static_cast<std::size_t>(p.file)];
}

SourceLoc Lexer::loc(Pos p) const {
  if (p.file < 0 || p.file >= static_cast<int>(names_.size())) return SourceLoc{};
  return SourceLoc{names_[static_cast<std::size_t>(p.file)], p.line};
}

// A keyword line ending in a comma continues on the next non-comment line unless that line
// is a keyword (then the trailing comma just ends the line). Data lines are never joined
// here: a trailing comma there is an empty last field (Abaqus: "5, 1.5, 0.," is a node with
// z = 0), and an element whose nodes go on to the next line is completed by its node count
// in the *ELEMENT handler.
std::string_view Lexer::join_continuations(Source& s, std::string_view first) {
  if (first.back() != ',') return first;
  joined_.assign(first);
  while (joined_.back() == ',') {
    const std::size_t save_pos = s.pos;
    const int save_line = s.line;
    std::string_view raw, t;
    bool found = false;
    while (s.read(raw)) {
      t = trim(raw);
      if (t.empty() || is_comment(t)) continue;
      found = true;
      break;
    }
    if (!found || t.front() == '*') {
      s.pos = save_pos;
      s.line = save_line;
      break;
    }
    joined_.append(t);
  }
  return joined_;
}

bool Lexer::next(Line& line) {
  while (!stack_.empty()) {
    Source& s = *stack_.back();
    std::string_view raw;
    if (!s.read(raw)) {
      // The top-level deck's line count, for "missing X" errors at its end, comes free here
      // instead of from a pass over the whole text.
      if (stack_.size() == 1) top_lines_ = std::max(s.line, 1);
      stack_.pop_back();
      continue;
    }
    std::string_view t = trim(raw);
    if (t.empty() || is_comment(t)) continue;
    line.pos = Pos{s.file, s.line};
    if (t.front() == '*') t = join_continuations(s, t);
    line.is_keyword = t.front() == '*';
    if (line.is_keyword) {
      parse_keyword(t, line.keyword);
      line.keyword.pos = line.pos;
      line.fields.clear();
      line.text = {};
    } else {
      line.text = t;
      split_fields(t, line.fields);
    }
    return true;
  }
  return false;
}

}  // namespace halfstep::inp
