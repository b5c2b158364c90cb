// Contact (issue 17): the facets and slave records built from a deck
// (discretization/contact.hpp) and the node-to-facet penalty and friction of one record
// (dynamics/contact_pass.hpp) against hand-computed values.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "discretization/structure_system.hpp"
#include "dynamics/contact_pass.hpp"
#include "io/inp_reader.hpp"

namespace halfstep {
namespace {

/// Two C3D8R cubes in a row along x (x from 0 to 2), unit density.
Model two_cubes() {
  const std::string deck =
      "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n5, 0, 0, 1\n6, 1, 0, 1\n7, 1, 1, 1\n8, 0, 1, 1\n"
      "9, 2, 0, 0\n10, 2, 1, 0\n11, 2, 0, 1\n12, 2, 1, 1\n"
      "*ELEMENT, TYPE=C3D8R, ELSET=E\n1, 1, 2, 3, 4, 5, 6, 7, 8\n2, 2, 9, 10, 3, 6, 11, 12, 7\n"
      "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*DENSITY\n1.\n*SOLID SECTION, ELSET=E, MATERIAL=M\n"
      "*STEP\n*DYNAMIC, EXPLICIT\n, 0.01\n*END STEP\n";
  return read_inp_string(deck, "two_cubes.inp");
}

TEST(ContactBuild, AllExteriorFacesOfTwoCubesPointOutward) {
  Model m = two_cubes();
  m.contact.pairs.push_back(ContactPair{kAllExterior, kAllExterior, "", {}});
  const ContactSystem cs = build_contact_system(m);
  ASSERT_EQ(cs.num_pairs, 1);
  EXPECT_EQ(cs.num_facets, 10);  // 12 faces less the shared one, counted on both cubes
  EXPECT_EQ(cs.num_slaves, 12);
  EXPECT_EQ(cs.self[0], 1);
  for (int f = 0; f < cs.num_facets; ++f) {
    Vec3<double> x[4], centre{0, 0, 0};
    for (int k = 0; k < 4; ++k) {
      const int n = cs.facet_nodes[4 * f + k];
      ASSERT_GE(n, 0);
      x[k] = {m.nodes.x[n], m.nodes.y[n], m.nodes.z[n]};
      centre += 0.25 * x[k];
    }
    const Vec3<double> normal = cross(x[2] - x[0], x[3] - x[1]);
    const Vec3<double> body{1.0, 0.5, 0.5};
    EXPECT_GT(dot(centre - body, normal), 0.0) << "facet " << f << " points into the bar";
    EXPECT_DOUBLE_EQ(cs.facet_depth[f], 0.5);  // half the unit cube below every face
    EXPECT_EQ(cs.facet_offset[f], 0.0);
  }
  // Self-contact: each node's neighbours are the other corners of its elements (7 for a
  // node of one cube, 11 for one of the four shared nodes).
  ASSERT_EQ(cs.near_ptr.size(), static_cast<std::size_t>(cs.num_slaves) + 1);
  for (int i = 0; i < cs.num_slaves; ++i) {
    const int count = cs.near_ptr[i + 1] - cs.near_ptr[i];
    const double x = m.nodes.x[cs.slave_node[i]];
    EXPECT_EQ(count, x == 1.0 ? 11 : 7) << "record " << i;
  }
}

/// One unit quad facet (nodes 0-3, z = 0, normal +z, masses 1) and one slave node 4 (mass 2).
struct OneFacet {
  std::vector<double> x0{0, 1, 1, 0, 0.3}, y0{0, 0, 1, 1, 0.6}, z0{0, 0, 0, 0, 0};
  std::vector<double> ux = std::vector<double>(5, 0.0), uy = ux, uz{0, 0, 0, 0, -0.01};
  std::vector<double> vx = std::vector<double>(5, 0.0), vy = vx, vz = vx;
  std::vector<double> mass{1, 1, 1, 1, 2};
  std::vector<int> facet_nodes{0, 1, 2, 3}, facet_pair{0}, slave_node{4}, slave_pair{0};
  std::vector<double> facet_offset{0}, facet_depth{0.5}, slave_offset{0}, spring_mass{1};
  std::vector<std::uint8_t> two_sided{0}, self{0}, mirrored{0};
  std::vector<double> mu_s{0.3}, mu_k{0.3}, decay{0};
  std::vector<int> start{0, 1}, facets{0};
  std::vector<double> history = std::vector<double>(kContactHistory, 0.0), force = std::vector<double>(6, 0.0), weight = std::vector<double>(4, 0.0);
  std::vector<int> facet_of{-2};
  std::vector<int> own_ptr{0, 0};  // the slave faces no way in particular

