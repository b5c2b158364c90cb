#include "io/vtu_writer.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "io/atomic_file.hpp"

namespace halfstep {
namespace {

static_assert(sizeof(int) == 4, "connectivity is written as Int32 straight from the caller's ints");
static_assert(sizeof(double) == 8,
              "fields are written as Float64 straight from the caller's doubles");

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
constexpr const char* kByteOrder = "BigEndian";
#else
constexpr const char* kByteOrder = "LittleEndian";
#endif

constexpr std::uint8_t kVtkQuad = 9;

// One array of the appended section: the caller's memory as it is, or (field set) a field's
// rows gathered through its row list, or its components reordered, as they are written.
struct Block {
  const void* data;
  std::uint64_t bytes;
  const VtuField* field = nullptr;
};

// Collects the XML header and the appended blocks it refers to, keeping offsets consistent.
class Layout {
 public:
  // Declares an appended DataArray and queues its payload; extra_attrs start with a space.
  void array(const std::string& indent, const char* type, const std::string& extra_attrs,
             const void* data, std::uint64_t bytes, const VtuField* gathered = nullptr) {
    xml += indent + "<DataArray type=\"" + type + "\"" + extra_attrs +
           " format=\"appended\" offset=\"" + std::to_string(offset_) + "\"/>\n";
    blocks.push_back({data, bytes, gathered});
    offset_ += sizeof(std::uint64_t) + bytes;  // VTK's block header precedes each payload
  }

  std::string xml;
  std::vector<Block> blocks;

