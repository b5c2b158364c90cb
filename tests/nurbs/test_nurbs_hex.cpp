// The NURBS solid elements NC3D1..NC3D3 (elements/nurbs_hex.hpp) one element at a time, their
// data built from a rational patch as the model build does (extract_bezier: the control points'
// weights, then the three 1D operators): the VTK point order against the triquadratic
// hexahedron's, lumped masses and volume against the exact volume of a thick cylinder sector,
// rigid motions giving no force, forces as the gradient of the energy, the dual-number element
// matrix against central differences of the forces (the static solver's tangent), an affine
// field giving the exact uniform stress, and the stable-increment bound below the element's
// highest frequency.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/dual.hpp"
#include "discretization/nurbs_patch.hpp"
#include "elements/nurbs_hex.hpp"
#include "materials/material_tangent.hpp"

namespace halfstep {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kA = 1.0, kB = 2.0, kH = 0.8;  ///< sector radii and height

/// Quarter of a thick cylinder a < r < b, 0 < z < h: direction 0 around (degree 2, the exact
/// circle), 1 radial, 2 along z (degree 1), elevated to degree P everywhere and refined
/// `refine` times per span: rational, curved, with a non-affine parametrization.
NurbsPatch sector(int P, int refine) {
  NurbsPatch s;
  s.dim = 3;
  s.degree = {{2, 1, 1}};
  s.count = {{3, 2, 2}};
  s.knots[0] = {0, 0, 0, 1, 1, 1};
  s.knots[1] = {0, 0, 1, 1};
  s.knots[2] = {0, 0, 1, 1};
  const double h = std::sqrt(0.5);
  // Clockwise from the y axis, so that (around, radial, z) is right-handed: det J > 0.
  const double cx[3] = {0, 1, 1}, cy[3] = {1, 1, 0}, cw[3] = {1, h, 1};
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 3; ++i) {
        const double r = j ? kB : kA;
        s.x.push_back(r * cx[i]);
        s.y.push_back(r * cy[i]);
        s.z.push_back(kH * k);
        s.w.push_back(cw[i]);
      }
  for (int d = 0; d < 3; ++d)
    if (s.degree[d] < P) s = elevate_degree(s, d, P - s.degree[d]);
  if (refine > 0) s = refine_uniform(s, refine);
  return s;
}

/// A rational trilinear patch for degree 1 (a circle needs degree 2): 3 x 3 x 3 control
/// points of a box 2 x 1 x 1, jittered, with weights 0.8 to 1.25 and an interior knot per
/// direction (2 x 2 x 2 elements).
NurbsPatch trilinear_block() {
  NurbsPatch s;
  s.dim = 3;
  s.degree = {{1, 1, 1}};
  s.count = {{3, 3, 3}};
  for (int d = 0; d < 3; ++d) s.knots[d] = {0, 0, 0.5, 1, 1};
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> jitter(-0.08, 0.08), weight(0.8, 1.25);
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) {
        s.x.push_back(i + jitter(rng));
        s.y.push_back(0.5 * j + jitter(rng));
        s.z.push_back(0.5 * k + jitter(rng));
        s.w.push_back(weight(rng));
      }
  return s;
}

/// The test patch of degree P: the rational block for P = 1, the sector refined once otherwise.
NurbsPatch patch_of_degree(int P) { return P == 1 ? trilinear_block() : sector(P, 1); }

/// One element's reference nodes and constant data (the layout of NurbsHex::kElementData).
template <int P>
struct ElementOf {
  Vec3<double> X[nurbs_detail::NurbsHex<P>::kNodes];
  std::vector<double> data;
};

/// Element k of a patch of degree P in every direction.
template <int P>
ElementOf<P> element_of(const NurbsPatch& patch, int k) {
  const BezierMesh bm = extract_bezier(patch, false);
  ElementOf<P> e;
  const int* c = bm.connectivity.data() + static_cast<std::size_t>(k) * bm.nb;
  for (int a = 0; a < bm.nb; ++a) {
    e.X[a] = {patch.x[c[a]], patch.y[c[a]], patch.z[c[a]]};
    e.data.push_back(patch.w[c[a]]);
  }
  for (int d = 0; d < 3; ++d) {
    const Extraction1D& x = bm.dir[d];
    const double* op = x.op(bm.dir_element[static_cast<std::size_t>(k) * 3 + d]);
    e.data.insert(e.data.end(), op, op + (P + 1) * (P + 1));
  }
  EXPECT_EQ(static_cast<int>(e.data.size()), nurbs_detail::NurbsHex<P>::kElementData);
  return e;
}

