// The FPM beam element (elements/fpm_beam.hpp) on its own: rigid motion (a full spin in many
// steps), objectivity of the convected natural forces, the small-displacement stiffness
// against the Euler-Bernoulli frame matrix written out here, the stable increment against
// the element's eigenvalues, section constants and fibre sums, the fibre path against the
// elastic one, and the fully plastic moment of an elastic-perfectly plastic section.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "elements/fpm_beam.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {
namespace {

constexpr double kPi = 3.14159265358979323846;

/// One beam's state in a plain vector (stride 1).
struct OneBeam {
  BeamConstants<double> sec;
  Vec3<double> X[2];
  std::vector<double> state = std::vector<double>(kBeamPlasticState, 0.0);
  BeamStateRef<double> ref() { return {state.data(), 1}; }
  OneBeam(const BeamConstants<double>& s, Vec3<double> x0, Vec3<double> x1, Vec3<double> n1) : sec(s) {
    X[0] = x0;
    X[1] = x1;
    const Vec3<double> t = normalized(x1 - x0);
    beam_initial_state(normalized(n1 - dot(n1, t) * t), x1 - x0, kBeamPlasticState, ref());
  }
  /// Evaluates with node positions x and node rotations R (matrices, from the reference).
  BeamForces<double> at(const Vec3<double> x[2], const Mat3<double> r[2]) {
    BeamNodes<double> nd;
    nd.chord0 = X[1] - X[0];
    for (int k = 0; k < 2; ++k) {
      nd.u[k] = x[k] - X[k];
      nd.t1[k] = column(r[k], 0);
      nd.d[k] = column(r[k], 2);
    }
    return fpm_beam_update(sec, nd, ref());
  }
};

BeamConstants<double> rect_section(const SolidMaterial<double>* yield = nullptr) {
  return make_beam_section(kBeamRect, 0.3, 0.2, 200.0, 0.3, yield);
}

double largest(const BeamForces<double>& f) {
  double m = 0;
  for (int k = 0; k < 2; ++k) m = std::fmax(m, std::fmax(norm(f.f[k]), norm(f.m[k])));
  return m;
}

TEST(FpmBeam, FullSpinInManyStepsGivesNoForce) {
  OneBeam b(rect_section(), {0.2, -0.1, 0.4}, {1.1, 0.3, 0.1}, {0, 0, -1});
  const Vec3<double> axis = normalized(Vec3<double>{0.3, 0.8, 0.5});
  const int steps = 720;
  double worst = 0;
  for (int i = 1; i <= steps; ++i) {
    const double t = static_cast<double>(i) / steps;
    const Mat3<double> r = rotation_matrix((2 * kPi * t) * axis);
    const Vec3<double> shift{3.0 * t, -t, 0.5 * t * t};
    const Vec3<double> x[2] = {b.X[0] + shift, b.X[0] + shift + r * (b.X[1] - b.X[0])};
    const Mat3<double> rr[2] = {r, r};
    worst = std::fmax(worst, largest(b.at(x, rr)));
  }
  // Force scale E A = 12: round-off only.
  EXPECT_LT(worst, 1e-11);
  for (int i = 0; i < 6; ++i) EXPECT_LT(std::fabs(b.state[kBeamForce + i]), 1e-11);
  // The DCS has turned with the body: e2 is back at n1 after the full turn.
  const Vec3<double> t = normalized(b.X[1] - b.X[0]);
  const Vec3<double> n1 = normalized(Vec3<double>{0, 0, -1} - dot(Vec3<double>{0, 0, -1}, t) * t);
  EXPECT_NEAR(dot(Vec3<double>{b.state[kBeamE2], b.state[kBeamE2 + 1], b.state[kBeamE2 + 2]}, n1), 1.0, 1e-12);
}

TEST(FpmBeam, NaturalForcesTurnWithTheBody) {
  OneBeam b(rect_section(), {0, 0, 0}, {1, 0, 0}, {0, 0, -1});
  // Deform: stretch, twist and bend in both planes in one small step.
  const Vec3<double> x[2] = {{0, 0, 0}, {1.001, 0.002, -0.001}};
  const Mat3<double> r[2] = {rotation_matrix(Vec3<double>{0.001, 0.002, -0.003}),
                             rotation_matrix(Vec3<double>{-0.002, 0.001, 0.004})};
  const BeamForces<double> f0 = b.at(x, r);
  std::vector<double> p0(b.state.begin() + kBeamForce, b.state.begin() + kBeamForce + 6);
  // Then a rigid 90-degree turn about a skew axis through node 1, in 90 steps.
  const Vec3<double> axis = normalized(Vec3<double>{1, 2, 3});
  BeamForces<double> f;
  Mat3<double> q;
  for (int i = 1; i <= 90; ++i) {
    q = rotation_matrix((kPi / 2 * i / 90) * axis);
    const Vec3<double> xr[2] = {q * x[0], q * x[1]};
    const Mat3<double> rr[2] = {q * r[0], q * r[1]};
    f = b.at(xr, rr);
  }
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(b.state[kBeamForce + i], p0[i], 1e-12 * (1 + std::fabs(p0[i])));
  for (int k = 0; k < 2; ++k) {
    EXPECT_LT(norm(f.f[k] - q * f0.f[k]), 1e-12);
    EXPECT_LT(norm(f.m[k] - q * f0.m[k]), 1e-12);
  }
}

/// The Euler-Bernoulli 12 x 12 stiffness of a straight beam in its local axes (x along the
/// beam, y = n1, z = n2), dofs (u, v, w, rx, ry, rz) per node.
std::vector<double> frame_stiffness(const BeamConstants<double>& s, double l) {
  std::vector<double> k(144, 0.0);
  auto add = [&](int i, int j, double v) {
    k[12 * i + j] += v;
  };
  const double ea = s.youngs * s.area / l, gj = s.shear * s.torsion / l;
  const int ax[2] = {0, 6}, tx[2] = {3, 9};
  for (int a = 0; a < 2; ++a)
    for (int c = 0; c < 2; ++c) {
      add(ax[a], ax[c], a == c ? ea : -ea);
      add(tx[a], tx[c], a == c ? gj : -gj);
    }
  // Bending in x-y (v, rz) with I22 and in x-z (w, -ry) with I11.
  const double l2 = l * l, l3 = l2 * l;
  const double kb[4][4] = {{12 / l3, 6 / l2, -12 / l3, 6 / l2},
                           {6 / l2, 4 / l, -6 / l2, 2 / l},
                           {-12 / l3, -6 / l2, 12 / l3, -6 / l2},
                           {6 / l2, 2 / l, -6 / l2, 4 / l}};
  const int vy[4] = {1, 5, 7, 11};
  const int wz[4] = {2, 4, 8, 10};
  const double sw[4] = {1, -1, 1, -1};  // w' = -ry
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      add(vy[i], vy[j], s.youngs * s.i22 * kb[i][j]);
      add(wz[i], wz[j], s.youngs * s.i11 * kb[i][j] * sw[i] * sw[j]);
    }
  return k;
}

