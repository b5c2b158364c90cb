// The adhesion law (materials/adhesion_law.hpp) and the adhesion edge elements
// (elements/adhesion_edge.hpp): traction = -d(energy)/d(gap), the closed forms of the rest gap
// and the work of adhesion, the C1 linear continuation below r_min, forces = gradient of the
// element's energy, the dual-number tangent against finite differences, and motion along the
// substrate carrying no force; the explicit steps' stable increment (the law's steepest slope,
// the edge's two-node oscillator).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/dual.hpp"
#include "elements/adhesion_edge.hpp"

namespace halfstep {
namespace {

using V3 = Vec3<double>;

AdhesionConstants lennard_jones() {
  AdhesionConstants c;
  c.law = kAdhesionLennardJones;
  c.r0 = 0.4;
  c.scale = 0.1 / (2 * M_PI * 0.4 * 0.4 * 0.4);  // A_H = 0.1 (1e-19 J in nN nm)
  c.r_min = 0.5 * lennard_jones_rest_gap(c.r0);
  c.normal[1] = 1;
  return c;
}

TEST(AdhesionLaw, TractionIsMinusTheEnergySlope) {
  const AdhesionConstants c = lennard_jones();
  for (double r : {0.05, 0.1, 0.2, 0.25, 0.3, 0.5, 1.0, 3.0}) {
    const double h = 1e-6 * r;
    double pp, pm, phi;
    adhesion_traction(c, r + h, pp);
    adhesion_traction(c, r - h, pm);
    const double t = adhesion_traction(c, r, phi);
    EXPECT_NEAR(t, -(pp - pm) / (2 * h), 1e-7 * (std::fabs(t) + c.scale)) << "r = " << r;
  }
}

TEST(AdhesionLaw, RestGapAndWorkOfAdhesionHaveTheirClosedForms) {
  const AdhesionConstants c = lennard_jones();
  const double req = lennard_jones_rest_gap(c.r0);
  double phi;
  EXPECT_NEAR(adhesion_traction(c, req, phi), 0.0, 1e-14 * c.scale);
  // W = -phi(r_eq) = -integral of T from r_eq to infinity (Simpson in s = 1/r).
  const double w = lennard_jones_work_of_adhesion(c.scale, c.r0);
  EXPECT_NEAR(-phi, w, 1e-14 * w);
  double integral = 0;
  const int n = 20000;
  const double s1 = 1 / req, hs = s1 / n;
  for (int i = 0; i <= n; ++i) {
    const double s = i * hs, r = s > 0 ? 1 / s : 1e300;
    double p;
    const double t = s > 0 ? adhesion_traction(c, r, p) / (s * s) : 0.0;  // dr = -ds / s^2
    integral += (i == 0 || i == n ? 1 : (i % 2 ? 4 : 2)) * t * hs / 3;
  }
  EXPECT_NEAR(integral, -w, 1e-9 * w);
  // (15^(1/3) / 6 - 15^(4/3) / 360) A_H / (2 pi r0^2) = 0.3082765 A_H / (2 pi r0^2).
  EXPECT_NEAR(w, 0.30827651 * c.scale * c.r0, 1e-7 * w);
}

TEST(AdhesionLaw, LinearContinuationBelowRminIsC1AndFinite) {
  const AdhesionConstants c = lennard_jones();
  const double h = 1e-7 * c.r_min;
  double pa, pb, pc;
  const double below = adhesion_traction(c, c.r_min - h, pa), at = adhesion_traction(c, c.r_min, pb),
               above = adhesion_traction(c, c.r_min + h, pc);
  EXPECT_NEAR(below, at, 1e-5 * std::fabs(at));
  EXPECT_NEAR((above - at) / h, (at - below) / h, 1e-4 * std::fabs((above - at) / h));
  double p;
  const double deep = adhesion_traction(c, -1.0, p);  // through the substrate: a finite push
  EXPECT_TRUE(std::isfinite(deep) && deep > at);
}

TEST(AdhesionLaw, PenaltyPushesOnlyWhenPenetrating) {
  AdhesionConstants c;
  c.law = kAdhesionPenalty;
  c.penalty = 50;
  double phi;
  EXPECT_EQ(adhesion_traction(c, 0.01, phi), 0.0);
  EXPECT_EQ(phi, 0.0);
  EXPECT_DOUBLE_EQ(adhesion_traction(c, -0.01, phi), 0.5);
  EXPECT_DOUBLE_EQ(phi, 0.5 * 50 * 1e-4);
}

/// A degree-2 edge of a curved, rational side: weights and a knot-span operator as a patch's
/// middle element has them.
struct Edge2 {
  double data[ADH2::kElementData] = {1.0, 0.8, 1.1,  // weights
                                     0.5, 0.0, 0.0, 0.5, 1.0, 0.5, 0.0, 0.0, 0.5};  // a uniform middle span
  V3 X[3] = {{0.0, 0.30, 0}, {0.5, 0.22, 0}, {1.1, 0.28, 0}};
};

SolidMaterial<double> edge_material() {
  SolidMaterial<double> m;
  m.thickness = 2.0;
  m.adhesion = lennard_jones();
  return m;
}

TEST(AdhesionEdge, ForcesAreTheGradientOfTheEnergy) {
  const Edge2 e;
  const SolidMaterial<double> m = edge_material();
  const V3 u[3] = {{0.01, 0.02, 0}, {-0.02, 0.03, 0}, {0.0, -0.01, 0}};
  V3 f[3];
  const ElementState<double> st{nullptr, nullptr, 0, 0, e.data};
  ADH2::internal_force(e.X, u, m, 0.0, f, st);
  for (int a = 0; a < 3; ++a)
    for (int c = 0; c < 2; ++c) {
      const double h = 1e-7;
      V3 up[3] = {u[0], u[1], u[2]}, um[3] = {u[0], u[1], u[2]};
      (c == 0 ? up[a].x : up[a].y) += h;
      (c == 0 ? um[a].x : um[a].y) -= h;
      V3 g[3];
      const double ep = ADH2::internal_force(e.X, up, m, 0.0, g, st).strain;
      const double em = ADH2::internal_force(e.X, um, m, 0.0, g, st).strain;
      const double fa = c == 0 ? f[a].x : f[a].y;
      EXPECT_NEAR(fa, (ep - em) / (2 * h), 1e-6 * (std::fabs(fa) + 1e-3)) << "node " << a << " dof " << c;
    }
}

TEST(AdhesionEdge, DualTangentMatchesFiniteDifferences) {
  using D = autodiff::Dual<double>;
  const Edge2 e;
  const SolidMaterial<double> m = edge_material();
  const SolidMaterial<D> md = dual_material(m);
  const V3 u[3] = {{0.01, -0.05, 0}, {-0.02, 0.03, 0}, {0.0, 0.1, 0}};
  Vec3<D> Xd[3];
  for (int a = 0; a < 3; ++a) Xd[a] = {D(e.X[a].x), D(e.X[a].y), D(0.0)};
  const ElementState<D> sd{nullptr, nullptr, 0, 0, e.data};
  const ElementState<double> st{nullptr, nullptr, 0, 0, e.data};
  for (int b = 0; b < 3; ++b)
    for (int cb = 0; cb < 2; ++cb) {
      Vec3<D> ud[3];
      for (int a = 0; a < 3; ++a) ud[a] = {D(u[a].x, a == b && cb == 0 ? 1.0 : 0.0), D(u[a].y, a == b && cb == 1 ? 1.0 : 0.0), D(0.0)};
      Vec3<D> fd[3];
      ADH2::internal_force(Xd, ud, md, D(0.0), fd, sd);
      const double h = 1e-7;
      V3 up[3] = {u[0], u[1], u[2]}, um[3] = {u[0], u[1], u[2]};
      (cb == 0 ? up[b].x : up[b].y) += h;
      (cb == 0 ? um[b].x : um[b].y) -= h;
      V3 fp[3], fm[3];
      ADH2::internal_force(e.X, up, m, 0.0, fp, st);
      ADH2::internal_force(e.X, um, m, 0.0, fm, st);
      for (int a = 0; a < 3; ++a) {
        const double kx = (fp[a].x - fm[a].x) / (2 * h), ky = (fp[a].y - fm[a].y) / (2 * h);
        EXPECT_NEAR(fd[a].x.d, kx, 1e-6 * (std::fabs(kx) + 1e-2));
        EXPECT_NEAR(fd[a].y.d, ky, 1e-6 * (std::fabs(ky) + 1e-2));
      }
    }
}

TEST(AdhesionEdge, SlidingAlongTheSubstrateCarriesNoForce) {
  // The law acts along the substrate's normal only: a rigid slide parallel to it changes no
  // gap, no force and no energy; the forces have no component along the substrate.
  const Edge2 e;
  const SolidMaterial<double> m = edge_material();
  const ElementState<double> st{nullptr, nullptr, 0, 0, e.data};
  const V3 still[3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, slid[3] = {{3.7, 0, 0}, {3.7, 0, 0}, {3.7, 0, 0}};
  V3 f0[3], f1[3];
  const double e0 = ADH2::internal_force(e.X, still, m, 0.0, f0, st).strain;
  const double e1 = ADH2::internal_force(e.X, slid, m, 0.0, f1, st).strain;
  EXPECT_EQ(e0, e1);
  for (int a = 0; a < 3; ++a) {
    EXPECT_EQ(f0[a].x, 0.0);
    EXPECT_EQ(f0[a].y, f1[a].y);
  }
}

TEST(AdhesionEdge, LengthIsTheCurvesAndUniformGapGivesTractionTimesArea) {
  // A straight degree-1 edge of length 3 at a uniform gap: the nodal forces sum to
  // -T(gap) * length * thickness along n.
  const double data[ADH1::kElementData] = {1, 1, 1, 0, 0, 1};
  const V3 X[2] = {{0, 0.3, 0}, {3, 0.3, 0}}, u[2] = {{0, 0, 0}, {0, 0, 0}};
  SolidMaterial<double> m = edge_material();
  double frac[2];
  EXPECT_NEAR(ADH1::mass_fractions(X, frac, data), 3.0, 1e-14);
  V3 f[2];
  ADH1::internal_force(X, u, m, 0.0, f, ElementState<double>{nullptr, nullptr, 0, 0, data});
  double phi;
  const double t = adhesion_traction(m.adhesion, 0.3, phi);
  EXPECT_NEAR(f[0].y + f[1].y, -t * 3.0 * m.thickness, 1e-13 * std::fabs(t) * 6);
  EXPECT_NEAR(f[0].y, f[1].y, 1e-15);
}

TEST(AdhesionLaw, SteepestSlopeBoundsTheSlopeAtEveryGap) {
  // Central differences of T over gaps from far below r_min (the linear continuation) to 20 r0:
  // none steeper than adhesion_steepest_slope, which the continuation reaches.
  for (const double f : {0.5, 0.95}) {
    AdhesionConstants c = lennard_jones();
    c.r_min = f * lennard_jones_rest_gap(c.r0);
    const double k = adhesion_steepest_slope(c);
    double steepest = 0, phi;
    for (double r = 0.01 * c.r0; r < 20 * c.r0; r *= 1.001) {
      const double h = 1e-7 * r;
      steepest = std::max(steepest, std::fabs(adhesion_traction(c, r + h, phi) - adhesion_traction(c, r - h, phi)) / (2 * h));
    }
    EXPECT_LE(steepest, k * (1 + 1e-6)) << f;
    EXPECT_NEAR(steepest / k, 1.0, 1e-6) << f;
  }
  AdhesionConstants p;
  p.law = kAdhesionPenalty;
  p.penalty = 250;
  EXPECT_EQ(adhesion_steepest_slope(p), 250.0);
}

TEST(AdhesionEdge, StableIncrementIsTheTwoNodeOscillatorsOnEqualMasses) {
  // A straight ADH1 of length L at the penalty k, thickness t: K = k t L [[1/3, 1/6], [1/6, 1/3]];
  // on masses m, m the largest omega^2 is k t L / (2 m), which the bound gives exactly; on
  // masses 1, 3 the exact omega^2 is the larger root of l^2 - 4/9 l + 1/36 (times k t L), and
  // the bound (k t L / 2 over the lighter node) stays below its increment.
  const double data[ADH1::kElementData] = {1, 1, 1, 0, 0, 1};
  const V3 X[2] = {{0, 0.3, 0}, {3, 0.3, 0}};
  SolidMaterial<double> m;
  m.thickness = 2.0;
  m.adhesion.law = kAdhesionPenalty;
  m.adhesion.penalty = 50;
  m.adhesion.normal[1] = 1;
  const double ktl = 50 * 2.0 * 3.0;
  const double equal[2] = {0.7, 0.7};
  EXPECT_NEAR(ADH1::nodal_mass_dt(m, equal, X, data), 2 / std::sqrt(ktl / (2 * 0.7)), 1e-14);
  const double unequal[2] = {1.0, 3.0};
  const double l = (4.0 / 9 + std::sqrt(16.0 / 81 - 4.0 / 36)) / 2, exact = 2 / std::sqrt(l * ktl);
  const double bound = ADH1::nodal_mass_dt(m, unequal, X, data);
  EXPECT_NEAR(bound, 2 / std::sqrt(ktl / 2), 1e-14);
  EXPECT_LT(bound, exact);
  EXPECT_GT(bound, 0.8 * exact);
  const double held[2] = {0.0, 0.7};  // a held (massless) node is ground
  EXPECT_NEAR(ADH1::nodal_mass_dt(m, held, X, data), 2 / std::sqrt(ktl / (2 * 0.7)), 1e-14);
}

}  // namespace
}  // namespace halfstep
