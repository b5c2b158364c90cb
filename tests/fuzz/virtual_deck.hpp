// The path fuzzed decks are read under: a file in a folder that must not exist, so that
// *INCLUDE in a deck finds nothing to read (the fuzzers' inputs never reach the disk).
#pragma once

#include <filesystem>
#include <string>
#include <system_error>

#include "io/inp_reader.hpp"

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

/// The reader's bounds under the fuzzers: a NURBS patch refined to millions of points
/// (REFINE=28 on a 6 KB deck: 5.5 M points, 55 s and 11 GB in a release build; the fuzzer's
/// 10 s timeout a finding) is a large model, not a hang; 20,000 points a patch keep every
/// input within a second under ASan and still exercise the refinement and the limit's message.
inline halfstep::ReadLimits read_limits() {
  halfstep::ReadLimits l;
  l.max_patch_points = 20000;
  return l;
}

}  // namespace halfstep_fuzz
