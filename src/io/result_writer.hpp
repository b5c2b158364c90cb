// Writes a run's results: ParaView frames (.pvd + .vtu), history CSVs and energy.csv, from
// frames of named arrays (results/result_sink.hpp). It computes nothing: every value it writes
// arrives in a frame.
#pragma once

#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "io/csv_writer.hpp"
#include "io/pvd_writer.hpp"
#include "model/model.hpp"
#include "results/result_sink.hpp"

namespace halfstep {

/// Owns the output files of one run in OUTDIR.
class ResultWriter final : public ResultSink {
 public:
  /// Creates OUTDIR (and OUTDIR/history), the .pvd index and energy.csv. The model gives the
  /// node sets and deck ids of the history rows; mesh is every frame's geometry.
  ResultWriter(const Model& model, const ResultMesh& mesh, const std::string& dir, const std::string& job);
  /// The same for a resumed run when resuming is set: nothing is created or cut until resume().
  ResultWriter(const Model& model, const ResultMesh& mesh, const std::string& dir, const std::string& job,
               bool resuming);

  /// Opens history/<NSET>.csv files for the history requests of a step (once per set).
  void open_histories(const std::vector<OutputRequest>& requests) override;
  /// Keeps the step's print requests; their tables go to <job>.dat (opened at the first).
  void open_prints(const std::vector<PrintRequest>& requests) override;
  /// Writes what the frame asks for: a .vtu of all its arrays, history rows, an energy row.
  void write(const ResultFrame& frame) override;
  int frames_written() const override { return frame_; }
  /// Adds the seconds write() spends to *total from now on (the summary's output time; the
  /// caller reads it once the run, and so the writer thread, has finished).
  void count_seconds_into(double* total) { seconds_ = total; }
  /// The files written so far, relative to OUTDIR: the .pvd indexes (which list the frames),
  /// energy.csv, the history files, <job>.dat; of a resumed run also those before the restart.
  std::vector<std::string> files() const;
  /// Stores files() in *list when the writer is destroyed (the summary, also of a failed run,
  /// is written after the writer is gone).
  void list_files_into(std::vector<std::string>* list) { files_out_ = list; }
  /// The frame count, the .pvd lists, the history sets and every appended file's size.
  std::string checkpoint() const override;
  /// Checks that OUTDIR holds the results checkpoint continues (every appended file begins
  /// with the bytes it recorded, every frame it lists is there; RestartError naming the file
  /// otherwise, before anything is touched), then cuts energy.csv, the histories,
  /// contact.csv and <job>.dat back to checkpoint's sizes, relists its frames in the .pvd
  /// files and appends from there.
  void resume(const std::string& checkpoint, const std::string& restart_file) override;

  /// Writes one field frame (.vtu) of the arrays in fields that the step's field requests
  /// name (ids and energy densities always); with a Bézier mesh and its arrays, also the
  /// frame's <job>_nurbs_NNNNNN.vtu, listed in <job>_nurbs.pvd.
  void write_frame(double time, const FieldSet& fields, const FieldSet* bezier = nullptr);
  /// Appends one row per node of each history set, from the nodal arrays U, UR, V, VR, RF, RM;
  /// with nodes (ResultFrame::nodes), the arrays hold those nodes only, which must include
  /// every history set's.
  void write_history(double time, const FieldSet& fields, const std::shared_ptr<const std::vector<int>>& nodes = nullptr);
  /// Appends a row to energy.csv.
  void write_energy(const EnergyRow& e);
  /// Appends one row per contact definition to history/contact.csv (time, definition,
  /// total normal force CFN1-3 and friction force CFS1-3 on its slaves).
  void write_contact(double time, const std::vector<double>& force);
  /// Appends the tables of the step's print requests to <job>.dat (Abaqus/CalculiX-like
  /// blocks: a heading with the set, the step, increment and time, one line per node or
  /// element). Element values are taken at the centroid, from the frame's cell arrays.
  void write_prints(const ResultFrame& frame);
  /// A frequency step's eigenvalue table into the .dat (opened here if no print opened it),
  /// in the peer's layout, so that its reference files compare line by line.
  void write_eigenvalues(const ResultFrame& frame);
  /// A buckle step's buckling factors into the .dat (opened here if no print opened it), in
  /// the peer's layout.
  void write_buckling_factors(const ResultFrame& frame);
  /// A steady-state dynamics point's modal amplitudes into the .dat, in the peer's layout.
  void write_steady_state_factors(const ResultFrame& frame);

 private:
  struct History {
    std::string nset;
    std::vector<int> nodes;
    std::vector<int> rows;  ///< each node's entity in the arrays of frames of history_rows_'s nodes
    bool u = false, v = false, rf = false, a = false;
    std::string file;  ///< its file name in OUTDIR/history, without ".csv" (file_name_for's)
    std::unique_ptr<CsvWriter> csv;
    std::unique_ptr<CsvWriter> total;  ///< RF: sums over the set (the set's total reaction)
  };

