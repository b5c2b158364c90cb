// The solid element kinds C3D8R, C3D8, C3D8 FULL, C3D4, C3D10M, C3D10, C3D6, C3D20R and C3D20 through
// their common trait interface
// (src/elements/solid_kinds.hpp), each on a distorted but valid element: patch test (exact F,
// forces = P int dN/dX dV, cancelling forces at the interior nodes of a distorted patch),
// rigid motions, objectivity, forces as the energy gradient, lumped mass, the stable
// increment against the true highest frequency, the F-bar locking check for C3D8 (and C3D8
// FULL's locking), invalid
// elements, and a float instantiation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "elements/rotation.hpp"
#include "elements/solid_hex20.hpp"
#include "elements/solid_kinds.hpp"
#include "elements/solid_wedge.hpp"

namespace halfstep {
namespace {

using V3 = Vec3<double>;

/// Rotation by angle about axis.
Mat3<double> rotation(V3 axis, double angle) { return rotation_matrix(angle * normalized(axis)); }

/// The three material models, with a rotated orthotropic one.
std::vector<SolidMaterial<double>> materials() {
  const double eng[9] = {150e3, 10e3, 12e3, 0.3, 0.25, 0.4, 5e3, 6e3, 3.5e3};
  return {svk_isotropic(210e3, 0.3, 7.8e-9), orthotropic_engineering(eng, 1.6e-9, rotation({1, 2, 3}, 0.7)),
          neo_hookean(80.0, 5e-4, 1e-9)};
}

double& component(V3& v, int c) { return c == 0 ? v.x : c == 1 ? v.y : v.z; }

/// Reference shapes and patches of elements for each kind.
template <class K>
struct Shapes;

/// Hexahedra: the distorted element of test_hex8.cpp, a box, and a 2x2x2 patch.
struct HexShapes {
  static void distorted(V3 X[8]) {
    const double base[8][3] = {{0, 0, 0}, {2.1, 0.1, -0.1}, {2.3, 1.9, 0.2}, {-0.2, 2.0, 0.0},
                               {0.1, -0.1, 1.5}, {2.0, 0.2, 1.8}, {2.4, 2.2, 1.6}, {0.0, 1.8, 1.9}};
    for (int a = 0; a < 8; ++a) X[a] = {base[a][0], base[a][1], base[a][2]};
  }
  /// The shape used for the patch test and the exact-force check (the distorted one).
  static void straight(V3 X[8]) { distorted(X); }
  /// A 2 x 3 x 4 box shifted off the origin (volume 24), the "regular" shape.
  static double regular(V3 X[8]) {
    for (int a = 0; a < 8; ++a)
      X[a] = {1.0 + (hex8_sign(a, 0) + 1), -2.0 + 1.5 * (hex8_sign(a, 1) + 1), 0.5 + 2.0 * (hex8_sign(a, 2) + 1)};
    return 24.0;
  }
  /// Elements of a distorted 2x2x2 block of cells on lattice nodes; lattice[n] is the
  /// undistorted position of node n (interior iff strictly inside (0, 2)^3).
  static void patch(std::vector<V3>& lattice, std::vector<std::vector<int>>& elems) {
    lattice.clear();
    elems.clear();
    for (int k = 0; k < 3; ++k)
      for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) lattice.push_back({double(i), double(j), double(k)});
    for (int k = 0; k < 2; ++k)
      for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 2; ++i) {
          std::vector<int> e(8);
          for (int a = 0; a < 8; ++a) {
            const int di = hex8_sign(a, 0) > 0, dj = hex8_sign(a, 1) > 0, dk = hex8_sign(a, 2) > 0;
            e[a] = (i + di) + 3 * (j + dj) + 9 * (k + dk);
          }
          elems.push_back(e);
        }
  }
};
template <>
struct Shapes<C3D8R> : HexShapes {};
template <>
struct Shapes<C3D8> : HexShapes {};
template <>
struct Shapes<C3D8Full> : HexShapes {};

/// Corner-node tetrahedra of the Kuhn split (6 per cell, along the cell diagonal) of a
/// 2x2x2 block, each ordered to positive volume.
void kuhn_tets(std::vector<V3>& lattice, std::vector<std::vector<int>>& tets) {
  lattice.clear();
  tets.clear();
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) lattice.push_back({double(i), double(j), double(k)});
  const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i)
        for (const auto& p : perms) {
          int c[3] = {i, j, k};
          std::vector<int> t;
          t.push_back(c[0] + 3 * c[1] + 9 * c[2]);
          for (int s = 0; s < 3; ++s) {
            ++c[p[s]];
            t.push_back(c[0] + 3 * c[1] + 9 * c[2]);
          }
          const V3 e1 = lattice[t[1]] - lattice[t[0]], e2 = lattice[t[2]] - lattice[t[0]],
                   e3 = lattice[t[3]] - lattice[t[0]];
          if (dot(e1, cross(e2, e3)) < 0) std::swap(t[2], t[3]);
          tets.push_back(t);
        }
}

/// Tetrahedra: an irregular tetrahedron, the unit right tetrahedron and the Kuhn patch.
template <>
struct Shapes<C3D4> {
  static void distorted(V3 X[4]) {
    X[0] = {0.1, -0.2, 0.05};
    X[1] = {2.0, 0.3, -0.1};
    X[2] = {0.4, 1.7, 0.2};
    X[3] = {0.3, 0.5, 1.9};
  }
  static void straight(V3 X[4]) { distorted(X); }
  /// A regular tetrahedron of edge 2 sqrt 2 (volume 8/3).
  static double regular(V3 X[4]) {
    X[0] = {1, 1, 1};
    X[1] = {1, -1, -1};
    X[2] = {-1, 1, -1};
    X[3] = {-1, -1, 1};
    if (dot(X[1] - X[0], cross(X[2] - X[0], X[3] - X[0])) < 0) std::swap(X[2], X[3]);
    return 8.0 / 3.0;
  }
  static void patch(std::vector<V3>& lattice, std::vector<std::vector<int>>& elems) { kuhn_tets(lattice, elems); }
};

/// Mid-edge nodes 5-10 of a 10-node tetrahedron placed at the edge midpoints.
void tet10_midpoints(V3 X[10]) {
  for (int e = 0; e < 6; ++e)
    X[4 + e] = 0.5 * (X[solid_detail::tet10_edge_node(e, 0)] + X[solid_detail::tet10_edge_node(e, 1)]);
}

