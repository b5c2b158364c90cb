// ParaView output: one VTK XML UnstructuredGrid (.vtu) file per frame.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace halfstep {

/// A named field on points or cells: n * components values, point/cell-major (x0,y0,z0,x1,...).
/// data is borrowed, not copied; it must stay valid for the write_vtu call. With rows (or
/// gathered set), the written entity i is data's row rows[i] for i < row_count and NaN after (a
/// subset or a renumbered model written in another order without copying the array first).
struct VtuField {
  std::string name;
  int components = 1;
  const double* data = nullptr;
  const int* rows = nullptr;  ///< null and not gathered: data's rows in order
  std::size_t row_count = 0;  ///< entries of rows
  /// Through rows even when the list is empty (rows null): every entity NaN. An empty
  /// std::vector's data() may be null, which alone would mean data's rows in order.
  bool gathered = false;
  bool through_rows() const { return gathered || rows != nullptr; }
  /// data holds a symmetric tensor (6 components) in Abaqus's order 11, 22, 33, 12, 13, 23; it
  /// is written in VTK's order XX, YY, ZZ, XY, YZ, XZ (what VTK's tensor filters read a
  /// 6-component array as) with those ComponentName attributes.
  bool symmetric_tensor = false;
  /// Written as the array's ComponentName0.. attributes (null or empty: none); ignored for a
  /// symmetric tensor.
  const std::vector<std::string>* component_names = nullptr;
};

/// VTK's symmetric tensor order: written component k is Abaqus-order component
/// kVtkFromAbaqus[k] (XX, YY, ZZ, XY, YZ, XZ from 11, 22, 33, 12, 13, 23).
inline constexpr int kVtkFromAbaqus[6] = {0, 1, 2, 3, 5, 4};

/// Writes an UnstructuredGrid of quads (VTK_QUAD = 9) with point and cell fields, atomically.
/// Arrays go in one raw appended block (UInt64 block headers, native byte order, no compression)
/// so a frame of 10^6 points costs little more than a memcpy. Points and fields are Float64,
/// connectivity Int32 (as given), offsets Int64, types UInt8. field_data holds one-value
/// dataset-wide arrays; name one "TimeValue" and ParaView shows it as the frame's time. A
/// point field "RationalWeights" and a cell field "HigherOrderDegrees" are also declared as
/// the VTK attributes of those names (what rational Bézier and anisotropic higher-order cells
/// read their weights and degrees from). The first symmetric tensor of the point and of the
/// cell fields is declared the active Tensors attribute.
/// Throws std::invalid_argument on bad arguments (e.g. a node index out of range) and
/// std::runtime_error on I/O failure.
void write_vtu(const std::string& path, int n_points, const double* x, const double* y,
               const double* z, int n_cells, const int* quad_conn /*4 per cell, 0-based*/,
               const std::vector<VtuField>& point_fields, const std::vector<VtuField>& cell_fields,
               const std::vector<std::pair<std::string, double>>& field_data = {});

/// Cells of any VTK type: conn holds the point indices of all cells, offsets[c] the end of
/// cell c's entries in conn, types[c] its VTK type (9 quad, 10 tetra, 12 hexahedron, 24
/// quadratic tetra, 77 Bézier quadrilateral). Borrowed, like VtuField.
struct VtuCells {
  int count = 0;
  const int* conn = nullptr;
  const std::int64_t* offsets = nullptr;
  const std::uint8_t* types = nullptr;
};

/// The same file for cells of mixed types.
void write_vtu(const std::string& path, int n_points, const double* x, const double* y, const double* z,
               const VtuCells& cells, const std::vector<VtuField>& point_fields,
               const std::vector<VtuField>& cell_fields,
               const std::vector<std::pair<std::string, double>>& field_data = {});

/// Escapes &, <, >, " and ' so that s can sit inside an XML attribute value.
std::string xml_escape(std::string_view s);

}  // namespace halfstep
