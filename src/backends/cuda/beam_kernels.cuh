// FPM beam and triangle kernels: one thread per element runs the per-element body the CPU
// loop runs (discretization/beam_pass.hpp, dynamics/tri_pass.hpp) and leaves each node's
// force and moment (and a triangle's pressure force) in the element's slots; the node pass
// gathers them in every scheme (a fixed order, as on the CPU).
#pragma once

#include "backends/cuda/assembled_kernels.cuh"
#include "discretization/beam_pass.hpp"
#include "dynamics/tri_pass.hpp"

namespace halfstep {
namespace cuda {

/// Element pass over all beams; the last kernel of a pass (finish) hands the summed internal
/// work (elastic and plastic) and its plastic part to the monitor with the other kinds' energies.
template <class T>
__global__ void beam_element_kernel(BeamView<T> v, RunView run, double time, bool finish) {
  if (run.monitor->status != kRunning) return;
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  double body[2] = {0.0, 0.0};  // internal work, plastic dissipation
  if (e < v.num_beams) BeamElementBody<T>{v}(e, body);
  const double w[3] = {body[0], 0.0, body[1]};
  if (grid_sum(w, run.element_sums)) end_element_kernel(run, time, finish);
}

/// Element pass over all FPM triangles at tau (pressures from the drive); finish as above.
template <class T>
__global__ void tri_element_kernel(TriView<T> v, DriveView drive, double tau, RunView run, double time, bool finish) {
  if (run.monitor->status != kRunning) return;
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  double body[2] = {0.0, 0.0};  // internal work, plastic dissipation
  if (e < v.num_tris) TriElementBody<T>{v, drive, tau}(e, body);
  const double w[3] = {body[0], 0.0, body[1]};
  if (grid_sum(w, run.element_sums)) end_element_kernel(run, time, finish);
}

}  // namespace cuda
}  // namespace halfstep
