// Tests of the JSON builder behind summary.json, checked with a small strict JSON parser.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/json_writer.hpp"

namespace halfstep {
namespace {

/// A parsed JSON value (enough of JSON to check what JsonObject writes).
struct Json {
  enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
  bool boolean = false;
  double number = 0;
  bool integer_literal = false;  // spelled without '.' or exponent
  std::string string;
  std::vector<Json> items;        // Array elements, or Object values
  std::vector<std::string> keys;  // Object keys, parallel to items

  const Json& operator[](const std::string& key) const {
    for (size_t k = 0; k < keys.size(); ++k) {
      if (keys[k] == key) return items[k];
    }
    throw std::out_of_range("no key " + key);
  }
};

/// Strict recursive-descent JSON parser; throws std::runtime_error on any syntax error.
class JsonParser {
 public:
  explicit JsonParser(const std::string& text) : s_(text) {}
  Json parse() {
    Json v = value();
    ws();
    if (i_ != s_.size()) error("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void error(const std::string& why) {
    throw std::runtime_error("JSON error at " + std::to_string(i_) + ": " + why);
  }
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r'))
      ++i_;
  }
  void expect(char c) {
    ws();
    if (i_ >= s_.size() || s_[i_] != c) error(std::string("expected ") + c);
    ++i_;
  }
  bool literal(const char* word) {
    const std::string w(word);
    if (s_.compare(i_, w.size(), w) != 0) return false;
    i_ += w.size();
    return true;
  }
  std::string str() {
    expect('"');
    std::string out;
    while (true) {
      if (i_ >= s_.size()) error("unterminated string");
      const char c = s_[i_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) error("raw control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      const char e = s_[i_++];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          const unsigned long cp = std::stoul(s_.substr(i_, 4), nullptr, 16);
          if (cp >= 0x80) error("test parser only decodes ASCII \\u escapes");
          out += static_cast<char>(cp);
          i_ += 4;
          break;
        }
        default:
          error("bad escape");
      }
    }
  }
  Json value() {
    ws();
    Json v;
    if (i_ >= s_.size()) error("unexpected end");
    const char c = s_[i_];
    if (c == '{') {
      v.kind = Json::Object;
      ++i_;
      ws();
      if (s_[i_] == '}') {
        ++i_;
        return v;
      }
      while (true) {
        v.keys.push_back(str());
        expect(':');
        v.items.push_back(value());
        ws();
        if (s_[i_] == ',') {
          ++i_;
          continue;
        }
        expect('}');
        return v;
      }
    }
    if (c == '[') {
      v.kind = Json::Array;
      ++i_;
      ws();
      if (s_[i_] == ']') {
        ++i_;
        return v;
      }
      while (true) {
        v.items.push_back(value());
        ws();
        if (s_[i_] == ',') {
          ++i_;
          continue;
        }
        expect(']');
        return v;
      }
    }
    if (c == '"') {
      v.kind = Json::String;
      v.string = str();
      return v;
    }
    if (literal("null")) return v;
    if (literal("true")) {
      v.kind = Json::Bool;
      v.boolean = true;
      return v;
    }
    if (literal("false")) {
      v.kind = Json::Bool;
      return v;
    }
    // JSON number grammar: -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?
    const size_t start = i_;
    if (s_[i_] == '-') ++i_;
    auto digits = [&] {
      size_t n = 0;
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) {
        ++i_;
        ++n;
      }
      return n;
    };
    if (i_ < s_.size() && s_[i_] == '0')
      ++i_;
    else if (digits() == 0)
      error("bad value");
    v.integer_literal = true;
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      v.integer_literal = false;
      if (digits() == 0) error("bad fraction");
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      v.integer_literal = false;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (digits() == 0) error("bad exponent");
    }
    v.kind = Json::Number;
    v.number = std::strtod(s_.substr(start, i_ - start).c_str(), nullptr);
    return v;
  }

  const std::string& s_;
  size_t i_ = 0;
};

Json parse_json(const std::string& text) { return JsonParser(text).parse(); }

