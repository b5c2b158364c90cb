// Tests of the result writers: atomic files, VTU frames, the PVD index and CSV histories.
// The VTU and PVD output is checked with a small XML checker and by decoding the raw appended
// block, so that no VTK installation is needed.
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "io/atomic_file.hpp"
#include "io/csv_writer.hpp"
#include "io/pvd_writer.hpp"
#include "io/vtu_writer.hpp"
#include "io_test_util.hpp"

namespace halfstep {
namespace {

using test::kPlateMesh;
using test::kPlateStep;
using test::TempDir;


std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// One start tag: its name and attributes.
struct XmlTag {
  std::string name;
  std::map<std::string, std::string> attrs;
};

/// Checks that xml is well formed (balanced, matching tags; quoted, unique, escaped attributes)
/// and returns its start tags, attribute values unescaped, in document order. Fails the test
/// and returns {} otherwise.
std::vector<XmlTag> parse_xml(const std::string& xml) {
  std::vector<XmlTag> tags;
  std::vector<std::string> open;
  size_t i = 0;
  auto fail = [&](const std::string& why) {
    ADD_FAILURE() << "malformed XML at byte " << i << ": " << why;
    return std::vector<XmlTag>{};
  };
  auto is_name = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == ':' ||
           c == '.';
  };
  auto skip_ws = [&] {
    while (i < xml.size() && std::isspace(static_cast<unsigned char>(xml[i]))) ++i;
  };
  if (xml.compare(0, 5, "<?xml") == 0) {
    i = xml.find("?>");
    if (i == std::string::npos) return fail("unterminated declaration");
    i += 2;
  }
  bool seen_root = false;
  while (true) {
    skip_ws();
    if (i >= xml.size()) break;
    if (xml[i] != '<') {
      if (open.empty()) return fail("text outside the root element");
      const size_t end = xml.find('<', i);
      const std::string text = xml.substr(i, end - i);
      if (text.find('&') != std::string::npos) return fail("& in text");  // none of ours needs one
      i = end;
      continue;
    }
    ++i;
    if (i < xml.size() && xml[i] == '/') {
      ++i;
      const size_t start = i;
      while (i < xml.size() && is_name(xml[i])) ++i;
      const std::string name = xml.substr(start, i - start);
      skip_ws();
      if (i >= xml.size() || xml[i] != '>') return fail("bad end tag");
      ++i;
      if (open.empty() || open.back() != name) return fail("mismatched </" + name + ">");
      open.pop_back();
      continue;
    }
    if (open.empty() && seen_root) return fail("second root element");
    XmlTag tag;
    const size_t start = i;
    while (i < xml.size() && is_name(xml[i])) ++i;
    tag.name = xml.substr(start, i - start);
    if (tag.name.empty()) return fail("empty tag name");
    while (true) {
      skip_ws();
      if (i >= xml.size()) return fail("unterminated tag");
      if (xml[i] == '>' || xml.compare(i, 2, "/>") == 0) break;
      const size_t a = i;
      while (i < xml.size() && is_name(xml[i])) ++i;
      const std::string attr = xml.substr(a, i - a);
      if (attr.empty() || i + 1 >= xml.size() || xml[i] != '=' || xml[i + 1] != '"')
        return fail("bad attribute");
      i += 2;
      const size_t end = xml.find('"', i);
      if (end == std::string::npos) return fail("unterminated attribute");
      std::string value;
      for (size_t k = i; k < end; ++k) {
        if (xml[k] == '<') return fail("< in attribute");
        if (xml[k] != '&') {
          value += xml[k];
          continue;
        }
        static const std::pair<const char*, char> kEntities[] = {
            {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
        bool known = false;
        for (const auto& [entity, c] : kEntities) {
          if (xml.compare(k, std::strlen(entity), entity) == 0) {
            value += c;
            k += std::strlen(entity) - 1;
            known = true;
            break;
          }
        }
        if (!known) return fail("bare & in attribute");
      }
      if (!tag.attrs.emplace(attr, value).second) return fail("duplicate attribute " + attr);
      i = end + 1;
    }
    const bool self_closing = xml[i] == '/';
    i += self_closing ? 2 : 1;
    if (!self_closing) open.push_back(tag.name);
    seen_root = true;
    tags.push_back(std::move(tag));
  }
  if (!open.empty()) return fail("unclosed <" + open.back() + ">");
  if (!seen_root) return fail("no root element");
  return tags;
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Runs body in a child process, lets it work until ready() holds, then SIGKILLs it mid-write.
template <class Body, class Ready>
void kill_while_writing(Body body, Ready ready) {
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    body();
    ::_exit(0);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!ready() && std::chrono::steady_clock::now() < deadline) ::usleep(1000);
  ::usleep(20000);  // let it get well into the next writes
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status)) << "the writer finished before it was killed";
}

// ---------------------------------------------------------------- atomic files

TEST(AtomicFile, WritesContentAndLeavesNoTemporary) {
  TempDir dir;
  write_file_atomically(dir / "a.txt", "first");
  write_file_atomically(dir / "a.txt", "second version");
  EXPECT_EQ(read_file(dir / "a.txt"), "second version");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"a.txt"});
}

