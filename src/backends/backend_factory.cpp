#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "backends/backend.hpp"
#include "backends/cpu_backend.hpp"
#include "core/error.hpp"
#include "discretization/element_blocks.hpp"
#include "linear/cpu_tangent_engine.hpp"
#if HALFSTEP_HAVE_CUDA
#include "backends/cuda/cuda_backend.hpp"
#include "backends/cuda/cuda_tangent_engine.hpp"
#endif

namespace halfstep {

BackendKind parse_backend_kind(const std::string& s) {
  if (s == "auto") return BackendKind::Auto;
  if (s == "cpu") return BackendKind::Cpu;
  if (s == "cuda") return BackendKind::Cuda;
  throw std::invalid_argument("unknown backend '" + s + "' (expected auto, cpu or cuda)");
}

GpuScheme parse_gpu_scheme(const std::string& s) {
  if (s == "auto") return GpuScheme::Auto;
  if (s == "colored") return GpuScheme::Colored;
  if (s == "element-local") return GpuScheme::ElementLocal;
  if (s == "atomic") return GpuScheme::Atomic;
  if (s == "gather") return GpuScheme::Gather;
  throw std::invalid_argument("unknown GPU scheme '" + s + "' (expected auto, colored, element-local, atomic or gather)");
}

std::string gpu_scheme_name(GpuScheme s) {
  switch (s) {
    case GpuScheme::Auto: return "auto";
    case GpuScheme::Colored: return "colored";
    case GpuScheme::ElementLocal: return "element-local";
    case GpuScheme::Atomic: return "atomic";
    case GpuScheme::Gather: return "gather";
  }
  return "?";
}

bool cuda_available(std::string* why_not) {
#if HALFSTEP_HAVE_CUDA
  return cuda_device_present(why_not);
#else
  if (why_not) *why_not = "this build of halfstep has no CUDA backend (nvcc was not found at configure time)";
  return false;
#endif
}

EnergyMonitor initial_monitor(const StructureSystem& sys, const BackendOptions& opt) {
  EnergyMonitor m;
  m.tolerance = opt.energy_tolerance;
  // Energies below this are round-off: the strain energy of a strain of 64 ulp everywhere.
  // A curved shell at rest already carries such noise (directors are unit vectors to the last
  // bit), and a slowly ramped load spends its first increments below it.
  const double eps = opt.single ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon();
  // The largest floor a family of the model needs (BlockFamily::noise_ulps).
  double ulps = 64;
  for (const ElementBlock& b : element_blocks(sys)) ulps = std::max(ulps, b.family->noise_ulps);
  m.noise_energy = sys.energy_per_unit_strain * std::pow(ulps * eps, 2);
  return m;
}

std::unique_ptr<Backend> make_backend(BackendKind kind, const StructureSystem& sys, const BackendOptions& opt, bool note) {
  BackendOptions cpu_opt = opt;
  cpu_opt.single = false;
  if (kind == BackendKind::Cpu) {
    if (opt.single) throw RunError("--precision single needs the GPU (--backend cuda or auto); the CPU runs in FP64");
    return std::make_unique<CpuBackend>(sys, cpu_opt);
  }
  std::string why;
  const bool gpu = cuda_available(&why);
  if (kind == BackendKind::Cuda && !gpu) throw RunError("--backend cuda: " + why);
#if HALFSTEP_HAVE_CUDA
  if (gpu) {
    if (kind == BackendKind::Cuda) return make_cuda_backend(sys, opt);
    try {
      return make_cuda_backend(sys, opt);
    } catch (const RunError& e) {
      why = e.what();  // e.g. out of GPU memory: the CPU can still run it
    }
  }
#endif
  if (note && (gpu || opt.single))
    std::fprintf(stderr, "halfstep: no GPU used (%s); running on the CPU%s\n", why.c_str(),
                 opt.single ? " in FP64" : "");
  return std::make_unique<CpuBackend>(sys, cpu_opt);
}

std::unique_ptr<TangentEngine> make_tangent_engine(BackendKind kind, const StructureOperator& op,
                                                   const std::vector<int>& equation, int equations,
                                                   const TangentOptions& opt, bool note,
                                                   const DofCombinations* combined) {
  const bool gpu_solver = opt.solver == LinearSolverKind::Cudss || opt.solver == LinearSolverKind::GpuCg;
  if (kind == BackendKind::Cpu && gpu_solver)
    throw RunError("--linear-solver " + linear_solver_name(opt.solver) + " needs the GPU (--backend cuda or auto)");
  if (opt.solver == LinearSolverKind::Cudss) {
#if HALFSTEP_HAVE_CUDA
    const bool built = cudss_built();
#else
    const bool built = false;
#endif
    if (!built)
      throw RunError("--linear-solver cudss: this build of halfstep has no cuDSS (configure with CUDA and "
                     "-DHALFSTEP_CUDSS_ROOT=<folder with include/cudss.h and lib/libcudss.so.1>)");
  }
  std::string why;
  const bool gpu = kind != BackendKind::Cpu && cuda_available(&why);
  if ((kind == BackendKind::Cuda || gpu_solver) && !gpu) throw RunError("the static step needs the GPU: " + why);
#if HALFSTEP_HAVE_CUDA
  // The GPU assembles whenever its solver runs; a CPU solver kind keeps the whole engine on
  // the host, where its matrix lives.
  const bool cpu_solver = opt.solver != LinearSolverKind::Auto && !gpu_solver;
  if (gpu && !cpu_solver) {
    if (kind == BackendKind::Cuda || gpu_solver) return make_cuda_tangent_engine(op, equation, equations, opt, combined);
    try {
      return make_cuda_tangent_engine(op, equation, equations, opt, combined);
    } catch (const RunError& e) {
      why = e.what();  // e.g. out of GPU memory: the CPU can still run it
      if (note) std::fprintf(stderr, "halfstep: static step on the CPU (%s)\n", why.c_str());
    }
  }
#else
  (void)note;
#endif
  return make_cpu_tangent_engine(op, equation, equations, opt, combined);
}

}  // namespace halfstep