 private:
  std::uint64_t offset_ = 0;
};

/// Writes b's field gathered through its rows (all in order without rows) and with a symmetric
/// tensor's components in VTK's order, a chunk of rows at a time (a few hundred kB in flight
/// instead of a copy of the whole array).
void write_gathered(AtomicFile& file, const Block& b) {
  const VtuField& f = *b.field;
  const std::size_t comps = static_cast<std::size_t>(f.components);
  const std::size_t n = b.bytes / (comps * sizeof(double));
  const std::size_t rows = f.through_rows() ? f.row_count : n;
  constexpr std::size_t kChunk = 16384;  // rows per write
  std::vector<double> buf(kChunk * comps);
  for (std::size_t first = 0; first < n; first += kChunk) {
    const std::size_t count = std::min(kChunk, n - first);
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t r = first + i;
      double* out = buf.data() + i * comps;
      if (r < rows) {
        const double* in = f.data + (f.rows ? static_cast<std::size_t>(f.rows[r]) : r) * comps;
        if (f.symmetric_tensor)
          for (std::size_t k = 0; k < comps; ++k) out[k] = in[kVtkFromAbaqus[k]];
        else
          for (std::size_t k = 0; k < comps; ++k) out[k] = in[k];
      } else {
        for (std::size_t k = 0; k < comps; ++k) out[k] = std::numeric_limits<double>::quiet_NaN();
      }
    }
    file.write(buf.data(), count * comps * sizeof(double));
  }
}

void check_field(const VtuField& f, int n, const char* where) {
  if (f.name.empty())
    throw std::invalid_argument(std::string("write_vtu: unnamed ") + where + " field");
  if (f.components < 1) {
    throw std::invalid_argument("write_vtu: field '" + f.name + "' has " +
                                std::to_string(f.components) + " components");
  }
  if (n > 0 && f.data == nullptr && !(f.through_rows() && f.row_count == 0)) {
    throw std::invalid_argument("write_vtu: field '" + f.name + "' has no data");
  }
  if (f.through_rows() && f.row_count > static_cast<std::size_t>(n))
    throw std::invalid_argument("write_vtu: field '" + f.name + "' lists more rows than the " + where + " has");
  if (f.symmetric_tensor && f.components != 6)
    throw std::invalid_argument("write_vtu: symmetric tensor '" + f.name + "' has " + std::to_string(f.components) +
                                " components, not 6");
  if (!f.symmetric_tensor && f.component_names && !f.component_names->empty() &&
      f.component_names->size() != static_cast<std::size_t>(f.components))
    throw std::invalid_argument("write_vtu: field '" + f.name + "' names " +
                                std::to_string(f.component_names->size()) + " of its " +
                                std::to_string(f.components) + " components");
}

// The ComponentName attributes of f (a symmetric tensor's in VTK's order), which ParaView shows
// in place of its default 0..5 (or X, Y, Z) labels.
std::string component_names(const VtuField& f) {
  static const std::vector<std::string> kTensor = {"XX", "YY", "ZZ", "XY", "YZ", "XZ"};
  const std::vector<std::string>* names = f.symmetric_tensor ? &kTensor : f.component_names;
  std::string out;
  if (!names) return out;
  for (std::size_t k = 0; k < names->size(); ++k)
    out += " ComponentName" + std::to_string(k) + "=\"" + xml_escape((*names)[k]) + "\"";
  return out;
}

// The higher-order cells' arrays of VTK's own names are also declared as the attributes of
// those names: newer VTK (vtkDataSet::SetCellOrderAndRationalWeights) takes a Bézier cell's
// weights and a cell's degrees from the active attribute; older VTK looked the names up.
// The first symmetric tensor is declared the active Tensors (what ParaView's tensor glyphs and
// VTK filters without an array selection take).
std::string vtk_attributes(const std::string& section, const std::vector<VtuField>& fields) {
  const char* special = section == "PointData" ? "RationalWeights" : "HigherOrderDegrees";
  std::string out;
  for (const VtuField& f : fields)
    if (f.name == special) {
      out += std::string(" ") + special + "=\"" + special + "\"";
      break;
    }
  for (const VtuField& f : fields)
    if (f.symmetric_tensor) {
      out += " Tensors=\"" + xml_escape(f.name) + "\"";
      break;
    }
  return out;
}

void add_fields(Layout& layout, const char* section, const std::vector<VtuField>& fields, int n) {
  if (fields.empty()) return;
  for (const VtuField& f : fields) check_field(f, n, section);
  layout.xml += std::string("      <") + section + vtk_attributes(section, fields) + ">\n";
  for (const VtuField& f : fields) {
    layout.array("        ", "Float64",
                 " Name=\"" + xml_escape(f.name) + "\" NumberOfComponents=\"" +
                     std::to_string(f.components) + "\"" + component_names(f),
                 f.data, std::uint64_t(n) * std::uint64_t(f.components) * sizeof(double),
                 f.through_rows() || f.symmetric_tensor ? &f : nullptr);
  }
  layout.xml += std::string("      </") + section + ">\n";
}

}  // namespace

std::string xml_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

void write_vtu(const std::string& path, int n_points, const double* x, const double* y,
               const double* z, int n_cells, const int* quad_conn,
               const std::vector<VtuField>& point_fields, const std::vector<VtuField>& cell_fields,
               const std::vector<std::pair<std::string, double>>& field_data) {
  if (n_cells < 0) throw std::invalid_argument("write_vtu: negative count");
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(n_cells));
  for (std::size_t c = 0; c < offsets.size(); ++c) offsets[c] = std::int64_t(4 * (c + 1));
  const std::vector<std::uint8_t> types(static_cast<std::size_t>(n_cells), kVtkQuad);
  write_vtu(path, n_points, x, y, z, VtuCells{n_cells, quad_conn, offsets.data(), types.data()}, point_fields,
            cell_fields, field_data);
}

