// Springs and dashpots (SPRINGA, SPRING1, SPRING2, DASHPOTA, DASHPOT1, DASHPOT2) as continuum
// traits (interface in solid_kinds.hpp), so that every backend, scheme, distributed run and
// the static tangent reach them through the registry. They carry no material and no mass:
// their *SPRING / *DASHPOT gives the stiffness k or the coefficient c and the dofs, held in
// the SolidMaterial of their section (discrete, dof1, dof2), and the stable increment needs
// the nodal masses of the rest of the model (nodal_mass_dt, called by the system build).
//   SPRINGA   k (l - L) along the current line between the nodes (geometrically nonlinear)
//   SPRING1   k u_i at one node (to ground), in dof i
//   SPRING2   k (u1_i - u2_j) between dof i of node 1 and dof j of node 2 (fixed directions)
//             (a nonlinear spring replaces k s by a piecewise-linear table F(s), spring_force)
//   DASHPOT*  the same with c times the velocities (DASHPOTA: the relative velocity along the
//             current line). The explicit pass hands them the latest half-station velocities
//             v^{n+1/2}; without velocities (static steps) a dashpot carries no force.
// A dashpot's state (one point) keeps its dissipated energy and its nodes' displacements at
// the last evaluation, so that the dissipation grows by f . du (= c v^2 dt) whatever the step.
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "core/vec3.hpp"
#include "elements/solid_common.hpp"
#include "materials/material_law.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {
namespace discrete_detail {

/// |v|, for double, float and dual numbers (sqrt found by argument-dependent lookup).
template <class T>
HS_HD T length(const Vec3<T>& v) {
  using std::sqrt;
  return sqrt(dot(v, v));
}

/// Component i (0, 1, 2) of v.
template <class T>
HS_HD T comp(const Vec3<T>& v, int i) {
  return i == 0 ? v.x : i == 1 ? v.y : v.z;
}

/// The vector with s in component i, zero elsewhere.
template <class T>
HS_HD Vec3<T> along(int i, T s) {
  return {i == 0 ? s : T(0), i == 1 ? s : T(0), i == 2 ? s : T(0)};
}

/// Measured quantity of a discrete element at displacements (or velocities) w: SPRINGA's
/// length change is not linear and is handled apart; here the relative value of the 1- and
/// 2-dof kinds: w1_i (ground) or w1_i - w2_j.
template <class T, int N>
HS_HD T relative(const SolidMaterial<T>& m, const Vec3<T> w[N]) {
  if constexpr (N == 1) {
    return comp(w[0], m.dof1);
  } else {
    return comp(w[0], m.dof1) - comp(w[1], m.dof2);
  }
}

/// Nodal forces s on the 1- and 2-dof kinds' dofs (s = k or c times relative()).
template <class T, int N>
HS_HD void spread(const SolidMaterial<T>& m, T s, Vec3<T> f[N]) {
  f[0] = along(m.dof1, s);
  if constexpr (N == 2) f[1] = along(m.dof2, T(-1) * s);
}

/// Force of segment i (points i and i + 1, continued beyond them) of a nonlinear spring's
/// table (SolidMaterial::hardening_points pairs; forces in yield_stress, relative
/// displacements in yield_strain) at relative displacement x.
template <class T>
HS_HD T segment_force(const SolidMaterial<T>& m, int i, T x) {
  return m.yield_stress[i] +
         (m.yield_stress[i + 1] - m.yield_stress[i]) / (m.yield_strain[i + 1] - m.yield_strain[i]) * (x - m.yield_strain[i]);
}

/// Force and energy (integral of the force from 0 to s) of a spring at relative displacement
/// s: k s and k s^2 / 2, or the nonlinear table, piecewise linear and continued beyond its
/// ends along its end segments.
template <class T>
HS_HD T spring_force(const SolidMaterial<T>& m, T s, T& energy) {
  const int n = m.hardening_points;
  if (n < 2) {
    energy = T(0.5) * m.discrete * s * s;
    return m.discrete * s;
  }
  int seg = 0;
  while (seg < n - 2 && s > m.yield_strain[seg + 1]) ++seg;
  // The integral from 0 to s, segment by segment (trapezoids of the linear pieces).
  const bool up = s > T(0);
  const T a = up ? T(0) : s, b = up ? s : T(0);
  T w = T(0);
  for (int i = 0; i < n - 1; ++i) {
    const bool first = i == 0, last = i == n - 2;
    T x0 = a, x1 = b;
    if (!first && m.yield_strain[i] > x0) x0 = m.yield_strain[i];
    if (!last && m.yield_strain[i + 1] < x1) x1 = m.yield_strain[i + 1];
    if (x1 > x0) w = w + T(0.5) * (x1 - x0) * (segment_force(m, i, x0) + segment_force(m, i, x1));
  }
  energy = up ? w : T(-1) * w;
  return segment_force(m, seg, s);
}

/// Facts shared by the six discrete kinds. Kind: 1 spring, 2 dashpot; Dofs: dof fields on the
/// keyword's first data line (0 for the A kinds, which act along their line).
template <int N, int Kind, int Dofs>
struct DiscreteBase {
  static constexpr int kNodes = N;
  static constexpr const char* kAliases = "";
  static constexpr int kDimension = 3;
  static constexpr int kVtkCell = N == 1 ? 1 : 3;  ///< VTK_VERTEX, VTK_LINE
  static constexpr double kCost = 0.05;  ///< relative cost per increment (MITC4 = 1); estimated, not measured
  static constexpr int kPoints = 1;
  static constexpr int kDiscrete = Kind;
  static constexpr int kDiscreteDofs = Dofs;

