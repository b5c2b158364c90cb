// ParaView time series index (.pvd) that lists the .vtu frames of a run.
#pragma once

#include <string>

namespace halfstep {

/// Maintains <dir>/<job>.pvd, rewriting it atomically after each frame so that it always lists
/// complete frames only (open it in ParaView while the run goes on, or after a crash).
class PvdWriter {
 public:
  /// Writes an empty collection at once, replacing any index left by an earlier run, unless
  /// write_now is false (a resumed run: restore() rewrites it).
  PvdWriter(std::string dir, std::string job, bool write_now = true);

  /// Lists a frame whose .vtu (already fully written) is at dir/vtu_file; time must be finite.
  void add_frame(double time, const std::string& vtu_file_relative_to_dir);

  /// Full path of the .pvd file.
  const std::string& path() const { return path_; }
  /// Restart: the frame lines listed so far (entries()), and relisting exactly them.
  const std::string& entries() const { return entries_; }
  void restore(const std::string& entries) {
    entries_ = entries;
    rewrite();
  }

 private:
  void rewrite() const;

  std::string path_;
  std::string entries_;  // the DataSet lines written so far
};

}  // namespace halfstep
