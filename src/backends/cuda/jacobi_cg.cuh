// Jacobi-preconditioned conjugate gradients on a device CSR matrix (cuSPARSE SpMV, cuBLAS
// dots and axpys): the CUDA tangent engine's iterative solver (--linear-solver gpu-cg).
// Included by cuda_tangent_engine.cu alone (the anonymous namespace keeps it its own).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "backends/cuda/device_memory.cuh"
#include "backends/cuda/forall.cuh"
#include "backends/cuda/tangent_kernels.cuh"
#include "core/error.hpp"
#include "linear/tangent_engine.hpp"

namespace halfstep {
namespace {

/// CG on one device matrix: its handles, descriptors and work vectors.
class JacobiCg {
 public:
  JacobiCg() = default;
  JacobiCg(const JacobiCg&) = delete;
  JacobiCg& operator=(const JacobiCg&) = delete;
  ~JacobiCg() {
    if (spmat_) cusparseDestroySpMat(spmat_);
    if (vec_p_) cusparseDestroyDnVec(vec_p_);
    if (vec_ap_) cusparseDestroyDnVec(vec_ap_);
    if (sparse_) cusparseDestroy(sparse_);
    if (blas_) cublasDestroy(blas_);
  }

  /// cuSPARSE and cuBLAS handles on stream and the work vectors of n equations.
  void setup(cudaStream_t stream, int n) {
    stream_ = stream;
    n_ = n;
    check_sparse(cusparseCreate(&sparse_), "cusparseCreate");
    check_sparse(cusparseSetStream(sparse_, stream_), "cusparseSetStream");
    check_blas(cublasCreate(&blas_), "cublasCreate");
    check_blas(cublasSetStream(blas_, stream_), "cublasSetStream");
    const std::size_t m = static_cast<std::size_t>(n_);
    inv_diag_.resize(m);
    r_.resize(m);
    z_.resize(m);
    p_.resize(m);
    ap_.resize(m);
    bad_.resize(1);
    check_sparse(cusparseCreateDnVec(&vec_p_, n_, p_.get(), CUDA_R_64F), "cusparseCreateDnVec");
    check_sparse(cusparseCreateDnVec(&vec_ap_, n_, ap_.get(), CUDA_R_64F), "cusparseCreateDnVec");
  }

