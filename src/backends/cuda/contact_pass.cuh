// The contact pass on the GPU, host side: the device copies of the contact tables, the
// friction history and the per-record results, the broad phase's buckets and the ordered
// sum's scratch, and the launches of one pass (kernels in contact_kernels.cuh, physics in
// dynamics/contact_pass.hpp). The CUDA backend holds one and reads its nodal forces.
#pragma once

#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "backends/cuda/contact_kernels.cuh"
#include "backends/cuda/device_memory.cuh"
#include "backends/cuda/forall.cuh"
#include "backends/cuda/sum_slots.cuh"
#include "backends/cuda/views.cuh"
#include "core/error.hpp"
#include "discretization/structure_system.hpp"
#include "dynamics/contact_pass.hpp"
#include "dynamics/output_frame.hpp"

namespace halfstep {
namespace cuda {

/// The backend's arrays a contact pass reads besides its own (ContactView's first members):
/// reference coordinates, displacements and half-step velocities at t^n, nodal masses, the
/// step's held bits and the nodes rigid bodies move (null: none).
template <class T>
struct ContactNodes {
  const T *x0, *y0, *z0, *ux, *uy, *uz;
  const T* v[3];
  const T* mass;
  const std::uint8_t *held, *body_skip;
};

/// The contact pass's device arrays and launches; empty (setup never called) without contact.
template <class T>
struct ContactPass {
  explicit ContactPass(const StructureSystem& sys) : sys_(sys) {}

  /// Blocks for the contact kernels that give each record a warp.
  static int warp_blocks(std::size_t n) { return blocks(n, cuda::kContactRecordsPerBlock); }

  /// The penalty springs' masses again, after *VARIABLE MASS SCALING changed the masses (the
  /// host recomputed them in sys_.contact; same sizes, so the device arrays stay where they are).
  void update_spring_masses() {
    const ContactSystem& cs = sys_.contact;
    ct_spring_mass_.assign(convert<T>(cs.spring_mass));
    ct_e_mass_.assign(convert<T>(cs.edge_spring_mass));
  }

