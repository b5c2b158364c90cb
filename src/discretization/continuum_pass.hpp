// The host (OpenMP) continuum element pass: continuum_element over every element of a range
// into the per-slot force buffer, the one loop the CPU backend and the ContinuumOperator
// share (the CUDA kernels run the same body, backends/cuda/solid_kernels.cuh).
#pragma once

#include "discretization/continuum_element.hpp"
#include "discretization/solid_mesh.hpp"

namespace halfstep {

/// Forces of the continuum elements of sm in range at displacements (ux, uy, uz): 3 values per
/// conn position into slot_force, energies per element into energy and hourglass; returns
/// the sums. x0, y0, z0: reference coordinates. state: the per-point material state
/// (StructureState::solid_state), advanced in place to these displacements; null when no
/// law has state. vel: the nodal velocities (x, y, z arrays) for the kinds that use them
/// (dashpots) and the bulk viscosity; null: none (static steps), those kinds then carry no
/// force. bulk_linear, bulk_quadratic: the step's bulk viscosity (explicit steps; 0 none);
/// half_dt: ContinuumView::half_dt; thermal: per element its temperature change
/// (ContinuumView::thermal; null: none); state_old: the state to read instead of `state`
/// (ContinuumView::state_old; `state` then receives the new state, or nothing when null).
SolidEnergy<double> continuum_pass(const SolidMesh& sm, const double* x0, const double* y0, const double* z0,
                                   const double* ux, const double* uy, const double* uz, double* slot_force,
                                   double* energy, double* hourglass, int threads,
                                   ElementRange range = ElementRange::All, double* state = nullptr,
                                   const double* const* vel = nullptr, double bulk_linear = 0.0,
                                   double bulk_quadratic = 0.0, double half_dt = 0.0,
                                   const double* thermal = nullptr, const double* state_old = nullptr,
                                   double* thermal_last = nullptr, double* thermal_slope = nullptr);

}  // namespace halfstep