/// Quadratic tetrahedra: the irregular tetrahedron with curved edges (mid-edge nodes moved),
/// its straight-sided form, the regular one, and the Kuhn patch with shared mid-edge nodes.
template <>
struct Shapes<C3D10M> {
  static void straight(V3 X[10]) {
    Shapes<C3D4>::distorted(X);
    tet10_midpoints(X);
  }
  static void distorted(V3 X[10]) {
    straight(X);
    const double d[6][3] = {{0.05, -0.08, 0.03}, {-0.04, 0.06, 0.07}, {0.02, 0.05, -0.06},
                            {-0.07, 0.03, 0.02}, {0.06, -0.02, 0.05}, {0.03, 0.07, -0.04}};
    for (int e = 0; e < 6; ++e) X[4 + e] += V3{d[e][0], d[e][1], d[e][2]};
  }
  static double regular(V3 X[10]) {
    const double v = Shapes<C3D4>::regular(X);
    tet10_midpoints(X);
    return v;
  }
  static void patch(std::vector<V3>& lattice, std::vector<std::vector<int>>& elems) {
    std::vector<std::vector<int>> tets;
    kuhn_tets(lattice, tets);
    std::map<std::pair<int, int>, int> mid;
    elems.clear();
    for (const std::vector<int>& t : tets) {
      std::vector<int> e = t;
      for (int k = 0; k < 6; ++k) {
        int a = t[solid_detail::tet10_edge_node(k, 0)], b = t[solid_detail::tet10_edge_node(k, 1)];
        const std::pair<int, int> key{std::min(a, b), std::max(a, b)};
        auto it = mid.find(key);
        if (it == mid.end()) {
          it = mid.emplace(key, static_cast<int>(lattice.size())).first;
          lattice.push_back(0.5 * (lattice[a] + lattice[b]));
        }
        e.push_back(it->second);
      }
      elems.push_back(e);
    }
  }
};

template <>
struct Shapes<C3D10> : Shapes<C3D10M> {};

/// Wedges: an irregular wedge, a right prism, and a 2x2x2 block of cells split into two
/// prisms each along the cell's xy diagonal.
template <>
struct Shapes<C3D6> {
  static void distorted(V3 X[6]) {
    const double p[6][3] = {{0, 0, 0}, {2.1, 0.1, -0.1}, {0.2, 1.9, 0.1}, {0.1, -0.1, 1.5}, {2.0, 0.2, 1.8}, {-0.1, 2.1, 1.7}};
    for (int a = 0; a < 6; ++a) X[a] = {p[a][0], p[a][1], p[a][2]};
  }
  static void straight(V3 X[6]) { distorted(X); }
  /// Right prism: legs 2 and 3 (area 3), height 4: volume 12.
  static double regular(V3 X[6]) {
    const double p[3][2] = {{1, -2}, {3, -2}, {1, 1}};
    for (int i = 0; i < 3; ++i) {
      X[i] = {p[i][0], p[i][1], 0.5};
      X[3 + i] = {p[i][0], p[i][1], 4.5};
    }
    return 12.0;
  }
  static void patch(std::vector<V3>& lattice, std::vector<std::vector<int>>& elems) {
    lattice.clear();
    elems.clear();
    for (int k = 0; k < 3; ++k)
      for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i) lattice.push_back({double(i), double(j), double(k)});
    const auto n = [](int i, int j, int k) { return i + 3 * j + 9 * k; };
    for (int k = 0; k < 2; ++k)
      for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 2; ++i) {
          const int t[2][3][2] = {{{0, 0}, {1, 0}, {1, 1}}, {{0, 0}, {1, 1}, {0, 1}}};
          for (const auto& tri : t) {
            std::vector<int> e;
            for (int top = 0; top < 2; ++top)
              for (const auto& c : tri) e.push_back(n(i + c[0], j + c[1], k + top));
            elems.push_back(e);
          }
        }
  }
};

/// Mid-edge nodes 9-20 of a 20-node hexahedron placed at the edge midpoints.
void hex20_midpoints(V3 X[20]) {
  for (int e = 0; e < 12; ++e)
    X[8 + e] = 0.5 * (X[solid_detail::hex20_edge_end(e, 0)] + X[solid_detail::hex20_edge_end(e, 1)]);
}

/// 20-node hexahedra: the distorted hexahedron with straight edges, the same with curved
/// edges, the box, and the 2x2x2 patch with shared mid-edge nodes.
struct Hex20Shapes {
  static void straight(V3 X[20]) {
    HexShapes::distorted(X);
    hex20_midpoints(X);
  }
  static void distorted(V3 X[20]) {
    straight(X);
    for (int e = 0; e < 12; ++e) X[8 + e] += V3{0.04 * std::sin(1.0 + e), 0.05 * std::cos(2.0 * e), -0.03 * std::sin(0.7 * e)};
  }
  static double regular(V3 X[20]) {
    const double v = HexShapes::regular(X);
    hex20_midpoints(X);
    return v;
  }
  static void patch(std::vector<V3>& lattice, std::vector<std::vector<int>>& elems) {
    std::vector<std::vector<int>> hexes;
    HexShapes::patch(lattice, hexes);
    std::map<std::pair<int, int>, int> mid;
    elems.clear();
    for (const std::vector<int>& h : hexes) {
      std::vector<int> e = h;
      for (int k = 0; k < 12; ++k) {
        const int a = h[solid_detail::hex20_edge_end(k, 0)], b = h[solid_detail::hex20_edge_end(k, 1)];
        const std::pair<int, int> key{std::min(a, b), std::max(a, b)};
        auto it = mid.find(key);
        if (it == mid.end()) {
          it = mid.emplace(key, static_cast<int>(lattice.size())).first;
          lattice.push_back(0.5 * (lattice[a] + lattice[b]));
        }
        e.push_back(it->second);
      }
      elems.push_back(e);
    }
  }
};
template <>
struct Shapes<C3D20> : Hex20Shapes {};
template <>
struct Shapes<C3D20R> : Hex20Shapes {};

/// The two corner nodes of the element's mid-edge node a (a >= first corner count), for the
/// quadratic kinds; false for a corner or a linear kind.
template <class K>
bool mid_edge_ends(int a, int& p, int& q) {
  if (K::kNodes == 10 && a >= 4) {
    p = solid_detail::tet10_edge_node(a - 4, 0);
    q = solid_detail::tet10_edge_node(a - 4, 1);
    return true;
  }
  if (K::kNodes == 20 && a >= 8) {
    p = solid_detail::hex20_edge_end(a - 8, 0);
    q = solid_detail::hex20_edge_end(a - 8, 1);
    return true;
  }
  return false;
}