TEST(JsonWriter, ScalarsStringsAndEscaping) {
  JsonObject o;
  o.add("job", "plate \"A\"\\\n\t\x01 é")
      .add("steps", 120000)
      .add("dt", 1.0 / 3 * 1e-7)
      .add("mass", 2.0)
      .add("big", std::int64_t(1) << 62)
      .add("unsigned", size_t(5))
      .add("ok", true)
      .add("failed", false)
      .add("nan", std::nan(""))
      .add("inf", -HUGE_VAL)
      .add("none", nullptr)
      .add("steps", 120001);  // replaces, keeps position
  const std::string text = o.dump();
  const Json j = parse_json(text);
  ASSERT_EQ(j.kind, Json::Object);
  EXPECT_EQ(j.keys, (std::vector<std::string>{"job", "steps", "dt", "mass", "big", "unsigned", "ok",
                                              "failed", "nan", "inf", "none"}));
  EXPECT_EQ(j["job"].string, "plate \"A\"\\\n\t\x01 é");
  EXPECT_NE(text.find(R"("plate \"A\"\\\n\t\u0001 é")"), std::string::npos) << text;
  EXPECT_EQ(j["steps"].number, 120001);
  EXPECT_TRUE(j["steps"].integer_literal);
  EXPECT_EQ(j["dt"].number, 1.0 / 3 * 1e-7);  // exact round trip
  EXPECT_EQ(j["mass"].number, 2.0);
  EXPECT_FALSE(j["mass"].integer_literal) << "doubles stay doubles for typed readers";
  EXPECT_NE(text.find("\"big\": 4611686018427387904"), std::string::npos);
  EXPECT_EQ(j["unsigned"].number, 5);
  EXPECT_EQ(j["ok"].kind, Json::Bool);
  EXPECT_TRUE(j["ok"].boolean);
  EXPECT_FALSE(j["failed"].boolean);
  EXPECT_EQ(j["nan"].kind, Json::Null);
  EXPECT_EQ(j["inf"].kind, Json::Null);
  EXPECT_EQ(j["none"].kind, Json::Null);
}

TEST(JsonWriter, NestingAndArrays) {
  JsonObject energy;
  energy.add("kinetic", 1.5).add("internal", 0.25);
  JsonObject o;
  o.add("energy", energy)
      .add("history", std::vector<double>{0.1, std::nan(""), 1e300})
      .add("ids", std::vector<std::int64_t>{1, 2, 3000000000})
      .add("small_ids", std::vector<int>{4, 5})
      .add("files", std::vector<std::string>{"a.vtu", "b\"c.vtu"})
      .add("empty_list", std::vector<double>{})
      .add("empty_obj", JsonObject())
      .add("steps", std::vector<JsonObject>{JsonObject().add("n", 1), JsonObject().add("n", 2)});

  for (int indent : {2, 0, 4}) {
    const std::string text = o.dump(indent);
    const Json j = parse_json(text);
    EXPECT_EQ(j["energy"]["kinetic"].number, 1.5);
    EXPECT_EQ(j["energy"]["internal"].number, 0.25);
    const Json& h = j["history"];
    ASSERT_EQ(h.items.size(), 3u);
    EXPECT_EQ(h.items[0].number, 0.1);
    EXPECT_EQ(h.items[1].kind, Json::Null);
    EXPECT_EQ(h.items[2].number, 1e300);
    ASSERT_EQ(j["ids"].items.size(), 3u);
    EXPECT_EQ(j["ids"].items[2].number, 3000000000.0);
    EXPECT_TRUE(j["ids"].items[2].integer_literal);
    EXPECT_EQ(j["small_ids"].items[1].number, 5);
    EXPECT_EQ(j["files"].items[1].string, "b\"c.vtu");
    EXPECT_EQ(j["empty_list"].kind, Json::Array);
    EXPECT_TRUE(j["empty_list"].items.empty());
    EXPECT_EQ(j["empty_obj"].kind, Json::Object);
    ASSERT_EQ(j["steps"].items.size(), 2u);
    EXPECT_EQ(j["steps"].items[1]["n"].number, 2);
    if (indent == 0) {
      EXPECT_EQ(text.find('\n'), std::string::npos) << text;
    } else {
      EXPECT_NE(text.find("\"history\": [0.1, null, 1e+300]"), std::string::npos) << text;
      EXPECT_NE(text.find("\n" + std::string(indent, ' ') + "\"energy\": {\n" +
                          std::string(2 * indent, ' ') + "\"kinetic\": 1.5,"),
                std::string::npos)
          << text;
      EXPECT_EQ(text.back(), '\n');
    }
  }
}

TEST(JsonWriter, EmptyObject) {
  EXPECT_EQ(JsonObject().dump(), "{}\n");
  EXPECT_EQ(JsonObject().dump(0), "{}");
}

}  // namespace
}  // namespace halfstep
