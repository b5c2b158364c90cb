// The FPM triangle (elements/fpm_tri.hpp) on its own: rigid motion (a full spin with translation
// in many steps), objectivity of the convected stresses, membrane and bending patch tests on
// distorted meshes of 2 and 4 triangles, the small-displacement stiffness against CST, the
// DKT of Batoz, Bathe & Ho (1980) written out here from their explicit shape functions and the
// drilling penalty, and the stable increment against the eigenvalues of the element's 18 x 18
// lumped problem.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "elements/fpm_tri.hpp"

namespace halfstep {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kE = 200.0, kNu = 0.3, kT = 0.05;

/// One triangle's state in a plain vector (stride 1).
struct OneTri {
  TriConstants<double> sec;
  Vec3<double> X[3];
  std::vector<double> state;
  TriStateRef<double> ref() { return {state.data(), 1}; }
  OneTri(const TriConstants<double>& s, Vec3<double> a, Vec3<double> b, Vec3<double> c)
      : sec(s), state(static_cast<std::size_t>(tri_state_size(s.section_points)), 0.0) {
    X[0] = a;
    X[1] = b;
    X[2] = c;
    const Vec3<double> n = normalized(cross(b - a, c - a));
    tri_initial_state(b - a, c - a, shell_default_e1(n), tri_state_size(s.section_points), ref());
  }
  /// Evaluates with node positions x and node rotations r (from the reference).
  TriForces<double> at(const Vec3<double> x[3], const Mat3<double> r[3]) {
    TriNodes<double> nd;
    nd.edge0[0] = X[1] - X[0];
    nd.edge0[1] = X[2] - X[0];
    for (int k = 0; k < 3; ++k) {
      nd.u[k] = x[k] - X[k];
      nd.t1[k] = column(r[k], 0);
      nd.d[k] = column(r[k], 2);
    }
    return fpm_tri_update(sec, nd, ref());
  }
  double stress(int p, int k, int i) const {
    double sig[3];
    tri_point_stress_now(sec, TriStateRef<const double>{state.data(), 1}, p, k, sig);
    return sig[i];
  }
  /// Every in-plane point's stresses at every section point.
  std::vector<double> stresses() const {
    std::vector<double> all;
    for (int p = 0; p < kTriPoints; ++p)
      for (int k = 0; k < sec.section_points; ++k)
        for (int i = 0; i < 3; ++i) all.push_back(stress(p, k, i));
    return all;
  }
};

TriConstants<double> section(int points = 5) { return make_tri_section(kT, kE, kNu, points); }

double largest(const TriForces<double>& f) {
  double m = 0;
  for (int k = 0; k < 3; ++k) m = std::fmax(m, std::fmax(norm(f.f[k]), norm(f.m[k])));
  return m;
}

TEST(FpmTri, SimpsonSectionPointsIntegrateCubicsExactly) {
  const TriConstants<double> c = section(7);
  double w = 0, z2 = 0, z3 = 0;
  for (int k = 0; k < 7; ++k) {
    w += c.wz[k];
    z2 += c.wz[k] * c.zeta[k] * c.zeta[k];
    z3 += c.wz[k] * c.zeta[k] * c.zeta[k] * c.zeta[k];
  }
  EXPECT_NEAR(w, 2.0, 1e-15);
  EXPECT_NEAR(z2, 2.0 / 3, 1e-15);  // the bending stiffness t^3/12 comes out exactly
  EXPECT_NEAR(z3, 0.0, 1e-15);
}

TEST(FpmTri, FullSpinWithTranslationGivesNoForce) {
  OneTri t(section(), {0.2, -0.1, 0.4}, {1.1, 0.3, 0.1}, {0.5, 0.9, -0.2});
  const Vec3<double> axis = normalized(Vec3<double>{0.3, 0.8, 0.5});
  const Vec3<double> e1_0{t.state[kTriE1], t.state[kTriE1 + 1], t.state[kTriE1 + 2]};
  const int steps = 720;
  double worst = 0;
  for (int i = 1; i <= steps; ++i) {
    const double s = static_cast<double>(i) / steps;
    const Mat3<double> r = rotation_matrix((2 * kPi * s) * axis);
    const Vec3<double> shift{3.0 * s, -s, 0.5 * s * s};
    Vec3<double> x[3];
    for (int k = 0; k < 3; ++k) x[k] = t.X[0] + shift + r * (t.X[k] - t.X[0]);
    const Mat3<double> rr[3] = {r, r, r};
    worst = std::fmax(worst, largest(t.at(x, rr)));
  }
  // Force scale E t l = 10: round-off only.
  EXPECT_LT(worst, 1e-12);
  // Stresses: the strain increments' round-off (1e-16 a step) summed over 720 steps, times E
  // (measured 5.8e-12 = 2.9e-14 E).
  double stress = 0;
  for (double v : t.stresses()) stress = std::fmax(stress, std::fabs(v));
  std::printf("spin: largest force %.3g, largest stress %.3g\n", worst, stress);
  EXPECT_LT(stress, 1e-13 * kE);
  EXPECT_LT(std::fabs(t.state[kTriWork]), 1e-15);
  // The DCS has turned with the body and is back where it started.
  EXPECT_NEAR(dot(Vec3<double>{t.state[kTriE1], t.state[kTriE1 + 1], t.state[kTriE1 + 2]}, e1_0), 1.0, 1e-13);
}

TEST(FpmTri, StressesTurnWithTheBody) {
  OneTri t(section(), {0, 0, 0}, {1, 0.1, 0}, {0.3, 0.9, 0});
  // Deform in one small step: stretch, shear and bend (node rotations), out of plane too.
  const Vec3<double> x[3] = {{0, 0, 0}, {1.002, 0.1, 0.001}, {0.301, 0.903, -0.002}};
  const Mat3<double> r[3] = {rotation_matrix(Vec3<double>{0.001, 0.002, -0.003}),
                             rotation_matrix(Vec3<double>{-0.002, 0.001, 0.004}),
                             rotation_matrix(Vec3<double>{0.003, -0.001, 0.0})};
  const TriForces<double> f0 = t.at(x, r);
  const std::vector<double> s0 = t.stresses();
  const double w0 = t.state[kTriWork];
  // Then a rigid 90-degree turn about a skew axis through node 1, in 90 steps.
  const Vec3<double> axis = normalized(Vec3<double>{1, 2, 3});
  TriForces<double> f;
  Mat3<double> q;
  for (int i = 1; i <= 90; ++i) {
    q = rotation_matrix((kPi / 2 * i / 90) * axis);
    const Vec3<double> xr[3] = {q * x[0], q * x[1], q * x[2]};
    const Mat3<double> rr[3] = {q * r[0], q * r[1], q * r[2]};
    f = t.at(xr, rr);
  }
  double scale = 0;
  for (double v : s0) scale = std::fmax(scale, std::fabs(v));
  ASSERT_GT(scale, 0.1);
  // Unchanged but for the round-off of 90 increments (measured 6.9e-13 = 3.4e-15 E).
  double dev = 0, fdev = 0;
  const std::vector<double> s1 = t.stresses();
  for (std::size_t i = 0; i < s0.size(); ++i) dev = std::fmax(dev, std::fabs(s1[i] - s0[i]));
  for (int k = 0; k < 3; ++k) fdev = std::fmax(fdev, std::fmax(norm(f.f[k] - q * f0.f[k]), norm(f.m[k] - q * f0.m[k])));
  std::printf("rotated: stress change %.3g of %.3g, force change %.3g of %.3g\n", dev, scale, fdev, largest(f0));
  EXPECT_LT(dev, 1e-14 * kE);
  EXPECT_NEAR(t.state[kTriWork], w0, 1e-15);
  EXPECT_LT(fdev, 1e-12 * largest(f0));
}

/// A patch of triangles over shared nodes, evaluated as the node update would gather them.
struct Patch {
  std::vector<Vec3<double>> X;
  std::vector<std::array<int, 3>> tris;
  std::vector<OneTri> elems;
  Patch(std::vector<Vec3<double>> nodes, std::vector<std::array<int, 3>> t) : X(std::move(nodes)), tris(std::move(t)) {
    for (const auto& c : tris) elems.emplace_back(section(), X[c[0]], X[c[1]], X[c[2]]);
  }
  /// Node forces and moments (6 per node) at positions x and rotations r.
  std::vector<double> forces(const std::vector<Vec3<double>>& x, const std::vector<Mat3<double>>& r) {
    std::vector<double> out(6 * X.size(), 0.0);
    for (std::size_t e = 0; e < tris.size(); ++e) {
      Vec3<double> xe[3];
      Mat3<double> re[3];
      for (int k = 0; k < 3; ++k) {
        xe[k] = x[tris[e][k]];
        re[k] = r[tris[e][k]];
      }
      const TriForces<double> f = elems[e].at(xe, re);
      for (int k = 0; k < 3; ++k) {
        const int n = tris[e][k];
        const double v[6] = {f.f[k].x, f.f[k].y, f.f[k].z, f.m[k].x, f.m[k].y, f.m[k].z};
        for (int i = 0; i < 6; ++i) out[6 * n + i] += v[i];
      }
    }
    return out;
  }
};

/// Distorted patches: 2 triangles of a skew quadrilateral, and 4 around an off-centre node.
Patch two_patch() { return Patch({{0, 0, 0}, {1.2, 0.1, 0}, {1.0, 0.9, 0}, {0.1, 1.1, 0}}, {{0, 1, 2}, {0, 2, 3}}); }
Patch four_patch() {
  return Patch({{0, 0, 0}, {1.2, 0.1, 0}, {1.0, 0.9, 0}, {0.1, 1.1, 0}, {0.62, 0.41, 0}},
               {{0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4}});
}

TEST(FpmTri, MembranePatchGivesConstantStressAndBalancedInteriorNode) {
  for (int which = 0; which < 2; ++which) {
    Patch p = which == 0 ? two_patch() : four_patch();
    // u = eps X in 10 small steps (eps11, eps22, gamma12 = 1e-4, -2e-4, 3e-4).
    const double e11 = 1e-4, e22 = -2e-4, g12 = 3e-4;
    std::vector<double> f;
    for (int s = 1; s <= 10; ++s) {
      const double a = s / 10.0;
      std::vector<Vec3<double>> x(p.X.size());
      for (std::size_t n = 0; n < x.size(); ++n)
        x[n] = p.X[n] + a * Vec3<double>{e11 * p.X[n].x + g12 * p.X[n].y, e22 * p.X[n].y, 0.0};
      // The nodes turn with the patch's rotation about z (the polar angle of F = I + a eps),
      // which the drilling stiffness ties them to.
      const double turn = std::atan2(-a * g12, 2 + a * (e11 + e22));
      f = p.forces(x, std::vector<Mat3<double>>(x.size(), rotation_matrix(Vec3<double>{0, 0, turn})));
    }
    const double d11 = kE / (1 - kNu * kNu);
    // Small strain: the increments sum to the linear strain within a few 1e-4 (the strain's
    // own size, from the rotation of the sheared patch and the current-geometry forces).
    const double s11 = d11 * (e11 + kNu * e22), s22 = d11 * (kNu * e11 + e22), s12 = kE / (2 * (1 + kNu)) * g12;
    for (const OneTri& t : p.elems)
      for (int q = 0; q < kTriPoints; ++q)
        for (int k = 0; k < 5; ++k) {
          // The DCS e1 is the global x axis (the patch lies in the xy plane), turned with the
          // patch's small rotation (g12 / 2 - the shear part the polar angle removes).
          EXPECT_NEAR(t.stress(q, k, 0), s11, 2e-3 * std::fabs(s11));
          EXPECT_NEAR(t.stress(q, k, 1), s22, 2e-3 * std::fabs(s22));
          EXPECT_NEAR(t.stress(q, k, 2), s12, 2e-3 * std::fabs(s11));
        }
    // Every element has the same stress to round-off: the patch is passed exactly.
    for (const OneTri& t : p.elems)
      for (int i = 0; i < 3; ++i) EXPECT_NEAR(t.stress(0, 0, i), p.elems[0].stress(0, 0, i), 1e-12);
    if (which == 1) {
      for (int i = 0; i < 6; ++i) EXPECT_NEAR(f[6 * 4 + i], 0.0, 1e-14);  // interior node
    }
  }
}

TEST(FpmTri, BendingPatchGivesConstantCurvatureAndBalancedInteriorNode) {
  for (int which = 0; which < 2; ++which) {
    Patch p = which == 0 ? two_patch() : four_patch();
    // w = (k11 X^2 + k22 Y^2 + k12 X Y) / 2 with the Kirchhoff rotations theta = (w,y, -w,x),
    // so the curvature (beta_x,x, beta_y,y, beta_x,y + beta_y,x) = -(k11, k22, k12).
    const double k11 = 2e-6, k22 = -1e-6, k12 = 3e-6;
    std::vector<Vec3<double>> x(p.X.size());
    std::vector<Mat3<double>> r(p.X.size());
    for (std::size_t n = 0; n < x.size(); ++n) {
      const double X = p.X[n].x, Y = p.X[n].y;
      x[n] = p.X[n] + Vec3<double>{0, 0, 0.5 * (k11 * X * X + k22 * Y * Y + k12 * X * Y)};
      const double wx = k11 * X + 0.5 * k12 * Y, wy = k22 * Y + 0.5 * k12 * X;
      r[n] = rotation_matrix(Vec3<double>{wy, -wx, 0.0});
    }
    const std::vector<double> f = p.forces(x, r);
    double msf = 0, mtop = 0, msm = 0;
    const double d11 = kE / (1 - kNu * kNu), db = kT * kT * kT / 12;
    const double m11 = -db * d11 * (k11 + kNu * k22), m22 = -db * d11 * (kNu * k11 + k22);
    const double m12 = -db * kE / (2 * (1 + kNu)) * k12;
    for (const OneTri& t : p.elems) {
      double sf[3], sm[3], bot[3], top[3];
      tri_section_results(t.sec, TriStateRef<const double>{t.state.data(), 1}, sf, sm, bot, top);
      // DKT passes the constant-curvature patch test: exact up to the O(k L) geometric terms.
      msm = std::fmax(msm, std::fmax(std::fabs(sm[0] - m11), std::fmax(std::fabs(sm[1] - m22), std::fabs(sm[2] - m12))));
      for (int i = 0; i < 3; ++i) msf = std::fmax(msf, std::fabs(sf[i]));
      mtop = std::fmax(mtop, std::fabs(top[0] - 6 * m11 / (kT * kT) - sf[0] / kT));
    }
    // A doubly curved w stretches the mid-surface by O((k L)^2): membrane forces of order
    // E t (k L)^2 = 1.3e-10 (k L = 3.6e-6) are geometry, not error (measured 4.2e-11). The
    // moments are exact to round-off (measured 2e-20 of 3.9e-9).
    std::printf("bending patch %d: moment error %.3g of %.3g, membrane %.3g, top stress error %.3g\n", which, msm,
                std::fabs(m11), msf, mtop);
    EXPECT_LT(msm, 1e-5 * std::fabs(m11));
    EXPECT_LT(msf, kE * kT * 1.3e-11);
    EXPECT_LT(mtop, 1e-4 * std::fabs(6 * m11 / (kT * kT)));
    if (which == 1) {
      // Interior node: the normal force and the moments balance to the round-off of the
      // bending scale (m11 = 3.9e-9); the in-plane forces carry the geometric membrane forces.
      for (int i = 2; i < 6; ++i) EXPECT_NEAR(f[6 * 4 + i], 0.0, 1e-15);
      for (int i = 0; i < 2; ++i) EXPECT_NEAR(f[6 * 4 + i], 0.0, kE * kT * 1.3e-11);
    }
  }
}

/// The element's 18 x 18 small-displacement stiffness by central differences of its forces
/// from the reference (dofs ux, uy, uz, rx, ry, rz per node, global).
std::vector<double> numerical_stiffness(const TriConstants<double>& sec, const Vec3<double> X[3], double h) {
  std::vector<double> k(18 * 18, 0.0);
  for (int j = 0; j < 18; ++j) {
    std::vector<double> fp(18), fm(18);
    for (int sgn = -1; sgn <= 1; sgn += 2) {
      OneTri t(sec, X[0], X[1], X[2]);
      Vec3<double> x[3] = {X[0], X[1], X[2]};
      Mat3<double> r[3] = {scaled_identity(1.0), scaled_identity(1.0), scaled_identity(1.0)};
      const int n = j / 6, d = j % 6;
      Vec3<double> delta{d % 3 == 0 ? sgn * h : 0.0, d % 3 == 1 ? sgn * h : 0.0, d % 3 == 2 ? sgn * h : 0.0};
      if (d < 3) x[n] += delta;
      else r[n] = rotation_matrix(delta);
      const TriForces<double> f = t.at(x, r);
      std::vector<double>& out = sgn > 0 ? fp : fm;
      for (int a = 0; a < 3; ++a) {
        const double v[6] = {f.f[a].x, f.f[a].y, f.f[a].z, f.m[a].x, f.m[a].y, f.m[a].z};
        for (int i = 0; i < 6; ++i) out[6 * a + i] = v[i];
      }
    }
    for (int i = 0; i < 18; ++i) k[18 * i + j] = (fp[i] - fm[i]) / (2 * h);
  }
  return k;
}

/// CST membrane stiffness t A B^T D B, the DKT bending stiffness from Batoz, Bathe & Ho's
/// explicit H_x, H_y (dofs w, theta_x = w,y, theta_y = -w,x per node) and the drilling
/// penalty, for a triangle in the xy plane, on the 18 global dofs.
std::vector<double> closed_form_stiffness(const Vec3<double> X[3]) {
  std::vector<double> k(18 * 18, 0.0);
  const double x[3] = {X[0].x, X[1].x, X[2].x}, y[3] = {X[0].y, X[1].y, X[2].y};
  const double a2 = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]), area = a2 / 2;
  const double d11 = kE / (1 - kNu * kNu), d12 = kNu * d11, d33 = kE / (2 * (1 + kNu));
  const double d[3][3] = {{d11, d12, 0}, {d12, d11, 0}, {0, 0, d33}};
  // CST.
  double bm[3][6] = {};
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, m = (i + 2) % 3;
    const double b = (y[j] - y[m]) / a2, c = (x[m] - x[j]) / a2;
    bm[0][2 * i] = b;
    bm[1][2 * i + 1] = c;
    bm[2][2 * i] = c;
    bm[2][2 * i + 1] = b;
  }
  const int mdof[6] = {0, 1, 6, 7, 12, 13};
  for (int a = 0; a < 6; ++a)
    for (int b = 0; b < 6; ++b) {
      double s = 0;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) s += bm[i][a] * d[i][j] * bm[j][b];
      k[18 * mdof[a] + mdof[b]] += kT * area * s;
    }
  // Drilling penalty: k_d (rz_k - w)^2 / 2 per node, w = (v,x - u,y) / 2 the CST rotation.
  const double kd = kTriDrillScale * d11 * kT * kT * kT / 12;
  for (int n = 0; n < 3; ++n) {
    double g[18] = {};
    g[6 * n + 5] = 1;
    for (int j = 0; j < 3; ++j) {
      g[6 * j] += 0.5 * bm[2][2 * j];       // -dw/du_j = c_j / 2
      g[6 * j + 1] -= 0.5 * bm[2][2 * j + 1];  // -dw/dv_j = -b_j / 2
    }
    for (int a = 0; a < 18; ++a)
      for (int b = 0; b < 18; ++b) k[18 * a + b] += kd * g[a] * g[b];
  }
  // DKT (Batoz 1980): sides k = 4, 5, 6 are 23, 31, 12; x_ij = x_i - x_j.
  const int si[3] = {1, 2, 0}, sj[3] = {2, 0, 1};
  double ca[3], cb[3], cc[3], cd[3], ce[3];
  for (int s = 0; s < 3; ++s) {
    const double xij = x[si[s]] - x[sj[s]], yij = y[si[s]] - y[sj[s]], l2 = xij * xij + yij * yij;
    ca[s] = -xij / l2;
    cb[s] = 0.75 * xij * yij / l2;
    cc[s] = (0.25 * xij * xij - 0.5 * yij * yij) / l2;
    cd[s] = -yij / l2;
    ce[s] = (0.25 * yij * yij - 0.5 * xij * xij) / l2;
  }
  const int bdof[9] = {2, 3, 4, 8, 9, 10, 14, 15, 16};
  const double db = kT * kT * kT / 12;
  for (int p = 0; p < 3; ++p) {
    const double l[3] = {p == 0 ? 2.0 / 3 : 1.0 / 6, p == 1 ? 2.0 / 3 : 1.0 / 6, p == 2 ? 2.0 / 3 : 1.0 / 6};
    // d/dxi and d/deta of N1..N6 (L1 = 1 - xi - eta, L2 = xi, L3 = eta).
    const double dl[2][3] = {{-1, 1, 0}, {-1, 0, 1}};
    double dn[2][6];
    for (int v = 0; v < 2; ++v) {
      for (int i = 0; i < 3; ++i) dn[v][i] = (4 * l[i] - 1) * dl[v][i];
      dn[v][3] = 4 * (dl[v][1] * l[2] + l[1] * dl[v][2]);
      dn[v][4] = 4 * (dl[v][2] * l[0] + l[2] * dl[v][0]);
      dn[v][5] = 4 * (dl[v][0] * l[1] + l[0] * dl[v][1]);
    }
    double hx[2][9], hy[2][9];
    for (int v = 0; v < 2; ++v) {
      const double* N = dn[v];
      // a4..e6 at index 0..2; N4..N6 at N[3..5]
      const double A4 = ca[0], A5 = ca[1], A6 = ca[2], B4 = cb[0], B5 = cb[1], B6 = cb[2];
      const double C4 = cc[0], C5 = cc[1], C6 = cc[2], D4 = cd[0], D5 = cd[1], D6 = cd[2];
      const double E4 = ce[0], E5 = ce[1], E6 = ce[2];
      const double hxv[9] = {1.5 * (A6 * N[5] - A5 * N[4]), B5 * N[4] + B6 * N[5], N[0] - C5 * N[4] - C6 * N[5],
                             1.5 * (A4 * N[3] - A6 * N[5]), B6 * N[5] + B4 * N[3], N[1] - C6 * N[5] - C4 * N[3],
                             1.5 * (A5 * N[4] - A4 * N[3]), B4 * N[3] + B5 * N[4], N[2] - C4 * N[3] - C5 * N[4]};
      const double hyv[9] = {1.5 * (D6 * N[5] - D5 * N[4]), -N[0] + E5 * N[4] + E6 * N[5], -B5 * N[4] - B6 * N[5],
                             1.5 * (D4 * N[3] - D6 * N[5]), -N[1] + E6 * N[5] + E4 * N[3], -B6 * N[5] - B4 * N[3],
                             1.5 * (D5 * N[4] - D4 * N[3]), -N[2] + E4 * N[3] + E5 * N[4], -B4 * N[3] - B5 * N[4]};
      for (int i = 0; i < 9; ++i) {
        hx[v][i] = hxv[i];
        hy[v][i] = hyv[i];
      }
    }
    const double x31 = x[2] - x[0], x12 = x[0] - x[1], y31 = y[2] - y[0], y12 = y[0] - y[1];
    double bb[3][9];
    for (int i = 0; i < 9; ++i) {
      bb[0][i] = (y31 * hx[0][i] + y12 * hx[1][i]) / a2;
      bb[1][i] = (-x31 * hy[0][i] - x12 * hy[1][i]) / a2;
      bb[2][i] = (-x31 * hx[0][i] - x12 * hx[1][i] + y31 * hy[0][i] + y12 * hy[1][i]) / a2;
    }
    for (int a = 0; a < 9; ++a)
      for (int b = 0; b < 9; ++b) {
        double s = 0;
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) s += bb[i][a] * d[i][j] * bb[j][b];
        k[18 * bdof[a] + bdof[b]] += area / 3 * db * s;
      }
  }
  return k;
}

