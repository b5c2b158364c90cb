#include "io/csv_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

#include "io/atomic_file.hpp"

namespace halfstep {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path, int err) {
  throw std::runtime_error(what + " '" + path + "': " + std::strerror(err));
}

void append_int(std::string& out, std::int64_t v) {
  char buf[24];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, res.ptr);
}

// Quotes a header cell only when it needs it, doubling embedded quotes (RFC 4180).
void append_csv_name(std::string& out, const std::string& name) {
  if (name.find_first_of(",\"\r\n") == std::string::npos) {
    out += name;
    return;
  }
  out += '"';
  for (const char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

}  // namespace

void append_csv_number(std::string& out, double v) {
  constexpr double kExactIntegers = 9007199254740992.0;  // 2^53: every integer below is a double
  if (std::isfinite(v) && v == std::trunc(v) && std::fabs(v) < kExactIntegers &&
      !(v == 0 && std::signbit(v))) {
    append_int(out, static_cast<std::int64_t>(v));
    return;
  }
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);  // shortest round-trip form
  out.append(buf, res.ptr);
}

Hasher64 check_prefix(const std::string& path, std::uint64_t size, std::uint64_t expected) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw RestartError(path, std::string("cannot read it to continue it after the restart (") + std::strerror(errno) +
                                 "): resume in the folder the restart was written in, or a whole copy of it");
  Hasher64 h;
  std::vector<char> buf(1 << 16);
  std::uint64_t left = size;
  while (left > 0) {
    const ssize_t got = ::read(fd, buf.data(), static_cast<std::size_t>(std::min<std::uint64_t>(left, buf.size())));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    h.update(buf.data(), static_cast<std::size_t>(got));
    left -= static_cast<std::uint64_t>(got);
  }
  ::close(fd);
  if (left > 0)
    throw RestartError(path, "it is shorter than at the restart point (" + std::to_string(size) +
                                 " bytes): it was changed after the restart file was written, or this folder holds "
                                 "another run's results");
  if (h.value() != expected)
    throw RestartError(path, "its first " + std::to_string(size) +
                                 " bytes are not those the restart recorded: this folder holds another run's results "
                                 "(or they were edited); resume in the folder the restart was written in, or a whole "
                                 "copy of it");
  return h;
}

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& columns, std::uint64_t size,
                     const Hasher64& prefix)
    : path_(path), n_columns_(columns.size()), hash_(prefix) {
  if (columns.empty()) throw std::invalid_argument("CsvWriter: no columns for '" + path + "'");
  fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd_ < 0) fail("cannot reopen (to continue it after a restart)", path, errno);
  // Rows written after the restart point are written again by the resumed run.
  if (::ftruncate(fd_, static_cast<off_t>(size)) != 0) {
    const int err = errno;
    ::close(fd_);
    fd_ = -1;
    fail("cannot cut back", path, err);
  }
}

std::uint64_t CsvWriter::size() const {
  const off_t at = fd_ >= 0 ? ::lseek(fd_, 0, SEEK_END) : -1;
  if (at < 0) fail("cannot tell the size of", path_, errno);
  return static_cast<std::uint64_t>(at);
}

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& columns)
    : path_(path), n_columns_(columns.size()) {
  if (columns.empty()) throw std::invalid_argument("CsvWriter: no columns for '" + path + "'");
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) fail("cannot create", path, errno);
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) row_ += ',';
    append_csv_name(row_, columns[i]);
  }
  row_ += '\n';
  if (const int err = write_all(fd_, row_.data(), row_.size())) {
    ::close(fd_);
    fd_ = -1;
    fail("cannot write", path, err);
  }
  hash_.update(row_.data(), row_.size());
}

CsvWriter::CsvWriter(CsvWriter&& other) noexcept
    : path_(std::move(other.path_)),
      n_columns_(other.n_columns_),
      fd_(std::exchange(other.fd_, -1)),
      row_(std::move(other.row_)),
      hash_(other.hash_) {}

CsvWriter& CsvWriter::operator=(CsvWriter&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(other.path_);
    n_columns_ = other.n_columns_;
    fd_ = std::exchange(other.fd_, -1);
    row_ = std::move(other.row_);
    hash_ = other.hash_;
  }
  return *this;
}

CsvWriter::~CsvWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void CsvWriter::close() {
  if (fd_ < 0) return;
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) fail("cannot close", path_, errno);
}

void CsvWriter::append_number(double v) {
  if (!row_.empty()) row_ += ',';
  append_csv_number(row_, v);
}

void CsvWriter::write_row(const double* values, std::size_t n) {
  row_.clear();
  for (std::size_t i = 0; i < n; ++i) append_number(values[i]);
  flush_row(n);
}

void CsvWriter::write_row(std::int64_t id, const double* values, std::size_t n) {
  row_.clear();
  append_int(row_, id);
  for (std::size_t i = 0; i < n; ++i) append_number(values[i]);
  flush_row(n + 1);
}

void CsvWriter::flush_row(std::size_t n_values) {
  if (n_values != n_columns_) {
    throw std::invalid_argument("CsvWriter: row of " + std::to_string(n_values) + " values for " +
                                std::to_string(n_columns_) + " columns in '" + path_ + "'");
  }
  if (fd_ < 0) throw std::logic_error("CsvWriter: write after close: " + path_);
  row_ += '\n';
  // One write() of the whole row: the file descriptor is unbuffered, so once it returns the row
  // is in the kernel and survives a kill of the process, and no reader ever sees half a row
  // written by us. A short write (disk full) is cut back off, best effort, so that the file
  // ends with its last whole row; the write's error is the one reported.
  const off_t before = ::lseek(fd_, 0, SEEK_END);
  if (const int err = write_all(fd_, row_.data(), row_.size())) {
    if (before >= 0 && ::ftruncate(fd_, before) != 0) errno = err;
    fail("cannot write", path_, err);
  }
  hash_.update(row_.data(), row_.size());
}

}  // namespace halfstep
