// Benchmark (issue 12): tangent element matrices + CSR assembly per second on seed 004's
// structured CPS4 cantilever (mesh 1: 3000 x 300 = 900k elements), on the GPU (CUDA tangent
// engine, both thread mappings) against StructureOperator + assemble_csr on 1 CPU thread and
// on all threads; then the cuDSS analysis, factorization and solve times of the same tangent.
//
// Usage: tangent_bench [nx ny] [--reps R] [--no-cpu] [--no-cudss] [--cg]
// Prints one line per measurement: where, element matrices/s, seconds per assembly (element
// matrices | gather), bytes of the assembled tangent per equation.
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "../tests/discretization/cantilever_deck.hpp"  // the seed mesh, as the tests build it
#include "assembly/csr_assembly.hpp"
#include "backends/backend.hpp"
#include "io/inp_reader.hpp"
#if HALFSTEP_HAVE_CUDA
#include "backends/cuda/cuda_tangent_engine.hpp"
#endif

using namespace halfstep;

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

/// A smooth displacement field (the tangent at a deformed state, not at rest).
std::vector<double> field(const StructureSystem& sys) {
  std::vector<double> u(3 * static_cast<std::size_t>(sys.num_nodes), 0.0);
  for (int n = 0; n < sys.num_nodes; ++n) {
    u[3 * n] = 1e-4 * std::sin(0.3 * sys.x0[n] + sys.y0[n]);
    u[3 * n + 1] = 1e-3 * sys.x0[n] * sys.x0[n] / 100;
  }
  return u;
}

/// Host element matrices + assembly on `threads` threads; best of reps.
void cpu_run(const StructureSystem& sys, const std::vector<int>& eq, int n, const std::vector<double>& u, int threads,
             int reps) {
  const StructureOperator op(sys, threads);
  const CsrAssemblyMap map = build_csr_assembly(op, eq, n, true);
  Configuration c;
  c.u = u;
  std::vector<double> k;
  double best_e = 1e300, best_a = 1e300;
  CsrMatrix a;
  for (int r = 0; r < reps; ++r) {
    const double t0 = now();
    op.element_matrices(c, k);
    const double t1 = now();
    a = assemble_csr(map, k, threads);
    const double t2 = now();
    best_e = std::min(best_e, t1 - t0);
    best_a = std::min(best_a, t2 - t1);
  }
  const double bytes = 8.0 * k.size() + 8.0 * (map.source.size() + map.source_ptr.size()) + 12.0 * a.val.size() +
                       8.0 * a.row_ptr.size();
  std::printf("CPU %3d thread(s)          : %10.4g element matrices/s  %.4f s (elements %.4f | assembly %.4f)  %.0f bytes/equation\n",
              threads, op.num_elements() / (best_e + best_a), best_e + best_a, best_e, best_a, bytes / n);
}

}  // namespace

int main(int argc, char** argv) {
  int nx = 3000, ny = 300, reps = 5;
  bool cpu = true, cudss = true, cg = false;
  std::vector<int> pos;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--no-cpu")) cpu = false;
    else if (!std::strcmp(argv[i], "--no-cudss")) cudss = false;
    else if (!std::strcmp(argv[i], "--cg")) cg = true;
    else pos.push_back(std::atoi(argv[i]));
  }
  if (pos.size() >= 2) nx = pos[0], ny = pos[1];
  double t0 = now();
  const Model model = read_inp_string(test::cantilever_deck(nx, ny), "mem/cantilever.inp");
  const StructureSystem sys = build_structure_system(model);
  const StructureOperator op(sys);
  std::vector<char> held(3 * static_cast<std::size_t>(sys.num_nodes), 0);
  for (int j = 0; j <= ny; ++j)
    for (int c = 0; c < 3; ++c) held[3 * static_cast<std::size_t>(j * (nx + 1)) + c] = 1;
  int n = 0;
  const std::vector<int> eq = number_equations(op, held, &n);
  const std::vector<double> u = field(sys);
  Configuration at;
  at.u = u;
  std::printf("cantilever %d x %d CPS4: %d elements, %d equations (model built in %.1f s)\n", nx, ny,
              op.num_elements(), n, now() - t0);