void write_vtu(const std::string& path, int n_points, const double* x, const double* y, const double* z,
               const VtuCells& cells, const std::vector<VtuField>& point_fields,
               const std::vector<VtuField>& cell_fields,
               const std::vector<std::pair<std::string, double>>& field_data) {
  const int n_cells = cells.count;
  if (n_points < 0 || n_cells < 0) throw std::invalid_argument("write_vtu: negative count");
  if (n_points > 0 && (!x || !y || !z))
    throw std::invalid_argument("write_vtu: missing coordinates");
  if (n_cells > 0 && (!cells.conn || !cells.offsets || !cells.types))
    throw std::invalid_argument("write_vtu: missing connectivity");
  const std::size_t n_conn = n_cells > 0 ? static_cast<std::size_t>(cells.offsets[n_cells - 1]) : 0;
  // A bad index would make ParaView read out of bounds (or crash) long after the run ended.
  std::int64_t prev = 0;
  for (int c = 0; c < n_cells; ++c) {
    if (cells.offsets[c] <= prev) throw std::invalid_argument("write_vtu: cell offsets must increase");
    prev = cells.offsets[c];
  }
  for (std::size_t i = 0, c = 0; i < n_conn; ++i) {
    while (static_cast<std::size_t>(cells.offsets[c]) <= i) ++c;
    if (cells.conn[i] < 0 || cells.conn[i] >= n_points) {
      throw std::invalid_argument("write_vtu: cell " + std::to_string(c) + " refers to point " +
                                  std::to_string(cells.conn[i]) + " of " + std::to_string(n_points));
    }
  }
  const int* quad_conn = cells.conn;

  // VTK wants interleaved xyz; the rest is generated. Everything else is written from the caller's
  // memory.
  std::vector<double> points(3 * std::size_t(n_points));
  for (std::size_t i = 0; i < std::size_t(n_points); ++i) {
    points[3 * i] = x[i];
    points[3 * i + 1] = y[i];
    points[3 * i + 2] = z[i];
  }
  std::vector<double> field_values;
  field_values.reserve(field_data.size());
  for (const auto& fd : field_data) field_values.push_back(fd.second);

  Layout layout;
  layout.xml = std::string(
                   "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" "
                   "byte_order=\"") +
               kByteOrder + "\" header_type=\"UInt64\">\n  <UnstructuredGrid>\n";
  if (!field_data.empty()) {
    layout.xml += "    <FieldData>\n";
    for (std::size_t i = 0; i < field_data.size(); ++i) {
      layout.array("      ", "Float64",
                   " Name=\"" + xml_escape(field_data[i].first) + "\" NumberOfTuples=\"1\"",
                   &field_values[i], sizeof(double));
    }
    layout.xml += "    </FieldData>\n";
  }
  layout.xml += "    <Piece NumberOfPoints=\"" + std::to_string(n_points) + "\" NumberOfCells=\"" +
                std::to_string(n_cells) + "\">\n";
  add_fields(layout, "PointData", point_fields, n_points);
  add_fields(layout, "CellData", cell_fields, n_cells);
  layout.xml += "      <Points>\n";
  layout.array("        ", "Float64", " Name=\"Points\" NumberOfComponents=\"3\"", points.data(),
               points.size() * sizeof(double));
  layout.xml += "      </Points>\n      <Cells>\n";
  layout.array("        ", "Int32", " Name=\"connectivity\"", quad_conn, n_conn * sizeof(int));
  layout.array("        ", "Int64", " Name=\"offsets\"", cells.offsets,
               static_cast<std::size_t>(n_cells) * sizeof(std::int64_t));
  layout.array("        ", "UInt8", " Name=\"types\"", cells.types, static_cast<std::size_t>(n_cells));
  layout.xml +=
      "      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n  <AppendedData encoding=\"raw\">\n   "
      "_";

  AtomicFile file(path);
  file.write(layout.xml);
  for (const Block& b : layout.blocks) {
    file.write(&b.bytes, sizeof b.bytes);
    if (b.field) write_gathered(file, b);
    else file.write(b.data, b.bytes);
  }
  file.write("\n  </AppendedData>\n</VTKFile>\n");
  file.commit();
}

}  // namespace halfstep