TEST(AtomicFile, MissingDirectoryThrowsWithPath) {
  TempDir dir;
  const std::string path = dir / "no_such_dir/summary.json";
  try {
    write_file_atomically(path, "{}");
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), path)) << e.what();
    EXPECT_TRUE(contains(e.what(), "No such file or directory")) << e.what();
  }
}

TEST(AtomicFile, AbandonedWriteKeepsOldFileAndRemovesTemporary) {
  TempDir dir;
  write_file_atomically(dir / "frame.vtu", "old");
  {
    AtomicFile f(dir / "frame.vtu");
    f.write("half of a new fr");
    EXPECT_EQ(read_file(dir / "frame.vtu"), "old");  // readers see the old file meanwhile
  }  // dropped without commit, as when an exception unwinds
  EXPECT_EQ(read_file(dir / "frame.vtu"), "old");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"frame.vtu"});
}

TEST(AtomicFile, MakeDirectoriesCreatesParentsAndReportsFailure) {
  TempDir dir;
  make_directories(dir / "out/frames/deep");
  make_directories(dir / "out/frames/deep");  // existing is fine
  EXPECT_TRUE(std::filesystem::is_directory(dir / "out/frames/deep"));

  write_file_atomically(dir / "plain", "x");
  for (const std::string& bad : {dir / "plain", dir / "plain/sub"}) {
    try {
      make_directories(bad);
      FAIL() << "expected an exception for " << bad;
    } catch (const std::runtime_error& e) {
      EXPECT_TRUE(contains(e.what(), "cannot create directory '" + bad + "'")) << e.what();
    }
  }
}

// ---------------------------------------------------------------- VTU

// A parsed .vtu: its XML tags and the raw appended payload that the offsets point into.
struct VtuFile {
  std::vector<XmlTag> tags;
  std::string appended;  // bytes after the '_' marker
  std::string tail;      // what follows the last block

  const XmlTag& array(const std::string& name) const {
    for (const XmlTag& t : tags) {
      if (t.name == "DataArray" && t.attrs.count("Name") && t.attrs.at("Name") == name) return t;
    }
    throw std::out_of_range("no DataArray " + name);
  }

  // Decodes one block: a UInt64 byte count, then that many bytes of T.
  template <class T>
  std::vector<T> values(const std::string& name) const {
    const size_t offset = std::stoull(array(name).attrs.at("offset"));
    std::uint64_t bytes = 0;
    EXPECT_LE(offset + sizeof bytes, appended.size());
    std::memcpy(&bytes, appended.data() + offset, sizeof bytes);
    EXPECT_EQ(bytes % sizeof(T), 0u);
    EXPECT_LE(offset + sizeof bytes + bytes, appended.size());
    std::vector<T> out(bytes / sizeof(T));
    std::memcpy(out.data(), appended.data() + offset + sizeof bytes, bytes);
    return out;
  }
};

