// The FPM triangles on the device (seed 003): one thread per triangle runs the per-element
// body the CPU loop runs (discretization/tri_block.hpp) and leaves each corner's force and
// moment (and, with pressures, its follower pressure force) in the triangle's slots, which the
// node pass gathers in every scheme (a fixed order, as on the CPU); or, with --fpm-kernels
// split, the seed's three kernels. TriDevice is the family's entry in the backend's list
// (device_families.cuh).
#pragma once

#include <algorithm>
#include <utility>

#include "backends/cuda/device_family.cuh"
#include "backends/gpu_options.hpp"
#include "discretization/element_blocks.hpp"
#include "discretization/tri_block.hpp"

namespace halfstep {

const BlockFamily& tri_block_family();  // discretization/tri_block.cpp

namespace cuda {

/// An FPM triangle's element sums at tau (pressures from the drive), as BeamElementSums'.
template <class T, bool MayYield>
struct TriElementSums {
  TriView<T> v;
  DriveView drive;
  double tau;
  __device__ void operator()(int e, double (&w)[kElementSums]) const {
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
  __device__ void operator()(int e, double (&w)[kElementSums]) const {
    double body[2] = {0.0, 0.0};  // internal work, plastic dissipation
    tri_split_forces<T, MayYield>(v, increments, work, drive, tau, e, body);
    w[0] = body[0];
    w[2] = body[1];
  }
};

/// The FPM triangles' device tables, corner slots and (split kernels) hand-over arrays.
template <class T>
class TriDevice final : public DeviceFamily<T> {
 public:
  TriDevice(const StructureSystem& sys, const GpuOptions& opt)
      : sys_(sys), split_(fpm_split_family(opt.fpm_kernels, false, sizeof(T) == 4)) {}

  int count() const override { return sys_.mesh<TriMesh>().num_elements; }
  int boundary() const override { return sys_.mesh<TriMesh>().boundary; }

  void setup(cudaStream_t stream) override {
    const TriMesh& tm = sys_.mesh<TriMesh>();
    const int nt = tm.num_elements;
    conn_.assign(tm.conn);
    section_.assign(tm.section);
    std::vector<TriConstants<T>> tc;
    for (const TriConstants<double>& c : tm.constants) tc.push_back(convert_tri_constants<T>(c));
    constants_.assign(tc);
    for (auto [dst, src] : {std::pair{&edge_[0], &tm.edge2x}, {&edge_[1], &tm.edge2y}, {&edge_[2], &tm.edge2z},
                            {&edge_[3], &tm.edge3x}, {&edge_[4], &tm.edge3y}, {&edge_[5], &tm.edge3z}})
      dst->assign(convert<T>(*src));
    slot_ptr_.assign(tm.node_slot_ptr);
    slots_.assign(tm.node_slots);
    // As the beams: every scheme writes the corners into slots (18 values per triangle).
    force_.resize(18 * static_cast<std::size_t>(nt));
    force_.zero(stream);
    if (split_) {  // the split scheme's hand-over between its kernels
      points_ = 0;
      for (const TriConstants<double>& c : tm.constants) points_ = std::max(points_, tri_stress_points(c));
      increment_.resize(static_cast<std::size_t>(kTriIncrementValues) * nt);
      point_work_.resize(static_cast<std::size_t>(points_) * nt);
    }
  }

  void begin_step(bool have_pressure) override {
    pressure_.resize(have_pressure ? 9 * static_cast<std::size_t>(sys_.mesh<TriMesh>().num_elements) : 0);
  }

  void launch(const ElementLaunch<T>& l, int first, int count, int block) override {
    if (sys_.mesh<TriMesh>().any_plastic()) launch_as<true>(l, first, count, block);
    else launch_as<false>(l, first, count, block);
  }

