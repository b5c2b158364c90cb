// The CUDA backend: the whole shell model resident on the GPU, in FP64 or FP32, with four
// schemes for getting element forces to the nodes (docs/performance.md compares them):
//   atomic         element pass adds forces into nodal arrays with atomics; node pass integrates
//   gather         element pass writes per-corner forces; node pass gathers them (CSR)
//   colored        seed 000 sec. 3.1: one element launch per color, plain adds into nodal arrays
//   element-local  seed 000 sec. 3.2: one kernel per step over per-element copies of the nodes
// Element, material, integrator and energy-balance code are the host/device functions the
// CPU backend calls. Within a step nothing is copied to the host except output frames.
// This file holds the class, its data and its constructor's steps; the passes' members are
// defined in device_state.cuh (upload, download, restart list, output staging),
// element_pass.cuh, node_pass.cuh and halo_pass.cuh (distributed runs), included at the end;
// the contact pass is a ContactPass the class holds (contact_pass.cuh), and the element
// families with a pass of their own (the FPM beams and triangles) are DeviceFamily entries it
// walks (device_families.cuh).
#include "backends/cuda/cuda_backend.hpp"

#include <cuda_runtime.h>

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
#include "backends/cuda/constraint_kernels.cuh"
#include "backends/cuda/contact_pass.cuh"
#include "backends/cuda/device_drive.cuh"
#include "backends/cuda/device_families.cuh"
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

using cuda::blocks;
using cuda::check;
using cuda::convert;
using cuda::DeviceArray;
using cuda::max_block;
using cuda::NodeMode;
using cuda::PinnedArray;
using cuda::Sink;
using cuda::SumSlots;

/// Pinned buffers one output frame is staged in, and whether a frame still uses them.
template <class T>
struct Staging {
  PinnedArray<T> full, state, energy;  // 12 and 9 per node of the frame (all, or a compact frame's), ne
  PinnedArray<T> points;               // material state per solid integration point (models with state)
  PinnedArray<T> family_state[cuda::kMaxSlotFamilies];  // per device family: its elements' state
  PinnedArray<T> shell_points;         // section-point state of plastic shells
  PinnedArray<T> contact;              // contact models: nodal normal, then friction forces (3 nn each)
  PinnedArray<T> bodies;               // rigid bodies' rotations (9 each): their reference nodes' UR
  PinnedArray<EnergyMonitor> monitor;
  cudaEvent_t ready = nullptr;
  bool in_use = false;
};

