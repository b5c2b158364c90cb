// Benchmark (issue 12): tangent element matrices + CSR assembly per second on seed 004's
// structured CPS4 cantilever (mesh 1: 3000 x 300 = 900k elements), on the GPU (CUDA tangent
// engine, both thread mappings) against StructureOperator + assemble_csr on 1 CPU thread and
// on all threads; then the cuDSS analysis, factorization and solve times of the same tangent.
//
// Usage: tangent_bench [nx ny] [--reps R] [--no-cpu] [--no-cudss] [--cg] [--cudss-sweep]
//        tangent_bench --kinds N [--reps R]: element matrices + assembly per second of every
//        kind with a tangent (CPS4, C3D8, C3D8R, C3D4, C3D10M, S4R) on structured meshes of
//        about N elements, GPU against 1 CPU thread and all threads.
//        tangent_bench [--reps R] [--no-serial] --deck FILE: the same for the model of a deck
//        (NURBS patches, the peeling strip of examples/generate_peeling_deck.py); --no-serial
//        leaves out the one-thread run.
// Prints one line per measurement: where, element matrices/s, seconds per assembly (element
// matrices | gather), bytes of the assembled tangent per equation.
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../tests/discretization/cantilever_deck.hpp"  // the seed mesh, as the tests build it
#include "assembly/csr_assembly.hpp"
#include "backends/backend.hpp"
#include "discretization/step_loads.hpp"
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

/// A structured deck of about n elements of one kind: a block (solids), a plate (S4R) or the
/// seed's cantilever (CPS4), clamped at x = 0.
std::string kind_deck(const std::string& kind, int n) {
  std::ostringstream d;
  d.precision(12);
  if (kind == "CPS4") {
    const int nx = static_cast<int>(std::sqrt(10.0 * n)), ny = std::max(1, n / nx);
    return test::cantilever_deck(nx, ny);
  }
  const bool tet = kind == "C3D4" || kind == "C3D10M", shell = kind == "S4R";
  const int cells = tet ? std::max(1, n / 6) : n;
  const int m = shell ? static_cast<int>(std::sqrt(static_cast<double>(cells)))
                      : static_cast<int>(std::cbrt(static_cast<double>(cells)));
  const int mz = shell ? 0 : m;
  const auto id = [&](int i, int j, int k) { return 1 + i + (m + 1) * (j + (m + 1) * k); };
  d << "*NODE\n";
  for (int k = 0; k <= mz; ++k)
    for (int j = 0; j <= m; ++j)
      for (int i = 0; i <= m; ++i) d << id(i, j, k) << ", " << i << ", " << j << ", " << k << "\n";
  int next = id(m, m, mz) + 1, e = 1;
  std::vector<std::vector<int>> elems;
  for (int k = 0; k < std::max(1, mz); ++k)
    for (int j = 0; j < m; ++j)
      for (int i = 0; i < m; ++i) {
        if (shell) {
          elems.push_back({id(i, j, 0), id(i + 1, j, 0), id(i + 1, j + 1, 0), id(i, j + 1, 0)});
          continue;
        }
        const int c[8] = {id(i, j, k),         id(i + 1, j, k),         id(i + 1, j + 1, k),     id(i, j + 1, k),
                          id(i, j, k + 1),     id(i + 1, j, k + 1),     id(i + 1, j + 1, k + 1), id(i, j + 1, k + 1)};
        if (!tet) {
          elems.push_back(std::vector<int>(c, c + 8));
          continue;
        }
        // Six tetrahedra around the diagonal 0-6 (positive volume in this node order).
        const int t[6][4] = {{0, 1, 2, 6}, {0, 2, 3, 6}, {0, 3, 7, 6}, {0, 7, 4, 6}, {0, 4, 5, 6}, {0, 5, 1, 6}};
        for (const auto& q : t) elems.push_back({c[q[0]], c[q[1]], c[q[2]], c[q[3]]});
      }
  if (kind == "C3D10M") {  // midside nodes, one per edge
    std::map<std::pair<int, int>, int> mid;
    std::ostringstream extra;
    const auto coord = [&](int node, double* x) {
      const int v = node - 1;
      x[0] = v % (m + 1);
      x[1] = (v / (m + 1)) % (m + 1);
      x[2] = v / ((m + 1) * (m + 1));
    };
    for (auto& t : elems) {
      const int pairs[6][2] = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
      std::vector<int> full(t);
      for (const auto& p : pairs) {
        const std::pair<int, int> key(std::min(t[p[0]], t[p[1]]), std::max(t[p[0]], t[p[1]]));
        auto it = mid.find(key);
        if (it == mid.end()) {
          double a[3], b[3];
          coord(key.first, a);
          coord(key.second, b);
          extra << next << ", " << 0.5 * (a[0] + b[0]) << ", " << 0.5 * (a[1] + b[1]) << ", " << 0.5 * (a[2] + b[2]) << "\n";
          it = mid.emplace(key, next++).first;
        }
        full.push_back(it->second);
      }
      t = full;
    }
    d << extra.str();
  }
  d << "*ELEMENT, TYPE=" << kind << ", ELSET=ALL\n";
  for (const auto& t : elems) {
    d << e++;
    for (std::size_t a = 0; a < t.size(); ++a) d << (a == 10 ? ",\n" : ", ") << t[a];
    d << "\n";
  }
  d << "*MATERIAL, NAME=M\n*ELASTIC\n1000, 0.3\n*DENSITY\n1\n";
  d << (shell ? "*SHELL SECTION, ELSET=ALL, MATERIAL=M\n0.05\n" : "*SOLID SECTION, ELSET=ALL, MATERIAL=M\n");
  d << "*STEP\n*DYNAMIC, EXPLICIT\n, 1\n*END STEP\n";
  return d.str();
}

