// How the CUDA backend runs (scheme, kernels, block sizes, device): options only the GPU code
// and the command line read, apart from the generic backend interface (backend.hpp holds them
// as BackendOptions::gpu). Plain host code: the CPU-only build compiles it.
#pragma once

#include <string>

namespace halfstep {

/// GPU scheme of the CUDA backend (docs/performance.md compares them).
enum class GpuScheme { Auto, Colored, ElementLocal, Atomic, Gather };

/// Parses "auto", "colored", "element-local", "atomic" or "gather".
GpuScheme parse_gpu_scheme(const std::string& s);
/// The command-line name of a scheme.
std::string gpu_scheme_name(GpuScheme s);

/// How the GPU runs the FPM elements: one kernel per element (Fused), seed 003's three
/// kernels (Split), or per family the one measured faster (Auto; fpm_split_family).
enum class FpmKernels { Auto, Fused, Split };

/// Whether an FPM family runs split under k. Auto splits the FPM hexahedra in FP64 only: their
/// fused FP64 kernel spills, and split ran 1.9x (SVK) and 2.2x (J2) faster on an H100, while
/// the beams and triangles, and the hexahedra in FP32 (SVK), are faster fused
/// (docs/performance.md, "Split scheme for FPM beams and hexahedra").
inline bool fpm_split_family(FpmKernels k, bool hexahedra, bool single) {
  return k == FpmKernels::Split || (k == FpmKernels::Auto && hexahedra && !single);
}

/// How the GPU evaluates elastic MITC4 shells: one thread per element (Thread), four threads
/// per element split by Gauss point (Split; elements/mitc4_split.hpp), or Auto (shell_split).
enum class ShellKernel { Auto, Thread, Split };

/// Whether elastic MITC4 shells run split under k with the given (resolved) scheme. Auto
/// splits in the gather scheme, where four threads per element ran 14 % (FP64) and 12 %
/// (FP32) more element-steps per second at 1 M elements on an H200; in the atomic scheme
/// they gained nothing (-3 %, +0.5 %), and the colored one is not measured (docs/performance.md,
/// "Issue 21 on an H200: the split MITC4 kernel, ...", "The split kernel in the solver").
inline bool shell_split(ShellKernel k, GpuScheme scheme) {
  return k == ShellKernel::Split || (k == ShellKernel::Auto && scheme == GpuScheme::Gather);
}

/// The CUDA backend's options (BackendOptions::gpu).
struct GpuOptions {
  GpuScheme scheme = GpuScheme::Auto;     ///< GPU scheme
  bool autotune = true;                   ///< time block sizes at start-up
  int block = 128;                        ///< block size when not tuning
  bool stored_reference = false;          ///< keep Mitc4Ref per element (192 B FP64) instead of recomputing it
  FpmKernels fpm_kernels = FpmKernels::Auto;  ///< FPM elements in one kernel or seed 003's three
  ShellKernel shell_kernel = ShellKernel::Auto;  ///< elastic MITC4: one or four GPU threads per element
  /// GPU node passes as two launches, the special nodes with every feature and the rest with
  /// a lean kernel, where the model allows (false: one launch with every feature).
  bool split_node_pass = true;
  int device = -1;                        ///< GPU index (modulo the GPUs present); -1: the current one
};

}  // namespace halfstep
