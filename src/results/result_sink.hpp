// The seam between the solver and whoever stores its results: the solver hands over frames
// of named arrays, the application decides where they go (io/result_writer.hpp writes
// ParaView and CSV files; tests may collect them in memory).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "results/field_set.hpp"

namespace halfstep {

/// Energy totals at one instant (a row of energy.csv).
struct EnergyRow {
  double time = 0, kinetic = 0, internal = 0, external_work = 0, damping_work = 0, total = 0, hourglass = 0;
  double plastic_dissipation = 0;  ///< plastic work dissipated so far, part of internal (ALLPD)
  double contact = 0;               ///< energy stored in the contact penalty springs
  double friction_dissipation = 0;  ///< frictional work dissipated so far (ALLFD)
  double mass_scaling_work = 0;     ///< kinetic energy added by *VARIABLE MASS SCALING, part of total
  double viscous_dissipation = 0;   ///< work the bulk viscosity dissipated so far (part of Abaqus's ALLVD)
  double thermal_work = 0;          ///< work the temperature changes did on the model so far (EnergyRecord)
};

/// One output instant. Field frames carry point and cell arrays; history frames at least the
/// nodal arrays NodeId, U, UR, V, VR, RF, RM.
struct ResultFrame {
  double time = 0;
  bool field = false, history = false, energy = false;
  bool print = false;       ///< the step's print tables are due (fields hold what they need)
  int step = 0;             ///< 1-based step number
  long long increment = 0;  ///< increments of the step so far
  bool step_end = false;    ///< the step's last instant
  std::vector<char> prints_due;  ///< OutputFrame::prints_due
  FieldSet fields;
  /// Frames that write no field and print no table: when set, the point arrays hold these
  /// points only, entity k for point (*nodes)[k] (ascending; a history frame: at least the
  /// nodes of every history set opened so far), and only the nodal arrays above. Null: every
  /// point of the mesh.
  std::shared_ptr<const std::vector<int>> nodes;
  /// Field frames of models with NURBS patches: the arrays on ResultMesh::bezier's points
  /// and cells (empty otherwise).
  FieldSet bezier;
  EnergyRow energy_row;
  /// A frequency step's eigenvalues omega^2 (ascending), on its first frame (else empty): the
  /// .dat's eigenvalue table, written before the frame's printed tables.
  std::vector<double> eigenvalues;
  /// With the eigenvalues: each mode's participation factors phi . M r_k / m and effective
  /// masses (phi . M r_k)^2 / m (6 per mode: translations x, y, z, rotations about the global
  /// axes through the origin, zero at held dofs), and the model's r_k . M r_k (6), as the peer
  /// prints them.
  std::vector<double> participation, effective_mass, total_mass;
  /// A buckle step's buckling factors (OutputFrame's), on its first frame: the .dat's table.
  std::vector<double> buckling_factors;
  /// A steady-state dynamics point's modal amplitudes (OutputFrame's): per mode its
  /// frequency and complex amplitude at unit modal mass, at excitation frequency
  /// steady_state_frequency (cycles/time); the .dat's table before the point's prints.
  std::vector<double> steady_state_factors;
  double steady_state_frequency = 0;
  /// Contact models, with the energy row: per contact definition (deck order) the total
  /// normal and friction force on its slave nodes, 6 values each.
  std::vector<double> contact_force;
};

/// Receives a run's results in time order (from one thread at a time).
class ResultSink {
 public:
  virtual ~ResultSink() = default;
  /// A step starts: its history requests name the node sets whose rows are wanted.
  virtual void open_histories(const std::vector<OutputRequest>& requests) = 0;
  /// A step starts: the tables its print requests ask for (none by default).
  virtual void open_prints(const std::vector<PrintRequest>& requests) { (void)requests; }
  /// Stores one instant.
  virtual void write(const ResultFrame& frame) = 0;
  /// Field frames stored so far.
  virtual int frames_written() const = 0;
  /// Restart: what resume() needs to continue the results from here (called when every frame
  /// so far is stored). A sink that keeps nothing returns "".
  virtual std::string checkpoint() const { return ""; }
  /// Restart: cuts the results back to checkpoint()'s point and continues from there (called
  /// once, before the first frame of a resumed run).
  /// restart_file names the restart in errors.
  virtual void resume(const std::string& checkpoint, const std::string& restart_file) {
    (void)checkpoint;
    (void)restart_file;
  }
};

}  // namespace halfstep