TEST(FpmTri, SmallDisplacementStiffnessIsCstPlusDkt) {
  const Vec3<double> X[3] = {{0.1, 0.2, 0}, {1.3, 0.4, 0}, {0.5, 1.1, 0}};
  const std::vector<double> kn = numerical_stiffness(section(), X, 1e-7);
  const std::vector<double> kc = closed_form_stiffness(X);
  double scale = 0, worst = 0;
  for (double v : kc) scale = std::fmax(scale, std::fabs(v));
  for (int i = 0; i < 18 * 18; ++i) worst = std::fmax(worst, std::fabs(kn[i] - kc[i]));
  // Central differences of a path-independent first step: the difference is the O(h^2) and
  // round-off of the differencing (measured 4e-9 of the largest entry).
  EXPECT_LT(worst, 1e-7 * scale);
  // The bending block is not negligible next to the membrane one (t = 0.05): it is tested.
  EXPECT_GT(std::fabs(kc[18 * 3 + 3]), 1e-4 * scale);
}

/// Largest eigenvalue of a symmetric n x n matrix (cyclic Jacobi).
double largest_eigenvalue(std::vector<double> a, int n) {
  for (int sweep = 0; sweep < 60; ++sweep) {
    double off = 0;
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) off += a[n * p + q] * a[n * p + q];
    if (off < 1e-30) break;
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) {
        if (std::fabs(a[n * p + q]) < 1e-300) continue;
        const double th = (a[n * q + q] - a[n * p + p]) / (2 * a[n * p + q]);
        const double t = (th >= 0 ? 1 : -1) / (std::fabs(th) + std::sqrt(th * th + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < n; ++k) {
          const double akp = a[n * k + p], akq = a[n * k + q];
          a[n * k + p] = c * akp - s * akq;
          a[n * k + q] = s * akp + c * akq;
        }
        for (int k = 0; k < n; ++k) {
          const double apk = a[n * p + k], aqk = a[n * q + k];
          a[n * p + k] = c * apk - s * aqk;
          a[n * q + k] = s * apk + c * aqk;
        }
      }
  }
  double m = a[0];
  for (int i = 1; i < n; ++i) m = std::fmax(m, a[n * i + i]);
  return m;
}