/// A fixed finite displacement field (about 4 % of the element size).
template <int N>
void wobble(const V3 X[N], V3 u[N], double amp = 0.04) {
  for (int a = 0; a < N; ++a)
    u[a] = {amp * std::sin(1.0 + 1.3 * a + X[a].y), amp * std::cos(2.0 * a - X[a].z),
            -amp * std::sin(0.5 * a * a + X[a].x)};
}

/// Force scale: the force of a unit strain on the element, M V^(2/3).
double force_scale(const SolidMaterial<double>& m, double vol) { return p_wave_modulus(m) * std::cbrt(vol * vol); }

/// Eigenvalues of a symmetric n x n matrix (row-major), cyclic Jacobi.
std::vector<double> symmetric_eigenvalues(std::vector<double> A, int n) {
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0, diag = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) (i == j ? diag : off) += A[i * n + j] * A[i * n + j];
    if (off <= 1e-30 * diag) break;
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) {
        const double apq = A[p * n + q];
        if (std::fabs(apq) < 1e-300) continue;
        const double theta = (A[q * n + q] - A[p * n + p]) / (2 * apq);
        const double t = (theta >= 0 ? 1 : -1) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < n; ++k) {  // columns p, q
          const double akp = A[k * n + p], akq = A[k * n + q];
          A[k * n + p] = c * akp - s * akq;
          A[k * n + q] = s * akp + c * akq;
        }
        for (int k = 0; k < n; ++k) {  // rows p, q
          const double apk = A[p * n + k], aqk = A[q * n + k];
          A[p * n + k] = c * apk - s * aqk;
          A[q * n + k] = s * apk + c * aqk;
        }
      }
  }
  std::vector<double> ev(n);
  for (int i = 0; i < n; ++i) ev[i] = A[i * n + i];
  return ev;
}

/// Highest angular frequency of a free element with its lumped masses, from the stiffness
/// at u = 0 by central differences of the internal force (hourglass kappa for C3D8R).
template <class K>
double omega_max(const V3 X[], const SolidMaterial<double>& m, double kappa = 0.1) {
  constexpr int N = K::kNodes, n = 3 * N;
  double frac[N];
  const double vol = K::mass_fractions(X, frac);
  std::vector<double> A(n * n);
  const double h = 1e-7 * std::cbrt(vol);
  for (int j = 0; j < n; ++j) {
    V3 up[N], um[N], fp[N], fm[N];
    for (int a = 0; a < N; ++a) up[a] = um[a] = {0, 0, 0};
    component(up[j / 3], j % 3) += h;
    component(um[j / 3], j % 3) -= h;
    K::internal_force(X, up, m, kappa, fp);
    K::internal_force(X, um, m, kappa, fm);
    for (int i = 0; i < n; ++i)
      A[i * n + j] = (component(fp[i / 3], i % 3) - component(fm[i / 3], i % 3)) / (2 * h) /
                     std::sqrt(m.density * vol * frac[i / 3] * m.density * vol * frac[j / 3]);
  }
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) A[i * n + j] = A[j * n + i] = 0.5 * (A[i * n + j] + A[j * n + i]);
  const std::vector<double> ev = symmetric_eigenvalues(A, n);
  return std::sqrt(*std::max_element(ev.begin(), ev.end()));
}

/// int dN_a/dX dV over the element by a rule independent of the element's own (3x3x3 Gauss
/// for hexahedra, the conical-product rule of tet10_hrz for tetrahedra).
template <class K>
void integrated_gradients(const V3 X[], V3 g[]);

void hex_integrated_gradients(const V3 X[8], V3 g[8]) {
  const double x[3] = {-std::sqrt(0.6), 0, std::sqrt(0.6)}, w[3] = {5.0 / 9, 8.0 / 9, 5.0 / 9};
  for (int a = 0; a < 8; ++a) g[a] = {0, 0, 0};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) {
        V3 b[8];
        solid_detail::hex8_natural(x[i], x[j], x[k], b, static_cast<double*>(nullptr));
        const double det = solid_detail::hex8_gradients(X, b);
        for (int a = 0; a < 8; ++a) g[a] += (w[i] * w[j] * w[k] * det) * b[a];
      }
}
template <>
void integrated_gradients<C3D8>(const V3 X[8], V3 g[8]) {
  hex_integrated_gradients(X, g);
}
template <>
void integrated_gradients<C3D8Full>(const V3 X[8], V3 g[8]) {
  hex_integrated_gradients(X, g);
}
template <>
void integrated_gradients<C3D8R>(const V3 X[8], V3 g[8]) {
  hex_integrated_gradients(X, g);
}
template <>
void integrated_gradients<C3D4>(const V3 X[4], V3 g[4]) {
  const double vol = solid_detail::tet4_gradients(X, g);
  for (int a = 0; a < 4; ++a) g[a] = vol * g[a];
}
template <>
void integrated_gradients<C3D10M>(const V3 X[10], V3 g[10]) {
  const double x[4] = {0.06943184420297371, 0.33000947820757187, 0.66999052179242813, 0.93056815579702629};
  const double w[4] = {0.17392742256872693, 0.32607257743127307, 0.32607257743127307, 0.17392742256872693};
  for (int a = 0; a < 10; ++a) g[a] = {0, 0, 0};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k) {
        const double p = x[i], q = x[j], r = x[k];
        const double L[4] = {(1 - p) * (1 - q) * (1 - r), p, (1 - p) * q, (1 - p) * (1 - q) * r};
        V3 b[10];
        solid_detail::tet10_natural(L, b, static_cast<double*>(nullptr));
        const double det = solid_detail::tet10_gradients(X, b);
        for (int a = 0; a < 10; ++a) g[a] += (w[i] * w[j] * w[k] * (1 - p) * (1 - p) * (1 - q) * det) * b[a];
      }
}

