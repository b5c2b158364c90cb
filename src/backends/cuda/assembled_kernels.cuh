// Kernels of the schemes that keep one copy of each node: an element pass that computes
// forces and hands them to the nodes (through a per-element buffer, atomics, or colors), and
// a node pass that integrates each node once.
#pragma once

#include "backends/cuda/views.cuh"
#include "elements/mitc4_split.hpp"
#include "core/slot_forces.hpp"
#include "dynamics/constraint_pass.hpp"
#include "parallel/halo_sum.hpp"

namespace halfstep {
namespace cuda {

/// How element forces reach the nodes.
enum class Sink {
  Slots,   ///< per element and corner buffer (20 + 12 values), gathered by the node pass
  Atomic,  ///< FP64/FP32 atomics into nodal arrays
  Plain,   ///< plain += into nodal arrays (race-free because the launch is one color)
};

/// Nodal force arrays of the Atomic and Plain sinks (fp null when there are no pressures;
/// fi[5], the third global moment, null unless the nodes have 6 dofs).
template <class T>
struct NodalForces {
  T* fi[6];
  T* fp[3];
};

/// Per-element buffers of the Slots sink.
template <class T>
struct SlotForces {
  T* force;     ///< per element: 5 generalized forces per corner (20), or 6 with global moments (24)
  T* pressure;  ///< 12 per element, or null
  T* face;      ///< 18 per loaded solid face (every scheme), or null
};

/// Element pass over count shells: elements[i], or first + i when elements is null. kGlobal:
/// 6-dof nodes (mixed with beams or FPM triangles), each corner hands force and global moment.
/// kMayYield = false: no shell section of the model is plastic (the elastic path only).
template <class T, Sink S, bool kGlobal = false, bool kMayYield = true>
__global__ void element_pass_kernel(MeshView<T> m, NodeStateView<T> s, DriveView d, double tau, const int* elements,
                                    int first, int count, NodalForces<T> nf, SlotForces<T> sf,
                                    T* elem_energy, RunView run, unsigned slot0) {
  if (run.monitor->status != kRunning) return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double w[kElementSums] = {0.0, 0.0, 0.0, 0.0};  // strain energy, hourglass (none), plastic dissipation, -
  if (i < count) {
    const int e = elements ? elements[i] : first + i;
    int c[4];
    const Mitc4Nodes<T> nodes = load_element_nodes(m, s, e, c);
    auto t1_of = [&](int k) { return Vec3<T>{s.t1x[c[k]], s.t1y[c[k]], s.t1z[c[k]]}; };
    constexpr int kPer = kGlobal ? 6 : 5;
    T dissipation;
    const T energy = emit_internal_forces<T, kGlobal, kMayYield>(m, e, nodes, t1_of, [&](int k, const T* gen) {
      if (S == Sink::Slots) {
        for (int j = 0; j < kPer; ++j) sf.force[4 * kPer * e + kPer * k + j] = gen[j];
      } else {
        for (int j = 0; j < kPer; ++j) {
          if (S == Sink::Atomic) atomicAdd(nf.fi[j] + c[k], gen[j]);
          else nf.fi[j][c[k]] += gen[j];
        }
      }
    }, &dissipation);
    elem_energy[e] = energy;
    w[0] = energy;
    w[2] = dissipation;
    if (d.pressure_ptr)
      emit_pressure_forces(d, tau, e, nodes, displacement_origin(s, c[0]), [&](int k, const T* fp) {
        if (S == Sink::Slots) {
          for (int j = 0; j < 3; ++j) sf.pressure[12 * e + 3 * k + j] = fp[j];
        } else if (fp[0] != T(0) || fp[1] != T(0) || fp[2] != T(0)) {
          for (int j = 0; j < 3; ++j) {
            if (S == Sink::Atomic) atomicAdd(nf.fp[j] + c[k], fp[j]);
            else nf.fp[j][c[k]] += fp[j];
          }
        }
      });
  }
  // Every launch of the pass (each color too) stores its warps' sums in its own slots.
  put_warp_sums(w, run.element_parts, slot0, count);
}

/// Threads per block of the split shell kernel, and the blocks per SM it is compiled for:
/// FP64 4 x 128 threads at 128 registers (16 warps per SM; the one-thread kernel runs 8 at
/// 255 registers and spills), FP32 6 x 128 at 80 registers (docs/performance.md).
constexpr int kSplitShellBlock = 128;
template <class T>
constexpr int split_shell_min_blocks() {
  return sizeof(T) == 8 ? 4 : 6;
}

/// Element e's corner nodes for the split evaluation, read from the SoA arrays when asked:
/// the four lanes of an element read the same addresses (one L1 line) and keep only the
/// node numbers in registers.
template <class T>
struct SplitShellNodes {
  const MeshView<T>& m;
  const NodeStateView<T>& s;
  int n0, n1, n2, n3;
  /// Node number of corner k: a select, since k may be the run-time lane index (an indexed
  /// local array would go to local memory).
  __device__ __forceinline__ int node(int k) const { return k == 0 ? n0 : k == 1 ? n1 : k == 2 ? n2 : n3; }
  /// Corner k's reference position, displacement, reference and current director.
  __device__ __forceinline__ Vec3<T> X(int k) const {
    const int n = node(k);
    return {m.x0[n], m.y0[n], m.z0[n]};
  }
  /// Corner k's displacement as the strains take it (strain_displacement: relative to corner 0
  /// in FP32), and the state's own, for positions.
  __device__ __forceinline__ Vec3<T> u(int k) const { return strain_displacement(s, node(k), n0); }
  __device__ __forceinline__ Vec3<T> u_state(int k) const {
    const int n = node(k);
    return {s.ux[n], s.uy[n], s.uz[n]};
  }
  __device__ __forceinline__ Vec3<T> V0(int k) const {
    const int n = node(k);
    return {m.d0x[n], m.d0y[n], m.d0z[n]};
  }
  __device__ __forceinline__ Vec3<T> v(int k) const {
    const int n = node(k);
    return {s.dx[n], s.dy[n], s.dz[n]};
  }
};

/// element_pass_kernel for elastic 5-dof shells, four threads per element (issue 21): thread
/// 4 i + k is lane k of element i (mitc4_split.hpp) and hands on corner k's forces, so a warp
/// evaluates 8 elements and stores 8 x 20 consecutive slot values. Same inputs, outputs and
/// sinks as element_pass_kernel<T, S, false, false>; launch 4 count threads in blocks of
/// kSplitShellBlock.
template <class T, Sink S>
__global__ void __launch_bounds__(kSplitShellBlock, split_shell_min_blocks<T>())
    split_shell_pass_kernel(MeshView<T> m, NodeStateView<T> s, DriveView d, double tau, const int* elements,
                            int first, int count, NodalForces<T> nf, SlotForces<T> sf,
                            T* elem_energy, RunView run, unsigned slot0) {
  if (run.monitor->status != kRunning) return;
  const int i = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) >> 2);
  const int k = static_cast<int>(threadIdx.x & 3);
  const Mitc4WarpLanes lanes{k};
  // Past the last element a group repeats it without storing: every thread of the warp must
  // reach the shuffles (and the warp sums).
  const int at = i < count ? i : count - 1;
  const int e = elements ? elements[at] : first + at;
  const SplitShellNodes<T> nodes{m, s, m.conn[4 * e], m.conn[4 * e + 1], m.conn[4 * e + 2], m.conn[4 * e + 3]};
  const int sec = m.section[e];
  const T a = m.thickness[sec];
  Mitc4WarpLanes::Val<Vec3<T>> f, gv;
  const T energy = mitc4_split_internal_force<T>(lanes, nodes, a, m.elastic[sec], m.ref ? m.ref + e : nullptr, f, gv);
  double w[kElementSums] = {0.0, 0.0, 0.0, 0.0};  // strain energy (lane 0 of each element), hourglass, dissipation, -
  if (i < count) {
    // The corner's node read again rather than selected from n0..n3, which are then free
    // after the node pass (the prototype's last 8 bytes of spill at 128 registers).
    const int n = m.conn[4 * e + k];
    T gen[5];
    mitc4_corner_generalized_force(f.v, gv.v, Vec3<T>{s.dx[n], s.dy[n], s.dz[n]},
                                   Vec3<T>{s.t1x[n], s.t1y[n], s.t1z[n]}, gen);
    if (S == Sink::Slots) {
      // Stored per lane: the 4 lanes of an element write its 160 contiguous bytes. Staging a
      // warp's 160 values in shared memory to store them by consecutive lanes, as the solid
      // kernel does, was 6 % slower here (H200, 1 M elements; docs/performance.md).
      for (int j = 0; j < 5; ++j) sf.force[20 * static_cast<std::size_t>(e) + 5 * k + j] = gen[j];
    } else {
      for (int j = 0; j < 5; ++j) {
        if (S == Sink::Atomic) atomicAdd(nf.fi[j] + n, gen[j]);
        else nf.fi[j][n] += gen[j];
      }
    }
    if (k == 0) {
      elem_energy[e] = energy;
      w[0] = energy;
    }
    if (d.pressure_ptr) {  // every lane forms the element's pressure forces and keeps its corner's
      const T p = T(evaluate_pressure(d, e, tau));
      Vec3<T> fp[4] = {};
      if (p != T(0)) {
        Vec3<T> x[4];
        for (int c = 0; c < 4; ++c) x[c] = nodes.X(c) + nodes.u_state(c);
        mitc4_pressure_force(x, p, fp);
      }
      const Vec3<T> fk = k == 0 ? fp[0] : k == 1 ? fp[1] : k == 2 ? fp[2] : fp[3];
      const T v[3] = {fk.x, fk.y, fk.z};
      if (S == Sink::Slots) {
        for (int j = 0; j < 3; ++j) sf.pressure[12 * static_cast<std::size_t>(e) + 3 * k + j] = v[j];
      } else if (v[0] != T(0) || v[1] != T(0) || v[2] != T(0)) {
        for (int j = 0; j < 3; ++j) {
          if (S == Sink::Atomic) atomicAdd(nf.fp[j] + n, v[j]);
          else nf.fp[j][n] += v[j];
        }
      }
    }
  }
  put_warp_sums(w, run.element_parts, slot0, 4ull * count);
}

