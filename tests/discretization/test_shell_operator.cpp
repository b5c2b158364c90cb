// MITC4 element matrices by dual numbers (discretization/shell_operator.hpp): columns equal
// central differences of the generalized forces under the same dof parametrisation (the
// rotation dofs turning the director and the triad exactly, by the exponential map), rigid
// motions give no force change, and the tangent of the unloaded shell is symmetric.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "discretization/nodal_triads.hpp"
#include "discretization/shell_operator.hpp"
#include "elements/rotation.hpp"
#include "io/inp_reader.hpp"
#include "materials/j2_plane_stress.hpp"

namespace halfstep {
namespace {

/// A 3 x 2 patch of S4R on the curved surface z = 0.15 x^2 - 0.1 y^2 (every element warped
/// a little, directors all different), t = 0.05; plastic: J2 with hardening (yield strain
/// 1e-3), 5 section points.
std::string curved_patch(bool plastic = false) {
  std::ostringstream d;
  d.precision(17);
  d << "*NODE\n";
  for (int j = 0; j <= 2; ++j)
    for (int i = 0; i <= 3; ++i) {
      const double x = 0.4 * i + 0.03 * j, y = 0.5 * j - 0.02 * i;
      d << 1 + i + 4 * j << ", " << x << ", " << y << ", " << 0.15 * x * x - 0.1 * y * y << "\n";
    }
  d << "*ELEMENT, TYPE=S4R, ELSET=P\n";
  for (int j = 0, e = 1; j < 2; ++j)
    for (int i = 0; i < 3; ++i, ++e) {
      const int n = 1 + i + 4 * j;
      d << e << ", " << n << ", " << n + 1 << ", " << n + 5 << ", " << n + 4 << "\n";
    }
  d << "*MATERIAL, NAME=M\n*ELASTIC\n2e5, 0.3\n*DENSITY\n1\n"
    << (plastic ? "*PLASTIC\n200, 0\n400, 0.1\n*SHELL SECTION, ELSET=P, MATERIAL=M\n0.05, 5\n"
                : "*SHELL SECTION, ELSET=P, MATERIAL=M\n0.05\n")
    << "*STEP\n*DYNAMIC, EXPLICIT\n, 1\n*END STEP\n";
  return d.str();
}

/// Turns node n's director and triad by theta (exactly).
void turn(StructureState& st, int n, const Vec3<double>& theta) {
  const Vec3<double> v = rotate(theta, Vec3<double>{st.dx[n], st.dy[n], st.dz[n]});
  const Vec3<double> t = rotate(theta, Vec3<double>{st.t1x[n], st.t1y[n], st.t1z[n]});
  st.dx[n] = v.x; st.dy[n] = v.y; st.dz[n] = v.z;
  st.t1x[n] = t.x; st.t1y[n] = t.y; st.t1z[n] = t.z;
}

/// Moves dof q (0-2 translation, 3 rotation about t1, 4 about t2) of node n by h.
void move(StructureState& st, int n, int q, double h) {
  if (q == 0) st.ux[n] += h;
  if (q == 1) st.uy[n] += h;
  if (q == 2) st.uz[n] += h;
  if (q < 3) return;
  const Vec3<double> v{st.dx[n], st.dy[n], st.dz[n]}, t1{st.t1x[n], st.t1y[n], st.t1z[n]};
  turn(st, n, h * (q == 3 ? t1 : cross(v, t1)));
}

struct Patch {
  Model model;
  StructureSystem sys;
  StructureState st;
  explicit Patch(bool plastic = false)
      : model(read_inp_string(curved_patch(plastic), "mem/patch.inp")), sys(build_structure_system(model)) {
    st.initialize(sys);
    initialize_triads(st);
  }
  /// A deformed state: displacements and director turns of a few percent (s times them).
  void deform(double s = 1) {
    for (int n = 0; n < sys.num_nodes; ++n) {
      st.ux[n] += s * 0.01 * std::sin(1.0 + n);
      st.uy[n] += s * 0.015 * std::cos(2.0 * n);
      st.uz[n] += s * 0.03 * sys.x0[n] * sys.x0[n];
      turn(st, n, s * Vec3<double>{0.05 * std::sin(3.0 * n), 0.04 * std::cos(n + 0.5), 0.02});
    }
  }
};

/// Worst difference between op's element matrices at p's state and central differences of
/// its forces (h = 1e-6), relative to each element's largest entry; plastic sections return
/// from state_old.
double worst_column_error(const Patch& p, const ShellOperator& op, const double* state_old = nullptr) {
  std::vector<double> k;
  op.element_matrices(Configuration::of(p.st), k, state_old);
  double worst = 0;
  for (int e = 0; e < op.num_elements(); ++e) {
    const double* ke = &k[400 * static_cast<std::size_t>(e)];
    double scale = 0;
    for (int i = 0; i < 400; ++i) scale = std::max(scale, std::fabs(ke[i]));
    for (int j = 0; j < 20; ++j) {
      const int n = p.sys.shell.conn[4 * static_cast<std::size_t>(e) + static_cast<std::size_t>(j / 5)];
      const double h = 1e-6;
      StructureState plus = p.st, minus = p.st;
      move(plus, n, j % 5, h);
      move(minus, n, j % 5, -h);
      std::vector<double> fp, fm;
      op.element_forces(Configuration::of(plus), fp, nullptr, state_old);
      op.element_forces(Configuration::of(minus), fm, nullptr, state_old);
      for (int i = 0; i < 20; ++i) {
        const double fd = (fp[20 * static_cast<std::size_t>(e) + i] - fm[20 * static_cast<std::size_t>(e) + i]) / (2 * h);
        worst = std::max(worst, std::fabs(fd - ke[i * 20 + j]) / scale);
      }
    }
  }
  return worst;
}

TEST(ShellOperator, ColumnsAreCentralDifferencesOfTheGeneralizedForces) {
  Patch p;
  p.deform();
  const double worst = worst_column_error(p, ShellOperator(p.sys, 1));
  // Measured 6e-12: central differences with h = 1e-6 are that accurate on this smooth state.
  EXPECT_LT(worst, 1e-9);
  EXPECT_GT(worst, 0.0);  // the differences are computed, not skipped
  std::printf("MITC4 dual tangent vs central differences: worst %.2e of the largest entry\n", worst);
}

// Plastic sections in a static step: the state committed at a yielded configuration (half the
// deformation), then the tangent at the whole deformation differentiates the return from it,
// so its columns are the central differences of the forces from the same committed state.
TEST(ShellOperator, PlasticColumnsAreTheConsistentTangentOfTheReturnFromTheCommittedState) {
  Patch p(true);
  ASSERT_GT(p.sys.shell.num_points, 0u);
  const ShellOperator op(p.sys, 1);
  p.deform(0.5);
  std::vector<double> f, committed(p.st.shell_state.size(), 0.0);
  double dissipated = 0;
  op.element_forces(Configuration::of(p.st), f, nullptr, nullptr, committed.data(), &dissipated);
  EXPECT_GT(dissipated, 0.0);  // yielded on the way
  const double alpha = *std::max_element(committed.begin() + kJ2PlaneAlpha * static_cast<std::ptrdiff_t>(p.sys.shell.num_points),
                                         committed.begin() + (kJ2PlaneAlpha + 1) * static_cast<std::ptrdiff_t>(p.sys.shell.num_points));
  EXPECT_GT(alpha, 1e-3);
  p.deform(0.5);
  const double worst = worst_column_error(p, op, committed.data());
  // Measured 1.1e-9: the return's kinks are away from every point at these states.
  std::printf("plastic MITC4 tangent vs central differences: worst %.2e of the largest entry (PEEQ %.3g)\n", worst,
              alpha);
  EXPECT_LT(worst, 1e-7);
  EXPECT_GT(worst, 0.0);
  // The elastic tangent differs: the plastic one is the return's, not the elastic section's.
  std::vector<double> ke, kp;
  ShellOperator(p.sys, 1).element_matrices(Configuration::of(p.st), kp, committed.data());
  Patch q;
  q.deform();
  ShellOperator(q.sys, 1).element_matrices(Configuration::of(q.st), ke);
  double differ = 0;
  for (std::size_t i = 0; i < ke.size(); ++i) differ = std::max(differ, std::fabs(ke[i] - kp[i]));
  EXPECT_GT(differ, 1e-3 * *std::max_element(ke.begin(), ke.end()));
}

/// A linear step's configuration of x (5 per node): the reference displaced by its
/// translations, directors and triads turned exactly by its spins about the reference triads.
Configuration linear_configuration(const Configuration& ref, const std::vector<double>& x) {
  Configuration c = ref;
  for (std::size_t n = 0; n < ref.u.size() / 3; ++n) {
    const int i = static_cast<int>(n);
    for (int k = 0; k < 3; ++k) c.u[3 * n + k] = x[5 * n + k];
    const Vec3<double> d0 = Configuration::at(ref.d, i), r1 = Configuration::at(ref.t1, i);
    const Vec3<double> theta = x[5 * n + 3] * r1 + x[5 * n + 4] * cross(d0, r1);
    Configuration::set(c.d, i, rotate(theta, d0));
    Configuration::set(c.t1, i, rotate(theta, r1));
  }
  return c;
}

// Plastic sections in a geometrically linear step (the small-strain theory): the forces are
// linear in x below yield (K(ref) x of the elastic section), and beyond it the tangent read
// from the step's configuration is the central differences of the forces in x from the
// committed state.
TEST(ShellOperator, SmallStrainPlasticTangentIsTheDerivativeOfItsForces) {
  Patch p(true);
  const ShellOperator op(p.sys, 1);
  const Configuration ref = Configuration::of(p.st);
  const std::size_t nn = static_cast<std::size_t>(p.sys.num_nodes);
  std::vector<double> x(5 * nn);
  for (std::size_t n = 0; n < nn; ++n) {
    x[5 * n] = 0.01 * std::sin(1.0 + n);
    x[5 * n + 1] = 0.015 * std::cos(2.0 * n);
    x[5 * n + 2] = 0.03 * p.sys.x0[n] * p.sys.x0[n];
    x[5 * n + 3] = 0.05 * std::sin(3.0 * n);
    x[5 * n + 4] = 0.04 * std::cos(n + 0.5);
  }
  // Far below yield: the elastic section's K(ref) x.
  std::vector<double> small(x.size()), f_plastic, f_elastic;
  for (std::size_t k = 0; k < x.size(); ++k) small[k] = 1e-4 * x[k];
  op.small_strain_forces(ref, small, 5, f_plastic, nullptr, nullptr, nullptr);
  Patch q;
  ShellOperator(q.sys, 1).linearized_forces(ref, small, 5, f_elastic);
  double scale = 0, worst_elastic = 0;
  for (double v : f_elastic) scale = std::max(scale, std::fabs(v));
  for (std::size_t k = 0; k < f_elastic.size(); ++k)
    worst_elastic = std::max(worst_elastic, std::fabs(f_plastic[k] - f_elastic[k]) / scale);
  // Simpson's 5 points integrate the linear profile exactly: round-off (measured 1e-15).
  EXPECT_LT(worst_elastic, 1e-12);
  // Committed at half of x (yielded), the tangent at x.
  std::vector<double> half(x.size()), f, committed(p.st.shell_state.size(), 0.0);
  for (std::size_t k = 0; k < x.size(); ++k) half[k] = 0.5 * x[k];
  double dissipated = 0;
  op.small_strain_forces(ref, half, 5, f, nullptr, nullptr, committed.data(), &dissipated);
  EXPECT_GT(dissipated, 0.0);
  std::vector<double> k(400 * static_cast<std::size_t>(op.num_elements()));
  op.small_strain_matrices(ref, linear_configuration(ref, x), k.data(), committed.data());
  double worst = 0;
  for (int e = 0; e < op.num_elements(); ++e) {
    const double* ke = &k[400 * static_cast<std::size_t>(e)];
    double big = 0;
    for (int i = 0; i < 400; ++i) big = std::max(big, std::fabs(ke[i]));
    for (int j = 0; j < 20; ++j) {
      const std::size_t dof = 5 * static_cast<std::size_t>(p.sys.shell.conn[4 * static_cast<std::size_t>(e) + j / 5]) + j % 5;
      const double h = 1e-7;
      std::vector<double> xp = x, xm = x, fp, fm;
      xp[dof] += h;
      xm[dof] -= h;
      op.small_strain_forces(ref, xp, 5, fp, nullptr, committed.data(), nullptr);
      op.small_strain_forces(ref, xm, 5, fm, nullptr, committed.data(), nullptr);
      for (int i = 0; i < 20; ++i) {
        const std::size_t r = 20 * static_cast<std::size_t>(e) + static_cast<std::size_t>(i);
        worst = std::max(worst, std::fabs((fp[r] - fm[r]) / (2 * h) - ke[i * 20 + j]) / big);
      }
    }
  }
  std::printf("small-strain plastic MITC4 tangent vs central differences: worst %.2e of the largest entry\n", worst);
  EXPECT_LT(worst, 1e-6);
  EXPECT_GT(worst, 0.0);
}

// With spins about the triad as rotation dofs, the element matrix is the Hessian of the strain
// energy under the exponential map at zero (the director is all the energy sees, and the
// second-order terms of the map are symmetric), so it is symmetric in any configuration:
// symmetric solvers (CHOLMOD, cuDSS) see the whole tangent.
TEST(ShellOperator, DeformedTangentIsSymmetric) {
  Patch p;
  p.deform();
  const ShellOperator op(p.sys, 1);
  std::vector<double> k;
  op.element_matrices(Configuration::of(p.st), k);
  double worst = 0;
  for (int e = 0; e < op.num_elements(); ++e) {
    const double* ke = &k[400 * static_cast<std::size_t>(e)];
    double scale = 0;
    for (int i = 0; i < 400; ++i) scale = std::max(scale, std::fabs(ke[i]));
    for (int i = 0; i < 20; ++i)
      for (int j = 0; j < i; ++j) worst = std::max(worst, std::fabs(ke[i * 20 + j] - ke[j * 20 + i]) / scale);
  }
  std::printf("MITC4 tangent in a deformed configuration: largest asymmetry %.2e of the largest entry\n", worst);
  EXPECT_LT(worst, 1e-12);
}

TEST(ShellOperator, UnloadedTangentIsSymmetricAndRigidMotionsAreFree) {
  Patch p;
  const ShellOperator op(p.sys, 1);
  std::vector<double> k;
  op.element_matrices(Configuration::of(p.st), k);
  for (int e = 0; e < op.num_elements(); ++e) {
    const double* ke = &k[400 * static_cast<std::size_t>(e)];
    double scale = 0;
    for (int i = 0; i < 400; ++i) scale = std::max(scale, std::fabs(ke[i]));
    for (int i = 0; i < 20; ++i)
      for (int j = 0; j < i; ++j) EXPECT_NEAR(ke[i * 20 + j], ke[j * 20 + i], 1e-10 * scale);
    // A rigid rotation omega about the origin plus a translation: node translations
    // c + omega x X, rotation dofs omega . t1 and omega . t2.
    const Vec3<double> omega{0.3, -0.2, 0.5}, c{0.1, 0.2, -0.3};
    double mode[20];
    for (int a = 0; a < 4; ++a) {
      const int n = p.sys.shell.conn[4 * static_cast<std::size_t>(e) + static_cast<std::size_t>(a)];
      const Vec3<double> X{p.sys.x0[n], p.sys.y0[n], p.sys.z0[n]}, v{p.st.dx[n], p.st.dy[n], p.st.dz[n]},
          t1{p.st.t1x[n], p.st.t1y[n], p.st.t1z[n]};
      const Vec3<double> w = c + cross(omega, X);
      mode[5 * a] = w.x;
      mode[5 * a + 1] = w.y;
      mode[5 * a + 2] = w.z;
      mode[5 * a + 3] = dot(omega, t1);
      mode[5 * a + 4] = dot(omega, cross(v, t1));
    }
    for (int i = 0; i < 20; ++i) {
      double s = 0;
      for (int j = 0; j < 20; ++j) s += ke[i * 20 + j] * mode[j];
      EXPECT_NEAR(s, 0.0, 1e-9 * scale) << "element " << e << " row " << i;
    }
  }
}

}  // namespace
}  // namespace halfstep
