// Rigid analytical surfaces (issue 17, discretization/analytic_surface.hpp): the distance and
// normal of points against profiles swept along a generator or revolved about an axis,
// checked against the closed-form distance to a plane, a sphere and a corner.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "discretization/analytic_surface.hpp"

namespace halfstep {
namespace {

/// One analytical surface: frame (kind, origin, x, y, z axes) and its profile (start, then
/// lines or arcs given as end point and centre).
struct OneSurface {
  std::vector<double> frame, seg;
  std::vector<int> ptr{0, 0}, ref{0}, pair{0};
  double from[2];
  OneSurface(double kind, double sx, double sy) : from{sx, sy} {
    frame = {kind, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  }
  void line(double x, double y) { add(0, x, y, 0, 0); }
  void arc(double x, double y, double cx, double cy) { add(1, x, y, cx, cy); }
  void add(double kind, double x, double y, double cx, double cy) {
    seg.insert(seg.end(), {kind, from[0], from[1], x, y, cx, cy});
    from[0] = x, from[1] = y;
    ptr[1] += 1;
  }
  AnalyticView<double> view() const { return {0, 1, ref.data(), frame.data(), ptr.data(), seg.data(), pair.data()}; }
};

bool touch(const OneSurface& s, Vec3<double> p, double off, double& pen, Vec3<double>& n) {
  return analytic_touch(s.view(), 0, p, Vec3<double>{0, 0, 0}, off, pen, n);
}

TEST(AnalyticSurface, PlaneOfOneLineHasItsNormalToTheLeftOfTheProfile) {
  // Cylinder: profile along local x from -1 to 1; the generator is z, so y = z x x is the
  // normal's side (the line's direction turned counterclockwise).
  OneSurface s(0, -1, 0);
  s.line(1, 0);
  double pen = 0;
  Vec3<double> n;
  ASSERT_TRUE(touch(s, {0.3, -0.1, 5.0}, 0, pen, n));
  EXPECT_NEAR(pen, 0.1, 1e-15);
  EXPECT_NEAR(n.y, 1.0, 1e-15);
  EXPECT_NEAR(std::abs(n.x) + std::abs(n.z), 0.0, 1e-15);
  EXPECT_FALSE(touch(s, {0.3, 0.2, 5.0}, 0, pen, n));   // in front
  EXPECT_TRUE(touch(s, {0.3, 0.2, 5.0}, 0.25, pen, n));  // a shell of half thickness 0.25
  EXPECT_NEAR(pen, 0.05, 1e-15);
  EXPECT_FALSE(touch(s, {1.5, -0.1, 0.0}, 0, pen, n));  // beyond the profile's end
  // The surface moves with its reference node.
  ASSERT_TRUE(analytic_touch(s.view(), 0, Vec3<double>{0.3, 0.3, 0}, Vec3<double>{0, 0.5, 0}, 0.0, pen, n));
  EXPECT_NEAR(pen, 0.2, 1e-15);
}

TEST(AnalyticSurface, RevolvedHalfCirclesAreASphere) {
  // Profile (r, z) from the north pole clockwise to the south pole: the normal points out.
  const double R = 2.0;
  OneSurface s(1, 0, R);
  s.arc(R, 0, 0, 0);
  s.arc(0, -R, 0, 0);
  const double pts[][3] = {{0.3, -0.4, 1.2}, {0, 0, 1.9}, {0, 0, -1.5}, {-1.1, 0.7, -0.2}, {1.99, 0, 0}};
  for (const auto& q : pts) {
    const Vec3<double> p{q[0], q[1], q[2]};
    double pen = 0;
    Vec3<double> n;
    ASSERT_TRUE(touch(s, p, 0, pen, n));
    EXPECT_NEAR(pen, R - norm(p), 1e-14);
    const Vec3<double> radial = (1.0 / norm(p)) * p;
    EXPECT_NEAR(dot(n, radial), 1.0, 1e-14);
  }
  double pen = 0;
  Vec3<double> n;
  EXPECT_FALSE(touch(s, {1.5, 1.5, 0.2}, 0, pen, n));  // outside
  ASSERT_TRUE(touch(s, {1.5, 1.5, 0.2}, 0.2, pen, n));  // outside, within a half thickness
  EXPECT_NEAR(pen, 0.2 - (std::sqrt(4.5 + 0.04) - R), 1e-14);
}

TEST(AnalyticSurface, CounterclockwiseCircleFacesItsCentre) {
  // A die: a cylinder profile going counterclockwise about (0, 0): the normal points at the
  // axis, so a point inside is in front and a point outside the radius is behind.
  OneSurface s(0, 1, 0);
  s.arc(0, 1, 0, 0);
  double pen = 0;
  Vec3<double> n;
  EXPECT_FALSE(touch(s, {0.5, 0.5, 3.0}, 0, pen, n));
  ASSERT_TRUE(touch(s, {0.8, 0.8, 3.0}, 0, pen, n));
  EXPECT_NEAR(pen, std::sqrt(1.28) - 1, 1e-14);
  EXPECT_NEAR(n.x, -std::sqrt(0.5), 1e-14);
  EXPECT_NEAR(n.y, -std::sqrt(0.5), 1e-14);
}

TEST(AnalyticSurface, CornersPushAlongTheLineToTheirVertex) {
  // A V opening upwards: a point below its vertex is behind both lines and projects on
  // neither: it is pushed out through the vertex.
  OneSurface v(0, -1, 1);
  v.line(0, 0);
  v.line(1, 1);
  double pen = 0;
  Vec3<double> n;
  ASSERT_TRUE(touch(v, {0.0, -0.1, 0.0}, 0, pen, n));
  EXPECT_NEAR(pen, 0.1, 1e-15);
  EXPECT_NEAR(n.y, 1.0, 1e-15);
  // Inside the V near one wall: that wall's normal.
  ASSERT_TRUE(touch(v, {0.5, 0.4, 0.0}, 0, pen, n));
  EXPECT_NEAR(pen, 0.1 / std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(n.x, -std::sqrt(0.5), 1e-15);
  // A roof: above its apex a point is in front of the joint, touched only by a thickness.
  OneSurface roof(0, -1, -1);
  roof.line(0, 0);
  roof.line(1, -1);
  EXPECT_FALSE(touch(roof, {0.0, 0.1, 0.0}, 0, pen, n));
  ASSERT_TRUE(touch(roof, {0.0, 0.1, 0.0}, 0.15, pen, n));
  EXPECT_NEAR(pen, 0.05, 1e-15);
  EXPECT_NEAR(n.y, 1.0, 1e-15);
  // Under the roof, nearer the left slope.
  ASSERT_TRUE(touch(roof, {-0.5, -0.6, 0.0}, 0, pen, n));
  EXPECT_NEAR(pen, 0.1 / std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(n.x, -std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(n.y, std::sqrt(0.5), 1e-15);
}

}  // namespace
}  // namespace halfstep
