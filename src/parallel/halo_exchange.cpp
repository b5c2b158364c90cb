#include "parallel/halo_exchange.hpp"

#include <chrono>
#include <stdexcept>

#if HALFSTEP_HAVE_MPI
#include <mpi.h>
#endif

namespace halfstep {

struct HaloExchange::Requests {
#if HALFSTEP_HAVE_MPI
  std::vector<MPI_Request> list;
#endif
};

namespace {
double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
constexpr int kHaloTag = 17;
}  // namespace

HaloExchange::HaloExchange(const Communicator& comm, std::vector<int> neighbors, std::vector<int> counts, bool single)
    : comm_(comm), neighbors_(std::move(neighbors)), counts_(std::move(counts)), single_(single),
      requests_(std::make_unique<Requests>()) {
  if (neighbors_.size() != counts_.size()) throw std::logic_error("HaloExchange: one count per neighbour");
  for (int c : counts_) {
    offsets_.push_back(total_);
    total_ += c;
  }
#if !HALFSTEP_HAVE_MPI
  if (!neighbors_.empty()) throw std::runtime_error("this build has no MPI: a run cannot have neighbouring ranks");
#endif
}

HaloExchange::~HaloExchange() = default;

void HaloExchange::start(const void* send, void* recv) {
  const double t0 = now();
#if HALFSTEP_HAVE_MPI
  const MPI_Datatype type = single_ ? MPI_FLOAT : MPI_DOUBLE;
  const std::size_t size = single_ ? sizeof(float) : sizeof(double);
  auto& req = requests_->list;
  req.assign(2 * neighbors_.size(), MPI_REQUEST_NULL);
  for (std::size_t i = 0; i < neighbors_.size(); ++i)
    if (MPI_Irecv(static_cast<char*>(recv) + size * offsets_[i], counts_[i], type, neighbors_[i], kHaloTag,
                  MPI_COMM_WORLD, &req[i]) != MPI_SUCCESS)
      throw std::runtime_error("MPI_Irecv of the interface forces failed");
  for (std::size_t i = 0; i < neighbors_.size(); ++i)
    if (MPI_Isend(static_cast<const char*>(send) + size * offsets_[i], counts_[i], type, neighbors_[i], kHaloTag,
                  MPI_COMM_WORLD, &req[neighbors_.size() + i]) != MPI_SUCCESS)
      throw std::runtime_error("MPI_Isend of the interface forces failed");
#else
  (void)send;
  (void)recv;
#endif
  seconds_ += now() - t0;
}

void HaloExchange::sum(double* v, int n) {
  const double t0 = now();
  comm_.sum(v, n);
  seconds_ += now() - t0;
}

void HaloExchange::finish() {
  const double t0 = now();
#if HALFSTEP_HAVE_MPI
  auto& req = requests_->list;
  if (!req.empty() && MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE) != MPI_SUCCESS)
    throw std::runtime_error("MPI_Waitall on the interface forces failed");
#endif
  seconds_ += now() - t0;
}

}  // namespace halfstep