VtuFile parse_vtu(const std::string& content) {
  const std::string marker = "<AppendedData encoding=\"raw\">";
  const size_t m = content.find(marker);
  EXPECT_NE(m, std::string::npos);
  const size_t underscore = content.find('_', m + marker.size());
  EXPECT_NE(underscore, std::string::npos);
  // Every byte between the marker and '_' must be blank, or VTK would misplace the offsets.
  EXPECT_EQ(content.find_first_not_of(" \n", m + marker.size()), underscore);
  VtuFile vtu;
  vtu.appended = content.substr(underscore + 1);
  // The XML with the binary payload cut out must be well formed on its own.
  vtu.tags = parse_xml(content.substr(0, m) + "<AppendedData encoding=\"raw\"/></VTKFile>");

  // Walk the blocks in offset order: they must tile the payload exactly.
  std::vector<size_t> offsets;
  for (const XmlTag& t : vtu.tags) {
    if (t.name == "DataArray") offsets.push_back(std::stoull(t.attrs.at("offset")));
  }
  std::sort(offsets.begin(), offsets.end());
  size_t end = 0;
  for (size_t off : offsets) {
    EXPECT_EQ(off, end);
    std::uint64_t bytes = 0;
    std::memcpy(&bytes, vtu.appended.data() + off, sizeof bytes);
    end = off + sizeof bytes + bytes;
  }
  vtu.tail = vtu.appended.substr(end);
  vtu.appended.resize(end);
  return vtu;
}

TEST(VtuWriter, TwoQuadsRoundTrip) {
  TempDir dir;
  //  3---4---5
  //  |   |   |
  //  0---1---2
  const std::vector<double> x = {0, 1, 2, 0, 1, 2}, y = {0, 0, 0, 1, 1, 1};
  const std::vector<double> z = {0, 0.1, 1.0 / 3, -0.0, 1e-300, 2.5e10};
  const std::vector<int> conn = {0, 1, 4, 3, 1, 2, 5, 4};
  std::vector<double> u(18), node_id(6);
  for (int i = 0; i < 18; ++i) u[i] = std::sqrt(2.0) * i - 7;
  for (int i = 0; i < 6; ++i) node_id[i] = 101 + i;
  const std::vector<double> mises = {1.0 / 7, -3e8};

  const std::string path = dir / "job_0003.vtu";
  write_vtu(path, 6, x.data(), y.data(), z.data(), 2, conn.data(),
            {{"U", 3, u.data()}, {"NodeId", 1, node_id.data()}}, {{"S<Mises>", 1, mises.data()}},
            {{"TimeValue", 0.1 + 0.2}, {"STEP", 2}});
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"job_0003.vtu"});

  const std::string content = read_file(path);
  const VtuFile vtu = parse_vtu(content);
  EXPECT_EQ(vtu.tail, "\n  </AppendedData>\n</VTKFile>\n");

  ASSERT_FALSE(vtu.tags.empty());
  const XmlTag& root = vtu.tags[0];
  EXPECT_EQ(root.name, "VTKFile");
  EXPECT_EQ(root.attrs.at("type"), "UnstructuredGrid");
  EXPECT_EQ(root.attrs.at("header_type"), "UInt64");
  EXPECT_EQ(root.attrs.at("byte_order"), "LittleEndian");
  const auto piece = std::find_if(vtu.tags.begin(), vtu.tags.end(),
                                  [](const XmlTag& t) { return t.name == "Piece"; });
  ASSERT_NE(piece, vtu.tags.end());
  EXPECT_EQ(piece->attrs.at("NumberOfPoints"), "6");
  EXPECT_EQ(piece->attrs.at("NumberOfCells"), "2");
  // Names are escaped in the XML and come back intact.
  EXPECT_TRUE(contains(content, "Name=\"S&lt;Mises&gt;\""));

  EXPECT_EQ(vtu.array("U").attrs.at("NumberOfComponents"), "3");
  EXPECT_EQ(vtu.array("U").attrs.at("type"), "Float64");
  EXPECT_EQ(vtu.array("TimeValue").attrs.at("NumberOfTuples"), "1");
  EXPECT_EQ(vtu.array("connectivity").attrs.at("type"), "Int32");
  EXPECT_EQ(vtu.array("offsets").attrs.at("type"), "Int64");
  EXPECT_EQ(vtu.array("types").attrs.at("type"), "UInt8");

  EXPECT_EQ(vtu.values<double>("U"), u);
  EXPECT_EQ(vtu.values<double>("NodeId"), node_id);
  EXPECT_EQ(vtu.values<double>("S<Mises>"), mises);
  EXPECT_EQ(vtu.values<double>("TimeValue"), std::vector<double>{0.1 + 0.2});
  EXPECT_EQ(vtu.values<double>("STEP"), std::vector<double>{2});
  const std::vector<double> points = vtu.values<double>("Points");
  ASSERT_EQ(points.size(), 18u);
  for (int i = 0; i < 6; ++i) {
    EXPECT_TRUE(same_bits(points[3 * i], x[i]) && same_bits(points[3 * i + 1], y[i]) &&
                same_bits(points[3 * i + 2], z[i]))
        << "point " << i;
  }
  EXPECT_EQ(vtu.values<std::int32_t>("connectivity"),
            std::vector<std::int32_t>(conn.begin(), conn.end()));
  EXPECT_EQ(vtu.values<std::int64_t>("offsets"), (std::vector<std::int64_t>{4, 8}));
  EXPECT_EQ(vtu.values<std::uint8_t>("types"), (std::vector<std::uint8_t>{9, 9}));
}

