// The NURBS elements' rational Bézier cells (discretization/bezier_output.hpp): their points
// and weights, evaluated as VTK evaluates a VTK_BEZIER_QUADRILATERAL (Bernstein polynomials on
// [0, 1]^2, points in VTK's order, x = sum B_i w_i x_i / sum B_i w_i), reproduce the patch:
// the quarter annulus's rims are exact circles, every point agrees with direct NURBS
// evaluation, and a displacement field mapped to the Bézier points is the patch's field.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "discretization/bezier_output.hpp"
#include "discretization/nurbs_patch.hpp"
#include "io/inp_reader.hpp"

namespace halfstep {
namespace {

/// The quarter annulus 1 < r < 2 (u along the rims, degree 2; v radial, degree 1, which the
/// reader elevates to 2), `refine` knots inserted per span.
std::string annulus_deck(int refine, int elevate = 0) {
  std::ostringstream d;
  d.precision(17);
  const double s = std::sqrt(0.5);
  d << "*NURBS PATCH, NAME=C, TYPE=CPS, ELSET=ALL, REFINE=" << refine << ", ELEVATE=" << elevate
    << "\n2, 1\n3, 2\n0, 0, 0, 1, 1, 1\n0, 0, 1, 1\n"
    << "0, 1, 1\n1, 1, " << s << "\n1, 0, 1\n0, 2, 1\n2, 2, " << s << "\n2, 0, 1\n"
    << "*MATERIAL, NAME=M\n*ELASTIC\n1000, 0.3\n*SOLID SECTION, ELSET=ALL, MATERIAL=M\n1\n"
    << "*STEP\n*STATIC\n1, 1\n*BOUNDARY\nC-U0, 1, 1\nC-U1, 2, 2\n*END STEP\n";
  return d.str();
}

/// The patch of the model's first *NURBS PATCH, with its control points' coordinates.
NurbsPatch model_patch(const Model& m) { return patch_of(m, m.nurbs_patches.at(0)); }

/// VTK's local index of tensor point (i, j) of an order-p quadrilateral (written from VTK's
/// rule, vtkHigherOrderQuadrilateral::PointIndexFromIJK: corners counter-clockwise, then the
/// edges (0,1), (1,2), (3,2), (0,3) by increasing parameter, then the interior row by row).
int vtk_index(int i, int j, int p) {
  const bool ib = i == 0 || i == p, jb = j == 0 || j == p;
  if (ib && jb) return i ? (j ? 2 : 1) : (j ? 3 : 0);
  if (jb) return 4 + (i - 1) + (j ? 2 * (p - 1) : 0);
  if (ib) return 4 + (j - 1) + (i ? p - 1 : 3 * (p - 1));
  return 4 + 4 * (p - 1) + (i - 1) + (p - 1) * (j - 1);
}

/// Bernstein polynomial k of degree p on [0, 1] (VTK's parametric interval).
double bernstein01(int p, int k, double t) {
  double binom = 1;
  for (int i = 1; i <= k; ++i) binom = binom * (p - k + i) / i;
  return binom * std::pow(t, k) * std::pow(1 - t, p - k);
}

/// Value at (s, t) of cell c's rational Bézier of the per-point values v (comps each), as VTK
/// evaluates it from the written points' order, their weights and the cell's degrees.
std::vector<double> evaluate_cell(const BezierOutput& b, int c, const std::vector<double>& v, int comps, double s, double t) {
  const int p = static_cast<int>(b.degrees[3 * static_cast<std::size_t>(c)]);
  EXPECT_EQ(b.degrees[3 * static_cast<std::size_t>(c) + 1], p);
  const std::int64_t first = c == 0 ? 0 : b.mesh.offsets[static_cast<std::size_t>(c) - 1];
  std::vector<double> num(static_cast<std::size_t>(comps), 0.0);
  double den = 0;
  for (int j = 0; j <= p; ++j)
    for (int i = 0; i <= p; ++i) {
      const int pt = b.mesh.conn[static_cast<std::size_t>(first + vtk_index(i, j, p))];
      const double f = bernstein01(p, i, s) * bernstein01(p, j, t) * b.weights[static_cast<std::size_t>(pt)];
      den += f;
      for (int k = 0; k < comps; ++k) num[static_cast<std::size_t>(k)] += f * v[static_cast<std::size_t>(pt) * comps + k];
    }
  for (double& x : num) x /= den;
  return num;
}

/// The Bézier points' coordinates as one 3-component array.
std::vector<double> points_of(const BezierOutput& b) {
  std::vector<double> xyz;
  for (int i = 0; i < b.mesh.num_points; ++i)
    xyz.insert(xyz.end(), {b.mesh.x[static_cast<std::size_t>(i)], b.mesh.y[static_cast<std::size_t>(i)], b.mesh.z[static_cast<std::size_t>(i)]});
  return xyz;
}

/// Knot span bounds of element e (u fastest) of a patch with ne0 spans in u.
void span_of(const NurbsPatch& p, int e, int ne0, double lo[2], double hi[2]) {
  for (int d = 0; d < 2; ++d) {
    const int target = d == 0 ? e % ne0 : e / ne0;
    int k = -1;
    for (std::size_t i = 0; i + 1 < p.knots[static_cast<std::size_t>(d)].size(); ++i)
      if (p.knots[static_cast<std::size_t>(d)][i] < p.knots[static_cast<std::size_t>(d)][i + 1] && ++k == target) {
        lo[d] = p.knots[static_cast<std::size_t>(d)][i];
        hi[d] = p.knots[static_cast<std::size_t>(d)][i + 1];
        break;
      }
  }
}

TEST(BezierOutput, QuarterAnnulusIsExactAndMatchesThePatch) {
  for (const int elevate : {0, 1}) {
    const Model model = read_inp_string(annulus_deck(2, elevate), "mem/annulus.inp");
    const StructureSystem sys = build_structure_system(model);
    const BezierOutput b = bezier_output(model, sys);
    const NurbsPatch patch = model_patch(model);
    const int p = 2 + elevate, ne = 3;  // REFINE=2: three spans per direction
    ASSERT_EQ(b.mesh.num_cells(), ne * ne);
    // The elements share their edges' Bézier points: one (ne p + 1)^2 grid.
    ASSERT_EQ(b.mesh.num_points, (ne * p + 1) * (ne * p + 1));
    ASSERT_EQ(b.weights.size(), static_cast<std::size_t>(b.mesh.num_points));
    for (int c = 0; c < b.mesh.num_cells(); ++c) {
      EXPECT_EQ(b.mesh.types[static_cast<std::size_t>(c)], 77);
      EXPECT_EQ(b.mesh.offsets[static_cast<std::size_t>(c)], static_cast<std::int64_t>((c + 1) * (p + 1) * (p + 1)));
      EXPECT_EQ(b.degrees[3 * static_cast<std::size_t>(c) + 2], 0.0);
      EXPECT_EQ(b.source_cell[static_cast<std::size_t>(c)], c);  // no shells: the frames' cells are the elements
    }
    const std::vector<double> xyz = points_of(b);
    double worst_radius = 0, worst_patch = 0;
    for (int c = 0; c < b.mesh.num_cells(); ++c) {
      double lo[2], hi[2];
      span_of(patch, c, ne, lo, hi);
      for (int i = 0; i <= 6; ++i)
        for (int j = 0; j <= 6; ++j) {
          const double s = i / 6.0, t = j / 6.0;
          const std::vector<double> x = evaluate_cell(b, c, xyz, 3, s, t);
          const double u[2] = {lo[0] + s * (hi[0] - lo[0]), lo[1] + t * (hi[1] - lo[1])};
          // Radially the patch is linear with equal weights: every point lies at r = 1 + v.
          worst_radius = std::max(worst_radius, std::fabs(std::hypot(x[0], x[1]) - (1 + u[1])));
          const std::array<double, 3> ref = evaluate(patch, u);
          for (int k = 0; k < 3; ++k) worst_patch = std::max(worst_patch, std::fabs(x[static_cast<std::size_t>(k)] - ref[static_cast<std::size_t>(k)]));
        }
    }
    EXPECT_LT(worst_radius, 1e-14) << "degree " << p;
    EXPECT_LT(worst_patch, 1e-14) << "degree " << p;
    std::printf("Bezier cells of degree %d: radius off by %.2e, points off the patch by %.2e\n", p, worst_radius, worst_patch);
  }
}

TEST(BezierOutput, DisplacementAtTheBezierPointsIsThePatchField) {
  const Model model = read_inp_string(annulus_deck(2, 1), "mem/annulus.inp");
  const StructureSystem sys = build_structure_system(model);
  const BezierOutput b = bezier_output(model, sys);
  const NurbsPatchDef& def = model.nurbs_patches.at(0);
  // An arbitrary field on the control points (not a rigid or linear one, which any
  // partition of unity would reproduce), and the same patch with it as coordinates.
  FieldSet frame;
  frame.point.reserve(2);  // references into the arrays are held while the next is added
  frame.cell.reserve(2);
  std::vector<double>& u = frame.add_point("U", 3, static_cast<std::size_t>(sys.num_nodes)).values;
  frame.add_point("RF", 3, static_cast<std::size_t>(sys.num_nodes), 1.0);
  NurbsPatch disp = model_patch(model);
  for (std::size_t a = 0; a < def.nodes.size(); ++a) {
    const std::size_t n = static_cast<std::size_t>(def.nodes[a]);
    const double v[3] = {std::sin(1.3 * static_cast<double>(a)), std::cos(0.7 * static_cast<double>(a * a)), 0.25 * static_cast<double>(a % 3)};
    for (int k = 0; k < 3; ++k) u[3 * n + static_cast<std::size_t>(k)] = v[k];
    disp.x[a] = v[0], disp.y[a] = v[1], disp.z[a] = v[2];
  }
  const int nc = b.mesh.num_cells();
  std::vector<double>& s = frame.add_cell("S", 6, static_cast<std::size_t>(nc)).values;
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<double>(i);
  frame.add_cell("SF", 5, static_cast<std::size_t>(nc), std::numeric_limits<double>::quiet_NaN());  // another family's array
  const FieldSet fs = bezier_fields(b, frame);
  const FieldArray* ub = fs.find_point("U");
  ASSERT_NE(ub, nullptr);
  ASSERT_EQ(ub->values.size(), 3 * static_cast<std::size_t>(b.mesh.num_points));
  EXPECT_EQ(fs.find_point("RF"), nullptr);  // forces do not live in the NURBS space
  ASSERT_NE(fs.find_point("RationalWeights"), nullptr);
  EXPECT_EQ(fs.find_point("RationalWeights")->values, b.weights);
  ASSERT_NE(fs.find_cell("HigherOrderDegrees"), nullptr);
  EXPECT_EQ(fs.find_cell("HigherOrderDegrees")->components, 3);
  EXPECT_EQ(fs.find_cell("SF"), nullptr);  // NaN on every NURBS element
  const FieldArray* sb = fs.find_cell("S");
  ASSERT_NE(sb, nullptr);
  for (int c = 0; c < nc; ++c)
    for (int k = 0; k < 6; ++k)
      EXPECT_EQ(sb->values[6 * static_cast<std::size_t>(c) + static_cast<std::size_t>(k)],
                s[6 * static_cast<std::size_t>(b.source_cell[static_cast<std::size_t>(c)]) + static_cast<std::size_t>(k)]);
  double worst = 0;
  for (int c = 0; c < nc; ++c) {
    double lo[2], hi[2];
    span_of(disp, c, 3, lo, hi);
    for (int i = 0; i <= 5; ++i)
      for (int j = 0; j <= 5; ++j) {
        const double st[2] = {i / 5.0, (j + 0.37) / 5.37};
        const std::vector<double> v = evaluate_cell(b, c, ub->values, 3, st[0], st[1]);
        const double par[2] = {lo[0] + st[0] * (hi[0] - lo[0]), lo[1] + st[1] * (hi[1] - lo[1])};
        const std::array<double, 3> ref = evaluate(disp, par);
        for (int k = 0; k < 3; ++k) worst = std::max(worst, std::fabs(v[static_cast<std::size_t>(k)] - ref[static_cast<std::size_t>(k)]));
      }
  }
  EXPECT_LT(worst, 1e-14);
  std::printf("U mapped to the Bezier points: off the patch's field by %.2e (values up to 1)\n", worst);
}

TEST(BezierOutput, ModelsWithoutPatchesHaveNone) {
  const Model model = read_inp_string(
      "*NODE\n1, 0, 0\n2, 1, 0\n3, 1, 1\n4, 0, 1\n*ELEMENT, TYPE=CPS4, ELSET=E\n1, 1, 2, 3, 4\n*MATERIAL, NAME=M\n"
      "*ELASTIC\n1000, 0.3\n*SOLID SECTION, ELSET=E, MATERIAL=M\n1\n*STEP\n*STATIC\n1, 1\n*END STEP\n",
      "mem/quad.inp");
  const BezierOutput b = bezier_output(model, build_structure_system(model));
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.mesh.num_points, 0);
}

}  // namespace
}  // namespace halfstep