  int max_block() const override {
    const bool plastic = sys_.mesh<TriMesh>().any_plastic();
    int limit = plastic ? cuda::max_block(element_forall_sum_kernel<TriElementSums<T, true>>)
                        : cuda::max_block(element_forall_sum_kernel<TriElementSums<T, false>>);
    if (split_)
      limit = std::min({limit, cuda::max_block(tri_kinematics_kernel<T>), cuda::max_block(tri_point_kernel<T, true>),
                        cuda::max_block(element_forall_sum_kernel<TriForceSums<T, true>>)});
    return limit;
  }

  SlotFamilyView<T> slots() const override {
    return {slot_ptr_.get(), slots_.get(), force_.get(), pressure_.get_or_null()};
  }

  std::vector<FamilyArray<T>> arrays() override {
    return {{"tri_force", &force_, {}},
            {"tri_pressure", &pressure_, {}},
            sampled_state(),
            {"tri_increment", &increment_, {}},
            {"tri_point_work", &point_work_, {}}};
  }
  FamilyArray<T> sampled_state() override {
    return {"tri_state", &state_, StateMirror{&row_state<TriMesh>, true, true, false}};
  }

  std::size_t bytes() const override {
    return conn_.bytes() + section_.bytes() + constants_.bytes() + edge_[0].bytes() * 6 + slot_ptr_.bytes() +
           slots_.bytes() + force_.bytes() + pressure_.bytes() + state_.bytes() + increment_.bytes() +
           point_work_.bytes();
  }
  const char* split_name() const override { return split_ ? "triangles" : ""; }

 private:
  TriView<T> view(const NodeStateView<T>& s) {
    return {sys_.mesh<TriMesh>().num_elements, conn_.get(), section_.get(), constants_.get(), edge_[0].get(), edge_[1].get(),
            edge_[2].get(), edge_[3].get(), edge_[4].get(), edge_[5].get(), s.ux, s.uy, s.uz, s.t1x, s.t1y, s.t1z,
            s.dx, s.dy, s.dz, state_.get(), force_.get(), pressure_.get_or_null(),
            element_pressure_offset(sys_, tri_block_family())};
  }

  /// The launches with the plastic path compiled in or out (MayYield).
  template <bool MayYield>
  void launch_as(const ElementLaunch<T>& l, int first, int count, int block) {
    const TriView<T> v = view(l.nodes);
    if (!split_) {
      element_forall_sum(first, count, block, l.stream, l.run, l.take_slots(count),
                         TriElementSums<T, MayYield>{v, l.drive, l.tau});
      return;
    }
    // Seed 003's three kernels: kinematics per element, stresses per stress point, forces per
    // element (kTriPoints stress points when no section yields).
    const std::size_t threads = static_cast<std::size_t>(points_) * count;
    T* inc = increment_.get();
    T* work = point_work_.get();
    tri_kinematics_kernel<T><<<blocks(count, block), block, 0, l.stream>>>(v, inc, first, count, l.run);
    tri_point_kernel<T, MayYield><<<blocks(threads, block), block, 0, l.stream>>>(v, inc, work, points_, first, count,
                                                                                  l.run);
    element_forall_sum(first, count, block, l.stream, l.run, l.take_slots(count),
                       TriForceSums<T, MayYield>{v, inc, work, l.drive, l.tau});
  }

  const StructureSystem& sys_;
  const bool split_;
  DeviceArray<int> conn_, section_, slot_ptr_, slots_;
  DeviceArray<TriConstants<T>> constants_;
  DeviceArray<T> edge_[6];           // X2 - X1 (x, y, z), X3 - X1 (x, y, z) per triangle
  DeviceArray<T> force_, pressure_;  // 18 and (with pressures) 9 per triangle
  DeviceArray<T> state_;             // component-major, stride num_tris (elements/fpm_tri.hpp)
  DeviceArray<T> increment_, point_work_;  // split: kTriIncrementValues and points_ per triangle
  int points_ = 0;                         // split: most stress points of a triangle
};

}  // namespace cuda
}  // namespace halfstep
