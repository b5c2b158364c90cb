// The point-wise tangent of the point-sum solids (discretization/point_tangent.hpp) against the
// element's own dual columns (element_matrix_by_columns, the derivative of internal_force) for
// every point-sum kind and stateless law, a thermal strain included, on distorted elements at a
// finite deformation; and the refusal of an inverted element.
// First: the laws' qualified autodiff::value_of calls must see its overloads.
#include "core/dual_lanes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "discretization/element_columns.hpp"
#include "discretization/point_tangent.hpp"
#include "elements/registry.hpp"
#include "materials/material_duals.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {
namespace {

/// Reference nodes of one element of each shape in Abaqus order, before distortion.
std::vector<Vec3<double>> hex8() { return {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}}; }
std::vector<Vec3<double>> hex20() {
  std::vector<Vec3<double>> x = hex8();
  const int edges[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6}, {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  for (const auto& e : edges) x.push_back(0.5 * (x[static_cast<std::size_t>(e[0])] + x[static_cast<std::size_t>(e[1])]));
  return x;
}
std::vector<Vec3<double>> tet10() {
  std::vector<Vec3<double>> x = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const int edges[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
  for (const auto& e : edges) x.push_back(0.5 * (x[static_cast<std::size_t>(e[0])] + x[static_cast<std::size_t>(e[1])]));
  return x;
}
std::vector<Vec3<double>> wedge6() { return {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}}; }

/// The stateless laws, a rotated orthotropic one and a thermally expanding one among them.
std::vector<SolidMaterial<double>> laws() {
  const double c = std::cos(0.4), s = std::sin(0.4);
  Mat3<double> axes = scaled_identity(0.0);
  axes(0, 0) = c, axes(0, 1) = -s, axes(1, 0) = s, axes(1, 1) = c, axes(2, 2) = 1;
  const double eng[9] = {150e3, 10e3, 12e3, 0.3, 0.25, 0.4, 5e3, 6e3, 4e3};
  SolidMaterial<double> hot = svk_isotropic(210e3, 0.3, 7.8e-9);
  hot.expansion[0] = hot.expansion[1] = hot.expansion[2] = 1.2e-5;
  SolidMaterial<double> hot_ortho = orthotropic_engineering(eng, 1.6e-9, axes);
  hot_ortho.expansion[0] = 2e-6, hot_ortho.expansion[1] = 3e-5, hot_ortho.expansion[2] = 2.5e-5;
  return {svk_isotropic(210e3, 0.3, 7.8e-9), neo_hookean(80.0, 5e-4, 1e-9), neo_hookean_log(80.0, 5e-4, 1e-9),
          orthotropic_engineering(eng, 1.6e-9, axes), hot, hot_ortho};
}

/// The reference x0 distorted into X (every node moved by a few percent of the element) and a
/// smooth finite deformation u on it: stretches of ~10 % with shear and a rotation-like part.
void distort(const std::vector<Vec3<double>>& x0, Vec3<double>* X, Vec3<double>* u) {
  for (std::size_t a = 0; a < x0.size(); ++a) {
    const Vec3<double> p = x0[a];
    const double t = static_cast<double>(a);
    X[a] = {p.x + 0.06 * std::sin(3.1 * t + 0.2), p.y + 0.05 * std::cos(1.7 * t), p.z + 0.04 * std::sin(2.3 * t + 1.0)};
    u[a] = {0.10 * X[a].x + 0.05 * X[a].y * X[a].z, -0.04 * X[a].y + 0.08 * X[a].x * X[a].x, 0.07 * X[a].z - 0.06 * X[a].y};
  }
}

/// Kind K on the distorted reference x0 at a smooth finite deformation: the point-wise tangent
/// against the dual columns, entry by entry, relative to the largest entry.
template <class K>
void check_kind(std::vector<Vec3<double>> x0) {
  ASSERT_EQ(static_cast<int>(x0.size()), K::kNodes);
  constexpr int nd = 3 * K::kNodes;
  Vec3<double> X[K::kNodes], u[K::kNodes];
  distort(x0, X, u);
  int law = 0;
  for (const SolidMaterial<double>& m : laws()) {
    const double theta = 80.0;
    std::vector<double> point(nd * nd), dual(nd * nd, 0.0);
    ASSERT_TRUE(takes_point_tangent(m));
    ASSERT_TRUE(point_sum_element_matrix<K>(X, u, material_as<PointLanes>(m), theta, nullptr, point.data())) << K::name();
    const ElementState<Dual<double>> est{nullptr, nullptr, static_cast<std::size_t>(K::kPoints), 0, nullptr,
                                         Dual<double>(theta)};
    element_matrix_by_columns<K, Dual<double>, 1>(X, u, dual_material(m), 0.0, est, dual.data());
    double largest = 0, worst = 0;
    for (double v : dual) largest = std::max(largest, std::fabs(v));
    ASSERT_GT(largest, 0.0);
    for (int i = 0; i < nd * nd; ++i) worst = std::max(worst, std::fabs(point[static_cast<std::size_t>(i)] - dual[static_cast<std::size_t>(i)]));
    // The same derivative summed in another order: round-off only (measured <= 5.3e-16).
    EXPECT_LT(worst, 1e-13 * largest) << K::name() << " law " << law;
    ++law;
  }
}

TEST(PointTangent, MatchesTheDualColumnsOfEveryPointSumKind) {
  check_kind<C3D8Full>(hex8());
  check_kind<C3D20>(hex20());
  check_kind<C3D20R>(hex20());
  check_kind<C3D10>(tet10());
  check_kind<C3D6>(wedge6());
}

// The F-bar C3D8's own point-wise tangent (18 lanes: F_g and the mean F0) against its dual
// columns, on the same distorted hexahedron and laws.
TEST(PointTangent, FbarHexahedronMatchesItsDualColumns) {
  Vec3<double> X[8], u[8];
  distort(hex8(), X, u);
  int law = 0;
  for (const SolidMaterial<double>& m : laws()) {
    const double theta = 80.0;
    std::vector<double> point(24 * 24), dual(24 * 24, 0.0);
    ASSERT_TRUE(C3D8::fbar_point_matrix(X, u, material_as<FbarLanes>(m), theta, point.data()));
    const ElementState<Dual<double>> est{nullptr, nullptr, 8, 0, nullptr, Dual<double>(theta)};
    element_matrix_by_columns<C3D8, Dual<double>, 1>(X, u, dual_material(m), 0.0, est, dual.data());
    double largest = 0, worst = 0;
    for (double v : dual) largest = std::max(largest, std::fabs(v));
    for (int i = 0; i < 24 * 24; ++i) worst = std::max(worst, std::fabs(point[static_cast<std::size_t>(i)] - dual[static_cast<std::size_t>(i)]));
    std::printf("C3D8 F-bar law %d: %.2e\n", law, worst / largest);
    EXPECT_LT(worst, 1e-13 * largest) << "law " << law;  // measured <= 7.2e-16
    ++law;
  }
  EXPECT_TRUE(HasFbarPointMatrix<C3D8>::value);
  EXPECT_FALSE(HasFbarPointMatrix<C3D8Full>::value);  // its point sums' instead
}

TEST(PointTangent, TakesTheKindsWithPointGradientsOnly) {
  EXPECT_TRUE(HasPointGradients<C3D8Full>::value);
  EXPECT_TRUE(HasPointGradients<C3D20R>::value);
  EXPECT_TRUE(HasPointGradients<NC3D2>::value);
  // F-bar (C3D8), reduced integration with hourglass control (C3D8R) and the linear tetrahedron
  // have forces of another form: their dual columns.
  EXPECT_FALSE(HasPointGradients<C3D8>::value);
  EXPECT_FALSE(HasPointGradients<C3D8R>::value);
  EXPECT_FALSE(HasPointGradients<C3D4>::value);
}

TEST(PointTangent, LeavesLawsWithStateAndInvertedElementsToTheDualColumns) {
  const double stress[2] = {250.0, 300.0}, strain[2] = {0.0, 0.1};
  EXPECT_FALSE(takes_point_tangent(j2_plastic(210e3, 0.3, 7.8e-9, stress, strain, 2)));
  std::vector<Vec3<double>> x = hex8();
  std::swap(x[1], x[3]);  // a mirrored corner ordering: detJ < 0 at every point
  Vec3<double> X[8], u[8];
  for (int a = 0; a < 8; ++a) X[a] = x[static_cast<std::size_t>(a)], u[a] = {0, 0, 0};
  std::vector<double> k(24 * 24);
  EXPECT_FALSE(point_sum_element_matrix<C3D8Full>(X, u, material_as<PointLanes>(svk_isotropic(210e3, 0.3, 7.8e-9)), 0.0,
                                                  nullptr, k.data()));
}

}  // namespace
}  // namespace halfstep
