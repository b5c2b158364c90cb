// The path fuzzed decks are read under: a file in a folder that must not exist, so that
// *INCLUDE in a deck finds nothing to read (the fuzzers' inputs never reach the disk).
#pragma once

#include <filesystem>
#include <string>
#include <system_error>

namespace halfstep_fuzz {

/// The deck path; calls report(message), which must not return, when the folder exists
/// (includes could then escape into real files).
template <class Report>
std::string virtual_deck_path(Report&& report) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path dir = fs::temp_directory_path(ec);
  if (ec) dir = "/tmp";
  dir /= "halfstep-fuzz-no-such-folder-8c1f3e";
  if (fs::exists(dir, ec)) report(dir.string() + " exists; includes could escape, remove it");
  return (dir / "fuzz.inp").string();
}

}  // namespace halfstep_fuzz