  /// No mass of their own (the section's density is 0): equal fractions of a unit measure;
  /// 0 for an A kind whose nodes coincide (no line of action).
  template <class T>
  HS_HD static T mass_fractions(const Vec3<T> X[N], T frac[N]) {
    for (int a = 0; a < N; ++a) frac[a] = T(1) / T(N);
    if constexpr (Dofs == 0) return length(X[1] - X[0]);
    return T(1);
  }

  /// Placeholder: the increment depends on the nodal masses, which the system build has
  /// only after every element (nodal_mass_dt replaces it there).
  template <class T>
  HS_HD static T stable_dt(const Vec3<T>[N], const SolidMaterial<T>&, T = T(0.1)) {
    return T(1e30);
  }

  /// Critical increment of the element with the given nodal masses: 2 / omega with
  /// omega^2 = k (1/m1 + 1/m2) for springs (the two-mass oscillator; k / m1 to ground), and
  /// 2 / (c (1/m1 + 1/m2)) for dashpots (the lagged velocity update v += -dt c v_rel (1/m1 +
  /// 1/m2) stays stable while its factor is above -1; 2 m1 / c to ground). A massless node
  /// counts as ground: it must be held (the explicit solver refuses a free massless node).
  static double nodal_mass_dt(const SolidMaterial<double>& m, const double mass[N], const Vec3<double>[N] = nullptr,
                              const double* = nullptr) {
    double inv = 0;
    for (int a = 0; a < N; ++a)
      if (mass[a] > 0) inv += 1.0 / mass[a];
    double value = m.discrete;  // a nonlinear spring: its steepest segment
    for (int i = 0; i + 1 < m.hardening_points; ++i)
      value = std::max(value, std::fabs((m.yield_stress[i + 1] - m.yield_stress[i]) / (m.yield_strain[i + 1] - m.yield_strain[i])));
    if (!(value > 0) || !(inv > 0)) return 1e30;
    return Kind == 1 ? 2.0 / std::sqrt(value * inv) : 2.0 / (value * inv);
  }

  /// No stress or strain tensor (the force is the AxialForce output, axial_force).
  template <class T>
  HS_HD static SolidOutput<T> centroid_output(const Vec3<T>[N], const Vec3<T>[N], const SolidMaterial<T>&,
                                              ElementState<T> = {}) {
    return {scaled_identity(T(0)), scaled_identity(T(0))};
  }
};

}  // namespace discrete_detail

/// Whether trait K is a spring or dashpot (has kDiscrete).
template <class K, class = void>
struct IsDiscrete : std::false_type {};
template <class K>
struct IsDiscrete<K, std::void_t<decltype(K::kDiscrete)>> : std::true_type {};

/// Springs, linear or tabulated (*SPRING, NONLINEAR): SPRINGA (N = 2, along the line),
/// SPRING1 (N = 1), SPRING2 (N = 2).
template <int N, int Dofs>
struct Spring : discrete_detail::DiscreteBase<N, 1, Dofs> {
  /// Spring forces and stored energy.
  template <class T>
  HS_HD static SolidEnergy<T> internal_force(const Vec3<T> X[N], const Vec3<T> u[N], const SolidMaterial<T>& m,
                                             T hourglass_kappa, Vec3<T> f[N], const ElementState<T>& state = {}) {
    (void)hourglass_kappa;
    (void)state;
    T energy;
    if constexpr (Dofs == 0) {
      const Vec3<T> D = X[1] - X[0], d = D + u[1] - u[0];
      const T L = discrete_detail::length(D), l = discrete_detail::length(d);
      const T F = discrete_detail::spring_force(m, l - L, energy);
      f[1] = (F / l) * d;
      f[0] = T(-1) * f[1];
    } else {
      const T s = discrete_detail::relative<T, N>(m, u);
      discrete_detail::spread<T, N>(m, discrete_detail::spring_force(m, s, energy), f);
    }
    return {energy, T(0)};
  }