/// Rotation by angle about the unit axis n (Rodrigues).
Mat3<double> rotation(Vec3<double> n, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  Mat3<double> R;
  const double v[3] = {n.x, n.y, n.z};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R(i, j) = (1 - c) * v[i] * v[j] + (i == j ? c : 0.0);
  R(0, 1) -= s * v[2];
  R(1, 0) += s * v[2];
  R(0, 2) += s * v[1];
  R(2, 0) -= s * v[1];
  R(1, 2) -= s * v[0];
  R(2, 1) += s * v[0];
  return R;
}

/// A smooth finite deformation of the element's nodes (strains of ~5 %).
template <int N>
void deformation(const Vec3<double> X[N], Vec3<double> u[N], unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(-0.02, 0.02);
  for (int a = 0; a < N; ++a)
    u[a] = {0.05 * X[a].y + 0.03 * X[a].z * X[a].x + d(rng), -0.04 * X[a].x + 0.02 * X[a].y * X[a].y + d(rng),
            0.03 * X[a].x - 0.05 * X[a].z + d(rng)};
}

/// The lagrange_hex_order table for P = 2 is VTK's triquadratic hexahedron (type 29, which
/// VTK 9 makes the quadratic Lagrange hexahedron match) with its edges 18 and 19 swapped: the
/// pre-9.0 Lagrange order that VTK reads from the version-1.0 files halfstep writes. Points
/// in parametric coordinates 0..2 from VTK's description of type 29.
TEST(NurbsHex, VtkOrderIsTheLagrangeHexahedronsOfFileVersionOne) {
  const int corner[8][3] = {{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0}, {0, 0, 2}, {2, 0, 2}, {2, 2, 2}, {0, 2, 2}};
  const int edges[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6}, {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  const int faces[6][4] = {{0, 3, 7, 4}, {1, 2, 6, 5}, {0, 1, 5, 4}, {3, 2, 6, 7}, {0, 1, 2, 3}, {4, 5, 6, 7}};
  std::vector<std::array<int, 3>> vtk;
  for (const auto& c : corner) vtk.push_back({c[0], c[1], c[2]});
  for (const auto& e : edges)
    vtk.push_back({(corner[e[0]][0] + corner[e[1]][0]) / 2, (corner[e[0]][1] + corner[e[1]][1]) / 2,
                   (corner[e[0]][2] + corner[e[1]][2]) / 2});
  for (const auto& f : faces) {
    std::array<int, 3> m{0, 0, 0};
    for (int k = 0; k < 4; ++k)
      for (int i = 0; i < 3; ++i) m[i] += corner[f[k]][i];
    vtk.push_back({m[0] / 4, m[1] / 4, m[2] / 4});
  }
  vtk.push_back({1, 1, 1});
  std::swap(vtk[18], vtk[19]);
  const auto order = nurbs_detail::lagrange_hex_order<2>();
  ASSERT_EQ(order.size(), vtk.size());
  for (std::size_t n = 0; n < vtk.size(); ++n) {
    const int a = order[n];
    EXPECT_EQ(a % 3, vtk[n][0]) << "VTK point " << n;
    EXPECT_EQ((a / 3) % 3, vtk[n][1]) << "VTK point " << n;
    EXPECT_EQ(a / 9, vtk[n][2]) << "VTK point " << n;
  }
  // P = 1: the VTK hexahedron's corners; P = 3: a permutation whose points come in the
  // sections corners, edges, faces, interior.
  const auto o1 = nurbs_detail::lagrange_hex_order<1>();
  const int hex8[8] = {0, 1, 3, 2, 4, 5, 7, 6};
  for (int n = 0; n < 8; ++n) EXPECT_EQ(o1[n], hex8[n]);
  const auto o3 = nurbs_detail::lagrange_hex_order<3>();
  std::vector<int> seen(64, 0);
  for (int n = 0; n < 64; ++n) {
    const int a = o3[n], ijk[3] = {a % 4, (a / 4) % 4, a / 16};
    int on = 0;
    for (int i : ijk) on += i == 0 || i == 3;
    const int want = n < 8 ? 3 : n < 32 ? 2 : n < 56 ? 1 : 0;
    EXPECT_EQ(on, want) << "VTK point " << n;
    ++seen[a];
  }
  for (int a = 0; a < 64; ++a) EXPECT_EQ(seen[a], 1);
}

/// Volume of the sector from the elements' mass_fractions, and the fractions positive and
/// summing to one. The rational integrand leaves a quadrature error that falls with the
/// degree; B-spline (unit weight) geometry would be exact.
template <int P>
double sector_volume_error() {
  const NurbsPatch s = sector(P, 1);
  const BezierMesh bm = extract_bezier(s, false);
  double vol = 0;
  for (int k = 0; k < bm.elements; ++k) {
    const ElementOf<P> e = element_of<P>(s, k);
    double frac[nurbs_detail::NurbsHex<P>::kNodes];
    const double v = nurbs_detail::NurbsHex<P>::mass_fractions(e.X, frac, e.data.data());
    EXPECT_GT(v, 0.0);
    double sum = 0;
    for (double f : frac) {
      EXPECT_GT(f, 0.0);
      sum += f;
    }
    EXPECT_NEAR(sum, 1.0, 1e-14);
    vol += v;
  }
  const double exact = 0.25 * kPi * (kB * kB - kA * kA) * kH;
  return std::fabs(vol / exact - 1);
}

TEST(NurbsHex, LumpedMassIsPositiveAndVolumeIsTheSectors) {
  const double e2 = sector_volume_error<2>(), e3 = sector_volume_error<3>();
  std::printf("sector volume error: degree 2 %.2e, degree 3 %.2e\n", e2, e3);
  // Measured 2.6e-7 and 3.6e-9 (2 x 2 x 2 elements of a quarter circle).
  EXPECT_LT(e2, 1e-6);
  EXPECT_LT(e3, 1e-8);
}

/// Rotation by 0.9 rad about an oblique axis plus a translation: no force, no energy (both
/// materials), where a strain of the same size gives forces of order E times the volume.
template <int P>
void rigid_motion_check() {
  using K = nurbs_detail::NurbsHex<P>;
  const ElementOf<P> e = element_of<P>(patch_of_degree(P), 3);
  const Mat3<double> R = rotation(normalized(Vec3<double>{1, 2, -0.5}), 0.9);
  Vec3<double> u[K::kNodes], f[K::kNodes];
  for (int a = 0; a < K::kNodes; ++a) u[a] = R * e.X[a] - e.X[a] + Vec3<double>{0.3, -1.2, 0.7};
  const ElementState<double> st{nullptr, nullptr, 0, 0, e.data.data()};
  for (const SolidMaterial<double>& m : {svk_isotropic(1000, 0.3, 1), neo_hookean(200, 0.002, 1)}) {
    const SolidEnergy<double> w = K::internal_force(e.X, u, m, 0.1, f, st);
    double fmax = 0;
    for (int a = 0; a < K::kNodes; ++a) fmax = std::max({fmax, std::fabs(f[a].x), std::fabs(f[a].y), std::fabs(f[a].z)});
    std::printf("NC3D%d rigid motion (%s): max |f| %.1e, W %.1e\n", P, law_is<NeoHookean>(m) ? "Neo-Hooke" : "SVK", fmax,
                w.strain);
    // A strain of 1 % would give forces of order E x 1 % x the element's area, ~0.1 to 1.
    EXPECT_LT(fmax, 1e-10) << "degree " << P;
    EXPECT_LT(std::fabs(w.strain), 1e-12) << "degree " << P;
  }
}

TEST(NurbsHex, RigidMotionsGiveNoForceAndNoEnergy) {
  rigid_motion_check<1>();
  rigid_motion_check<2>();
  rigid_motion_check<3>();
}

/// f_a = dW/du_a by central differences of the energy, Neo-Hookean at a finite strain.
template <int P>
void energy_gradient_check() {
  using K = nurbs_detail::NurbsHex<P>;
  const ElementOf<P> e = element_of<P>(patch_of_degree(P), 5);
  const SolidMaterial<double> m = neo_hookean(200, 0.002, 1);
  const ElementState<double> st{nullptr, nullptr, 0, 0, e.data.data()};
  Vec3<double> u[K::kNodes], f[K::kNodes], g[K::kNodes];
  deformation<K::kNodes>(e.X, u, 7);
  K::internal_force(e.X, u, m, 0.1, f, st);
  double fmax = 0, err = 0;
  const double h = 1e-6;
  for (int a = 0; a < K::kNodes; ++a)
    for (int c = 0; c < 3; ++c) {
      double* x = c == 0 ? &u[a].x : c == 1 ? &u[a].y : &u[a].z;
      const double x0 = *x;
      *x = x0 + h;
      const double wp = K::internal_force(e.X, u, m, 0.1, g, st).strain;
      *x = x0 - h;
      const double wm = K::internal_force(e.X, u, m, 0.1, g, st).strain;
      *x = x0;
      const double fa = c == 0 ? f[a].x : c == 1 ? f[a].y : f[a].z;
      fmax = std::max(fmax, std::fabs(fa));
      err = std::max(err, std::fabs(fa - (wp - wm) / (2 * h)));
    }
  EXPECT_GT(fmax, 1.0);
  EXPECT_LT(err, 1e-6 * fmax) << "degree " << P;
}

TEST(NurbsHex, ForcesAreTheGradientOfTheEnergy) {
  energy_gradient_check<1>();
  energy_gradient_check<2>();
  energy_gradient_check<3>();
}

/// The element matrix the static solver assembles (column j: the forces' derivative along
/// dof j by one dual-number evaluation, as ContinuumOperator::element_matrices and the CUDA
/// engine form it) against central differences of the forces, and its symmetry.
template <int P>
void tangent_check(const SolidMaterial<double>& m) {
  using K = nurbs_detail::NurbsHex<P>;
  using D = Dual<double>;
  constexpr int nd = 3 * K::kNodes;
  const ElementOf<P> e = element_of<P>(patch_of_degree(P), 6);
  const SolidMaterial<D> md = dual_material(m);
  Vec3<double> u[K::kNodes], fp[K::kNodes], fm[K::kNodes];
  deformation<K::kNodes>(e.X, u, 3);
  Vec3<D> X[K::kNodes], ud[K::kNodes], fd[K::kNodes];
  for (int a = 0; a < K::kNodes; ++a) X[a] = {D(e.X[a].x), D(e.X[a].y), D(e.X[a].z)};
  std::vector<double> k(static_cast<std::size_t>(nd) * nd);
  for (int j = 0; j < nd; ++j) {
    for (int a = 0; a < K::kNodes; ++a) ud[a] = {D(u[a].x), D(u[a].y), D(u[a].z)};
    (j % 3 == 0 ? ud[j / 3].x : j % 3 == 1 ? ud[j / 3].y : ud[j / 3].z).d = 1.0;
    K::internal_force(X, ud, md, D(0.1), fd, ElementState<D>{nullptr, nullptr, 0, 0, e.data.data()});
    for (int a = 0; a < K::kNodes; ++a) {
      k[static_cast<std::size_t>(3 * a) * nd + j] = fd[a].x.d;
      k[static_cast<std::size_t>(3 * a + 1) * nd + j] = fd[a].y.d;
      k[static_cast<std::size_t>(3 * a + 2) * nd + j] = fd[a].z.d;
    }
  }
  const ElementState<double> st{nullptr, nullptr, 0, 0, e.data.data()};
  const double h = 1e-6;
  double kmax = 0, err = 0, asym = 0;
  for (int j = 0; j < nd; ++j) {
    double* x = j % 3 == 0 ? &u[j / 3].x : j % 3 == 1 ? &u[j / 3].y : &u[j / 3].z;
    const double x0 = *x;
    *x = x0 + h;
    K::internal_force(e.X, u, m, 0.1, fp, st);
    *x = x0 - h;
    K::internal_force(e.X, u, m, 0.1, fm, st);
    *x = x0;
    for (int a = 0; a < K::kNodes; ++a) {
      const double col[3] = {(fp[a].x - fm[a].x) / (2 * h), (fp[a].y - fm[a].y) / (2 * h), (fp[a].z - fm[a].z) / (2 * h)};
      for (int c = 0; c < 3; ++c) {
        const double kij = k[static_cast<std::size_t>(3 * a + c) * nd + j];
        kmax = std::max(kmax, std::fabs(kij));
        err = std::max(err, std::fabs(kij - col[c]));
        asym = std::max(asym, std::fabs(kij - k[static_cast<std::size_t>(j) * nd + 3 * a + c]));
      }
    }
  }
  std::printf("NC3D%d tangent: |K| %.3e, |K - FD| %.2e, |K - K^T| %.2e\n", P, kmax, err, asym);
  EXPECT_GT(kmax, 10.0);
  EXPECT_LT(err, 1e-6 * kmax) << "degree " << P;
  EXPECT_LT(asym, 1e-12 * kmax) << "degree " << P;
}

TEST(NurbsHex, DualNumberTangentMatchesFiniteDifferences) {
  tangent_check<1>(neo_hookean(200, 0.002, 1));
  tangent_check<2>(neo_hookean(200, 0.002, 1));
  tangent_check<2>(svk_isotropic(1000, 0.3, 1));
  tangent_check<3>(neo_hookean(200, 0.002, 1));
}

/// A displacement affine in X lies in the element's space: every Gauss point sees the same F,
/// so the averaged Cauchy stress is the material's at that F (St. Venant-Kirchhoff, closed form).
TEST(NurbsHex, AffineFieldGivesItsUniformStress) {
  using K = nurbs_detail::NurbsHex<2>;
  const ElementOf<2> e = element_of<2>(sector(2, 1), 2);
  Mat3<double> G = scaled_identity(0.0);
  G(0, 0) = 0.01, G(0, 1) = 0.004, G(1, 2) = -0.003, G(2, 0) = 0.002, G(2, 2) = -0.006;
  Vec3<double> u[K::kNodes];
  for (int a = 0; a < K::kNodes; ++a) u[a] = G * e.X[a];
  const double E = 1000, nu = 0.3, lam = E * nu / ((1 + nu) * (1 - 2 * nu)), mu = E / (2 * (1 + nu));
  const SolidOutput<double> out =
      K::centroid_output(e.X, u, svk_isotropic(E, nu, 1), ElementState<double>{nullptr, nullptr, 0, 0, e.data.data()});
  const Mat3<double> F = scaled_identity(1.0) + G;
  const Mat3<double> Egl = 0.5 * (transpose(F) * F - scaled_identity(1.0));
  const double tr = Egl(0, 0) + Egl(1, 1) + Egl(2, 2);
  const Mat3<double> S = lam * tr * scaled_identity(1.0) + 2 * mu * Egl;
  const Mat3<double> sigma = (1 / determinant(F)) * (F * S * transpose(F));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      EXPECT_NEAR(out.cauchy(i, j), sigma(i, j), 1e-13 * E) << i << j;
      EXPECT_NEAR(out.green(i, j), Egl(i, j), 1e-15) << i << j;
    }
}

