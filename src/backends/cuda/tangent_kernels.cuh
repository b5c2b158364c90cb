// The CUDA tangent engine's device bodies that name no element family: the continuum
// groups' element matrices and small-displacement forces by dual numbers, their internal
// forces, the CSR gather (and the scatter into a pattern grown by coupling blocks), and the
// Krylov solver's vector kernels and error checks. Included
// by cuda_tangent_engine.cu alone (the anonymous namespace keeps them its own, as they were).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusparse.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/cuda/device_memory.cuh"
#include "core/dual.hpp"
#include "core/error.hpp"
#include "discretization/continuum_element.hpp"
#include "discretization/element_force_sums.hpp"
#include "discretization/tangent_state.hpp"
#include "elements/registry.hpp"
#include "materials/material_tangent.hpp"

namespace halfstep {
namespace {

using D = Dual<double>;

/// Element matrices of one group, the device twin of ContinuumOperator::element_matrices:
/// column j of K_e is the derivative of the kind's own internal_force along dof j (one dual
/// evaluation). Thread t works on element t / parts, columns [part * cols, (part + 1) * cols)
/// of the element's evaluated columns; planar kinds evaluate x and y only (their z rows and
/// columns are zero, left as cleared at construction). kStateful: laws with state are
/// differentiated through their update from the converged state (a separate instantiation,
/// so the elastic kernels keep their registers and stack).
template <class K, bool kStateful = false>
struct MatrixBody {
  const int* conn;
  const int* material;
  const SolidMaterial<D>* materials;
  double kappa;
  const double *x0, *y0, *z0;
  const double* u;  ///< 3 per node, node-major
  double* k;        ///< the group's first matrix
  int first, conn_offset, parts, cols;
  const double* edata;          ///< SolidMesh::element_data (null: no kind has any)
  const std::size_t* edata_ptr;
  const double* thermal;        ///< per element: its temperature change (null: none)
  const double* state_old = nullptr;  ///< kStateful: the converged per-point state store
  std::size_t num_points = 0;         ///< its stride (SolidMesh::num_points)
  std::size_t first_point = 0;        ///< the group's first point
  int state_size = 0;                 ///< its components (at most kMaxPointState)
  __device__ void operator()(int t) const {
    constexpr int comps = K::kDimension == 2 ? 2 : 3;
    constexpr int nd = 3 * K::kNodes;
    constexpr int evaluated = comps * K::kNodes;
    const int i = t / parts, part = t - i * parts;
    const int* c = conn + conn_offset + static_cast<std::size_t>(i) * K::kNodes;
    Vec3<D> X[K::kNodes], uj[K::kNodes], f[K::kNodes];
    for (int a = 0; a < K::kNodes; ++a) {
      const int n = c[a];
      X[a] = {D(x0[n]), D(y0[n]), D(z0[n])};
    }
    // Read in place: a private copy of the dual material costs registers the element needs.
    const SolidMaterial<D>& m = materials[material[first + i]];
    double* ke = k + static_cast<std::size_t>(i) * nd * nd;
    const int end = min((part + 1) * cols, evaluated);
    ElementState<D> est{nullptr, nullptr, 0, 0, edata ? edata + edata_ptr[first + i] : nullptr,
                        D(thermal ? thermal[first + i] : 0.0)};
    [[maybe_unused]] D old[kStateful ? state_capacity<K>() : 1];
    if constexpr (kStateful) {
      dual_point_state<K>(state_old, num_points, first_point + static_cast<std::size_t>(i) * K::kPoints, state_size, old);
      est.old = old;
      est.stride = K::kPoints;
    }
    for (int q = part * cols; q < end; ++q) {
      const int a = q / comps, r = q - a * comps, j = 3 * a + r;
      // The seed is chosen by comparisons in an unrolled loop rather than by indexing uj with
      // the run-time a, which would put uj in local memory.
#pragma unroll
      for (int b = 0; b < K::kNodes; ++b) {
        const std::size_t n = 3 * static_cast<std::size_t>(c[b]);
        uj[b] = {D(u[n], b == a && r == 0 ? 1.0 : 0.0), D(u[n + 1], b == a && r == 1 ? 1.0 : 0.0),
                 D(u[n + 2], b == a && r == 2 ? 1.0 : 0.0)};
      }
      K::internal_force(X, uj, m, D(kappa), f, est);
#pragma unroll
      for (int b = 0; b < K::kNodes; ++b) {
        ke[(3 * b) * nd + j] = f[b].x.d;
        ke[(3 * b + 1) * nd + j] = f[b].y.d;
        if (comps == 3) ke[(3 * b + 2) * nd + j] = f[b].z.d;
      }
    }
  }
};

/// CSR entry e sums its element-matrix contributions in the gather list's order (the host
/// assembly's order, so both give the same bits).
template <class I>
struct GatherBody {
  const I* ptr;
  const I* source;
  const double* k;
  double* val;
  const double* weight;  ///< per source (CsrAssemblyMap::weight); null: all 1
  __device__ void operator()(int e) const {
    double s = 0;
    if (weight)
      for (I p = ptr[e]; p < ptr[e + 1]; ++p) s += weight[p] * k[source[p]];
    else
      for (I p = ptr[e]; p < ptr[e + 1]; ++p) s += k[source[p]];
    val[e] = s;
  }
};

/// Node-major displacements into the per-component arrays continuum_element reads.
struct SplitBody {
  const double* u;
  double *ux, *uy, *uz;
  __device__ void operator()(int n) const {
    ux[n] = u[3 * static_cast<std::size_t>(n)];
    uy[n] = u[3 * static_cast<std::size_t>(n) + 1];
    uz[n] = u[3 * static_cast<std::size_t>(n) + 2];
  }
};

/// The continuum pass body (the same continuum_element the host pass and the explicit
/// kernels run) into the per-slot force buffer.
template <class K>
struct ForceBody {
  ContinuumView<double> v;
  const double *ux, *uy, *uz;
  double* slot_force;
  int first, conn_offset;
  std::size_t first_point;  ///< the group's first integration point (laws with state)
  __device__ void operator()(int i) const {
    SlotSink<double> sink{slot_force};
    continuum_element<K>(v, ux, uy, uz, first + i, conn_offset + i * K::kNodes, sink,
                         first_point + static_cast<std::size_t>(i) * K::kPoints);
  }
};

/// The small-displacement forces K(0) u of one group into the slot buffer: the derivative of
/// the kind's internal_force at zero along u (one dual evaluation per element), the device
/// twin of ContinuumOperator::linearized_force.
template <class K>
struct LinearForceBody {
  const int* conn;
  const int* material;
  const SolidMaterial<D>* materials;
  double kappa;
  const double *x0, *y0, *z0;
  const double* u;  ///< stride values per node, node-major (translations first)
  int stride;
  double* slot_force;
  int first, conn_offset;
  const double* edata;          ///< SolidMesh::element_data (null: no kind has any)
  const std::size_t* edata_ptr;
  const double* thermal;        ///< per element: its temperature change, in the derivative (null: none)
  __device__ void operator()(int i) const {
    const std::size_t base = static_cast<std::size_t>(conn_offset) + static_cast<std::size_t>(i) * K::kNodes;
    const int* c = conn + base;
    Vec3<D> X[K::kNodes], du[K::kNodes], f[K::kNodes];
    for (int a = 0; a < K::kNodes; ++a) {
      const std::size_t n = static_cast<std::size_t>(c[a]), s = static_cast<std::size_t>(stride) * n;
      X[a] = {D(x0[n]), D(y0[n]), D(z0[n])};
      du[a] = {D(0.0, u[s]), D(0.0, u[s + 1]), D(0.0, u[s + 2])};
    }
    K::internal_force(X, du, materials[material[first + i]], D(kappa), f,
                      ElementState<D>{nullptr, nullptr, 0, 0, edata ? edata + edata_ptr[first + i] : nullptr,
                                      D(0.0, thermal ? thermal[first + i] : 0.0)});
    for (int a = 0; a < K::kNodes; ++a) {
      slot_force[3 * (base + a)] = f[a].x.d;
      slot_force[3 * (base + a) + 1] = f[a].y.d;
      slot_force[3 * (base + a) + 2] = f[a].z.d;
    }
  }
};

constexpr int kSumBlock = 256, kSumPerThread = 16;

/// Per-block sums of a[i] + b[i] in a fixed order (deterministic; the host adds the blocks).
__global__ void block_sums(const double* a, const double* b, int n, double* out) {
  __shared__ double s[kSumBlock];
  const long base = static_cast<long>(blockIdx.x) * kSumBlock * kSumPerThread;
  double t = 0;
  for (int j = 0; j < kSumPerThread; ++j) {
    const long i = base + threadIdx.x + static_cast<long>(j) * kSumBlock;
    if (i < n) t += a[i] + b[i];
  }
  s[threadIdx.x] = t;
  __syncthreads();
  for (int w = kSumBlock / 2; w > 0; w /= 2) {
    if (static_cast<int>(threadIdx.x) < w) s[threadIdx.x] += s[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

/// Per-block sums of |a[i]| in a fixed order (deterministic; the host adds the blocks).
__global__ void abs_block_sums(const double* a, long n, double* out) {
  __shared__ double s[kSumBlock];
  const long base = static_cast<long>(blockIdx.x) * kSumBlock * kSumPerThread;
  double t = 0;
  for (int j = 0; j < kSumPerThread; ++j) {
    const long i = base + threadIdx.x + static_cast<long>(j) * kSumBlock;
    if (i < n) t += fabs(a[i]);
  }
  s[threadIdx.x] = t;
  __syncthreads();
  for (int w = kSumBlock / 2; w > 0; w /= 2) {
    if (static_cast<int>(threadIdx.x) < w) s[threadIdx.x] += s[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

/// Adds the magnitudes of n device values a to sums: abs_block_sums' block sums (partial:
/// their device scratch), added on the host in block order. Synchronizes the stream.
inline void add_abs_sums(cudaStream_t stream, cuda::DeviceArray<double>& partial, const double* a, std::size_t n,
                         ElementForceSums& sums) {
  if (n == 0) return;
  const std::size_t blocks = (n + kSumBlock * kSumPerThread - 1) / (kSumBlock * kSumPerThread);
  if (partial.size() < blocks) partial.resize(blocks);
  abs_block_sums<<<static_cast<unsigned>(blocks), kSumBlock, 0, stream>>>(a, static_cast<long>(n), partial.get());
  cuda::check(cudaGetLastError(), "force magnitude launch");
  std::vector<double> part(blocks);
  cuda::check(cudaMemcpyAsync(part.data(), partial.get(), part.size() * sizeof(double), cudaMemcpyDeviceToHost, stream),
              "copy force magnitudes");
  cuda::check(cudaStreamSynchronize(stream), "force magnitudes");
  double t = 0;
  for (double b : part) t += b;
  sums.add_sum(t, static_cast<std::int64_t>(n));
}

/// Jacobi preconditioner from the full-storage CSR diagonal; bad gets the smallest row
/// whose diagonal is not positive.
struct DiagonalBody {
  const int *row_ptr, *col;
  const double* val;
  double* inv;
  int* bad;
  __device__ void operator()(int r) const {
    double d = 0;
    for (int p = row_ptr[r]; p < row_ptr[r + 1]; ++p)
      if (col[p] == r) d = val[p];
    if (d > 0) {
      inv[r] = 1.0 / d;
    } else {
      inv[r] = 0.0;
      atomicMin(bad, r);
    }
  }
};

/// z = inv .* r.
struct ScaleBody {
  const double *inv, *r;
  double* z;
  __device__ void operator()(int i) const { z[i] = inv[i] * r[i]; }
};

/// p = z + beta p.
struct XpbyBody {
  const double* z;
  double beta;
  double* p;
  __device__ void operator()(int i) const { p[i] = z[i] + beta * p[i]; }
};

/// Throws RunError naming the failed cuSPARSE call.
void check_sparse(cusparseStatus_t s, const char* what) {
  if (s != CUSPARSE_STATUS_SUCCESS) throw RunError(std::string("cuSPARSE: ") + what + ": " + cusparseGetErrorString(s));
}

/// Throws RunError naming the failed cuBLAS call.
void check_blas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw RunError(std::string("cuBLAS: ") + what + " failed (status " + std::to_string(s) + ")");
}

/// Adds shift[r] to row r's diagonal entry (at diag[r], -1: none) of the assembled values.
struct DiagonalShiftBody {
  const int* diag;
  const double* shift;
  double* val;
  __device__ void operator()(int r) const {
    if (diag[r] >= 0) val[diag[r]] += shift[r];
  }
};

/// to[pos[k]] = from[k]: the element gather's values into the pattern coupling blocks grew.
struct ScatterBody {
  const int* pos;
  const double* from;
  double* to;
  __device__ void operator()(int k) const { to[pos[k]] = from[k]; }
};

/// to[pos[i]] += v[i] (positions distinct: the coupling blocks' per-entry sums).
struct AddAtBody {
  const int* pos;
  const double* v;
  double* to;
  __device__ void operator()(int i) const { to[pos[i]] += v[i]; }
};

}  // namespace
}  // namespace halfstep