  std::vector<double> geom = std::vector<double>(kFacetGeom, 0.0);

  ContactView<double> view(double penalty, double dt_prev) {
    ContactView<double> c{x0.data(),           y0.data(),           z0.data(),          ux.data(),
            uy.data(),           uz.data(),           {vx.data(), vy.data(), vz.data()},
            mass.data(),         1,                   facet_nodes.data(), facet_pair.data(),
            facet_offset.data(), facet_depth.data(),  two_sided.data(),   slave_node.data(),
            slave_pair.data(),   slave_offset.data(), spring_mass.data(), own_ptr.data(),     nullptr,
            mu_s.data(),         mu_k.data(),
            decay.data(),        self.data(),         mirrored.data(),    nullptr,
            nullptr,             penalty,             dt_prev,
            {10.0, 0, start.data(), facets.data()},   history.data(),     force.data(),
            facet_of.data(),     weight.data(),       true,               {}};
    c.facet_geom = geom.data();
    facet_geometry(c, 0, geom.data());  // what the broad phase does each increment
    return c;
  }
};

// A node far outside any model (a diverging run, a damaged restart: fuzz finding 7 resumed a
// displacement of -2.3e171) must not overflow the cell coordinate's conversion (UBSan's
// float-cast-overflow); ordinary positions keep their floor.
TEST(ContactBuild, NodeSurfaceAreaIsOneOrThePeersShareOfTheExteriorFaces) {
  // A TYPE=NODE slave surface without areas: 1 per node as Abaqus reads it; the peer's
  // (--dialect calculix) is the node's quarter of each exterior face it lies on: 3/4 at the
  // bar's corner node 1 (three unit faces), 4/4 at node 2 (two faces of each cube; the face
  // they share is interior and not counted), and a given area is kept in both dialects.
  const std::string deck =
      "*NODE\n1, 0, 0, 0\n2, 1, 0, 0\n3, 1, 1, 0\n4, 0, 1, 0\n5, 0, 0, 1\n6, 1, 0, 1\n7, 1, 1, 1\n8, 0, 1, 1\n"
      "9, 2, 0, 0\n10, 2, 1, 0\n11, 2, 0, 1\n12, 2, 1, 1\n"
      "*ELEMENT, TYPE=C3D8R, ELSET=E\n1, 1, 2, 3, 4, 5, 6, 7, 8\n2, 2, 9, 10, 3, 6, 11, 12, 7\n"
      "*MATERIAL, NAME=M\n*ELASTIC\n1000., 0.3\n*DENSITY\n1.\n*SOLID SECTION, ELSET=E, MATERIAL=M\n"
      "*SURFACE, NAME=S, TYPE=NODE\n1\n2\n9, 0.5\n*SURFACE, NAME=M\nE, S2\n"
      "*SURFACE INTERACTION, NAME=SI\n*CONTACT PAIR, INTERACTION=SI\nS, M\n*STEP\n*DYNAMIC, EXPLICIT\n, 0.01\n*END STEP\n";
  for (Dialect d : {Dialect::Abaqus, Dialect::CalculiX}) {
    const Model m = read_inp_string(deck, "node_area.inp", d);
    const ContactSystem cs = build_contact_system(m);
    ASSERT_EQ(cs.num_slaves, 3);
    std::vector<double> area(3, -1);
    for (int i = 0; i < 3; ++i) {
      const int id = m.nodes.id[static_cast<std::size_t>(cs.slave_node[static_cast<std::size_t>(i)])];
      area[id == 1 ? 0 : id == 2 ? 1 : 2] = cs.slave_area[static_cast<std::size_t>(i)];
    }
    if (d == Dialect::Abaqus) {
      EXPECT_EQ(area, (std::vector<double>{1.0, 1.0, 0.5}));
    } else {
      EXPECT_DOUBLE_EQ(area[0], 0.75);
      EXPECT_DOUBLE_EQ(area[1], 1.0);
      EXPECT_DOUBLE_EQ(area[2], 0.5);
    }
  }
}

TEST(ContactPass, CellCoordinatesOfFarNodesStayInRange) {
  EXPECT_EQ(contact_cell(2.5, 1.0), 2);
  EXPECT_EQ(contact_cell(-2.5, 1.0), -3);
  EXPECT_EQ(contact_cell(-2.3e171, 0.1), -4000000000000000000LL);
  EXPECT_EQ(contact_cell(1e300, 1e-3), 4000000000000000000LL);
  EXPECT_EQ(contact_cell(std::numeric_limits<double>::quiet_NaN(), 1.0), -4000000000000000000LL);
  EXPECT_EQ(contact_cell(3.0e30f, 1.0f), static_cast<long long>(4e18f));  // FP32: the limit as a float
  const long long far = contact_cell(1e300, 1.0);
  EXPECT_GE(contact_bucket(far + 1, far, -far, 1023), 0);  // the neighbours searched around it
}

TEST(ContactPass, TouchWeightsReproduceTheTouchPoint) {
  OneFacet s;
  const ContactView<double> c = s.view(1.0, 0.0);
  ContactTouch<double> t{};
  ASSERT_TRUE(touch_facet(c, 0, Vec3<double>{0.3, 0.6, -0.01}, 0.0, t));
  EXPECT_NEAR(t.pen, 0.01, 1e-15);
  EXPECT_NEAR(t.normal.z, 1.0, 1e-15);
  double sum = 0, px = 0, py = 0;
  for (int k = 0; k < 4; ++k) sum += t.w[k], px += t.w[k] * s.x0[k], py += t.w[k] * s.y0[k];
  EXPECT_NEAR(sum, 1.0, 1e-15);
  EXPECT_NEAR(px, 0.3, 1e-15);
  EXPECT_NEAR(py, 0.6, 1e-15);
  // Above the facet, or deeper than its depth, or beside it: no touch.
  EXPECT_FALSE(touch_facet(c, 0, Vec3<double>{0.3, 0.6, 0.01}, 0.0, t));
  EXPECT_FALSE(touch_facet(c, 0, Vec3<double>{0.3, 0.6, -0.6}, 0.0, t));
  EXPECT_FALSE(touch_facet(c, 0, Vec3<double>{1.2, 0.6, -0.01}, 0.0, t));
  // A shell slave of half thickness 0.05 touches from 0.05 above.
  ASSERT_TRUE(touch_facet(c, 0, Vec3<double>{0.3, 0.6, 0.03}, 0.05, t));
  EXPECT_NEAR(t.pen, 0.02, 1e-15);
}

// A slave just beyond the facet's edge x = 0, within the 2 % margin of two of the four
// triangles about the centre: the nearest (the left one, 0.002 out) gives its weights, not the
// first found (the bottom one, 0.011 out, whose weights put -0.006 on the far corner): two
// iterates of a static step that picked one and then the other moved the force between nodes.
TEST(ContactPass, ASlaveInTheMarginTakesTheNearestTriangle) {
  OneFacet s;
  const ContactView<double> c = s.view(1.0, 0.0);
  ContactTouch<double> t{};
  ASSERT_TRUE(touch_facet(c, 0, Vec3<double>{-0.001, 0.01, -0.01}, 0.0, t));
  EXPECT_NEAR(t.out, 0.002, 1e-12);
  EXPECT_NEAR(t.w[0], 0.9905, 1e-12);
  EXPECT_NEAR(t.w[1], -0.0005, 1e-12);
  EXPECT_NEAR(t.w[2], -0.0005, 1e-12);
  EXPECT_NEAR(t.w[3], 0.0105, 1e-12);
  // Inside: nothing out.
  ASSERT_TRUE(touch_facet(c, 0, Vec3<double>{0.3, 0.6, -0.01}, 0.0, t));
  EXPECT_EQ(t.out, 0.0);
  // A facet that holds the slave beats one that reaches it with its margin, whatever the
  // penetrations; two that hold it: the lesser penetration.
  ContactTouch<double> in{}, margin{};
  in.pen = 0.02, margin.pen = 0.01, margin.out = 0.004;
  EXPECT_TRUE(touch_better(in, 5, margin, 3));
  EXPECT_FALSE(touch_better(margin, 3, in, 5));
  ContactTouch<double> nearer = margin;
  nearer.out = 0.001, nearer.pen = 0.03;
  EXPECT_TRUE(touch_better(nearer, 7, margin, 3));
  ContactTouch<double> shallow = in;
  shallow.pen = 0.01;
  EXPECT_TRUE(touch_better(shallow, 9, in, 5));
}

TEST(ContactPass, PenaltyForceActsOnBothSidesEqually) {
  OneFacet s;
  s.mu_s = s.mu_k = {0.0};
  s.history[3] = 1, s.history[6] = 0.01;  // in contact since the last increment, as deep
  const double penalty = 100.0;
  const ContactView<double> c = s.view(penalty, 0.0);
  double sum[2] = {0, 0};
  ContactNodeBody<double>{c}(0, sum);
  ASSERT_EQ(s.facet_of[0], 0);
  const double k = penalty * 1.0;  // the record's spring mass
  EXPECT_NEAR(s.force[2], k * 0.01, 1e-12 * k);
  EXPECT_EQ(s.force[0], 0.0);
  EXPECT_NEAR(sum[0], 0.5 * k * 0.01 * 0.01, 1e-12 * k * 1e-4);
  EXPECT_EQ(sum[1], 0.0);
  std::vector<double> normal(15, 0.0), shear(15, 0.0), pair(6, 0.0);
  scatter_contact(c, 0, normal.data(), shear.data(), pair.data(), [](double* a, int i, double v) { a[i] += v; });
  EXPECT_NEAR(pair[2], k * 0.01, 1e-12 * k);  // the definition's total: the slave's force
  double total[3] = {0, 0, 0};
  for (int n = 0; n < 5; ++n)
    for (int d = 0; d < 3; ++d) total[d] += normal[3 * n + d];
  EXPECT_NEAR(normal[14], k * 0.01, 1e-12 * k);
  for (int d = 0; d < 3; ++d) EXPECT_NEAR(total[d], 0.0, 1e-15 * k);
}

TEST(ContactPass, FrictionSticksBelowTheConeAndSlipsOnIt) {
  for (const double v : {1e-6, 1.0}) {
    OneFacet s;
    s.history[3] = 1, s.history[6] = 0.01;  // in contact since the last increment, as deep
    s.vx[4] = v;  // the slave slides along +x over a resting facet
    const double penalty = 100.0, dt = 0.01;
    const ContactView<double> c = s.view(penalty, dt);
    double sum[2] = {0, 0};
    ContactNodeBody<double>{c}(0, sum);
    const double k = penalty * 1.0, fn = k * 0.01, trial = k * v * dt;
    if (trial < 0.3 * fn) {  // stick: the spring of the slip
      EXPECT_NEAR(s.force[3], -trial, 1e-12 * trial);
      EXPECT_EQ(sum[1], 0.0);
    } else {  // slip: mu fn against the motion, the slip beyond the spring dissipated
      EXPECT_NEAR(s.force[3], -0.3 * fn, 1e-12 * fn);
      EXPECT_NEAR(sum[1], 0.3 * fn * (trial - 0.3 * fn) / k, 1e-12 * fn * v * dt);
    }
    EXPECT_NEAR(s.history[0], s.force[3], 1e-300);
    EXPECT_EQ(s.force[4], 0.0);
  }
}

TEST(ContactPass, NewContactCountsOnlyThePenetrationItsApproachExplains) {
  // The slave is 0.01 below the facet with no contact before: arriving at 0.4 per unit time
  // over an increment of 0.01 explains 2 x 0.004 of it; the rest (0.002) is kept as the
  // record's excess and carries no force, now or while the contact lasts.
  for (const double vz : {0.0, -0.4, -2.0}) {
    OneFacet s;
    s.mu_s = s.mu_k = {0.0};
    s.vz[4] = vz;
    const double penalty = 100.0, dt = 0.01, k = penalty * 1.0;
    const double explained = std::min(0.01, 2 * -vz * dt);
    ContactNodeBody<double>{s.view(penalty, dt)}(0, std::array<double, 2>{}.data());
    EXPECT_NEAR(s.force[2], k * explained, 1e-12 * k);
    EXPECT_EQ(s.history[3], 1.0);
    EXPECT_NEAR(s.history[4], 0.01 - explained, 1e-15);
    // Pushed 0.001 deeper at the next increment (arriving at 0.1: it explains up to 0.002):
    // that much more force.
    s.uz[4] -= 0.001;
    s.vz[4] = -0.1;
    double sum[2] = {0, 0};
    ContactNodeBody<double>{s.view(penalty, dt)}(0, sum);
    EXPECT_NEAR(s.force[2], k * (explained + 0.001), 1e-12 * k);
    EXPECT_NEAR(sum[0], 0.5 * k * (explained + 0.001) * (explained + 0.001), 1e-12 * k * 1e-4);
    // Backing out above the excess: no force, and the excess follows the penetration down.
    s.uz[4] = -0.001;
    s.vz[4] = 0.0;
    ContactNodeBody<double>{s.view(penalty, dt)}(0, sum);
    EXPECT_NEAR(s.force[2], k * std::max(0.0, 0.001 - (0.01 - explained)), 1e-12 * k);
    EXPECT_NEAR(s.history[4], std::min(0.001, 0.01 - explained), 1e-15);
  }
}

TEST(ContactPass, ARecordMovingToAnotherFacetKeepsItsSpringsStretch) {
  // At the last commit the record touched facet 7 with its spring stretched 0.001 (excess
  // 0.5). Now it touches facet 0, 0.01 deep, not approaching: the spring keeps its 0.001,
  // the rest is excess. (A node between a fold's layers went from one to the other and
  // back and its spring's energy jumped from 5 to 13,000 in one increment.)
  OneFacet s;
  s.mu_s = s.mu_k = {0.0};
  const double penalty = 100.0, dt = 0.01, k = penalty * 1.0;
  s.history = {0, 0, 0, 1, 0.5, 7, 0.001};
  ContactNodeBody<double>{s.view(penalty, dt)}(0, std::array<double, 2>{}.data());
  EXPECT_NEAR(s.force[2], k * 0.001, 1e-12 * k);
  EXPECT_NEAR(s.history[4], 0.009, 1e-15);
  EXPECT_EQ(s.history[5], 0.0);
  EXPECT_NEAR(s.history[6], 0.001, 1e-15);
  // On the same facet as before, the excess only follows the penetration down: all 0.01 of
  // it stays excess (no force) when the last commit held 0.5.
  s.history = {0, 0, 0, 1, 0.5, 0, 0.0};
  ContactNodeBody<double>{s.view(penalty, dt)}(0, std::array<double, 2>{}.data());
  EXPECT_EQ(s.force[2], 0.0);
  EXPECT_NEAR(s.history[4], 0.01, 1e-15);
}

TEST(ContactPass, AJumpOfPenetrationOnTheSameFacetIsIgnored) {
  // In contact with facet 0 at the last commit with a stretch of 0.002 and no excess; now
  // 0.01 deep with no approach (the touch point crossed into a warped facet's steeper
  // triangle): the spring keeps its 0.002, the jump is excess. (A fold of the crushed tube
  // put 1.6 kJ into one spring this way.)
  OneFacet s;
  s.mu_s = s.mu_k = {0.0};
  const double penalty = 100.0, dt = 0.01, k = penalty * 1.0;
  s.history = {0, 0, 0, 1, 0, 0, 0.002};
  ContactNodeBody<double>{s.view(penalty, dt)}(0, std::array<double, 2>{}.data());
  EXPECT_NEAR(s.force[2], k * 0.002, 1e-12 * k);
  EXPECT_NEAR(s.history[4], 0.008, 1e-15);
  // Arriving at 0.3 over the same increment explains 0.006 more: stretch 0.008.
  s.history = {0, 0, 0, 1, 0, 0, 0.002};
  s.vz[4] = -0.3;
  ContactNodeBody<double>{s.view(penalty, dt)}(0, std::array<double, 2>{}.data());
  EXPECT_NEAR(s.force[2], k * 0.008, 1e-12 * k);
}

TEST(ContactPass, ExponentialDecayGoesFromStaticToKinetic) {
  EXPECT_DOUBLE_EQ(friction_coefficient(0.5, 0.2, 3.0, 0.0), 0.5);
  EXPECT_NEAR(friction_coefficient(0.5, 0.2, 3.0, 1.0), 0.2 + 0.3 * std::exp(-3.0), 1e-15);
  EXPECT_NEAR(friction_coefficient(0.5, 0.2, 3.0, 1e3), 0.2, 1e-15);
}


/// The ordered sum of the GPU's contact pass (contact_entry_key, contact_entry_values): each
/// target's entries, sorted stably by target and summed in order, give exactly the serial
/// scatter's nodal forces and definition totals (which sum in record order), for records
/// touching facets (quadrilaterals and triangles), an analytical master's reference node and
/// nothing, and for edge records. Before it the GPU added them with atomics in an order that
/// varied from run to run.
TEST(ContactScatter, OrderedEntriesSumToTheSerialScatterBitForBit) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int nn = 14, ns = 60, nf = 9, ne = 8, pairs = 3, ref = 13;
  std::vector<int> facet_nodes(4 * nf);
  for (int f = 0; f < nf; ++f)
    for (int k = 0; k < 4; ++k) facet_nodes[4 * f + k] = (k == 3 && f % 3 == 0) ? -1 : static_cast<int>(rng() % 12);
  std::vector<int> slave_node(ns), slave_pair(ns), facet_of(ns), edge_nodes(2 * ne), edge_pair(ne), edge_of(ne);
  std::vector<double> force(6 * ns), weight(4 * ns), edge_force(3 * ne), edge_param(2 * ne);
  for (int i = 0; i < ns; ++i) {
    slave_node[i] = static_cast<int>(rng() % 12);
    slave_pair[i] = static_cast<int>(rng() % pairs);
    const int pick = static_cast<int>(rng() % (nf + 3));
    facet_of[i] = pick < nf ? pick : pick == nf ? nf /* the analytical surface */ : -1;
    for (int k = 0; k < 6; ++k) force[6 * i + k] = u(rng);
    for (int k = 0; k < 4; ++k) weight[4 * i + k] = 0.5 * (1 + u(rng));
  }
  for (int i = 0; i < ne; ++i) {
    edge_nodes[2 * i] = static_cast<int>(rng() % 12);
    edge_nodes[2 * i + 1] = static_cast<int>(rng() % 12);
    edge_pair[i] = static_cast<int>(rng() % pairs);
    edge_of[i] = i % 4 == 3 ? -1 : static_cast<int>(rng() % ne);
    for (int k = 0; k < 3; ++k) edge_force[3 * i + k] = u(rng);
    for (int k = 0; k < 2; ++k) edge_param[2 * i + k] = 0.5 * (1 + u(rng));
  }
  const std::vector<int> analytic_ref = {ref};
  ContactView<double> c{};
  c.num_slaves = ns;
  c.facet_nodes = facet_nodes.data();
  c.slave_node = slave_node.data();
  c.slave_pair = slave_pair.data();
  c.force = force.data();
  c.facet_of = facet_of.data();
  c.weight = weight.data();
  c.analytic.num_facets = nf;
  c.analytic.num = 1;
  c.analytic.ref = analytic_ref.data();
  c.num_edges = ne;
  c.edge_nodes = edge_nodes.data();
  c.edge_pair = edge_pair.data();
  c.edge_force = edge_force.data();
  c.edge_param = edge_param.data();
  c.edge_of = edge_of.data();

