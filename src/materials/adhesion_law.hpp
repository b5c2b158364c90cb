// Interaction laws between a body's surface and a rigid flat substrate (*ADHESION; issue 14,
// seed 004 Eqs. 2-3): the normal traction T(r) on the body at gap r (positive pushes the body
// away from the substrate) and the interaction energy phi(r) per unit area, with
// T = -dphi/dr so that forces are the gradient of an energy (symmetric tangents, and an
// energy balance that closes).
//   Lennard-Jones   the van der Waals law of Sauer and Li (2007), the Lennard-Jones potential
//                   integrated over two half-spaces:
//                     T(r)   = A_H / (2 pi r0^3) [ (r0/r)^9 / 45 - (r0/r)^3 / 3 ]
//                     phi(r) = A_H / (2 pi r0^3) r0 [ (r0/r)^8 / 360 - (r0/r)^2 / 6 ]
//                   zero traction at r_eq = 15^(-1/6) r0, where phi = -W (the work of
//                   adhesion, 0.308277 A_H / (2 pi r0^2)). Below r_min the traction continues
//                   along its tangent at r_min (C1), so that a Newton iterate that overshoots
//                   through the substrate meets a steep finite repulsion instead of the
//                   r^-9 pole (and the sign change of r^-9 at r < 0).
//   Penalty         hard contact by a penalty (seed 004 Eq. 2): T = -eps r for r < 0, else 0.
// Host/device templates on the number type (double, float, Dual<T> for tangents).
#pragma once

#include <algorithm>
#include <cmath>

#include "core/host_device.hpp"

namespace halfstep {

/// Which law an AdhesionConstants holds.
enum AdhesionLawKind : int { kAdhesionLennardJones = 0, kAdhesionPenalty = 1 };

/// Constants of one *ADHESION: the law and the rigid substrate (a plane through `point` with
/// unit normal `normal` pointing towards the body). Plain doubles whatever number type the
/// element runs in (like ElementState::data), copied to the GPU as is.
struct AdhesionConstants {
  int law = kAdhesionLennardJones;
  double scale = 0;    ///< Lennard-Jones: A_H / (2 pi r0^3), a traction
  double r0 = 0;       ///< Lennard-Jones: the equilibrium spacing of the interacting particles
  double r_min = 0;    ///< Lennard-Jones: below this gap the traction is continued linearly
  double penalty = 0;  ///< Penalty: traction per unit penetration
  double point[3] = {0, 0, 0};
  double normal[3] = {0, 0, 0};
};

/// Traction T(r) and energy per unit area phi(r) of law c at gap r (T = -dphi/dr).
template <class T>
HS_HD T adhesion_traction(const AdhesionConstants& c, T r, T& phi) {
  if (c.law == kAdhesionPenalty) {
    if (r < T(0)) {
      phi = T(0.5 * c.penalty) * r * r;
      return T(-c.penalty) * r;
    }
    phi = T(0);
    return T(0);
  }
  // Lennard-Jones, in s = r0 / r; below r_min, the tangent continuation about r_min.
  const bool linear = r < T(c.r_min);
  const T rr = linear ? T(c.r_min) : r;
  const T s = T(c.r0) / rr, s2 = s * s, s3 = s2 * s, s8 = s2 * s2 * s2 * s2, s9 = s8 * s;
  const T t = T(c.scale) * (s9 / T(45) - s3 / T(3));
  const T e = T(c.scale * c.r0) * (s8 / T(360) - s2 / T(6));
  if (!linear) {
    phi = e;
    return t;
  }
  const T slope = T(c.scale) / rr * (s3 - s9 / T(5));  // dT/dr at r_min
  const T d = r - rr;
  phi = e - (t * d + T(0.5) * slope * d * d);
  return t + slope * d;
}

/// The steepest slope |dT/dr| law c reaches at any gap (a traction per unit length), which
/// bounds an explicit step's increment: the penalty itself; for Lennard-Jones, in s = r0 / r,
/// dT/dr = scale (s^4 - s^10 / 5) / r0, whose magnitude grows with s where s^6 > 5 and has a
/// single peak, at s^6 = 2, below: the larger of |dT/dr| at r_min (the linear continuation
/// below it keeps that slope) and, when r_min lies below it, the peak's.
inline double adhesion_steepest_slope(const AdhesionConstants& c) {
  if (c.law == kAdhesionPenalty) return c.penalty;
  if (!(c.r0 > 0) || !(c.r_min > 0)) return 0.0;
  const auto slope = [&c](double s) {
    const double s4 = s * s * s * s;
    return std::fabs(c.scale * (s4 - s4 * s4 * s * s / 5.0) / c.r0);
  };
  const double s_peak = 1.122462048309373;  // 2^(1/6)
  const double steepest = slope(c.r0 / c.r_min);
  return c.r0 / c.r_min >= s_peak ? std::max(steepest, slope(s_peak)) : steepest;
}

/// The gap at which the Lennard-Jones traction vanishes, 15^(-1/6) r0 (the strip's rest
/// distance from the substrate).
inline double lennard_jones_rest_gap(double r0) { return r0 * 0.6367732194731706; }

/// Work of adhesion of the Lennard-Jones law, -phi(r_eq) = (1/6 s^2 - 1/360 s^8) scale r0 with
/// s = 15^(1/6): the energy per unit area it takes to pull a flat surface off the substrate.
inline double lennard_jones_work_of_adhesion(double scale, double r0) {
  const double s2 = 2.4662120743304703;  // 15^(1/3)
  const double s8 = s2 * s2 * s2 * s2;  // 15^(4/3)
  return scale * r0 * (s2 / 6.0 - s8 / 360.0);
}

}  // namespace halfstep
