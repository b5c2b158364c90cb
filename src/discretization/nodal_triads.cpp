#include "discretization/nodal_triads.hpp"

#include <cmath>

#include "core/vec3.hpp"

namespace halfstep {

namespace {

Vec3<double> director(const StructureState& s, int n) { return {s.dx[n], s.dy[n], s.dz[n]}; }
Vec3<double> first(const StructureState& s, int n) { return {s.t1x[n], s.t1y[n], s.t1z[n]}; }

void set_first(StructureState& s, int n, Vec3<double> t) {
  s.t1x[n] = t.x;
  s.t1y[n] = t.y;
  s.t1z[n] = t.z;
}

/// Component of a constraint axis in the tangent plane below which it is a drilling axis.
constexpr double kDrillingTolerance = 1e-3;

}  // namespace

void initialize_triads(StructureState& state) {
  const int nn = static_cast<int>(state.dx.size());
  for (int n = 0; n < nn; ++n) {
    const Vec3<double> d = director(state, n);
    Vec3<double> ref{1, 0, 0};
    Vec3<double> p = ref - dot(ref, d) * d;
    if (norm(p) < 1.7453292e-3) {
      ref = {0, 0, 1};
      p = ref - dot(ref, d) * d;
    }
    set_first(state, n, normalized(p));
    state.r1x[n] = state.t1x[n];
    state.r1y[n] = state.t1y[n];
    state.r1z[n] = state.t1z[n];
  }
}

std::vector<std::uint8_t> align_triads(const StructureSystem& sys, const std::vector<std::uint8_t>& fixed_rotation,
                                       StructureState& state) {
  const int nn = static_cast<int>(fixed_rotation.size());
  std::vector<std::uint8_t> held(nn, 0);
  const Vec3<double> axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int n = 0; n < nn; ++n) {
    if (!fixed_rotation[n]) continue;
    const Vec3<double> d = director(state, n), t1 = first(state, n), t2 = cross(d, t1);
    // Each held global axis constrains the in-plane rotation rate (w1, w2) along c = (e.t1, e.t2).
    double cx[3], cy[3];
    int count = 0, strongest = -1;
    double best = 0;
    for (int j = 0; j < 3; ++j) {
      if (!(fixed_rotation[n] & (1u << j))) continue;
      const double a = dot(axes[j], t1), b = dot(axes[j], t2);
      const double len = std::hypot(a, b);
      if (len < kDrillingTolerance) continue;
      cx[count] = a / len;
      cy[count] = b / len;
      if (len > best) {
        best = len;
        strongest = count;
      }
      ++count;
    }
    if (count == 0) continue;
    bool rank_two = false;
    for (int i = 0; i < count; ++i)
      for (int j = i + 1; j < count; ++j)
        if (std::fabs(cx[i] * cy[j] - cy[i] * cx[j]) > kDrillingTolerance) rank_two = true;
    if (rank_two) {
      held[n] = 3;
      continue;
    }
    // One independent constraint: t1 becomes the free direction, rotation about t2 is held.
    const double fx = -cy[strongest], fy = cx[strongest];
    const Vec3<double> new_t1 = normalized(fx * t1 + fy * t2);
    const Vec3<double> new_t2 = cross(d, new_t1);
    const Vec3<double> w = state.v[3][n] * t1 + state.v[4][n] * t2;
    state.v[3][n] = dot(w, new_t1);
    state.v[4][n] = dot(w, new_t2);
    set_first(state, n, new_t1);
    // The re-basing is a turn of psi about the director, not a motion: turn the reference t1
    // by the same angle about the reference director so rotation output is unaffected.
    const double cpsi = dot(t1, new_t1), spsi = dot(cross(t1, new_t1), d);
    const Vec3<double> r1{state.r1x[n], state.r1y[n], state.r1z[n]};
    const Vec3<double> d0{sys.dir0x[n], sys.dir0y[n], sys.dir0z[n]};
    const Vec3<double> nr1 = normalized(cpsi * r1 + spsi * cross(d0, r1));
    state.r1x[n] = nr1.x;
    state.r1y[n] = nr1.y;
    state.r1z[n] = nr1.z;
    held[n] = 2;
  }
  return held;
}

}  // namespace halfstep
