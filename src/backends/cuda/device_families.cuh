// The CUDA backend's element families that run through the DeviceFamily interface, in pass
// order (their launches, their slots in the node pass and their restart arrays follow it):
// the one place that lists them. A family joins with its file and one line here.
#pragma once

#include <memory>
#include <vector>

#include "backends/cuda/beam_device.cuh"
#include "backends/cuda/device_family.cuh"
#include "backends/cuda/tri_device.cuh"

namespace halfstep {
namespace cuda {

/// The families of sys that have elements, constructed (setup puts them on the device).
template <class T>
std::vector<std::unique_ptr<DeviceFamily<T>>> make_device_families(const StructureSystem& sys, const GpuOptions& opt) {
  std::vector<std::unique_ptr<DeviceFamily<T>>> all;
  all.push_back(std::make_unique<BeamDevice<T>>(sys, opt));
  all.push_back(std::make_unique<TriDevice<T>>(sys, opt));
  std::vector<std::unique_ptr<DeviceFamily<T>>> out;
  for (auto& f : all)
    if (f->count() > 0) out.push_back(std::move(f));
  if (out.size() > static_cast<std::size_t>(kMaxSlotFamilies))
    throw std::logic_error("make_device_families: more families than MeshView::slot_families holds");
  return out;
}

}  // namespace cuda
}  // namespace halfstep
