// Helpers for integration tests: generate a deck, run the halfstep binary, read its CSVs.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace halfstep::test {

/// The model lines (before *STEP) of one unit cube of element_type (C3D8, C3D8R) held at its
/// base (node set BASE, nodes 1-4), node set SEVEN of nodes 1-7, elastic (E 1000, nu 0.3,
/// density 1e-3): the small deck of several output tests.
inline std::string held_cube_model(const std::string& element_type) {
  return "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n"
         "5, 0, 0, 1\n6, 1, 0, 1\n7, 1, 1, 1\n8, 0, 1, 1\n"
         "*ELEMENT, TYPE=" + element_type + ", ELSET=E\n1, 1, 2, 3, 4, 5, 6, 7, 8\n"
         "*NSET, NSET=BASE\n1, 2, 3, 4\n*NSET, NSET=SEVEN\n1, 2, 3, 4, 5, 6, 7\n"
         "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*DENSITY\n1e-3\n"
         "*SOLID SECTION, ELSET=E, MATERIAL=M\n*BOUNDARY\nBASE, 1, 3\n";
}

/// The rows "id v1 v2 v3" of the .dat vector table (U, V, A, RF) whose heading is the last
/// line of dat that contains `heading` (before `before`: npos, the whole file), by id; the
/// table ends at the first other line after its rows.
inline std::map<long long, std::array<double, 3>> dat_vector_rows(const std::string& dat, const std::string& heading,
                                                                  std::size_t before = std::string::npos) {
  std::map<long long, std::array<double, 3>> rows;
  const std::size_t at = dat.rfind(heading, before);
  if (at == std::string::npos) return rows;
  std::istringstream in(dat.substr(dat.find('\n', at) + 1));
  for (std::string line; std::getline(in, line);) {
    std::istringstream row(line);
    long long id;
    std::array<double, 3> v;
    if (row >> id >> v[0] >> v[1] >> v[2]) rows[id] = v;
    else if (!rows.empty()) break;
  }
  return rows;
}

/// A fresh scratch directory under the build tree's temp area.
/// The first array named `key` in a summary.json (its numbers in full precision; empty when
/// there is none): a frequency step's eigenvalues, a buckle step's factors.
inline std::vector<double> summary_array(const std::string& summary, const std::string& key) {
  std::vector<double> out;
  const std::size_t at = summary.find("\"" + key + "\"");
  if (at == std::string::npos) return out;
  const std::size_t open = summary.find('[', at), close = summary.find(']', at);
  std::string list = summary.substr(open + 1, close - open - 1);
  for (char& c : list)
    if (c == ',') c = ' ';
  std::istringstream in(list);
  for (double v; in >> v;) out.push_back(v);
  return out;
}