  /// Device copies of the contact arrays, the broad phase's buckets and the scan's scratch.
  /// (stream: the backend's, on which the pass zeroes and later launches.)
  void setup(cudaStream_t stream) {
    stream_ = stream;
    const ContactSystem& cs = sys_.contact;
    const int nf = cs.num_facets, ns = cs.num_slaves, nn = sys_.num_nodes;
    ct_facet_nodes_.assign(cs.facet_nodes);
    ct_facet_pair_.assign(cs.facet_pair);
    ct_facet_offset_.assign(convert<T>(cs.facet_offset));
    ct_facet_depth_.assign(convert<T>(cs.facet_depth));
    ct_spring_mass_.assign(convert<T>(cs.spring_mass));
    ct_two_sided_.assign(cs.facet_two_sided);
    ct_slave_node_.assign(cs.slave_node);
    ct_slave_pair_.assign(cs.slave_pair);
    ct_slave_offset_.assign(convert<T>(cs.slave_offset));
    ct_slave_facet_ptr_.assign(cs.slave_facet_ptr);
    ct_slave_facet_nodes_.assign(cs.slave_facet_nodes);
    ct_mu_s_.assign(convert<T>(cs.mu_static));
    ct_mu_k_.assign(convert<T>(cs.mu_kinetic));
    ct_decay_.assign(convert<T>(cs.decay));
    if (cs.softened()) {  // softened pressure-overclosure laws (dynamics/contact_law.hpp)
      ct_law_kind_.assign(cs.law_kind);
      ct_law_ptr_.assign(cs.law_ptr);
      ct_law_values_.assign(convert<T>(cs.law_values));
      ct_law_clearance_.assign(convert<T>(cs.law_clearance));
      ct_slave_area_.assign(convert<T>(cs.slave_area));
    }
    ct_self_.assign(cs.self);
    ct_mirrored_.assign(cs.mirrored);
    ct_near_ptr_.assign(cs.near_ptr);
    ct_near_nodes_.assign(cs.near_nodes);
    ct_an_ref_.assign(cs.analytic_ref);
    ct_an_seg_ptr_.assign(cs.analytic_seg_ptr);
    ct_pair_surface_.assign(cs.pair_surface);
    ct_an_frame_.assign(convert<T>(cs.analytic_frame));
    ct_an_seg_.assign(convert<T>(cs.analytic_seg));
    ct_history_.resize(kContactHistory * static_cast<std::size_t>(ns + cs.num_edges));
    ct_history_.zero(stream_);
    ct_force_.resize(6 * static_cast<std::size_t>(ns));
    ct_weight_.resize(4 * static_cast<std::size_t>(ns));
    ct_facet_of_.resize(static_cast<std::size_t>(ns));
    ct_normal_.resize(3 * static_cast<std::size_t>(nn));
    ct_normal_.zero(stream_);
    ct_shear_.resize(3 * static_cast<std::size_t>(nn));
    ct_shear_.zero(stream_);
    ct_pair_force_.resize(6 * static_cast<std::size_t>(cs.num_pairs));
    ct_pair_force_.zero(stream_);
    ct_buckets_ = 1;
    while (ct_buckets_ < 2 * nf) ct_buckets_ *= 2;
    ct_start_.resize(static_cast<std::size_t>(ct_buckets_) + 1);
    ct_cursor_.resize(static_cast<std::size_t>(ct_buckets_) + 1);
    ct_key_.resize(static_cast<std::size_t>(nf));
    ct_facets_.resize(static_cast<std::size_t>(nf));
    ct_candidates_.resize(static_cast<std::size_t>(nf));
    ct_geom_.resize(static_cast<std::size_t>(kFacetGeom) * nf);
    ct_max_.resize(1);
    ct_sums_.resize(2);
    ct_sums_.zero(stream_);
    ct_ticket_.resize(1);
    ct_ticket_.zero(stream_);
    ct_slots_.size(static_cast<std::size_t>(cs.num_slaves), stream_);
    // Edge-to-edge contact: its tables, per-record results and its own buckets.
    const int ne = cs.num_edges;
    ct_e_nodes_.assign(cs.edge_nodes);
    ct_e_pair_.assign(cs.edge_pair);
    ct_e_role_.assign(cs.edge_role);
    ct_e_facets_.assign(cs.edge_facets);
    ct_e_offset_.assign(convert<T>(cs.edge_offset));
    ct_e_depth_.assign(convert<T>(cs.edge_depth));
    ct_e_mass_.assign(convert<T>(cs.edge_spring_mass));
    ct_e_near_ptr_.assign(cs.edge_near_ptr);
    ct_e_near_nodes_.assign(cs.edge_near_nodes);
    ct_e_force_.resize(3 * static_cast<std::size_t>(ne));
    ct_e_param_.resize(2 * static_cast<std::size_t>(ne));
    ct_e_of_.resize(static_cast<std::size_t>(ne));
    ct_e_buckets_ = 1;
    while (ct_e_buckets_ < 2 * ne) ct_e_buckets_ *= 2;
    ct_e_start_.resize(static_cast<std::size_t>(ct_e_buckets_) + 1);
    ct_e_cursor_.resize(static_cast<std::size_t>(ct_e_buckets_) + 1);
    ct_e_key_.resize(static_cast<std::size_t>(ne));
    ct_e_list_.resize(static_cast<std::size_t>(ne));
    ct_e_max_.resize(1);
    ct_e_sums_.resize(2);
    ct_e_sums_.zero(stream_);
    ct_e_ticket_.resize(1);
    ct_e_ticket_.zero(stream_);
    ct_e_slots_.size(32 * static_cast<std::size_t>(ne), stream_);  // a warp per record
    ct_scan_bytes_ = 0;
    check(cub::DeviceScan::InclusiveSum(nullptr, ct_scan_bytes_, ct_cursor_.get(), ct_start_.get(), ct_buckets_ + 1,
                                        stream_),
          "contact scan size");
    ct_e_scan_bytes_ = 0;
    check(cub::DeviceScan::InclusiveSum(nullptr, ct_e_scan_bytes_, ct_e_cursor_.get(), ct_e_start_.get(),
                                        ct_e_buckets_ + 1, stream_),
          "contact scan size");
    ct_scan_temp_.resize(std::max<std::size_t>(std::max(ct_scan_bytes_, ct_e_scan_bytes_), 1));
    // The ordered sum of the records' forces (launch): its entries, sorted copies,
    // runs and the scratch of the sort, the run encoding and the scan.
    const long long entries = kContactSlaveEntries * static_cast<long long>(ns) + kContactEdgeEntries * static_cast<long long>(ne);
    if (entries > std::numeric_limits<int>::max() / 2)
      throw RunError("too many contact records for the GPU's contact sum (" + std::to_string(entries) + " entries)");
    ct_entries_ = static_cast<int>(entries);
    const std::size_t n_entries = static_cast<std::size_t>(std::max<long long>(entries, 1));
    for (int k = 0; k < 2; ++k) {
      ct_ord_key_[k].resize(n_entries);
      ct_ord_entry_[k].resize(n_entries);
    }
    ct_run_key_.resize(n_entries);
    ct_run_count_.resize(n_entries);
    ct_run_start_.resize(n_entries);
    ct_num_runs_.resize(1);
    const unsigned none = static_cast<unsigned>(nn + cs.num_pairs);
    ct_ord_bits_ = 1;
    while (ct_ord_bits_ < 31 && (none >> ct_ord_bits_) != 0) ++ct_ord_bits_;
    std::size_t sort_bytes = 0, runs_bytes = 0, starts_bytes = 0;
    check(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, ct_ord_key_[0].get(), ct_ord_key_[1].get(),
                                          ct_ord_entry_[0].get(), ct_ord_entry_[1].get(), ct_entries_, 0, ct_ord_bits_,
                                          stream_),
          "contact sort size");
    check(cub::DeviceRunLengthEncode::Encode(nullptr, runs_bytes, ct_ord_key_[1].get(), ct_run_key_.get(),
                                             ct_run_count_.get(), ct_num_runs_.get(), ct_entries_, stream_),
          "contact runs size");
    check(cub::DeviceScan::ExclusiveSum(nullptr, starts_bytes, ct_run_count_.get(), ct_run_start_.get(), ct_entries_,
                                        stream_),
          "contact run starts size");
    ct_ord_temp_.resize(std::max<std::size_t>({sort_bytes, runs_bytes, starts_bytes, 1}));
  }

