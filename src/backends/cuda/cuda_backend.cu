// The CUDA backend: the whole shell model resident on the GPU, in FP64 or FP32, with four
// schemes for getting element forces to the nodes (docs/performance.md compares them):
//   atomic         element pass adds forces into nodal arrays with atomics; node pass integrates
//   gather         element pass writes per-corner forces; node pass gathers them (CSR)
//   colored        seed 000 sec. 3.1: one element launch per color, plain adds into nodal arrays
//   element-local  seed 000 sec. 3.2: one kernel per step over per-element copies of the nodes
// Element, material, integrator and energy-balance code are the host/device functions the
// CPU backend calls. Within a step nothing is copied to the host except output frames.
#include "backends/cuda/cuda_backend.hpp"

#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <array>
#include <condition_variable>
#include <cstdio>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "backends/cuda/assembled_kernels.cuh"
#include "backends/cuda/beam_kernels.cuh"
#include "backends/cuda/constraint_kernels.cuh"
#include "backends/cuda/contact_kernels.cuh"
#include "backends/cuda/device_drive.cuh"
#include "backends/cuda/device_memory.cuh"
#include "backends/cuda/element_local_kernels.cuh"
#include "backends/cuda/solid_kernels.cuh"
#include "backends/cuda/sum_slots.cuh"
#include "backends/host_contact.hpp"
#include "core/lap_timer.hpp"
#include "parallel/halo_exchange.hpp"
#include "backends/cuda/forall.cuh"
#include "elements/registry.hpp"
#include "parallel/element_coloring.hpp"

