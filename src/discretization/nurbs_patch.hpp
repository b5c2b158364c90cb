// NURBS patches on the host (issue 14): the patch as structure-of-arrays data, its
// validation, refinement (knot insertion, degree elevation, uniform h-refinement, all in
// homogeneous coordinates so the geometry does not change) and its Bézier extraction into
// elements that an element kernel evaluates with nurbs::bezier_element_basis
// (elements/nurbs_basis.hpp). Only open (clamped) knot vectors are supported: the first and
// the last p + 1 knots are equal, so the patch interpolates its corner control points.
#pragma once

#include <array>
#include <vector>

#include "core/error.hpp"
#include "model/model.hpp"
#include "elements/nurbs_basis.hpp"

namespace halfstep {

/// One NURBS patch: a curve (dim 1), surface (dim 2) or solid (dim 3) in x, y, z. Control
/// points are numbered with parametric direction 0 fastest: index i0 + n0 * (i1 + n1 * i2).
struct NurbsPatch {
  int dim = 2;                                 ///< parametric dimension, 1..3
  std::array<int, 3> degree{{1, 1, 1}};        ///< polynomial degree per direction (1..kNurbsMaxDegree)
  std::array<int, 3> count{{0, 1, 1}};         ///< control points per direction (1 beyond dim)
  std::array<std::vector<double>, 3> knots;    ///< open knot vectors, count + degree + 1 values each
  std::vector<double> x, y, z;                 ///< control point coordinates (Cartesian, not weighted)
  std::vector<double> w;                       ///< control point weights, > 0

  /// Control points in the net, prod(count[0..dim-1]).
  int points() const;
  /// Index of control point (i0, i1, i2).
  int index(int i0, int i1, int i2 = 0) const { return i0 + count[0] * (i1 + count[1] * i2); }
};

/// Throws InputError (at `where`, when given) naming what is wrong: dimension, degree, control
/// net sizes, knot count (n + p + 1), knots not finite or decreasing, ends not open, interior
/// multiplicity above p, weights not positive and finite, coordinates not finite.
void validate(const NurbsPatch& patch, const SourceLoc& where = {});

/// Point of the patch at parameters u[0..dim-1] (knot space), by direct B-spline evaluation
/// (the reference the Bézier elements are tested against).
std::array<double, 3> evaluate(const NurbsPatch& patch, const double* u);

/// Point and parametric derivatives d x / d u_d (jac[d]) at u, for tests and sampling.
std::array<double, 3> evaluate(const NurbsPatch& patch, const double* u, std::array<double, 3>* jac);

/// The patch with knot u inserted `times` times in `direction` (Boehm's algorithm on the
/// homogeneous control points). Throws InputError when u is outside the open interval of the
/// knot vector or the multiplicity would exceed the degree.
NurbsPatch insert_knot(const NurbsPatch& patch, int direction, double u, int times = 1);

/// The patch with the degree in `direction` raised by t, each distinct knot's multiplicity
/// raised by t too (same continuity, same geometry). Throws InputError when the degree would
/// exceed kNurbsMaxDegree.
NurbsPatch elevate_degree(const NurbsPatch& patch, int direction, int t = 1);

/// Uniform h-refinement: `per_span` equally spaced knots inserted in every nonempty knot span
/// of every parametric direction.
NurbsPatch refine_uniform(const NurbsPatch& patch, int per_span);

/// The control points refine_uniform(patch, per_span) would make, without making them: each
/// direction gains per_span points a nonempty span. A double, so that a count past any
/// integer type is still compared (and refused) before the memory is asked for.
double refined_point_count(const NurbsPatch& patch, int per_span);

/// The boundary patch (dimension dim - 1) where parameter `direction` is at its first
/// (side 0) or last (side 1) knot: with open knot vectors it is the NURBS of that layer of
/// control points and weights, the other directions' knots and degrees (the patch edge a
/// boundary load or adhesion integral runs over). `points`, when given, receives each boundary
/// control point's index in the patch. Throws InputError for a curve (dim 1) or a bad direction/side.
NurbsPatch boundary(const NurbsPatch& patch, int direction, int side, std::vector<int>* points = nullptr);

/// Bézier extraction operators of one knot vector (Borden, Scott, Evans, Hughes 2011): one
/// (p+1) x (p+1) row-major matrix per nonempty span, rows = B-spline functions span-p..span,
/// columns = Bernstein polynomials on that span.
struct Extraction1D {
  int degree = 0;                ///< p of the knot vector
  std::vector<int> span;         ///< knot span index i of each element (U[i] < U[i+1])
  std::vector<double> lower;     ///< U[span] per element
  std::vector<double> upper;     ///< U[span + 1] per element
  std::vector<double> operators; ///< elements x (p+1) x (p+1)
  /// Elements (nonempty spans).
  int elements() const { return static_cast<int>(span.size()); }
  /// The operator of element e.
  const double* op(int e) const { return operators.data() + static_cast<size_t>(e) * (degree + 1) * (degree + 1); }
};

/// The 1D extraction of an open knot vector of degree p (validated by the caller).
Extraction1D extract_bezier_1d(const std::vector<double>& knots, int degree);

/// A patch cut into Bézier elements, structure-of-arrays, element e's data at e * stride.
/// Elements are numbered with direction 0 fastest. An element kernel gathers its control points'
/// coordinates and weights through `connectivity` and calls
/// nurbs::bezier_element_basis<dim>(degree, xi, extraction + e*nb*nb, w_e, R, dR).
struct BezierMesh {
  int dim = 2;                        ///< parametric dimension of the patch
  std::array<int, 3> degree{{1, 1, 1}};  ///< degree per direction (0 beyond dim)
  std::array<int, 3> elements_per_dir{{1, 1, 1}};  ///< nonempty spans per direction
  int nb = 0;                         ///< functions per element, prod(degree + 1)
  int elements = 0;
  std::vector<int> connectivity;      ///< elements x nb control-point indices, tensor order
  std::vector<double> extraction;     ///< elements x nb x nb, row-major: C_e = kron(C_2, C_1, C_0) (empty unless dense)
  std::vector<double> lower, upper;   ///< elements x dim knot-span bounds [lower, upper] per direction
  std::array<Extraction1D, 3> dir;    ///< the 1D operators (a kernel may apply them as a Kronecker product)
  std::vector<int> dir_element;       ///< elements x dim: the element's index in each dir[d]

  /// C_e of element e.
  const double* op(int e) const { return extraction.data() + static_cast<size_t>(e) * nb * nb; }
};

/// Bézier extraction of a validated patch. With dense = false `extraction` stays empty and
/// kernels use the 1D factors (bezier_element_basis_kron): the dense C_e take nb^2 doubles
/// per element (5.8 KB at degree 2 in 3D, 125 KB at degree 4), the factors D (p+1)^2 per span.
BezierMesh extract_bezier(const NurbsPatch& patch, bool dense = true);

/// The NurbsPatch of a model's *NURBS PATCH, its control points at their nodes' reference
/// positions (what the model build, the adhesion reader and the output extract from).
NurbsPatch patch_of(const Model& model, const NurbsPatchDef& d);

}  // namespace halfstep
