// Error types that carry where in the user's input a problem was found.
#pragma once

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>

namespace halfstep {

/// Location in an input file, used to point the user at the offending line.
struct SourceLoc {
  std::string file;
  int line = 0;
  /// "file:line" (or just file when the line is unknown).
  std::string str() const { return line > 0 ? file + ":" + std::to_string(line) : file; }
};

/// Returns text with control bytes (other than line breaks) and DEL written as \xNN: a message that
/// quotes a deck must not send its control characters to the user's terminal.
inline std::string printable(const std::string& text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && c != '\n') || c == 0x7f) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += ch;
    }
  }
  return out;
}

/// The longest run of non-blank characters a message echoes whole, and how much of a longer
/// one it keeps; a message line's limit, and the head and tail kept of a longer one.
constexpr std::size_t kEchoWhole = 256, kEchoKept = 64, kLineWhole = 4096, kLineHead = 2048, kLineTail = 1024;

namespace detail {
/// n, moved back to the start of a UTF-8 sequence (never between its bytes).
inline std::size_t char_boundary(const std::string& s, std::size_t n) {
  while (n > 0 && n < s.size() && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return n;
}
}  // namespace detail

/// Text with every run of more than kEchoWhole non-blank characters (a deck's field, name or
/// keyword quoted in a message: fuzzing echoed a 1 MiB field whole) cut to its first
/// kEchoKept and "... (N characters)", and every line still over kLineWhole characters (a
/// quoted name with blanks in it) cut to its head and tail around "... (N characters) ...".
inline std::string bounded(const std::string& text) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n'; };
  std::string out;
  out.reserve(std::min(text.size(), std::size_t{8192}));
  for (std::size_t i = 0; i < text.size();) {
    std::size_t j = i;
    while (j < text.size() && !blank(text[j])) ++j;
    if (j - i > kEchoWhole) {
      // The quotes and punctuation around the echoed text stay: 'XXX... (N characters)',
      std::size_t a = i, b = j;
      while (a < b && std::string_view("'\"(`").find(text[a]) != std::string_view::npos) ++a;
      while (b > a && std::string_view("'\")`,;:.").find(text[b - 1]) != std::string_view::npos) --b;
      out.append(text, i, a - i);
      out.append(text, a, detail::char_boundary(text, std::min(a + kEchoKept, b)) - a);
      out += "... (" + std::to_string(b - a) + " characters)";
      out.append(text, b, j - b);
    } else {
      out.append(text, i, j - i);
    }
    for (i = j; i < text.size() && blank(text[i]); ++i) out += text[i];
  }
  std::string lines;
  for (std::size_t i = 0; i <= out.size();) {
    std::size_t e = out.find('\n', i);
    if (e == std::string::npos) e = out.size();
    if (e - i > kLineWhole) {
      const std::size_t head = detail::char_boundary(out, i + kLineHead), tail = detail::char_boundary(out, e - kLineTail);
      lines.append(out, i, head - i);
      lines += "... (" + std::to_string(e - i) + " characters) ...";
      lines.append(out, tail, e - tail);
    } else {
      lines.append(out, i, e - i);
    }
    if (e < out.size()) lines += '\n';
    i = e + 1;
  }
  return lines;
}

/// Bad user input (deck, options): reported as "file:line: error: message", exit code 2.
class InputError : public std::runtime_error {
 public:
  InputError(const SourceLoc& loc, const std::string& msg)
      : std::runtime_error(printable(bounded(loc.file.empty() ? msg : loc.str() + ": error: " + msg))), loc_(loc) {}
  const SourceLoc& where() const { return loc_; }

 private:
  SourceLoc loc_;
};

/// The run itself failed (instability, NaN, energy balance): exit code 3. Its message may
/// quote the deck (a step's name), so it is bounded as InputError's.
class RunError : public std::runtime_error {
 public:
  explicit RunError(const std::string& msg) : std::runtime_error(printable(bounded(msg))) {}
  explicit RunError(const char* msg) : RunError(std::string(msg)) {}
};

}  // namespace halfstep