inline std::string scratch_dir(const std::string& name) {
  // Under the test's working directory (the build tree), so two builds can test at once, and
  // in a folder of the running test's own: ctest runs tests side by side, and two tests that
  // both run a reference model under the same name raced on it (a half-written history).
  std::string test;
  if (const ::testing::TestInfo* t = ::testing::UnitTest::GetInstance()->current_test_info()) {
    test = std::string(t->test_suite_name()) + "." + t->name();
    for (char& c : test)
      if (c == '/') c = '_';
  }
  const auto dir = std::filesystem::current_path() / "scratch" / test / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

/// Runs a shell command, returning its exit status and captured stdout+stderr.
inline int run_command(const std::string& cmd, std::string* output = nullptr) {
  const std::string full = cmd + " 2>&1";
  FILE* p = popen(full.c_str(), "r");
  if (!p) return -1;
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = pclose(p);
  if (output) *output = out;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// Writes dir/name.inp with the generator examples/<script> (args: the case and its options);
/// fails the test if the generator fails.
inline std::string generate_with(const std::string& script, const std::string& dir, const std::string& name,
                                 const std::string& args) {
  const std::string deck = dir + "/" + name + ".inp";
  std::string out;
  const int rc = run_command("python3 " HALFSTEP_SOURCE_DIR "/examples/" + script + " " + args + " -o " + deck, &out);
  EXPECT_EQ(rc, 0) << out;
  return deck;
}

/// Writes a deck with examples/generate_deck.py; fails the test if the generator fails.
inline std::string generate_deck(const std::string& dir, const std::string& name, const std::string& args) {
  return generate_with("generate_deck.py", dir, name, args);
}

/// Writes a deck with examples/generate_solid_deck.py (args: the case and its options); fails
/// the test if the generator fails.
inline std::string generate_solid_deck(const std::string& dir, const std::string& name, const std::string& args) {
  return generate_with("generate_solid_deck.py", dir, name, args);
}

/// Runs `halfstep run deck -o outdir extra`; returns the exit code and output.
inline int run_halfstep(const std::string& deck, const std::string& outdir, const std::string& extra,
                        std::string* output) {
  return run_command(std::string(HALFSTEP_BINARY) + " run " + deck + " -o " + outdir + " --quiet " + extra, output);
}

/// Runs each (deck, message) of cases on the CPU, deck k in scratch folder prefix + k, and
/// expects it refused as bad input (exit 2) with a log that contains its message.
template <class Cases>
void expect_refused(const Cases& cases, const std::string& prefix) {
  int i = 0;
  for (const auto& [deck, message] : cases) {
    const std::string dir = scratch_dir(prefix + std::to_string(i++));
    std::ofstream(dir + "/m.inp") << deck;
    std::string log;
    EXPECT_EQ(run_halfstep(dir + "/m.inp", dir + "/out", "--backend cpu", &log), 2) << log;
    EXPECT_NE(log.find(message), std::string::npos) << log;
  }
}

/// Whole file as a string (empty if missing).
inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The number after "key": in a summary.json (-1 when the key is missing).
inline double summary_number(const std::string& summary, const std::string& key) {
  const std::size_t at = summary.find("\"" + key + "\":");
  if (at == std::string::npos) return -1;
  return std::stod(summary.substr(at + key.size() + 3));
}

/// Every file of result folder a but summary.json, the restart files and the status file (wall
/// times), compared byte for byte with b's, and no file in b that a lacks (a resumed run
/// against an uninterrupted one).
inline void expect_same_results(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  int files = 0;
  for (const auto& e : fs::recursive_directory_iterator(a)) {
    if (!e.is_regular_file()) continue;
    const std::string rel = fs::relative(e.path(), a).string();
    if (rel == "summary.json" || e.path().extension() == ".restart" || e.path().extension() == ".sta") continue;
    ++files;
    const std::string x = read_file(e.path().string()), y = read_file(b + "/" + rel);
    if (x == y) continue;
    // The first line that differs, so that a failure says what (and how much) and not only where.
    std::size_t at = 0;
    while (at < x.size() && at < y.size() && x[at] == y[at]) ++at;
    const std::size_t from = x.rfind('\n', at) == std::string::npos ? 0 : x.rfind('\n', at) + 1;
    ADD_FAILURE() << rel << " differs from byte " << at << ":\n  " << a << ": " << x.substr(from, x.find('\n', at) - from)
                  << "\n  " << b << ": " << y.substr(from, y.find('\n', at) - from);
  }
  for (const auto& e : fs::recursive_directory_iterator(b)) {
    if (e.is_regular_file() && e.path().extension() != ".restart") {
      EXPECT_TRUE(fs::exists(a + "/" + fs::relative(e.path(), b).string())) << e.path() << " is extra";
    }
  }
  EXPECT_GT(files, 1);
}

/// A CSV file as columns of numbers keyed by header name.
struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;
  int col(const std::string& name) const {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return static_cast<int>(i);
    ADD_FAILURE() << "no column " << name;
    return 0;
  }
};

inline Csv read_csv(const std::string& path) {
  Csv csv;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::string line;
  if (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) csv.header.push_back(cell);
  }
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) row.push_back(std::strtod(cell.c_str(), nullptr));
    csv.rows.push_back(row);
  }
  return csv;
}

/// Last row of history/<nset>_total.csv (the set's summed columns): column's value at the
/// end of the step, its time into *time when asked; NaN and a failure when the file is empty.
inline double last_total(const std::string& outdir, const std::string& nset, const std::string& column,
                         double* time = nullptr) {
  const Csv csv = read_csv(outdir + "/history/" + nset + "_total.csv");
  if (csv.rows.empty()) {
    ADD_FAILURE() << "empty " << nset << "_total.csv";
    return NAN;
  }
  if (time) *time = csv.rows.back()[0];
  return csv.rows.back()[static_cast<std::size_t>(csv.col(column))];
}

/// Rows of a history CSV at its last time, averaged over the set's nodes, by column name.
inline std::map<std::string, double> last_time_average(const Csv& csv) {
  std::map<std::string, double> avg;
  if (csv.rows.empty()) return avg;
  const double t_last = csv.rows.back()[0];
  int count = 0;
  for (const auto& r : csv.rows) {
    if (r[0] != t_last) continue;
    ++count;
    for (std::size_t i = 0; i < csv.header.size(); ++i) avg[csv.header[i]] += r[i];
  }
  for (auto& kv : avg) kv.second /= count;
  return avg;
}

