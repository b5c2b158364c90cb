// cuDSS's status codes as readable errors, for the CUDA tangent engine (included by
// cuda_tangent_engine.cu alone, after cudss.h when the build has cuDSS).
#pragma once

#include <string>

#include "core/error.hpp"

namespace halfstep {
namespace {

#if HALFSTEP_HAVE_CUDSS
/// Readable name of a cuDSS status.
std::string cudss_status_name(cudssStatus_t s) {
  switch (s) {
    case CUDSS_STATUS_SUCCESS: return "success";
    case CUDSS_STATUS_NOT_INITIALIZED: return "not initialized";
    case CUDSS_STATUS_ALLOC_FAILED: return "allocation failed";
    case CUDSS_STATUS_INVALID_VALUE: return "invalid value";
    case CUDSS_STATUS_NOT_SUPPORTED: return "not supported";
    case CUDSS_STATUS_EXECUTION_FAILED: return "execution failed";
    case CUDSS_STATUS_INTERNAL_ERROR: return "internal error";
    default: return "status " + std::to_string(static_cast<int>(s));
  }
}

/// Throws RunError naming the failed cuDSS call.
void check_dss(cudssStatus_t s, const char* what) {
  if (s != CUDSS_STATUS_SUCCESS) throw RunError(std::string("cuDSS: ") + what + ": " + cudss_status_name(s));
}
#endif

}  // namespace
}  // namespace halfstep
