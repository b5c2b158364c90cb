// Solid element kernels: one launch per element kind (SolidGroup), running the per-element
// body the CPU loop runs (discretization/continuum_element.hpp). Forces reach the nodes
// through the scheme's sink (per-node-slot buffer, atomics, or colors).
#pragma once

#include "backends/cuda/assembled_kernels.cuh"
#include "discretization/continuum_element.hpp"
#include "discretization/fpm_hex_pass.hpp"
#include "elements/solid_kinds.hpp"

namespace halfstep {
namespace cuda {

/// What the solid kernels see: the shared continuum view and the Slots sink's buffer.
template <class T>
struct SolidView {
  ContinuumView<T> element;  ///< connectivity, sections, reference coordinates, energies
  T* force;                  ///< Slots sink: 3 per conn position, or null
};

/// Sink of the atomic strategy: every element adds into the nodal arrays with atomics.
template <class T>
struct AtomicSink {
  NodalForces<T> nf;
  __device__ void operator()(int, int node, const Vec3<T>& f) const {
    atomicAdd(nf.fi[0] + node, f.x);
    atomicAdd(nf.fi[1] + node, f.y);
    atomicAdd(nf.fi[2] + node, f.z);
  }
};

/// Sink of the colored strategy: plain adds (the elements of one launch share no node).
template <class T>
struct PlainSink {
  NodalForces<T> nf;
  __device__ void operator()(int, int node, const Vec3<T>& f) const {
    nf.fi[0][node] += f.x;
    nf.fi[1][node] += f.y;
    nf.fi[2][node] += f.z;
  }
};

/// Sink of the gather strategy that writes an element's slot values to a row of 3 kNodes
/// values (base: its first slot): in shared memory, for solid_element_kernel to store the
/// block's values together, or the element's own slots.
template <class T>
struct StagedSlotSink {
  T* row;
  int base;
  __device__ void operator()(int slot, int, const Vec3<T>& f) const {
    T* out = row + 3 * (slot - base);
    out[0] = f.x;
    out[1] = f.y;
    out[2] = f.z;
  }
};

/// Shared memory that solid_element_kernel<T, K, Sink::Slots> stages a block of `block`
/// elements' slot forces in, or 0 where that would take the kernel past the 48 KB that a
/// launch may use without opting in (the margin below 48 KB is left to static shared memory;
/// the kernel then stores each element's values itself).
template <class T, class K>
constexpr std::size_t staged_slot_bytes(int block) {
  const std::size_t b = 3 * static_cast<std::size_t>(K::kNodes) * static_cast<std::size_t>(block) * sizeof(T);
  return b <= 40 * 1024 ? b : 0;
}

/// Element pass over the solids of one group, whose first element's points start at
/// first_point (elements: local indices of one color, or null
/// for all count elements): the shared continuum_element body with the scheme's sink. Each
/// warp stores its kElementSums (strain and hourglass energies, plastic dissipation, bulk
/// viscosity power, thermal work) at warp slot slot0 + its index (put_warp_sums), which the pass's
/// element_sums_kernel adds.
/// Gather with dynamic shared memory (staged_slot_bytes, elements null): the block's slot
/// values, one contiguous range, are staged there and stored by consecutive threads. Stored
/// by each thread, 3 kNodes values 24 kNodes bytes apart, every store instruction of a warp
/// used a quarter of each 32-byte sector it wrote, and the L2 traffic of those stores bound
/// the pass (C3D8R at 1 M elements on an H200: 408 -> 162 us in bench/prototypes/c3d8r_kernels.cu).
/// kThermal: continuum_element's (models with *EXPANSION; CudaBackend::thermal_kernels).
template <class T, class K, Sink S, bool kThermal>
__global__ void solid_element_kernel(SolidView<T> v, NodeStateView<T> s, int first, int conn_offset,
                                     std::size_t first_point, const int* elements, int count, NodalForces<T> nf,
                                     RunView run, unsigned slot0) {
  if (run.monitor->status != kRunning) return;
  extern __shared__ unsigned char solid_stage_raw[];
  constexpr int kValues = 3 * K::kNodes;  // slot values per element
  bool staged = false;
  if constexpr (S == Sink::Slots) {
    unsigned smem;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(smem));
    staged = !elements && smem >= kValues * blockDim.x * sizeof(T);
  }
  T* const stage = reinterpret_cast<T*>(solid_stage_raw);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double w[kElementSums] = {0.0, 0.0, 0.0, 0.0};
  if (i < count) {
    const int local = elements ? elements[i] : i;
    const int e = first + local;
    const int base = conn_offset + local * K::kNodes;
    const std::size_t point = first_point + static_cast<std::size_t>(local) * K::kPoints;
    SolidEnergy<T> en;
    const T* const vel[3] = {s.v[0], s.v[1], s.v[2]};  // the latest half-station velocities (dashpots)
    // FP32 with remainders: displacements relative to the element's first node (FP64 runs
    // pass null at compile time and keep their code).
    const T* const rem3[3] = {s.rem[0], s.rem[1], s.rem[2]};
    const T* const* rem = nullptr;
    if constexpr (sizeof(T) < sizeof(double)) rem = s.rem[0] ? rem3 : nullptr;
    if constexpr (S == Sink::Slots) {
      // One copy of the element body for both stores, the row picked at run time: with a sink
      // type each, the compiler contracted the two copies' arithmetic differently, and since
      // the block size decides the staging, blocks of 64 and 256 gave C3D8R energies and
      // forces that differed in the last bit (H200, 2026-12-02).
      T* const row = staged ? stage + kValues * threadIdx.x : v.force + 3 * static_cast<std::size_t>(base);
      StagedSlotSink<T> sink{row, base};
      en = continuum_element<K, kThermal>(v.element, s.ux, s.uy, s.uz, e, base, sink, point, vel, rem);
    } else if constexpr (S == Sink::Atomic) {
      AtomicSink<T> sink{nf};
      en = continuum_element<K, kThermal>(v.element, s.ux, s.uy, s.uz, e, base, sink, point, vel, rem);
    } else {
      PlainSink<T> sink{nf};
      en = continuum_element<K, kThermal>(v.element, s.ux, s.uy, s.uz, e, base, sink, point, vel, rem);
    }
    w[0] = double(en.strain) + double(en.hourglass);
    w[1] = double(en.hourglass);
    w[2] = double(en.dissipation);
    w[3] = double(en.viscous);
    w[4] = double(en.thermal_work);
  }
  if (staged) {  // the block's elements [i0, i0 + n) own slot values [3 (conn_offset + i0 kNodes), + kValues n)
    __syncthreads();
    const int i0 = blockIdx.x * blockDim.x;
    const int n = min(count - i0, static_cast<int>(blockDim.x));
    T* const out = v.force + 3 * (static_cast<std::size_t>(conn_offset) + static_cast<std::size_t>(i0) * K::kNodes);
    for (int k = threadIdx.x; k < kValues * n; k += blockDim.x) out[k] = stage[k];
  }
  put_warp_sums(w, run.element_parts, slot0, count);
}

/// The seed's split scheme (--fpm-kernels split) for FPM hexahedra, kernel 1 of 3: one thread
/// per hexahedron of the group's range (first element first, nodes from conn_offset, points
/// from first_point) for the frame and the Gauss points' strain increments, left in the store
/// at the range's local index.
template <class T>
__global__ void hex_kinematics_kernel(SolidView<T> v, NodeStateView<T> s, int conn_offset, std::size_t first_point,
                                      int count, HexSplitStore<T> store, RunView run) {
  if (run.monitor->status != kRunning) return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    hex_split_kinematics(v.element, s.ux, s.uy, s.uz, conn_offset + 8 * i, first_point + 8 * static_cast<std::size_t>(i),
                         store, i);
}

/// Kernel 2: one thread per Gauss point (thread 8 i + g: point g of the range's element i, so
/// neighbouring threads read neighbouring values of the state and the stores).
template <class T>
__global__ void hex_point_kernel(SolidView<T> v, int first, std::size_t first_point, int count, HexSplitStore<T> store,
                                 RunView run) {
  if (run.monitor->status != kRunning) return;
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= 8LL * count) return;
  const int i = static_cast<int>(t / 8), g = static_cast<int>(t % 8);
  hex_split_point(v.element, first + i, first_point + 8 * static_cast<std::size_t>(i), store, i, g);
}