// A field written through a row list (a renumbered model's frame in the deck's order, or a
// subset): entity i is the data's row rows[i], NaN past the list; more rows than entities is
// refused. Enough rows to span several of the writer's chunks.
TEST(VtuWriter, FieldThroughRowListIsWrittenInThatOrder) {
  TempDir dir;
  const int n = 40000;  // points; the writer gathers 16,384 rows a chunk
  std::vector<double> x(n), y(n), z(n, 0.0);
  for (int i = 0; i < n; ++i) {
    x[i] = i % 200;
    y[i] = i / 200;
  }
  const std::vector<int> conn = {0, 1, 201, 200};
  std::vector<double> u(3 * static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < u.size(); ++i) u[i] = 0.5 * static_cast<double>(i) - 3;
  std::vector<int> rows(n);
  for (int i = 0; i < n; ++i) rows[i] = static_cast<int>((7919LL * i) % n);  // a permutation (7919 prime)
  const std::vector<double> cell_value = {2.5, -1.0};
  const std::vector<int> cell_rows = {1};  // one listed row: the cell gets data's row 1
  const std::string path = dir / "rows.vtu";
  write_vtu(path, n, x.data(), y.data(), z.data(), 1, conn.data(),
            {{"U", 3, u.data(), rows.data(), rows.size()}}, {{"C", 1, cell_value.data(), cell_rows.data(), 1}});
  const VtuFile vtu = parse_vtu(read_file(path));
  const std::vector<double> got = vtu.values<double>("U");
  ASSERT_EQ(got.size(), u.size());
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k)
      ASSERT_EQ(got[3 * static_cast<std::size_t>(i) + k], u[3 * static_cast<std::size_t>(rows[i]) + k]) << i;
  EXPECT_EQ(vtu.values<double>("C"), std::vector<double>{-1.0});
  // Fewer listed rows than entities: the rest are NaN.
  write_vtu(path, n, x.data(), y.data(), z.data(), 1, conn.data(), {{"U", 3, u.data(), rows.data(), 100}}, {});
  const std::vector<double> part = parse_vtu(read_file(path)).values<double>("U");
  ASSERT_EQ(part.size(), u.size());
  EXPECT_EQ(part[3 * 99], u[3 * static_cast<std::size_t>(rows[99])]);
  EXPECT_TRUE(std::isnan(part[3 * 100]) && std::isnan(part.back()));
  // An empty row list (a node-set frame with no whole element: vertex cells only) is all NaN,
  // not data's rows in order, whatever the empty list's pointer.
  write_vtu(path, n, x.data(), y.data(), z.data(), 1, conn.data(), {}, {{"C", 1, cell_value.data(), nullptr, 0, true}});
  const std::vector<double> none = parse_vtu(read_file(path)).values<double>("C");
  ASSERT_EQ(none.size(), 1u);
  EXPECT_TRUE(std::isnan(none[0]));
  EXPECT_THROW(write_vtu(path, 2, x.data(), y.data(), z.data(), 0, conn.data(),
                         {{"U", 3, u.data(), rows.data(), 3}}, {}),
               std::invalid_argument);
}

