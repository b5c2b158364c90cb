#include "parallel/communicator.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#if HALFSTEP_HAVE_MPI
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

namespace halfstep {

namespace {

/// True when a launcher started this process as one of several ranks (OpenMPI, MPICH, Slurm).
bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
    if (std::getenv(v)) return true;
  return false;
}

#if HALFSTEP_HAVE_MPI
void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI call failed: ") + what);
}

std::vector<int> counts_and_displacements(const Communicator& c, int mine, int root, std::vector<int>& displ) {
  std::vector<int> counts(c.rank() == root ? c.size() : 0);
  check(MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, root, MPI_COMM_WORLD), "MPI_Gather");
  displ.assign(counts.size(), 0);
  for (std::size_t r = 1; r < counts.size(); ++r) displ[r] = displ[r - 1] + counts[r - 1];
  return counts;
}

template <class T>
std::vector<T> gather_values(const Communicator& c, const std::vector<T>& mine, int root, MPI_Datatype type,
                             std::vector<int>* counts_out) {
  std::vector<int> displ;
  const std::vector<int> counts = counts_and_displacements(c, static_cast<int>(mine.size()), root, displ);
  std::vector<T> all;
  if (c.rank() == root) all.resize(counts.empty() ? 0 : static_cast<std::size_t>(displ.back()) + counts.back());
  check(MPI_Gatherv(mine.data(), static_cast<int>(mine.size()), type, all.data(), counts.data(), displ.data(), type,
                    root, MPI_COMM_WORLD),
        "MPI_Gatherv");
  if (counts_out) *counts_out = counts;
  return all;
}
#endif

}  // namespace

bool mpi_available() { return HALFSTEP_HAVE_MPI != 0; }

bool launched_by_mpi_launcher() { return launched_by_mpi(); }

Communicator Communicator::world() {
  Communicator c;
#if HALFSTEP_HAVE_MPI
  int init = 0;
  MPI_Initialized(&init);
  if (init) {
    MPI_Comm_rank(MPI_COMM_WORLD, &c.rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &c.size_);
    MPI_Comm host;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, c.rank_, MPI_INFO_NULL, &host) == MPI_SUCCESS) {
      MPI_Comm_rank(host, &c.local_rank_);
      MPI_Comm_size(host, &c.local_size_);
      MPI_Comm_free(&host);
    }
    // The launcher's own count is authoritative where it gives one.
    for (const char* v : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"})
      if (const char* s = std::getenv(v)) {
        c.local_rank_ = std::atoi(s);
        break;
      }
    c.mpi_ = true;
  }
#endif
  return c;
}

