#include <stdexcept>

#include "backends/backend.hpp"
#include "backends/cpu_backend.hpp"
#include "core/error.hpp"
#if HALFSTEP_HAVE_CUDA
#include "backends/cuda/cuda_backend.hpp"
#endif

namespace halfstep {

void FullStepFields::resize(int nn) {
  for (auto& a : v) a.assign(nn, 0.0);
  for (auto& a : rf) a.assign(nn, 0.0);
}

BackendKind parse_backend_kind(const std::string& s) {
  if (s == "auto") return BackendKind::Auto;
  if (s == "cpu") return BackendKind::Cpu;
  if (s == "cuda") return BackendKind::Cuda;
  throw std::invalid_argument("unknown backend '" + s + "' (expected auto, cpu or cuda)");
}

bool cuda_available(std::string* why_not) {
#if HALFSTEP_HAVE_CUDA
  return cuda_device_present(why_not);
#else
  if (why_not) *why_not = "this build of halfstep has no CUDA backend (nvcc was not found at configure time)";
  return false;
#endif
}

std::unique_ptr<Backend> make_backend(BackendKind kind, const ShellSystem& sys, int threads) {
  if (kind == BackendKind::Cpu) return std::make_unique<CpuBackend>(sys, threads);
  std::string why;
  const bool gpu = cuda_available(&why);
  if (kind == BackendKind::Cuda && !gpu) throw RunError("--backend cuda: " + why);
#if HALFSTEP_HAVE_CUDA
  if (gpu) return make_cuda_backend(sys);
#endif
  return std::make_unique<CpuBackend>(sys, threads);
}

}  // namespace halfstep
