// The quantities a run publishes for output, as named arrays (results/field_set.hpp): the
// nodal motion and reactions, and each element family's cell results. Element physics for
// output lives here, next to the element data, so the writers only write arrays.
#pragma once

#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "model/model.hpp"
#include "results/field_set.hpp"

namespace halfstep {

/// The result mesh of a system: its reference nodes and one VTK cell per element, shells
/// first, then the continuum groups in order (each kind's VTK type from the registry).
ResultMesh result_mesh(const StructureSystem& sys);

/// Nodal arrays NodeId, U, UR (rotation vector from the reference triad r1 in st), V, VR, RF,
/// RM of a whole-model system (and kNodalForceArray where full has nf); with cells, also the cell arrays (ElementId, the shell section
/// results SF, SM, S/E top and bottom, Mises top and bottom when there are shells, the solid
/// S, E (symmetric tensors in Abaqus's order; the .vtu writer puts them in VTK's), Mises and
/// HourglassEnergyDensity when there are continuum elements, PEEQ with a
/// plastic law (shells: the through-thickness maximum), and StrainEnergyDensity). A family's
/// arrays are NaN on the other family's cells. With nodes (a compact frame, OutputFrame::nodes),
/// st's and full's node rows (r1 too) hold those nodes only, and so do the point arrays, which
/// are then only NodeId, U, UR, V, VR, RF and RM (what history rows read); cells must be false.
/// small_strain: a geometrically linear static step's frame (*STEP, NLGEOM=NO): the solid S
/// and E, the shell section results and the axial forces are the small-strain ones (linear in
/// the displacements and rotations, solid_cell_results), not the finite-strain measures.
/// points (with cells): also the solids' S, E and PEEQ at their integration points
/// (FieldSet::ip, solid_point_results), for the tables that print them. body_turn (3 per
/// rigid body, OutputFrame::body_turn): the bodies' UR as given, not from st.body_rotation.
FieldSet output_fields(const Model& model, const StructureSystem& sys, const StructureState& st,
                       const FullStepFields& full, bool cells, const std::vector<int>* nodes = nullptr,
                       bool small_strain = false, bool points = false,
                       const std::vector<double>* body_turn = nullptr);

}  // namespace halfstep
