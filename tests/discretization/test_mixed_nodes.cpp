// MITC4 shells on the 6-dof nodes of a model mixed with beams and FPM triangles
// (docs/theory.md, "Mixed models"): the global moment a corner hands its node is the virtual
// work of a global rotation of its director, and a large rigid rotation of a plate that is
// half MITC4, half FPM triangles, with a beam along it, gives no force anywhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "../elements/mitc4_test_util.hpp"
#include "discretization/beam_block.hpp"
#include "discretization/structure_state.hpp"
#include "discretization/shell_pass.hpp"
#include "discretization/tri_block.hpp"
#include "io/inp_reader.hpp"

namespace halfstep {
namespace {

using test::OneElement;
using V3 = Vec3<double>;

TEST(MixedNodes, GlobalMomentIsTheVirtualWorkOfAGlobalRotation) {
  // A warped, strained element with turned directors: for a global rotation dtheta of one
  // corner's director, dW = m . dtheta with m = V x dW/dV (central differences).
  OneElement el({V3{0, 0, 0}, V3{1.1, 0.1, 0}, V3{1.2, 0.9, 0.05}, V3{-0.1, 1.0, 0}}, 0.05);
  ASSERT_TRUE(el.ok);
  const V3 du[4] = {{0.01, -0.02, 0.03}, {-0.015, 0.01, -0.02}, {0.02, 0.005, 0.04}, {0.0, -0.01, -0.03}};
  const V3 turn[4] = {{0.05, -0.02, 0.3}, {-0.04, 0.06, -0.2}, {0.03, 0.05, 0.1}, {-0.06, -0.01, 0.0}};
  for (int k = 0; k < 4; ++k) {
    el.x[k] += du[k];
    el.v[k] = rotate(turn[k], el.v[k]);
    el.t1[k] = rotate(turn[k], el.t1[k]);
  }
  const auto energy = [](const OneElement& e) {
    V3 f[4], gv[4];
    return mitc4_internal_force(e.ref, e.nodes(), e.a, e.mat, f, gv);
  };
  V3 f[4], gv[4];
  mitc4_internal_force(el.ref, el.nodes(), el.a, el.mat, f, gv);
  double gen5[20];
  el.forces(gen5);
  const V3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int k = 0; k < 4; ++k) {
    double out[6];
    mitc4_corner_global_force(f[k], gv[k], el.v[k], out);
    const V3 m{out[3], out[4], out[5]};
    const double scale = norm(m);
    ASSERT_GT(scale, 0.0);
    // No drilling moment; the two triad moments of the 5-dof path, composed.
    EXPECT_LT(std::fabs(dot(m, el.v[k])), 1e-15 * scale) << k;  // measured 1e-17
    const V3 composed = gen5[5 * k + 3] * el.t1[k] + gen5[5 * k + 4] * cross(el.v[k], el.t1[k]);
    EXPECT_LT(norm(m - composed), 4e-15 * scale) << k;  // measured 4e-16
    for (int i = 0; i < 3; ++i) {
      const double h = 1e-6;
      OneElement p = el, q = el;
      p.v[k] = rotate(h * axes[i], el.v[k]);
      q.v[k] = rotate(-h * axes[i], el.v[k]);
      const double dw = (energy(p) - energy(q)) / (2 * h);
      // Central differences of a smooth energy: error h^2 times its third derivative, plus
      // rounding eps W / h; measured 6e-12 to 1e-10 of |m|.
      EXPECT_NEAR(dw, dot(m, axes[i]), 1e-9 * scale) << "corner " << k << " axis " << i;
    }
  }
}

/// Elements, material and step of mixed_plate_deck (nodes 1-15: 5 x 3 in rows along x).
const char* const kMixedPlateElements = R"(*ELEMENT, TYPE=S4R, ELSET=QUADS
1, 1, 2, 7, 6
2, 2, 3, 8, 7
3, 6, 7, 12, 11
4, 7, 8, 13, 12
*ELEMENT, TYPE=S3, ELSET=TRIS
5, 3, 4, 9
6, 3, 9, 8
7, 4, 5, 10
8, 4, 10, 9
9, 8, 9, 14
10, 8, 14, 13
11, 9, 10, 15
12, 9, 15, 14
*ELEMENT, TYPE=B31, ELSET=STIFFENER
13, 6, 7
14, 7, 8
15, 8, 9
16, 9, 10
*MATERIAL, NAME=MAT
*ELASTIC
1.2e6, 0.3
*DENSITY
1.0
*SHELL SECTION, ELSET=QUADS, MATERIAL=MAT
0.05
*SHELL SECTION, ELSET=TRIS, MATERIAL=MAT, FORMULATION=FPM
0.05
*BEAM SECTION, ELSET=STIFFENER, MATERIAL=MAT, SECTION=RECT
0.1, 0.1
*STEP
*DYNAMIC, EXPLICIT
, 1
*END STEP
)";

/// A 4 x 2 plate (2 x 1) in a skew plane, so that its directors and triads are no global
/// axes: MITC4 over its first half, FPM triangles over the second, the two sharing the seam,
/// and a beam along the centre line over the whole length.
std::string mixed_plate_deck() {
  const V3 ex = normalized(V3{0.6, 0.3, -0.2}), ey = normalized(cross(V3{0.1, -0.4, 0.9}, ex));
  std::string d = "*NODE\n";
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 5; ++i) {
      const V3 x = (0.5 * i) * ex + (0.5 * j) * ey + V3{0.2, -0.1, 0.3};
      char line[128];
      std::snprintf(line, sizeof line, "%d, %.17g, %.17g, %.17g\n", 1 + i + 5 * j, x.x, x.y, x.z);
      d += line;
    }
  return d + kMixedPlateElements;
}


