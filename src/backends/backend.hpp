// The two passes of a time step behind one interface, so the time loop in
// src/solver/explicit_solver.cpp runs unchanged on the CPU (OpenMP) and on a GPU (CUDA).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "solver/central_difference.hpp"
#include "solver/shell_state.hpp"
#include "solver/shell_system.hpp"

namespace halfstep {

/// Per-node inputs of the node update for the current step.
struct NodalInputs {
  std::vector<std::uint8_t> held;      ///< per node: bits 0-2 translations constrained, bits 3-4 triad rotations held
  std::vector<int> special;            ///< per node: index into the arrays below, or -1
  std::vector<double> load;            ///< 6 per special node: global force (3) and moment (3)
  std::vector<double> motion;          ///< 3 per special node: target u^(n+1), or velocity, of prescribed translations
  std::vector<std::uint8_t> moving;    ///< per special node: bit d = translation d has an imposed motion
  std::vector<std::uint8_t> by_velocity;  ///< per special node: bit d = motion[d] is a velocity
};

/// Sums over dofs produced by a node update (for the energy balance).
struct NodeSums {
  double kinetic = 0;               ///< sum m (v^n)^2 / 2
  double work_prev = 0, work_next = 0;  ///< external work f^n . (h_prev v^(n-1/2)), f^n . (h_next v^(n+1/2))
  double damp_prev = 0, damp_next = 0;  ///< same for the damping force c v^n
  bool finite = true;
};

/// Full-step nodal fields for output: v^n and reactions (global components).
struct FullStepFields {
  std::vector<double> v[6];   ///< translational velocity (3) and angular velocity (3), global
  std::vector<double> rf[6];  ///< reaction forces (3) and moments (3), global
  void resize(int nn);
};

/// Executes the element and node passes of the explicit scheme on some hardware. The host
/// ShellState is the backend's state for the CPU; a GPU backend keeps its own copy and
/// moves it only through upload() and download().
class Backend {
 public:
  virtual ~Backend() = default;
  /// "cpu" or "cuda".
  virtual std::string name() const = 0;
  /// "double" or "single".
  virtual std::string precision() const { return "double"; }
  /// CPU threads used (1 for a GPU backend's host side).
  virtual int threads() const = 0;
  /// Human-readable device and scheme, for the log and summary.
  virtual std::string description() const = 0;
  /// Bytes of accelerator memory the backend holds (0 for the CPU).
  virtual double device_bytes() const { return 0; }

  /// Makes the backend's state equal to st (start of the run, after host-side changes).
  virtual void upload(const ShellState& st) = 0;
  /// Makes st equal to the backend's state (for output and host-side changes).
  virtual void download(ShellState& st) = 0;
  /// Per-step constant inputs: held dofs, which nodes are special.
  virtual void set_step_inputs(const NodalInputs& in) = 0;

  /// Internal forces (eq. 3.5) and, when pressure != nullptr (one value per element, already
  /// scaled by its amplitude), pressure forces (eq. 3.6) at the current configuration.
  /// Returns the total strain energy; element energies land in st.elem_energy after download.
  virtual double element_forces(ShellState& st, const double* pressure) = 0;

  /// Accelerations, full- and half-step velocities (eq. 3.1-3.3) and, when commit is true,
  /// the displacement and director update (eq. 3.4). full, if given, receives v^n and
  /// reactions. in carries this increment's loads and motions.
  virtual NodeSums node_update(ShellState& st, const NodalInputs& in, HalfSteps<double> h, bool commit,
                               FullStepFields* full) = 0;
};

/// Which backend a run asks for.
enum class BackendKind { Auto, Cpu, Cuda };

/// Parses "auto", "cpu" or "cuda"; throws std::invalid_argument otherwise.
BackendKind parse_backend_kind(const std::string& s);

/// True when this build has the CUDA backend and a usable GPU is present.
bool cuda_available(std::string* why_not);

/// Builds the requested backend. Auto takes the GPU when one is present. Cuda without a GPU
/// throws RunError with the reason.
std::unique_ptr<Backend> make_backend(BackendKind kind, const ShellSystem& sys, int threads);

}  // namespace halfstep
