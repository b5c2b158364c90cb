// Whole-model output of a distributed run: rank 0 collects every rank's share of a frame
// (the nodes it owns, its elements) into one frame of the whole model, so the writers, the
// .pvd series, the history files and energy.csv are the same as a single process writes.
#pragma once

#include <memory>
#include <vector>

#include "dynamics/output_frame.hpp"
#include "parallel/communicator.hpp"
#include "parallel/subdomain.hpp"

namespace halfstep {

/// Collects subdomain frames and node arrays on rank 0 (collective calls).
class FrameGather {
 public:
  /// global: the whole system (rank 0 sizes the frames with it; the other ranks hold its
  /// outline, parallel/run_share.hpp); local: this rank's system (the layout of its elements'
  /// state). Both must outlive the gather.
  FrameGather(const Communicator& comm, const Subdomain& d, const StructureSystem& global, const StructureSystem& local);
  /// Rank 0: the whole-model frame (flags, record and discard from local); elsewhere null.
  /// Field and print frames carry every node and element; history frames the history nodes
  /// only, as compact rows (OutputFrame::nodes: the global history nodes; local's rows may be
  /// compact too, of local.nodes, which must hold history_nodes()); energy frames the record.
  std::unique_ptr<OutputFrame> gather(const OutputFrame& local) const;
  /// Sets the nodes of the history sets written from now on (global node indices, any order,
  /// repeats allowed).
  void set_history_nodes(const std::vector<int>& global_nodes);
  /// The owned local nodes in the history sets, ascending.
  const std::vector<int>& history_nodes() const { return history_local_; }
  /// Rank 0: per-node rows (rows local vectors over the subdomain's nodes) as whole-model
  /// vectors, fill[r] at nodes no element uses; elsewhere empty.
  std::vector<std::vector<double>> gather_nodes(const std::vector<const std::vector<double>*>& rows,
                                                const std::vector<double>& fill) const;

 private:
  /// This rank's values of rows at nodes (node after node); with held, the rows hold those
  /// nodes only (ascending), node n at its position there.
  static std::vector<double> pack(const std::vector<const std::vector<double>*>& rows, const std::vector<int>& nodes,
                                  const std::vector<int>* held);
  /// Whole-model rows from gathered values of the nodes ids (node after node), fill[r] elsewhere.
  std::vector<std::vector<double>> scatter(const std::vector<double>& values, const std::vector<int>& ids,
                                           const std::vector<double>& fill) const;

  const Communicator& comm_;
  const Subdomain& d_;
  const StructureSystem& global_;  ///< the whole model (point numbering and layouts of the state)
  const StructureSystem& local_;   ///< this rank's system (its elements' state layout)
  int global_nodes_;
  std::vector<int> owned_nodes_;                 ///< local indices of the nodes this rank reports
  std::vector<int> node_ids_;                    ///< rank 0: global indices, rank after rank
  /// Rank 0: per element family (block_families() order), its elements' global indices,
  /// rank after rank.
  std::vector<std::vector<int>> element_ids_;
  std::vector<int> history_local_;                     ///< owned local nodes in history sets
  std::vector<int> history_ids_;                       ///< rank 0: their global indices, rank after rank
  /// The global history nodes, ascending: the rows of rank 0's history frames.
  std::shared_ptr<const std::vector<int>> history_global_;
  std::vector<int> history_row_;  ///< rank 0: per history_ids_ entry, its row in history_global_
};

}  // namespace halfstep
