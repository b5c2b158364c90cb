// One analysis step's loads, prescribed motions, pressures and held dofs as flat tables, and
// their values at a step time on a configuration: host/device functions that the explicit
// scheme (every backend at each increment, the CUDA one on the GPU) and static steps both
// evaluate, so the time loop hands over only the increment's times.
#pragma once

#include <cstdint>
#include <vector>

#include "core/host_device.hpp"
#include "discretization/continuum_element.hpp"
#include "discretization/step_loads.hpp"
#include "elements/solid_faces.hpp"
#include "model/amplitude.hpp"

namespace halfstep {

/// Host tables of a step (CSR: entries of special node i are [ptr[i], ptr[i+1])).
struct StepDrive {
  std::vector<std::uint8_t> held;  ///< per node: bits 0-2 translations constrained, bits 3-4 triad rotations held (beam models: bits 3-5 global rotations)
  std::vector<int> special;        ///< per node: index of its entries, or -1
  int num_special = 0;
  double period = 0;
  // Named amplitudes (slots 2..): points [amp_ptr[i], amp_ptr[i+1]); slot 0 = 1, slot 1 = ramp.
  std::vector<int> amp_ptr, amp_smooth;
  std::vector<double> amp_time, amp_value;
  // Concentrated loads per special node: global dof 0..5, amplitude slot, magnitude.
  std::vector<int> load_ptr, load_dof, load_amp;
  std::vector<double> load_value;
  // Prescribed translations per special node (last entry for a dof wins).
  std::vector<int> motion_ptr, motion_dof, motion_amp;
  std::vector<double> motion_value;
  std::vector<std::uint8_t> motion_velocity;
  // *TRANSFORM per special node: index of its frame in frame_q (9 values each), or -1.
  std::vector<int> frame_of;
  std::vector<double> frame_q;
  // Pressures per element of the families that number them (PressureTable::Element), one
  // family after the other (empty when the step has none).
  std::vector<int> pressure_ptr, pressure_amp;
  std::vector<double> pressure_value;

  // Pressures on solid faces, one entry per loaded face: node indices (kFaceMaxNodes, -1 padded, ordered
  // so that the right-hand normal points out of the element), FaceShape, amplitude slot,
  // magnitude; node -> face slots (face * kFaceMaxNodes + k) in CSR form.
  int num_faces = 0;
  std::vector<int> face_nodes, face_shape, face_amp;
  std::vector<double> face_value;
  std::vector<int> face_node_ptr, face_node_slots;

  double bulk_linear = 0, bulk_quadratic = 0;  ///< the step's bulk viscosity b1, b2 (0, 0: none)

  // Temperature changes per continuum element (StepLoads::thermal_*), CSR over the elements;
  // empty when the step changes no temperature.
  std::vector<int> thermal_ptr, thermal_amp;
  std::vector<double> thermal_value;

