// The OpenMP tangent engine: element matrices by dual numbers (StructureOperator), a CSR
// assembly by gather lists built once (assembly/csr_assembly), and a CPU sparse solver.
#pragma once

#include <memory>
#include <vector>

#include "linear/tangent_engine.hpp"

namespace halfstep {

/// An engine that does everything on the host. opt.solver: Auto, Cholmod, Ldlt or Cg (a GPU
/// kind throws RunError). Auto: CHOLMOD when built with it, else Eigen's LDLT; CG when the
/// estimated factor would not fit in the host's memory. combined (null: none): dofs that
/// enter through weighted terms (csr_assembly.hpp).
std::unique_ptr<TangentEngine> make_cpu_tangent_engine(const StructureOperator& op, const std::vector<int>& equation,
                                                       int equations, const TangentOptions& opt,
                                                       const DofCombinations* combined = nullptr);

}  // namespace halfstep
