// The passes of a time step behind one interface, so the time loop in
// src/solver/explicit_step.cpp runs unchanged on the CPU (OpenMP) and on a GPU (CUDA).
// The loop hands over only times; loads, motions and the energy balance are evaluated by
// the backend, so a GPU backend runs increment after increment without waiting on the host.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/restart_blob.hpp"
#include "parallel/communicator.hpp"
#include "parallel/subdomain.hpp"
#include "dynamics/energy_monitor.hpp"
#include "dynamics/output_frame.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "dynamics/step_drive.hpp"
#include "backends/gpu_options.hpp"
#include "linear/tangent_engine.hpp"

namespace halfstep {

/// What a backend needs to run one subdomain of a distributed model.
struct DistributedContext {
  const Communicator* comm = nullptr;
  const Subdomain* domain = nullptr;
};

/// How to build a backend.
struct BackendOptions {
  int threads = 0;                        ///< CPU threads (0: OpenMP default)
  bool single = false;                    ///< FP32 storage and arithmetic (GPU only)
  double energy_tolerance = 0.05;         ///< energy balance limit (see EnergyMonitor)
  const DistributedContext* distributed = nullptr;  ///< set: the system is this rank's subdomain
  GpuOptions gpu;                         ///< how the CUDA backend runs (the CPU ignores them)
};

/// Executes the element and node passes of the explicit scheme on some hardware. The
/// backend owns its copy of the state; the host StructureState moves in and out only through
/// upload() and download().
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
  /// Index of the GPU in use (-1 for the CPU).
  virtual int device() const { return -1; }
  /// Distributed runs: wall seconds this rank spent exchanging and reducing (0 otherwise).
  virtual double communication_seconds() const { return 0; }
  /// Distributed runs: wall seconds this rank spent in each phase of its increments, named
  /// (where ranks wait: summary.json's distributed.phase_seconds); empty where not timed.
  virtual std::vector<std::pair<std::string, double>> phase_seconds() const { return {}; }
  /// Distributed runs: how interface buffers travel ("host", "cuda-aware", "host-staged").
  virtual std::string transport() const { return ""; }

  /// Makes the backend's state equal to st (start of the run, after host-side changes).
  virtual void upload(const StructureState& st) = 0;
  /// Makes st's nodal state and element energies equal to the backend's (waits for it).
  virtual void download(StructureState& st) = 0;
  /// Makes st's displacements equal to the backend's (waits for it): what the increment's
  /// re-evaluation on the deformed mesh reads. By default the whole download.
  virtual void download_displacements(StructureState& st) { download(st); }
  /// Loads a step's held dofs, loads, motions and pressures.
  virtual void begin_step(const StepDrive& drive) = 0;
  /// Element pass at step time tau: internal forces (eq. 3.5), pressure forces (eq. 3.6) and
  /// the strain energy into the monitor. half_dt: (t^n - t^(n-1)) / 2 of the increment that
  /// led here, which takes the positions back to the midpoint configuration where the
  /// velocities v^(n-1/2) belong (bulk viscosity; 0 at the start of the run).
  virtual void element_pass(double tau, double time, double half_dt = 0.0) = 0;
  /// One increment: node pass (eqs. 3.1-3.4) with the energy check, then the element pass at
  /// t^(n+1). Returns at once on a GPU; a failure shows in the next poll().
  virtual void advance(const Increment& inc) = 0;
  /// Output sample at t^n of inc (no state change): fills frame now or through frame.complete.
  virtual void sample(const Increment& inc, OutputFrame& frame) = 0;
  /// Waits for queued work and returns the energy monitor.
  virtual EnergyMonitor poll() = 0;
  /// *VARIABLE MASS SCALING, between increments: the nodal masses, rotary inertias and damping
  /// of sys (the system this backend was built on, changed in place) hold new values; the
  /// velocities stay. added_kinetic, the kinetic energy that gave them, goes into the energy
  /// balance as mass scaling work. The contact springs', constraints' and bodies' masses in
  /// sys are new too (VariableMassScaler::rescale made them). Distributed: sys is this rank's
  /// part, with the whole model's masses of its nodes (rescale_across_ranks), and
  /// added_kinetic the sum over the ranks; the CUDA backend refuses that so far.
  virtual void update_masses(const StructureSystem& sys, double added_kinetic) = 0;
  /// Starts the energy balance afresh at the next sample, its check 100 increments later
  /// (monitor_rebase); the largest drift so far is kept. After a static step, whose work and
  /// removed kinetic energy the explicit balance never saw, forget_thermal also drops the
  /// elements' last thermal passes (the static step's temperature changes are not booked).
  virtual void rebase_energy(bool forget_thermal) = 0;

  /// Restart: what a restart's arrays depend on besides the model (the GPU, its scheme);
  /// a restart is read only by a backend with the same layout.
  virtual std::string restart_layout() const { return name(); }
  /// Restart: why this backend cannot write one ("" when it can).
  virtual std::string restart_unsupported() const { return "the " + name() + " backend does not write restart files yet"; }
  /// Restart: everything the increments after the current one depend on (the state, the
  /// forces of the latest element pass, the energy balance), between increments.
  virtual void save_restart(RestartBlob& blob) { (void)blob; throw RunError(restart_unsupported()); }
  /// Restart: the state save_restart stored, after begin_step of the same step; a resumed
  /// run then repeats the saved one's increments bit for bit.
  virtual void load_restart(const RestartBlob& blob) { (void)blob; throw RunError(restart_unsupported()); }
};

/// Which backend a run asks for.
enum class BackendKind { Auto, Cpu, Cuda };

/// Parses "auto", "cpu" or "cuda"; throws std::invalid_argument otherwise.
BackendKind parse_backend_kind(const std::string& s);

/// True when this build has the CUDA backend and a usable GPU is present.
bool cuda_available(std::string* why_not);

/// Builds the requested backend. Auto takes the GPU when one is present and falls back to
/// the CPU (saying why on stderr when note is set) if the GPU backend cannot be built. Cuda
/// without a usable GPU throws RunError with the reason.
std::unique_ptr<Backend> make_backend(BackendKind kind, const StructureSystem& sys, const BackendOptions& opt,
                                      bool note);

/// Builds the engine of a static step over op's equations (number_equations). The CPU engine
/// (OpenMP assembly, CPU solver) runs for BackendKind::Cpu and for the CPU solver kinds; the
/// CUDA engine (GPU assembly, cuDSS or GPU CG) for the solver kinds Auto, Cudss and GpuCg
/// with Cuda, or with Auto when a GPU is present (Auto falls back to the CPU, saying why when
/// note is set, if the CUDA engine cannot be built). Cuda without a usable GPU, or a solver
/// kind this build lacks, throws RunError with the reason. combined (null: none): dofs that
/// enter through weighted terms (assembly/csr_assembly.hpp).
std::unique_ptr<TangentEngine> make_tangent_engine(BackendKind kind, const StructureOperator& op,
                                                   const std::vector<int>& equation, int equations,
                                                   const TangentOptions& opt, bool note,
                                                   const DofCombinations* combined = nullptr);

/// Monitor with the options' tolerance and the round-off floor of the precision in use.
EnergyMonitor initial_monitor(const StructureSystem& sys, const BackendOptions& opt);

}  // namespace halfstep