template <>
void integrated_gradients<C3D10>(const V3 X[10], V3 g[10]) {
  integrated_gradients<C3D10M>(X, g);
}
template <>
void integrated_gradients<C3D6>(const V3 X[6], V3 g[6]) {
  // Conical product on the triangle (xi = p, eta = (1 - p) q, dA = (1 - p) dp dq, 4 x 4
  // points) times 3-point Gauss along zeta.
  const double x[4] = {0.06943184420297371, 0.33000947820757187, 0.66999052179242813, 0.93056815579702629};
  const double w[4] = {0.17392742256872693, 0.32607257743127307, 0.32607257743127307, 0.17392742256872693};
  const double z[3] = {-std::sqrt(0.6), 0, std::sqrt(0.6)}, wz[3] = {5.0 / 9, 8.0 / 9, 5.0 / 9};
  for (int a = 0; a < 6; ++a) g[a] = {0, 0, 0};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 3; ++k) {
        V3 b[6];
        solid_detail::wedge6_natural(x[i], (1 - x[i]) * x[j], z[k], b, static_cast<double*>(nullptr));
        Mat3<double> J = scaled_identity(0.0);
        for (int a = 0; a < 6; ++a) solid_detail::add_jacobian(J, X[a], b[a]);
        const Mat3<double> Jit = transpose(inverse(J));
        const double dv = w[i] * w[j] * wz[k] * (1 - x[i]) * determinant(J);
        for (int a = 0; a < 6; ++a) g[a] += dv * (Jit * b[a]);
      }
}
/// int dN_a/dX dV of a 20-node hexahedron by 4x4x4 Gauss (neither element's rule).
void hex20_integrated_gradients(const V3 X[20], V3 g[20]) {
  const double x[4] = {-0.86113631159405258, -0.33998104358485626, 0.33998104358485626, 0.86113631159405258};
  const double w[4] = {0.34785484513745386, 0.65214515486254614, 0.65214515486254614, 0.34785484513745386};
  for (int a = 0; a < 20; ++a) g[a] = {0, 0, 0};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k) {
        V3 b[20];
        solid_detail::hex20_natural(x[i], x[j], x[k], b, static_cast<double*>(nullptr));
        Mat3<double> J = scaled_identity(0.0);
        for (int a = 0; a < 20; ++a) solid_detail::add_jacobian(J, X[a], b[a]);
        const Mat3<double> Jit = transpose(inverse(J));
        const double dv = w[i] * w[j] * w[k] * determinant(J);
        for (int a = 0; a < 20; ++a) g[a] += dv * (Jit * b[a]);
      }
}
template <>
void integrated_gradients<C3D20>(const V3 X[20], V3 g[20]) {
  hex20_integrated_gradients(X, g);
}
template <>
void integrated_gradients<C3D20R>(const V3 X[20], V3 g[20]) {
  hex20_integrated_gradients(X, g);
}

template <class K>
class SolidKind : public ::testing::Test {};
/// Whether trait K is another formulation of its deck kind (K::kFormulation).
template <class K, class = void>
struct HasFormulation : std::false_type {};
template <class K>
struct HasFormulation<K, std::void_t<decltype(K::kFormulation)>> : std::true_type {};
using Kinds = ::testing::Types<C3D8R, C3D8, C3D8Full, C3D4, C3D10M, C3D10, C3D6, C3D20R, C3D20>;
/// Names the typed instances after the kinds (a formulation after its deck kind: C3D8_FULL).
struct KindName {
  template <class K>
  static std::string GetName(int) {
    if constexpr (HasFormulation<K>::value) return std::string(K::name()) + "_" + K::kFormulation;
    return K::name();
  }
};
TYPED_TEST_SUITE(SolidKind, Kinds, KindName);

TYPED_TEST(SolidKind, PatchTestLinearFieldGivesExactStrainAndForces) {
  using K = TypeParam;
  constexpr int N = K::kNodes;
  V3 X[N];
  Shapes<K>::straight(X);
  const Mat3<double> A{{1e-3, 2e-4, -1e-4, 3e-4, -5e-4, 2e-4, 0, 1e-4, 8e-4}};
  const Mat3<double> F = scaled_identity(1.0) + A;
  for (const SolidMaterial<double>& m : materials()) {
    V3 u[N], f[N];
    for (int a = 0; a < N; ++a) u[a] = A * X[a] + V3{0.1, -0.2, 0.3};
    const SolidEnergy<double> e = K::internal_force(X, u, m, 0.1, f);
    double frac[N];
    const double vol = K::mass_fractions(X, frac);
    // Exact F: the output Green strain and Cauchy stress are those of F = I + A.
    const SolidOutput<double> out = K::centroid_output(X, u, m);
    const SolidStress<double> s = solid_stress(m, F);
    const Mat3<double> cauchy = (1.0 / determinant(F)) * (F * s.S * transpose(F)), green = green_strain(F);
    for (int i = 0; i < 9; ++i) {
      EXPECT_NEAR(out.green.a[i], green.a[i], 1e-15);
      EXPECT_NEAR(out.cauchy.a[i], cauchy.a[i], 1e-10 * std::sqrt(ddot(cauchy, cauchy)));
    }
    EXPECT_NEAR(e.hourglass, 0.0, 1e-20 * p_wave_modulus(m) * vol);
    // Forces: P int dN_a/dX dV (for C3D8R too: V b_a is that integral).
    const Mat3<double> P = F * s.S;
    V3 g[N];
    integrated_gradients<K>(X, g);
    V3 sum{0, 0, 0}, moment{0, 0, 0};
    const double scale = force_scale(m, vol) * 1e-3;
    for (int a = 0; a < N; ++a) {
      EXPECT_LT(norm(f[a] - P * g[a]), 1e-10 * scale) << K::name() << " node " << a;
      sum += f[a];
      moment += cross(X[a] + u[a], f[a]);
    }
    EXPECT_LT(norm(sum), 1e-12 * scale);
    EXPECT_LT(norm(moment), 1e-11 * scale * std::cbrt(vol));
    // Strain energy V W(F).
    EXPECT_NEAR(e.strain, vol * s.energy, 1e-10 * vol * s.energy);
  }
}