// A symmetric tensor given in Abaqus's order 11, 22, 33, 12, 13, 23 is written in VTK's order
// XX, YY, ZZ, XY, YZ, XZ (what VTK's tensor filters read 6 components as), with ComponentName
// attributes, as the active Tensors, straight or through a row list; other arrays keep their
// order and get the names given. A tensor of other than 6 components, or names that do not
// match the components, is refused.
TEST(VtuWriter, SymmetricTensorsInVtkOrderWithComponentNames) {
  TempDir dir;
  const double x[4] = {0, 1, 1, 0}, y[4] = {0, 0, 1, 1}, z[4] = {};
  const int conn[8] = {0, 1, 2, 3, 3, 2, 1, 0};
  // Cell c's component k (Abaqus order) = 10 c + k + 1.
  const std::vector<double> s = {1, 2, 3, 4, 5, 6, 11, 12, 13, 14, 15, 16};
  const std::vector<double> sf = {1, 2, 3, 4, 5, 6};
  const std::vector<double> u(12, 0.5);
  const std::vector<std::string> xyz = {"X", "Y", "Z"}, sf_names = {"SF1", "SF2", "SF3"};
  const std::vector<int> swap = {1, 0};
  VtuField tensor{"S", 6, s.data()};
  tensor.symmetric_tensor = true;
  VtuField swapped = tensor;
  swapped.name = "S_rows";
  swapped.rows = swap.data();
  swapped.row_count = 2;
  VtuField forces{"SF", 3, sf.data()};
  forces.component_names = &sf_names;
  VtuField disp{"U", 3, u.data()};
  disp.component_names = &xyz;
  const std::string path = dir / "tensor.vtu";
  write_vtu(path, 4, x, y, z, 2, conn, {disp}, {forces, tensor, swapped});
  const std::string content = read_file(path);
  const VtuFile vtu = parse_vtu(content);
  EXPECT_EQ(vtu.values<double>("S"), (std::vector<double>{1, 2, 3, 4, 6, 5, 11, 12, 13, 14, 16, 15}));
  EXPECT_EQ(vtu.values<double>("S_rows"), (std::vector<double>{11, 12, 13, 14, 16, 15, 1, 2, 3, 4, 6, 5}));
  EXPECT_EQ(vtu.values<double>("SF"), sf);
  const char* vtk_names[6] = {"XX", "YY", "ZZ", "XY", "YZ", "XZ"};
  for (const char* name : {"S", "S_rows"})
    for (int k = 0; k < 6; ++k)
      EXPECT_EQ(vtu.array(name).attrs.at("ComponentName" + std::to_string(k)), vtk_names[k]) << name << " " << k;
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(vtu.array("U").attrs.at("ComponentName" + std::to_string(k)), xyz[k]);
    EXPECT_EQ(vtu.array("SF").attrs.at("ComponentName" + std::to_string(k)), sf_names[k]);
  }
  EXPECT_TRUE(contains(content, "<CellData Tensors=\"S\">"));
  EXPECT_TRUE(contains(content, "<PointData>"));  // no tensor there: none declared

  VtuField five = tensor;
  five.components = 5;
  EXPECT_THROW(write_vtu(path, 4, x, y, z, 2, conn, {}, {five}), std::invalid_argument);
  VtuField misnamed{"SF", 2, sf.data()};
  misnamed.component_names = &sf_names;
  EXPECT_THROW(write_vtu(path, 4, x, y, z, 2, conn, {}, {misnamed}), std::invalid_argument);
}

