// The ranks of a distributed run and the collective operations the solver needs. MPI stays
// behind this interface (and HaloExchange), so the rest of the code builds without it; a
// default-constructed Communicator is the single process of a run without mpirun.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace halfstep {

/// One process's view of the ranks of a run.
class Communicator {
 public:
  /// Rank 0 of 1: a run without MPI.
  Communicator() = default;
  /// The ranks started by mpirun (MPI must be initialized; see MpiSession).
  static Communicator world();

  int rank() const { return rank_; }
  int size() const { return size_; }
  /// True with more than one rank.
  bool distributed() const { return size_ > 1; }
  /// This rank's index among the ranks on its host (picks its GPU).
  int local_rank() const { return local_rank_; }
  /// Ranks on this host (they share its cores).
  int local_size() const { return local_size_; }

  /// Element-wise sum of v over all ranks, in place (every rank gets the same bits).
  void sum(double* v, int n) const;
  /// Smallest value over all ranks.
  double min(double v) const;
  /// Smallest value over all ranks.
  int min(int v) const;
  /// Largest value and the lowest rank holding it.
  std::pair<double, int> max_location(double v) const;
  /// Root's string on every rank.
  std::string broadcast(const std::string& s, int root) const;
  /// Concatenation of every rank's values, in rank order, on root (empty elsewhere); counts
  /// (per rank) are filled on root when given.
  std::vector<double> gather(const std::vector<double>& mine, int root, std::vector<int>* counts = nullptr) const;
  /// As gather, for integers.
  std::vector<int> gather(const std::vector<int>& mine, int root, std::vector<int>* counts = nullptr) const;
  /// Personalized all-to-all: sends send[q] to rank q (send has size() entries) and returns
  /// what every rank sent to this one, by rank (the own entry passes through).
  std::vector<std::vector<double>> exchange(const std::vector<std::vector<double>>& send) const;
  /// Sends bytes of any length to rank `to` (pieces of at most 1 GiB: MPI counts are ints).
  void send_bytes(const std::string& bytes, int to) const;
  /// Receives what send_bytes sent from rank `from`.
  std::string receive_bytes(int from) const;
  /// Returns once send_bytes from rank `from` has begun, looking every millisecond instead of
  /// busy-waiting as MPI does: for long waits (rank 0's set-up of a distributed run), during
  /// which a spinning rank would take a core from the ranks it waits for on the same host.
  void wait_for_bytes(int from) const;
  /// Waits for every rank.
  void barrier() const;
  /// Stops every rank of the run at once (after a failure only this rank saw).
  [[noreturn]] void abort(int code) const;

  /// How device buffers travel: "cuda-aware" when the MPI library reads GPU memory itself,
  /// "host-staged" otherwise (decided at run time).
  bool cuda_aware() const;
  /// Library name and version, for the log and the summary.
  std::string library() const;

 private:
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
  bool mpi_ = false;
};

/// MPI's lifetime in main(): initializes MPI when this build has it and the process was
/// started by an MPI launcher (mpirun sets its rank variables); finalizes at scope exit.
class MpiSession {
 public:
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  /// The run's ranks (a single process when MPI was not started).
  Communicator communicator() const;

 private:
  bool started_ = false;
};

/// True when this build can run distributed (compiled with MPI).
bool mpi_available();

/// True when an MPI launcher (mpirun, srun) started this process.
bool launched_by_mpi_launcher();

}  // namespace halfstep