TYPED_TEST(SolidKind, PatchOfDistortedElementsHasNoForceAtInteriorNodes) {
  using K = TypeParam;
  constexpr int N = K::kNodes;
  std::vector<V3> lattice;
  std::vector<std::vector<int>> elems;
  Shapes<K>::patch(lattice, elems);
  // Move every corner node; mid-edge nodes stay at their edge midpoints (straight sides).
  std::vector<V3> pos = lattice;
  const int corners = 27;
  for (int n = 0; n < corners; ++n)
    pos[n] += V3{0.15 * std::sin(1.7 * n + 0.3), 0.15 * std::cos(2.3 * n), 0.15 * std::sin(0.9 * n * n)};
  std::map<int, std::pair<int, int>> mid_of;
  for (const std::vector<int>& e : elems)
    for (int a = 0; a < N; ++a) {
      int p, q;
      if (mid_edge_ends<K>(a, p, q)) mid_of[e[a]] = {e[p], e[q]};
    }
  for (const auto& [n, ends] : mid_of) pos[n] = 0.5 * (pos[ends.first] + pos[ends.second]);

  const SolidMaterial<double> m = materials()[0];
  const Mat3<double> A{{1e-3, 2e-4, -1e-4, 3e-4, -5e-4, 2e-4, 0, 1e-4, 8e-4}};
  std::vector<V3> force(pos.size(), V3{0, 0, 0});
  double fmax = 0;
  for (const std::vector<int>& e : elems) {
    V3 X[N], u[N], f[N];
    for (int a = 0; a < N; ++a) {
      X[a] = pos[e[a]];
      u[a] = A * X[a];
    }
    double frac[N];
    ASSERT_GT(K::mass_fractions(X, frac), 0.0);
    K::internal_force(X, u, m, 0.1, f);
    for (int a = 0; a < N; ++a) {
      force[e[a]] += f[a];
      fmax = std::max(fmax, norm(f[a]));
    }
  }
  int interior = 0;
  double worst = 0;
  for (std::size_t n = 0; n < pos.size(); ++n) {
    const V3 p = lattice[n];
    if (p.x > 0 && p.x < 2 && p.y > 0 && p.y < 2 && p.z > 0 && p.z < 2) {
      ++interior;
      worst = std::max(worst, norm(force[n]));
    }
  }
  EXPECT_GE(interior, 1);
  std::printf("%s patch: %d interior nodes, max |f| there / max element |f| = %.3g\n", K::name(), interior,
              worst / fmax);
  // C3D8R too: its one-point rule uses the uniform (volume-averaged) gradient.
  EXPECT_LT(worst, 1e-12 * fmax);
}

TYPED_TEST(SolidKind, RigidMotionsGiveNoForceAndNoEnergy) {
  using K = TypeParam;
  constexpr int N = K::kNodes;
  V3 X[N];
  Shapes<K>::distorted(X);
  double frac[N];
  const double vol = K::mass_fractions(X, frac);
  for (const SolidMaterial<double>& m : materials())
    for (double angle : {0.0, 0.3, M_PI / 3, 3.0}) {
      const Mat3<double> R = rotation({1, -2, 0.5}, angle);
      V3 u[N], f[N];
      for (int a = 0; a < N; ++a) u[a] = R * X[a] - X[a] + V3{0.3, -1.2, 4.0};
      const SolidEnergy<double> e = K::internal_force(X, u, m, 0.1, f);
      const double scale = force_scale(m, vol);
      for (int a = 0; a < N; ++a) EXPECT_LT(norm(f[a]), 1e-12 * scale) << K::name() << " angle " << angle;
      // Neo-Hookean's C10 (I1bar - 3) is linear in the round-off of F.
      EXPECT_NEAR(e.strain, 0.0, 1e-13 * p_wave_modulus(m) * vol);
      EXPECT_NEAR(e.hourglass, 0.0, 1e-20 * p_wave_modulus(m) * vol);
      const SolidOutput<double> out = K::centroid_output(X, u, m);
      EXPECT_LT(std::sqrt(ddot(out.cauchy, out.cauchy)), 1e-12 * p_wave_modulus(m));
      EXPECT_LT(std::sqrt(ddot(out.green, out.green)), 1e-14);
    }
}

TYPED_TEST(SolidKind, RotationOnTopOfADeformationKeepsEnergyAndRotatesForces) {
  using K = TypeParam;
  constexpr int N = K::kNodes;
  V3 X[N], u[N], f[N];
  Shapes<K>::distorted(X);
  wobble<N>(X, u);
  const Mat3<double> Q = rotation({0.3, 1, -0.7}, 2.1);
  const V3 c{5, -1, 2};
  for (const SolidMaterial<double>& m : materials()) {
    const SolidEnergy<double> e = K::internal_force(X, u, m, 0.1, f);
    V3 ur[N], fr[N];
    for (int a = 0; a < N; ++a) ur[a] = Q * (X[a] + u[a]) + c - X[a];
    const SolidEnergy<double> er = K::internal_force(X, ur, m, 0.1, fr);
    EXPECT_GT(e.strain, 0.0);
    EXPECT_NEAR(er.strain, e.strain, 1e-11 * e.strain);
    EXPECT_NEAR(er.hourglass, e.hourglass, 1e-11 * (e.strain + e.hourglass));
    double fmax = 0;
    for (int a = 0; a < N; ++a) fmax = std::max(fmax, norm(f[a]));
    for (int a = 0; a < N; ++a) EXPECT_LT(norm(fr[a] - Q * f[a]), 1e-11 * fmax) << K::name() << " node " << a;
    // Cauchy stress rotates with the body, Green strain is unchanged.
    const SolidOutput<double> o = K::centroid_output(X, u, m), orot = K::centroid_output(X, ur, m);
    const Mat3<double> expect = Q * o.cauchy * transpose(Q);
    const double smax = std::sqrt(ddot(o.cauchy, o.cauchy));
    for (int i = 0; i < 9; ++i) {
      EXPECT_NEAR(orot.cauchy.a[i], expect.a[i], 1e-11 * smax);
      EXPECT_NEAR(orot.green.a[i], o.green.a[i], 1e-13);
    }
  }
}