TEST(VtuWriter, NoFieldsAndNoTime) {
  TempDir dir;
  const double x[4] = {0, 1, 1, 0}, y[4] = {0, 0, 1, 1}, z[4] = {};
  const int conn[4] = {0, 1, 2, 3};
  write_vtu(dir / "bare.vtu", 4, x, y, z, 1, conn, {}, {});
  const std::string content = read_file(dir / "bare.vtu");
  const VtuFile vtu = parse_vtu(content);
  EXPECT_FALSE(contains(content, "FieldData"));
  EXPECT_FALSE(contains(content, "PointData"));
  EXPECT_EQ(vtu.values<std::int64_t>("offsets"), std::vector<std::int64_t>{4});
}

TEST(VtuWriter, BadConnectivityThrowsAndWritesNothing) {
  TempDir dir;
  const double x[4] = {}, y[4] = {}, z[4] = {};
  const int conn[4] = {0, 1, 4, 3};  // 4 is out of range
  EXPECT_THROW(write_vtu(dir / "bad.vtu", 4, x, y, z, 1, conn, {}, {}), std::invalid_argument);
  const double* no_data = nullptr;
  const int good[4] = {0, 1, 2, 3};
  EXPECT_THROW(write_vtu(dir / "bad.vtu", 4, x, y, z, 1, good, {{"U", 3, no_data}}, {}),
               std::invalid_argument);
  EXPECT_TRUE(dir.entries().empty());
}

TEST(VtuWriter, KilledWriterLeavesWholeFrame) {
  TempDir dir;
  const std::string path = dir / "frame.vtu";
  const int n = 300;
  std::vector<double> x(n * n), y(n * n), z(n * n), u(3 * n * n);
  for (int k = 0; k < n * n; ++k) x[k] = k % n, y[k] = k / n, z[k] = 0.5 * k;
  std::vector<int> conn;
  for (int j = 0; j + 1 < n; ++j) {
    for (int i = 0; i + 1 < n; ++i)
      conn.insert(conn.end(), {j * n + i, j * n + i + 1, j * n + i + n + 1, j * n + i + n});
  }
  const int n_cells = int(conn.size() / 4);
  kill_while_writing(
      [&] {
        for (int frame = 0;; ++frame) {
          for (double& v : u) v = frame;
          write_vtu(path, n * n, x.data(), y.data(), z.data(), n_cells, conn.data(),
                    {{"U", 3, u.data()}}, {}, {{"TimeValue", double(frame)}});
        }
      },
      [&] { return std::filesystem::exists(path); });
  // Whatever frame the file holds, it is complete and self-consistent; at most a .tmp lies beside
  // it.
  const VtuFile vtu = parse_vtu(read_file(path));
  EXPECT_EQ(vtu.tail, "\n  </AppendedData>\n</VTKFile>\n");
  const std::vector<double> time = vtu.values<double>("TimeValue");
  ASSERT_EQ(time.size(), 1u);
  EXPECT_EQ(vtu.values<double>("U"), std::vector<double>(u.size(), time[0]));
  EXPECT_EQ(vtu.values<double>("Points").size(), 3u * n * n);
}

