// What the kernels see of the model: plain structs of device pointers, passed by value.
#pragma once

#include "elements/mitc4.hpp"
#include "elements/mitc4_plastic.hpp"
#include "elements/mitc4_elastic.hpp"
#include "dynamics/energy_monitor.hpp"
#include "dynamics/node_integrator.hpp"
#include "dynamics/step_drive.hpp"
#include "backends/backend.hpp"
#include "backends/cuda/reduction.cuh"

namespace halfstep {
namespace cuda {

/// Where an element family whose every node force comes from slots (the FPM beams and
/// triangles: device_family.cuh) leaves them: node -> slot (CSR), 6 force values per slot and,
/// with follower pressures, 3 pressure values per slot (force null: no such family).
template <class T>
struct SlotFamilyView {
  const int *slot_ptr = nullptr, *slots = nullptr;
  const T *force = nullptr, *pressure = nullptr;
};

/// How many slot families a model can have (the registry's, device_families.cuh).
constexpr int kMaxSlotFamilies = 2;

/// Read-only mesh, section and nodal constants.
template <class T>
struct MeshView {
  int ne, nn;
  const int* conn;       ///< 4 per element
  const int* section;    ///< per element
  const T* thickness;    ///< per section
  const ShellElastic<T>* elastic;  ///< per section
  const Mitc4Ref<T>* ref;  ///< per element, or null: recomputed from X and V0 in the kernel
  const T *x0, *y0, *z0, *d0x, *d0y, *d0z;
  const int *slot_ptr, *slots;  ///< node -> element*4 + corner (CSR), same order as the CPU
  NodeConstView<T> node;        ///< masses, inertias, damping
  const int *solid_slot_ptr, *solid_slots;  ///< node -> solid conn position (CSR), or null
  const T* solid_force;         ///< gather: 3 per solid conn position, or null
  // Distributed runs (zero / null otherwise):
  int num_interface;            ///< nodes [0, num_interface) are shared with other ranks
  const T* halo_total;          ///< kHaloValues per shared node: forces summed over the ranks
  const std::uint8_t* owned;    ///< per node: 1 where this rank counts the node's energy
  /// The slot families' corner forces (device_family.cuh), in family order; unused entries null.
  SlotFamilyView<T> slot_families[kMaxSlotFamilies];
  // Plastic shells (null / zero without them; elements/mitc4_plastic.hpp):
  const int* section_points;          ///< per section: Simpson section points, 0 for elastic sections
  const SolidMaterial<T>* shell_law;  ///< per section: the plastic law (elastic constants, hardening)
  T* shell_state;                     ///< section-point state, component-major, updated in place
  std::size_t shell_stride;           ///< the state store's number of points
  const std::size_t* shell_first;     ///< per shell: its first section point
  // Contact (null without it): the latest contact pass's nodal forces, 3 per node each.
  const T* contact_normal = nullptr;
  const T* contact_shear = nullptr;
};

/// Where a sampling pass leaves a frame: component-major rows of nn values (mapped host memory).
template <class T>
struct FrameOut {
  /// kFullStepValues rows of `rows` values: v (3), angular velocity (3), reaction (3),
  /// moment (3), acceleration (3), angular acceleration (3) (full_step_output); null:
  /// nothing is written (an energy row, a Commit or Probe pass).
  T* full;
  /// Node n's entity in the rows (-1: the frame does not hold it); null: n. A compact frame
  /// (OutputFrame::nodes) holds its nodes only, so a history row stages those, not the model.
  const int* row = nullptr;
  int rows = 0;
  /// Node n's value of column into the frame (nothing for a node the frame does not hold).
  __device__ void put(int column, int n, T value) const {
    const int at = row ? row[n] : n;
    if (full && at >= 0) full[static_cast<std::size_t>(column) * rows + at] = value;
  }
};

/// The sums of an element pass: strain energy (hourglass and plastic dissipation included),
/// hourglass energy, plastic dissipation, bulk viscosity power, thermal work (ElementSums on
/// the host).
constexpr int kElementSums = 5;

/// Where a distributed run's kernels leave their sums for the host (which reduces them over
/// the ranks and keeps the monitor): the kElementSums of the latest element pass, then per
/// node-pass kind a snapshot of those and the node sums (kPubValues values).
enum PublishSlot { kPubEnergy = 0, kPubHourglass = 1, kPubDissipation = 2, kPubViscous = 3, kPubThermal = 4,
                   kPubCommit = 5,
                   kPubValues = kElementSums + kNumNodeSums, kPubSample = kPubCommit + kPubValues,
                   kPubSize = kPubCommit + 2 * kPubValues };

/// Per-launch bookkeeping shared by all kernels.
struct RunView {
  EnergyMonitor* monitor;
  GridSum node_sums;     ///< kNumNodeSums accumulators
  GridSum element_sums;  ///< the kElementSums accumulators
  double* publish;       ///< distributed runs: kPubSize values (null: the device monitor is used)
  WarpSums element_parts;  ///< the element launches' warp sums of those (element_sums_kernel)
};

/// Node n's displacement as a shell's strains take it. FP64: the state's. FP32 with the
/// state's remainders (NodeStateView::rem): relative to node n0 of the same element, formed
/// from the compensated pairs, (u_n - u_n0) + (rem_n - rem_n0). The strains are invariant
/// under a translation, and a difference of nearby displacements keeps its own relative
/// precision, whereas each FP32 displacement carries eps |u| of rounding: after a large
/// motion (|u| ~ the model's size L) that is strain noise of eps L / h, which heated a
/// tumbling plate by 1 % of its kinetic energy in three turns (docs/performance.md).
template <class T>
__device__ inline Vec3<T> strain_displacement(const NodeStateView<T>& s, int n, int n0) {
  if constexpr (sizeof(T) < sizeof(double)) {
    if (s.rem[0])
      return {(s.ux[n] - s.ux[n0]) + (s.rem[0][n] - s.rem[0][n0]), (s.uy[n] - s.uy[n0]) + (s.rem[1][n] - s.rem[1][n0]),
              (s.uz[n] - s.uz[n0]) + (s.rem[2][n] - s.rem[2][n0])};
  }
  (void)n0;
  return {s.ux[n], s.uy[n], s.uz[n]};
}

/// The displacement that strain_displacement's values are relative to: node n0's (FP32 with
/// remainders) or zero. Positions (pressures) are X + u + this.
template <class T>
__device__ inline Vec3<T> displacement_origin(const NodeStateView<T>& s, int n0) {
  if constexpr (sizeof(T) < sizeof(double)) {
    if (s.rem[0]) return {s.ux[n0], s.uy[n0], s.uz[n0]};
  }
  (void)n0;
  return {T(0), T(0), T(0)};
}

/// Gathers element e's nodal vectors (reference from the mesh, current from state; the
/// displacements as strain_displacement gives them, relative to corner 0 in FP32).
template <class T>
__device__ inline Mitc4Nodes<T> load_element_nodes(const MeshView<T>& m, const NodeStateView<T>& s, int e, int c[4]) {
  Mitc4Nodes<T> nodes;
  for (int k = 0; k < 4; ++k) {
    const int n = c[k] = m.conn[4 * e + k];  // c[0], the displacements' origin, is set first
    nodes.X[k] = {m.x0[n], m.y0[n], m.z0[n]};
    nodes.u[k] = strain_displacement(s, n, c[0]);
    nodes.V0[k] = {m.d0x[n], m.d0y[n], m.d0z[n]};
    nodes.v[k] = {s.dx[n], s.dy[n], s.dz[n]};
  }
  return nodes;
}

/// Reference constants of element e: stored, or recomputed (trading ~600 FLOP for 24 reads).
template <class T>
__device__ inline Mitc4Ref<T> element_reference(const MeshView<T>& m, int e, const Mitc4Nodes<T>& nodes, T a) {
  if (m.ref) return m.ref[e];
  Mitc4Ref<T> r;
  mitc4_reference(nodes.X, nodes.V0, a, r);  // validated on the host when the model was built
  return r;
}

/// Internal forces of element e at the given nodes, handed corner by corner to
/// emit(k, gen[5]) as soon as they exist; t1_of(k) gives corner k's triad vector, read only
/// then. Both keep registers free: this kernel is register-bound in FP64. With kGlobal (the
/// 6-dof nodes of a model mixed with beams or FPM triangles) gen has 6 values, the force and
/// the global moment, and t1_of is not called. Returns the strain energy; its plastic
/// dissipation goes to *dissipation (0 when elastic). kMayYield = false compiles the elastic
/// section only (models without plastic shells: the plastic integration's registers stay out).
template <class T, bool kGlobal = false, bool kMayYield = true, class T1, class Emit>
__device__ inline T emit_internal_forces(const MeshView<T>& m, int e, const Mitc4Nodes<T>& nodes, T1&& t1_of,
                                         Emit&& emit, T* dissipation) {
  const int sec = m.section[e];
  const T a = m.thickness[sec];
  const Mitc4Ref<T> ref = element_reference(m, e, nodes, a);
  Vec3<T> f[4], gv[4];
  const int points = m.section_points ? m.section_points[sec] : 0;
  T energy;
  *dissipation = T(0);
  if (kMayYield && points > 0) {  // plastic section: through-thickness integration, state updated in place
    const ElementState<T> es{m.shell_state, m.shell_state, m.shell_stride, m.shell_first[e]};
    energy = mitc4_plastic_internal_force(ref, nodes, a, m.shell_law[sec], m.elastic[sec].kshear, points, es, f, gv,
                                          dissipation);
  } else {
    energy = mitc4_internal_force(ref, nodes, a, m.elastic[sec], f, gv);
  }
  for (int k = 0; k < 4; ++k) {
    T gen[kGlobal ? 6 : 5];
    if constexpr (kGlobal) mitc4_corner_global_force(f[k], gv[k], nodes.v[k], gen);
    else mitc4_corner_generalized_force(f[k], gv[k], nodes.v[k], t1_of(k), gen);
    emit(k, gen);
  }
  return energy;
}

/// Pressure forces of element e at step time tau, handed to emit(k, fp[3]) per corner (zeros
/// when the pressure is 0); origin is what nodes.u is relative to (displacement_origin).
/// Only called when the step has pressures.
template <class T, class Emit>
__device__ inline void emit_pressure_forces(const DriveView& d, double tau, int e, const Mitc4Nodes<T>& nodes,
                                            Vec3<T> origin, Emit&& emit) {
  const T p = T(evaluate_pressure(d, e, tau));
  Vec3<T> fp[4] = {};
  if (p != T(0)) {
    Vec3<T> x[4];
    for (int k = 0; k < 4; ++k) x[k] = nodes.X[k] + (nodes.u[k] + origin);
    mitc4_pressure_force(x, p, fp);
  }
  for (int k = 0; k < 4; ++k) {
    const T v[3] = {fp[k].x, fp[k].y, fp[k].z};
    emit(k, v);
  }
}

/// Element force buffers of one time level.
template <class T>
struct ForceLevel {
  T* force;     ///< 4 kPer per element (gather_forces)
  T* pressure;  ///< 12 per element, or null
};

/// Node n's forces gathered from an element force level (CSR order, as the CPU sums them):
/// kPer values per corner, 5 generalized forces or (6-dof nodes) force and global moment.
template <class T, int kPer = 5>
__device__ inline void gather_forces(const MeshView<T>& m, ForceLevel<T> lv, int n, T fi[kPer], T fp[3]) {
  for (int j = 0; j < kPer; ++j) fi[j] = T(0);
  for (int j = 0; j < 3; ++j) fp[j] = T(0);
  for (int i = m.slot_ptr[n]; i < m.slot_ptr[n + 1]; ++i) {
    const int slot = m.slots[i];
    const T* f = lv.force + kPer * slot;
    for (int j = 0; j < kPer; ++j) fi[j] += f[j];
    if (lv.pressure) {
      const T* p = lv.pressure + 3 * slot;
      for (int j = 0; j < 3; ++j) fp[j] += p[j];
    }
  }
}

/// What a node pass does besides integrating.
enum class NodeMode { Commit, Sample, Probe };

/// Applies a node pass's grid sums to the monitor (one thread, after grid_sum returned true);
/// in a distributed run, publishes them with the element pass energies they go with.
__device__ inline void finish_node_pass(RunView r, NodeMode mode, double time) {
  double sums[kNumNodeSums];
  for (int i = 0; i < kNumNodeSums; ++i) sums[i] = read_total(r.node_sums, i);
  if (r.publish) {
    if (mode != NodeMode::Probe) {
      double* out = r.publish + (mode == NodeMode::Commit ? kPubCommit : kPubSample);
      for (int i = 0; i < kElementSums; ++i) out[i] = r.publish[kPubEnergy + i];
      for (int i = 0; i < kNumNodeSums; ++i) out[kElementSums + i] = sums[i];
    }
  } else {
    if (mode == NodeMode::Commit) monitor_commit(*r.monitor, sums, time);
    if (mode == NodeMode::Sample) monitor_sample(*r.monitor, sums, time);
  }
  reset<kNumNodeSums>(r.node_sums);
}

/// Hands an element pass's energies to the monitor, or publishes them (distributed runs).
__device__ inline void finish_element_pass(RunView r, double time, const double (&sums)[kElementSums]) {
  if (r.publish) {
    for (int i = 0; i < kElementSums; ++i) r.publish[kPubEnergy + i] = sums[i];
  } else {
    monitor_element_pass(*r.monitor, sums[0], time, sums[1], sums[2], sums[3], sums[4]);
  }
}

/// Adds the warp sums [0, slots) of an element pass's launches (the kElementSums) in slot
/// order and hands the totals on. Its launch shape
/// depends on slots only (element_sum_blocks), so every run adds in one order.
__global__ void element_sums_kernel(RunView run, unsigned slots, double time) {
  if (run.monitor->status != kRunning) return;
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
  double w[kElementSums] = {0.0, 0.0, 0.0, 0.0};
  const std::size_t cap = run.element_parts.capacity;
  for (unsigned j = t; j < slots; j += stride)
    for (int i = 0; i < kElementSums; ++i) w[i] += run.element_parts.v[i * cap + j];
  if (grid_sum(w, run.element_sums)) {
    double total[kElementSums];
    for (int i = 0; i < kElementSums; ++i) total[i] = read_total(run.element_sums, i);
    finish_element_pass(run, time, total);
    reset<kElementSums>(run.element_sums);
  }
}

/// Threads per block of element_sums_kernel, and its blocks for a pass of slots warp sums.
constexpr int kElementSumThreads = 256;
inline unsigned element_sum_blocks(unsigned slots) {
  const unsigned b = (slots + kElementSumThreads - 1) / kElementSumThreads;
  return b < 64 ? b : 64;
}

/// The device forall_sum of an element pass (core/forall.hpp's on the CPU): one thread per
/// element of [first, first + count) while the run goes on; body(e, w) sets element e's
/// strain energy, hourglass energy and plastic dissipation in w (zero where it has none), and
/// each warp's sums go to warp slot slot0 + its index (put_warp_sums) for element_sums_kernel.
template <class Body>
__global__ void element_forall_sum_kernel(int first, int count, RunView run, unsigned slot0, Body body) {
  if (run.monitor->status != kRunning) return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double w[kElementSums] = {0.0, 0.0, 0.0, 0.0};
  if (i < count) body(first + i, w);
  put_warp_sums(w, run.element_parts, slot0, count);
}

/// Launches element_forall_sum_kernel over [first, first + count) on stream, blocks of block.
template <class Body>
void element_forall_sum(int first, int count, int block, cudaStream_t stream, RunView run, unsigned slot0,
                        const Body& body) {
  if (count <= 0) return;
  element_forall_sum_kernel<<<(count + block - 1) / block, block, 0, stream>>>(first, count, run, slot0, body);
}

/// Sums of one node update, in NodeSum order.
template <class T>
__device__ inline void node_sums(const NodeUpdateResult<T>& r, double (&acc)[kNumNodeSums]) {
  acc[kKinetic] = r.kinetic;
  acc[kWorkPrev] = r.work_prev;
  acc[kWorkNext] = r.work_next;
  acc[kDampPrev] = r.damp_prev;
  acc[kDampNext] = r.damp_next;
  acc[kNonFinite] = r.finite ? 0.0 : 1.0;
}


}  // namespace cuda
}  // namespace halfstep
