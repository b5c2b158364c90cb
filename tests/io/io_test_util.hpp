// Fixtures shared by the tests/io tests: a scratch folder and the smallest complete deck.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace halfstep::test {

/// A fresh folder under the test temp dir, removed with its contents at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = ::testing::TempDir() + "halfstep_io_XXXXXX";
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed: " + tmpl);
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string str() const { return path_.string(); }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  /// Writes text to a file below the folder (creating subfolders).
  void write(const std::string& rel, const std::string& text) const {
    const std::filesystem::path p = path_ / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  }
  /// Names of the files it holds, to check that no temporary file was left behind.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(path_)) names.push_back(e.path().filename());
    return names;
  }

 private:
  std::filesystem::path path_;
};

/// A 2 x 1 plate of S4R elements with everything a minimal valid model needs (no step).
inline const char* kPlateMesh = R"(*NODE, NSET=ALLN
1, 0, 0, 0
2, 1, 0, 0
3, 2, 0, 0
4, 0, 1, 0
5, 1, 1, 0
6, 2, 1, 0
*ELEMENT, TYPE=S4R, ELSET=PLATE
1, 1, 2, 5, 4
2, 2, 3, 6, 5
*MATERIAL, NAME=STEEL
*ELASTIC
210e9, 0.3
*DENSITY
7800
*SHELL SECTION, ELSET=PLATE, MATERIAL=STEEL
0.01
)";

/// One explicit step of 1e-3 with no loads.
inline const char* kPlateStep = R"(*STEP
*DYNAMIC, EXPLICIT
, 1e-3
*END STEP
)";

}  // namespace halfstep::test
