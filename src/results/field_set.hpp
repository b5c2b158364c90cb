// What output is made of: named arrays on the points and cells of a fixed result mesh. The
// discretization fills them (element kinds and the solver publish their quantities); the
// writers in io/ only write arrays, so they know nothing of elements or solvers.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace halfstep {

/// The point array of the nodes' internal forces that the .dat's "forces" table prints where a
/// frame has it (the peer's meaning); field output leaves it out (its RF is Abaqus's reaction).
inline constexpr const char* kNodalForceArray = "NodalForce";

/// One named array: size() / components values per point or per cell, entity-major.
struct FieldArray {
  std::string name;
  int components = 1;
  std::vector<double> values;
  /// A symmetric 3 x 3 tensor of 6 components in Abaqus's order 11, 22, 33, 12, 13, 23 (the
  /// order of every array here and of the printed tables); a writer whose format has an order
  /// of its own (VTK's XX, YY, ZZ, XY, YZ, XZ) reorders it.
  bool symmetric_tensor = false;
  /// What each component is (e.g. X, Y, Z, or SF1..SF5), for writers that label components;
  /// empty: unnamed. Unused for a symmetric tensor, whose names depend on the writer's order.
  std::vector<std::string> component_names;
  /// An array of this one's name, components and their meaning, without values (one derived
  /// from it on another mesh).
  FieldArray like() const {
    FieldArray a;
    a.name = name;
    a.components = components;
    a.symmetric_tensor = symmetric_tensor;
    a.component_names = component_names;
    return a;
  }
};

/// Named point and cell arrays of one output instant, in the order they are to be written.
struct FieldSet {
  std::vector<FieldArray> point, cell;
  /// Arrays at the cells' integration points, numbered as Abaqus numbers them (what *EL PRINT
  /// tables print; writers of meshes leave them out): cell c's points are ip_first[c] ..
  /// ip_first[c + 1] - 1, and a cell without point values (shells, beams, kinds that give
  /// centroid values only) has none. Empty when no table asked for them.
  std::vector<FieldArray> ip;
  std::vector<std::int64_t> ip_first;
  /// Appends a point array of n entities (filled with fill) and returns it.
  FieldArray& add_point(const std::string& name, int components, std::size_t n, double fill = 0.0) {
    FieldArray& a = point.emplace_back();
    a.name = name;
    a.components = components;
    a.values.assign(n * static_cast<std::size_t>(components), fill);
    return a;
  }
  /// Appends a cell array of n entities (filled with fill) and returns it.
  FieldArray& add_cell(const std::string& name, int components, std::size_t n, double fill = 0.0) {
    FieldArray& a = cell.emplace_back();
    a.name = name;
    a.components = components;
    a.values.assign(n * static_cast<std::size_t>(components), fill);
    return a;
  }
  /// The integration-point array called name, or null.
  const FieldArray* find_ip(const std::string& name) const {
    for (const FieldArray& a : ip)
      if (a.name == name) return &a;
    return nullptr;
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
  /// *TRANSFORM: per point, its local axes' index in axes (9 values: axis j's global
  /// components at 3 j), -1 for none; empty when the model has no local system. Printed
  /// tables (*NODE PRINT, GLOBAL=NO, Abaqus's default) show such a point's vectors in them.
  std::vector<int> axes_of;
  std::vector<double> axes;
  int num_cells() const { return static_cast<int>(types.size()); }
};

}  // namespace halfstep