TEST(FpmBeam, SmallDisplacementsMeetTheFrameStiffness) {
  const BeamConstants<double> sec = rect_section();
  const Vec3<double> x0{0.3, 0.1, -0.2}, x1{1.1, 0.7, 0.4};
  const Vec3<double> n1in{0, 0, -1};
  OneBeam b(sec, x0, x1, n1in);
  const double l = norm(x1 - x0);
  const Vec3<double> e1 = normalized(x1 - x0), e2 = normalized(n1in - dot(n1in, e1) * e1), e3 = cross(e1, e2);
  const Vec3<double> axes[3] = {e1, e2, e3};
  // Small local displacements d (12), applied globally.
  const double d[12] = {1e-7, -2e-7, 3e-7, 2e-7, -1e-7, 1.5e-7, -1e-7, 2.5e-7, -2e-7, -3e-7, 2e-7, 1e-7};
  Vec3<double> x[2] = {x0, x1};
  Mat3<double> r[2];
  for (int k = 0; k < 2; ++k) {
    Vec3<double> u{0, 0, 0}, th{0, 0, 0};
    for (int i = 0; i < 3; ++i) {
      u += d[6 * k + i] * axes[i];
      th += d[6 * k + 3 + i] * axes[i];
    }
    x[k] += u;
    r[k] = rotation_matrix(th);
  }
  const BeamForces<double> f = b.at(x, r);
  const std::vector<double> k = frame_stiffness(sec, l);
  for (int node = 0; node < 2; ++node)
    for (int i = 0; i < 3; ++i) {
      double ku = 0, kt = 0;
      for (int j = 0; j < 12; ++j) {
        ku += k[12 * (6 * node + i) + j] * d[j];
        kt += k[12 * (6 * node + 3 + i) + j] * d[j];
      }
      // Second-order terms are 1e-7 of the first-order ones.
      EXPECT_NEAR(dot(f.f[node], axes[i]), ku, 1e-6 * std::fabs(ku) + 1e-12) << node << " " << i;
      EXPECT_NEAR(dot(f.m[node], axes[i]), kt, 1e-6 * std::fabs(kt) + 1e-12) << node << " " << i;
    }
}

