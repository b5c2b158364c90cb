// --renumber (issue 21): runs with the locality renumbering on and off write the same files,
// in the deck's order: every .vtu frame (points, cells, arrays), the histories, energies and
// printed tables, equal to round-off (the renumbering changes the order of the sums); a
// restart resumes bit for bit and is refused by a run with the other setting.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "../shuffled_block.hpp"
#include "backends/backend.hpp"
#include "run_util.hpp"

namespace halfstep::test {
namespace {

namespace fs = std::filesystem;

/// Every DataArray of a .vtu written by halfstep (raw appended data, UInt64 headers), as
/// doubles, keyed by section and name ("PointData/U", "Points/Points", "Cells/offsets").
std::map<std::string, std::vector<double>> read_vtu(const std::string& path) {
  std::map<std::string, std::vector<double>> out;
  const std::string c = read_file(path);
  const std::size_t data = c.find("<AppendedData encoding=\"raw\">");
  EXPECT_NE(data, std::string::npos) << path;
  if (data == std::string::npos) return out;
  const std::size_t base = c.find('_', data) + 1;
  std::string section;
  for (std::size_t at = 0; at < data;) {
    const std::size_t tag = c.find('<', at);
    if (tag == std::string::npos || tag >= data) break;
    const std::size_t end = c.find('>', tag);
    const std::string t = c.substr(tag + 1, end - tag - 1);
    at = end + 1;
    for (const char* s : {"FieldData", "PointData", "CellData", "Points", "Cells"})
      if (t.rfind(s, 0) == 0 && (t.size() == std::strlen(s) || t[std::strlen(s)] == ' ')) section = s;
    if (t.rfind("DataArray", 0) != 0) continue;
    const auto attr = [&t](const std::string& a) {
      const std::size_t p = t.find(" " + a + "=\"");
      if (p == std::string::npos) return std::string();
      const std::size_t v = p + a.size() + 3;
      return t.substr(v, t.find('"', v) - v);
    };
    const std::string type = attr("type");
    const std::size_t off = base + std::stoull(attr("offset"));
    std::uint64_t bytes = 0;
    std::memcpy(&bytes, c.data() + off, sizeof bytes);
    const char* p = c.data() + off + sizeof bytes;
    std::vector<double>& v = out[section + "/" + attr("Name")];
    if (type == "Float64") {
      v.resize(bytes / 8);
      std::memcpy(v.data(), p, bytes);
    } else if (type == "Int32") {
      std::vector<std::int32_t> i(bytes / 4);
      std::memcpy(i.data(), p, bytes);
      v.assign(i.begin(), i.end());
    } else if (type == "Int64") {
      std::vector<std::int64_t> i(bytes / 8);
      std::memcpy(i.data(), p, bytes);
      v.assign(i.begin(), i.end());
    } else if (type == "UInt8") {
      v.assign(reinterpret_cast<const unsigned char*>(p), reinterpret_cast<const unsigned char*>(p) + bytes);
    } else {
      ADD_FAILURE() << path << ": DataArray of type " << type;
    }
  }
  return out;
}

/// max |a - b| / scale, NaN in both places counted equal; a NaN in one only is infinite.
double relative_difference(const std::vector<double>& a, const std::vector<double>& b, double scale) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) && std::isnan(b[i])) continue;
    const double d = std::fabs(a[i] - b[i]);
    if (!(d <= worst)) worst = std::isnan(d) ? INFINITY : d;
  }
  return scale > 0 ? worst / scale : worst;
}

/// a == b entry by entry, NaN equal to NaN (the vertex cells of a frame subset carry NaN).
bool same_exactly(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
  return true;
}

/// max |v| over the finite entries.
double largest(const std::vector<double>& v) {
  double m = 0;
  for (double x : v)
    if (std::isfinite(x)) m = std::max(m, std::fabs(x));
  return m;
}

