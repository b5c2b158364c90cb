// Face pressure of solid faces: nodal forces sum to -p times the area vector, are shared as
// the consistent load of each face shape, and every face label of each element kind exists.
// Edges of planar and axisymmetric quadrilaterals: p L / 2 per node (unit thickness) and the
// ring totals 2 pi L / 6 (2 r_a + r_b) p, along the inward in-plane normal.
#include <gtest/gtest.h>

#include "elements/solid_faces.hpp"

namespace halfstep {
namespace {

using V3 = Vec3<double>;

V3 total(const V3 f[kFaceMaxNodes]) {
  V3 s{0, 0, 0};
  for (int a = 0; a < kFaceMaxNodes; ++a) s += f[a];
  return s;
}

TEST(SolidFaces, QuadFaceCarriesPressureTimesArea) {
  // A warped quadrilateral: the area vector is the integral of x,r x x,s, i.e. (d1 x d2) / 2.
  const V3 x[kFaceMaxNodes] = {{0, 0, 0}, {2, 0, 0.1}, {2.2, 1.5, 0}, {-0.1, 1.4, 0.2}, {}, {}, {}, {}};
  V3 f[kFaceMaxNodes];
  face_pressure_force(kFaceQuad4, x, 3.0, f);
  const V3 area = 0.5 * cross(x[2] - x[0], x[3] - x[1]);
  EXPECT_LT(norm(total(f) + 3.0 * area), 1e-12);
  for (int a = 4; a < kFaceMaxNodes; ++a) EXPECT_EQ(norm(f[a]), 0.0);
  // A flat parallelogram gives each corner a quarter.
  const V3 y[kFaceMaxNodes] = {{0, 0, 0}, {2, 0, 0}, {3, 1, 0}, {1, 1, 0}, {}, {}, {}, {}};
  face_pressure_force(kFaceQuad4, y, 1.0, f);
  for (int a = 0; a < 4; ++a) EXPECT_NEAR(f[a].z, -0.5, 1e-14);
}

TEST(SolidFaces, TrianglesShareAsTheConsistentLoad) {
  const V3 c[3] = {{0, 0, 0}, {2, 0, 0}, {0, 3, 0}};  // area 3, normal +z
  V3 x[kFaceMaxNodes] = {c[0], c[1], c[2], 0.5 * (c[0] + c[1]), 0.5 * (c[1] + c[2]), 0.5 * (c[2] + c[0]), {}, {}};
  V3 f[kFaceMaxNodes];
  face_pressure_force(kFaceTri3, x, 2.0, f);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(f[a].z, -2.0, 1e-14);  // p A / 3 each
  face_pressure_force(kFaceTri6, x, 2.0, f);
  // Quadratic triangle: corners carry nothing, mid-edge nodes a third each.
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(norm(f[a]), 0.0, 1e-14);
  for (int a = 3; a < 6; ++a) EXPECT_NEAR(f[a].z, -2.0, 1e-14);
  EXPECT_NEAR(total(f).z, -6.0, 1e-13);
}

TEST(SolidFaces, EightNodeQuadrilateralSharesAsTheConsistentLoad) {
  // A flat parallelogram, nodes at the edge midpoints: the serendipity face's consistent
  // load of a uniform pressure is -1/12 of p A at each corner and 1/3 at each mid-edge node.
  const V3 c[4] = {{0, 0, 0}, {2, 0, 0}, {3, 1.5, 0}, {1, 1.5, 0}};  // area 3, normal +z
  V3 x[kFaceMaxNodes];
  for (int k = 0; k < 4; ++k) {
    x[k] = c[k];
    x[4 + k] = 0.5 * (c[k] + c[(k + 1) % 4]);
  }
  V3 f[kFaceMaxNodes];
  face_pressure_force(kFaceQuad8, x, 2.0, f);
  for (int a = 0; a < 4; ++a) EXPECT_NEAR(f[a].z, 2.0 * 3.0 / 12, 1e-14) << a;
  for (int a = 4; a < 8; ++a) EXPECT_NEAR(f[a].z, -2.0 * 3.0 / 3, 1e-14) << a;
  EXPECT_NEAR(total(f).z, -6.0, 1e-13);
  // Lifting the mid-edge nodes curves the face, but the z part of its area vector is the
  // area of its projection on z = 0, unchanged (x and y of the nodes are), so the z forces
  // still sum to -p A.
  for (int k = 4; k < 8; ++k) x[k].z += 0.2;
  face_pressure_force(kFaceQuad8, x, 2.0, f);
  EXPECT_NEAR(total(f).z, -6.0, 1e-12);
}

TEST(SolidFaces, SolidFaceTablesOfEveryKind) {
  // Faces per node count, shapes, and every corner and mid-edge node on the right number of
  // faces (hexahedron corners 3, wedge corners 3, hex20 mid-edge nodes 2).
  EXPECT_EQ(solid_face_count(4), 4);
  EXPECT_EQ(solid_face_count(6), 5);
  EXPECT_EQ(solid_face_count(8), 6);
  EXPECT_EQ(solid_face_count(10), 4);
  EXPECT_EQ(solid_face_count(20), 6);
  EXPECT_EQ(solid_face_count(15), 0);
  int n[kFaceMaxNodes];
  int wseen[6] = {0};
  for (int face = 1; face <= 5; ++face) {
    const int shape = solid_face(6, face, n);
    EXPECT_EQ(shape, face <= 2 ? kFaceTri3 : kFaceQuad4) << face;
    for (int k = 0; k < shape; ++k) ++wseen[n[k]];
    for (int k = shape; k < kFaceMaxNodes; ++k) EXPECT_EQ(n[k], -1);
  }
  for (int a = 0; a < 6; ++a) EXPECT_EQ(wseen[a], 3);
  int hseen[20] = {0};
  for (int face = 1; face <= 6; ++face) {
    EXPECT_EQ(solid_face(20, face, n), kFaceQuad8);
    for (int k = 0; k < 8; ++k) ++hseen[n[k]];
    // Each mid-edge node lies between the face corners it follows.
    for (int k = 0; k < 4; ++k) EXPECT_EQ(n[4 + k], hex20_edge_node(n[k], n[(k + 1) % 4]));
  }
  for (int a = 0; a < 8; ++a) EXPECT_EQ(hseen[a], 3);
  for (int a = 8; a < 20; ++a) EXPECT_EQ(hseen[a], 2);
  EXPECT_EQ(solid_face(8, 3, n), kFaceQuad4);
  EXPECT_EQ(solid_face(10, 2, n), kFaceTri6);
  EXPECT_EQ(solid_face(4, 2, n), kFaceTri3);
}

TEST(SolidFaces, FaceTablesCoverEveryNodeOfTheElement) {
  int seen[8] = {0};
  for (int face = 1; face <= 6; ++face) {
    int n[4];
    hex_face_nodes(face, n);
    for (int k = 0; k < 4; ++k) ++seen[n[k]];
  }
  for (int a = 0; a < 8; ++a) EXPECT_EQ(seen[a], 3);  // every hexahedron corner is on 3 faces
  int tseen[10] = {0};
  for (int face = 1; face <= 4; ++face) {
    int n[6];
    tet_face_nodes(face, true, n);
    for (int k = 0; k < 6; ++k) ++tseen[n[k]];
  }
  for (int a = 0; a < 4; ++a) EXPECT_EQ(tseen[a], 3);
  for (int a = 4; a < 10; ++a) EXPECT_EQ(tseen[a], 2);  // every edge is on 2 faces
}

TEST(PlanarEdges, EdgeTablesAreKeyedOnTheDimension) {
  // A 4-node quadrilateral and a 4-node tetrahedron have 4 faces each, of different shapes.
  EXPECT_EQ(element_face_count(4, 2), 4);
  EXPECT_EQ(element_face_count(8, 2), 4);  // the 8-node quadrilaterals (CPS8, CAX8, ...)
  EXPECT_EQ(element_face_count(6, 2), 0);
  int out[kFaceMaxNodes];
  EXPECT_EQ(element_face(4, 3, false, 1, out), kFaceTri3);
  const int ends[4][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};  // edge k: nodes k, k + 1 (4: 4, 1)
  for (int k = 1; k <= 4; ++k) {
    EXPECT_EQ(element_face(4, 2, false, k, out), kFaceEdge2);
    EXPECT_EQ(out[0], ends[k - 1][0]);
    EXPECT_EQ(out[1], ends[k - 1][1]);
    for (int a = 2; a < kFaceMaxNodes; ++a) EXPECT_EQ(out[a], -1);
    EXPECT_EQ(element_face(4, 2, true, k, out), kFaceRingEdge2);
  }
  EXPECT_EQ(face_corners(kFaceEdge2), 2);
  EXPECT_EQ(face_corners(kFaceRingEdge2), 2);
}

TEST(PlanarEdges, PlaneEdgePushesAgainstTheOutwardNormal) {
  // Edge (1, 0) -> (1, 2) of a counter-clockwise element to its left: outward normal +x,
  // length 2; p = 3 puts -3 x 2 / 2 = -3 on each node along x, nothing along y or z.
  V3 x[kFaceMaxNodes] = {{1, 0, 0}, {1, 2, 0}, {}, {}, {}, {}, {}, {}};
  V3 f[kFaceMaxNodes];
  face_pressure_force(kFaceEdge2, x, 3.0, f);
  for (int a = 0; a < 2; ++a) {
    EXPECT_DOUBLE_EQ(f[a].x, -3.0);
    EXPECT_EQ(f[a].y, 0.0);
    EXPECT_EQ(f[a].z, 0.0);
  }
  for (int a = 2; a < kFaceMaxNodes; ++a) EXPECT_EQ(norm(f[a]), 0.0);
  // A slanted edge: the total is -p times (dy, -dx), |(dy, -dx)| = L.
  x[0] = {0.3, -0.2, 0};
  x[1] = {1.1, 0.4, 0};
  face_pressure_force(kFaceEdge2, x, -2.0, f);
  EXPECT_NEAR(total(f).x, 2.0 * 0.6, 1e-15);
  EXPECT_NEAR(total(f).y, -2.0 * 0.8, 1e-15);
  EXPECT_NEAR(dot(total(f), x[1] - x[0]), 0.0, 1e-15);
}

TEST(PlanarEdges, RingEdgeCarriesTheTotalAroundTheCircumference) {
  const double kTwoPi = 6.283185307179586;
  // An axial edge at r = 0.1 (z from 0.2 down to 0: the outward normal is -r, the bore of a
  // counter-clockwise element to its right): each node p 2 pi r L / 2 outward in r.
  V3 x[kFaceMaxNodes] = {{0.1, 0.2, 0}, {0.1, 0, 0}, {}, {}, {}, {}, {}, {}};
  V3 f[kFaceMaxNodes];
  face_pressure_force(kFaceRingEdge2, x, 1e6, f);
  for (int a = 0; a < 2; ++a) {
    EXPECT_NEAR(f[a].x, 1e6 * kTwoPi * 0.1 * 0.2 / 2, 1e-15 * 1e6);
    EXPECT_EQ(f[a].y, 0.0);
  }
  // A radial edge r = 1 -> 3 at z = 0 (outward normal -z): the exact ring integrals
  // 2 pi int N_a r ds = 2 pi L (2 r_a + r_b) / 6: 2 pi 2 5/6 and 2 pi 2 7/6; total p pi (3^2 - 1^2).
  x[0] = {1, 0, 0};
  x[1] = {3, 0, 0};
  face_pressure_force(kFaceRingEdge2, x, 2.0, f);
  EXPECT_NEAR(f[0].y, 2.0 * kTwoPi * 2 * 5 / 6, 1e-13);
  EXPECT_NEAR(f[1].y, 2.0 * kTwoPi * 2 * 7 / 6, 1e-13);
  EXPECT_NEAR(total(f).y, 2.0 * kTwoPi / 2 * (9 - 1), 1e-13);
  EXPECT_EQ(f[0].x, 0.0);
}

// The faces that ties and couplings interpolate on (surface_face_nodes): a wedge's S1 is a
// triangle and S3 the quadrilateral 1-4-5-2 (Abaqus C3D6), not a tetrahedron's faces.
TEST(SurfaceFaces, WedgeFacesAreItsOwn) {
  int out[6];
  EXPECT_EQ(surface_face_nodes(6, false, 1, out), kFaceTri3);
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[1], 1);
  EXPECT_EQ(out[2], 2);
  EXPECT_EQ(surface_face_nodes(6, false, 3, out), kFaceQuad4);
  const int s3[4] = {0, 3, 4, 1};
  for (int k = 0; k < 4; ++k) EXPECT_EQ(out[k], s3[k]) << k;
  EXPECT_EQ(surface_face_nodes(6, false, 5, out), kFaceQuad4);
  EXPECT_EQ(out[0], 2);
  EXPECT_EQ(out[3], 0);
}

}  // namespace
}  // namespace halfstep