  bool has_pressure() const { return !pressure_ptr.empty(); }
  /// Whether some element's temperature changes in this step (thermal_pass has work).
  bool has_thermal() const { return !thermal_ptr.empty(); }
};

/// The same tables as raw pointers (host or device memory).
struct DriveView {
  const std::uint8_t* held;
  const int* special;
  double period;
  int num_named;
  const int *amp_ptr, *amp_smooth;
  const double *amp_time, *amp_value;
  const int *load_ptr, *load_dof, *load_amp;
  const double* load_value;
  const int *motion_ptr, *motion_dof, *motion_amp;
  const double* motion_value;
  const std::uint8_t* motion_velocity;
  const int* frame_of;     ///< per special node: frame index, or -1
  const double* frame_q;   ///< 9 per frame: columns the local axes
  const int *pressure_ptr, *pressure_amp;  ///< pressure_ptr null: no pressures
  const double* pressure_value;
  int num_faces;                           ///< solid face pressures (0: none)
  const int *face_nodes, *face_shape, *face_amp;
  const double* face_value;
  const int *face_node_ptr, *face_node_slots;
  double bulk_linear, bulk_quadratic;  ///< the step's bulk viscosity b1, b2 (StepDrive's)
  const int *thermal_ptr, *thermal_amp;  ///< thermal_ptr null: no temperature changes
  const double* thermal_value;
};

/// View of host tables.
DriveView host_view(const StepDrive& d);

/// Builds the tables of a step; held_rot holds the triad-rotation bits from align_triads.
StepDrive build_step_drive(const StructureSystem& sys, const StepLoads& step, const std::vector<std::uint8_t>& held_rot);

/// Every continuum element's temperature change at step time tau (num_elements values; empty
/// when d changes no temperature), evaluated on the host (output frames).
std::vector<double> thermal_changes(const StepDrive& d, int num_elements, double tau);

/// Value of amplitude slot at step time tau.
HS_HD double amplitude_slot(const DriveView& d, int slot, double tau) {
  if (slot == 0) return 1.0;
  if (slot == 1) return d.period > 0 ? (tau <= 0 ? 0.0 : (tau >= d.period ? 1.0 : tau / d.period)) : 1.0;
  const int i = slot - 2, b = d.amp_ptr[i];
  return amplitude_at(d.amp_smooth[i] != 0, d.amp_time + b, d.amp_value + b, d.amp_ptr[i + 1] - b, tau);
}

/// Loads at tau and imposed motions over the coming interval of special node sp: targets
/// u^(n+1) at tau + dt_next for displacements, v^(n+1/2) at tau + dt_next/2 for velocities.
template <class T>
struct NodeDriveValues {
  T load[6];
  T motion[3];
  T frame[9];  ///< the node's *TRANSFORM axes when has_frame
  std::uint8_t moving = 0, by_velocity = 0;
  bool has_frame = false;
};

template <class T>
HS_HD NodeDriveValues<T> evaluate_node_drive(const DriveView& d, int sp, double tau, double dt_next) {
  NodeDriveValues<T> r;
  double load[6] = {0, 0, 0, 0, 0, 0};
  for (int i = d.load_ptr[sp]; i < d.load_ptr[sp + 1]; ++i)
    load[d.load_dof[i]] += d.load_value[i] * amplitude_slot(d, d.load_amp[i], tau);
  for (int k = 0; k < 6; ++k) r.load[k] = T(load[k]);
  for (int k = 0; k < 3; ++k) r.motion[k] = T(0);
  for (int i = d.motion_ptr[sp]; i < d.motion_ptr[sp + 1]; ++i) {
    const int dof = d.motion_dof[i];
    const bool vel = d.motion_velocity[i] != 0;
    r.moving |= static_cast<std::uint8_t>(1u << dof);
    if (vel) r.by_velocity |= static_cast<std::uint8_t>(1u << dof);
    else r.by_velocity &= static_cast<std::uint8_t>(~(1u << dof));
    if (dt_next > 0)
      r.motion[dof] = T(d.motion_value[i] * amplitude_slot(d, d.motion_amp[i], vel ? tau + 0.5 * dt_next : tau + dt_next));
  }
  const int f = d.frame_of[sp];
  if (f >= 0) {
    r.has_frame = true;
    for (int k = 0; k < 9; ++k) r.frame[k] = T(d.frame_q[9 * f + k]);
  }
  return r;
}

/// Rotational body force (StepLoads::spin_*) of value (mass times omega^2 or alpha, times the
/// amplitude) on a node at x, about axis (7 values: point, unit direction, kind 0 CENTRIF or
/// 1 ROTA): value (I - n n)(x - p) or the d'Alembert force -value n x (x - p).
inline Vec3<double> spin_force(const double* axis, double value, const Vec3<double>& x) {
  const Vec3<double> p{axis[0], axis[1], axis[2]}, n{axis[3], axis[4], axis[5]};
  const Vec3<double> r = x - p;
  if (axis[6] == 0.0) return value * (r - dot(r, n) * n);
  return (-value) * cross(n, r);
}

/// Pressure on element e at step time tau (0 when the step has none).
HS_HD double evaluate_pressure(const DriveView& d, int e, double tau) {
  if (!d.pressure_ptr) return 0.0;
  double p = 0;
  for (int i = d.pressure_ptr[e]; i < d.pressure_ptr[e + 1]; ++i)
    p += d.pressure_value[i] * amplitude_slot(d, d.pressure_amp[i], tau);
  return p;
}

/// Temperature change theta - theta_initial of continuum element e at step time tau (0 when
/// the step changes none).
HS_HD double evaluate_thermal(const DriveView& d, int e, double tau) {
  if (!d.thermal_ptr) return 0.0;
  double t = 0;
  for (int i = d.thermal_ptr[e]; i < d.thermal_ptr[e + 1]; ++i) t += d.thermal_value[i] * amplitude_slot(d, d.thermal_amp[i], tau);
  return t;
}

/// Forall body of the thermal pass (CPU forall and cuda::forall alike): each continuum
/// element's temperature change at step time tau into out, which the element pass reads
/// (ContinuumView::thermal).
template <class T>
struct ThermalBody {
  DriveView d;
  double tau;
  T* out;
  HS_HD void operator()(int e) const { out[e] = T(evaluate_thermal(d, e, tau)); }
};

/// Nodal forces (kFaceMaxNodes x 3 values, padded with zeros) of solid face pressure f at
/// step time tau, on the current positions x0 + u.
template <class T>
HS_HD void evaluate_face_force(const DriveView& d, int f, double tau, const T* x0, const T* y0, const T* z0,
                               const T* ux, const T* uy, const T* uz, T out[3 * kFaceMaxNodes]) {
  const T p = T(d.face_value[f] * amplitude_slot(d, d.face_amp[f], tau));
  Vec3<T> x[kFaceMaxNodes], fn[kFaceMaxNodes];
  const int* nodes = d.face_nodes + kFaceMaxNodes * f;
  for (int k = 0; k < kFaceMaxNodes; ++k) {
    const int n = nodes[k] >= 0 ? nodes[k] : nodes[0];
    x[k] = {x0[n] + ux[n], y0[n] + uy[n], z0[n] + uz[n]};
  }
  face_pressure_force(d.face_shape[f], x, p, fn);
  for (int k = 0; k < kFaceMaxNodes; ++k) {
    out[3 * k] = fn[k].x;
    out[3 * k + 1] = fn[k].y;
    out[3 * k + 2] = fn[k].z;
  }
}

/// Adds node n's share of the face pressure forces (face_force: 3 kFaceMaxNodes per face) to fp.
template <class T>
HS_HD void gather_face_forces(const DriveView& d, const T* face_force, int n, T fp[3]) {
  add_slot_forces3(d.face_node_ptr, d.face_node_slots, face_force, n, fp);
}

}  // namespace halfstep
