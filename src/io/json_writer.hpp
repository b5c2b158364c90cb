// Minimal JSON builder for summary.json: objects, arrays, strings, numbers, booleans, null.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace halfstep {

class JsonValue;

/// A JSON object whose members keep their insertion order (so summaries read top-down).
class JsonObject {
 public:
  /// Sets key to v (replacing an earlier value of the same key) and returns *this for chaining:
  /// JsonObject().add("steps", 1200).add("dt", 1e-7).add("solver", "explicit").
  JsonObject& add(const std::string& key, JsonValue v);

  /// Serializes with members on their own lines indented by indent spaces (indent <= 0: one line).
  /// Arrays of plain values stay on one line. Non-finite doubles come out as null.
  std::string dump(int indent = 2) const;

  bool empty() const { return keys_.empty(); }
  std::size_t size() const { return keys_.size(); }

 private:
  friend class JsonValue;
  void dump_to(std::string& out, int indent, int depth) const;

  std::vector<std::string> keys_;
  std::vector<JsonValue> values_;  // parallel to keys_
};

/// Any JSON value; converts implicitly from the C++ types a summary holds, so add() takes them all.
class JsonValue {
 public:
  enum class Kind { Null, Bool, Int, Double, String, Array, Object };

  JsonValue() = default;        ///< null
  JsonValue(std::nullptr_t) {}  ///< null
  JsonValue(bool b) : kind_(Kind::Bool), int_(b) {}
  /// Any integer type except bool (int, long, size_t, int64_t...), so none is ambiguous.
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  JsonValue(T i) : kind_(Kind::Int), int_(static_cast<std::int64_t>(i)) {}
  JsonValue(double d) : kind_(Kind::Double), double_(d) {}
  JsonValue(float d) : JsonValue(static_cast<double>(d)) {}
  JsonValue(std::string s) : kind_(Kind::String), string_(std::move(s)) {}
  JsonValue(std::string_view s) : kind_(Kind::String), string_(s) {}
  JsonValue(const char* s) : kind_(Kind::String), string_(s) {}  // else it would become a bool
  JsonValue(JsonObject o) : kind_(Kind::Object), object_(std::move(o)) {}
  JsonValue(std::vector<JsonValue> a) : kind_(Kind::Array), array_(std::move(a)) {}
  /// An array from a vector of anything convertible (numbers, strings, JsonObjects).
  template <class T, std::enable_if_t<!std::is_same_v<T, JsonValue>, int> = 0>
  JsonValue(const std::vector<T>& a) : kind_(Kind::Array) {
    array_.reserve(a.size());
    for (const T& x : a) array_.emplace_back(x);
  }

  Kind kind() const { return kind_; }

 private:
  friend class JsonObject;
  void dump_to(std::string& out, int indent, int depth) const;
  bool is_container() const { return kind_ == Kind::Array || kind_ == Kind::Object; }

  Kind kind_ = Kind::Null;
  std::int64_t int_ = 0;  // also holds Bool
  double double_ = 0;
  std::string string_;
  std::vector<JsonValue> array_;
  JsonObject object_;
};

/// Appends s to out as a quoted JSON string (quotes, backslashes and control characters escaped;
/// other bytes, UTF-8 included, pass through).
void append_json_string(std::string& out, std::string_view s);

}  // namespace halfstep
