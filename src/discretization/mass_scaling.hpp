// *FIXED MASS SCALING: element densities raised once, before the run, so that the stable
// increment reaches a target (or by a fixed factor); the added mass is reported.
#pragma once

#include <vector>

#include "discretization/structure_system.hpp"
#include "model/model.hpp"

namespace halfstep {

/// What fixed mass scaling did to a model.
struct MassScalingResult {
  int elements = 0;           ///< elements whose density was scaled
  double added_mass = 0;      ///< mass added to the model
  double stable_dt_before = 0, stable_dt_after = 0;
};

/// Scales the densities of the elements each MassScaling names (in order): by its FACTOR,
/// then, with DT, element by element up to the target increment (BELOW MIN) or with one factor
/// for the set (UNIFORM). Each element's added mass goes to its nodes in the element's own
/// lumped-mass proportions; nodal rotary inertia and mass-proportional damping grow with the
/// nodal mass; the element increments and sys.stable_dt follow. Shells (MITC4) and continuum
/// elements are scaled; an FPM beam or triangle in the set is an InputError at the keyword.
MassScalingResult apply_fixed_mass_scaling(const Model& model, const std::vector<MassScaling>& scalings,
                                           StructureSystem& sys);

/// The deck's *FIXED MASS SCALING applied to sys: the first explicit step's lines (InputError
/// for lines in a static step or a later explicit step: masses are set once, at the start).
MassScalingResult apply_deck_mass_scaling(const Model& model, StructureSystem& sys);

}  // namespace halfstep