  std::vector<double> normal(3 * nn, 0.0), shear(3 * nn, 0.0), total(6 * pairs, 0.0);
  const auto add = [](double* a, int k, double v) { a[k] += v; };
  for (int i = 0; i < ns; ++i) scatter_contact(c, i, normal.data(), shear.data(), total.data(), add);
  for (int i = 0; i < ne; ++i) scatter_edge_contact(c, i, normal.data(), total.data(), add);

  const int none = nn + pairs;
  const long long entries = contact_entries(c);
  ASSERT_EQ(entries, 6LL * ns + 5LL * ne);
  std::vector<int> key(static_cast<std::size_t>(entries)), order(static_cast<std::size_t>(entries));
  for (long long e = 0; e < entries; ++e) key[e] = contact_entry_key(c, e, nn, none);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key[a] < key[b]; });
  std::vector<double> o_normal(3 * nn, 0.0), o_shear(3 * nn, 0.0), o_total(6 * pairs, 0.0);
  int targets = 0;
  for (std::size_t k = 0; k < order.size();) {
    const int target = key[order[k]];
    ASSERT_GE(target, 0);
    ASSERT_LE(target, none);
    double v[6] = {0, 0, 0, 0, 0, 0};
    std::size_t end = k;
    for (; end < order.size() && key[order[end]] == target; ++end) {
      double x[6];
      contact_entry_values(c, order[end], x);
      for (int j = 0; j < 6; ++j) v[j] += x[j];
    }
    k = end;
    if (target == none) continue;
    ++targets;
    for (int j = 0; j < 6; ++j) {
      if (target < nn) (j < 3 ? o_normal : o_shear)[3 * target + j % 3] = v[j];
      else o_total[6 * (target - nn) + j] = v[j];
    }
  }
  EXPECT_GT(targets, 10);
  EXPECT_NE(normal[3 * ref], 0.0);  // the analytical surface's reference node takes reactions
  EXPECT_EQ(std::memcmp(o_normal.data(), normal.data(), normal.size() * sizeof(double)), 0);
  EXPECT_EQ(std::memcmp(o_shear.data(), shear.data(), shear.size() * sizeof(double)), 0);
  EXPECT_EQ(std::memcmp(o_total.data(), total.data(), total.size() * sizeof(double)), 0);
}

}  // namespace
}  // namespace halfstep
