// Owning wrappers of device and pinned host memory for the CUDA backend.
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "discretization/structure_state.hpp"

namespace halfstep {
namespace cuda {

/// A host array of doubles in the device's precision T (what the arrays upload).
template <class T>
std::vector<T> convert(const std::vector<double>& v) {
  return std::vector<T>(v.begin(), v.end());
}

/// Throws RunError naming the failed CUDA call.
inline void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw RunError(std::string("CUDA: ") + what + ": " + cudaGetErrorString(err));
}

/// RunError for a failed allocation, with the device's free memory.
inline RunError out_of_memory(std::size_t bytes) {
  std::size_t free_b = 0, total_b = 0;
  cudaGetLastError();
  cudaMemGetInfo(&free_b, &total_b);
  return RunError("GPU out of memory: " + std::to_string(bytes >> 20) + " MiB more requested with " +
                  std::to_string(free_b >> 20) + " MiB free of " + std::to_string(total_b >> 20) +
                  " MiB; halve the need with --precision single, split the model over more GPUs (mpirun -np N, one\n"
                  "rank per GPU), run a smaller model, or run on the CPU (--backend cpu)");
}

/// Owning device array of n values of V.
template <class V>
class DeviceArray {
 public:
  using value_type = V;  ///< the element type (restart files save arrays generically)
  DeviceArray() = default;
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { release(); }
  /// Reallocates to n values (contents undefined); n == 0 frees.
  void resize(std::size_t n) {
    if (n == size_) return;
    release();
    if (n == 0) return;
    if (cudaMalloc(&ptr_, n * sizeof(V)) != cudaSuccess) {
      ptr_ = nullptr;
      throw out_of_memory(n * sizeof(V));
    }
    size_ = n;
  }
  void release() {
    if (ptr_) cudaFree(ptr_);
    ptr_ = nullptr;
    size_ = 0;
  }
  /// Copies host data in (resizing to fit).
  void assign(const V* host, std::size_t n) {
    resize(n);
    if (n) check(cudaMemcpy(ptr_, host, n * sizeof(V), cudaMemcpyHostToDevice), "copy to device");
  }
  void assign(const std::vector<V>& host) { assign(host.data(), host.size()); }
  /// Copies the first n values out.
  void copy_to(V* host, std::size_t n) const {
    if (n) check(cudaMemcpy(host, ptr_, n * sizeof(V), cudaMemcpyDeviceToHost), "copy to host");
  }
  void zero(cudaStream_t s) {
    if (size_) check(cudaMemsetAsync(ptr_, 0, size_ * sizeof(V), s), "memset");
  }
  V* get() { return ptr_; }
  const V* get() const { return ptr_; }
  /// Pointer or null when empty (optional arrays).
  V* get_or_null() { return size_ ? ptr_ : nullptr; }
  const V* get_or_null() const { return size_ ? ptr_ : nullptr; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(V); }

 private:
  V* ptr_ = nullptr;
  std::size_t size_ = 0;
};

/// Page-locked host memory that kernels can write through its device alias (mapped).
template <class V>
class PinnedArray {
 public:
  PinnedArray() = default;
  PinnedArray(const PinnedArray&) = delete;
  PinnedArray& operator=(const PinnedArray&) = delete;
  ~PinnedArray() {
    if (ptr_) cudaFreeHost(ptr_);
  }
  void resize(std::size_t n) {
    if (n == size_) return;
    if (ptr_) cudaFreeHost(ptr_);
    ptr_ = nullptr;
    size_ = 0;
    if (n == 0) return;
    if (cudaHostAlloc(reinterpret_cast<void**>(&ptr_), n * sizeof(V), cudaHostAllocMapped) != cudaSuccess) {
      ptr_ = nullptr;
      cudaGetLastError();
      throw RunError("cannot allocate " + std::to_string((n * sizeof(V)) >> 20) +
                     " MiB of pinned host memory for output staging");
    }
    size_ = n;
  }
  /// At least n elements: grows (contents lost) but never shrinks, so output staging that
  /// alternates between large field frames and small history rows is not reallocated.
  void reserve(std::size_t n) {
    if (n > size_) resize(n);
  }
  V* host() { return ptr_; }
  /// The same memory as seen from kernels.
  V* device() {
    V* d = nullptr;
    check(cudaHostGetDevicePointer(reinterpret_cast<void**>(&d), ptr_, 0), "cudaHostGetDevicePointer");
    return d;
  }
  std::size_t size() const { return size_; }

 private:
  V* ptr_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace cuda
/// How a device array mirrors an array of the host's StructureState (the CUDA backend's one
/// array list drives upload, download and restart): not at all (a device-only array), copied
/// up from it (in) and down into it (out). sized: the device array is sized at set-up, the
/// host's must match, and nothing goes up while it is empty; otherwise it takes the host's size.
struct StateMirror {
  /// The host array it mirrors (null: none); state_array<&StructureState::a> for a member.
  std::vector<double>& (*host)(StructureState&) = nullptr;
  bool in = false, out = false, sized = true;
};

/// The accessor of StructureState's array M (StateMirror::host).
template <std::vector<double> StructureState::*M>
std::vector<double>& state_array(StructureState& st) {
  return st.*M;
}

/// The accessor of row family Mesh's element state (StateMirror::host).
template <class Mesh>
std::vector<double>& row_state(StructureState& st) {
  return st.row<Mesh>().state;
}

}  // namespace halfstep