// J2 plasticity through the element's per-point state (materials/material_law.hpp): a
// deformation well past yield leaves plastic strain at every point; the same deformation
// rotated rigidly, evaluated from that state, returns no further plastic flow (the radial
// return is idempotent and the Green strain objective), rotated forces and equal energy; the
// energy is the stored elastic energy plus the dissipated work.
TYPED_TEST(SolidKind, PlasticStateIsObjectiveAndTheReturnIsIdempotent) {
  using K = TypeParam;
  constexpr int N = K::kNodes, P = K::kPoints;
  V3 X[N], u[N], f[N];
  Shapes<K>::distorted(X);
  for (int a = 0; a < N; ++a)  // 2 % stretch along x, a shear: about 8x the yield strain
    u[a] = {0.02 * X[a].x + 0.01 * X[a].y, -0.004 * X[a].y, 0.006 * X[a].x};
  const double sy[2] = {250.0, 270.0}, ep[2] = {0.0, 0.01};
  const SolidMaterial<double> m = j2_plastic(200e3, 0.3, 7.8e-9, sy, ep, 2);
  std::vector<double> store(static_cast<std::size_t>(kJ2StateSize) * P, 0.0);
  const ElementState<double> state{store.data(), store.data(), static_cast<std::size_t>(P), 0};
  const SolidEnergy<double> e = K::internal_force(X, u, m, 0.1, f, state);
  const std::vector<double> after = store;
  double dissipated = 0;
  for (int g = 0; g < P; ++g) {
    EXPECT_GT(after[kJ2Alpha * P + g], 1e-3) << K::name() << " point " << g;
    dissipated += after[kJ2Dissipation * P + g];
  }
  // Elastic forces of the same deformation are larger: the plastic points relaxed.
  V3 fe[N];
  const SolidEnergy<double> ee = K::internal_force(X, u, svk_isotropic(200e3, 0.3, 7.8e-9), 0.1, fe);
  EXPECT_LT(e.strain, ee.strain);
  EXPECT_GT(dissipated, 0.0);

  const Mat3<double> Q = rotation({0.3, 1, -0.7}, 2.1);
  V3 ur[N], fr[N];
  for (int a = 0; a < N; ++a) ur[a] = Q * (X[a] + u[a]) + V3{5, -1, 2} - X[a];
  const SolidEnergy<double> er = K::internal_force(X, ur, m, 0.1, fr, state);
  for (std::size_t i = 0; i < store.size(); ++i) EXPECT_NEAR(store[i], after[i], 1e-12) << K::name() << " value " << i;
  EXPECT_NEAR(er.strain, e.strain, 1e-11 * e.strain);
  double fmax = 0;
  for (int a = 0; a < N; ++a) fmax = std::max(fmax, norm(f[a]));
  for (int a = 0; a < N; ++a) EXPECT_LT(norm(fr[a] - Q * f[a]), 1e-10 * fmax) << K::name() << " node " << a;
  // Output reads the state and leaves it alone; its stress is the plastic one (below elastic).
  const std::vector<double> before_output = store;
  const SolidOutput<double> o = K::centroid_output(X, ur, m, state);
  const SolidOutput<double> oe = K::centroid_output(X, u, svk_isotropic(200e3, 0.3, 7.8e-9));
  EXPECT_EQ(store, before_output);
  EXPECT_LT(von_mises(o.cauchy), von_mises(oe.cauchy));
  EXPECT_GT(von_mises(o.cauchy), 250.0 * 0.9);
}

TYPED_TEST(SolidKind, ForcesAreTheGradientOfTheEnergy) {
  using K = TypeParam;
  constexpr int N = K::kNodes;
  V3 X[N], u[N], f[N];
  Shapes<K>::distorted(X);
  wobble<N>(X, u, 0.08);
  for (const SolidMaterial<double>& m : materials()) {
    K::internal_force(X, u, m, 0.1, f);
    double fmax = 0;
    for (int a = 0; a < N; ++a) fmax = std::max(fmax, norm(f[a]));
    const double h = 1e-6;
    for (int a = 0; a < N; ++a)
      for (int c = 0; c < 3; ++c) {
        V3 up[N], um[N], tmp[N];
        for (int b = 0; b < N; ++b) up[b] = um[b] = u[b];
        component(up[a], c) += h;
        component(um[a], c) -= h;
        const SolidEnergy<double> ep = K::internal_force(X, up, m, 0.1, tmp);
        const SolidEnergy<double> em = K::internal_force(X, um, m, 0.1, tmp);
        const double dw = (ep.strain + ep.hourglass - em.strain - em.hourglass) / (2 * h);
        EXPECT_NEAR(component(f[a], c), dw, 1e-6 * fmax) << K::name() << " node " << a << " dof " << c;
      }
  }
}

TYPED_TEST(SolidKind, LumpedMassIsPositiveAndVolumeIsExact) {
  using K = TypeParam;
  constexpr int N = K::kNodes;
  V3 X[N];
  double frac[N];
  for (int shape = 0; shape < 3; ++shape) {
    double expect = -1;
    if (shape == 0) Shapes<K>::distorted(X);
    if (shape == 1) Shapes<K>::straight(X);
    if (shape == 2) expect = Shapes<K>::regular(X);
    const double vol = K::mass_fractions(X, frac);
    EXPECT_GT(vol, 0.0);
    if (expect > 0) {
      EXPECT_NEAR(vol, expect, 1e-13 * expect);
    }
    double sum = 0;
    for (int a = 0; a < N; ++a) {
      EXPECT_GT(frac[a], 0.0) << K::name() << " node " << a;
      sum += frac[a];
    }
    EXPECT_NEAR(sum, 1.0, 1e-14);
  }
  // Volume of a sheared, rotated parallelepiped (every kind integrates it exactly).
  const Mat3<double> G = rotation({1, 1, 0.2}, 0.8) * Mat3<double>{{2.0, 0.5, 0.3, 0.0, 1.5, -0.4, 0.0, 0.0, 1.2}};
  Shapes<K>::regular(X);
  const double v0 = K::mass_fractions(X, frac);
  for (int a = 0; a < N; ++a) X[a] = G * X[a] + V3{3, -2, 1};
  EXPECT_NEAR(K::mass_fractions(X, frac), determinant(G) * v0, 1e-13 * v0);
}

TEST(SolidKinds, C3D10MHrzFractionsOfAStraightSidedElement) {
  V3 X[10];
  double frac[10];
  Shapes<C3D10M>::straight(X);
  const double vol = C3D10M::mass_fractions(X, frac);
  EXPECT_NEAR(vol, dot(X[1] - X[0], cross(X[2] - X[0], X[3] - X[0])) / 6, 1e-14);
  for (int a = 0; a < 4; ++a) EXPECT_NEAR(frac[a], 1.0 / 36, 1e-15);
  for (int a = 4; a < 10; ++a) EXPECT_NEAR(frac[a], 4.0 / 27, 1e-15);
  // Curved edges still give positive fractions.
  Shapes<C3D10M>::distorted(X);
  C3D10M::mass_fractions(X, frac);
  for (int a = 0; a < 10; ++a) EXPECT_GT(frac[a], 0.0);
}

