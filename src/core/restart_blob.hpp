// The content of a restart file: named sections of bytes, serialized with a header and a
// checksum. The solver fills and reads it; the application writes and reads the file (the
// solver never sees a path), so the layers below io stay free of files.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace halfstep {

/// A restart file that cannot be used: truncated, corrupt, of another deck, build or backend.
/// Reported like bad input (exit 2): the user chose the file.
class RestartError : public InputError {
 public:
  RestartError(const std::string& file, const std::string& msg) : InputError(SourceLoc{file, 0}, msg) {}
};

/// hash64 of a stream that arrives in pieces: equal to hash64 of the pieces joined.
class Hasher64 {
 public:
  explicit Hasher64(std::uint64_t h = 0xcbf29ce484222325ull) : h_(h) {}
  /// Adds n more bytes.
  void update(const void* data, std::size_t n);
  /// The hash of everything added (the pending tail bytes counted byte by byte).
  std::uint64_t value() const;

 private:
  std::uint64_t h_;
  unsigned char tail_[8] = {};
  std::size_t pending_ = 0;  ///< bytes of an incomplete word in tail_
};

/// A 64-bit hash of n bytes, continuing from h (the restart file's checksum, the deck's and
/// the program's identity): FNV-1a's step over 8-byte little-endian words, the tail byte by
/// byte. Each step is a bijection of h, so any one changed word always changes the result;
/// words make it about 8x faster than byte-wise FNV-1a (the reader hashes every deck).
std::uint64_t hash64(const void* data, std::size_t n, std::uint64_t h = 0xcbf29ce484222325ull);

/// Named sections of bytes. Vectors and trivially copyable values go in and come out
/// unchanged bit for bit; get_* checks the size a section must have.
class RestartBlob {
 public:
  /// Stores n bytes under name (replacing an earlier section of that name).
  void put(const std::string& name, const void* data, std::size_t n) {
    Section& s = sections_[name];
    s.owned.assign(static_cast<const char*>(data), n);
    s.view = nullptr;
  }
  /// Stores bytes under name without copying them (another rank's part of a restart).
  void put_owned(const std::string& name, std::string&& bytes) {
    Section& s = sections_[name];
    s.owned = std::move(bytes);
    s.view = nullptr;
  }
  /// Names n bytes that stay where they are until the blob is written (a state array: a
  /// restart of a large model is not copied on its way to the file).
  void put_view(const std::string& name, const void* data, std::size_t n) {
    Section& s = sections_[name];
    s.owned.clear();
    s.view = static_cast<const char*>(data);
    s.view_size = n;
  }
  /// A vector's values as a view (see put_view).
  template <class T>
  void put_view(const std::string& name, const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    put_view(name, v.data(), v.size() * sizeof(T));
  }
  /// Stores a vector of trivially copyable values.
  template <class T>
  void put_vector(const std::string& name, const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    put(name, v.data(), v.size() * sizeof(T));
  }
  /// Stores one trivially copyable value.
  template <class T>
  void put_value(const std::string& name, const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    put(name, &v, sizeof(T));
  }
  /// Stores text.
  void put_text(const std::string& name, const std::string& s) { put(name, s.data(), s.size()); }

  /// True when the section exists.
  bool has(const std::string& name) const { return sections_.count(name) != 0; }
  /// The section's bytes; RestartError when it is missing.
  const std::string& bytes(const std::string& name) const;
  /// The section as a vector; RestartError when missing, or when expected_size >= 0 and the
  /// element count differs (a restart of another model).
  template <class T>
  void get_vector(const std::string& name, std::vector<T>& v, long long expected_size = -1) const {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::string& b = bytes(name);
    if (b.size() % sizeof(T) != 0) fail("section '" + name + "' has a size that is not a whole number of values");
    const std::size_t n = b.size() / sizeof(T);
    if (expected_size >= 0 && n != static_cast<std::size_t>(expected_size))
      fail("section '" + name + "' holds " + std::to_string(n) + " values where this model has " +
           std::to_string(expected_size) + " (a restart of another model?)");
    v.resize(n);
    if (n) std::memcpy(v.data(), b.data(), b.size());
  }
  /// get_vector for state values: also RestartError when one is not a finite number (a run
  /// stops before its state goes non-finite, so only a damaged file holds one; left in, it
  /// would come out as NaN in the results of a run that "completed").
  void get_finite_vector(const std::string& name, std::vector<double>& v, long long expected_size = -1) const {
    get_vector(name, v, expected_size);
    for (std::size_t i = 0; i < v.size(); ++i)
      if (!std::isfinite(v[i]))
        fail("section '" + name + "' holds a value that is not a finite number (value " + std::to_string(i) +
             "): the file was damaged");
  }
  /// The section as one value; RestartError when missing or of another size.
  template <class T>
  T get_value(const std::string& name) const {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::string& b = bytes(name);
    if (b.size() != sizeof(T)) fail("section '" + name + "' has the wrong size");
    T v;
    std::memcpy(&v, b.data(), sizeof(T));
    return v;
  }

  /// Hands the file's bytes to sink in pieces: magic, format version, the sections, and a
  /// checksum of all before it.
  void write(const std::function<void(const void*, std::size_t)>& sink) const;
  /// write()'s bytes in one string.
  std::string serialize() const;
  /// Reads serialize()'s bytes; file names the source in errors. RestartError when the bytes
  /// are not a restart file, of another format version, truncated or corrupt.
  static RestartBlob parse(const std::string& bytes, const std::string& file);

  /// A blob without sections whose errors name file (a rank's stand-in until its part arrives).
  static RestartBlob empty(const std::string& file) {
    RestartBlob b;
    b.file_ = file;
    return b;
  }
  /// The file errors name (set by parse).
  const std::string& file() const { return file_; }
  /// Throws RestartError naming the file.
  [[noreturn]] void fail(const std::string& msg) const { throw RestartError(file_, msg); }

 private:
  /// A section's bytes: owned, or a view of memory the caller keeps (put_view).
  struct Section {
    std::string owned;
    const char* view = nullptr;
    std::size_t view_size = 0;
  };
  std::map<std::string, Section> sections_;
  std::string file_ = "restart";
};

}  // namespace halfstep