#if HALFSTEP_HAVE_CUDA
  std::string why;
  if (cuda_available(&why)) {
    TangentOptions opt;
    opt.solver = LinearSolverKind::GpuCg;
    t0 = now();
    std::unique_ptr<TangentEngine> base = make_cuda_tangent_engine(op, eq, n, opt);
    auto& engine = dynamic_cast<CudaTangentEngine&>(*base);
    std::printf("%s (set-up %.2f s)\n", engine.description().c_str(), now() - t0);
    for (int block : {128, 256, 64}) {  // the column mapping's block size (64 is the default)
      engine.set_element_mapping(ElementMapping::Column);
      engine.set_matrix_block(block);
      engine.assemble(at);
      const TangentStats s0 = engine.stats();
      for (int r = 0; r < reps; ++r) engine.assemble(at);
      const double te = (engine.stats().element_seconds - s0.element_seconds) / reps;
      std::printf("GPU thread per column, %3d threads per block: %10.4g element matrices/s (elements %.5f s)\n", block,
                  op.num_elements() / te, te);
    }
    for (ElementMapping m : {ElementMapping::Column, ElementMapping::Element}) {
      engine.set_element_mapping(m);
      engine.assemble(at);  // warm-up
      const TangentStats s0 = engine.stats();
      const double w0 = now();
      for (int r = 0; r < reps; ++r) engine.assemble(at);
      const double wall = (now() - w0) / reps;
      const TangentStats& s = engine.stats();
      const double te = (s.element_seconds - s0.element_seconds) / reps, ta = (s.assembly_seconds - s0.assembly_seconds) / reps;
      std::printf("GPU %-22s: %10.4g element matrices/s  %.5f s (elements %.5f | assembly %.5f; wall with the u copy %.5f)  %.0f bytes/equation (full storage)\n",
                  m == ElementMapping::Column ? "thread per column" : "thread per element", op.num_elements() / (te + ta),
                  te + ta, te, ta, wall, s.matrix_bytes / n);
    }
    if (cg) {
      engine.assemble_and_factor(at);
      std::vector<double> b(static_cast<std::size_t>(n), 0.0), x;
      for (int j = 0; j <= ny; ++j) b[eq[3 * static_cast<std::size_t>(nx + j * (nx + 1)) + 1]] = 1e5 / (ny + 1);
      try {
        engine.solve(b, x);
        std::printf("GPU CG: %lld iterations in %.3f s\n", static_cast<long long>(engine.stats().iterations),
                    engine.stats().solve_seconds);
      } catch (const std::exception& e) {
        std::printf("GPU CG: %s (%.3f s)\n", e.what(), engine.stats().solve_seconds);
      }
    }
    base.reset();
    if (cudss && cudss_built()) {
      try {
        opt.solver = LinearSolverKind::Cudss;
        t0 = now();
        std::unique_ptr<TangentEngine> d = make_cuda_tangent_engine(op, eq, n, opt);
        const double setup = now() - t0;
        d->assemble_and_factor(at);
        const double f1 = d->stats().factor_seconds;
        d->assemble_and_factor(at);
        const double f2 = d->stats().factor_seconds - f1;
        std::vector<double> b(static_cast<std::size_t>(n), 0.0), x;
        for (int j = 0; j <= ny; ++j) b[eq[3 * static_cast<std::size_t>(nx + j * (nx + 1)) + 1]] = 1e5 / (ny + 1);
        d->solve(b, x);
        std::printf("%s\n", d->description().c_str());
        std::printf("cuDSS: analysis %.3f s (set-up with it %.3f s), factorization %.3f s, refactorization %.3f s, "
                    "solve %.4f s, factor %.3g bytes (%.0f bytes/equation), upper CSR %lld entries\n",
                    d->stats().analyze_seconds, setup, f1, f2, d->stats().solve_seconds, d->stats().solver_bytes,
                    d->stats().solver_bytes / n, static_cast<long long>(d->stats().nonzeros));
      } catch (const std::exception& e) {
        std::printf("cuDSS: %s\n", e.what());
      }
    }
  } else {
    std::printf("no GPU: %s\n", why.c_str());
  }
#else
  (void)cudss;
  (void)cg;
#endif
  if (cpu) {
    cpu_run(sys, eq, n, u, 1, 1);
    cpu_run(sys, eq, n, u, omp_get_max_threads(), std::max(1, reps / 2));
  }
  return 0;
}
