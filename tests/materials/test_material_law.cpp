// The material-law interface: elastic laws carry no state and evaluate() is their stress;
// PointState layout (component-major, elements' points contiguous) and carrying state by
// element between a whole-model store and a subdomain's share.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "elements/rotation.hpp"
#include "materials/material_law.hpp"

namespace halfstep {
namespace {

const Mat3<double> kF{{1.12, 0.07, -0.04, -0.05, 0.93, 0.09, 0.03, -0.06, 1.05}};

std::vector<SolidMaterial<double>> all_materials() {
  const double eng[9] = {140e3, 10e3, 10e3, 0.3, 0.3, 0.45, 5e3, 5e3, 3.4e3};
  return {svk_isotropic(200e3, 0.3, 7.8e-9), neo_hookean(80.194, 4.9867e-4, 1e-9),
          orthotropic_engineering(eng, 1.6e-9, rotation_matrix(Vec3<double>{0.3, 0.5, 0.1})),
          neo_hookean_log(80.194, 4.9867e-4, 1e-9)};
}

TEST(MaterialLaw, ElasticLawsCarryNoState) {
  EXPECT_EQ(state_size(law_id<SvkIsotropic>), 0);
  EXPECT_EQ(state_size(law_id<SvkOrthotropic>), 0);
  EXPECT_EQ(state_size(law_id<NeoHookean>), 0);
  EXPECT_EQ(state_size(law_id<NeoHookeanLog>), 0);
  EXPECT_EQ(state_size(17), -1);
  for (const auto& m : all_materials()) EXPECT_EQ(state_size(m), 0) << m.model;
}

TEST(MaterialLaw, EachConstructorPicksItsLawAndTheSwitchReachesIt) {
  const double table[2] = {250.0, 300.0}, strains[2] = {0.0, 0.1};
  const SolidMaterial<double> j2 = j2_plastic(200e3, 0.3, 7.8e-9, table, strains, 2);
  const std::vector<SolidMaterial<double>> ms = all_materials();
  // all_materials' order: isotropic, Neo-Hooke, orthotropic, Neo-Hooke (log).
  EXPECT_TRUE(law_is<SvkIsotropic>(ms[0]));
  EXPECT_TRUE(law_is<NeoHookean>(ms[1]));
  EXPECT_TRUE(law_is<SvkOrthotropic>(ms[2]));
  EXPECT_TRUE(law_is<NeoHookeanLog>(ms[3]));
  EXPECT_TRUE(law_is<J2Plastic>(j2));
  // visit_material hands each material its own law: the law's stress is solid_stress's.
  for (const auto& m : ms) {
    const SolidStress<double> direct = solid_stress(m, kF);
    const SolidStress<double> visited = visit_material(m, [&](auto law) { return decltype(law)::stress(m, kF); });
    EXPECT_EQ(direct.energy, visited.energy) << m.model;
    const bool constant = visit_material(m, [](auto law) { return decltype(law)::kConstantTangent; });
    EXPECT_EQ(constant, law_is<SvkIsotropic>(m) || law_is<SvkOrthotropic>(m)) << m.model;
  }
  // Only the plastic law has state and a PEEQ component; an unknown id runs the first law.
  EXPECT_EQ(state_size(j2), kJ2StateSize);
  EXPECT_EQ(peeq_component(j2), kJ2Alpha);
  for (const auto& m : ms) EXPECT_EQ(peeq_component(m), -1) << m.model;
  SolidMaterial<double> unknown = ms[0];
  unknown.model = 17;
  EXPECT_EQ(solid_stress(unknown, kF).energy, solid_stress(ms[0], kF).energy);
}

TEST(MaterialLaw, ConstantTangentsAreTheDualTangentsOfTheStress) {
  // The two St. Venant-Kirchhoff laws give their tangent in closed form; it must be what
  // differentiating their stress gives.
  const std::vector<SolidMaterial<double>> ms = all_materials();
  for (const SolidMaterial<double>& m : {ms[0], ms[2]}) {
    double C[6][6], D[6][6];
    solid_tangent(m, kF, C);
    solid_stress_and_tangent_dual(m, kF, D);
    double scale = 0;
    for (auto& row : D)
      for (double d : row) scale = std::max(scale, std::abs(d));
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) EXPECT_NEAR(C[i][j], D[i][j], 1e-12 * scale) << m.model << " " << i << j;
  }
}

TEST(MaterialLaw, EvaluateIsTheElasticStressAndLeavesStateAlone) {
  // A store with room for state: an elastic law must neither read nor write it.
  PointState old_state({2}, 3), new_state({2}, 3);
  for (std::size_t i = 0; i < new_state.values().size(); ++i) new_state.values()[i] = 100.0 + static_cast<double>(i);
  const std::vector<double> before = new_state.values();
  for (const auto& m : all_materials()) {
    const SolidStress<double> s = solid_stress(m, kF);
    const SolidStress<double> e = evaluate(m, kF, old_state.slice(1), new_state.slice(1));
    double C[6][6], Ct[6][6];
    const SolidStress<double> t = evaluate_with_tangent(m, kF, old_state.slice(1), new_state.slice(1), C);
    solid_tangent(m, kF, Ct);
    for (int k = 0; k < 9; ++k) {
      EXPECT_EQ(e.S.a[k], s.S.a[k]) << m.model;
      EXPECT_EQ(t.S.a[k], s.S.a[k]) << m.model;
    }
    EXPECT_EQ(e.energy, s.energy);
    EXPECT_EQ(t.energy, s.energy);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) EXPECT_EQ(C[i][j], Ct[i][j]) << m.model;
    // An empty slice is what a state_size-0 law gets from a store with no components.
    const SolidStress<double> z = evaluate(m, kF, StateSlice<const double>{}, StateSlice<double>{});
    EXPECT_EQ(z.energy, s.energy);
  }
  EXPECT_EQ(new_state.values(), before);
}

