// The step's drive tables (loads, prescribed motions, amplitudes, frames, pressures, face
// loads, temperature changes) on the device, and the DriveView the kernels read them through.
#pragma once

#include <cstdint>
#include <vector>

#include "backends/cuda/device_memory.cuh"
#include "discretization/loads.hpp"

namespace halfstep {
namespace cuda {

/// Device copies of a step's drive tables.
struct DeviceDrive {
  DeviceArray<std::uint8_t> held, motion_velocity;
  DeviceArray<int> special, frame_of, amp_ptr, amp_smooth, load_ptr, load_dof, load_amp, motion_ptr, motion_dof, motion_amp,
      pressure_ptr, pressure_amp, face_nodes, face_shape, face_amp, face_node_ptr, face_node_slots, thermal_ptr,
      thermal_amp;
  DeviceArray<double> frame_q, amp_time, amp_value, load_value, motion_value, pressure_value, face_value, thermal_value;
  DeviceArray<int> special_nodes;  ///< the nodes with special[n] >= 0, ascending (NodeSet::Special)
  DriveView view{};

  void assign(const StepDrive& d) {
    held.assign(d.held);
    special.assign(d.special);
    std::vector<int> list;
    for (std::size_t n = 0; n < d.special.size(); ++n)
      if (d.special[n] >= 0) list.push_back(static_cast<int>(n));
    special_nodes.assign(list);
    amp_ptr.assign(d.amp_ptr);
    amp_smooth.assign(d.amp_smooth);
    amp_time.assign(d.amp_time);
    amp_value.assign(d.amp_value);
    load_ptr.assign(d.load_ptr);
    load_dof.assign(d.load_dof);
    load_amp.assign(d.load_amp);
    load_value.assign(d.load_value);
    motion_ptr.assign(d.motion_ptr);
    motion_dof.assign(d.motion_dof);
    motion_amp.assign(d.motion_amp);
    motion_value.assign(d.motion_value);
    motion_velocity.assign(d.motion_velocity);
    frame_of.assign(d.frame_of);
    frame_q.assign(d.frame_q);
    pressure_ptr.assign(d.pressure_ptr);
    pressure_amp.assign(d.pressure_amp);
    pressure_value.assign(d.pressure_value);
    face_nodes.assign(d.face_nodes);
    face_shape.assign(d.face_shape);
    face_amp.assign(d.face_amp);
    face_value.assign(d.face_value);
    face_node_ptr.assign(d.face_node_ptr);
    face_node_slots.assign(d.face_node_slots);
    thermal_ptr.assign(d.thermal_ptr);
    thermal_amp.assign(d.thermal_amp);
    thermal_value.assign(d.thermal_value);
    view = host_view(d);  // scalars; pointers replaced below
    view.held = held.get();
    view.special = special.get();
    view.amp_ptr = amp_ptr.get();
    view.amp_smooth = amp_smooth.get();
    view.amp_time = amp_time.get();
    view.amp_value = amp_value.get();
    view.load_ptr = load_ptr.get();
    view.load_dof = load_dof.get();
    view.load_amp = load_amp.get();
    view.load_value = load_value.get();
    view.motion_ptr = motion_ptr.get();
    view.motion_dof = motion_dof.get();
    view.motion_amp = motion_amp.get();
    view.motion_value = motion_value.get();
    view.motion_velocity = motion_velocity.get();
    view.frame_of = frame_of.get();
    view.frame_q = frame_q.get();
    view.pressure_ptr = d.has_pressure() ? pressure_ptr.get() : nullptr;
    view.pressure_amp = pressure_amp.get_or_null();
    view.pressure_value = pressure_value.get_or_null();
    view.face_nodes = face_nodes.get();
    view.face_shape = face_shape.get();
    view.face_amp = face_amp.get();
    view.face_value = face_value.get();
    view.face_node_ptr = face_node_ptr.get_or_null();
    view.face_node_slots = face_node_slots.get();
    view.thermal_ptr = d.has_thermal() ? thermal_ptr.get() : nullptr;
    view.thermal_amp = thermal_amp.get_or_null();
    view.thermal_value = thermal_value.get_or_null();
  }
};

}  // namespace cuda
}  // namespace halfstep
