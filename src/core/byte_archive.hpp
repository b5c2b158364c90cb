// A small binary archive for handing structures from one process to another of the same
// program (a distributed run's shares: parallel/run_share.hpp). Each structure has ONE field
// list, `template <class Ar> void serialize(Ar& ar, T& x) { ar(x.a, x.b, ...); }`, walked by
// the writer and by the reader alike, so the two directions cannot drift apart. Trivially
// copyable values (and vectors of them) travel as their bytes: both ends run the same binary.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace halfstep {

/// Bytes that do not hold what the reader expects (truncated, corrupt, of another build).
class ArchiveError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace archive_detail {

/// Whether a free serialize(Ar&, T&) is found for T (by argument-dependent lookup).
template <class Ar, class T, class = void>
struct has_serialize : std::false_type {};
template <class Ar, class T>
struct has_serialize<Ar, T, std::void_t<decltype(serialize(std::declval<Ar&>(), std::declval<T&>()))>>
    : std::true_type {};

/// Values that travel as their bytes: trivially copyable and without a field list of their own.
template <class Ar, class T>
constexpr bool kRaw = std::is_trivially_copyable_v<T> && !has_serialize<Ar, T>::value;

}  // namespace archive_detail

/// Walks the fields of values, writing (Derived::kReading false) or reading them; Derived
/// supplies bytes(p, n), which copies n bytes out of p or into p.
template <class Derived>
class ArchiveBase {
 public:
  /// Every argument in turn.
  template <class... T>
  void operator()(T&... values) {
    (field(values), ...);
  }

 private:
  Derived& self() { return static_cast<Derived&>(*this); }

  template <class T>
  void field(T& v) {
    if constexpr (archive_detail::kRaw<Derived, T>) {
      self().bytes(&v, sizeof(T));
    } else {
      static_assert(archive_detail::has_serialize<Derived, T>::value,
                    "no serialize(Archive&, T&) field list for this type (and it is not trivially copyable)");
      serialize(self(), v);
    }
  }
  void field(std::string& s) {
    std::uint64_t n = s.size();
    self().bytes(&n, sizeof n);
    if constexpr (Derived::kReading) s.resize(self().checked_count(n, 1));
    self().bytes(s.data(), s.size());
  }
  template <class T, class A>
  void field(std::vector<T, A>& v) {
    std::uint64_t n = v.size();
    self().bytes(&n, sizeof n);
    if constexpr (archive_detail::kRaw<Derived, T>) {
      if constexpr (Derived::kReading) v.resize(self().checked_count(n, sizeof(T)));
      self().bytes(v.data(), v.size() * sizeof(T));
    } else if constexpr (Derived::kReading) {
      // Each element takes at least one byte: a count beyond the bytes left is corrupt. The
      // elements are read one by one, not made up front: a corrupt count below that bound
      // then fails on the bytes it lacks instead of allocating count large elements (a flipped
      // byte in a 260 MB share asked for std::bad_alloc's worth of sections).
      const std::size_t count = self().checked_count(n, 1);
      v.clear();
      for (std::size_t i = 0; i < count; ++i) {
        v.emplace_back();
        field(v.back());
      }
    } else {
      for (T& x : v) field(x);
    }
  }
  template <class T>
  void field(std::optional<T>& o) {
    std::uint8_t has = o.has_value() ? 1 : 0;
    self().bytes(&has, 1);
    if constexpr (Derived::kReading) {
      if (has > 1) throw ArchiveError("archive corrupt: an optional's flag is " + std::to_string(has));
      if (has) o.emplace();
      else o.reset();
    }
    if (o) field(*o);
  }
  template <class K, class V, class C, class A>
  void field(std::map<K, V, C, A>& m) {
    std::uint64_t n = m.size();
    self().bytes(&n, sizeof n);
    if constexpr (Derived::kReading) {
      m.clear();
      const std::size_t count = self().checked_count(n, 1);
      for (std::size_t i = 0; i < count; ++i) {
        std::pair<K, V> kv;
        field(kv.first);
        field(kv.second);
        if (!m.emplace(std::move(kv)).second) throw ArchiveError("archive corrupt: a map key appears twice");
      }
    } else {
      for (auto& [k, v] : m) {
        K key = k;
        field(key);
        field(v);
      }
    }
  }
  template <class T, std::size_t N>
  void field(T (&a)[N]) {
    for (T& x : a) field(x);
  }
  template <class T, std::size_t N>
  void field(std::array<T, N>& a) {
    if constexpr (archive_detail::kRaw<Derived, T>) {
      self().bytes(a.data(), sizeof(T) * N);
    } else {
      for (T& x : a) field(x);
    }
  }
};

/// Appends values to a byte string.
class ArchiveWriter : public ArchiveBase<ArchiveWriter> {
 public:
  static constexpr bool kReading = false;
  /// Appends n bytes from p.
  void bytes(const void* p, std::size_t n) { out_.append(static_cast<const char*>(p), n); }
  /// Everything written so far.
  std::string& str() { return out_; }

 private:
  std::string out_;
};

/// Counts the bytes an ArchiveWriter would write, without writing them.
class ArchiveCounter : public ArchiveBase<ArchiveCounter> {
 public:
  static constexpr bool kReading = false;
  /// Counts n bytes.
  void bytes(const void*, std::size_t n) { count_ += n; }
  /// Bytes counted so far.
  std::uint64_t count() const { return count_; }

 private:
  std::uint64_t count_ = 0;
};

/// Reads values back in the order an ArchiveWriter wrote them; every read is bounds-checked
/// and a short or inconsistent input throws ArchiveError naming what it expected.
class ArchiveReader : public ArchiveBase<ArchiveReader> {
 public:
  static constexpr bool kReading = true;
  /// Reads from data (which must outlive the reader); what names the bytes in messages.
  ArchiveReader(const std::string& data, std::string what) : data_(data), what_(std::move(what)) {}
  /// Copies the next n bytes into p.
  void bytes(void* p, std::size_t n) {
    if (n > data_.size() - at_)
      throw ArchiveError(what_ + ": truncated (" + std::to_string(n) + " bytes wanted at byte " + std::to_string(at_) +
                         " of " + std::to_string(data_.size()) + ")");
    if (n > 0) std::memcpy(p, data_.data() + at_, n);
    at_ += n;
  }
  /// n items of at least `each` bytes, refused when the bytes left cannot hold them (so a
  /// corrupt count never allocates beyond the input's size).
  std::size_t checked_count(std::uint64_t n, std::size_t each) const {
    if (n > (data_.size() - at_) / each)
      throw ArchiveError(what_ + ": corrupt or truncated (a count of " + std::to_string(n) + " at byte " +
                         std::to_string(at_) + ", " + std::to_string(data_.size() - at_) + " bytes left)");
    return static_cast<std::size_t>(n);
  }
  /// Bytes of the whole input.
  std::size_t size() const { return data_.size(); }
  /// Throws ArchiveError naming the input and what is wrong (for checks of values read).
  [[noreturn]] void fail(const std::string& why) const { throw ArchiveError(what_ + ": corrupt (" + why + ")"); }
  /// Throws unless every byte was read (trailing bytes: written by another field list).
  void expect_end() const {
    if (at_ != data_.size())
      throw ArchiveError(what_ + ": " + std::to_string(data_.size() - at_) + " bytes left over after the last field");
  }

 private:
  const std::string& data_;
  std::string what_;
  std::size_t at_ = 0;
};

}  // namespace halfstep
