// The NURBS elements' Bézier series through the binary (issue 14, docs/input.md "*NURBS
// PATCH"): a run of a quarter-annulus patch writes <job>_nurbs_NNNNNN.vtu beside every frame,
// listed in <job>_nurbs.pvd; each file parses back (header, appended blocks and their sizes)
// into rational Bézier quadrilaterals with their weights, degrees, U and the frames' S, and a
// field request on a set keeps that set's elements only.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "run_util.hpp"

namespace halfstep::test {
namespace {

/// The quarter annulus 1 < r < 2, plane strain, degree 2, 4 x 4 elements (REFINE=3), under
/// internal pressure; `output` is the step's output request block.
std::string annulus_deck(const std::string& output) {
  std::ostringstream d;
  d.precision(17);
  const double s = std::sqrt(0.5);
  d << "*HEADING\nquarter annulus\n*NURBS PATCH, NAME=C, TYPE=CPE, ELSET=ALL, REFINE=3\n2, 1\n3, 2\n"
    << "0, 0, 0, 1, 1, 1\n0, 0, 1, 1\n0, 1, 1\n1, 1, " << s << "\n1, 0, 1\n0, 2, 1\n2, 2, " << s << "\n2, 0, 1\n"
    << "*ELSET, ELSET=TWO\n1, 2\n*MATERIAL, NAME=M\n*ELASTIC\n1000, 0.3\n*SOLID SECTION, ELSET=ALL, MATERIAL=M\n1\n"
    << "*STEP\n*STATIC\n1, 1\n*BOUNDARY\nC-U0, 1, 1\nC-U1, 2, 2\n*DSLOAD\nC-V0, P, 10\n" << output << "*END STEP\n";
  return d.str();
}

/// One DataArray of a .vtu: where it sits and its appended payload.
struct VtuArray {
  std::string section, type;  ///< PointData, CellData, Points, Cells or FieldData; Float64, Int32, ...
  int components = 1;
  std::string bytes;          ///< the payload
};

/// A .vtu as halfstep writes it (raw appended data, UInt64 block headers), parsed back.
struct Vtu {
  std::string header;  ///< the XML before the appended data
  int points = -1, cells = -1;
  std::map<std::string, VtuArray> arrays;  ///< by Name
  std::vector<double> f64(const std::string& name) const {
    const VtuArray& a = arrays.at(name);
    std::vector<double> v(a.bytes.size() / 8);
    std::memcpy(v.data(), a.bytes.data(), v.size() * 8);
    return v;
  }
};

/// Parses path; every failure of the structure (a missing element, a block whose size is not
/// its array's, bytes left over) is a test failure.
Vtu parse_vtu(const std::string& path) {
  Vtu v;
  const std::string content = read_file(path);
  const std::size_t data = content.find("<AppendedData encoding=\"raw\">");
  EXPECT_NE(data, std::string::npos) << path;
  if (data == std::string::npos) return v;
  v.header = content.substr(0, data);
  EXPECT_EQ(v.header.rfind("<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\"", 0), 0u);
  std::smatch m;
  if (std::regex_search(v.header, m, std::regex("<Piece NumberOfPoints=\"(\\d+)\" NumberOfCells=\"(\\d+)\">"))) {
    v.points = std::stoi(m[1]);
    v.cells = std::stoi(m[2]);
  }
  const std::size_t start = content.find('_', data) + 1;
  std::size_t expected_offset = 0;
  const std::regex tag("<(PointData|CellData|Points|Cells|FieldData)[ >]|<DataArray type=\"(\\w+)\" Name=\"([^\"]+)\"([^>]*)offset=\"(\\d+)\"");
  std::string section;
  for (auto it = std::sregex_iterator(v.header.begin(), v.header.end(), tag); it != std::sregex_iterator(); ++it) {
    const std::smatch& t = *it;
    if (t[1].matched) {
      section = t[1];
      continue;
    }
    VtuArray a;
    a.section = section;
    a.type = t[2];
    std::smatch c;
    const std::string attrs = t[4];
    if (std::regex_search(attrs, c, std::regex("NumberOfComponents=\"(\\d+)\""))) a.components = std::stoi(c[1]);
    const std::size_t offset = std::stoull(t[5]);
    EXPECT_EQ(offset, expected_offset) << t[3] << ": blocks must follow each other";
    std::uint64_t bytes = 0;
    if (start + offset + 8 > content.size()) {
      ADD_FAILURE() << t[3] << ": block past the end";
      break;
    }
    std::memcpy(&bytes, content.data() + start + offset, 8);
    a.bytes = content.substr(start + offset + 8, bytes);
    EXPECT_EQ(a.bytes.size(), bytes) << t[3];
    expected_offset = offset + 8 + bytes;
    v.arrays[t[3]] = a;
  }
  EXPECT_EQ(content.substr(start + expected_offset), "\n  </AppendedData>\n</VTKFile>\n") << path;
  // Each array's size is its entity count times its components.
  const std::map<std::string, std::size_t> width = {{"Float64", 8}, {"Int32", 4}, {"Int64", 8}, {"UInt8", 1}};
  for (const auto& [name, a] : v.arrays) {
    std::size_t n = 0;
    if (a.section == "PointData" || a.section == "Points") n = static_cast<std::size_t>(v.points);
    else if (a.section == "CellData") n = static_cast<std::size_t>(v.cells);
    else if (a.section == "FieldData") n = 1;
    else if (name == "offsets" || name == "types") n = static_cast<std::size_t>(v.cells);
    else continue;  // connectivity: checked against the offsets by the caller
    EXPECT_EQ(a.bytes.size(), n * static_cast<std::size_t>(a.components) * width.at(a.type)) << name;
  }
  return v;
}

/// The DataSet file names of a .pvd, in order.
std::vector<std::string> pvd_files(const std::string& path) {
  std::vector<std::string> files;
  const std::string text = read_file(path);
  const std::regex entry("<DataSet timestep=\"[^\"]*\" group=\"\" part=\"0\" file=\"([^\"]+)\"/>");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), entry); it != std::sregex_iterator(); ++it)
    files.push_back((*it)[1]);
  return files;
}

