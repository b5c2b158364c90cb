// Element matrices by lanes of derivatives (discretization/element_columns.hpp): DualLanes<L>
// evaluates L columns at once and must give the numbers of one Dual<double> evaluation per
// column, for every continuum kind and stateless law of the operator decks (the laws with
// state keep Dual: ContinuumOperator::element_matrices), for lane counts that do and do not
// divide the column count.
// First: the laws' qualified autodiff::value_of calls must see its overloads.
#include "core/dual_lanes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cantilever_deck.hpp"
#include "discretization/element_columns.hpp"
#include "discretization/structure_system.hpp"
#include "discretization/tangent_state.hpp"
#include "elements/registry.hpp"
#include "io/inp_reader.hpp"
#include "materials/material_duals.hpp"

namespace halfstep {
namespace {

/// Element e's matrix (kind K) by columns of number type D in lanes of L, at displacements u.
template <class K, class D, int L>
std::vector<double> columns(const StructureSystem& sys, const SolidGroup& g, int i, const std::vector<double>& u) {
  const SolidMesh& sm = sys.solid;
  const int e = g.first + i;
  const int* c = &sm.conn[static_cast<std::size_t>(g.conn_offset) + static_cast<std::size_t>(i) * K::kNodes];
  Vec3<double> X[K::kNodes], ue[K::kNodes];
  for (int a = 0; a < K::kNodes; ++a) {
    X[a] = {sys.x0[c[a]], sys.y0[c[a]], sys.z0[c[a]]};
    ue[a] = {u[3 * c[a]], u[3 * c[a] + 1], u[3 * c[a] + 2]};
  }
  const SolidMaterial<D> m = material_as<D>(sm.materials[static_cast<std::size_t>(sm.material[static_cast<std::size_t>(e)])]);
  const ElementState<D> est{nullptr, nullptr, static_cast<std::size_t>(K::kPoints), 0, sm.data_of(e), D(0.0)};
  std::vector<double> ke(static_cast<std::size_t>(9 * K::kNodes * K::kNodes), 0.0);
  element_matrix_by_columns<K, D, L>(X, ue, m, sm.hourglass_kappa, est, ke.data());
  return ke;
}

class LaneDecks : public ::testing::TestWithParam<const char*> {};

TEST_P(LaneDecks, LanesGiveTheColumnsOfOneDualEach) {
  const Model model = read_inp(std::string(HALFSTEP_SOURCE_DIR "/tests/gpu/decks/") + GetParam());
  const StructureSystem sys = build_structure_system(model);
  double extent = 0;
  for (int n = 0; n < sys.num_nodes; ++n) extent = std::max({extent, std::fabs(sys.x0[n]), std::fabs(sys.y0[n])});
  const std::vector<double> u = test::smooth_field(sys, 0.05 * extent / 3);
  int checked = 0;
  for (const SolidGroup& g : sys.solid.groups)
    visit_continuum_kind(g.kind, [&](auto kind) {
      using K = decltype(kind);
      for (int i = 0; i < g.count; i += std::max(1, g.count / 7)) {
        const std::vector<double> one = columns<K, Dual<double>, 1>(sys, g, i, u);
        const std::vector<double> twelve = columns<K, DualLanes<12>, 12>(sys, g, i, u);
        const std::vector<double> five = columns<K, DualLanes<5>, 5>(sys, g, i, u);
        double largest = 0;
        for (double v : one) largest = std::max(largest, std::fabs(v));
        ASSERT_GT(largest, 0.0) << GetParam();
        for (std::size_t k = 0; k < one.size(); ++k) {
          // Lane by lane the same operations as Dual's: the same bits.
          ASSERT_EQ(twelve[k], one[k]) << GetParam() << " element " << g.first + i << " entry " << k;
          ASSERT_EQ(five[k], one[k]) << GetParam() << " element " << g.first + i << " entry " << k;
        }
        ++checked;
      }
    });
  EXPECT_GT(checked, 0) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Continuum, LaneDecks,
                         ::testing::Values("solid_c3d8r_svk.inp", "solid_c3d8_neo.inp", "solid_c3d4_ortho.inp",
                                           "solid_c3d10m_svk.inp", "plane_cps4.inp", "plane_cpe4.inp",
                                           "solid_c3d6_svk.inp", "axi_cylinder.inp", "static_c3d20r.inp",
                                           "static_c3d10.inp", "static_cps8_neo.inp", "static_cpe8r_ortho.inp",
                                           "static_cax8r_neo.inp"),
                         [](const ::testing::TestParamInfo<const char*>& i) {
                           std::string s = i.param;
                           return s.substr(0, s.find('.'));
                         });

}  // namespace
}  // namespace halfstep