/// The increment bound is below the free element's critical increment 2 / omega_max with its
/// lumped masses (omega_max from the stiffness by power iteration on M^-1 K).
TEST(NurbsHex, StableIncrementIsBelowTheTrueCriticalIncrement) {
  using K = nurbs_detail::NurbsHex<2>;
  using D = Dual<double>;
  constexpr int nd = 3 * K::kNodes;
  const ElementOf<2> e = element_of<2>(sector(2, 1), 1);
  const SolidMaterial<double> m = svk_isotropic(1000, 0.3, 2.5);
  double frac[K::kNodes];
  const double vol = K::mass_fractions(e.X, frac, e.data.data());
  const double bound = K::stable_dt(e.X, m, 0.1, e.data.data());
  Vec3<D> X[K::kNodes], ud[K::kNodes], fd[K::kNodes];
  for (int a = 0; a < K::kNodes; ++a) X[a] = {D(e.X[a].x), D(e.X[a].y), D(e.X[a].z)};
  const SolidMaterial<D> md = dual_material(m);
  std::vector<double> x(nd, 1.0), y(nd);
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> r(-1, 1);
  for (double& v : x) v = r(rng);
  double lambda = 0;
  for (int it = 0; it < 3000; ++it) {  // y = M^-1 K x (K x as one directional derivative)
    for (int a = 0; a < K::kNodes; ++a) ud[a] = {D(0, x[3 * a]), D(0, x[3 * a + 1]), D(0, x[3 * a + 2])};
    K::internal_force(X, ud, md, D(0.1), fd, ElementState<D>{nullptr, nullptr, 0, 0, e.data.data()});
    double n = 0;
    for (int a = 0; a < K::kNodes; ++a) {
      const double ma = m.density * vol * frac[a];
      y[3 * a] = fd[a].x.d / ma, y[3 * a + 1] = fd[a].y.d / ma, y[3 * a + 2] = fd[a].z.d / ma;
    }
    for (double v : y) n += v * v;
    n = std::sqrt(n);
    double xn = 0;
    for (double v : x) xn += v * v;
    lambda = n / std::sqrt(xn);
    for (int i = 0; i < nd; ++i) x[i] = y[i] / n;
  }
  const double exact = 2 / std::sqrt(lambda);
  std::printf("NC3D2 stable increment: bound %.4e, 2/omega_max %.4e\n", bound, exact);
  EXPECT_GT(bound, 0.0);
  EXPECT_LT(bound, exact);
}

}  // namespace
}  // namespace halfstep