/// Every element's forces at the state st, summed per node (6 values: force, moment);
/// returns the total internal energy (shell strain energy plus the FPM elements' work).
double node_forces(const StructureSystem& sys, StructureState& st, std::vector<double>& f) {
  f.assign(6 * static_cast<std::size_t>(sys.num_nodes), 0.0);
  double w[2] = {0.0, 0.0};  // the element bodies add energy into [0] and dissipation into [1]
  const ShellElementBody shells{sys, st, DriveView{}, false, 0.0, sys.shell_global_moments()};
  for (int e = 0; e < sys.shell.num_elements; ++e) shells(e, w);
  for (int e = 0; e < sys.shell.num_elements; ++e)
    for (int k = 0; k < 4; ++k)
      for (int d = 0; d < 6; ++d) f[6 * sys.shell.conn[4 * e + k] + d] += st.elem_force[24 * e + 6 * k + d];
  const TriMesh& t = sys.mesh<TriMesh>();
  const TriView<double> tv{t.num_elements, t.conn.data(), t.section.data(), t.constants.data(), t.edge2x.data(),
                           t.edge2y.data(), t.edge2z.data(), t.edge3x.data(), t.edge3y.data(), t.edge3z.data(),
                           st.ux.data(), st.uy.data(), st.uz.data(), st.t1x.data(), st.t1y.data(), st.t1z.data(),
                           st.dx.data(), st.dy.data(), st.dz.data(), st.row<TriMesh>().state.data(), st.row<TriMesh>().force.data(),
                           nullptr, sys.shell.num_elements};
  for (int e = 0; e < t.num_elements; ++e) TriElementBody<double>{tv, DriveView{}, 0.0}(e, w);
  const BeamMesh& b = sys.mesh<BeamMesh>();
  const BeamView<double> bv{b.num_elements, b.conn.data(), b.section.data(), b.constants.data(), b.chord0x.data(),
                            b.chord0y.data(), b.chord0z.data(), st.ux.data(), st.uy.data(), st.uz.data(),
                            st.t1x.data(), st.t1y.data(), st.t1z.data(), st.dx.data(), st.dy.data(), st.dz.data(),
                            st.row<BeamMesh>().state.data(), st.row<BeamMesh>().force.data()};
  for (int e = 0; e < b.num_elements; ++e) BeamElementBody<double>{bv}(e, w);
  for (int n = 0; n < sys.num_nodes; ++n) {
    add_slot_forces6(t.node_slot_ptr.data(), t.node_slots.data(), st.row<TriMesh>().force.data(), n, &f[6 * n]);
    add_slot_forces6(b.node_slot_ptr.data(), b.node_slots.data(), st.row<BeamMesh>().force.data(), n, &f[6 * n]);
  }
  return w[0];
}

TEST(MixedNodes, LargeRigidRotationOfAMixedPlateGivesNoForce) {
  const Model model = read_inp_string(mixed_plate_deck(), "mixed_plate.inp");
  const StructureSystem sys = build_structure_system(model);
  ASSERT_EQ(sys.node_dofs, 6);
  ASSERT_TRUE(sys.shell_global_moments());
  StructureState st;
  st.initialize(sys);
  // Shell nodes start from their director and triad (no global axes here), beam-only nodes
  // (none here) from (e1, e3); the FPM elements start from the same frames.
  // Against a force E h L and a moment E h^2 L (rounding: eps of them), and an energy E h A:
  // measured 3.5e-16, 3.2e-16 and 3.3e-31 turned, 1e-19 to 1e-36 in the reference.
  const double force_scale = 1.2e6 * 0.05 * 2, moment_scale = force_scale * 0.05;
  const auto expect_no_force = [&](const char* what) {
    std::vector<double> f;
    const double w = node_forces(sys, st, f);
    double fmax = 0, mmax = 0;
    for (int n = 0; n < sys.num_nodes; ++n)
      for (int d = 0; d < 3; ++d) {
        fmax = std::max(fmax, std::fabs(f[6 * n + d]));
        mmax = std::max(mmax, std::fabs(f[6 * n + 3 + d]));
      }
    EXPECT_LT(fmax, 1e-14 * force_scale) << what;
    EXPECT_LT(mmax, 1e-14 * moment_scale) << what;
    EXPECT_LT(std::fabs(w), 1e-28 * force_scale) << what;
  };
  expect_no_force("reference");
  // 2.5 rad about a skew axis, and a translation: positions, directors and triads turned.
  const V3 theta = (2.5 / std::sqrt(14.0)) * V3{1, 2, 3}, shift{0.3, -0.2, 0.7};
  for (int n = 0; n < sys.num_nodes; ++n) {
    const V3 x{sys.x0[n], sys.y0[n], sys.z0[n]};
    const V3 u = rotate(theta, x) - x + shift;
    const V3 d = rotate(theta, V3{st.dx[n], st.dy[n], st.dz[n]});
    const V3 t1 = rotate(theta, V3{st.t1x[n], st.t1y[n], st.t1z[n]});
    st.ux[n] = u.x;
    st.uy[n] = u.y;
    st.uz[n] = u.z;
    st.dx[n] = d.x;
    st.dy[n] = d.y;
    st.dz[n] = d.z;
    st.t1x[n] = t1.x;
    st.t1y[n] = t1.y;
    st.t1z[n] = t1.z;
  }
  expect_no_force("turned 2.5 rad");
}

}  // namespace
}  // namespace halfstep