/// Two .vtu frames: the same arrays and mesh (points, connectivity, offsets, types exactly;
/// the reference coordinates too), values within tol of each array's largest (energy
/// densities: of the largest of them, as a density that is round-off in one family has no
/// scale of its own).
void expect_same_vtu(const std::string& a_path, const std::string& b_path, double tol) {
  const auto a = read_vtu(a_path), b = read_vtu(b_path);
  ASSERT_FALSE(a.empty()) << a_path;
  double density_scale = 0;
  for (const auto& kv : a)
    if (kv.first.size() > 13 && kv.first.compare(kv.first.size() - 13, 13, "EnergyDensity") == 0)
      density_scale = std::max(density_scale, largest(kv.second));
  for (const auto& [name, va] : a) {
    const auto it = b.find(name);
    ASSERT_NE(it, b.end()) << b_path << " lacks " << name;
    ASSERT_EQ(it->second.size(), va.size()) << name;
    if (name.rfind("Cells/", 0) == 0 || name == "Points/Points" || name == "CellData/ElementId" ||
        name == "FieldData/TimeValue") {
      EXPECT_TRUE(same_exactly(it->second, va)) << a_path << ": " << name << " differs";
      continue;
    }
    double scale = largest(va);
    if (name.find("EnergyDensity") != std::string::npos) scale = std::max(scale, density_scale);
    const double d = relative_difference(va, it->second, scale);
    EXPECT_LE(d, tol) << a_path << ": " << name;
  }
  EXPECT_EQ(a.size(), b.size()) << b_path;
}

/// Two CSV files: the same header and rows, the node and definition columns exactly, the
/// values within tol of the largest of their group (U1..U3, UR1..UR3, ...; energy.csv: all
/// energies alike, relative to the largest).
void expect_same_csv(const std::string& a_path, const std::string& b_path, double tol) {
  const Csv a = read_csv(a_path), b = read_csv(b_path);
  ASSERT_EQ(a.header, b.header) << a_path;
  ASSERT_EQ(a.rows.size(), b.rows.size()) << a_path;
  ASSERT_FALSE(a.rows.empty()) << a_path;
  const bool energy = fs::path(a_path).filename() == "energy.csv";
  std::map<std::string, std::vector<std::size_t>> groups;
  for (std::size_t c = 0; c < a.header.size(); ++c) {
    const std::string& h = a.header[c];
    std::string g = energy && h != "time" ? std::string("energy") : h;
    if (!energy && !h.empty() && std::isdigit(static_cast<unsigned char>(h.back()))) g = h.substr(0, h.size() - 1);
    groups[g].push_back(c);
  }
  for (const auto& [g, cols] : groups) {
    std::vector<double> va, vb;
    for (std::size_t r = 0; r < a.rows.size(); ++r)
      for (std::size_t c : cols) {
        va.push_back(a.rows[r][c]);
        vb.push_back(b.rows[r][c]);
      }
    if (g == "time" || g == "node" || g == "definition") {
      EXPECT_TRUE(va == vb) << a_path << ": column " << g << " differs";
      continue;
    }
    EXPECT_LE(relative_difference(va, vb, largest(va)), tol) << a_path << ": " << g;
  }
}

/// Two .dat files: the same words (labels, headings) and numbers within tol of each table's
/// largest value.
void expect_same_dat(const std::string& a_path, const std::string& b_path, double tol) {
  std::istringstream a(read_file(a_path)), b(read_file(b_path));
  std::vector<double> va, vb;
  std::string wa, wb;
  int words = 0;
  while (a >> wa) {
    ASSERT_TRUE(static_cast<bool>(b >> wb)) << b_path << " ends early";
    char* end = nullptr;
    const double x = std::strtod(wa.c_str(), &end);
    const bool number = *end == '\0' && wa.find_first_of("eE.") != std::string::npos;
    if (number) {
      va.push_back(x);
      vb.push_back(std::strtod(wb.c_str(), nullptr));
    } else {
      EXPECT_EQ(wa, wb) << a_path << " word " << words;
      ++words;
    }
  }
  EXPECT_FALSE(static_cast<bool>(b >> wb)) << b_path << " is longer";
  EXPECT_LE(relative_difference(va, vb, largest(va)), tol) << a_path;
  EXPECT_GT(words, 10);
}

