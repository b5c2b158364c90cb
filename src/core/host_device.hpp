// Marks functions shared by the CPU loop and CUDA kernels ("one physics, two backends").
#pragma once

#if defined(__CUDACC__)
#define HS_HD __host__ __device__ __forceinline__
#else
#define HS_HD inline
#endif
