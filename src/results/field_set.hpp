// What output is made of: named arrays on the points and cells of a fixed result mesh. The
// discretization fills them (element kinds and the solver publish their quantities); the
// writers in io/ only write arrays, so they know nothing of elements or solvers.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace halfstep {

/// One named array: size() / components values per point or per cell, entity-major.
struct FieldArray {
  std::string name;
  int components = 1;
  std::vector<double> values;
};

/// Named point and cell arrays of one output instant, in the order they are to be written.
struct FieldSet {
  std::vector<FieldArray> point, cell;
  /// Appends a point array of n entities (filled with fill) and returns it.
  FieldArray& add_point(const std::string& name, int components, std::size_t n, double fill = 0.0) {
    point.push_back({name, components, std::vector<double>(n * static_cast<std::size_t>(components), fill)});
    return point.back();
  }
  /// Appends a cell array of n entities (filled with fill) and returns it.
  FieldArray& add_cell(const std::string& name, int components, std::size_t n, double fill = 0.0) {
    cell.push_back({name, components, std::vector<double>(n * static_cast<std::size_t>(components), fill)});
    return cell.back();
  }
  /// The point array called name, or null.
  const FieldArray* find_point(const std::string& name) const {
    for (const FieldArray& a : point)
      if (a.name == name) return &a;
    return nullptr;
  }
  /// The cell array called name, or null.
  const FieldArray* find_cell(const std::string& name) const {
    for (const FieldArray& a : cell)
      if (a.name == name) return &a;
    return nullptr;
  }
};

/// The mesh every frame's arrays live on: reference coordinates and cells (fixed for a run).
struct ResultMesh {
  int num_points = 0;
  std::vector<double> x, y, z;
  std::vector<int> conn;              ///< point indices of all cells, consecutively
  std::vector<std::int64_t> offsets;  ///< end of each cell in conn
  std::vector<std::uint8_t> types;    ///< VTK cell type of each cell
  /// A second mesh written as its own series beside the frames: the NURBS elements as
  /// rational Bézier cells (discretization/bezier_output.hpp); null when the model has none.
  std::shared_ptr<const ResultMesh> bezier;
  int num_cells() const { return static_cast<int>(types.size()); }
};

}  // namespace halfstep