  /// The contact pass's view at t^n of inc (commit: the friction history advances).
  ContactView<T> view(const Increment& inc, bool commit, const ContactNodes<T>& n) {
    const ContactSystem& cs = sys_.contact;
    const double dt = sys_.stable_dt;  // not the increment in use: see CpuBackend::contact_pass
    ContactView<T> c{n.x0,
            n.y0,
            n.z0,
            n.ux,
            n.uy,
            n.uz,
            {n.v[0], n.v[1], n.v[2]},
            n.mass,
            cs.num_slaves,
            ct_facet_nodes_.get(),
            ct_facet_pair_.get(),
            ct_facet_offset_.get(),
            ct_facet_depth_.get(),
            ct_two_sided_.get(),
            ct_slave_node_.get(),
            ct_slave_pair_.get(),
            ct_slave_offset_.get(),
            ct_spring_mass_.get(),
            ct_slave_facet_ptr_.get(),
            ct_slave_facet_nodes_.get_or_null(),
            ct_mu_s_.get(),
            ct_mu_k_.get(),
            ct_decay_.get(),
            ct_self_.get(),
            ct_mirrored_.get(),
            n.held,
            n.body_skip,
            T(dt > 0 ? cs.penalty_scale * kContactPenaltyFraction / (dt * dt) : 0.0),
            T(2 * inc.h_prev),
            ContactGrid<T>{T(1), ct_buckets_ - 1, ct_start_.get(), ct_facets_.get(), ct_candidates_.get_or_null()},
            ct_history_.get(),
            ct_force_.get(),
            ct_facet_of_.get(),
            ct_weight_.get(),
            commit,
            AnalyticView<T>{cs.num_facets, cs.num_analytic, ct_an_ref_.get_or_null(), ct_an_frame_.get_or_null(),
                            ct_an_seg_ptr_.get(), ct_an_seg_.get_or_null(), ct_pair_surface_.get()},
            ct_near_ptr_.get(),
            ct_near_nodes_.get_or_null(),
            ct_geom_.get_or_null(),
            cs.num_edges,
            ct_e_nodes_.get_or_null(),
            ct_e_pair_.get_or_null(),
            ct_e_role_.get_or_null(),
            ct_e_facets_.get_or_null(),
            ct_e_offset_.get_or_null(),
            ct_e_depth_.get_or_null(),
            ct_e_mass_.get_or_null(),
            ct_e_near_ptr_.get(),
            ct_e_near_nodes_.get_or_null(),
            ContactGrid<T>{T(1), ct_e_buckets_ - 1, ct_e_start_.get(), ct_e_list_.get_or_null()},
            ct_e_force_.get_or_null(),
            ct_e_param_.get_or_null(),
            ct_e_of_.get_or_null()};
    if (cs.softened())
      c.law = {ct_law_kind_.get(), ct_law_ptr_.get(), ct_law_values_.get(), ct_law_clearance_.get(), ct_slave_area_.get()};
    return c;
  }

