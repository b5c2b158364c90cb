// The CPU (OpenMP) element loop over solid elements: gathers each element's nodes, calls the
// element kind's host/device internal_force and stores the nodal forces per element node,
// so that the node pass can gather them in a fixed order (deterministic sums).
#pragma once

#include "elements/solid_kinds.hpp"
#include "discretization/structure_state.hpp"

namespace halfstep {

/// Internal forces of the solid elements in range at the state's displacements into
/// st.solid_force, st.solid_energy and st.solid_hourglass; returns the sums.
SolidEnergy<double> solid_element_pass(const SolidMesh& sm, const double* x0, const double* y0, const double* z0,
                                       StructureState& st, int threads, ElementRange range = ElementRange::All);

}  // namespace halfstep