// Guards against per-value text formatting creeping in: 10^6 points must take well under a second.
TEST(VtuWriter, MillionPointFrameIsFast) {
  TempDir dir;
  const int n = 1000, n_points = n * n, n_cells = (n - 1) * (n - 1);
  std::vector<double> x(n_points), y(n_points), z(n_points, 0.0), u(3 * size_t(n_points)),
      id(n_points);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      x[j * n + i] = i * 1e-3;
      y[j * n + i] = j * 1e-3;
      id[j * n + i] = j * n + i + 1;
    }
  }
  for (size_t k = 0; k < u.size(); ++k) u[k] = 1e-6 * double(k);
  std::vector<int> conn;
  conn.reserve(4 * size_t(n_cells));
  for (int j = 0; j + 1 < n; ++j) {
    for (int i = 0; i + 1 < n; ++i) {
      const int a = j * n + i;
      conn.insert(conn.end(), {a, a + 1, a + n + 1, a + n});
    }
  }
  std::vector<double> s(n_cells, 1.5);

  const auto t0 = std::chrono::steady_clock::now();
  write_vtu(dir / "big.vtu", n_points, x.data(), y.data(), z.data(), n_cells, conn.data(),
            {{"U", 3, u.data()}, {"V", 3, u.data()}, {"NodeId", 1, id.data()}},
            {{"S", 1, s.data()}}, {{"TimeValue", 1.0}});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("  10^6-point frame (%.0f MB) written in %.3f s\n",
              double(std::filesystem::file_size(dir / "big.vtu")) / 1e6, seconds);
  // Generous: the budget is a fraction of a second, but the test machine's disk is shared.
  EXPECT_LT(seconds, 5.0);
}

// ---------------------------------------------------------------- PVD

TEST(PvdWriter, ListsCompleteFramesInOrder) {
  TempDir dir;
  PvdWriter pvd(dir.str(), "plate");
  EXPECT_EQ(pvd.path(), dir / "plate.pvd");
  {
    const std::vector<XmlTag> tags = parse_xml(read_file(dir / "plate.pvd"));
    ASSERT_GE(tags.size(), 2u);
    EXPECT_EQ(tags[0].attrs.at("type"), "Collection");
    EXPECT_EQ(tags[1].name, "Collection");
    EXPECT_EQ(tags.size(), 2u) << "a new index lists no frames";
  }
  const std::vector<double> times = {0.0, 1.0 / 3 * 1e-3, 2e-3};
  const std::vector<std::string> files = {"plate_0000.vtu", "plate_0001.vtu",
                                          "frames/plate & co_0002.vtu"};
  for (size_t k = 0; k < times.size(); ++k) pvd.add_frame(times[k], files[k]);

  const std::vector<XmlTag> tags = parse_xml(read_file(dir / "plate.pvd"));
  std::vector<XmlTag> datasets;
  for (const XmlTag& t : tags) {
    if (t.name == "DataSet") datasets.push_back(t);
  }
  ASSERT_EQ(datasets.size(), 3u);
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(std::strtod(datasets[k].attrs.at("timestep").c_str(), nullptr), times[k]) << k;
  }
  EXPECT_EQ(datasets[0].attrs.at("file"), files[0]);
  EXPECT_EQ(datasets[1].attrs.at("file"), files[1]);
  EXPECT_EQ(datasets[2].attrs.at("file"), files[2]);  // escaped in the file, intact once parsed
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"plate.pvd"});
  EXPECT_THROW(pvd.add_frame(std::nan(""), "x.vtu"), std::invalid_argument);
}

// ---------------------------------------------------------------- CSV

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) parts.push_back(part);
  return parts;
}

