// Edge-to-edge contact (issue 17; docs/theory.md, "Contact", edges): the feature edges built
// from a deck (discretization/contact.hpp), the closest points of two segments, the sign of
// the penetration of two crossed edges, and the penalty force of one edge record
// (dynamics/contact_pass.hpp) against hand-computed values and the gradient of its energy.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "dynamics/contact_pass.hpp"
#include "io/inp_reader.hpp"

namespace halfstep {
namespace {

TEST(EdgeContact, SegmentClosestPointsOfCrossedSeparatedAndParallelSegments) {
  double s, t, g;
  Vec3<double> n;
  // a along x through the origin, b along y at x = 0.2, 0.1 below: s = 0.6, t = 0.5.
  ASSERT_TRUE(segment_closest_points<double>({-1, 0, 0}, {1, 0, 0}, {0.2, -1, -0.1}, {0.2, 1, -0.1}, s, t, n, g));
  EXPECT_NEAR(s, 0.6, 1e-15);
  EXPECT_NEAR(t, 0.5, 1e-15);
  EXPECT_NEAR(n.z, 1.0, 1e-15);  // x cross y
  EXPECT_NEAR(g, 0.1, 1e-15);    // a above b along n
  // Skew at 60 degrees, b above: g changes sign.
  const double c60 = 0.5, s60 = std::sqrt(3.0) / 2;
  ASSERT_TRUE(segment_closest_points<double>({-1, 0, 0}, {1, 0, 0}, {-c60, -s60, 0.3}, {c60, s60, 0.3}, s, t, n, g));
  EXPECT_NEAR(s, 0.5, 1e-15);
  EXPECT_NEAR(t, 0.5, 1e-15);
  EXPECT_NEAR(g, -0.3, 1e-15);
  // Parallel (and within 5.7 degrees of it): left to node-to-facet contact.
  EXPECT_FALSE(segment_closest_points<double>({-1, 0, 0}, {1, 0, 0}, {-1, 0, -0.1}, {1, 0, -0.1}, s, t, n, g));
  EXPECT_FALSE(segment_closest_points<double>({-1, 0, 0}, {1, 0, 0}, {-1, -0.09, -0.1}, {1, 0.09, -0.1}, s, t, n, g));
  // Closest points beyond an end of either segment: a node there is the contact.
  EXPECT_FALSE(segment_closest_points<double>({-1, 0, 0}, {1, 0, 0}, {1.5, -1, -0.1}, {1.5, 1, -0.1}, s, t, n, g));
  EXPECT_FALSE(segment_closest_points<double>({-1, 0, 0}, {1, 0, 0}, {0.2, 0.5, -0.1}, {0.2, 1.5, -0.1}, s, t, n, g));
}

/// Two solid feature edges: edge 0 (nodes 0-1) along x, the lower edge of a diamond bar
/// above it (facets 0-3-2-1 and 0-1-4-5, outward normals (0, 1, -1) and (0, -1, -1)), and
/// edge 1 (nodes 6-7) along y at x = 0.2, the upper edge of a diamond bar below (facets
/// 6-8-9-7 and 6-7-11-10, normals (1, 0, 1) and (-1, 0, 1)), `above` higher than edge 0.
struct TwoEdges {
  std::vector<double> x0, y0, z0;
  std::vector<double> ux, uy, uz, vx, vy, vz, mass;
  std::vector<int> edge_nodes{0, 1, 6, 7}, edge_pair{0, 0};
  std::vector<std::uint8_t> role{kEdgeRecord, kEdgeTarget}, self{0}, mirrored{0};
  std::vector<int> edge_facets{0, 3, 2, 1, 0, 1, 4, 5, 6, 8, 9, 7, 6, 7, 11, 10};
  std::vector<double> offset{0, 0}, depth{0.5, 0.5}, spring_mass{1, 1};
  std::vector<int> start{0, 2}, list{0, 1}, edge_of{-2, -2};
  std::vector<double> history = std::vector<double>(2 * kContactHistory, 0.0), force = std::vector<double>(6, 0.0),
                      param = std::vector<double>(4, 0.0);