TEST(FpmBeam, StableIncrementIsTheElementEigenvalueBound) {
  for (const BeamConstants<double>& sec :
       {rect_section(), make_beam_section(kBeamCirc, 0.05, 0, 200.0, 0.3, nullptr),
        make_beam_section(kBeamRect, 0.01, 0.5, 70.0, 0.25, nullptr)}) {
    for (double l : {0.05, 0.4, 3.0}) {
      const double rho = 7.0, m = 0.5 * rho * sec.area * l, j = m * beam_rotary_arm(sec, l);
      const std::vector<double> k = frame_stiffness(sec, l);
      // Largest eigenvalue of M^-1/2 K M^-1/2 by power iteration (symmetric, positive semi-definite).
      double w[12];
      for (int i = 0; i < 12; ++i) w[i] = std::sqrt((i % 6) < 3 ? m : j);
      std::vector<double> v(12, 1.0), y(12);
      for (int i = 0; i < 12; ++i) v[i] = 1.0 + 0.1 * i;
      double lambda = 0;
      for (int it = 0; it < 5000; ++it) {
        double n2 = 0;
        for (int a = 0; a < 12; ++a) {
          y[a] = 0;
          for (int c = 0; c < 12; ++c) y[a] += k[12 * a + c] / (w[a] * w[c]) * v[c];
          n2 += y[a] * y[a];
        }
        double vy = 0, vv = 0;
        for (int a = 0; a < 12; ++a) {
          vy += v[a] * y[a];
          vv += v[a] * v[a];
        }
        lambda = vy / vv;
        for (int a = 0; a < 12; ++a) v[a] = y[a] / std::sqrt(n2);
      }
      EXPECT_NEAR(beam_stable_dt(sec, rho, l), 2 / std::sqrt(lambda), 1e-9 * 2 / std::sqrt(lambda)) << l;
    }
  }
}

TEST(FpmBeam, SectionConstantsAndFibres) {
  const BeamConstants<double> sq = make_beam_section(kBeamRect, 2.0, 2.0, 1.0, 0.0, nullptr);
  EXPECT_NEAR(sq.torsion / 16.0, 0.1406, 5e-5);  // Saint-Venant, square: 0.1406 a^4
  const BeamConstants<double> r = rect_section();
  double a = 0, i11 = 0, i22 = 0, zp = 0;
  for (int k = 0; k < r.fibres; ++k) {
    a += r.fw[k];
    i11 += r.fw[k] * r.fx2[k] * r.fx2[k];
    i22 += r.fw[k] * r.fx1[k] * r.fx1[k];
    zp += r.fw[k] * std::fabs(r.fx2[k]);
  }
  EXPECT_NEAR(a, 0.3 * 0.2, 1e-15);
  EXPECT_NEAR(r.i11, 0.3 * 0.008 / 12, 1e-16);
  EXPECT_NEAR(i11, r.i11, 1e-15);
  EXPECT_NEAR(i22, r.i22, 1e-15);
  EXPECT_NEAR(zp, 0.3 * 0.04 / 4, 1e-15);  // the fully plastic modulus a b^2 / 4, exact
  const BeamConstants<double> c = make_beam_section(kBeamCirc, 0.5, 0, 1.0, 0.0, nullptr);
  double ca = 0, ci = 0, cz = 0;
  for (int k = 0; k < c.fibres; ++k) {
    ca += c.fw[k];
    ci += c.fw[k] * c.fx1[k] * c.fx1[k];
    cz += c.fw[k] * std::fabs(c.fx1[k]);
  }
  EXPECT_NEAR(ca, kPi * 0.25, 1e-14);
  EXPECT_NEAR(ci, kPi * 0.0625 / 4, 1e-14);
  EXPECT_NEAR(c.torsion, kPi * 0.0625 / 2, 1e-15);
  EXPECT_NEAR(cz / (4 * 0.125 / 3), 1.0, 0.03);  // plastic modulus 4 r^3 / 3: 2.6 % high
}

