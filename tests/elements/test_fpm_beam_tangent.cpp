// The FPM beam in static steps (beam_generalized_forces, elements/fpm_beam.hpp): the
// dual-number derivative of its 12 generalized forces (one path unit from a converged state,
// rotation unknowns the spins about each node's frame) against central differences of the
// same evaluation, elastic and plastic, at the converged configuration itself (a Newton
// increment's first tangent: the twist's derivative there comes from w.e1) and at a turned,
// stretched trial.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "elements/fpm_beam.hpp"

namespace halfstep {
namespace {

using D = Dual<double>;

/// A beam X1 = 0, X2 = (1, 0.2, 0.1), its converged state after one path unit to
/// configuration a, and evaluations from it.
struct Beam {
  BeamConstants<double> sec;
  BeamConstants<D> dsec;
  Vec3<double> chord{1.0, 0.2, 0.1};
  int size;
  std::vector<double> state;
  BeamNodes<double> a;

  explicit Beam(const BeamConstants<double>& s)
      : sec(s), dsec(convert_beam_constants<D>(s)), size(s.plastic ? kBeamPlasticState : kBeamElasticState),
        state(static_cast<std::size_t>(size)) {
    beam_initial_state(normalized(cross(chord, Vec3<double>{0, 0, 1})), chord, size, StridedState<double>{state.data(), 1});
    a = nodes({{0, 0, 0}, {0.003, -0.002, 0.004}}, {{0.001, 0.002, -0.001}, {0.01, -0.02, 0.015}});
    std::vector<double> next(state.size());
    double f[12];
    beam_generalized_forces<double>(sec, a, StridedState<const double>{state.data(), 1}, size, -1,
                                    StridedState<double>{next.data(), 1}, f);
    state = next;
  }
  BeamNodes<double> nodes(std::vector<Vec3<double>> u, std::vector<Vec3<double>> r) const {
    BeamNodes<double> nd;
    nd.chord0 = chord;
    for (int k = 0; k < 2; ++k) {
      nd.u[k] = u[k];
      nd.t1[k] = rotate(r[k], Vec3<double>{1, 0, 0});
      nd.d[k] = rotate(r[k], Vec3<double>{0, 0, 1});
    }
    return nd;
  }
  void forces(const BeamNodes<double>& nd, double f[12]) const {
    std::vector<double> work(state.size());
    beam_generalized_forces<double>(sec, nd, StridedState<const double>{state.data(), 1}, size, -1,
                                    StridedState<double>{work.data(), 1}, f);
  }
  static BeamNodes<double> moved(BeamNodes<double> nd, int s, double h) {
    const int k = s / 6, j = s % 6;
    if (j < 3) {
      double u[3] = {nd.u[k].x, nd.u[k].y, nd.u[k].z};
      u[j] += h;
      nd.u[k] = {u[0], u[1], u[2]};
    } else {
      double w[3] = {0, 0, 0};
      w[j - 3] = h;
      turn_node_frame(nd.t1[k], nd.d[k], w);
    }
    return nd;
  }
  double tangent_error(const BeamNodes<double>& nd) const {
    std::vector<D> work(state.size());
    double worst = 0, scale = 0;
    for (int s = 0; s < 12; ++s) {
      D col[12];
      beam_generalized_forces<D>(dsec, nd, StridedState<const double>{state.data(), 1}, size, s,
                                 StridedState<D>{work.data(), 1}, col);
      const double h = 1e-7;
      double fp[12], fm[12];
      forces(moved(nd, s, h), fp);
      forces(moved(nd, s, -h), fm);
      for (int i = 0; i < 12; ++i) {
        const double fd = (fp[i] - fm[i]) / (2 * h);
        EXPECT_TRUE(std::isfinite(col[i].d)) << "row " << i << " column " << s;
        worst = std::fmax(worst, std::fabs(col[i].d - fd));
        scale = std::fmax(scale, std::fabs(fd));
      }
    }
    return worst / scale;
  }
};

TEST(FpmBeamTangent, ElasticMatchesCentralDifferencesAtTheConvergedConfiguration) {
  const Beam b(make_beam_section(kBeamRect, 0.1, 0.05, 200e3, 0.3, nullptr));
  EXPECT_LT(b.tangent_error(b.a), 1e-6);
}

TEST(FpmBeamTangent, ElasticMatchesCentralDifferencesAtATurnedTrial) {
  const Beam b(make_beam_section(kBeamRect, 0.1, 0.05, 200e3, 0.3, nullptr));
  EXPECT_LT(b.tangent_error(b.nodes({{0.01, -0.02, 0.03}, {0.03, 0.01, 0.06}}, {{0.1, 0.05, 0.2}, {0.14, 0.02, 0.23}})), 1e-6);
}

TEST(FpmBeamTangent, PlasticMatchesCentralDifferencesWhileYielding) {
  SolidMaterial<double> m;
  m.model = law_id<J2Plastic>;
  m.hardening_points = 2;
  m.yield_stress[0] = 250;
  m.yield_strain[0] = 0;
  m.yield_stress[1] = 1250;
  m.yield_strain[1] = 1;
  const Beam b(make_beam_section(kBeamRect, 0.1, 0.05, 200e3, 0.3, &m));
  // A 0.5 % stretch with some bending: the fibres yield in the trial.
  EXPECT_LT(b.tangent_error(b.nodes({{0, 0, 0}, {0.008, 0.0, 0.002}}, {{0.001, 0.002, -0.001}, {0.012, -0.02, 0.015}})),
            1e-5);
}

}  // namespace
}  // namespace halfstep
