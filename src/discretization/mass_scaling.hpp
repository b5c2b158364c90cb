// *FIXED MASS SCALING: element densities raised once, before the run, so that the stable
// increment reaches a target (or by a fixed factor); the added mass is reported.
// *VARIABLE MASS SCALING: the same rules applied again during a step, on the deformed mesh.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/restart_blob.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/structure_system.hpp"
#include "model/model.hpp"

namespace halfstep {

/// What fixed mass scaling did to a model.
struct MassScalingResult {
  int elements = 0;           ///< elements whose density was scaled
  double added_mass = 0;      ///< mass added to the model
  double stable_dt_before = 0, stable_dt_after = 0;
  /// Elements a line without ELSET left unscaled because mass scaling does not scale their
  /// family (FPM beams and triangles), and those families ("beam,FPM triangle").
  int skipped = 0;
  std::string skipped_what;
  /// Per model element: its density factor (empty when nothing was scaled).
  std::vector<double> factor;
};

/// Scales the densities of the elements each MassScaling names (in order): by its FACTOR,
/// then, with DT, element by element up to the target increment (BELOW MIN) or with one factor
/// for the set (UNIFORM). Each element's added mass goes to its nodes in the element's own
/// lumped-mass proportions; nodal rotary inertia and mass-proportional damping grow with the
/// nodal mass; the element increments, what the system derived from the masses
/// (rebuild_mass_dependents: constraints, rigid bodies, contact springs, the springs' and
/// dashpots' increments) and sys.stable_dt follow. The families with a density
/// (BlockFamily::has_density: shells and continuum elements) are scaled; an element of
/// another (FPM beams and triangles) in the set is an InputError at the keyword. A line
/// without ELSET scales the model's elements of those families and counts the others as
/// skipped; when it would scale none at all, it is an InputError. bulk_linear: the step's
/// linear bulk viscosity, whose factor the increments of the kinds that take it carry when
/// they are compared with a target (the target is the increment the step will take).
MassScalingResult apply_fixed_mass_scaling(const Model& model, const std::vector<MassScaling>& scalings,
                                           StructureSystem& sys, double bulk_linear = 0.0);

/// The deck's *FIXED MASS SCALING applied to sys: the first explicit step's lines (InputError
/// for lines in a static step or a later explicit step: masses are set once, at the start).
MassScalingResult apply_deck_mass_scaling(const Model& model, StructureSystem& sys);

/// What one *VARIABLE MASS SCALING re-evaluation left.
struct VariableScalingResult {
  int elements = 0;          ///< elements heavier than at the definitions' start
  double added_mass = 0;     ///< the mass they carry beyond that
  double added_kinetic = 0;  ///< kinetic energy the change gave the kept velocities (may be < 0)
};

/// The kinetic energy node n of sys gains with st's velocities when its mass and rotary
/// inertia (sys.mass, sys.inertia: still the old ones) become mass and inertia.
double added_kinetic_energy(const StructureSystem& sys, const StructureState& st, int n, double mass, double inertia);

/// Refuses *VARIABLE MASS SCALING where the run cannot apply it (InputError at its line): in a
/// static step, with FPM beams or triangles in the set, or with lines of one step that are
/// re-evaluated at different times.
void check_variable_mass_scaling(const Model& model, const StructureSystem& sys);

/// *VARIABLE MASS SCALING during a run: the definitions in force, the masses and undeformed
/// increments they scale from (those of the step that gave them, so a later re-evaluation may
/// lower a mass again but never below that), and each element's factor now.
class VariableMassScaler {
 public:
  /// fixed: what *FIXED MASS SCALING did to the system before the run (its element factors).
  VariableMassScaler(const Model& model, const MassScalingResult& fixed);
  /// Whether definitions are in force.
  bool active() const { return step_ >= 0; }
  /// Whether some step of the deck has *VARIABLE MASS SCALING lines (the masses may change
  /// during the run).
  bool in_deck() const { return in_deck_; }
  /// The lines in force (empty when none).
  const std::vector<VariableMassScaling>& definitions() const;
  /// At the start of explicit step `step`: its *VARIABLE MASS SCALING lines, if any, replace
  /// those in force (from sys's masses now), or end them (a line without DT); masses stay.
  void begin_step(int step, const StructureSystem& sys);
  /// The same for a distributed run's ranks other than 0, which hold no whole system: only
  /// which lines are in force (rank 0 rescales and sends them the masses).
  void follow_step(int step);
  /// Re-evaluates every factor on the mesh deformed by st (displacements) and writes the new
  /// nodal masses, inertias, damping and undeformed element increments into sys (with the
  /// contact springs', constraints' and rigid bodies' masses made from them); the kinetic
  /// energy change is taken with st's velocities.
  VariableScalingResult rescale(StructureSystem& sys, const StructureState& st);
  /// The same with the families' deformed bound ratios given (deformed_bound_ratios' layout
  /// for sys: a distributed run's rank 0 gathers them from the ranks that hold the elements);
  /// the added kinetic energy is taken with st's velocities when st is given, else left 0.
  VariableScalingResult rescale_with(StructureSystem& sys, const std::vector<std::vector<double>>& ratio,
                                     const StructureState* st);
  /// What the run's re-evaluations did, for the summary (kept in restarts): how many, the
  /// elements scaled by the latest, the mass added since the run started (the fixed scaling's
  /// not counted) now and at most, and the smallest increment they gave.
  struct Totals {
    std::int64_t evaluations = 0, elements = 0;
    double added_mass = 0, added_mass_max = 0, smallest_increment = 0;
  };
  Totals totals;

  /// Restart: the definitions in force, their base, the factors and sys's scaled arrays.
  void save(RestartBlob& blob, const StructureSystem& sys) const;
  /// Restart: what save stored, into this scaler and sys.
  void load(const RestartBlob& blob, StructureSystem& sys);
  /// The one list of what a restart holds, walked by save and load (self and sys const or
  /// not): f(section, array, the size it must have or -1) and g(section, value).
  template <class Self, class Sys, class Arrays, class Values>
  static void for_each_restart_item(Self& self, Sys& sys, Arrays&& f, Values&& g);

 private:
  /// The scalable elements of each line in force and their base increments and masses.
  void prepare(const StructureSystem& sys);
  /// Sets model element i's undeformed increment in sys to its base one times scale (nothing
  /// for elements mass scaling does not scale).
  void set_element_dt(StructureSystem& sys, std::size_t i, double scale) const;
  /// What other parts of sys keep of the nodal masses (contact springs, constraint and rigid
  /// body masses), made again from sys.mass and sys.inertia.
  void rebuild_mass_copies(StructureSystem& sys) const;

  const Model& model_;
  int step_ = -1;  ///< the step whose lines are in force; -1: none
  bool in_deck_ = false;  ///< some step of the deck has *VARIABLE MASS SCALING lines
  /// Per model element: its density factor over the model's at the base, and its factor over
  /// the base now.
  std::vector<double> base_density_, factor_;
  std::vector<double> base_mass_, base_inertia_, base_damp_, base_damp_rot_;  ///< per node
  /// Per element family (block_families() order): its undeformed element increments.
  std::vector<std::vector<double>> base_dt_;
  double base_total_mass_ = 0;
  // Derived by prepare(): each line's scalable model elements; per model element its family
  // (block_families() index, -1: not scalable), its index there and its nodes' shares of its
  // base mass (CSR).
  std::vector<std::vector<int>> members_;
  std::vector<int> family_of_, index_of_;
  std::vector<int> share_ptr_, share_node_;
  std::vector<double> share_mass_;
};

}  // namespace halfstep
