// CUDA backend entry points, callable from host C++ (no CUDA headers here).
#pragma once

#include <memory>
#include <string>

#include "backends/backend.hpp"

namespace halfstep {

/// True when the CUDA runtime finds a usable device; otherwise why_not says why.
bool cuda_device_present(std::string* why_not);

/// The whole shell system resident on the GPU: element forces and node updates as kernels
/// that call the same element and integrator functions as the CPU backend. Throws RunError
/// when the device lacks the memory or a launch fails.
std::unique_ptr<Backend> make_cuda_backend(const StructureSystem& sys, const BackendOptions& opt);

}  // namespace halfstep
