// The CUDA backend's distributed runs: the exchange of the shared (interface) nodes' partial
// forces around the element pass, the sums published over the ranks, the phase timers, and
// the contact pass on the host with its staging. CudaBackend's members, included by
// cuda_backend.cu after the class (the class and its headers come from there).
#pragma once

namespace halfstep {
namespace {

/// Distributed contact (host staging): u and v^(n-1/2) of the listed local nodes into out,
/// component after component (6 rows of count values).
template <class T>
__global__ void gather_contact_motion_kernel(NodeStateView<T> s, const int* nodes, int count, T* out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const int n = nodes[k];
  const T* src[6] = {s.ux, s.uy, s.uz, s.v[0], s.v[1], s.v[2]};
  for (int j = 0; j < 6; ++j) out[static_cast<std::size_t>(j) * count + k] = src[j][n];
}

/// Distributed contact (host staging): the listed local nodes' normal (3) and friction (3)
/// contact forces from in (6 per node) into the nodal arrays the node pass reads.
template <class T>
__global__ void scatter_contact_force_kernel(const T* in, const int* nodes, int count, T* normal, T* shear) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const int n = nodes[k];
  for (int d = 0; d < 3; ++d) {
    normal[3 * static_cast<std::size_t>(n) + d] = in[6 * static_cast<std::size_t>(k) + d];
    shear[3 * static_cast<std::size_t>(n) + d] = in[6 * static_cast<std::size_t>(k) + 3 + d];
  }
}

/// Records phase event k of this increment (advance() of a distributed run only).
template <class T>
void CudaBackend<T>::mark(int k) {
  if (timing_) check(cudaEventRecord(phase_events_[parity_][k], stream_), "cudaEventRecord");
}

/// Milliseconds from event a to event b, both complete.
template <class T>
double CudaBackend<T>::elapsed_ms(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  check(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
  return ms;
}

/// Adds the GPU phases known complete once this increment's pack is (packed_ synchronised):
/// its node pass and interface elements, and the previous increment's pack, interior
/// elements and interface sum (they precede this node pass on the stream; event 3 follows
/// packed_, so it may not be complete yet). Read here, the timers add no synchronisation of
/// their own; the last increment's pack and interior phases go uncounted.
template <class T>
void CudaBackend<T>::add_gpu_phases() {
  const auto& e = phase_events_[parity_];
  gpu_phase_[kGpuNodes] += 1e-3 * elapsed_ms(e[0], e[1]);
  gpu_phase_[kGpuInterfaceElements] += 1e-3 * elapsed_ms(e[1], e[2]);
  if (timed_before_) {
    const auto& q = phase_events_[1 - parity_];
    gpu_phase_[kGpuPack] += 1e-3 * elapsed_ms(q[2], q[3]);
    gpu_phase_[kGpuInteriorElements] += 1e-3 * elapsed_ms(q[3], q[4]);
    gpu_phase_[kGpuInterfaceSum] += 1e-3 * elapsed_ms(q[4], q[5]);
  }
}

/// (Without contact forces: every rank holding a shared node adds its whole contact force
/// in the node pass, as the CPU backend does.)
template <class T>
template <int kDofs>
void CudaBackend<T>::launch_pack() {
  const int nif = sys_.num_interface;
  if (scheme_ == GpuScheme::Gather)
    cuda::pack_interface_kernel<T, Sink::Slots, kDofs><<<blocks(nif, 128), 128, 0, stream_>>>(
        mesh_base(), drive_.view, nodal_forces(), slot_forces(), halo_buf_.get());
  else
    cuda::pack_interface_kernel<T, Sink::Plain, kDofs><<<blocks(nif, 128), 128, 0, stream_>>>(
        mesh_base(), drive_.view, nodal_forces(), slot_forces(), halo_buf_.get());
}

/// Distributed: exchanges the partials, reduces the sums of the last committed node pass
/// over the ranks into the host monitor, and queues the ordered sum of the shared nodes.
template <class T>
void CudaBackend<T>::finish_interface() {
  LapTimer lap;
  check(cudaEventSynchronize(packed_), "interface forces");
  if (timing_) {
    host_phase_[kHostPackWait] += lap();
    add_gpu_phases();
  }
  const int nif = sys_.num_interface;
  T* recv = halo_buf_.get() + static_cast<std::size_t>(kHaloValues) * nif;
  if (nif > 0) halo_->start(cuda_aware_ ? static_cast<const void*>(send_buf_.get()) : send_host_.host(),
                            cuda_aware_ ? static_cast<void*>(recv) : recv_host_.host());
  if (timing_) host_phase_[kHostExchange] += lap();
  if (pending_commit_) {
    // The snapshot the commit pass left: E(t^n), hourglass, dissipation, node sums at t^n.
    double pub[cuda::kPubValues];
    for (int i = 0; i < cuda::kPubValues; ++i) pub[i] = publish_host_.host()[cuda::kPubCommit + i];
    halo_->sum(pub, cuda::kPubValues);
    monitor_element_pass(host_monitor_, pub[0], pending_time_, pub[1], pub[2], pub[3], pub[4]);
    monitor_commit(host_monitor_, pub + cuda::kElementSums, pending_time_);
    pending_commit_ = false;
    if (timing_) host_phase_[kHostEnergySums] += lap();
  }
  if (nif == 0) return;
  halo_->finish();
  if (timing_) host_phase_[kHostExchange] += lap();
  if (!cuda_aware_ && recv_host_.size() > 0)
    check(cudaMemcpyAsync(recv, recv_host_.host(), recv_host_.size() * sizeof(T), cudaMemcpyHostToDevice, stream_),
          "copy interface forces");
  cuda::sum_halo_kernel<T><<<blocks(nif, 128), 128, 0, stream_>>>(sum_ptr_.get(), sum_src_.get(), halo_buf_.get(),
                                                                 nif, halo_total_.get());
  check(cudaGetLastError(), "interface sum launch");
}

/// Waits for the stream and reduces published slot (kPubValues values) over the ranks.
template <class T>
void CudaBackend<T>::read_published(int slot, double* out) {
  sync("published sums");
  std::vector<double> all(cuda::kPubSize);
  publish_.copy_to(all.data(), all.size());
  for (int i = 0; i < cuda::kPubValues; ++i) out[i] = all[static_cast<std::size_t>(slot + i)];
  halo_->sum(out, cuda::kPubValues);
}

template <class T>
void CudaBackend<T>::setup_distributed(const DistributedContext& ctx, const EnergyMonitor& m0) {
  dist_ = &ctx;
  host_monitor_ = m0;
  const Subdomain& d = *ctx.domain;
  cuda_aware_ = ctx.comm->cuda_aware();
  halo_ = std::make_unique<HaloExchange>(*ctx.comm, d.neighbors, message_sizes(d, kHaloValues), sizeof(T) == 4);
  const std::size_t nif = static_cast<std::size_t>(d.num_interface);
  halo_buf_.resize(kHaloValues * nif + static_cast<std::size_t>(halo_->total()));
  halo_total_.resize(kHaloValues * nif);
  send_buf_.resize(static_cast<std::size_t>(halo_->total()));
  send_nodes_.assign(d.send_nodes);
  sum_ptr_.assign(d.sum_ptr);
  sum_src_.assign(d.sum_src);
  owned_.assign(d.owned);
  if (!cuda_aware_) {
    send_host_.resize(static_cast<std::size_t>(halo_->total()));
    recv_host_.resize(static_cast<std::size_t>(halo_->total()));
  }
  publish_.resize(cuda::kPubSize);
  publish_.zero(stream_);
  publish_host_.resize(cuda::kPubSize);
  check(cudaEventCreateWithFlags(&packed_, cudaEventDisableTiming), "cudaEventCreate");
  for (auto& set : phase_events_)
    for (cudaEvent_t& e : set) check(cudaEventCreate(&e), "cudaEventCreate");
}

/// Distributed contact: the host pass (HostContact, the CPU backend's) and the staging
/// lists: this rank's contact nodes (ContactShare::node_local), ascending local index.
template <class T>
void CudaBackend<T>::setup_host_contact(int threads) {
  host_contact_ = std::make_unique<HostContact>(sys_, dist_, halo_.get(), std::max(1, threads));
  const ContactShare& share = dist_->domain->contact;
  std::vector<int> nodes;
  for (int l : share.node_local)
    if (l >= 0) nodes.push_back(l);
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  hc_nodes_ = nodes;
  hc_node_list_.assign(nodes);
  const std::size_t m = nodes.size(), nn = static_cast<std::size_t>(sys_.num_nodes);
  const std::size_t npair = 6 * static_cast<std::size_t>(sys_.contact.num_pairs);
  hc_down_.resize(std::max<std::size_t>(6 * m, 1));
  hc_up_.resize(std::max<std::size_t>(6 * m + npair, 1));
  for (auto& a : hc_motion_) a.assign(nn, 0.0);
  hc_normal_.assign(3 * nn, 0.0);
  hc_shear_.assign(3 * nn, 0.0);
  hc_pair_.assign(npair, 0.0);
  hc_history_.assign(static_cast<std::size_t>(kContactHistory) *
                         (static_cast<std::size_t>(sys_.contact.num_slaves) + sys_.contact.num_edges),
                     0.0);
}

/// Distributed contact at t^n: this rank's contact nodes' u and v^(n-1/2) to the host
/// (6 values per node), the host pass over the ranks, their nodal contact forces and the
/// per-definition totals back (6 per node, 6 per definition) into the buffers the node
/// kernel reads, the energies into the host monitor (distributed runs keep it there).
template <class T>
void CudaBackend<T>::run_host_contact(const Increment& inc, bool commit) {
  const int m = static_cast<int>(hc_nodes_.size());
  const std::size_t npair = hc_pair_.size();
  if (m > 0) {
    gather_contact_motion_kernel<T><<<blocks(m, 128), 128, 0, stream_>>>(state(), hc_node_list_.get(), m,
                                                                         hc_down_.device());
    check(cudaGetLastError(), "contact staging launch");
  }
  sync("contact staging");  // also: the previous pass's uploads are done with hc_up_
  const T* down = hc_down_.host();
  for (int j = 0; j < 6; ++j) {
    std::vector<double>& to = hc_motion_[static_cast<std::size_t>(j)];
    for (int k = 0; k < m; ++k) to[static_cast<std::size_t>(hc_nodes_[k])] = double(down[static_cast<std::size_t>(j) * m + k]);
  }
  const HostContactNodes in{{hc_motion_[0].data(), hc_motion_[1].data(), hc_motion_[2].data()},
                            {hc_motion_[3].data(), hc_motion_[4].data(), hc_motion_[5].data()},
                            host_held_.data()};
  const std::array<double, 2> energy =
      host_contact_->run(inc, commit, in, {hc_history_.data(), hc_normal_.data(), hc_shear_.data(), hc_pair_.data()});
  monitor_contact(host_monitor_, energy[0], energy[1]);
  T* up = hc_up_.host();
  for (int k = 0; k < m; ++k) {
    const std::size_t n = static_cast<std::size_t>(hc_nodes_[k]);
    for (int d = 0; d < 3; ++d) {
      up[6 * static_cast<std::size_t>(k) + d] = T(hc_normal_[3 * n + d]);
      up[6 * static_cast<std::size_t>(k) + 3 + d] = T(hc_shear_[3 * n + d]);
    }
  }
  for (std::size_t i = 0; i < npair; ++i) up[6 * static_cast<std::size_t>(m) + i] = T(hc_pair_[i]);
  if (m > 0)
    scatter_contact_force_kernel<T><<<blocks(m, 128), 128, 0, stream_>>>(
        hc_up_.device(), hc_node_list_.get(), m, contact_.ct_normal_.get(), contact_.ct_shear_.get());
  if (npair > 0)
    check(cudaMemcpyAsync(contact_.ct_pair_force_.get(), up + 6 * static_cast<std::size_t>(m), npair * sizeof(T),
                          cudaMemcpyHostToDevice, stream_),
          "copy contact totals");
  check(cudaGetLastError(), "contact staging launch");
}

}  // namespace
}  // namespace halfstep
