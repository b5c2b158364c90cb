// *VARIABLE MASS SCALING (discretization/mass_scaling, VariableMassScaler): a re-evaluation on
// the deformed mesh gives a squeezed element exactly the mass that brings its increment back to
// the target, takes it away again when the element recovers (never below the mass the
// definitions started from), scales a set by one factor with TYPE=UNIFORM, books the kinetic
// energy of the kept velocities, and a restart holds everything needed to go on.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>

#include "discretization/element_blocks.hpp"
#include "discretization/mass_scaling.hpp"
#include "discretization/stable_increment.hpp"
#include "discretization/structure_state.hpp"
#include "elements/bulk_viscosity.hpp"
#include "discretization/structure_system.hpp"
#include "io/inp_reader.hpp"

namespace halfstep {
namespace {

/// The continuum elements' position in block_families().
std::size_t solid_family() {
  const std::vector<const BlockFamily*>& families = block_families();
  for (std::size_t f = 0; f < families.size(); ++f)
    if (std::string(families[f]->what) == "solid") return f;
  return families.size();
}

// Three unit-section C3D8R in a row, 1, 1 and 0.1 long (rho = 1, E = 1000, nu = 0); nodes
// 1-4 at x = 0, 5-8 at x = 1, 9-12 at x = 2, 13-16 at x = 2.1.
const char* kBar = HALFSTEP_SOURCE_DIR "/tests/gpu/decks/mass_scaling_bar.inp";

double total(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

/// The bar with its *FIXED MASS SCALING line replaced by `line`, and no bulk viscosity unless
/// `bulk` (then the targets are the increments the step takes, with its factor 0.9418); with
/// `contact`, general contact of its exterior faces; with `constraints`, an *EQUATION (node
/// 5's y follows node 6's) and the short element's far face a rigid body about a new node 17.
Model bar_with(const std::string& line, bool bulk = false, bool contact = false, bool constraints = false) {
  std::ifstream in(kBar);
  std::stringstream text;
  text << in.rdbuf();
  std::string deck = text.str();
  const std::string fixed = "*FIXED MASS SCALING, DT=0.02";
  const std::size_t at = deck.find(fixed);
  EXPECT_NE(at, std::string::npos);
  deck.replace(at, fixed.size(), bulk ? line : line + "\n*BULK VISCOSITY\n0., 0.");
  if (contact) deck.replace(deck.find("*STEP"), 5, "*CONTACT\n*CONTACT INCLUSIONS, ALL EXTERIOR\n*STEP");
  if (constraints)
    deck.replace(deck.find("*STEP"), 5,
                 "*NODE\n17, 2.1, 0.5, 0.5\n*NSET, NSET=FAR\n13, 14, 15, 16\n*RIGID BODY, REF NODE=17, TIE NSET=FAR\n"
                 "*EQUATION\n2\n5, 2, 1.0, 6, 2, -1.0\n*STEP");
  return read_inp_string(deck, "mem/bar.inp");
}

std::string number(double x) {
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", x);
  return b;
}

/// The undeformed element increments of the bar.
std::vector<double> bar_increments() { return build_structure_system(read_inp(kBar)).solid.element_dt; }

/// Squeezes the middle element to half its length (the short one moves along, undeformed).
void squeeze_middle(StructureState& st) {
  for (int n = 8; n < 16; ++n) st.ux[static_cast<std::size_t>(n)] = -0.5;
}

TEST(VariableMassScaling, ASqueezedElementGetsExactlyTheMassThatRestoresTheTarget) {
  const std::vector<double> dt0 = bar_increments();
  const double target = 0.9 * dt0[0];  // above the short element's, below the others'
  ASSERT_LT(dt0[2], target);
  const Model model = bar_with("*VARIABLE MASS SCALING, DT=" + number(target) + ", FREQUENCY=10");
  StructureSystem sys = build_structure_system(model);
  const std::vector<double> mass0 = sys.mass;
  VariableMassScaler scaler(model, MassScalingResult{});
  scaler.begin_step(0, sys);
  ASSERT_TRUE(scaler.active());
  StructureState st;
  st.initialize(sys);

  // Undeformed: only the short element is below the target.
  VariableScalingResult r = scaler.rescale(sys, st);
  EXPECT_EQ(r.elements, 1);
  const double f3 = (target / dt0[2]) * (target / dt0[2]);
  EXPECT_NEAR(r.added_mass, (f3 - 1) * 0.1, 1e-12);
  EXPECT_NEAR(sys.solid.element_dt[2], target, 1e-14 * target);
  EXPECT_EQ(sys.solid.element_dt[1], dt0[1]);

  // Squeezed to half its length, the middle element falls below the target too.
  squeeze_middle(st);
  const std::vector<double> solid_ratio = deformed_bound_ratios(sys, st).at(solid_family());
  ASSERT_LT(dt0[1] * solid_ratio[1], target);
  EXPECT_EQ(solid_ratio[0], 1.0);
  EXPECT_NEAR(solid_ratio[2], 1.0, 1e-14);
  r = scaler.rescale(sys, st);
  EXPECT_EQ(r.elements, 2);
  const double f2 = (target / (dt0[1] * solid_ratio[1])) * (target / (dt0[1] * solid_ratio[1]));
  EXPECT_NEAR(r.added_mass, (f2 - 1) * 1.0 + (f3 - 1) * 0.1, 1e-12);
  EXPECT_NEAR(total(sys.mass) - total(mass0), r.added_mass, 1e-12);
  EXPECT_NEAR(sys.total_mass - 2.1, r.added_mass, 1e-12);
  // Its increment on the deformed mesh is the target again, and so the model's.
  EXPECT_NEAR(sys.solid.element_dt[1] * solid_ratio[1], target, 1e-14 * target);
  EXPECT_NEAR(deformed_stable_dt(sys, st).first, target, 1e-14 * target);
  // Nodes 1-4 belong to the first element only: untouched. Nodes 5-8 get an eighth of the
  // middle element's added mass, nodes 9-12 an eighth of both.
  for (int n = 0; n < 4; ++n) EXPECT_EQ(sys.mass[static_cast<std::size_t>(n)], mass0[static_cast<std::size_t>(n)]);
  EXPECT_NEAR(sys.mass[4] - mass0[4], (f2 - 1) / 8, 1e-13);
  EXPECT_NEAR(sys.mass[8] - mass0[8], (f2 - 1) / 8 + (f3 - 1) * 0.1 / 8, 1e-13);

  // Back to its own length, the middle element loses the mass again; none goes below the base.
  st.ux.assign(st.ux.size(), 0.0);
  r = scaler.rescale(sys, st);
  EXPECT_EQ(r.elements, 1);
  EXPECT_NEAR(r.added_mass, (f3 - 1) * 0.1, 1e-12);
  EXPECT_EQ(sys.solid.element_dt[1], dt0[1]);
  EXPECT_EQ(sys.mass[4], mass0[4]);
  for (std::size_t n = 0; n < mass0.size(); ++n) EXPECT_GE(sys.mass[n], mass0[n]) << n;
}

// With the default bulk viscosity the target is the increment the step takes: the short
// element's undamped increment times sqrt(1 + 0.06^2) - 0.06.
TEST(VariableMassScaling, TheTargetIsTheIncrementWithTheBulkViscosityFactor) {
  const std::vector<double> dt0 = bar_increments();
  const double target = 0.9 * dt0[0], k = bulk_viscosity_dt_factor(0.06);
  const Model model = bar_with("*VARIABLE MASS SCALING, DT=" + number(target) + ", FREQUENCY=10", true);
  StructureSystem sys = build_structure_system(model);
  VariableMassScaler scaler(model, MassScalingResult{});
  scaler.begin_step(0, sys);
  StructureState st;
  st.initialize(sys);
  const VariableScalingResult r = scaler.rescale(sys, st);
  EXPECT_EQ(r.elements, 1);  // the others' damped increments, 0.9418 of theirs, stay above 0.9 of it
  EXPECT_NEAR(sys.solid.element_dt[2] * k, target, 1e-14 * target);
  EXPECT_NEAR(deformed_stable_dt(sys, st, 0.06).first, target, 1e-14 * target);
  EXPECT_NEAR(bulk_stable_dt(sys, 0.06), target, 1e-14 * target);
}

TEST(VariableMassScaling, UniformScalesTheWholeSetByOneFactor) {
  const std::vector<double> dt0 = bar_increments();
  const double target = 0.9 * dt0[0];
  const Model model = bar_with("*VARIABLE MASS SCALING, DT=" + number(target) + ", TYPE=UNIFORM, NUMBER INTERVAL=4");
  StructureSystem sys = build_structure_system(model);
  const std::vector<double> mass0 = sys.mass;
  VariableMassScaler scaler(model, MassScalingResult{});
  scaler.begin_step(0, sys);
  StructureState st;
  st.initialize(sys);
  squeeze_middle(st);
  const VariableScalingResult r = scaler.rescale(sys, st);
  EXPECT_EQ(r.elements, 3);
  // The short element sets the factor: every mass grows by it, the model's increment is the target.
  const double f = (target / dt0[2]) * (target / dt0[2]);
  for (std::size_t n = 0; n < mass0.size(); ++n) EXPECT_NEAR(sys.mass[n], f * mass0[n], 1e-12 * f * mass0[n]) << n;
  for (std::size_t e = 0; e < dt0.size(); ++e)
    EXPECT_NEAR(sys.solid.element_dt[e], std::sqrt(f) * dt0[e], 1e-14 * target) << e;
  EXPECT_NEAR(deformed_stable_dt(sys, st).first, target, 1e-14 * target);
}

// Contact's penalty springs are scaled by the masses of the nodes they join: a uniform factor f
// on every mass multiplies every spring's mass by f (node-to-facet and edge records), so the
// springs keep their frequency margin against the increment, which grows by sqrt(f).
TEST(VariableMassScaling, ContactSpringsTakeTheScaledMasses) {
  const std::vector<double> dt0 = bar_increments();
  const double target = 0.9 * dt0[0];
  const Model model =
      bar_with("*VARIABLE MASS SCALING, DT=" + number(target) + ", TYPE=UNIFORM, FREQUENCY=10", false, true);
  StructureSystem sys = build_structure_system(model);
  ASSERT_FALSE(sys.contact.empty());
  const std::vector<double> springs0 = sys.contact.spring_mass, edges0 = sys.contact.edge_spring_mass;
  ASSERT_FALSE(springs0.empty());
  VariableMassScaler scaler(model, MassScalingResult{});
  scaler.begin_step(0, sys);
  StructureState st;
  st.initialize(sys);
  const VariableScalingResult r = scaler.rescale(sys, st);
  EXPECT_EQ(r.elements, 3);
  const double f = (target / dt0[2]) * (target / dt0[2]);
  ASSERT_GT(f, 1.5);
  ASSERT_EQ(sys.contact.spring_mass.size(), springs0.size());
  for (std::size_t i = 0; i < springs0.size(); ++i)
    EXPECT_NEAR(sys.contact.spring_mass[i], f * springs0[i], 1e-12 * f * springs0[i]) << i;
  ASSERT_EQ(sys.contact.edge_spring_mass.size(), edges0.size());
  for (std::size_t i = 0; i < edges0.size(); ++i)
    EXPECT_NEAR(sys.contact.edge_spring_mass[i], f * edges0[i], 1e-12 * f * edges0[i]) << i;
}

// The tie's handed masses and the rigid body's mass, first moment and inertia are sums of the
// nodal masses: a uniform factor f on every mass multiplies each of them by f.
TEST(VariableMassScaling, ConstraintAndBodyMassesTakeTheScaledMasses) {
  const std::vector<double> dt0 = bar_increments();
  const double target = 0.9 * dt0[0];
  const Model model =
      bar_with("*VARIABLE MASS SCALING, DT=" + number(target) + ", TYPE=UNIFORM, FREQUENCY=10", false, false, true);
  StructureSystem sys = build_structure_system(model);
  ASSERT_FALSE(sys.constraints.empty());
  ASSERT_EQ(sys.bodies.num_bodies, 1);
  const LinearConstraints c0 = sys.constraints;
  const RigidBodies b0 = sys.bodies;
  VariableMassScaler scaler(model, MassScalingResult{});
  scaler.begin_step(0, sys);
  StructureState st;
  st.initialize(sys);
  scaler.rescale(sys, st);
  const double f = (target / dt0[2]) * (target / dt0[2]);
  ASSERT_GT(f, 1.5);
  const auto scaled = [&](const std::vector<double>& now, const std::vector<double>& before, const char* what) {
    ASSERT_EQ(now.size(), before.size()) << what;
    for (std::size_t i = 0; i < now.size(); ++i)
      EXPECT_NEAR(now[i], f * before[i], 1e-12 * (1 + std::fabs(f * before[i]))) << what << " " << i;
  };
  scaled(sys.constraints.mass3, c0.mass3, "mass3");
  // Node 6 (index 5) carries node 5's (index 4) y mass beside its own, both scaled.
  EXPECT_NEAR(sys.constraints.mass3[3 * 5 + 1], sys.mass[5] + sys.mass[4], 1e-12);
  scaled(sys.bodies.mass, b0.mass, "body mass");
  scaled(sys.bodies.first_moment, b0.first_moment, "first moment");
  scaled(sys.bodies.inertia, b0.inertia, "inertia");
}

TEST(VariableMassScaling, TheKeptVelocitiesBringTheirKineticEnergy) {
  const std::vector<double> dt0 = bar_increments();
  const Model model = bar_with("*VARIABLE MASS SCALING, DT=" + number(2 * dt0[0]) + ", FREQUENCY=1, ELSET=BAR");
  StructureSystem sys = build_structure_system(model);
  VariableMassScaler scaler(model, MassScalingResult{});
  scaler.begin_step(0, sys);
  StructureState st;
  st.initialize(sys);
  for (auto& v : st.v[0]) v = 2.0;  // a rigid motion at 2 along x
  const VariableScalingResult r = scaler.rescale(sys, st);
  EXPECT_EQ(r.elements, 3);
  EXPECT_NEAR(r.added_kinetic, 0.5 * r.added_mass * 4.0, 1e-12 * r.added_mass);
  // New definitions start from the scaled masses: the same target adds nothing more.
  scaler.begin_step(0, sys);
  EXPECT_EQ(scaler.rescale(sys, st).added_kinetic, 0.0);
}

TEST(VariableMassScaling, ALineWithoutDtEndsTheDefinitionsAndKeepsTheMasses) {
  const std::vector<double> dt0 = bar_increments();
  Model model = bar_with("*VARIABLE MASS SCALING, DT=" + number(0.9 * dt0[0]) + ", FREQUENCY=1");
  Step second = model.steps[0];
  second.variable_mass_scaling.resize(1);
  second.variable_mass_scaling[0].scaling.dt = 0;  // as "*VARIABLE MASS SCALING" alone reads
  model.steps.push_back(second);
  Step third = model.steps[0];
  third.variable_mass_scaling.clear();
  model.steps.push_back(third);
  StructureSystem sys = build_structure_system(model);
  VariableMassScaler scaler(model, MassScalingResult{});
  scaler.begin_step(0, sys);
  StructureState st;
  st.initialize(sys);
  scaler.rescale(sys, st);
  const std::vector<double> scaled = sys.mass;
  scaler.begin_step(1, sys);
  EXPECT_FALSE(scaler.active());
  EXPECT_EQ(sys.mass, scaled);
  scaler.begin_step(2, sys);  // a step without the keyword: nothing in force comes back
  EXPECT_FALSE(scaler.active());
}

TEST(VariableMassScaling, ARestartHoldsTheMassesAndTheBase) {
  const std::vector<double> dt0 = bar_increments();
  const Model model = bar_with("*VARIABLE MASS SCALING, DT=" + number(0.9 * dt0[0]) + ", FREQUENCY=1");
  StructureSystem sys = build_structure_system(model);
  VariableMassScaler scaler(model, MassScalingResult{});
  scaler.begin_step(0, sys);
  StructureState st;
  st.initialize(sys);
  squeeze_middle(st);
  scaler.rescale(sys, st);
  scaler.totals.evaluations = 7;
  RestartBlob blob;
  scaler.save(blob, sys);
  const RestartBlob back = RestartBlob::parse(blob.serialize(), "mem.restart");

  StructureSystem fresh = build_structure_system(model);
  VariableMassScaler resumed(model, MassScalingResult{});
  resumed.load(back, fresh);
  EXPECT_TRUE(resumed.active());
  EXPECT_EQ(resumed.totals.evaluations, 7);
  EXPECT_EQ(fresh.mass, sys.mass);
  EXPECT_EQ(fresh.inertia, sys.inertia);
  EXPECT_EQ(fresh.solid.element_dt, sys.solid.element_dt);
  EXPECT_EQ(fresh.stable_dt, sys.stable_dt);
  // Both go on alike: back to the undeformed mesh, both drop the middle element's mass.
  st.ux.assign(st.ux.size(), 0.0);
  const VariableScalingResult a = scaler.rescale(sys, st), b = resumed.rescale(fresh, st);
  EXPECT_EQ(a.added_mass, b.added_mass);
  EXPECT_EQ(a.added_kinetic, b.added_kinetic);
  EXPECT_EQ(fresh.mass, sys.mass);
}

}  // namespace
}  // namespace halfstep