/// Every result file of run a against b's (summary.json, restarts and the status file with its
/// wall times aside); the count of .vtu frames compared.
int expect_same_results_to_roundoff(const std::string& a, const std::string& b, double tol) {
  int frames = 0;
  for (const auto& e : fs::recursive_directory_iterator(a)) {
    if (!e.is_regular_file()) continue;
    const std::string rel = fs::relative(e.path(), a).string(), ext = e.path().extension().string();
    const std::string other = b + "/" + rel;
    if (rel == "summary.json" || ext == ".restart" || ext == ".sta") continue;
    if (!fs::exists(other)) {
      ADD_FAILURE() << rel << " only in " << a;
      continue;
    }
    if (ext == ".vtu") {
      expect_same_vtu(e.path().string(), other, tol);
      ++frames;
    } else if (ext == ".csv") {
      expect_same_csv(e.path().string(), other, tol);
    } else if (ext == ".dat") {
      expect_same_dat(e.path().string(), other, tol);
    } else {
      EXPECT_TRUE(read_file(e.path().string()) == read_file(other)) << rel << " differs";
    }
  }
  for (const auto& e : fs::recursive_directory_iterator(b))
    if (e.is_regular_file() && e.path().extension() != ".restart") {
      EXPECT_TRUE(fs::exists(a + "/" + fs::relative(e.path(), b).string())) << e.path() << " only in " << b;
    }
  return frames;
}

/// A block of C3D8R elements, 6 x 3 x 2, with labels at random and written in random order,
/// its field output on a node set and an element set only, and every node and element
/// printed (the order of the tables is the deck's).
std::string shuffled_printing_block(const std::string& dir) {
  std::mt19937 rng(5);
  const int nx = 6, ny = 3, nz = 2;
  const test::ShuffledBlock blk = test::shuffled_block_mesh(nx, ny, nz, 0.1, rng, 101, 1, 7);
  const auto node = [&](int i, int j, int k) { return blk.node(i, j, k); };
  std::ostringstream d;
  d << "*HEADING\nshuffled block\n" << blk.mesh;
  d << "*NSET, NSET=FIXED\n";
  for (int j = 0; j <= ny; ++j)
    for (int k = 0; k <= nz; ++k) d << node(0, j, k) << "\n";
  d << "*NSET, NSET=END\n";
  for (int k = nz; k >= 0; --k)
    for (int j = 0; j <= ny; ++j) d << node(nx, j, k) << "\n";
  d << "*ELSET, ELSET=ROOT\n";
  for (int j = ny - 1; j >= 0; --j)
    for (int k = 0; k < nz; ++k) d << blk.element(0, j, k) << "\n";
  d << "*MATERIAL, NAME=STEEL\n*ELASTIC\n1000., 0.3\n*PLASTIC\n2., 0\n12., 1\n*DENSITY\n1.\n";
  d << "*SOLID SECTION, ELSET=BLOCK, MATERIAL=STEEL\n";
  d << "*STEP\n*DYNAMIC, EXPLICIT\n, 0.02\n*BOUNDARY\nFIXED, 1, 3\n*CLOAD\nEND, 3, -0.05\n";
  d << "*OUTPUT, FIELD, NUMBER INTERVAL=4\n*NODE OUTPUT, NSET=END\nU, V\n*ELEMENT OUTPUT, ELSET=ROOT\nS, E, PEEQ\n";
  d << "*OUTPUT, HISTORY, TIME INTERVAL=0.002\n*NODE OUTPUT, NSET=END\nU, V, RF\n";
  d << "*NODE PRINT, FREQUENCY=50, TOTALS=YES\nU, RF\n*EL PRINT, FREQUENCY=50\nS, PEEQ\n*ENERGY PRINT, FREQUENCY=50\n";
  d << "*END STEP\n";
  const std::string path = dir + "/shuffled_block.inp";
  std::ofstream(path) << d.str();
  return path;
}