  /// Contact at t^n, before the node pass (dynamics/contact_pass.hpp; kernels in
  /// contact_kernels.cuh): broad phase, narrow phase, nodal forces.
  void launch(const Increment& inc, bool commit, const ContactNodes<T>& n, const RunView& run) {
    const ContactSystem& cs = sys_.contact;
    const int nf = cs.num_facets, ns = cs.num_slaves, nb = ct_buckets_;
    const ContactView<T> c = view(inc, commit, n);
    ct_max_.zero(stream_);
    // (Only analytical masters: no facets, an empty grid; a launch of no blocks is an error.)
    if (nf > 0) cuda::contact_extent_kernel<T><<<blocks(nf, 128), 128, 0, stream_>>>(c, nf, ct_max_.get(), false);
    check(cudaMemsetAsync(ct_cursor_.get(), 0, (nb + 1) * sizeof(int), stream_), "contact buckets");
    if (nf > 0)
      cuda::contact_count_kernel<T><<<blocks(nf, 128), 128, 0, stream_>>>(c, nf, ct_max_.get(), cs.reach, nb - 1,
                                                                         ct_key_.get(), ct_cursor_.get(), false);
    check(cub::DeviceScan::InclusiveSum(ct_scan_temp_.get(), ct_scan_bytes_, ct_cursor_.get(), ct_start_.get(),
                                        nb + 1, stream_),
          "contact scan");
    check(cudaMemcpyAsync(ct_cursor_.get(), ct_start_.get(), (nb + 1) * sizeof(int), cudaMemcpyDeviceToDevice, stream_),
          "contact buckets");
    if (nf > 0)
      cuda::contact_fill_kernel<<<blocks(nf, 128), 128, 0, stream_>>>(nf, ct_key_.get(), ct_cursor_.get(),
                                                                   ct_facets_.get());
    if (nf > 0)
      cuda::contact_gather_candidates_kernel<T><<<blocks(nf, 128), 128, 0, stream_>>>(c, nf, ct_facets_.get(),
                                                                                   ct_candidates_.get());
    cuda::contact_narrow_kernel<T><<<blocks(ns, 128), 128, 0, stream_>>>(c, ct_max_.get(), cs.reach, run,
                                                                        ct_slots_.view(ct_sums_.get(), ct_ticket_.get()));
    const int ne = cs.num_edges, neb = ct_e_buckets_;
    if (ne > 0) {  // edge-to-edge contact: its broad phase as the facets', then one thread per edge
      ct_e_max_.zero(stream_);
      cuda::contact_extent_kernel<T><<<blocks(ne, 128), 128, 0, stream_>>>(c, ne, ct_e_max_.get(), true);
      check(cudaMemsetAsync(ct_e_cursor_.get(), 0, (neb + 1) * sizeof(int), stream_), "contact buckets");
      cuda::contact_count_kernel<T><<<blocks(ne, 128), 128, 0, stream_>>>(c, ne, ct_e_max_.get(), cs.reach, neb - 1,
                                                                         ct_e_key_.get(), ct_e_cursor_.get(), true);
      check(cub::DeviceScan::InclusiveSum(ct_scan_temp_.get(), ct_e_scan_bytes_, ct_e_cursor_.get(), ct_e_start_.get(),
                                          neb + 1, stream_),
            "contact scan");
      check(cudaMemcpyAsync(ct_e_cursor_.get(), ct_e_start_.get(), (neb + 1) * sizeof(int), cudaMemcpyDeviceToDevice,
                            stream_),
            "contact buckets");
      cuda::contact_fill_kernel<<<blocks(ne, 128), 128, 0, stream_>>>(ne, ct_e_key_.get(), ct_e_cursor_.get(),
                                                                   ct_e_list_.get());
      cuda::contact_edge_kernel<T><<<warp_blocks(ne), 32 * cuda::kContactRecordsPerBlock, 0, stream_>>>(c, ct_e_max_.get(), cs.reach, run,
                                                                        ct_e_slots_.view(ct_e_sums_.get(), ct_e_ticket_.get()));
    }
    ct_normal_.zero(stream_);
    ct_shear_.zero(stream_);
    ct_pair_force_.zero(stream_);
    // The records' forces onto the nodes and definitions in a fixed order (contact_entry_key):
    // entries sorted by target (stable), runs of one target found, each run summed by a warp.
    const int entries = ct_entries_, nn = sys_.num_nodes, none = nn + cs.num_pairs;
    if (entries > 0) {
      cuda::contact_entry_kernel<T><<<blocks(entries, 256), 256, 0, stream_>>>(c, entries, nn, none, ct_ord_key_[0].get(),
                                                                             ct_ord_entry_[0].get());
      std::size_t bytes = ct_ord_temp_.size();
      check(cub::DeviceRadixSort::SortPairs(ct_ord_temp_.get(), bytes, ct_ord_key_[0].get(), ct_ord_key_[1].get(),
                                            ct_ord_entry_[0].get(), ct_ord_entry_[1].get(), entries, 0, ct_ord_bits_,
                                            stream_),
            "contact sort");
      ct_run_count_.zero(stream_);  // the scan below reads every slot, also those past the runs
      bytes = ct_ord_temp_.size();
      check(cub::DeviceRunLengthEncode::Encode(ct_ord_temp_.get(), bytes, ct_ord_key_[1].get(), ct_run_key_.get(),
                                               ct_run_count_.get(), ct_num_runs_.get(), entries, stream_),
            "contact runs");
      bytes = ct_ord_temp_.size();
      check(cub::DeviceScan::ExclusiveSum(ct_ord_temp_.get(), bytes, ct_run_count_.get(), ct_run_start_.get(), entries,
                                          stream_),
            "contact run starts");
      constexpr int kWarpsPerBlock = 4;
      const int sum_blocks = std::min(blocks(entries, kWarpsPerBlock), 1 << 16);
      cuda::contact_ordered_sum_kernel<T><<<sum_blocks, 32 * kWarpsPerBlock, 0, stream_>>>(
          c, ct_ord_entry_[1].get(), ct_run_key_.get(), ct_run_count_.get(), ct_run_start_.get(), ct_num_runs_.get(), nn,
          none, ct_normal_.get(), ct_shear_.get(), ct_pair_force_.get());
    }
    check(cudaGetLastError(), "contact launch");
  }

