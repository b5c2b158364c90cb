// *VARIABLE MASS SCALING in a distributed run (issue 44 item 4). Each rank holds only its own
// elements, and rank 0 alone the whole system, so a re-evaluation gathers the elements'
// deformed bound ratios on rank 0, which rescales the whole system exactly as one process
// would (the same ratios, the same factors, the same bits), and every rank takes the new
// nodal masses and element increments of its own nodes and elements from it.
#pragma once

#include "discretization/mass_scaling.hpp"
#include "discretization/structure_state.hpp"
#include "parallel/communicator.hpp"
#include "solver/run_setup.hpp"

namespace halfstep {

/// One re-evaluation of scaler's definitions across the ranks of setup's distributed run (a
/// collective): st is this rank's state (displacements and velocities). setup.local's nodal
/// masses, inertias, damping, element increments, stable increment and total mass become the
/// whole model's new ones (and setup.whole's on rank 0). Returns the whole model's scaled
/// elements and added mass, and the kinetic energy the change gave the nodes, summed over the
/// nodes each rank owns (the same on every rank).
VariableScalingResult rescale_across_ranks(VariableMassScaler& scaler, RunSetup& setup, const StructureState& st,
                                           const Communicator& comm);

}  // namespace halfstep