TEST(NurbsOutput, BezierSeriesHoldsTheExactCellsAndTheFramesFields) {
  const std::string dir = scratch_dir("nurbs_output");
  std::ofstream(dir + "/annulus.inp") << annulus_deck("*OUTPUT, FIELD\n*NODE OUTPUT\nU\n*ELEMENT OUTPUT\nS\n");
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/annulus.inp", dir + "/out", "--backend cpu --threads 1", &out), 0) << out;
  const std::vector<std::string> frames = pvd_files(dir + "/out/annulus.pvd");
  const std::vector<std::string> bezier = pvd_files(dir + "/out/annulus_nurbs.pvd");
  ASSERT_EQ(frames, (std::vector<std::string>{"annulus_000000.vtu", "annulus_000001.vtu"}));
  ASSERT_EQ(bezier, (std::vector<std::string>{"annulus_nurbs_000000.vtu", "annulus_nurbs_000001.vtu"}));

  const Vtu b = parse_vtu(dir + "/out/" + bezier.back());
  const Vtu f = parse_vtu(dir + "/out/" + frames.back());
  constexpr int kP = 2, kNe = 4, kGrid = kNe * kP + 1;  // 4 x 4 elements sharing a 9 x 9 grid of Bézier points
  ASSERT_EQ(b.points, kGrid * kGrid);
  ASSERT_EQ(b.cells, kNe * kNe);
  // The VTK attributes that make the cells rational and give their degrees.
  EXPECT_NE(b.header.find("<PointData RationalWeights=\"RationalWeights\">"), std::string::npos);
  EXPECT_NE(b.header.find("<CellData HigherOrderDegrees=\"HigherOrderDegrees\" Tensors=\"S\">"), std::string::npos);
  for (const char* name : {"RationalWeights", "U", "HigherOrderDegrees", "ElementId", "S", "Points", "connectivity",
                           "offsets", "types", "TimeValue"})
    ASSERT_TRUE(b.arrays.count(name)) << name;
  EXPECT_EQ(b.arrays.at("RationalWeights").section, "PointData");
  EXPECT_EQ(b.arrays.at("U").section, "PointData");
  EXPECT_EQ(b.arrays.at("U").components, 3);
  EXPECT_EQ(b.arrays.at("HigherOrderDegrees").components, 3);
  EXPECT_EQ(b.arrays.at("S").components, 6);
  EXPECT_FALSE(b.arrays.count("NodeId"));  // Bézier points are not nodes

  const std::string& types = b.arrays.at("types").bytes;
  for (const char t : types) EXPECT_EQ(static_cast<unsigned char>(t), 77u);
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(b.cells));
  std::memcpy(offsets.data(), b.arrays.at("offsets").bytes.data(), offsets.size() * 8);
  std::vector<std::int32_t> conn(b.arrays.at("connectivity").bytes.size() / 4);
  std::memcpy(conn.data(), b.arrays.at("connectivity").bytes.data(), conn.size() * 4);
  ASSERT_EQ(conn.size(), static_cast<std::size_t>(b.cells * (kP + 1) * (kP + 1)));
  std::set<int> used;
  for (int c = 0; c < b.cells; ++c) EXPECT_EQ(offsets[static_cast<std::size_t>(c)], (c + 1) * (kP + 1) * (kP + 1));
  for (const std::int32_t p : conn) {
    EXPECT_TRUE(p >= 0 && p < b.points);
    used.insert(p);
  }
  EXPECT_EQ(used.size(), static_cast<std::size_t>(b.points));  // every point is some cell's

  const std::vector<double> w = b.f64("RationalWeights"), deg = b.f64("HigherOrderDegrees");
  for (const double x : w) EXPECT_GT(x, 0.0);
  for (int c = 0; c < b.cells; ++c)
    EXPECT_EQ((std::vector<double>{deg[3 * c], deg[3 * c + 1], deg[3 * c + 2]}), (std::vector<double>{2, 2, 0}));
  // Cell values are the frames' values of the same element.
  const std::vector<double> ids = b.f64("ElementId"), frame_ids = f.f64("ElementId");
  const std::vector<double> s = b.f64("S"), frame_s = f.f64("S");
  ASSERT_EQ(frame_ids.size(), static_cast<std::size_t>(b.cells));
  for (int c = 0; c < b.cells; ++c) {
    EXPECT_EQ(ids[static_cast<std::size_t>(c)], frame_ids[static_cast<std::size_t>(c)]);
    for (int k = 0; k < 6; ++k) EXPECT_EQ(s[6 * c + k], frame_s[6 * c + k]);
  }
  // The cells' first point is the element's corner (0, 0), which the patch interpolates: on
  // the inner rim (the first row of elements) at radius 1; and the patch's corners carry the
  // corner control points' U (control points 1, 6, 31, 36 of the 6 x 6 net: nodes 1..36).
  const std::vector<double> xyz = b.f64("Points"), u = b.f64("U"), frame_u = f.f64("U");
  for (int c = 0; c < kNe; ++c) {
    const int p = conn[static_cast<std::size_t>(c) * (kP + 1) * (kP + 1)];
    EXPECT_NEAR(std::hypot(xyz[3 * p], xyz[3 * p + 1]), 1.0, 1e-15);
  }
  const int corners[4][2] = {{0, 0}, {kGrid - 1, 5}, {kGrid * (kGrid - 1), 30}, {kGrid * kGrid - 1, 35}};
  for (const auto& [point, node] : corners)
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(u[3 * point + k], frame_u[3 * node + k], 1e-15) << point;
  // The pressure moves the inner rim out: the corner at (0, 1) by about Lamé's 0.019.
  EXPECT_GT(u[1], 0.015);
}

