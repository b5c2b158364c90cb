// The loop primitive on the GPU: cuda::forall runs a host/device functor over an index range
// as a grid, one thread per index, the CUDA twin of core/forall.hpp. The same functor type
// serves the CPU backend's OpenMP loop.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace halfstep {
namespace cuda {

/// Blocks of `block` threads for n threads (the backend's launches and its passes' share it).
inline int blocks(std::size_t n, int block) { return static_cast<int>((n + block - 1) / block); }

/// One thread per index of [begin, end).
template <class Body>
__global__ void forall_kernel(int begin, int end, Body body) {
  const int i = begin + static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < end) body(i);
}

/// Launches body(i) for i in [begin, end) on stream with blocks of `block` threads.
template <class Body>
void forall(int begin, int end, int block, cudaStream_t stream, const Body& body) {
  if (end <= begin) return;
  const int n = end - begin;
  forall_kernel<<<(n + block - 1) / block, block, 0, stream>>>(begin, end, body);
}

}  // namespace cuda
}  // namespace halfstep
