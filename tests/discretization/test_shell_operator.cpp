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

namespace halfstep {
namespace {

/// A 3 x 2 patch of S4R on the curved surface z = 0.15 x^2 - 0.1 y^2 (every element warped
/// a little, directors all different), t = 0.05.
std::string curved_patch() {
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
  d << "*MATERIAL, NAME=M\n*ELASTIC\n2e5, 0.3\n*DENSITY\n1\n*SHELL SECTION, ELSET=P, MATERIAL=M\n0.05\n"
       "*STEP\n*DYNAMIC, EXPLICIT\n, 1\n*END STEP\n";
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
  Model model = read_inp_string(curved_patch(), "mem/patch.inp");
  StructureSystem sys = build_structure_system(model);
  StructureState st;
  Patch() {
    st.initialize(sys);
    initialize_triads(st);
  }
  /// A deformed state: displacements and director turns of a few percent.
  void deform() {
    for (int n = 0; n < sys.num_nodes; ++n) {
      st.ux[n] += 0.01 * std::sin(1.0 + n);
      st.uy[n] += 0.015 * std::cos(2.0 * n);
      st.uz[n] += 0.03 * sys.x0[n] * sys.x0[n];
      turn(st, n, Vec3<double>{0.05 * std::sin(3.0 * n), 0.04 * std::cos(n + 0.5), 0.02});
    }
  }
};

TEST(ShellOperator, ColumnsAreCentralDifferencesOfTheGeneralizedForces) {
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
    for (int j = 0; j < 20; ++j) {
      const int n = p.sys.shell.conn[4 * static_cast<std::size_t>(e) + static_cast<std::size_t>(j / 5)];
      const double h = 1e-6;
      StructureState plus = p.st, minus = p.st;
      move(plus, n, j % 5, h);
      move(minus, n, j % 5, -h);
      std::vector<double> fp, fm;
      op.element_forces(Configuration::of(plus), fp);
      op.element_forces(Configuration::of(minus), fm);
      for (int i = 0; i < 20; ++i) {
        const double fd = (fp[20 * static_cast<std::size_t>(e) + i] - fm[20 * static_cast<std::size_t>(e) + i]) / (2 * h);
        worst = std::max(worst, std::fabs(fd - ke[i * 20 + j]) / scale);
      }
    }
  }
  // Measured 6e-12: central differences with h = 1e-6 are that accurate on this smooth state.
  EXPECT_LT(worst, 1e-9);
  EXPECT_GT(worst, 0.0);  // the differences are computed, not skipped
  std::printf("MITC4 dual tangent vs central differences: worst %.2e of the largest entry\n", worst);
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