/// Node n's shell and solid forces (kDofs internal, 3 pressure): gathered through the CSR
/// maps (Slots), or read from the nodal arrays (cleared when clear).
template <class T, Sink S, int kDofs>
__device__ inline void element_node_forces(const MeshView<T>& m, NodalForces<T> nf, SlotForces<T> sf, int n,
                                           bool clear, T fi[6], T fp[3]) {
  for (int j = 0; j < 6; ++j) fi[j] = T(0);
  for (int j = 0; j < 3; ++j) fp[j] = T(0);
  if (S == Sink::Slots) {
    // Shell corners: 5 values, or force and global moment on 6-dof nodes.
    if (m.slot_ptr) gather_forces<T, kDofs == 6 ? 6 : 5>(m, ForceLevel<T>{sf.force, sf.pressure}, n, fi, fp);
    if (m.solid_force) add_slot_forces3(m.solid_slot_ptr, m.solid_slots, m.solid_force, n, fi);
  } else {
    for (int j = 0; j < kDofs; ++j) {  // 6-dof nodes: shells add global moments (3 components)
      fi[j] = nf.fi[j][n];
      if (clear) nf.fi[j][n] = T(0);
    }
    if (nf.fp[0])
      for (int j = 0; j < 3; ++j) {
        fp[j] = nf.fp[j][n];
        if (clear) nf.fp[j][n] = T(0);
      }
  }
}