/// False: model_run skips the one-thread CPU run (--no-serial: models too large for it).
bool g_serial = true;

/// Element matrices + assembly of a model: GPU, 1 thread, all threads (held: the nodes at
/// x = 0, or the first step's fixed translations with from_step).
void model_run(const char* label, const Model& model, int reps, bool from_step) {
  {
    const StructureSystem sys = build_structure_system(model);
    const StructureOperator op(sys);
    const std::size_t ndn = static_cast<std::size_t>(op.dofs_per_node());
    std::vector<char> held(static_cast<std::size_t>(op.num_dofs()), 0);
    if (from_step) {
      const std::vector<StepLoads> loads = build_step_loads(model, sys);
      for (int v = 0; v < sys.num_nodes; ++v)
        for (std::size_t c = 0; c < 3; ++c)
          if (!loads.empty() && loads[0].fixed_translation[static_cast<std::size_t>(v)] & (1u << c))
            held[ndn * static_cast<std::size_t>(v) + c] = 1;
    } else {
      for (int v = 0; v < sys.num_nodes; ++v)
        if (sys.x0[static_cast<std::size_t>(v)] == 0.0)
          for (std::size_t c = 0; c < ndn; ++c) held[ndn * static_cast<std::size_t>(v) + c] = 1;
    }
    int eqs = 0;
    const std::vector<int> eq = number_equations(op, held, &eqs);
    Configuration at = op.rest();
    for (int v = 0; v < sys.num_nodes; ++v) at.u[3 * static_cast<std::size_t>(v) + 2] = 1e-3 * sys.x0[static_cast<std::size_t>(v)];
    double gpu = 0;
    (void)reps;
#if HALFSTEP_HAVE_CUDA
    std::string why;
    if (cuda_available(&why)) {
      TangentOptions opt;
      opt.solver = LinearSolverKind::GpuCg;
      std::unique_ptr<TangentEngine> base = make_cuda_tangent_engine(op, eq, eqs, opt);
      auto& engine = dynamic_cast<CudaTangentEngine&>(*base);
      engine.assemble(at);
      const TangentStats s0 = engine.stats();
      for (int r = 0; r < reps; ++r) engine.assemble(at);
      const TangentStats& s = engine.stats();
      gpu = (s.element_seconds - s0.element_seconds + s.assembly_seconds - s0.assembly_seconds) / reps;
    }
#endif
    double cpu[2] = {0, 0};
    const int threads[2] = {1, omp_get_max_threads()};
    for (int t = 0; t < 2; ++t) {
      if (t == 0 && !g_serial) {
        continue;
      }
      const StructureOperator cop(sys, threads[t]);
      const CsrAssemblyMap map = build_csr_assembly(cop, eq, eqs, true);
      std::vector<double> k;
      double best = 1e300;
      for (int r = 0; r < (t == 0 ? 1 : 2); ++r) {
        const double t0 = now();
        cop.element_matrices(at, k);
        const CsrMatrix a = assemble_csr(map, k, threads[t]);
        best = std::min(best, now() - t0);
      }
      cpu[t] = best;
    }
    const double ne = op.num_elements();
    // --no-serial: the one-thread column says so instead of printing NaN rates.
    char serial[96] = "1 thread  not run (--no-serial)";
    if (g_serial)
      std::snprintf(serial, sizeof serial, "1 thread %10.4g /s (%.4f s)", ne / cpu[0], cpu[0]);
    char ratio[48] = "not run";
    if (g_serial) std::snprintf(ratio, sizeof ratio, "%7.0fx", gpu > 0 ? cpu[0] / gpu : 0.0);
    std::printf("%-6s %9d elements %9d equations: GPU %10.4g /s (%.4f s) | %s | %2d threads "
                "%10.4g /s (%.4f s) | GPU / 1 thread %s, / %d threads %6.0fx\n",
                label, op.num_elements(), eqs, gpu > 0 ? ne / gpu : 0.0, gpu, serial, threads[1],
                ne / cpu[1], cpu[1], ratio, threads[1], gpu > 0 ? cpu[1] / gpu : 0.0);
  }
}

