// Tests of summary.json (io/summary_json), read back with a small strict JSON parser of its own,
// so the check does not trust the library that wrote the file.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/summary_json.hpp"
#include "io_test_util.hpp"

namespace halfstep {
namespace {

/// A parsed JSON value (enough of JSON to check what summary.json holds).
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

/// The whole file (binary, so a stray byte is seen as it is).
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// A single-process summary with a value of every kind.
RunSummary one_process() {
  RunSummary s;
  s.nodes = 34;
  s.elements = 16;
  s.steps = std::int64_t(1) << 40;  // beyond int and beyond a double's integers-as-text habit
  s.time_increment = 1.0 / 3 * 1e-7;
  s.stable_increment = 2.0;
  s.controlling_element = 3000000000;
  s.final_time = 0.05;
  s.wall_seconds = 1.5;
  s.solve_seconds = 1.25;
  s.element_steps_per_second = 1e300;
  s.backend = "cpu";
  s.precision = "double";
  s.backend_description = "CPU, OpenMP, 2 threads";
  s.device_bytes_per_element = 0;
  s.threads = 2;
  s.frames = 11;
  s.energy_error = 5e-5;
  s.renumbered = true;
  s.renumber_span_before = 812.5;
  s.renumber_span_after = 6.25;
  return s;
}

const std::vector<std::string> kTopKeys = {"deck", "status", "nodes", "elements", "materials", "model_mass", "steps",
                                           "time_increment", "stable_increment_estimate", "controlling_element", "final_time",
                                           "wall_seconds", "read_seconds", "deck_bytes", "model_bytes_per_element",
                                           "setup_seconds", "solve_seconds", "output_seconds", "element_steps_per_second",
                                           "renumbering", "backend",
                                           "precision", "backend_description", "device_bytes_per_element",
                                           "threads", "frames", "energy_balance_error", "energy_tolerance", "ranks",
                                           "warnings", "step_records"};

TEST(SummaryJson, KeysInOrderAndTypesKept) {
  test::TempDir dir;
  const std::string path = dir / "summary.json";
  write_summary_json(path, "decks/plate.inp", one_process());
  const std::string text = slurp(path);
  const Json j = parse_json(text);
  ASSERT_EQ(j.kind, Json::Object);
  EXPECT_EQ(j.keys, kTopKeys) << "scripts and people read the file top-down";
  EXPECT_EQ(j["deck"].string, "decks/plate.inp");
  EXPECT_EQ(j["nodes"].number, 34);
  EXPECT_TRUE(j["nodes"].integer_literal);
  EXPECT_NE(text.find("\"steps\": 1099511627776"), std::string::npos) << text;
  EXPECT_NE(text.find("\"controlling_element\": 3000000000"), std::string::npos) << text;
  EXPECT_EQ(j["time_increment"].number, 1.0 / 3 * 1e-7);  // exact round trip
  EXPECT_EQ(j["stable_increment_estimate"].number, 2.0);
  EXPECT_FALSE(j["stable_increment_estimate"].integer_literal) << "doubles stay doubles for typed readers";
  EXPECT_FALSE(j["device_bytes_per_element"].integer_literal) << text;
  EXPECT_EQ(j["element_steps_per_second"].number, 1e300);
  EXPECT_EQ(j["renumbering"]["applied"].kind, Json::Bool);
  EXPECT_TRUE(j["renumbering"]["applied"].boolean);
  EXPECT_EQ(j["renumbering"]["mean_node_span_deck"].number, 812.5);
  EXPECT_EQ(j["renumbering"]["mean_node_span_run"].number, 6.25);
  EXPECT_EQ(j["backend"].string, "cpu");
  EXPECT_EQ(j["precision"].string, "double");
  EXPECT_EQ(j["ranks"].number, 1);
  // The exact spelling the integration tests and the shell scripts grep for.
  EXPECT_NE(text.find("\n  \"backend\": \"cpu\",\n"), std::string::npos) << text;
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"summary.json"}) << "no temporary file left behind";
}

