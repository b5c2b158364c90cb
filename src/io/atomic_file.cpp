#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace halfstep {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path, int err) {
  throw std::runtime_error(what + " '" + path + "': " + std::strerror(err));
}

// The directory holding path, for the fsync that makes a rename durable.
std::string parent_dir(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace

int write_all(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (w == 0) return EIO;  // no progress: give up rather than spin
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return 0;
}

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)), tmp_(path_ + ".tmp") {
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) fail("cannot create", tmp_, errno);
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) {
    ::close(fd_);
    ::unlink(tmp_.c_str());
  }
}

void AtomicFile::write(const void* data, std::size_t n) {
  if (fd_ < 0) throw std::logic_error("AtomicFile::write after commit: " + path_);
  if (const int err = write_all(fd_, data, n)) fail("cannot write", tmp_, err);
}

void AtomicFile::commit() {
  if (fd_ < 0) throw std::logic_error("AtomicFile::commit twice: " + path_);
  // Without the fsync the rename could reach the disk before the data, and a power loss
  // would leave an empty file under the final name.
  if (::fsync(fd_) != 0) fail("cannot sync", tmp_, errno);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp_.c_str());
    fail("cannot close", tmp_, err);
  }
  if (::rename(tmp_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp_.c_str());
    fail("cannot rename onto", path_, err);
  }
  // Best effort: some file systems refuse fsync on directories, and the data is safe anyway.
  const int dfd = ::open(parent_dir(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

void write_file_atomically(const std::string& path, std::string_view content) {
  AtomicFile f(path);
  f.write(content);
  f.commit();
}

void make_directories(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) {
    throw std::runtime_error("cannot create directory '" + path + "': " + ec.message());
  }
  // create_directories succeeds silently when path exists, even as a regular file.
  if (!std::filesystem::is_directory(path, ec)) {
    throw std::runtime_error("cannot create directory '" + path + "': a file of that name exists");
  }
}

}  // namespace halfstep