TEST(FpmBeam, FibresOfAnElasticRangeMatchTheClosedForm) {
  const SolidMaterial<double> yield = j2_plastic(200.0, 0.3, 1.0, std::vector<double>{1e9}.data(),
                                                 std::vector<double>{0.0}.data(), 1);
  OneBeam el(rect_section(), {0, 0, 0}, {1, 0.2, 0}, {0, 0, -1});
  OneBeam pl(rect_section(&yield), {0, 0, 0}, {1, 0.2, 0}, {0, 0, -1});
  ASSERT_TRUE(pl.sec.plastic);
  const Vec3<double> x[2] = {{0, 0, 0}, {1.003, 0.21, -0.01}};
  const Mat3<double> r[2] = {rotation_matrix(Vec3<double>{0.01, -0.02, 0.03}),
                             rotation_matrix(Vec3<double>{-0.02, 0.01, 0.01})};
  const BeamForces<double> a = el.at(x, r), b = pl.at(x, r);
  for (int k = 0; k < 2; ++k) {
    EXPECT_LT(norm(a.f[k] - b.f[k]), 1e-12 * (1 + norm(a.f[k])));
    EXPECT_LT(norm(a.m[k] - b.m[k]), 1e-12 * (1 + norm(a.m[k])));
  }
  EXPECT_NEAR(el.state[kBeamWork], pl.state[kBeamWork], 1e-14);
}

TEST(FpmBeam, PerfectlyPlasticSectionReachesThePlasticMoment) {
  const double sy = 0.5;
  const SolidMaterial<double> yield =
      j2_plastic(200.0, 0.3, 1.0, std::vector<double>{sy}.data(), std::vector<double>{0.0}.data(), 1);
  const BeamConstants<double> sec = rect_section(&yield);
  OneBeam b(sec, {0, 0, 0}, {1, 0, 0}, {0, 0, -1});
  // Uniform bending about n1 (e2 = -z here): end rotations -phi and +phi about e2 make a
  // constant curvature 2 phi / l; the end moments are then the section moment.
  const Vec3<double> e2{0, 0, -1};
  const Vec3<double> x[2] = {{0, 0, 0}, {1, 0, 0}};
  const double first_yield = sy * 0.3 * 0.04 / 6, plastic = sy * 0.3 * 0.04 / 4;
  const double kappa_y = sy / 200.0 / 0.1;  // outer fibre (x2 = b/2) yields
  double moment = 0;
  for (int i = 1; i <= 200; ++i) {
    const double phi = 0.5 * kappa_y * i / 20;  // up to 10 kappa_y
    const Mat3<double> r[2] = {rotation_matrix((-phi) * e2), rotation_matrix(phi * e2)};
    b.at(x, r);
    moment = b.state[kBeamForce + 4];
    if (i == 20) {
      EXPECT_NEAR(moment, first_yield, 1e-9 * first_yield);  // exactly at first yield
    }
  }
  // At ten times the yield curvature every fibre row but the middle one (x2 = 0, which
  // carries no moment) has yielded (the rows at x2 = b/4 at twice the yield curvature): the
  // 5 x 5 Simpson section then carries exactly the plastic moment a b^2 sigma_y / 4.
  EXPECT_NEAR(moment, plastic, 1e-9 * plastic);
  EXPECT_NEAR(b.state[kBeamForce + 2], -plastic, 1e-9 * plastic);
  EXPECT_GT(beam_peeq(sec, b.ref()), 0.0);
  EXPECT_GT(b.state[kBeamDissipation], 0.0);
}

}  // namespace
}  // namespace halfstep

#include "discretization/beam_block.hpp"

