// What the time loop hands over per increment (times) and per output instant (a frame the
// writer thread completes and converts to named arrays).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "discretization/structure_state.hpp"
#include "dynamics/energy_monitor.hpp"

namespace halfstep {

/// Times of one increment from t^n to t^(n+1).
struct Increment {
  double time = 0;     ///< t^n (analysis time)
  double tau = 0;      ///< t^n in step time
  double dt_next = 0;  ///< t^(n+1) - t^n (0 at the end of a step)
  double h_prev = 0;   ///< t^n - t^(n-1/2)
};

/// One output instant, handed from the time loop to the writer thread.
struct OutputFrame {
  bool field = false, history = false, energy = false;
  bool print = false;        ///< the step's *NODE/*EL/*ENERGY PRINT tables are due
  bool print_cells = false;  ///< and they need element values (a full frame, cells computed)
  int step = 0;              ///< 1-based step number (for printed tables)
  long long increment = 0;   ///< increments of the step so far (for printed tables)
  bool step_end = false;     ///< the step's last instant (every print request is due)
  /// Per print request of the step: whether it prints at this frame (set where a request
  /// prints at TIME POINTS; empty: PrintRequest::due, every frame for a request on points).
  std::vector<char> prints_due;
  bool small_strain = false; ///< of a geometrically linear static step: element results are the small-strain ones
  /// 3 per rigid body: rotation vectors that the frame's UR shows as they are (a frequency
  /// step's mode: linear, at any scale) instead of state.body_rotation's; empty: none.
  std::vector<double> body_turn;
  /// A frequency step's eigenvalues omega^2 (ascending), on its first frame: the .dat's
  /// eigenvalue table (empty on every other frame).
  std::vector<double> eigenvalues;
  /// With the eigenvalues: participation factors, effective masses (6 per mode) and the
  /// model's rigid-body masses (6); ResultFrame says what they are.
  std::vector<double> participation, effective_mass, total_mass;
  /// A buckle step's buckling factors (ascending), on its first frame: the .dat's buckling
  /// factor table (empty on every other frame).
  std::vector<double> buckling_factors;
  /// A steady-state dynamics point (on the frame of its real part; empty on every other
  /// frame): per mode its frequency (cycles/time) and complex amplitude (real, imaginary) at
  /// unit modal mass, 3 values each, at excitation frequency steady_state_frequency.
  std::vector<double> steady_state_factors;
  double steady_state_frequency = 0;
  StructureState state;      ///< time, u, directors, triads, element energies (r1 set by the writer)
  FullStepFields full;   ///< v^n and reactions
  EnergyRecord record;   ///< energy totals at this time
  bool discard = false;  ///< sampled after the run failed: not written
  /// Frames that write no field and print no table (history and energy rows): when set, the
  /// node rows of state (u, director, t1) and full hold these nodes only, row k for node
  /// (*nodes)[k] (ascending), so a history row of a large model stages only the nodes its sets
  /// name (docs/performance.md, "History rows carry only their nodes"); empty for an
  /// energy-only frame, which needs none. Null: every node of the system.
  std::shared_ptr<const std::vector<int>> nodes;
  /// Fills state, full and record from the backend's staging memory; run by the writer
  /// thread before writing (empty when the backend filled them already).
  std::function<void(OutputFrame&)> complete;
};

}  // namespace halfstep