TYPED_TEST(SolidKind, StableIncrementIsBelowTheTrueCriticalIncrement) {
  using K = TypeParam;
  constexpr int N = K::kNodes;
  V3 X[N];
  std::vector<SolidMaterial<double>> mats = materials();
  // Nearly incompressible materials, where the dilatation mode makes the bounds tight.
  mats.push_back(svk_isotropic(210e3, 0.499, 7.8e-9));
  mats.push_back(neo_hookean(80.0, 5e-8, 1e-9));
  for (int shape = 0; shape < 3; ++shape) {
    if (shape == 0) Shapes<K>::regular(X);
    if (shape == 1) Shapes<K>::distorted(X);
    if (shape == 2) {  // more distorted
      Shapes<K>::distorted(X);
      X[N - 1] += V3{0.4, -0.3, 0.5};
      X[0] += V3{-0.2, -0.3, -0.1};
    }
    for (std::size_t i = 0; i < mats.size(); ++i)
      for (double kappa : {0.1, 0.3}) {
        const SolidMaterial<double>& m = mats[i];
        const double exact = 2.0 / omega_max<K>(X, m, kappa);
        const double dt = K::stable_dt(X, m, kappa);
        std::printf("%s shape %d material %zu kappa %.1f: stable_dt / (2/omega_max) = %.4f\n", K::name(), shape, i,
                    kappa, dt / exact);
        EXPECT_GT(dt, 0.0);
        EXPECT_LE(dt, exact * (1 + 1e-6)) << K::name() << " shape " << shape << " material " << i;
        if (shape == 0 && i == 0) {
          EXPECT_GE(dt, 0.3 * exact) << K::name();
        }
        if (!std::is_same_v<K, C3D8R>) break;  // kappa only matters for C3D8R
      }
  }
}

TYPED_TEST(SolidKind, InvertedOrFlatElementsAreRefused) {
  using K = TypeParam;
  constexpr int N = K::kNodes;
  const SolidMaterial<double> m = materials()[0];
  V3 X[N], u[N], f[N];
  double frac[N];
  // Mirror image: every Jacobian changes sign.
  Shapes<K>::distorted(X);
  for (int a = 0; a < N; ++a) {
    X[a].x = -X[a].x;
    u[a] = {0, 0, 0};
  }
  EXPECT_LE(K::mass_fractions(X, frac), 0.0);
  EXPECT_EQ(K::stable_dt(X, m), 0.0);
  K::internal_force(X, u, m, 0.1, f);
  EXPECT_TRUE(std::isnan(f[0].x));
  EXPECT_TRUE(std::isnan(K::centroid_output(X, u, m).cauchy(0, 0)));
  // Flat: all nodes in one plane.
  Shapes<K>::distorted(X);
  for (int a = 0; a < N; ++a) X[a].z = 0;
  EXPECT_LE(K::mass_fractions(X, frac), 0.0);
  EXPECT_EQ(K::stable_dt(X, m), 0.0);
  // The hexahedra and C3D10M also check interior points: one corner pushed through the opposite face.
  if (N == 8) {
    Shapes<K>::regular(X);
    X[6] = X[0] + 0.2 * (X[6] - X[0]);
    X[6].z -= 2.5;  // the top corner sinks below the bottom face
    EXPECT_LE(K::mass_fractions(X, frac), 0.0);
  }
  if (N == 10) {
    Shapes<K>::straight(X);
    X[4] = X[4] + 1.2 * (X[3] - X[4]);  // mid-edge node 1-2 pulled past node 4
    EXPECT_LE(K::mass_fractions(X, frac), 0.0);
  }
}

/// Zero eigenvalues (below 1e-6 of the largest) of the free stiffness of a block of cx x cy x
/// cz unit cells of 20-node hexahedra (mid-edge nodes shared), by central differences at
/// u = 0: the rigid motions (6) plus the block's spurious modes.
template <class K>
int hex20_block_zero_modes(int cx, int cy, int cz) {
  std::vector<V3> X;
  const auto corner = [&](int i, int j, int k) { return i + (cx + 1) * (j + (cy + 1) * k); };
  for (int k = 0; k <= cz; ++k)
    for (int j = 0; j <= cy; ++j)
      for (int i = 0; i <= cx; ++i) X.push_back({double(i), double(j), double(k)});
  std::map<std::pair<int, int>, int> mid;
  std::vector<std::vector<int>> elems;
  for (int k = 0; k < cz; ++k)
    for (int j = 0; j < cy; ++j)
      for (int i = 0; i < cx; ++i) {
        std::vector<int> e;
        for (int a = 0; a < 8; ++a)
          e.push_back(corner(i + (hex8_sign(a, 0) > 0), j + (hex8_sign(a, 1) > 0), k + (hex8_sign(a, 2) > 0)));
        for (int ed = 0; ed < 12; ++ed) {
          const int a = e[solid_detail::hex20_edge_end(ed, 0)], b = e[solid_detail::hex20_edge_end(ed, 1)];
          const auto key = std::make_pair(std::min(a, b), std::max(a, b));
          auto it = mid.find(key);
          if (it == mid.end()) {
            it = mid.emplace(key, static_cast<int>(X.size())).first;
            X.push_back(0.5 * (X[a] + X[b]));
          }
          e.push_back(it->second);
        }
        elems.push_back(e);
      }
  const int n = 3 * static_cast<int>(X.size());
  std::vector<double> A(static_cast<std::size_t>(n) * n, 0.0);
  const SolidMaterial<double> m = svk_isotropic(1.0, 0.3, 1.0);
  for (const std::vector<int>& e : elems) {
    V3 Xe[20];
    for (int a = 0; a < 20; ++a) Xe[a] = X[e[a]];
    for (int j = 0; j < 60; ++j) {
      V3 up[20] = {}, um[20] = {}, fp[20], fm[20];
      component(up[j / 3], j % 3) += 1e-6;
      component(um[j / 3], j % 3) -= 1e-6;
      K::internal_force(Xe, up, m, 0.0, fp);
      K::internal_force(Xe, um, m, 0.0, fm);
      for (int i = 0; i < 60; ++i)
        A[static_cast<std::size_t>(3 * e[i / 3] + i % 3) * n + 3 * e[j / 3] + j % 3] +=
            (component(fp[i / 3], i % 3) - component(fm[i / 3], i % 3)) / 2e-6;
    }
  }
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) A[i * n + j] = A[j * n + i] = 0.5 * (A[i * n + j] + A[j * n + i]);
  const std::vector<double> ev = symmetric_eigenvalues(A, n);
  const double top = *std::max_element(ev.begin(), ev.end());
  return static_cast<int>(std::count_if(ev.begin(), ev.end(), [&](double v) { return std::fabs(v) < 1e-6 * top; }));
}

