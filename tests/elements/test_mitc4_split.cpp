// MITC4 split by Gauss point (elements/mitc4_split.hpp), host emulation of the 4 lanes:
// the same corner forces and energy as mitc4_internal_force, and no force for rigid motion.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "elements/mitc4_split.hpp"
#include "mitc4_test_util.hpp"

namespace halfstep::test {
namespace {

/// A random non-degenerate element (perturbed, warped, rotated square far from the origin,
/// directors tilted off the normal) and a random deformed state with large director rotations.
struct RandomCase {
  Mitc4Nodes<double> nodes;
  V3 t1[4];
  double a = 0.0;
  Mitc4Ref<double> ref{};
  bool ok = false;

  RandomCase(unsigned seed, double rotation, double stretch) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const double size = 0.1 + 2.0 * (u(gen) + 1.0);
    const V3 spin{3.0 * u(gen), 3.0 * u(gen), 3.0 * u(gen)};
    const V3 origin{1.0e3 * u(gen), 1.0e3 * u(gen), 1.0e3 * u(gen)};
    V3 flat[4];
    for (int k = 0; k < 4; ++k)
      flat[k] = size * V3{mitc4_node_r(k) + 0.3 * u(gen), mitc4_node_s(k) + 0.3 * u(gen), 0.15 * u(gen)};
    a = size * (0.01 + 0.1 * (u(gen) + 1.0));
    for (int k = 0; k < 4; ++k) {
      nodes.X[k] = apply(spin, flat[k]) + origin;
      const V3 tilt{0.2 * u(gen), 0.2 * u(gen), 1.0};
      nodes.V0[k] = apply(spin, normalized(tilt));
    }
    ok = mitc4_reference(nodes.X, nodes.V0, a, ref);
    for (int k = 0; k < 4; ++k) {
      nodes.u[k] = (stretch * size) * V3{u(gen), u(gen), u(gen)} + V3{5.0 * u(gen), 5.0 * u(gen), 5.0 * u(gen)};
      const V3 theta{rotation * u(gen), rotation * u(gen), rotation * u(gen)};
      nodes.v[k] = rotate(theta, nodes.V0[k]);
      V3 e = V3{1, 0, 0} - dot(V3{1, 0, 0}, nodes.v[k]) * nodes.v[k];
      if (norm(e) < 1e-3) e = V3{0, 1, 0} - dot(V3{0, 1, 0}, nodes.v[k]) * nodes.v[k];
      t1[k] = normalized(e);
    }
  }
};

const ShellElastic<double> kSteel = ShellElastic<double>::from(2.1e5, 0.3);

/// Single-thread reference: energy and 20 generalized forces.
double single(const RandomCase& c, V3 f[4], V3 gv[4], double gen[20]) {
  const double w = mitc4_internal_force(c.ref, c.nodes, c.a, kSteel, f, gv);
  for (int k = 0; k < 4; ++k) mitc4_corner_generalized_force(f[k], gv[k], c.nodes.v[k], c.t1[k], gen + 5 * k);
  return w;
}

/// Split evaluation on the host lanes: energy and 20 generalized forces (corner k from lane k).
double split(const RandomCase& c, bool stored, V3 f[4], V3 gv[4], double gen[20]) {
  const Mitc4SeqLanes lanes;
  Mitc4SeqLanes::Val<V3> fl, gl;
  const double w = mitc4_split_internal_force(lanes, Mitc4NodesAccess<double>{c.nodes}, c.a, kSteel,
                                              stored ? &c.ref : nullptr, fl, gl);
  for (int k = 0; k < 4; ++k) {
    f[k] = fl[k];
    gv[k] = gl[k];
    mitc4_corner_generalized_force(f[k], gv[k], c.nodes.v[k], c.t1[k], gen + 5 * k);
  }
  return w;
}

double max_abs(const double* x, int n) {
  double m = 0.0;
  for (int i = 0; i < n; ++i) m = std::max(m, std::fabs(x[i]));
  return m;
}

TEST(Mitc4Split, PointReferenceEqualsMitc4Reference) {
  for (unsigned seed = 0; seed < 200; ++seed) {
    const RandomCase c(seed, 0.0, 0.0);
    ASSERT_TRUE(c.ok) << seed;
    for (int g = 0; g < 4; ++g) {
      const double r = mitc4_gauss_r(g), s = mitc4_gauss_s(g);
      V3 ar, as;
      mitc4_detail::tangents(c.nodes.X, r, s, ar, as);
      const Mitc4PointRef<double> p =
          mitc4_point_reference(ar, as, mitc4_detail::interpolate(c.nodes.V0, r, s), 0.5 * c.a);
      EXPECT_EQ(p.wj, c.ref.wj[g]);
      EXPECT_EQ(p.cr1, c.ref.cr1[g]);
      EXPECT_EQ(p.cr2, c.ref.cr2[g]);
      EXPECT_EQ(p.cs1, c.ref.cs1[g]);
      EXPECT_EQ(p.cs2, c.ref.cs2[g]);
      EXPECT_EQ(p.cz3, c.ref.cz3[g]);
    }
  }
}

// Small strains with small and large (up to ~2.6 rad per node) director rotations, and large
// membrane stretches: the split sums the same terms in the same order, so the agreement is at
// round-off of the corner forces' magnitude.
TEST(Mitc4Split, EqualsSingleThreadEvaluation) {
  double worst = 0.0;
  int cases = 0;
  for (const double rotation : {1e-6, 0.05, 1.5}) {
    for (const double stretch : {1e-5, 1e-2, 0.2}) {
      for (unsigned seed = 0; seed < 300; ++seed) {
        const RandomCase c(1000 + seed, rotation, stretch);
        ASSERT_TRUE(c.ok) << seed;
        V3 f0[4], g0[4], f1[4], g1[4];
        double gen0[20], gen1[20];
        const double w0 = single(c, f0, g0, gen0);
        for (const bool stored : {false, true}) {
          const double w1 = split(c, stored, f1, g1, gen1);
          const double scale = max_abs(gen0, 20);
          ASSERT_GT(scale, 0.0);
          double diff[20];
          for (int i = 0; i < 20; ++i) diff[i] = gen1[i] - gen0[i];
          const double rel = max_abs(diff, 20) / scale;
          worst = std::max(worst, rel);
          EXPECT_LE(rel, 1e-12) << "seed " << seed << " rotation " << rotation << " stretch " << stretch;
          EXPECT_NEAR(w1, w0, 1e-12 * std::fabs(w0)) << seed;
          for (int k = 0; k < 4; ++k) {  // the raw gradients too (the moments drop gv's part along v)
            const double sf = std::max(std::fabs(f0[k].x), std::max(std::fabs(f0[k].y), std::fabs(f0[k].z)));
            const double sg = std::max(std::fabs(g0[k].x), std::max(std::fabs(g0[k].y), std::fabs(g0[k].z)));
            EXPECT_LE(norm(f1[k] - f0[k]), 1e-12 * std::max(sf, scale)) << seed;
            EXPECT_LE(norm(g1[k] - g0[k]), 1e-12 * std::max(sg, scale)) << seed;
          }
          ++cases;
        }
      }
    }
  }
  EXPECT_EQ(cases, 5400);
  std::printf("split vs single thread: worst relative difference %.3g over %d evaluations\n", worst, cases);
}

// A large rigid rotation and translation of an undeformed element gives no strain: the split
// form keeps the incremental strains, so the forces are round-off of E t.
TEST(Mitc4Split, RigidMotionGivesNoForce) {
  for (unsigned seed = 0; seed < 100; ++seed) {
    RandomCase c(5000 + seed, 0.0, 0.0);
    ASSERT_TRUE(c.ok) << seed;
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const V3 theta{2.0 * u(gen), 2.0 * u(gen), 2.0 * u(gen)};
    const V3 shift{10.0 * u(gen), 10.0 * u(gen), 10.0 * u(gen)};
    const V3 pivot = c.nodes.X[0];
    for (int k = 0; k < 4; ++k) {
      c.nodes.u[k] = apply(theta, c.nodes.X[k] - pivot) + pivot + shift - c.nodes.X[k];
      c.nodes.v[k] = apply(theta, c.nodes.V0[k]);
      c.t1[k] = apply(theta, c.t1[k]);
    }
    for (const bool stored : {false, true}) {
      V3 f[4], gv[4];
      double g[20];
      const double w = split(c, stored, f, gv, g);
      // Strains are round-off (~1e-13 here, with X ~ 1e3 and rotated |u| ~ 1e3); forces scale
      // with E t |strain| times the element size.
      const double unit = kSteel.ebar * c.a * 4.0;
      EXPECT_LT(max_abs(g, 20), 1e-10 * unit) << seed;
      EXPECT_LT(std::fabs(w), 1e-20 * unit) << seed;
    }
  }
}

// The host lanes do what the warp does: a phase reads only values the previous phases wrote.
// Running the lanes in reverse order inside each phase must give the same numbers.
struct ReversedLanes : Mitc4SeqLanes {
  template <class F>
  void each(F&& f) const {
    for (int l = 3; l >= 0; --l) f(l);
  }
};

TEST(Mitc4Split, LaneOrderDoesNotMatter) {
  for (unsigned seed = 0; seed < 50; ++seed) {
    const RandomCase c(9000 + seed, 1.0, 0.05);
    Mitc4SeqLanes::Val<V3> f0, g0, f1, g1;
    const double w0 =
        mitc4_split_internal_force<double>(Mitc4SeqLanes{}, Mitc4NodesAccess<double>{c.nodes}, c.a, kSteel, nullptr, f0, g0);
    const double w1 =
        mitc4_split_internal_force<double>(ReversedLanes{}, Mitc4NodesAccess<double>{c.nodes}, c.a, kSteel, nullptr, f1, g1);
    EXPECT_EQ(w0, w1);
    for (int k = 0; k < 4; ++k) {
      EXPECT_EQ(f0[k].x, f1[k].x);
      EXPECT_EQ(f0[k].y, f1[k].y);
      EXPECT_EQ(f0[k].z, f1[k].z);
      EXPECT_EQ(g0[k].x, g1[k].x);
      EXPECT_EQ(g0[k].y, g1[k].y);
      EXPECT_EQ(g0[k].z, g1[k].z);
    }
  }
}

}  // namespace
}  // namespace halfstep::test
