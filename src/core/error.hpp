// Error types that carry where in the user's input a problem was found.
#pragma once

#include <stdexcept>
#include <string>

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

/// Bad user input (deck, options): reported as "file:line: error: message", exit code 2.
class InputError : public std::runtime_error {
 public:
  InputError(const SourceLoc& loc, const std::string& msg)
      : std::runtime_error(printable(loc.file.empty() ? msg : loc.str() + ": error: " + msg)), loc_(loc) {}
  const SourceLoc& where() const { return loc_; }

 private:
  SourceLoc loc_;
};

/// The run itself failed (instability, NaN, energy balance): exit code 3.
class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace halfstep
