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

/// Element pass over beams [first, first + count) (distributed runs: those touching shared
/// nodes, then the rest); the last kernel of a pass (finish) hands the summed internal work
/// (elastic and plastic) to the monitor with the other kinds' energies.
template <class T>
__global__ void beam_element_kernel(BeamView<T> v, int first, int count, RunView run, double time, bool finish) {
  if (run.monitor->status != kRunning) return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double w[1] = {0.0};
  if (i < count) BeamElementBody<T>{v}(first + i, w);
  if (grid_sum(w, run.element_sums)) {
    if (finish) {
      finish_element_pass(run, time, read_total(run.element_sums, 0), read_total(run.element_sums, 1));
      reset<2>(run.element_sums);
    } else {
      *run.element_sums.ticket = 0;
    }
  }
}

/// Element pass over FPM triangles [first, first + count) at tau (pressures from the drive);
/// finish as above.
template <class T>
__global__ void tri_element_kernel(TriView<T> v, DriveView drive, double tau, int first, int count, RunView run,
                                   double time, bool finish) {
  if (run.monitor->status != kRunning) return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double w[1] = {0.0};
  if (i < count) TriElementBody<T>{v, drive, tau}(first + i, w);
  if (grid_sum(w, run.element_sums)) {
    if (finish) {
      finish_element_pass(run, time, read_total(run.element_sums, 0), read_total(run.element_sums, 1));
      reset<2>(run.element_sums);
    } else {
      *run.element_sums.ticket = 0;
    }
  }
}

}  // namespace cuda
}  // namespace halfstep
