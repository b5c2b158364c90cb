// Reading a status file (OUTDIR/<job>.sta) in tests: whole 128-byte records, data lines of 12
// columns, the outcome last.
#pragma once

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "run_util.hpp"

namespace halfstep::test {

/// The lines of a status file, each checked to be one whole 128-byte record.
inline std::vector<std::string> status_lines(const std::string& path) {
  const std::string text = read_file(path);
  EXPECT_FALSE(text.empty()) << path;
  EXPECT_EQ(text.size() % 128, 0u) << path << " is not whole records";
  std::vector<std::string> lines;
  for (std::size_t at = 0; at + 128 <= text.size(); at += 128) {
    EXPECT_EQ(text[at + 127], '\n') << path << " record " << at / 128;
    std::string line = text.substr(at, 127);
    line.erase(line.find_last_not_of(' ') + 1);
    lines.push_back(line);
  }
  return lines;
}

/// A data line's 12 columns ('-': NaN); fails the test on anything else.
inline std::vector<double> columns(const std::string& line) {
  std::istringstream in(line);
  std::vector<double> v;
  std::string word;
  while (in >> word) {
    if (word == "-") {
      v.push_back(std::nan(""));
      continue;
    }
    std::size_t used = 0;
    v.push_back(std::stod(word, &used));
    EXPECT_EQ(used, word.size()) << "'" << word << "' in: " << line;
  }
  EXPECT_EQ(v.size(), 12u) << line;
  v.resize(12, std::nan(""));
  return v;
}

/// The columns of a data line.
enum Column { kStep, kIncrement, kIterations, kStepTime, kTotalTime, kDt, kKinetic, kInternal, kWork, kError, kWall, kEta };

/// The data lines (not '#' comments, not the outcome) as columns.
inline std::vector<std::vector<double>> data_of(const std::vector<std::string>& lines) {
  std::vector<std::vector<double>> rows;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i)
    if (!lines[i].empty() && lines[i][0] != '#') rows.push_back(columns(lines[i]));
  return rows;
}

}  // namespace halfstep::test