/// Kernel 3: one thread per hexahedron (elements: local indices of one color, or null for the
/// whole range) for the forces, through the scheme's sink; warp sums as in solid_element_kernel.
template <class T, Sink S>
__global__ void hex_force_kernel(SolidView<T> v, NodeStateView<T> s, int first, int conn_offset,
                                 std::size_t first_point, const int* elements, int count, NodalForces<T> nf,
                                 HexSplitStore<T> store, RunView run, unsigned slot0) {
  if (run.monitor->status != kRunning) return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double w[kElementSums] = {0.0, 0.0, 0.0, 0.0};
  if (i < count) {
    const int local = elements ? elements[i] : i;
    const int e = first + local, base = conn_offset + 8 * local;
    const std::size_t point = first_point + 8 * static_cast<std::size_t>(local);
    SolidEnergy<T> en;
    if constexpr (S == Sink::Slots) {
      SlotSink<T> sink{v.force};
      en = hex_split_forces(v.element, s.ux, s.uy, s.uz, e, base, sink, point, store, local);
    } else if constexpr (S == Sink::Atomic) {
      AtomicSink<T> sink{nf};
      en = hex_split_forces(v.element, s.ux, s.uy, s.uz, e, base, sink, point, store, local);
    } else {
      PlainSink<T> sink{nf};
      en = hex_split_forces(v.element, s.ux, s.uy, s.uz, e, base, sink, point, store, local);
    }
    w[0] = double(en.strain) + double(en.hourglass);
    w[1] = double(en.hourglass);
    w[2] = double(en.dissipation);
  }
  put_warp_sums(w, run.element_parts, slot0, count);
}

}  // namespace cuda
}  // namespace halfstep
