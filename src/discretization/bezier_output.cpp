#include "discretization/bezier_output.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "discretization/element_blocks.hpp"
#include "elements/nurbs_quad.hpp"

namespace halfstep {
namespace {

/// Nonempty knot spans of a knot vector: a patch's elements along that direction.
int spans(const std::vector<double>& knots) {
  int n = 0;
  for (std::size_t i = 0; i + 1 < knots.size(); ++i) n += knots[i] < knots[i + 1] ? 1 : 0;
  return n;
}

/// VTK's point order of an order-p Bézier quadrilateral, which is its Lagrange one
/// (vtkHigherOrderQuadrilateral::PointIndexFromIJK serves both): tensor index of VTK point k.
const int* vtk_order(int p) {
  static constexpr auto o1 = nurbs_detail::lagrange_quad_order<1>();
  static constexpr auto o2 = nurbs_detail::lagrange_quad_order<2>();
  static constexpr auto o3 = nurbs_detail::lagrange_quad_order<3>();
  static constexpr auto o4 = nurbs_detail::lagrange_quad_order<4>();
  static_assert(nurbs::kNurbsMaxDegree == 4, "a point order per supported degree");
  switch (p) {
    case 1: return o1.data();
    case 2: return o2.data();
    case 3: return o3.data();
    case 4: return o4.data();
    default: return nullptr;
  }
}

}  // namespace

BezierOutput bezier_output(const Model& model, const StructureSystem& sys) {
  BezierOutput b;
  if (model.nurbs_patches.empty()) return b;
  const SolidMesh& sm = sys.solid;
  const int first_cell = continuum_cell_offset(sys);
  std::vector<int> solid_of(static_cast<std::size_t>(model.elements.size()), -1);
  for (int e = 0; e < sm.num_elements; ++e) solid_of[static_cast<std::size_t>(sm.model_element[static_cast<std::size_t>(e)])] = e;
  b.point_ptr.push_back(0);
  for (const NurbsPatchDef& d : model.nurbs_patches) {
    const std::string patch = "NURBS patch " + d.name + ": ";
    if (d.dim != 2) continue;  // solid patches: their elements are in the frames only (Lagrange hexahedra)
    const int p = d.degree[0], q = d.degree[1];
    // The elements take one degree in both directions (the reader elevates the lower one).
    if (d.dim != 2 || p != q || !vtk_order(p))
      throw std::logic_error(patch + "the Bézier output takes planar patches of one degree 1.." +
                             std::to_string(nurbs::kNurbsMaxDegree));
    const int ne0 = spans(d.knots[0]), ne1 = spans(d.knots[1]);
    if (ne0 * ne1 != d.num_elements)
      throw std::logic_error(patch + std::to_string(d.num_elements) + " elements, its knot spans make " +
                             std::to_string(ne0 * ne1));
    const int per = p + 1, nb = per * per;
    // The patch's Bézier points form one grid of (ne0 p + 1) x (ne1 p + 1): an element's edge
    // points are its neighbour's, so the cells share them as the elements share the edge.
    const int np0 = ne0 * p + 1, np1 = ne1 * p + 1;
    const int base = b.mesh.num_points;
    const std::size_t total = static_cast<std::size_t>(base) + static_cast<std::size_t>(np0) * np1;
    b.mesh.x.resize(total);
    b.mesh.y.resize(total);
    b.mesh.z.resize(total);
    b.weights.resize(total);
    const std::size_t entries = b.point_node.size();
    for (int k = 1; k <= np0 * np1; ++k) b.point_ptr.push_back(static_cast<int>(entries + static_cast<std::size_t>(k) * nb));
    b.point_node.resize(entries + static_cast<std::size_t>(np0) * np1 * nb);
    b.point_coef.resize(b.point_node.size());
    std::vector<char> done(static_cast<std::size_t>(np0) * np1, 0);
    const int* order = vtk_order(p);
    for (int k = 0; k < d.num_elements; ++k) {
      const int me = d.first_element + k;
      const int e = solid_of[static_cast<std::size_t>(me)];
      const std::size_t size = e < 0 ? 0 : sm.element_data_ptr[static_cast<std::size_t>(e) + 1] - sm.element_data_ptr[static_cast<std::size_t>(e)];
      // The layout of the element's data (nurbs_quad.hpp, kElementData): its nodes' weights,
      // then the xi and the eta operators, rows = the element's B-splines.
      if (e < 0 || sm.groups[static_cast<std::size_t>(sm.group_of(e))].nodes_per_element != nb || size != 3 * static_cast<std::size_t>(nb))
        throw std::logic_error(patch + "element " + std::to_string(model.elements.id[static_cast<std::size_t>(me)]) +
                               " is not in the system with its extraction data");
      const double* w = sm.data_of(e);
      const double* cx = w + nb;
      const double* cy = cx + nb;
      const int* nodes = sm.conn.data() + sm.conn_start(e);
      const int i0 = k % ne0, i1 = k / ne0;
      for (int l = 0; l < per; ++l)
        for (int m = 0; m < per; ++m) {
          const std::size_t local = static_cast<std::size_t>(i0 * p + m) + static_cast<std::size_t>(np0) * (i1 * p + l);
          if (done[local]) continue;
          done[local] = 1;
          const std::size_t pt = static_cast<std::size_t>(base) + local;
          // w^b = sum_a C_e[a][b] w_a with C_e[(i, j)][(m, l)] = C^xi[i][m] C^eta[j][l].
          double wb = 0;
          for (int j = 0; j < per; ++j)
            for (int i = 0; i < per; ++i) wb += cx[i * per + m] * cy[j * per + l] * w[i + per * j];
          double x = 0, y = 0, z = 0;
          std::size_t at = static_cast<std::size_t>(b.point_ptr[pt]);
          for (int j = 0; j < per; ++j)
            for (int i = 0; i < per; ++i, ++at) {
              const int a = i + per * j, n = nodes[a];
              const double c = cx[i * per + m] * cy[j * per + l] * w[a] / wb;
              b.point_node[at] = n;
              b.point_coef[at] = c;
              x += c * sys.x0[static_cast<std::size_t>(n)];
              y += c * sys.y0[static_cast<std::size_t>(n)];
              z += c * sys.z0[static_cast<std::size_t>(n)];
            }
          b.mesh.x[pt] = x;
          b.mesh.y[pt] = y;
          b.mesh.z[pt] = z;
          b.weights[pt] = wb;
        }
      for (int v = 0; v < nb; ++v) {
        const int t = order[v], m = t % per, l = t / per;
        b.mesh.conn.push_back(base + (i0 * p + m) + np0 * (i1 * p + l));
      }
      b.mesh.offsets.push_back(static_cast<std::int64_t>(b.mesh.conn.size()));
      b.mesh.types.push_back(static_cast<std::uint8_t>(kVtkBezierQuadrilateral));
      b.degrees.insert(b.degrees.end(), {static_cast<double>(p), static_cast<double>(q), 0.0});
      b.source_cell.push_back(first_cell + e);
    }
    b.mesh.num_points = static_cast<int>(total);
  }
  return b;
}

FieldSet bezier_fields(const BezierOutput& b, const FieldSet& frame) {
  FieldSet fs;
  const std::size_t np = static_cast<std::size_t>(b.mesh.num_points), nc = static_cast<std::size_t>(b.mesh.num_cells());
  fs.add_point("RationalWeights", 1, np).values = b.weights;
  for (const char* name : {"U", "V"}) {
    const FieldArray* from = frame.find_point(name);
    if (!from) continue;
    const std::size_t k = static_cast<std::size_t>(from->components);
    std::vector<double> v(np * k, 0.0);
    for (std::size_t pt = 0; pt < np; ++pt)
      for (int at = b.point_ptr[pt]; at < b.point_ptr[pt + 1]; ++at) {
        const std::size_t n = static_cast<std::size_t>(b.point_node[static_cast<std::size_t>(at)]);
        const double c = b.point_coef[static_cast<std::size_t>(at)];
        for (std::size_t i = 0; i < k; ++i) v[pt * k + i] += c * from->values[n * k + i];
      }
    fs.point.push_back(from->like());
    fs.point.back().values = std::move(v);
  }
  fs.add_cell("HigherOrderDegrees", 3, nc).values = b.degrees;
  for (const FieldArray& a : frame.cell) {
    const std::size_t k = static_cast<std::size_t>(a.components);
    std::vector<double> v(nc * k);
    bool any = false;
    for (std::size_t c = 0; c < nc; ++c)
      for (std::size_t i = 0; i < k; ++i) {
        v[c * k + i] = a.values[static_cast<std::size_t>(b.source_cell[c]) * k + i];
        any = any || !std::isnan(v[c * k + i]);
      }
    if (!any) continue;
    fs.cell.push_back(a.like());
    fs.cell.back().values = std::move(v);
  }
  return fs;
}

}  // namespace halfstep
