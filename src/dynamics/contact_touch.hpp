// Where a slave node touches a master facet: the touch (penetration, normal, corner weights,
// how far beyond the facet), the projection onto a triangle with the facets' 2 % margin, and
// the rule that picks one touch among the candidates (docs/theory.md, "Contact"). Shared by
// the explicit contact pass (CPU and GPU) and the static steps' contact.
#pragma once

#include "core/host_device.hpp"
#include "core/vec3.hpp"

namespace halfstep {

/// Where a point touches a facet: penetration (> 0), unit normal pushing the point out, and
/// the weights of the facet's corners at the touch point.
template <class T>
struct ContactTouch {
  T pen;
  Vec3<T> normal;
  T w[4];
  T out;  ///< how far the projection lies beyond the facet (its least barycentric weight's deficit; 0: inside)
};

/// Projection of p on triangle (a, b, c): signed distance d along its unit normal n and the
/// barycentric weights; false for a degenerate triangle or a projection outside it.
template <class T>
HS_HD bool barycentric_projection(Vec3<T> p, Vec3<T> a, Vec3<T> b, Vec3<T> c, T& d, Vec3<T>& n, T l[3]) {
  const Vec3<T> e1 = b - a, e2 = c - a;
  const Vec3<T> nn = cross(e1, e2);
  const T area2 = norm(nn);
  if (!(area2 > T(0))) return false;
  n = (T(1) / area2) * nn;
  const Vec3<T> r = p - a;
  d = dot(r, n);
  const Vec3<T> q = r - d * n;
  // Barycentric coordinates of q from the sub-areas (signed along n).
  l[1] = dot(cross(q, e2), n) / area2;
  l[2] = dot(cross(e1, q), n) / area2;
  l[0] = T(1) - l[1] - l[2];
  // A slave on the edge of the master surface (a cube standing flush on a base of the same
  // footprint, bars meeting end to end) must stay in contact when it moves out by a hair:
  // the facets reach 2 % beyond their edges. Without it, round-off (FP32: the weights carry
  // the positions' round-off times position / edge) or a slight lateral motion flickered
  // contact on and off, each touch-down fed energy in, and the ringing grew (a cube dropped
  // flush on a held base: 46 % energy error).
  const T tol = T(-0.02);
  return l[0] >= tol && l[1] >= tol && l[2] >= tol;
}

/// How far a projection with barycentric weights l lies beyond its triangle (0: inside).
template <class T>
HS_HD T projection_outside(const T l[3]) {
  const T least = l[0] < l[1] ? (l[0] < l[2] ? l[0] : l[2]) : (l[1] < l[2] ? l[1] : l[2]);
  return least < T(0) ? -least : T(0);
}

/// Whether candidate (pen, f) beats the best so far: the least penetration, ties to the
/// lower index (f's are unique, so the choice does not depend on the order of the search).
template <class T>
HS_HD bool contact_better(T pen, int f, T best_pen, int best) {
  return best < 0 || pen < best_pen || (pen == best_pen && f < best);
}

/// Whether touch t of facet f beats the best so far (touch b of facet best): a facet that
/// holds the projection before one that reaches it with its 2 % margin only, and of those the
/// nearest; then contact_better. (By penetration alone, a slave 1 % of a facet inside the edge
/// it shares with the next facet, as happens where meshes of n and n + 1 facets meet, flipped
/// between the two on the round-off of the penetration: the force moved 1 % between their
/// nodes at every Newton iteration of a static step, which stalled. The margin is for edges
/// of the surface, where no facet holds the slave.)
template <class T>
HS_HD bool touch_better(const ContactTouch<T>& t, int f, const ContactTouch<T>& b, int best) {
  if (best >= 0 && (t.out > T(0) || b.out > T(0)) && t.out != b.out) return t.out < b.out;
  return contact_better(t.pen, f, b.pen, best);
}

}  // namespace halfstep
