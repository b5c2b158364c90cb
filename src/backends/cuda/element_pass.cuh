// The CUDA backend's element pass: the element families' device arrays, the pass's launches
// by planned piece (shells, solid groups, the device families; gather, atomic, colored or
// element-local scheme; whole or split kernels) in a fixed order of warp-sum slots, and the
// block sizes the passes run with (autotune). CudaBackend's members, included by
// cuda_backend.cu after the class (the class and its headers come from there).
#pragma once

namespace halfstep {
namespace {

/// The shells' connectivity and sections (and the plastic sections' laws and section-point state).
template <class T>
void CudaBackend<T>::setup_shells() {
  conn_.assign(sys_.shell.conn);
  section_.assign(sys_.shell.section);
  std::vector<T> thick;
  std::vector<ShellElastic<T>> el;
  for (const SectionProps& p : sys_.shell.sections) {
    thick.push_back(T(p.thickness));
    el.push_back(ShellElastic<T>::from(p.youngs, p.poisson));
  }
  thickness_.assign(thick);
  elastic_.assign(el);
  if (has_plastic_shells(sys_)) {
    std::vector<int> points;
    std::vector<SolidMaterial<T>> laws;
    for (const SectionProps& p : sys_.shell.sections) {
      points.push_back(p.section_points);
      laws.push_back(material_as<T>(p.law));
    }
    section_points_.assign(points);
    shell_law_.assign(laws);
    shell_first_.assign(std::vector<std::size_t>(sys_.shell.first_point.begin(), sys_.shell.first_point.end() - 1));
    shell_state_.resize(static_cast<std::size_t>(kJ2PlaneStateSize) * sys_.shell.num_points);
  }
}

/// The solids' tables, material state and, by scheme, slots or colors (split FPM hexahedra:
/// hand-over arrays).
template <class T>
void CudaBackend<T>::setup_solids() {
  const int nn = sys_.num_nodes;
  const SolidMesh& sm = sys_.solid;
  const int ns = sm.num_elements;
  solid_conn_.assign(sm.conn);
  solid_material_.assign(sm.material);
  if (!sm.element_data_ptr.empty()) {  // adhesion edges: their faces' constants
    solid_edata_.assign(sm.element_data);
    solid_edata_ptr_.assign(sm.element_data_ptr);
  }
  std::vector<SolidMaterial<T>> mats;
  for (const SolidMaterial<double>& m : sm.materials) mats.push_back(material_as<T>(m));
  solid_materials_.assign(mats);
  solid_energy_.resize(ns);
  solid_hourglass_.resize(ns);
  solid_state_.resize(static_cast<std::size_t>(sm.state_size) * sm.num_points);
  // The thermal work's last passes (StructureState::solid_thermal_last): none yet.
  solid_thermal_last_.assign(std::vector<T>(thermal_pass_elements(sys_), std::numeric_limits<T>::quiet_NaN()));
  solid_thermal_slope_.assign(std::vector<T>(thermal_pass_elements(sys_), T(0)));
  if (split_hexes_) {  // the split scheme's hand-over between its FPM hexahedron kernels
    for (const SolidGroup& g : sm.groups)
      visit_continuum_kind(g.kind, [&](auto kind) {
        if constexpr (std::is_same_v<decltype(kind), FpmC3D8>) hex_stride_ = std::max(hex_stride_, g.count);
      });
    hex_increment_.resize(static_cast<std::size_t>(kHexIncrementValues) * hex_stride_);
    hex_result_.resize(static_cast<std::size_t>(kHexResultValues) * hex_stride_);
  }
  if (scheme_ == GpuScheme::Gather) {
    solid_slot_ptr_.assign(sm.node_slot_ptr);
    solid_slots_.assign(sm.node_slots);
    solid_force_.resize(3 * sm.conn.size());
  }
  if (scheme_ == GpuScheme::Colored) {
    // Per group: colors of its elements (local indices), so one launch is race-free.
    std::vector<int> all;
    for (const SolidGroup& g : sm.groups) {
      const std::vector<int> conn(sm.conn.begin() + g.conn_offset,
                                  sm.conn.begin() + g.conn_offset + static_cast<std::size_t>(g.count) * g.nodes_per_element);
      const ElementColoring col = color_elements(conn, nn, g.nodes_per_element);
      std::vector<int> ptr;
      for (int p : col.ptr) ptr.push_back(static_cast<int>(all.size()) + p);
      all.insert(all.end(), col.elements.begin(), col.elements.end());
      solid_color_ptr_.push_back(ptr);
    }
    solid_color_elements_.assign(all);
  }
}

/// Element pass at tau. In a distributed run with exchange set, the elements touching
/// shared nodes go first; their partial sums leave while the interior elements run, and
/// the summed forces are in halo_total_ before the next node pass.
template <class T>
void CudaBackend<T>::launch_elements(double tau, double time, int block, bool exchange) {
  const bool split = dist_ != nullptr && exchange;
  parts_cursor_ = 0;
  // The temperature changes at tau, which every continuum element of the pass reads.
  if (drive_.view.thermal_ptr)
    cuda::forall(0, sys_.solid.num_elements, 256, stream_, ThermalBody<T>{drive_.view, tau, solid_thermal_.get()});
  std::size_t i = 0;
  for (; i < pieces_.size() && !pieces_[i].interior; ++i) launch_piece(pieces_[i], tau, block);
  if (drive_.view.num_faces > 0)
    cuda::forall(0, drive_.view.num_faces, 128, stream_,
                 FaceForceBody<T>{drive_.view, tau, x0_.get(), y0_.get(), z0_.get(), ux_.get(), uy_.get(), uz_.get(),
                                  face_force_.get(), monitor_.get()});
  check(cudaGetLastError(), "element pass launch");
  if (split) {
    mark(2);
    pack_interface();
    mark(3);
  }
  for (; i < pieces_.size(); ++i) launch_piece(pieces_[i], tau, block);
  if (parts_cursor_ > 0)
    cuda::element_sums_kernel<<<cuda::element_sum_blocks(parts_cursor_), cuda::kElementSumThreads, 0, stream_>>>(
        run(), parts_cursor_, time);
  check(cudaGetLastError(), "element pass launch");
  if (split) {
    mark(4);
    finish_interface();
    mark(5);
  }
}

/// Element launches of a pass, planned once: per kind (shells, then each solid group) the
/// elements touching shared nodes, then (interior) the rest; the whole kind when the run is
/// not distributed or the scheme is colored.
template <class T>
void CudaBackend<T>::plan_pieces() {
  const auto add = [&](int group, int count, int boundary, cuda::DeviceFamily<T>* family) {
    const int nb = dist_ && scheme_ != GpuScheme::Colored ? boundary : count;
    if (nb > 0) pieces_.push_back({group, 0, nb, false, family});
    if (count > nb) pieces_.push_back({group, nb, count - nb, true, family});
  };
  if (sys_.shell.num_elements > 0) add(-1, sys_.shell.num_elements, sys_.shell.boundary, nullptr);
  const auto& groups = sys_.solid.groups;
  for (std::size_t g = 0; g < groups.size(); ++g)
    add(static_cast<int>(g), groups[g].count, groups[g].boundary, nullptr);
  for (auto& f : families_) add(-1, f->count(), f->boundary(), f.get());
  std::stable_partition(pieces_.begin(), pieces_.end(), [](const Piece& p) { return !p.interior; });
}

/// The first warp slot of the next element launch of threads threads: a pass's launches take
/// consecutive slots in launch order, so the sums' order follows the element counts alone.
template <class T>
unsigned CudaBackend<T>::take_slots(std::size_t threads) {
  const std::size_t slot0 = parts_cursor_, next = slot0 + (threads + 31) / 32;
  if (next > parts_capacity_)
    throw std::logic_error("element pass: its launches need more warp sums than were planned");
  parts_cursor_ = static_cast<unsigned>(next);
  return static_cast<unsigned>(slot0);
}

/// One planned launch (its warps' energy sums go to the slots take_slots hands it).
template <class T>
void CudaBackend<T>::launch_piece(const Piece& p, double tau, int block) {
  if (p.family) {
    const cuda::ElementLaunch<T> l{stream_, state(), drive_.view, tau, run(),
                                   [this](std::size_t threads) { return take_slots(threads); }};
    p.family->launch(l, p.begin, p.count, block);
  } else if (p.group < 0 && scheme_ == GpuScheme::Colored) {
    const int colors = static_cast<int>(color_ptr_.size()) - 1;
    for (int c = 0; c < colors; ++c) {
      const int count = color_ptr_[c + 1] - color_ptr_[c];
      const auto launch = [&](auto kernel) {
        kernel<<<blocks(count, block), block, 0, stream_>>>(mesh(), state(), drive_.view, tau,
                                                            color_elements_.get() + color_ptr_[c], 0, count,
                                                            nodal_forces(), slot_forces(), elem_energy_.get_or_null(),
                                                            run(), take_slots(count));
      };
      if (split_shells_) {
        cuda::split_shell_pass_kernel<T, Sink::Plain>
            <<<blocks(4 * count, cuda::kSplitShellBlock), cuda::kSplitShellBlock, 0, stream_>>>(
                mesh(), state(), drive_.view, tau, color_elements_.get() + color_ptr_[c], 0, count,
                nodal_forces(), slot_forces(), elem_energy_.get_or_null(), run(), take_slots(4 * static_cast<std::size_t>(count)));
      } else if (sys_.shell_global_moments()) {
        launch(cuda::element_pass_kernel<T, Sink::Plain, true>);
      } else if (has_plastic_shells(sys_)) {
        launch(cuda::element_pass_kernel<T, Sink::Plain>);
      } else {
        launch(cuda::element_pass_kernel<T, Sink::Plain, false, false>);
      }
    }
  } else if (p.group < 0) {
    launch_shells(tau, block, p.begin, p.count);
  } else {
    const std::size_t g = static_cast<std::size_t>(p.group);
    visit_continuum_kind(sys_.solid.groups[g].kind, [&](auto kind) {
      using K = decltype(kind);
      if constexpr (runs_explicit<K>()) {  // the reader refuses the others in explicit steps
        if (scheme_ == GpuScheme::Colored) launch_colored_group<K>(g, block);
        else launch_group<K>(g, p.begin, p.count, block);
      }
    });
  }
}

template <class T>
void CudaBackend<T>::launch_shells(double tau, int block, int first, int count) {
  if (split_shells_) launch_split_shells(tau, first, count);
  else if (sys_.shell_global_moments()) launch_shells_as<true>(tau, block, first, count);
  else if (has_plastic_shells(sys_)) launch_shells_as<false>(tau, block, first, count);
  else launch_shells_as<false, false>(tau, block, first, count);
}

/// The shell launch of the gather or atomic scheme; kGlobal: 6-dof nodes (global moments);
/// kMayYield: some shell section is plastic.
template <class T>
template <bool kGlobal, bool kMayYield>
void CudaBackend<T>::launch_shells_as(double tau, int block, int first, int count) {
  T* energy = elem_energy_.get_or_null();
  if (scheme_ == GpuScheme::Atomic)
    cuda::element_pass_kernel<T, Sink::Atomic, kGlobal, kMayYield><<<blocks(count, block), block, 0, stream_>>>(
        mesh(), state(), drive_.view, tau, nullptr, first, count, nodal_forces(), slot_forces(), energy, run(),
        take_slots(count));
  else
    cuda::element_pass_kernel<T, Sink::Slots, kGlobal, kMayYield><<<blocks(count, block), block, 0, stream_>>>(
        mesh(), state(), drive_.view, tau, nullptr, first, count, nodal_forces(), slot_forces(), energy, run(),
        take_slots(count));
}

/// The gather or atomic scheme's shell launch with four threads per element (its block is
/// the one its registers were compiled for, not the tuned one).
template <class T>
void CudaBackend<T>::launch_split_shells(double tau, int first, int count) {
  constexpr int b = cuda::kSplitShellBlock;
  T* energy = elem_energy_.get_or_null();
  if (scheme_ == GpuScheme::Atomic)
    cuda::split_shell_pass_kernel<T, Sink::Atomic><<<blocks(4 * count, b), b, 0, stream_>>>(
        mesh(), state(), drive_.view, tau, nullptr, first, count, nodal_forces(), slot_forces(), energy, run(),
        take_slots(4 * static_cast<std::size_t>(count)));
  else
    cuda::split_shell_pass_kernel<T, Sink::Slots><<<blocks(4 * count, b), b, 0, stream_>>>(
        mesh(), state(), drive_.view, tau, nullptr, first, count, nodal_forces(), slot_forces(), energy, run(),
        take_slots(4 * static_cast<std::size_t>(count)));
}

template <class T>
HexSplitStore<T> CudaBackend<T>::hex_store() {
  return {hex_increment_.get_or_null(), hex_result_.get_or_null(), static_cast<std::size_t>(hex_stride_)};
}

/// FPM hexahedra [first, first + count) of a group (nodes from conn_offset, points from
/// first_point) in seed 003's first two kernels (--fpm-kernels split): frame and strain
/// increments per element, stresses per Gauss point; the force kernel follows (per color in
/// the colored scheme).
template <class T>
void CudaBackend<T>::launch_split_hex_stresses(int first, int conn_offset, std::size_t first_point, int count, int block) {
  const std::size_t threads = 8 * static_cast<std::size_t>(count);
  cuda::hex_kinematics_kernel<T><<<blocks(count, block), block, 0, stream_>>>(solid_view(), state(), conn_offset,
                                                                             first_point, count, hex_store(), run());
  cuda::hex_point_kernel<T><<<blocks(threads, block), block, 0, stream_>>>(solid_view(), first, first_point, count,
                                                                          hex_store(), run());
}

/// Solid kernel over count elements of group gi from its element begin (gather, atomic).
template <class T>
template <class K>
void CudaBackend<T>::launch_group(std::size_t gi, int begin, int count, int block) {
  const SolidGroup& g = sys_.solid.groups[gi];
  const int first = g.first + begin, conn_offset = g.conn_offset + begin * g.nodes_per_element;
  const std::size_t first_point = g.first_point + static_cast<std::size_t>(begin) * K::kPoints;
  if constexpr (std::is_same_v<K, FpmC3D8>) {
    if (split_hexes_) {
      launch_split_hex_stresses(first, conn_offset, first_point, count, block);
      if (scheme_ == GpuScheme::Atomic)
        cuda::hex_force_kernel<T, Sink::Atomic><<<blocks(count, block), block, 0, stream_>>>(
            solid_view(), state(), first, conn_offset, first_point, nullptr, count, nodal_forces(), hex_store(), run(),
            take_slots(count));
      else
        cuda::hex_force_kernel<T, Sink::Slots><<<blocks(count, block), block, 0, stream_>>>(
            solid_view(), state(), first, conn_offset, first_point, nullptr, count, nodal_forces(), hex_store(), run(),
            take_slots(count));
      return;
    }
  }
  with_thermal<K>([&](auto thermal) {
    constexpr bool kThermal = decltype(thermal)::value;
    if (scheme_ == GpuScheme::Atomic)
      cuda::solid_element_kernel<T, K, Sink::Atomic, kThermal><<<blocks(count, block), block, 0, stream_>>>(
          solid_view(), state(), first, conn_offset, first_point, nullptr, count, nodal_forces(), run(), take_slots(count));
    else
      cuda::solid_element_kernel<T, K, Sink::Slots, kThermal>
          <<<blocks(count, block), block, cuda::staged_slot_bytes<T, K>(block), stream_>>>(
              solid_view(), state(), first, conn_offset, first_point, nullptr, count, nodal_forces(), run(),
              take_slots(count));
  });
}

/// Colored scheme: one launch per color of group gi.
template <class T>
template <class K>
void CudaBackend<T>::launch_colored_group(std::size_t gi, int block) {
  const SolidGroup& g = sys_.solid.groups[gi];
  const std::vector<int>& ptr = solid_color_ptr_[gi];
  const int colors = static_cast<int>(ptr.size()) - 1;
  if constexpr (std::is_same_v<K, FpmC3D8>) {
    if (split_hexes_) {  // stresses over the whole group, then the forces color by color
      launch_split_hex_stresses(g.first, g.conn_offset, g.first_point, g.count, block);
      for (int c = 0; c < colors; ++c) {
        const int count = ptr[c + 1] - ptr[c];
        cuda::hex_force_kernel<T, Sink::Plain><<<blocks(count, block), block, 0, stream_>>>(
            solid_view(), state(), g.first, g.conn_offset, g.first_point, solid_color_elements_.get() + ptr[c], count,
            nodal_forces(), hex_store(), run(), take_slots(count));
      }
      return;
    }
  }
  with_thermal<K>([&](auto thermal) {
    for (int c = 0; c < colors; ++c) {
      const int count = ptr[c + 1] - ptr[c];
      cuda::solid_element_kernel<T, K, Sink::Plain, decltype(thermal)::value><<<blocks(count, block), block, 0, stream_>>>(
          solid_view(), state(), g.first, g.conn_offset, g.first_point, solid_color_elements_.get() + ptr[c], count,
          nodal_forces(), run(), take_slots(count));
    }
  });
}

template <class T>
void CudaBackend<T>::launch_local(const Increment& inc, bool integrate, int block) {
  cuda::element_local_kernel<T><<<blocks(sys_.shell.num_elements, block), block, 0, stream_>>>(
      mesh(), state(), signed_masses(), drive_.view, inc, integrate, level(cur_), level(1 - cur_),
      elem_energy_.get(), run());
  check(cudaGetLastError(), "element-local launch");
}

/// Milliseconds per call of f(block), best of 3 after a warm-up.
template <class T>
template <class F>
float CudaBackend<T>::time_launches(F&& f, int block) {
  cudaEvent_t a, b;
  check(cudaEventCreate(&a), "cudaEventCreate");
  check(cudaEventCreate(&b), "cudaEventCreate");
  f(block);
  float best = 1e30f;
  for (int rep = 0; rep < 3; ++rep) {
    check(cudaEventRecord(a, stream_), "cudaEventRecord");
    f(block);
    check(cudaEventRecord(b, stream_), "cudaEventRecord");
    check(cudaEventSynchronize(b), "autotune");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
    best = std::min(best, ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return best;
}

/// Largest block every solid kernel of this model can launch with.
template <class T>
int CudaBackend<T>::solid_max_block() {
  int limit = 1024;
  for (const SolidGroup& g : sys_.solid.groups)
    visit_continuum_kind(g.kind, [&](auto kind) {
      if constexpr (runs_explicit<decltype(kind)>()) limit = std::min(limit, kind_max_block<decltype(kind)>());
    });
  return limit;
}

template <class T>
template <class K>
int CudaBackend<T>::kind_max_block() {
  if constexpr (std::is_same_v<K, FpmC3D8>) {
    if (split_hexes_) {
      const int split = std::min(max_block(cuda::hex_kinematics_kernel<T>), max_block(cuda::hex_point_kernel<T>));
      switch (scheme_) {
        case GpuScheme::Gather: return std::min(split, max_block(cuda::hex_force_kernel<T, Sink::Slots>));
        case GpuScheme::Atomic: return std::min(split, max_block(cuda::hex_force_kernel<T, Sink::Atomic>));
        default: return std::min(split, max_block(cuda::hex_force_kernel<T, Sink::Plain>));
      }
    }
  }
  // Both variants where the kind takes thermal strain: the limit may be asked before the
  // model's thermal arrays exist.
  const auto variant = [&](auto thermal) {
    constexpr bool kThermal = decltype(thermal)::value;
    switch (scheme_) {
      case GpuScheme::Gather: return max_block(cuda::solid_element_kernel<T, K, Sink::Slots, kThermal>);
      case GpuScheme::Atomic: return max_block(cuda::solid_element_kernel<T, K, Sink::Atomic, kThermal>);
      default: return max_block(cuda::solid_element_kernel<T, K, Sink::Plain, kThermal>);
    }
  };
  if constexpr (TakesThermalStrain<K>::value) return std::min(variant(std::false_type{}), variant(std::true_type{}));
  else return variant(std::false_type{});
}

/// The largest element and node blocks this model's kernels can launch (their registers limit
/// them): the smallest of the launching kernels' limits.
template <class T>
std::array<int, 2> CudaBackend<T>::block_limits() {
  int limit_e = 1024, limit_n = 1024;
  switch (scheme_) {
    case GpuScheme::ElementLocal:
      limit_e = max_block(cuda::element_local_kernel<T>);
      limit_n = max_block(cuda::element_local_sample_kernel<T>);
      break;
    case GpuScheme::Gather:
      limit_e = max_block(cuda::element_pass_kernel<T, Sink::Slots>);
      limit_n = max_block(cuda::node_pass_kernel<T, Sink::Slots>);
      break;
    case GpuScheme::Atomic:
      limit_e = max_block(cuda::element_pass_kernel<T, Sink::Atomic>);
      limit_n = max_block(cuda::node_pass_kernel<T, Sink::Plain>);
      break;
    default:
      limit_e = max_block(cuda::element_pass_kernel<T, Sink::Plain>);
      limit_n = max_block(cuda::node_pass_kernel<T, Sink::Plain>);
  }
  limit_e = std::min(limit_e, solid_max_block());
  for (const auto& f : families_) limit_e = std::min(limit_e, f->max_block());
  if (sys_.node_dofs == 6) {
    limit_n = std::min(limit_n, scheme_ == GpuScheme::Gather ? max_block(cuda::node_pass_kernel<T, Sink::Slots, 6>)
                                                             : max_block(cuda::node_pass_kernel<T, Sink::Plain, 6>));
  }
  if (sys_.shell_global_moments()) {  // the shells' 6-value kernels run instead
    const int limit = scheme_ == GpuScheme::Gather   ? max_block(cuda::element_pass_kernel<T, Sink::Slots, true>)
                      : scheme_ == GpuScheme::Atomic ? max_block(cuda::element_pass_kernel<T, Sink::Atomic, true>)
                                                     : max_block(cuda::element_pass_kernel<T, Sink::Plain, true>);
    limit_e = std::min(limit_e, limit);
  }
  return {limit_e, limit_n};
}

/// Refuses a fixed block (--gpu-block) larger than a kernel of this model can launch, by name,
/// before the first pass: CUDA would fail the launch with "too many resources requested".
template <class T>
void CudaBackend<T>::refuse_oversized_block() {
  const std::array<int, 2> limit = block_limits();
  const int most = std::min(limit[0], limit[1]);
  if (block_element_ > limit[0] || block_node_ > limit[1])
    throw RunError("--gpu-block " + std::to_string(std::max(block_element_, block_node_)) + ": this model's " +
                   (sizeof(T) == 8 ? "FP64" : "FP32") + " kernels launch at most " + std::to_string(most) +
                   " threads per block on this GPU (" + gpu_scheme_name(scheme_) +
                   " scheme); give a multiple of 32 up to " + std::to_string(most) +
                   ", or leave --gpu-block out to tune the block at start-up");
}

/// Block sizes by timing the kernels on this model (seed 000 sec. 3.2.2): each candidate the
/// kernels can launch, the fastest for the element and for the node passes; the passes used
/// for timing change no state (forces are recomputed, node passes do not commit).
template <class T>
void CudaBackend<T>::autotune() {
  const int candidates[] = {64, 128, 256, 512};
  const auto [limit_e, limit_n] = block_limits();
  const Increment probe{0.0, 0.0, 0.0, 0.0};
  float best_e = 1e30f, best_n = 1e30f;
  for (int block : candidates) {
    if (block <= limit_e) {
      const float t = scheme_ == GpuScheme::ElementLocal
                          ? time_launches([&](int b) { launch_local(probe, false, b); }, block)
                          : time_launches([&](int b) { launch_elements(0.0, 0.0, b, false); }, block);
      if (t < best_e) {
        best_e = t;
        block_element_ = block;
      }
    }
    if (block <= limit_n) {
      const float t = time_launches([&](int b) { launch_nodes(probe, NodeMode::Probe, {nullptr}, b); }, block);
      if (t < best_n) {
        best_n = t;
        block_node_ = block;
      }
    }
  }
  if (scheme_ != GpuScheme::ElementLocal && scheme_ != GpuScheme::Gather) zero_nodal_forces();
  sync("autotune");
  tuned_ = true;
}

}  // namespace
}  // namespace halfstep