/// Runs deck with --renumber on and off in dir/on and dir/off; both must succeed and say so
/// in their summaries, and the renumbered run must have a deck and run order that differ.
void run_both(const std::string& deck, const std::string& dir, const std::string& extra = "") {
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/on", "--backend cpu --renumber on " + extra, &out), 0) << out;
  ASSERT_EQ(run_halfstep(deck, dir + "/off", "--backend cpu --renumber off " + extra, &out), 0) << out;
  const std::string on = read_file(dir + "/on/summary.json"), off = read_file(dir + "/off/summary.json");
  EXPECT_NE(on.find("\"applied\": true"), std::string::npos) << on;
  EXPECT_NE(off.find("\"applied\": false"), std::string::npos) << off;
  EXPECT_EQ(summary_number(on, "mean_node_span_deck"), summary_number(off, "mean_node_span_deck"));
  EXPECT_EQ(summary_number(off, "mean_node_span_run"), summary_number(off, "mean_node_span_deck"));
}

struct RenumberCase {
  const char* name;
  const char* deck;    ///< under the source tree; "" for a deck written by the test
  double tolerance;    ///< relative, per array / column group
  bool frames = true;  ///< the deck writes field frames (.vtu)
};

class RenumberedRun : public ::testing::TestWithParam<RenumberCase> {};

TEST_P(RenumberedRun, WritesTheSameFilesAsTheDeckOrder) {
  const RenumberCase& c = GetParam();
  const std::string dir = scratch_dir(c.name);
  std::string deck;
  if (std::string(c.name) == "shuffled_shells")
    // A poorly numbered shell model: the generator's pinched cylinder with shuffled labels.
    deck = generate_deck(dir, "pc", "pinched-cylinder --n 6 --shuffle 3 --time 0.02 --field-interval 20");
  else if (std::string(c.name) == "shuffled_block")
    deck = shuffled_printing_block(dir);
  else
    deck = std::string(HALFSTEP_SOURCE_DIR) + "/" + c.deck;
  run_both(deck, dir);
  if (HasFatalFailure()) return;
  const int frames = expect_same_results_to_roundoff(dir + "/on", dir + "/off", c.tolerance);
  if (c.frames) {
    EXPECT_GT(frames, 0);
  }
  else EXPECT_EQ(frames, 0);
  if (std::string(c.name) == "shuffled_shells" || std::string(c.name) == "shuffled_block") {
    const std::string on = read_file(dir + "/on/summary.json");
    EXPECT_LT(summary_number(on, "mean_node_span_run"), 0.5 * summary_number(on, "mean_node_span_deck")) << on;
  }
}

// Shells, solids (with face pressure, plasticity, printed tables and field subsets), beams,
// triangles and mixed models, springs, contact, constraints, a static step, two steps.
INSTANTIATE_TEST_SUITE_P(
    Decks, RenumberedRun,
    ::testing::Values(RenumberCase{"shuffled_shells", "", 1e-9}, RenumberCase{"shuffled_block", "", 1e-9},
                      RenumberCase{"solid_pressure", "tests/gpu/decks/solid_c3d8_pressure.inp", 1e-9, false},
                      RenumberCase{"tets_j2", "tests/gpu/decks/solid_c3d10m_j2_kick.inp", 1e-9, false},
                      RenumberCase{"beam_hinge", "tests/gpu/decks/beam_hinge.inp", 1e-9, false},
                      RenumberCase{"mixed_strip", "tests/gpu/decks/mixed_strip_bend.inp", 1e-7},
                      RenumberCase{"springs", "tests/gpu/decks/discrete_truss.inp", 1e-9},
                      RenumberCase{"contact_slide", "tests/parallel/decks/contact_slide.inp", 1e-8},
                      // Edge-to-edge general contact: of two touching edges the first records the contact, so
                      // contact.csv's totals hold only if the edges keep the deck's order (contact.cpp).
                      RenumberCase{"contact_crossed", "tests/parallel/decks/contact_crossed.inp", 1e-8},
                      RenumberCase{"contact_bars", "tests/parallel/decks/contact_bars.inp", 1e-8},
                      RenumberCase{"contact_wall", "tests/parallel/decks/contact_wall.inp", 1e-8},
                      RenumberCase{"shell_tie", "tests/gpu/decks/shell_tie.inp", 1e-9, false},
                      RenumberCase{"rigid_end", "tests/gpu/decks/rigid_end.inp", 1e-9, false},
                      RenumberCase{"equation_bar", "tests/gpu/decks/equation_bar.inp", 1e-9, false},
                      RenumberCase{"transform_shell", "tests/gpu/decks/transform_shell.inp", 1e-9, false},
                      RenumberCase{"static_c3d20", "tests/gpu/decks/static_c3d20.inp", 1e-9, false},
                      RenumberCase{"static_nurbs", "tests/gpu/decks/static_nc3d2.inp", 1e-9},
                      RenumberCase{"two_steps", "tests/gpu/decks/two_steps.inp", 1e-9, false}),
    [](const ::testing::TestParamInfo<RenumberCase>& i) { return std::string(i.param.name); });

