// Command-line names of the linear solvers (--linear-solver).
#include <stdexcept>
#include <string>

#include "linear/tangent_engine.hpp"

namespace halfstep {

LinearSolverKind parse_linear_solver(const std::string& s) {
  if (s == "auto") return LinearSolverKind::Auto;
  if (s == "cholmod") return LinearSolverKind::Cholmod;
  if (s == "ldlt") return LinearSolverKind::Ldlt;
  if (s == "cg") return LinearSolverKind::Cg;
  if (s == "cudss") return LinearSolverKind::Cudss;
  if (s == "gpu-cg") return LinearSolverKind::GpuCg;
  throw std::invalid_argument("unknown linear solver '" + s + "' (expected auto, cholmod, ldlt, cg, cudss or gpu-cg)");
}

std::string linear_solver_name(LinearSolverKind k) {
  switch (k) {
    case LinearSolverKind::Auto: return "auto";
    case LinearSolverKind::Cholmod: return "cholmod";
    case LinearSolverKind::Ldlt: return "ldlt";
    case LinearSolverKind::Cg: return "cg";
    case LinearSolverKind::Cudss: return "cudss";
    case LinearSolverKind::GpuCg: return "gpu-cg";
  }
  return "?";
}

}  // namespace halfstep
