// Time-history output (energies, node/element histories) as CSV that grows during a run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/restart_blob.hpp"

namespace halfstep {

/// Appends rows of numbers to a CSV file; each row goes out in one write() so that a crash or
/// kill leaves only whole rows for the reader. Numbers are written in the shortest form that
/// reads back bit for bit; integral values below 2^53 print as plain integers ("12", not "12.0"
/// or "1.2e+01"), so node ids and step counts stay integers.
class CsvWriter {
 public:
  /// Creates (truncates) path and writes the header line; throws std::runtime_error with the
  /// path and strerror on failure. Column names with commas or quotes are quoted (RFC 4180).
  CsvWriter(const std::string& path, const std::vector<std::string>& columns);
  /// Restart: continues path after cutting it back to its first `size` bytes (what an
  /// earlier run had written at its restart point), whose hash is `prefix` (check_prefix's);
  /// throws std::runtime_error naming the file when it cannot be reopened or cut.
  CsvWriter(const std::string& path, const std::vector<std::string>& columns, std::uint64_t size,
            const Hasher64& prefix);
  CsvWriter(CsvWriter&& other) noexcept;
  CsvWriter& operator=(CsvWriter&& other) noexcept;
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;
  ~CsvWriter();

  /// One row of exactly columns() values; throws std::invalid_argument otherwise.
  void write_row(const double* values, std::size_t n);
  void write_row(std::initializer_list<double> values) { write_row(values.begin(), values.size()); }
  void write_row(const std::vector<double>& values) { write_row(values.data(), values.size()); }
  /// A row led by an integer (a node or element id, a step number) and then n values.
  void write_row(std::int64_t id, const double* values, std::size_t n);

  /// Closes the file, reporting errors a destructor would have to swallow.
  void close();

  const std::string& path() const { return path_; }
  std::size_t columns() const { return n_columns_; }
  /// Bytes written to the file so far (header included): a restart point.
  std::uint64_t size() const;
  /// hash64 of those bytes (kept as they are written): a restart checks that the file it
  /// continues still begins with them.
  std::uint64_t content_hash() const { return hash_.value(); }

 private:
  void append_number(double v);
  void flush_row(std::size_t n_values);

  std::string path_;
  std::size_t n_columns_ = 0;
  int fd_ = -1;
  std::string row_;  // reused between rows to avoid an allocation per row
  Hasher64 hash_;    // of every byte in the file
};

/// Restart: the hash state of path's first `size` bytes, after checking that the file has
/// them and that they hash to `expected` (the bytes a restart recorded). Throws RestartError
/// naming path otherwise: the folder does not hold the results the restart continues.
Hasher64 check_prefix(const std::string& path, std::uint64_t size, std::uint64_t expected);

/// Formats v in the shortest text that strtod reads back exactly; integral values below 2^53
/// without exponent or fraction; non-finite values as nan, inf, -inf. Appends to out.
void append_csv_number(std::string& out, double v);

}  // namespace halfstep