TEST(FpmTri, StableIncrementBoundsTheElementEigenvalues) {
  const double rho = 7.8;
  const Vec3<double> shapes[4][3] = {{{0, 0, 0}, {1, 0, 0}, {0.5, 0.8660254037844386, 0}},
                                     {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},
                                     {{0, 0, 0}, {1, 0, 0}, {0.9, 0.3, 0}},
                                     {{0.1, 0.2, 0}, {1.3, 0.4, 0}, {0.5, 1.1, 0}}};
  for (double t : {0.01, 0.05, 0.3}) {
    const TriConstants<double> sec = make_tri_section(t, kE, kNu, 5);
    for (const auto& X : shapes) {
      std::vector<double> k = numerical_stiffness(sec, X, 1e-7);
      const double area = 0.5 * norm(cross(X[1] - X[0], X[2] - X[0]));
      const double m = rho * t * area / 3, j = m * std::fmax(t * t / 12, kTriRotaryScale * area);
      for (int a = 0; a < 18; ++a)
        for (int b = 0; b < 18; ++b) {
          const double ma = a % 6 < 3 ? m : j, mb = b % 6 < 3 ? m : j;
          k[18 * a + b] = 0.5 * (k[18 * a + b] + k[18 * b + a]) / std::sqrt(ma * mb);
        }
      for (int a = 0; a < 18; ++a)
        for (int b = 0; b < a; ++b) k[18 * a + b] = k[18 * b + a];
      const double exact = 2 / std::sqrt(largest_eigenvalue(k, 18));
      const double x[3] = {0, X[1].x - X[0].x, X[2].x - X[0].x}, y[3] = {0, X[1].y - X[0].y, X[2].y - X[0].y};
      const double dt = fpm_tri_stable_dt(sec, rho, x, y);
      // Never above the true one; within the drilling bound's share (t^2 / A) when the
      // membrane controls (thin elements), and within the Gershgorin bound's 25 % when the
      // bending block does (t = 0.3 here).
      std::printf("t %.2f: dt %.6g, eigenvalue %.6g\n", t, dt, exact);
      EXPECT_LE(dt, exact * (1 + 1e-6)) << t;
      if (t < 0.1) {
        EXPECT_NEAR(dt, exact, 2e-3 * exact) << t;
      }
      else EXPECT_GT(dt, 0.75 * exact) << t;
    }
  }
}

}  // namespace
}  // namespace halfstep