TEST(SolidKinds, C3D20RSpuriousModesDoNotSurviveABlock) {
  // 2x2x2 points leave a single C3D20R 6 spurious zero-energy modes (as Abaqus's, which has no
  // hourglass control for it either); a row of two elements still 3, a 2 x 2 x 1 block none.
  // C3D20's 3x3x3 points leave only the rigid motions.
  EXPECT_EQ(hex20_block_zero_modes<C3D20R>(1, 1, 1), 12);
  EXPECT_EQ(hex20_block_zero_modes<C3D20R>(2, 1, 1), 9);
  EXPECT_EQ(hex20_block_zero_modes<C3D20R>(2, 2, 1), 6);
  EXPECT_EQ(hex20_block_zero_modes<C3D20>(1, 1, 1), 6);
}

TEST(SolidKinds, C3D8FbarRemovesVolumetricLockingInBending) {
  // Cube [-1, 1]^3 of nearly incompressible Neo-Hookean (K / mu = 1e5) under the nodal
  // values of the isochoric bending field u = k (x z, -y z / 2, .) (the quadratic part of
  // u_z is constant on the corners): the trilinear interpolant has tr(eps) = k z / 2 at the
  // Gauss points, which locks full integration; its mean is zero, which F-bar uses.
  V3 X[8], u[8], f[8];
  for (int a = 0; a < 8; ++a) X[a] = {double(hex8_sign(a, 0)), double(hex8_sign(a, 1)), double(hex8_sign(a, 2))};
  const double k = 1e-3;
  for (int a = 0; a < 8; ++a) u[a] = {k * X[a].x * X[a].z, -0.5 * k * X[a].y * X[a].z, 0};
  const SolidMaterial<double> m = neo_hookean(1.0, 1e-5, 1e-9);
  const double fbar = C3D8::internal_force(X, u, m, 0.0, f).strain;
  const double plain = solid_detail::c3d8_force(X, u, m, false, f).strain;
  // Without locking the energy is of order mu k^2 V (bending plus the trilinear parasitic
  // shear), with mu = 2 C10 = 2.
  std::printf("C3D8 bending energy: F-bar %.4g, full integration %.4g (mu k^2 V = %.4g)\n", fbar, plain,
              2.0 * k * k * 8.0);
  EXPECT_LT(fbar, 2.0 * k * k * 8.0);
  EXPECT_GT(plain, 1000.0 * fbar);
  // FORMULATION=FULL is that plain integration: it locks.
  EXPECT_EQ(C3D8Full::internal_force(X, u, m, 0.0, f).strain, plain);
}

/// Every member of kind K in float, on the distorted element, against double.
template <class K>
void check_float() {
  constexpr int N = K::kNodes;
  V3 X[N], u[N], f[N];
  Shapes<K>::distorted(X);
  wobble<N>(X, u, 0.01);
  const SolidMaterial<double> m = materials()[0];
  const SolidMaterial<float> mf = material_as<float>(m);
  Vec3<float> Xf[N], uf[N], ff[N];
  for (int a = 0; a < N; ++a) {
    Xf[a] = {float(X[a].x), float(X[a].y), float(X[a].z)};
    uf[a] = {float(u[a].x), float(u[a].y), float(u[a].z)};
  }
  double frac[N];
  float fracf[N];
  EXPECT_NEAR(K::mass_fractions(Xf, fracf), K::mass_fractions(X, frac), 1e-5 * K::mass_fractions(X, frac));
  const SolidEnergy<double> e = K::internal_force(X, u, m, 0.1, f);
  const SolidEnergy<float> ef = K::internal_force(Xf, uf, mf, 0.1f, ff);
  EXPECT_NEAR(ef.strain, e.strain, 1e-3 * e.strain) << K::name();
  EXPECT_NEAR(ef.hourglass, e.hourglass, 1e-3 * (e.strain + e.hourglass)) << K::name();
  double fmax = 0;
  for (int a = 0; a < N; ++a) fmax = std::max(fmax, norm(f[a]));
  for (int a = 0; a < N; ++a)
    EXPECT_LT(norm(V3{ff[a].x - f[a].x, ff[a].y - f[a].y, ff[a].z - f[a].z}), 1e-3 * fmax) << K::name();
  EXPECT_NEAR(K::stable_dt(Xf, mf), K::stable_dt(X, m), 1e-5 * K::stable_dt(X, m));
  const SolidOutput<float> of = K::centroid_output(Xf, uf, mf);
  const SolidOutput<double> o = K::centroid_output(X, u, m);
  EXPECT_NEAR(von_mises(of.cauchy), von_mises(o.cauchy), 1e-3 * von_mises(o.cauchy)) << K::name();
}

TEST(SolidKinds, FloatInstantiationsAgreeWithDouble) {
  check_float<C3D8R>();
  check_float<C3D8>();
  check_float<C3D8Full>();
  check_float<C3D4>();
  check_float<C3D10M>();
  check_float<C3D6>();
  check_float<C3D20R>();
  check_float<C3D20>();
}

TEST(SolidKinds, VonMises) {
  EXPECT_NEAR(von_mises(Mat3<double>{{100, 0, 0, 0, 0, 0, 0, 0, 0}}), 100.0, 1e-12);
  EXPECT_NEAR(von_mises(Mat3<double>{{0, 50, 0, 50, 0, 0, 0, 0, 0}}), 50.0 * std::sqrt(3.0), 1e-12);
  EXPECT_NEAR(von_mises(scaled_identity(-7.0)), 0.0, 1e-12);
  EXPECT_STREQ(C3D8R::name(), "C3D8R");
  EXPECT_STREQ(C3D8::name(), "C3D8");
  EXPECT_STREQ(C3D4::name(), "C3D4");
  EXPECT_STREQ(C3D10M::name(), "C3D10M");
  static_assert(C3D8R::kNodes == 8 && C3D8::kNodes == 8 && C3D4::kNodes == 4 && C3D10M::kNodes == 10, "node counts");
}

}  // namespace
}  // namespace halfstep
