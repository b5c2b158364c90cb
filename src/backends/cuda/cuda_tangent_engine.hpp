// The CUDA tangent engine (issue 12): element matrices by dual numbers, their assembly into a
// CSR matrix and the internal forces all run on the GPU, and the matrix stays there for a GPU
// solver (cuDSS or Jacobi-preconditioned CG), so a Newton iteration moves only equation-space
// vectors across the bus. Callable from host C++ (no CUDA headers here).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "assembly/csr_assembly.hpp"
#include "linear/tangent_engine.hpp"

namespace halfstep {

/// How the element-matrix kernel maps threads to work: one column (one dual evaluation of the
/// element's forces) per thread, or every column of an element in one thread.
enum class ElementMapping { Column, Element };

/// The CUDA engine with the views its tests and benchmark need besides TangentEngine's.
class CudaTangentEngine : public TangentEngine {
 public:
  /// Element matrices at c computed on the device and copied out, in
  /// StructureOperator::element_matrices' layout.
  virtual void element_matrices(const Configuration& c, std::vector<double>& k) = 0;
  /// Element matrices at c and their assembly, without the factorization (benchmarks).
  virtual void assemble(const Configuration& c) = 0;
  /// The last assembled matrix copied to the host (upper triangle for cuDSS, full for CG).
  virtual CsrMatrix matrix() const = 0;
  /// Chooses the element-matrix thread mapping (default: Column).
  virtual void set_element_mapping(ElementMapping m) = 0;
  /// Threads per block of the element-matrix kernels (default 64; benchmarks).
  virtual void set_matrix_block(int threads) = 0;
};

/// Everything of a static Newton iteration on CUDA device opt.device. opt.solver: Auto,
/// Cudss or GpuCg (a CPU kind throws RunError). Auto: cuDSS when this build has it and its
/// analysis' memory estimate fits in the free device memory, else GPU CG. Throws RunError
/// when the device lacks memory or cuDSS was asked for but not built.
/// combined (null: none): dofs that enter through weighted terms (csr_assembly.hpp).
std::unique_ptr<TangentEngine> make_cuda_tangent_engine(const StructureOperator& op, const std::vector<int>& equation,
                                                        int equations, const TangentOptions& opt,
                                                        const DofCombinations* combined = nullptr);

/// True when this build links NVIDIA cuDSS.
bool cudss_built();

}  // namespace halfstep