  /// The matrix (full storage, device arrays): again whenever they move or the pattern grows.
  void bind(const int* row_ptr, const int* col, double* val, std::int64_t nnz) {
    row_ptr_ = row_ptr;
    col_ = col;
    val_ = val;
    if (spmat_) cusparseDestroySpMat(spmat_);
    spmat_ = nullptr;
    check_sparse(cusparseCreateCsr(&spmat_, n_, n_, nnz, const_cast<int*>(row_ptr), const_cast<int*>(col), val,
                                         CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
                       "cusparseCreateCsr");
    const double one = 1.0, zero = 0.0;
    std::size_t bytes = 0;
    check_sparse(cusparseSpMV_bufferSize(sparse_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, spmat_, vec_p_, &zero,
                                               vec_ap_, CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG1, &bytes),
                       "cusparseSpMV_bufferSize");
    spmv_buffer_.resize(std::max<std::size_t>(bytes, 1));
  }

  /// Bytes of the work vectors and the SpMV buffer.
  double bytes() const {
    return static_cast<double>(inv_diag_.bytes() + r_.bytes() + z_.bytes() + p_.bytes() + ap_.bytes() +
                               spmv_buffer_.bytes());
  }

  /// The inverse diagonal of the bound matrix (the Jacobi preconditioner); SingularStiffness
  /// at the first row whose diagonal is not positive.
  void precondition() {
    const int big = INT_MAX;
    cuda::check(cudaMemcpyAsync(bad_.get(), &big, sizeof(int), cudaMemcpyHostToDevice, stream_), "reset flag");
    cuda::forall(0, n_, 256, stream_, DiagonalBody{row_ptr_, col_, val_, inv_diag_.get(), bad_.get()});
    int bad = big;
    cuda::check(cudaMemcpyAsync(&bad, bad_.get(), sizeof(int), cudaMemcpyDeviceToHost, stream_), "copy flag");
    cuda::check(cudaStreamSynchronize(stream_), "Jacobi preconditioner");
    if (bad != big)
      throw SingularStiffness(bad, "the tangent has a non-positive diagonal at equation " + std::to_string(bad));
  }

  /// x = A^-1 b (device vectors of n) from x = 0, to tol of |b| within cap iterations;
  /// returns the iterations. RunError when A is not positive definite or CG does not converge.
  long long solve(const double* b, double* x, double tol, long long cap) {
    const std::size_t vec = static_cast<std::size_t>(n_) * sizeof(double);
    cuda::check(cudaMemsetAsync(x, 0, vec, stream_), "memset");
    cuda::check(cudaMemcpyAsync(r_.get(), b, vec, cudaMemcpyDeviceToDevice, stream_), "copy");
    const double bnorm = std::sqrt(dot(b, b));
    if (bnorm == 0) return 0;
    cuda::forall(0, n_, 256, stream_, ScaleBody{inv_diag_.get(), r_.get(), z_.get()});
    cuda::check(cudaMemcpyAsync(p_.get(), z_.get(), z_.bytes(), cudaMemcpyDeviceToDevice, stream_), "copy");
    double rz = dot(r_.get(), z_.get()), rnorm = bnorm;
    long long it = 0;
    while (it < cap) {
      const double one = 1.0, zero = 0.0;
      check_sparse(cusparseSpMV(sparse_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, spmat_, vec_p_, &zero, vec_ap_,
                                      CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG1, spmv_buffer_.get()),
                         "cusparseSpMV");
      const double pap = dot(p_.get(), ap_.get());
      if (!(pap > 0))
        throw RunError("GPU CG broke down after " + std::to_string(it) + " iterations: the tangent is not positive "
                       "definite (p'Ap = " + std::to_string(pap) + ")");
      const double alpha = rz / pap, minus_alpha = -alpha;
      check_blas(cublasDaxpy(blas_, n_, &alpha, p_.get(), 1, x, 1), "cublasDaxpy");
      check_blas(cublasDaxpy(blas_, n_, &minus_alpha, ap_.get(), 1, r_.get(), 1), "cublasDaxpy");
      ++it;
      rnorm = std::sqrt(dot(r_.get(), r_.get()));
      if (rnorm <= tol * bnorm) break;
      cuda::forall(0, n_, 256, stream_, ScaleBody{inv_diag_.get(), r_.get(), z_.get()});
      const double rz_next = dot(r_.get(), z_.get());
      cuda::forall(0, n_, 256, stream_, XpbyBody{z_.get(), rz_next / rz, p_.get()});
      rz = rz_next;
    }
    if (!(rnorm <= tol * bnorm)) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "GPU CG did not converge: %lld iterations, relative residual %.3e (tolerance %.1e)",
                    it, rnorm / bnorm, tol);
      throw RunError(buf);
    }
    return it;
  }

 private:
  /// a . b over the equations (synchronizes: the scalar comes back to the host).
  double dot(const double* a, const double* b) {
    double s = 0;
    check_blas(cublasDdot(blas_, n_, a, 1, b, 1, &s), "cublasDdot");
    return s;
  }

  cudaStream_t stream_ = nullptr;
  int n_ = 0;
  const int *row_ptr_ = nullptr, *col_ = nullptr;
  double* val_ = nullptr;
  cusparseHandle_t sparse_ = nullptr;
  cublasHandle_t blas_ = nullptr;
  cusparseSpMatDescr_t spmat_ = nullptr;
  cusparseDnVecDescr_t vec_p_ = nullptr, vec_ap_ = nullptr;
  cuda::DeviceArray<char> spmv_buffer_;
  cuda::DeviceArray<double> inv_diag_, r_, z_, p_, ap_;
  cuda::DeviceArray<int> bad_;
};

}  // namespace
}  // namespace halfstep