  /// The spring force for output (SPRINGA: k (l - L), tension positive; else k times the
  /// relative displacement, the force on the first node's dof).
  template <class T>
  HS_HD static T axial_force(const Vec3<T> X[N], const Vec3<T> u[N], const SolidMaterial<T>& m, const Vec3<T>* v) {
    (void)v;
    T energy;
    if constexpr (Dofs == 0) {
      const Vec3<T> D = X[1] - X[0];
      return discrete_detail::spring_force(m, discrete_detail::length(D + u[1] - u[0]) - discrete_detail::length(D), energy);
    } else {
      return discrete_detail::spring_force(m, discrete_detail::relative<T, N>(m, u), energy);
    }
  }
};

/// Linear dashpots: DASHPOTA (N = 2, along the line), DASHPOT1 (N = 1), DASHPOT2 (N = 2).
template <int N, int Dofs>
struct Dashpot : discrete_detail::DiscreteBase<N, 2, Dofs> {
  /// The explicit pass hands internal_force the nodal velocities.
  static constexpr bool kUsesVelocity = true;
  /// State per point: the dissipated energy, then the nodes' displacements (3 per node) at
  /// the last evaluation.
  template <class T>
  HS_HD static constexpr int state_size(const SolidMaterial<T>&) {
    return 1 + 3 * N;
  }

  /// The dashpot's measured velocity and displacement: SPRINGA-like kinds along the current
  /// line n, else the relative dof value.
  template <class T>
  HS_HD static T rate(const SolidMaterial<T>& m, const Vec3<T> X[N], const Vec3<T> u[N], const Vec3<T> w[N],
                      Vec3<T>& n) {
    if constexpr (Dofs == 0) {
      const Vec3<T> d = X[1] - X[0] + u[1] - u[0];
      n = (T(1) / discrete_detail::length(d)) * d;
      return dot(n, w[1] - w[0]);
    } else {
      (void)X;
      (void)u;
      return discrete_detail::relative<T, N>(m, w);
    }
  }

  /// Dashpot forces c x rate at the velocities v (none: no force), and the dissipated energy
  /// (stored in the state; it is also the element's share of the internal energy).
  template <class T>
  HS_HD static SolidEnergy<T> internal_force(const Vec3<T> X[N], const Vec3<T> u[N], const SolidMaterial<T>& m,
                                             T hourglass_kappa, Vec3<T> f[N], const ElementState<T>& state = {},
                                             const Vec3<T>* v = nullptr) {
    (void)hourglass_kappa;
    Vec3<T> zero[N], n{T(0), T(0), T(0)};
    for (int a = 0; a < N; ++a) zero[a] = {T(0), T(0), T(0)};
    const T r = rate(m, X, u, v ? v : zero, n);
    const T F = m.discrete * r;
    if constexpr (Dofs == 0) {
      f[1] = F * n;
      f[0] = T(-1) * f[1];
    } else {
      discrete_detail::spread<T, N>(m, F, f);
    }
    // Work of these forces over the displacement since the last evaluation.
    const StateSlice<const T> old = state.old_at(0);
    T dissipated = old.p ? old[0] : T(0);
    if (old.p) {
      for (int a = 0; a < N; ++a) {
        const Vec3<T> prev{old[1 + 3 * a], old[2 + 3 * a], old[3 + 3 * a]};
        dissipated = dissipated + dot(f[a], u[a] - prev);
      }
    }
    const StateSlice<T> next = state.next_at(0);
    if (next.p) {
      next[0] = dissipated;
      for (int a = 0; a < N; ++a) {
        next[1 + 3 * a] = u[a].x;
        next[2 + 3 * a] = u[a].y;
        next[3 + 3 * a] = u[a].z;
      }
    }
    return {dissipated, T(0), dissipated};
  }

  /// The dashpot force for output at velocities v (DASHPOTA: along the line, tension
  /// positive); 0 without velocities.
  template <class T>
  HS_HD static T axial_force(const Vec3<T> X[N], const Vec3<T> u[N], const SolidMaterial<T>& m, const Vec3<T>* v) {
    if (!v) return T(0);
    Vec3<T> n{T(0), T(0), T(0)};
    return m.discrete * rate(m, X, u, v, n);
  }
};

/// SPRINGA: axial spring between two nodes.
struct SPRINGA : Spring<2, 0> {
  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "SPRINGA"; }
};
/// SPRING1: spring from one node's dof to ground.
struct SPRING1 : Spring<1, 1> {
  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "SPRING1"; }
};
/// SPRING2: spring between dof i of node 1 and dof j of node 2.
struct SPRING2 : Spring<2, 2> {
  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "SPRING2"; }
};
/// DASHPOTA: axial dashpot between two nodes.
struct DASHPOTA : Dashpot<2, 0> {
  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "DASHPOTA"; }
};
/// DASHPOT1: dashpot from one node's dof to ground.
struct DASHPOT1 : Dashpot<1, 1> {
  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "DASHPOT1"; }
};
/// DASHPOT2: dashpot between dof i of node 1 and dof j of node 2.
struct DASHPOT2 : Dashpot<2, 2> {
  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "DASHPOT2"; }
};

}  // namespace halfstep
