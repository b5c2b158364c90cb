// The FPM beams on the device (seed 003): one thread per beam runs the per-element body the
// CPU loop runs (discretization/beam_block.hpp) and leaves each end's force and moment in the
// beam's slots, which the node pass gathers in every scheme (a fixed order, as on the CPU);
// or, with --fpm-kernels split, the seed's three kernels. BeamDevice is the family's entry in
// the backend's list (device_families.cuh).
#pragma once

#include <algorithm>

#include "backends/cuda/device_family.cuh"
#include "backends/gpu_options.hpp"
#include "discretization/beam_block.hpp"

namespace halfstep {
namespace cuda {


/// An FPM beam's element sums (element_forall_sum): its internal work (elastic and plastic)
/// and its plastic part, through the body the CPU loop runs (distributed runs: the beams
/// touching shared nodes, then the rest).
template <class T>
struct BeamElementSums {
  BeamView<T> v;
  __device__ void operator()(int e, double (&w)[kElementSums]) const {
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
  __device__ void operator()(int e, double (&w)[kElementSums]) const {
    double body[2] = {0.0, 0.0};  // internal work, plastic dissipation
    beam_split_forces(v, increments, points, e, body);
    w[0] = body[0];
    w[2] = body[1];
  }
};

/// The FPM beams' device tables, end slots and (split kernels) hand-over arrays.
template <class T>
class BeamDevice final : public DeviceFamily<T> {
 public:
  BeamDevice(const StructureSystem& sys, const GpuOptions& opt)
      : sys_(sys), split_(fpm_split_family(opt.fpm_kernels, false, sizeof(T) == 4)) {}

  int count() const override { return sys_.mesh<BeamMesh>().num_elements; }
  int boundary() const override { return sys_.mesh<BeamMesh>().boundary; }

  void setup(cudaStream_t stream) override {
    const BeamMesh& bm = sys_.mesh<BeamMesh>();
    const int nb = bm.num_elements;
    conn_.assign(bm.conn);
    section_.assign(bm.section);
    std::vector<BeamConstants<T>> bc;
    for (const BeamConstants<double>& c : bm.constants) bc.push_back(convert_beam_constants<T>(c));
    constants_.assign(bc);
    chord0x_.assign(convert<T>(bm.chord0x));
    chord0y_.assign(convert<T>(bm.chord0y));
    chord0z_.assign(convert<T>(bm.chord0z));
    slot_ptr_.assign(bm.node_slot_ptr);
    slots_.assign(bm.node_slots);
    // Every scheme writes the ends into slots (12 values per beam), gathered by the node pass
    // in CSR order: no atomics, and the same sums as the CPU.
    force_.resize(12 * static_cast<std::size_t>(nb));
    force_.zero(stream);
    if (split_) {  // the split scheme's hand-over between its kernels
      points_ = 0;
      for (const BeamConstants<double>& c : bm.constants) points_ = std::max(points_, beam_stress_points(c));
      increment_.resize(static_cast<std::size_t>(kBeamIncrementValues) * nb);
      point_values_.resize(static_cast<std::size_t>(points_) * nb);
    }
  }

  void begin_step(bool) override {}

  void launch(const ElementLaunch<T>& l, int first, int count, int block) override {
    const BeamView<T> v = view(l.nodes);
    if (!split_) {
      element_forall_sum(first, count, block, l.stream, l.run, l.take_slots(count), BeamElementSums<T>{v});
      return;
    }
    // Seed 003's three kernels: kinematics per beam, stress points (natural forces, or fibres
    // at the Lobatto points), forces per beam.
    const std::size_t threads = static_cast<std::size_t>(points_) * count;
    T* inc = increment_.get();
    T* points = point_values_.get();
    beam_kinematics_kernel<T><<<blocks(count, block), block, 0, l.stream>>>(v, inc, first, count, l.run);
    beam_point_kernel<T><<<blocks(threads, block), block, 0, l.stream>>>(v, inc, points, points_, first, count, l.run);
    element_forall_sum(first, count, block, l.stream, l.run, l.take_slots(count), BeamForceSums<T>{v, inc, points});
  }

  int max_block() const override {
    int limit = cuda::max_block(element_forall_sum_kernel<BeamElementSums<T>>);
    if (split_)
      limit = std::min({limit, cuda::max_block(beam_kinematics_kernel<T>), cuda::max_block(beam_point_kernel<T>),
                        cuda::max_block(element_forall_sum_kernel<BeamForceSums<T>>)});
    return limit;
  }

  SlotFamilyView<T> slots() const override { return {slot_ptr_.get(), slots_.get(), force_.get(), nullptr}; }

  std::vector<FamilyArray<T>> arrays() override {
    return {{"beam_force", &force_, {}},
            sampled_state(),
            {"beam_increment", &increment_, {}},
            {"beam_point_values", &point_values_, {}}};
  }
  FamilyArray<T> sampled_state() override {
    return {"beam_state", &state_, StateMirror{&row_state<BeamMesh>, true, true, false}};
  }

  std::size_t bytes() const override {
    return conn_.bytes() + section_.bytes() + constants_.bytes() + chord0x_.bytes() * 3 + slot_ptr_.bytes() +
           slots_.bytes() + force_.bytes() + state_.bytes() + increment_.bytes() + point_values_.bytes();
  }
  const char* split_name() const override { return split_ ? "beams" : ""; }

 private:
  BeamView<T> view(const NodeStateView<T>& s) {
    return {sys_.mesh<BeamMesh>().num_elements, conn_.get(), section_.get(), constants_.get(), chord0x_.get(), chord0y_.get(),
            chord0z_.get(), s.ux, s.uy, s.uz, s.t1x, s.t1y, s.t1z, s.dx, s.dy, s.dz, state_.get(), force_.get()};
  }

  const StructureSystem& sys_;
  const bool split_;
  DeviceArray<int> conn_, section_, slot_ptr_, slots_;
  DeviceArray<BeamConstants<T>> constants_;
  DeviceArray<T> chord0x_, chord0y_, chord0z_, force_;
  DeviceArray<T> state_;  // component-major, stride num_beams (elements/fpm_beam.hpp)
  DeviceArray<T> increment_, point_values_;  // split: kBeamIncrementValues and points_ per beam
  int points_ = 0;                           // split: most stress points of a beam
};

}  // namespace cuda
}  // namespace halfstep
