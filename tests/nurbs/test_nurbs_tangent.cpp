// The planar NURBS elements' point-wise tangent (NurbsQuad::element_matrix: the basis once per
// Gauss point, dP/dF by four dual passes) against the generic element matrix, one dual pass
// of the element's forces per column, on a rational, distorted degree-2 and degree-3 element
// at a large deformation, for stateless laws; and it declines where it does not apply.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/dual.hpp"
#include "discretization/nurbs_patch.hpp"
#include "elements/nurbs_quad.hpp"

namespace halfstep {
namespace {

using D = autodiff::Dual<double>;

/// A middle element of a rational, distorted patch refined once, its data and coordinates.
template <class K>
struct Element {
  std::vector<double> data;
  Vec3<double> X[K::kNodes];
  Element() {
    NurbsPatch p;
    p.dim = 2;
    p.degree = {2, 2, 1};
    p.count = {3, 3, 1};
    p.knots[0] = p.knots[1] = {0, 0, 0, 1, 1, 1};
    const double x[9] = {0, 1, 2, 0, 1.2, 2, 0, 0.9, 2}, y[9] = {0, 0.1, 0, 1, 0.9, 1.1, 2, 2, 2.1};
    const double w[9] = {1, 0.8, 1, 1.1, 0.9, 1, 1, 0.85, 1};
    p.x.assign(x, x + 9);
    p.y.assign(y, y + 9);
    p.z.assign(9, 0.0);
    p.w.assign(w, w + 9);
    if (K::kDegree > 2) p = elevate_degree(elevate_degree(p, 0, K::kDegree - 2), 1, K::kDegree - 2);
    p = refine_uniform(p, 1);
    const BezierMesh bm = extract_bezier(p, false);
    const int e = bm.elements_per_dir[0] + 1;  // the second row's second element
    const int* c = bm.connectivity.data() + static_cast<std::size_t>(e) * bm.nb;
    for (int a = 0; a < K::kNodes; ++a) {
      data.push_back(p.w[static_cast<std::size_t>(c[a])]);
      X[a] = {p.x[static_cast<std::size_t>(c[a])], p.y[static_cast<std::size_t>(c[a])], 0.0};
    }
    for (int d = 0; d < 2; ++d) {
      const double* op = bm.dir[static_cast<std::size_t>(d)].op(bm.dir_element[static_cast<std::size_t>(e) * 2 + d]);
      data.insert(data.end(), op, op + (K::kDegree + 1) * (K::kDegree + 1));
    }
  }
};

/// The generic element matrix: column j is the forces' derivative along dof j.
template <class K>
std::vector<double> dual_columns(const Vec3<double> X[], const Vec3<double> u[], const SolidMaterial<double>& m,
                                 const double* data) {
  constexpr int nd = 3 * K::kNodes;
  std::vector<double> k(nd * nd, 0.0);
  const SolidMaterial<D> md = dual_material(m);
  Vec3<D> Xd[K::kNodes];
  for (int a = 0; a < K::kNodes; ++a) Xd[a] = {D(X[a].x), D(X[a].y), D(X[a].z)};
  for (int j = 0; j < nd; ++j) {
    if (j % 3 == 2) continue;
    Vec3<D> ud[K::kNodes], f[K::kNodes];
    for (int a = 0; a < K::kNodes; ++a) ud[a] = {D(u[a].x), D(u[a].y), D(u[a].z)};
    (j % 3 == 0 ? ud[j / 3].x : ud[j / 3].y).d = 1.0;
    K::internal_force(Xd, ud, md, D(0.0), f, ElementState<D>{nullptr, nullptr, 0, 0, data});
    for (int a = 0; a < K::kNodes; ++a) {
      k[static_cast<std::size_t>(3 * a) * nd + j] = f[a].x.d;
      k[static_cast<std::size_t>(3 * a + 1) * nd + j] = f[a].y.d;
    }
  }
  return k;
}

template <class K>
void compare(const SolidMaterial<double>& m) {
  const Element<K> e;
  Vec3<double> u[K::kNodes];
  for (int a = 0; a < K::kNodes; ++a)  // a large, smooth deformation: stretch, shear, rotation
    u[a] = {0.3 * e.X[a].x + 0.2 * e.X[a].y * e.X[a].y - 0.4 * e.X[a].y, 0.35 * e.X[a].x - 0.1 * e.X[a].y, 0.0};
  constexpr int nd = 3 * K::kNodes;
  std::vector<double> pw(nd * nd);
  ASSERT_TRUE(K::element_matrix(e.X, u, m, e.data.data(), pw.data()));
  const std::vector<double> ref = dual_columns<K>(e.X, u, m, e.data.data());
  double scale = 0, diff = 0;
  for (int i = 0; i < nd * nd; ++i) {
    scale = std::max(scale, std::fabs(ref[static_cast<std::size_t>(i)]));
    diff = std::max(diff, std::fabs(pw[static_cast<std::size_t>(i)] - ref[static_cast<std::size_t>(i)]));
  }
  EXPECT_GT(scale, 0.1);  // moduli of order 1
  EXPECT_LT(diff, 1e-12 * scale) << "largest entry " << scale;
}

TEST(NurbsTangent, PointWiseEqualsDualColumnsForStatelessLaws) {
  compare<NCPE2>(neo_hookean_log(0.2, 3.6, 1.0));
  compare<NCPE2>(neo_hookean(0.2, 3.6, 1.0));
  compare<NCPE2>(svk_isotropic(1.0, 0.3, 1.0));
  compare<NCPE3>(neo_hookean_log(0.2, 3.6, 1.0));
  SolidMaterial<double> thick = svk_isotropic(1.0, 0.2, 1.0);
  thick.thickness = 2.5;
  compare<NCPE3>(thick);
}

TEST(NurbsTangent, DeclinesWhereTheGenericPathIsNeeded) {
  const Element<NCPS2> e;
  Vec3<double> u[NCPS2::kNodes] = {};
  std::vector<double> k(3 * NCPS2::kNodes * 3 * NCPS2::kNodes);
  EXPECT_FALSE(NCPS2::element_matrix(e.X, u, svk_isotropic(1.0, 0.3, 1.0), e.data.data(), k.data()));  // plane stress
  const double stress[2] = {0.01, 0.02}, strain[2] = {0.0, 0.1};
  const Element<NCPE2> f;
  Vec3<double> v[NCPE2::kNodes] = {};
  std::vector<double> kk(3 * NCPE2::kNodes * 3 * NCPE2::kNodes);
  EXPECT_FALSE(NCPE2::element_matrix(f.X, v, j2_plastic(1.0, 0.3, 1.0, stress, strain, 2), f.data.data(), kk.data()));
  EXPECT_FALSE(NCPE2::element_matrix(f.X, v, svk_isotropic(1.0, 0.3, 1.0), nullptr, kk.data()));  // no data
}

}  // namespace
}  // namespace halfstep