void Communicator::sum(double* v, int n) const {
#if HALFSTEP_HAVE_MPI
  if (mpi_ && size_ > 1) check(MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
#else
  (void)v;
  (void)n;
#endif
}

double Communicator::min(double v) const {
#if HALFSTEP_HAVE_MPI
  if (mpi_ && size_ > 1) check(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
#endif
  return v;
}

int Communicator::min(int v) const {
#if HALFSTEP_HAVE_MPI
  if (mpi_ && size_ > 1) check(MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
#endif
  return v;
}

std::pair<double, int> Communicator::max_location(double v) const {
#if HALFSTEP_HAVE_MPI
  if (mpi_ && size_ > 1) {
    struct {
      double value;
      int rank;
    } in{v, rank_}, out{};
    check(MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD), "MPI_Allreduce");
    return {out.value, out.rank};
  }
#endif
  return {v, rank_};
}

std::string Communicator::broadcast(const std::string& s, int root) const {
#if HALFSTEP_HAVE_MPI
  if (mpi_ && size_ > 1) {
    int len = static_cast<int>(s.size());
    check(MPI_Bcast(&len, 1, MPI_INT, root, MPI_COMM_WORLD), "MPI_Bcast");
    std::string out = rank_ == root ? s : std::string(static_cast<std::size_t>(len), ' ');
    check(MPI_Bcast(out.data(), len, MPI_CHAR, root, MPI_COMM_WORLD), "MPI_Bcast");
    return out;
  }
#else
  (void)root;
#endif
  return s;
}

std::vector<double> Communicator::gather(const std::vector<double>& mine, int root, std::vector<int>* counts) const {
#if HALFSTEP_HAVE_MPI
  if (mpi_ && size_ > 1) return gather_values(*this, mine, root, MPI_DOUBLE, counts);
#else
  (void)root;
#endif
  if (counts) *counts = {static_cast<int>(mine.size())};
  return mine;
}

std::vector<int> Communicator::gather(const std::vector<int>& mine, int root, std::vector<int>* counts) const {
#if HALFSTEP_HAVE_MPI
  if (mpi_ && size_ > 1) return gather_values(*this, mine, root, MPI_INT, counts);
#else
  (void)root;
#endif
  if (counts) *counts = {static_cast<int>(mine.size())};
  return mine;
}

std::vector<std::vector<double>> Communicator::exchange(const std::vector<std::vector<double>>& send) const {
  if (static_cast<int>(send.size()) != size_) throw std::logic_error("Communicator::exchange: one entry per rank");
#if HALFSTEP_HAVE_MPI
  if (mpi_ && size_ > 1) {
    std::vector<int> send_counts(size_), recv_counts(size_), send_displ(size_, 0), recv_displ(size_, 0);
    for (int q = 0; q < size_; ++q) send_counts[q] = static_cast<int>(send[q].size());
    check(MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD),
          "MPI_Alltoall");
    for (int q = 1; q < size_; ++q) {
      send_displ[q] = send_displ[q - 1] + send_counts[q - 1];
      recv_displ[q] = recv_displ[q - 1] + recv_counts[q - 1];
    }
    std::vector<double> out_flat, in_flat(static_cast<std::size_t>(recv_displ.back()) + recv_counts.back());
    for (const std::vector<double>& v : send) out_flat.insert(out_flat.end(), v.begin(), v.end());
    check(MPI_Alltoallv(out_flat.data(), send_counts.data(), send_displ.data(), MPI_DOUBLE, in_flat.data(),
                        recv_counts.data(), recv_displ.data(), MPI_DOUBLE, MPI_COMM_WORLD),
          "MPI_Alltoallv");
    std::vector<std::vector<double>> recv(size_);
    for (int q = 0; q < size_; ++q)
      recv[q].assign(in_flat.begin() + recv_displ[q], in_flat.begin() + recv_displ[q] + recv_counts[q]);
    return recv;
  }
#endif
  return send;
}

namespace {
constexpr std::size_t kBytesPiece = std::size_t(1) << 30;
}  // namespace

void Communicator::send_bytes(const std::string& bytes, int to) const {
#if HALFSTEP_HAVE_MPI
  if (mpi_ && size_ > 1) {
    unsigned long long n = bytes.size();
    check(MPI_Send(&n, 1, MPI_UNSIGNED_LONG_LONG, to, 71, MPI_COMM_WORLD), "MPI_Send");
    for (std::size_t at = 0; at < bytes.size(); at += kBytesPiece) {
      const int len = static_cast<int>(std::min(kBytesPiece, bytes.size() - at));
      check(MPI_Send(bytes.data() + at, len, MPI_CHAR, to, 72, MPI_COMM_WORLD), "MPI_Send");
    }
    return;
  }
#endif
  (void)bytes;
  (void)to;
  throw std::logic_error("send_bytes in a run of one process");
}

std::string Communicator::receive_bytes(int from) const {
#if HALFSTEP_HAVE_MPI
  if (mpi_ && size_ > 1) {
    unsigned long long n = 0;
    check(MPI_Recv(&n, 1, MPI_UNSIGNED_LONG_LONG, from, 71, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "MPI_Recv");
    std::string out(static_cast<std::size_t>(n), '\0');
    for (std::size_t at = 0; at < out.size(); at += kBytesPiece) {
      const int len = static_cast<int>(std::min(kBytesPiece, out.size() - at));
      check(MPI_Recv(out.data() + at, len, MPI_CHAR, from, 72, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "MPI_Recv");
    }
    return out;
  }
#endif
  (void)from;
  throw std::logic_error("receive_bytes in a run of one process");
}

void Communicator::wait_for_bytes(int from) const {
#if HALFSTEP_HAVE_MPI
  if (mpi_ && size_ > 1) {
    for (int arrived = 0;;) {
      check(MPI_Iprobe(from, 71, MPI_COMM_WORLD, &arrived, MPI_STATUS_IGNORE), "MPI_Iprobe");
      if (arrived) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
#endif
  (void)from;
}

void Communicator::barrier() const {
#if HALFSTEP_HAVE_MPI
  if (mpi_ && size_ > 1) MPI_Barrier(MPI_COMM_WORLD);
#endif
}

void Communicator::abort(int code) const {
#if HALFSTEP_HAVE_MPI
  if (mpi_) MPI_Abort(MPI_COMM_WORLD, code);
#endif
  std::exit(code);
}

bool Communicator::cuda_aware() const {
#if HALFSTEP_HAVE_MPI && defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  // Built with CUDA support; the library still says whether it can use it in this run.
  return mpi_ && MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

std::string Communicator::library() const {
#if HALFSTEP_HAVE_MPI
  char name[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  if (mpi_ && MPI_Get_library_version(name, &len) == MPI_SUCCESS) {
    std::string s(name, static_cast<std::size_t>(len));
    const auto cut = s.find_first_of(",\n");
    return cut == std::string::npos ? s : s.substr(0, cut);
  }
#endif
  return "none";
}

MpiSession::MpiSession(int* argc, char*** argv) {
#if HALFSTEP_HAVE_MPI
  if (launched_by_mpi()) {
    int provided = 0;
    // Only the main thread calls MPI (the output thread never does).
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
      throw std::runtime_error("MPI_Init_thread failed");
    started_ = true;
  }
#else
  (void)argc;
  (void)argv;
#endif
}

MpiSession::~MpiSession() {
#if HALFSTEP_HAVE_MPI
  if (started_) MPI_Finalize();
#endif
}

Communicator MpiSession::communicator() const { return started_ ? Communicator::world() : Communicator(); }

}  // namespace halfstep