TEST(NurbsOutput, RequestsOnSetsKeepTheirElements) {
  const std::string dir = scratch_dir("nurbs_subset");
  std::ofstream(dir + "/annulus.inp") << annulus_deck(
      "*OUTPUT, FIELD\n*NODE OUTPUT, NSET=C-V0\nU\n*ELEMENT OUTPUT, ELSET=TWO\nS\n");
  std::string out;
  ASSERT_EQ(run_halfstep(dir + "/annulus.inp", dir + "/out", "--backend cpu --threads 1", &out), 0) << out;
  const std::vector<std::string> bezier = pvd_files(dir + "/out/annulus_nurbs.pvd");
  ASSERT_EQ(bezier.size(), 2u);
  const Vtu b = parse_vtu(dir + "/out/" + bezier.back());
  // Elements 1 and 2, neighbours along the rim: 2 x 3 x 3 Bézier points less the 3 they share.
  EXPECT_EQ(b.cells, 2);
  EXPECT_EQ(b.points, 15);
  EXPECT_EQ(b.f64("ElementId"), (std::vector<double>{1, 2}));
  EXPECT_EQ(b.f64("RationalWeights").size(), 15u);
  EXPECT_EQ(b.f64("U").size(), 45u);
}

}  // namespace
}  // namespace halfstep::test
