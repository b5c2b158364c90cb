// The NURBS elements' output as rational Bézier cells (issue 14; docs/input.md "*NURBS
// PATCH"). The frames draw a NURBS element as a Lagrange quadrilateral through its control
// points, which for degree >= 2 is the control net, not the body, and give the control
// points' displacements. Bézier extraction turns each element into an exact rational Bézier
// patch (P^b_w = C_e^T P_w in homogeneous coordinates), which VTK draws as a
// VTK_BEZIER_QUADRILATERAL from its Bézier points and their "RationalWeights"; a field of
// the same rational space (the displacement) maps the same way, so the Bézier cells carry
// the exact geometry and the exact displacement field. docs/theory.md, "Output of NURBS elements".
#pragma once

#include <vector>

#include "discretization/structure_system.hpp"
#include "model/model.hpp"
#include "results/field_set.hpp"

namespace halfstep {

/// VTK's cell type number of a Bézier quadrilateral (vtkCellType.h, VTK_BEZIER_QUADRILATERAL).
constexpr int kVtkBezierQuadrilateral = 77;

/// The Bézier cells of a model's NURBS patches and how frame values map onto them.
struct BezierOutput {
  /// Bézier points (x^b at the reference configuration) shared by the elements of a patch,
  /// and one VTK_BEZIER_QUADRILATERAL per element, points in VTK's order.
  ResultMesh mesh;
  std::vector<double> weights;      ///< w^b per point: the cells' "RationalWeights"
  std::vector<double> degrees;      ///< 3 per cell (p, q, 0): the cells' "HigherOrderDegrees"
  std::vector<int> source_cell;     ///< per cell: the cell of the frames (result_mesh) of its element
  /// Per point (CSR by point_ptr): the nodes and coefficients C_e[a][b] w_a / w^b whose sum
  /// gives the point's value of any field of the patch's rational space.
  std::vector<int> point_ptr, point_node;
  std::vector<double> point_coef;
  /// No NURBS elements: nothing to write.
  bool empty() const { return mesh.num_cells() == 0; }
};

/// The Bézier output of sys's NURBS elements (empty without *NURBS PATCH). sys is the whole
/// model's system (it must hold every patch element, with its element data). Throws
/// std::logic_error when an element's data does not match its patch.
BezierOutput bezier_output(const Model& model, const StructureSystem& sys);

/// The Bézier cells' arrays of one frame: point arrays RationalWeights and the frame's U and
/// V mapped to the Bézier points (the fields that live in the NURBS space; reactions,
/// rotations and ids do not), cell arrays HigherOrderDegrees and each frame cell array that
/// is not NaN on every NURBS element, taken from the element's cell.
FieldSet bezier_fields(const BezierOutput& b, const FieldSet& frame);

}  // namespace halfstep
