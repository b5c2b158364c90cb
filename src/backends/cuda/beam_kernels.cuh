// FPM beam and triangle kernels: one thread per element runs the per-element body the CPU
// loop runs (discretization/beam_pass.hpp, discretization/tri_pass.hpp) and leaves each node's
// force and moment (and a triangle's pressure force) in the element's slots; the node pass
// gathers them in every scheme (a fixed order, as on the CPU).
#pragma once

#include "backends/cuda/assembled_kernels.cuh"
#include "discretization/beam_pass.hpp"
#include "discretization/tri_pass.hpp"

namespace halfstep {
namespace cuda {

/// Element pass over beams [first, first + count) (distributed runs: those touching shared
/// nodes, then the rest); each warp stores its internal work (elastic and plastic) and its
/// plastic part at warp slot slot0 + its index, which the pass's element_sums_kernel adds.
template <class T>
__global__ void beam_element_kernel(BeamView<T> v, int first, int count, RunView run, unsigned slot0) {
  if (run.monitor->status != kRunning) return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double body[2] = {0.0, 0.0};  // internal work, plastic dissipation
  if (i < count) BeamElementBody<T>{v}(first + i, body);
  const double w[3] = {body[0], 0.0, body[1]};
  put_warp_sums(w, run.element_parts, slot0, count);
}

/// The seed's split scheme (--fpm-kernels split) for beams, kernel 1 of 3: one thread per beam
/// of [first, first + count) for the fictitious reverse motion and the natural deformation
/// increments (beam_kinematics), the increment left in `increments`.
template <class T>
__global__ void beam_kinematics_kernel(BeamView<T> v, T* increments, int first, int count, RunView run) {
  if (run.monitor->status != kRunning) return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) beam_split_kinematics(v, increments, first + i);
}

/// Kernel 2: one thread per stress point (elastic sections: the beam's natural forces;
/// plastic ones: each fibre at each Lobatto point); thread j * count + i is point j of beam
/// first + i, so neighbouring threads read neighbouring beams' state.
template <class T>
__global__ void beam_point_kernel(BeamView<T> v, const T* increments, T* points, int max_points, int first, int count,
                                  RunView run) {
  if (run.monitor->status != kRunning) return;
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<long long>(max_points) * count) return;
  beam_split_point(v, increments, points, static_cast<int>(i / count), first + static_cast<int>(i % count));
}

/// Kernel 3: one thread per beam of the range for the natural and nodal forces (beam_forces);
/// warp sums as in beam_element_kernel.
template <class T>
__global__ void beam_force_kernel(BeamView<T> v, const T* increments, const T* points, int first, int count,
                                  RunView run, unsigned slot0) {
  if (run.monitor->status != kRunning) return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double body[2] = {0.0, 0.0};  // internal work, plastic dissipation
  if (i < count) beam_split_forces(v, increments, points, first + i, body);
  const double w[3] = {body[0], 0.0, body[1]};
  put_warp_sums(w, run.element_parts, slot0, count);
}

/// Element pass over FPM triangles [first, first + count) at tau (pressures from the drive);
/// warp sums as above.
template <class T, bool MayYield>
__global__ void tri_element_kernel(TriView<T> v, DriveView drive, double tau, int first, int count, RunView run,
                                   unsigned slot0) {
  if (run.monitor->status != kRunning) return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double body[2] = {0.0, 0.0};  // internal work, plastic dissipation
  if (i < count) TriElementBody<T, MayYield>{v, drive, tau}(first + i, body);
  const double w[3] = {body[0], 0.0, body[1]};
  put_warp_sums(w, run.element_parts, slot0, count);
}

/// The seed's split scheme (--fpm-kernels split), kernel 1 of 3: one thread per triangle of
/// [first, first + count) for the pure deformation (tri_kinematics), its increment left in
/// `increments`.
template <class T>
__global__ void tri_kinematics_kernel(TriView<T> v, T* increments, int first, int count, RunView run) {
  if (run.monitor->status != kRunning) return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) tri_split_kinematics(v, increments, first + i);
}

/// Kernel 2: one thread per stress point (thread j * count + i: point j of triangle first + i,
/// so neighbouring threads read neighbouring triangles' state).
template <class T, bool MayYield>
__global__ void tri_point_kernel(TriView<T> v, const T* increments, T* work, int points, int first, int count,
                                 RunView run) {
  if (run.monitor->status != kRunning) return;
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<long long>(points) * count) return;
  tri_split_point<T, MayYield>(v, increments, work, static_cast<int>(i / count), first + static_cast<int>(i % count));
}

/// Kernel 3: one thread per triangle of the range for the forces (tri_forces) and pressure;
/// warp sums as in tri_element_kernel.
template <class T, bool MayYield>
__global__ void tri_force_kernel(TriView<T> v, const T* increments, const T* work, DriveView drive, double tau,
                                 int first, int count, RunView run, unsigned slot0) {
  if (run.monitor->status != kRunning) return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double body[2] = {0.0, 0.0};  // internal work, plastic dissipation
  if (i < count) tri_split_forces<T, MayYield>(v, increments, work, drive, tau, first + i, body);
  const double w[3] = {body[0], 0.0, body[1]};
  put_warp_sums(w, run.element_parts, slot0, count);
}

}  // namespace cuda
}  // namespace halfstep