  explicit TwoEdges(double above) {
    const double g0 = -above;  // edge 1 at z = -g0
    const double pts[12][3] = {{-1, 0, 0},         {1, 0, 0},          {1, 1, 1},           {-1, 1, 1},
                               {1, -1, 1},         {-1, -1, 1},        {0.2, -1, -g0},      {0.2, 1, -g0},
                               {1.2, -1, -g0 - 1}, {1.2, 1, -g0 - 1},  {-0.8, -1, -g0 - 1}, {-0.8, 1, -g0 - 1}};
    for (const auto& p : pts) x0.push_back(p[0]), y0.push_back(p[1]), z0.push_back(p[2]);
    ux = uy = uz = vx = vy = vz = std::vector<double>(12, 0.0);
    mass = std::vector<double>(12, 1.0);
  }

  ContactView<double> view(double penalty, double dt_prev, bool commit) {
    ContactView<double> c{};
    c.x0 = x0.data(), c.y0 = y0.data(), c.z0 = z0.data();
    c.ux = ux.data(), c.uy = uy.data(), c.uz = uz.data();
    c.v[0] = vx.data(), c.v[1] = vy.data(), c.v[2] = vz.data();
    c.mass = mass.data();
    c.num_slaves = 0;
    c.self = self.data();
    c.mirrored = mirrored.data();
    c.penalty = penalty;
    c.dt_prev = dt_prev;
    c.shear_history = history.data();
    c.commit = commit;
    c.num_edges = 2;
    c.edge_nodes = edge_nodes.data();
    c.edge_pair = edge_pair.data();
    c.edge_role = role.data();
    c.edge_facets = edge_facets.data();
    c.edge_offset = offset.data();
    c.edge_depth = depth.data();
    c.edge_spring_mass = spring_mass.data();
    c.edge_grid = {10.0, 0, start.data(), list.data()};
    c.edge_force = force.data();
    c.edge_param = param.data();
    c.edge_of = edge_of.data();
    return c;
  }
};

TEST(EdgeContact, CrossedEdgesPenetrateSeparatedOnesDoNot) {
  for (const double above : {-0.05, 0.05, 0.6}) {  // edge 1 below edge 0, crossed by 0.05, crossed too deep
    TwoEdges e(above);
    const ContactView<double> c = e.view(1.0, 0.0, false);
    // The facets' outward normals as described (the edges' outward directions).
    const Vec3<double> out0 = edge_outward(c, 0), out1 = edge_outward(c, 1);
    EXPECT_NEAR(out0.z, -std::sqrt(2.0), 1e-15);
    EXPECT_NEAR(out0.y, 0.0, 1e-15);
    EXPECT_NEAR(out1.z, std::sqrt(2.0), 1e-15);
    EXPECT_NEAR(out1.x, 0.0, 1e-15);
    EdgeTouch<double> t{};
    const bool touch = touch_edge(c, 0, out0, 1, t);
    EXPECT_EQ(touch, above == 0.05) << above;
    if (!touch) continue;
    EXPECT_NEAR(t.pen, 0.05, 1e-15);
    EXPECT_NEAR(t.normal.z, 1.0, 1e-15);  // pushes edge 0 up, out of the lower bar
    EXPECT_NEAR(t.s, 0.6, 1e-15);
    EXPECT_NEAR(t.t, 0.5, 1e-15);
    // Seen from edge 1: the same penetration, the normal the other way.
    ASSERT_TRUE(touch_edge(c, 1, out1, 0, t));
    EXPECT_NEAR(t.pen, 0.05, 1e-15);
    EXPECT_NEAR(t.normal.z, -1.0, 1e-15);
  }
  // Two shell perimeter edges (no facets) of half thicknesses 0.1 and 0.05 at 0.12 apart:
  // 0.03 into each other, from either side.
  for (const double above : {-0.12, 0.12}) {
    TwoEdges e(above);
    e.edge_facets.assign(16, -1);
    e.offset = {0.1, 0.05};
    const ContactView<double> c = e.view(1.0, 0.0, false);
    EdgeTouch<double> t{};
    ASSERT_TRUE(touch_edge(c, 0, edge_outward(c, 0), 1, t));
    EXPECT_NEAR(t.pen, 0.03, 1e-15);
    EXPECT_NEAR(t.normal.z, above > 0 ? -1.0 : 1.0, 1e-15);
  }
}

/// Energy of the edge record (its spring) at the current positions.
double edge_energy(TwoEdges& e, double penalty) {
  double sum[2] = {0, 0};
  ContactEdgeBody<double>{e.view(penalty, 0.0, false)}(0, sum);
  return sum[0];
}

TEST(EdgeContact, ForcesBalanceAndAreMinusTheEnergyGradient) {
  TwoEdges e(0.05);
  // Skew the edges a little so no weight is special: every node moved.
  const double shift[12][3] = {{0.01, 0.02, -0.003}, {-0.02, 0.01, 0.004}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0},
                               {0.03, -0.01, 0.002}, {-0.01, 0.02, -0.001}};
  for (int n = 0; n < 12; ++n) e.ux[n] = shift[n][0], e.uy[n] = shift[n][1], e.uz[n] = shift[n][2];
  e.history[3] = 1;  // edge record 0 (no slave records before it): in contact with edge 1, no excess
  e.history[5] = 1;
  e.history[6] = 1.0;  // its spring's stretch at the last commit: deeper than any probe below, no cap
  e.spring_mass = {2.0, 2.0};
  const double penalty = 300.0;
  double sum[2] = {0, 0};
  ContactEdgeBody<double>{e.view(penalty, 0.0, false)}(0, sum);
  ASSERT_EQ(e.edge_of[0], 1);
  std::vector<double> normal(36, 0.0), pair(6, 0.0);
  scatter_edge_contact(e.view(penalty, 0.0, false), 0, normal.data(), pair.data(),
                       [](double* a, int i, double v) { a[i] += v; });
  const double fz = e.force[2];
  EXPECT_GT(fz, 0.0);
  for (int d = 0; d < 3; ++d) EXPECT_EQ(pair[d], e.force[d]);
  // Equal and opposite: the four nodes' forces sum to zero, and so do their moments about
  // the origin (both forces act along one line, the common normal).
  double total[3] = {0, 0, 0}, moment[3] = {0, 0, 0};
  for (int n = 0; n < 12; ++n) {
    const Vec3<double> x{e.x0[n] + e.ux[n], e.y0[n] + e.uy[n], e.z0[n] + e.uz[n]};
    const Vec3<double> f{normal[3 * n], normal[3 * n + 1], normal[3 * n + 2]};
    const Vec3<double> r = cross(x, f);
    total[0] += f.x, total[1] += f.y, total[2] += f.z;
    moment[0] += r.x, moment[1] += r.y, moment[2] += r.z;
  }
  for (int d = 0; d < 3; ++d) {
    EXPECT_NEAR(total[d], 0.0, 1e-14 * fz);
    EXPECT_NEAR(moment[d], 0.0, 1e-13 * fz);
  }
  const double f2 = e.force[0] * e.force[0] + e.force[1] * e.force[1] + fz * fz;
  EXPECT_NEAR(sum[0], 0.5 * f2 / (penalty * 2.0), 1e-14 * sum[0]);  // k = penalty x spring mass
  // Minus the gradient of the energy by central differences (every coordinate of the four
  // nodes; the facets' other corners only orient the normal and carry no force).
  const double h = 1e-6;
  double worst = 0;
  for (int n : {0, 1, 6, 7})
    for (int d = 0; d < 3; ++d) {
      std::vector<double>& u = d == 0 ? e.ux : d == 1 ? e.uy : e.uz;
      const double keep = u[n];
      u[n] = keep + h;
      const double ep = edge_energy(e, penalty);
      u[n] = keep - h;
      const double em = edge_energy(e, penalty);
      u[n] = keep;
      const double grad = (ep - em) / (2 * h);
      worst = std::max(worst, std::fabs(normal[3 * n + d] + grad));
    }
  std::printf("edge record: force %.6g, worst |f + dE/dx| %.3g\n", fz, worst);
  EXPECT_LT(worst, 1e-10 * fz);  // measured 5e-12 of the force
}

TEST(EdgeContact, FeatureEdgesOfABoxAndOfAShellPlate) {
  // Two C3D8R cubes in a row (a 2 x 1 x 1 box): its 12 edges, the 4 along x split at the
  // shared nodes, 16 in all; the box's faces' inner sides (coplanar facets) are not edges.
  const std::string solids =
      "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n5, 0, 0, 1\n6, 1, 0, 1\n7, 1, 1, 1\n8, 0, 1, 1\n"
      "9, 2, 0, 0\n10, 2, 1, 0\n11, 2, 0, 1\n12, 2, 1, 1\n"
      "*ELEMENT, TYPE=C3D8R, ELSET=E\n1, 1, 2, 3, 4, 5, 6, 7, 8\n2, 2, 9, 10, 3, 6, 11, 12, 7\n"
      "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*DENSITY\n1.\n*SOLID SECTION, ELSET=E, MATERIAL=M\n";
  const std::string step = "*STEP\n*DYNAMIC, EXPLICIT\n, 0.01\n*END STEP\n";
  {
    const ContactSystem cs =
        build_contact_system(read_inp_string(solids + "*CONTACT\n*CONTACT INCLUSIONS, ALL EXTERIOR\n" + step, "box.inp"));
    ASSERT_EQ(cs.num_edges, 16);
    for (int e = 0; e < cs.num_edges; ++e) {
      EXPECT_EQ(cs.edge_role[e], kEdgeRecord | kEdgeTarget);
      EXPECT_EQ(cs.edge_depth[e], 0.5);
      EXPECT_GE(cs.edge_facets[8 * e + 4], 0);
      EXPECT_GT(cs.edge_near_ptr[e + 1], cs.edge_near_ptr[e]);  // self-contact: neighbours listed
    }
    const ContactSystem off = build_contact_system(
        read_inp_string(solids + "*CONTACT, EDGES=NO\n*CONTACT INCLUSIONS, ALL EXTERIOR\n" + step, "box.inp"));
    EXPECT_EQ(off.num_edges, 0);
    EXPECT_EQ(off.num_slaves, cs.num_slaves);
  }
  {
    // A pair: the end face of cube 2 (x = 2, its 4 sides: the box's edges, their other
    // facets taken from the exterior) against cube 1's x = 0 face: records and targets.
    const ContactSystem cs = build_contact_system(read_inp_string(
        solids + "*ELSET, ELSET=C1\n1\n*ELSET, ELSET=C2\n2\n*SURFACE, NAME=A\nC2, S4\n*SURFACE, NAME=B\nC1, S6\n"
                 "*SURFACE INTERACTION, NAME=I\n*CONTACT PAIR, INTERACTION=I\nA, B\n" + step,
        "pair.inp"));
    ASSERT_EQ(cs.num_edges, 8);
    int records = 0;
    for (int e = 0; e < cs.num_edges; ++e) records += cs.edge_role[e] == kEdgeRecord;
    EXPECT_EQ(records, 4);
    EXPECT_EQ(cs.edge_near_nodes.size(), 0u);
  }
  {
    // A 2 x 1 plate of S4R, general contact: its 6 perimeter edges, offset half the thickness.
    const std::string plate =
        "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 2, 0, 0\n4, 0, 1, 0\n5, 1, 1, 0\n6, 2, 1, 0\n"
        "*ELEMENT, TYPE=S4R, ELSET=P\n1, 1, 2, 5, 4\n2, 2, 3, 6, 5\n"
        "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*DENSITY\n1.\n*SHELL SECTION, ELSET=P, MATERIAL=M\n0.1\n"
        "*CONTACT\n*CONTACT INCLUSIONS, ALL EXTERIOR\n";
    const ContactSystem cs = build_contact_system(read_inp_string(plate + step, "plate.inp"));
    ASSERT_EQ(cs.num_edges, 6);
    for (int e = 0; e < cs.num_edges; ++e) {
      EXPECT_EQ(cs.edge_offset[e], 0.05);
      EXPECT_EQ(cs.edge_facets[8 * e], -1);
    }
  }
}

}  // namespace
}  // namespace halfstep
