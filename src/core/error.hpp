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

/// Bad user input (deck, options): reported as "file:line: error: message", exit code 2.
class InputError : public std::runtime_error {
 public:
  InputError(const SourceLoc& loc, const std::string& msg)
      : std::runtime_error(loc.file.empty() ? msg : loc.str() + ": error: " + msg), loc_(loc) {}
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