/// Node n's share of this rank's element and face forces (6 internal, 3 pressure): the shells'
/// and solids' (element_node_forces), then the slot families' (beam ends, triangle corners:
/// forces in family order, then pressures), face pressures and contact.
template <class T, Sink S, int kDofs>
__device__ inline void local_node_forces(const MeshView<T>& m, const DriveView& d, NodalForces<T> nf,
                                         SlotForces<T> sf, int n, bool clear, T fi[6], T fp[3]) {
  element_node_forces<T, S, kDofs>(m, nf, sf, n, clear, fi, fp);
  for (const SlotFamilyView<T>& f : m.slot_families)
    if (f.force) add_slot_forces6(f.slot_ptr, f.slots, f.force, n, fi);
  for (const SlotFamilyView<T>& f : m.slot_families)
    if (f.pressure) add_slot_forces3(f.slot_ptr, f.slots, f.pressure, n, fp);
  if (d.num_faces > 0) gather_face_forces(d, sf.face, n, fp);
  if (m.contact_normal)  // contact forces act like internal ones: no external work
    for (int j = 0; j < 3; ++j) fi[j] -= m.contact_normal[3 * n + j] + m.contact_shear[3 * n + j];
}

/// Node n's whole forces: local_node_forces (clearing the nodal arrays when clear), and on a
/// shared node of a distributed run the sum over the ranks holding it (halo_total, all six
/// components for six-dof nodes) with the whole contact force (the partials were packed
/// without it).
template <class T, Sink S, int kDofs>
__device__ inline void node_forces(const MeshView<T>& m, const DriveView& d, NodalForces<T> nf, SlotForces<T> sf,
                                   int n, bool clear, T fi[6], T fp[3]) {
  local_node_forces<T, S, kDofs>(m, d, nf, sf, n, clear, fi, fp);
  if (n >= m.num_interface) return;
  const T* t = m.halo_total + static_cast<std::size_t>(kHaloValues) * n;
  for (int j = 0; j < 6; ++j) fi[j] = t[j];
  for (int j = 0; j < 3; ++j) fp[j] = t[kHaloPressure + j];
  if (m.contact_normal)
    for (int j = 0; j < 3; ++j) fi[j] -= m.contact_normal[3 * n + j] + m.contact_shear[3 * n + j];
}

