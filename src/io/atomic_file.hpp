// Whole-file output that is either absent, the previous version, or complete: never half-written.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace halfstep {

/// A file written to "<path>.tmp" and renamed over path by commit(), so that a crash or kill
/// mid-write leaves readers (ParaView, scripts) the old file or the new one, never a torn one.
/// Dropping it uncommitted (e.g. by an exception) removes the temporary file.
class AtomicFile {
 public:
  /// Creates (truncates) "<path>.tmp"; throws std::runtime_error naming the file and strerror.
  explicit AtomicFile(std::string path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  /// Appends n bytes; unbuffered, so pass large chunks.
  void write(const void* data, std::size_t n);
  void write(std::string_view s) { write(s.data(), s.size()); }

  /// fsyncs the data, renames it over path and fsyncs the directory so the rename itself survives
  /// a power loss. Throws std::runtime_error on failure (the old file, if any, stays intact).
  void commit();

  const std::string& path() const { return path_; }

 private:
  std::string path_, tmp_;
  int fd_ = -1;
};

/// Writes content to path via a temporary file and rename, so readers never see a partial file.
/// Throws std::runtime_error with the path and strerror on failure.
void write_file_atomically(const std::string& path, std::string_view content);

/// mkdir -p: creates path and its missing parents; an existing directory is fine.
/// Throws std::runtime_error naming the path and the reason.
void make_directories(const std::string& path);

/// write() the whole buffer to fd, retrying short writes and EINTR; returns 0 or the errno.
/// Shared by the CSV writer, whose rows must each go out in one piece.
int write_all(int fd, const void* data, std::size_t n);

}  // namespace halfstep