TEST(SummaryJson, DeckPathIsEscaped) {
  test::TempDir dir;
  const std::string deck = "plate \"A\"\\\n\t\x01 é.inp";
  write_summary_json(dir / "summary.json", deck, one_process());
  const std::string text = slurp(dir / "summary.json");
  EXPECT_EQ(parse_json(text)["deck"].string, deck);
  EXPECT_NE(text.find(R"("plate \"A\"\\\n\t\u0001 é.inp")"), std::string::npos) << text;
}

TEST(SummaryJson, DeckPathThatIsNotUtf8StillGivesValidJson) {
  // Linux file names are bytes; a finished run must not fail on writing its summary.
  test::TempDir dir;
  write_summary_json(dir / "summary.json", "bad\xff\xfename.inp", one_process());
  const Json j = parse_json(slurp(dir / "summary.json"));
  EXPECT_EQ(j["deck"].string, "bad\xef\xbf\xbd\xef\xbf\xbdname.inp") << "each bad byte becomes U+FFFD";
  EXPECT_EQ(j["nodes"].number, 34);
}

TEST(SummaryJson, NonFiniteNumbersAreNull) {
  test::TempDir dir;
  RunSummary s = one_process();
  s.energy_error = std::nan("");
  s.element_steps_per_second = HUGE_VAL;
  s.wall_seconds = -HUGE_VAL;
  write_summary_json(dir / "summary.json", "d.inp", s);
  const Json j = parse_json(slurp(dir / "summary.json"));
  EXPECT_EQ(j["energy_balance_error"].kind, Json::Null);
  EXPECT_EQ(j["element_steps_per_second"].kind, Json::Null);
  EXPECT_EQ(j["wall_seconds"].kind, Json::Null);
  EXPECT_EQ(j.keys, kTopKeys);
}

TEST(SummaryJson, DistributedRunAddsPerRankObject) {
  test::TempDir dir;
  RunSummary s = one_process();
  s.ranks = 3;
  s.solve_seconds = 2.0;
  s.rank_elements = {6, 5, 5};
  s.rank_comm_seconds = {0.5, 0.25, 1.0};
  s.rank_devices = {0, 1, -1};
  s.rank_share_bytes = {4096, 3072, 3584};
  s.whole_share_bytes = 9216;
  s.transport = "host-staged";
  s.mpi_library = "Open MPI v4.1.4";
  write_summary_json(dir / "summary.json", "d.inp", s);
  const Json j = parse_json(slurp(dir / "summary.json"));
  std::vector<std::string> keys = kTopKeys;
  keys.push_back("distributed");
  EXPECT_EQ(j.keys, keys);
  EXPECT_EQ(j["ranks"].number, 3);
  const Json& d = j["distributed"];
  ASSERT_EQ(d.kind, Json::Object);
  EXPECT_EQ(d.keys, (std::vector<std::string>{"mpi_library", "interface_transport", "elements_per_rank",
                                              "share_bytes_per_rank", "share_bytes_whole_model", "gpu_per_rank",
                                              "communication_seconds_per_rank", "communication_share_of_solve"}));
  ASSERT_EQ(d["share_bytes_per_rank"].items.size(), 3u);
  EXPECT_EQ(d["share_bytes_per_rank"].items[1].number, 3072);
  EXPECT_EQ(d["share_bytes_whole_model"].number, 9216);
  EXPECT_EQ(d["mpi_library"].string, "Open MPI v4.1.4");
  EXPECT_EQ(d["interface_transport"].string, "host-staged");
  ASSERT_EQ(d["elements_per_rank"].items.size(), 3u);
  EXPECT_EQ(d["elements_per_rank"].items[0].number, 6);
  EXPECT_TRUE(d["elements_per_rank"].items[0].integer_literal);
  ASSERT_EQ(d["gpu_per_rank"].items.size(), 3u);
  EXPECT_EQ(d["gpu_per_rank"].items[2].number, -1);
  ASSERT_EQ(d["communication_seconds_per_rank"].items.size(), 3u);
  EXPECT_EQ(d["communication_seconds_per_rank"].items[1].number, 0.25);
  const Json& share = d["communication_share_of_solve"];
  ASSERT_EQ(share.items.size(), 3u);
  EXPECT_EQ(share.items[0].number, 0.25);
  EXPECT_EQ(share.items[2].number, 0.5);
  EXPECT_FALSE(share.items[2].integer_literal);
}

// What the run report reads: where the time went, the deck's warnings, each step's increment.
TEST(SummaryJson, TimesWarningsAndStepRecords) {
  test::TempDir dir;
  RunSummary s = one_process();
  s.read_seconds = 0.125;
  s.deck_bytes = 93454322;
  s.model_bytes_per_element = 106.5;
  s.setup_seconds = 0.25;
  s.output_seconds = 0.5;
  s.energy_tolerance = 0.05;
  s.warnings = {"d.inp:3: *OUTPUT requests nothing", "second \"quoted\""};
  s.step_records = {{"Load", "explicit", 0.0, 0.5, 1e-7, 5000000}, {"Hold", "static", 0.5, 1.0, 0.0, 4}};
  s.statics.steps = 1;
  s.statics.residuals = {{1.0, 1e-3, 1e-9}, {1.0, 1e-8}, {}};
  write_summary_json(dir / "summary.json", "d.inp", s);
  const Json j = parse_json(slurp(dir / "summary.json"));
  EXPECT_EQ(j["read_seconds"].number, 0.125);
  EXPECT_EQ(j["deck_bytes"].number, 93454322);
  EXPECT_EQ(j["model_bytes_per_element"].number, 106.5);
  EXPECT_EQ(j["setup_seconds"].number, 0.25);
  EXPECT_EQ(j["output_seconds"].number, 0.5);
  EXPECT_EQ(j["energy_tolerance"].number, 0.05);
  ASSERT_EQ(j["warnings"].items.size(), 2u);
  EXPECT_EQ(j["warnings"].items[1].string, "second \"quoted\"");
  const Json& steps = j["step_records"];
  ASSERT_EQ(steps.items.size(), 2u);
  EXPECT_EQ(steps.items[0].keys,
            (std::vector<std::string>{"name", "procedure", "start_time", "period", "increment", "increments"}));
  EXPECT_EQ(steps.items[0]["name"].string, "Load");
  EXPECT_EQ(steps.items[0]["increment"].number, 1e-7);
  EXPECT_EQ(steps.items[0]["increments"].number, 5000000);
  EXPECT_EQ(steps.items[1]["procedure"].string, "static");
  EXPECT_EQ(steps.items[1]["start_time"].number, 0.5);
  // An attempt's residuals: one before each solve and the converged one.
  const Json& per = j["static"]["newton_iterations_per_attempt"];
  ASSERT_EQ(per.items.size(), 3u);
  EXPECT_EQ(per.items[0].number, 2);
  EXPECT_EQ(per.items[1].number, 1);
  EXPECT_EQ(per.items[2].number, 0);
}

TEST(SummaryJson, FailureSummaryKeepsTheWarnings) {
  test::TempDir dir;
  write_failure_summary_json(dir / "summary.json", "d.inp", "unstable", {"w1"});
  const Json j = parse_json(slurp(dir / "summary.json"));
  EXPECT_EQ(j.keys, (std::vector<std::string>{"deck", "status", "warnings"}));
  EXPECT_EQ(j["status"].string, "failed: unstable");
  ASSERT_EQ(j["warnings"].items.size(), 1u);
  EXPECT_EQ(j["warnings"].items[0].string, "w1");
}

TEST(SummaryJson, MissingDirectoryThrowsWithPath) {
  test::TempDir dir;
  const std::string path = dir / "no_such_dir/summary.json";
  try {
    write_summary_json(path, "d.inp", one_process());
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace halfstep