TEST(RenumberedRun, ResumesBitForBitAndRefusesTheOtherSetting) {
  const std::string dir = scratch_dir("renumber_restart");
  const std::string deck =
      generate_deck(dir, "pc", "pinched-cylinder --n 4 --shuffle 1 --time 0.2 --field-interval 20");
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/full", "--backend cpu --restart-every 15", &out), 0) << out;
  ASSERT_TRUE(fs::exists(dir + "/full/pc.restart"));
  fs::copy(dir + "/full", dir + "/resumed", fs::copy_options::recursive);
  fs::copy(dir + "/full", dir + "/other", fs::copy_options::recursive);
  // The default (auto: on with the CPU backend) resumes its own restart bit for bit.
  ASSERT_EQ(run_halfstep(deck, dir + "/resumed", "--backend cpu --restart " + dir + "/resumed/pc.restart", &out), 0)
      << out;
  expect_same_results(dir + "/full", dir + "/resumed");
  // --renumber off is refused, naming the option; the results are left as they were.
  EXPECT_EQ(run_halfstep(deck, dir + "/other", "--backend cpu --renumber off --restart " + dir + "/other/pc.restart", &out), 2)
      << out;
  EXPECT_NE(out.find("--renumber on"), std::string::npos) << out;
  EXPECT_NE(out.find("this run has --renumber off"), std::string::npos) << out;
  // And the other way round.
  ASSERT_EQ(run_halfstep(deck, dir + "/off", "--backend cpu --renumber off --restart-every 15", &out), 0) << out;
  EXPECT_EQ(run_halfstep(deck, dir + "/off", "--backend cpu --restart " + dir + "/off/pc.restart", &out), 2) << out;
  EXPECT_NE(out.find("this run has --renumber on"), std::string::npos) << out;
}

TEST(RenumberedRun, BadValueIsAUsageError) {
  std::string out;
  EXPECT_EQ(run_command(std::string(HALFSTEP_BINARY) + " run x.inp -o /tmp/none --renumber maybe", &out), 1) << out;
  EXPECT_NE(out.find("--renumber must be auto, on or off, got 'maybe'"), std::string::npos) << out;
}

// --renumber auto (the default) renumbers on either backend (the GPU suite runs renumbered
// models: tests/gpu/test_gpu_matches_cpu.cpp, Renumbered).
TEST(RenumberedRun, AutoRenumbersOnEitherBackend) {
  const std::string dir = scratch_dir("renumber_auto");
  const std::string deck = generate_deck(dir, "pc", "pinched-cylinder --n 4 --shuffle 1 --time 0.01 --field-interval 1");
  std::string out;
  ASSERT_EQ(run_halfstep(deck, dir + "/cpu", "--backend cpu", &out), 0) << out;
  const std::string cpu = read_file(dir + "/cpu/summary.json");
  EXPECT_NE(cpu.find("\"applied\": true"), std::string::npos) << cpu;
  EXPECT_LT(summary_number(cpu, "mean_node_span_run"), summary_number(cpu, "mean_node_span_deck"));
  if (!cuda_available(nullptr)) GTEST_SKIP() << "no GPU: the GPU half of auto is not exercised";
  ASSERT_EQ(run_halfstep(deck, dir + "/gpu", "--backend auto", &out), 0) << out;
  const std::string gpu = read_file(dir + "/gpu/summary.json");
  EXPECT_NE(gpu.find("\"applied\": true"), std::string::npos) << gpu;
  EXPECT_EQ(summary_number(gpu, "mean_node_span_run"), summary_number(cpu, "mean_node_span_run"));
}

}  // namespace
}  // namespace halfstep::test