/// The Float64 values of DataArray `name` in a .vtu written by halfstep (raw appended data:
/// a UInt64 byte count, then the values); empty when the file or the array is missing.
inline std::vector<double> read_vtu_array(const std::string& path, const std::string& name) {
  const std::string content = read_file(path);
  const std::size_t tag = content.find("Name=\"" + name + "\"");
  const std::size_t data = content.find("<AppendedData encoding=\"raw\">");
  if (tag == std::string::npos || data == std::string::npos) return {};
  const std::size_t at = content.find("offset=\"", tag);
  const std::size_t underscore = content.find('_', data);
  if (at == std::string::npos || underscore == std::string::npos) return {};
  const std::size_t offset = std::stoull(content.substr(at + 8));
  const std::size_t start = underscore + 1 + offset;
  std::uint64_t bytes = 0;
  if (start + sizeof bytes > content.size()) return {};
  std::memcpy(&bytes, content.data() + start, sizeof bytes);
  if (start + sizeof bytes + bytes > content.size()) return {};
  std::vector<double> out(bytes / sizeof(double));
  std::memcpy(out.data(), content.data() + start + sizeof bytes, out.size() * sizeof(double));
  return out;
}

/// (time, vtu file) of each frame listed in a .pvd.
inline std::vector<std::pair<double, std::string>> pvd_frames(const std::string& path) {
  std::vector<std::pair<double, std::string>> out;
  const std::string text = read_file(path);
  for (std::size_t at = 0; (at = text.find("<DataSet timestep=\"", at)) != std::string::npos;) {
    at += 19;
    const double t = std::strtod(text.c_str() + at, nullptr);
    const std::size_t f = text.find("file=\"", at) + 6;
    out.emplace_back(t, text.substr(f, text.find('"', f) - f));
  }
  return out;
}

/// dir/name.inp: the pinched cylinder (84 nodes, fixed increment 1e-3) in two steps, with the
/// history of every set every increment, field output (U, V, RF) NUMBER INTERVAL=field1 in
/// the first step and field2 in the second. The sets DOWN (60, 14, 37, 2) and OVER (37, 50,
/// 14, 71) are not in ascending order and share two nodes; the second step adds LATE (80, 5).
inline std::string two_step_history_deck(const std::string& dir, const std::string& name, int field1, int field2) {
  const std::string base = generate_deck(dir, name + "_base",
                                         "pinched-cylinder --n 6 --time 0.02 --dt 0.001 --history-interval 0.0005 "
                                         "--field-interval " + std::to_string(field1));
  std::string deck = read_file(base);
  const auto replace = [&deck](const std::string& from, const std::string& to) {
    const std::size_t at = deck.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    deck.replace(at, from.size(), to);
  };
  // DOWN and OVER share nodes 14 and 37; neither is in ascending order.
  replace("*MATERIAL", "*NSET, NSET=DOWN\n60, 14, 37, 2\n*NSET, NSET=OVER\n37, 50, 14, 71\n*NSET, NSET=LATE\n80, 5\n*MATERIAL");
  replace("U, V\n*ELEMENT OUTPUT", "U, V, RF\n*ELEMENT OUTPUT");
  replace("*END STEP", "*NODE OUTPUT, NSET=DOWN\nU, V, RF\n*NODE OUTPUT, NSET=OVER\nU, V, RF\n*END STEP");
  deck += "*STEP\n*DYNAMIC, EXPLICIT, DIRECT USER CONTROL\n0.001, 0.01\n*OUTPUT, FIELD, NUMBER INTERVAL=" +
          std::to_string(field2) + "\n*NODE OUTPUT\nU, V, RF\n*OUTPUT, HISTORY, TIME INTERVAL=0.0005\n"
          "*NODE OUTPUT, NSET=LATE\nU, V, RF\n*END STEP\n";
  const std::string path = dir + "/" + name + ".inp";
  std::ofstream(path) << deck;
  return path;
}

/// Every file under dir (relative path) with its bytes and modification time: a folder that a
/// run must leave alone compares equal before and after it.
inline std::map<std::string, std::pair<std::string, std::filesystem::file_time_type>> folder_snapshot(
    const std::string& dir) {
  std::map<std::string, std::pair<std::string, std::filesystem::file_time_type>> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file())
      out[std::filesystem::relative(e.path(), dir).string()] = {read_file(e.path().string()), e.last_write_time()};
  return out;
}

}  // namespace halfstep::test