  /// Applies f(name, array, mirror) to every contact array that kernels write (part of the
  /// backend's array list, in its order): the friction springs go on from the host's state
  /// and come back with the contact forces.
  template <class F>
  void for_each_device_array(F&& f) {
    const StateMirror none;
    f("ct_history", ct_history_, StateMirror{&state_array<&StructureState::contact_history>, true, true});
    f("ct_force", ct_force_, none);
    f("ct_weight", ct_weight_, none);
    f("ct_geom", ct_geom_, none);
    f("ct_candidates", ct_candidates_, none);
    f("ct_e_force", ct_e_force_, none);
    f("ct_e_param", ct_e_param_, none);
    f("ct_e_max", ct_e_max_, none);
    f("ct_e_sums", ct_e_sums_, none);
    f("ct_e_ticket", ct_e_ticket_, none);
    f("ct_normal", ct_normal_, StateMirror{&state_array<&StructureState::contact_normal>, false, true});
    f("ct_shear", ct_shear_, StateMirror{&state_array<&StructureState::contact_shear>, false, true});
    f("ct_pair_force", ct_pair_force_, StateMirror{&state_array<&StructureState::contact_pair_force>, false, true});
    f("ct_max", ct_max_, none);
    f("ct_sums", ct_sums_, none);
    f("ct_ticket", ct_ticket_, none);
  }

