#include "io/json_writer.hpp"

#include <charconv>
#include <cmath>

namespace halfstep {
namespace {

void newline(std::string& out, int indent, int depth) {
  if (indent <= 0) return;
  out += '\n';
  out.append(std::size_t(indent) * std::size_t(depth), ' ');
}

void append_double(std::string& out, double d) {
  if (!std::isfinite(d)) {
    out += "null";  // JSON has no NaN or infinity
    return;
  }
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, d);  // shortest round-trip form
  const std::string_view text(buf, std::size_t(res.ptr - buf));
  out += text;
  // Keep 2.0 a float for readers that type numbers by their spelling (Python's json).
  if (text.find_first_of(".e") == std::string_view::npos) out += ".0";
}

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  static const char* const kHex = "0123456789abcdef";
  out += '"';
  for (const char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += "\\u00";
          out += kHex[(c >> 4) & 0xf];
          out += kHex[c & 0xf];
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

JsonObject& JsonObject::add(const std::string& key, JsonValue v) {
  for (std::size_t i = 0; i < keys_.size(); ++i) {
    if (keys_[i] == key) {  // duplicate keys are legal JSON but readers disagree on which wins
      values_[i] = std::move(v);
      return *this;
    }
  }
  keys_.push_back(key);
  values_.push_back(std::move(v));
  return *this;
}

std::string JsonObject::dump(int indent) const {
  std::string out;
  dump_to(out, indent, 0);
  if (indent > 0) out += '\n';
  return out;
}

void JsonObject::dump_to(std::string& out, int indent, int depth) const {
  if (keys_.empty()) {
    out += "{}";
    return;
  }
  out += '{';
  for (std::size_t i = 0; i < keys_.size(); ++i) {
    if (i > 0) out += ',';
    newline(out, indent, depth + 1);
    append_json_string(out, keys_[i]);
    out += indent > 0 ? ": " : ":";
    values_[i].dump_to(out, indent, depth + 1);
  }
  newline(out, indent, depth);
  out += '}';
}

void JsonValue::dump_to(std::string& out, int indent, int depth) const {
  switch (kind_) {
    case Kind::Null:
      out += "null";
      break;
    case Kind::Bool:
      out += int_ ? "true" : "false";
      break;
    case Kind::Int: {
      char buf[24];
      const auto res = std::to_chars(buf, buf + sizeof buf, int_);
      out.append(buf, res.ptr);
      break;
    }
    case Kind::Double:
      append_double(out, double_);
      break;
    case Kind::String:
      append_json_string(out, string_);
      break;
    case Kind::Object:
      object_.dump_to(out, indent, depth);
      break;
    case Kind::Array: {
      // Long arrays of numbers would otherwise take one line per number.
      bool nested = false;
      for (const JsonValue& v : array_) nested = nested || v.is_container();
      out += '[';
      for (std::size_t i = 0; i < array_.size(); ++i) {
        if (i > 0) out += nested || indent <= 0 ? "," : ", ";
        if (nested) newline(out, indent, depth + 1);
        array_[i].dump_to(out, indent, depth + 1);
      }
      if (nested && !array_.empty()) newline(out, indent, depth);
      out += ']';
      break;
    }
  }
}

}  // namespace halfstep
