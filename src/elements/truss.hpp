// T3D2: the 2-node spatial truss as a continuum trait (interface in solid_kinds.hpp), so the
// CPU pass, every CUDA scheme, partitioning, the static tangent (dual numbers) and output
// reach it through the registry like any solid.
//
// Axial only, total Lagrangian, finite strain: with the reference chord D = X2 - X1 (length
// L) and the current chord d = D + u2 - u1 (length l), the Green-Lagrange strain is
// E = (l^2 - L^2) / (2 L^2), the second Piola-Kirchhoff stress S = Y E (Y the material's
// Young's modulus, from its Lame constants), the energy A L Y E^2 / 2 and the nodal forces its
// exact gradient f2 = -f1 = A S d / L (A: the *SOLID SECTION area, SolidMaterial::thickness).
// The axial force is N = A S l / L, the Cauchy stress N / A (the area is taken as constant).
// Rigid motions leave l = L: no force. Mass rho A L / 2 per node; the free element's
// frequency omega^2 = 4 Y / (rho L^2) gives the critical increment L / c, c = sqrt(Y / rho).
#pragma once

#include <cmath>

#include "core/host_device.hpp"
#include "core/mat3.hpp"
#include "core/vec3.hpp"
#include "elements/solid_common.hpp"
#include "materials/solid_material.hpp"

namespace halfstep {

/// |v|, for double, float and dual numbers (sqrt found by argument-dependent lookup).
template <class T>
HS_HD T truss_length(const Vec3<T>& v) {
  using std::sqrt;
  return sqrt(dot(v, v));
}

/// Young's modulus of an isotropic St. Venant-Kirchhoff material from its Lame constants.
template <class T>
HS_HD T youngs_of(const SolidMaterial<T>& m) {
  return m.mu * (T(3) * m.lambda + T(2) * m.mu) / (m.lambda + m.mu);
}

/// T3D2: 2-node truss (axial force only) with a cross-section area from its *SOLID SECTION.
struct T3D2 {
  static constexpr int kNodes = 2;
  /// Abaqus element name.
  HS_HD static constexpr const char* name() { return "T3D2"; }
  static constexpr const char* kAliases = "";  ///< other deck names run as this kind
  static constexpr int kDimension = 3;         ///< space dimension of the element's nodes
  static constexpr int kVtkCell = 3;           ///< VTK_LINE
  static constexpr double kCost = 0.1;         ///< relative cost per increment (MITC4 = 1); estimated, not measured
  static constexpr int kPoints = 1;            ///< integration points
  /// The measure mass_fractions returns is a length: the section's area (thickness field)
  /// makes it a volume, and the material must be isotropic St. Venant-Kirchhoff.
  static constexpr bool kCrossSection = true;

  /// Half the mass per node; returns the reference length L (0 when the nodes coincide).
  template <class T>
  HS_HD static T mass_fractions(const Vec3<T> X[2], T frac[2]) {
    frac[0] = frac[1] = T(0.5);
    return truss_length(X[1] - X[0]);
  }

  /// Axial forces and strain energy (see the header). NaN for coincident nodes.
  template <class T>
  HS_HD static SolidEnergy<T> internal_force(const Vec3<T> X[2], const Vec3<T> u[2], const SolidMaterial<T>& m,
                                             T hourglass_kappa, Vec3<T> f[2], const ElementState<T>& state = {}) {
    (void)hourglass_kappa;
    (void)state;
    const Vec3<T> D = X[1] - X[0];
    const T L2 = dot(D, D);
    if (!(L2 > T(0))) {
      const T nan = solid_detail::quiet_nan<T>();
      f[0] = f[1] = {nan, nan, nan};
      return {nan, T(0)};
    }
    const Vec3<T> d = D + u[1] - u[0];
    const T E = (dot(d, d) - L2) / (T(2) * L2);
    const T S = youngs_of(m) * E;
    using std::sqrt;
    const T L = sqrt(L2);
    f[1] = (m.thickness * S / L) * d;
    f[0] = T(-1) * f[1];
    return {T(0.5) * m.thickness * L * youngs_of(m) * E * E, T(0)};
  }

  /// Critical increment 2 / omega = L / c of the free element with its lumped masses.
  template <class T>
  HS_HD static T stable_dt(const Vec3<T> X[2], const SolidMaterial<T>& m, T hourglass_kappa = T(0.1)) {
    (void)hourglass_kappa;
    const T L = truss_length(X[1] - X[0]);
    if (!(L > T(0))) return T(0);
    return solid_detail::dt_from_omega2(T(4) * youngs_of(m) / (m.density * L * L));
  }

  /// The axial force N = A S l / L (tension positive), for output.
  template <class T>
  HS_HD static T axial_force(const Vec3<T> X[2], const Vec3<T> u[2], const SolidMaterial<T>& m, const Vec3<T>* v) {
    (void)v;
    const Vec3<T> D = X[1] - X[0], d = D + u[1] - u[0];
    const T L2 = dot(D, D), l2 = dot(d, d);
    using std::sqrt;
    return m.thickness * youngs_of(m) * (l2 - L2) / (T(2) * L2) * sqrt(l2 / L2);
  }

  /// Cauchy stress N / A n (x) n along the current chord n, Green strain E N0 (x) N0 along
  /// the reference chord.
  template <class T>
  HS_HD static SolidOutput<T> centroid_output(const Vec3<T> X[2], const Vec3<T> u[2], const SolidMaterial<T>& m,
                                              ElementState<T> state = {}) {
    (void)state;
    const Vec3<T> D = X[1] - X[0], d = D + u[1] - u[0];
    const T L2 = dot(D, D), l2 = dot(d, d);
    const T E = (l2 - L2) / (T(2) * L2);
    using std::sqrt;
    const T sigma = youngs_of(m) * E * sqrt(l2 / L2);
    SolidOutput<T> out{scaled_identity(T(0)), scaled_identity(T(0))};
    const T dn[3] = {d.x, d.y, d.z}, Dn[3] = {D.x, D.y, D.z};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        out.cauchy(i, j) = sigma * dn[i] * dn[j] / l2;
        out.green(i, j) = E * Dn[i] * Dn[j] / L2;
      }
    return out;
  }
};

}  // namespace halfstep
