// The small-strain theory of a geometrically linear static step with plasticity
// (ContinuumOperator::small_strain_force and small_strain_matrices): its tangent is the
// derivative of its forces, it reduces to K(0) u for laws without state, and the plastic
// state converts between the small-strain and the finite-strain layouts without loss.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cantilever_deck.hpp"
#include "discretization/continuum_operator.hpp"
#include "io/inp_reader.hpp"
#include "operator_columns.hpp"
#include "materials/j2_plasticity.hpp"
#include "materials/solid_laws.hpp"

namespace halfstep {
namespace {

/// The deck's system with every material replaced by steel with linear hardening (J2: E 200e3,
/// nu 0.3, yield 250, H 1000), so that the displacements below yield most points.
StructureSystem plastic_system(const std::string& deck) {
  const Model model = read_inp(std::string(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/") + deck);
  StructureSystem sys = build_structure_system(model);
  const double E = 200e3, nu = 0.3;
  for (SolidMaterial<double>& m : sys.solid.materials) {
    m.model = law_id<J2Plastic>;
    m.lambda = E * nu / ((1 + nu) * (1 - 2 * nu));
    m.mu = E / (2 * (1 + nu));
    m.hardening_points = 2;
    m.yield_stress[0] = 250;
    m.yield_strain[0] = 0;
    m.yield_stress[1] = 1250;
    m.yield_strain[1] = 1;
  }
  sys.solid.state_size = kJ2StateSize;
  return sys;
}

double model_extent(const StructureSystem& sys) {
  double extent = 0;
  for (int n = 0; n < sys.num_nodes; ++n) extent = std::max({extent, std::fabs(sys.x0[n]), std::fabs(sys.y0[n])});
  return extent;
}

class SmallStrainDecks : public ::testing::TestWithParam<const char*> {};

// The consistent tangent of the small-strain return, from a state that has yielded already
// (the increment before, at half the displacements), against central differences of the forces.
TEST_P(SmallStrainDecks, PlasticTangentIsTheForceDerivative) {
  const StructureSystem sys = plastic_system(GetParam());
  const ContinuumOperator op(sys, 1);
  const double extent = model_extent(sys);
  // Strains of about 0.5 % whatever the model's size (smooth_field's gradients are O(scale)):
  // four times the yield strain.
  const std::vector<double> u = test::smooth_field(sys, 0.015);
  std::vector<double> half(u.size()), f;
  for (std::size_t k = 0; k < u.size(); ++k) half[k] = 0.5 * u[k];
  std::vector<double> old(static_cast<std::size_t>(kJ2StateSize) * sys.solid.num_points, 0.0), trial = old;
  double dissipated = 0;
  op.small_strain_force(half, f, nullptr, nullptr, old.data(), nullptr, nullptr, &dissipated);
  ASSERT_GT(dissipated, 0.0) << "the first increment should yield";
  op.small_strain_force(u, f, nullptr, old.data(), trial.data());
  int yielded = 0;
  for (std::size_t p = 0; p < sys.solid.num_points; ++p)
    yielded += trial[kJ2Alpha * sys.solid.num_points + p] > old[kJ2Alpha * sys.solid.num_points + p];
  ASSERT_GT(yielded, 0) << "the second increment should flow at some points";
  std::vector<double> k(op.matrix_offset(op.num_elements()));
  op.small_strain_matrices(u, k.data(), nullptr, old.data());
  const std::vector<int> probe = test::probe_dofs(op);
  ASSERT_GE(probe.size(), 4u);
  for (int j : probe) {
    const std::vector<double> col = test::assembled_column(op, k, j);
    const double h = 1e-7 * extent;
    std::vector<double> up = u, um = u, fp, fm;
    up[j] += h;
    um[j] -= h;
    op.small_strain_force(up, fp, nullptr, old.data(), nullptr);
    op.small_strain_force(um, fm, nullptr, old.data(), nullptr);
    double cmax = 0, err = 0;
    for (std::size_t i = 0; i < col.size(); ++i) {
      cmax = std::max(cmax, std::fabs(col[i]));
      err = std::max(err, std::fabs(col[i] - (fp[i] - fm[i]) / (2 * h)));
    }
    ASSERT_GT(cmax, 0.0);
    EXPECT_LT(err, 1e-6 * cmax) << GetParam() << " dof " << j;
  }
}

// Laws without state: the small-strain forces are K(0) u and their tangent is K(0), the
// linear step's own (linearized_force and the element matrices at the reference).
TEST_P(SmallStrainDecks, ElasticLawsGiveTheLinearStiffness) {
  const Model model = read_inp(std::string(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/") + GetParam());
  const StructureSystem sys = build_structure_system(model);
  const ContinuumOperator op(sys, 1);
  const std::vector<double> u = test::smooth_field(sys, 0.02 * model_extent(sys) / 3);
  std::vector<double> f_small, f_lin, k_small(op.matrix_offset(op.num_elements())), k_lin;
  const double w = op.small_strain_force(u, f_small, nullptr, nullptr, nullptr);
  const double w_lin = op.linearized_force(u, f_lin);
  double fmax = 0, ferr = 0;
  for (std::size_t i = 0; i < f_lin.size(); ++i) {
    fmax = std::max(fmax, std::fabs(f_lin[i]));
    ferr = std::max(ferr, std::fabs(f_small[i] - f_lin[i]));
  }
  EXPECT_LT(ferr, 1e-12 * fmax) << GetParam();
  EXPECT_NEAR(w, w_lin, 1e-10 * std::fabs(w_lin)) << GetParam();
  op.small_strain_matrices(u, k_small.data(), nullptr, nullptr);
  op.element_matrices(std::vector<double>(u.size(), 0.0), k_lin);
  double kmax = 0, kerr = 0;
  for (std::size_t i = 0; i < k_lin.size(); ++i) {
    kmax = std::max(kmax, std::fabs(k_lin[i]));
    kerr = std::max(kerr, std::fabs(k_small[i] - k_lin[i]));
  }
  EXPECT_LT(kerr, 1e-12 * kmax) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Continuum, SmallStrainDecks,
                         ::testing::Values("solid_c3d8r_svk.inp", "solid_c3d8_neo.inp", "solid_c3d4_ortho.inp",
                                           "solid_c3d10m_svk.inp", "plane_cpe4.inp", "plane_cpe4r.inp",
                                           "solid_c3d6_svk.inp", "axi_cylinder.inp", "static_c3d20.inp",
                                           "static_c3d20r.inp", "static_c3d10.inp"),
                         [](const ::testing::TestParamInfo<const char*>& i) {
                           std::string s = i.param;
                           return s.substr(0, s.find('.'));
                         });

// The plastic strain read from a finite-strain state and written back is the same tensor, and
// to first order eps_p = -(Cp^-1 - I) / 2.
TEST(SmallStrainState, PlasticStrainAndFiniteStrainStateConvertBothWays) {
  const double ep[6] = {0.02, -0.013, -0.007, 0.004, -0.003, 0.0025};
  double P[6], back[6];
  j2_state_of_plastic_strain(ep, P);
  j2_plastic_strain_of_state(P, back);
  for (int k = 0; k < 6; ++k) {
    EXPECT_NEAR(back[k], ep[k], 1e-15) << k;
    EXPECT_NEAR(P[k], -2 * ep[k], 4 * 0.02 * 0.02) << k;  // second order: 2 eps^2
  }
  // A uniaxial plastic stretch: Cp^-1 = exp(-2 eps_p) exactly on the axis.
  const double axial[6] = {0.05, -0.025, -0.025, 0, 0, 0};
  j2_state_of_plastic_strain(axial, P);
  EXPECT_NEAR(P[0], std::expm1(-0.1), 1e-16);
  EXPECT_NEAR(P[1], std::expm1(0.05), 1e-16);
  EXPECT_EQ(P[3], 0.0);
  const double zero[6] = {0, 0, 0, 0, 0, 0};
  j2_state_of_plastic_strain(zero, P);
  for (double v : P) EXPECT_EQ(v, 0.0);
}

}  // namespace
}  // namespace halfstep