TEST(CsvWriter, HeaderRowsAndRoundTrip) {
  TempDir dir;
  const std::string path = dir / "energy.csv";
  const std::vector<double> tricky = {
      0.1,      1.0 / 3, -2.0 / 3 * 1e-300,  6.02214076e23, 123456789.123456789,
      4.9e-324, 1e16,    9007199254740991.0, -0.0,          0.30000000000000004};
  {
    CsvWriter csv(path, {"time", "kinetic, J", "say \"hi\""});
    EXPECT_EQ(read_file(path), "time,\"kinetic, J\",\"say \"\"hi\"\"\"\n")
        << "header is written at open";
    for (size_t k = 0; k + 2 < tricky.size(); k += 3)
      csv.write_row({tricky[k], tricky[k + 1], tricky[k + 2]});
    const double row[3] = {42.0, -7.0, 1e6};
    csv.write_row(row, 3);
    EXPECT_THROW(csv.write_row({1.0, 2.0}), std::invalid_argument);
    csv.close();
  }
  const std::string text = read_file(path);
  ASSERT_EQ(text.back(), '\n');
  const std::vector<std::string> lines = split(text, '\n');
  ASSERT_EQ(lines.size(), 5u);
  std::vector<double> back;
  for (size_t l = 1; l < 4; ++l) {
    for (const std::string& cell : split(lines[l], ',')) {
      char* end = nullptr;
      back.push_back(std::strtod(cell.c_str(), &end));
      EXPECT_EQ(*end, '\0') << cell;
    }
  }
  ASSERT_EQ(back.size(), 9u);
  for (size_t k = 0; k < 9; ++k)
    EXPECT_TRUE(same_bits(back[k], tricky[k])) << k << ": " << lines[1 + k / 3];
  EXPECT_EQ(lines[4], "42,-7,1000000");  // integral values print as integers, not 1e+06
}

TEST(CsvWriter, IdRowsPrintIdsAsIntegers) {
  TempDir dir;
  CsvWriter csv(dir / "node_history.csv", {"node", "time", "U1"});
  const double values[2] = {1e-3, -2.5e-4};
  csv.write_row(1000000, values, 2);
  csv.write_row(7, values, 2);
  EXPECT_THROW(csv.write_row(7, values, 1), std::invalid_argument);
  EXPECT_EQ(read_file(dir / "node_history.csv"),
            "node,time,U1\n1000000,0.001,-0.00025\n7,0.001,-0.00025\n");
}

TEST(CsvWriter, KilledWriterLeavesWholeRows) {
  TempDir dir;
  const std::string path = dir / "history.csv";
  kill_while_writing(
      [&] {
        CsvWriter csv(path, {"step", "time", "a", "b", "c"});
        const double v[4] = {1.0 / 3, 2e-7, -4.25, 1e300};
        for (std::int64_t step = 0;; ++step) csv.write_row(step, v, 4);
      },
      [&] { return std::filesystem::exists(path) && std::filesystem::file_size(path) > 100000; });
  const std::string text = read_file(path);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n') << "a partial row was left behind";
  const std::vector<std::string> lines = split(text, '\n');
  for (size_t l = 1; l < lines.size(); ++l) {
    ASSERT_EQ(lines[l], std::to_string(l - 1) + ",0.3333333333333333,2e-07,-4.25,1e+300") << l;
  }
}

TEST(CsvWriter, NonFiniteAndUnwritablePath) {
  TempDir dir;
  {
    CsvWriter csv(dir / "nan.csv", {"a", "b", "c"});
    csv.write_row({std::nan(""), HUGE_VAL, -HUGE_VAL});
  }
  EXPECT_EQ(read_file(dir / "nan.csv"), "a,b,c\nnan,inf,-inf\n");
  const std::string bad = dir / "missing/h.csv";
  try {
    CsvWriter csv(bad, {"a"});
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), bad)) << e.what();
  }
}

}  // namespace
}  // namespace halfstep