template <class T>
class CudaBackend final : public Backend {
 public:
  CudaBackend(const StructureSystem& sys, const BackendOptions& opt)
      : sys_(sys), opt_(opt), scheme_(opt.gpu.scheme == GpuScheme::Auto ? GpuScheme::Gather : opt.gpu.scheme),
        contact_(sys), families_(cuda::make_device_families<T>(sys, opt.gpu)),
        split_hexes_(fpm_split_family(opt.gpu.fpm_kernels, true, sizeof(T) == 4)),
        split_shells_(shell_split(opt.gpu.shell_kernel, scheme_) && sys.shell.num_elements > 0 &&
                      !sys.shell_global_moments() && !has_plastic_shells(sys) && scheme_ != GpuScheme::ElementLocal),
        plain_node_sets_(opt.gpu.split_node_pass) {
    refuse_unsupported();
    open_device();
    setup_shells();
    setup_nodes();
    setup_node_state();
    for (auto& f : families_) f->setup(stream_);
    setup_forces();
    if (sys.solid.num_elements > 0) setup_solids();
    if (!sys.contact.empty()) contact_.setup(stream_);
    monitor_.resize(1);
    EnergyMonitor m0 = initial_monitor(sys, opt);
    monitor_.assign(&m0, 1);
    if (opt.distributed) setup_distributed(*opt.distributed, m0);
    if (dist_ && !sys.contact.empty()) setup_host_contact(opt.threads);
    if (scheme_ != GpuScheme::ElementLocal) plan_pieces();
    setup_sums();
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
           split_kernels() +
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
                    solid_energy_.bytes() + solid_hourglass_.bytes() + solid_state_.bytes() + solid_edata_.bytes() +
                    solid_edata_ptr_.bytes() +
                    solid_thermal_last_.bytes() + solid_thermal_slope_.bytes() +
                    solid_color_elements_.bytes() + face_force_.bytes() + hex_increment_.bytes() + hex_result_.bytes() +
                    section_points_.bytes() +
                    shell_law_.bytes() + shell_first_.bytes() + shell_state_.bytes();
    for (const auto& f : families_) b += f->bytes();
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

  // The state's ways to and from the host (device_state.cuh).
  void upload(const StructureState& st) override;
  void download(StructureState& st) override;

  void begin_step(const StepDrive& drive) override {
    sync("before a step");
    const int ne = sys_.shell.num_elements, nn = sys_.num_nodes;
    drive_.assign(drive);
    host_thermal_ = drive.has_thermal() ? std::make_shared<const StepDrive>(drive) : nullptr;
    solid_thermal_.resize(drive.has_thermal() ? static_cast<std::size_t>(sys_.solid.num_elements) : 0);
    if (host_contact_) host_held_ = drive.held;
    drive_bytes_ = drive_.held.bytes() + drive_.special.bytes() + drive_.special_nodes.bytes() +
                   drive_.pressure_ptr.bytes() + drive_.pressure_amp.bytes() + drive_.pressure_value.bytes() +
                   drive_.face_nodes.bytes() + drive_.face_node_ptr.bytes() + drive_.face_node_slots.bytes();
    face_force_.resize(3 * kFaceMaxNodes * static_cast<std::size_t>(drive.num_faces));
    const bool p = drive.has_pressure();
    for (auto& f : families_) f->begin_step(p);
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
    if (!tuned_) {
      if (opt_.gpu.autotune) autotune();
      else refuse_oversized_block();
    }
  }

  void element_pass(double tau, double time, double half_dt = 0.0) override {
    half_dt_ = half_dt;
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
    half_dt_ = 0.5 * inc.dt_next;
    launch_elements(inc.tau + inc.dt_next, inc.time + inc.dt_next, block_element_, true);
    if (timing_) {
      timed_before_ = true;
      parity_ = 1 - parity_;
      timing_ = false;
    }
  }

  void sample(const Increment& inc, OutputFrame& frame) override;
  EnergyMonitor poll() override {
    sync("time loop");
    if (dist_) return host_monitor_;
    EnergyMonitor m;
    monitor_.copy_to(&m, 1);
    return m;
  }

  std::string restart_layout() const override {
    std::string split;
    for (const auto& f : families_)
      if (*f->split_name()) split += std::string(", split ") + f->split_name();
    return "cuda on " + device_name_ + ", " + gpu_scheme_name(scheme_) + " scheme" + split +
           (split_hexes_ ? ", split hexahedra" : "") + (split_shells_ ? ", split shells" : "");
  }

  std::string restart_unsupported() const override { return ""; }

  void save_restart(RestartBlob& blob) override;
  void load_restart(const RestartBlob& blob) override;
  void rebase_energy(bool forget_thermal) override {
    sync("energy rebase");
    monitor_rebase(host_monitor_);
    EnergyMonitor m;
    monitor_.copy_to(&m, 1);
    monitor_rebase(m);
    check(cudaMemcpy(monitor_.get(), &m, sizeof m, cudaMemcpyHostToDevice), "energy rebase");
    if (forget_thermal && solid_thermal_last_.size() > 0)  // the thermal work starts afresh too
      solid_thermal_last_.assign(std::vector<T>(solid_thermal_last_.size(), std::numeric_limits<T>::quiet_NaN()));
  }

  // *VARIABLE MASS SCALING between increments: the host's new masses into the node pass's
  // arrays (and the element-local scheme's per-corner copies), the constraints', bodies' and
  // contact springs' masses made from them, the kinetic energy they added into the monitor.
  // The solver refuses it for distributed models.
  void update_masses(const StructureSystem& sys, double added_kinetic) override {
    if (&sys != &sys_) throw std::logic_error("update_masses: only the system the backend runs");
    if (dist_)  // not yet run on a device under mpirun
      throw RunError("*VARIABLE MASS SCALING under mpirun runs on the CPU backend so far: run with --backend cpu");
    sync("mass update");
    mass_.assign(convert<T>(sys.mass));
    inertia_.assign(convert<T>(sys.inertia));
    if (!sys.constraints.empty()) {  // the handed masses (same sizes: the arrays stay where they are)
      con_mass3_.assign(convert<T>(sys.constraints.mass3));
      if (!sys.constraints.inertia3.empty()) con_inertia3_.assign(convert<T>(sys.constraints.inertia3));
    }
    if (!sys.bodies.empty()) {
      body_mass_.assign(convert<T>(sys.bodies.mass));
      body_first_moment_.assign(convert<T>(sys.bodies.first_moment));
      body_inertia_.assign(convert<T>(sys.bodies.inertia));
    }
    if (!sys.contact.empty() && !host_contact_) contact_.update_spring_masses();
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
  /// An element launch: a device family's (family set), the shells (group -1) or solid group
  /// `group`, elements [begin, begin + count) of it; interior pieces run after the interface
  /// partials are packed.
  struct Piece {
    int group, begin, count;
    bool interior;
    cuda::DeviceFamily<T>* family = nullptr;
  };

  void sync(const char* what) { check(cudaStreamSynchronize(stream_), what); }

  /// ", FPM kernels split ( ... )" naming the families whose kernels run split, or "".
  std::string split_kernels() const {
    std::string names;
    for (const auto& f : families_)
      if (*f->split_name()) names += std::string(" ") + f->split_name();
    if (hex_stride_ > 0) names += " hexahedra";
    return names.empty() ? std::string() : ", FPM kernels split (" + names + " )";
  }

  // Constructor steps, in the order the constructor takes them.
  /// Throws RunError for model features the chosen scheme does not run, before any device memory is
  /// taken.
  void refuse_unsupported() const {
    const SolidMesh& sm = sys_.solid;
    const int ns = sm.num_elements;
    if (!sys_.contact.empty() && scheme_ == GpuScheme::ElementLocal)
      throw RunError("--gpu-scheme element-local does not run contact; use gather, atomic or colored");
    if (sys_.constrained() && scheme_ == GpuScheme::ElementLocal)
      throw RunError("--gpu-scheme element-local does not run constraints (*TIE, *EQUATION, *RIGID BODY, "
                     "*COUPLING); use gather, atomic or colored");
    if (ns > 0 && scheme_ == GpuScheme::ElementLocal)
      throw RunError("--gpu-scheme element-local runs shell-only models (per-element copies of 5-dof nodes); "
                     "use gather, atomic or colored for models with solids");
    if (!families_.empty() && scheme_ == GpuScheme::ElementLocal)
      throw RunError("--gpu-scheme element-local runs shell-only models (per-element copies of 5-dof nodes); "
                     "use gather, atomic or colored for models with beams or FPM triangles");
    if (opt_.distributed && scheme_ != GpuScheme::Gather && scheme_ != GpuScheme::Atomic)
      throw RunError("distributed runs use the gather or atomic GPU scheme");
  }

  /// Selects the device (one per rank in distributed runs) and creates the streams and events the
  /// passes share.
  void open_device() {
    if (opt_.gpu.device >= 0) {  // one GPU per rank: the rank's index on its host picks it
      int count = 0;
      check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
      check(cudaSetDevice(opt_.gpu.device % count), "cudaSetDevice");
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
    block_element_ = block_node_ = opt_.gpu.block;
  }

  /// The nodes' reference geometry and constants the node pass reads (constraints and rigid bodies
  /// in between).
  void setup_nodes() {
    x0_.assign(convert<T>(sys_.x0));
    y0_.assign(convert<T>(sys_.y0));
    z0_.assign(convert<T>(sys_.z0));
    d0x_.assign(convert<T>(sys_.dir0x));
    d0y_.assign(convert<T>(sys_.dir0y));
    d0z_.assign(convert<T>(sys_.dir0z));
    mass_.assign(convert<T>(sys_.mass));
    if (!sys_.constraints.empty()) setup_constraints();
    if (!sys_.bodies.empty()) setup_bodies();
    inertia_.assign(convert<T>(sys_.inertia));
    if (std::any_of(sys_.damp.begin(), sys_.damp.end(), [](double c) { return c != 0.0; })) {
      damp_.assign(convert<T>(sys_.damp));
      damp_rot_.assign(convert<T>(sys_.damp_rot));
    }
  }

  /// The linear constraints' tables (discretization/constraints.hpp) and the dependent dofs'
  /// forces.
  void setup_constraints() {
    const LinearConstraints& c = sys_.constraints;
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

  /// The rigid bodies' tables and the arrays of their rotations and sums.
  void setup_bodies() {
    const RigidBodies& rb = sys_.bodies;
    body_ref_.assign(rb.ref_node);
    body_skip_.assign(rb.skip);
    body_slave_ptr_.assign(rb.slave_ptr);
    body_slave_.assign(rb.slave_node);
    body_slave_rot_.assign(rb.slave_rot);
    std::vector<std::uint8_t> ref_rot(rb.num_bodies);
    for (int b = 0; b < rb.num_bodies; ++b)
      ref_rot[b] = sys_.node_dofs == 6 && sys_.has_rotations(rb.ref_node[b]) ? 1 : 0;
    body_ref_rot_.assign(ref_rot);
    body_mass_.assign(convert<T>(rb.mass));
    body_first_moment_.assign(convert<T>(rb.first_moment));
    body_inertia_.assign(convert<T>(rb.inertia));
    body_offset_.assign(convert<T>(rb.offset));
    body_rotation_.resize(9 * static_cast<std::size_t>(rb.num_bodies));
    body_omega_.resize(3 * static_cast<std::size_t>(rb.num_bodies));
    body_out_.resize(kBodyOutValues * static_cast<std::size_t>(rb.num_bodies));
    body_sums_.resize(4 * static_cast<std::size_t>(rb.num_bodies));
  }

  /// The nodes' state arrays in the scheme's layout (element-local: a copy per element corner).
  void setup_node_state() {
    const int ne = sys_.shell.num_elements, nn = sys_.num_nodes;
    const bool local = scheme_ == GpuScheme::ElementLocal;
    if (local || scheme_ == GpuScheme::Gather) {
      slot_ptr_.assign(sys_.shell.node_slot_ptr);
      slots_.assign(sys_.shell.node_slots);
    }
    if (local || opt_.gpu.stored_reference) {
      // The seed's scheme keeps per-element constants; the others recompute them unless told
      // (--gpu-reference stored): 24 reals per element against ~600 FLOP.
      std::vector<Mitc4Ref<T>> ref(ne);
      for (int e = 0; e < ne; ++e)
        for (int g = 0; g < 4; ++g) {
          ref[e].wj[g] = T(sys_.shell.ref[e].wj[g]);
          ref[e].cr1[g] = T(sys_.shell.ref[e].cr1[g]);
          ref[e].cr2[g] = T(sys_.shell.ref[e].cr2[g]);
          ref[e].cs1[g] = T(sys_.shell.ref[e].cs1[g]);
          ref[e].cs2[g] = T(sys_.shell.ref[e].cs2[g]);
          ref[e].cz3[g] = T(sys_.shell.ref[e].cz3[g]);
        }
      ref_.assign(ref);
    }
    const std::size_t state_size = local ? 4 * static_cast<std::size_t>(ne) : nn;
    for (auto* a : {&ux_, &uy_, &uz_, &dx_, &dy_, &dz_, &t1x_, &t1y_, &t1z_}) a->resize(state_size);
    for (int d = 0; d < kShellDofs; ++d) v_[d].resize(state_size);
    if (sys_.node_dofs == 6) v_[5].resize(state_size);  // the third global rotation rate of six-dof nodes
  }

  /// The arrays element passes hand their forces to the node pass in, by scheme, and the element
  /// energies.
  void setup_forces() {
    const int ne = sys_.shell.num_elements, nn = sys_.num_nodes;
    const bool local = scheme_ == GpuScheme::ElementLocal;
    const std::size_t state_size = local ? 4 * static_cast<std::size_t>(ne) : nn;
    if (local) {
      for (auto& a : signed_mass_) a.resize(state_size);
      for (auto& a : level_force_) a.resize(20 * static_cast<std::size_t>(ne));
    } else if (scheme_ == GpuScheme::Gather) {
      slot_force_.resize(4 * static_cast<std::size_t>(sys_.shell_corner_values()) * ne);
    } else {
      // The sixth array (third global moment) only where nodes have 6 dofs.
      for (int j = 0; j < (sys_.node_dofs == 6 ? 6 : 5); ++j) {
        fi_[j].resize(nn);
        fi_[j].zero(stream_);
      }
    }
    if (scheme_ == GpuScheme::Colored) {
      const ElementColoring col = color_elements(sys_.shell.conn, nn);
      color_ptr_ = col.ptr;
      color_elements_.assign(col.elements);
    }
    elem_energy_.resize(ne);
  }

  /// The warp slots and totals of the grid sums, sized for the largest launch the passes plan.
  void setup_sums() {
    sums_.resize(16);  // node sums, then element sums
    sums_.zero(stream_);
    tickets_.resize(2);
    tickets_.zero(stream_);
    // A slot per warp of the largest launch: node passes run a thread per node (element-local:
    // per element) in up to two launches (the second over at most every node). An element
    // pass's launches (a piece, or a color of one) run up to four threads per element, and
    // each may end in a partly used warp; element_sums_kernel adds their warp sums.
    std::size_t elements = static_cast<std::size_t>(sys_.shell.num_elements) + sys_.solid.num_elements;
    for (const auto& f : families_) elements += static_cast<std::size_t>(f->count());
    node_slots_.size(std::max<std::size_t>(sys_.num_nodes, elements) + sys_.num_nodes, stream_);
    element_slots_.size(64 * cuda::kElementSumThreads, stream_);
    std::size_t launches = pieces_.size() * color_ptr_.size() + pieces_.size();
    for (const std::vector<int>& ptr : solid_color_ptr_) launches += pieces_.size() * ptr.size();
    const std::size_t parts = (4 * elements + 31) / 32 + launches;
    if (parts > std::numeric_limits<unsigned>::max())
      throw std::length_error("element pass: more warp sums than a 32-bit slot index holds");
    parts_capacity_ = static_cast<unsigned>(parts);
    element_parts_.resize(cuda::kElementSums * parts);
  }

  // element_pass.cuh: the element families' device arrays (constructor steps).
  void setup_shells();
  void setup_solids();

  // The node pass and the interface pack by the kind of nodes the model has (the passes' own
  // launches are in node_pass.cuh and halo_pass.cuh).
  void launch_nodes(const Increment& inc, NodeMode mode, cuda::FrameOut<T> frame, int block) {
    const int nn = sys_.num_nodes;
    // Distributed: the contact pass runs on the host (a collective; block-size probes keep
    // the last forces and skip it).
    if (host_contact_ && mode != NodeMode::Probe) run_host_contact(inc, mode == NodeMode::Commit);
    else if (!sys_.contact.empty() && !host_contact_)
      contact_.launch(inc, mode == NodeMode::Commit, contact_nodes(), run());
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

  /// Distributed: packs this rank's shared-node partials (and the published sums) once the
  /// boundary elements are queued; the host waits for them only after queuing the interior.
  void pack_interface() {
    const int nif = sys_.num_interface;
    if (nif > 0) {
      if (sys_.node_dofs == 6) launch_pack<6>();
      else if (sys_.any_director_nodes) launch_pack<5>();
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

  // device_state.cuh: the list of device arrays (restart, upload, download), and the staging
  // of output frames.
  template <class F>
  void for_each_device_array(F&& f);
  int acquire_staging();
  /// The frame's element, material, contact and body arrays into staging s (asynchronous copies
  /// on the stream; the counts are sample()'s, zero for what the frame does not write).
  void stage_frame_arrays(Staging<T>& s, int ne, int ns, std::size_t npts, std::size_t nshell,
                          const std::array<std::size_t, cuda::kMaxSlotFamilies>& nfam, std::size_t ncon,
                          std::size_t npair, std::size_t nbody);
  void release_staging(int b);

  // element_pass.cuh: the element launches of a pass, and the block sizes they run with.
  void launch_elements(double tau, double time, int block, bool exchange);
  void plan_pieces();
  unsigned take_slots(std::size_t threads);
  void launch_piece(const Piece& p, double tau, int block);
  void launch_shells(double tau, int block, int first, int count);
  template <bool kGlobal, bool kMayYield = true>
  void launch_shells_as(double tau, int block, int first, int count);
  void launch_split_shells(double tau, int first, int count);
  HexSplitStore<T> hex_store();
  void launch_split_hex_stresses(int first, int conn_offset, std::size_t first_point, int count, int block);
  template <class K>
  void launch_group(std::size_t gi, int begin, int count, int block);
  template <class K>
  void launch_colored_group(std::size_t gi, int block);
  void launch_local(const Increment& inc, bool integrate, int block);
  template <class F>
  float time_launches(F&& f, int block);
  int solid_max_block();
  template <class K>
  int kind_max_block();
  /// f(std::true_type) where kind K takes thermal strain and the model has *EXPANSION (the
  /// element kernels' thermal path, continuum_element's kThermal), else f(std::false_type).
  template <class K, class F>
  void with_thermal(F&& f) {
    if constexpr (TakesThermalStrain<K>::value) {
      if (solid_thermal_last_.size() > 0) return f(std::true_type{});
    }
    f(std::false_type{});
  }
  /// The largest element and node blocks this model's kernels can launch (element_pass.cuh).
  std::array<int, 2> block_limits();
  void refuse_oversized_block();
  void autotune();

  // node_pass.cuh: the node pass (after the contact pass) and its launches.
  template <int kDofs>
  void launch_node_kernel(const Increment& inc, NodeMode mode, cuda::FrameOut<T> frame, int block);
  template <Sink S, int kDofs>
  void launch_node_sets(const Increment& inc, NodeMode mode, cuda::FrameOut<T> frame, int block,
                        const ConstraintView<T>& cons);

  // halo_pass.cuh: distributed runs: the interface exchange, its phase timers and the host contact
  // pass.
  void mark(int k);
  static double elapsed_ms(cudaEvent_t a, cudaEvent_t b);
  void add_gpu_phases();
  template <int kDofs>
  void launch_pack();
  void finish_interface();
  void read_published(int slot, double* out);
  void setup_distributed(const DistributedContext& ctx, const EnergyMonitor& m0);
  void setup_host_contact(int threads);
  void run_host_contact(const Increment& inc, bool commit);

  cuda::MeshView<T> mesh() const {
    cuda::MeshView<T> m = mesh_base();
    m.contact_normal = contact_.ct_normal_.get_or_null();
    m.contact_shear = contact_.ct_shear_.get_or_null();
    return m;
  }
  /// What the contact pass reads of the nodes (t^n: the node pass has not run yet).
  cuda::ContactNodes<T> contact_nodes() {
    return {x0_.get(), y0_.get(), z0_.get(), ux_.get(), uy_.get(), uz_.get(), {v_[0].get(), v_[1].get(), v_[2].get()},
            mass_.get(), drive_.view.held, body_skip_.get_or_null()};
  }
  cuda::MeshView<T> mesh_base() const {
    cuda::MeshView<T> m{sys_.shell.num_elements, sys_.num_nodes, conn_.get(), section_.get(), thickness_.get(), elastic_.get(),
            ref_.size() ? ref_.get() : nullptr, x0_.get(), y0_.get(), z0_.get(), d0x_.get(), d0y_.get(), d0z_.get(),
            slot_ptr_.size() ? slot_ptr_.get() : nullptr, slots_.size() ? slots_.get() : nullptr,
            NodeConstView<T>{mass_.get(), inertia_.get(), damp_.size() ? damp_.get() : nullptr,
                             damp_rot_.size() ? damp_rot_.get() : nullptr, con_mass3_.get_or_null(),
                             con_inertia3_.get_or_null()},
            solid_slot_ptr_.get_or_null(), solid_slots_.get_or_null(), solid_force_.get_or_null(),
            sys_.num_interface, halo_total_.get_or_null(), owned_.get_or_null(), {},
            section_points_.get_or_null(), shell_law_.get_or_null(), shell_state_.get_or_null(), sys_.shell.num_points,
            shell_first_.get_or_null()};
    for (std::size_t f = 0; f < families_.size(); ++f) m.slot_families[f] = families_[f]->slots();
    return m;
  }
  cuda::SolidView<T> solid_view() {
    return {{solid_conn_.get_or_null(), solid_material_.get_or_null(), solid_materials_.get_or_null(),
             T(sys_.solid.hourglass_kappa), x0_.get(), y0_.get(), z0_.get(), solid_energy_.get_or_null(),
             solid_hourglass_.get_or_null(), solid_state_.get_or_null(), sys_.solid.num_points,
             solid_edata_.get_or_null(), solid_edata_ptr_.get_or_null(),
             T(drive_.view.bulk_linear), T(drive_.view.bulk_quadratic), T(half_dt_),
             drive_.view.thermal_ptr ? solid_thermal_.get() : nullptr, solid_thermal_last_.get_or_null(),
             solid_thermal_slope_.get_or_null()},
            solid_force_.get_or_null()};
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

  /// Whether a Commit or Probe node pass may run as NodeSet::Special + NodeSet::Plain: none of
  /// the features that Plain leaves out (constraints, rigid bodies, beams, FPM triangles,
  /// contact, constraint-transferred masses) is in the model.
  bool plain_nodes() const {
    return plain_node_sets_ && sys_.constraints.empty() && sys_.bodies.empty() && families_.empty() &&
           contact_.ct_normal_.size() == 0 && con_mass3_.size() == 0 &&
           con_inertia3_.size() == 0;
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
  cuda::ContactPass<T> contact_;  ///< empty without contact (ContactSystem)
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
  DeviceArray<double> solid_edata_;         // SolidMesh::element_data (adhesion edges; empty: no kind has any)
  DeviceArray<std::size_t> solid_edata_ptr_;  // element e's data at solid_edata_ + solid_edata_ptr_[e]
  DeviceArray<int> section_points_;              // plastic shells: Simpson points per section (0: elastic)
  DeviceArray<SolidMaterial<T>> shell_law_;      // plastic shells: law per section
  DeviceArray<std::size_t> shell_first_;         // plastic shells: first section point per shell
  // Section-point state, component-major (stride shell.num_points); mutable: the kernels
  // update it through the MeshView that the const mesh() hands out.
  mutable DeviceArray<T> shell_state_;
  std::vector<std::vector<int>> solid_color_ptr_;  // per solid group, into solid_color_elements_
  // Split scheme for FPM hexahedra: per element of the largest FPM group, the increment
  // (kHexIncrementValues) and the Gauss points' results (kHexResultValues).
  DeviceArray<T> hex_increment_, hex_result_;
  int hex_stride_ = 0;
  /// The element families that run through the DeviceFamily interface (device_families.cuh).
  std::vector<std::unique_ptr<cuda::DeviceFamily<T>>> families_;
  // Whether the FPM hexahedra run split (fpm_split_family: the option, and Auto's choice).
  const bool split_hexes_;
  // Elastic 5-dof shells four threads per element (split_shell_pass_kernel; shell_split).
  const bool split_shells_;
  const bool plain_node_sets_;  ///< node passes as Special + Plain where plain_nodes() allows
  DeviceArray<EnergyMonitor> monitor_;
  DeviceArray<double> sums_;
  DeviceArray<unsigned> tickets_;
  // The grid sums' warp slots (cuda::grid_sum) of node passes and element passes (the contact
  // pass holds its own). Scratch, zero between launches: not in restart files.
  SumSlots node_slots_, element_slots_;
  // The element launches' warp sums of one pass (cuda::WarpSums): capacity, and the next free
  // slot while a pass is being queued (take_slots).
  DeviceArray<double> element_parts_;
  unsigned parts_capacity_ = 0, parts_cursor_ = 0;
  cuda::DeviceDrive drive_;
  /// The step's drive on the host while it changes temperatures (else null): an output frame
  /// evaluates its elements' temperature changes there at its own time.
  std::shared_ptr<const StepDrive> host_thermal_;
  DeviceArray<T> solid_thermal_;  ///< per continuum element: its temperature change at the pass's time (thermal steps)
  /// Models with *EXPANSION: StructureState::solid_thermal_last and solid_thermal_slope.
  DeviceArray<T> solid_thermal_last_, solid_thermal_slope_;
  double half_dt_ = 0;  ///< the current element pass's ContinuumView::half_dt (bulk viscosity)
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
}  // namespace halfstep

// The passes: the members of CudaBackend declared above that are defined in files of their own.
#include "backends/cuda/device_state.cuh"
#include "backends/cuda/element_pass.cuh"
#include "backends/cuda/halo_pass.cuh"
#include "backends/cuda/node_pass.cuh"

namespace halfstep {

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
