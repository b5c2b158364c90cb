// An element family the CUDA backend runs as a whole through one interface: its device
// tables, its launches for a range of its elements, the arrays that restart files and the
// host's state hold, and the slots the node pass gathers its forces from. The backend holds a
// list of them (device_families.cuh, the one place that names them) and walks it wherever it
// walked the FPM beams and triangles by name: a family is its file plus one registry line.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "backends/cuda/device_memory.cuh"
#include "backends/cuda/views.cuh"
#include "discretization/structure_system.hpp"

namespace halfstep {
namespace cuda {

/// What one element launch of a pass shares with the backend: its stream, the nodes' state at
/// the pass's configuration, the step's loads at tau, the run's sums and monitor, and the
/// pass's warp-sum slots (take_slots(threads): the first slot of a launch of that many
/// threads, handed out in launch order so the sums' order follows the element counts alone).
template <class T>
struct ElementLaunch {
  cudaStream_t stream;
  NodeStateView<T> nodes;
  DriveView drive;
  double tau;
  RunView run;
  std::function<unsigned(std::size_t)> take_slots;
};

/// A device array of a family that kernels write, by the name restart files give it, and how
/// it mirrors the host's StructureState (upload, download, output frames).
template <class T>
struct FamilyArray {
  std::string name;
  DeviceArray<T>* array;
  StateMirror mirror;
};

/// Largest block a kernel can launch with (its registers limit it).
template <class K>
int max_block(K kernel) {
  cudaFuncAttributes a{};
  check(cudaFuncGetAttributes(&a, kernel), "cudaFuncGetAttributes");
  return a.maxThreadsPerBlock;
}

/// An element family on the device (constructed without touching the device; setup uploads).
template <class T>
class DeviceFamily {
 public:
  virtual ~DeviceFamily() = default;
  /// The family's elements in the backend's system.
  virtual int count() const = 0;
  /// Distributed runs: how many of them (the first) touch a shared node.
  virtual int boundary() const = 0;
  /// The family's tables and buffers on the device (zeroed on stream).
  virtual void setup(cudaStream_t stream) = 0;
  /// Sizes or frees the step's follower-pressure buffers.
  virtual void begin_step(bool have_pressure) = 0;
  /// Element pass over the family's elements [first, first + count) with blocks of block.
  virtual void launch(const ElementLaunch<T>& l, int first, int count, int block) = 0;
  /// Largest block the family's element kernels can launch with.
  virtual int max_block() const = 0;
  /// Where the node pass gathers the family's forces.
  virtual SlotFamilyView<T> slots() const = 0;
  /// The arrays kernels write, in restart order.
  virtual std::vector<FamilyArray<T>> arrays() = 0;
  /// The family's per-element state that output frames carry (mirror.out set), or null array.
  virtual FamilyArray<T> sampled_state() = 0;
  /// Device bytes the family holds.
  virtual std::size_t bytes() const = 0;
  /// The family's name in "FPM kernels split ( ... )" when its kernels run split, else "".
  virtual const char* split_name() const = 0;
};

}  // namespace cuda
}  // namespace halfstep
