// Static steps on the GPU engine (GPU assembly; cuDSS or GPU CG) give the CPU engine's answers:
// a linear step, a large-deflection NLGEOM step with cut-backs, and a static step followed
// by an explicit one on the GPU backend. Skipped without a usable GPU.
#include <gtest/gtest.h>

#if HALFSTEP_HAVE_CUDA
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

#include "../solver/static_util.hpp"
#include "need_gpu.hpp"
#include "backends/cuda/cuda_tangent_engine.hpp"

namespace halfstep {
namespace {

using test::Capture;
using test::last_field;
using test::rolled_strip;
using test::run_deck;
using test::static_cantilever;
using test::u_of;

const char* kLinear = "*STEP\n*STATIC\n0.5, 1\n%LOADS%*OUTPUT, FIELD\n*NODE OUTPUT\nU, RF\n*END STEP\n";
const char* kLarge = "*STEP, NLGEOM=YES\n*STATIC\n1, 1\n%LOADS%*OUTPUT, FIELD\n*NODE OUTPUT\nU\n*END STEP\n";

/// Tip deflection (node at mid-depth of x = L) of a 40 x 4 run.
double tip(const Capture& c) { return u_of(last_field(c), 1 + 40 + 41 * 2, 1); }

TEST(GpuStatic, LinearStepMatchesTheCpu) {
  NEED_GPU();
  Capture cpu;
  run_deck(static_cantilever(40, 4, 1e5, kLinear), cpu, LinearSolverKind::Ldlt, BackendKind::Cpu);
  for (LinearSolverKind k : {LinearSolverKind::Auto, LinearSolverKind::Cudss, LinearSolverKind::GpuCg}) {
    if (k == LinearSolverKind::Cudss && !cudss_built()) continue;
    Capture gpu;
    const RunSummary s = run_deck(static_cantilever(40, 4, 1e5, kLinear), gpu, k, BackendKind::Cuda);
    EXPECT_EQ(s.statics.engine.rfind("CUDA", 0), 0u) << s.statics.engine;
    // Direct solvers differ by their elimination order's round-off (measured 6e-12 relative).
    const double tol = k == LinearSolverKind::GpuCg ? 1e-8 : 1e-10;
    EXPECT_NEAR(tip(gpu), tip(cpu), tol * std::fabs(tip(cpu))) << linear_solver_name(k);
    EXPECT_NEAR(tip(cpu), test::kCantileverQ4Tip, 1e-9 * test::kCantileverQ4Tip);
  }
}

// A linear step solved by the GPU engine writes the same small-strain results as on the CPU
// (issue 42): a block in pure shear has S13 = G gamma and no normal stress.
TEST(GpuStatic, LinearStepWritesSmallStrainResults) {
  NEED_GPU();
  const double gamma = 0.01, G = 200e9 / 2.6;
  for (const char* type : {"C3D8", "C3D4"}) {
    Capture gpu;
    const RunSummary s = run_deck(test::shear_block(type, gamma, "*ELASTIC\n200e9, 0.3\n"), gpu, LinearSolverKind::Auto,
                                  BackendKind::Cuda);
    EXPECT_EQ(s.statics.engine.rfind("CUDA", 0), 0u) << s.statics.engine;
    test::expect_pure_shear(last_field(gpu), 4, G * gamma, gamma, type);
  }
}

/// The two-bar truss (T3D2 from (0, 0) and (2, 0) to the apex (1, 1), E A = 2e6) with a
/// SPRINGA (k = 1e6) from the apex up to a held node and a DASHPOTA beside it (no static
/// force), P = 100 down at the apex; linear.
const char* kTrussSpring =
    "*NODE\n1, 0., 0., 0.\n2, 2., 0., 0.\n3, 1., 1., 0.\n4, 1., 2., 0.\n*ELEMENT, TYPE=T3D2, ELSET=BARS\n1, 1, 3\n"
    "2, 2, 3\n*ELEMENT, TYPE=SPRINGA, ELSET=K\n3, 3, 4\n*ELEMENT, TYPE=DASHPOTA, ELSET=C\n4, 3, 4\n"
    "*MATERIAL, NAME=STEEL\n*ELASTIC\n200000., 0.3\n*SOLID SECTION, ELSET=BARS, MATERIAL=STEEL\n10.\n"
    "*SPRING, ELSET=K\n1e6\n*DASHPOT, ELSET=C\n, 1e3\n*BOUNDARY\n1, 1, 3\n2, 1, 3\n4, 1, 3\n3, 3, 3\n*STEP\n*STATIC\n"
    "*CLOAD\n3, 2, -100.\n*OUTPUT, FIELD\n*NODE OUTPUT\nU\n*END STEP\n";

TEST(GpuStatic, TrussAndSpringMatchTheClosedForm) {
  NEED_GPU();
  // Vertical stiffness 2 E A sin^2(45) / sqrt(2) + k.
  const double expected = -100.0 / (2e6 / std::sqrt(2.0) + 1e6);
  Capture cpu;
  run_deck(kTrussSpring, cpu, LinearSolverKind::Ldlt, BackendKind::Cpu);
  EXPECT_NEAR(u_of(last_field(cpu), 3, 1), expected, 1e-12 * std::fabs(expected));
  for (LinearSolverKind k : {LinearSolverKind::Auto, LinearSolverKind::GpuCg}) {
    Capture gpu;
    const RunSummary s = run_deck(kTrussSpring, gpu, k, BackendKind::Cuda);
    EXPECT_EQ(s.statics.engine.rfind("CUDA", 0), 0u) << s.statics.engine;
    EXPECT_NEAR(u_of(last_field(gpu), 3, 1), expected, 1e-8 * std::fabs(expected)) << linear_solver_name(k);
  }
}

TEST(GpuStatic, LargeDeflectionWithCutBacksMatchesTheCpu) {
  NEED_GPU();
  const double P = 3 * 210e9 / 12 / 100;  // PL^2/EI = 3 in one increment: cut-backs needed
  Capture cpu, gpu;
  const RunSummary a = run_deck(static_cantilever(40, 4, P, kLarge), cpu, LinearSolverKind::Ldlt, BackendKind::Cpu);
  const RunSummary b = run_deck(static_cantilever(40, 4, P, kLarge), gpu, LinearSolverKind::Auto, BackendKind::Cuda);
  EXPECT_GT(b.statics.cutbacks, 0);
  // Same increments and iterations: the GPU tangent and forces equal the host's to round-off.
  EXPECT_EQ(a.statics.increments, b.statics.increments);
  EXPECT_EQ(a.statics.iterations, b.statics.iterations);
  EXPECT_NEAR(tip(gpu), tip(cpu), 1e-9 * std::fabs(tip(cpu)));
}

/// A rational degree-3 NURBS strip (*NURBS PATCH, plane strain) bent into large deflection by
/// an end displacement, NLGEOM: the GPU engine's element matrices (the NURBS elements' data
/// on the device) and forces give the CPU engine's increments and answers.
const char* kNurbsBend =
    "*NURBS PATCH, NAME=P, TYPE=CPE, ELSET=S, REFINE=3, ELEVATE=1\n2, 2\n3, 3\n0, 0, 0, 1, 1, 1\n0, 0, 0, 1, 1, 1\n"
    "0, 0, 1\n5, 0, 0.9\n10, 0, 1\n0, 0.5, 1.1\n5.3, 0.6, 0.8\n10, 0.5, 1.05\n0, 1, 1\n4.7, 1, 0.95\n10, 1, 1\n"
    "*MATERIAL, NAME=M\n*ELASTIC\n1000, 0.3\n*SOLID SECTION, ELSET=S, MATERIAL=M\n1\n"
    "*STEP, NLGEOM=YES\n*STATIC\n0.25, 1\n*BOUNDARY\nP-U0, 1, 2\nP-U1, 2, 2, 2.5\n"
    "*OUTPUT, FIELD\n*NODE OUTPUT\nU\n*END STEP\n";

/// Largest |a - b| over two arrays of one frame's nodal values, and the largest |a|.
void max_difference(const FieldArray& a, const FieldArray& b, double& scale, double& diff) {
  ASSERT_EQ(a.values.size(), b.values.size());
  scale = diff = 0;
  for (std::size_t k = 0; k < a.values.size(); ++k) {
    scale = std::max(scale, std::fabs(a.values[k]));
    diff = std::max(diff, std::fabs(a.values[k] - b.values[k]));
  }
}

TEST(GpuStatic, NurbsStripMatchesTheCpu) {
  NEED_GPU();
  Capture cpu, gpu;
  const RunSummary a = run_deck(kNurbsBend, cpu, LinearSolverKind::Ldlt, BackendKind::Cpu);
  const RunSummary b = run_deck(kNurbsBend, gpu, LinearSolverKind::Auto, BackendKind::Cuda);
  EXPECT_EQ(b.statics.engine.rfind("CUDA", 0), 0u) << b.statics.engine;
  EXPECT_EQ(a.statics.iterations, b.statics.iterations);
  const FieldArray* ua = last_field(cpu).fields.find_point("U");
  const FieldArray* ub = last_field(gpu).fields.find_point("U");
  ASSERT_TRUE(ua && ub);
  double scale = 0, diff = 0;
  max_difference(*ua, *ub, scale, diff);
  EXPECT_GT(scale, 1.0);
  EXPECT_LT(diff, 1e-9 * scale);
}

// Seed 004's peeling strip, coarse (40 x 2 degree-2 NURBS elements, the end turned by 4
// degrees through a kinematic coupling, adhesion edges on 75 % of the bottom): the GPU
// engine (its element matrices of NCPE2 and ADH2, the shared equations of the coupling)
// against the CPU's.
std::string peel_deck() {
  const double req = 0.4 * 0.6367732194731706;
  const int nx = 40, ny = 2, p = 2, cu = nx + p, cv = ny + p;
  std::ostringstream d;
  d.precision(17);
  const auto knots = [&](int spans) {
    std::ostringstream k;
    k.precision(17);
    for (int i = 0; i <= p; ++i) k << "0, ";
    for (int i = 1; i < spans; ++i) k << static_cast<double>(i) / spans << ", ";
    k << "1, 1, 1\n";
    return k.str();
  };
  const auto greville = [&](int i, int spans) {
    double v = 0;
    for (int k = i + 1; k <= i + p; ++k) v += std::min(1.0, std::max(0.0, static_cast<double>(k - p) / spans));
    return v / p;
  };
  d << "*NURBS PATCH, NAME=S, TYPE=CPE, ELSET=S\n2, 2\n" << cu << ", " << cv << "\n" << knots(nx) << knots(ny);
  for (int j = 0; j < cv; ++j)
    for (int i = 0; i < cu; ++i) d << 200 * greville(i, nx) << ", " << req + 10 * greville(j, ny) << ", 1\n";
  d << "*ELSET, ELSET=GLUED, GENERATE\n1, 30, 1\n*SURFACE, NAME=BOTTOM\nGLUED, S1\n"
    << "*ADHESION, SURFACE=BOTTOM\n0.1, 0.4\n0, 0, 0, 1\n"
    << "*MATERIAL, NAME=M\n*HYPERELASTIC, NEO HOOKE\n0.2083333, 3.6\n*SOLID SECTION, ELSET=S, MATERIAL=M\n1\n"
    << "*NODE, NSET=RP\n9999, 200, " << req + 5 << "\n*SURFACE, NAME=END, TYPE=NODE\nS-U1\n"
    << "*COUPLING, CONSTRAINT NAME=END, REF NODE=9999, SURFACE=END\n*KINEMATIC\n"
    << "*STEP, NLGEOM=YES, INC=100\n*STATIC\n0.5, 4, 1e-4, 0.5\n*BOUNDARY\n1, 1, 1\nRP, 6, 6, " << 4 * M_PI / 180
    << "\n*OUTPUT, FIELD\n*NODE OUTPUT\nU, RF\n*END STEP\n";
  return d.str();
}

TEST(GpuStatic, PeelingStripMatchesTheCpu) {
  NEED_GPU();
  const std::string deck = peel_deck();
  Capture cpu, gpu;
  const RunSummary a = run_deck(deck, cpu, LinearSolverKind::Ldlt, BackendKind::Cpu);
  const RunSummary b = run_deck(deck, gpu, LinearSolverKind::Auto, BackendKind::Cuda);
  EXPECT_EQ(b.statics.engine.rfind("CUDA", 0), 0u) << b.statics.engine;
  EXPECT_EQ(a.statics.iterations, b.statics.iterations);
  const FieldArray* ua = last_field(cpu).fields.find_point("U");
  const FieldArray* ub = last_field(gpu).fields.find_point("U");
  const FieldArray* ma = last_field(cpu).fields.find_point("RM");
  const FieldArray* mb = last_field(gpu).fields.find_point("RM");
  ASSERT_TRUE(ua && ub && ma && mb);
  double scale = 0, diff = 0;
  max_difference(*ua, *ub, scale, diff);
  const double moment_a = ma->values.back(), moment_b = mb->values.back();  // the last node is the reference node
  std::printf("peeling strip: GPU - CPU displacement %.3g of %.3g, moment %.10g vs %.10g\n", diff, scale, moment_b, moment_a);
  EXPECT_GT(scale, 1.0);
  EXPECT_LT(diff, 1e-8 * scale);
  EXPECT_GT(moment_a, 0.05);
  EXPECT_NEAR(moment_b, moment_a, 1e-8 * moment_a);
}

/// A rational NURBS solid (*NURBS PATCH, TYPE=C3D, degree 3 by ELEVATE: 64-node elements, the
/// largest the CUDA tangent engine differentiates) stretched and sheared, NLGEOM, Neo-Hookean:
/// the GPU engine gives the CPU engine's increments and answers.
const char* kNurbsShear =
    "*NURBS PATCH, NAME=P, TYPE=C3D, ELSET=S, REFINE=1, ELEVATE=1\n2, 2, 2\n3, 3, 3\n0, 0, 0, 1, 1, 1\n"
    "0, 0, 0, 1, 1, 1\n0, 0, 0, 1, 1, 1\n"
    "0, 0, 0, 1\n2, 0, 0, 0.9\n4, 0, 0, 1\n0, 0.5, 0, 1.1\n2.2, 0.55, 0, 0.8\n4, 0.5, 0, 1\n0, 1, 0, 1\n2, 1, 0, 0.95\n"
    "4, 1, 0, 1\n0, 0, 0.5, 1\n1.9, 0, 0.45, 1.05\n4, 0, 0.5, 1\n0, 0.45, 0.5, 0.9\n2.1, 0.5, 0.55, 1.2\n"
    "4, 0.55, 0.5, 1\n0, 1, 0.5, 1\n2, 1, 0.5, 0.85\n4, 1, 0.5, 1\n0, 0, 1, 1\n2, 0, 1, 1.1\n4, 0, 1, 1\n"
    "0, 0.5, 1, 0.95\n2, 0.5, 1, 1\n4, 0.5, 1, 1.05\n0, 1, 1, 1\n2, 1, 1, 0.9\n4, 1, 1, 1\n"
    "*MATERIAL, NAME=M\n*HYPERELASTIC, NEO HOOKE\n192.3, 0.0024\n*SOLID SECTION, ELSET=S, MATERIAL=M\n\n"
    "*STEP, NLGEOM=YES\n*STATIC\n0.25, 1\n*BOUNDARY\nP-U0, 1, 3\nP-U1, 1, 1, 0.3\nP-U1, 3, 3, 0.8\n"
    "*OUTPUT, FIELD\n*NODE OUTPUT\nU\n*END STEP\n";

TEST(GpuStatic, NurbsSolidMatchesTheCpu) {
  NEED_GPU();
  Capture cpu, gpu;
  const RunSummary a = run_deck(kNurbsShear, cpu, LinearSolverKind::Ldlt, BackendKind::Cpu);
  const RunSummary b = run_deck(kNurbsShear, gpu, LinearSolverKind::Auto, BackendKind::Cuda);
  EXPECT_EQ(b.statics.engine.rfind("CUDA", 0), 0u) << b.statics.engine;
  EXPECT_EQ(a.statics.iterations, b.statics.iterations);
  const FieldArray* ua = last_field(cpu).fields.find_point("U");
  const FieldArray* ub = last_field(gpu).fields.find_point("U");
  ASSERT_TRUE(ua && ub);
  double scale = 0, diff = 0;
  max_difference(*ua, *ub, scale, diff);
  EXPECT_GT(scale, 0.5);
  EXPECT_LT(diff, 1e-9 * scale);
}

TEST(GpuStatic, StaticThenExplicitOnTheGpu) {
  NEED_GPU();
  const std::string steps =
      "*STEP\n*STATIC\n%LOADS%*OUTPUT, FIELD\n*NODE OUTPUT\nU\n*END STEP\n"
      "*STEP\n*DYNAMIC, EXPLICIT\n, 2e-3\n*OUTPUT, FIELD\n*NODE OUTPUT\nU\n*END STEP\n";
  Capture gpu;
  run_deck(static_cantilever(20, 2, 1e5, steps), gpu, LinearSolverKind::Auto, BackendKind::Cuda);
  const int node = 1 + 20 + 21;
  double static_tip = 0;
  for (const ResultFrame& f : gpu.frames)
    if (f.field && f.time == 1.0) static_tip = u_of(f, node, 1);
  ASSERT_NE(static_tip, 0.0);
  EXPECT_NEAR(u_of(last_field(gpu), node, 1), static_tip, 1e-6 * std::fabs(static_tip));
}

// Explicit, static, explicit on the GPU backend: the balance restarts after the static step.
TEST(GpuStatic, ExplicitStaticExplicitKeepsTheEnergyBalance) {
  NEED_GPU();
  Capture gpu;
  const RunSummary s = run_deck(static_cantilever(20, 2, 1e5,
                                                  "*STEP\n*DYNAMIC, EXPLICIT\n, 2e-2\n%LOADS%*END STEP\n"
                                                  "*STEP\n*STATIC\n*CLOAD\nTIP, 2, 3e5\n*END STEP\n"
                                                  "*STEP\n*DYNAMIC, EXPLICIT\n, 2e-2\n*END STEP\n"),
                                gpu, LinearSolverKind::Auto, BackendKind::Cuda);
  EXPECT_EQ(s.backend, "cuda");
  EXPECT_EQ(s.statics.steps, 1);
  EXPECT_EQ(s.status, "completed");
  // As on the CPU (tests/solver/test_static_steps.cpp, measured there 1.66e-5 of the largest
  // energy): the balance restarts after the static step, whose work (~0.9 of the scale) would
  // otherwise count as drift; the energy rows of each explicit step keep their first total.
  EXPECT_LT(s.energy_error, 3.5e-5) << s.energy_error;
  for (int step : {1, 3}) expect_step_total_held(gpu, step, 3.5e-5);
}

// Shells on the GPU engine: the Sze strip rolled into a full circle (NLGEOM, rotations turned
// by every correction) and a linear step, against the CPU engine.
TEST(GpuStatic, ShellRollUpMatchesTheCpu) {
  NEED_GPU();
  Capture lin_cpu;
  run_deck(rolled_strip(8, 0.1, 1, "NO"), lin_cpu, LinearSolverKind::Ldlt, BackendKind::Cpu);
  const double w = u_of(last_field(lin_cpu), 9, 2);
  for (LinearSolverKind k : {LinearSolverKind::Auto, LinearSolverKind::GpuCg}) {
    Capture lin_gpu;
    run_deck(rolled_strip(8, 0.1, 1, "NO"), lin_gpu, k, BackendKind::Cuda);
    EXPECT_NEAR(u_of(last_field(lin_gpu), 9, 2), w, 1e-8 * std::fabs(w)) << linear_solver_name(k);
  }
  // The roll-up passes through indefinite trial tangents: Jacobi CG breaks down on them and
  // cuts back until the minimum increment, so this half needs cuDSS's LDL^T.
  if (!cudss_built()) GTEST_SKIP() << "the roll-up needs cuDSS (this build has none)";
  const double mmax = 2 * 3.14159265358979323846 * (1.2e6 * 0.001 / 12) / 12;
  Capture cpu;
  const RunSummary a = run_deck(rolled_strip(16, mmax, 10, "YES", false), cpu, LinearSolverKind::Ldlt, BackendKind::Cpu);
  for (LinearSolverKind k : {LinearSolverKind::Auto}) {  // cuDSS
    Capture gpu;
    const RunSummary b = run_deck(rolled_strip(16, mmax, 10, "YES", false), gpu, k, BackendKind::Cuda);
    EXPECT_EQ(b.statics.engine.rfind("CUDA", 0), 0u) << b.statics.engine;
    EXPECT_EQ(a.statics.increments, b.statics.increments) << linear_solver_name(k);
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(u_of(last_field(gpu), 17, c), u_of(last_field(cpu), 17, c), 1e-7 * 12) << linear_solver_name(k);
  }
}

}  // namespace
}  // namespace halfstep
#endif  // HALFSTEP_HAVE_CUDA
