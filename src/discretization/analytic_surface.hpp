// Rigid analytical surfaces (*SURFACE, TYPE=CYLINDER or REVOLUTION) as host/device geometry
// (issue 17; docs/theory.md, "Rigid analytical surfaces"): where a point lies against a
// profile of lines and arcs that is swept along a generator or revolved about an axis. The
// contact pass (dynamics/contact_pass.hpp) calls analytic_touch for the slave records of a
// definition whose master is such a surface.
#pragma once

#include <cmath>

#include "core/host_device.hpp"
#include "core/vec3.hpp"

namespace halfstep {

/// Values per profile segment in AnalyticView::seg: kind (0 line, 1 arc), start (x, y),
/// end (x, y), arc centre (x, y).
inline constexpr int kAnalyticSegValues = 7;
/// Values per surface in AnalyticView::frame: kind (0 cylinder, 1 revolution), the local
/// origin in the reference configuration, then the local x, y and z axes (unit vectors).
inline constexpr int kAnalyticFrameValues = 13;

/// The analytical surfaces of a run (raw pointers; the backend owns the memory).
template <class T>
struct AnalyticView {
  int num_facets = 0;              ///< ContactView::facet_of of a touch on surface s is num_facets + s
  int num = 0;                     ///< surfaces
  const int* ref = nullptr;        ///< per surface: its reference node
  const T* frame = nullptr;        ///< kAnalyticFrameValues per surface
  const int* seg_ptr = nullptr;    ///< num + 1 offsets into the segments
  const T* seg = nullptr;          ///< kAnalyticSegValues per segment
  const int* pair_surface = nullptr;  ///< per contact definition: its analytical master, or -1
};

/// Outward unit normal of profile segment g (kAnalyticSegValues values) at its end point
/// (at_end) or its start point.
template <class T>
HS_HD void segment_end_normal(const T* g, bool at_end, T& nx, T& ny) {
  if (g[0] == T(0)) {
    const T tx = g[3] - g[1], ty = g[4] - g[2];
    const T l = std::sqrt(tx * tx + ty * ty);
    nx = -ty / l, ny = tx / l;
    return;
  }
  const T ax = g[1] - g[5], ay = g[2] - g[6], bx = g[3] - g[5], by = g[4] - g[6];
  // Travelling ccw about the centre (a x b > 0) the left-hand normal points at the centre.
  const T sense = ax * by - ay * bx > T(0) ? T(1) : T(-1);
  const T px = at_end ? bx : ax, py = at_end ? by : ay;
  const T l = std::sqrt(px * px + py * py);
  nx = -sense * px / l, ny = -sense * py / l;
}

/// The nearest point of a planar profile to q: signed distance d (positive on the outward
/// side, which is the profile's direction turned 90 degrees counterclockwise), the outward
/// unit normal n there (2-D); false when q lies beyond an end of an open profile (no point
/// of the profile is nearest along a normal or at a joint).
template <class T>
HS_HD bool profile_nearest(const T* seg, int count, T qx, T qy, T& d, T& nx, T& ny) {
  bool found = false;
  T best = T(0);
  for (int s = 0; s < count; ++s) {
    const T* g = seg + kAnalyticSegValues * s;
    const T x0 = g[1], y0 = g[2], x1 = g[3], y1 = g[4];
    T dist, mx, my;
    if (g[0] == T(0)) {
      const T tx = x1 - x0, ty = y1 - y0;
      const T len2 = tx * tx + ty * ty;
      const T t = ((qx - x0) * tx + (qy - y0) * ty) / len2;
      if (!(t >= T(0) && t <= T(1))) continue;
      const T len = std::sqrt(len2);
      mx = -ty / len;
      my = tx / len;
      dist = (qx - x0) * mx + (qy - y0) * my;
    } else {
      const T cx = g[5], cy = g[6];
      const T ax = x0 - cx, ay = y0 - cy, bx = x1 - cx, by = y1 - cy;
      const T ux = qx - cx, uy = qy - cy;
      // The arc is shorter than a half turn: q lies in its sector when it is on the arc's
      // side of both end radii, in the arc's sense of travel (ccw when a x b > 0).
      const T sense = ax * by - ay * bx > T(0) ? T(1) : T(-1);
      if (!(sense * (ax * uy - ay * ux) >= T(0) && sense * (ux * by - uy * bx) >= T(0))) continue;
      const T ru = std::sqrt(ux * ux + uy * uy);
      const T radius = std::sqrt(ax * ax + ay * ay);
      if (!(ru > T(0))) continue;  // the centre: every point of the arc is as near
      // Travelling ccw about the centre the left-hand normal points at the centre; cw, away.
      mx = -sense * ux / ru;
      my = -sense * uy / ru;
      dist = sense * (radius - ru);
    }
    if (found && !(std::fabs(dist) < std::fabs(best))) continue;
    found = true;
    best = dist;
    nx = mx;
    ny = my;
  }
  if (found) {
    d = best;
    return true;
  }
  // No segment projects q: it faces a joint between two segments (an end of an open profile
  // has no surface beyond it). Behind the joint when q is behind both segments' lines there.
  for (int s = 0; s + 1 < count; ++s) {
    const T* g = seg + kAnalyticSegValues * s;
    const T vx = g[3], vy = g[4];
    const T rx = qx - vx, ry = qy - vy;
    const T r = std::sqrt(rx * rx + ry * ry);
    if (found && !(r < std::fabs(best))) continue;
    // Outward normals of both segments at the joint.
    T n1x, n1y, n2x, n2y;
    segment_end_normal(g, true, n1x, n1y);
    segment_end_normal(g + kAnalyticSegValues, false, n2x, n2y);
    const bool behind = rx * n1x + ry * n1y < T(0) && rx * n2x + ry * n2y < T(0);
    if (r > T(0)) {
      const T side = behind ? T(-1) : T(1);
      nx = side * rx / r;
      ny = side * ry / r;
    } else {
      nx = n1x + n2x;
      ny = n1y + n2y;
      const T l = std::sqrt(nx * nx + ny * ny);
      if (l > T(0)) nx /= l, ny /= l;
    }
    best = behind ? -r : r;
    found = true;
  }
  if (found) d = best;
  return found;
}

/// Where point p (a slave with half thickness off) touches analytical surface s whose
/// reference node has moved by u_ref: penetration pen > 0 and the unit normal pushing p out.
/// False when p is in front of the surface by off or more, or beyond its profile's ends.
template <class T>
HS_HD bool analytic_touch(const AnalyticView<T>& a, int s, Vec3<T> p, Vec3<T> u_ref, T off, T& pen, Vec3<T>& normal) {
  const T* f = a.frame + kAnalyticFrameValues * s;
  const Vec3<T> origin{f[1] + u_ref.x, f[2] + u_ref.y, f[3] + u_ref.z};
  const Vec3<T> ex{f[4], f[5], f[6]}, ey{f[7], f[8], f[9]}, ez{f[10], f[11], f[12]};
  const Vec3<T> r = p - origin;
  const T* seg = a.seg + kAnalyticSegValues * a.seg_ptr[s];
  const int count = a.seg_ptr[s + 1] - a.seg_ptr[s];
  T d, nx, ny;
  if (f[0] == T(0)) {  // cylinder: the profile in (x, y), swept along z
    if (!profile_nearest(seg, count, dot(r, ex), dot(r, ey), d, nx, ny)) return false;
    normal = nx * ex + ny * ey;
  } else {  // revolution: the profile in (r, z) about the z-axis
    const T z = dot(r, ez);
    const Vec3<T> radial = r - z * ez;
    const T rr = norm(radial);
    if (!profile_nearest(seg, count, rr, z, d, nx, ny)) return false;
    const Vec3<T> er = rr > T(0) ? (T(1) / rr) * radial : ex;
    normal = nx * er + ny * ez;
  }
  if (!(d < off)) return false;
  pen = off - d;
  return true;
}

}  // namespace halfstep