  const StructureSystem& sys_;
  cudaStream_t stream_ = nullptr;  ///< the backend's (setup)

  // Contact (ContactSystem; empty without it): tables, friction history, per-record results,
  // nodal forces, the broad phase's buckets and the energy sums.
  DeviceArray<int> ct_facet_nodes_, ct_facet_pair_, ct_slave_node_, ct_slave_pair_, ct_facet_of_;
  DeviceArray<int> ct_start_, ct_cursor_, ct_key_, ct_facets_, ct_slave_facet_ptr_, ct_slave_facet_nodes_;
  DeviceArray<FacetCandidate<T>> ct_candidates_;  // the facets' candidate values in bucket order
  DeviceArray<std::uint8_t> ct_two_sided_, ct_self_, ct_mirrored_;
  DeviceArray<T> ct_facet_offset_, ct_facet_depth_, ct_spring_mass_, ct_slave_offset_, ct_mu_s_, ct_mu_k_, ct_decay_;
  DeviceArray<T> ct_history_, ct_force_, ct_weight_;
  DeviceArray<std::uint8_t> ct_law_kind_;                        // softened laws (NormalLawView)
  DeviceArray<int> ct_law_ptr_;
  DeviceArray<T> ct_law_values_, ct_law_clearance_, ct_slave_area_;
  DeviceArray<int> ct_an_ref_, ct_an_seg_ptr_, ct_pair_surface_;  // analytical masters (AnalyticView)
  DeviceArray<T> ct_geom_;                                        // kFacetGeom per facet at t^n
  DeviceArray<int> ct_near_ptr_, ct_near_nodes_;                 // self-contact neighbours (ContactView)
  DeviceArray<T> ct_an_frame_, ct_an_seg_;
  // Edge-to-edge contact (ContactSystem::edge_*, ContactView's edge members) and its buckets.
  DeviceArray<int> ct_e_nodes_, ct_e_pair_, ct_e_facets_, ct_e_near_ptr_, ct_e_near_nodes_, ct_e_of_;
  DeviceArray<int> ct_e_start_, ct_e_cursor_, ct_e_key_, ct_e_list_;
  DeviceArray<std::uint8_t> ct_e_role_;
  DeviceArray<T> ct_e_offset_, ct_e_depth_, ct_e_mass_, ct_e_force_, ct_e_param_;
  DeviceArray<unsigned long long> ct_e_max_;
  DeviceArray<double> ct_e_sums_;
  DeviceArray<unsigned> ct_e_ticket_;
  std::size_t ct_e_scan_bytes_ = 0;
  int ct_e_buckets_ = 0;
  mutable DeviceArray<T> ct_normal_, ct_shear_, ct_pair_force_;
  DeviceArray<unsigned long long> ct_max_;
  DeviceArray<double> ct_sums_;
  DeviceArray<unsigned> ct_ticket_;
  DeviceArray<unsigned char> ct_scan_temp_;
  std::size_t ct_scan_bytes_ = 0;
  int ct_buckets_ = 0;
  // The ordered sum of the contact forces (launch; contact_entry_key): entries and
  // their sorted copies, the runs of one target, and the scratch of the sort, encoding and scan.
  DeviceArray<int> ct_ord_key_[2], ct_ord_entry_[2], ct_run_key_, ct_run_count_, ct_run_start_, ct_num_runs_;
  DeviceArray<unsigned char> ct_ord_temp_;
  int ct_entries_ = 0;   ///< kContactSlaveEntries per slave record, kContactEdgeEntries per edge record
  int ct_ord_bits_ = 1;  ///< key bits the sort looks at (the largest key, "none", fits)
  // The grid sums' warp slots of the contact records and the contact edges (cuda::grid_sum).
  // Scratch, zero between launches: not in restart files.
  SumSlots ct_slots_, ct_e_slots_;
};

}  // namespace cuda
}  // namespace halfstep
