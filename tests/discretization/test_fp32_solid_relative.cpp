// FP32 solids on large rigid motions (issue 21): continuum_element hands kinds whose strains
// come from gradients the displacements relative to their first node, formed with the
// state's rounding remainders. Checked on the host's float instantiation against the same
// element in FP64: a small stretch carried far away by a translation keeps the forces FP32
// gives it at rest, where the plain FP32 values lose them to eps |u|.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "discretization/continuum_element.hpp"
#include "elements/solid_hex.hpp"
#include "elements/solid_tet.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {
namespace {

/// Collects each node's force.
template <class T>
struct Collect {
  std::vector<Vec3<T>>* f;
  void operator()(int, int node, const Vec3<T>& v) const { (*f)[static_cast<std::size_t>(node)] = v; }
};

/// Forces of one element of kind K (nodes 0..K::kNodes-1 at X) at displacement u = far + du
/// per node, in precision T; with_rem: u split into its float value and remainder.
template <class K, class T>
std::vector<Vec3<double>> element_forces(const std::vector<Vec3<double>>& X, const std::vector<Vec3<double>>& u,
                                         bool with_rem) {
  const int n = K::kNodes;
  std::vector<int> conn(static_cast<std::size_t>(n)), material{0};
  for (int a = 0; a < n; ++a) conn[static_cast<std::size_t>(a)] = a;
  const SolidMaterial<T> mat = material_as<T>(svk_isotropic(2.0e11, 0.3, 7800.0));
  std::vector<T> x0, y0, z0, ux, uy, uz, rx, ry, rz;
  for (int a = 0; a < n; ++a) {
    x0.push_back(T(X[a].x));
    y0.push_back(T(X[a].y));
    z0.push_back(T(X[a].z));
    ux.push_back(T(u[a].x));
    uy.push_back(T(u[a].y));
    uz.push_back(T(u[a].z));
    rx.push_back(T(u[a].x - double(ux.back())));
    ry.push_back(T(u[a].y - double(uy.back())));
    rz.push_back(T(u[a].z - double(uz.back())));
  }
  T energy = 0, hourglass = 0;
  std::vector<T> state(64, T(0));
  ContinuumView<T> v{conn.data(), material.data(), &mat, T(0.1), x0.data(), y0.data(), z0.data(), &energy, &hourglass};
  v.state = state.data();
  v.state_stride = 1;
  std::vector<Vec3<T>> f(static_cast<std::size_t>(n));
  Collect<T> sink{&f};
  const T* const rem[3] = {rx.data(), ry.data(), rz.data()};
  const T* const* no_velocities = nullptr;
  continuum_element<K>(v, ux.data(), uy.data(), uz.data(), 0, 0, sink, 0, no_velocities, with_rem ? rem : nullptr);
  std::vector<Vec3<double>> out;
  for (const Vec3<T>& g : f) out.push_back({double(g.x), double(g.y), double(g.z)});
  return out;
}

/// Largest force error against ref, of ref's largest force.
double worst_error(const std::vector<Vec3<double>>& f, const std::vector<Vec3<double>>& ref) {
  double err = 0, scale = 0;
  for (std::size_t a = 0; a < f.size(); ++a) {
    err = std::max(err, norm(f[a] - ref[a]));
    scale = std::max(scale, norm(ref[a]));
  }
  return err / scale;
}

template <class K>
void check_far_stretch(const std::vector<Vec3<double>>& X) {
  // A stretch of 1e-4 along x (the centrifugal strain of a spinning part), at rest and
  // carried 30 m away from a 0.1 m element: plain FP32 values round u there to 1.9e-6,
  // 1.9e-5 of the element's size against the stretch's 1e-4.
  std::vector<Vec3<double>> near, far;
  for (const Vec3<double>& x : X) {
    near.push_back(Vec3<double>{1e-4 * x.x, 0.0, 0.0});
    far.push_back(Vec3<double>{30.0, -20.0, 15.0} + near.back());
  }
  const auto ref = element_forces<K, double>(X, near, false);
  // FP32's own error on this strain (the Green strain's 1 + 2e-4 - 1 loses ~1e-4 of it).
  const double at_rest = worst_error(element_forces<K, float>(X, near, false), ref);
  const double plain = worst_error(element_forces<K, float>(X, far, false), ref);
  const double relative = worst_error(element_forces<K, float>(X, far, true), ref);
  EXPECT_LE(relative, 1.5 * at_rest) << K::name() << ": at rest " << at_rest;
  EXPECT_GT(plain, 10 * at_rest) << K::name() << ": at rest " << at_rest;
}

TEST(Fp32SolidRelative, HexahedraKeepASmallStretchCarriedFarAway) {
  const double h = 0.1;
  const std::vector<Vec3<double>> X = {{0, 0, 0}, {h, 0, 0}, {h, h, 0}, {0, h, 0},
                                       {0, 0, h}, {h, 0, h}, {h, h, h}, {0, h, h}};
  check_far_stretch<C3D8R>(X);
  check_far_stretch<C3D8>(X);
}

TEST(Fp32SolidRelative, TetrahedraKeepASmallStretchCarriedFarAway) {
  const double h = 0.1;
  check_far_stretch<C3D4>({{0, 0, 0}, {h, 0, 0}, {0, h, 0}, {0, 0, h}});
  std::vector<Vec3<double>> X = {{0, 0, 0}, {h, 0, 0}, {0, h, 0}, {0, 0, h}};
  const int edges[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
  for (const auto& e : edges) X.push_back(0.5 * (X[e[0]] + X[e[1]]));
  check_far_stretch<C3D10M>(X);
}

TEST(Fp32SolidRelative, DoublesIgnoreTheRemainders) {
  // FP64 runs pass no remainders; with some, a kind still gets the same forces to round-off
  // (relative or not, the element reads differences).
  const double h = 0.1;
  const std::vector<Vec3<double>> X = {{0, 0, 0}, {h, 0, 0}, {h, h, 0}, {0, h, 0},
                                       {0, 0, h}, {h, 0, h}, {h, h, h}, {0, h, h}};
  std::vector<Vec3<double>> u;
  for (const Vec3<double>& x : X) u.push_back(Vec3<double>{1e-3 * x.y, 2e-4 * x.z, -1e-4 * x.x});
  const auto plain = element_forces<C3D8R, double>(X, u, false);
  const auto relative = element_forces<C3D8R, double>(X, u, true);
  EXPECT_LT(worst_error(relative, plain), 1e-12);
}

}  // namespace
}  // namespace halfstep