namespace halfstep {
namespace {

// The element applies the DKT curvature matrix and its transpose without forming it: both must
// be the formed matrix's products (same arithmetic up to the order of sums).
TEST(FpmTri, MatrixFreeDktMatchesTheMatrix) {
  const double x[3] = {0, 1.3, 0.4}, y[3] = {0, 0.2, 0.9};
  double b[3], c[3];
  tri_detail::area_gradients(x, y, b, c);
  const tri_detail::DktEdges<double> g = tri_detail::dkt_edges(x, y, b, c);
  const double q[9] = {0.3, -1.1, 0.7, -0.2, 0.5, 1.9, 0.8, -0.6, -1.4};
  const double m[3] = {1.7, -0.4, 0.9};
  double worst = 0, scale = 0;
  for (int p = 0; p < kTriPoints; ++p) {
    double l[3], bm[3][9], kappa[3], adj[9] = {};
    tri_detail::point_coordinates(p, l);
    tri_detail::dkt_matrix(x, y, b, c, l, bm);
    tri_detail::dkt_apply(g, l, q, kappa);
    tri_detail::dkt_apply_transpose(g, l, m, 2.0, adj);
    for (int i = 0; i < 3; ++i) {
      double ref = 0;
      for (int d = 0; d < 9; ++d) ref += bm[i][d] * q[d];
      worst = std::fmax(worst, std::fabs(kappa[i] - ref));
      scale = std::fmax(scale, std::fabs(ref));
    }
    for (int d = 0; d < 9; ++d) {
      double ref = 0;
      for (int i = 0; i < 3; ++i) ref += 2.0 * bm[i][d] * m[i];
      worst = std::fmax(worst, std::fabs(adj[d] - ref));
      scale = std::fmax(scale, std::fabs(ref));
    }
  }
  ASSERT_GT(scale, 1.0);
  EXPECT_LT(worst, 1e-14 * scale);
}

}  // namespace
}  // namespace halfstep
