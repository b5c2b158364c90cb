// The continuum operator (discretization/continuum_operator.hpp) as a second client would use
// it: element matrices against finite differences of the internal force for every continuum
// kind and material, their symmetry, and a static Newton driver written only against the
// operator, solving seed 004's cantilever (CPS4, 40 x 4) with quadratic convergence to the
// deflection an independent linear Q4 solution of the same mesh gives.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "discretization/continuum_operator.hpp"
#include "cantilever_deck.hpp"
#include "io/inp_reader.hpp"
#include "operator_columns.hpp"

namespace halfstep {
namespace {

class OperatorDecks : public ::testing::TestWithParam<const char*> {};

TEST_P(OperatorDecks, ElementMatricesAreTheForceDerivative) {
  const Model model = read_inp(std::string(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/") + GetParam());
  const StructureSystem sys = build_structure_system(model);
  const ContinuumOperator op(sys, 1);
  ASSERT_GT(op.num_elements(), 0);
  double extent = 0;
  for (int n = 0; n < sys.num_nodes; ++n) extent = std::max({extent, std::fabs(sys.x0[n]), std::fabs(sys.y0[n])});
  const std::vector<double> u = test::smooth_field(sys, 0.02 * extent / 3);
  std::vector<double> k;
  op.element_matrices(u, k);
  // Assembled columns of a few dofs against central differences of the assembled force.
  const std::vector<int> probe = test::probe_dofs(op);
  ASSERT_GE(probe.size(), 4u);
  for (int j : probe) {
    const std::vector<double> col = test::assembled_column(op, k, j);
    const double h = 1e-6 * extent;
    std::vector<double> up = u, um = u, fp, fm;
    up[j] += h;
    um[j] -= h;
    op.internal_force(up, fp);
    op.internal_force(um, fm);
    double cmax = 0, err = 0;
    for (std::size_t i = 0; i < col.size(); ++i) {
      cmax = std::max(cmax, std::fabs(col[i]));
      err = std::max(err, std::fabs(col[i] - (fp[i] - fm[i]) / (2 * h)));
    }
    ASSERT_GT(cmax, 0.0);
    EXPECT_LT(err, 1e-6 * cmax) << GetParam() << " dof " << j;
  }
  // Hyperelastic (and the hourglass springs): every element matrix is symmetric.
  for (int e = 0; e < op.num_elements(); ++e) {
    const int n = op.element_size(e);
    const double* ke = &k[op.matrix_offset(e)];
    double m = 0, asym = 0;
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) {
        m = std::max(m, std::fabs(ke[a * n + b]));
        asym = std::max(asym, std::fabs(ke[a * n + b] - ke[b * n + a]));
      }
    ASSERT_LT(asym, 1e-10 * m) << GetParam() << " element " << e;
  }
}

INSTANTIATE_TEST_SUITE_P(Continuum, OperatorDecks,
                         ::testing::Values("solid_c3d8r_svk.inp", "solid_c3d8_neo.inp", "solid_c3d4_ortho.inp",
                                           "solid_c3d10m_svk.inp", "plane_cps4.inp", "plane_cpe4.inp",
                                           "solid_c3d6_svk.inp", "plane_cps4r.inp", "plane_cpe4r.inp",
                                           "axi_cylinder.inp", "static_c3d20.inp", "static_c3d20r.inp",
                                           "static_c3d10.inp", "static_nc3d2.inp", "static_cps8_neo.inp",
                                           "static_cpe8r_ortho.inp", "static_cax8_svk.inp", "static_cax8r_neo.inp"),
                         [](const ::testing::TestParamInfo<const char*>& i) {
                           std::string s = i.param;
                           return s.substr(0, s.find('.'));
                         });

/// Solves A x = b (dense, row-major, n x n) by Gaussian elimination with partial pivoting.
std::vector<double> dense_solve(std::vector<double> A, std::vector<double> b, int n) {
  for (int c = 0; c < n; ++c) {
    int p = c;
    for (int r = c + 1; r < n; ++r)
      if (std::fabs(A[r * n + c]) > std::fabs(A[p * n + c])) p = r;
    for (int k = 0; k < n; ++k) std::swap(A[c * n + k], A[p * n + k]);
    std::swap(b[c], b[p]);
    for (int r = c + 1; r < n; ++r) {
      const double m = A[r * n + c] / A[c * n + c];
      if (m == 0.0) continue;
      for (int k = c; k < n; ++k) A[r * n + k] -= m * A[c * n + k];
      b[r] -= m * b[c];
    }
  }
  for (int r = n - 1; r >= 0; --r) {
    double s = b[r];
    for (int k = r + 1; k < n; ++k) s -= A[r * n + k] * b[k];
    b[r] = s / A[r * n + r];
  }
  return b;
}

/// A static Newton driver written only against the operator: full Newton from u = 0 on the
/// cantilever under tip shear P; returns the residual norms (relative to P) and the tip
/// deflection.
std::vector<double> newton_cantilever(double P, int max_iterations, double* tip_out) {
  const int nx = 40, ny = 4;
  const Model model = read_inp_string(test::cantilever_deck(nx, ny), "mem/cantilever.inp");
  const StructureSystem sys = build_structure_system(model);
  const ContinuumOperator op(sys, 2);
  // Free dofs: active (x, y of every node) and not on the clamped edge x = 0.
  const std::vector<char> active = op.active_dofs();
  std::vector<int> free_dof, where(static_cast<std::size_t>(op.num_dofs()), -1);
  for (int d = 0; d < op.num_dofs(); ++d)
    if (active[d] && sys.x0[d / 3] > 1e-12) {
      where[d] = static_cast<int>(free_dof.size());
      free_dof.push_back(d);
    }
  const int nf = static_cast<int>(free_dof.size());
  const std::vector<double> fext = test::cantilever_tip_load(nx, ny, P);
  std::vector<double> u(static_cast<std::size_t>(op.num_dofs()), 0.0), f, k;
  std::vector<double> residuals;
  for (int it = 0; it < max_iterations; ++it) {
    op.internal_force(u, f);
    std::vector<double> r(static_cast<std::size_t>(nf));
    double rn = 0;
    for (int i = 0; i < nf; ++i) {
      r[i] = fext[free_dof[i]] - f[free_dof[i]];
      rn += r[i] * r[i];
    }
    residuals.push_back(std::sqrt(rn) / P);
    // The floor: forces carry the round-off of strains ~3e-5 formed from F = I + grad u
    // (about 1e-9 of the load here).
    if (residuals.back() < 1e-8) break;
    op.element_matrices(u, k);
    std::vector<double> A(static_cast<std::size_t>(nf) * nf, 0.0);
    for (int e = 0; e < op.num_elements(); ++e) {
      const int n = op.element_size(e);
      std::vector<int> ed(static_cast<std::size_t>(n));
      op.element_dofs(e, ed.data());
      for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
          if (where[ed[a]] >= 0 && where[ed[b]] >= 0)
            A[static_cast<std::size_t>(where[ed[a]]) * nf + where[ed[b]]] += k[op.matrix_offset(e) + a * n + b];
    }
    const std::vector<double> du = dense_solve(A, r, nf);
    for (int i = 0; i < nf; ++i) u[free_dof[i]] += du[i];
  }
  *tip_out = u[3 * static_cast<std::size_t>(nx + (nx + 1) * (ny / 2)) + 1];
  return residuals;
}

TEST(ContinuumOperator, NewtonClientSolvesTheCantilever) {
  double tip = 0;
  const std::vector<double> r = newton_cantilever(1e5, 8, &tip);
  EXPECT_LT(r.back(), 1e-8) << "did not converge";
  EXPECT_LE(r.size(), 4u) << "Newton needed more than 3 solves";
  // Independent linear Q4 plane-stress solution of the same mesh and loads
  // (validation/cantilever_q4.py) at the tip's mid-depth node; geometric nonlinearity at this
  // load takes 3.5e-8 off it (measured).
  EXPECT_NEAR(tip, test::kCantileverQ4Tip, 7e-8 * test::kCantileverQ4Tip);
}

TEST(ContinuumOperator, NewtonConvergesQuadraticallyAtLargeDeflection) {
  // 300 times the load: the tip moves 0.56 (rotations ~0.08), Newton takes several steps,
  // and with the consistent tangent r[k+1] <= 10 r[k]^2 from the first r[k] < 1 on, down to
  // the round-off floor.
  double tip = 0;
  const std::vector<double> r = newton_cantilever(3e7, 25, &tip);
  std::string seq;
  for (double x : r) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3e ", x);
    seq += b;
  }
  ASSERT_LT(r.back(), 1e-8) << "did not converge: " << seq;
  // Measured: 5.3e-01 5.2e+01 2.3e-01 1.3e-05 1.6e-09 (the first step overshoots: the linear
  // tangent at u = 0 knows nothing of the large rotation).
  int quadratic = 0;
  for (std::size_t i = 1; i < r.size(); ++i)
    if (i >= 2 && r[i - 1] < 1.0) {  // after the overshooting first step
      EXPECT_LT(r[i], std::max(10 * r[i - 1] * r[i - 1], 1e-8)) << "step " << i << ": " << seq;
      ++quadratic;
    }
  EXPECT_GE(quadratic, 2) << seq;
  EXPECT_GT(tip, 0.1);
}

}  // namespace
}  // namespace halfstep