namespace halfstep {
namespace {

/// One beam between nodes 0 and 1 as the beam pass sees it (BeamView over host arrays).
struct PassBeam {
  BeamConstants<double> sec;
  int conn[2] = {0, 1}, section = 0;
  double chord[3];
  double ux[2] = {}, uy[2] = {}, uz[2] = {}, t1x[2] = {}, t1y[2] = {}, t1z[2] = {}, dx[2] = {}, dy[2] = {}, dz[2] = {};
  std::vector<double> state = std::vector<double>(kBeamPlasticState, 0.0);
  double force[12] = {};
  PassBeam(const BeamConstants<double>& s, Vec3<double> x1, Vec3<double> n1) : sec(s) {
    chord[0] = x1.x;
    chord[1] = x1.y;
    chord[2] = x1.z;
    const Vec3<double> t = normalized(x1);
    beam_initial_state(normalized(n1 - dot(n1, t) * t), x1, kBeamPlasticState, BeamStateRef<double>{state.data(), 1});
  }
  BeamView<double> view() {
    return {1, conn, &section, &sec, chord, chord + 1, chord + 2, ux, uy, uz, t1x, t1y, t1z, dx, dy, dz,
            state.data(), force};
  }
  /// Node k moved by u and turned by r.
  void set(int k, Vec3<double> u, const Mat3<double>& r) {
    ux[k] = u.x;
    uy[k] = u.y;
    uz[k] = u.z;
    const Vec3<double> t1 = column(r, 0), d = column(r, 2);
    t1x[k] = t1.x;
    t1y[k] = t1.y;
    t1z[k] = t1.z;
    dx[k] = d.x;
    dy[k] = d.y;
    dz[k] = d.z;
  }
};

// Seed 003's split GPU scheme runs the beam as three kernels: per beam the fictitious reverse
// motion and the natural deformation increments (into the increment store), per stress point
// (an elastic section's natural forces; a plastic one's fibres at each Lobatto point) the
// stress update, per beam the forces, the points' returns summed in point order. Through the
// pass functions and stores the kernels use, on a path that stretches, bends, twists and turns
// the beam, that must reproduce the fused pass (BeamElementBody) bit for bit: slot forces,
// energy sums and every state value; the points run in reverse order (they are independent).
void expect_beam_split_equals_fused(const BeamConstants<double>& sec) {
  PassBeam a(sec, {1.0, 0.2, 0.1}, {0, 0, -1}), b = a;
  const int points = beam_stress_points(sec);
  std::vector<double> increment(kBeamIncrementValues), values(static_cast<std::size_t>(points));
  double largest_force = 0;
  for (int i = 1; i <= 40; ++i) {
    const double s = 0.001 * i, c = 0.01 * i;
    const Mat3<double> q = rotation_matrix(Vec3<double>{0.02 * i, -0.01 * i, 0.03 * i});
    const Vec3<double> x1 = q * Vec3<double>{1.0 + s, 0.2 + 0.5 * c, 0.1 - 0.3 * c}, x0 = Vec3<double>{0.01 * i, 0, 0};
    for (PassBeam* p : {&a, &b}) {
      p->set(0, x0, q * rotation_matrix(Vec3<double>{-c, 0.5 * c, -0.8 * c}));
      p->set(1, x0 + x1 - Vec3<double>{1.0, 0.2, 0.1}, q * rotation_matrix(Vec3<double>{c, -0.4 * c, 0.8 * c}));
    }
    double sa[2] = {0, 0}, sb[2] = {0, 0};
    BeamElementBody<double>{a.view()}(0, sa);
    const BeamView<double> vb = b.view();
    beam_split_kinematics(vb, increment.data(), 0);
    for (int j = points - 1; j >= 0; --j) beam_split_point(vb, increment.data(), values.data(), j, 0);
    beam_split_forces(vb, increment.data(), values.data(), 0, sb);
    for (int k = 0; k < 12; ++k) {
      ASSERT_EQ(a.force[k], b.force[k]) << "increment " << i << ", force " << k;
      largest_force = std::fmax(largest_force, std::fabs(a.force[k]));
    }
    ASSERT_EQ(sa[0], sb[0]);
    ASSERT_EQ(sa[1], sb[1]);
    for (std::size_t v = 0; v < a.state.size(); ++v) ASSERT_EQ(a.state[v], b.state[v]) << "increment " << i << ", state " << v;
  }
  ASSERT_GT(largest_force, 0.01);
  if (sec.plastic) {
    EXPECT_GT(beam_peeq(sec, BeamStateRef<double>{a.state.data(), 1}), 1e-4);  // the path yields
    EXPECT_GT(a.state[kBeamDissipation], 0.0);
  }
}

TEST(FpmBeamSplit, PhasesRunApartReproduceTheFusedUpdateOfAYieldingSection) {
  const SolidMaterial<double> yield = j2_plastic(200.0, 0.3, 1.0, std::vector<double>{0.05, 0.5}.data(),
                                                 std::vector<double>{0.0, 1.0}.data(), 2);
  const BeamConstants<double> sec = rect_section(&yield);
  ASSERT_TRUE(sec.plastic);
  ASSERT_EQ(beam_stress_points(sec), kBeamPoints * 25);
  expect_beam_split_equals_fused(sec);
}

TEST(FpmBeamSplit, PhasesRunApartReproduceTheFusedUpdateOfAnElasticSection) {
  ASSERT_EQ(beam_stress_points(rect_section()), 1);
  expect_beam_split_equals_fused(rect_section());
  expect_beam_split_equals_fused(make_beam_section(kBeamCirc, 0.1, 0.0, 200.0, 0.3, nullptr));
}

}  // namespace
}  // namespace halfstep
