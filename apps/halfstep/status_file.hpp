// A running job's status for batch use (docs/reliability.md, "Watching a run"): OUTDIR/<job>.sta,
// one line per status point and the outcome as its last line, like Abaqus's .sta; and, where
// stderr is not a terminal (a queue's log, nohup), a progress line on stderr every so often.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

#include "results/run_status.hpp"

namespace halfstep {

/// Writes <job>.sta and the periodic stderr line (rank 0 only).
///
/// Every line of the file is one record of kRecordBytes bytes (padded with spaces before its
/// newline) written with one write() to a file opened for appending: records never straddle a
/// 4 KiB page, and a file system shows appended bytes only once the write has copied them, so a
/// reader (tail -f, a script) sees whole lines only.
class StatusFile {
 public:
  static constexpr std::size_t kRecordBytes = 128;

  /// path: OUTDIR/<job>.sta, created (or, resuming, appended to) at the first line; stderr
  /// lines every progress_interval wall seconds (0: none). started: the process's start, which
  /// the wall times count from. resumed_from: the restart file ("" for a fresh run).
  StatusFile(std::string path, std::string job, double progress_interval, std::string resumed_from,
             std::chrono::steady_clock::time_point started);
  ~StatusFile();
  StatusFile(const StatusFile&) = delete;
  StatusFile& operator=(const StatusFile&) = delete;

  /// Adds the point's line (and the stderr line when one is due). Errors writing the status file
  /// are reported once on stderr and otherwise ignored: the run matters more than its status.
  void update(const StatusPoint& p);
  /// The last line: the run's outcome, as summary.json's status says it ("completed", "failed:
  /// reason", "interrupted by SIGINT at time t"). only_if_started: add it only to a file already
  /// begun (bad input found during set-up leaves no file).
  void finish(const std::string& outcome, bool only_if_started = false);
  /// The file's path.
  const std::string& path() const { return path_; }
  /// Whether the file has been begun.
  bool started() const { return fd_ >= 0; }

  /// The data line of a point, kRecordBytes - 1 characters at most (no newline); wall is the
  /// seconds since the start. Columns: step, increment, iterations (static), step time, total
  /// time, increment size, kinetic, internal, external work, energy error, wall, ETA; '-' is no value.
  static std::string format_line(const StatusPoint& p, double wall);
  /// The stderr progress line of a point (no newline).
  static std::string progress_line(const StatusPoint& p, double wall);

 private:
  bool open(bool warn = true);
  void append(std::string line);
  double wall() const;

  std::string path_, job_, resumed_from_;
  double interval_;
  std::chrono::steady_clock::time_point started_, last_progress_;
  int fd_ = -1;
  bool failed_ = false;  ///< a write failed (reported once)
  bool finished_ = false;
};

}  // namespace halfstep