  const Model& model_;
  ResultMesh mesh_;
  std::string dir_, job_;
  PvdWriter pvd_;
  std::unique_ptr<PvdWriter> bezier_pvd_;  ///< <job>_nurbs.pvd, when the mesh has a Bézier part
  std::unique_ptr<CsvWriter> energy_;  ///< null until resume() in a resumed run
  std::unique_ptr<CsvWriter> contact_;  ///< history/contact.csv, opened with the first contact row
  std::vector<History> histories_;
  /// The node list of compact history frames that History::rows were found in (a run's frames
  /// share one list per step, so the rows are found once per step, not per frame).
  std::shared_ptr<const std::vector<int>> history_rows_;
  /// The columns of a history file with h's variables.
  static std::vector<std::string> history_columns(const History& h);
  /// The nodal array called name of a frame (it must carry it).
  static const std::vector<double>& nodal(const FieldSet& fields, const char* name);
  /// Node print request p's tables at frame (U, V, A or RF per variable, in p's order) into f:
  /// every node of its set in the deck's order with its sum under TOTALS=YES, or only the sums
  /// (the peer's "total" table) under TOTALS=ONLY.
  static void write_node_tables(std::FILE* f, const PrintRequest& p, const ResultFrame& frame, const Model& model,
                                const ResultMesh& mesh);
  /// The history file name (without extension) of a set: safe inside OUTDIR/history.
  std::string file_name_for(const std::string& set);

  std::set<std::string> used_files_;  ///< history file names given out
  std::vector<PrintRequest> prints_;  ///< the current step's
  std::vector<std::string> field_vars_;  ///< variables the step's field requests name (U, V, RF, S, SF, SM, E, PEEQ)
  /// <job>.dat, opened now if nothing opened it yet (std::runtime_error naming the file
  /// when it cannot be written).
  std::FILE* open_dat();
  /// Flushes <job>.dat after a table that must be whole on disk (std::runtime_error on failure).
  void flush_dat();
  std::FILE* dat_ = nullptr;          ///< <job>.dat, once something is printed
  mutable Hasher64 dat_hash_;          ///< of the .dat's first dat_hashed_ bytes (checkpoint() adds to it)
  mutable std::uint64_t dat_hashed_ = 0;
  std::vector<int> cell_of_;          ///< model element -> cell of the frames (built at the first element table)
  /// Model element -> cell of the frames, from a frame's ElementId (built once: the cells are fixed).
  const std::vector<int>& cell_of(const FieldSet& fields);

  /// The part of the mesh a step's field requests name (NSET=/ELSET=): frames hold only it.
  struct FrameSubset {
    bool active = false;            ///< false: every point and cell
    bool built = false;             ///< points/cells below are filled (at the step's first frame)
    std::vector<std::string> nsets;   ///< node sets of the node requests
    std::vector<std::string> elsets;  ///< element sets of the element requests
    std::vector<int> points;        ///< kept frame points, in the written order (point_order_)
    std::vector<int> cells;         ///< kept frame cells, in the written order (cell_order_); then one vertex cell per lone point
    int vertex_cells = 0;           ///< kept points that no kept cell uses (written as VTK vertices)
    std::vector<int> conn;          ///< renumbered connectivity of the kept cells
    std::vector<std::int64_t> offsets;
    std::vector<std::uint8_t> types;
    /// The Bézier cells of the kept elements (the same ElementId), their points and
    /// renumbered connectivity.
    bool bezier_built = false;
    std::vector<int> bezier_points, bezier_cells, bezier_conn;
    std::vector<std::int64_t> bezier_offsets;
    std::vector<std::uint8_t> bezier_types;
  };
  FrameSubset subset_;
  /// The order the frames' points and cells are written in: the deck's, also when the model
  /// was renumbered (Model::renumbering), so files do not depend on --renumber.
  /// point_order_[k] / cell_order_[k]: the frame point / cell written k-th (built with the
  /// first frame, from its ElementId; empty until then).
  std::vector<int> point_order_, cell_order_;
  /// A renumbered model's whole mesh in the deck's order (every point and cell), written
  /// through the subset path; unused when the model is in the deck's order.
  FrameSubset deck_order_;
  /// Builds point_order_, cell_order_ and, for a renumbered model, deck_order_.
  void build_output_order(const FieldSet& fields);
  /// Chooses the kept points and cells of subset_ (needs the frame's ElementId).
  void build_subset(const FieldSet& fields);
  /// Chooses the kept Bézier cells of subset_ (needs both ElementId arrays).
  void build_bezier_subset(const FieldSet& fields, const FieldSet& bezier);
  /// Writes the frame's Bézier file (frame number frame_) and lists it in bezier_pvd_.
  void write_bezier_frame(double time, const FieldSet& fields, const FieldSet& bezier);
  /// Whether the step's field requests ask for the array (ids and energy densities always).
  bool wanted(const std::string& array) const;
  int frame_ = 0;
  double* seconds_ = nullptr;  ///< count_seconds_into's total
  std::vector<std::string>* files_out_ = nullptr;  ///< list_files_into's list

 public:
  ~ResultWriter() override;
  ResultWriter(const ResultWriter&) = delete;
  ResultWriter& operator=(const ResultWriter&) = delete;
};

}  // namespace halfstep
