// Loads, constraints and outputs of one analysis step, flattened into arrays for the kernels.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace halfstep {

struct StructureSystem;

/// Amplitude slots of a step: slot 0 is constant 1 (applied at once), slot 1 ramps linearly
/// over the step, slots 2.. are the deck's named amplitudes (in step time). Evaluated by
/// amplitude_slot() (solver/step_drive.hpp) on the host and the GPU.
struct AmplitudeTable {
  std::vector<const Amplitude*> named;
};

/// One step's loads and constraints in kernel-ready form.
struct StepLoads {
  std::string name;
  double period = 0;
  std::optional<double> fixed_increment;
  AmplitudeTable amplitudes;
  /// The bulk viscosity b1, b2 in force (the latest *BULK VISCOSITY, else Abaqus's 0.06,
  /// 1.2); 0, 0 in static steps, which have none.
  double bulk_linear = 0, bulk_quadratic = 0;

  // Concentrated loads: global dof 0..5 (forces, then moments fixed in direction).
  std::vector<int> load_node, load_dof, load_amp;
  std::vector<double> load_value;
  // Pressures on shells (positive against the element normal), following the deformed surface:
  // the MITC4 shell index, or sys.shell.num_elements + the FPM triangle index.
  std::vector<int> pressure_elem, pressure_amp;
  std::vector<double> pressure_value;
  // Pressures on solid faces (solid element index, Abaqus face label 1..6).
  std::vector<int> face_elem, face_label, face_amp;
  std::vector<double> face_value;
  // Temperature changes theta - theta_initial of continuum elements with *EXPANSION (the mean
  // over their nodes; solid element index): an element's change at step time tau is the sum
  // of its entries' value times amplitude (slot 0 holds the constant part).
  std::vector<int> thermal_elem, thermal_amp;
  std::vector<double> thermal_value;
  // Prescribed translations (value is a displacement, or a velocity for TYPE=VELOCITY).
  std::vector<int> motion_node, motion_dof, motion_amp;
  std::vector<double> motion_value;
  std::vector<std::uint8_t> motion_velocity;
  // Prescribed rotations of rigid-body reference nodes in static steps (axis 0..2, radians;
  // the held ones without a value are only in fixed_rotation).
  std::vector<int> rotation_node, rotation_dof, rotation_amp;
  std::vector<double> rotation_value;
  // Rotational body forces (*DLOAD CENTRIF, ROTA; static steps): node, the node whose position
  // it takes (spin_from), axis (index into spin_axes), amplitude slot and value, a mass times
  // omega^2 or alpha: the node's lumped mass (from = node), or, on a kind with a consistent
  // mass, M_ab for each of its element's node pairs (a = node, b = from), so that the load is
  // int rho omega^2 r(x) N_a dV with r interpolated. spin_axes: 7 values per axis, a point,
  // the unit direction and the kind (0 CENTRIF, 1 ROTA). The force at x is value A(t)
  // (I - n n)(x - p) (CENTRIF) or -value A(t) n x (x - p) (ROTA): spin_force in
  // discretization/loads.hpp.
  std::vector<int> spin_node, spin_from, spin_axis, spin_amp;
  std::vector<double> spin_value, spin_axes;

  /// *TRANSFORM: the transformed nodes and their axes (9 values each, column c the local
  /// axis c at the reference position). Their fixed bits, motions and loads are local.
  std::vector<int> frame_node;
  std::vector<double> frame_q;

  std::vector<std::uint8_t> fixed_translation;  ///< per node: bit d = translation d held or prescribed
  std::vector<std::uint8_t> fixed_rotation;     ///< per node: bit d = rotation about global axis d held
  /// Per node: bit d = translation d held where the step starts (*BOUNDARY, FIXED; static
  /// steps hold it there, explicit ones hold it anyway); empty: no such dof.
  std::vector<std::uint8_t> keep_translation;
  std::vector<OutputRequest> outputs;
};

/// Axes of transform t at reference position x: q column c (q[3c..3c+2]) is local axis c in
/// global components. False where they are undefined (a C node on the axis, an S node at the
/// centre or on the polar axis).
bool transform_axes(const NodeTransform& t, const std::array<double, 3>& x, double q[9]);

/// Frames of the model's *TRANSFORMs per node (the last one per node), with the checks that
/// need the system: frame_of[n] indexes q (9 values each, transform_axes's layout), -1 for an
/// untransformed node. Throws InputError at the *TRANSFORM for a node it cannot take.
void node_frames(const Model& model, const StructureSystem& sys, std::vector<int>& frame_of, std::vector<double>& q);

/// The bulk viscosity in force in step `step` of model: the latest *BULK VISCOSITY up to it,
/// else Abaqus's 0.06, 1.2; 0, 0 in a static step.
BulkViscosityLine step_bulk_viscosity(const Model& model, std::size_t step);

/// Builds every step, carrying boundaries and loads forward as Abaqus does (OP=MOD unless
/// OP=NEW): a carried load keeps the value it had at the end of the previous step.
std::vector<StepLoads> build_step_loads(const Model& model, const StructureSystem& sys);

}  // namespace halfstep
