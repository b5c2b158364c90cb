// Command-line names of the linear solvers (--linear-solver).
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include <stdexcept>
#include <string>

#include "linear/tangent_engine.hpp"

namespace halfstep {

LinearSolverKind parse_linear_solver(const std::string& s) {
  if (s == "auto") return LinearSolverKind::Auto;
  if (s == "cholmod") return LinearSolverKind::Cholmod;
  if (s == "ldlt") return LinearSolverKind::Ldlt;
  if (s == "cg") return LinearSolverKind::Cg;
  if (s == "cudss") return LinearSolverKind::Cudss;
  if (s == "gpu-cg") return LinearSolverKind::GpuCg;
  throw std::invalid_argument("unknown linear solver '" + s + "' (expected auto, cholmod, ldlt, cg, cudss or gpu-cg)");
}

std::string linear_solver_name(LinearSolverKind k) {
  switch (k) {
    case LinearSolverKind::Auto: return "auto";
    case LinearSolverKind::Cholmod: return "cholmod";
    case LinearSolverKind::Ldlt: return "ldlt";
    case LinearSolverKind::Cg: return "cg";
    case LinearSolverKind::Cudss: return "cudss";
    case LinearSolverKind::GpuCg: return "gpu-cg";
  }
  return "?";
}

std::string blas_library() {
  // Looked up at run time: the library behind libblas.so.3 is Debian's alternatives' choice,
  // not the build's. The one that provides dgemm is the one CHOLMOD calls (another may be
  // loaded beside it, e.g. OpenBLAS as liblapack.so.3 beside the reference libblas.so.3).
  void* gemm = dlsym(RTLD_DEFAULT, "dgemm_");
  Dl_info info{};
  if (!gemm || !dladdr(gemm, &info) || !info.dli_fname) return "unknown (no dgemm_ loaded)";
  char real[4096];
  const std::string path = realpath(info.dli_fname, real) ? real : info.dli_fname;
  using Text = char* (*)();
  const auto config = reinterpret_cast<Text>(dlsym(RTLD_DEFAULT, "openblas_get_config"));
  if (path.find("openblas") == std::string::npos || !config) return path + " (not an optimized BLAS)";
  std::string name = config();  // "OpenBLAS 0.3.21 ..."
  const auto core = reinterpret_cast<Text>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  if (core) name += std::string(" (core ") + core() + ")";
  return name;
}

}  // namespace halfstep