namespace halfstep {

namespace {

using cuda::check;
using cuda::DeviceArray;
using cuda::NodeMode;
using cuda::PinnedArray;
using cuda::Sink;
using cuda::SumSlots;

template <class T>
std::vector<T> convert(const std::vector<double>& v) {
  return std::vector<T>(v.begin(), v.end());
}

/// Pinned buffers one output frame is staged in, and whether a frame still uses them.
template <class T>
struct Staging {
  PinnedArray<T> full, state, energy;  // 12 and 9 per node of the frame (all, or a compact frame's), ne
  PinnedArray<T> points;               // material state per solid integration point (models with state)
  PinnedArray<T> beams;                // state of every FPM beam (section forces, fibres, work)
  PinnedArray<T> tris;                 // state of every FPM triangle (stresses, frame, work)
  PinnedArray<T> shell_points;         // section-point state of plastic shells
  PinnedArray<T> contact;              // contact models: nodal normal, then friction forces (3 nn each)
  PinnedArray<EnergyMonitor> monitor;
  cudaEvent_t ready = nullptr;
  bool in_use = false;
};

/// Nine state rows of the staging area, component-major: u (3), director (3), t1 (3), of
/// count nodes: row k of node list[k] (a compact frame's nodes), or of node k without list.
/// With by_slot (element-local scheme) the state is read from each node's first slot.
template <class T>
__global__ void stage_state_kernel(cuda::MeshView<T> m, NodeStateView<T> s, bool by_slot, const int* list, int count,
                                   T* out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const int n = list ? list[k] : k;
  const T* src[9] = {s.ux, s.uy, s.uz, s.dx, s.dy, s.dz, s.t1x, s.t1y, s.t1z};
  const bool used = !by_slot || m.slot_ptr[n + 1] > m.slot_ptr[n];
  const int at = !by_slot ? n : (used ? m.slots[m.slot_ptr[n]] : 0);
  for (int i = 0; i < 9; ++i) out[static_cast<std::size_t>(i) * count + k] = used ? src[i][at] : T(0);
}

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

template <class T>
class CudaBackend final : public Backend {
 public:
  CudaBackend(const StructureSystem& sys, const BackendOptions& opt)
      : sys_(sys), opt_(opt), scheme_(opt.scheme == GpuScheme::Auto ? GpuScheme::Gather : opt.scheme),
        split_tris_(fpm_split_family(opt.fpm_kernels, false, sizeof(T) == 4)),
        split_beams_(split_tris_),
        split_hexes_(fpm_split_family(opt.fpm_kernels, true, sizeof(T) == 4)),
        split_shells_(shell_split(opt.shell_kernel, scheme_) && sys.shell.num_elements > 0 &&
                      !sys.shell_global_moments() && !has_plastic_shells(sys) && scheme_ != GpuScheme::ElementLocal),
        plain_node_sets_(opt.split_node_pass) {
    const int ne = sys.shell.num_elements, nn = sys.num_nodes;
    const SolidMesh& sm = sys.solid;
    const int ns = sm.num_elements;
    if (!sys.contact.empty() && scheme_ == GpuScheme::ElementLocal)
      throw RunError("--gpu-scheme element-local does not run contact; use gather, atomic or colored");
    if (sys.constrained() && scheme_ == GpuScheme::ElementLocal)
      throw RunError("--gpu-scheme element-local does not run constraints (*TIE, *EQUATION, *RIGID BODY, "
                     "*COUPLING); use gather, atomic or colored");
    if (ns > 0 && scheme_ == GpuScheme::ElementLocal)
      throw RunError("--gpu-scheme element-local runs shell-only models (per-element copies of 5-dof nodes); "
                     "use gather, atomic or colored for models with solids");
    const BeamMesh& bm = sys.beam;
    const int nb = bm.num_elements;
    const TriMesh& tm = sys.tri;
    const int nt = tm.num_elements;
    if ((nb > 0 || nt > 0) && scheme_ == GpuScheme::ElementLocal)
      throw RunError("--gpu-scheme element-local runs shell-only models (per-element copies of 5-dof nodes); "
                     "use gather, atomic or colored for models with beams or FPM triangles");
    if (opt.distributed && scheme_ != GpuScheme::Gather && scheme_ != GpuScheme::Atomic)
      throw RunError("distributed runs use the gather or atomic GPU scheme");
    if (opt.device >= 0) {  // one GPU per rank: the rank's index on its host picks it
      int count = 0;
      check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
      check(cudaSetDevice(opt.device % count), "cudaSetDevice");
    }
    cudaDeviceProp prop{};
    int dev = 0;
    check(cudaGetDevice(&dev), "cudaGetDevice");
    device_ = dev;
    check(cudaGetDeviceProperties(&prop, dev), "cudaGetDeviceProperties");
    device_name_ = prop.name;
    check(cudaStreamCreate(&stream_), "cudaStreamCreate");
    check(cudaStreamCreateWithFlags(&side_stream_, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cudaEventCreateWithFlags(&fork_, cudaEventDisableTiming), "cudaEventCreate");
    check(cudaEventCreateWithFlags(&join_, cudaEventDisableTiming), "cudaEventCreate");
    block_element_ = block_node_ = opt.block;

    conn_.assign(sys.shell.conn);
    section_.assign(sys.shell.section);
    std::vector<T> thick;
    std::vector<ShellElastic<T>> el;
    for (const SectionProps& p : sys.shell.sections) {
      thick.push_back(T(p.thickness));
      el.push_back(ShellElastic<T>::from(p.youngs, p.poisson));
    }
    thickness_.assign(thick);
    elastic_.assign(el);
    if (has_plastic_shells(sys)) {
      std::vector<int> points;
      std::vector<SolidMaterial<T>> laws;
      for (const SectionProps& p : sys.shell.sections) {
        points.push_back(p.section_points);
        laws.push_back(convert_material<T>(p.law));
      }
      section_points_.assign(points);
      shell_law_.assign(laws);
      shell_first_.assign(std::vector<std::size_t>(sys.shell.first_point.begin(), sys.shell.first_point.end() - 1));
      shell_state_.resize(static_cast<std::size_t>(kJ2PlaneStateSize) * sys.shell.num_points);
    }
    x0_.assign(convert<T>(sys.x0));
    y0_.assign(convert<T>(sys.y0));
    z0_.assign(convert<T>(sys.z0));
    d0x_.assign(convert<T>(sys.dir0x));
    d0y_.assign(convert<T>(sys.dir0y));
    d0z_.assign(convert<T>(sys.dir0z));
    mass_.assign(convert<T>(sys.mass));
    if (!sys.constraints.empty()) {
      const LinearConstraints& c = sys.constraints;
      con_mass3_.assign(convert<T>(c.mass3));
      if (!c.inertia3.empty()) con_inertia3_.assign(convert<T>(c.inertia3));
      if (!c.rot_node.empty()) con_rot_node_.assign(c.rot_node);
      con_dep_node_.assign(c.dep_node);
      con_dep_dof_.assign(c.dep_dof);
      con_term_ptr_.assign(c.term_ptr);
      con_term_node_.assign(c.term_node);
      con_term_dof_.assign(c.term_dof);
      con_term_weight_.assign(c.term_weight);
      con_dependent_.assign(c.dependent);
      con_recv_ptr_.assign(c.recv_ptr);
      con_recv_dependent_.assign(c.recv_dependent);
      con_recv_dof_.assign(c.recv_dof);
      con_recv_weight_.assign(c.recv_weight);
      con_force_.resize(2 * static_cast<std::size_t>(c.num_dependent));
    }
    if (!sys.bodies.empty()) {
      const RigidBodies& rb = sys.bodies;
      body_ref_.assign(rb.ref_node);
      body_skip_.assign(rb.skip);
      body_slave_ptr_.assign(rb.slave_ptr);
      body_slave_.assign(rb.slave_node);
      body_slave_rot_.assign(rb.slave_rot);
      std::vector<std::uint8_t> ref_rot(rb.num_bodies);
      for (int b = 0; b < rb.num_bodies; ++b)
        ref_rot[b] = sys.node_dofs == 6 && sys.has_rotations(rb.ref_node[b]) ? 1 : 0;
      body_ref_rot_.assign(ref_rot);
      body_mass_.assign(convert<T>(rb.mass));
      body_first_moment_.assign(convert<T>(rb.first_moment));
      body_inertia_.assign(convert<T>(rb.inertia));
      body_offset_.assign(convert<T>(rb.offset));
      body_rotation_.resize(9 * static_cast<std::size_t>(rb.num_bodies));
      body_omega_.resize(3 * static_cast<std::size_t>(rb.num_bodies));
      body_out_.resize(9 * static_cast<std::size_t>(rb.num_bodies));
      body_sums_.resize(4 * static_cast<std::size_t>(rb.num_bodies));
    }
    inertia_.assign(convert<T>(sys.inertia));
    if (std::any_of(sys.damp.begin(), sys.damp.end(), [](double c) { return c != 0.0; })) {
      damp_.assign(convert<T>(sys.damp));
      damp_rot_.assign(convert<T>(sys.damp_rot));
    }
    const bool local = scheme_ == GpuScheme::ElementLocal;
    if (local || scheme_ == GpuScheme::Gather) {
      slot_ptr_.assign(sys.shell.node_slot_ptr);
      slots_.assign(sys.shell.node_slots);
    }
    if (local || opt.stored_reference) {
      // The seed's scheme keeps per-element constants; the others recompute them unless told
      // (--gpu-reference stored): 24 reals per element against ~600 FLOP.
      std::vector<Mitc4Ref<T>> ref(ne);
      for (int e = 0; e < ne; ++e)
        for (int g = 0; g < 4; ++g) {
          ref[e].wj[g] = T(sys.shell.ref[e].wj[g]);
          ref[e].cr1[g] = T(sys.shell.ref[e].cr1[g]);
          ref[e].cr2[g] = T(sys.shell.ref[e].cr2[g]);
          ref[e].cs1[g] = T(sys.shell.ref[e].cs1[g]);
          ref[e].cs2[g] = T(sys.shell.ref[e].cs2[g]);
          ref[e].cz3[g] = T(sys.shell.ref[e].cz3[g]);
        }
      ref_.assign(ref);
    }
    const std::size_t state_size = local ? 4 * static_cast<std::size_t>(ne) : nn;
    for (auto* a : {&ux_, &uy_, &uz_, &dx_, &dy_, &dz_, &t1x_, &t1y_, &t1z_}) a->resize(state_size);
    for (int d = 0; d < kShellDofs; ++d) v_[d].resize(state_size);
    if (sys.node_dofs == 6) v_[5].resize(state_size);  // the third global rotation rate of six-dof nodes
    if (nt > 0) {  // as beams: every scheme writes the corners into slots
      tri_conn_.assign(tm.conn);
      tri_section_.assign(tm.section);
      std::vector<TriConstants<T>> tc;
      for (const TriConstants<double>& c : tm.constants) tc.push_back(convert_tri_constants<T>(c));
      tri_constants_.assign(tc);
      for (auto [dst, src] : {std::pair{&tri_edge_[0], &tm.edge2x}, {&tri_edge_[1], &tm.edge2y}, {&tri_edge_[2], &tm.edge2z},
                              {&tri_edge_[3], &tm.edge3x}, {&tri_edge_[4], &tm.edge3y}, {&tri_edge_[5], &tm.edge3z}})
        dst->assign(convert<T>(*src));
      tri_slot_ptr_.assign(tm.node_slot_ptr);
      tri_slots_.assign(tm.node_slots);
      tri_force_.resize(18 * static_cast<std::size_t>(nt));
      tri_force_.zero(stream_);
      if (split_tris_) {  // the split scheme's hand-over between its kernels
        tri_points_ = 0;
        for (const TriConstants<double>& c : tm.constants) tri_points_ = std::max(tri_points_, tri_stress_points(c));
        tri_increment_.resize(static_cast<std::size_t>(kTriIncrementValues) * nt);
        tri_point_work_.resize(static_cast<std::size_t>(tri_points_) * nt);
      }
    }
    if (nb > 0) {
      // Beams in every scheme write their ends into slots (12 values per beam), gathered by the
      // node pass in CSR order: no atomics, and the same sums as the CPU.
      beam_conn_.assign(bm.conn);
      beam_section_.assign(bm.section);
      std::vector<BeamConstants<T>> bc;
      for (const BeamConstants<double>& c : bm.constants) bc.push_back(convert_beam_constants<T>(c));
      beam_constants_.assign(bc);
      beam_chord0x_.assign(convert<T>(bm.chord0x));
      beam_chord0y_.assign(convert<T>(bm.chord0y));
      beam_chord0z_.assign(convert<T>(bm.chord0z));
      beam_slot_ptr_.assign(bm.node_slot_ptr);
      beam_slots_.assign(bm.node_slots);
      beam_force_.resize(12 * static_cast<std::size_t>(nb));
      beam_force_.zero(stream_);
      if (split_beams_) {  // the split scheme's hand-over between its kernels
        beam_points_ = 0;
        for (const BeamConstants<double>& c : bm.constants) beam_points_ = std::max(beam_points_, beam_stress_points(c));
        beam_increment_.resize(static_cast<std::size_t>(kBeamIncrementValues) * nb);
        beam_point_values_.resize(static_cast<std::size_t>(beam_points_) * nb);
      }
    }
    if (local) {
      for (auto& a : signed_mass_) a.resize(state_size);
      for (auto& a : level_force_) a.resize(20 * static_cast<std::size_t>(ne));
    } else if (scheme_ == GpuScheme::Gather) {
      slot_force_.resize(4 * static_cast<std::size_t>(sys.shell_corner_values()) * ne);
    } else {
      // The sixth array (third global moment) only where nodes have 6 dofs.
      for (int j = 0; j < (sys.node_dofs == 6 ? 6 : 5); ++j) {
        fi_[j].resize(nn);
        fi_[j].zero(stream_);
      }
    }
    if (scheme_ == GpuScheme::Colored) {
      const ElementColoring col = color_elements(sys.shell.conn, nn);
      color_ptr_ = col.ptr;
      color_elements_.assign(col.elements);
    }
    elem_energy_.resize(ne);
    if (ns > 0) {
      solid_conn_.assign(sm.conn);
      solid_material_.assign(sm.material);
      std::vector<SolidMaterial<T>> mats;
      for (const SolidMaterial<double>& m : sm.materials) mats.push_back(convert_material<T>(m));
      solid_materials_.assign(mats);
      solid_energy_.resize(ns);
      solid_hourglass_.resize(ns);
      solid_state_.resize(static_cast<std::size_t>(sm.state_size) * sm.num_points);
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
    if (!sys.contact.empty()) setup_contact();
    monitor_.resize(1);
    EnergyMonitor m0 = initial_monitor(sys, opt);
    monitor_.assign(&m0, 1);
    if (opt.distributed) setup_distributed(*opt.distributed, m0);
    if (dist_ && !sys.contact.empty()) setup_host_contact(opt.threads);
    if (scheme_ != GpuScheme::ElementLocal) plan_pieces();
    sums_.resize(16);  // node sums, then element sums
    sums_.zero(stream_);
    tickets_.resize(2);
    tickets_.zero(stream_);
    // A slot per warp of the largest launch: node passes run a thread per node (element-local:
    // per element) in up to two launches (the second over at most every node). An element
    // pass's launches (a piece, or a color of one) run up to four threads per element, and
    // each may end in a partly used warp; element_sums_kernel adds their warp sums.
    const std::size_t elements = static_cast<std::size_t>(sys.shell.num_elements) + sys.solid.num_elements +
                                 sys.beam.num_elements + sys.tri.num_elements;
    node_slots_.size(std::max<std::size_t>(sys.num_nodes, elements) + sys.num_nodes, stream_);
    element_slots_.size(64 * cuda::kElementSumThreads, stream_);
    std::size_t launches = pieces_.size() * color_ptr_.size() + pieces_.size();
    for (const std::vector<int>& ptr : solid_color_ptr_) launches += pieces_.size() * ptr.size();
    const std::size_t parts = (4 * elements + 31) / 32 + launches;
    if (parts > std::numeric_limits<unsigned>::max())
      throw std::length_error("element pass: more warp sums than a 32-bit slot index holds");
    parts_capacity_ = static_cast<unsigned>(parts);
    element_parts_.resize(3 * parts);
    check(cudaStreamSynchronize(stream_), "initialization");
  }

  ~CudaBackend() override {
    for (auto& s : staging_)
      if (s.ready) cudaEventDestroy(s.ready);
    if (packed_) cudaEventDestroy(packed_);
    for (auto& set : phase_events_)
      for (cudaEvent_t e : set)
        if (e) cudaEventDestroy(e);
    if (fork_) cudaEventDestroy(fork_);
    if (join_) cudaEventDestroy(join_);
    if (side_stream_) cudaStreamDestroy(side_stream_);
    if (stream_) cudaStreamDestroy(stream_);
  }

  std::string name() const override { return "cuda"; }
  std::string precision() const override { return sizeof(T) == 8 ? "double" : "single"; }
  int threads() const override { return 1; }
  std::string description() const override {
    return "CUDA on " + device_name_ + (dist_ ? " (device " + std::to_string(device_) + ")" : std::string()) + ", " +
           (sizeof(T) == 8 ? "FP64" : "FP32") + ", " + gpu_scheme_name(scheme_) +
           " scheme" + (ref_.size() && scheme_ != GpuScheme::ElementLocal ? " (stored reference)" : "") +
           (split_shells_ ? ", MITC4 split by Gauss point" : "") +
           (scheme_ != GpuScheme::ElementLocal && plain_nodes() ? ", node pass split" : "") +
           (tri_points_ > 0 || beam_points_ > 0 || hex_stride_ > 0
                ? std::string(", FPM kernels split (") + (tri_points_ > 0 ? " triangles" : "") +
                      (beam_points_ > 0 ? " beams" : "") + (hex_stride_ > 0 ? " hexahedra" : "") + " )"
                : std::string()) +
           ", blocks " + std::to_string(block_element_) + "/" + std::to_string(block_node_) +
           (tuned_ ? " (tuned)" : "");
  }
  double device_bytes() const override {
    std::size_t b = conn_.bytes() + section_.bytes() + thickness_.bytes() + elastic_.bytes() + ref_.bytes() +
                    x0_.bytes() * 3 + d0x_.bytes() * 3 + slot_ptr_.bytes() + slots_.bytes() + mass_.bytes() +
                    inertia_.bytes() + damp_.bytes() + damp_rot_.bytes() + ux_.bytes() * 9 + rem_[0].bytes() * 6 +
                    elem_energy_.bytes() +
                    slot_force_.bytes() + slot_pressure_.bytes() + color_elements_.bytes() + monitor_.bytes() +
                    sums_.bytes() + tickets_.bytes() + solid_conn_.bytes() + solid_material_.bytes() +
                    solid_materials_.bytes() + solid_slot_ptr_.bytes() + solid_slots_.bytes() + solid_force_.bytes() +
                    solid_energy_.bytes() + solid_hourglass_.bytes() + solid_state_.bytes() +
                    solid_color_elements_.bytes() + face_force_.bytes() + beam_conn_.bytes() + beam_section_.bytes() +
                    beam_constants_.bytes() + beam_chord0x_.bytes() * 3 + beam_slot_ptr_.bytes() + beam_slots_.bytes() +
                    beam_force_.bytes() + beam_state_.bytes() + tri_conn_.bytes() + tri_section_.bytes() +
                    tri_constants_.bytes() + tri_edge_[0].bytes() * 6 + tri_slot_ptr_.bytes() + tri_slots_.bytes() +
                    tri_force_.bytes() + tri_pressure_.bytes() + tri_state_.bytes() + tri_increment_.bytes() +
                    tri_point_work_.bytes() + beam_increment_.bytes() + beam_point_values_.bytes() +
                    hex_increment_.bytes() + hex_result_.bytes() +
                    section_points_.bytes() +
                    shell_law_.bytes() + shell_first_.bytes() + shell_state_.bytes();
    for (const auto& a : v_) b += a.bytes();
    for (const auto& a : signed_mass_) b += a.bytes();
    for (const auto& a : level_force_) b += a.bytes();
    for (const auto& a : level_pressure_) b += a.bytes();
    for (const auto& a : fi_) b += a.bytes();
    for (const auto& a : fp_) b += a.bytes();
    b += drive_bytes_ + halo_buf_.bytes() + send_buf_.bytes() + halo_total_.bytes() + send_nodes_.bytes() +
         sum_ptr_.bytes() + sum_src_.bytes() + owned_.bytes() + publish_.bytes();
    return static_cast<double>(b);
  }
  int device() const override { return device_; }
  double communication_seconds() const override { return halo_ ? halo_->seconds() : 0.0; }
  std::vector<std::pair<std::string, double>> phase_seconds() const override {
    if (!dist_) return {};
    static const char* gpu[kNumGpuPhases] = {"gpu_node_pass", "gpu_interface_elements", "gpu_pack",
                                             "gpu_interior_elements", "gpu_interface_sum"};
    static const char* host[kNumHostPhases] = {"host_pack_wait", "host_exchange", "host_energy_reductions"};
    std::vector<std::pair<std::string, double>> out;
    for (int i = 0; i < kNumGpuPhases; ++i) out.emplace_back(gpu[i], gpu_phase_[i]);
    for (int i = 0; i < kNumHostPhases; ++i) out.emplace_back(host[i], host_phase_[i]);
    return out;
  }
  std::string transport() const override { return halo_ ? (cuda_aware_ ? "cuda-aware" : "host-staged") : ""; }

  void upload(const StructureState& st) override {
    sync("before upload");
    const std::vector<double>* src[15] = {&st.ux, &st.uy, &st.uz, &st.v[0], &st.v[1], &st.v[2], &st.v[3], &st.v[4],
                                          &st.dx, &st.dy, &st.dz, &st.t1x, &st.t1y, &st.t1z, &st.v[5]};
    DeviceArray<T>* dst[15] = {&ux_, &uy_, &uz_, &v_[0], &v_[1], &v_[2], &v_[3], &v_[4],
                               &dx_, &dy_, &dz_, &t1x_, &t1y_, &t1z_, &v_[5]};
    const bool local = scheme_ == GpuScheme::ElementLocal;
    std::vector<T> buf;
    for (int i = 0; i < 15; ++i) {
      if (i == 14 && sys_.node_dofs != 6) continue;
      if (local) {  // every element corner gets its own copy of the node
        buf.resize(sys_.shell.conn.size());
        for (std::size_t s = 0; s < sys_.shell.conn.size(); ++s) buf[s] = T((*src[i])[sys_.shell.conn[s]]);
      } else {
        buf.assign(src[i]->begin(), src[i]->end());
      }
      dst[i]->assign(buf);
    }
    if (compensated()) {  // the remainders start as what the conversion to FP32 rounded off
      const std::vector<double>* whole[6] = {&st.ux, &st.uy, &st.uz, &st.dx, &st.dy, &st.dz};
      for (int i = 0; i < 6; ++i) {
        buf.resize(whole[i]->size());
        for (std::size_t n = 0; n < buf.size(); ++n) buf[n] = T((*whole[i])[n] - double(T((*whole[i])[n])));
        rem_[i].assign(buf);
      }
    }
    if (solid_state_.size() > 0) {  // the material state goes on from the host's (zero at the start)
      if (st.solid_state.size() != solid_state_.size()) throw std::logic_error("material state of the wrong size");
      buf.assign(st.solid_state.begin(), st.solid_state.end());
      solid_state_.assign(buf);
    }
    if (sys_.beam.num_elements > 0) {  // section forces, frames, fibres and work go on from the host's
      buf.assign(st.beam_state.begin(), st.beam_state.end());
      beam_state_.assign(buf);
    }
    if (sys_.tri.num_elements > 0) {
      buf.assign(st.tri_state.begin(), st.tri_state.end());
      tri_state_.assign(buf);
    }
    if (!sys_.bodies.empty()) {  // rotation and angular velocity (the reference node's v[3..5]) of each body
      const RigidBodies& rb = sys_.bodies;
      buf.assign(st.body_rotation.begin(), st.body_rotation.end());
      body_rotation_.assign(buf);
      buf.clear();
      for (int r : rb.ref_node)
        for (int k = 3; k < 6; ++k) buf.push_back(T(st.v[k][r]));
      body_omega_.assign(buf);
    }
    if (shell_state_.size() > 0) {
      if (st.shell_state.size() != shell_state_.size()) throw std::logic_error("shell state of the wrong size");
      buf.assign(st.shell_state.begin(), st.shell_state.end());
      shell_state_.assign(buf);
    }
    if (ct_history_.size() > 0) {  // the friction springs go on from the host's
      if (st.contact_history.size() != ct_history_.size()) throw std::logic_error("contact history of the wrong size");
      buf.assign(st.contact_history.begin(), st.contact_history.end());
      ct_history_.assign(buf);
      if (host_contact_) hc_history_ = st.contact_history;  // distributed: the host pass keeps it
    }
  }

  void download(StructureState& st) override {
    sync("download");
    std::vector<double>* dst[15] = {&st.ux, &st.uy, &st.uz, &st.v[0], &st.v[1], &st.v[2], &st.v[3], &st.v[4],
                                    &st.dx, &st.dy, &st.dz, &st.t1x, &st.t1y, &st.t1z, &st.v[5]};
    const DeviceArray<T>* src[15] = {&ux_, &uy_, &uz_, &v_[0], &v_[1], &v_[2], &v_[3], &v_[4],
                                     &dx_, &dy_, &dz_, &t1x_, &t1y_, &t1z_, &v_[5]};
    const bool local = scheme_ == GpuScheme::ElementLocal;
    std::vector<T> buf;
    for (int i = 0; i < 15; ++i) {
      if (i == 14 && sys_.node_dofs != 6) continue;
      buf.resize(src[i]->size());
      src[i]->copy_to(buf.data(), buf.size());
      if (local) {
        for (int n = 0; n < sys_.num_nodes; ++n)
          if (sys_.shell.node_slot_ptr[n + 1] > sys_.shell.node_slot_ptr[n])
            (*dst[i])[n] = double(buf[sys_.shell.node_slots[sys_.shell.node_slot_ptr[n]]]);
      } else {
        dst[i]->assign(buf.begin(), buf.end());
      }
    }
    if (compensated()) {  // the compensated values: the array's plus its remainder
      std::vector<double>* whole[6] = {&st.ux, &st.uy, &st.uz, &st.dx, &st.dy, &st.dz};
      for (int i = 0; i < 6; ++i) {
        buf.resize(rem_[i].size());
        rem_[i].copy_to(buf.data(), buf.size());
        for (std::size_t n = 0; n < buf.size(); ++n) (*whole[i])[n] += double(buf[n]);
      }
    }
    buf.resize(elem_energy_.size());
    elem_energy_.copy_to(buf.data(), buf.size());
    st.elem_energy.assign(buf.begin(), buf.end());
    if (!sys_.bodies.empty()) {
      const RigidBodies& rb = sys_.bodies;
      buf.resize(body_rotation_.size());
      body_rotation_.copy_to(buf.data(), buf.size());
      st.body_rotation.assign(buf.begin(), buf.end());
      buf.resize(body_omega_.size());
      body_omega_.copy_to(buf.data(), buf.size());
      for (int b = 0; b < rb.num_bodies; ++b)
        for (int k = 0; k < 3; ++k) st.v[3 + k][rb.ref_node[b]] = double(buf[3 * b + k]);
    }
    if (shell_state_.size() > 0) {
      buf.resize(shell_state_.size());
      shell_state_.copy_to(buf.data(), buf.size());
      st.shell_state.assign(buf.begin(), buf.end());
    }
    if (ct_history_.size() > 0) {
      const std::pair<const DeviceArray<T>*, std::vector<double>*> rows[4] = {
          {&ct_history_, &st.contact_history}, {&ct_normal_, &st.contact_normal}, {&ct_shear_, &st.contact_shear},
          {&ct_pair_force_, &st.contact_pair_force}};
      for (const auto& [from, to] : rows) {
        buf.resize(from->size());
        from->copy_to(buf.data(), buf.size());
        to->assign(buf.begin(), buf.end());
      }
      if (host_contact_) st.contact_history = hc_history_;
    }
    if (sys_.solid.num_elements > 0) {
      buf.resize(solid_energy_.size());
      solid_energy_.copy_to(buf.data(), buf.size());
      st.solid_energy.assign(buf.begin(), buf.end());
      solid_hourglass_.copy_to(buf.data(), buf.size());
      st.solid_hourglass.assign(buf.begin(), buf.end());
      if (solid_state_.size() > 0) {
        buf.resize(solid_state_.size());
        solid_state_.copy_to(buf.data(), buf.size());
        st.solid_state.assign(buf.begin(), buf.end());
      }
    }
    if (beam_state_.size() > 0) {
      buf.resize(beam_state_.size());
      beam_state_.copy_to(buf.data(), buf.size());
      st.beam_state.assign(buf.begin(), buf.end());
    }
    if (tri_state_.size() > 0) {
      buf.resize(tri_state_.size());
      tri_state_.copy_to(buf.data(), buf.size());
      st.tri_state.assign(buf.begin(), buf.end());
    }
  }

  void begin_step(const StepDrive& drive) override {
    sync("before a step");
    const int ne = sys_.shell.num_elements, nn = sys_.num_nodes;
    drive_.assign(drive);
    if (host_contact_) host_held_ = drive.held;
    drive_bytes_ = drive_.held.bytes() + drive_.special.bytes() + drive_.special_nodes.bytes() +
                   drive_.pressure_ptr.bytes() + drive_.pressure_amp.bytes() + drive_.pressure_value.bytes() +
                   drive_.face_nodes.bytes() + drive_.face_node_ptr.bytes() + drive_.face_node_slots.bytes();
    face_force_.resize(3 * kFaceMaxNodes * static_cast<std::size_t>(drive.num_faces));
    const bool p = drive.has_pressure();
    tri_pressure_.resize(p ? 9 * static_cast<std::size_t>(sys_.tri.num_elements) : 0);
    switch (scheme_) {
      case GpuScheme::ElementLocal:
        for (auto& a : level_pressure_) a.resize(p ? 12 * static_cast<std::size_t>(ne) : 0);
        cuda::sign_masses_kernel<T><<<blocks(4 * ne, 256), 256, 0, stream_>>>(mesh(), drive_.view.held, signed_masses());
        check(cudaGetLastError(), "sign_masses launch");
        break;
      case GpuScheme::Gather:
        slot_pressure_.resize(p ? 12 * static_cast<std::size_t>(ne) : 0);
        break;
      default:
        for (auto& a : fp_) a.resize(p ? nn : 0);
        zero_nodal_forces();
        break;
    }
    if (opt_.autotune && !tuned_) autotune();
  }

  void element_pass(double tau, double time) override {
    if (scheme_ == GpuScheme::ElementLocal) {
      const Increment inc{time, tau, 0.0, 0.0};
      launch_local(inc, false, block_element_);
      cur_ = 1 - cur_;
    } else {
      launch_elements(tau, time, block_element_, true);
    }
  }

  void advance(const Increment& inc) override {
    if (scheme_ == GpuScheme::ElementLocal) {
      launch_local(inc, true, block_element_);
      cur_ = 1 - cur_;
      return;
    }
    if (dist_ && host_monitor_.status != kRunning) return;  // every rank stops at the same increment
    timing_ = dist_ != nullptr;
    mark(0);
    launch_nodes(inc, NodeMode::Commit, {nullptr}, block_node_);
    mark(1);
    pending_commit_ = dist_ != nullptr;
    pending_time_ = inc.time;
    launch_elements(inc.tau + inc.dt_next, inc.time + inc.dt_next, block_element_, true);
    if (timing_) {
      timed_before_ = true;
      parity_ = 1 - parity_;
      timing_ = false;
    }
  }

  void sample(const Increment& inc, OutputFrame& frame) override {
    const int nn = sys_.num_nodes;
    // Element energies and material states only for frames that write cells (field frames,
    // printed tables): a history or energy row needs the nodes, and copying 1 M plastic
    // shells' section points to the host for each one made those rows cost 6x the increment
    // (docs/performance.md).
    const bool cells = frame.field || frame.print;
    const int ne = cells ? sys_.shell.num_elements : 0, ns = cells ? sys_.solid.num_elements : 0;
    // A history row stages its nodes only, an energy row none (OutputFrame::nodes): at 10 M
    // elements staging every node made a history row of two small sets cost 2.8 s against
    // 7 ms of solve (docs/performance.md, "History rows carry only their nodes").
    const std::vector<int>* subset = frame.nodes.get();
    const int rows = subset ? static_cast<int>(subset->size()) : nn;
    if (rows > 0 && subset && frame.nodes != frame_nodes_) {
      // Once per step (the solver hands every history row of a step one list): the node pass's
      // node -> row map and the state staging's node list. An earlier frame's kernels may
      // still read the old ones.
      sync("output nodes");
      std::vector<int> row(static_cast<std::size_t>(nn), -1);
      for (int k = 0; k < rows; ++k) row[static_cast<std::size_t>((*subset)[k])] = k;
      frame_row_.assign(row);
      frame_list_.assign(*subset);
      frame_nodes_ = frame.nodes;
    }
    const int b = acquire_staging();
    Staging<T>& s = staging_[b];
    s.full.reserve(12 * static_cast<std::size_t>(rows));
    s.state.reserve(9 * static_cast<std::size_t>(rows));
    s.energy.reserve(static_cast<std::size_t>(ne) + 2 * static_cast<std::size_t>(ns));  // shells | solids | hourglass
    s.monitor.reserve(1);
    const std::size_t npts = cells ? solid_state_.size() : 0, nshell = cells ? shell_state_.size() : 0;
    s.points.reserve(npts);
    const std::size_t nbs = cells ? beam_state_.size() : 0;
    s.beams.reserve(nbs);
    const std::size_t nts = cells ? tri_state_.size() : 0;
    s.tris.reserve(nts);
    s.shell_points.reserve(nshell);
    // Nodal contact forces are field output; the per-definition totals go to every energy row.
    const std::size_t ncon = subset ? 0 : ct_normal_.size(), npair = ct_pair_force_.size();
    s.contact.reserve(2 * ncon + npair);
    if (!s.ready) check(cudaEventCreateWithFlags(&s.ready, cudaEventDisableTiming), "cudaEventCreate");
    // The sample kernel streams the frame straight into mapped pinned memory: no device copy
    // of the frame exists, so output costs no GPU memory (see docs/performance.md).
    // The node pass sums the energy over every node whatever the frame holds.
    const cuda::FrameOut<T> out{rows > 0 ? s.full.device() : nullptr, subset ? frame_row_.get() : nullptr, rows};
    launch_nodes(inc, NodeMode::Sample, out, block_node_);
    if (rows > 0) {
      stage_state_kernel<T><<<blocks(rows, 256), 256, 0, stream_>>>(
          mesh(), state(), scheme_ == GpuScheme::ElementLocal, subset ? frame_list_.get() : nullptr, rows,
          s.state.device());
      check(cudaGetLastError(), "stage launch");
    }
    if (ne > 0)
      check(cudaMemcpyAsync(s.energy.host(), elem_energy_.get(), ne * sizeof(T), cudaMemcpyDeviceToHost, stream_),
            "copy energies");
    if (nshell > 0)
      check(cudaMemcpyAsync(s.shell_points.host(), shell_state_.get(), nshell * sizeof(T), cudaMemcpyDeviceToHost,
                            stream_),
            "copy shell state");
    if (ns > 0) {
      check(cudaMemcpyAsync(s.energy.host() + ne, solid_energy_.get(), ns * sizeof(T), cudaMemcpyDeviceToHost, stream_),
            "copy solid energies");
      check(cudaMemcpyAsync(s.energy.host() + ne + ns, solid_hourglass_.get(), ns * sizeof(T), cudaMemcpyDeviceToHost,
                            stream_),
            "copy hourglass energies");
      if (npts > 0)
        check(cudaMemcpyAsync(s.points.host(), solid_state_.get(), npts * sizeof(T), cudaMemcpyDeviceToHost, stream_),
              "copy material state");
    }
    if (nbs > 0)
      check(cudaMemcpyAsync(s.beams.host(), beam_state_.get(), nbs * sizeof(T), cudaMemcpyDeviceToHost, stream_),
            "copy beam state");
    if (nts > 0)
      check(cudaMemcpyAsync(s.tris.host(), tri_state_.get(), nts * sizeof(T), cudaMemcpyDeviceToHost, stream_),
            "copy triangle state");
    if (ncon > 0) {
      check(cudaMemcpyAsync(s.contact.host(), ct_normal_.get(), ncon * sizeof(T), cudaMemcpyDeviceToHost, stream_),
            "copy contact forces");
      check(cudaMemcpyAsync(s.contact.host() + ncon, ct_shear_.get(), ncon * sizeof(T), cudaMemcpyDeviceToHost, stream_),
            "copy contact forces");
    }
    // The totals per definition go to every row, also those that carry no nodal contact
    // forces (history and energy rows: contact.csv).
    if (npair > 0)
      check(cudaMemcpyAsync(s.contact.host() + 2 * ncon, ct_pair_force_.get(), npair * sizeof(T),
                            cudaMemcpyDeviceToHost, stream_),
            "copy contact totals");
    check(cudaMemcpyAsync(s.monitor.host(), monitor_.get(), sizeof(EnergyMonitor), cudaMemcpyDeviceToHost, stream_),
          "copy monitor");
    check(cudaEventRecord(s.ready, stream_), "cudaEventRecord");
    // Distributed: the record is the sums over the ranks (this waits for the sample pass).
    const bool global = dist_ != nullptr;
    EnergyRecord record;
    bool failed = false;
    if (global) {
      double pub[cuda::kPubValues];
      read_published(cuda::kPubSample, pub);
      monitor_element_pass(host_monitor_, pub[0], inc.time, pub[1], pub[2]);
      monitor_sample(host_monitor_, pub + 3, inc.time);
      record = host_monitor_.record;
      failed = host_monitor_.status != kRunning;
      frame.record = record;  // also for frames that are never completed (energy only)
      frame.discard = failed;
    }
    // Released when the frame is written or dropped.
    std::shared_ptr<void> hold(nullptr, [this, b](void*) { release_staging(b); });
    const double time = inc.time;
    frame.complete = [this, b, hold, time, rows, ne, ns, npts, nbs, nts, nshell, ncon, npair, global, record,
                      failed](OutputFrame& f) {
      Staging<T>& st = staging_[b];
      check(cudaEventSynchronize(st.ready), "output frame");
      std::vector<double>* state_rows[9] = {&f.state.ux, &f.state.uy, &f.state.uz, &f.state.dx, &f.state.dy,
                                            &f.state.dz, &f.state.t1x, &f.state.t1y, &f.state.t1z};
      // Row i of a staging block: the frame's nodes (every node, or a compact frame's).
      const auto take = [&](const T* block, int i, std::vector<double>& out) {
        if (rows == 0) {
          out.clear();
          return;
        }
        const T* row = block + i * std::size_t(rows);
        out.assign(row, row + rows);
      };
      for (int i = 0; i < 9; ++i) take(st.state.host(), i, *state_rows[i]);
      for (int i = 0; i < 6; ++i) {
        take(st.full.host(), i, f.full.v[i]);
        take(st.full.host(), 6 + i, f.full.rf[i]);
      }
      f.state.elem_energy.assign(st.energy.host(), st.energy.host() + ne);
      f.state.solid_energy.assign(st.energy.host() + ne, st.energy.host() + ne + ns);
      f.state.solid_hourglass.assign(st.energy.host() + ne + ns, st.energy.host() + ne + 2 * ns);
      f.state.solid_state.assign(st.points.host(), st.points.host() + npts);
      f.state.beam_state.assign(st.beams.host(), st.beams.host() + nbs);
      f.state.tri_state.assign(st.tris.host(), st.tris.host() + nts);
      f.state.shell_state.assign(st.shell_points.host(), st.shell_points.host() + nshell);
      f.state.contact_normal.assign(st.contact.host(), st.contact.host() + ncon);
      f.state.contact_shear.assign(st.contact.host() + ncon, st.contact.host() + 2 * ncon);
      f.state.contact_pair_force.assign(st.contact.host() + 2 * ncon, st.contact.host() + 2 * ncon + npair);
      f.record = global ? record : st.monitor.host()->record;
      f.discard = global ? failed : st.monitor.host()->status != kRunning;
      f.state.time = time;
    };
  }

  EnergyMonitor poll() override {
    sync("time loop");
    if (dist_) return host_monitor_;
    EnergyMonitor m;
    monitor_.copy_to(&m, 1);
    return m;
  }

  std::string restart_layout() const override {
    return "cuda on " + device_name_ + ", " + gpu_scheme_name(scheme_) + " scheme" +
           (split_tris_ ? ", split triangles" : "") + (split_beams_ ? ", split beams" : "") +
           (split_hexes_ ? ", split hexahedra" : "") + (split_shells_ ? ", split shells" : "");
  }

  std::string restart_unsupported() const override { return ""; }

  // Every device array a later increment reads is saved bit for bit in the backend's own
  // precision and layout (element-local corner copies, gather slots), so a resumed run
  // repeats the saved one's increments exactly; scratch arrays are saved too, rather than
  // trusting that every kernel rewrites them before reading.
  void save_restart(RestartBlob& blob) override {
    if (!restart_unsupported().empty()) throw RunError(restart_unsupported());
    sync("restart");
    restart_host_.clear();
    for_each_restart_array([&](const std::string& name, auto& a) {
      using V = typename std::decay_t<decltype(a)>::value_type;
      std::vector<char>& h = restart_host_.emplace_back(a.bytes());
      a.copy_to(reinterpret_cast<V*>(h.data()), a.size());
      blob.put_view("cuda." + name, h.data(), h.size());
    });
    blob.put_value("cuda.cur", cur_);
    blob.put_value("cuda.blocks", std::array<int, 2>{block_element_, block_node_});
    // Distributed: the whole model's energy balance and the host contact pass's friction
    // springs live on the host (the interface sums are device arrays, listed above).
    if (pending_commit_) throw std::logic_error("restart with an energy commit pending");
    blob.put_value("cuda.host_monitor", host_monitor_);
    blob.put_view("cuda.host_contact_history", hc_history_);
  }

  void load_restart(const RestartBlob& blob) override {
    if (!restart_unsupported().empty()) throw RunError(restart_unsupported());
    sync("restart");
    for_each_restart_array([&](const std::string& name, auto& a) {
      using V = typename std::decay_t<decltype(a)>::value_type;
      std::vector<V> h;
      blob.get_vector("cuda." + name, h, static_cast<long long>(a.size()));
      a.assign(h);
    });
    cur_ = blob.get_value<int>("cuda.cur");
    host_monitor_ = blob.get_value<EnergyMonitor>("cuda.host_monitor");
    blob.get_vector("cuda.host_contact_history", hc_history_, static_cast<long long>(hc_history_.size()));
    // The launch shapes the saved run used: sums reduce in the same order only with them.
    const auto blocks = blob.get_value<std::array<int, 2>>("cuda.blocks");
    block_element_ = blocks[0];
    block_node_ = blocks[1];
    tuned_ = true;
  }

  void rebase_energy() override {
    sync("energy rebase");
    host_monitor_.have_total0 = 0;
    EnergyMonitor m;
    monitor_.copy_to(&m, 1);
    m.have_total0 = 0;
    check(cudaMemcpy(monitor_.get(), &m, sizeof m, cudaMemcpyHostToDevice), "energy rebase");
  }

  // *VARIABLE MASS SCALING between increments: the host's new masses into the node pass's
  // arrays (and the element-local scheme's per-corner copies), the kinetic energy they added
  // into the monitor. The solver refuses it for distributed and constrained models.
  void update_masses(const StructureSystem& sys, double added_kinetic) override {
    if (&sys != &sys_ || dist_ || sys.constrained())
      throw std::logic_error("update_masses: only the system the backend runs, in one process, without constraints");
    sync("mass update");
    mass_.assign(convert<T>(sys.mass));
    inertia_.assign(convert<T>(sys.inertia));
    if (damp_.size()) {  // no damping anywhere stays none: the scaling multiplies it
      damp_.assign(convert<T>(sys.damp));
      damp_rot_.assign(convert<T>(sys.damp_rot));
    }
    if (scheme_ == GpuScheme::ElementLocal) {
      cuda::sign_masses_kernel<T><<<blocks(4 * static_cast<std::size_t>(sys.shell.num_elements), 256), 256, 0, stream_>>>(
          mesh(), drive_.view.held, signed_masses());
      check(cudaGetLastError(), "sign_masses launch");
    }
    EnergyMonitor m;
    monitor_.copy_to(&m, 1);
    monitor_mass_change(m, added_kinetic);
    check(cudaMemcpy(monitor_.get(), &m, sizeof m, cudaMemcpyHostToDevice), "mass update");
  }

 private:
  /// An element launch: shells (group -1), beams (kBeamPiece), FPM triangles (kTriPiece) or
  /// solid group `group`, elements
  /// [begin, begin + count) of it; interior pieces run after the interface partials are packed.
  struct Piece {
    int group, begin, count;
    bool interior;
  };
  static constexpr int kBeamPiece = -2, kTriPiece = -3;
  static int blocks(std::size_t n, int block) { return static_cast<int>((n + block - 1) / block); }
  /// Blocks for the contact kernels that give each record a warp.
  static int warp_blocks(std::size_t n) { return blocks(n, cuda::kContactRecordsPerBlock); }

  void sync(const char* what) { check(cudaStreamSynchronize(stream_), what); }

  /// Applies f(name, array) to every device array that kernels write (the restart's list).
  template <class F>
  void for_each_restart_array(F&& f) {
    const char* xyz[] = {"x", "y", "z"};
    DeviceArray<T>* nodal[9] = {&ux_, &uy_, &uz_, &dx_, &dy_, &dz_, &t1x_, &t1y_, &t1z_};
    const char* nodal_names[9] = {"ux", "uy", "uz", "dx", "dy", "dz", "t1x", "t1y", "t1z"};
    for (int i = 0; i < 9; ++i) f(nodal_names[i], *nodal[i]);
    for (int i = 0; i < 6; ++i) f("rem_" + std::string(nodal_names[i]), rem_[i]);
    for (int d = 0; d < kMaxNodeDofs; ++d) f("v" + std::to_string(d), v_[d]);
    for (int i = 0; i < 6; ++i) f("fi" + std::to_string(i), fi_[i]);
    for (int i = 0; i < 3; ++i) f(std::string("fp") + xyz[i], fp_[i]);
    for (int i = 0; i < 2; ++i) {
      f("level_force" + std::to_string(i), level_force_[i]);
      f("level_pressure" + std::to_string(i), level_pressure_[i]);
    }
    f("slot_force", slot_force_);
    f("slot_pressure", slot_pressure_);
    f("elem_energy", elem_energy_);
    f("solid_force", solid_force_);
    f("solid_energy", solid_energy_);
    f("solid_hourglass", solid_hourglass_);
    f("face_force", face_force_);
    f("solid_state", solid_state_);
    f("shell_state", shell_state_);
    f("beam_force", beam_force_);
    f("beam_state", beam_state_);
    f("beam_increment", beam_increment_);
    f("beam_point_values", beam_point_values_);
    f("tri_force", tri_force_);
    f("tri_pressure", tri_pressure_);
    f("tri_state", tri_state_);
    f("tri_increment", tri_increment_);
    f("tri_point_work", tri_point_work_);
    f("hex_increment", hex_increment_);
    f("hex_result", hex_result_);
    f("con_force", con_force_);
    f("body_rotation", body_rotation_);
    f("body_omega", body_omega_);
    f("body_out", body_out_);
    f("body_sums", body_sums_);
    f("ct_history", ct_history_);
    f("ct_force", ct_force_);
    f("ct_weight", ct_weight_);
    f("ct_geom", ct_geom_);
    f("ct_candidates", ct_candidates_);
    f("ct_e_force", ct_e_force_);
    f("ct_e_param", ct_e_param_);
    f("ct_e_max", ct_e_max_);
    f("ct_e_sums", ct_e_sums_);
    f("ct_e_ticket", ct_e_ticket_);
    f("ct_normal", ct_normal_);
    f("ct_shear", ct_shear_);
    f("ct_pair_force", ct_pair_force_);
    f("ct_max", ct_max_);
    f("ct_sums", ct_sums_);
    f("ct_ticket", ct_ticket_);
    f("monitor", monitor_);
    f("sums", sums_);
    f("tickets", tickets_);
    f("halo_buf", halo_buf_);
    f("send_buf", send_buf_);
    f("halo_total", halo_total_);
    f("publish", publish_);
  }

  cuda::MeshView<T> mesh() const {
    cuda::MeshView<T> m = mesh_base();
    m.contact_normal = ct_normal_.get_or_null();
    m.contact_shear = ct_shear_.get_or_null();
    return m;
  }
  cuda::MeshView<T> mesh_base() const {
    return {sys_.shell.num_elements, sys_.num_nodes, conn_.get(), section_.get(), thickness_.get(), elastic_.get(),
            ref_.size() ? ref_.get() : nullptr, x0_.get(), y0_.get(), z0_.get(), d0x_.get(), d0y_.get(), d0z_.get(),
            slot_ptr_.size() ? slot_ptr_.get() : nullptr, slots_.size() ? slots_.get() : nullptr,
            NodeConstView<T>{mass_.get(), inertia_.get(), damp_.size() ? damp_.get() : nullptr,
                             damp_rot_.size() ? damp_rot_.get() : nullptr, con_mass3_.get_or_null(),
                             con_inertia3_.get_or_null()},
            solid_slot_ptr_.get_or_null(), solid_slots_.get_or_null(), solid_force_.get_or_null(),
            sys_.num_interface, halo_total_.get_or_null(), owned_.get_or_null(), beam_slot_ptr_.get_or_null(),
            beam_slots_.get_or_null(), beam_force_.get_or_null(), tri_slot_ptr_.get_or_null(), tri_slots_.get_or_null(),
            tri_force_.get_or_null(), tri_pressure_.get_or_null(),
            section_points_.get_or_null(), shell_law_.get_or_null(), shell_state_.get_or_null(), sys_.shell.num_points,
            shell_first_.get_or_null()};
  }
  cuda::SolidView<T> solid_view() {
    return {{solid_conn_.get_or_null(), solid_material_.get_or_null(), solid_materials_.get_or_null(),
             T(sys_.solid.hourglass_kappa), x0_.get(), y0_.get(), z0_.get(), solid_energy_.get_or_null(),
             solid_hourglass_.get_or_null(), solid_state_.get_or_null(), sys_.solid.num_points},
            solid_force_.get_or_null()};
  }
  BeamView<T> beam_view() {
    return {sys_.beam.num_elements, beam_conn_.get(), beam_section_.get(), beam_constants_.get(), beam_chord0x_.get(),
            beam_chord0y_.get(), beam_chord0z_.get(), ux_.get(), uy_.get(), uz_.get(), t1x_.get(), t1y_.get(),
            t1z_.get(), dx_.get(), dy_.get(), dz_.get(), beam_state_.get(), beam_force_.get()};
  }
  TriView<T> tri_view() {
    return {sys_.tri.num_elements, tri_conn_.get(), tri_section_.get(), tri_constants_.get(), tri_edge_[0].get(),
            tri_edge_[1].get(), tri_edge_[2].get(), tri_edge_[3].get(), tri_edge_[4].get(), tri_edge_[5].get(),
            ux_.get(), uy_.get(), uz_.get(), t1x_.get(), t1y_.get(), t1z_.get(), dx_.get(), dy_.get(), dz_.get(),
            tri_state_.get(), tri_force_.get(), tri_pressure_.get_or_null(), sys_.shell.num_elements};
  }
  NodeStateView<T> state() {
    NodeStateView<T> s{ux_.get(), uy_.get(), uz_.get(), {}, dx_.get(), dy_.get(), dz_.get(),
                       t1x_.get(), t1y_.get(), t1z_.get()};
    for (int d = 0; d < kMaxNodeDofs; ++d) s.v[d] = v_[d].get_or_null();
    for (int i = 0; i < 6; ++i) s.rem[i] = rem_[i].get_or_null();
    return s;
  }
  /// Whether the state keeps FP32 rounding remainders of u and the directors (NodeStateView::rem):
  /// FP32 runs, except the element-local scheme, whose per-corner copies are not compensated.
  bool compensated() const { return sizeof(T) < sizeof(double) && scheme_ != GpuScheme::ElementLocal; }
  /// The linear constraints' tables (num_dependent 0 without them).
  ConstraintView<T> constraints() {
    const LinearConstraints& c = sys_.constraints;
    if (c.empty()) return ConstraintView<T>{};
    return {c.num_dependent,        con_dep_node_.get(),       con_dep_dof_.get(),  con_term_ptr_.get(),
            con_term_node_.get(),   con_term_dof_.get(),       con_term_weight_.get(), con_dependent_.get(),
            con_recv_ptr_.get(),    con_recv_dependent_.get(), con_recv_dof_.get(), con_recv_weight_.get(),
            con_force_.get(),       static_cast<int>(c.rot_node.size()), con_rot_node_.get_or_null()};
  }
  /// The rigid bodies' tables and state (num_bodies 0 without them).
  cuda::BodyView<T> bodies() {
    if (sys_.bodies.empty()) return cuda::BodyView<T>{};
    return {sys_.bodies.num_bodies,  body_ref_.get(),        body_slave_ptr_.get(),    body_slave_.get(),
            body_slave_rot_.get(),   body_ref_rot_.get(),    body_mass_.get(),         body_first_moment_.get(),
            body_inertia_.get(),     body_offset_.get(),     body_rotation_.get(),     body_omega_.get(),
            body_out_.get(),         body_sums_.get(),         body_skip_.get()};
  }
  cuda::RunView run() {
    return {monitor_.get(), node_slots_.view(sums_.get(), tickets_.get()),
            element_slots_.view(sums_.get() + 8, tickets_.get() + 1), publish_.get_or_null(),
            {element_parts_.get_or_null(), parts_capacity_}};
  }
  cuda::NodalForces<T> nodal_forces() {
    cuda::NodalForces<T> f{};
    for (int j = 0; j < 6; ++j) f.fi[j] = fi_[j].get_or_null();
    for (int j = 0; j < 3; ++j) f.fp[j] = fp_[j].get_or_null();
    return f;
  }
  cuda::SlotForces<T> slot_forces() {
    return {slot_force_.get_or_null(), slot_pressure_.get_or_null(), face_force_.get_or_null()};
  }
  cuda::SignedMasses<T> signed_masses() {
    cuda::SignedMasses<T> m{};
    for (int j = 0; j < 5; ++j) m.m[j] = signed_mass_[j].get();
    return m;
  }
  cuda::ForceLevel<T> level(int i) { return {level_force_[i].get(), level_pressure_[i].get_or_null()}; }
  void zero_nodal_forces() {
    for (auto& a : fi_) a.zero(stream_);
    for (auto& a : fp_) a.zero(stream_);
  }

  /// Element pass at tau. In a distributed run with exchange set, the elements touching
  /// shared nodes go first; their partial sums leave while the interior elements run, and
  /// the summed forces are in halo_total_ before the next node pass.
  void launch_elements(double tau, double time, int block, bool exchange) {
    const bool split = dist_ != nullptr && exchange;
    parts_cursor_ = 0;
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

  /// Records phase event k of this increment (advance() of a distributed run only).
  void mark(int k) {
    if (timing_) check(cudaEventRecord(phase_events_[parity_][k], stream_), "cudaEventRecord");
  }

  /// Milliseconds from event a to event b, both complete.
  static double elapsed_ms(cudaEvent_t a, cudaEvent_t b) {
    float ms = 0;
    check(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
    return ms;
  }

  /// Adds the GPU phases known complete once this increment's pack is (packed_ synchronised):
  /// its node pass and interface elements, and the previous increment's pack, interior
  /// elements and interface sum (they precede this node pass on the stream; event 3 follows
  /// packed_, so it may not be complete yet). Read here, the timers add no synchronisation of
  /// their own; the last increment's pack and interior phases go uncounted.
  void add_gpu_phases() {
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

  /// Element launches of a pass, planned once: per kind (shells, then each solid group) the
  /// elements touching shared nodes, then (interior) the rest; the whole kind when the run is
  /// not distributed or the scheme is colored.
  void plan_pieces() {
    const auto add = [&](int group, int count, int boundary) {
      const int nb = dist_ && scheme_ != GpuScheme::Colored ? boundary : count;
      if (nb > 0) pieces_.push_back({group, 0, nb, false});
      if (count > nb) pieces_.push_back({group, nb, count - nb, true});
    };
    if (sys_.shell.num_elements > 0) add(-1, sys_.shell.num_elements, sys_.shell.boundary);
    const auto& groups = sys_.solid.groups;
    for (std::size_t g = 0; g < groups.size(); ++g) add(static_cast<int>(g), groups[g].count, groups[g].boundary);
    if (sys_.beam.num_elements > 0) add(kBeamPiece, sys_.beam.num_elements, sys_.beam.boundary);
    if (sys_.tri.num_elements > 0) add(kTriPiece, sys_.tri.num_elements, sys_.tri.boundary);
    std::stable_partition(pieces_.begin(), pieces_.end(), [](const Piece& p) { return !p.interior; });
  }

  /// Triangles [first, first + count) in seed 003's three kernels (--fpm-kernels split):
  /// kinematics per element, stresses per stress point, forces per element.
  void launch_split_tris(int first, int count, int block, double tau) {
    const bool plastic = sys_.tri.any_plastic();
    const int points = tri_points_;  // kTriPoints when no section yields
    const std::size_t threads = static_cast<std::size_t>(points) * count;
    T* inc = tri_increment_.get();
    T* work = tri_point_work_.get();
    cuda::tri_kinematics_kernel<T><<<blocks(count, block), block, 0, stream_>>>(tri_view(), inc, first, count, run());
    if (plastic) {
      cuda::tri_point_kernel<T, true><<<blocks(threads, block), block, 0, stream_>>>(tri_view(), inc, work, points,
                                                                                     first, count, run());
      cuda::tri_force_kernel<T, true><<<blocks(count, block), block, 0, stream_>>>(tri_view(), inc, work, drive_.view,
                                                                                   tau, first, count, run(), take_slots(count));
    } else {
      cuda::tri_point_kernel<T, false><<<blocks(threads, block), block, 0, stream_>>>(tri_view(), inc, work, points,
                                                                                      first, count, run());
      cuda::tri_force_kernel<T, false><<<blocks(count, block), block, 0, stream_>>>(
          tri_view(), inc, work, drive_.view, tau, first, count, run(), take_slots(count));
    }
  }

  /// Beams [first, first + count) in seed 003's three kernels (--fpm-kernels split):
  /// kinematics per beam, stress points (natural forces, or fibres at the Lobatto points),
  /// forces per beam.
  void launch_split_beams(int first, int count, int block) {
    const std::size_t threads = static_cast<std::size_t>(beam_points_) * count;
    T* inc = beam_increment_.get();
    T* points = beam_point_values_.get();
    cuda::beam_kinematics_kernel<T><<<blocks(count, block), block, 0, stream_>>>(beam_view(), inc, first, count, run());
    cuda::beam_point_kernel<T><<<blocks(threads, block), block, 0, stream_>>>(beam_view(), inc, points, beam_points_,
                                                                             first, count, run());
    cuda::beam_force_kernel<T><<<blocks(count, block), block, 0, stream_>>>(beam_view(), inc, points, first, count,
                                                                           run(), take_slots(count));
  }

  /// The first warp slot of the next element launch of threads threads: a pass's launches take
  /// consecutive slots in launch order, so the sums' order follows the element counts alone.
  unsigned take_slots(std::size_t threads) {
    const std::size_t slot0 = parts_cursor_, next = slot0 + (threads + 31) / 32;
    if (next > parts_capacity_)
      throw std::logic_error("element pass: its launches need more warp sums than were planned");
    parts_cursor_ = static_cast<unsigned>(next);
    return static_cast<unsigned>(slot0);
  }

  /// One planned launch (its warps' energy sums go to the slots take_slots hands it).
  void launch_piece(const Piece& p, double tau, int block) {
    if (p.group == kBeamPiece && split_beams_) {
      launch_split_beams(p.begin, p.count, block);
    } else if (p.group == kBeamPiece) {
      cuda::beam_element_kernel<T><<<blocks(p.count, block), block, 0, stream_>>>(beam_view(), p.begin, p.count, run(),
                                                                                 take_slots(p.count));
    } else if (p.group == kTriPiece && split_tris_) {
      launch_split_tris(p.begin, p.count, block, tau);
    } else if (p.group == kTriPiece) {
      if (sys_.tri.any_plastic())
        cuda::tri_element_kernel<T, true><<<blocks(p.count, block), block, 0, stream_>>>(
            tri_view(), drive_.view, tau, p.begin, p.count, run(), take_slots(p.count));
      else
        cuda::tri_element_kernel<T, false><<<blocks(p.count, block), block, 0, stream_>>>(
            tri_view(), drive_.view, tau, p.begin, p.count, run(), take_slots(p.count));
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

  void launch_shells(double tau, int block, int first, int count) {
    if (split_shells_) launch_split_shells(tau, first, count);
    else if (sys_.shell_global_moments()) launch_shells_as<true>(tau, block, first, count);
    else if (has_plastic_shells(sys_)) launch_shells_as<false>(tau, block, first, count);
    else launch_shells_as<false, false>(tau, block, first, count);
  }

  /// The shell launch of the gather or atomic scheme; kGlobal: 6-dof nodes (global moments);
  /// kMayYield: some shell section is plastic.
  template <bool kGlobal, bool kMayYield = true>
  void launch_shells_as(double tau, int block, int first, int count) {
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
  void launch_split_shells(double tau, int first, int count) {
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

  /// Distributed: packs this rank's shared-node partials (and the published sums) once the
  /// boundary elements are queued; the host waits for them only after queuing the interior.
  void pack_interface() {
    const int nif = sys_.num_interface;
    if (nif > 0) {
      if (sys_.node_dofs == 6) launch_pack<6>();
      else if (sys_.any_shells) launch_pack<5>();
      else launch_pack<3>();
      const int ns = static_cast<int>(send_nodes_.size());
      if (ns > 0)
        cuda::gather_send_kernel<T><<<blocks(ns, 128), 128, 0, stream_>>>(halo_buf_.get(), send_nodes_.get(), ns,
                                                                         send_buf_.get());
      if (!cuda_aware_ && ns > 0)
        check(cudaMemcpyAsync(send_host_.host(), send_buf_.get(), send_buf_.bytes(), cudaMemcpyDeviceToHost, stream_),
              "copy interface forces");
    }
    check(cudaMemcpyAsync(publish_host_.host(), publish_.get(), publish_.bytes(), cudaMemcpyDeviceToHost, stream_),
          "copy published sums");
    check(cudaEventRecord(packed_, stream_), "cudaEventRecord");
  }

  /// (Without contact forces: every rank holding a shared node adds its whole contact force
  /// in the node pass, as the CPU backend does.)
  template <int kDofs>
  void launch_pack() {
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
  void finish_interface() {
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
      monitor_element_pass(host_monitor_, pub[0], pending_time_, pub[1], pub[2]);
      monitor_commit(host_monitor_, pub + 3, pending_time_);
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
  void read_published(int slot, double* out) {
    sync("published sums");
    std::vector<double> all(cuda::kPubSize);
    publish_.copy_to(all.data(), all.size());
    for (int i = 0; i < cuda::kPubValues; ++i) out[i] = all[static_cast<std::size_t>(slot + i)];
    halo_->sum(out, cuda::kPubValues);
  }

  void setup_distributed(const DistributedContext& ctx, const EnergyMonitor& m0) {
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

  HexSplitStore<T> hex_store() {
    return {hex_increment_.get_or_null(), hex_result_.get_or_null(), static_cast<std::size_t>(hex_stride_)};
  }

  /// FPM hexahedra [first, first + count) of a group (nodes from conn_offset, points from
  /// first_point) in seed 003's first two kernels (--fpm-kernels split): frame and strain
  /// increments per element, stresses per Gauss point; the force kernel follows (per color in
  /// the colored scheme).
  void launch_split_hex_stresses(int first, int conn_offset, std::size_t first_point, int count, int block) {
    const std::size_t threads = 8 * static_cast<std::size_t>(count);
    cuda::hex_kinematics_kernel<T><<<blocks(count, block), block, 0, stream_>>>(solid_view(), state(), conn_offset,
                                                                               first_point, count, hex_store(), run());
    cuda::hex_point_kernel<T><<<blocks(threads, block), block, 0, stream_>>>(solid_view(), first, first_point, count,
                                                                            hex_store(), run());
  }

  /// Solid kernel over count elements of group gi from its element begin (gather, atomic).
  template <class K>
  void launch_group(std::size_t gi, int begin, int count, int block) {
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
    if (scheme_ == GpuScheme::Atomic)
      cuda::solid_element_kernel<T, K, Sink::Atomic><<<blocks(count, block), block, 0, stream_>>>(
          solid_view(), state(), first, conn_offset, first_point, nullptr, count, nodal_forces(), run(), take_slots(count));
    else
      cuda::solid_element_kernel<T, K, Sink::Slots>
          <<<blocks(count, block), block, cuda::staged_slot_bytes<T, K>(block), stream_>>>(
              solid_view(), state(), first, conn_offset, first_point, nullptr, count, nodal_forces(), run(), take_slots(count));
  }

  /// Colored scheme: one launch per color of group gi.
  template <class K>
  void launch_colored_group(std::size_t gi, int block) {
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
    for (int c = 0; c < colors; ++c) {
      const int count = ptr[c + 1] - ptr[c];
      cuda::solid_element_kernel<T, K, Sink::Plain><<<blocks(count, block), block, 0, stream_>>>(
          solid_view(), state(), g.first, g.conn_offset, g.first_point, solid_color_elements_.get() + ptr[c], count, nodal_forces(),
          run(), take_slots(count));
    }
  }

  /// Device copies of the contact arrays, the broad phase's buckets and the scan's scratch.
  void setup_contact() {
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
    // The ordered sum of the records' forces (launch_contact): its entries, sorted copies,
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
  ContactView<T> contact_view(const Increment& inc, bool commit) {
    const ContactSystem& cs = sys_.contact;
    const double dt = sys_.stable_dt;  // not the increment in use: see CpuBackend::contact_pass
    return {x0_.get(),
            y0_.get(),
            z0_.get(),
            ux_.get(),
            uy_.get(),
            uz_.get(),
            {v_[0].get(), v_[1].get(), v_[2].get()},
            mass_.get(),
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
            drive_.view.held,
            body_skip_.get_or_null(),
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
  }

  /// Contact at t^n, before the node pass (dynamics/contact_pass.hpp; kernels in
  /// contact_kernels.cuh): broad phase, narrow phase, nodal forces.
  void launch_contact(const Increment& inc, bool commit) {
    const ContactSystem& cs = sys_.contact;
    const int nf = cs.num_facets, ns = cs.num_slaves, nb = ct_buckets_;
    const ContactView<T> c = contact_view(inc, commit);
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
    cuda::contact_narrow_kernel<T><<<blocks(ns, 128), 128, 0, stream_>>>(c, ct_max_.get(), cs.reach, run(),
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
      cuda::contact_edge_kernel<T><<<warp_blocks(ne), 32 * cuda::kContactRecordsPerBlock, 0, stream_>>>(c, ct_e_max_.get(), cs.reach, run(),
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

  /// Distributed contact: the host pass (HostContact, the CPU backend's) and the staging
  /// lists: this rank's contact nodes (ContactShare::node_local), ascending local index.
  void setup_host_contact(int threads) {
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
  void run_host_contact(const Increment& inc, bool commit) {
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
      scatter_contact_force_kernel<T><<<blocks(m, 128), 128, 0, stream_>>>(hc_up_.device(), hc_node_list_.get(), m,
                                                                           ct_normal_.get(), ct_shear_.get());
    if (npair > 0)
      check(cudaMemcpyAsync(ct_pair_force_.get(), up + 6 * static_cast<std::size_t>(m), npair * sizeof(T),
                            cudaMemcpyHostToDevice, stream_),
            "copy contact totals");
    check(cudaGetLastError(), "contact staging launch");
  }

  void launch_nodes(const Increment& inc, NodeMode mode, cuda::FrameOut<T> frame, int block) {
    const int nn = sys_.num_nodes;
    // Distributed: the contact pass runs on the host (a collective; block-size probes keep
    // the last forces and skip it).
    if (host_contact_ && mode != NodeMode::Probe) run_host_contact(inc, mode == NodeMode::Commit);
    else if (!sys_.contact.empty() && !host_contact_) launch_contact(inc, mode == NodeMode::Commit);
    if (scheme_ == GpuScheme::ElementLocal)
      cuda::element_local_sample_kernel<T><<<blocks(nn, block), block, 0, stream_>>>(
          mesh(), state(), drive_.view, inc, mode, level(cur_), frame, run());
    else if (sys_.node_dofs == 6)  // beams, FPM triangles (shells with them): global rotation rates
      launch_node_kernel<6>(inc, mode, frame, block);
    else if (sys_.shell.num_elements == 0)  // solids only: 3-dof nodes, rotational arrays untouched
      launch_node_kernel<3>(inc, mode, frame, block);
    else
      launch_node_kernel<5>(inc, mode, frame, block);
    check(cudaGetLastError(), "node pass launch");
  }

  template <int kDofs>
  void launch_node_kernel(const Increment& inc, NodeMode mode, cuda::FrameOut<T> frame, int block) {
    const int nn = sys_.num_nodes;
    const ConstraintView<T> cons = constraints();
    const int nd = cons.num_dependent;
    if (nd > 0) {  // the dependent dofs' forces, before the node pass hands them on
      if (scheme_ == GpuScheme::Gather)
        cuda::dependent_force_kernel<T, Sink::Slots, kDofs><<<blocks(nd, 128), 128, 0, stream_>>>(
            mesh(), drive_.view, inc, nodal_forces(), slot_forces(), cons);
      else
        cuda::dependent_force_kernel<T, Sink::Plain, kDofs><<<blocks(nd, 128), 128, 0, stream_>>>(
            mesh(), drive_.view, inc, nodal_forces(), slot_forces(), cons);
    }
    const cuda::BodyView<T> bv = bodies();
    const int nb = bv.num_bodies;
    if (nb > 0) {  // rigid bodies first: the node pass adds their energy terms and skips their nodes
      if (scheme_ == GpuScheme::Gather)
        cuda::body_kernel<T, Sink::Slots, kDofs><<<blocks(nb, 64), 64, 0, stream_>>>(
            mesh(), state(), drive_.view, inc, mode, nodal_forces(), slot_forces(), bv, run());
      else
        cuda::body_kernel<T, Sink::Plain, kDofs><<<blocks(nb, 64), 64, 0, stream_>>>(
            mesh(), state(), drive_.view, inc, mode, nodal_forces(), slot_forces(), bv, run());
    }
    if (mode != NodeMode::Sample && plain_nodes()) {
      // Two launches side by side: the few special nodes with every feature, the rest without.
      if (scheme_ == GpuScheme::Gather)
        launch_node_sets<Sink::Slots, kDofs>(inc, mode, frame, block, cons);
      else
        launch_node_sets<Sink::Plain, kDofs>(inc, mode, frame, block, cons);
    } else if (scheme_ == GpuScheme::Gather) {
      cuda::node_pass_kernel<T, Sink::Slots, kDofs><<<blocks(nn, block), block, 0, stream_>>>(
          mesh(), state(), drive_.view, inc, mode, nodal_forces(), slot_forces(), frame, run(), cons, bv.sums, nb, bv.skip);
    } else {
      cuda::node_pass_kernel<T, Sink::Plain, kDofs><<<blocks(nn, block), block, 0, stream_>>>(
          mesh(), state(), drive_.view, inc, mode, nodal_forces(), slot_forces(), frame, run(), cons, bv.sums, nb, bv.skip);
    }
    if (nd > 0)
      cuda::dependent_update_kernel<T><<<blocks(nd, 128), 128, 0, stream_>>>(state(), cons, mode, frame);
    if (cons.num_rot_nodes > 0 && mode == NodeMode::Commit)
      cuda::dependent_frame_kernel<T><<<blocks(cons.num_rot_nodes, 128), 128, 0, stream_>>>(state(), cons, inc,
                                                                                           run());
    if (nb > 0 && mode == NodeMode::Sample)
      cuda::body_output_kernel<T><<<blocks(nb, 64), 64, 0, stream_>>>(bv, frame);
  }

  /// Whether a Commit or Probe node pass may run as NodeSet::Special + NodeSet::Plain: none of
  /// the features that Plain leaves out (constraints, rigid bodies, beams, FPM triangles,
  /// contact, constraint-transferred masses) is in the model.
  bool plain_nodes() const {
    return plain_node_sets_ && sys_.constraints.empty() && sys_.bodies.empty() && sys_.beam.num_elements == 0 &&
           sys_.tri.num_elements == 0 && ct_normal_.size() == 0 && con_mass3_.size() == 0 &&
           con_inertia3_.size() == 0;
  }

  /// The Special and Plain launches of a node pass (NodeSet), Special on side_stream_
  /// alongside Plain; the stream waits for both.
  template <Sink S, int kDofs>
  void launch_node_sets(const Increment& inc, NodeMode mode, cuda::FrameOut<T> frame, int block,
                        const ConstraintView<T>& cons) {
    const int nn = sys_.num_nodes, ns = static_cast<int>(drive_.special_nodes.size());
    const unsigned plain_blocks = blocks(nn, block), special_blocks = ns > 0 ? blocks(ns, 128) : 0;
    const unsigned plain_groups = cuda::group_count(plain_blocks, block), special_groups = cuda::group_count(special_blocks, 128);
    if (ns > 0) {
      check(cudaEventRecord(fork_, stream_), "cudaEventRecord");
      check(cudaStreamWaitEvent(side_stream_, fork_, 0), "cudaStreamWaitEvent");
      cuda::node_pass_kernel<T, S, kDofs, cuda::NodeSet::Special><<<special_blocks, 128, 0, side_stream_>>>(
          mesh(), state(), drive_.view, inc, mode, nodal_forces(), slot_forces(), frame, run(), cons, nullptr, 0,
          nullptr, drive_.special_nodes.get(), ns, plain_groups);
      check(cudaEventRecord(join_, side_stream_), "cudaEventRecord");
    }
    cuda::node_pass_kernel<T, S, kDofs, cuda::NodeSet::Plain><<<plain_blocks, block, 0, stream_>>>(
        mesh(), state(), drive_.view, inc, mode, nodal_forces(), slot_forces(), frame, run(), cons, nullptr, 0,
        nullptr, nullptr, 0, special_groups);
    if (ns > 0) check(cudaStreamWaitEvent(stream_, join_, 0), "cudaStreamWaitEvent");
  }

  void launch_local(const Increment& inc, bool integrate, int block) {
    cuda::element_local_kernel<T><<<blocks(sys_.shell.num_elements, block), block, 0, stream_>>>(
        mesh(), state(), signed_masses(), drive_.view, inc, integrate, level(cur_), level(1 - cur_),
        elem_energy_.get(), run());
    check(cudaGetLastError(), "element-local launch");
  }

  /// Largest block a kernel can launch with (its registers limit it).
  template <class K>
  static int max_block(K kernel) {
    cudaFuncAttributes a{};
    check(cudaFuncGetAttributes(&a, kernel), "cudaFuncGetAttributes");
    return a.maxThreadsPerBlock;
  }

  /// Milliseconds per call of f(block), best of 3 after a warm-up.
  template <class F>
  float time_launches(F&& f, int block) {
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
  int solid_max_block() {
    int limit = 1024;
    for (const SolidGroup& g : sys_.solid.groups)
      visit_continuum_kind(g.kind, [&](auto kind) {
        if constexpr (runs_explicit<decltype(kind)>()) limit = std::min(limit, kind_max_block<decltype(kind)>());
      });
    return limit;
  }
  template <class K>
  int kind_max_block() {
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
    switch (scheme_) {
      case GpuScheme::Gather: return max_block(cuda::solid_element_kernel<T, K, Sink::Slots>);
      case GpuScheme::Atomic: return max_block(cuda::solid_element_kernel<T, K, Sink::Atomic>);
      default: return max_block(cuda::solid_element_kernel<T, K, Sink::Plain>);
    }
  }

  /// Block sizes by timing the kernels on this model (seed 000 sec. 3.2.2); the passes used
  /// for timing change no state (forces are recomputed, node passes do not commit).
  void autotune() {
    const int candidates[] = {64, 128, 256, 512};
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
    if (sys_.tri.num_elements > 0)
      limit_e = std::min(limit_e, sys_.tri.any_plastic() ? max_block(cuda::tri_element_kernel<T, true>)
                                                       : max_block(cuda::tri_element_kernel<T, false>));
    if (sys_.tri.num_elements > 0 && split_tris_)
      limit_e = std::min({limit_e, max_block(cuda::tri_kinematics_kernel<T>), max_block(cuda::tri_point_kernel<T, true>),
                          max_block(cuda::tri_force_kernel<T, true>)});
    if (sys_.node_dofs == 6) {
      if (sys_.beam.num_elements > 0) limit_e = std::min(limit_e, max_block(cuda::beam_element_kernel<T>));
      if (sys_.beam.num_elements > 0 && split_beams_)
        limit_e = std::min({limit_e, max_block(cuda::beam_kinematics_kernel<T>), max_block(cuda::beam_point_kernel<T>),
                            max_block(cuda::beam_force_kernel<T>)});
      limit_n = std::min(limit_n, scheme_ == GpuScheme::Gather ? max_block(cuda::node_pass_kernel<T, Sink::Slots, 6>)
                                                               : max_block(cuda::node_pass_kernel<T, Sink::Plain, 6>));
    }
    if (sys_.shell_global_moments()) {  // the shells' 6-value kernels run instead
      const int limit = scheme_ == GpuScheme::Gather   ? max_block(cuda::element_pass_kernel<T, Sink::Slots, true>)
                        : scheme_ == GpuScheme::Atomic ? max_block(cuda::element_pass_kernel<T, Sink::Atomic, true>)
                                                       : max_block(cuda::element_pass_kernel<T, Sink::Plain, true>);
      limit_e = std::min(limit_e, limit);
    }
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

  int acquire_staging() {
    std::unique_lock<std::mutex> lock(staging_mutex_);
    staging_free_.wait(lock, [&] { return !staging_[0].in_use || !staging_[1].in_use; });
    const int b = staging_[0].in_use ? 1 : 0;
    staging_[b].in_use = true;
    return b;
  }
  void release_staging(int b) {
    {
      std::lock_guard<std::mutex> lock(staging_mutex_);
      staging_[b].in_use = false;
    }
    staging_free_.notify_all();
  }

  const StructureSystem& sys_;
  BackendOptions opt_;
  GpuScheme scheme_;
  std::string device_name_;
  cudaStream_t stream_ = nullptr;
  cudaStream_t side_stream_ = nullptr;  ///< NodeSet::Special alongside Plain (launch_node_sets)
  cudaEvent_t fork_ = nullptr, join_ = nullptr;
  int block_element_ = 128, block_node_ = 128;
  bool tuned_ = false;
  int cur_ = 0;  // element-local: the force level written last

  DeviceArray<int> conn_, section_, slot_ptr_, slots_, color_elements_;
  std::vector<int> color_ptr_;
  DeviceArray<T> thickness_;
  DeviceArray<ShellElastic<T>> elastic_;
  DeviceArray<Mitc4Ref<T>> ref_;
  DeviceArray<T> x0_, y0_, z0_, d0x_, d0y_, d0z_, mass_, inertia_, damp_, damp_rot_;
  // Linear constraints (discretization/constraints.hpp; empty without them).
  DeviceArray<T> con_mass3_, con_inertia3_, con_force_;
  DeviceArray<int> con_rot_node_;  ///< nodes with a dependent rotation (frames turned after the update)
  DeviceArray<int> con_dep_node_, con_dep_dof_, con_term_ptr_, con_term_node_, con_term_dof_, con_recv_ptr_,
      con_recv_dependent_, con_recv_dof_;
  DeviceArray<double> con_term_weight_, con_recv_weight_;
  DeviceArray<std::uint8_t> con_dependent_;
  // Rigid bodies (RigidBodies; empty without them): tables, then rotation and angular velocity.
  DeviceArray<int> body_ref_, body_slave_ptr_, body_slave_;
  DeviceArray<std::uint8_t> body_slave_rot_, body_ref_rot_, body_skip_;
  DeviceArray<T> body_mass_, body_first_moment_, body_inertia_, body_offset_, body_rotation_, body_omega_, body_out_;
  DeviceArray<double> body_sums_;
  // Contact (ContactSystem; empty without it): tables, friction history, per-record results,
  // nodal forces, the broad phase's buckets and the energy sums.
  DeviceArray<int> ct_facet_nodes_, ct_facet_pair_, ct_slave_node_, ct_slave_pair_, ct_facet_of_;
  DeviceArray<int> ct_start_, ct_cursor_, ct_key_, ct_facets_, ct_slave_facet_ptr_, ct_slave_facet_nodes_;
  DeviceArray<FacetCandidate<T>> ct_candidates_;  // the facets' candidate values in bucket order
  DeviceArray<std::uint8_t> ct_two_sided_, ct_self_, ct_mirrored_;
  DeviceArray<T> ct_facet_offset_, ct_facet_depth_, ct_spring_mass_, ct_slave_offset_, ct_mu_s_, ct_mu_k_, ct_decay_;
  DeviceArray<T> ct_history_, ct_force_, ct_weight_;
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
  // The ordered sum of the contact forces (launch_contact; contact_entry_key): entries and
  // their sorted copies, the runs of one target, and the scratch of the sort, encoding and scan.
  DeviceArray<int> ct_ord_key_[2], ct_ord_entry_[2], ct_run_key_, ct_run_count_, ct_run_start_, ct_num_runs_;
  DeviceArray<unsigned char> ct_ord_temp_;
  int ct_entries_ = 0;   ///< kContactSlaveEntries per slave record, kContactEdgeEntries per edge record
  int ct_ord_bits_ = 1;  ///< key bits the sort looks at (the largest key, "none", fits)
  DeviceArray<T> ux_, uy_, uz_, dx_, dy_, dz_, t1x_, t1y_, t1z_, v_[kMaxNodeDofs];
  DeviceArray<T> rem_[6];  ///< FP32: rounding remainders of ux, uy, uz, dx, dy, dz (compensated())
  DeviceArray<T> fi_[6], fp_[3];                      // atomic, colored
  DeviceArray<T> slot_force_, slot_pressure_;         // gather
  DeviceArray<T> signed_mass_[5], level_force_[2], level_pressure_[2];  // element-local
  DeviceArray<T> elem_energy_;
  DeviceArray<int> solid_conn_, solid_material_, solid_slot_ptr_, solid_slots_, solid_color_elements_;
  DeviceArray<SolidMaterial<T>> solid_materials_;
  DeviceArray<T> solid_force_, solid_energy_, solid_hourglass_, face_force_;
  DeviceArray<T> solid_state_;  // material state per solid integration point, component-major (stride num_points)
  DeviceArray<int> section_points_;              // plastic shells: Simpson points per section (0: elastic)
  DeviceArray<SolidMaterial<T>> shell_law_;      // plastic shells: law per section
  DeviceArray<std::size_t> shell_first_;         // plastic shells: first section point per shell
  // Section-point state, component-major (stride shell.num_points); mutable: the kernels
  // update it through the MeshView that the const mesh() hands out.
  mutable DeviceArray<T> shell_state_;
  std::vector<std::vector<int>> solid_color_ptr_;  // per solid group, into solid_color_elements_
  DeviceArray<int> beam_conn_, beam_section_, beam_slot_ptr_, beam_slots_;
  DeviceArray<BeamConstants<T>> beam_constants_;
  DeviceArray<T> beam_chord0x_, beam_chord0y_, beam_chord0z_, beam_force_;
  DeviceArray<T> beam_state_;  // component-major, stride num_beams (elements/fpm_beam.hpp)
  DeviceArray<int> tri_conn_, tri_section_, tri_slot_ptr_, tri_slots_;
  DeviceArray<TriConstants<T>> tri_constants_;
  DeviceArray<T> tri_edge_[6];                    // X2 - X1 (x, y, z), X3 - X1 (x, y, z) per triangle
  DeviceArray<T> tri_force_, tri_pressure_;       // 18 and (with pressures) 9 per triangle
  DeviceArray<T> tri_state_;  // component-major, stride num_tris (elements/fpm_tri.hpp)
  DeviceArray<T> tri_increment_, tri_point_work_;  // split scheme: kTriIncrementValues and tri_points_ per triangle
  int tri_points_ = 0;                             // split scheme: most stress points of a triangle
  DeviceArray<T> beam_increment_, beam_point_values_;  // split scheme: kBeamIncrementValues and beam_points_ per beam
  int beam_points_ = 0;                                // split scheme: most stress points of a beam
  // Split scheme for FPM hexahedra: per element of the largest FPM group, the increment
  // (kHexIncrementValues) and the Gauss points' results (kHexResultValues).
  DeviceArray<T> hex_increment_, hex_result_;
  int hex_stride_ = 0;
  // Which FPM families run split (fpm_split_family: the option, and Auto's per-family choice).
  const bool split_tris_, split_beams_, split_hexes_;
  // Elastic 5-dof shells four threads per element (split_shell_pass_kernel; shell_split).
  const bool split_shells_;
  const bool plain_node_sets_;  ///< node passes as Special + Plain where plain_nodes() allows
  DeviceArray<EnergyMonitor> monitor_;
  DeviceArray<double> sums_;
  DeviceArray<unsigned> tickets_;
  // The grid sums' warp slots (cuda::grid_sum): node passes, element passes, contact records
  // and contact edges. Scratch, zero between launches: not in restart files.
  SumSlots node_slots_, element_slots_, ct_slots_, ct_e_slots_;
  // The element launches' warp sums of one pass (cuda::WarpSums): capacity, and the next free
  // slot while a pass is being queued (take_slots).
  DeviceArray<double> element_parts_;
  unsigned parts_capacity_ = 0, parts_cursor_ = 0;
  cuda::DeviceDrive drive_;
  std::size_t drive_bytes_ = 0;

  std::vector<Piece> pieces_;

  // Distributed runs: the interface exchange and the monitor of the whole model (on the host).
  const DistributedContext* dist_ = nullptr;
  int device_ = 0;
  bool cuda_aware_ = false;
  std::unique_ptr<HaloExchange> halo_;
  DeviceArray<T> halo_buf_, send_buf_, halo_total_;  // [own | received], to neighbours, summed
  DeviceArray<int> send_nodes_, sum_ptr_, sum_src_;
  DeviceArray<std::uint8_t> owned_;
  PinnedArray<T> send_host_, recv_host_;             // host-staged transport
  DeviceArray<double> publish_;
  PinnedArray<double> publish_host_;
  cudaEvent_t packed_ = nullptr;
  // Phase timers of a distributed run's increments (docs/parallel.md, "Where ranks wait"):
  // GPU phases between CUDA events recorded on the stream, host phases by the steady clock.
  enum GpuPhase { kGpuNodes, kGpuInterfaceElements, kGpuPack, kGpuInteriorElements, kGpuInterfaceSum, kNumGpuPhases };
  enum HostPhase { kHostPackWait, kHostExchange, kHostEnergySums, kNumHostPhases };
  /// Per increment parity, events before the node pass, after it, after the interface
  /// elements, after the pack and its copies, after the interior elements, after the sum.
  std::array<std::array<cudaEvent_t, 6>, 2> phase_events_{};
  int parity_ = 0;
  bool timing_ = false;        ///< inside a distributed advance(): mark() records
  bool timed_before_ = false;  ///< the other parity's events hold the previous increment
  std::array<double, kNumGpuPhases> gpu_phase_{};
  std::array<double, kNumHostPhases> host_phase_{};
  EnergyMonitor host_monitor_;
  bool pending_commit_ = false;
  double pending_time_ = 0;
  // Distributed contact (run_host_contact): the host pass, this rank's contact nodes (host
  // and device copies of the list), the staging buffers (mapped pinned: 6 per node down; 6
  // per node and 6 per definition up), the host pass's inputs and outputs, the friction
  // history it keeps, and the step's held bits.
  std::unique_ptr<HostContact> host_contact_;
  std::vector<int> hc_nodes_;
  DeviceArray<int> hc_node_list_;
  PinnedArray<T> hc_down_, hc_up_;
  std::array<std::vector<double>, 6> hc_motion_;
  std::vector<double> hc_normal_, hc_shear_, hc_pair_, hc_history_;
  std::vector<std::uint8_t> host_held_;

  std::vector<std::vector<char>> restart_host_;  // save_restart's host copies (the blob views them)
  Staging<T> staging_[2];
  /// The node list of the latest compact frame (OutputFrame::nodes), its node -> row map (nn
  /// values, -1 for nodes it lacks) and the list on the device (built when the list changes).
  std::shared_ptr<const std::vector<int>> frame_nodes_;
  DeviceArray<int> frame_row_, frame_list_;
  std::mutex staging_mutex_;
  std::condition_variable staging_free_;
};

}  // namespace

bool cuda_device_present(std::string* why_not) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    if (why_not)
      *why_not = err != cudaSuccess ? std::string("no usable GPU (") + cudaGetErrorString(err) + ")"
                                    : std::string("no CUDA device found");
    cudaGetLastError();
    return false;
  }
  return true;
}

std::unique_ptr<Backend> make_cuda_backend(const StructureSystem& sys, const BackendOptions& opt) {
  if (opt.single) return std::make_unique<CudaBackend<float>>(sys, opt);
  return std::make_unique<CudaBackend<double>>(sys, opt);
}

}  // namespace halfstep
