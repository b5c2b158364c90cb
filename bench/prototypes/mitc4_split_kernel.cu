// Compile-only prototype (issue 21 item 2): the MITC4 elastic element pass one element per
// thread (mitc4_internal_force, as element_pass_kernel<T, Sink::Slots, false, false> does it)
// against four threads per element (mitc4_split.hpp with warp shuffles), over the same SoA
// inputs and writing the same 20 corner generalized forces and energy per element. Not part
// of the CMake build: it exists to read ptxas's register and spill report, e.g.
//   nvcc -arch=sm_90 -O3 -std=c++17 -Xptxas -v -c bench/prototypes/mitc4_split_kernel.cu -I src
// (-DSPLIT_THREADS, -DSPLIT_MIN_BLOCKS_FP64 and -DSPLIT_MIN_BLOCKS_FP32 change the split
// kernel's __launch_bounds__).
// Left out against the real kernel, the same for both: the run-status check, the grid-wide
// energy sum and the pressure forces (docs/performance.md, "MITC4 split by Gauss point").
#include "elements/mitc4.hpp"
#include "elements/mitc4_split.hpp"

namespace halfstep {
namespace proto {

/// The element pass's inputs, as MeshView and NodeStateView hold them (reference constants
/// recomputed, the gather scheme's default).
template <class T>
struct ShellInputs {
  const int* conn;                   ///< 4 per element
  const int* section;                ///< per element
  const T* thickness;                ///< per section
  const ShellElastic<T>* elastic;    ///< per section
  const T *x0, *y0, *z0, *d0x, *d0y, *d0z;  ///< reference positions and directors
  const T *ux, *uy, *uz, *dx, *dy, *dz;     ///< displacements and current directors
  const T *t1x, *t1y, *t1z;                 ///< first triad vector per node
};

/// Element e's nodes read from the SoA arrays when asked (the split lanes stream over nodes
/// instead of holding them; the four lanes of an element read the same addresses, one L1 line).
template <class T>
struct SoaNodes {
  const ShellInputs<T>& in;
  int n0, n1, n2, n3;  ///< the corner node numbers, kept in registers
  /// Node number of corner k; selects, not an array, since k may be the runtime lane index.
  __device__ __forceinline__ int node(int k) const { return k == 0 ? n0 : k == 1 ? n1 : k == 2 ? n2 : n3; }
  /// Corner k's reference position, displacement, reference and current director.
  __device__ __forceinline__ Vec3<T> X(int k) const {
    const int n = node(k);
    return {in.x0[n], in.y0[n], in.z0[n]};
  }
  __device__ __forceinline__ Vec3<T> u(int k) const {
    const int n = node(k);
    return {in.ux[n], in.uy[n], in.uz[n]};
  }
  __device__ __forceinline__ Vec3<T> V0(int k) const {
    const int n = node(k);
    return {in.d0x[n], in.d0y[n], in.d0z[n]};
  }
  __device__ __forceinline__ Vec3<T> v(int k) const {
    const int n = node(k);
    return {in.dx[n], in.dy[n], in.dz[n]};
  }
};

/// Baseline: one element per thread, the body of element_pass_kernel's elastic Slots path.
template <class T>
__global__ void single_thread_kernel(ShellInputs<T> in, int count, T* force, T* energy) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= count) return;
  Mitc4Nodes<T> nodes;
  int c[4];
  for (int k = 0; k < 4; ++k) {
    const int n = c[k] = in.conn[4 * e + k];
    nodes.X[k] = {in.x0[n], in.y0[n], in.z0[n]};
    nodes.u[k] = {in.ux[n], in.uy[n], in.uz[n]};
    nodes.V0[k] = {in.d0x[n], in.d0y[n], in.d0z[n]};
    nodes.v[k] = {in.dx[n], in.dy[n], in.dz[n]};
  }
  const int sec = in.section[e];
  const T a = in.thickness[sec];
  Mitc4Ref<T> ref;
  mitc4_reference(nodes.X, nodes.V0, a, ref);
  Vec3<T> f[4], gv[4];
  energy[e] = mitc4_internal_force(ref, nodes, a, in.elastic[sec], f, gv);
  for (int k = 0; k < 4; ++k) {
    const int n = c[k];
    T gen[5];
    mitc4_corner_generalized_force(f[k], gv[k], nodes.v[k], Vec3<T>{in.t1x[n], in.t1y[n], in.t1z[n]}, gen);
    for (int j = 0; j < 5; ++j) force[20 * e + 5 * k + j] = gen[j];
  }
}

#ifndef SPLIT_THREADS
#define SPLIT_THREADS 128  // threads per block the split kernel is compiled for
#endif
#ifndef SPLIT_MIN_BLOCKS_FP64
#define SPLIT_MIN_BLOCKS_FP64 4  // 4 x 128 threads x 128 registers = 65,536: 16 warps per SM
#endif
#ifndef SPLIT_MIN_BLOCKS_FP32
#define SPLIT_MIN_BLOCKS_FP32 6  // 80 registers, no spill: 24 warps per SM (89 unbounded: 20)
#endif

/// Minimum resident blocks per SM the split kernel is compiled for, per precision.
template <class T>
constexpr int split_min_blocks() {
  return sizeof(T) == 8 ? SPLIT_MIN_BLOCKS_FP64 : SPLIT_MIN_BLOCKS_FP32;
}

/// Four threads per element (8 elements per warp): thread 4 i + l is lane l of element i,
/// and writes corner l's 5 values, so a warp stores 8 x 20 consecutive values.
template <class T>
__global__ void __launch_bounds__(SPLIT_THREADS, split_min_blocks<T>())
    split_kernel(ShellInputs<T> in, int count, T* force, T* energy) {
  const int i = (blockIdx.x * blockDim.x + threadIdx.x) >> 2;
  const Mitc4WarpLanes lanes{static_cast<int>(threadIdx.x & 3)};
  // Past the last element the group repeats it without storing: every lane of the warp must
  // reach the shuffles.
  const int e = i < count ? i : count - 1;
  const SoaNodes<T> nodes{in, in.conn[4 * e], in.conn[4 * e + 1], in.conn[4 * e + 2], in.conn[4 * e + 3]};
  const int sec = in.section[e];
  Mitc4WarpLanes::Val<Vec3<T>> f, gv;
  const T w = mitc4_split_internal_force<T>(lanes, nodes, in.thickness[sec], in.elastic[sec], nullptr, f, gv);
  if (i >= count) return;
  // The corner's node number read again rather than selected from n0..n3: those four
  // registers are then free after the node pass (the last 8 bytes of spill at 128 registers).
  const int k = lanes.lane, n = in.conn[4 * e + k];
  T gen[5];
  mitc4_corner_generalized_force(f.v, gv.v, Vec3<T>{in.dx[n], in.dy[n], in.dz[n]},
                                 Vec3<T>{in.t1x[n], in.t1y[n], in.t1z[n]}, gen);
  for (int j = 0; j < 5; ++j) force[20 * e + 5 * k + j] = gen[j];
  if (k == 0) energy[e] = w;
}

template __global__ void single_thread_kernel<double>(ShellInputs<double>, int, double*, double*);
template __global__ void split_kernel<double>(ShellInputs<double>, int, double*, double*);
template __global__ void single_thread_kernel<float>(ShellInputs<float>, int, float*, float*);
template __global__ void split_kernel<float>(ShellInputs<float>, int, float*, float*);

}  // namespace proto
}  // namespace halfstep
