// The CUDA tangent engine (backends/cuda/cuda_tangent_engine): its element matrices, CSR
// assembly and internal forces against the host operator and assembly for every continuum
// kind, the cuDSS and GPU CG solves of seed 004's cantilever against the independent Q4
// solution, a singular tangent reported as SingularStiffness, and the factory's choices.
// Skipped without a GPU; compiled only in CUDA builds (the engine does not exist elsewhere).
#include <gtest/gtest.h>

#if HALFSTEP_HAVE_CUDA

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "../discretization/cantilever_deck.hpp"
#include "assembly/csr_assembly.hpp"
#include "backends/backend.hpp"
#include "backends/cuda/cuda_tangent_engine.hpp"
#include "core/error.hpp"
#include "discretization/structure_state.hpp"
#include "elements/rotation.hpp"
#include "io/inp_reader.hpp"

namespace halfstep {
namespace {

/// The CUDA engine's test view of a freshly made engine.
std::unique_ptr<CudaTangentEngine> cuda_engine(const StructureOperator& op, const std::vector<int>& eq, int n,
                                               LinearSolverKind solver, double cg_tolerance = 1e-10) {
  TangentOptions opt;
  opt.solver = solver;
  opt.cg_tolerance = cg_tolerance;
  std::unique_ptr<TangentEngine> e = make_cuda_tangent_engine(op, eq, n, opt);
  auto* c = dynamic_cast<CudaTangentEngine*>(e.get());
  if (c) e.release();
  return std::unique_ptr<CudaTangentEngine>(c);
}

#define REQUIRE_GPU()                                \
  do {                                               \
    std::string why_;                                \
    if (!cuda_available(&why_)) GTEST_SKIP() << why_; \
  } while (0)

/// Largest |a - b| over the largest |a|.
double worst_relative(const std::vector<double>& a, const std::vector<double>& b) {
  double scale = 0, err = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    scale = std::max(scale, std::fabs(a[i]));
    err = std::max(err, std::fabs(a[i] - b[i]));
  }
  return err / scale;
}

/// A deck parameter's test name: its file name without the extension.
std::string deck_name(const ::testing::TestParamInfo<const char*>& i) {
  const std::string s = i.param;
  return s.substr(0, s.find('.'));
}

class TangentDecks : public ::testing::TestWithParam<const char*> {};

TEST_P(TangentDecks, ElementMatricesAssemblyAndForcesMatchTheHost) {
  REQUIRE_GPU();
  const Model model = read_inp(std::string(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/") + GetParam());
  const StructureSystem sys = build_structure_system(model);
  const StructureOperator op(sys, 2);
  int n = 0;
  const std::vector<int> eq = number_equations(op, test::held_at_x0(sys), &n);
  ASSERT_GT(n, 0);
  const std::vector<double> u = test::smooth_field(sys, 1e-3);
  std::vector<double> k_host, k_gpu;
  op.element_matrices(Configuration::displaced(u), k_host);
  for (ElementMapping mapping : {ElementMapping::Column, ElementMapping::Element}) {
    const auto engine = cuda_engine(op, eq, n, LinearSolverKind::GpuCg);
    ASSERT_TRUE(engine);
    engine->set_element_mapping(mapping);
    engine->element_matrices(Configuration::displaced(u), k_gpu);
    ASSERT_EQ(k_gpu.size(), k_host.size());
    double worst = 0;
    for (int e = 0; e < op.num_elements(); ++e) {
      const std::size_t m = static_cast<std::size_t>(op.element_size(e)), at = op.matrix_offset(e);
      double scale = 0;
      for (std::size_t i = 0; i < m * m; ++i) scale = std::max(scale, std::fabs(k_host[at + i]));
      ASSERT_GT(scale, 0.0);
      for (std::size_t i = 0; i < m * m; ++i) worst = std::max(worst, std::fabs(k_gpu[at + i] - k_host[at + i]) / scale);
    }
    EXPECT_LE(worst, 1e-12) << "element matrices, mapping " << static_cast<int>(mapping);
  }
  // Assembly: full storage (GPU CG) and, with cuDSS, the upper triangle.
  std::vector<LinearSolverKind> kinds = {LinearSolverKind::GpuCg};
  if (cudss_built()) kinds.push_back(LinearSolverKind::Cudss);
  for (LinearSolverKind kind : kinds) {
    const auto engine = cuda_engine(op, eq, n, kind);
    engine->assemble(Configuration::displaced(u));
    const CsrMatrix a = engine->matrix();
    const CsrMatrix ref = assemble_csr(build_csr_assembly(op, eq, n, kind == LinearSolverKind::Cudss), k_host, 2);
    ASSERT_EQ(a.rows, ref.rows);
    ASSERT_EQ(a.row_ptr, ref.row_ptr);
    ASSERT_EQ(a.col, ref.col);
    double scale = 0, err = 0;
    for (std::size_t p = 0; p < ref.val.size(); ++p) {
      scale = std::max(scale, std::fabs(ref.val[p]));
      err = std::max(err, std::fabs(a.val[p] - ref.val[p]));
    }
    EXPECT_LE(err, 1e-12 * scale) << linear_solver_name(kind);
    EXPECT_EQ(engine->stats().nonzeros, static_cast<std::int64_t>(ref.val.size()));
    EXPECT_GT(engine->stats().element_seconds, 0.0);
    EXPECT_GT(engine->stats().assembly_seconds, 0.0);
  }
  // Internal forces and energy.
  const auto engine = cuda_engine(op, eq, n, LinearSolverKind::GpuCg);
  std::vector<double> f_host, f_gpu;
  const double w_host = op.continuum().internal_force(u, f_host), w_gpu = engine->internal_force(Configuration::displaced(u), f_gpu);
  ASSERT_EQ(f_gpu.size(), f_host.size());
  double scale = 0, err = 0;
  for (std::size_t d = 0; d < f_host.size(); ++d) {
    scale = std::max(scale, std::fabs(f_host[d]));
    err = std::max(err, std::fabs(f_gpu[d] - f_host[d]));
  }
  ASSERT_GT(scale, 0.0);
  EXPECT_LE(err, 1e-12 * scale);
  EXPECT_NEAR(w_gpu, w_host, 1e-12 * std::fabs(w_host));
}

INSTANTIATE_TEST_SUITE_P(Continuum, TangentDecks,
                         ::testing::Values("plane_cps4.inp", "plane_cpe4.inp", "solid_c3d8_neo.inp",
                                           "solid_c3d8full_j2.inp", "solid_c3d8r_svk.inp", "solid_c3d4_ortho.inp", "solid_c3d10m_svk.inp",
                                           "static_nc3d2.inp"),
                         deck_name);

// Shells and a solid sharing nodes (5 dofs per node) in a turned configuration: the GPU's
// element matrices, assembly, generalized forces and linearized forces are the host's.
TEST(CudaTangentEngine, ShellsAndSolidsMatchTheHost) {
  REQUIRE_GPU();
  const std::string deck = test::mixed_shell_solid_deck();
  const Model model = read_inp_string(deck, "mem/mixed.inp");
  const StructureSystem sys = build_structure_system(model);
  const StructureOperator op(sys, 2);
  std::vector<char> held(static_cast<std::size_t>(op.num_dofs()), 0);
  for (int c = 0; c < 5; ++c) held[static_cast<std::size_t>(c)] = held[15 + static_cast<std::size_t>(c)] = 1;
  int n = 0;
  const std::vector<int> eq = number_equations(op, held, &n);
  Configuration c = op.rest();
  for (int i = 0; i < sys.num_nodes; ++i) {
    c.u[3 * i + 2] = 0.02 * std::sin(1.0 + i);
    const Vec3<double> theta{0.1 * std::sin(2.0 * i), 0.05 * std::cos(i + 0.3), 0.02};
    Configuration::set(c.d, i, rotate(theta, Configuration::at(c.d, i)));
    Configuration::set(c.t1, i, rotate(theta, Configuration::at(c.t1, i)));
  }
  std::vector<double> k_host, k_gpu, f_host, f_gpu, x(static_cast<std::size_t>(op.num_dofs()));
  op.element_matrices(c, k_host);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 1e-3 * std::cos(0.7 * static_cast<double>(i));
  const auto engine = cuda_engine(op, eq, n, cudss_built() ? LinearSolverKind::Cudss : LinearSolverKind::GpuCg);
  engine->element_matrices(c, k_gpu);
  ASSERT_EQ(k_gpu.size(), k_host.size());
  EXPECT_LE(worst_relative(k_host, k_gpu), 1e-12);
  engine->assemble(c);
  const CsrMatrix ref = assemble_csr(build_csr_assembly(op, eq, n, cudss_built()), k_host, 2);
  EXPECT_LE(worst_relative(ref.val, engine->matrix().val), 1e-12);
  const double w_host = op.internal_force(c, f_host), w_gpu = engine->internal_force(c, f_gpu);
  ASSERT_EQ(f_gpu.size(), f_host.size());
  EXPECT_LE(worst_relative(f_host, f_gpu), 1e-12);
  EXPECT_NEAR(w_gpu, w_host, 1e-12 * std::fabs(w_host));
  op.linearized_force(c, x, f_host);
  engine->linearized_force(c, x, f_gpu);
  EXPECT_LE(worst_relative(f_host, f_gpu), 1e-12);
}

// FPM triangles and beams (6 dofs per node; beside MITC4 shells in the mixed strip, yielding
// in the J2 dome and beam) in a turned configuration, from the initial state: the GPU's
// element matrices (RowColumnBody, symmetrized), generalized forces, work and trial state are
// the host's (the same host/device bodies, discretization/row_tangent.hpp).
class RowDecks : public ::testing::TestWithParam<const char*> {};

TEST_P(RowDecks, ElementMatricesForcesAndStateMatchTheHost) {
  REQUIRE_GPU();
  const Model model = read_inp(std::string(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/") + GetParam());
  const StructureSystem sys = build_structure_system(model);
  const StructureOperator op(sys, 2);
  ASSERT_GT(op.rows().num_elements(), 0);
  std::vector<char> held(static_cast<std::size_t>(op.num_dofs()), 0);
  for (int c = 0; c < 6; ++c) held[static_cast<std::size_t>(c)] = 1;
  int n = 0;
  const std::vector<int> eq = number_equations(op, held, &n);
  Configuration c = op.rest();
  for (int i = 0; i < sys.num_nodes; ++i) {
    for (int k = 0; k < 3; ++k) c.u[3 * i + k] = 0.01 * std::sin(1.0 + i + 2.0 * k);
    const Vec3<double> theta{0.1 * std::sin(2.0 * i), 0.05 * std::cos(i + 0.3), 0.02};
    Configuration::set(c.d, i, rotate(theta, Configuration::at(c.d, i)));
    Configuration::set(c.t1, i, rotate(theta, Configuration::at(c.t1, i)));
  }
  StructureState st;
  st.initialize(sys);
  const std::vector<double> old = op.material_state(st);
  std::vector<double> next_host(old.size()), next_gpu, k_host, k_gpu, f_host, f_gpu;
  op.element_matrices(c, k_host, old.data());
  const double w_host = op.internal_force(c, f_host, nullptr, PointStates{old.data(), next_host.data()});
  const auto engine = cuda_engine(op, eq, n, cudss_built() ? LinearSolverKind::Cudss : LinearSolverKind::GpuCg);
  engine->set_material_state(old);
  engine->element_matrices(c, k_gpu);
  const double w_gpu = engine->internal_force(c, f_gpu);
  engine->trial_material_state(next_gpu);
  ASSERT_EQ(k_gpu.size(), k_host.size());
  ASSERT_EQ(f_gpu.size(), f_host.size());
  ASSERT_EQ(next_gpu.size(), next_host.size());
  std::printf("%s: matrices %.2e, forces %.2e, state %.2e, work %.3e vs %.3e\n", GetParam(), worst_relative(k_host, k_gpu),
              worst_relative(f_host, f_gpu), worst_relative(next_host, next_gpu), w_gpu, w_host);
  EXPECT_LE(worst_relative(k_host, k_gpu), 1e-12);
  EXPECT_LE(worst_relative(f_host, f_gpu), 1e-12);
  EXPECT_LE(worst_relative(next_host, next_gpu), 1e-12);
  EXPECT_NEAR(w_gpu, w_host, 1e-12 * std::fabs(w_host));
  engine->assemble(c);
  const CsrMatrix ref = assemble_csr(build_csr_assembly(op, eq, n, cudss_built()), k_host, 2);
  EXPECT_LE(worst_relative(ref.val, engine->matrix().val), 1e-12);
  // Again from the state just reached (stressed, yielded where the laws yield) at a
  // configuration moved on: a static increment after the first.
  for (std::size_t i = 0; i < c.u.size(); ++i) c.u[i] *= 1.5;
  std::vector<double> next2_host(old.size()), next2_gpu;
  op.element_matrices(c, k_host, next_host.data());
  const double w2_host = op.internal_force(c, f_host, nullptr, PointStates{next_host.data(), next2_host.data()});
  engine->set_material_state(next_gpu);
  engine->element_matrices(c, k_gpu);
  const double w2_gpu = engine->internal_force(c, f_gpu);
  engine->trial_material_state(next2_gpu);
  std::printf("%s, second increment: matrices %.2e, forces %.2e, state %.2e, work %.3e vs %.3e\n", GetParam(),
              worst_relative(k_host, k_gpu), worst_relative(f_host, f_gpu), worst_relative(next2_host, next2_gpu), w2_gpu,
              w2_host);
  EXPECT_LE(worst_relative(k_host, k_gpu), 1e-12);
  EXPECT_LE(worst_relative(f_host, f_gpu), 1e-12);
  EXPECT_LE(worst_relative(next2_host, next2_gpu), 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Rows, RowDecks, ::testing::Values("mixed_strip_bend.inp", "tri_dome_j2.inp", "beam_plastic.inp"),
                         deck_name);

/// Seed 004's cantilever, 40 x 4 CPS4, clamped at x = 0 (or free), for the solver tests.
struct Cantilever {
  static constexpr int nx = 40, ny = 4;
  Model model = read_inp_string(test::cantilever_deck(nx, ny), "mem/cantilever.inp");
  StructureSystem sys = build_structure_system(model);
  StructureOperator op{sys, 2};
  int n = 0;
  std::vector<int> eq;
  explicit Cantilever(bool clamped) {
    eq = number_equations(op, test::held_at_x0(sys, clamped), &n);
  }
  /// The tip deflection of the linear solve with the engine (reference: numpy sparse direct
  /// on the same mesh and loads).
  double tip_deflection(TangentEngine& engine) {
    engine.assemble_and_factor(Configuration::displaced(std::vector<double>(3 * static_cast<std::size_t>(sys.num_nodes), 0.0)));
    const std::vector<double> f = test::cantilever_tip_load(nx, ny, 1e5);
    std::vector<double> b(static_cast<std::size_t>(n), 0.0), x;
    for (std::size_t d = 0; d < f.size(); ++d)
      if (eq[d] >= 0) b[eq[d]] = f[d];
    engine.solve(b, x);
    return x[eq[3 * (nx + (nx + 1) * (ny / 2)) + 1]];
  }
};

constexpr double kTipReference = test::kCantileverQ4Tip;  // validation/cantilever_q4.py

TEST(CudaTangentEngine, CudssSolvesTheCantilever) {
  REQUIRE_GPU();
  if (!cudss_built()) GTEST_SKIP() << "built without cuDSS";
  Cantilever c(true);
  const auto engine = cuda_engine(c.op, c.eq, c.n, LinearSolverKind::Cudss);
  EXPECT_EQ(engine->solver(), LinearSolverKind::Cudss);
  EXPECT_NE(engine->description().find("cuDSS"), std::string::npos) << engine->description();
  EXPECT_NEAR(c.tip_deflection(*engine), kTipReference, 1e-8 * kTipReference);
  // A second factorization reuses the analysis (refactorization) and gives the same answer.
  EXPECT_NEAR(c.tip_deflection(*engine), kTipReference, 1e-8 * kTipReference);
  EXPECT_EQ(engine->stats().factorizations, 2);
  EXPECT_EQ(engine->stats().solves, 2);
  EXPECT_GT(engine->stats().analyze_seconds, 0.0);
  std::cout << engine->description() << "\n";
}

TEST(CudaTangentEngine, GpuCgSolvesTheCantileverToItsTolerance) {
  REQUIRE_GPU();
  Cantilever c(true);
  const auto engine = cuda_engine(c.op, c.eq, c.n, LinearSolverKind::GpuCg, 1e-13);
  EXPECT_EQ(engine->solver(), LinearSolverKind::GpuCg);
  EXPECT_NEAR(c.tip_deflection(*engine), kTipReference, 1e-8 * kTipReference);
  EXPECT_GT(engine->stats().iterations, 0);
  std::cout << engine->description() << ": " << engine->stats().iterations << " iterations\n";
}

TEST(CudaTangentEngine, GpuCgThatCannotConvergeSaysSo) {
  REQUIRE_GPU();
  Cantilever c(true);
  TangentOptions opt;
  opt.solver = LinearSolverKind::GpuCg;
  opt.cg_tolerance = 1e-13;
  opt.cg_max_iterations = 5;
  const auto engine = make_cuda_tangent_engine(c.op, c.eq, c.n, opt);
  try {
    c.tip_deflection(*engine);
    FAIL() << "expected RunError";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("did not converge: 5 iterations"), std::string::npos) << e.what();
  }
}

TEST(CudaTangentEngine, CudssReportsAnUnconstrainedTangentAsSingular) {
  REQUIRE_GPU();
  if (!cudss_built()) GTEST_SKIP() << "built without cuDSS";
  Cantilever c(false);
  ASSERT_EQ(c.n, 2 * (c.nx + 1) * (c.ny + 1));
  const auto engine = cuda_engine(c.op, c.eq, c.n, LinearSolverKind::Cudss);
  try {
    engine->assemble_and_factor(Configuration::displaced(std::vector<double>(3 * static_cast<std::size_t>(c.sys.num_nodes), 0.0)));
    FAIL() << "expected SingularStiffness";
  } catch (const SingularStiffness& e) {
    std::cout << "cuDSS on a free body: " << e.what() << "\n";
    EXPECT_LT(e.equation(), c.n);
  }
}

TEST(CudaTangentEngine, FactoryPicksTheGpuEngineForGpuSolvers) {
  REQUIRE_GPU();
  Cantilever c(true);
  TangentOptions opt;
  opt.solver = LinearSolverKind::GpuCg;
  const auto cg = make_tangent_engine(BackendKind::Cuda, c.op, c.eq, c.n, opt, false);
  EXPECT_EQ(cg->solver(), LinearSolverKind::GpuCg);
  EXPECT_NE(cg->description().find("GPU assembly"), std::string::npos) << cg->description();
  opt.solver = LinearSolverKind::Auto;
  const auto autos = make_tangent_engine(BackendKind::Auto, c.op, c.eq, c.n, opt, false);
  EXPECT_EQ(autos->solver(), cudss_built() ? LinearSolverKind::Cudss : LinearSolverKind::GpuCg);
  opt.solver = LinearSolverKind::Cudss;
  if (cudss_built()) {
    EXPECT_EQ(make_tangent_engine(BackendKind::Cuda, c.op, c.eq, c.n, opt, false)->solver(), LinearSolverKind::Cudss);
  } else {
    try {
      make_tangent_engine(BackendKind::Cuda, c.op, c.eq, c.n, opt, false);
      FAIL() << "expected RunError";
    } catch (const RunError& e) {
      EXPECT_NE(std::string(e.what()).find("no cuDSS"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace halfstep

#endif  // HALFSTEP_HAVE_CUDA
