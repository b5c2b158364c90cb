// Writes a run's results: ParaView frames (.pvd + .vtu), history CSVs and energy.csv.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "solver/energy_monitor.hpp"
#include "io/csv_writer.hpp"
#include "io/pvd_writer.hpp"
#include "model/model.hpp"
#include "solver/structure_state.hpp"
#include "solver/structure_system.hpp"

namespace halfstep {


/// Owns the output files of one run in OUTDIR.
class ResultWriter {
 public:
  /// Creates OUTDIR (and OUTDIR/history), the .pvd index and energy.csv.
  ResultWriter(const Model& model, const StructureSystem& sys, const std::string& dir, const std::string& job);

  /// Opens history/<NSET>.csv files for the history requests of a step (once per set).
  void open_histories(const std::vector<OutputRequest>& requests);

  /// Writes one field frame at the current state; full holds v^n and reactions.
  void write_frame(const StructureState& st, const FullStepFields& full);
  /// Appends one row per node of each history set.
  void write_history(const StructureState& st, const FullStepFields& full);
  /// Appends a row to energy.csv.
  void write_energy(const EnergyRecord& e);

  int frames_written() const { return frame_; }

 private:
  struct History {
    std::string nset;
    std::vector<int> nodes;
    bool u = false, v = false, rf = false;
    std::unique_ptr<CsvWriter> csv;
    std::unique_ptr<CsvWriter> total;  ///< RF: sums over the set (the set's total reaction)
  };
  /// Rotation vector of every node (from the reference to the current nodal frame).
  void rotations(const StructureState& st, std::vector<double>& out) const;

  const Model& model_;
  const StructureSystem& sys_;
  std::string dir_, job_;
  PvdWriter pvd_;
  CsvWriter energy_;
  std::vector<History> histories_;
  int frame_ = 0;
  std::vector<int> cell_conn_;               ///< VTK connectivity of all cells
  std::vector<std::int64_t> cell_offsets_;   ///< end of each cell in cell_conn_
  std::vector<std::uint8_t> cell_types_;     ///< VTK cell type of each cell
};

}  // namespace halfstep