/// Which nodes a node pass integrates. A Commit or Probe pass of a model without linear
/// constraints, rigid bodies, beams, FPM triangles or contact runs as two launches side by
/// side: Special over the nodes that carry loads, prescribed motions or a *TRANSFORM (a short
/// list, on a second stream: one thread's chain of dependent reads took 16 us, a tenth of the
/// pass) and Plain over the rest. Plain's drive is empty at compile time, so the frame
/// rotations, load evaluation and constraint code fold away (ptxas, FP64 gather: 126 -> 90
/// registers with 5 dofs, 86 -> 62 with 3), which lifts the occupancy of a latency-bound pass
/// (docs/performance.md, "The node pass in two launches"). Both add into the same grid sum;
/// whichever block finishes last finishes the pass.
enum class NodeSet {
  All,      ///< every node, every feature (Sample passes, and models the others exclude)
  Plain,    ///< every node that is not special
  Special,  ///< the nodes of a list
};

/// Node n's forces as a Plain pass sees them: the ranks' totals on a shared node of a
/// distributed run (its nodal arrays cleared as element_node_forces would), otherwise the
/// shells' and solids' (element_node_forces) and the solid face pressures.
template <class T, Sink S, int kDofs>
__device__ inline void plain_node_forces(const MeshView<T>& m, const DriveView& d, NodalForces<T> nf, SlotForces<T> sf,
                                         int n, bool clear, T fi[6], T fp[3]) {
  if (n < m.num_interface) {
    element_node_forces<T, S, kDofs>(m, nf, sf, n, clear, fi, fp);  // only to clear the arrays
    const T* t = m.halo_total + static_cast<std::size_t>(kHaloValues) * n;
    for (int j = 0; j < 6; ++j) fi[j] = j < kDofs ? t[j] : T(0);
    for (int j = 0; j < 3; ++j) fp[j] = t[kHaloPressure + j];
    return;
  }
  element_node_forces<T, S, kDofs>(m, nf, sf, n, clear, fi, fp);
  if (d.num_faces > 0) gather_face_forces(d, sf.face, n, fp);
}