TEST(PointState, ComponentMajorWithEachElementsPointsContiguous) {
  const std::vector<int> counts = {8, 1, 4, 1};  // C3D8, C3D8R, C3D10M, C3D4
  PointState st(counts, 3);
  EXPECT_EQ(st.num_elements(), 4u);
  EXPECT_EQ(st.num_points(), 14u);
  EXPECT_EQ(st.components(), 3);
  EXPECT_EQ(st.values().size(), 42u);
  EXPECT_EQ(st.first_point(0), 0u);
  EXPECT_EQ(st.first_point(1), 8u);
  EXPECT_EQ(st.first_point(2), 9u);
  EXPECT_EQ(st.first_point(3), 13u);
  EXPECT_EQ(st.point(2, 3), 12u);
  for (int e = 0; e < 4; ++e) EXPECT_EQ(st.points_of(e), counts[static_cast<std::size_t>(e)]);
  for (double v : st.values()) EXPECT_EQ(v, 0.0);
  // Component c of point p is values[c * num_points + p], through every accessor.
  st(2, st.point(2, 1)) = 7.5;
  EXPECT_EQ(st.values()[2 * 14 + 10], 7.5);
  StateSlice<double> s = st.slice(10);
  EXPECT_EQ(s[2], 7.5);
  s[1] = -3.0;
  EXPECT_EQ(st.values()[1 * 14 + 10], -3.0);
  const PointState& cst = st;
  EXPECT_EQ(cst.slice(10)[1], -3.0);
  EXPECT_EQ(&cst.slice(10)[1], &st(1, 10));
  // No components: the points are still counted, there is nothing to store.
  const PointState none(counts, 0);
  EXPECT_EQ(none.num_points(), 14u);
  EXPECT_TRUE(none.values().empty());
  EXPECT_EQ(PointState().num_points(), 0u);
  EXPECT_THROW(PointState({1, -1}, 2), std::invalid_argument);
  EXPECT_THROW(PointState({1}, -2), std::invalid_argument);
}

TEST(PointState, PartitioningCarriesStateByElement) {
  const std::vector<int> counts = {8, 1, 4, 1, 8};
  PointState whole(counts, 2);
  for (int c = 0; c < 2; ++c)
    for (std::size_t p = 0; p < whole.num_points(); ++p) whole(c, p) = 1000.0 * c + static_cast<double>(p);
  // A subdomain with global elements 3, 0, 2 as its local 0, 1, 2.
  const std::vector<int> local = {3, 0, 2};
  PointState part = whole.select(local);
  EXPECT_EQ(part.num_elements(), 3u);
  EXPECT_EQ(part.num_points(), 13u);
  for (std::size_t k = 0; k < local.size(); ++k) {
    const int e = local[k];
    ASSERT_EQ(part.points_of(static_cast<int>(k)), whole.points_of(e));
    for (int c = 0; c < 2; ++c)
      for (int g = 0; g < whole.points_of(e); ++g)
        EXPECT_EQ(part(c, part.point(static_cast<int>(k), g)), whole(c, whole.point(e, g)));
  }
  // The subdomain updates its state; collecting it changes exactly those elements.
  for (double& v : part.values()) v = -v - 1;
  PointState collected = whole;
  collected.assign(local, part);
  for (int e = 0; e < 5; ++e)
    for (int c = 0; c < 2; ++c)
      for (int g = 0; g < whole.points_of(e); ++g) {
        const double w = whole(c, whole.point(e, g));
        const bool moved = e == 3 || e == 0 || e == 2;
        EXPECT_EQ(collected(c, collected.point(e, g)), moved ? -w - 1 : w) << e << " " << c << " " << g;
      }
  // Lists that do not match the part are refused, and nothing is half written: element 4
  // has 8 points where the part's third element has 4, after two that match.
  const std::vector<double> kept = collected.values();
  EXPECT_THROW(collected.assign({3, 0}, part), std::invalid_argument);
  EXPECT_THROW(collected.assign({3, 0, 4}, part), std::invalid_argument);
  EXPECT_EQ(collected.values(), kept);
}

}  // namespace
}  // namespace halfstep