/// Element matrices + assembly of every kind: GPU, 1 thread, all threads.
int kinds_run(int n, int reps) {
  for (const char* kind : {"CPS4", "C3D8", "C3D8R", "C3D4", "C3D10M", "S4R"})
    model_run(kind, read_inp_string(kind_deck(kind, n), std::string("mem/") + kind + ".inp"), reps, false);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int nx = 3000, ny = 300, reps = 5;
  bool cpu = true, cudss = true, cg = false, cudss_sweep = false;
  std::vector<int> pos;
  int kinds = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--kinds") && i + 1 < argc) kinds = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--no-cpu")) cpu = false;
    else if (!std::strcmp(argv[i], "--no-cudss")) cudss = false;
    else if (!std::strcmp(argv[i], "--cg")) cg = true;
    else if (!std::strcmp(argv[i], "--cudss-sweep")) cudss_sweep = true;
    else if (!std::strcmp(argv[i], "--no-serial")) g_serial = false;
    else if (!std::strcmp(argv[i], "--deck") && i + 1 < argc) {
      // Any deck (a NURBS patch, the peeling strip): its tangent at a small deformation,
      // equations from its first step's held translations.
      const char* path = argv[++i];
      model_run(path, read_inp(path), reps, true);
      return 0;
    }
    else pos.push_back(std::atoi(argv[i]));
  }
  if (kinds > 0) return kinds_run(kinds, reps);
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
    // cuDSS's reordering settings (cudss_data_types.h): 0 REORDERING_ALG (0 default, 3 AMD,
    // 4 NESTED_DISSECTION), 14 HOST_NTHREADS, 17 ND_NLEVELS; each line below is one set-up.
    std::vector<std::vector<std::pair<int, int>>> settings = {{}};
    if (cudss_sweep) settings = {{}, {{0, 4}}, {{17, 6}}, {{17, 8}}, {{17, 12}}, {{14, 16}}};
    for (const auto& setting : settings)
    if (cudss && cudss_built()) {
      opt.cudss_settings = setting;
      std::string label;
      for (const auto& [p, v] : setting) label += " " + std::to_string(p) + "=" + std::to_string(v);
      std::printf("cuDSS settings:%s\n", label.empty() ? " defaults" : label.c_str());
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
  (void)cudss_sweep;
#endif
  if (cpu) {
    cpu_run(sys, eq, n, u, 1, 1);
    cpu_run(sys, eq, n, u, omp_get_max_threads(), std::max(1, reps / 2));
  }
  return 0;
}