/// Node pass. Shared nodes of a distributed run take the force summed over the ranks; their
/// energy is counted by the owning rank only. Set picks the nodes (NodeSet); Special reads
/// its count nodes from list; other_groups: the grid-sum groups of the other launch of a
/// Plain + Special pair, which share the grid sum (Special's groups first).
template <class T, Sink S, int kDofs = 5, NodeSet Set = NodeSet::All>
__global__ void node_pass_kernel(MeshView<T> m, NodeStateView<T> s, DriveView d, Increment inc, NodeMode mode,
                                 NodalForces<T> nf, SlotForces<T> sf, FrameOut<T> frame, RunView run,
                                 ConstraintView<T> cons, const double* body_sums = nullptr, int num_bodies = 0,
                                 const std::uint8_t* body_skip = nullptr, const int* list = nullptr, int count = 0,
                                 unsigned other_groups = 0) {
  if (mode == NodeMode::Commit && run.monitor->status != kRunning) return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int n = Set == NodeSet::Special ? (i < count ? list[i] : m.nn) : i;
  const bool commit = mode == NodeMode::Commit;
  double acc[kNumNodeSums] = {0, 0, 0, 0, 0, 0};
  if constexpr (Set == NodeSet::Plain) {
    if (n < m.nn && d.special[n] < 0) {
      T fi[6], fp[3];
      plain_node_forces<T, S, kDofs>(m, d, nf, sf, n, commit, fi, fp);
      // Empty at compile time: no loads, motions, frames or dependent dofs to fold in.
      const NodeDrive<T> drive{};
      NodeConstView<T> c = m.node;
      c.mass3 = c.inertia3 = nullptr;  // only linear constraints set them (excluded here)
      const HalfSteps<T> h{T(inc.h_prev), T(0.5 * inc.dt_next)};
      const NodeUpdateResult<T> r = integrate_node<T, kDofs>(n, fi, fp, d.held[n], drive, h, commit, s, c);
      node_sums(r, acc);
      if (m.owned && !m.owned[n])
        for (int k = 0; k < kNonFinite; ++k) acc[k] = 0.0;
    }
  } else {
    if (n < m.nn) {
      T fi[6], fp[3];
      node_forces<T, S, kDofs>(m, d, nf, sf, n, commit, fi, fp);
      NodeDriveValues<T> values;
      NodeDrive<T> drive = node_drive(d, n, inc.tau, inc.dt_next, values);
      if (cons.num_dependent > 0) {  // linear constraints (dynamics/constraint_pass.hpp)
        add_received_forces(cons, n, fi, fp);
        drive.skip = cons.dependent[n];
      }
      if (body_skip) drive.skip |= body_skip[n];  // moved by the body kernel (rigid bodies)
      const HalfSteps<T> h{T(inc.h_prev), T(0.5 * inc.dt_next)};
      const NodeUpdateResult<T> r = integrate_node<T, kDofs>(n, fi, fp, d.held[n], drive, h, commit, s, m.node);
      node_sums(r, acc);
      if (m.owned && !m.owned[n])
        for (int k = 0; k < kNonFinite; ++k) acc[k] = 0.0;  // another rank counts this node
      if (Set == NodeSet::All && mode == NodeMode::Sample) {
        T out[kFullStepValues];
        full_step_output(r, out);
        for (int k = 0; k < kFullStepValues; ++k) frame.put(k, n, out[k]);
      }
    }
    if (Set == NodeSet::All && n == 0)  // the rigid bodies' terms (constraint_kernels.cuh, body_kernel)
      for (int b = 0; b < num_bodies; ++b) {
        acc[kKinetic] += body_sums[4 * b];
        acc[kWorkPrev] += body_sums[4 * b + 1];
        acc[kWorkNext] += body_sums[4 * b + 2];
        acc[kNonFinite] += body_sums[4 * b + 3];
      }
  }
  // Plain's groups follow Special's (its other_groups are Special's): Special's block size is
  // fixed, so where Plain's start does not depend on the block size the start-up timing picked.
  if (grid_sum(acc, run.node_sums, other_groups, Set == NodeSet::Plain ? other_groups : 0u))
    finish_node_pass(run, mode, inc.time);
}

/// Distributed runs: this rank's partial forces of each shared node into own (kHaloValues
/// per node), once the elements touching shared nodes are done.
template <class T, Sink S, int kDofs>
__global__ void pack_interface_kernel(MeshView<T> m, DriveView d, NodalForces<T> nf, SlotForces<T> sf, T* own) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m.num_interface) return;
  T* out = own + static_cast<std::size_t>(kHaloValues) * k;
  T fi[6];
  local_node_forces<T, S, kDofs>(m, d, nf, sf, k, false, fi, out + kHaloPressure);
  for (int j = 0; j < 6; ++j) out[j] = fi[j];
}

/// Copies the shared nodes' partials into the send buffer, neighbour after neighbour.
template <class T>
__global__ void gather_send_kernel(const T* own, const int* send_nodes, int count, T* send) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  for (int c = 0; c < kHaloValues; ++c)
    send[static_cast<std::size_t>(kHaloValues) * i + c] = own[static_cast<std::size_t>(kHaloValues) * send_nodes[i] + c];
}

/// Sums each shared node's partials over the ranks, in ascending rank order (halo_sum.hpp).
template <class T>
__global__ void sum_halo_kernel(const int* sum_ptr, const int* sum_src, const T* buf, int count, T* total) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < count) sum_halo_node(sum_ptr, sum_src, buf, k, total + static_cast<std::size_t>(kHaloValues) * k);
}

}  // namespace cuda
}  // namespace halfstep
