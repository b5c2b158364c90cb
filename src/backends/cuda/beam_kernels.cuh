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

/// An FPM beam's element sums (element_forall_sum): its internal work (elastic and plastic)
/// and its plastic part, through the body the CPU loop runs (distributed runs: the beams
/// touching shared nodes, then the rest).
template <class T>
struct BeamElementSums {
  BeamView<T> v;
  __device__ void operator()(int e, double (&w)[3]) const {
    double body[2] = {0.0, 0.0};  // internal work, plastic dissipation
    BeamElementBody<T>{v}(e, body);
    w[0] = body[0];
    w[2] = body[1];
  }
};

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

/// Kernel 3: one thread per beam of the range for the natural and nodal forces (beam_forces),
/// its element sums as BeamElementSums' (element_forall_sum).
template <class T>
struct BeamForceSums {
  BeamView<T> v;
  const T* increments;
  const T* points;
  __device__ void operator()(int e, double (&w)[3]) const {
    double body[2] = {0.0, 0.0};  // internal work, plastic dissipation
    beam_split_forces(v, increments, points, e, body);
    w[0] = body[0];
    w[2] = body[1];
  }
};

/// An FPM triangle's element sums at tau (pressures from the drive), as BeamElementSums'.
template <class T, bool MayYield>
struct TriElementSums {
  TriView<T> v;
  DriveView drive;
  double tau;
  __device__ void operator()(int e, double (&w)[3]) const {
    double body[2] = {0.0, 0.0};  // internal work, plastic dissipation
    TriElementBody<T, MayYield>{v, drive, tau}(e, body);
    w[0] = body[0];
    w[2] = body[1];
  }
};

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

/// Kernel 3: one thread per triangle of the range for the forces (tri_forces) and pressure,
/// its element sums as TriElementSums' (element_forall_sum).
template <class T, bool MayYield>
struct TriForceSums {
  TriView<T> v;
  const T* increments;
  const T* work;
  DriveView drive;
  double tau;
  __device__ void operator()(int e, double (&w)[3]) const {
    double body[2] = {0.0, 0.0};  // internal work, plastic dissipation
    tri_split_forces<T, MayYield>(v, increments, work, drive, tau, e, body);
    w[0] = body[0];
    w[2] = body[1];
  }
};

}  // namespace cuda
}  // namespace halfstep
